"""How the answers speak to a player: cards in the notation the hand was typed in, players by their
names and parameters in words, an estimate with its interval to as many decimals as the interval
warrants, and a decision's confidence as "a clear choice" or "a close call".

The one-hand commands (``salon ecarte propose``, ``salon bezique advise``, ``salon bezique solve``),
``salon compare`` and ``salon tips`` print through these; the technical descriptions stay in the
JSON and in ``--verbose``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from analysis.cards import Card, format_book, format_cards

SUIT_SYMBOLS = frozenset("♠♥♦♣♤♡♢♧")
CLEAR, CLOSE = "a clear choice", "a close call"


def _tokens(typed: str) -> list[str]:
    return [t.strip("\ufe0e\ufe0f") for t in typed.replace(",", " ").split()]


def notation(typed: str) -> str:
    """How a hand was typed: ``book`` (a suit symbol opening a group of ranks: ``♠K Q ♥7``),
    ``symbols`` (each card with its suit symbol after the rank: ``K♠ Q♠``) or ``codes`` (``KS QS``)."""
    toks = _tokens(typed)
    if any(t[:1] in SUIT_SYMBOLS for t in toks):
        return "book"
    if any(ch in SUIT_SYMBOLS for t in toks for ch in t):
        return "symbols"
    return "codes"


def cards_as_typed(cards: Iterable[Card], typed: str, rank_order: Sequence[str] | None = None) -> str:
    """Cards written in the notation of ``typed``: book style grouped by suit, ranks high to low in
    ``rank_order`` (the game's, highest first), or one card at a time (``K♠``, ``KS``) in the order given."""
    cards = list(cards)
    how = notation(typed)
    if how == "book":
        return format_book(cards, rank_order)
    return format_cards(cards, symbols=how == "symbols")


def estimate_text(value: float, lo: float | None, hi: float | None) -> str:
    """``+0.13 [+0.07, +0.20]``, to as many decimals as the interval's width warrants."""
    from analysis.report.guide import effect_text

    if lo is None or hi is None:
        return f"{value:+.4g}"
    return effect_text({"value": value, "ci95": [lo, hi]})


def confidence(clear: bool) -> str:
    """A decision's confidence in a player's words."""
    return CLEAR if clear else CLOSE


# --------------------------------------------------------------------------------------- players
KINDS = {"heuristic": ("heuristic player", None), "random": ("random player", "every choice at random"),
         "search": ("search player", None), "dd": ("open-hands player", "sees every card"),
         "equilibrium tables": ("the solved equilibrium tables", None)}
"""A policy's kind as a player's name, and what the name means when it is not plain."""

HASHES = ("lead_weights_sha256", "read_ratios_sha256", "read_weights_sha256", "table_sha256")
"""Parameters that only fingerprint data files: in the JSON and --verbose, never in the short words."""


def _facts(desc: dict) -> list[str]:
    """What names a player beyond its kind, in words."""
    facts = []
    if "samples" in desc:
        facts.append(f"{desc['samples']} samples of the hidden cards")
    if desc.get("exchange") in ("learned", "learned-ordering"):
        facts.append("the learned exchange" + (", fast" if desc["exchange"] == "learned-ordering" else ""))
    if desc.get("leads") == "learned":
        facts.append("learned leads" + (" reading the other's first decision"
                                        if desc.get("reads", "none") != "none" else ""))
    if desc.get("exact_endgame"):
        facts.append("the exact end game")
    if desc.get("rollout_exact"):
        facts.append("the exact end game in its rollouts")
    if desc.get("meld_chance"):
        facts.append("counting the chance of completing melds")
    if desc.get("discards") == "table":
        facts.append("discards from a table")
    if desc.get("partie", "deal") != "deal":
        facts.append(f"playing for the {desc['partie']}")
    if "opponent" in desc and isinstance(desc["opponent"], str):
        facts.append(f"against the {desc['opponent']}")
    return facts


def _value(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def overrides(desc: dict, base: dict | None) -> list[str]:
    """The parameters of ``desc`` that differ from ``base`` (the named player's defaults), as
    ``KEY=VALUE`` (what ``--param`` takes)."""
    if not base:
        return []
    return [f"{k}={_value(v)}" for k, v in desc.items()
            if k not in ("kind", *HASHES) and (k not in base or base[k] != v)]


def player_words(desc, base: dict | None = None) -> str:
    """A player in words: ``search player (128 samples of the hidden cards, the exact end game)``;
    with ``base`` (the named player's own description) also the parameters changed from it. A
    description that is already words is shortened to its first clause."""
    if not isinstance(desc, dict):
        text = str(desc)
        return text.split(" (")[0].split(";")[0]
    if "kind" not in desc:
        return ""
    name, meaning = KINDS.get(desc["kind"], (f"{desc['kind']} player", None))
    facts = ([meaning] if meaning else []) + _facts(desc) + [f"with {p}" for p in overrides(desc, base)]
    return name + (f" ({', '.join(facts)})" if facts else "")


def parameters(desc) -> str:
    """Every parameter of a player, as ``KEY=VALUE`` (for --verbose)."""
    if not isinstance(desc, dict):
        return str(desc)
    return ", ".join(f"{k}={_value(v)}" for k, v in desc.items() if k != "kind") or "no parameters"


def legend(items: Sequence[tuple[str, str]], indent: str = "  ") -> list[str]:
    """A table's legend, one line per column: ``legend: net points  your points minus ...``."""
    width = max(len(term) for term, _ in items)
    return [f"{indent}{'legend:' if k == 0 else '':<8}{term:<{width}}  {meaning}"
            for k, (term, meaning) in enumerate(items)]

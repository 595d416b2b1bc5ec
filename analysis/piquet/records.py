"""Piquet deal records: JSON in and out, step-by-step validation, replay and re-scoring.

A record is one deal as a JSON object, cards as strings (``"KH"``, ``"10S"``; parsing also takes
``"K♥"``, ``"♥K"``, ``"10h"``, ``"Th"``)::

    {"game": "piquet", "rules": "seed-de", "switches": {"capot": 40},        # switches optional
     "elder": {"dealt": [12 cards], "discard": [cards], "sink": ["point"]},  # sink optional
     "younger": {"dealt": [12 cards], "discard": [cards]},
     "talon": [8 cards, top first],
     "tricks": [[card led, card played to it], ... 12 pairs]}

The cards each player takes follow from the rules (PQ-EX-E, PQ-EX-Y); elder leads the first trick
and each winner the next (PQ-PLAY). ``"sink"`` lists categories (point, sequences, sets) the
player declared as nothing; declarations are in full otherwise. An optional ``"source"`` (where
the deal came from) and ``"comment"`` are carried along and not checked. :func:`replay` checks
every step against RULES.md and raises :class:`InputError` with one line naming the step and the
rule broken; otherwise it re-scores the deal.
"""
from __future__ import annotations

from analysis.piquet import reference as ref
from analysis.piquet.reference import ELDER, SEATS, YOUNGER, DealResult
from analysis.piquet.rules import VARIANTS, PiquetRules, code_of, get_rules, name_of
from analysis.record_files import (  # noqa: F401 (the records API)
    card_code,
    card_codes,
    fail_step,
    load_record,
    load_records,
    record_rules,
    save_records,
)

REQUIRED_KEYS = ("game", "rules", "elder", "younger", "talon", "tricks")
OPTIONAL_KEYS = ("switches", "source", "comment")
PLAYER_KEYS = ("dealt", "discard")
PLAYER_OPTIONAL = ("sink",)


_fail = fail_step


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def _rules_entries(rules: PiquetRules) -> dict:
    """``"rules"`` and, when some switch differs from that variant, ``"switches"``."""
    name = rules.name if rules.name in VARIANTS else "seed-de"
    changed = ref.overridden_switches(rules)
    return {"rules": name, **({"switches": changed} if changed else {})}


def record_from_deal(result: DealResult, rules: PiquetRules) -> dict:
    """The JSON record (a dict) of a deal played by :func:`reference.play_deal`."""
    def names(codes):
        return [name_of(c) for c in codes]

    return {
        "game": "piquet",
        **_rules_entries(rules),
        "elder": {"dealt": names(result.elder_dealt), "discard": names(result.elder_discard)},
        "younger": {"dealt": names(result.younger_dealt),
                    "discard": names(result.younger_discard)},
        "talon": names(result.talon),
        "tricks": [[name_of(t.led), name_of(t.followed)] for t in result.tricks],
        "source": {"seed": result.seed, "index": result.index, "lane_base": result.lane_base},
    }


# ---------------------------------------------------------------------------------------------
# Reading the structure
# ---------------------------------------------------------------------------------------------

def _card(value, where: str) -> int:
    """One card string -> its code."""
    return card_code(value, where, code_of)


def _cards(value, where: str) -> list[int]:
    """A list of card strings -> codes."""
    return card_codes(value, where, code_of)


def _rules_of(record: dict, rules: PiquetRules | None) -> PiquetRules:
    """The explicit rules, else the record's variant with its switches."""
    return record_rules(record, rules, get_rules)


def _check_keys(record, rules: PiquetRules | None) -> None:
    """The record is an object with the required keys and no unknown ones, for piquet."""
    if not isinstance(record, dict):
        _fail("record", f"expected a JSON object, got {type(record).__name__}")
    for key in REQUIRED_KEYS:
        if key not in record and not (key == "rules" and rules is not None):
            _fail("record", f"missing key {key!r}")
    unknown = [k for k in record if k not in REQUIRED_KEYS + OPTIONAL_KEYS]
    if unknown:
        valid = ", ".join(REQUIRED_KEYS + OPTIONAL_KEYS)
        _fail("record", f"unknown key {unknown[0]!r}; valid: {valid}")
    if record["game"] != "piquet":
        _fail("game", f"expected 'piquet', got {record['game']!r}")


def _player(record: dict, seat: str) -> tuple[list[int], list[int], list[str]]:
    """A player's entry: dealt cards, discard and sunk categories."""
    entry = record[seat]
    if not isinstance(entry, dict):
        _fail(seat, f"expected an object with {' and '.join(PLAYER_KEYS)}, got {type(entry).__name__}")
    for key in PLAYER_KEYS:
        if key not in entry:
            _fail(seat, f"missing key {key!r}")
    for key in entry:
        if key not in PLAYER_KEYS + PLAYER_OPTIONAL:
            _fail(seat, f"unknown key {key!r}; valid: {', '.join(PLAYER_KEYS + PLAYER_OPTIONAL)}")
    dealt = _cards(entry["dealt"], f"{seat}: dealt")
    discard = _cards(entry["discard"], f"{seat}: discard")
    sink = entry.get("sink", [])
    if not isinstance(sink, list):
        _fail(f"{seat}: sink", f"expected a list of categories, got {type(sink).__name__}")
    for cat in sink:
        if cat not in ref.CATEGORIES:
            _fail(f"{seat}: sink", f"unknown category {cat!r}; valid: {', '.join(ref.CATEGORIES)}")
    return dealt, discard, sink


def _tricks(record: dict) -> list[tuple[int, int]]:
    """The tricks as (led, followed) code pairs (their legality is checked by the reference)."""
    tricks = record["tricks"]
    if not isinstance(tricks, list):
        _fail("tricks", f"expected a list of [led, played] pairs, got {type(tricks).__name__}")
    pairs = []
    for n, pair in enumerate(tricks, 1):
        step = f"trick {n}"
        if not isinstance(pair, list) or len(pair) != 2:
            _fail(step, "expected a pair [card led, card played to it]")
        pairs.append((_card(pair[0], step), _card(pair[1], step)))
    return pairs


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def replay(record: dict, rules: PiquetRules | None = None) -> dict:
    """Check every step of a record against the rules and re-score the deal.

    ``rules`` overrides the record's ``"rules"`` and ``"switches"``. Returns ``{"game": "piquet",
    "rules": name, "switches": {...}, "scores": {"elder": {...}, "younger": {...}}}``, each score a
    breakdown (carte_blanche, point, sequences, sets, repique, pique, trick_points, cards, capot,
    total, tricks). An illegal or malformed record raises :class:`InputError` naming the step and
    the rule.
    """
    _check_keys(record, rules)
    rules = _rules_of(record, rules)
    e_dealt, e_disc, e_sink = _player(record, ELDER)
    y_dealt, y_disc, y_sink = _player(record, YOUNGER)
    talon = _cards(record["talon"], "talon")
    pairs = _tricks(record)
    scores = ref.score_deal(rules, e_dealt, y_dealt, talon, e_disc, y_disc, pairs,
                            sink={ELDER: set(e_sink), YOUNGER: set(y_sink)})
    return {
        "game": "piquet",
        "rules": rules.name,
        "switches": rules.switches(),
        "scores": {seat: dict(scores[seat]) for seat in SEATS},
    }

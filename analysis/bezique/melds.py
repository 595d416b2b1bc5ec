"""Meld analysis for ``salon bezique melds``: the legal melds of a hand given the trump suit and
the melds already on the table, read at the edge and answered by the reference's
``legal_melds`` (no kernels compiled).

Table groups are read in order. A card face in a later group is the same physical card as one
already on the table when that card has not yet been used in the new group's meld class
(reuse across classes, BZ-REUSE); otherwise it is the other copy. The hand's cards are the copies
left over; more than two copies of a card in all is an error.
"""
from __future__ import annotations

from analysis.bezique import reference as ref
from analysis.bezique.rules import BeziqueRules, code_of, name_of
from analysis.cards import SUIT_SYMBOLS, SUITS, parse_cards
from analysis.errors import InputError

PUBLIC_NAMES = {"marriage": "common_marriage", "sequence": "trump_sequence"}
"""The meld names of the command's JSON where they differ from the reference's kinds."""


def parse_suit(text: str) -> int:
    """A trump suit: S H D C, ♠ ♥ ♦ ♣, or spades/hearts/diamonds/clubs."""
    t = text.strip().lower().replace("\ufe0f", "")
    for i, (letter, symbol, word) in enumerate(zip(SUITS, SUIT_SYMBOLS, ref.SUIT_NAMES, strict=True)):
        if t in (letter.lower(), symbol, word):
            return i
    raise InputError(f"not a suit: {text!r} (write S, H, D, C or ♠ ♥ ♦ ♣)")


def _faces(text: str, what: str, lang: str | None) -> list[int]:
    try:
        return [code_of(c) for c in parse_cards(text, allow_copies=2, lang=lang)]
    except InputError as e:
        raise InputError(f"{what}: {e}") from None


def read_position(hand: str, trump: int, table: str | None, lang: str | None = None):
    """(hand codes, table {code: kinds it was used in}) for legal_melds, from the command's text."""
    table_cards: dict[int, set] = {}
    for i, group in enumerate([g for g in (table or "").split(";") if g.strip()], 1):
        faces = _faces(group, f"table meld {i}", lang)
        kind = ref.meld_kind_of(faces, trump)
        if kind is None:
            raise InputError(f"table meld {i} is not a meld: {group.strip()!r}")
        klass = ref.CLASS_OF[kind]
        used_here: set[int] = set()
        for f in faces:
            reuse = [c for c in (f, f + 32) if c in table_cards and c not in used_here
                     and all(ref.CLASS_OF[k] != klass for k in table_cards[c])]
            fresh = [c for c in (f, f + 32) if c not in table_cards]
            pick = (reuse or fresh or [None])[0]
            if pick is None:
                raise InputError(f"table meld {i}: a third {name_of(f)} (two packs hold two)")
            table_cards.setdefault(pick, set()).add(kind)
            used_here.add(pick)
    hand_codes = []
    for f in _faces(hand, "hand", lang):
        free = [c for c in (f, f + 32) if c not in table_cards and c not in hand_codes]
        if not free:
            raise InputError(f"hand: a third {name_of(f)} counting the table (two packs hold two)")
        hand_codes.append(free[0])
    return hand_codes, {c: frozenset(k) for c, k in table_cards.items()}


def meld_report(hand: str, trump: str, table: str | None, rules: BeziqueRules, lang: str | None = None) -> dict:
    """``salon bezique melds``: the legal melds and their points."""
    t = parse_suit(trump)
    hand_codes, table_cards = read_position(hand, t, table, lang)
    melds = ref.legal_melds(hand_codes, table_cards, t, rules)
    return {"rules": rules.name, "trump": SUITS[t], "hand": [name_of(c) for c in hand_codes],
            "table": [{"card": name_of(c), "used_in": sorted(PUBLIC_NAMES.get(k, k) for k in kinds)}
                      for c, kinds in sorted(table_cards.items())],
            "melds": [{"name": PUBLIC_NAMES.get(m.kind, m.kind), "cards": [name_of(c) for c in m.cards],
                       "from_hand": [name_of(c) for c in m.hand], "points": m.points} for m in melds]}


def melds_text(res: dict) -> str:
    """The text form of ``meld_report``."""
    lines = [f"rules {res['rules']} · trumps {res['trump']} · hand {' '.join(res['hand'])}"]
    if res["table"]:
        lines.append("  on the table: " + ", ".join(f"{t['card']} ({'/'.join(t['used_in'])})" for t in res["table"]))
    if not res["melds"]:
        lines.append("  no legal meld")
    for m in res["melds"]:
        lines.append(f"  {m['name']:<15} {' '.join(m['cards']):<22} {m['points']:>4}")
    return "\n".join(lines)

"""Meld analysis for ``salon bezique melds``: the legal melds of a hand given the trump suit and
the melds already on the table, read at the edge and answered by the reference's
``legal_melds`` (no kernels compiled).

Table groups (``--table "KH QH; AH 10H =KH =QH JH"``, one group per meld, in the order laid) are
read in order. A card face in a later group is the same physical card as one already on the table
when that card has not yet been used in the new group's meld class (reuse across classes,
BZ-REUSE); otherwise it is the other copy. A card written with ``=`` in front (``=KH``) is the
copy already on the table from an earlier group, whatever the class: the way to say that the king
and queen of a royal marriage went on into the trump sequence (both variants), or a sequence's
into a royal marriage (seed-de), or a single bezique's into a double (classic). Such a reuse must
be legal under the rules (BZ-REUSE, BZ-DOUBLE), and a group with a marked card must add a card
that was not yet on the table unless the rules let it do without (seed-de's royal marriage from a
sequence). The hand's cards are the copies left over; more than two copies of a card in all is an
error, and so are more cards than a player holds when he melds: 7 in hand and on the table
together (8 less the card he played to the trick he won, BZ-MELD; melded cards stay part of the
hand).
"""
from __future__ import annotations

import re

from analysis.bezique.reference.cards import HAND_SIZE, SUIT_NAMES
from analysis.bezique.reference.melds import (
    CLASS_OF,
    KIND_NAMES,
    legal_melds,
    meld_kind_of,
    needs_hand_card,
    table_card_eligible,
    table_order,
)
from analysis.bezique.rules import BeziqueRules, code_of, get_rules, name_of
from analysis.cards import SUIT_SYMBOLS, SUITS, parse_cards
from analysis.errors import InputError

PUBLIC_NAMES = {"marriage": "common_marriage", "sequence": "trump_sequence"}
"""The meld names of the command's JSON where they differ from the reference's kinds."""


def parse_suit(text: str) -> int:
    """A trump suit: S H D C, ♠ ♥ ♦ ♣, or spades/hearts/diamonds/clubs."""
    t = text.strip().lower().replace("\ufe0f", "")
    for i, (letter, symbol, word) in enumerate(zip(SUITS, SUIT_SYMBOLS, SUIT_NAMES, strict=True)):
        if t in (letter.lower(), symbol, word):
            return i
    raise InputError(f"not a suit: {text!r} (write S, H, D, C or ♠ ♥ ♦ ♣)")


HELD_AT_MELD = HAND_SIZE - 1
"""Cards a player holds, in hand and on the table, when he melds (BZ-MELD: after winning a stock
trick, before drawing, so one of his 8 is in the trick)."""
SAME_CARD = "="
"""Marks a table card as the copy already on the table from an earlier group (``=KH``)."""
_SEPARATORS = re.compile(r"[\s,]+")


def _faces(text: str, what: str, lang: str | None) -> list[int]:
    try:
        return [code_of(c) for c in parse_cards(text, allow_copies=2, lang=lang)]
    except InputError as e:
        raise InputError(f"{what}: {e}") from None


def _marked_faces(group: str, what: str, lang: str | None) -> tuple[list[int], set[int]]:
    """A table group's faces and the positions among them written with SAME_CARD."""
    tokens = [t for t in _SEPARATORS.split(group.strip()) if t]
    plain = [t[len(SAME_CARD):] if t.startswith(SAME_CARD) else t for t in tokens]
    if any(not t for t in plain):
        raise InputError(f"{what}: a lone {SAME_CARD!r}: write it against the card, as in {SAME_CARD}KH")
    faces = _faces(" ".join(plain), what, lang)
    marked = set()
    for k, t in enumerate(tokens):
        if t.startswith(SAME_CARD):
            before = len(_faces(" ".join(plain[:k]), what, lang))
            if len(_faces(" ".join(plain[:k + 1]), what, lang)) != before + 1:
                raise InputError(f"{what}: {t!r}: the {SAME_CARD!r} mark goes on a card, as in {SAME_CARD}KH")
            marked.add(before)
    return faces, marked


def read_position(hand: str, trump: int, table: str | None, lang: str | None = None,
                  rules: BeziqueRules | None = None):
    """(hand codes, table {code: kinds it was used in}) for legal_melds, from the command's text."""
    rules = rules or get_rules()
    table_cards: dict[int, set] = {}
    groups = [g for g in (table or "").split(";") if g.strip()]
    for i, group in enumerate(groups, 1):
        what = f"table meld {i}"
        faces, marked = _marked_faces(group, what, lang)
        kind = meld_kind_of(faces, trump)
        if kind is None:
            raise InputError(f"{what} is not a meld: {group.strip()!r}")
        klass = CLASS_OF[kind]
        used_here: set[int] = set()
        before: dict[int, frozenset] = {}  # the table cards this group takes, with their kinds before it
        for j in sorted(range(len(faces)), key=lambda j: j not in marked):  # marked cards first
            f = faces[j]
            if j in marked:
                on_table = [c for c in table_order({c: frozenset(table_cards[c]) for c in (f, f + 32)
                                                         if c in table_cards}) if c not in used_here]
                if not on_table:
                    raise InputError(f"{what}: {SAME_CARD}{name_of(f)}, but no {name_of(f)} of an earlier table meld "
                                     f"is left for this one")
                fits = [c for c in on_table if table_card_eligible(frozenset(table_cards[c]), kind, rules)]
                if not fits:
                    used = " and ".join(KIND_NAMES[k] for k in sorted(table_cards[on_table[0]]))
                    raise InputError(f"{what}: {name_of(f)} was melded in {used}, so under {rules.name} it cannot "
                                     f"join a {KIND_NAMES[kind]} (BZ-REUSE)")
                pick = fits[0]
            else:
                reuse = [c for c in (f, f + 32) if c in table_cards and c not in used_here
                         and all(CLASS_OF[k] != klass for k in table_cards[c])]
                fresh = [c for c in (f, f + 32) if c not in table_cards]
                pick = (reuse or fresh or [None])[0]
                if pick is None:
                    raise InputError(f"{what}: a third {name_of(f)} (two packs hold two; a card already on the "
                                     f"table is written {SAME_CARD}{name_of(f)})")
            if pick in table_cards:
                before[pick] = frozenset(table_cards[pick])
            table_cards.setdefault(pick, set()).add(kind)
            used_here.add(pick)
        if marked and len(before) == len(faces) and needs_hand_card(kind, list(before.values()), rules):
            raise InputError(f"{what}: every card was already on the table, but a new meld adds a card from "
                             f"the hand (BZ-REUSE)")
    hand_codes = []
    for f in _faces(hand, "hand", lang):
        free = [c for c in (f, f + 32) if c not in table_cards and c not in hand_codes]
        if not free:
            raise InputError(f"hand: a third {name_of(f)} counting the table (two packs hold two; a card in two "
                             f"table melds is written {SAME_CARD}{name_of(f)} the second time)")
        hand_codes.append(free[0])
    held = len(hand_codes) + len(table_cards)
    if held > HELD_AT_MELD:
        where = "hand and table together hold" if table_cards else "the hand holds"
        hint = (f"; a card in two table melds counts once when marked the second time, as in {SAME_CARD}KH"
                if len(groups) > 1 else "")
        raise InputError(f"{where} {held} cards, but a player who melds holds at most {HELD_AT_MELD} "
                         f"(8 less the card he played to the trick he won, BZ-MELD){hint}")
    return hand_codes, {c: frozenset(k) for c, k in table_cards.items()}


def meld_report(hand: str, trump: str, table: str | None, rules: BeziqueRules, lang: str | None = None) -> dict:
    """``salon bezique melds``: the legal melds and their points."""
    t = parse_suit(trump)
    hand_codes, table_cards = read_position(hand, t, table, lang, rules)
    melds = legal_melds(hand_codes, table_cards, t, rules)
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

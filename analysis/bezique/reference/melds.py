"""Bezique reference: the melds, which exist and which a player may lay (BZ-MELD, BZ-VALUES, BZ-REUSE,
BZ-DOUBLE).

The meld kinds and their classes, the faces each kind needs, when a card already on the table may
join a new meld, and every legal meld of a hand and table.
"""
from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

from analysis.bezique.reference.cards import face, rank_of
from analysis.bezique.rules import ACE, DIAMONDS, JACK, KING, QUEEN, SPADES, TEN, BeziqueRules

KINDS = ("marriage", "royal_marriage", "sequence", "bezique", "double_bezique",
         "four_jacks", "four_queens", "four_kings", "four_aces")
CLASS_OF = {"marriage": "M", "royal_marriage": "M", "sequence": "M", "bezique": "B",
            "double_bezique": "B", "four_jacks": "F", "four_queens": "F", "four_kings": "F",
            "four_aces": "F"}
FOUR_RANK = {"four_jacks": JACK, "four_queens": QUEEN, "four_kings": KING, "four_aces": ACE}
KIND_NAMES = {"marriage": "marriage", "royal_marriage": "royal marriage",
              "sequence": "trump sequence", "bezique": "bezique", "double_bezique": "double bezique",
              "four_jacks": "four jacks", "four_queens": "four queens", "four_kings": "four kings",
              "four_aces": "four aces"}

QUEEN_SPADES = 8 * SPADES + QUEEN
JACK_DIAMONDS = 8 * DIAMONDS + JACK


# ---------------------------------------------------------------------------------------------
# Melds (BZ-MELD, BZ-VALUES, BZ-REUSE, BZ-DOUBLE)
# ---------------------------------------------------------------------------------------------

class Meld(NamedTuple):
    """One meld: its kind, its cards (ascending codes), the ones laid from the hand, its points."""

    kind: str
    cards: tuple[int, ...]
    hand: tuple[int, ...]
    points: int


@functools.lru_cache(maxsize=None)
def required_faces(kind: str, trump: int) -> list[dict[int, int]]:
    """BZ-VALUES: the face multisets (face -> copies needed) that form a meld of ``kind``.

    Fours take any four cards of the rank (suits need not differ: "any suits"), so they have one
    multiset per way of taking 0, 1 or 2 copies of each suit's card, four in all.
    """
    if kind == "marriage":
        return [{8 * s + KING: 1, 8 * s + QUEEN: 1} for s in range(4) if s != trump]
    if kind == "royal_marriage":
        return [{8 * trump + KING: 1, 8 * trump + QUEEN: 1}]
    if kind == "sequence":
        return [{8 * trump + r: 1 for r in (ACE, TEN, KING, QUEEN, JACK)}]
    if kind == "bezique":
        return [{QUEEN_SPADES: 1, JACK_DIAMONDS: 1}]
    if kind == "double_bezique":
        return [{QUEEN_SPADES: 2, JACK_DIAMONDS: 2}]
    r = FOUR_RANK[kind]
    return [{8 * s + r: n for s, n in enumerate(need) if n}
            for need in itertools.product(range(3), repeat=4) if sum(need) == 4]


def table_card_eligible(used: frozenset, kind: str, rules: BeziqueRules) -> bool:
    """BZ-REUSE, BZ-DOUBLE: may a table card already used in the meld kinds ``used`` join a new
    meld of ``kind``?

    Any class it has not been used in: yes. Its own class: no, except a royal marriage's card in
    a sequence (both variants), a sequence's card in a royal marriage (seed-de, ``either_order``)
    and a single bezique's card in a double bezique (classic, ``double_bezique_after_single``).
    """
    same = {u for u in used if CLASS_OF[u] == CLASS_OF[kind]}
    if not same:
        return True
    if kind == "sequence" and same == {"royal_marriage"}:
        return True
    if kind == "royal_marriage" and same == {"sequence"} and rules.reuse_either_order:
        return True
    return kind == "double_bezique" and same == {"bezique"} and rules.double_bezique_after_single


def needs_hand_card(kind: str, table_used: list[frozenset], rules: BeziqueRules) -> bool:
    """BZ-REUSE: every new meld adds a card from the hand, except (seed-de) a royal marriage made
    of the king and queen of a sequence already on the table."""
    if kind == "royal_marriage" and rules.reuse_either_order and len(table_used) == 2:
        return not all("sequence" in used for used in table_used)
    return True


def table_order(table: dict[int, frozenset]) -> list[int]:
    """The canonical order in which a player uses table copies of a face: the copy used in the
    most meld kinds first, ties by lower code (keep the fresher copy)."""
    return sorted(table, key=lambda c: (-len(table[c]), c))


def legal_melds(hand, table: dict[int, frozenset], trump: int, rules: BeziqueRules) -> list[Meld]:
    """Every meld the player may lay now (BZ-MELD, BZ-VALUES, BZ-REUSE, BZ-DOUBLE).

    ``hand``: codes of his cards not on the table; ``table``: his table cards and the meld kinds
    each has been used in. Two melds that differ only in which of two interchangeable copies
    they use are the same meld: hand copies are taken lowest code first, table copies in
    :func:`table_order` among those eligible. Ordered by kind (KINDS), then cards.
    """
    in_hand: dict[int, list[int]] = {}
    for c in sorted(hand):
        in_hand.setdefault(face(c), []).append(c)
    on_table: dict[int, list[int]] = {}
    for c in table_order(table):
        on_table.setdefault(face(c), []).append(c)
    out: dict[tuple, Meld] = {}
    for kind in KINDS:
        if kind in FOUR_RANK:
            r = FOUR_RANK[kind]
            held = sum(len(v) for d in (in_hand, on_table) for f, v in d.items() if rank_of(f) == r)
            if held < 4:
                continue
        for need in required_faces(kind, trump):
            if any(len(in_hand.get(f, ())) + len(on_table.get(f, ())) < n for f, n in need.items()):
                continue
            per_face = []
            for f, n in need.items():
                h_cards = in_hand.get(f, [])
                t_cards = [c for c in on_table.get(f, ()) if table_card_eligible(table[c], kind, rules)]
                per_face.append([(h_cards[:h], t_cards[:n - h])
                                 for h in range(n + 1) if h <= len(h_cards) and n - h <= len(t_cards)])
            for choice in itertools.product(*per_face):
                from_hand = tuple(sorted(c for h, _ in choice for c in h))
                from_table = [c for _, t in choice for c in t]
                if not from_hand and needs_hand_card(kind, [table[c] for c in from_table], rules):
                    continue
                cards = tuple(sorted(from_hand + tuple(from_table)))
                out[(KINDS.index(kind), cards)] = Meld(kind, cards, from_hand, rules.meld_value(kind))
    return [out[k] for k in sorted(out)]


def meld_kind_of(faces: list[int], trump: int) -> str | None:
    """The meld kind a multiset of faces forms (None: no meld)."""
    counts = sorted(faces)
    for kind in KINDS:
        for need in required_faces(kind, trump):
            if counts == sorted(f for f, n in need.items() for _ in range(n)):
                return kind
    return None

"""``salon bezique solve``: the exact value of an end-game position (endgame.py), read at the edge.

Both hands hold the same number of cards, 1..8, with at most two copies of a card between them
(the doubled pack). The value is the hand's points from the remaining tricks minus the
opponent's (BZ-BRISQUE, and BZ-LAST when the last trick is the 32nd), both playing best under
the rules' end-phase obligations (BZ-END); ``best`` lists every card the leader may lead to reach
it.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from analysis.bezique.melds import parse_suit
from analysis.bezique.rules import BeziqueRules, code_of, name_of
from analysis.cards import parse_cards
from analysis.errors import InputError

LEADERS = ("hand", "opponent")


def _codes(text: str, what: str) -> list[int]:
    """Card codes (first copies first) of a hand written in the card grammar."""
    try:
        cards = parse_cards(text, allow_copies=2)
    except InputError as e:
        raise InputError(f"{what}: {e}") from None
    seen: Counter = Counter()
    out = []
    for c in cards:
        out.append(code_of(c, seen[c]))
        seen[c] += 1
    return out


def read_position(hand: str, opponent: str, trump: str) -> tuple[list[int], list[int], int]:
    """Both hands' codes (each hand's own copies distinct: the solver counts faces) and the trump
    suit, checked: equal sizes 1..8, no card more than twice in all."""
    h, o = _codes(hand, "--hand"), _codes(opponent, "--opponent")
    if len(h) != len(o):
        raise InputError(f"the hands must hold the same number of cards: --hand has {len(h)}, --opponent {len(o)}")
    if not 1 <= len(h) <= 8:
        raise InputError(f"each hand must hold 1 to 8 cards, not {len(h)}")
    faces = Counter(c & 31 for c in h + o)
    over = sorted(name_of(f) for f, k in faces.items() if k > 2)
    if over:
        raise InputError(f"more than two copies of {', '.join(over)} between the two hands (the pack has two)")
    return h, o, parse_suit(trump)


def mask(codes: list[int]) -> np.int64:
    """The 64-bit card mask of distinct codes."""
    m = 0
    for c in codes:
        m |= 1 << c
    return np.int64(m - (1 << 64) if m >= 1 << 63 else m)


def solve(hand: str, opponent: str, trump: str, leader: str, rules: BeziqueRules) -> dict:
    """The position's value for the hand, the leader's cards reaching it, and the search's nodes."""
    from analysis.bezique import endgame as EG

    if leader not in LEADERS:
        raise InputError(f"--leader must be hand or opponent, not {leader!r}")
    h, o, t = read_position(hand, opponent, trump)
    lead_codes, follow_codes = (h, o) if leader == "hand" else (o, h)
    L, F = EG.canonical(mask(lead_codes)), EG.canonical(mask(follow_codes))
    must = int(rules.end_must_win)
    last = rules.last_trick if rules.last_trick_at == 32 else 0
    tt = EG.new_table(EG.TT_BITS)
    v, _ = EG.solve_masks(L, F, t, must, rules.brisque, last, tt)
    nodes = int(EG.nodes(tt))
    faces = sorted({c & 31 for c in lead_codes})
    best = [f for f in faces if len(faces) == 1 or
            EG.lead_value(L, F, f, t, must, rules.brisque, last, tt) == v]
    value = int(v) if leader == "hand" else -int(v)
    return {"value": value, "best": [name_of(f) for f in best], "nodes": nodes,
            "leader": leader, "trump": "SHDC"[t], "rules": rules.name, "tricks": len(h),
            "player": "exact (both sides play best, every card seen)"}


def text(res: dict) -> str:
    """The answer in a few lines."""
    who = "you lead" if res["leader"] == "hand" else "the opponent leads"
    return (f"End game, {res['tricks']} tricks, trumps {res['trump']}, {who} · rules {res['rules']}\n"
            f"  value: {res['value']:+d} points for your hand (brisques and last trick, yours minus the opponent's)\n"
            f"  best leads: {' '.join(res['best'])}\n"
            f"  searched {res['nodes']:,} positions")

"""``salon bezique solve``: the exact value of an end-game position (players/solver.py), read at the edge.

Both hands hold the same number of cards, 1..8, with at most two copies of a card between them
(the doubled pack). The value is the hand's points from the remaining tricks minus the
opponent's (BZ-BRISQUE, and BZ-LAST when the last trick is the 32nd), both playing best under
the rules' end-phase obligations (BZ-END); ``best`` lists every card the leader may lead to reach
it (``any`` when that is every card he holds) and ``line`` one line of best play.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from analysis.bezique.rules import BeziqueRules, code_of, name_of
from analysis.bezique.studies.melds import parse_suit
from analysis.cards import parse_cards
from analysis.errors import InputError

LEADERS = ("hand", "opponent")


def card_codes(text: str, what: str) -> list[int]:
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
    h, o = card_codes(hand, "--hand"), card_codes(opponent, "--opponent")
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
    """The position's value for the hand, every lead's value, the leader's cards reaching it
    (``any``: all of them), a line of best play, and the search's nodes."""
    from analysis.bezique.players import solver as EG

    if leader not in LEADERS:
        raise InputError(f"--leader must be hand or opponent, not {leader!r}")
    h, o, t = read_position(hand, opponent, trump)
    lead_codes, follow_codes = (h, o) if leader == "hand" else (o, h)
    L, F = EG.canonical(mask(lead_codes)), EG.canonical(mask(follow_codes))
    must = int(rules.end_must_win)
    last = rules.last_trick if rules.last_trick_at == 32 else 0
    tt = EG.new_table(EG.TT_BITS)
    v, _ = EG.solve_masks(L, F, t, must, rules.brisque, last, tt)
    faces = sorted({c & 31 for c in lead_codes})
    values = {f: (int(v) if len(faces) == 1 else int(EG.lead_value(L, F, f, t, must, rules.brisque, last, tt)))
              for f in faces}
    best = [f for f in faces if values[f] == v]
    sign = 1 if leader == "hand" else -1
    line = line_of_play(L, F, leader, best[0], t, must, rules.brisque, last, tt, len(h))
    nodes = int(EG.nodes(tt))
    value = sign * int(v)
    return {"value": value, "best": [name_of(f) for f in best], "nodes": nodes,
            "leader": leader, "trump": "SHDC"[t], "rules": rules.name, "tricks": len(h),
            "player": "exact (both sides play best, every card seen)",
            "hand": hand, "any": len(best) == len(faces) > 1,
            "lead_values": {name_of(f): sign * values[f] for f in faces}, "line": line}


def line_of_play(L, F, leader: str, first: int, trump: int, must: int, brisque: int, last: int, tt,
                 tricks: int) -> list[dict]:
    """One line of best play from the position (canonical masks, ``leader`` to lead ``first``):
    per trick the leader, the cards, the winner and the points the winner takes (brisques, and the
    last trick's points)."""
    from analysis.bezique.players import solver as EG

    rows = []
    other = {"hand": "opponent", "opponent": "hand"}
    who, led = leader, first
    for k in range(tricks):
        if k:
            _, led = EG.solve_masks(L, F, trump, must, brisque, last, tt)
        fol, _ = EG.best_follow(L, F, int(led), trump, must, brisque, last, tt)
        led, fol = int(led), int(fol)
        L2, F2 = EG.remove_face(L, led), EG.remove_face(F, fol)
        points = brisque * (((led & 7) >= 6) + ((fol & 7) >= 6)) + (last if k == tricks - 1 else 0)
        follower_wins = (fol >> 3 & 3) == (led >> 3 & 3) and (fol & 7) > (led & 7) or \
            (fol >> 3 & 3) != (led >> 3 & 3) and (fol >> 3 & 3) == trump
        winner = other[who] if follower_wins else who
        rows.append({"trick": 33 - tricks + k, "leader": who, "led": name_of(led), "followed": name_of(fol),
                     "winner": winner, "points": int(points)})
        L, F = (F2, L2) if follower_wins else (L2, F2)
        who = winner
    return rows


def _typed(names: list[str], typed: str, group: bool = False) -> str:
    """Card names in the notation of the typed hand (``group``: book style grouped by suit)."""
    from analysis.bezique.rules import CODEC
    from analysis.cards import parse_card
    from analysis.words import cards_as_typed, notation

    cards = [parse_card(n) for n in names]
    if group or notation(typed) != "book":
        return cards_as_typed(cards, typed, CODEC.book_order)
    return " ".join(cards_as_typed([c], typed, CODEC.book_order) for c in cards)


WHO = {"hand": "you", "opponent": "opponent"}


def answer(res: dict) -> str:
    """The answer in one plain line: what to lead and what it is worth."""
    typed = res.get("hand") or ""
    tricks = "this last trick" if res["tricks"] == 1 else f"these {res['tricks']} tricks"
    worth = (f"{res['value']:+d} points from {tricks} (your brisques and last trick minus the opponent's), exact "
             "with both sides playing best")
    if res["leader"] == "opponent":
        return f"The opponent leads: you make {worth}; the line below shows his best lead and your best replies."
    if res.get("any"):
        return f"Lead any card: every lead gives you {worth}."
    best = _typed(res["best"], typed).split(" ") if typed else res["best"]
    also = f" ({' or '.join(best[1:])} is as good)" if len(best) > 1 else ""
    if len(res.get("lead_values") or ()) == 1:
        also = ", your only card"
    return f"Lead {best[0]}{also}: it gives you {worth}."


def text(res: dict, verbose: bool = False) -> str:
    """The answer first, then the position, a line of best play with its legend (``verbose``: every
    lead's value and the search's size)."""
    from analysis.words import legend

    who = "you lead" if res["leader"] == "hand" else "the opponent leads"
    typed = res.get("hand") or ""
    lines = [answer(res), "",
             f"End game, {res['tricks']} tricks, trumps {res['trump']}, {who} · rules {res['rules']}"]
    if res.get("line"):
        lines.append("  line of best play:")
        lines.append(f"  {'trick':<6} {'leads':<9} {'cards':<12} {'wins':<9} points")
        for r in res["line"]:
            cards = f"{_typed([r['led']], typed)} {_typed([r['followed']], typed)}"
            lines.append(f"  {r['trick']:<6} {WHO[r['leader']]:<9} {cards:<12} {WHO[r['winner']]:<9} {r['points']}")
        lines += legend([("trick", "the trick's number in the deal (the end game's tricks are the last ones)"),
                         ("cards", "the card led, then the card played to it"),
                         ("points", "what the trick's winner takes: the brisques (aces and tens) in it, and the "
                                    "points for the last trick")])
    if verbose:
        lines += ["  every lead's value for you: " + ", ".join(f"{_typed([k], typed)} {v:+d}"
                                                      for k, v in res.get("lead_values", {}).items()),
                  f"  {res['player']}; searched {res['nodes']:,} positions"]
    return "\n".join(lines)

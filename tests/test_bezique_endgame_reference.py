"""The plain-Python Bezique end-game brute force (analysis/bezique/reference/solver.py).

Hand-computed positions under RULES.md BZ-END (seed-de: follow suit, else trump; classic: also
win if able), BZ-BRISQUE (10 per ace and ten won) and BZ-LAST (10 for the last trick), then
properties on a few hundred random positions of up to 4 cards.
"""
from __future__ import annotations

import random

import pytest

from analysis.bezique.reference.solver import end_legal_follows, play_line, random_position, solve

S, H, D, C = 0, 1, 2, 3


def c(name: str, copy: int = 0) -> int:
    """Card code of e.g. "AS", "TH", "7C" (ranks 7 8 9 J Q K T A, suits S H D C)."""
    return 32 * copy + 8 * "SHDC".index(name[1]) + "789JQKTA".index(name[0])


def cs(text: str) -> list[int]:
    return [c(n) for n in text.split()]


# --- BZ-END legal follows ------------------------------------------------------------------

def test_follow_suit_seed_de_any_card_of_suit():
    assert sorted(end_legal_follows(cs("7H AH 9S AC"), c("9H"), C, False)) == sorted(cs("7H AH"))


def test_follow_suit_classic_must_beat():
    assert end_legal_follows(cs("7H AH 9S AC"), c("9H"), C, True) == [c("AH")]
    # cannot beat: any card of the suit, no trumping
    assert sorted(end_legal_follows(cs("7H 8H AC"), c("9H"), C, True)) == sorted(cs("7H 8H"))
    # the identical card does not beat the card led
    assert end_legal_follows([c("9H", 1), c("8H")], c("9H"), C, True) == [c("9H", 1), c("8H")]


@pytest.mark.parametrize("must_win", [False, True])
def test_void_must_trump_else_any(must_win):
    assert sorted(end_legal_follows(cs("7C AC AS"), c("9H"), C, must_win)) == sorted(cs("7C AC"))
    assert sorted(end_legal_follows(cs("7S AD"), c("9H"), C, must_win)) == sorted(cs("7S AD"))
    # trump led: follow with trumps (classic: a higher one)
    want = cs("AC") if must_win else cs("7C AC")
    assert sorted(end_legal_follows(cs("7C AC AS"), c("9C"), C, must_win)) == sorted(want)


# --- one-card positions --------------------------------------------------------------------

@pytest.mark.parametrize("must_win", [False, True])
def test_trump_beats_led_non_trump(must_win):
    # A♥ led, follower void in hearts holds the 7 of trumps: it wins brisque 10 + last 10
    assert solve(cs("AH"), cs("7S"), S, True, must_win) == (-20, [c("AH")])
    assert play_line(cs("AH"), cs("7S"), S, True, must_win) == -20


@pytest.mark.parametrize("must_win", [False, True])
def test_void_without_trump_loses(must_win):
    assert solve(cs("7H"), cs("AD"), S, True, must_win) == (20, [c("7H")])
    # the opponent leading the same cards wins instead
    assert solve(cs("7H"), cs("AD"), S, False, must_win) == (-20, [c("AD")])


@pytest.mark.parametrize("must_win", [False, True])
def test_identical_face_leader_wins(must_win):
    for mine, theirs in ((0, 1), (1, 0)):
        hand, opp = [c("AS", mine)], [c("AS", theirs)]
        assert solve(hand, opp, H, True, must_win) == (30, [c("AS")])
        assert solve(hand, opp, H, False, must_win) == (-30, [c("AS")])


def test_last_trick_goes_to_winner():
    assert solve(cs("8H"), cs("7H"), S)[0] == 10
    assert solve(cs("7H"), cs("8H"), S)[0] == -10
    assert solve(cs("8H"), cs("7H"), S, last_trick=0)[0] == 0
    assert solve(cs("8H"), cs("7H"), S, last_trick=24)[0] == 24
    assert solve(cs("TH"), cs("AH"), S, brisque=7, last_trick=3)[0] == -17


# --- two-card positions --------------------------------------------------------------------

def test_classic_forces_follower_to_win():
    # Leader 9♥ T♥, follower 7♥ A♥, spades trumps.
    # Lead 9♥: seed-de the follower ducks 7♥, then A♥ takes the T♥ lead: 20 + 10 → V = -30;
    # classic must win with A♥ (10), leads 7♥, T♥ wins 10 + 10 → V = +10.
    # Lead T♥: A♥ wins 20, 7♥ led, 9♥ wins 10 → -10 (seed-de's ducking 7♥ also gives -10).
    hand, opp = cs("9H TH"), cs("7H AH")
    assert solve(hand, opp, S, True, False) == (-10, [c("TH")])
    assert solve(hand, opp, S, True, True) == (10, [c("9H")])
    assert play_line(hand, opp, S, True, False) == -10
    assert play_line(hand, opp, S, True, True) == 10


@pytest.mark.parametrize("must_win", [False, True])
def test_two_leads_tie(must_win):
    # follower has neither suit nor trump: the leader takes both tricks whatever it leads
    assert solve(cs("AS AH"), cs("7D 8D"), C, True, must_win) == (30, sorted(cs("AS AH")))


@pytest.mark.parametrize("must_win", [False, True])
def test_two_copies_are_one_option(must_win):
    assert solve([c("AS"), c("AS", 1)], cs("7D 8D"), C, True, must_win) == (30, [c("AS")])


@pytest.mark.parametrize("must_win", [False, True])
def test_unique_best_lead_with_trump_control(must_win):
    # Leader A♣(trump) 7♥ vs follower T♥ 8♦: lead A♣ first (follower throws T♥ or 8♦; it
    # keeps the ten: 8♦ → +10), then 7♥ vs T♥ loses the last trick: 10 - 20 = -10.
    # Lead 7♥ first: T♥ wins 10, leads 8♦, A♣ trumps: 10 + 10 → +10. So 7♥ is the unique best.
    assert solve(cs("AC 7H"), cs("TH 8D"), C, True, must_win) == (10, [c("7H")])


# --- properties on random positions --------------------------------------------------------

def _random_cases(count: int, max_n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        hand, opp, trump = random_position(rng, rng.randint(1, max_n))
        yield hand, opp, trump, rng.random() < 0.5, rng.random() < 0.5


def test_random_position_shape():
    rng = random.Random(5)
    for n in range(1, 9):
        hand, opp, trump = random_position(rng, n)
        assert len(hand) == len(opp) == n and len(set(hand + opp)) == 2 * n
        assert all(0 <= x < 64 for x in hand + opp) and trump in range(4)
    assert random_position(random.Random(3), 4) == random_position(random.Random(3), 4)


def test_random_positions_properties():
    for hand, opp, trump, hand_leads, must_win in _random_cases(400, 4, 2024):
        v, best = solve(hand, opp, trump, hand_leads, must_win)
        w, best_mirror = solve(opp, hand, trump, not hand_leads, must_win)
        assert v + w == 0 and best == best_mirror
        leader = hand if hand_leads else opp
        assert best and set(best) <= {x & 31 for x in leader} and best == sorted(set(best))
        total = 10 * sum((x & 7) >= 6 for x in hand + opp) + 10
        assert abs(v) <= total
        mine = (v + total) // 2  # hand's points: a multiple of 10 between 0 and total
        assert (v + total) % 20 == 0 and 0 <= mine <= total
        assert play_line(hand, opp, trump, hand_leads, must_win) == v


def test_last_trick_only_game_is_win_or_lose():
    for hand, opp, trump, hand_leads, must_win in _random_cases(100, 4, 7):
        assert solve(hand, opp, trump, hand_leads, must_win, brisque=0, last_trick=1)[0] in (-1, 1)


def test_full_eight_card_position():
    hand, opp, trump = random_position(random.Random(11), 8)
    for must_win in (False, True):
        v, _ = solve(hand, opp, trump, True, must_win)
        assert v == -solve(opp, hand, trump, False, must_win)[0]
        assert play_line(hand, opp, trump, True, must_win) == v


def test_invalid_positions_rejected():
    with pytest.raises(ValueError):
        solve(cs("AS"), cs("AH KH"), C)
    with pytest.raises(ValueError):
        solve([c("AS")], [c("AS")], C)


def _naive(hand, opp, trump, hand_leads, must_win):
    """Independent check: unmemoised minimax over every physical card, from hand's side."""
    if not hand:
        return 0
    leader, follower = (hand, opp) if hand_leads else (opp, hand)
    results = []
    for lead in leader:
        replies = []
        for follow in end_legal_follows(follower, lead, trump, must_win):
            same = (lead & 31) >> 3 == (follow & 31) >> 3
            follower_won = (follow & 7) > (lead & 7) if same else (follow >> 3) & 3 == trump
            pts = 10 * (((lead & 7) >= 6) + ((follow & 7) >= 6)) + (10 if len(leader) == 1 else 0)
            rest_l = [x for x in leader if x != lead]
            rest_f = [x for x in follower if x != follow]
            h, o = (rest_l, rest_f) if hand_leads else (rest_f, rest_l)
            hand_won = follower_won != hand_leads
            replies.append((pts if hand_won else -pts) + _naive(h, o, trump, hand_won, must_win))
        results.append(min(replies) if hand_leads else max(replies))
    return max(results) if hand_leads else min(results)


def test_agrees_with_naive_minimax():
    for hand, opp, trump, hand_leads, must_win in _random_cases(150, 3, 99):
        assert solve(hand, opp, trump, hand_leads, must_win)[0] == _naive(
            hand, opp, trump, hand_leads, must_win)

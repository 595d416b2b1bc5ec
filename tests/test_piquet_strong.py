"""The solver's players in the Piquet kernel (analysis.piquet.players.search): the search player's
hidden hands are uniform over the hands consistent with what he knows; ``dd`` plays the solver's
value exactly; ``search`` with the hidden hand determined plays as ``dd``; both are reproducible
for any thread count and chunking, and a player compared with himself gives exactly 0."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import chisquare

from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS
from analysis.piquet.engine.layout import (
    O_CAPOT,
    O_CARDS,
    O_CARTE_BLANCHE,
    O_FINAL,
    O_PIQUE,
    O_POINT,
    O_REPIQUE,
    O_SEQUENCES,
    O_SETS,
    O_TRICK_POINTS,
)
from analysis.piquet.play.compare import compare_tallies
from analysis.piquet.play.deal import deal_outcomes
from analysis.piquet.players import solver as S
from analysis.piquet.players.search import (
    S_INFO,
    consistent,
    note_declarations,
    play_scratch,
    sample_hidden,
    strong_card,
)
from analysis.piquet.policies import get_policy
from analysis.piquet.rules import get_rules
from analysis.rng import stream_start


def _mask(codes):
    return sum(1 << int(c) for c in codes)


@pytest.mark.parametrize("case", range(3))
def test_hidden_hands_are_uniform_over_the_consistent_hands(case):
    """Elder's view of younger: younger has played 8 of his 12 cards; the other 4 are among 9
    cards elder cannot place. Every one of the C(9, 4) = 126 hands is tested against the
    declarations; 30,000 draws must hit only consistent hands, each about equally often (chi-squared,
    p > 0.001), and the true hand must be among them."""
    rng = np.random.default_rng(100 + case)
    for _ in range(200):  # a deal where the declarations rule out some hands but not all
        deck = rng.permutation(32)
        elder, younger = _mask(deck[:12]), _mask(deck[12:24])
        played = _mask(deck[12:20])
        possible = _mask(deck[20:29])  # younger's 4 unplayed cards and 5 he may have thrown
        scratch = play_scratch(False)
        note_declarations(scratch, elder, younger)
        hands = [_mask(c) for c in itertools.combinations([int(c) for c in deck[20:29]], 4)]
        ok = [h for h in hands if consistent(h | played, scratch, S_INFO)]
        if 5 <= len(ok) < len(hands):
            break
    assert _mask(deck[20:24]) in ok
    index = {h: i for i, h in enumerate(ok)}
    counts = np.zeros(len(ok), dtype=np.int64)
    sto = np.uint64(stream_start(np.uint64(7), np.uint64(case), np.uint64(1)))
    for _ in range(30_000):
        sto, h, _tries = sample_hidden(possible, 4, played, scratch, S_INFO, sto, True)
        sto = np.uint64(sto)  # a Python int would be typed int64, and int64 + uint64 is a float in numba
        assert h in index, "an inconsistent hand was drawn"
        counts[index[h]] += 1
    assert chisquare(counts).pvalue > 0.001, counts


def test_dd_players_score_the_solvers_value_of_the_play():
    """Both players dd: elder's net from the play (tricks, last trick, pique, cards, capot) equals
    the solver's value of the position after the declarations, deal by deal, in every variant."""
    dd = get_policy("dd")
    for variant in ("seed-de", "seed-no", "cavendish"):
        rules = get_rules(variant)
        arr = rules.to_array()
        rows = deal_outcomes(3, 0, 150, arr, dd.to_array(), dd.to_array())
        mem = S.new_memory(16)
        for i, o in enumerate(rows):
            decl = [sum(int(o[k + side]) for k in (O_CARTE_BLANCHE, O_POINT, O_SEQUENCES, O_SETS,
                                                     O_REPIQUE)) for side in (0, 1)]
            play = (int(o[O_TRICK_POINTS]) + int(o[O_PIQUE]) + int(o[O_CARDS]) + int(o[O_CAPOT])
                    - int(o[O_TRICK_POINTS + 1]) - int(o[O_CARDS + 1]) - int(o[O_CAPOT + 1]))
            pq = S.pique_state(decl[0], decl[1], False)
            v = S.solve(int(o[O_FINAL]), int(o[O_FINAL + 1]), 1, 0, pq, arr, mem)
            assert play == v, (variant, i)


def test_search_with_the_hidden_hand_determined_plays_as_dd():
    """When the cards the opponent may hold are exactly his hand, every sample is the true deal and
    the search player's card is the dd player's, leading and following."""
    rules = get_rules("cavendish").to_array()
    dd, search = get_policy("dd").to_array(), get_policy("search", ["samples=3"]).to_array()
    rng = np.random.default_rng(5)
    scratch = play_scratch(True)
    for _ in range(150):
        n = int(rng.integers(2, 9))
        deck = rng.permutation(32)
        elder, younger = _mask(deck[:n]), _mask(deck[n:2 * n])
        dealt_e, dealt_y = elder | _mask(deck[24:24 + 12 - n]), younger | _mask(deck[2 * n:2 * n + 12 - n])
        note_declarations(scratch, dealt_e, dealt_y)
        opp_played = dealt_y & ~younger
        sto = np.uint64(stream_start(np.uint64(1), np.uint64(n), np.uint64(1)))
        won = 12 - n
        a = strong_card(dd, True, (elder, younger), (1, -1, won), (0, 0, False), rules, scratch, sto, (younger, opp_played))[1]
        b = strong_card(search, True, (elder, younger), (1, -1, won), (0, 0, False), rules, scratch, sto,
                        (younger, opp_played))[1]
        assert a == b
        # Younger follows elder's lead.
        led = a
        e2 = elder & ~(1 << led)
        opp_played = (dealt_e & ~elder) | (1 << led)
        a = strong_card(dd, False, (e2, younger), (1, led, won), (0, 0, False), rules, scratch, sto, (e2, opp_played))[1]
        b = strong_card(search, False, (e2, younger), (1, led, won), (0, 0, False), rules, scratch, sto,
                        (e2, opp_played))[1]
        assert a == b


@pytest.mark.parametrize("policy", ["dd", "search"])
def test_the_solvers_players_are_reproducible_and_zero_against_themselves(policy):
    """Same tallies for 1 and 2 threads and any chunking; the player against himself gives exactly 0
    on every deal (sum and sum of squares of the differences)."""
    rules = get_rules("seed-no")
    a, h = get_policy(policy, ["samples=4"] if policy == "search" else []), get_policy("heuristic")
    one = compare_tallies(40, 11, rules, a, h, threads=1, chunk=40)
    two = compare_tallies(40, 11, rules, a, h, threads=2, chunk=7)
    assert np.array_equal(one, two)
    same = compare_tallies(24, 11, rules, a, a, threads=2, chunk=5)
    assert same[C_DEALS] == 24 and same[C_BOTH] == 0 and same[C_BOTH_SQ] == 0


def test_playing_for_the_pique_changes_play_and_is_worth_points_to_elder():
    """play_for_pique=false closes the pique in the player's own reckoning only: dd elders who count
    it score more than dd elders who do not (the pique is scored either way), on the same deals."""
    from analysis.piquet.studies.simulate import paired_policies

    dd, blind = get_policy("dd"), get_policy("dd", ["play_for_pique=false"])
    gain = paired_policies(3_000, 21, get_rules("seed-de"), dd, blind, dd)
    assert gain.lo > 0, gain

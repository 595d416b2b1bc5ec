"""The simulator against the exact values (TIPS.md "Classical figures"; RULES.md invariants),
with a proper statistical tolerance (two-sided binomial test at analysis.stats.DEFAULT_ALPHA)."""
from math import comb

import pytest

from analysis.ecarte.engine.layout import (
    T_DEALER_VOLE,
    T_ELDER_DEALT_TRUMP_KING,
    T_ELDER_PROPOSES,
    T_ELDER_TRUMPS,
    T_ELDER_VOLE,
    T_HANDS,
    T_ONE_TRUMP,
    T_ONE_TRUMP_DEALER_TWO_PLUS,
    T_PLAYED_WITHOUT_PROPOSING,
    T_TURNUP_KING,
    T_VOLE,
)
from analysis.ecarte.play.tallies import hand_tallies, hands_block
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import get_rules
from analysis.runner import run_tallies
from analysis.stats import chi_square_check, exact_check

N = 2_000_000


@pytest.fixture(scope="module")
def tallies():
    p = HeuristicPolicy().to_array()
    return hand_tallies(run_tallies(hands_block, (get_rules().to_array(), p, p), N, seed=424242))


def test_turnup_is_a_king_one_time_in_eight(tallies):
    """EC-TURNKING / invariant: P(turn-up is a king) = 1/8."""
    check = exact_check(int(tallies[T_TURNUP_KING]), N, 1 / 8)
    assert check.consistent, check


def test_elder_dealt_trump_king_35_in_248(tallies):
    """TIPS.md: elder is dealt the trump king with probability 35/248."""
    check = exact_check(int(tallies[T_ELDER_DEALT_TRUMP_KING]), N, 35 / 248)
    assert check.consistent, check


def test_trump_count_distribution_of_a_dealt_hand(tallies):
    """P(k trumps in elder's five) = C(7,k) C(24,5-k) / C(31,5)."""
    counts = [int(tallies[T_ELDER_TRUMPS + k]) for k in range(6)]
    probs = [comb(7, k) * comb(24, 5 - k) / comb(31, 5) for k in range(6)]
    assert abs(sum(probs) - 1) < 1e-12
    res = chi_square_check(counts, probs)
    assert res.pvalue > 1e-4, res


def test_dealer_two_plus_trumps_given_elder_one(tallies):
    """TIPS.md: given elder holds exactly one trump, the dealer holds 2+ in 21,206 of 65,780 hands."""
    check = exact_check(int(tallies[T_ONE_TRUMP_DEALER_TWO_PLUS]), int(tallies[T_ONE_TRUMP]), 21206 / 65780)
    assert check.consistent, check


def test_the_checks_can_fail(tallies):
    """The tolerance is tight enough to reject a value off by a little (1/8 + 1%)."""
    assert not exact_check(int(tallies[T_TURNUP_KING]), N, 0.125 * 1.01).consistent


def test_tally_bookkeeping(tallies):
    """Each hand counted once; points are consistent with tricks (EC-POINT)."""
    assert tallies[T_HANDS] == N
    assert sum(int(tallies[T_ELDER_TRUMPS + k]) for k in range(6)) == N
    assert tallies[T_VOLE] == tallies[T_ELDER_VOLE] + tallies[T_DEALER_VOLE]
    assert tallies[T_ELDER_PROPOSES] + tallies[T_PLAYED_WITHOUT_PROPOSING] == N

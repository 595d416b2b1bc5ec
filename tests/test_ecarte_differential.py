"""Differential test: the numba kernel and the plain-Python reference play the same seeded hands
(and games) and must agree on every outcome, hand by hand (DESIGN.md principle 4)."""
import os

import numpy as np
import pytest

from analysis.ecarte import kernel as K
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.reference import play_game, play_hand
from analysis.ecarte.rules import get_rules

# >= 100,000 hands per variant (with both policies): split over the policy x variant grid.
HANDS = int(os.environ.get("SALON_DIFF_HANDS", "50000"))
POLICIES = {
    "random": RandomPolicy(),
    "heuristic": HeuristicPolicy(),
    "heuristic-tuned": HeuristicPolicy(elder_play_threshold=7, dealer_refuse_threshold=12,
                                       keep_plain_min_rank=5, announce_king=False, lead_trumps=False),
}
VARIANTS = {
    "seed-de": get_rules("seed-de"),
    "classic": get_rules("classic"),
    "classic-switches": get_rules("classic", ["dealer_min_discard=0", "must_trump_when_void=false", "target=3"]),
}


def _compare(rules, policy, n, seed, force_first=-1):
    pe = policy.to_array(force_first=force_first)
    got = K.hand_outcomes(seed, 0, n, rules.to_array(), pe, policy.to_array())
    for i in range(n):
        want = play_hand(seed, i, rules, policy, force_first=force_first).outcome_vector()
        row = got[i, :K.N_COMPARED].tolist()
        assert row == list(want), f"hand {i} (seed {seed}, {rules.name}, {policy.kind}): kernel {row} != reference {want}"


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_kernel_matches_reference_hand_by_hand(variant, policy):
    _compare(VARIANTS[variant], POLICIES[policy], HANDS, seed=20261129)


@pytest.mark.parametrize("variant", ["classic-switches", "seed-de"])
def test_kernel_matches_reference_with_switches_and_tuned_policy(variant):
    _compare(VARIANTS[variant], POLICIES["heuristic-tuned"], HANDS // 5, seed=7)
    _compare(VARIANTS[variant], POLICIES["random"], HANDS // 5, seed=8)


@pytest.mark.parametrize("force", [0, 1])
def test_forced_first_decision_matches(force):
    _compare(VARIANTS["seed-de"], POLICIES["random"], 5000, seed=11, force_first=force)
    _compare(VARIANTS["classic"], POLICIES["heuristic"], 5000, seed=12, force_first=force)


def _random_discard_table(seed: int) -> np.ndarray:
    """A discard table with an arbitrary entry for every hand: a random non-empty subset of the
    hand (relative to trumps), or -1 (the heuristic decides) for about a third of the hands."""
    from analysis.ecarte.table_kernel import all_hands

    hands = all_hands()
    rng = np.random.default_rng(seed)
    table = np.full(len(hands), -1, dtype=np.int64)
    for r, h in enumerate(hands.tolist()):
        if rng.random() < 0.67:
            bits = [b for b in range(32) if h >> b & 1]
            pick = rng.random(5) < 0.5
            pick[rng.integers(5)] = True
            table[r] = sum(1 << b for b, p in zip(bits, pick, strict=True) if p)
    return table


@pytest.mark.parametrize("variant", ["seed-de", "classic-switches"])
def test_discard_tables_match(variant):
    """Policies whose discards come from a table (ChosenDiscards), for both players."""
    from analysis.ecarte.policies import ChosenDiscards

    elder = ChosenDiscards(HeuristicPolicy(elder_play_threshold=12), _random_discard_table(1))
    dealer = ChosenDiscards(HeuristicPolicy(dealer_refuse_threshold=14), _random_discard_table(2))
    rules, n, seed = VARIANTS[variant], 6000, 21
    got = K.hand_outcomes(seed, 0, n, rules.to_array(), elder.to_array(), dealer.to_array())
    used = 0
    for i in range(n):
        res = play_hand(seed, i, rules, elder, dealer)
        assert got[i, :K.N_COMPARED].tolist() == list(res.outcome_vector()), f"hand {i}"
        used += len(res.exchanges)
    assert used > 1000  # exchanges happened, so the tables were read


@pytest.mark.parametrize("variant", ["seed-de", "classic-switches"])
def test_games_match(variant):
    rules = VARIANTS[variant]
    for policy in (POLICIES["random"], POLICIES["heuristic"]):
        got = K.game_results(5, 0, 2000, rules.to_array(), policy.to_array(), policy.to_array())
        for g in range(2000):
            res = play_game(5, g, rules, policy)
            want = [res.scores["A"], res.scores["B"], res.hands_played]
            assert got[g].tolist() == want, f"game {g}: kernel {got[g].tolist()} != reference {want}"


def test_outcome_vectors_are_not_trivial():
    """Guard against a differential test that passes because both sides return constants."""
    got = K.hand_outcomes(1, 0, 2000, VARIANTS["seed-de"].to_array(), POLICIES["random"].to_array(),
                          POLICIES["random"].to_array())
    assert len(np.unique(got[:, K.O_ELDER_TRICKS])) == 6
    assert len(np.unique(got[:, K.O_TURNUP])) == 32
    assert set(np.unique(got[:, K.O_ENDING])) == {0, 1}


@pytest.mark.parametrize("policy", ["heuristic", "random", "heuristic-tuned"])
def test_tally_kernel_agrees_with_the_per_hand_outcomes(policy):
    """hands_block (paired, interleaved trick play for heuristic players) tallies exactly what the
    per-hand outcomes of play_hand add up to, including odd chunk lengths."""
    pol = POLICIES[policy]
    rules = VARIANTS["classic-switches"] if policy == "heuristic-tuned" else VARIANTS["seed-de"]
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    n = 20_001
    rows = K.hand_outcomes(17, 0, n, *args)
    hist = np.zeros(K.N_HIST, dtype=np.int64)
    for row in rows:
        K.tally_hand(hist, row)
    from analysis.runner import run_tallies

    for chunk in (1, 7, 4096):
        assert np.array_equal(run_tallies(K.hands_block, args, n, seed=17, chunk=chunk), hist)

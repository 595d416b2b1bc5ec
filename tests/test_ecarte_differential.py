"""Differential test: the numba kernel and the plain-Python reference play the same seeded hands
(and games) and must agree on every outcome, hand by hand (DESIGN.md principle 4).

The reference's outcomes are golden vectors (tests/vectors/ecarte.json, tests/reference_pool.py):
the kernel plays every hand of every case and its rows' digests must equal the reference's, block
by block; each run also replays a random sample of blocks through the live reference.
SALON_DIFF_HANDS (hands per variant and policy, default 50,000) set to another count compares live.
"""
import numpy as np
import pytest

from analysis.ecarte.engine.layout import N_HIST, O_ELDER_TRICKS, O_ENDING, O_TURNUP
from analysis.ecarte.play.hand import hand_outcomes
from analysis.ecarte.play.tallies import hands_block, tally_hand
from analysis.ecarte.rules import get_rules

import reference_pool as RP

# >= 100,000 hands per variant (with both policies): split over the policy x variant grid.
POLICIES = {"random": RP.policy("ecarte", "random"), "heuristic": RP.policy("ecarte", "heuristic"),
            "heuristic-tuned": RP.policy("ecarte", "tuned"), "learned": RP.policy("ecarte", "learned")}
VARIANTS = {
    "seed-de": get_rules("seed-de"),
    "classic": get_rules("classic"),
    "classic-switches": get_rules("classic", list(RP.ECARTE_SWITCHES)),
}


def _check(group, request):
    pool = request.getfixturevalue("reference_pool") if RP.count_overridden("ecarte") else None
    checked = RP.cases("ecarte", group)
    assert checked
    return [RP.check_case(case, pool) for case in checked]


def test_golden_vectors_are_fresh():
    message = RP.stale_message("ecarte")
    assert message is None, message


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_kernel_matches_reference_hand_by_hand(variant, policy, request):
    _check(f"hands/{variant}/{policy}", request)


@pytest.mark.parametrize("variant", ["classic-switches", "seed-de"])
def test_kernel_matches_reference_with_switches_and_tuned_policy(variant, request):
    _check(f"tuned/{variant}", request)


@pytest.mark.parametrize("force", [0, 1])
def test_forced_first_decision_matches(force, request):
    _check(f"forced/{force}", request)


@pytest.mark.parametrize("variant", ["seed-de", "classic-switches"])
def test_discard_tables_match(variant, request):
    """Policies whose discards come from a table (ChosenDiscards), for both players."""
    (rows,) = _check(f"tables/{variant}", request)
    assert rows[:, 4].sum() > 1000  # exchange rounds happened, so the tables were read


@pytest.mark.parametrize("variant", ["seed-de", "classic-switches"])
def test_games_match(variant, request):
    _check(f"games/{variant}", request)


@pytest.mark.parametrize("variant", ["classic", "seed-de", "classic-switches"])
def test_learned_leads_match(variant, request):
    """Learned leads (players/learned.py against reference/learned.py) for elder, the dealer and both,
    against the heuristic and the random player."""
    rows = _check(f"learned/{variant}", request)
    assert sum(len(r) for r in rows) == 12000


def test_learned_leads_games_match(request):
    _check("learned-games/seed-de", request)


@pytest.mark.parametrize("variant", ["classic", "seed-de"])
def test_reading_leads_match(variant, request):
    """Reading leads (players/learned.py's reading features against reference/reading.py) for elder,
    the dealer and both, against the learned leads; the first decisions by the heuristic's
    thresholds, so that hands are played, refused and accepted."""
    rows = _check(f"reading/{variant}", request)
    assert sum(len(r) for r in rows) == 12000


def test_live_reference_sample():
    """A few blocks, chosen per run, replayed through the live reference: their digests must be the
    recorded ones (a stale vector is caught) and the kernel must agree with them."""
    seed = RP.run_seed()
    sample = RP.live_sample("ecarte", seed)
    print(f"live sample (seed {seed}):", [f"{c.id} block {b}" for c, b in sample])
    for case, b in sample:
        RP.check_live_block(case, b, seed)


def test_outcome_vectors_are_not_trivial():
    """Guard against a differential test that passes because both sides return constants."""
    got = hand_outcomes(1, 0, 2000, VARIANTS["seed-de"].to_array(), POLICIES["random"].to_array(),
                          POLICIES["random"].to_array())
    assert len(np.unique(got[:, O_ELDER_TRICKS])) == 6
    assert len(np.unique(got[:, O_TURNUP])) == 32
    assert set(np.unique(got[:, O_ENDING])) == {0, 1}


@pytest.mark.parametrize("policy", ["heuristic", "random", "heuristic-tuned", "learned"])
def test_tally_kernel_agrees_with_the_per_hand_outcomes(policy):
    """hands_block (paired, interleaved trick play for heuristic players; one by one with learned
    leads) tallies exactly what the per-hand outcomes of play_hand add up to, including odd chunk
    lengths."""
    pol = POLICIES[policy]
    rules = VARIANTS["classic-switches"] if policy == "heuristic-tuned" else VARIANTS["seed-de"]
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    n = 20_001
    rows = hand_outcomes(17, 0, n, *args)
    hist = np.zeros(N_HIST, dtype=np.int64)
    for row in rows:
        tally_hand(hist, row)
    from analysis.runner import run_tallies

    for chunk in (1, 7, 4096):
        assert np.array_equal(run_tallies(hands_block, args, n, seed=17, chunk=chunk), hist)

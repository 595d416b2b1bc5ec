"""The kernel's learned leads (players/learned.py) and their fitting (fit/lead.py).

The hand-by-hand comparison with the plain-Python reference (reference/learned.py) is in
test_ecarte_differential.py ("learned/..." cases); here: the search player's loop plays the
learned leads as the kernel does, the fit recovers known weights, the regret measure, the shipped
weights beat the heuristic's leads, and the weights file and the policy option are checked.
"""
import json

import numpy as np
import pytest

from analysis.ecarte.engine.layout import O_DEALER_POINTS, O_ELDER_POINTS, O_ELDER_TRICKS
from analysis.ecarte.fit import lead as L
from analysis.ecarte.play.hand import hand_outcomes
from analysis.ecarte.players.learned import lead_model
from analysis.ecarte.players.learned_weights import (
    LEAD_FEATURES,
    N_LEAD_FEATURES,
    N_LEAD_MODELS,
    WEIGHTS_FILE,
    load_weights,
)
from analysis.ecarte.policies import (
    N_POLICY_SLOTS,
    P_LEAD_WEIGHTS,
    P_LEADS,
    P_READS,
    HeuristicPolicy,
    get_policy,
)
from analysis.ecarte.rules import get_rules
from analysis.errors import InputError

LEARNED = HeuristicPolicy(leads="learned")


@pytest.mark.parametrize("variant", ["classic", "seed-de"])
def test_search_loop_without_search_plays_the_kernels_learned_leads(variant):
    """search_strength's baseline (play_tricks_search, nobody searching, learned leads read from the
    policies) scores exactly what play_hand scores on the same deals (policy_tricks ->
    play_tricks_learned): two loops that track the players' knowledge, compared hand by hand in sum
    and sum of squares."""
    from analysis.ecarte.studies.search_strength import ST_A_NET, ST_A_NET_SQ, search_strength

    rules = get_rules(variant)
    n = 3000
    got = search_strength(n, 5, rules, samples=1, elder_policy=LEARNED, dealer_policy=LEARNED, chunk=n)["tallies"]
    pa = LEARNED.to_array()
    rows = hand_outcomes(5, 0, n, rules.to_array(), pa, pa)
    net = rows[:, O_ELDER_POINTS] - rows[:, O_DEALER_POINTS]
    assert got[ST_A_NET] == net.sum() and got[ST_A_NET_SQ] == (net * net).sum()
    h = HeuristicPolicy().to_array()
    plain = hand_outcomes(5, 0, n, rules.to_array(), h, h)
    assert (plain[:, O_ELDER_TRICKS] != rows[:, O_ELDER_TRICKS]).sum() > n // 50  # the leads differ


def test_model_index_covers_the_twenty_models():
    got = {lead_model(k, lt, e) for k in range(4) for lt in range(k + 1) for e in (False, True)}
    assert got == set(range(N_LEAD_MODELS))


def test_fit_recovers_weights_that_explain_the_values_exactly():
    """Values built as features @ w plus an arbitrary offset per decision: the fit (centred within
    decisions, no ridge) must return w (times SCALE), for every model with data."""
    rules = get_rules("classic")
    rec, _ = L.collect(rules, HeuristicPolicy(), 2 * L.CHUNK, 9, samples=1)
    idx, card, model, f = L.plain_features(rec)
    rng = np.random.default_rng(0)
    w = rng.normal(size=(N_LEAD_MODELS, N_LEAD_FEATURES))
    val = np.full((len(rec), 32), np.nan)
    val[idx, card] = (f * w[model]).sum(1) + rng.normal(size=len(rec))[idx] * 10
    got = L.fit(rec, val, ridge=0.0) / L.SCALE
    # The leader of trick k > 0 won trick k - 1 (lt >= 1), and elder leads the first: 13 models occur.
    reachable = {lead_model(0, 0, True)} | {lead_model(k, lt, e) for k in range(1, 4) for lt in range(1, k + 1)
                                             for e in (False, True)}
    assert set(np.unique(model).tolist()) == reachable
    # Features that never vary within a model's decisions cannot be identified: compare predictions.
    pred = (f * got[model]).sum(1)
    true = (f * w[model]).sum(1)
    centre = np.bincount(idx, pred - true) / np.bincount(idx)
    assert np.abs(pred - true - centre[idx]).max() < 1e-4


def test_regret_of_the_best_card_is_zero_and_of_others_positive():
    rec = np.zeros((3, L.N_FIELDS), dtype=np.int64)
    rec[:, L.F_DEAL] = [10, 10, 12]
    val = np.full((3, 32), np.nan)
    val[0, [1, 2]] = [0.5, 1.0]
    val[1, [3, 4]] = [2.0, -1.0]
    val[2, [5, 6]] = [0.0, 0.25]
    mean, half = L.regret(rec, val, np.array([2, 3, 6]), 10, 4)
    assert mean == 0.0 and half == 0.0
    mean, half = L.regret(rec, val, np.array([1, 4, 5]), 10, 4)  # deal 10: 0.5 + 3.0, deal 12: 0.25
    assert mean == pytest.approx((3.5 + 0.25) / 4) and half > 0


def test_shipped_learned_leads_beat_the_heuristic_leads():
    """The shipped weights, on fresh deals (seed 77, not used by the fit), both seats: the learned
    leads gain on the heuristic's (fit: about +0.08 points per hand and seat)."""
    from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS
    from analysis.ecarte.play.compare import compare_tallies
    from analysis.stats import mean_from_sums

    t = [int(x) for x in compare_tallies(30_000, 77, get_rules("seed-de"), LEARNED, HeuristicPolicy())]
    e = mean_from_sums(t[C_BOTH], t[C_BOTH_SQ], t[C_DEALS])
    assert e.ci95[0] / 2 > 0.04, e


def test_weights_file_and_policy_array():
    data = json.loads(WEIGHTS_FILE.read_text())
    assert data["features"] == list(LEAD_FEATURES)
    w = load_weights()
    assert w.shape == (N_LEAD_MODELS, N_LEAD_FEATURES) and np.abs(w).max() > 0
    a = LEARNED.to_array()
    assert a[P_LEADS] == 1 and np.array_equal(a[P_LEAD_WEIGHTS:P_READS], w.ravel())
    assert a[P_READS] == 0 and not a[P_READS:N_POLICY_SLOTS].any()
    plain = HeuristicPolicy().to_array()
    assert plain[P_LEADS] == 0 and not plain[P_LEAD_WEIGHTS:N_POLICY_SLOTS].any()
    assert "leads" not in HeuristicPolicy().describe() and LEARNED.describe()["leads"] == "learned"
    assert get_policy("heuristic", ["leads=learned"]) == LEARNED
    with pytest.raises(InputError, match="leads must be one of"):
        HeuristicPolicy(leads="search")


def test_weights_file_of_other_features_is_refused(tmp_path):
    data = json.loads(WEIGHTS_FILE.read_text())
    data["features"] = data["features"][::-1]
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="features"):
        load_weights(bad)
    data = json.loads(WEIGHTS_FILE.read_text())
    data["weights"] = data["weights"][:3]
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="shape"):
        load_weights(bad)


def test_tables_answer_with_the_shipped_play(tmp_path, monkeypatch):
    """studies/equilibrium/tables.shipped: one model ships per variant, played with the reading leads; it
    answers a heuristic policy with the same other parameters, whatever its leads, and a policy
    that reads the same way; never a policy that reads otherwise or has other parameters. ``exact``
    asks for the policy's own tables; the summary names the file answering."""
    import pandas as pd

    from analysis.ecarte.studies.equilibrium import tables as T

    rules = get_rules("classic")
    cols = ("value", "half_width", "held_out", "held_out_half_width", "probability", "p_proposal")
    df = pd.DataFrame({"side": ["elder"], "info_set": np.array([0], np.int32), **{c: [0] for c in cols}})
    monkeypatch.setattr(T, "DATA_DIR", str(tmp_path))
    reading = HeuristicPolicy(leads="learned", reads="classic")
    assert T.shipped(rules, reading) is None
    stem = tmp_path / T.shipped_name("classic", reading.leads, reading.reads)
    df.to_parquet(f"{stem}.parquet")
    with open(f"{stem}.json", "w") as f:
        json.dump({"policy": reading.describe(), "switches": rules.switches()}, f)
    for pol in (HeuristicPolicy(), LEARNED, reading):
        assert T.tables_play(rules, pol) == reading
        assert T.shipped(rules, pol)[1]["tables"].endswith("equilibrium_classic_reading.parquet")
    assert T.shipped(rules, reading, exact=True)[1]["tables"].endswith("equilibrium_classic_reading.parquet")
    assert T.shipped(rules, LEARNED, exact=True) is None and T.shipped(rules, HeuristicPolicy(), exact=True) is None
    assert T.shipped(rules, HeuristicPolicy(leads="learned", reads="seed-de")) is None
    assert T.shipped(rules, HeuristicPolicy(elder_play_threshold=7)) is None


def test_verdicts_name_the_learned_leads_among_their_players():
    from analysis.stats import Estimate
    from analysis.verdicts import Verdict

    def players(*pols):
        return Verdict("EC-T2", "classic", "supported", Estimate(0.1, 0.0, 0.2, 10), "effect", "reading", 10, 0,
                       {f"p{i}": p.describe() for i, p in enumerate(pols)}).players

    assert players(LEARNED) == "heuristic with the learned leads"
    assert players(HeuristicPolicy(), LEARNED) == "heuristic, heuristic with the learned leads"
    assert players(HeuristicPolicy(leads="learned", reads="seed-de")) == (
        "heuristic with the learned leads reading the first decision (reads=seed-de)")

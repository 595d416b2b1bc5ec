"""The Écarté equilibrium (analysis/ecarte/equilibrium*.py, studies/equilibrium/branches.py): the branch records
against the plain-Python reference deal by deal, CFR+ against an exact linear program, the
held-out measures and the FDR control against plain-Python definitions, and the CLI contract."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from analysis.ecarte.engine import buckets as TB
from analysis.ecarte.studies.equilibrium import branches as BK
from analysis.ecarte.studies.equilibrium import solver as S


# --------------------------------------------------------------------------- branch records
def test_turnup_buckets_partition_the_free_trumps():
    for hand in (0b11111, 0b10000000 | 0b100 << 8, 0, 0b1001000):
        masks = [TB.bucket_turnups(hand, b) for b in range(TB.N_BUCKETS)]
        assert sum(masks) == 0xFF & ~hand and masks[0] & masks[1] == 0 and masks[1] & masks[2] == 0
        assert masks[TB.KING_TURNED] == (0 if hand & 0x80 else 0x80)
    # Top trump the 9 (rank 2): 10 A J Q above, 7 8 below; no trump: all but the king above.
    assert TB.bucket_turnups(0b100, TB.ABOVE) == 0b01111000
    assert TB.bucket_turnups(0b100, TB.BELOW) == 0b00000011
    assert TB.bucket_turnups(1 << 8, TB.ABOVE) == 0x7F


class FixedDeck:
    """The reference's deck (reference/cards.LazyDeck) dealing a given order."""

    def __init__(self, order):
        self.order = list(order)
        self.position = 0

    def next_card(self):
        self.position += 1
        return self.order[self.position - 1]

    def take(self, n):
        return [self.next_card() for _ in range(n)]


def kernel_deal(seed, info, deal_index, fixed_is_dealer):
    """The deal the branch kernel plays: (elder mask, dealer mask, turn-up, stock in order)."""
    from analysis.ecarte.engine.deal import deal_with_elder, draw
    from analysis.ecarte.studies.strategy.kernel import ITEM_SHIFT, item_streams
    from analysis.ecarte.studies.strategy.tables import hands
    from analysis.rng import EMPTY_HALF, below

    fixed = int(hands().masks[info // 3])
    turnups = TB.bucket_turnups(fixed, info % 3)
    stc, _, stu = item_streams(np.uint64(seed), (info << ITEM_SHIFT) | deal_index, False)
    stu, j = below(np.uint64(stu), np.int64(bin(turnups).count("1")))
    turnup = [r for r in range(8) if turnups >> r & 1][j]
    codes = np.array([c for c in range(32) if fixed >> c & 1], dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    stc, stb, drawn = deal_with_elder(deck, np.uint64(stc), EMPTY_HALF, codes, np.int64(turnup))
    for p in range(11, 32):
        stc, stb, _ = draw(deck, np.int64(p), np.uint64(stc), np.uint64(stb))
    elder, dealer = (int(drawn), fixed) if fixed_is_dealer else (fixed, int(drawn))
    return elder, dealer, turnup, [int(c) for c in deck[11:]]


@pytest.mark.parametrize("rules_name", ["classic", "seed-de"])
@pytest.mark.parametrize("fixed_is_dealer", [False, True])
def test_branch_records_match_the_reference_deal_by_deal(monkeypatch, rules_name, fixed_is_dealer):
    """Every branch's outcome cell equals the reference playing the same deal with elder's first
    decision and the dealer's first answer forced; the other side's information set and the
    deal's half are as defined (class of its hand, bucket of the turn-up beside it)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference import hand as ref
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.strategy.kernel import elder_net
    from analysis.ecarte.studies.strategy.tables import canonical_mask, hands

    rules = get_rules(rules_name)
    pol = HeuristicPolicy()
    h = hands()
    rng = np.random.default_rng(5)
    sets = [s for s in rng.choice(len(h.masks) * 3, 400, replace=False).tolist()
            if TB.bucket_turnups(int(h.masks[s // 3]), s % 3)][:12]
    tasks = np.array([(s, 7, 3, 3 * i) for i, s in enumerate(sets)], dtype=np.int64)
    other = np.zeros(3 * len(sets), dtype=np.int32)
    cells = np.zeros((3 * len(sets), 3), dtype=np.uint8)
    BK.branch_records(11, tasks, h.masks, h.class_of_rank, fixed_is_dealer, rules.to_array(), pol.to_array(),
                      pol.to_array(), other, cells)
    class_index = {int(m): c for c, m in enumerate(h.masks.tolist())}
    for i, s in enumerate(sets):
        for k in range(3):
            at = 3 * i + k
            elder, dealer, turnup, stock = kernel_deal(11, s, 7 + k, fixed_is_dealer)
            drawn = elder if fixed_is_dealer else dealer
            drawn_codes = [c for c in range(32) if drawn >> c & 1]
            expect_class = class_index[canonical_mask(drawn_codes, turnup)]
            assert other[at] == (expect_class * 3 + TB.turnup_bucket(drawn, turnup)) * 2 + ((7 + k) & 1)
            order = ([c for c in range(32) if elder >> c & 1] + [c for c in range(32) if dealer >> c & 1]
                     + [turnup] + stock)
            for branch, (first, answer) in enumerate(((0, -1), (1, 0), (1, 1))):
                monkeypatch.setattr(ref, "LazyDeck", lambda _stream, order=order: FixedDeck(order))
                r = ref.play_hand(0, 0, rules, pol, force_first=first, force_response=answer)
                assert elder_net(int(cells[at, branch])) == r.elder_points - r.dealer_points, (s, k, branch)


# --------------------------------------------------------------------------- the solver
def random_game(seed, n_elder=6, n_dealer=5, deals=300):
    """One set of deals serving both sides (so the sample game is exactly bilinear): the records
    of both sides and the per-deal arrays."""
    rng = np.random.default_rng(seed)
    i = rng.integers(0, n_elder, deals)
    j = rng.integers(0, n_dealer, deals)
    nets = rng.integers(-3, 4, (deals, 3))
    n = max(n_elder, n_dealer)
    elder = S.Records.from_nets(i, j * 2, nets, n)
    dealer = S.Records.from_nets(j, i * 2, nets, n)
    w_e = np.bincount(i, minlength=n) / deals
    w_d = np.bincount(j, minlength=n) / deals
    return elder, dealer, w_e, w_d, (i, j, nets)


def game_value(x, y, deal_arrays):
    i, j, nets = deal_arrays
    play, acc, ref = nets[:, 0], nets[:, 1], nets[:, 2]
    return float(np.mean(play + x[i] * (acc - play) + x[i] * y[j] * (ref - acc)))


def lp_value(deal_arrays, n):
    """max over x of min over y of the sample game, as a linear program (t_J <= 0, t_J <= c_J(x))."""
    from scipy.optimize import linprog

    i, j, nets = deal_arrays
    m = len(i)
    play, gain, refusal = nets[:, 0], nets[:, 1] - nets[:, 0], nets[:, 2] - nets[:, 1]
    c = np.zeros(2 * n)
    np.add.at(c, i, -gain / m)
    c[n:] = -1
    a = np.zeros((n, 2 * n))
    for d in range(m):
        a[j[d], i[d]] -= refusal[d] / m
    a[np.arange(n), n + np.arange(n)] = 1
    res = linprog(c, A_ub=a, b_ub=np.zeros(n), bounds=[(0, 1)] * n + [(None, 0)] * n, method="highs")
    return -res.fun + play.mean()


@pytest.mark.parametrize("seed,predictive", [(s, p) for s in range(6) for p in (False, True)])
def test_cfr_plus_reaches_the_linear_programs_value(seed, predictive):
    elder, dealer, w_e, w_d, arrays = random_game(seed)
    n = len(w_e)
    x, y = S.solve(elder, dealer, 3000, predictive=predictive)
    ex_e, ex_d = S.exploitability_in_sample(elder, dealer, x, y, w_e, w_d)
    v = game_value(x, y, arrays)
    exact = lp_value(arrays, n)
    assert ex_e < 2e-3 and ex_d < 2e-3
    assert v - ex_d - 1e-9 <= exact <= v + ex_e + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_in_sample_exploitability_is_the_brute_force_best_response(seed):
    elder, dealer, w_e, w_d, arrays = random_game(seed + 10, n_elder=5, n_dealer=4, deals=120)
    rng = np.random.default_rng(seed)
    x, y = rng.random(len(w_e)), rng.random(len(w_e))
    ex_e, ex_d = S.exploitability_in_sample(elder, dealer, x, y, w_e, w_d)
    v = game_value(x, y, arrays)
    best_e = max(game_value(np.array(p + (0,) * (len(x) - 5), float), y, arrays)
                 for p in itertools.product((0, 1), repeat=5))
    best_d = min(game_value(x, np.array(p + (0,) * (len(y) - 4), float), arrays)
                 for p in itertools.product((0, 1), repeat=4))
    assert ex_e == pytest.approx(best_e - v, abs=1e-12)
    assert ex_d == pytest.approx(v - best_d, abs=1e-12)


def test_side_gains_plugin_and_crossfit_by_their_definitions():
    rng = np.random.default_rng(3)
    n_sets, deals = 7, 500
    fixed = rng.integers(0, n_sets, deals).astype(np.int32)
    partner = rng.integers(0, n_sets, deals)
    half = rng.integers(0, 2, deals)
    nets = rng.integers(-4, 5, (deals, 3))
    rec = S.Records.from_nets(fixed, partner * 2 + half, nets, n_sets)
    y = rng.random(n_sets)
    x = rng.random(n_sets)
    w = rng.random(n_sets)
    g = S.side_gains(rec.side_means(S.ELDER, y), x, 1.0, w)
    plug = cross = 0.0
    for s in range(n_sets):
        m = fixed == s
        val = (nets[m, 1] - nets[m, 0]) + y[partner[m]] * (nets[m, 2] - nets[m, 1])
        q = val.mean()
        qa, qb = val[half[m] == 0].mean(), val[half[m] == 1].mean()
        plug += w[s] * (max(q, 0) - x[s] * q)
        cross += w[s] * 0.5 * ((float(qa > 0) - x[s]) * qb + (float(qb > 0) - x[s]) * qa)
        assert g["q"][s] == pytest.approx(q)
        assert g["se"][s] == pytest.approx(val.std(ddof=1) / np.sqrt(m.sum()))
    assert g["plugin"] == pytest.approx(plug)
    assert g["crossfit"] == pytest.approx(cross)
    v = rec.elder_values(x, y)
    for s in range(n_sets):
        m = fixed == s
        net = nets[m, 0] + x[s] * ((nets[m, 1] - nets[m, 0]) + y[partner[m]] * (nets[m, 2] - nets[m, 1]))
        assert v[s, 0] == pytest.approx(net.mean()) and v[s, 1] == pytest.approx((net ** 2).mean())
    # The dealer's passes: elder's gain from a refusal, and the chance of a proposal.
    dealer = rec.side_means(S.DEALER, x)
    proposed = np.zeros(n_sets)
    rec.side_q(S.PROPOSED, x, proposed)
    for s in range(n_sets):
        m = fixed == s
        assert dealer[s, 0] == pytest.approx((x[partner[m]] * (nets[m, 2] - nets[m, 1])).mean())
        assert proposed[s] == pytest.approx(x[partner[m]].mean())


def test_benjamini_hochberg_by_its_definition():
    rng = np.random.default_rng(0)
    for _ in range(200):
        m = int(rng.integers(1, 30))
        p = rng.random(m) ** rng.uniform(0.5, 4)
        p[rng.random(m) < 0.1] = np.nan
        got = S.benjamini_hochberg(p, 0.1)
        ok = ~np.isnan(p)
        ps = np.sort(p[ok])
        k = max([r for r in range(1, len(ps) + 1) if ps[r - 1] <= 0.1 * r / len(ps)], default=0)
        cut = ps[k - 1] if k else -1.0
        assert np.array_equal(got, ok & (np.nan_to_num(p, nan=2.0) <= cut))


# --------------------------------------------------------------------------- the study
def test_strategy_cli_quick_equilibrium_contract(tmp_path, monkeypatch, capsys):
    """--budget quick: the JSON names the method, rounds, deals, both sides' held-out
    exploitability with intervals, the value with its interval and the play policy; the tables
    hold one row per information set with decisions consistent with the printed differences."""
    import pandas as pd

    from analysis.cli import main

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path / "store"))
    main(["study", "ecarte", "strategy", "--budget", "quick", "--rules", "classic", "--out", str(tmp_path),
          "--json", "--quiet"])
    obj = json.loads(capsys.readouterr().out)
    assert obj["method"].startswith("CFR+") and obj["rounds"] >= 1 and obj["deals"]["held_out"] > 0
    for side in ("elder", "dealer"):
        ex = obj["exploitability"][side]
        assert 0 <= ex["ci95"][0] <= ex["value"] <= ex["ci95"][1]
    lo, hi = obj["value"]["ci95"]
    assert lo < obj["value"]["value"] < hi and -1 < obj["value"]["value"] < 1
    assert "heuristic" in obj["play_policy"]
    assert sum(obj["sets_per_bucket"].values()) == 86_810
    scores = obj["by_score"]["scores"]
    assert len(scores) == 25 and all(0 < r["win"] < 1 for r in scores)
    # At 4-4 the next hand decides the game: the first elder's chance there is his chance of the point.
    at44 = next(r for r in scores if r["elder_score"] == 4 and r["dealer_score"] == 4)
    assert 0.4 < at44["win"] < 0.7
    # The king's announcement by score (EC-T5): under the solved game's own W (monotone in the score)
    # the point never costs, so its value is positive at every score for both sides.
    bs = obj["by_score"]
    assert bs["deals_per_set_cap"] == 16 and bs["deals"]["fit"] > 0 and bs["deals"]["held_out"] > 0
    assert [r["deals"] for r in bs["race"]] == [bs["deals"]]  # quick: no round of the race by score
    for r in scores:
        for side in ("elder", "dealer"):
            assert r[f"king_value_{side}"] > 0 and 0.1 < r[f"king_share_{side}"] < 0.3  # dealt or drawn
    for side in ("elder", "dealer"):
        k = bs["king"][side]
        assert k["smallest"] == min(r[f"king_value_{side}"] for r in scores)
        assert k["ci95"][0] < k["smallest"] < k["ci95"][1] <= k["largest"] + 1
    elder = pd.read_parquet(tmp_path / "ecarte_equilibrium_classic_elder.parquet")
    assert len(elder) == 86_810 and elder["weight"].sum() == pytest.approx(1)
    pure = elder[elder["decision"] != "mix"]
    wrong = np.where(pure["decision"] == "propose", pure["propose_minus_play"] < -1e-3,
                     pure["propose_minus_play"] > 1e-3)
    assert not wrong.any()
    # The one-hand answer from these tables once shipped: the hand's information set, its decision.
    from analysis.ecarte.studies.equilibrium import tables as E

    E.ship(str(tmp_path), "classic", str(tmp_path / "data"))
    monkeypatch.setattr(E, "DATA_DIR", str(tmp_path / "data"))
    # These tables are played by the heuristic's leads: the shipped model's reading leads are not
    # there, so the heuristic policy is answered by its own tables.
    from analysis.ecarte.players import reading

    monkeypatch.setattr(reading, "read_variants", lambda *a: ())
    # EC-T5 judged from these tables: the smallest value over the scores and both sides.
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import tips as equilibrium_tips

    v = equilibrium_tips.ec_t5(get_rules("classic"), HeuristicPolicy())
    assert v.tip == "EC-T5" and v.effect.value == pytest.approx(min(bs["king"][s]["smallest"] for s in ("elder", "dealer")))
    assert len(v.details["gain_by_score"]) == 25 and v.policies["first_decisions"]["kind"] == "equilibrium tables"
    assert v.verdict == ("supported" if min(bs["king"][s]["ci95"][0] for s in ("elder", "dealer")) > 0
                         else "inconclusive")
    main(["ecarte", "propose", "KH QH 7S 8D 9C", "--turnup", "7H", "--rules", "classic", "--json"])
    a = json.loads(capsys.readouterr().out)
    row = elder[(elder["hand"] == a["class"]) & (elder["bucket"] == "turn-up below my top trump")].iloc[0]
    assert a["source"] == "tables" and a["bucket"] == "turn-up below my top trump"
    assert a["recommendation"] == row["decision"]
    assert a["difference"]["value"] == pytest.approx(row["propose_minus_play"], abs=1e-4)
    assert a["propose_probability"] == pytest.approx(row["propose_probability"], abs=1e-4)
    # By score: where a clear change is shipped, the answer at that score is the change.
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules

    changes = pd.read_parquet(tmp_path / "ecarte_equilibrium_classic_score_changes.parquet")
    change = changes[changes["side"] == "elder"].iloc[0]  # (a change is between two pure decisions)
    info = int(change["info_set"])
    mask = int(elder.set_index("info_set").loc[info, "mask"])
    up = [r for r in range(8) if TB.bucket_turnups(mask, info % 3) >> r & 1][0]
    codes = [c for c in range(32) if mask >> c & 1]
    got = E.answer(codes, up, get_rules("classic"), HeuristicPolicy(),
                   (int(change["elder_score"]), int(change["dealer_score"])))
    assert got["recommendation"] == change["score_decision"] != got["points_recommendation"]
    # The classical rules against these tables: the cost is the definition's sum over the sets.
    from analysis.ecarte.studies import classical

    main(["study", "ecarte", "classical", "--rules", "classic", "--json"])
    c = json.loads(capsys.readouterr().out)
    propose_rule = np.array([not classical.elder_plays(int(m)) for m in elder["mask"]], dtype=float)
    expect = float((elder["weight"] * (elder["propose_probability"] - propose_rule)
                    * elder["propose_minus_play_held_out"]).sum())
    assert c["sides"]["elder"]["cost"]["value"] == pytest.approx(expect, abs=2e-3)
    assert 0 <= c["sides"]["dealer"]["agreement"] <= 1
    # The same study again reads its solution from the store (the records it was solved from are
    # there too): identical numbers and tables, nothing simulated or solved.
    from analysis.ecarte.studies.equilibrium import study as ES

    stored = list((tmp_path / "store").rglob("solution-*.pickle"))
    assert len(stored) == 1
    monkeypatch.setattr(ES, "simulate", lambda *a, **k: pytest.fail("simulated again"))
    main(["study", "ecarte", "strategy", "--budget", "quick", "--rules", "classic", "--out", str(tmp_path / "b"),
          "--json", "--quiet"])
    again = json.loads(capsys.readouterr().out)
    assert again["exploitability"] == obj["exploitability"] and again["value"] == obj["value"]
    assert again["by_score"] == obj["by_score"]
    assert pd.read_parquet(tmp_path / "b" / "ecarte_equilibrium_classic_elder.parquet").equals(elder)


@pytest.mark.parametrize("args", [["--budget", "huge"], ["--deals-per-hand", "10"], ["--rounds", "2"]])
def test_strategy_cli_bad_or_foreign_options_exit_2(args, capsys):
    """An unknown budget, or an option of the best-response method given to the equilibrium: one
    line and exit code 2, before anything is computed."""
    from analysis.cli import main

    with pytest.raises(SystemExit) as e:
        main(["study", "ecarte", "strategy", *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("rules_name", ["classic", "seed-de"])
@pytest.mark.parametrize("reads", [False, True])
def test_shipped_tables_answer_on_a_fresh_install_and_never_contradict_their_numbers(rules_name, reads):
    """The standard tables ship with the package (scripts/make_equilibrium_tables.py), and beside
    them the tables played with the reading leads (--reads); every pure decision agrees with the
    sign of the value printed beside it, and the summary certifies or not by its own interval.
    The reading tables carry the reading searchers' check and name the reading play."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import tables as E

    policy = HeuristicPolicy(leads="learned", reads=rules_name) if reads else HeuristicPolicy()
    got = E.shipped(get_rules(rules_name), policy)
    assert got is not None, "no shipped tables: run scripts/make_equilibrium_tables.py"
    df, summary = got
    if reads:
        assert summary["tables"].endswith("_reading.parquet") and f"reads={rules_name}" in summary["play_policy"]
        for side in ("elder", "dealer"):
            loss = summary["search_check_reading"][side]["loss_under_search_crossfit"]
            assert loss["ci95"][0] <= loss["value"] <= loss["ci95"][1]
    assert summary["budget"] == "standard" and len(df) == 2 * 86_810
    pure = (df["probability"] >= 0.99) | (df["probability"] <= 0.01)
    says_yes = df["probability"] >= 0.99
    contradicts = pure & np.where(says_yes, df["value"] < -1e-3, df["value"] > 1e-3)
    assert not contradicts.any()
    for side in ("elder", "dealer"):
        lo, hi = summary["exploitability"][side]["ci95"]
        assert 0 <= lo <= hi
    assert summary["certified"] == all(summary["exploitability"][s]["ci95"][1] < summary["target"]
                                       for s in ("elder", "dealer"))


def test_search_records_replay_the_branch_records_deals():
    """The search check plays the branch records' deals: its heuristic nets equal the records'
    cells deal by deal, its other-side sets are the same, and the searchers never exclude the
    actual hand."""
    from analysis.ecarte.players.search_inference import COND_ALL, COND_TABLE
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.search_check import branch_search_records
    from analysis.ecarte.studies.strategy.tables import cell_nets, hands

    rules = get_rules("classic")
    pa = HeuristicPolicy().to_array()
    h = hands()
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    valid = np.flatnonzero(info_sets().valid)
    tasks = np.array([(s, 3, 4, 4 * i) for i, s in enumerate(valid[[0, 4, 31_000, 60_001, 86_000]].tolist())],
                     dtype=np.int64)
    for dealer_side in (False, True):
        n = 20
        other = np.zeros(n, dtype=np.int32)
        cells = np.zeros((n, 3), dtype=np.uint8)
        BK.branch_records(4, tasks, h.masks, h.class_of_rank, dealer_side, rules.to_array(), pa, pa, other, cells)
        other2 = np.zeros(n, dtype=np.int32)
        heur = np.zeros((n, 3), dtype=np.int8)
        srch = np.zeros((n, 3), dtype=np.int8)
        viol = np.zeros(n, dtype=np.int64)
        none = np.zeros(0, dtype=np.float64)
        branch_search_records(4, tasks, h.masks, h.class_of_rank, dealer_side, rules.to_array(), pa, pa,
                              (4, 0, none, none), (other2, heur, srch, viol))
        assert np.array_equal(other, other2)
        assert np.array_equal(cell_nets()[cells.astype(np.int64)], heur)
        assert viol.sum() == 0 and np.abs(srch).max() <= 4
        # Searchers reading the exchanges and the first decisions by (here random) chances: the
        # heuristic's nets are untouched, and the inferences still never exclude the actual hand.
        x = np.random.default_rng(1).random(len(info_sets().valid))
        y = np.random.default_rng(2).random(len(info_sets().valid))
        heur2, srch2 = np.zeros_like(heur), np.zeros_like(srch)
        branch_search_records(4, tasks, h.masks, h.class_of_rank, dealer_side, rules.to_array(), pa, pa,
                              (4, COND_ALL | COND_TABLE, x, y), (np.zeros(n, dtype=np.int32), heur2, srch2, viol))
        assert np.array_equal(heur, heur2) and viol.sum() == 0 and np.abs(srch2).max() <= 4


@pytest.mark.parametrize("second", [0, 1])
def test_forced_second_proposal_matches_the_reference(second):
    """P_FORCE_SECOND (elder's second proposal decision forced) plays as the reference's
    force_second, hand by hand, after a forced proposal and acceptance."""
    from analysis.ecarte.play.hand import hand_outcomes
    from analysis.ecarte.policies import P_FORCE_SECOND, HeuristicPolicy
    from analysis.ecarte.reference import hand as ref
    from analysis.ecarte.rules import get_rules

    rules = get_rules("classic")
    pol = HeuristicPolicy()
    pe = pol.to_array(force_first=1)
    pe[P_FORCE_SECOND] = second
    pd = pol.to_array(force_response=0)
    got = hand_outcomes(3, 0, 300, rules.to_array(), pe, pd)
    rounds = []
    for i in range(300):
        r = ref.play_hand(3, i, rules, pol, force_first=1, force_response=0, force_second=second)
        assert list(got[i, :22]) == r.outcome_vector(), i
        rounds.append(r.rounds >= 2 or r.refused_round == 1)
    # Forcing a second proposal reaches a second exchange or refusal in every hand; forcing play never.
    assert all(rounds) if second else not any(rounds)


def test_second_round_records_replay_the_accepted_branch():
    """Left to the heuristic, the second round's deals are the branch records' accepted branch,
    deal by deal (same streams, same other side); forcing play or a proposal there changes some."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.equilibrium.search_check import second_round_records
    from analysis.ecarte.studies.strategy.tables import cell_nets, hands

    rules = get_rules("classic")
    pa = HeuristicPolicy().to_array()
    h = hands()
    valid = np.flatnonzero(info_sets().valid)
    tasks = np.array([(s, 0, 40, 40 * i) for i, s in enumerate(valid[::9_000].tolist())], dtype=np.int64)
    n = int(tasks[:, 2].sum())
    other, cells = np.zeros(n, dtype=np.int32), np.zeros((n, 3), dtype=np.uint8)
    BK.branch_records(6, tasks, h.masks, h.class_of_rank, False, rules.to_array(), pa, pa, other, cells)
    other2, nets = np.zeros(n, dtype=np.int32), np.zeros((n, 3), dtype=np.int8)
    second_round_records(6, tasks, h.masks, h.class_of_rank, rules.to_array(), pa, pa, other2, nets)
    assert np.array_equal(other, other2)
    assert np.array_equal(nets[:, 0], cell_nets()[cells[:, BK.ACCEPTED].astype(np.int64)])
    assert (nets[:, 1] != nets[:, 0]).any() or (nets[:, 2] != nets[:, 0]).any()


def test_second_round_measure_is_consistent():
    """The second round's measures: reach is a probability strictly inside (0, 1) for random
    strategies; a bound known in advance that is positive."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.equilibrium.search_check import second_round
    from analysis.ecarte.studies.equilibrium.study import Equilibrium

    n = len(info_sets().weight)
    rng = np.random.default_rng(1)
    eq = Equilibrium(rng.random(n), rng.random(n), {}, [], {})
    res = second_round(eq, 40, 30, 2, get_rules("seed-de"), HeuristicPolicy())
    assert 0 < res["reached"]["value"] < 1
    bound = res["better_known_in_advance"]["value"]
    assert bound >= res["always_play"]["value"] and bound >= res["always_propose"]["value"] and bound > 0


def test_classical_rules_read_as_written():
    """The Britannica's rules on hands built by hand (trumps in lane 0; K = bit 7, Q = bit 6)."""
    from analysis.ecarte.studies import classical as C

    K, Q, TEN, SEVEN = 1 << 7, 1 << 6, 1 << 3, 1 << 0

    def hand(*lanes):
        return sum(lane << (8 * s) for s, lane in enumerate(lanes))

    assert C.elder_plays(hand(K | Q, K, 0, SEVEN)) and not C.elder_plays(hand(SEVEN, K, TEN, SEVEN | TEN))
    assert C.guarded_suits(hand(0, K, Q | SEVEN, Q)) == 2  # a lone queen does not guard
    assert C.dealer_refuses(hand(SEVEN, K, Q | TEN, SEVEN))  # guarded twice, one trump
    assert not C.dealer_refuses(hand(SEVEN, K, Q, SEVEN | TEN))  # guarded once, one trump
    assert C.dealer_refuses(hand(SEVEN | TEN, K, Q, SEVEN))  # guarded once, two trumps
    assert C.dealer_refuses(hand(SEVEN | TEN | Q, 0, SEVEN, TEN))  # three trumps


def test_the_record_cache_key_follows_the_engine_sources(monkeypatch, tmp_path):
    """The records' cache key hashes the engine's sources (every kernel of the hand, policies,
    rules, streams): editing one of them changes the key; the spec does too."""
    from analysis.ecarte.studies.equilibrium import study as E

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    a = E.RecordCache({"seed": 0}).dir
    assert a == E.RecordCache({"seed": 0}).dir and a != E.RecordCache({"seed": 1}).dir
    E.engine_fingerprint.cache_clear()
    import pathlib

    real = pathlib.Path.read_bytes
    monkeypatch.setattr(pathlib.Path, "read_bytes",
                        lambda self: real(self) + (b"#" if self.as_posix().endswith("ecarte/play/exchange.py") else b""))
    try:
        assert E.RecordCache({"seed": 0}).dir != a
    finally:
        monkeypatch.undo()
        E.engine_fingerprint.cache_clear()


def test_a_solution_is_kept_under_its_whole_spec_and_its_code(monkeypatch, tmp_path):
    """The finished solution is read back only for the same spec and the same solving code, and a
    damaged file is solved again (None), not an error."""
    from analysis.ecarte.studies.equilibrium import study as E

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    cache = E.RecordCache({"seed": 0})
    key = E.solution_key({"seed": 0, "budget": {"name": "quick"}})
    assert key != E.solution_key({"seed": 0, "budget": {"name": "standard"}})
    assert cache.load_solution(key) is None
    eq = E.Equilibrium(np.array([0.25]), np.array([1.0]), {"seed": 0}, [{"round": 0}], {"value": 1})
    cache.save_solution(key, eq)
    back = cache.load_solution(key)
    assert np.array_equal(back.x, eq.x) and back.spec == eq.spec and back.rounds == eq.rounds
    assert not list(cache.dir.glob("*.tmp*"))
    (cache.dir / f"solution-{key}.pickle").write_bytes(b"damaged")
    assert cache.load_solution(key) is None
    from analysis import store

    monkeypatch.setattr(store, "module_fingerprint", lambda module: "other code")
    assert E.solution_key({"seed": 0, "budget": {"name": "quick"}}) != key


def test_bench_measures_the_equilibrium_engines():
    """salon bench ecarte's equilibrium line: both rates measured, in the printed text."""
    from analysis.ecarte.bench import equilibrium, text

    q = equilibrium(deals_per_set=1, repeats=1)
    assert q["records"] == 86_810 and q["branch_deals_per_s"] > 0 and q["cfr_iterations_per_s"] > 0
    text = text({"game": "ecarte", "results": [], "learned_leads": {"results": []}, "equilibrium": q})
    assert "branch-record deals/s" in text and "CFR+" in text


@pytest.mark.parametrize("args", [["study", "ecarte", "classical", "--rule", "target=7"],
                                  ["study", "ecarte", "strategy", "--search-sets", "1"],
                                  ["study", "ecarte", "strategy", "--method", "best-response", "--search-sets", "3"]])
def test_classical_and_search_options_refuse_bad_input_in_one_line(args, capsys):
    """No shipped tables for these switches, a one-set search check, a search check for the other
    method: one line on stderr, exit code 2, nothing computed."""
    from analysis.cli import main

    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_budget_whose_peak_does_not_fit_is_refused_in_one_line_before_any_work(monkeypatch, salon, tmp_path):
    from analysis.ecarte.studies.equilibrium import discard_rule
    from analysis.ecarte.studies.equilibrium import study as E

    monkeypatch.setattr(E, "available_gb", lambda: 4.0)
    monkeypatch.setattr(discard_rule, "fit", lambda *a, **k: pytest.fail("work started before the check"))
    code, out, err = salon(["study", "ecarte", "strategy", "--budget", "standard", "--out", str(tmp_path), "--quiet"])
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err
    assert "5.8 GB" in lines[0] and "4.0 GB available" in lines[0] and "--budget quick (about 0.8 GB)" in lines[0]
    E.check_memory("quick")  # fits
    monkeypatch.setattr(E, "available_gb", lambda: None)  # unknown: no refusal
    E.check_memory("standard")

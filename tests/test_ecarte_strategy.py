"""The Écarté strategy tables (analysis/ecarte/studies/strategy/tables.py, studies/strategy/kernel.py, studies/score.py): hands up to
suit symmetry with their exact probabilities, the table kernels against the hand engine deal by
deal, the score chain against exact small cases and against simulated games, and the CLI."""
import json
from math import comb

import numpy as np
import pytest

from analysis.cli import main
from analysis.ecarte.engine.deal import deal_with_elder
from analysis.ecarte.engine.layout import (
    N_OUT,
    O_ANNOUNCED,
    O_DEALER_POINTS,
    O_DEALER_TRICK_POINTS,
    O_ELDER_POINTS,
    O_ELDER_TRICK_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_TURNUP_KING,
)
from analysis.ecarte.play.hand import play_hand
from analysis.ecarte.play.paired import sure_winners
from analysis.ecarte.players.heuristic import heuristic_discard
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies import score
from analysis.ecarte.studies.strategy import kernel as TK
from analysis.ecarte.studies.strategy import tables as S
from analysis.rng import EMPTY_HALF, stream_start


def test_hand_ranks_are_a_bijection_and_the_classes_cover_every_hand():
    every = TK.all_hands()
    assert len(np.unique(every)) == comb(32, 5) == TK.N_HANDS
    assert all(bin(int(m)).count("1") == 5 for m in every[::997])
    h = S.hands()
    assert len(h.masks) == 38_304 and h.multiplicity.sum() == comb(32, 5)
    assert set(np.unique(h.multiplicity)) == {1, 3, 6}
    # Every hand's class is its own canonical form.
    for r in range(0, TK.N_HANDS, 4099):
        codes = [c for c in range(32) if int(every[r]) >> c & 1]
        assert S.canonical_mask(codes, turnup=7) == h.masks[h.class_of_rank[r]]


def test_class_weights_give_the_exact_trump_count_distribution():
    # Given the turn-up (a trump), elder's five come from the 31 others: 7 trumps and 24 plain.
    h = S.hands()
    w = h.weights()
    for k in range(6):
        exact = comb(7, k) * comb(24, 5 - k) / comb(31, 5)
        assert w[h.trumps == k].sum() == pytest.approx(exact, rel=1e-12)


def _expected_rows(block: str, item: int, n: int, seed: int, table: np.ndarray, rules, pe, pd) -> np.ndarray:
    """The block's tally row rebuilt in Python from the engine's own functions, deal by deal."""
    h = S.hands()
    fixed = int(h.masks[item])
    codes = np.array([c for c in range(32) if fixed >> c & 1], dtype=np.int64)
    row = np.zeros(TK.N_ROW, dtype=np.int64)
    deck, deck2, out = np.empty(32, np.int8), np.empty(32, np.int8), np.empty(N_OUT, np.int64)
    for i in range(n):
        ui = np.uint64((item << TK.ITEM_SHIFT) | i)
        # numba returns Python ints: the engine's functions want the streams as uint64 again.
        stc = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(0)))
        stu = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(2)))
        while True:
            free = [c for c in range(8) if not fixed >> c & 1]
            stu, j = TK.turnup_for(fixed, stu)
            stu = np.uint64(stu)
            assert j in free
            stc, stb, other = deal_with_elder(deck, stc, EMPTY_HALF, codes, j)
            stc, stb = np.uint64(stc), np.uint64(stb)
            row[TK.R_TRIES] += 1
            if block == "elder" or table[TK.rank_of_mask(other)] == 1:
                break
        elder, dealer = (fixed, other) if block == "elder" else (other, fixed)
        results = []
        for option in (0, 1):
            e, d = pe.copy(), pd.copy()
            if block == "elder":
                e[6] = option
                d[7] = table[TK.rank_of_mask(dealer)] if option else -1
            else:
                e[6], d[7] = 1, option
            deck2[:] = deck
            play_hand(deck2, 11, (stc, stb, np.uint64(0)), elder, dealer, j, rules, e, d, out, False)
            ann = int(out[O_ANNOUNCED])
            king = 1 if ann & 1 else 2 if out[O_TURNUP_KING] else 3 if ann >> 1 else 0
            cell = king * 16 + int(out[O_ELDER_TRICK_POINTS]) * 4 + int(out[O_DEALER_TRICK_POINTS])
            net = int(out[O_ELDER_POINTS] - out[O_DEALER_POINTS])
            results.append((cell, net, int(out[O_ELDER_TRICKS]), int(out[O_ENDING])))
        (ca, na, ta, _), (cb, nb, tb, end_b) = results
        row[TK.R_N] += 1
        row[TK.R_A + ca] += 1
        row[TK.R_B + cb] += 1
        row[TK.R_DIFF] += nb - na
        row[TK.R_DIFF_SQ] += (nb - na) ** 2
        row[TK.R_A_VOLE] += ta == 5
        row[TK.R_B_VOLE] += tb == 5
        row[TK.R_B_REFUSED] += end_b
        if block == "elder" and sure_winners(elder, j) < 3:
            row[TK.R_TIP_N] += 1
            row[TK.R_TIP_DIFF] += nb - na
            row[TK.R_TIP_DIFF_SQ] += (nb - na) ** 2
    if block == "elder":
        row[TK.R_TRIES] = 0
    return row


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_the_table_blocks_play_each_deal_as_the_engine_does(variant):
    rules = get_rules(variant).to_array()
    pol = HeuristicPolicy()
    e_tab, d_tab = TK.heuristic_tables(9, 10)
    rng = np.random.default_rng(3)
    mixed = rng.integers(0, 2, TK.N_HANDS).astype(np.int8)  # an arbitrary table: every lookup matters
    items = [0, 5_000, 20_000, 38_303]
    n = 60
    masks = S.hands().masks
    for block, fn, table in (("elder", TK.elder_block, mixed), ("dealer", TK.dealer_block, e_tab)):
        starts = np.array([i << TK.ITEM_SHIFT for i in items], dtype=np.int64)
        got = fn(11, starts, np.full(len(items), n, dtype=np.int64), masks, table, rules, pol.to_array(),
                 pol.to_array())
        for k, item in enumerate(items):
            want = _expected_rows(block, item, n, 11, table, rules, pol.to_array(), pol.to_array())
            assert np.array_equal(got[k], want), (block, item)
    assert d_tab.dtype == np.int8
    # More chunks than the blocks' groups: each chunk's row is its own.
    starts = np.arange(70, dtype=np.int64) << TK.ITEM_SHIFT
    counts = np.full(70, 3, dtype=np.int64)
    every = TK.elder_block(4, starts, counts, masks, mixed, rules, pol.to_array(), pol.to_array())
    for k in (0, 1, 64, 69):
        alone = TK.elder_block(4, starts[k:k + 1], counts[k:k + 1], masks, mixed, rules, pol.to_array(),
                               pol.to_array())
        assert np.array_equal(every[k], alone[0])


def test_the_score_chain_on_exact_cases():
    T = 5
    cell = lambda king, e, d: king * 16 + e * 4 + d  # noqa: E731
    # Elder always takes the point (1): the players win every other hand, the first elder reaches 5 first.
    only = np.zeros(TK.N_CELLS)
    only[cell(0, 1, 0)] = 1
    rows = np.zeros((1, TK.N_ROW), dtype=np.int64)
    rows[0, TK.R_N] = 10
    rows[0, TK.R_A + cell(0, 1, 0)] = 10
    rows[0, TK.R_B + cell(0, 1, 0)] = 10
    one = np.ones(1)
    res = score.chain(T, one, rows, np.zeros(1, int), one, rows, np.zeros(1, int))
    assert res["W_points"][0, 0] == 1.0 and res["W_points"][0, 4] == 0.0 and res["W_points"][4, 4] == 1.0
    # A fair coin for one point each hand: W[x, y] by a direct recursion.
    rows[0, TK.R_A:TK.R_A + TK.N_CELLS] = 0
    rows[0, TK.R_A + cell(0, 1, 0)] = 5
    rows[0, TK.R_A + cell(0, 0, 1)] = 5
    res = score.chain(T, one, rows, np.zeros(1, int), one, rows, np.zeros(1, int))

    def direct(x, y):  # x: elder's score, y: the dealer's; the deal passes after each hand
        win = 1.0 if x + 1 >= T else 1 - direct(y, x + 1)
        lose = 0.0 if y + 1 >= T else 1 - direct(y + 1, x)
        return (win + lose) / 2

    for x in range(T):
        for y in range(T):
            assert res["W_points"][x, y] == pytest.approx(direct(x, y), abs=1e-12)
    # The king point is scored first: at 4-4 a dealer's turn-up king wins at once, even if elder takes the vole.
    rows[0, TK.R_A:TK.R_A + TK.N_CELLS] = 0
    rows[0, TK.R_A + cell(2, 2, 0)] = 10
    res = score.chain(T, one, rows, np.zeros(1, int), one, rows, np.zeros(1, int))
    assert res["W_points"][4, 4] == 0.0 and res["W_points"][3, 4] == 0.0


def test_the_mixture_covariance_matches_resampled_counts():
    """score.mixture's covariance of the weighted outcome distribution equals the spread of the
    mixture when each class's counts are redrawn as multinomials (within 10%, 4,000 redraws)."""
    rng = np.random.default_rng(3)
    n = np.array([40, 200, 90])
    probs = rng.dirichlet(np.ones(TK.N_CELLS) * 0.3, size=3)
    rows = np.zeros((3, TK.N_ROW), dtype=np.int64)
    rows[:, TK.R_N] = n
    for i in range(3):
        rows[i, TK.R_A:TK.R_A + TK.N_CELLS] = rng.multinomial(n[i], probs[i])
    w = np.array([0.5, 0.3, 0.2])
    table = np.zeros(3, dtype=int)
    mean, cov = score.mixture(w, rows, table)
    assert mean.sum() == pytest.approx(1.0) and np.allclose(cov.sum(axis=0), 0, atol=1e-15)
    p_hat = rows[:, TK.R_A:TK.R_A + TK.N_CELLS] / n[:, None]
    redraws = np.stack([sum(w[i] * rng.multinomial(n[i], p_hat[i]) / n[i] for i in range(3)) for _ in range(4000)])
    big = np.diag(cov) > 1e-4
    assert big.sum() >= 5
    assert np.allclose(np.diag(np.cov(redraws.T))[big], np.diag(cov)[big], rtol=0.1)


def test_king_value_intervals_cover_the_estimate_and_shrink_with_deals():
    """The king point's bootstrap intervals (strategy.by_score columns) contain the point value and
    are about ten times narrower with a hundred times the deals."""
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(TK.N_CELLS), size=4)
    w = np.full(4, 0.25)
    table = np.zeros(4, dtype=int)
    widths = []
    for deals in (100, 10_000):
        rows = np.zeros((4, TK.N_ROW), dtype=np.int64)
        rows[:, TK.R_N] = deals
        for i in range(4):
            rows[i, TK.R_A:TK.R_A + TK.N_CELLS] = rng.multinomial(deals, probs[i])
        _, kv = score.points_chain(5, score.mixture(w, rows, table)[0])
        draws = score.king_value_draws(5, w, rows, table, draws=300, seed=1)
        lo, hi = np.percentile(draws["elder"], [2.5, 97.5], axis=0)
        assert (lo <= kv["elder"]).all() and (kv["elder"] <= hi).all()
        widths.append(float(np.mean(hi - lo)))
    assert 6 < widths[0] / widths[1] < 15


def test_the_score_chain_matches_simulated_games_under_the_heuristic():
    """With the heuristic's own decisions as tables, the chain's chance that the first elder wins
    the game must match games played by the engine (independent estimates, 5 standard errors)."""
    from analysis.ecarte.studies.simulate import simulate_games

    rules, pol = get_rules(), HeuristicPolicy()
    h = S.hands()
    e_tab, d_tab = TK.heuristic_tables(pol.elder_play_threshold, pol.dealer_refuse_threshold)
    first = np.unique(h.class_of_rank, return_index=True)[1]
    deals = 40
    e_rows = S.evaluate_elder(d_tab, deals, 5, rules, pol)
    d_rows = S.evaluate_dealer(e_tab, 4, 5, rules, pol)
    w = h.weights()
    wd = w * d_rows[:, TK.R_N] / np.maximum(d_rows[:, TK.R_TRIES], 1)
    res = score.chain(5, w, e_rows, e_tab[first].astype(int), wd / wd.sum(), d_rows, d_tab[first].astype(int))
    games = simulate_games(60_000, seed=9, rules=rules, player_a=pol, player_b=pol)
    sim = 1 - games["stats"]["first_dealer_wins"]["value"]
    se_sim = np.sqrt(sim * (1 - sim) / 60_000)
    assert abs(res["W_points"][0, 0] - sim) < 5 * np.hypot(se_sim, 0.002)
    # At every score the by-score decisions are at least as good as the points table's, for the
    # same continuation (both players decide by score when elder, or when dealer).
    play, propose = score.distributions(e_rows)
    table = e_tab[first].astype(int)
    for x in range(5):
        for y in range(5):
            v = score.cell_values(res["W_elder"], x, y, 5)
            points = w @ np.where(table[:, None] == 1, propose, play) @ v
            assert res["W_elder"][x, y] >= points - 1e-12
            assert res["W_elder"][x, y] == pytest.approx(w @ np.maximum(play @ v, propose @ v))


def test_strategy_command_writes_tables_and_propose_reads_them(tmp_path, capsys):
    out = tmp_path / "tables"
    main(["study", "ecarte", "strategy", "--method", "best-response", "--deals-per-hand", "4", "--rounds", "1",
          "--discard-deals", "2",
          "--search-check", "3", "--out", str(out), "--json", "--quiet"])
    printed = json.loads(capsys.readouterr().out)
    assert 0 <= printed["search_check"]["agreement_search"]["value"] <= 1
    assert printed["spec"]["discards"]["deals_per_option"] == 2
    assert (out / "ecarte_strategy_seed-de_search_check.csv").exists()
    rounds = json.loads((out / "ecarte_strategy_seed-de_rounds.json").read_text())
    assert rounds["rounds"][0]["round"] == 1 and rounds["spec"]["deals_per_hand"] == 4
    import pandas as pd

    elder = pd.read_parquet(out / "ecarte_strategy_seed-de_elder.parquet")
    assert len(elder) == 38_304 and set(elder["decision"]) <= {"play", "propose"}
    assert (elder["n"] == 4).all() and elder["weight"].sum() == pytest.approx(1)
    for f in ("frontiers.png", "by_score.png", "score.csv", "dealer.csv"):
        assert (out / f"ecarte_strategy_seed-de_{f}").stat().st_size > 0
    # The five top trumps (turn-up 7 of hearts): elder's class row is found, and the answer given.
    res = S.lookup([S_code(c) for c in ("KH", "QH", "JH", "AH", "10H")], S_code("7H"), get_rules(),
                   HeuristicPolicy(), str(out), (3, 4))
    row = elder[elder["mask"] == 0b11111000].iloc[0]
    assert res["class"] == row["hand"] == "T: K Q J A 10"
    assert res["recommendation"] in ("play", "propose") and res["score"] == [3, 4]
    # Other rules or policy parameters: the tables do not apply.
    assert S.lookup([0, 1, 2, 3, 4], 7, get_rules("classic"), HeuristicPolicy(), str(out)) is None
    assert S.lookup([0, 1, 2, 3, 4], 7, get_rules(), HeuristicPolicy(lead_trumps=False), str(out)) is None


def S_code(card: str) -> int:
    from analysis.cards import parse_card
    from analysis.ecarte.rules import code_of

    return code_of(parse_card(card))


def test_a_search_check_of_one_class_is_refused_before_anything_is_computed(capsys, monkeypatch):
    monkeypatch.setattr(S, "compute", lambda *a, **k: pytest.fail("computed before checking the options"))
    with pytest.raises(SystemExit) as e:
        main(["study", "ecarte", "strategy", "--search-check", "1"])
    assert e.value.code == 2 and "--search-check" in capsys.readouterr().err


@pytest.mark.parametrize("args,needle", [(["--score", "5-1"], "--score"), (["--score", "x"], "--score"),
                                         # no shipped tables match these switches, and none in the default --tables
                                         (["--score", "2-2", "--rule", "must_trump_when_void=false"], "--score"),
                                         # a --tables that is not there is an error, whatever else would answer
                                         (["--score", "2-2", "--tables", "/nonexistent"], "--tables /nonexistent")])
def test_propose_with_a_bad_score_or_without_tables_is_a_one_line_error(args, needle, capsys, tmp_path,
                                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)  # no reports/tables here
    with pytest.raises(SystemExit) as e:
        main(["ecarte", "propose", "KH QH 7S 8D 9C", "--turnup", "7H", *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert needle in err


def test_chosen_discards_map_back_onto_every_hand_of_the_class():
    """A discard chosen for a class's canonical hand, expanded to every hand relative to trumps:
    a subset of the hand, trumps kept as they are, and plain suits following their cards."""
    h = S.hands()
    masks = S.option_masks()
    rng = np.random.default_rng(5)
    per_class = masks[np.arange(len(h.masks)), rng.integers(1, 32, len(h.masks))]
    per_class[::7] = -1
    table = S.expand_discards(per_class)
    every = TK.all_hands()
    for r in rng.integers(0, TK.N_HANDS, 3000):
        c, d = h.class_of_rank[r], int(table[r])
        if per_class[c] < 0:
            assert d == -1
            continue
        hand, canon, cd = int(every[r]), int(h.masks[c]), int(per_class[c])
        assert d & ~hand == 0 and bin(d).count("1") == bin(cd).count("1")
        assert d & 0xFF == cd & 0xFF

        def lanes(m, x):
            return sorted((((m >> (8 * s)) & 0xFF), ((x >> (8 * s)) & 0xFF)) for s in (1, 2, 3))

        assert lanes(hand, d) == lanes(canon, cd)


@pytest.mark.parametrize("as_dealer", [False, True])
def test_the_discard_block_plays_every_option_as_the_engine_does(as_dealer):
    rules = get_rules("classic", ["dealer_min_discard=0"])
    pol = HeuristicPolicy()
    e_tab, d_tab = TK.heuristic_tables(9, 10)
    other = e_tab if as_dealer else d_tab
    first = 0 if as_dealer else 1
    items, n, seed = [3, 30_000], 6, 13
    masks = S.hands().masks
    starts = np.array([i << TK.ITEM_SHIFT for i in items], dtype=np.int64)
    got = TK.discard_block(seed, starts, np.full(2, n, dtype=np.int64), masks, other, as_dealer, first,
                           rules.to_array(), pol.to_array(), pol.to_array())
    options = S.option_masks()
    deck, deck2, out = np.empty(32, np.int8), np.empty(32, np.int8), np.empty(N_OUT, np.int64)
    for k, item in enumerate(items):
        fixed = int(masks[item])
        codes = np.array([c for c in range(32) if fixed >> c & 1], dtype=np.int64)
        want = np.zeros(TK.N_DISCARD_ROW, dtype=np.int64)
        for i in range(n):
            ui = np.uint64((item << TK.ITEM_SHIFT) | i)
            stc = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(0)))
            stu = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(2)))
            while True:
                stu, up = TK.turnup_for(fixed, stu)
                stu = np.uint64(stu)
                stc, stb, o = deal_with_elder(deck, stc, EMPTY_HALF, codes, up)
                stc, stb = np.uint64(stc), np.uint64(stb)
                want[TK.D_TRIES] += 1
                if other[TK.rank_of_mask(o)] == (1 if as_dealer else 0):
                    break
            want[TK.D_N] += 1
            elder, dealer = (o, fixed) if as_dealer else (fixed, o)
            nets = {}
            for opt in range(first, 32):
                pe = pol.to_array(force_first=1, force_discard=-1 if as_dealer else int(options[item, opt]))
                pd = pol.to_array(force_response=0, force_discard=int(options[item, opt]) if as_dealer else -1)
                deck2[:] = deck
                play_hand(deck2, 11, (stc, stb, np.uint64(0)), elder, dealer, up, rules.to_array(), pe, pd, out, False)
                net = int(out[O_ELDER_POINTS] - out[O_DEALER_POINTS])
                want[TK.D_SUM + opt] += net
                want[TK.D_SQ + opt] += net * net
                nets[opt] = net
            heuristic = heuristic_discard(fixed, 0, first, 5, pol.keep_plain_min_rank)
            h_opt = next(o for o in range(32) if options[item, o] == heuristic)
            for opt in range(first, 32):
                want[TK.D_DIFF_SQ + opt] += (nets[opt] - nets[h_opt]) ** 2
        assert np.array_equal(got[k], want), item
    # Options change outcomes: not every option scores the same.
    assert len(set(got[0, TK.D_SUM + first:TK.D_SUM + 32].tolist())) > 1

"""The Écarté equilibrium by score: records re-valued by outcome cell, the race's deals kept for
the game at each score, and the king's announcement (EC-T5) valued under a score's solution,
each against a plain-numpy computation from the definitions."""
from __future__ import annotations

import numpy as np
import pytest

from analysis.ecarte.studies import score
from analysis.ecarte.studies.equilibrium import solver as S
from analysis.ecarte.studies.equilibrium.by_score import king_row, king_values
from analysis.ecarte.studies.equilibrium.measures import info_sets, net_values, phase_records
from analysis.ecarte.studies.strategy import kernel as TK


def _records(seed: int, n: int = 40_000):
    rng = np.random.default_rng(seed)
    sets = info_sets()
    valid = np.flatnonzero(sets.valid)
    fixed = rng.choice(valid, n).astype(np.int32)
    other = (2 * rng.choice(valid, n) + rng.integers(0, 2, n)).astype(np.int32)
    cells = rng.integers(0, TK.N_CELLS, (n, 3)).astype(np.uint8)
    rec = S.Records.from_records(fixed, other, cells, len(sets.weight), net_values())
    nets = np.array([TK.elder_net.py_func(c) for c in range(TK.N_CELLS)])[rec.cells]
    assert np.array_equal(np.stack(rec.branches(), axis=1),
                          np.stack([nets[:, 0], nets[:, 1] - nets[:, 0], nets[:, 2] - nets[:, 1]], axis=1))
    return rec, rng


def test_valued_records_are_the_cells_payoffs():
    rec, rng = _records(1)
    vals = rng.random(TK.N_CELLS)
    v = rec.valued(vals)
    want = vals.astype(np.float32)[rec.cells]
    play, gain, refusal = v.branches()
    assert np.array_equal(play, want[:, 0])
    assert np.array_equal(gain, want[:, 1] - want[:, 0])
    assert np.array_equal(refusal, want[:, 2] - want[:, 1])
    assert v.cells is rec.cells and v.other is rec.other  # nothing per record is copied


def test_joined_and_first_keep_each_sets_deals_in_order_across_rounds():
    # Two rounds in task order: set 5 has deals 0-2 in round 0 and 3-6 in round 1; set 2 only round 0.
    r0 = phase_records((np.array([2, 2, 5, 5, 5], np.int32), np.arange(5, dtype=np.int32),
                        np.arange(15, dtype=np.uint8).reshape(5, 3)))
    r1 = phase_records((np.array([5, 5, 5, 5], np.int32), np.arange(5, 9, dtype=np.int32),
                        np.arange(15, 27, dtype=np.uint8).reshape(4, 3)))
    both = r0.joined(r1)
    assert both.fixed.tolist() == [2, 2, 5, 5, 5, 5, 5, 5, 5]
    assert both.other.tolist() == list(range(9))
    first = both.first(4)
    assert first.fixed.tolist() == [2, 2, 5, 5, 5, 5]
    assert first.other.tolist() == [0, 1, 2, 3, 4, 5]  # set 5: round 0's three deals, then round 1's first
    assert first.cells[-1].tolist() == [15, 16, 17]
    # The same as sorting the rounds' records stably by set.
    fixed = np.array([2, 2, 5, 5, 5, 5, 5, 5, 5, 7, 1], np.int32)
    other = np.arange(11, dtype=np.int32)
    rec = S.Records.from_records(fixed[::-1].copy(), other[::-1].copy(), np.zeros((11, 3), np.uint8), 9,
                                 net_values())
    assert rec.fixed.tolist() == sorted(fixed.tolist()) and rec.counts.sum() == 11
    with pytest.raises(ValueError):
        phase_records((fixed, other, np.zeros((11, 3), np.uint8)))


@pytest.mark.parametrize("xs,ys", [(0, 0), (2, 3), (4, 1)])
def test_king_value_by_score_is_its_definition(xs, ys):
    rec, rng = _records(2 + xs)
    w = info_sets().weight
    n_sets = len(w)
    x, y = rng.random(n_sets), rng.random(n_sets)
    W = rng.uniform(0.2, 0.8, (5, 5))
    vals = score.cell_values(W, xs, ys, 5)
    row = king_row({"elder": rec}, vals, x, y)
    # Per record, the strategy pair's chance of each branch; per set the mean; sets by weight.
    J = rec.other >> 1
    pr = np.stack([1 - x[rec.fixed], x[rec.fixed] * (1 - y[J]), x[rec.fixed] * y[J]], axis=1)
    for side, (gain, has) in king_values(vals).items():
        per_record = (pr * gain[rec.cells]).sum(axis=1)
        per_share = (pr * has[rec.cells]).sum(axis=1)
        n = np.maximum(np.bincount(rec.fixed, minlength=n_sets), 1)
        g = (w * np.bincount(rec.fixed, per_record, n_sets) / n).sum()
        share = (w * np.bincount(rec.fixed, per_share, n_sets) / n).sum()
        assert row[f"king_share_{side}"] == pytest.approx(share, rel=1e-5)
        assert row[f"king_value_{side}"] == pytest.approx(g / share, rel=1e-4)
        lo, hi = row[f"king_value_{side}_ci95"]
        assert lo < row[f"king_value_{side}"] < hi
    if xs == 4:  # the king point wins the game outright
        assert row["king_value_elder"] > 0



def test_deals_added_by_the_race_by_score_are_the_deals_simulated_at_once():
    """Extending some sets' records (deals 4..7 after 0..3) and joining gives, set by set, the same
    records as simulating deals 0..7 of those sets in one go: the deals are fixed by their index."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.study import simulate

    sets = info_sets()
    chosen = np.flatnonzero(sets.valid)[[3, 500, 40_000]]
    first, more = np.zeros(len(sets.weight), np.int64), np.zeros(len(sets.weight), np.int64)
    more[chosen] = 4
    args = (7, get_rules("classic"), (HeuristicPolicy(), HeuristicPolicy()), 1)
    start = phase_records(simulate("elder", first, more, *args))
    more2 = more.copy()
    more2[chosen[1]] = 0  # only two of the three sets are extended
    joined = start.joined(phase_records(simulate("elder", first + more, more2, *args)))
    whole = phase_records(simulate("elder", first, more + more2, *args))
    for name in ("offsets", "other", "cells"):
        assert np.array_equal(getattr(joined, name), getattr(whole, name))
    assert joined.counts[chosen].tolist() == [8, 4, 8]


def test_race_by_score_doubles_the_open_sets_of_highest_stake_within_the_budget(monkeypatch):
    """Round after round the open sets of highest priority get as many deals again (never past the
    cap, never more in all than the budget's share of the fitted deals) in the fitted and the
    held-out records alike, every score is solved again from the last solutions, and the race
    stops when no set is open."""
    from analysis.ecarte.studies.equilibrium import by_score as ES
    from analysis.ecarte.studies.equilibrium.study import Budget

    n_sets = len(info_sets().weight)
    valid = np.flatnonzero(info_sets().valid)
    a, b = int(valid[10]), int(valid[20])  # a: high priority; b: lower, and it does not fit beside a
    fixed = np.concatenate([[a] * 4, [b] * 4, valid[100:200]]).astype(np.int32)
    raw = phase_records((np.sort(fixed), np.arange(len(fixed), dtype=np.int32), np.zeros((len(fixed), 3), np.uint8)))
    counts = np.bincount(fixed, minlength=n_sets)
    calls, extended = [], []

    def fake_solve(fit, held, x, y, target, iterations, log=None, start=None):
        calls.append((start, int(fit["elder"].counts[a]), int(held["elder"].counts[a]), int(fit["elder"].counts[b])))
        priority = {s: np.zeros(n_sets) for s in ("elder", "dealer")}
        if len(calls) < 3:  # open after the first two solves
            priority["elder"][a] = 2.0
            priority["dealer"][b] = 1.0
        row = {"undecided_stake": 1.0, "exploitability_elder_upper": 1.0, "exploitability_dealer_upper": 1.0}
        return ES.ScoreSolution([row], [], np.zeros((5, 5)), {(0, 0): (len(calls), None)}, priority)

    def extend(kind, side, first, more):
        extended.append((kind, side, int(first[a]), int(more[a]), int(more.sum())))
        sel = np.repeat(np.flatnonzero(more), more[more > 0])
        return phase_records((sel.astype(np.int32), np.zeros(len(sel), np.int32), np.zeros((len(sel), 3), np.uint8)))

    monkeypatch.setattr(ES, "solve_scores", fake_solve)
    x = np.zeros(n_sets)
    ha = 4
    growth = 5 / (2 * len(fixed))  # room for set a's doubling (4 deals), not for b's beside it (8)
    budget = Budget("t", 1, 3 * ha, 1, 1, 1, ha, 5, growth)
    _, rounds = ES.race_by_score({"elder": raw, "dealer": raw}, {"elder": raw, "dealer": raw}, x, x, 5, budget, extend)
    assert len(rounds) == 3 and [c[0] for c in calls] == [None, {(0, 0): (1, None)}, {(0, 0): (2, None)}]
    # a: ha -> 2 ha -> 3 ha (the cap), in both record sets; b never gets more.
    assert [c[1:3] for c in calls] == [(ha, ha), (2 * ha, 2 * ha), (3 * ha, 3 * ha)]
    assert all(c[3] == counts[b] for c in calls)
    assert [e for e in extended if e[1] == "elder"] == [
        ("fit", "elder", ha, ha, ha), ("held", "elder", ha, ha, ha),
        ("fit", "elder", 2 * ha, ha, ha), ("held", "elder", 2 * ha, ha, ha)]
    assert all(e[4] == 0 for e in extended if e[1] == "dealer")
    assert rounds[0]["open_sets"] == {"elder": 1, "dealer": 1} and rounds[0]["sets_given_more"]["dealer"] == 0
    assert rounds[-1]["deals"]["fit"] == 2 * len(raw) + 2 * ha
    assert rounds[1]["sets_given_more"]["elder"] == 1 and rounds[-1]["sets_given_more"] == {"elder": 0, "dealer": 0}
    # Certified at every score after the first solve: no round follows.
    calls.clear()
    monkeypatch.setattr(ES, "solve_scores", lambda *a, **k: ES.ScoreSolution(
        [{"undecided_stake": 1.0, "exploitability_elder_upper": 0.0, "exploitability_dealer_upper": 0.0}], [],
        np.zeros((5, 5)), {}, {"elder": np.ones(n_sets), "dealer": np.ones(n_sets)}))
    _, rounds = ES.race_by_score({"elder": raw, "dealer": raw}, {"elder": raw, "dealer": raw}, x, x, 5, budget, extend)
    assert len(rounds) == 1

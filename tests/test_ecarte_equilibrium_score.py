"""The Écarté equilibrium by score: records re-valued by outcome cell, the race's deals kept for
the game at each score, and the king's announcement (EC-T5) valued under a score's solution,
each against a plain-numpy computation from the definitions."""
from __future__ import annotations

import numpy as np
import pytest

from analysis.ecarte import equilibrium_solver as S
from analysis.ecarte import score
from analysis.ecarte import table_kernel as TK
from analysis.ecarte.equilibrium import info_sets
from analysis.ecarte.equilibrium_score import king_row, king_values, raced_deals


def _records(seed: int, n: int = 40_000):
    rng = np.random.default_rng(seed)
    sets = info_sets()
    valid = np.flatnonzero(sets.valid)
    fixed = rng.choice(valid, n).astype(np.int32)
    other = (2 * rng.choice(valid, n) + rng.integers(0, 2, n)).astype(np.int32)
    cells = rng.integers(0, TK.N_CELLS, (n, 3)).astype(np.uint8)
    nets = np.array([TK.elder_net.py_func(c) for c in range(TK.N_CELLS)], dtype=np.int8)[cells]
    return S.Records(fixed, other, nets, len(sets.weight), cells=cells), rng


def test_valued_records_are_the_cells_payoffs():
    rec, rng = _records(1)
    vals = rng.random(TK.N_CELLS)
    v = rec.valued(vals)
    want = vals.astype(np.float32)[rec.cells]
    assert np.array_equal(v.play, want[:, 0])
    assert np.array_equal(v.gain, want[:, 1] - want[:, 0])
    assert np.array_equal(v.refusal, want[:, 2] - want[:, 1])
    assert v.zeros.sum() == 0 and v.ones.sum() == len(rec.other)


def test_raced_deals_keep_each_sets_first_deals_across_rounds():
    # Two rounds in task order: set 5 has deals 0-2 in round 0 and 3-6 in round 1; set 2 only round 0.
    r0 = (np.array([2, 2, 5, 5, 5], np.int32), np.arange(5, dtype=np.int32), np.arange(15, dtype=np.uint8).reshape(5, 3))
    r1 = (np.array([5, 5, 5, 5], np.int32), np.arange(5, 9, dtype=np.int32),
          np.arange(15, 27, dtype=np.uint8).reshape(4, 3))
    fixed, other, cells = raced_deals([r0, r1], 4)
    assert fixed.tolist() == [2, 2, 5, 5, 5, 5]
    assert other.tolist() == [0, 1, 2, 3, 4, 5]  # set 5: round 0's three deals, then round 1's first
    assert cells[-1].tolist() == [15, 16, 17]


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


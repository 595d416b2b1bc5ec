"""The proposal game solved over stored branch records: CFR+ and the measures of a strategy pair
(values, best-response gains, exploitability) on any set of records.

The game: elder, at information set I, proposes with probability x[I]; the dealer, at his
information set J, refuses a proposal with probability y[J]. On a deal, elder's net is ``play``
if he plays, ``accepted`` or ``refused`` if he proposes. Over a side's records (one fixed
information set per record, the other side's set dealt at random), with
``gain = accepted - play`` and ``refusal = refused - accepted``:

- elder's value of proposing over playing at I:  q[I] = mean over I's records of gain + y[J] * refusal;
- elder's gain from the dealer refusing at J:    r[J] = mean over J's records of x[I] * refusal
  (the dealer refuses where r[J] < 0).

Records are sorted by their fixed information set; ``offsets[s] .. offsets[s + 1]`` are set s's.
A record keeps only the outcome cell of each branch; the payoffs come from a table per cell, so
re-valuing the records (the chance of winning at a score) copies nothing.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

ELDER, DEALER, PROPOSED = 0, 1, 2
"""What a pass over a side's records sums per record, base + strategy[other set] * factor
(``terms``): elder's value of proposing (gain + y[J] * refusal), elder's gain from the dealer
refusing (x[I] * refusal), or the chance of a proposal (x[I])."""


@njit(inline="always")
def terms(cells, values, k, kind):
    """Record k's (base, factor) for the pass ``kind``, from its cells' payoffs (float32)."""
    if kind == PROPOSED:
        return np.float32(0.0), np.float32(1.0)
    accepted = values[cells[k, 1]]
    refusal = values[cells[k, 2]] - accepted
    if kind == DEALER:
        return np.float32(0.0), refusal
    return accepted - values[cells[k, 0]], refusal


@njit(cache=True, parallel=True)
def side_means(offsets, other, cells, values, kind, strategy):
    """Per fixed information set s: the mean and the sum of squares' mean of
    base + strategy[other] * factor (``terms``) over its records, and the same two over each half
    (records with other & 1 == 0 and == 1): arrays (sets, 6) = mean, mean of squares, then
    (n, sum) of half 0 and of half 1. ``other`` holds information set * 2 + half."""
    n_sets = offsets.shape[0] - 1
    out = np.zeros((n_sets, 6))
    for s in prange(n_sets):
        a = offsets[s]
        b = offsets[s + 1]
        if b == a:
            continue
        t = 0.0
        tt = 0.0
        n0 = 0.0
        t0 = 0.0
        for k in range(a, b):
            o = other[k]
            base, factor = terms(cells, values, k, kind)
            v = base + strategy[o >> 1] * factor
            t += v
            tt += v * v
            if o & 1 == 0:
                n0 += 1
                t0 += v
        n = b - a
        out[s, 0] = t / n
        out[s, 1] = tt / n
        out[s, 2] = n0
        out[s, 3] = t0
        out[s, 4] = n - n0
        out[s, 5] = t - t0
    return out


@njit(cache=True, parallel=True)
def elder_values(offsets, other, cells, values, x, y):
    """Per elder information set s: the mean and the mean square of elder's net under the strategy
    pair, play + x[s] * (gain + y[J] * refusal), over its records: (sets, 2)."""
    n_sets = offsets.shape[0] - 1
    out = np.zeros((n_sets, 2))
    for s in prange(n_sets):
        a = offsets[s]
        b = offsets[s + 1]
        if b == a:
            continue
        t = 0.0
        tt = 0.0
        for k in range(a, b):
            play = values[cells[k, 0]]
            gain, refusal = terms(cells, values, k, ELDER)
            v = play + x[s] * (gain + y[other[k] >> 1] * refusal)
            t += v
            tt += v * v
        out[s, 0] = t / (b - a)
        out[s, 1] = tt / (b - a)
    return out


@njit(cache=True, parallel=True)
def side_q(offsets, other, cells, values, kind, strategy, q):
    """Only the means of ``side_means`` (the inner loop of the solver), into q."""
    n_sets = offsets.shape[0] - 1
    for s in prange(n_sets):
        a = offsets[s]
        b = offsets[s + 1]
        if b == a:
            q[s] = 0.0
            continue
        t = 0.0
        for k in range(a, b):
            base, factor = terms(cells, values, k, kind)
            t += base + strategy[other[k] >> 1] * factor
        q[s] = t / (b - a)


@njit(cache=True)
def copy_sets(src_offsets, src_other, src_cells, lengths, dst_starts, dst_other, dst_cells):
    """For every set s, its records src_offsets[s] .. + lengths[s] - 1 to dst_starts[s] onwards."""
    for s in range(lengths.shape[0]):
        a = src_offsets[s]
        d = dst_starts[s]
        for i in range(lengths[s]):
            dst_other[d + i] = src_other[a + i]
            for branch in range(3):
                dst_cells[d + i, branch] = src_cells[a + i, branch]


@njit(cache=True)
def regret_step(r_yes, r_no, q, sign, strategy, t, average):
    """One CFR+ update of a side whose action 'yes' (propose, refuse) is worth sign * q[s] more
    than 'no' to it: regrets floored at 0, the new current strategy by regret matching, and the
    average strategy accumulated with weight t (linear averaging)."""
    for s in range(q.shape[0]):
        u = sign * q[s]
        v = strategy[s] * u
        r_yes[s] = max(r_yes[s] + u - v, 0.0)
        r_no[s] = max(r_no[s] - v, 0.0)
        total = r_yes[s] + r_no[s]
        strategy[s] = r_yes[s] / total if total > 0 else 0.5
        average[s] += t * strategy[s]


class Records:
    """One side's records, sorted by the fixed information set (see the module's docstring):
    ``offsets``, ``other`` (int32), ``cells`` (uint8, one outcome cell per branch) and ``values``,
    elder's payoff per outcome cell (float32: his net points, or any payoff such as the chance of
    winning the game). About 7 bytes a record."""

    def __init__(self, offsets: np.ndarray, other: np.ndarray, cells: np.ndarray, values: np.ndarray):
        self.offsets = offsets
        self.other = other
        self.cells = cells
        self.values = np.ascontiguousarray(values, dtype=np.float32)

    @classmethod
    def from_sorted(cls, fixed: np.ndarray, other: np.ndarray, cells: np.ndarray, n_sets: int,
                    values: np.ndarray) -> Records:
        """Records already in set order (a simulated phase: sets ascending)."""
        if len(fixed) > 1 and not (fixed[1:] >= fixed[:-1]).all():
            raise ValueError("records are not in set order")
        offsets = np.zeros(n_sets + 1, dtype=np.int64)
        np.cumsum(np.bincount(fixed, minlength=n_sets), out=offsets[1:])
        return cls(offsets, np.ascontiguousarray(other, dtype=np.int32),
                   np.ascontiguousarray(cells, dtype=np.uint8), values)

    @classmethod
    def from_records(cls, fixed: np.ndarray, other: np.ndarray, cells: np.ndarray, n_sets: int,
                     values: np.ndarray) -> Records:
        """Records in any order, sorted stably by their fixed set."""
        order = np.argsort(fixed, kind="stable")
        return cls.from_sorted(fixed[order], other[order], cells[order], n_sets, values)

    @classmethod
    def from_nets(cls, fixed: np.ndarray, other: np.ndarray, nets: np.ndarray, n_sets: int) -> Records:
        """Records of integer nets per branch (n, 3), each its own outcome cell."""
        low = int(nets.min())
        return cls.from_records(np.asarray(fixed), np.asarray(other, dtype=np.int32),
                                (nets - low).astype(np.uint8), n_sets,
                                np.arange(low, int(nets.max()) + 1, dtype=np.float32))

    def valued(self, cell_values: np.ndarray) -> Records:
        """The same records with the payoff of each outcome cell given by ``cell_values``."""
        return Records(self.offsets, self.other, self.cells, cell_values)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def fixed(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.offsets) - 1, dtype=np.int32), self.counts)

    def __len__(self) -> int:
        return len(self.other)

    def branches(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per record: play, gain = accepted - play and refusal = refused - accepted (float32)."""
        play, accepted, refused = (self.values[self.cells[:, b]] for b in range(3))
        return play, accepted - play, refused - accepted

    def _copy(self, parts: list, n_sets: int) -> Records:
        """Records made of, per set, the first ``lengths[s]`` records of each part (records,
        lengths) in turn."""
        lengths = sum(n for _, n in parts)
        offsets = np.zeros(n_sets + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        other = np.empty(int(offsets[-1]), dtype=np.int32)
        cells = np.empty((int(offsets[-1]), 3), dtype=np.uint8)
        at = offsets[:-1].copy()
        for rec, n in parts:
            copy_sets(rec.offsets, rec.other, rec.cells, n, at, other, cells)
            at += n
        return Records(offsets, other, cells, self.values)

    def first(self, most: int) -> Records:
        """Every set's first ``most`` records."""
        n = np.minimum(self.counts, most)
        return self._copy([(self, n)], len(n))

    def joined(self, more: Records) -> Records:
        """These records and ``more``'s, each set's in turn (the deals of a set in order when
        ``more`` continues them)."""
        return self._copy([(self, self.counts), (more, more.counts)], len(self.offsets) - 1)

    def side_means(self, kind: int, strategy: np.ndarray) -> np.ndarray:
        return side_means(self.offsets, self.other, self.cells, self.values, kind, strategy)

    def side_q(self, kind: int, strategy: np.ndarray, q: np.ndarray) -> None:
        side_q(self.offsets, self.other, self.cells, self.values, kind, strategy, q)

    def elder_values(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return elder_values(self.offsets, self.other, self.cells, self.values, x, y)

    def elder_q(self, y: np.ndarray, q: np.ndarray) -> None:
        self.side_q(ELDER, y, q)

    def dealer_r(self, x: np.ndarray, r: np.ndarray) -> None:
        self.side_q(DEALER, x, r)


@njit(cache=True)
def predictive_step(r_yes, r_no, q, sign, strategy, t, average):
    """As ``regret_step`` for predictive CFR+: the next strategy is regret matching on the floored
    regrets plus this iteration's instantaneous regrets (the prediction of the next ones), and the
    average is weighted by t squared."""
    for s in range(q.shape[0]):
        u = sign * q[s]
        v = strategy[s] * u
        r_yes[s] = max(r_yes[s] + u - v, 0.0)
        r_no[s] = max(r_no[s] - v, 0.0)
        a = max(r_yes[s] + u - v, 0.0)
        b = max(r_no[s] - v, 0.0)
        strategy[s] = a / (a + b) if a + b > 0 else 0.5
        average[s] += t * t * strategy[s]


def solve(elder: Records, dealer: Records, iterations: int, x0=None, y0=None,
          predictive: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """CFR+ with alternating updates and linearly averaged strategies over the records of elder's
    hands (``elder``) and of the dealer's (``dealer``); returns the average strategies (x, y).
    x0, y0 (optional): the current strategies to start from (a warm start). ``predictive``:
    predictive CFR+ (``predictive_step``), which converges faster from a distant start."""
    n = elder.offsets.shape[0] - 1
    x = np.full(n, 0.5) if x0 is None else x0.astype(np.float64).copy()
    y = np.full(n, 0.5) if y0 is None else y0.astype(np.float64).copy()
    # Regrets that reproduce the starting strategy under regret matching.
    rx_yes, rx_no = x.copy(), 1 - x
    ry_yes, ry_no = y.copy(), 1 - y
    x_avg = np.zeros(n)
    y_avg = np.zeros(n)
    q = np.zeros(n)
    r = np.zeros(n)
    step = predictive_step if predictive else regret_step
    for t in range(1, iterations + 1):
        elder.elder_q(y, q)
        step(rx_yes, rx_no, q, 1.0, x, float(t), x_avg)
        dealer.dealer_r(x, r)
        step(ry_yes, ry_no, r, -1.0, y, float(t), y_avg)
    n_t = np.arange(1, iterations + 1, dtype=float)
    scale = float((n_t * n_t).sum() if predictive else n_t.sum())
    return x_avg / scale, y_avg / scale


def exploitability_in_sample(elder: Records, dealer: Records, x: np.ndarray, y: np.ndarray,
                             w_elder: np.ndarray, w_dealer: np.ndarray) -> tuple[float, float]:
    """What each side gains by its best response on these very records (points per hand): the
    solver's convergence, not a measure of the strategy (for that, ``measure`` on held-out
    records)."""
    q = np.zeros_like(x)
    r = np.zeros_like(y)
    elder.elder_q(y, q)
    dealer.dealer_r(x, r)
    return (float((w_elder * (np.maximum(q, 0) - x * q)).sum()),
            float((w_dealer * (np.maximum(-r, 0) + y * r)).sum()))


def side_gains(means: np.ndarray, strategy: np.ndarray, sign: float, weights: np.ndarray) -> dict:
    """A side's best-response gain from its per-set ``side_means`` rows (sign: +1 elder, -1 the
    dealer, whose 'yes' is worth -r): the plug-in estimate (best response and its gain on the same
    records; biased upwards by the noise), the cross-fitted one (best response chosen on one half
    of each set's records, its gain measured on the other, both ways; biased downwards, since
    the true best response does at least as well), each with its standard error, and per set the
    estimate q, its standard error and n."""
    n = means[:, 2] + means[:, 4]
    q = sign * means[:, 0]
    var = np.maximum(means[:, 1] - means[:, 0] ** 2, 0) / np.maximum(n - 1, 1)
    se = np.sqrt(var)
    with np.errstate(invalid="ignore", divide="ignore"):
        qa = np.where(means[:, 2] > 0, sign * means[:, 3] / means[:, 2], 0.0)
        qb = np.where(means[:, 4] > 0, sign * means[:, 5] / means[:, 4], 0.0)
        var_a = var * n / np.maximum(means[:, 2], 1)
        var_b = var * n / np.maximum(means[:, 4], 1)
    best = (q > 0).astype(float)
    plug = np.maximum(q, 0) - strategy * q
    plug_var = (best - strategy) ** 2 * var
    da, db = (qa > 0).astype(float), (qb > 0).astype(float)
    cross = 0.5 * ((da - strategy) * qb + (db - strategy) * qa)
    cross_var = 0.25 * ((da - strategy) ** 2 * var_b + (db - strategy) ** 2 * var_a)
    return {"plugin": float((weights * plug).sum()), "plugin_se": float(np.sqrt((weights ** 2 * plug_var).sum())),
            "crossfit": float((weights * cross).sum()),
            "crossfit_se": float(np.sqrt((weights ** 2 * cross_var).sum())), "q": q, "se": se, "n": n}


def open_decisions(elder: Records, dealer: Records, x: np.ndarray, y: np.ndarray, w: np.ndarray,
                   valid: np.ndarray, z: float) -> tuple[dict, dict, float]:
    """A race's view of a solution on its fitted records: each side's ``side_gains``, the sets whose
    decision is still open (the value of proposing / refusing within ``z`` standard errors of zero,
    or a mixed strategy), and the undecided stake (weight x z x standard error over the open sets)."""
    gains = {"elder": side_gains(elder.side_means(ELDER, y), x, 1.0, w),
             "dealer": side_gains(dealer.side_means(DEALER, x), y, -1.0, w)}
    opened, stake = {}, 0.0
    for side, strat in (("elder", x), ("dealer", y)):
        g = gains[side]
        opened[side] = valid & ((np.abs(g["q"]) < z * g["se"]) | ((strat > 0.01) & (strat < 0.99)))
        stake += float((w * z * g["se"])[opened[side]].sum())
    return gains, opened, stake


def benjamini_hochberg(p: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Which hypotheses the Benjamini–Hochberg procedure rejects at false-discovery rate alpha
    (NaN p-values are never rejected)."""
    ok = ~np.isnan(p)
    out = np.zeros(p.shape, dtype=bool)
    ps = p[ok]
    m = len(ps)
    if m == 0:
        return out
    order = np.argsort(ps, kind="stable")
    below = ps[order] <= alpha * np.arange(1, m + 1) / m
    if below.any():
        k = np.flatnonzero(below).max()
        chosen = np.zeros(m, dtype=bool)
        chosen[order[:k + 1]] = True
        out[np.flatnonzero(ok)] = chosen
    return out

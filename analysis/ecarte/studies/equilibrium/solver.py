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
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(cache=True, parallel=True)
def side_means(offsets, other, base, factor, strategy):
    """Per fixed information set s: the mean and the sum of squares' mean of
    base + strategy[other] * factor over its records, and the same two over each half
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
            v = base[k] + strategy[o >> 1] * factor[k]
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
def elder_values(offsets, other, play, gain, refusal, x, y):
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
            v = play[k] + x[s] * (gain[k] + y[other[k] >> 1] * refusal[k])
            t += v
            tt += v * v
        out[s, 0] = t / (b - a)
        out[s, 1] = tt / (b - a)
    return out


@njit(cache=True, parallel=True)
def side_q(offsets, other, base, factor, strategy, q):
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
            t += base[k] + strategy[other[k] >> 1] * factor[k]
        q[s] = t / (b - a)


@njit(cache=True, parallel=True)
def cell_payoffs(cells, values, play, gain, refusal):
    """Per record, elder's payoff by ``values`` (one per outcome cell) of its three branches, as
    play, gain = accepted - play and refusal = refused - accepted (float32, into the arrays)."""
    for k in prange(cells.shape[0]):
        p = values[cells[k, 0]]
        a = values[cells[k, 1]]
        play[k] = p
        gain[k] = a - p
        refusal[k] = values[cells[k, 2]] - a


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
    """One side's records, sorted by the fixed information set (see the module's docstring).
    ``nets``: elder's payoff per record and branch (his net points, int8; or any float payoff,
    such as the chance of winning the game, kept as float32). With ``keep_cells`` the outcome
    cells (uint8) are kept too, for ``valued``."""

    def __init__(self, fixed: np.ndarray, other: np.ndarray, nets: np.ndarray, n_sets: int,
                 cells: np.ndarray | None = None):
        order = np.argsort(fixed, kind="stable")
        self.fixed = fixed[order]
        self.other = other[order]
        self.offsets = np.zeros(n_sets + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.fixed, minlength=n_sets), out=self.offsets[1:])
        self.cells = None if cells is None else cells[order]
        self._set_payoffs(nets[order])

    def _set_payoffs(self, nets: np.ndarray) -> None:
        # Elder's nets are -4..4: int8 keeps 10^8 records small; other payoffs are float32.
        nets = nets.astype(np.int8 if np.issubdtype(nets.dtype, np.integer) else np.float32)
        self._set_branches(nets[:, 0], nets[:, 1] - nets[:, 0], nets[:, 2] - nets[:, 1])

    def _set_branches(self, play: np.ndarray, gain: np.ndarray, refusal: np.ndarray) -> None:
        self.play, self.gain, self.refusal = play, gain, refusal
        self.zeros = np.zeros_like(gain)
        self.ones = np.ones_like(gain)

    def valued(self, cell_values: np.ndarray) -> Records:
        """The same records with the payoff of each outcome cell given by ``cell_values`` (float)."""
        out = object.__new__(Records)
        out.fixed, out.other, out.offsets, out.cells = self.fixed, self.other, self.offsets, self.cells
        branches = tuple(np.empty(len(self.other), dtype=np.float32) for _ in range(3))
        cell_payoffs(self.cells, cell_values.astype(np.float32), *branches)
        out._set_branches(*branches)
        return out

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    def elder_q(self, y: np.ndarray, q: np.ndarray) -> None:
        side_q(self.offsets, self.other, self.gain, self.refusal, y, q)

    def dealer_r(self, x: np.ndarray, r: np.ndarray) -> None:
        side_q(self.offsets, self.other, self.zeros, self.refusal, x, r)


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
    gains = {"elder": side_gains(side_means(elder.offsets, elder.other, elder.gain, elder.refusal, y), x, 1.0, w),
             "dealer": side_gains(side_means(dealer.offsets, dealer.other, dealer.zeros, dealer.refusal, x), y,
                                  -1.0, w)}
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

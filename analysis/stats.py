"""Intervals, paired (common-random-number) comparisons, exact checks and sequential stopping.

Kernels hand over integer tallies (counts, sums, sums of squares); this module is where they
become floats. Every estimate is an :class:`Estimate` with a confidence interval (95% unless
asked otherwise). Integer inputs are converted to Python ints first, so sums of squares of
``int64`` tallies never overflow.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

NAN = float("nan")

DEFAULT_ALPHA = 1e-4
"""Default significance level of :func:`exact_check` (two-sided).

A test suite makes many simulated-against-exact comparisons; with ~100 checks a per-check level
of 1e-4 keeps the chance of any false alarm near 1% (and, with fixed seeds, a check that passes
once passes for ever), while still failing a frequency that is off by about 4 standard errors,
which a real bug at the deal counts tests use (10^4-10^6) produces easily.
"""


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its confidence interval [lo, hi] from n observations."""

    value: float
    lo: float
    hi: float
    n: int
    confidence: float = 0.95

    @property
    def ci(self) -> tuple[float, float]:
        """The interval (lo, hi) at ``confidence``."""
        return (self.lo, self.hi)

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval (lo, hi); an error if the estimate was made at another level."""
        if self.confidence != 0.95:
            raise ValueError(f"this interval is at confidence {self.confidence}, not 0.95: use .ci")
        return (self.lo, self.hi)

    @property
    def halfwidth(self) -> float:
        """Half the interval's width (nan when there is no interval)."""
        return (self.hi - self.lo) / 2

    def contains(self, x: float) -> bool:
        """Whether x lies in the closed interval (False when there is no interval)."""
        return bool(self.lo <= x <= self.hi)

    def to_dict(self) -> dict:
        """JSON-safe dict ``{"value", "ci95": [lo, hi], "n"}``; nan and inf become None.

        At a level other than 0.95 the interval key is ``"ci"`` and ``"confidence"`` is added.
        """
        interval = [_json_float(self.lo), _json_float(self.hi)]
        d: dict = {"value": _json_float(self.value)}
        if self.confidence == 0.95:
            d["ci95"] = interval
        else:
            d["ci"] = interval
            d["confidence"] = float(self.confidence)
        d["n"] = int(self.n)
        return d

    def __str__(self) -> str:
        return f"{self.value:.6g} [{self.lo:.6g}, {self.hi:.6g}] (n={self.n})"


def _json_float(x: float) -> float | None:
    """A float for JSON: nan and infinities become None."""
    x = float(x)
    return x if math.isfinite(x) else None


def _int(x, name: str) -> int:
    """An exact Python int from an int or numpy integer (a float is an error)."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{name} must be an integer tally, got {x!r}") from None


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def proportion(k: int, n: int, confidence: float = 0.95) -> Estimate:
    """The share k/n with its Wilson score interval (scipy); n == 0 gives nan."""
    k, n = _int(k, "k"), _int(n, "n")
    _check_confidence(confidence)
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return Estimate(NAN, NAN, NAN, 0, confidence)
    from scipy import stats

    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Estimate(k / n, float(ci.low), float(ci.high), n, confidence)


def mean_from_sums(total: int, total_sq: int, n: int, confidence: float = 0.95) -> Estimate:
    """The mean of n integer values from their sum and sum of squares, with a t interval.

    The variance numerator ``n*total_sq - total**2`` is computed in exact integer arithmetic (no
    cancellation, no overflow); the interval is mean ± t(n-1) · s/√n with s the sample standard
    deviation. n == 0 gives nan; n == 1 gives the value with a nan interval.
    """
    total, total_sq, n = _int(total, "total"), _int(total_sq, "total_sq"), _int(n, "n")
    _check_confidence(confidence)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if n == 0:
        return Estimate(NAN, NAN, NAN, 0, confidence)
    mean = total / n
    if n == 1:
        return Estimate(mean, NAN, NAN, 1, confidence)
    numerator = n * total_sq - total * total
    if numerator < 0:
        raise ValueError(f"inconsistent sums: n*total_sq < total**2 (n={n})")
    se = math.sqrt(numerator / (n * n * (n - 1)))  # sqrt(s^2 / n), s^2 = numerator / (n (n-1))
    from scipy import stats

    half = float(stats.t.ppf((1 + confidence) / 2, n - 1)) * se
    return Estimate(mean, mean - half, mean + half, n, confidence)


def paired_difference(
    sum_diff: int, sum_diff_sq: int, n: int, confidence: float = 0.95
) -> Estimate:
    """Mean difference of two options played on the same n deals, with its interval.

    For common random numbers: each deal is played once under option A and once under option B
    from the same random stream, and the kernel tallies the per-deal difference d = a - b as
    ``sum_diff = Σd`` and ``sum_diff_sq = Σd²``. The interval is the one of
    :func:`mean_from_sums` on the differences, which accounts for the correlation between the two
    options (usually far narrower than comparing two independent means). Positive means A is
    better.
    """
    return mean_from_sums(sum_diff, sum_diff_sq, n, confidence)


def independent_difference(
    total_a: int, total_sq_a: int, n_a: int, total_b: int, total_sq_b: int, n_b: int,
    confidence: float = 0.95,
) -> Estimate:
    """Mean of sample A minus mean of sample B (independent samples, from integer sums), with a
    Welch interval (t quantile at the Welch–Satterthwaite degrees of freedom)."""
    a = mean_from_sums(total_a, total_sq_a, n_a, confidence)
    b = mean_from_sums(total_b, total_sq_b, n_b, confidence)
    if n_a < 2 or n_b < 2:
        return Estimate(a.value - b.value, NAN, NAN, n_a + n_b, confidence)
    va = (_int(n_a, "n") * _int(total_sq_a, "total_sq") - _int(total_a, "total") ** 2) / (n_a * n_a * (n_a - 1))
    vb = (_int(n_b, "n") * _int(total_sq_b, "total_sq") - _int(total_b, "total") ** 2) / (n_b * n_b * (n_b - 1))
    se = math.sqrt(va + vb)
    diff = a.value - b.value
    if se == 0:
        return Estimate(diff, diff, diff, n_a + n_b, confidence)
    df = (va + vb) ** 2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1)) if va or vb else n_a + n_b - 2
    from scipy import stats

    half = float(stats.t.ppf((1 + confidence) / 2, df)) * se
    return Estimate(diff, diff - half, diff + half, n_a + n_b, confidence)


class ExactCheck(NamedTuple):
    """Result of :func:`exact_check`: two-sided binomial p-value and whether it passes."""

    pvalue: float
    consistent: bool


def exact_check(k: int, n: int, p_exact: float, alpha: float = DEFAULT_ALPHA) -> ExactCheck:
    """Is a simulated count k of n consistent with an exact probability? (binomial test).

    ``p_exact`` may be a float or a ``fractions.Fraction``; ``consistent`` is pvalue > alpha.
    See DEFAULT_ALPHA for the choice of level.
    """
    k, n = _int(k, "k"), _int(n, "n")
    p = float(p_exact)
    if not 0 <= p <= 1:
        raise ValueError(f"p_exact must be a probability, got {p_exact!r}")
    if n == 0:
        return ExactCheck(1.0, True)
    from scipy import stats

    pvalue = float(stats.binomtest(k, n, p).pvalue)
    return ExactCheck(pvalue, pvalue > alpha)


def z_score(k: int, n: int, p: float) -> float:
    """(k - np) / sqrt(np(1-p)): how many standard errors k is from its expectation."""
    k, n, p = _int(k, "k"), _int(n, "n"), float(p)
    if n == 0:
        return NAN
    diff = k - n * p
    sd = math.sqrt(n * p * (1 - p))
    if sd == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / sd


class ChiSquareCheck(NamedTuple):
    """Result of :func:`chi_square_check`."""

    statistic: float
    pvalue: float


def chi_square_check(counts: Sequence[int], probabilities: Sequence[float]) -> ChiSquareCheck:
    """Pearson's chi-square goodness of fit of observed counts to exact cell probabilities.

    Cells of probability 0 are dropped when empty; a count in such a cell gives statistic inf
    and p-value 0. The test wants expected counts of about 5 or more per cell: merge rare cells
    (e.g. "4 or more trumps") before calling.
    """
    obs = np.asarray([_int(c, "count") for c in counts], dtype=np.float64)
    prob = np.asarray([float(p) for p in probabilities], dtype=np.float64)
    if obs.shape != prob.shape or obs.ndim != 1:
        raise ValueError(f"need as many counts as probabilities, got {obs.shape} and {prob.shape}")
    if (prob < 0).any() or abs(prob.sum() - 1) > 1e-9:
        raise ValueError(f"probabilities must be >= 0 and sum to 1, got sum {prob.sum()!r}")
    if (obs < 0).any():
        raise ValueError("counts must be >= 0")
    impossible = prob == 0
    if (obs[impossible] > 0).any():
        return ChiSquareCheck(math.inf, 0.0)
    obs, prob = obs[~impossible], prob[~impossible]
    if len(obs) < 2 or obs.sum() == 0:
        return ChiSquareCheck(0.0, 1.0)
    expected = prob / prob.sum() * obs.sum()
    from scipy import stats

    result = stats.chisquare(obs, expected)
    return ChiSquareCheck(float(result.statistic), float(result.pvalue))


def _mixture_ratio(alpha: float) -> float:
    """x = V/ρ at which the normal-mixture boundary at intrinsic time V is tightest.

    Minimising (V+ρ)·log((V+ρ)/(ρα²)) over ρ gives log((1+x)/α²) = x.
    """
    c = -2 * math.log(alpha)
    from scipy import optimize

    return optimize.brentq(lambda x: math.log1p(x) + c - x, c, 10 * c + 10)


def confidence_sequence_halfwidth(sd, n, alpha: float = 0.05, tuned_n: int = 10_000):
    """Anytime-valid halfwidth for a running mean: safe to look after every deal and stop any time.

    A fixed-n interval (mean ± 1.96 s/√n) is only valid at one pre-chosen n; checking it again and
    again while a study runs ("race until the options separate") inflates the error rate without
    bound. This is the two-sided normal-mixture boundary of Robbins (1970), as in Howard et al.
    (2021, Ann. Statist., "Time-uniform, nonparametric, nonasymptotic confidence sequences"):
    with S_n the sum of n centred values of standard deviation ``sd`` and V = n·sd²,

        P(for some n: |S_n| >= sqrt((V + ρ) · log((V + ρ) / (ρ α²)))) <= α,

    so ``mean ± halfwidth`` covers the true mean at every n simultaneously with probability at
    least 1 - alpha. ρ = tuned_n·sd²/x is chosen so the boundary is tightest at n = ``tuned_n``
    (fix it before looking; for n from tuned_n/10 to 100·tuned_n the width stays within ~30% of
    the best choice for that n, and about 1.5-1.8 times the fixed-n 95% halfwidth).
    Exact for Gaussian (and sub-Gaussian with proxy ``sd``) values; with the sample standard
    deviation plugged in it is asymptotically valid (Waudby-Smith et al. 2021, "Time-uniform
    central limit theory"), which is the intended use for deal scores. Racing k options at once:
    pass alpha/k. ``n`` may be a numpy array; n == 0 gives inf.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if tuned_n <= 0:
        raise ValueError(f"tuned_n must be > 0, got {tuned_n}")
    sd = np.asarray(sd, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    rho_per_var = tuned_n / _mixture_ratio(alpha)  # ρ / sd²
    m = n + rho_per_var
    with np.errstate(divide="ignore", invalid="ignore"):
        half = sd * np.sqrt(m * np.log(m / (rho_per_var * alpha * alpha))) / n
    half = np.where(n > 0, half, np.inf)
    return float(half) if half.ndim == 0 else half


def policy_words(p) -> str:
    """A policy's description in a few words: its kind and the parameters that name a player."""
    if not isinstance(p, dict):
        return str(p)
    extra = [f"{k}={p[k]}" for k in ("exchange", "partie", "samples") if k in p and p[k] not in ("keep", "deal")]
    return p.get("kind", "?") + (f" ({', '.join(extra)})" if extra else "")


def result_text(res: dict) -> str:
    """A simulation result (``salon simulate``) as text: every statistic with its 95% interval."""
    lines = [f"{res['game']} · rules {res['rules']} · {res['deals']:,} {res.get('mode', 'hands')} · seed {res['seed']}"
             f" · salon {res['version']}"]
    if res.get("policies"):
        lines.append("  players: " + "; ".join(f"{role} {policy_words(p)}" for role, p in res["policies"].items()))
    width = max(len(k) for k in res["stats"])
    for name, s in res["stats"].items():
        lo, hi = s["ci95"] if s["ci95"] else (float("nan"), float("nan"))
        value = s["value"] if s["value"] is not None else float("nan")
        lo = float("nan") if lo is None else lo
        hi = float("nan") if hi is None else hi
        lines.append(f"  {name:<{width}}  {value:9.5f}  [{lo:.5f}, {hi:.5f}]  n={s['n']:,}")
    for seat, bins in res.get("score_bins", {}).items():
        total = sum(bins.values())
        lines.append(f"  {seat}'s score per deal: " + ", ".join(f"{k} {v / total:.1%}" for k, v in bins.items()))
    if "records" in res:
        lines.append(f"  wrote {res['records']['count']} records to {res['records']['path']}")
    return "\n".join(lines)


def compare_with_exact(stats: dict, exact: dict[str, tuple[int, int]]) -> list[dict]:
    """Rows: statistic, exact value (numerator, denominator), simulated value with interval, and
    whether the interval holds it."""
    rows = []
    for name, (num, den) in exact.items():
        s = stats[name]
        lo, hi = s["ci95"]
        exact_value = Fraction(num, den)
        rows.append({"name": name, "exact": f"{num}/{den}", "exact_value": float(exact_value),
                     "value": s["value"], "lo": lo, "hi": hi, "n": s["n"],
                     "inside": bool(lo <= float(exact_value) <= hi)})
    return rows

"""Intervals and checks (analysis/stats.py) against known numbers and numpy/scipy."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from analysis.stats import (
    DEFAULT_ALPHA,
    Estimate,
    chi_square_check,
    confidence_sequence_halfwidth,
    exact_check,
    mean_from_sums,
    paired_difference,
    proportion,
    z_score,
)


def wilson(k, n, z=1.959963984540054):
    """Textbook Wilson score interval, written out, to check the scipy call against."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


# --- proportion ---------------------------------------------------------------------------------


def test_wilson_known_values():
    e = proportion(0, 10)
    assert e.value == 0 and e.n == 10
    assert e.lo == 0
    assert e.hi == pytest.approx(0.2775327998628893, abs=1e-12)
    e = proportion(5, 10)
    assert e.value == 0.5
    assert e.ci95 == pytest.approx((0.2365930905125640, 0.7634069094874361), abs=1e-12)
    assert e.halfwidth == pytest.approx(0.2634069094874361, abs=1e-12)
    e = proportion(10, 10)
    assert e.ci95 == pytest.approx((1 - 0.2775327998628893, 1.0), abs=1e-12)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_formula(kn):
    k, n = kn
    e = proportion(k, n)
    assert e.ci95 == pytest.approx(wilson(k, n), abs=1e-9)
    assert e.lo <= e.value <= e.hi


def test_proportion_other_level_and_numpy_ints():
    e99 = proportion(np.int64(30), np.int64(100), confidence=0.99)
    assert e99.ci == pytest.approx(wilson(30, 100, z=2.5758293035489004), abs=1e-9)
    assert e99.halfwidth > proportion(30, 100).halfwidth
    with pytest.raises(ValueError):
        _ = e99.ci95
    assert e99.to_dict() == {"value": 0.3, "ci": list(e99.ci), "confidence": 0.99, "n": 100}


def test_proportion_nan_and_bad_input():
    e = proportion(0, 0)
    assert math.isnan(e.value) and math.isnan(e.lo) and math.isnan(e.hi) and e.n == 0
    assert math.isnan(e.halfwidth) and not e.contains(0.5)
    assert e.to_dict() == {"value": None, "ci95": [None, None], "n": 0}
    for k, n in ((3, 2), (-1, 5)):
        with pytest.raises(ValueError):
            proportion(k, n)
    with pytest.raises(TypeError):
        proportion(0.5, 10)


# --- means --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_mean_matches_numpy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 500))
    x = rng.integers(-200, 200, size=n)
    e = mean_from_sums(int(x.sum()), int((x * x).sum()), n)
    sem = x.std(ddof=1) / math.sqrt(n)
    half = sps.t.ppf(0.975, n - 1) * sem
    assert e.value == pytest.approx(x.mean(), rel=1e-12, abs=1e-12)
    assert e.ci95 == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-10, abs=1e-10)
    lo, hi = sps.t.interval(0.95, n - 1, loc=x.mean(), scale=sem)
    assert (e.lo, e.hi) == pytest.approx((lo, hi), rel=1e-10, abs=1e-10)


def test_mean_exact_integer_variance_without_cancellation():
    # values 10^12 and 10^12 + 1: a float formula total_sq/n - mean^2 loses everything here
    n, big = 1000, 10**12
    x = [big] * (n // 2) + [big + 1] * (n // 2)
    total, total_sq = sum(x), sum(v * v for v in x)
    e = mean_from_sums(np.int64(total), total_sq, n)
    sd = math.sqrt(0.25 * n / (n - 1))
    half = sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)  # 0.031
    assert e.value == big + 0.5
    # lo and hi are floats near 10^12 (spacing 1.2e-4): right to that precision, not 0 or nan
    assert e.ci95 == pytest.approx((big + 0.5 - half, big + 0.5 + half), rel=0, abs=2e-4)


def test_mean_small_n_and_constant_data():
    assert math.isnan(mean_from_sums(0, 0, 0).value)
    one = mean_from_sums(7, 49, 1)
    assert one.value == 7 and math.isnan(one.lo) and math.isnan(one.hi)
    assert one.to_dict() == {"value": 7.0, "ci95": [None, None], "n": 1}
    const = mean_from_sums(30, 300, 3)
    assert const.ci95 == (10.0, 10.0) and const.halfwidth == 0
    with pytest.raises(ValueError, match="inconsistent"):
        mean_from_sums(10, 1, 3)


def test_paired_difference_common_random_numbers():
    rng = np.random.default_rng(7)
    n = 2000
    deal = rng.integers(-50, 50, size=n)  # the shared deal's luck, large
    a = deal + rng.integers(0, 3, size=n)  # option A is better by 0.5 on average
    b = deal + rng.integers(-1, 2, size=n)
    d = a - b
    paired = paired_difference(int(d.sum()), int((d * d).sum()), n)
    assert paired.value == pytest.approx(d.mean())
    assert paired.lo > 0  # the paired interval separates the options...
    ea = mean_from_sums(int(a.sum()), int((a * a).sum()), n)
    eb = mean_from_sums(int(b.sum()), int((b * b).sum()), n)
    assert ea.lo < eb.hi  # ...which two independent intervals cannot
    assert paired.halfwidth < ea.halfwidth / 10
    assert paired == mean_from_sums(int(d.sum()), int((d * d).sum()), n)


def test_estimate_is_frozen_and_json_safe():
    e = mean_from_sums(12, 50, 4)
    with pytest.raises(AttributeError):
        e.value = 1.0  # type: ignore[misc]
    d = json.loads(json.dumps(e.to_dict(), allow_nan=False))
    assert d["value"] == 3.0 and d["n"] == 4 and len(d["ci95"]) == 2
    assert isinstance(proportion(np.int64(3), np.int64(9)).to_dict()["n"], int)
    inf = Estimate(1.0, -math.inf, math.inf, 5)
    assert json.dumps(inf.to_dict(), allow_nan=False)
    assert e.contains(3.0) and not e.contains(100.0)
    assert "n=4" in str(e)


# --- exact checks -------------------------------------------------------------------------------


def test_exact_check():
    assert DEFAULT_ALPHA == 1e-4
    # carte blanche, 323/578956, at a million deals: ~558 expected
    p = Fraction(323, 578956)
    assert exact_check(560, 10**6, p).consistent
    pvalue, ok = exact_check(700, 10**6, p)
    assert not ok and pvalue < 1e-6
    assert exact_check(250, 1000, 0.25) == (pytest.approx(1.0), True)
    assert exact_check(5, 10, 0.5, alpha=0.5).pvalue == pytest.approx(sps.binomtest(5, 10).pvalue)
    assert exact_check(0, 0, 0.3).consistent
    assert not exact_check(1, 100, 0).consistent
    with pytest.raises(ValueError):
        exact_check(1, 10, 1.5)


def test_z_score():
    assert z_score(130, 1000, 0.1) == pytest.approx(30 / math.sqrt(90))
    assert z_score(100, 1000, 0.1) == 0
    assert z_score(0, 10, 0.0) == 0 and z_score(1, 10, 0.0) == math.inf
    assert math.isnan(z_score(0, 0, 0.5))


def test_chi_square_check():
    probs = [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]  # heads in 3 tosses
    good = chi_square_check([127, 372, 377, 124], probs)
    ref = sps.chisquare([127, 372, 377, 124], [125, 375, 375, 125])
    assert good.statistic == pytest.approx(ref.statistic)
    assert good.pvalue == pytest.approx(ref.pvalue)
    assert good.pvalue > 0.5
    _, pvalue = chi_square_check([250, 250, 250, 250], probs)
    assert pvalue < 1e-10
    assert chi_square_check([10, 0, 30], [0.25, 0, 0.75]).pvalue > 0.5
    assert chi_square_check([10, 1, 30], [0.25, 0, 0.75]) == (math.inf, 0.0)
    with pytest.raises(ValueError):
        chi_square_check([1, 2], [0.5, 0.4])
    with pytest.raises(ValueError):
        chi_square_check([1, 2, 3], [0.5, 0.5])


# --- sequential ---------------------------------------------------------------------------------


def test_confidence_sequence_is_wider_than_fixed_n_and_tightest_near_tuned_n():
    n = np.array([10, 100, 1000, 10_000, 100_000])
    half = confidence_sequence_halfwidth(2.0, n, alpha=0.05, tuned_n=1000)
    fixed = 1.959963984540054 * 2.0 / np.sqrt(n)
    assert (half > fixed).all()
    assert (np.diff(half) < 0).all()
    at_1000 = [confidence_sequence_halfwidth(1.0, 1000, tuned_n=t) for t in (100, 1000, 10_000)]
    assert at_1000[1] < min(at_1000[0], at_1000[2])
    assert confidence_sequence_halfwidth(0.0, 50) == 0
    assert confidence_sequence_halfwidth(1.0, 0) == math.inf
    assert isinstance(confidence_sequence_halfwidth(1.0, 10), float)


def test_confidence_sequence_anytime_coverage():
    """Looking after every step, the running mean leaves the boundary in at most ~alpha of paths."""
    rng = np.random.default_rng(2024)
    paths, steps, alpha = 4000, 500, 0.1
    x = rng.standard_normal((paths, steps))
    n = np.arange(1, steps + 1)
    means = x.cumsum(axis=1) / n
    half = confidence_sequence_halfwidth(1.0, n, alpha=alpha, tuned_n=100)
    crossed = (np.abs(means) > half).any(axis=1).mean()
    assert crossed <= alpha
    # a fixed-n 90% interval checked at every step fails far more often
    naive = (np.abs(means) > 1.6448536 / np.sqrt(n)).any(axis=1).mean()
    assert naive > 3 * alpha


def test_independent_difference_matches_welch():
    """The difference of two independent means from integer sums equals scipy's Welch interval."""
    from scipy import stats as sst

    from analysis.stats import independent_difference

    rng = np.random.default_rng(5)
    a = rng.integers(0, 40, 300)
    b = rng.integers(5, 30, 200)
    est = independent_difference(int(a.sum()), int((a * a).sum()), len(a), int(b.sum()), int((b * b).sum()), len(b))
    res = sst.ttest_ind(a, b, equal_var=False)
    lo, hi = res.confidence_interval(0.95)
    assert est.value == pytest.approx(a.mean() - b.mean())
    assert est.lo == pytest.approx(lo, rel=1e-9) and est.hi == pytest.approx(hi, rel=1e-9)

"""The measures of a strategy pair of Écarté's first proposal on stored branch records: its value,
each side's exploitability with intervals, the decisions called clear (false-discovery rate
controlled), and the information sets they are measured over."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from analysis.ecarte.engine import buckets as TB
from analysis.ecarte.studies.equilibrium import solver as S

TARGET = 0.001
"""The exploitability budget of each side (points per hand, 95% upper bound)."""
RACE_Z = 2.5
"""A decision is settled for the race when its value is this many standard errors from zero."""
FDR = 0.05
"""False-discovery rate of the decisions called clear (Benjamini–Hochberg over every set)."""


@dataclass(frozen=True)
class InfoSets:
    """Every information set (3 * class + bucket): the turn-ups it allows (a lane mask), its
    probability as a dealt hand and turn-up, its class and bucket."""

    turnups: np.ndarray
    weight: np.ndarray
    cls: np.ndarray
    bucket: np.ndarray

    @property
    def valid(self) -> np.ndarray:
        return self.turnups != 0


@functools.lru_cache(maxsize=1)
def info_sets() -> InfoSets:
    from analysis.ecarte.studies.strategy.tables import hands

    h = hands()
    n = len(h.masks) * TB.N_BUCKETS
    turnups = np.array([TB.bucket_turnups(int(m), b) for m in h.masks.tolist() for b in range(TB.N_BUCKETS)],
                       dtype=np.int64)
    counts = np.array([bin(int(t)).count("1") for t in turnups])
    w = np.repeat(h.multiplicity, TB.N_BUCKETS) * counts
    return InfoSets(turnups, w / w.sum(), np.arange(n) // TB.N_BUCKETS, np.arange(n) % TB.N_BUCKETS)


def net_values() -> np.ndarray:
    """Elder's net points per outcome cell: the records' payoffs in the points game."""
    from analysis.ecarte.studies.strategy.tables import cell_nets

    return cell_nets().astype(np.float32)


def phase_records(phase: tuple) -> S.Records:
    """A simulated phase's (fixed, other, cells), in task order, as records valued in points."""
    return S.Records.from_sorted(*phase, len(info_sets().weight), net_values())


def measure(elder: S.Records, dealer: S.Records, x: np.ndarray, y: np.ndarray) -> dict:
    """The strategy pair's value and each side's exploitability on (held-out) records, with 95%
    intervals, and per information set the held-out values behind the clear decisions."""
    from scipy import stats

    w = info_sets().weight
    eg = S.side_gains(elder.side_means(S.ELDER, y), x, 1.0, w)
    dg = S.side_gains(dealer.side_means(S.DEALER, x), y, -1.0, w)
    p_propose = np.zeros_like(y)
    dealer.side_q(S.PROPOSED, x, p_propose)
    out = {"value": measure_value(elder, x, y)}
    per_set = {}
    for side, g, strat in (("elder", eg, x), ("dealer", dg, y)):
        # Exploitability is at least 0; the cross-fitted gain (biased low) bounds it from below, the
        # plug-in gain (biased high: E max(0, q_hat) >= max(0, q)) from above.
        lo = max(0.0, g["crossfit"] - 1.96 * g["crossfit_se"])
        hi = g["plugin"] + 1.96 * g["plugin_se"]
        out[side] = {"value": g["plugin"], "ci95": [lo, hi], "crossfit": g["crossfit"], "plugin": g["plugin"]}
        with np.errstate(invalid="ignore", divide="ignore"):
            z = g["q"] / g["se"]
        p = np.where(g["n"] > 1, 2 * stats.norm.sf(np.abs(z)), np.nan)
        p = np.where(np.isnan(z), np.nan, p)
        rejected = S.benjamini_hochberg(p, FDR)
        agrees = np.where(g["q"] > 0, strat >= 0.5, strat < 0.5)
        per_set[side] = {"q": g["q"], "se": g["se"], "n": g["n"], "p": p, "clear": rejected & agrees,
                         "contradicted": rejected & ~agrees}
    out["certified"] = bool(out["elder"]["ci95"][1] < TARGET and out["dealer"]["ci95"][1] < TARGET)
    out["target"] = TARGET
    out["per_set"] = per_set
    out["p_propose_given_dealer_set"] = p_propose
    return out


def measure_value(elder: S.Records, x: np.ndarray, y: np.ndarray) -> dict:
    """The payoff of elder's records under the strategy pair, per dealt hand (information sets by
    weight), with a 95% interval from the per-set variances."""
    w = info_sets().weight
    v = elder.elder_values(x, y)
    n = np.maximum(elder.counts, 1)
    value = float((w * v[:, 0]).sum())
    se = float(np.sqrt((w ** 2 * np.maximum(v[:, 1] - v[:, 0] ** 2, 0) / np.maximum(n - 1, 1)).sum()))
    return {"value": value, "ci95": [value - 1.96 * se, value + 1.96 * se]}


def decision_words(p: np.ndarray, yes: str, no: str) -> np.ndarray:
    return np.where(p >= 0.99, yes, np.where(p <= 0.01, no, "mix"))

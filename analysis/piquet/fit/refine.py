"""The learned exchange's scorer fitted by the value of its choice, with the fit chosen on validation
hands (scripts/fit_exchange.py fit --refine; docs/piquet-engine.md, "Learned exchange").

Least squares fits the scorer to every option's value, the bad options' as much as the good. What
the kernel needs is that its choice be good: the softmax step maximises the mean value of a softmax
choice over every option, at temperatures lowered in turn (as the ordering's fit). It overfits small
samples, so each model keeps the fit (least squares, or the softmax after one, two or three
temperatures) whose kernel choice costs least on validation hands: one fitting hand in four, by a
hash of its index, not used to fit. The held-out fifth (``fit.exchange.is_held_out``) reports.
"""
from __future__ import annotations

import numpy as np

from analysis.piquet.fit.exchange import (
    RIDGE,
    TEMPERATURES,
    choice_costs,
    fit_scorer,
    scorer_design,
    thrown_masks,
)
from analysis.piquet.players.learned import SUIT_KEPT_AT
from analysis.piquet.players.learned_features import ORDER_SIZE, SCALE

MOST = 5_000
"""Hands of each group in the softmax fit by default (the options' design matrices are held in
memory: about 1.4 MB a hand for elder's 1,585 options; ``fit_exchange.py fit --softmax-hands``)."""
ITERATIONS = 100
"""L-BFGS iterations per temperature."""
ANCHOR = 1.0
"""The cross-entropy's weight beside the value in the softmax fit (``objective``), by default: seed-no
elder's fit without it settled where breaking a quatorze of tens always won (14 points lost on each
such hand; docs/piquet-engine.md). ``fit_exchange.py fit --anchor``; 0 is the value alone."""


def is_validation(h: int) -> bool:
    """One hand in four by a 64-bit mix of its index (unrelated to is_held_out's residues and to how
    many cards elder took)."""
    x = (h * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) % 4 == 0


def subset(groups: list[dict], validation: bool) -> list[dict]:
    """The groups restricted to the validation hands (or to the others)."""
    out = []
    for g in groups:
        keep = np.array([is_validation(int(h)) == validation for h in g["idx"]])
        if keep.any():
            out.append({**g, **{k: g[k][keep] for k in ("idx", "phi", "g", "values", "checks", "hands")}})
    return out


DENSE = ORDER_SIZE + SUIT_KEPT_AT
"""The scorer's features held as a dense matrix; the rest (how many suits are kept as each 8-bit
lane) are four lane values per option, since each option has exactly four."""


def design_data(groups: list[dict], most: int = MOST) -> list[tuple]:
    """Per group, over its first ``most`` hands at most: every option's dense scorer features (float32, stacked),
    its four kept lanes (uint8), the options' values, the hands and the options per hand."""
    data = []
    for g in groups:
        n = min(most, len(g["values"]))
        first = scorer_design(g, 0)
        x = np.empty((n, first.shape[0], DENSE), dtype=np.float32)  # filled in place: no second copy
        lanes = np.empty((n, first.shape[0], 4), dtype=np.uint8)
        for h in range(n):
            x[h] = first[:, :DENSE] if h == 0 else scorer_design(g, h)[:, :DENSE]
            hand = int(g["hands"][h])
            kept = hand & ~thrown_masks(hand, g["lo"], g["hi"])
            lanes[h] = np.stack([(kept >> (8 * s)) & 0xFF for s in range(4)], axis=1)
        data.append((x.reshape(-1, DENSE), lanes.reshape(-1, 4), g["values"][:n].astype(np.float32), n, x.shape[1]))
    return data


def objective(v: np.ndarray, data: list[tuple], temperature: float, anchor: float = 0.0) -> tuple[float, np.ndarray]:
    """Minus the mean value of the softmax choice at ``temperature`` (per hand) with the scorer's
    weights v, plus ``anchor`` times the cross-entropy (in points: times the temperature) from the
    options' own softmax at that temperature, plus the L2 penalty; and its gradient.

    The value alone saturates: an option scored far below the choice gets no gradient however good
    it is, and the fit can settle where a whole kind of option is never chosen (``ANCHOR``). The
    cross-entropy's gradient, the choice's probabilities minus the targets', does not vanish there."""
    hands = sum(d[3] for d in data)
    total, grad = 0.0, np.zeros_like(v)
    lane_w = v[DENSE:].astype(np.float32)
    for x, lanes, q, n, options in data:
        s = x @ v[:DENSE].astype(np.float32) + lane_w[lanes].sum(axis=1)
        s = s.reshape(n, options) / temperature
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        norm = p.sum(axis=1, keepdims=True)
        p /= norm
        ev = (p * q).sum(axis=1)
        total += float(ev.sum())
        r = p * (q - ev[:, None]) / temperature
        if anchor:
            qt = q / temperature
            target = np.exp(qt - qt.max(axis=1, keepdims=True))
            target /= target.sum(axis=1, keepdims=True)
            total -= anchor * temperature * float((target * (np.log(norm) - s)).sum())
            r -= anchor * (p - target)
        r = r.reshape(-1)
        grad[:DENSE] += x.T @ r
        grad[DENSE:] += np.bincount(lanes.ravel(), np.repeat(r, 4), minlength=256)
    return -total / hands + 0.5 * RIDGE * v @ v, -grad / hands + RIDGE * v


def softmax_stages(w: np.ndarray, groups: list[dict], most: int = MOST, anchor: float = ANCHOR):
    """From the scorer's weights ``w``, the softmax choice's mean value maximised at each temperature
    in turn (L-BFGS, on each group's first ``most`` hands): yields (temperature, weights) after each."""
    from scipy.optimize import minimize

    data = design_data(groups, most)
    for t in TEMPERATURES:
        w = minimize(objective, w, args=(data, t, anchor), jac=True, method="L-BFGS-B", options={"maxiter": ITERATIONS}).x
        yield t, w


def refined_scorer(order: np.ndarray, train: list[dict], most: int = MOST,
                   anchor: float = ANCHOR) -> tuple[np.ndarray, dict]:
    """The scorer's integer weights for the integer ordering ``order``: least squares on the fitting
    hands that are not validation hands, then the softmax stages (on up to ``most`` of them a group); the fit whose kernel choice costs
    least on the validation hands (check deals) is kept. Returns (weights, each fit's validation
    cost with its 95% half-width, paired against least squares)."""
    fitting, validation = subset(train, False), subset(train, True)

    def as_int(w: np.ndarray) -> np.ndarray:
        return np.round(w * SCALE).astype(np.int64)

    ls = fit_scorer(fitting)
    fits = {"least squares": as_int(ls)}
    for t, w in softmax_stages(ls, fitting, most, anchor):
        fits[f"softmax to T={t:g}"] = as_int(w)
    costs = {name: choice_costs(np.concatenate([order, w]), validation) for name, w in fits.items()}
    base = costs["least squares"]
    report = {name: {"cost": float(c.mean()), "vs_least_squares": float((c - base).mean()),
                     "half_width": float(1.96 * (c - base).std(ddof=1) / np.sqrt(len(c)))}
              for name, c in costs.items()}
    best = min(costs, key=lambda name: costs[name].mean())
    report["chosen"] = best
    report["validation_hands"] = int(len(base))
    report["fitting_hands"] = int(sum(len(g["idx"]) for g in fitting))
    report["softmax_hands"] = int(sum(min(most, len(g["idx"])) for g in fitting))
    report["anchor"] = anchor
    return fits[best], report

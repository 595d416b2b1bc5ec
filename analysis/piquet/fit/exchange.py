"""Fitting the learned exchange (analysis.piquet.players.learned) to the analyser's exchange values
that scripts/fit_exchange.py sampled, and the shipped weights (analysis/piquet/data).

Both parts of a model are linear in their weights. The ordering's score of an exchange is the sum
over its thrown cards of phi(c) . w, plus B[k]: with A the option-by-card incidence (the same for
every hand: options are ordered by size, then lexicographically over the hand's ascending codes),
the scores of all options of a hand are A @ (Phi_h @ w) + B, so its fit never builds the
(options x features) matrices. The scorer adds psi(K, D) . w2 over the kept hand, fitted by least
squares within each hand on every option.
"""
from __future__ import annotations

import itertools
import pathlib
from functools import lru_cache

import numpy as np

from analysis.piquet.players.learned import KEPT_FEATURES, MODEL_SIZE, kept_matrix
from analysis.piquet.players.learned_features import (
    COUNT_FEATURES,
    FEATURES,
    MODELS,
    N_COUNTS,
    N_FEATURES,
    N_G,
    ORDER_SIZE,
    count_matrix,
    feature_matrix,
)

RIDGE = 1e-4
"""An L2 penalty on the weights (points per deal per unit weight squared): keeps rare features'
weights small."""
TEMPERATURES = (4.0, 1.0, 0.3)
"""Softmax temperatures (points), lowered in turn: the last is close to the greedy choice."""


@lru_cache(maxsize=None)
def incidence(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """(A, sizes): A[o, i] = 1 when option o throws the hand's i-th card, for every exchange of
    lo..hi of 12 cards in the analyser's order; sizes[o] = its number of cards."""
    rows = [combo for k in range(lo, hi + 1) for combo in itertools.combinations(range(12), k)]
    a = np.zeros((len(rows), 12))
    for o, combo in enumerate(rows):
        a[o, list(combo)] = 1
    return a, a.sum(axis=1).astype(int)


def is_held_out(h: int) -> bool:
    """One training hand in five (by a fixed scramble of its index) is held out of the fit. The
    shipped weights were fitted with it; its held-out hands are those whose index ends in 0 or 9,
    which over-weights younger's hands after an elder who took fewer than five cards."""
    return (h * 7919) % 10 < 2


def is_held_out_mix(h: int) -> bool:
    """One training hand in five by a 64-bit mix of its index (data sampled with ``split`` "mix64"):
    unrelated to how many cards elder took and to ``fit.refine.is_validation``."""
    x = (h * 0xD6E8FEB86659FD93 + 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 32)) * 0xD6E8FEB86659FD93) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 32)) * 0xD6E8FEB86659FD93) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 32)) % 5 == 0


class Samples:
    """One variant and seat's sampled hands: features, option values (fit) and checks (other deals),
    grouped by how many cards elder took (which fixes younger's legal exchanges)."""

    def __init__(self, path: pathlib.Path, rules):
        z = np.load(path)
        self.deals = int(z["deals"])
        self.held_out = is_held_out_mix if "split" in z.files and str(z["split"]) == "mix64" else is_held_out
        hands = z["hand"]
        took = z["took"]
        self.groups = []
        for k in sorted(set(took.tolist())):
            idx = np.flatnonzero(took == k)
            lo, hi = (1, 5) if "elder" in path.name else rules.younger_bounds(int(k))
            phi = np.stack([feature_matrix(int(hands[h])) for h in idx]).astype(float)
            g = np.stack([count_matrix(int(hands[h])) for h in idx]).astype(float)
            self.groups.append({"idx": idx, "lo": lo, "hi": hi, "phi": phi, "g": g,
                                "values": z[f"values_{k}"].astype(float),
                                "checks": z[f"checks_{k}"].astype(float), "hands": hands[idx]})

    def part(self, held_out: bool) -> list[dict]:
        """The groups restricted to the fitting hands (or the held-out ones)."""
        out = []
        for g in self.groups:
            keep = np.array([self.held_out(int(h)) == held_out for h in g["idx"]])
            if keep.any():
                out.append({**g, **{k: g[k][keep] for k in ("idx", "phi", "g", "values", "checks", "hands")}})
        return out


def biases(w: np.ndarray, g: dict) -> np.ndarray:
    """B[h, k] = b[k] + v[k] . g_h, the bias of taking k cards, for every hand of group g."""
    v = w[N_FEATURES + N_COUNTS:].reshape(N_COUNTS, N_G)
    return w[N_FEATURES:N_FEATURES + N_COUNTS] + g["g"] @ v.T


def scores(w: np.ndarray, g: dict) -> np.ndarray:
    """Every option's score for every hand of group g: (hands, options)."""
    a, sizes = incidence(g["lo"], g["hi"])
    u = g["phi"] @ w[:N_FEATURES]  # (hands, 12)
    return u @ a.T + biases(w, g)[:, sizes]


def objective(w: np.ndarray, groups: list[dict], temperature: float) -> tuple[float, np.ndarray]:
    """Minus the mean value of the softmax choice (per hand), and its gradient."""
    total = 0.0
    grad = np.zeros_like(w)
    n = 0
    for g in groups:
        a, sizes = incidence(g["lo"], g["hi"])
        s = scores(w, g) / temperature
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        q = g["values"]
        ev = (p * q).sum(axis=1)
        total += ev.sum()
        r = p * (q - ev[:, None]) / temperature  # d ev / d score
        grad[:N_FEATURES] += np.einsum("hi,hif->f", r @ a, g["phi"])
        by_size = np.zeros((len(q), N_COUNTS))
        for k in range(g["lo"], g["hi"] + 1):
            by_size[:, k] = r[:, sizes == k].sum(axis=1)
        grad[N_FEATURES:N_FEATURES + N_COUNTS] += by_size.sum(axis=0)
        grad[N_FEATURES + N_COUNTS:] += (by_size.T @ g["g"]).ravel()
        n += len(q)
    return -total / n + 0.5 * RIDGE * w @ w, -grad / n + RIDGE * w


def additive_design(g: dict, h: int) -> np.ndarray:
    """The additive form's features of every option of hand h of group g: (options, ORDER_SIZE)."""
    a, sizes = incidence(g["lo"], g["hi"])
    onehot = np.eye(N_COUNTS)[sizes]
    return np.hstack([a @ g["phi"][h], onehot, (onehot[:, :, None] * g["g"][h][None, None, :]).reshape(len(sizes), -1)])


def within_hands(groups: list[dict], design, ridge: float, most: int) -> np.ndarray:
    """Weights regressing each option's value on ``design(g, h)``, within each hand (both centred per
    hand), over at most ``most`` hands of each group."""
    gram = rhs = 0.0
    for g in groups:
        for h in range(min(most, len(g["values"]))):
            x = design(g, h)
            x -= x.mean(axis=0)
            gram = gram + x.T @ x
            rhs = rhs + x.T @ (g["values"][h] - g["values"][h].mean())
    return np.linalg.solve(gram + ridge * np.eye(len(rhs)), rhs)


def least_squares(groups: list[dict], ridge: float = 1e-3, most: int = 3_000) -> np.ndarray:
    """The ordering's start point: least squares within each hand on the additive features."""
    return within_hands(groups, additive_design, ridge, most)


def fit(groups: list[dict]) -> np.ndarray:
    """Least squares, then the softmax choice's value maximised at each temperature in turn."""
    from scipy.optimize import minimize

    w = least_squares(groups)
    for t in TEMPERATURES:
        w = minimize(objective, w, args=(groups, t), jac=True, method="L-BFGS-B",
                     options={"maxiter": 150}).x
    return w


def greedy_costs(w_int: np.ndarray, groups: list[dict]) -> np.ndarray:
    """Per hand: the value, on the check deals, of the best option by the fitted values minus that
    of the model's greedy choice (integer weights, the kernel's arithmetic; ties as the kernel)."""
    out = []
    for g in groups:
        s = scores(w_int.astype(float), g)
        choice = s.argmax(axis=1)  # ties: the first option, as the kernel keeps the smallest k
        best = g["values"].argmax(axis=1)
        rows = np.arange(len(s))
        out.append(g["checks"][rows, best] - g["checks"][rows, choice])
    return np.concatenate(out)


def thrown_masks(hand: int, lo: int, hi: int) -> np.ndarray:
    """Every option's thrown cards as a mask of codes, in the incidence's order."""
    a, _ = incidence(lo, hi)
    bits = np.array([1 << c for c in range(32) if hand >> c & 1], dtype=np.int64)
    return a.astype(np.int64) @ bits


def scorer_design(g: dict, h: int) -> np.ndarray:
    """The scorer's features of every option of hand h of group g: (options, SCORER_SIZE)."""
    hand = int(g["hands"][h])
    return np.hstack([additive_design(g, h), kept_matrix(hand, thrown_masks(hand, g["lo"], g["hi"]))])


def fit_scorer(groups: list[dict], ridge: float = 1e-3, most: int = 4_000) -> np.ndarray:
    """The scorer's weights: least squares within each hand over every option (at most ``most``
    hands of each group)."""
    return within_hands(groups, scorer_design, ridge, most)


def choice_costs(w_int: np.ndarray, groups: list[dict]) -> np.ndarray:
    """Per hand: the value, on the check deals, of the best option by the fitted values minus that
    of the kernel's choice (``players.learned.learned_discard`` with one model's integer weights)."""
    from analysis.piquet.players.learned import learned_discard, learned_tables

    weights = np.zeros(len(MODELS) * MODEL_SIZE, dtype=np.int64)
    weights[:MODEL_SIZE] = w_int
    tables = learned_tables(weights)
    work = np.zeros(64, dtype=np.int32)
    out = []
    for g in groups:
        for h in range(len(g["values"])):
            hand = int(g["hands"][h])
            options = {int(m): o for o, m in enumerate(thrown_masks(hand, g["lo"], g["hi"]))}
            choice = options[learned_discard(hand, g["lo"], g["hi"], weights, tables, 0, work)]
            out.append(g["checks"][h][g["values"][h].argmax()] - g["checks"][h][choice])
    return np.array(out)


def feature_names() -> list[str]:
    """The name of every weight of a model, in order: the ordering's, then the scorer's."""
    additive = (list(FEATURES) + [f"takes_{k}" for k in range(N_COUNTS)]
                + [f"takes_{k}_x_{j}" for k in range(N_COUNTS) for j in COUNT_FEATURES])
    return [f"order.{n}" for n in additive] + [f"scorer.{n}" for n in additive + list(KEPT_FEATURES)]


CATEGORIES = ("quatorze", "quint or longer", "trio", "other")
"""The held-out hands' kinds, by the first that applies: a quatorze (four of a rank from the ten up),
a run of five or more in a suit, a trio (three of a rank from the ten up), none of these."""


def hand_category(hand: int) -> str:
    """The kind of a dealt 12-card hand (``CATEGORIES``): the combinations a poor fit may break
    (the rules' own readings of sets and sequences, ``reference/scoring``)."""
    from analysis.piquet.reference.scoring import best_sequence, best_set

    sets, _ = best_set(hand)
    if sets == 4:
        return "quatorze"
    if best_sequence(hand)[0] >= 5:
        return "quint or longer"
    return "trio" if sets == 3 else "other"


def mean_ci(x: np.ndarray) -> list[float]:
    """[mean, 95% half-width] of per-hand costs (0 half-width for fewer than two hands)."""
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else 0.0
    return [float(x.mean()), float(half)]


def held_out_figures(w_int: np.ndarray, test: list[dict]) -> dict:
    """The held-out costs (mean, 95% half-width) of the kernel's choice and of the ordering alone,
    and the choice's cost by kind of hand (``hand_category``; [mean, half-width, hands]), where a
    rare combination broken by the fit shows although the mean hides it."""
    cost = choice_costs(w_int, test)
    kinds = np.array([hand_category(int(h)) for g in test for h in g["hands"]])
    by_kind = {k: cost[kinds == k] for k in CATEGORIES}
    return {"held_out_hands": int(len(cost)), "held_out_cost_vs_sampled_best": mean_ci(cost),
            "ordering_alone_cost_vs_sampled_best": mean_ci(greedy_costs(w_int[:ORDER_SIZE], test)),
            "held_out_cost_by_kind": {k: mean_ci(x) + [len(x)] for k, x in by_kind.items() if len(x)}}

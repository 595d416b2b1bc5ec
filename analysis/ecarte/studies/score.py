"""Écarté by score: the chance of winning the game from every score, and the decisions that
maximise it (docs/ecarte-engine.md, "By score").

A hand's outcome is one of the 72 cells of ``studies/strategy/kernel`` (who scored the king point, elder's and
the dealer's trick points, 0 to 4; the layout is at ``studies.strategy.kernel.N_CELLS``). From the strategy
tables' per-hand outcome distributions, the game is a Markov chain over scores (elder's, dealer's)
with the deal alternating: ``W[x, y]`` is the chance that the player who is elder at score x (the
dealer having y) wins the game. Every hand scores at least one point, so ``W`` is exact by dynamic
programming from the highest totals down; at each score the decision per hand class that
maximises the chance of winning is taken there (for elder against the dealer's points table, for
the dealer against elder's points table: each side's best response by score to the other's
points-maximising table).
"""
from __future__ import annotations

import numpy as np

from analysis.ecarte.studies.strategy import kernel as TK

CELLS = np.arange(TK.N_CELLS)
KING = np.array([TK.cell_king.py_func(c) for c in CELLS])
ELDER_TRICK_POINTS = np.array([TK.elder_trick_points.py_func(c) for c in CELLS])
DEALER_TRICK_POINTS = np.array([TK.dealer_trick_points.py_func(c) for c in CELLS])
WITHOUT_KING = np.array([TK.make_cell.py_func(TK.KING_NONE, e, d)
                         for e, d in zip(ELDER_TRICK_POINTS, DEALER_TRICK_POINTS, strict=True)])
"""Per cell, the same outcome without the king point."""


def cells_in_use(*row_sets: np.ndarray) -> int:
    """How many outcome cells the chains carry: the BASE_CELLS of trick points up to 3, and the
    cells of a 4 only when some hand in the tallies scored one (a penalty override). Empty cells
    would not change the chains' values but do change the bootstrap's: a draw puts numerical noise
    of the covariance's factorisation on them."""
    for rows in row_sets:
        for base in (TK.R_A, TK.R_B):
            if rows[:, base + TK.BASE_CELLS:base + TK.N_CELLS].any():
                return TK.N_CELLS
    return TK.BASE_CELLS


def cell_values(W: np.ndarray, x: int, y: int, target: int, cells: int = TK.N_CELLS) -> np.ndarray:
    """For elder at score x against the dealer's y: his chance of winning the game after each
    outcome cell (king point first, then the tricks'; the deal then passes), for the first
    ``cells`` cells. ``W`` may carry leading dimensions (one chain per draw); the cells are the
    last axis of the result."""
    king = KING[:cells]
    ke = (king == TK.KING_ELDER).astype(int)
    kd = (king >= TK.KING_TURNUP).astype(int)
    xe, yd = x + ke + ELDER_TRICK_POINTS[:cells], y + kd + DEALER_TRICK_POINTS[:cells]
    later = 1.0 - W[..., np.minimum(yd, target - 1), np.minimum(xe, target - 1)]
    v = np.where(xe >= target, 1.0, np.where(yd >= target, 0.0, later))
    v = np.where(y + kd >= target, 0.0, v)
    return np.where(x + ke >= target, 1.0, v)


def distributions(rows: np.ndarray, cells: int = TK.N_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """Per item, the outcome distribution under a and under b (rows of studies/strategy/kernel tallies) over
    the first ``cells`` cells."""
    n = np.maximum(rows[:, TK.R_N], 1)[:, None].astype(np.float64)
    return rows[:, TK.R_A:TK.R_A + cells] / n, rows[:, TK.R_B:TK.R_B + cells] / n


def points_chain(target: int, dist: np.ndarray) -> tuple[np.ndarray, dict]:
    """The game when every hand's outcome follows ``dist`` (the first cells, as many as its last
    axis; leading axes are a chain each, e.g. draws): ``W`` (the chance that the player who is
    elder at score x, the dealer having y, wins) and the king point's value in the chance of
    winning to the side that may announce it, per score: the change when the king cells' point is
    scored rather than withheld."""
    T = target
    cells = dist.shape[-1]
    lead = dist.shape[:-1]  # one chain per leading index (draws), or a single chain
    W = np.zeros(lead + (T, T))
    king_value = {"elder": np.zeros(lead + (T, T)), "dealer": np.zeros(lead + (T, T))}
    king, drop = KING[:cells], WITHOUT_KING[:cells]
    for total in range(2 * T - 2, -1, -1):
        for x in range(max(0, total - T + 1), min(T - 1, total) + 1):
            y = total - x
            v = cell_values(W, x, y, T, cells)
            W[..., x, y] = (dist * v).sum(axis=-1)
            for side, kind in (("elder", TK.KING_ELDER), ("dealer", TK.KING_DEALER)):
                has = king == kind
                gain = (dist[..., has] * (v[..., has] - v[..., drop[has]])).sum(axis=-1)
                king_value[side][..., x, y] = gain if side == "elder" else -gain
    return W, king_value


def mixture(w: np.ndarray, rows: np.ndarray, table: np.ndarray,
            cells: int = TK.N_CELLS) -> tuple[np.ndarray, np.ndarray]:
    """The outcome distribution of a hand when elder's hand classes (weights ``w``) decide by
    ``table`` (1 = propose), and its sampling covariance: classes are independent, each a
    multinomial over its ``R_N`` deals, so Cov = sum over classes of w^2 (diag(p) - p p^T) / n."""
    play, propose = distributions(rows, cells)
    p = np.where(table[:, None] == 1, propose, play)
    k = w * w / np.maximum(rows[:, TK.R_N], 1)
    cov = np.diag(k @ p) - (p * k[:, None]).T @ p
    return w @ p, cov


def king_value_draws(target: int, w: np.ndarray, rows: np.ndarray, table: np.ndarray, draws: int = 400,
                     seed: int = 0) -> dict:
    """The king point's value by score (points_chain) for ``draws`` outcome distributions drawn
    around the estimated one with its sampling covariance (a parametric bootstrap): per side an
    array (draws, T, T), from which percentile intervals follow."""
    mean, cov = mixture(w, rows, table, cells_in_use(rows))
    rng = np.random.default_rng(seed)
    sample = rng.multivariate_normal(mean, cov, size=draws, method="eigh")
    return points_chain(target, sample)[1]


def chain(target: int, elder_w: np.ndarray, elder_rows: np.ndarray, elder_table: np.ndarray,
          dealer_w: np.ndarray, dealer_rows: np.ndarray, dealer_table: np.ndarray) -> dict:
    """The game by score under the points tables and with decisions by score.

    ``elder_w`` weights elder's hand classes, ``dealer_w`` the dealer's as they meet a proposal;
    the tables hold 1 for propose / refuse. Returns the win chances ``W_points`` (both players
    by the points tables), ``W_elder`` (whoever is elder decides by score, the dealer answers by
    his points table), ``W_dealer`` (whoever is dealer answers by score, elder by his points
    table), per score the classes whose decision changes, and the king point's value in the
    chance of winning to the side that may announce it (points tables)."""
    cells = cells_in_use(elder_rows, dealer_rows)
    play, propose = distributions(elder_rows, cells)
    accept, refuse = distributions(dealer_rows, cells)
    p_propose = float(elder_w[elder_table == 1].sum())
    elder_play_part = (elder_w * (elder_table == 0)) @ play  # outcome mass when elder plays
    W_points, king_value = points_chain(target, mixture(elder_w, elder_rows, elder_table, cells)[0])
    T = target
    W_elder = np.zeros((T, T))
    W_dealer = np.zeros((T, T))
    elder_changes = np.zeros((T, T, len(elder_table)), dtype=bool)
    dealer_changes = np.zeros((T, T, len(dealer_table)), dtype=bool)
    for total in range(2 * T - 2, -1, -1):
        for x in range(max(0, total - T + 1), min(T - 1, total) + 1):
            y = total - x
            v = cell_values(W_elder, x, y, T, cells)
            ev_play, ev_prop = play @ v, propose @ v
            best = np.where(ev_prop > ev_play, 1, 0)
            elder_changes[x, y] = best != elder_table
            W_elder[x, y] = elder_w @ np.maximum(ev_play, ev_prop)
            v = cell_values(W_dealer, x, y, T, cells)
            ev_acc, ev_ref = accept @ v, refuse @ v  # elder's chances: the dealer takes the lower
            best = np.where(ev_ref < ev_acc, 1, 0)
            dealer_changes[x, y] = best != dealer_table
            W_dealer[x, y] = elder_play_part @ v + p_propose * (dealer_w @ np.minimum(ev_acc, ev_ref))
    return {"W_points": W_points, "W_elder": W_elder, "W_dealer": W_dealer, "elder_changes": elder_changes,
            "dealer_changes": dealer_changes, "king_value": king_value}

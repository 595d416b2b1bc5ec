"""The equilibrium of the first proposal at every game score (``Equilibrium.by_score``).

At a score (elder's x, the dealer's y) a hand's outcome cell is worth elder's chance of winning
the game after it (``score.cell_values``: the king point first, then the tricks'; the deal then
passes), which depends on W at the scores it leads to. Every hand scores at least one point, so
the scores are solved from the highest totals down, each once: the records are re-valued by the
cells' win chances, the equilibrium solved on the fitted records (CFR+, from the points solution)
and measured on held-out records, where W[x, y], the chance that the player who is elder at x
wins, is the solution's held-out value. Both record sets are the first ``Budget.first`` deals of
every information set (the race's first round, and as many held-out deals).

A decision changes at a score when the pure decision there differs from the points solution's;
it counts as clear under the held-out FDR control of that score (``equilibrium.measure``).
"""
from __future__ import annotations

import numpy as np

from analysis.ecarte import equilibrium_solver as S


def solve_scores(fit: dict, held: dict, x_points: np.ndarray, y_points: np.ndarray, target: int,
                 iterations: int) -> tuple[list[dict], list[dict], np.ndarray]:
    """(one row per score, the changed decisions, W). ``fit``/``held``: Records with cells per side."""
    from analysis.ecarte import score
    from analysis.ecarte.equilibrium import decision_words, info_sets, measure

    w = info_sets().weight
    W = np.zeros((target, target))
    rows, changes = [], []
    for total in range(2 * (target - 1), -1, -1):
        for xs in range(max(0, total - target + 1), min(total, target - 1) + 1):
            ys = total - xs
            vals = score.cell_values(W, xs, ys, target)
            fe, fd = fit["elder"].valued(vals), fit["dealer"].valued(vals)
            x, y = S.solve(fe, fd, iterations, x_points, y_points)
            converged = S.exploitability_in_sample(fe, fd, x, y, w, w)
            eh, dh = held["elder"].valued(vals), held["dealer"].valued(vals)
            m = measure(eh, dh, x, y)
            points = measure(eh, dh, x_points, y_points)["value"]["value"]
            W[xs, ys] = m["value"]["value"]
            row = {"elder_score": xs, "dealer_score": ys, "win": m["value"]["value"],
                   "win_ci95": m["value"]["ci95"], "win_points_solution": points,
                   "exploitability_elder_upper": m["elder"]["ci95"][1],
                   "exploitability_dealer_upper": m["dealer"]["ci95"][1],
                   "in_sample_exploitability_elder": converged[0], "in_sample_exploitability_dealer": converged[1]}
            for side, strat, base, yes, no in (("elder", x, x_points, "propose", "play"),
                                               ("dealer", y, y_points, "refuse", "accept")):
                now, before = decision_words(strat, yes, no), decision_words(base, yes, no)
                changed = (now != before) & (now != "mix") & (before != "mix") & info_sets().valid
                clear = changed & m["per_set"][side]["clear"]
                weight = w if side == "elder" else w * m["p_propose_given_dealer_set"]
                weight = weight / weight.sum()
                row[f"{side}_changed_weight"] = float(weight[changed].sum())
                row[f"{side}_clear_changed_weight"] = float(weight[clear].sum())
                row[f"{side}_clear_to_{yes}"] = int((clear & (now == yes)).sum())
                row[f"{side}_clear_to_{no}"] = int((clear & (now == no)).sum())
                for s in np.flatnonzero(clear).tolist():
                    changes.append({"side": side, "elder_score": xs, "dealer_score": ys, "info_set": s,
                                    "points_decision": str(before[s]), "score_decision": str(now[s]),
                                    "probability": float(strat[s]), "value": float(m["per_set"][side]["q"][s])})
            rows.append(row)
    rows.sort(key=lambda r: (r["elder_score"], r["dealer_score"]))
    return rows, changes, W


def first_deals(records_parts: tuple, first: int) -> tuple:
    """The records of deals 0 .. first - 1 of every set, from a phase written in task order (sets
    ascending, deals ascending within a set)."""
    fixed, other, cells = records_parts
    starts = np.concatenate([[0], np.flatnonzero(np.diff(fixed)) + 1])
    rank = np.arange(len(fixed)) - np.repeat(starts, np.diff(np.concatenate([starts, [len(fixed)]])))
    keep = rank < first
    return fixed[keep], other[keep], cells[keep]

"""The equilibrium of the first proposal at every game score (``Equilibrium.by_score``).

At a score (elder's x, the dealer's y) a hand's outcome cell is worth elder's chance of winning
the game after it (``studies.score.cell_values``: the king point first, then the tricks'; the deal then
passes), which depends on W at the scores it leads to. Every hand scores at least one point, so
the scores are solved from the highest totals down, each once: the records are re-valued by the
cells' win chances, the equilibrium solved on the fitted records (CFR+, from the points solution)
and measured on held-out records, where W[x, y], the chance that the player who is elder at x
wins, is the solution's held-out value. Both record sets are the first deals of every information
set, up to ``Budget.score_cap`` (so the sets the race found close keep more deals), and as many
held-out deals. Each score's solve starts from the solution at the score above it already solved
(the dealer one point further, else elder; the points solution at the highest totals) and runs
predictive CFR+ until it has converged on its records (``solve_until``). Then the race by score
(``race_by_score``) gives the close sets of highest stake more deals and solves every score again,
until every score is certified on held-out records or its rounds are spent.

The king's announcement (EC-T5) is valued at every score on the held-out records under that
score's solution: the announcing side's chance of winning with the point scored against withheld,
the tricks unchanged (the players inside the records do not read an announcement, so withholding
it hides nothing from them).

A decision changes at a score when the pure decision there differs from the points solution's;
it counts as clear under the held-out FDR control of that score (``studies.equilibrium.study.measure``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.ecarte.studies.equilibrium import solver as S


def king_values(vals: np.ndarray) -> dict:
    """Per side, the payoff per outcome cell of announcing the king rather than withholding it
    (elder's chance of winning, ``vals``, with and without the point; the dealer's sign turned),
    and the indicator of the cells where that side announced it."""
    from analysis.ecarte.studies import score
    from analysis.ecarte.studies.strategy import kernel as TK

    out = {}
    for side, kind, sign in (("elder", TK.KING_ELDER, 1.0), ("dealer", TK.KING_DEALER, -1.0)):
        has = score.KING == kind
        out[side] = (np.where(has, sign * (vals - vals[score.WITHOUT_KING]), 0.0), has.astype(float))
    return out


def king_row(held: dict, vals: np.ndarray, x: np.ndarray, y: np.ndarray) -> dict:
    """EC-T5 at one score: per side, the chance of winning that announcing the king adds, per hand
    where that side announces it, with a 95% interval (the per-dealt-hand gain's interval divided
    by the share of such hands), on the held-out records of elder's sets under (x, y)."""
    from analysis.ecarte.studies.equilibrium.measures import measure_value

    row = {}
    for side, (gain, has) in king_values(vals).items():
        g = measure_value(held["elder"].valued(gain), x, y)
        share = measure_value(held["elder"].valued(has), x, y)["value"]
        k = 1.0 / share if share > 0 else float("nan")
        row[f"king_value_{side}"] = g["value"] * k
        row[f"king_value_{side}_ci95"] = [g["ci95"][0] * k, g["ci95"][1] * k]
        row[f"king_share_{side}"] = share
    return row


CONVERGED = 0.0002
"""A score's solve stops when both sides' in-sample exploitability (the solver's convergence, in
chances of winning) is under this: a fifth of the target, so that the held-out bound is the
sample's."""
BLOCK = 100
"""Predictive CFR+ iterations between convergence checks."""


def solve_until(fe, fd, x0, y0, most: int, w: np.ndarray, check_first: bool = False) -> tuple:
    """Predictive CFR+ in blocks of BLOCK iterations, each block starting from the last one's
    average, until the in-sample exploitability of both sides is under CONVERGED or ``most``
    iterations are spent: (x, y, in-sample exploitability per side, iterations). With
    ``check_first`` a start that has already converged on these records is kept as it is."""
    x, y, used = x0, y0, 0
    if check_first:
        converged = S.exploitability_in_sample(fe, fd, x, y, w, w)
        if max(converged) < CONVERGED:
            return x, y, converged, used
    while True:
        n = min(BLOCK, most - used)
        x, y = S.solve(fe, fd, n, x, y, predictive=True)
        used += n
        converged = S.exploitability_in_sample(fe, fd, x, y, w, w)
        if max(converged) < CONVERGED or used >= most:
            return x, y, converged, used


@dataclass
class ScoreSolution:
    """``solve_scores``' answer: one row per score, the clearly changed decisions, W[x, y], each
    score's solution (x, y) and, per side and set, its priority for more deals: the largest stake
    (weight x RACE_Z x standard error) over the scores where its decision is still open and whose
    undecided stake is at least half the target (``studies.equilibrium.solver.open_decisions`` on the
    fitted records; 0 elsewhere)."""

    rows: list
    changes: list
    W: np.ndarray
    solved: dict
    priority: dict


def solve_scores(fit: dict, held: dict, x_points: np.ndarray, y_points: np.ndarray, target: int,
                 iterations: int, log=None, start: dict | None = None) -> ScoreSolution:
    """Every score's equilibrium, solved and measured. ``fit``/``held``: records per
    side; ``start``: a previous answer's solutions per score (the race by score), else each score
    starts from the one above it."""
    import time

    from analysis.ecarte.studies import score
    from analysis.ecarte.studies.equilibrium.measures import (
        RACE_Z,
        TARGET,
        decision_words,
        info_sets,
        measure,
    )

    sets = info_sets()
    w = sets.weight
    W = np.zeros((target, target))
    rows, changes = [], []
    solved = {}
    priority = {side: np.zeros(len(w)) for side in ("elder", "dealer")}
    for total in range(2 * (target - 1), -1, -1):
        for xs in range(max(0, total - target + 1), min(total, target - 1) + 1):
            ys = total - xs
            t0 = time.time()
            vals = score.cell_values(W, xs, ys, target)
            fe, fd = fit["elder"].valued(vals), fit["dealer"].valued(vals)
            x0, y0 = ((start or {}).get((xs, ys)) or solved.get((xs, ys + 1)) or solved.get((xs + 1, ys))
                      or (x_points, y_points))
            x, y, converged, used = solve_until(fe, fd, x0, y0, iterations, w, check_first=start is not None)
            solved[(xs, ys)] = (x, y)
            gains, still, stake = S.open_decisions(fe, fd, x, y, w, sets.valid, RACE_Z)
            if stake >= TARGET / 2:
                for side in priority:
                    np.maximum(priority[side], np.where(still[side], w * RACE_Z * gains[side]["se"], 0.0),
                               out=priority[side])
            del fe, fd
            eh, dh = held["elder"].valued(vals), held["dealer"].valued(vals)
            m = measure(eh, dh, x, y)
            points = measure(eh, dh, x_points, y_points)["value"]["value"]
            del eh, dh
            W[xs, ys] = m["value"]["value"]
            row = {"elder_score": xs, "dealer_score": ys, "win": m["value"]["value"],
                   "win_ci95": m["value"]["ci95"], "win_points_solution": points,
                   "exploitability_elder_upper": m["elder"]["ci95"][1],
                   "exploitability_dealer_upper": m["dealer"]["ci95"][1],
                   "in_sample_exploitability_elder": converged[0], "in_sample_exploitability_dealer": converged[1],
                   "iterations": used, "undecided_stake": stake,
                   **king_row(held, vals, x, y)}
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
            if log is not None:
                log(f"score {xs}-{ys}: win {row['win']:.4f}, exploitability upper {row['exploitability_elder_upper']:.5f}"
                    f" / {row['exploitability_dealer_upper']:.5f} (in sample {converged[0]:.5f} / {converged[1]:.5f}"
                    f" after {used} iterations), {time.time() - t0:.0f} s")
    rows.sort(key=lambda r: (r["elder_score"], r["dealer_score"]))
    return ScoreSolution(rows, changes, W, solved, priority)


def race_by_score(fit: dict, held: dict, x_points: np.ndarray, y_points: np.ndarray, target: int, budget,
                  extend, log=None) -> tuple[ScoreSolution, list[dict]]:
    """The game at every score, raced: solve every score on ``fit`` / ``held`` (per side, records,
    the same deals per set in both), then give the open sets of
    highest priority (``ScoreSolution.priority``, both sides together) as many deals again in both,
    up to ``budget.cap``, at most ``budget.score_growth`` times the fitted deals so far, and solve
    every score again from the last solutions; ``budget.score_rounds`` rounds, or fewer when no set
    is open or when both sides' held-out upper bounds are under the target at every score (the
    issue's stopping rule: the certificate, measured on deals the solutions never saw).
    ``extend(kind, side, first, more)`` simulates deals first[s] .. first[s] + more[s] - 1 of every
    set (kind "fit" or "held") as records. (the last solution, one row per round)."""
    import time

    from analysis.ecarte.studies.equilibrium.measures import TARGET

    sides = ("elder", "dealer")
    fit, held = dict(fit), dict(held)
    n_sets = len(x_points)
    have = {s: fit[s].counts for s in sides}
    start, rounds = None, []
    for r in range(budget.score_rounds + 1):
        t0 = time.time()
        solution = solve_scores(fit, held, x_points, y_points, target, budget.score_iterations, log, start)
        deals = int(sum(len(fit[s]) for s in sides))
        largest = {s: max(row[f"exploitability_{s}_upper"] for row in solution.rows) for s in sides}
        last = r == budget.score_rounds or all(u < TARGET for u in largest.values())  # rounds spent, or certified
        more = ({s: np.zeros(n_sets, dtype=np.int64) for s in sides} if last
                else _more_deals(solution.priority, have, budget.cap, budget.score_growth * deals))
        rounds.append({"round": r, "deals": {"fit": deals, "held_out": int(sum(len(held[s]) for s in sides))},
                       "open_sets": {s: int((solution.priority[s] > 0).sum()) for s in sides},
                       "sets_given_more": {s: int((more[s] > 0).sum()) for s in sides},
                       "scores_open": sum(1 for row in solution.rows if row["undecided_stake"] >= TARGET / 2),
                       "largest_exploitability_upper": largest, "seconds": round(time.time() - t0, 1)})
        if log is not None:
            log(f"by score, round {r}: {deals:,} deals, open sets {rounds[-1]['open_sets']}, "
                f"largest upper bound {largest}")
        if not any(m.any() for m in more.values()):
            break
        for s in sides:
            fit[s] = fit[s].joined(extend("fit", s, have[s], more[s]))
            held[s] = held[s].joined(extend("held", s, have[s], more[s]))
            have[s] = have[s] + more[s]
        start = solution.solved
    return solution, rounds


def _more_deals(priority: dict, have: dict, cap: int, most: float) -> dict:
    """Per side, the deals each set gets (as many again as it has, up to ``cap``): the sets of
    highest priority first, both sides together, while the total stays within ``most``."""
    sides = list(priority)
    pri = np.concatenate([priority[s] for s in sides])
    room = np.concatenate([np.minimum(have[s], cap - have[s]) for s in sides])
    order = np.argsort(-pri, kind="stable")
    order = order[(pri[order] > 0) & (room[order] > 0)]
    take = order[np.cumsum(room[order]) <= most]
    more = np.zeros_like(room)
    more[take] = room[take]
    n = len(priority[sides[0]])
    return {s: more[i * n:(i + 1) * n] for i, s in enumerate(sides)}

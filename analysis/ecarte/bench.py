"""``salon bench ecarte``: the hand kernel with the heuristic's and the learned leads against the
reference; with ``--full`` also the double-dummy solver and the equilibrium's engines."""
from __future__ import annotations

import statistics
import time

import numpy as np

from analysis.bench import kernel_rates, ratios_text


def run(deals: int | None, reference_deals: int | None, repeats: int, full: bool) -> dict:
    """The benchmark's figures (see the module's docstring)."""
    deals, reference_deals = deals or 1_000_000, reference_deals or 1_000
    res = kernel(deals, reference_deals, repeats)
    res["learned_leads"] = kernel(deals // 4, reference_deals, repeats, leads="learned")
    if full:
        res["solver"] = solver(repeats=repeats)
        res["equilibrium"] = equilibrium(repeats=min(repeats, 3))
        res["equilibrium_learned"] = equilibrium(repeats=min(repeats, 3), leads="learned")
    return res


def text(res: dict) -> str:
    """The lines past the kernel's: the learned leads, the solver, the equilibrium."""
    lines = [f"ecarte learned leads: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
             f"{r['reference_deals_per_s']:,.0f} deals/s" for r in res["learned_leads"]["results"]]
    lines.append("ecarte learned leads / heuristic leads, same run: "
                 + ratios_text(res["results"], res["learned_leads"]["results"]))
    if "solver" in res:
        lines.append(f"ecarte double-dummy solver: {res['solver']['solves_per_s']:,.0f} solves/s (random 5-card "
                     "positions, 1 thread)")
    for key, what in (("equilibrium", ""), ("equilibrium_learned", " with the learned leads")):
        if key in res:
            q = res[key]
            lines.append(f"ecarte equilibrium{what}: {q['branch_deals_per_s']:,.0f} branch-record deals/s on "
                         f"{q['threads']} threads (two hands played, the refusal re-scored); CFR+ "
                         f"{q['cfr_iterations_per_s']:,.1f} iterations/s over {q['records']:,} records per side")
    return "\n".join(lines)


def kernel(deals: int, reference_deals: int, repeats: int, leads: str = "heuristic") -> dict:
    """Full Écarté hands (heuristic policies with ``leads`` heuristic or learned, seed-de) per second:
    kernel at 1 and 2 threads, reference."""
    from analysis.ecarte.play.tallies import hands_block
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference.hand import play_hand
    from analysis.ecarte.rules import get_rules

    rules = get_rules()
    pol = HeuristicPolicy(leads=leads)
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = kernel_rates("ecarte", hands_block, args, lambda i: play_hand(1, i, rules, pol), deals,
                           reference_deals, repeats, 1 << 14)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median",
            "policies": "heuristic" + (", learned leads" if leads == "learned" else ""), "rules": rules.name}


def solver(positions: int = 20_000, repeats: int = 5) -> dict:
    """Double-dummy solves per second of random 5-card Écarté positions (one thread), median."""
    from analysis.ecarte.players.solver import bench_solves

    rates = [bench_solves(positions, seed=1 + r) for r in range(repeats)]
    return {"positions": positions, "cards_per_hand": 5, "threads": 1, "solves_per_s": statistics.median(rates),
            "statistic": "median", "repeats": repeats}


def equilibrium(deals_per_set: int = 32, repeats: int = 3, leads: str = "heuristic") -> dict:
    """The Écarté equilibrium's two engines (classic, 2 threads; the players' leads ``leads``),
    medians: branch-record deals per second (three branches: two hands played, the refusal
    re-scored) over every elder information set, and CFR+ iterations per second over those
    records (both sides' updates, the same records serving both)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import solver as S
    from analysis.ecarte.studies.equilibrium import study as E
    from analysis.ecarte.studies.equilibrium.measures import info_sets, phase_records

    rules = get_rules("classic")
    pol = HeuristicPolicy(leads=leads)
    sets = info_sets()
    counts = np.where(sets.valid, deals_per_set, 0)
    first = np.zeros_like(counts)
    E.simulate("elder", first, np.where(sets.valid, 1, 0), 0, rules, (pol, pol), 2)  # compile (or load)
    rates, cfr = [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        got = E.simulate("elder", first, counts, 1 + r, rules, (pol, pol), 2)
        rates.append(counts.sum() / (time.perf_counter() - t0))
        rec = phase_records(got)
        S.solve(rec, rec, 2)  # compile (or load)
        t0 = time.perf_counter()
        S.solve(rec, rec, 20)
        cfr.append(20 / (time.perf_counter() - t0))
    return {"deals_per_set": deals_per_set, "records": int(counts.sum()), "threads": 2, "leads": leads,
            "branch_deals_per_s": statistics.median(rates), "cfr_iterations_per_s": statistics.median(cfr),
            "statistic": "median", "repeats": repeats}

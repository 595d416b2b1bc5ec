"""Builds the strategy report: simulated statistics beside the exact values, the strategy table
and its figure, the tip verdicts and the provenance, as index.html and README.md with figures."""
from __future__ import annotations

import datetime as _dt
import os
from fractions import Fraction
from math import comb

from jinja2 import Environment, PackageLoader, select_autoescape

from analysis import __version__

BUDGETS = {
    "quick": {"hands": 1_000_000, "per_class": 4_000, "piquet_deals": 300_000, "tips": "quick"},
    "full": {"hands": 20_000_000, "per_class": 50_000, "piquet_deals": 5_000_000, "tips": "full"},
}

PIQUET_EXACT = {"carte_blanche_elder": (323, 578956), "carte_blanche_younger": (323, 578956)}
"""A named player is dealt carte blanche with probability C(20,12)/C(32,12) (RULES.md invariants)."""


def exact_values() -> dict[str, tuple[int, int]]:
    """The classical exact figures (TIPS.md, RULES.md invariants) the simulation is checked against,
    as (numerator, denominator) in the form the books print them."""
    out = {
        "turnup_king": (1, 8),
        "elder_dealt_trump_king": (35, 248),
        "dealer_two_plus_trumps_given_elder_one": (21206, 65780),
    }
    for k in range(6):
        out[f"elder_dealt_{k}_trumps"] = (comb(7, k) * comb(24, 5 - k), comb(31, 5))
    return out


def compare_with_exact(stats: dict, exact: dict[str, tuple[int, int]] | None = None) -> list[dict]:
    """Rows: statistic, exact value, simulated value with interval, and whether the interval holds it."""
    rows = []
    for name, (num, den) in (exact or exact_values()).items():
        s = stats[name]
        lo, hi = s["ci95"]
        exact = Fraction(num, den)
        rows.append({"name": name, "exact": f"{num}/{den}", "exact_value": float(exact),
                     "value": s["value"], "lo": lo, "hi": hi, "n": s["n"],
                     "inside": bool(lo <= float(exact) <= hi)})
    return rows


def _piquet_section(out_dir: str, fig_dir: str, deals: int, seed: int, threads: int | None) -> dict:
    """The Piquet overview (variants side by side), its figures and the exact carte blanche check."""
    from analysis.piquet.policies import HeuristicPolicy
    from analysis.piquet.studies import overview, overview_figures

    table, dist = overview(deals, seed, threads=threads)
    stem = os.path.join(fig_dir, "piquet_overview")
    figs = overview_figures(table, dist, stem)
    table.to_csv(os.path.join(out_dir, "piquet_overview.csv"), index=False)
    dist.to_csv(os.path.join(out_dir, "piquet_scores.csv"), index=False)
    variants = table.attrs["variants"]
    rows = [{"statistic": r["statistic"], "cells": [(r[v], r[f"{v}_lo"], r[f"{v}_hi"]) for v in variants]}
            for r in table.to_dict(orient="records")]
    stats = {r["statistic"]: {"value": r[variants[0]], "ci95": [r[f"{variants[0]}_lo"], r[f"{variants[0]}_hi"]],
                              "n": deals} for r in table.to_dict(orient="records")}
    return {"deals": deals, "variants": variants, "rows": rows, "caption": table.attrs["caption"],
            "policy": HeuristicPolicy().describe(),
            "exact": compare_with_exact(stats, PIQUET_EXACT), "exact_variant": variants[0],
            "distribution": dist.to_dict(orient="records"),
            "figures": [os.path.relpath(f, out_dir) for f in figs if f.endswith(".png")]}


def _discard_section(out_dir: str, fig_dir: str, n: int, seed: int) -> list[dict]:
    """The discard strategy study for elder and younger (the one behind the PQ tips, reused)."""
    from analysis.piquet.discard_study import study_figures, summary
    from analysis.piquet.rules import get_rules
    from analysis.piquet.tipstudies import _hands

    out = []
    for seat in ("elder", "younger"):
        df = _hands(get_rules("seed-de"), seat, n, seed)
        stem = os.path.join(fig_dir, f"piquet_discards_{seat}")
        study_figures(df, stem)
        df.to_csv(os.path.join(out_dir, f"piquet_discards_{seat}.csv"), index=False)
        out.append({"seat": seat, "hands": len(df), "samples": df.attrs["samples"], "summary": summary(df),
                    "figure": os.path.relpath(stem + ".png", out_dir)})
    return out


def build_report(out_dir: str = "reports", *, quick: bool = False, seed: int = 0, threads: int | None = None,
                 budget: dict | None = None) -> dict:
    """Run the studies at the budget and write ``index.html`` and ``README.md`` into ``out_dir``.

    ``budget`` overrides the named budget (keys ``hands``, ``per_class``, ``tips``), for tests.
    """
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies import propose_table, propose_table_figure, simulate_hands
    from analysis.tips import evaluate_tips

    budget_name = "quick" if quick else "full"
    budget = {**BUDGETS[budget_name], **(budget or {})}
    os.makedirs(out_dir, exist_ok=True)
    fig_dir = os.path.join(out_dir, "figures")
    os.makedirs(fig_dir, exist_ok=True)
    policy = HeuristicPolicy()
    variants = []
    for name in ("seed-de", "classic"):
        rules = get_rules(name)
        sim = simulate_hands(budget["hands"], seed, rules, policy, threads=threads)
        table = propose_table(budget["per_class"], seed, rules, policy, threads=threads)
        stem = os.path.join(fig_dir, f"ecarte_propose_{name}")
        propose_table_figure(table, stem)
        table.to_csv(os.path.join(out_dir, f"ecarte_propose_table_{name}.csv"), index=False)
        variants.append({
            "name": name, "switches": rules.switches(), "sim": sim,
            "exact": compare_with_exact(sim["stats"]),
            "table": table.to_dict(orient="records"), "caption": table.attrs["caption"],
            "figure": os.path.relpath(stem + ".png", out_dir),
        })
    piquet = _piquet_section(out_dir, fig_dir, budget["piquet_deals"], seed, threads)
    tips = evaluate_tips(None, budget["tips"], seed, deals=budget.get("tip_deals"))
    piquet["discards"] = _discard_section(out_dir, fig_dir, tips["deals_per_study"], seed)
    import numba

    context = {
        "version": __version__, "numba": numba.__version__, "seed": seed,
        "budget": budget_name, "hands": budget["hands"], "per_class": budget["per_class"],
        "policy": policy.describe(), "variants": variants, "piquet": piquet, "tips": tips,
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "not_built": ["Bezique (issue 5: its simulator runs, its studies and report section are not built yet)"],
    }
    env = Environment(loader=PackageLoader("analysis", "report/templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["f"] = lambda x, spec=".4f": "—" if x is None else format(x, spec)
    paths = {"html": os.path.join(out_dir, "index.html"), "markdown": os.path.join(out_dir, "README.md")}
    with open(paths["html"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.html.j2").render(**context))
    with open(paths["markdown"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.md.j2").render(**context))
    return paths

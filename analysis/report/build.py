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
    "quick": {"hands": 1_000_000, "per_class": 4_000, "piquet_deals": 300_000, "bezique_deals": 100_000,
              "bezique_games": 2_000, "strategy_deals_per_hand": 20, "strategy_rounds": 2, "strategy_discard_deals": 0,
              "tips": "quick"},
    "full": {"hands": 20_000_000, "per_class": 50_000, "piquet_deals": 5_000_000, "bezique_deals": 1_000_000,
             "bezique_games": 20_000, "strategy_deals_per_hand": 300, "strategy_rounds": 3,
             "strategy_discard_deals": 0, "tips": "full"},
}
"""Deals and rounds per study. The Écarté strategy tables play every one of the 38,304 hand classes
``strategy_deals_per_hand`` times both ways in each evaluation (two per best-response round, one
more at the end when the rounds do not converge). ``strategy_discard_deals`` > 0 chooses the discards
per hand class first (strategy.compute's ``discard_deals``); 0 keeps the heuristic's, because at the
budgets tried (4 to 100 deals per class and option) the chosen discards still lose to the heuristic's
on fresh deals (the best of 31 noisy means flatters itself)."""

PIQUET_EXACT = {"carte_blanche_elder": (323, 578956), "carte_blanche_younger": (323, 578956)}
"""A named player is dealt carte blanche with probability C(20,12)/C(32,12) (RULES.md invariants)."""

BEZIQUE_EXACT = {"turnup_seven": (1, 8)}
"""The turn-up is one of the 8 sevens of the 64 cards (RULES.md invariants)."""

GAME_NAMES = {"ecarte": "Écarté", "piquet": "Piquet", "bezique": "Bezique"}


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


def _bezique_section(out_dir: str, fig_dir: str, deals: int, games: int, seed: int, threads: int | None) -> dict:
    """Bezique's variants side by side: per-deal statistics, meld rates, the exact and invariant
    checks, games to the target, and the figures."""
    from analysis.bezique.studies import invariant_checks, overview, overview_figures

    table, game_table = overview(deals, seed, games=games, threads=threads)
    stem = os.path.join(fig_dir, "bezique_overview")
    figs = overview_figures(table, stem)
    table.to_csv(os.path.join(out_dir, "bezique_overview.csv"), index=False)
    game_table.to_csv(os.path.join(out_dir, "bezique_games.csv"), index=False)
    variants = table.attrs["variants"]

    def rows(df, group=None):
        return [{"statistic": r["statistic"], "cells": [(r[v], r[f"{v}_lo"], r[f"{v}_hi"]) for v in variants]}
                for r in df.to_dict(orient="records") if group is None or r["group"] == group]

    first = {r["statistic"]: {"value": r[variants[0]], "ci95": [r[f"{variants[0]}_lo"], r[f"{variants[0]}_hi"]],
                              "n": deals} for r in table.to_dict(orient="records")}
    return {"deals": deals, "games": games, "variants": variants, "caption": table.attrs["caption"],
            "game_caption": game_table.attrs["caption"], "target": _per_variant(table.attrs["target"]),
            "policy": table.attrs["policy"],
            "rows": rows(table, "points") + rows(table, "sevens"), "melds": rows(table, "meld"),
            "game_rows": rows(game_table) if games else [],
            "invariants": invariant_checks(table),
            "exact": compare_with_exact(first, BEZIQUE_EXACT), "exact_variant": variants[0],
            "figures": [os.path.relpath(f, out_dir) for f in figs if f.endswith(".png")]}


def _per_variant(values: dict) -> str:
    """One value if every variant has it, else each with its variant."""
    if len(set(values.values())) == 1:
        return str(next(iter(values.values())))
    return ", ".join(f"{x} ({v})" for v, x in values.items())


def not_built(tips: dict) -> list[str]:
    """What the report cannot show yet: a game none of whose tips has been studied."""
    games = {}
    for t in tips["tips"]:
        games.setdefault(t["game"], []).append(bool(t["verdicts"]))
    return [f"{GAME_NAMES.get(g, g)} tip verdicts (not yet studied)" for g, studied in games.items()
            if not any(studied)]


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


def _frontier(elder, dealer) -> list[dict]:
    """By trump count: the share of elder's hands with that many trumps, the share of them the
    tables and the heuristic propose with; the same for the dealer's hands meeting a proposal
    and refusing."""
    rows = []
    for t in range(6):
        e, d = elder[elder["trumps"] == t], dealer[dealer["trumps"] == t]
        we, wd = float(e["weight"].sum()), float(d["weight"].sum())
        rows.append({
            "trumps": t, "elder_hands": we,
            "elder_propose": float(e["weight"][e["decision"] == "propose"].sum() / we) if we else None,
            "elder_propose_heuristic": float(e["weight"][e["heuristic"] == "propose"].sum() / we) if we else None,
            "dealer_hands": wd,
            "dealer_refuse": float(d["weight"][d["decision"] == "refuse"].sum() / wd) if wd else None,
            "dealer_refuse_heuristic": float(d["weight"][d["heuristic"] == "refuse"].sum() / wd) if wd else None,
        })
    return rows


def _frontier_words(rows: list[dict], key: str, yes: str, no: str, who: str) -> str:
    """The frontier in a sentence: which trump counts mostly take each decision, with the shares."""
    have = [r for r in rows if r[key] is not None]
    most = [r["trumps"] for r in have if r[key] > 0.5]
    rest = [r["trumps"] for r in have if r[key] <= 0.5]

    def counts(ts):
        return ", ".join(str(t) for t in ts) + (" trump" if ts == [1] else " trumps")

    if most and rest:
        text = f"{who} {yes}s with most hands of {counts(most)} and {no}s with most hands of {counts(rest)}"
    else:
        text = f"{who} {yes if most else no}s with most hands whatever the trumps held"
    shares = ", ".join(f"{r['trumps']}: {100 * r[key]:.0f}%" for r in have)
    return text + f" (share that {yes}s, by trumps held: {shares})."


def _strategy_section(out_dir: str, fig_dir: str, rules, policy, deals: int, rounds: int, discard_deals: int,
                      seed: int, threads: int | None) -> dict:
    """The strategy tables of one variant at the budget: best-response rounds, exploitability, how
    often each side proposes / refuses (tables against the heuristic), the frontier by trump count,
    the game from 0-0 by the points tables and by score, the scores where decisions change most,
    and the two figures. Writes the small tables (by trumps, by score, rounds) beside the report;
    the full per-hand tables come from ``salon study ecarte strategy``."""
    import json

    from analysis.ecarte import strategy as S

    res = S.compute(deals, seed, rules, policy, max_rounds=rounds, discard_deals=discard_deals, threads=threads)
    score_df, _ = S.by_score(res)
    stem = os.path.join(fig_dir, f"ecarte_strategy_{rules.name}")
    figs = S.figures(res, score_df, stem)
    summary = S.summary(res, score_df)
    e, d = res.elder, res.dealer
    frontier = _frontier(e, d)
    base = os.path.join(out_dir, f"ecarte_strategy_{rules.name}")
    import pandas as pd

    pd.DataFrame.from_records(frontier).to_csv(base + "_by_trumps.csv", index=False)
    score_df.to_csv(base + "_by_score.csv", index=False)
    with open(base + "_rounds.json", "w") as fh:
        json.dump({"spec": res.spec, "rounds": res.rounds, "exploitability": res.exploitability,
                   "summary": summary}, fh, indent=1)
    changes = []
    for side, col, to_b, to_a, b, a in (("elder", "elder_hands_changed", "elder_to_propose", "elder_to_play",
                                         "propose", "play"),
                                        ("dealer", "dealer_hands_changed", "dealer_to_refuse", "dealer_to_accept",
                                         "refuse", "accept")):
        top = score_df.sort_values(col, ascending=False).head(3)
        changes.append({"side": side, "b": b, "a": a, "scores": [
            {"score": f"{int(r['elder_score'])}-{int(r['dealer_score'])}", "share": float(r[col]),
             "to_b": int(r[to_b]), "to_a": int(r[to_a])} for _, r in top.iterrows() if r[col] > 0]})
    return {
        "deals": deals, "max_rounds": rounds, "classes": len(e), "rounds": res.rounds,
        "discards": res.spec.get("discards", "heuristic"),
        "exploitability": res.exploitability, "summary": summary, "frontier": frontier,
        "elder_words": _frontier_words(frontier, "elder_propose", "propose", "play", "Elder"),
        "dealer_words": _frontier_words(frontier, "dealer_refuse", "refuse", "accept", "The dealer"),
        "elder_clear": float(e["weight"][e["clear"]].sum()), "dealer_clear": float(d["weight"][d["clear"]].sum()),
        "changes": changes, "target": int(score_df.attrs.get("target", 5)),
        "figures": [os.path.relpath(f, out_dir) for f in figs if f.endswith(".png")],
    }


def build_report(out_dir: str = "reports", *, quick: bool = False, seed: int = 0, threads: int | None = None,
                 budget: dict | None = None) -> dict:
    """Run the studies at the budget and write ``index.html`` and ``README.md`` into ``out_dir``.

    ``budget`` overrides the named budget (keys of BUDGETS, and ``tip_deals``), for tests; the
    Écarté strategy tables take ``strategy_deals_per_hand``, ``strategy_rounds`` and
    ``strategy_discard_deals``.
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
        strategy = _strategy_section(out_dir, fig_dir, rules, policy, budget["strategy_deals_per_hand"],
                                     budget["strategy_rounds"], budget["strategy_discard_deals"], seed, threads)
        variants.append({
            "strategy": strategy,
            "name": name, "switches": rules.switches(), "sim": sim,
            "exact": compare_with_exact(sim["stats"]),
            "table": table.to_dict(orient="records"), "caption": table.attrs["caption"],
            "figure": os.path.relpath(stem + ".png", out_dir),
        })
    piquet = _piquet_section(out_dir, fig_dir, budget["piquet_deals"], seed, threads)
    bezique = _bezique_section(out_dir, fig_dir, budget["bezique_deals"], budget["bezique_games"], seed, threads)
    tips = evaluate_tips(None, budget["tips"], seed, deals=budget.get("tip_deals"))
    piquet["discards"] = _discard_section(out_dir, fig_dir, tips["deals_per_study"], seed)
    import numba

    context = {
        "version": __version__, "numba": numba.__version__, "seed": seed,
        "budget": budget_name, "hands": budget["hands"], "per_class": budget["per_class"],
        "policy": policy.describe(), "variants": variants, "piquet": piquet, "bezique": bezique, "tips": tips,
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "not_built": not_built(tips),
    }
    return write_report(context, out_dir)


def write_report(context: dict, out_dir: str) -> dict[str, str]:
    """Render the templates with ``context`` into ``index.html`` and ``README.md``; their paths."""
    env = Environment(loader=PackageLoader("analysis", "report/templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["f"] = lambda x, spec=".4f": "—" if x is None else format(x, spec)
    paths = {"html": os.path.join(out_dir, "index.html"), "markdown": os.path.join(out_dir, "README.md")}
    with open(paths["html"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.html.j2").render(**context))
    with open(paths["markdown"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.md.j2").render(**context))
    return paths

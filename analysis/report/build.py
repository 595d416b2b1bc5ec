"""Builds the strategy report: each game's section (``analysis/<game>/report_section.py``, found
through the game registry), the tip verdicts and the provenance, as index.html and README.md with
figures."""
from __future__ import annotations

import datetime as _dt
import json
import os
import time
from fractions import Fraction

from jinja2 import Environment, PackageLoader, select_autoescape

from analysis import __version__
from analysis.report.guide import effect_text, guide, label

BUDGETS = {
    "quick": {"hands": 1_000_000, "per_class": 4_000, "piquet_deals": 300_000, "piquet_search_deals": 4_000,
              "bezique_deals": 100_000,
              "bezique_games": 2_000, "bezique_search_deals": 100, "bezique_search_games": 4,
              "bezique_advice_deals": 40,
              "strategy_deals_per_hand": 20, "strategy_rounds": 2, "strategy_discard_deals": 0,
              "piquet_dd_hands": 3, "piquet_dd_race_samples": 300, "piquet_dd_candidates": 6, "piquet_dd_deals": 60,
              "tips": "quick"},
    "full": {"hands": 20_000_000, "per_class": 50_000, "piquet_deals": 5_000_000, "piquet_search_deals": 40_000,
             "bezique_deals": 1_000_000,
             "bezique_games": 20_000, "bezique_search_deals": 4_000, "bezique_search_games": 100,
             "bezique_advice_deals": 1_000,
             "strategy_deals_per_hand": 300, "strategy_rounds": 3,
             "strategy_discard_deals": 0,
             "piquet_dd_hands": 200, "piquet_dd_race_samples": 1_000, "piquet_dd_candidates": 10,
             "piquet_dd_deals": 400, "tips": "full"},
}
"""Deals and rounds per study (``piquet_search_deals``: the Piquet players' table plays that many deals
with the search player, ten times as many with dd and the heuristic). The Écarté strategy tables play every one of the 38,304 hand classes
``strategy_deals_per_hand`` times both ways in each evaluation (two per best-response round, one
more at the end when the rounds do not converge). ``strategy_discard_deals`` > 0 chooses the discards
per hand class first (strategy.compute's ``discard_deals``); 0 keeps the heuristic's, because at the
budgets tried (4 to 100 deals per class and option) the chosen discards still lose to the heuristic's
on fresh deals (the best of 31 noisy means flatters itself)."""


def compare_with_exact(stats: dict, exact: dict[str, tuple[int, int]]) -> list[dict]:
    """Rows: statistic, exact value (numerator, denominator), simulated value with interval, and
    whether the interval holds it."""
    rows = []
    for name, (num, den) in exact.items():
        s = stats[name]
        lo, hi = s["ci95"]
        exact_value = Fraction(num, den)
        rows.append({"name": name, "exact": f"{num}/{den}", "exact_value": float(exact_value),
                     "value": s["value"], "lo": lo, "hi": hi, "n": s["n"],
                     "inside": bool(lo <= float(exact_value) <= hi)})
    return rows


def not_built(tips: dict) -> list[str]:
    """What the report cannot show yet: a game none of whose tips has been studied."""
    from analysis.games import GAMES

    games = {}
    for t in tips["tips"]:
        games.setdefault(t["game"], []).append(bool(t["verdicts"]))
    return [f"{GAMES[g].title if g in GAMES else g} tip verdicts (not yet studied)" for g, studied in games.items()
            if not any(studied)]


def build_report(out_dir: str = "reports", *, quick: bool = False, seed: int = 0, threads: int | None = None,
                 budget: dict | None = None, progress: bool = False) -> dict:
    """Run the studies at the budget and write ``index.html`` and ``README.md`` into ``out_dir``.

    ``budget`` overrides the named budget (keys of BUDGETS, and ``tip_deals``), for tests. Every
    game of the registry with a ``report`` entry gets its section, in the registry's order:
    ``report(out_dir, fig_dir, budget, seed, threads, tips)`` returns the section's template
    context, rendered by ``templates/<game>.html.j2`` and ``<game>.md.j2``. ``progress``: a progress
    bar of the parts (the tip studies, then each game's section).
    """
    import numba
    from tqdm.auto import tqdm

    from analysis.games import GAMES
    from analysis.store import code_fingerprint
    from analysis.tips import evaluate_tips

    started = time.perf_counter()
    budget_name = "quick" if quick else "full"
    budget = {**BUDGETS[budget_name], **(budget or {})}
    os.makedirs(out_dir, exist_ok=True)
    fig_dir = os.path.join(out_dir, "figures")
    os.makedirs(fig_dir, exist_ok=True)
    games = [g for g in GAMES.values() if g.report is not None]
    with tqdm(total=1 + len(games), desc="report", unit=" parts", leave=False, disable=not progress) as bar:
        bar.set_postfix_str("tip studies")
        tips = evaluate_tips(None, budget["tips"], seed, deals=budget.get("tip_deals"), progress=progress)
        part_seconds = {"tip studies": round(time.perf_counter() - started)}
        bar.update(1)
        sections = {}
        for g in games:
            bar.set_postfix_str(g.title)
            t0 = time.perf_counter()
            sections[g.name] = g.report(out_dir, fig_dir, budget, seed, threads, tips)
            part_seconds[g.title] = round(time.perf_counter() - t0)
            bar.update(1)
    context = {
        "version": __version__, "numba": numba.__version__, "seed": seed, "budget": budget_name,
        "games": [{"name": g.name, "title": g.title} for g in games], "sections": sections, "tips": tips,
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "not_built": not_built(tips),
        "code": code_fingerprint(), "seconds": round(time.perf_counter() - started), "part_seconds": part_seconds,
    }
    save_context(context, out_dir)  # first: a render that fails loses no study
    return write_report(context, out_dir)


CONTEXT_FILE = "report_context.json"
"""Every number the report shows, as the templates receive them: the report can be rendered again
(``write_report(load_context(out_dir), out_dir)``) without running a study again."""


def _plain(x):
    """A numpy or pandas value as plain JSON (json.dump's ``default``); anything else as its text,
    so that saving never fails."""
    if hasattr(x, "tolist"):
        return x.tolist()
    if hasattr(x, "to_dict"):
        return x.to_dict(orient="records")
    if isinstance(x, (set, frozenset)):
        return sorted(x, key=str)
    return str(x)


def save_context(context: dict, out_dir: str) -> str:
    """Write the report's context as JSON into ``out_dir``; its path."""
    path = os.path.join(out_dir, CONTEXT_FILE)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(context, fh, default=_plain, indent=1)
    return path


def load_context(out_dir: str) -> dict:
    """The context a report run saved in ``out_dir``."""
    with open(os.path.join(out_dir, CONTEXT_FILE), encoding="utf-8") as fh:
        return json.load(fh)


def report_parts() -> dict:
    """Every part a saved report can compute again: ``GAME.PART`` -> the game's ``report_section.PARTS`` entry."""
    import importlib

    from analysis.games import GAMES

    out = {}
    for game in GAMES:
        module = importlib.import_module(f"analysis.{game}.report_section")
        out.update({f"{game}.{part}": f for part, f in getattr(module, "PARTS", {}).items()})
    return out


def refresh_part(context: dict, out_dir: str, name: str, threads: int | None = None) -> dict:
    """Compute one part of the report saved in ``out_dir`` (its ``context``) again at the saved
    budget and seed with the current code: ``GAME.PART`` (the entries of the game's section that
    the part returns are replaced) or ``tips.ID`` (that tip's verdicts). The context records which
    parts were computed later, with which code, and is saved. The context."""
    from analysis.errors import InputError
    from analysis.store import code_fingerprint

    parts = report_parts()
    game, _, part = name.partition(".")
    tip_ids = [t["id"] for t in context.get("tips", {}).get("tips", [])]
    if not (name in parts and game in context["sections"]) and not (game == "tips" and part in tip_ids):
        raise InputError(f"--refresh: no report part {name!r} (parts: {', '.join(parts)}, tips.ID for a tip)")
    started = time.perf_counter()
    if game == "tips":
        _refresh_tip(context["tips"], part)
    else:
        section = context["sections"][game]
        section.update(parts[name](out_dir, os.path.join(out_dir, "figures"), BUDGETS[context["budget"]],
                                   context["seed"], threads, context["tips"], section))
    context.setdefault("refreshed", []).append({
        "part": name, "code": code_fingerprint(), "seconds": round(time.perf_counter() - started),
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")})
    save_context(context, out_dir)
    return context


def _refresh_tip(tips: dict, tip_id: str) -> None:
    """One tip's verdicts in the saved tips (``evaluate_tips``' JSON) studied again at their budget,
    deals per study and seed."""
    from analysis.tips import as_json, tip_verdicts

    got = as_json(tip_verdicts(None, tips["budget"], tips["seed"], deals=tips["deals_per_study"], ids={tip_id}))
    new = {t["id"]: t for t in got["tips"]}
    tips["tips"] = [new.get(t["id"], t) for t in tips["tips"]]


def write_report(context: dict, out_dir: str) -> dict[str, str]:
    """Render the templates with ``context`` (and the guide derived from it) into ``index.html`` and
    ``README.md``; their paths.
    The HTML escapes every value (a reading with "<" or "&" stays text); the Markdown does not."""
    env = Environment(loader=PackageLoader("analysis", "report/templates"),
                      autoescape=select_autoescape(["html.j2"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["f"] = lambda x, spec=".4f": "—" if x is None else format(x, spec)
    env.filters["label"] = label
    env.filters["pct"] = lambda v: "under 1%" if v > 0 and f"{100 * v:.0f}" == "0" else f"{100 * v:.0f}%"
    env.filters["effect"] = effect_text
    os.makedirs(out_dir, exist_ok=True)
    paths = {"html": os.path.join(out_dir, "index.html"), "markdown": os.path.join(out_dir, "README.md")}
    derived = guide(context, out_dir)
    with open(paths["html"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.html.j2").render(**context, guide=derived))
    with open(paths["markdown"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.md.j2").render(**context, guide=derived))
    return paths

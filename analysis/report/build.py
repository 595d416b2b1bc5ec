"""Builds the strategy report: each game's section (``analysis/<game>/report_section.py``, found
through the game registry), the tip verdicts and the provenance, as index.html and README.md with
figures."""
from __future__ import annotations

import datetime as _dt
import json
import os
import time

from jinja2 import Environment, PackageLoader, select_autoescape

from analysis import __version__
from analysis.errors import InputError
from analysis.plots import figure_formats
from analysis.report.guide import effect_text, guide, label
from analysis.words import parameters

QUICK_TIPS = ("PQ-T2", "PQ-T8", "PQ-T9", "EC-T2", "EC-T5", "EC-T6", "BZ-T2")
"""The tips the quick guide studies: a few per game whose studies need no search player (whose kernels
take minutes to compile), so that ``scripts/demo`` shows the whole job in minutes. The Écarté ones
are read from the solved game's shipped tables. The quick guide lists every other tip as "not run at
this budget"; ``salon tips`` and the full guide study them all."""

BUDGETS = {
    "quick": {"hands": 1_000_000, "per_class": 2_000, "piquet_deals": 300_000, "piquet_search_deals": 0,
              "bezique_deals": 100_000,
              "bezique_games": 0, "bezique_search_deals": 0, "bezique_search_games": 0,
              "bezique_advice_deals": 0,
              "strategy_deals_per_hand": 0, "strategy_rounds": 2, "strategy_discard_deals": 0,
              "piquet_dd_hands": 0, "piquet_dd_race_samples": 300, "piquet_dd_candidates": 6, "piquet_dd_deals": 60,
              "tips": "quick", "tip_deals": 150_000, "tip_ids": QUICK_TIPS, "review_share": 0.25},
    "full": {"hands": 20_000_000, "per_class": 50_000, "piquet_deals": 5_000_000, "piquet_search_deals": 40_000,
             "bezique_deals": 1_000_000,
             "bezique_games": 20_000, "bezique_search_deals": 4_000, "bezique_search_games": 100,
             "bezique_advice_deals": 1_000,
             "strategy_deals_per_hand": 300, "strategy_rounds": 3,
             "strategy_discard_deals": 0,
             "piquet_dd_hands": 200, "piquet_dd_race_samples": 1_000, "piquet_dd_candidates": 10,
             "piquet_dd_deals": 400, "tips": "full", "review_share": 1.0},
}
"""Deals and rounds per study; 0 leaves a part out, and the guide says it was not run at that budget
(``review_share``: the share of the reviewer's default samples the reviewed example deals take;
``piquet_search_deals``: the Piquet players' table plays that many deals
with the search player, ten times as many with dd and the heuristic). The Écarté strategy tables play every one of the 38,304 hand classes
``strategy_deals_per_hand`` times both ways in each evaluation (two per best-response round, one
more at the end when the rounds do not converge). ``strategy_discard_deals`` > 0 chooses the discards
per hand class first (strategy.compute's ``discard_deals``); 0 keeps the heuristic's, because at the
budgets tried (4 to 100 deals per class and option) the chosen discards still lose to the heuristic's
on fresh deals (the best of 31 noisy means flatters itself)."""


def not_built(tips: dict) -> list[str]:
    """What the report cannot show yet: a game none of whose tips has been studied."""
    from analysis.games import GAMES

    games = {}
    for t in tips["tips"]:
        games.setdefault(t["game"], []).append(bool(t["verdicts"]))
    return [f"{GAMES[g].title if g in GAMES else g} tip verdicts (not yet studied)" for g, studied in games.items()
            if not any(studied)]


def report_tips(budget_name: str, seed: int, deals: int | None, ids, progress: bool, game: str | None = None) -> dict:
    """The tip verdicts for the report (``evaluate_tips``'s JSON), of ``game`` or of every game.
    ``ids``: only these tips' studies are run; every other tip is listed with the status "not run at
    this budget"."""
    from analysis.tips import as_json, tip_verdicts
    from analysis.tips_registry import TIPS

    res = as_json(tip_verdicts(game, budget_name, seed, deals, progress, ids=set(ids) if ids else None))
    if ids:
        ran = {t["id"]: t for t in res["tips"]}
        res["tips"] = [ran.get(tip["id"]) or {**tip, "status": "not run at this budget", "verdicts": []}
                       for tip in TIPS if game is None or tip["game"] == game]
    return res


def game_part(name: str, out_dir: str, fig_dir: str, budget: dict, seed: int, threads: int | None,
              progress: bool) -> tuple[dict, dict | None, dict]:
    """One game's part of the report: its tip verdicts (``report_tips``), its section (None for a
    game without one) and the seconds each took. A part needs nothing from another game's, so
    ``build_report`` can run the games in separate processes."""
    from analysis.games import GAMES

    g = GAMES[name]
    t0 = time.perf_counter()
    tips = report_tips(budget["tips"], seed, budget.get("tip_deals"), budget.get("tip_ids"), progress, game=name)
    t1 = time.perf_counter()
    with figure_formats(("png",)):  # the guide shows PNG: each figure written once
        section = g.report.load().section(out_dir, fig_dir, budget, seed, threads, tips) if g.report is not None else None
    return tips, section, {f"{g.title} tips": round(t1 - t0), g.title: round(time.perf_counter() - t1)}


def _game_parts(names: list[str], jobs: int, args: tuple, progress: bool) -> dict:
    """``game_part`` of each game, in ``jobs`` processes at once (1: in this process, in turn)."""
    from tqdm.auto import tqdm

    from analysis import runner

    out = {}
    with tqdm(total=len(names), desc="report", unit=" games", leave=False, disable=not progress) as bar:
        if jobs > 1 and len(names) > 1 and runner.backend() is None:
            # Separate processes (spawned: numba's threads do not survive a fork): on a cold cache
            # each compiles its game's kernels on a core of its own. Their bars would collide, so
            # only this one is shown.
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor, as_completed

            from analysis.interrupts import install_in_worker  # Ctrl-C: the workers end silently

            with ProcessPoolExecutor(min(jobs, len(names)), mp_context=multiprocessing.get_context("spawn"),
                                     initializer=install_in_worker) as pool:
                futures = {pool.submit(game_part, n, *args, False): n for n in names}
                for f in as_completed(futures):
                    out[futures[f]] = f.result()
                    bar.set_postfix_str(futures[f])
                    bar.update(1)
        else:
            for n in names:
                bar.set_postfix_str(n)
                out[n] = game_part(n, *args, progress)
                bar.update(1)
    return out


def build_report(out_dir: str = "reports", *, quick: bool = False, seed: int = 0, threads: int | None = None,
                 budget: dict | None = None, progress: bool = False, jobs: int = 1) -> dict:
    """Run the studies at the budget and write ``index.html`` and ``README.md`` into ``out_dir``.

    ``budget`` overrides the named budget (keys of BUDGETS, ``tip_deals`` and ``tip_ids``), for
    tests. Every game of the registry gets its tip verdicts and, with a ``report`` entry, its
    section: ``report(out_dir, fig_dir, budget, seed, threads, tips)`` returns the section's
    template context, rendered by ``templates/<game>.html.j2`` and ``<game>.md.j2``. ``jobs``: games
    run at once in separate processes (the numbers are the same for any value). ``progress``: a
    progress bar of the games.
    """
    import numba

    from analysis.games import GAMES
    from analysis.store import code_fingerprint
    from analysis.tips_registry import TIPS

    started = time.perf_counter()
    budget_name = "quick" if quick else "full"
    budget = {**BUDGETS[budget_name], **(budget or {})}
    os.makedirs(out_dir, exist_ok=True)
    fig_dir = os.path.join(out_dir, "figures")
    os.makedirs(fig_dir, exist_ok=True)
    names = list(GAMES)
    parts = _game_parts(names, jobs, (out_dir, fig_dir, budget, seed, threads), progress)
    by_id = {t["id"]: t for n in names for t in parts[n][0]["tips"]}
    tips = {**parts[names[0]][0], "tips": [by_id[t["id"]] for t in TIPS if t["id"] in by_id]}
    games = [g for g in GAMES.values() if g.report is not None]
    sections = {g.name: parts[g.name][1] for g in games}
    part_seconds = {k: v for n in names for k, v in parts[n][2].items()}
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


CONTEXT_KEYS = {"seed": int, "budget": str, "sections": dict, "tips": dict}
"""The saved context's top level that rendering and --refresh read, with its types."""


def load_context(out_dir: str) -> dict:
    """The context a report run saved in ``out_dir``: read within the JSON limits of
    ``record_files.read_json`` and checked at its top level (an input error in one line)."""
    from analysis.record_files import read_json

    path = os.path.join(out_dir, CONTEXT_FILE)
    context = read_json(path)
    if not isinstance(context, dict):
        raise InputError(f"{path}: not a report context (a JSON object) but a {type(context).__name__}")
    for key, kind in CONTEXT_KEYS.items():
        if not isinstance(context.get(key), kind):
            raise InputError(f"{path}: not a report context salon wrote ({key!r} missing or not a {kind.__name__})")
    return context


def report_parts() -> dict:
    """Every part a saved report can compute again: ``GAME.PART`` -> the game's ``report.PARTS`` entry."""
    from analysis.games import GAMES

    out = {}
    for game, g in GAMES.items():
        module = g.report.load() if g.report is not None else None
        out.update({f"{game}.{part}": f for part, f in getattr(module, "PARTS", {}).items()})
    return out


def refresh_part(context: dict, out_dir: str, name: str, threads: int | None = None) -> dict:
    """Compute one part of the report saved in ``out_dir`` (its ``context``) again at the saved
    budget and seed with the current code: ``GAME.PART`` (the entries of the game's section that
    the part returns are replaced) or ``tips.ID`` (that tip's verdicts). The context records which
    parts were computed later, with which code, and is saved. The context."""
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
        with figure_formats(("png",)):
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


def template_env() -> Environment:
    """The templates of analysis/report/templates (the guide's and the review page's), with their
    filters. The HTML escapes every value (a reading with "<" or "&" stays text); the Markdown does not."""
    env = Environment(loader=PackageLoader("analysis", "report/templates"),
                      autoescape=select_autoescape(["html.j2"]), trim_blocks=True, lstrip_blocks=True)
    env.filters["f"] = lambda x, spec=".4f": "—" if x is None else format(x, spec)
    env.filters["label"] = label
    env.filters["pct"] = lambda v: "under 1%" if v > 0 and f"{100 * v:.0f}" == "0" else f"{100 * v:.0f}%"
    env.filters["effect"] = effect_text
    env.filters["parameters"] = parameters  # a player's parameters as KEY=VALUE, never a Python dict
    return env


def write_report(context: dict, out_dir: str) -> dict[str, str]:
    """Render the templates with ``context`` (and the guide derived from it) into ``index.html`` and
    ``README.md``; their paths."""
    env = template_env()
    os.makedirs(out_dir, exist_ok=True)
    paths = {"html": os.path.join(out_dir, "index.html"), "markdown": os.path.join(out_dir, "README.md")}
    derived = guide(context, out_dir)
    reviewed = [name for name, s in context["sections"].items() if (s or {}).get("review_example")]
    with open(paths["html"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.html.j2").render(**context, guide=derived, reviewed=reviewed))
    with open(paths["markdown"], "w", encoding="utf-8") as fh:
        fh.write(env.get_template("report.md.j2").render(**context, guide=derived, reviewed=reviewed))
    return paths

"""Piquet's section of the strategy report: the variants side by side with the exact carte blanche
check, and the discard strategy study for elder and younger, with their figures and CSV files
the players (heuristic, search, dd) beside Cavendish's record (templates ``piquet.html.j2`` and
``piquet.md.j2``)."""
from __future__ import annotations

import os

from analysis.report.guide import anchor
from analysis.review import guide_part
from analysis.stats import compare_with_exact

EXACT = {"carte_blanche_elder": (323, 578956), "carte_blanche_younger": (323, 578956)}
"""A named player is dealt carte blanche with probability C(20,12)/C(32,12) (docs/rules.md invariants)."""


def section(out_dir: str, fig_dir: str, budget: dict, seed: int, threads: int | None, tips: dict) -> dict:
    """The section at the report's ``budget`` (``piquet_deals``); the discard study is the one
    behind the tips' verdicts (``tips``: the report's evaluate_tips result), reused."""
    out = overview_section(out_dir, fig_dir, budget["piquet_deals"], seed, threads)
    out["players"] = (players_section(out_dir, budget["piquet_search_deals"], seed, threads)
                      if budget["piquet_search_deals"] else None)  # 0: not run at this budget
    out["discards"] = discard_section(out_dir, fig_dir, tips["deals_per_study"], seed)
    out["strong_discards"] = strong_discard_section(out_dir, budget, seed, out["discards"])
    out.update(PARTS["review"](out_dir, fig_dir, budget, seed, threads, tips, out))
    return out


def _strong_part(out_dir, fig_dir, budget, seed, threads, tips, section) -> dict:
    return {"strong_discards": strong_discard_section(out_dir, budget, seed, section.get("discards") or [])}


def _players_part(out_dir, fig_dir, budget, seed, threads, tips, section) -> dict:
    return {"players": players_section(out_dir, budget["piquet_search_deals"], seed, threads)}


PARTS = {"strong_discards": _strong_part, "players": _players_part, "review": guide_part("piquet")}
"""Parts that ``salon report --from-saved --refresh piquet.PART`` computes again into a saved report:
``part(out_dir, fig_dir, budget, seed, threads, tips, section)`` returns the section's entries it replaces."""

STRONG_ROWS = (("race_best", "the heuristic race's best exchange"), ("take_all", "always take every card allowed"),
               ("shortest_weakest", "the book's rule: the shortest suits' weakest cards (PQ-T2)"),
               ("keep_point", "keep the point suit, throw the weakest other cards"),
               ("keep_guards", "younger: shortest and weakest, but keep the guards"),
               ("heuristic", "the engine's heuristic exchange"), ("learned", "the learned exchange"))


def strong_discard_section(out_dir: str, budget: dict, seed: int, discards: list[dict]) -> dict | None:
    """The discard study under double-dummy play (studies/discards/study_search) for elder and younger, and
    each exchange's cost under heuristic play (the discard study, ``discards``) beside it."""
    from analysis.piquet.rules import get_rules
    from analysis.piquet.studies.discards.study_search import strong_study, strong_summary

    hands = budget.get("piquet_dd_hands", 0)
    if not hands:
        return None
    heuristic = {d["seat"]: d["summary"] for d in discards}
    seats = []
    for seat in ("elder", "younger"):
        df = strong_study(hands, seat, get_rules("seed-de"), race_samples=budget["piquet_dd_race_samples"],
                          candidates=budget["piquet_dd_candidates"], deals=budget["piquet_dd_deals"], seed=seed)
        df.to_csv(os.path.join(out_dir, f"piquet_discards_dd_{seat}.csv"), index=False)
        seats.append({"seat": seat, "summary": strong_summary(df)})
    rows = []
    for name, words in STRONG_ROWS:
        cells = []
        for s in seats:
            h = heuristic.get(s["seat"], {})
            under_h = (h.get("take_all_cost") if name == "take_all" else
                       (h.get("rules", {}).get(name) or {}).get("cost"))
            cells += [under_h, s["summary"]["costs"].get(name)]
        if any(cells):
            rows.append({"exchange": words, "cells": cells})
    return {"hands": hands, "race_samples": budget["piquet_dd_race_samples"],
            "candidates": budget["piquet_dd_candidates"], "deals": budget["piquet_dd_deals"], "seats": seats,
            "rows": rows}


def players_section(out_dir: str, search_deals: int, seed: int, threads: int | None) -> dict:
    """The players (heuristic, search, dd) beside Cavendish's 10,000 hands (studies/players)."""
    from analysis.piquet.studies.players import STATISTICS, player_deals, players_table

    n = player_deals(search_deals)
    df = players_table(n, seed, threads=threads)
    df.to_csv(os.path.join(out_dir, "piquet_players.csv"), index=False)
    recs = df.to_dict(orient="records")
    rows = []
    for k, label in STATISTICS:
        pct = k not in ("elder_score", "younger_score")
        cells = []
        for r in recs:
            v, lo, hi = r[k], r[f"{k}_lo"], r[f"{k}_hi"]
            scale = 100 if pct else 1
            cells.append(None if v is None or v != v else
                         (scale * v, None if lo is None or lo != lo else scale * lo,
                          None if hi is None or hi != hi else scale * hi))
        rows.append({"statistic": label + (" (%)" if pct else ""), "cells": cells})
    return {"caption": df.attrs["caption"], "players": [r["player"] for r in recs], "rows": rows,
            "why": [(r["player"], r["deals"], r["why"]) for r in recs]}


def overview_section(out_dir: str, fig_dir: str, deals: int, seed: int, threads: int | None) -> dict:
    """The Piquet overview (variants side by side), its figures and the exact carte blanche check."""
    from analysis.piquet.policies import HeuristicPolicy
    from analysis.piquet.studies.simulate import overview, overview_figures

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
            "exact": compare_with_exact(stats, EXACT), "exact_variant": variants[0],
            "distribution": dist.to_dict(orient="records"),
            "figures": [os.path.relpath(f, out_dir) for f in figs if f.endswith(".png")]}


def discard_section(out_dir: str, fig_dir: str, n: int, seed: int) -> list[dict]:
    """The discard strategy study for elder and younger (the one behind the PQ tips, reused)."""
    from analysis.piquet.rules import get_rules
    from analysis.piquet.studies.discards.shapes import patterns_by_shape, shape_record
    from analysis.piquet.studies.discards.study import study_figures, summary
    from analysis.piquet.studies.tips import dealt_hands

    out = []
    for seat in ("elder", "younger"):
        df = dealt_hands(get_rules("seed-de"), seat, n, seed)
        stem = os.path.join(fig_dir, f"piquet_discards_{seat}")
        study_figures(df, stem)
        df.to_csv(os.path.join(out_dir, f"piquet_discards_{seat}.csv"), index=False)
        out.append({"seat": seat, "hands": len(df), "samples": df.attrs["samples"], "summary": summary(df),
                    "by_shape": shape_record(patterns_by_shape(df, seat)),
                    "figure": os.path.relpath(stem + ".png", out_dir)})
    return out


# ------------------------------------------------------------------- the guide's advice and chart
WORTH_LEARNING = 1.25
"""The guide's exchange rule is the shortest rung giving up at most this times the ladder's least on
the hands that chose the rules (the held-out cost is what the guide prints, never what picks)."""
RULE_PLAYERS = "heuristic trick play, every exchange raced per hand"


def exchange_rule_advice() -> list[dict]:
    """Each seat's exchange as a rule a player can carry (the shipped ladder, docs/playing-rules.md):
    the shortest rule worth learning, then what it, the next rung up and the best book rule give up
    against each hand's best exchange."""
    from analysis.piquet.studies.rule_ladder import shipped_ladders

    out = []
    for lad in (shipped_ladders() or {"ladders": []})["ladders"]:
        if lad["rules"] != "seed-de":  # the variant of the guide's exchange studies
            continue
        rungs = lad["rungs"]
        least = min(r["fit_cost"] for r in rungs)
        k = next(i for i, r in enumerate(rungs) if r["fit_cost"] <= WORTH_LEARNING * least)
        seat = lad["decision"].split("-")[0]
        words = [r["words"].replace("\n", "; ") for r in rungs[k:k + 2]]
        margins = [{"variant": lad["rules"], "effect": rungs[k]["cost"],
                    "effect_name": "points per deal given up against each hand's best exchange with this rule",
                    "players": RULE_PLAYERS}]
        if k + 1 < len(rungs):
            margins.append({"variant": lad["rules"], "effect": rungs[k + 1]["cost"],
                            "effect_name": f"one class more ({words[1]})", "players": RULE_PLAYERS})
        book = min(lad["book"], key=lambda b: b["cost"]["value"])
        margins.append({"variant": lad["rules"], "effect": book["cost"],
                        "effect_name": f"the book's rule ({book['source']})", "players": RULE_PLAYERS})
        margins += strong_margins(lad, rungs[k], book)
        text = f"As {seat}, exchange by this rule under {lad['rules']} rules: {words[0]}."
        out.append({"text": text, "short": text, "tip": None, "anchor": anchor("piquet", "discards", seat),
                    "margins": margins})
    return out


STRONG_PLAYERS = {"search": "search trick play (the searching player), the best of the open-hands leaders per hand",
                  "dd": "dd trick play (open hands, a bound, not a legal player), the race's leaders per hand"}


def strong_margins(lad: dict, rung: dict, book: dict) -> list[dict]:
    """The rule's and the best book rule's costs with strong trick play, where the shipped ladder
    has them (``rule_ladder.add_strong_costs``): the searching player first, the open-hands bound."""
    out = []
    for play in ("search", "dd"):
        for entry, what in ((rung, "this rule"), (book, "the book's rule")):
            cost = entry.get("strong", {}).get(play)
            if cost:
                out.append({"variant": lad["rules"], "effect": cost, "players": STRONG_PLAYERS[play],
                            "effect_name": f"{what} with {'the searching player' if play == 'search' else 'open hands'}"
                                           f" playing the tricks ({cost['hands']} of the hands)"})
    return out


def guide_advice(section: dict) -> list[dict]:
    """Piquet's exchange: first each seat's rule to carry (the shipped ladder), then in one line per
    seat how many cards the best exchange takes, and what taking every card allowed costs against
    it, from the strongest study there is (open-hands play when the report has it), with the
    heuristic-play figure beside it."""
    strong = {s["seat"]: s["summary"] for s in (section.get("strong_discards") or {}).get("seats", [])}
    out = exchange_rule_advice() if section.get("discards") else []
    for d in section.get("discards", []):
        s = strong.get(d["seat"]) or d["summary"]
        takes = sorted(s["best_takes"].items(), key=lambda kv: -kv[1])
        k, share = takes[0]
        played = " when the cards are played well (open hands)" if d["seat"] in strong else ""
        short = f"As {d['seat']}, the best exchange takes {k} cards in {100 * share:.0f}% of hands{played}."
        margins = [{"variant": "seed-de", "effect": d["summary"]["take_all_cost"],
                    "effect_name": "points per deal given up against each hand's best exchange, measured on held-out "
                                   "deals", "players": "heuristic trick play, every exchange raced per hand"}]
        if d["seat"] in strong:
            margins.insert(0, {"variant": "seed-de", "effect": s["costs"]["take_all"],
                               "effect_name": "the same under open-hands play (best chosen on one set of deals, "
                                              "measured on another)",
                               "players": "dd (open hands) trick play, the heuristic race's leaders"})
        out.append({"text": f"{short} Always taking every card allowed gives up:", "short": short,
                    "tip": None, "anchor": anchor("piquet", "discards", "dd" if d["seat"] in strong else d["seat"]),
                    "margins": margins})
    return out


def _share(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def guide_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
    """What each seat's best exchange does, as shares of hands (how many cards it takes, then each
    pattern), and the same by hand shape as a heat map (``piquet_shapes_figure``)."""
    from analysis.piquet.studies.discards.shapes import PATTERNS

    discards = section.get("discards") or []
    if not discards:
        return None
    takes = sorted({k for d in discards for k in d["summary"]["best_takes"]}, key=int, reverse=True)
    rows = [(f"takes {k} card{'' if str(k) == '1' else 's'}", [_share(d["summary"]["best_takes"].get(k, 0.0))
                                                              for d in discards]) for k in takes]
    rows += [(words, [_share(d["summary"]["best_exchange"].get(key)) for d in discards])
             for key, words in PATTERNS.items() if any(key in d["summary"]["best_exchange"] for d in discards)]
    chart = {"caption": "What the best exchange does (share of hands; seed-de, heuristic trick play, every legal "
                        "exchange raced per hand)",
             "columns": [f"{d['seat']} ({d['hands']} hands)" for d in discards], "rows": rows, "figures": []}
    shapes = shapes_figure(discards, out_dir)
    if shapes:
        chart["figures"].append(("what the best exchange does, by the hand's longest suit", shapes))
    return chart


def shapes_figure(discards: list[dict], out_dir: str | None) -> str | None:
    """Draw the by-shape heat map into ``out_dir``/figures from the context's tables (``by_shape``),
    or, for a report saved before it had them, from the per-hand tables in ``out_dir``; its path
    relative to ``out_dir``, or None when neither is there."""
    import os

    import pandas as pd

    from analysis.piquet.studies.discards.shapes import patterns_by_shape, plot_patterns_by_shape, shape_table
    from analysis.plots import save_figure

    if out_dir is None or not discards:
        return None
    if all(d.get("by_shape") for d in discards):
        tables = [shape_table(d["by_shape"]) for d in discards]
    else:
        paths = [os.path.join(out_dir, f"piquet_discards_{d['seat']}.csv") for d in discards]
        if not all(os.path.exists(p) for p in paths):
            return None
        tables = [patterns_by_shape(pd.read_csv(p), d["seat"]) for p, d in zip(paths, discards, strict=True)]
    os.makedirs(os.path.join(out_dir, "figures"), exist_ok=True)
    stem = os.path.join(out_dir, "figures", "piquet_discard_shapes")
    save_figure(plot_patterns_by_shape(tables, "seed-de; each hand's best exchange raced over every legal "
                                               "exchange, heuristic trick play"), stem, ("png",))
    return os.path.relpath(stem + ".png", out_dir)

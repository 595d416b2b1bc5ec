"""Bezique's section of the strategy report: the variants side by side (per-deal statistics, meld
rates, the invariant and exact checks, games to the target) with their figures and CSV files
(templates ``bezique.html.j2`` and ``bezique.md.j2``)."""
from __future__ import annotations

import math
import os

from analysis.report.guide import effect_text
from analysis.review import guide_part
from analysis.stats import compare_with_exact

EXACT = {"turnup_seven": (1, 8)}
"""The turn-up is one of the 8 sevens of the 64 cards (docs/rules.md invariants)."""


def section(out_dir: str, fig_dir: str, budget: dict, seed: int, threads: int | None, tips: dict) -> dict:
    """The section at the report's ``budget`` (``bezique_deals``, ``bezique_games``, and for the
    search player ``bezique_search_deals``, ``bezique_search_games``, ``bezique_advice_deals``)."""
    res = overview_section(out_dir, fig_dir, budget["bezique_deals"], budget["bezique_games"], seed, threads)
    search_deals = budget.get("bezique_search_deals", 20)  # 0: the search player's parts are not run
    res["players"] = (players_section(out_dir, budget["bezique_deals"], budget["bezique_games"], seed, threads,
                                      search_deals, budget.get("bezique_search_games", 2)) if search_deals else None)
    advice_deals = budget.get("bezique_advice_deals", 20)
    res["advice"] = advice_section(advice_deals, seed) if advice_deals else None
    res.update(PARTS["review"](out_dir, fig_dir, budget, seed, threads, tips, res))
    return res


PARTS = {"review": guide_part("bezique")}
"""Parts that ``salon report --from-saved --refresh bezique.PART`` computes again into a saved report:
``part(out_dir, fig_dir, budget, seed, threads, tips, section)`` returns the section's entries it replaces."""


def advice_section(deals: int, seed: int) -> dict:
    """The period advice (docs/classical.md) against the search player's play and tuned's, seed-de."""
    from analysis.bezique.studies.advice import ADVICE, RATES, advice_check

    res = advice_check(deals, seed, "seed-de", player="search", baseline="tuned")
    rows = [{"advice": ADVICE[k], "cells": [(res["players"][p][k]["value"], *res["players"][p][k]["ci95"])
                                            for p in res["players"]]} for k in RATES]
    return {"deals": deals, "seed": seed, "opponent": res["opponent"], "players": list(res["players"]), "rows": rows}


PLAYER_COLUMNS = ("points_per_deal", "trump_sequence", "double_bezique", "four_aces", "deals_per_game",
                  "ended_in_stock_phase", "net_vs_tuned")


def players_section(out_dir: str, deals: int, games: int, seed: int, threads: int | None, search_deals: int,
                    search_games: int) -> dict:
    """The players side by side (studies/players.py), seed-de: self-play statistics and each against tuned."""
    from analysis.bezique.studies.players import EXPERT_DEAL_TOTAL, players

    table = players(deals, games, seed, "seed-de", search_deals=search_deals, search_games=search_games,
                    threads=threads)
    table.drop(columns="policy").to_csv(os.path.join(out_dir, "bezique_players.csv"), index=False)
    def cell(r, c):  # a statistic with its interval, or None (not measured, or too few to say)
        if c not in r or not all(math.isfinite(x) for x in (r[c], r[f"{c}_lo"], r[f"{c}_hi"])):
            return None
        return r[c], r[f"{c}_lo"], r[f"{c}_hi"]

    rows = [{"player": r["player"], "deals": r["deals"], "games": r["games"],
             "cells": [cell(r, c) for c in PLAYER_COLUMNS]} for r in table.to_dict(orient="records")]
    search = next(r for r in table.to_dict(orient="records") if r["player"] == "search")
    return {"caption": table.attrs["caption"], "columns": PLAYER_COLUMNS, "rows": rows,
            "expert_total": EXPERT_DEAL_TOTAL, "search_total": 2 * search["points_per_deal"]}


def overview_section(out_dir: str, fig_dir: str, deals: int, games: int, seed: int, threads: int | None) -> dict:
    """Bezique's variants side by side: per-deal statistics, meld rates, the exact and invariant
    checks, games to the target, and the figures."""
    from analysis.bezique.studies.simulate import invariant_checks, overview, overview_figures

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
            "exact": compare_with_exact(first, EXACT), "exact_variant": variants[0],
            "figures": [os.path.relpath(f, out_dir) for f in figs if f.endswith(".png")]}


def _per_variant(values: dict) -> str:
    """One value if every variant has it, else each with its variant."""
    if len(set(values.values())) == 1:
        return str(next(iter(values.values())))
    return ", ".join(f"{x} ({v})" for v, x in values.items())


# ------------------------------------------------------------------- the guide's advice and chart
DECISION_WORDS = {"win": "Following a trick while the stock lasts",
                  "single-bezique": "Holding a single bezique while the double may still come",
                  "lead": "Leading while the stock lasts", "meld": "Melding"}
EVIDENCE = {"win": "tip-bz-t1", "single-bezique": "tip-bz-t5", "lead": "tip-bz-t3", "meld": "bezique-evidence"}
"""Where the guide links each rule: the tip its books' rules come from (the ladder's own evidence is
``salon rules bezique`` and docs/playing-rules.md)."""


def rule_words(text: str) -> str:
    """A Bezique ladder's rule (studies/rule_ladder.py) in the guide's words."""
    import re

    fixed = {"otherwise win": "win every trick you can with a card of the suit led",
             "otherwise duck": "never try to win it",
             "otherwise lay": "lay it at once", "otherwise hold": "hold it as long as the double may come",
             "otherwise low": "lead the lowest card you can spare", "otherwise high": "lead your highest plain card",
             "otherwise meld": "lay your best meld as soon as you may",
             "win if brisque_led >= 1; otherwise duck": "win it only to take an ace or ten led"}
    if text in fixed:
        return fixed[text]
    m = re.fullmatch(r"hold if stock >= (\d+); otherwise lay", text)
    if m:
        return f"hold it while the stock holds {m.group(1)} cards or more, then lay it"
    m = re.fullmatch(r"win if meld >= (\d+)( or brisque_led >= 1)?; otherwise duck", text)
    if m:
        return f"win it only for a meld of {m.group(1)} or more" + (" or to take an ace or ten led" if m.group(2) else "")
    return text


def guide_advice(section: dict) -> list[dict]:
    """Bezique's rules to carry (the shipped ladders, docs/playing-rules.md): per decision, the rung
    that gave up least on the deals that chose it, under seed-de, with what it and the books' advice
    give up against the strongest player that can follow a rule, under each variant."""
    from analysis.bezique.studies.rule_ladder import shipped_ladders

    if not section:
        return []
    ladders = {(lad["rules"], lad["decision"]): lad for lad in (shipped_ladders() or {"ladders": []})["ladders"]}
    out = []
    for name, words in DECISION_WORDS.items():
        lad = ladders.get(("seed-de", name))
        if lad is None:
            continue
        chosen = min(lad["rungs"], key=lambda r: r["fit_cost"])
        margins = []
        for variant in ("seed-de", "classic"):
            v = ladders.get((variant, name))
            if v is None:
                continue
            players = f"{v['players']['player']}'s own choice as the baseline, against the tuned rule-of-thumb player"
            same = next((r for r in v["rungs"] + v["book"] if r["rule"] == chosen["rule"]), None)
            if same is not None and same["cost"]["ci95"] != [0, 0]:
                margins.append({"variant": variant, "effect": same["cost"], "players": players,
                                "effect_name": "points per deal and seat given up with this rule"})
            for b in v["book"]:
                if b["rule"] != chosen["rule"]:
                    margins.append({"variant": variant, "effect": b["cost"], "players": players,
                                    "effect_name": f"with the book's \"{b['source'].split(': ')[-1]}\""})
        text = f"{words}: {rule_words(chosen['rule'])}."
        c = chosen["cost"]
        others = [r for r in lad["rungs"] + lad["book"] if r["rule"] != chosen["rule"]]
        clear = others and all(r["cost"]["ci95"][0] > c["ci95"][1] for r in others)  # the rule beats every other
        if c["ci95"] != [0, 0] and (c["ci95"][1] - c["ci95"][0]) / 2 > abs(c["value"]) / 2 and not clear:
            text = text[:-1] + " (a first measure: its interval is still wide)."
        elif c["ci95"][0] > 0:
            text = text[:-1] + f" ({lad['players']['player']}'s own choice does better still)."
        out.append({"text": text, "short": text, "tip": None, "anchor": EVIDENCE[name], "margins": margins})
    return out


def guide_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
    """Holding a single bezique for the double, by the stock's size (BZ-T5's thresholds): the net
    points per deal and seat against declaring it at once, per variant."""
    verdicts = [v for t in tips if t["id"] == "BZ-T5" for v in t["verdicts"] if (v.get("details") or {}).get(
        "by_threshold")]
    if not verdicts:
        return None
    by_variant = {v["variant"]: {r["hold_while_stock_at_least"]: r for r in v["details"]["by_threshold"]}
                  for v in verdicts}
    thresholds = sorted({t for rows in by_variant.values() for t in rows})
    rows = [(f"hold while the stock has {t} cards or more" if t else "hold as long as the stock lasts",
             [f"{effect_text(rows[t]['net'])} ({rows[t]['verdict']})" if t in rows else "—"
              for rows in by_variant.values()]) for t in thresholds]
    return {"caption": "Hold a single bezique for the double? Net points per deal and seat against declaring it at "
                       f"once, 95% intervals (players: {verdicts[0]['players']}; {verdicts[0]['deals']:,} deals, "
                       "each played by every option in both seats)",
            "columns": list(by_variant), "rows": rows, "figures": []}

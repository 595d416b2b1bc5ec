"""The strategy guide's reader-facing parts, derived from the report's context at render time:
each game's advice (rules in plain words with their margin, confidence, players and variant), the
tip verdicts in a player's words, the charts to act on, and readable labels. Nothing here runs a
study: the numbers are the context's, so the guide renders again from a saved context
(``build.load_context``); the one figure drawn here (Piquet by hand shape) is drawn from them too."""
from __future__ import annotations

import math

from analysis.report.guide_words import ADVICE_ORDER, READINGS

LABELS = {
    "net": "net points", "elder_net": "elder's net points", "dealer_first_wins":
    "the first dealer wins", "net_vs_tuned": "net points against the tuned heuristic",
}
"""Labels that plain word-splitting would get wrong; every other snake_case name reads with its
underscores as spaces."""


def label(name) -> str:
    """A snake_case statistic name as words: ``elder_wins_point`` -> ``elder wins point``."""
    text = str(name)
    return LABELS.get(text, text.replace("_", " "))


def anchor(*parts: str) -> str:
    """An HTML id (and Markdown anchor) from words: ``anchor("tip", "PQ-T2")`` -> ``tip-pq-t2``."""
    return "-".join(p.lower().replace(" ", "-").replace(",", "").replace(":", "-") for p in parts)


def split_label(label_: str) -> tuple[str, str | None]:
    """A verdict's label as (variant, part): ``"seed-de, elder"`` -> ``("seed-de", "elder")``."""
    variant, _, part = label_.partition(", ")
    return variant, part or None


def reading(tip_id: str, part: str | None, verdict: str) -> str | None:
    """What the verdict means for a player (guide_words.READINGS), or None when it has no sentence."""
    for key in (f"{tip_id}:{part}", tip_id):
        if key in READINGS:
            return READINGS[key].get(verdict)
    return None


def effect_text(e: dict | None) -> str:
    """An estimate as "+0.003 [+0.001, +0.005]", to as many decimals as its interval's width warrants."""
    if not e:
        return ""
    lo, hi = e["ci95"]
    half = (hi - lo) / 2 or abs(e["value"]) or 1.0
    places = max(0, min(4, 1 - math.floor(math.log10(half))))
    return f"{e['value']:+.{places}f} [{lo:+.{places}f}, {hi:+.{places}f}]"


def clear(v: dict) -> bool:
    """A verdict a player can act on: supported or refuted (the study's threshold decides it)."""
    return v["verdict"] in ("supported", "refuted")


def tip_rows(tips: dict, game: str) -> list[dict]:
    """One row per verdict of the game's tips: the tip's words, the verdict, its number with
    interval, what it means for a player, the players and the variant, and the evidence's anchor."""
    rows = []
    for t in tips["tips"]:
        if t["game"] != game:
            continue
        if not t["verdicts"]:
            verdict = t.get("status") if t.get("status") not in (None, "studied") else "not yet studied"
            rows.append({"id": t["id"], "tip": t["tip"], "verdict": verdict, "variant": "", "part": None,
                         "effect": None, "effect_name": "", "reading": None, "players": "",
                         "anchor": anchor("tip", t["id"])})
        for v in t["verdicts"]:
            variant, part = split_label(v["variant"])
            rows.append({"id": t["id"], "tip": t["tip"], "verdict": v["verdict"], "variant": variant, "part": part,
                         "effect": v["effect"], "effect_name": v["effect_name"], "deals": v["deals"],
                         "reading": reading(t["id"], part, v["verdict"]), "players": v["players"],
                         "anchor": anchor("tip", t["id"])})
    return rows


def tip_advice(rows: list[dict], game: str) -> list[dict]:
    """The game's advice from its clear tip verdicts, in guide_words.ADVICE_ORDER (one item per tip
    or clause, the verdicts of all its variants as its margins)."""
    out = []
    for key in ADVICE_ORDER[game]:
        tip_id, _, part = key.partition(":")
        mine = [r for r in rows if r["id"] == tip_id and (not part or r["part"] == part) and r["effect"]]
        acted = [r for r in mine if clear(r) and r["reading"]]
        verdicts = {r["verdict"] for r in mine}
        if not acted or not (verdicts <= {"supported"} or verdicts <= {"refuted", "partly"}):
            continue  # no clear verdict, or the variants disagree: the tip table shows it, the advice does not
        first = acted[0]
        out.append({"text": first["reading"], "short": first["reading"], "tip": tip_id, "anchor": first["anchor"],
                    "margins": [{"variant": r["variant"] + (f", {r['part']}" if r["part"] and not part else ""),
                                 "effect": r["effect"], "effect_name": r["effect_name"], "players": r["players"]}
                                for r in mine]})
    return out


def piquet_advice(section: dict) -> list[dict]:
    """Piquet's exchange in one line per seat: how many cards the best exchange takes, and what
    taking every card allowed costs against it, from the strongest study there is (open-hands play
    when the report has it), with the heuristic-play figure beside it."""
    strong = {s["seat"]: s["summary"] for s in (section.get("strong_discards") or {}).get("seats", [])}
    out = []
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


def ecarte_advice(section: dict) -> list[dict]:
    """Écarté's proposal game in one line per variant, from the shipped equilibrium."""
    out = []
    for v in section.get("variants", []):
        eq = v.get("equilibrium")
        if not eq:
            continue
        es = eq["summary"]
        short = (f"Under {v['name']} rules, elder proposes with {100 * es['elder_propose_share']:.0f}% of hands and "
                 f"the dealer refuses {100 * es['dealer_refuse_share']:.0f}% of proposals (the solved game's chart).")
        out.append({"text": f"{short} Elder's expected points per hand:", "short": short,
                    "tip": None, "anchor": anchor("ecarte", v["name"], "equilibrium"),
                    "margins": [{"variant": v["name"], "effect": es["value"],
                                 "effect_name": "value of the game for elder, points per hand",
                                 "players": f"equilibrium tables, {es['play_policy']}"}]})
    return out


def _share(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def piquet_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
    """What each seat's best exchange does, as shares of hands (how many cards it takes, then each
    pattern), and the same by hand shape as a heat map (``piquet_shapes_figure``)."""
    from analysis.piquet.discard_shapes import PATTERNS

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
    shapes = piquet_shapes_figure(discards, out_dir)
    if shapes:
        chart["figures"].append(("what the best exchange does, by the hand's longest suit", shapes))
    return chart


def piquet_shapes_figure(discards: list[dict], out_dir: str | None) -> str | None:
    """Draw the by-shape heat map into ``out_dir``/figures from the context's tables (``by_shape``),
    or, for a report saved before it had them, from the per-hand tables in ``out_dir``; its path
    relative to ``out_dir``, or None when neither is there."""
    import os

    import pandas as pd

    from analysis.piquet.discard_shapes import patterns_by_shape, plot_patterns_by_shape, shape_table
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


def ecarte_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
    """The solved game's chart of each variant: its figure (propose or play, accept or refuse, by trumps,
    kings and turn-up)."""
    figs = [(f"{v['name']}: the solved game's chart", v["equilibrium"]["figure"])
            for v in section.get("variants", []) if v.get("equilibrium")]
    return {"caption": "The solved game's chart: elder's proposals and the dealer's refusals by trumps, kings and "
                       "the turn-up", "columns": [], "rows": [], "figures": figs} if figs else None


def bezique_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
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


SECTION_ADVICE = {"piquet": piquet_advice, "ecarte": ecarte_advice}
SECTION_CHART = {"piquet": piquet_chart, "ecarte": ecarte_chart, "bezique": bezique_chart}


def guide(context: dict, out_dir: str | None = None) -> dict:
    """Per game: its advice (section rules first, then the clear tips, at most eight), a chart to act
    on at the table where the sections give one (drawing its figures into ``out_dir``), and its tip rows."""
    out = {}
    for g in context["games"]:
        name = g["name"]
        rows = tip_rows(context["tips"], name)
        section = context["sections"].get(name) or {}
        items = (SECTION_ADVICE[name](section) if name in SECTION_ADVICE else []) + tip_advice(rows, name)
        game_tips = [t for t in context["tips"]["tips"] if t["game"] == name]
        chart = SECTION_CHART[name](section, game_tips, out_dir) if name in SECTION_CHART else None
        out[name] = {"advice": items[:8], "tips": rows, "chart": chart}
    return out

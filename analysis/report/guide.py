"""The strategy guide's reader-facing parts, derived from the report's context at render time:
each game's advice (rules in plain words with their margin, confidence, players and variant), the
tip verdicts in a player's words, the charts to act on, and readable labels. Nothing here runs a
study: the numbers are the context's, so the guide renders again from a saved context
(``build.load_context``); the one figure drawn here (Piquet by hand shape) is drawn from them too."""
from __future__ import annotations

import math

from analysis.report.guide_words import ADVICE_ORDER, READINGS, plain_players

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


def guide(context: dict, out_dir: str | None = None) -> dict:
    """Per game: its advice (section rules first, then the clear tips, at most eight), a chart to act
    on at the table where the sections give one (drawing its figures into ``out_dir``), and its tip rows.
    A game's own advice and chart come from its report module (``guide_advice``, ``guide_chart``)."""
    from analysis.games import GAMES

    out = {}
    for g in context["games"]:
        name = g["name"]
        rows = tip_rows(context["tips"], name)
        section = context["sections"].get(name) or {}
        report = GAMES[name].report.load() if name in GAMES and GAMES[name].report is not None else None
        own_advice = getattr(report, "guide_advice", None)
        items = (own_advice(section) if own_advice else []) + tip_advice(rows, name)
        items = [{**a, "margins": [{**m, "players": plain_players(m["players"])} for m in a["margins"]]}
                 for a in items]  # where a player reads, the players in his words
        game_tips = [t for t in context["tips"]["tips"] if t["game"] == name]
        own_chart = getattr(report, "guide_chart", None)
        chart = own_chart(section, game_tips, out_dir) if own_chart else None
        out[name] = {"advice": items[:8], "tips": rows, "chart": chart}
    return out

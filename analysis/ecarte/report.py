"""Écarté's section of the strategy report: per variant, the simulation against the exact values,
the strategy tables (propose / refuse for every hand), and elder's propose-or-play table by hand
class, with their figures and CSV files (templates ``ecarte.html.j2`` and ``ecarte.md.j2``)."""
from __future__ import annotations

import os
from math import comb

from analysis.report.guide import anchor
from analysis.review import guide_part
from analysis.stats import compare_with_exact

VARIANTS = ("seed-de", "classic")
"""The variants shown side by side."""


def exact_values() -> dict[str, tuple[int, int]]:
    """The classical exact figures (docs/tips.md, docs/rules.md invariants) the simulation is checked against,
    as (numerator, denominator) in the form the books print them."""
    out = {
        "turnup_king": (1, 8),
        "elder_dealt_trump_king": (35, 248),
        "dealer_two_plus_trumps_given_elder_one": (21206, 65780),
    }
    for k in range(6):
        out[f"elder_dealt_{k}_trumps"] = (comb(7, k) * comb(24, 5 - k), comb(31, 5))
    return out


def section(out_dir: str, fig_dir: str, budget: dict, seed: int, threads: int | None, tips: dict) -> dict:
    """The section at the report's ``budget`` (``hands``, ``per_class``, ``strategy_deals_per_hand``,
    ``strategy_rounds``, ``strategy_discard_deals``): the policy, the budget and one entry per variant."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.simulate import propose_table, propose_table_figure, simulate_hands

    policy = HeuristicPolicy()
    variants = []
    for name in VARIANTS:
        rules = get_rules(name)
        sim = simulate_hands(budget["hands"], seed, rules, policy, threads=threads)
        table = propose_table(budget["per_class"], seed, rules, policy, threads=threads)
        stem = os.path.join(fig_dir, f"ecarte_propose_{name}")
        propose_table_figure(table, stem)
        table.to_csv(os.path.join(out_dir, f"ecarte_propose_table_{name}.csv"), index=False)
        strategy = (strategy_section(out_dir, fig_dir, rules, policy, budget["strategy_deals_per_hand"],
                                     budget["strategy_rounds"], budget["strategy_discard_deals"], seed, threads)
                    if budget["strategy_deals_per_hand"] else None)  # 0: not run at this budget
        from analysis.ecarte.studies.equilibrium import report as equilibrium_report

        variants.append({
            "equilibrium": equilibrium_report.section(out_dir, fig_dir, rules),
            "strategy": strategy,
            "name": name, "switches": rules.switches(), "sim": sim,
            "exact": compare_with_exact(sim["stats"], exact_values()),
            "table": table.to_dict(orient="records"), "caption": table.attrs["caption"],
            "figure": os.path.relpath(stem + ".png", out_dir),
        })
    out = {"policy": policy.describe(), "hands": budget["hands"], "per_class": budget["per_class"],
           "variants": variants}
    out.update(PARTS["review"](out_dir, fig_dir, budget, seed, threads, tips, out))
    return out


def _equilibrium_part(out_dir, fig_dir, budget, seed, threads, tips, section) -> dict:
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import report as equilibrium_report

    return {"variants": [{**v, "equilibrium": equilibrium_report.section(out_dir, fig_dir, get_rules(v["name"]))}
                         for v in section["variants"]]}


PARTS = {"equilibrium": _equilibrium_part, "review": guide_part("ecarte")}
"""Parts that ``salon report --from-saved --refresh ecarte.PART`` computes again into a saved report
(``part(out_dir, fig_dir, budget, seed, threads, tips, section)`` returns the section's entries it
replaces): ``equilibrium``, each variant's view of the shipped equilibrium tables."""


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


def strategy_section(out_dir: str, fig_dir: str, rules, policy, deals: int, rounds: int, discard_deals: int,
                     seed: int, threads: int | None) -> dict:
    """The strategy tables of one variant at the budget: best-response rounds, exploitability, how
    often each side proposes / refuses (tables against the heuristic), the frontier by trump count,
    the game from 0-0 by the points tables and by score, the scores where decisions change most,
    and the two figures. Writes the small tables (by trumps, by score, rounds) beside the report;
    the full per-hand tables come from ``salon study ecarte strategy``."""
    import json

    import pandas as pd

    from analysis.ecarte.studies.strategy import tables as S

    res = S.compute(deals, seed, rules, policy, max_rounds=rounds, discard_deals=discard_deals, threads=threads)
    score_df, _ = S.by_score(res)
    stem = os.path.join(fig_dir, f"ecarte_strategy_{rules.name}")
    figs = S.figures(res, score_df, stem)
    summary = S.summary(res, score_df)
    e, d = res.elder, res.dealer
    frontier = _frontier(e, d)
    base = os.path.join(out_dir, f"ecarte_strategy_{rules.name}")
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


# ------------------------------------------------------------------- the guide's advice and chart
WORTH_LEARNING = 1.5
"""The shortest rule worth learning is the shortest rung of the ladder that gives up at most this
many times what the ladder's best rung gives up."""
DECISION_WORDS = {"elder": "As elder", "dealer": "As dealer, when elder proposes"}


def _lines(n: int) -> str:
    return f"{n} line" + ("s" if n > 1 else "")


def guide_advice(section: dict) -> list[dict]:
    """Écarté's first decisions as rules a player can carry (the shipped ladders, docs/playing-rules.md):
    per variant in the section and decision, the shortest rule worth learning, then what it gives
    up against perfect play, what an opponent who knew it would gain more, and what the next rung
    up and the best book rule give up."""
    from analysis.ecarte.studies.rule_ladder import rule_words, shipped_ladders

    ladders = {(lad["rules"], lad["decision"]): lad for lad in (shipped_ladders() or {"ladders": []})["ladders"]}
    out = []
    for v in section.get("variants", []):
        eq = v.get("equilibrium")
        if not eq:
            continue
        players = "against perfect play: the other side plays the solved game"
        for side in ("elder", "dealer"):
            lad = ladders.get((v["name"], side))
            if lad is None:
                continue
            rungs = lad["rungs"]
            best = min(r["cost"]["value"] for r in rungs)
            k = next(i for i, r in enumerate(rungs) if r["cost"]["value"] <= WORTH_LEARNING * best)
            shown = rungs[k:k + 2]
            margins = [{"variant": v["name"], "effect": r["cost"],
                        "effect_name": (f"points per hand given up with this rule ({_lines(r['lines'])})" if i == 0
                                        else f"with {_lines(r['lines'])} ({rule_words(r['rule'])})"),
                        "players": players}
                       for i, r in enumerate(shown)]
            if "exploitability" in shown[0]:
                margins.insert(1, {"variant": v["name"], "effect": shown[0]["exploitability"],
                                   "effect_name": "what an opponent who knew this rule would gain more by answering it "
                                                  "(at least)", "players": players})
            book = min((b for b in lad["book"] if "speaks_on" not in b), key=lambda b: b["cost"]["value"])
            margins.append({"variant": v["name"], "effect": book["cost"],
                            "effect_name": f"the book's rule ({book['source'].split(':')[0]})", "players": players})
            text = f"{DECISION_WORDS[side]} under {v['name']} rules: {rule_words(shown[0]['rule'])}."
            out.append({"text": text, "short": text, "tip": None, "anchor": anchor("ecarte", v["name"], "equilibrium"),
                        "margins": margins})
    discards = [(v["name"], ladders[(v["name"], "discard")]) for v in section.get("variants", [])
                if v.get("equilibrium") and (v["name"], "discard") in ladders]
    if discards:
        out.append(discard_advice(discards))
    return out


def _kept(rule: str) -> str:
    """A discard rule's kept classes in words ('trumps and plain kings')."""
    from analysis.ecarte.studies.discard_rules import CLASS_WORDS

    kept = rule.removeprefix("keep ")
    return "nothing" if kept == "nothing" else " and ".join(CLASS_WORDS[c] for c in kept.split(", "))


def discard_advice(ladders: list[tuple[str, dict]]) -> dict:
    """The discard ladders' best rules (studies/discard_rules.py) as one piece of advice: per
    variant, the rung that gave up least on the deals that chose it, and what keeping one class
    fewer and the book's rule give up against it on the others."""
    players = "against salon's player inside the solved tables, who discards this way; both seats, the same deals"
    said, margins = [], []
    for variant, lad in ladders:
        rungs = lad["rungs"]
        k = min(range(len(rungs)), key=lambda i: (rungs[i]["fit_cost"], i))  # chosen on the choosing deals
        best = rungs[k]
        same = [b["source"].split(":")[0] for b in lad["book"] if b["rule"] == best["rule"]]
        said.append(f"your {_kept(best['rule'])} under {variant} rules" + (f" (the {same[0]}'s rule)" if same else ""))
        margins += [{"variant": variant, "effect": r["cost"], "players": players,
                     "effect_name": f"points per hand given up keeping {_kept(r['rule'])} only"}
                    for r in rungs[k - 1:k] if r["rule"] != "keep nothing"]
        margins += [{"variant": variant, "effect": b["cost"], "players": players,
                     "effect_name": f"the book's rule ({b['source'].split(':')[0]}: keep {_kept(b['rule'])})"}
                    for b in lad["book"] if b["rule"] != best["rule"]]
    text = f"Discarding, keep {', '.join(said)}; throw the rest."
    return {"text": text, "short": text, "tip": None, "anchor": anchor("ecarte", ladders[0][0], "equilibrium"),
            "margins": margins}


def guide_chart(section: dict, tips: list[dict], out_dir: str | None) -> dict | None:
    """The solved game's chart of each variant: its figure (propose or play, accept or refuse, by trumps,
    kings and turn-up)."""
    figs = [(f"{v['name']}: the solved game's chart", v["equilibrium"]["figure"])
            for v in section.get("variants", []) if v.get("equilibrium")]
    return {"caption": "The solved game's chart: elder's proposals and the dealer's refusals by trumps, kings and "
                       "the turn-up", "columns": [], "rows": [], "figures": figs} if figs else None

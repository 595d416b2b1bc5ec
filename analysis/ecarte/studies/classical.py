"""The classical Écarté rules (docs/classical.md: the Britannica's elder and dealer rules)
compared hand by hand with the solved tables (analysis/ecarte/studies/equilibrium/study.py, the shipped copy):
where they agree, where they differ, and what following the rule costs (``salon study ecarte
classical``).

The rules, as coded:
- elder (Britannica, last item): play without proposing when trumps and kings together make three
  or more (only two cards can be thrown without throwing a king or a trump); otherwise propose;
- the dealer (Britannica): refuse with three trumps or more, or when guarded in three plain suits,
  in two and holding a trump, or in one and holding two trumps; a plain suit is guarded by its
  king, or by its queen with another card of the suit ("a queen counts as a guard").
Foster's jeu de règle (play it, or propose holding the trump king) is compared on the hands where it
speaks, by analysis/ecarte/studies/foster.py (the "foster" entry). The Britannica's rules
depend on the hand only, so each information set (hand class and turn-up bucket) has one
decision. What a rule costs is measured on the tables' held-out deals, against the other side's
solution: sum over sets of weight x (solution's probability - rule's decision) x held-out value,
with its 95% interval; its choice never saw those deals.
"""
from __future__ import annotations

import numpy as np

KING, QUEEN = 7, 6


def _lanes(mask: int) -> list[int]:
    return [(mask >> (8 * s)) & 0xFF for s in range(4)]


def trumps_and_kings(mask: int) -> int:
    """Trumps held plus plain kings held (trumps are lane 0)."""
    lanes = _lanes(mask)
    return bin(lanes[0]).count("1") + sum((lane >> KING) & 1 for lane in lanes[1:])


def guarded_suits(mask: int) -> int:
    """Plain suits guarded by their king, or by their queen with another card of the suit."""
    out = 0
    for lane in _lanes(mask)[1:]:
        if (lane >> KING) & 1 or ((lane >> QUEEN) & 1 and bin(lane).count("1") >= 2):
            out += 1
    return out


def elder_plays(mask: int) -> bool:
    """Britannica: play without proposing with three or more kings and trumps."""
    return trumps_and_kings(mask) >= 3


def dealer_refuses(mask: int) -> bool:
    """Britannica: refuse with 3+ trumps, or guarded in 3 plain suits, in 2 with a trump, or in 1 with two."""
    t = bin(mask & 0xFF).count("1")
    g = guarded_suits(mask)
    return t >= 3 or g >= 3 or (g >= 2 and t >= 1) or (g >= 1 and t >= 2)


def compare(rules, policy=None) -> dict:
    """Per side, the rule against the shipped tables of these rules: agreement (by weight: dealt
    hands for elder, hands meeting a proposal for the dealer), the rule's cost with its 95%
    interval, and the patterns (trumps, kings, guarded suits) where they differ most."""
    import pandas as pd

    from analysis.ecarte.studies.foster import compare_foster
    from analysis.ecarte.studies.playing_rules import choice_cost, set_table

    out = {"sides": {}}
    for side, rule, yes in (("elder", lambda m: not elder_plays(m), "propose"), ("dealer", dealer_refuses, "refuse")):
        t = set_table(side, rules, policy)
        if not out["sides"]:
            s = t.summary
            out = {"rules": rules.name, "tables": s["method"], "budget": s["budget"], "play_policy": s["play_policy"],
                   "sides": {}}
        m = t.masks
        decision = np.array([1.0 if rule(int(x)) else 0.0 for x in m])
        measured = choice_cost(t, decision)
        w = t.meet / t.meet.sum()
        tk = np.array([trumps_and_kings(int(x)) - bin(int(x) & 0xFF).count("1") for x in m])
        frame = pd.DataFrame({"trumps": [bin(int(x) & 0xFF).count("1") for x in m], "plain_kings": tk,
                              "guarded_suits": [guarded_suits(int(x)) for x in m], "weight": w,
                              "rule": decision, "solution": t.probability,
                              "loss": t.weight * (t.probability - decision) * t.held})
        by = (frame.assign(differs=frame["weight"] * np.abs(frame["solution"] - frame["rule"]))
              .groupby(["trumps", "plain_kings", "guarded_suits"])
              .agg(weight=("weight", "sum"), differs=("differs", "sum"), rule=("rule", "mean"),
                   solution=("solution", "mean"), loss=("loss", "sum")).reset_index())
        by = by[by["differs"] > 0].sort_values("loss", ascending=False)
        out["sides"][side] = {
            "rule": CLASSICAL_WORDS[side], "agreement": measured["agreement"]["by_hands"],
            "cost": {**measured["cost"],
                     "unit": "points per dealt hand lost by following the rule instead of the solution"},
            "rule_yes_share": measured["share"]["rule"], "solution_yes_share": measured["share"]["solution"],
            "yes": yes, "patterns": by.head(8).to_dict(orient="records")}
    out["foster"] = compare_foster(rules, policy)  # Foster's jeu de règle, on the hands where it speaks
    return out


CLASSICAL_WORDS = {
    "elder": "Britannica: play without proposing with three or more trumps and kings; otherwise propose",
    "dealer": "Britannica: refuse with three trumps, or guarded in three plain suits, in two with a trump, "
              "or in one with two trumps (a king, or a queen with another card, guards a suit)"}


def text(res: dict) -> str:
    """The comparison in lines."""
    lines = [f"Classical rules against the solved tables · rules {res['rules']} · {res['budget']} budget · play: "
             f"{res['play_policy']}"]
    for side, r in res["sides"].items():
        c = r["cost"]
        lines.append(f"  {side}: {r['rule']}")
        lines.append(f"    agrees on {r['agreement']:.1%} of hands (weighted); {r['yes']}s with "
                     f"{r['rule_yes_share']:.1%} (solution {r['solution_yes_share']:.1%}); costs "
                     f"{c['value']:+.4f} [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] points per dealt hand")
        for p in r["patterns"][:4]:
            lines.append(f"    differs most at {p['trumps']} trumps, {p['plain_kings']} plain kings, "
                         f"{p['guarded_suits']} guarded suits: rule {p['rule']:.0%} {r['yes']}, solution "
                         f"{p['solution']:.0%} (weight {p['weight']:.1%}, loss {p['loss']:+.4f})")
    if "foster" in res:
        from analysis.ecarte.studies.foster import foster_lines

        lines += foster_lines(res["foster"])
    return "\n".join(lines)

"""The rulebook tips of TIPS.md: each tip -> study -> verdict, or plainly 'not yet studied'."""
from __future__ import annotations

from analysis import __version__
from analysis.tips_registry import TIPS
from analysis.verdicts import Verdict

BUDGETS = {"quick": 300_000, "full": 5_000_000}
"""Deals per study run (each deal is played under both options compared)."""


def evaluate_tips(game: str | None = None, budget: str = "quick", seed: int = 0, deals: int | None = None) -> dict:
    """Every tip of the registry (of ``game``), with its verdicts where a study exists.

    ``deals`` overrides the budget's deals per study (for tests and notebooks)."""
    from analysis.bezique import policies as bezique_policies
    from analysis.bezique import rules as bezique_rules
    from analysis.bezique import tipstudies as bezique_tips
    from analysis.ecarte import policies as ecarte_policies
    from analysis.ecarte import rules as ecarte_rules
    from analysis.ecarte import tipstudies as ecarte_tips
    from analysis.piquet import policies as piquet_policies
    from analysis.piquet import rules as piquet_rules
    from analysis.piquet import tipstudies as piquet_tips

    if budget not in BUDGETS:
        from analysis.errors import InputError

        raise InputError(f"unknown budget {budget!r}; valid: {', '.join(BUDGETS)}")
    n = deals or BUDGETS[budget]
    games = {
        "bezique": (bezique_tips, bezique_rules.get_rules, bezique_policies.TUNED),
        "ecarte": (ecarte_tips, ecarte_rules.get_rules, ecarte_policies.HeuristicPolicy()),
        "piquet": (piquet_tips, piquet_rules.get_rules, piquet_policies.HeuristicPolicy()),
    }
    out = []
    for tip in TIPS:
        if game and tip["game"] != game:
            continue
        entry = dict(tip)
        tips_module, get_rules, policy = games.get(tip["game"], (None, None, None))
        study = tips_module.STUDIES.get(tip["id"]) if tips_module else None
        if study is None:
            entry["status"] = "not yet studied"
            entry["verdicts"] = []
        else:
            entry["status"] = "studied"
            entry["verdicts"] = []
            for v in tips_module.VARIANTS[tip["id"]]:
                got = study(get_rules(v), n, seed, policy)  # a Verdict, or a list of them (per seat or clause)
                entry["verdicts"] += [x.to_dict() for x in (got if isinstance(got, list) else [got])]
        out.append(entry)
    return {"budget": budget, "deals_per_study": n, "seed": seed, "version": __version__, "tips": out}


def tips_text(res: dict) -> str:
    """The verdicts (objects or their JSON form) as text, one tip per paragraph."""
    lines = [f"Tips (budget {res['budget']}: {res['deals_per_study']:,} deals per study, seed {res['seed']})"]
    for t in res["tips"]:
        if not t["verdicts"]:
            lines.append(f"{t['id']:<6} not yet studied — {t['tip']}")
            continue
        lines.append(f"{t['id']:<6} {t['tip']}")
        for v in t["verdicts"]:
            lines.append("       " + (v if isinstance(v, Verdict) else Verdict.from_dict(v)).text())
    return "\n".join(lines)

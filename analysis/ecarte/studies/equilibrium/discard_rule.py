"""Écarté's discard rule fitted on pooled exchanges (the equilibrium study's ``discard_rule``).

Per-class discard tests at a hundred deals cannot see differences of 0.01-0.09 points, so the
discard is one rule for every hand: keep the trumps and the plain cards of rank index
``keep_plain_min_rank`` and above (4 = aces and higher; 7 = kings, the heuristic's; 8 = no plain
card). Each candidate plays both seats against the heuristic (``salon compare``: the same deals,
seat and luck cancelled); the best is chosen on one seed and its gain measured on another.
"""
from __future__ import annotations

from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import ECARTE_RANKS

CANDIDATES = (4, 5, 6, 7, 8)
CHECK_SEED = 1_000_033


def _diff(deals: int, seed: int, rules, keep: int, base: HeuristicPolicy, threads: int | None) -> dict:
    """Points per hand and seat of the rule keeping from ``keep`` minus the base policy, 95%."""
    import dataclasses

    from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS
    from analysis.ecarte.play.compare import compare_tallies
    from analysis.stats import mean_from_sums

    t = compare_tallies(deals, seed, rules, dataclasses.replace(base, keep_plain_min_rank=keep), base,
                        threads=threads)
    e = mean_from_sums(int(t[C_BOTH]), int(t[C_BOTH_SQ]), int(t[C_DEALS]))
    return {"value": e.value / 2, "ci95": [x / 2 for x in e.ci95]}


def play_policy(base: HeuristicPolicy, rule: dict) -> HeuristicPolicy:
    """The policy the equilibrium's records are played with: ``base`` with the fitted rule's
    discards when the rule differs from the base's and its gain is confirmed on other deals (95%)."""
    import dataclasses

    check = rule.get("check_on_other_deals")
    if rule["chosen"] == base.keep_plain_min_rank or not check or check["ci95"][0] <= 0:
        return base
    return dataclasses.replace(base, keep_plain_min_rank=rule["chosen"])


def rank_words(keep: int) -> str:
    return "no plain card" if keep >= 8 else f"plain cards from the {ECARTE_RANKS[keep]} up"


def fit(rules, deals: int, seed: int, base: HeuristicPolicy | None = None, threads: int | None = None) -> dict:
    """Every candidate against the base policy on ``deals`` hands of ``seed``; the best (the base's
    rule unless another is better at 95%) measured again on hands of seed + CHECK_SEED."""
    base = base or HeuristicPolicy()
    table = {k: _diff(deals, seed, rules, k, base, threads) for k in CANDIDATES if k != base.keep_plain_min_rank}
    better = {k: d for k, d in table.items() if d["ci95"][0] > 0}
    chosen = max(better, key=lambda k: better[k]["value"]) if better else base.keep_plain_min_rank
    check = _diff(deals, seed + CHECK_SEED, rules, chosen, base, threads) if better else None
    return {"deals": deals, "seed": seed, "base": base.keep_plain_min_rank, "chosen": chosen,
            "chosen_words": rank_words(chosen),
            "candidates": {rank_words(k): d for k, d in table.items()},
            "check_on_other_deals": check,
            "unit": "points per hand and seat, against the heuristic's discards (keep plain kings)"}

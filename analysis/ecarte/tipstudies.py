"""Écarté tip studies: each turns a tip of TIPS.md into paired simulations and a verdict.

Decision rules are evaluated on cells of hands (hand class × sure winners × holds 10-9-8): a rule
that is a function of the cell has its value and its paired difference to another rule summed
exactly from the cell tallies. Where a rule is fitted (the best decision per cell), it is fitted on
one seed and evaluated on another, so its value is not flattered by the noise it was fitted to.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import EcarteRules
from analysis.ecarte.studies import (
    CLASSES,
    cell_tallies,
    class_label,
    compare_configurations,
    configurations,
    play_or_propose,
)
from analysis.stats import paired_difference, proportion


def _verdict(tip_id: str, variant: str, verdict: str, effect, effect_name: str, reading: str, n: int,
             seed: int, policies: dict, details: dict) -> dict:
    return {"id": tip_id, "variant": variant, "verdict": verdict, "effect_name": effect_name,
            "effect": effect.to_dict(), "sharp_reading": reading, "deals": n, "seed": seed,
            "policies": policies, "details": details}


def _best_per_cell(train: pd.DataFrame, min_n: int = 30) -> pd.Series:
    """Fitted decision per cell: True = propose (diff > 0), falling back to the class's decision."""
    by_class = train.groupby("class")[["diff"]].sum()["diff"] > 0
    cell = train["diff"] > 0
    fallback = train["class"].map(by_class)
    return cell.where(train["n"] >= min_n, fallback)


def _rule_loss(test: pd.DataFrame, best_propose: pd.Series, rule_propose: pd.Series):
    """Mean points per hand the rule loses against the fitted rule, paired; and the agreement rate."""
    n = int(test["n"].sum())
    differ = best_propose != rule_propose
    sign = np.where(best_propose, 1, -1)  # best - rule = b - a where best proposes, else a - b
    s = int((sign * test["diff"])[differ].sum())
    sq = int(test["diff_sq"][differ].sum())
    agree = int(test["n"][~differ].sum())
    return paired_difference(s, sq, n), proportion(agree, n)


def ec_t2(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """EC-T2: propose with fewer than 3 sure winners, play with 3 or more."""
    cfg = play_or_propose(policy)
    train = cell_tallies(n, seed + 1, rules, cfg)
    test = cell_tallies(n, seed, rules, cfg)
    best = _best_per_cell(train)
    tip = test["sure_winners"] < 3
    loss, agreement = _rule_loss(test, best, tip)
    always_propose = pd.Series(True, index=test.index)
    loss_propose, _ = _rule_loss(test, best, always_propose)
    if agreement.value >= 0.9 and loss.hi < 0.05:
        verdict = "supported"
    elif agreement.value < 0.7 or loss.lo > 0.15:
        verdict = "refuted"
    else:
        verdict = "partly"
    # Where the tip and the fitted decision disagree, by sure winners.
    disagree = test[best != tip].groupby("sure_winners")["n"].sum()
    total = test.groupby("sure_winners")["n"].sum()
    reading = ("Sure winners = master trumps (unbroken from the K down, the turn-up counting as seen) plus "
               "non-trump kings. The tip's rule (play iff >= 3) is compared, on the same deals, with the best "
               "decision per cell (hand class x sure winners x 10-9-8) fitted on an independent seed. "
               "Supported if it agrees on >= 90% of hands and loses < 0.05 points/hand (95% upper bound); "
               "refuted if it agrees on < 70% or loses > 0.15 (lower bound); partly otherwise.")
    return _verdict("EC-T2", rules.name, verdict, loss, "points per hand the tip loses to the best decision",
                    reading, n, seed, {"play": policy.describe()},
                    {"agreement": agreement.to_dict(),
                     "always_propose_loss": loss_propose.to_dict(),
                     "share_disagreeing_by_sure_winners": {int(k): float(disagree.get(k, 0) / v)
                                                           for k, v in total.items() if v}})


def ec_t3(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """EC-T3: a hand with 10-9-8 of one suit is almost always lost (played without proposing)."""
    cells = cell_tallies(n, seed, rules, play_or_propose(policy))
    by = cells.groupby(["class", "ten_nine_eight"])[["n", "a_wins"]].sum().unstack(fill_value=0)
    with_n = by[("n", True)]
    with_w = by[("a_wins", True)]
    wo_n = by[("n", False)]
    wo_w = by[("a_wins", False)]
    p_with = proportion(int(with_w.sum()), int(with_n.sum()))
    # Comparable hands: the same classes without 10-9-8, weighted as the 10-9-8 hands are.
    use = (with_n > 0) & (wo_n > 0)
    w = with_n[use] / with_n[use].sum()
    pc = wo_w[use] / wo_n[use]
    p_cmp = float((w * pc).sum())
    se_cmp = float(np.sqrt((w**2 * pc * (1 - pc) / wo_n[use]).sum()))
    se_with = float(np.sqrt(p_with.value * (1 - p_with.value) / p_with.n))
    diff_val = p_with.value - p_cmp
    se = float(np.hypot(se_cmp, se_with))
    from analysis.stats import Estimate

    diff = Estimate(diff_val, diff_val - 1.96 * se, diff_val + 1.96 * se, p_with.n)
    lower = diff.hi < 0
    if lower and p_with.hi < 0.25:
        verdict = "supported"
    elif lower:
        verdict = "partly"
    elif diff.lo > 0:
        verdict = "refuted"
    else:
        verdict = "inconclusive"
    reading = ("Elder plays without proposing. P(point) of hands holding 10-9-8 of one suit, against hands of "
               "the same classes (trumps x trump king x plain kings) without it, weighted like the 10-9-8 "
               "hands. 'Almost always lost' read as P(point) < 0.25 (95% upper bound): supported if below "
               "that and below the comparable hands; partly if only below the comparable hands.")
    return _verdict("EC-T3", rules.name, verdict, diff, "P(point) with 10-9-8 minus comparable hands", reading,
                    n, seed, {"both": policy.describe()},
                    {"p_point_with_10_9_8": p_with.to_dict(), "p_point_comparable": p_cmp,
                     "hands_with_10_9_8": int(with_n.sum())})


def ec_t4(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """EC-T4: lead high trumps early (elder's lead rule, the dealer unchanged)."""
    import dataclasses

    off = dataclasses.replace(policy, lead_trumps=False)
    on = dataclasses.replace(policy, lead_trumps=True)
    est = compare_configurations(n, seed, rules, configurations((off.to_array(), policy.to_array()),
                                                                (on.to_array(), policy.to_array())))
    d = est["difference"]
    verdict = "supported" if d.lo > 0 else "refuted" if d.hi < 0 else "inconclusive"
    reading = ("Elder's leads: with two or more trumps, lead the highest trump first (lead_trumps) against "
               "leading kings / the longest suit first; same deals, the dealer's policy unchanged. Effect: "
               "elder's net points per hand with the tip minus without.")
    return _verdict("EC-T4", rules.name, verdict, d, "elder net points per hand, leading trumps minus not",
                    reading, n, seed, {"with": on.describe(), "without": off.describe()},
                    {"with_tip": est["b"].to_dict(), "without_tip": est["a"].to_dict()})


def ec_t6(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """EC-T6: as dealer accept generously when weak, refuse only when very strong."""
    cfg = configurations((policy.to_array(), policy.to_array(force_response=0)),
                         (policy.to_array(), policy.to_array(force_response=1)))
    train = cell_tallies(n, seed + 1, rules, cfg, by_dealer=True)
    test = cell_tallies(n, seed, rules, cfg, by_dealer=True)
    tr = train.groupby("class")[["n", "diff"]].sum()
    te = test.groupby("class")[["n", "diff", "diff_sq", "a_net", "a_net_sq"]].sum()
    refuse_best = tr["diff"] < 0  # elder's net is lower when the dealer refuses
    proposals = int(te["n"].sum())
    share = proportion(int(te["n"][refuse_best].sum()), proposals)
    gain = paired_difference(-int(te["diff"][refuse_best].sum()), int(te["diff_sq"][refuse_best].sum()), proposals)
    refusing = [class_label(c) for c in tr.index[refuse_best]]
    min_trumps = min((CLASSES[c][0] for c in tr.index[refuse_best]), default=None)
    if share.hi <= 0.30:
        verdict = "supported"
    elif share.lo > 0.5:
        verdict = "refuted"
    else:
        verdict = "partly"
    reading = ("After elder (heuristic policy) proposes, the dealer's accept and refuse are played on the same "
               "deals; the best answer per dealer hand class is fitted on an independent seed. Supported if "
               "refusing is best for at most 30% of proposals (95% upper bound: 'refuse only when very "
               "strong'); refuted if for more than half; partly otherwise.")
    return _verdict("EC-T6", rules.name, verdict, share, "share of proposals the dealer should refuse", reading,
                    proposals, seed, {"both": policy.describe()},
                    {"refuse_in_classes": refusing, "fewest_trumps_among_refusals": min_trumps,
                     "dealer_gain_of_best_answer_over_always_accept": gain.to_dict()})


def ec_t8(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """EC-T8: playing without proposing and a refused proposal carry the same risk for elder."""
    est = compare_configurations(n, seed, rules, configurations(
        (policy.to_array(force_first=0), policy.to_array()),                      # plays without proposing
        (policy.to_array(force_first=1), policy.to_array(force_response=1))))     # proposes, is refused
    d = est["difference"]
    same = d.lo <= 0 <= d.hi and d.halfwidth < 0.01
    verdict = "supported" if same else "refuted"
    reading = ("The same hands played out both ways: elder plays without proposing, or proposes and the dealer "
               "refuses (both keep the dealt hands). Effect: elder's net points per hand after a refusal minus "
               "after playing without proposing; supported when it is zero within +-0.01.")
    return _verdict("EC-T8", rules.name, verdict, d, "elder net points: refused proposal minus playing", reading,
                    n, seed, {"both": policy.describe()},
                    {"played_without_proposing": est["a"].to_dict(), "refused_proposal": est["b"].to_dict()})


STUDIES = {"EC-T2": ec_t2, "EC-T3": ec_t3, "EC-T4": ec_t4, "EC-T6": ec_t6, "EC-T8": ec_t8}
"""Tips with a study, and the variants each is run under."""
VARIANTS = {"EC-T2": ("seed-de", "classic"), "EC-T3": ("seed-de",), "EC-T4": ("seed-de",),
            "EC-T6": ("seed-de", "classic"), "EC-T8": ("seed-de", "classic")}

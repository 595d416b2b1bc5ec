"""EC-T2, EC-T6 and EC-T1's propose and accept points judged against the shipped equilibrium tables
(analysis/ecarte/studies/equilibrium/study.py): used by studies/tips when tables are shipped for the rules and the policy, instead of fitting
best-response tables at the tips' budget. All read the tables' held-out values, so the
decisions judged never saw the deals that judge them."""
from __future__ import annotations

import numpy as np

from analysis.stats import Estimate
from analysis.verdicts import Verdict


def players_words(summary: dict) -> str:
    """Who played the shipped tables, in words: the solver and the play after the first decisions."""
    return (f"the shipped equilibrium tables ({summary['method'].split()[0]}); play after the first decisions: "
            f"{summary['play_policy']}")


def _players(summary: dict, policy) -> dict:
    return {"first_decisions": {"kind": "equilibrium tables", "budget": summary["budget"],
                                "method": summary["method"]},
            "exchanges_and_play": summary.get("policy", policy.describe())}


def tip_propose_share(mask: int, bucket: int) -> float:
    """The share of the bucket's turn-ups with which EC-T2's rule proposes (fewer than 3 sure
    winners; the turn-up can complete a run of master trumps only in the 'below' bucket)."""
    from analysis.ecarte.engine import buckets as TB
    from analysis.ecarte.play.paired import sure_winners

    ups = TB.bucket_turnups(mask, bucket)
    ranks = [r for r in range(8) if ups >> r & 1]
    return float(np.mean([sure_winners(mask, r) < 3 for r in ranks]))


def ec_t2_choices(masks: np.ndarray, buckets: np.ndarray) -> np.ndarray:
    """EC-T2's probability of proposing on each information set (its hand and turn-up bucket)."""
    return np.array([tip_propose_share(int(m), int(b)) for m, b in zip(masks, buckets, strict=True)])


def ec_t2_verdict(agreement: float, loss: Estimate) -> str:
    """EC-T2's reading: supported if the tip agrees on >= 90% of hands and loses < 0.05 points per
    hand (upper bound); refuted if it agrees on < 70% or loses > 0.15 (lower bound); inconclusive
    when it beats the tables it is judged against (too few deals to fit them); partly otherwise."""
    if loss.hi < 0:
        return "inconclusive"
    if agreement >= 0.9 and loss.hi < 0.05:
        return "supported"
    if agreement < 0.7 or loss.lo > 0.15:
        return "refuted"
    return "partly"


def ec_t2(rules, policy) -> Verdict | None:
    """EC-T2 (propose with fewer than 3 sure winners) against the solution: agreement by weight and
    what the tip loses per dealt hand on the held-out deals."""
    from analysis.ecarte.studies.playing_rules import choice_cost, set_table
    from analysis.errors import InputError

    try:
        t = set_table("elder", rules, policy)
    except InputError:  # no shipped tables for these rules and policy
        return None
    summary = t.summary
    idx = t.info_set
    tip = ec_t2_choices(t.masks, t.buckets)
    measured = choice_cost(t, tip)
    loss, (lo, hi) = measured["cost"]["value"], measured["cost"]["ci95"]
    est = Estimate(loss, lo, hi, int(summary["deals"]["held_out"]))
    agreement = measured["agreement"]["by_hands"]
    w, p = t.weight, t.probability
    verdict = ec_t2_verdict(agreement, est)
    reading = ("Sure winners = master trumps (unbroken from the K down, the turn-up counting as seen) plus non-trump "
               "kings. The tip's rule (propose iff < 3) is compared with the equilibrium of the first proposal on "
               f"every elder information set (hand class and turn-up bucket; {len(idx):,}), the dealer answering by "
               "his equilibrium table; what the tip loses is weight x (solution's probability of proposing - the "
               "tip's) x the held-out value of proposing, summed. Supported if it agrees on >= 90% of hands and "
               "loses < 0.05 points/hand (95% upper bound); refuted if it agrees on < 70% or loses > 0.15 (lower "
               "bound); partly otherwise.")
    return Verdict("EC-T2", rules.name, verdict, est, "points per hand the tip loses to the equilibrium", reading,
                   int(summary["deals"]["held_out"]), int(summary["seed"]), _players(summary, policy),
                   {"agreement": agreement, "solution_proposes_share": float((w * p).sum()),
                    "tip_proposes_share": float((w * tip).sum()), "tables": players_words(summary)})


def ec_t5(rules, policy) -> Verdict | None:
    """EC-T5 (always announce the trump king) from the equilibrium at every score: the smallest
    chance of winning that announcing adds, per announcing hand, over the scores and both sides
    (held-out deals). None without shipped tables that carry it."""
    from analysis.ecarte.studies.equilibrium import tables as T

    got = T.shipped(rules, policy)
    king = (got[1].get("by_score") or {}).get("king") if got is not None else None
    if not king:
        return None
    summary = got[1]
    rows = summary["by_score"]["scores"]
    side = min(("elder", "dealer"), key=lambda s: king[s]["smallest"])
    worst = king[side]
    lows = [king[s]["ci95"][0] for s in ("elder", "dealer")]
    highs = [king[s]["ci95"][1] for s in ("elder", "dealer")]
    verdict = "supported" if min(lows) > 0 else "refuted" if min(highs) < 0 else "inconclusive"
    est = Estimate(worst["smallest"], *worst["ci95"], int(summary["deals"]["held_out"]))
    reading = ("At every score of the game to the target, under that score's equilibrium of the first proposal "
               "(CFR+ on the chance of winning the game) and on its held-out deals: the announcing side's chance "
               "of winning with the king point scored against withheld, per hand where it announces. The players "
               f"inside the records do not read an announcement ({summary['play_policy']}), so withholding can only "
               "lose the point. The effect is the smallest over the scores and both sides. Supported if every "
               "side's smallest lies above zero (95%), refuted if one lies below, inconclusive otherwise.")
    details = {f"{r['elder_score']}-{r['dealer_score']}": {
        s: {"value": r[f"king_value_{s}"], "ci95": r[f"king_value_{s}_ci95"]} for s in ("elder", "dealer")}
        for r in rows}
    return Verdict("EC-T5", rules.name, verdict, est, "smallest gain in P(win game) from announcing, by score",
                   reading, int(summary["deals"]["held_out"]), int(summary["seed"]), _players(summary, policy),
                   {"gain_by_score": details, "worst_score": worst["at"], "worst_side": side,
                    "tables": players_words(summary)})


def ec_t6(rules, policy) -> Verdict | None:
    """EC-T6 (the dealer refuses only when very strong): the share of proposals the equilibrium
    refuses, bracketed by the information sets whose answer is clear (FDR 5%) on held-out deals."""
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands

    got = T.shipped(rules, policy)
    if got is None:
        return None
    df, summary = got
    t = df[df["side"] == "dealer"]
    sets = info_sets()
    idx = t["info_set"].to_numpy()
    w = sets.weight[idx] * t["p_proposal"].to_numpy()
    w = w / w.sum()  # the dealer's hands as they meet a proposal
    y = t["probability"].to_numpy()
    clear = t["clear"].to_numpy()
    share = float((w * y).sum())
    clear_refuse = clear & (y >= 0.5)
    clear_accept = clear & (y < 0.5)
    est = Estimate(share, min(share, float(w[clear_refuse].sum())), max(share, 1 - float(w[clear_accept].sum())),
                   int(summary["deals"]["held_out"]))
    if est.hi <= 0.30:
        verdict = "supported"
    elif est.lo > 0.5:
        verdict = "refuted"
    else:
        verdict = "partly"
    trumps = np.array([bin(int(m) & 0xFF).count("1") for m in hands().masks[sets.cls[idx]]])
    by_trumps = {int(k): float((w * y)[trumps == k].sum() / max(w[trumps == k].sum(), 1e-300))
                 for k in range(6) if w[trumps == k].sum() > 0}
    reading = ("The dealer's answer to elder's first proposal in the equilibrium of the first proposal, for every "
               "dealer information set (hand class and turn-up bucket), weighted by how often each meets a proposal. "
               "The share is bracketed by the sets whose answer is clear on held-out deals (Benjamini–Hochberg, "
               "FDR 5%). Supported if at most 30% ('refuse only when very strong'); refuted if more than half; "
               "partly otherwise.")
    return Verdict("EC-T6", rules.name, verdict, est, "share of proposals the dealer should refuse", reading,
                   int(summary["deals"]["held_out"]), int(summary["seed"]), _players(summary, policy),
                   {"refuse_share_by_dealer_trumps": by_trumps, "tables": players_words(summary)})


def proposal_losses(rules, policy) -> dict | None:
    """EC-T1's propose and accept points from the shipped tables: for each side, the solution,
    always yes (propose / refuse) and always no (play / accept), each pair's difference in the
    deciding side's points per dealt hand on the held-out deals, against the other side's
    solution. None when no tables are shipped for these rules and policy."""
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    got = T.shipped(rules, policy)
    if got is None:
        return None
    df, summary = got
    sets = info_sets()
    n = int(summary["deals"]["held_out"])
    out = {"summary": summary}
    for side, yes, no in (("elder", "propose", "play"), ("dealer", "refuse", "accept")):
        t = df[df["side"] == side]
        w = sets.weight[t["info_set"].to_numpy()]
        p = t["probability"].to_numpy()
        q = t["held_out"].to_numpy()
        se = t["held_out_half_width"].to_numpy() / 1.96

        out[side] = {f"table vs always {no}": _weighted_sum(w * p, q, se, n),
                     f"table vs always {yes}": _weighted_sum(w * (p - 1.0), q, se, n),
                     f"always {yes} vs always {no}": _weighted_sum(w, q, se, n)}
    return out


def _weighted_sum(c: np.ndarray, q: np.ndarray, se: np.ndarray, n: int) -> Estimate:
    """Σ c·q over independent sets with standard errors ``se``, with its normal 95% interval."""
    v = float((c * q).sum())
    h = 1.96 * float(np.sqrt((c ** 2 * se ** 2).sum()))
    return Estimate(v, v - h, v + h, n)

"""Écarté tip studies: each turns a tip of docs/tips.md into paired simulations and a verdict.

EC-T1's propose and accept points, EC-T2 and EC-T6 are judged against the shipped equilibrium tables
when they exist for the rules and policy (studies/equilibrium/tips.py), and EC-T5 by their king's value at
every score when they carry it. Otherwise the propose / refuse tips and EC-T5 are judged against
the strategy tables (analysis/ecarte/studies/strategy/tables.py): the best decision for every hand up to suit symmetry, fitted on one
seed and evaluated on another, so its value is not flattered by the noise it was fitted to. EC-T1
sets the proposal decision's loss beside those of the other decision points (accept by the dealer's
table; discard, lead and king by the heuristic's options, played on the same deals). EC-T3
uses cells of hands (hand class × sure winners × holds 10-9-8) whose tallies are summed exactly.
"""
from __future__ import annotations

import functools

import numpy as np

from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import EcarteRules
from analysis.ecarte.studies.equilibrium import tips as equilibrium_tips
from analysis.ecarte.studies.simulate import (
    cell_tallies,
    compare_configurations,
    configurations,
    play_or_propose,
)
from analysis.stats import Estimate, proportion
from analysis.verdicts import Verdict


@functools.lru_cache(maxsize=4)
def _tables(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy):
    """Strategy tables fitted on seed + 1 (best responses, two rounds) and, on seed, elder's and
    the dealer's decisions evaluated afresh against the other's fitted table, so the fitted
    decisions are not flattered by the noise they were fitted to. ``n`` deals in all per
    evaluation: n / 38,304 per hand class (at least 2)."""
    from analysis.ecarte.studies.strategy import tables as S

    deals = max(2, n // len(S.hands().masks))
    fit = S.compute(deals, seed + 1, rules, policy, max_rounds=2)
    h = S.hands()
    elder_table = (fit.elder["decision"] == "propose").to_numpy(np.int8)
    dealer_table = (fit.dealer["decision"] == "refuse").to_numpy(np.int8)
    e_rows = S.evaluate_elder(h.expand(dealer_table), deals, seed, rules, policy)
    d_rows = S.evaluate_dealer(h.expand(elder_table), deals, seed, rules, policy)
    return fit, elder_table, dealer_table, e_rows, d_rows, deals


def _weighted_mean(w: np.ndarray, s: np.ndarray, q: np.ndarray, n: np.ndarray) -> Estimate:
    """Σ w_h · mean_h over hand classes from per-class sums s and squares q of n deals each, with
    a normal 95% interval (classes are independent)."""
    n = np.maximum(n, 1).astype(np.float64)
    m = s / n
    var = np.maximum(q / n - m * m, 0) / np.maximum(n - 1, 1)
    v = float((w * m).sum())
    se = float(np.sqrt((w * w * var).sum()))
    return Estimate(v, v - 1.96 * se, v + 1.96 * se, int(n.sum()))


def _always_losses(w: np.ndarray, best_b: np.ndarray, diff: np.ndarray, diff_sq: np.ndarray,
                   cnt: np.ndarray) -> tuple[Estimate, Estimate]:
    """Points per hand that always taking b and always taking a lose to a table taking b where
    ``best_b``, from per-class sums of the paired difference b - a (in the deciding side's
    points), its squares and the deals: (always b's loss, always a's loss)."""
    always_b = _weighted_mean(w, np.where(best_b, 0, -diff), np.where(best_b, 0, diff_sq), cnt)
    always_a = _weighted_mean(w, np.where(best_b, diff, 0), np.where(best_b, diff_sq, 0), cnt)
    return always_b, always_a


def _abs(d: Estimate) -> Estimate:
    """|d| with the interval of |d| implied by d's: [lo, hi] mirrored, or [0, max] across 0."""
    if d.lo >= 0:
        return d
    if d.hi <= 0:
        return Estimate(-d.value, -d.hi, -d.lo, d.n)
    return Estimate(abs(d.value), 0.0, max(-d.lo, d.hi), d.n)


def _scaled(e: Estimate, k: float) -> Estimate:
    lo, hi = sorted((e.lo * k, e.hi * k))
    return Estimate(e.value * k, lo, hi, e.n)


def _worst_against_best(pairs: dict[str, Estimate]) -> tuple[Estimate, str]:
    """The loss of the worst option against the best, from the paired differences between every
    two options (``"x vs y"``: the difference's absolute value): the largest |difference|, with
    the interval [largest lower end, largest upper end] (it holds the largest true |difference|
    whenever every pair's interval holds its own). Returns it and the pair it comes from."""
    absd = {k: _abs(v) for k, v in pairs.items()}
    top = max(absd, key=lambda k: absd[k].value)
    lo = max(e.lo for e in absd.values())
    hi = max(e.hi for e in absd.values())
    return Estimate(absd[top].value, lo, hi, absd[top].n), top


def _policy_options(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy, options: dict) -> dict:
    """Every two heuristic options, for elder's policy and (separately) the dealer's, played on the
    same deals with the other side's policy unchanged: per side, the paired differences in the
    deciding side's net points per hand (second option minus first) and the worst-against-best loss."""
    import dataclasses
    import itertools

    out = {}
    for side in ("elder", "dealer"):
        pairs = {}
        for (na, ka), (nb, kb) in itertools.combinations(options.items(), 2):
            pa, pb = dataclasses.replace(policy, **ka), dataclasses.replace(policy, **kb)
            if side == "elder":
                cfg = configurations((pa.to_array(), policy.to_array()), (pb.to_array(), policy.to_array()))
            else:
                cfg = configurations((policy.to_array(), pa.to_array()), (policy.to_array(), pb.to_array()))
            d = compare_configurations(n, seed, rules, cfg)["difference"]
            pairs[f"{nb} vs {na}"] = d if side == "elder" else _scaled(d, -1.0)
        loss, top = _worst_against_best(pairs)
        out[side] = {"loss": loss, "pair": top, "pairs": pairs}
    return out


def _best_response_points(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy, points: dict) -> int:
    """EC-T1's propose and accept points from best-response tables fitted at the tips' budget
    (when no equilibrium tables are shipped): fills ``points``, returns the deals per hand class."""
    from analysis.ecarte.studies.strategy import kernel as TK
    from analysis.ecarte.studies.strategy.tables import hands

    _, elder_table, dealer_table, e_rows, d_rows, deals = _tables(rules, n, seed, policy)
    h = hands()
    w = h.weights()
    # Propose: elder's fitted table, always play, always propose (ec_t2's losses), on the same deals.
    best = elder_table == 1
    cnt, diff, diff_sq = e_rows[:, TK.R_N], e_rows[:, TK.R_DIFF], e_rows[:, TK.R_DIFF_SQ]
    always_propose, always_play = _always_losses(w, best, diff, diff_sq, cnt)
    pairs = {"table vs always play": always_play, "table vs always propose": always_propose,
             "always propose vs always play": _weighted_mean(w, diff, diff_sq, cnt)}
    loss, top = _worst_against_best(pairs)
    points["propose"] = {"side": "elder", "loss": loss, "pair": top, "pairs": pairs}
    # Accept: the dealer's fitted table, always accept, always refuse, over the proposals elder
    # makes by his table; per hand = per proposal times the share of hands elder proposes with.
    p_propose = float(w[best].sum())
    wd = w * d_rows[:, TK.R_N] / np.maximum(d_rows[:, TK.R_TRIES], 1)
    wd = wd / wd.sum()
    refuse = dealer_table == 1
    cnt, gain, gain_sq = d_rows[:, TK.R_N], -d_rows[:, TK.R_DIFF], d_rows[:, TK.R_DIFF_SQ]  # the dealer's points
    always_refuse, always_accept = _always_losses(wd, refuse, gain, gain_sq, cnt)
    pairs = {"table vs always accept": always_accept, "table vs always refuse": always_refuse,
             "always refuse vs always accept": _weighted_mean(wd, gain, gain_sq, cnt)}
    pairs = {k: _scaled(v, p_propose) for k, v in pairs.items()}
    loss, top = _worst_against_best(pairs)
    points["accept"] = {"side": "dealer", "loss": loss, "pair": top, "pairs": pairs,
                        "elder_proposes_share": p_propose}
    return deals


def ec_t1(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """EC-T1: the proposal decision is by far the most important: the points per hand lost by the
    worst reasonable option against the best at each decision point (propose, accept, discard,
    lead, king), on the same deals."""

    points = {}
    solved = equilibrium_tips.proposal_losses(rules, policy)
    if solved is not None:  # the shipped equilibrium tables: held-out values, each side against the other's solution
        tables_words = equilibrium_tips.players_words(solved["summary"])
        deals = {"held_out": int(solved["summary"]["deals"]["held_out"])}
        for point, side in (("propose", "elder"), ("accept", "dealer")):
            loss, top = _worst_against_best(solved[side])
            points[point] = {"side": side, "loss": loss, "pair": top, "pairs": solved[side]}
    else:
        tables_words = "fitted best responses (first proposal and answer)"
        deals = _best_response_points(rules, n, seed, policy, points)
    # Discard, lead, king: the heuristic's options for either player, the other unchanged.
    # Discards: keep the plain cards from rank index 7 (kings, the heuristic's default), from 5
    # (jacks, queens and kings) or none (8). Taking as few cards as allowed (0: after proposing,
    # one card) is not a reasonable option; its loss is reported beside, not counted.
    default = {f"keep_plain_min_rank={policy.keep_plain_min_rank}": {}}
    discard_options = {**default, **{f"keep_plain_min_rank={r}": {"keep_plain_min_rank": r} for r in (5, 8)
                                     if r != policy.keep_plain_min_rank}}
    extreme = _policy_options(rules, n, seed, policy, {**default, "keep_plain_min_rank=0": {"keep_plain_min_rank": 0}})
    for name, options in (("discard", discard_options),
                          ("lead", {"lead trumps": {"lead_trumps": True}, "no trump leads": {"lead_trumps": False}}),
                          ("king", {"announce": {"announce_king": True}, "withhold": {"announce_king": False}})):
        by_side = _policy_options(rules, n, seed, policy, options)
        side = max(by_side, key=lambda s: by_side[s]["loss"].value)
        points[name] = {"side": side, "loss": by_side[side]["loss"], "pair": by_side[side]["pair"],
                        "by_side": {s: {"loss": v["loss"], "pair": v["pair"], "pairs": v["pairs"]}
                                    for s, v in by_side.items()}}
    prop = points["propose"]["loss"]
    others = {k: v["loss"] for k, v in points.items() if k != "propose"}
    runner_up = max(others, key=lambda k: others[k].value)
    effect = Estimate(prop.value - others[runner_up].value, prop.lo - max(e.hi for e in others.values()),
                      prop.hi - max(e.lo for e in others.values()), n)
    if effect.lo > 0:
        verdict = "supported"
    elif effect.hi < 0:
        verdict = "refuted"
    elif effect.value > 0:
        verdict = "partly"
    else:
        verdict = "inconclusive"
    reading = ("At each decision point the options a reasonable player might take are played on the same deals "
               "and the loss of the worst against the best is taken, in net points per hand for the side "
               "deciding (absolute values of paired differences). Propose: elder's table, always play, always "
               "propose; accept: the dealer's table, always accept, always refuse, per dealt hand. The tables "
               "are the shipped equilibrium of the first proposal when there is one for the rules (each side's "
               "options valued on its held-out deals against the other side's solution), else best responses "
               "fitted on an independent seed and evaluated on this one. Discard: keep the plain kings (the heuristic), the plain jacks, queens "
               "and kings, or no plain card (taking as few cards as allowed, one after proposing, is not "
               "counted: its loss is in the details); lead: lead trumps first or not; king: "
               "announce or withhold; each for elder's and the dealer's policy (the other unchanged), the worse "
               "side counting. Discard, lead and king are measured with the heuristic's proposals and answers "
               "(elder proposes and the dealer accepts more often than by the fitted tables, so exchanges, and "
               "the discard, weigh more there than under the tables). "
               "Effect: the proposal decision's loss minus the largest other loss; its interval is "
               "conservative, combining the ends of the individual 95% intervals (the proposal's lower end "
               "minus the largest upper end among the others, and the reverse), each loss's interval being "
               "[largest lower end, largest upper end] over the pairs of options. Supported if above 0; "
               "refuted if below 0 (another point clearly loses more); partly if the proposal's loss is the "
               "largest estimate but not clearly; inconclusive otherwise.")
    details = {k: {"side": v["side"], "loss": v["loss"].to_dict(), "worst_against_best": v["pair"],
                   **({"pairs": {p: e.to_dict() for p, e in v["pairs"].items()}} if "pairs" in v else {}),
                   **({"by_side": {s: {"loss": b["loss"].to_dict(), "worst_against_best": b["pair"],
                                       "pairs": {p: e.to_dict() for p, e in b["pairs"].items()}}
                                   for s, b in v["by_side"].items()}} if "by_side" in v else {}),
                   **({"elder_proposes_share": v["elder_proposes_share"]} if "elder_proposes_share" in v else {})}
               for k, v in points.items()}
    details["discard_not_counted_take_fewest"] = {side: v["loss"].to_dict() for side, v in extreme.items()}
    details["largest_other"] = runner_up
    details["deals_per_hand_class" if solved is None else "tables_deals"] = deals
    return Verdict("EC-T1", rules.name, verdict, effect,
                   "points per hand lost at the proposal minus the largest loss elsewhere", reading, n, seed,
                   {"tables": tables_words, "heuristic": policy.describe()}, details)


def ec_t2(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """EC-T2: propose with fewer than 3 sure winners, play with 3 or more, against the computed
    best decision for every elder hand class."""
    from analysis.ecarte.studies.strategy import kernel as TK
    from analysis.ecarte.studies.strategy.tables import hands

    solved = equilibrium_tips.ec_t2(rules, policy)
    if solved is not None:  # the shipped equilibrium tables for these rules and policy
        return solved
    fit, elder_table, _, rows, _, deals = _tables(rules, n, seed, policy)
    w = hands().weights()
    cnt = rows[:, TK.R_N]
    best = elder_table == 1
    diff, diff_sq = rows[:, TK.R_DIFF], rows[:, TK.R_DIFF_SQ]
    tip_n, tip_d, tip_q = rows[:, TK.R_TIP_N], rows[:, TK.R_TIP_DIFF], rows[:, TK.R_TIP_DIFF_SQ]
    # Per deal, best minus tip is diff where best proposes and the tip plays, -diff the other way.
    loss = _weighted_mean(w, np.where(best, diff - tip_d, -tip_d), np.where(best, diff_sq - tip_q, tip_q), cnt)
    share_tip = tip_n / np.maximum(cnt, 1)
    agreement = float((w * np.where(best, share_tip, 1 - share_tip)).sum())
    always_propose, always_play = _always_losses(w, best, diff, diff_sq, cnt)
    verdict = equilibrium_tips.ec_t2_verdict(agreement, loss)
    reading = ("Sure winners = master trumps (unbroken from the K down, the turn-up counting as seen) plus "
               "non-trump kings. The best decision is computed for every elder hand up to suit symmetry (38,304 "
               "classes; strategy tables, best responses of elder and dealer, fitted on an independent seed) and "
               "the tip's rule (propose iff < 3) is compared with it on the same deals, the dealer answering by "
               "his fitted table. Supported if it agrees on >= 90% of hands and loses < 0.05 points/hand (95% "
               "upper bound); refuted if it agrees on < 70% or loses > 0.15 (lower bound); partly otherwise; "
               "inconclusive when the tip beats the fitted tables (too few deals per hand class to fit them).")
    return Verdict("EC-T2", rules.name, verdict, loss, "points per hand the tip loses to the best decision",
                   reading, int(cnt.sum()), seed, {"exchanges_and_play": policy.describe()},
                   {"agreement": agreement, "deals_per_hand_class": deals,
                    "always_propose_loss": always_propose.to_dict(), "always_play_loss": always_play.to_dict(),
                    "best_proposes_share": float(w[best].sum()), "tip_proposes_share": float((w * share_tip).sum())})


def ec_t3(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
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
    return Verdict("EC-T3", rules.name, verdict, diff, "P(point) with 10-9-8 minus comparable hands", reading,
                   n, seed, {"both": policy.describe()},
                   {"p_point_with_10_9_8": p_with.to_dict(), "p_point_comparable": p_cmp,
                    "hands_with_10_9_8": int(with_n.sum())})


def ec_t4(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
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
    return Verdict("EC-T4", rules.name, verdict, d, "elder net points per hand, leading trumps minus not",
                   reading, n, seed, {"with": on.describe(), "without": off.describe()},
                   {"with_tip": est["b"].to_dict(), "without_tip": est["a"].to_dict()})


def ec_t6(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """EC-T6: as dealer accept generously when weak, refuse only when very strong: the computed
    best answer for every dealer hand class."""
    from analysis.ecarte.studies.strategy import kernel as TK
    from analysis.ecarte.studies.strategy.tables import hands, summarise

    solved = equilibrium_tips.ec_t6(rules, policy)
    if solved is not None:  # the shipped equilibrium tables for these rules and policy
        return solved
    fit, _, dealer_table, _, rows, deals = _tables(rules, n, seed, policy)
    s = summarise(rows)
    w = hands().weights() * rows[:, TK.R_N] / np.maximum(rows[:, TK.R_TRIES], 1)
    w = w / w.sum()  # the dealer's hands as they meet a proposal
    refuse = dealer_table == 1
    share = float(w[refuse].sum())
    # The share is bracketed by the classes whose best answer is clear on the evaluation seed.
    clear_refuse = s["diff"] + s["half_diff"] < 0
    clear_accept = s["diff"] - s["half_diff"] > 0
    est = Estimate(share, min(share, float(w[clear_refuse].sum())), max(share, 1 - float(w[clear_accept].sum())),
                   int(rows[:, TK.R_N].sum()))
    gain = _weighted_mean(w, np.where(refuse, -rows[:, TK.R_DIFF], 0), np.where(refuse, rows[:, TK.R_DIFF_SQ], 0),
                          rows[:, TK.R_N])
    trumps = hands().trumps
    by_trumps = {int(t): float(w[(trumps == t) & refuse].sum() / max(w[trumps == t].sum(), 1e-300))
                 for t in range(6) if w[trumps == t].sum() > 0}
    if est.hi <= 0.30:
        verdict = "supported"
    elif est.lo > 0.5:
        verdict = "refuted"
    else:
        verdict = "partly"
    reading = ("The dealer's best answer to elder's first proposal is computed for every dealer hand up to suit "
               "symmetry (strategy tables: best responses, elder proposing by his fitted table), accept and "
               "refuse played on the same deals. The share of proposals he should refuse is bracketed by the "
               "hand classes whose answer is clear at 95% on an independent seed. Supported if at most 30% "
               "('refuse only when very strong'); refuted if more than half; partly otherwise.")
    return Verdict("EC-T6", rules.name, verdict, est, "share of proposals the dealer should refuse", reading,
                   int(rows[:, TK.R_N].sum()), seed, {"exchanges_and_play": policy.describe()},
                   {"refuse_share_by_dealer_trumps": by_trumps, "deals_per_hand_class": deals,
                    "dealer_gain_of_best_answer_over_always_accept": gain.to_dict()})


def ec_t5(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """EC-T5: always announce the trump king: its value in the chance of winning the game, by score."""
    from analysis.ecarte.studies.strategy.tables import by_score

    solved = equilibrium_tips.ec_t5(rules, policy)
    if solved is not None:  # the shipped equilibrium's king values for these rules and policy
        return solved

    fit = _tables(rules, n, seed, policy)[0]
    table, _ = by_score(fit)
    worst = table.loc[table["king_value_elder"].idxmin()]
    v = float(worst["king_value_elder"])
    smallest = table.attrs["smallest_king_value_ci95"]
    est = Estimate(v, *smallest["elder"], int(fit.elder["n"].sum()))
    lows = [smallest[side][0] for side in ("elder", "dealer")]
    highs = [smallest[side][1] for side in ("elder", "dealer")]
    verdict = "supported" if min(lows) > 0 else "refuted" if min(highs) < 0 else "inconclusive"
    reading = ("From the game's Markov chain over scores (strategy tables' outcome distributions, deal "
               "alternating, king point scored before the tricks'), the change in the announcing side's chance "
               "of winning the game when the king point is announced rather than withheld, at every score. "
               "In this model the trick play (heuristic) does not use the "
               "information an announcement gives, so withholding can only lose the point; the classic reason "
               "to hide the king (not telling the opponent) needs search play in the tables (not yet). The "
               "effect is the smallest gain over all scores, for elder; its interval is a parametric bootstrap "
               "(the hand's outcome distribution drawn with its sampling covariance over the hand classes, the "
               "chain recomputed per draw). Supported if the smallest gain's interval lies above zero for both "
               "sides, refuted if below, inconclusive otherwise.")
    details = {f"{int(r.elder_score)}-{int(r.dealer_score)}": {
        "elder": float(r.king_value_elder), "elder_ci95": [float(r.king_value_elder_lo), float(r.king_value_elder_hi)],
        "dealer": float(r.king_value_dealer),
        "dealer_ci95": [float(r.king_value_dealer_lo), float(r.king_value_dealer_hi)]}
        for r in table.itertuples()}
    return Verdict("EC-T5", rules.name, verdict, est, "smallest gain in P(win game) from announcing, by score",
                   reading, int(fit.elder["n"].sum()), seed, {"exchanges_and_play": policy.describe()},
                   {"gain_by_score": details, "worst_score": f"{int(worst.elder_score)}-{int(worst.dealer_score)}"})


def ec_t8(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
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
    return Verdict("EC-T8", rules.name, verdict, d, "elder net points: refused proposal minus playing", reading,
                   n, seed, {"both": policy.describe()},
                   {"played_without_proposing": est["a"].to_dict(), "refused_proposal": est["b"].to_dict()})


def ec_t7_deals(n: int) -> int:
    """Deals of EC-T7's study on a budget of n: a three-hundredth (at least 200); each is played
    eight times with a searching player (two readings, two sides, plain and reading)."""
    return max(200, n // 300)


EC_T7_SAMPLES = 20


def ec_t7(rules: EcarteRules, n: int, seed: int, policy: HeuristicPolicy) -> list[Verdict]:
    """EC-T7: watch the opponent's discards: discarding 3 admits a weak hand, and the new hand
    likely holds middle cards. Three parts: the value of watching (a searching player reading the
    opponent's discards against one that does not), and the two claims about the hand behind a
    discard of three, as the heuristic's exchanges make them."""
    from analysis.ecarte.studies.watching import watching

    deals = ec_t7_deals(n)
    res = watching(deals, seed, rules, samples=EC_T7_SAMPLES, read="discards", policy=policy)
    both = watching(deals, seed, rules, samples=EC_T7_SAMPLES, read="all", policy=policy)
    pols = {"exchanges": policy.describe(),
            "trick_play": {"kind": "search", "samples": EC_T7_SAMPLES, "opponent": "heuristic"}}
    gain = res["mean_gain"]
    verdict = "supported" if gain.lo > 0 else "refuted" if gain.hi < 0 else "inconclusive"
    details = {"elder_gain": res["elder_gain"].to_dict(), "dealer_gain": res["dealer_gain"].to_dict(),
               "fallback_rate": res["fallback_rate"], "deals_changed": res["changed"],
               "reading_decisions_too": {"mean_gain": both["mean_gain"].to_dict(),
                                         "elder_gain": both["elder_gain"].to_dict(),
                                         "dealer_gain": both["dealer_gain"].to_dict(),
                                         "fallback_rate": both["fallback_rate"]},
               "by_count": [{k: (v.to_dict() if isinstance(v, Estimate) else v) for k, v in r.items()}
                            for r in res["by_count"]],
               "dealt_strength": res["dealt_strength"]}
    watch = Verdict(
        "EC-T7", rules.name, verdict, gain, "points per hand and side a searching player gains by reading the "
        "opponent's discards", "The same deals (heuristic proposals and exchanges) played with one side "
        f"searching ({EC_T7_SAMPLES} samples) against the heuristic, its sampler either plain or reading the "
        "opponent's discards: each round's count and cards as the opponent's policy would throw them, by exact "
        "rejection sampling (players/search_inference.py, checked against a forward enumeration). Effect: the two "
        "sides' gains averaged, paired per deal. Supported if its interval lies above zero, refuted if below. "
        "Reading the proposals and answers too is in the details.", deals, seed, pols, details, part="watching")
    threes = [r for r in res["by_count"] if r["discarded"] == 3]
    mid = [r["middle_after"] for r in threes]
    before = [r["strength_before"] for r in threes]
    weak_est = _pooled(before)
    weak = Verdict(
        "EC-T7", rules.name, "supported" if weak_est.hi < res["dealt_strength"] else
        "refuted" if weak_est.lo > res["dealt_strength"] else "inconclusive",
        weak_est, "heuristic strength of a hand that threw 3 in the first round, before its exchange",
        "The mean strength (trumps 3 each, +3 K, +2 Q, +1 J; plain kings 2, queens 1) of the hands that threw "
        f"exactly 3 in the first round, both sides, against every dealt hand's ({res['dealt_strength']:.2f}). "
        "Supported if the interval lies below it, refuted if above.", deals, seed, {"exchanges": policy.describe()},
        {"by_count": details["by_count"]}, part="weak hand")
    mid_est = _pooled(mid)
    random_hand = 5 * 12 / 32
    middle = Verdict(
        "EC-T7", rules.name, "supported" if mid_est.lo > random_hand else
        "refuted" if mid_est.hi < random_hand else "inconclusive",
        mid_est, "middle cards (8, 9, 10) in a hand that threw 3, after its exchange",
        f"The mean number of 8s, 9s and 10s after the exchange in the hands that threw exactly 3 in the first "
        f"round, both sides, against a random hand's {random_hand} (5 x 12/32). Supported if its interval lies "
        "above it, refuted if below.", deals, seed, {"exchanges": policy.describe()}, {}, part="middle cards")
    return [watch, weak, middle]


def _pooled(parts: list[Estimate]) -> Estimate:
    """Two sides' means of one quantity pooled by their counts (intervals combined as independent)."""
    n = sum(p.n for p in parts)
    v = sum(p.value * p.n for p in parts) / n
    h = (sum((p.halfwidth * p.n) ** 2 for p in parts)) ** 0.5 / n
    return Estimate(v, v - h, v + h, n)


STUDIES = {"EC-T1": ec_t1, "EC-T2": ec_t2, "EC-T3": ec_t3, "EC-T4": ec_t4, "EC-T5": ec_t5, "EC-T6": ec_t6,
           "EC-T7": ec_t7, "EC-T8": ec_t8}
"""Tips with a study, and the variants each is run under."""
VARIANTS = {"EC-T1": ("seed-de", "classic"), "EC-T2": ("seed-de", "classic"), "EC-T3": ("seed-de",),
            "EC-T4": ("seed-de",), "EC-T5": ("seed-de", "classic"), "EC-T6": ("seed-de", "classic"), "EC-T7": ("seed-de", "classic"),
            "EC-T8": ("seed-de", "classic")}

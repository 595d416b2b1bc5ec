"""The equilibrium's checks: what the heuristic trick play inside the records costs, on the value
and on the decisions (``salon study ecarte strategy --search-sets N``), and what the second
proposal round, left to the heuristic, puts at stake (``second_round``).

Information sets are drawn by weight for each side; each is played on the deals of the branch
records (``studies/equilibrium/branches``: same streams, turn-ups and exchanges) with the five tricks played by
the heuristic and by both players searching (``studies.search_check.play_two_ways``: PIMC on the
double-dummy solver, hidden hands sampled consistently with the cards each player has seen and
discarded; the searchers' lanes are 3 and 4 as in the search check). The measures hold the other
side's strategy at the solution.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import kernel_threads, on_threads, runs
from analysis.ecarte.engine import buckets as TB
from analysis.ecarte.engine.layout import O_DEALER_POINTS, O_ELDER_POINTS
from analysis.ecarte.play.hand import play_hand, uses_choices
from analysis.ecarte.players.search import search_scratch
from analysis.ecarte.players.search_inference import COND_ALL, COND_TABLE
from analysis.ecarte.policies import P_FORCE_SECOND
from analysis.ecarte.studies.equilibrium import branches as BK
from analysis.ecarte.studies.search_check import LANE_CHECK_DEALER, LANE_CHECK_ELDER, play_two_ways
from analysis.ecarte.studies.strategy.kernel import GROUPS, ITEM_SHIFT, codes_of
from analysis.rng import stream_start


@njit(cache=True, nogil=True)
def branch_search_group(g, useed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd, reads, outs):
    """Group g of ``branch_search_records``: its tasks g, g + groups, ... (GROUPS at most)."""
    samples, cond, pe_probs, pd_probs = reads
    other, heuristic, search, violations = outs
    nt = tasks.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nt, GROUPS)
    deck, deck2, out, codes, my_rules, e_play, e_propose, d_accept, d_refuse = BK.branch_scratch(rules, pe, pd)
    sums, vals, rec, hist, _, _ = search_scratch()
    for t in range(g, nt, groups):
        info = tasks[t, 0]
        fixed = masks[info // TB.N_BUCKETS]
        turnups = TB.bucket_turnups(fixed, info % TB.N_BUCKETS)
        codes_of(fixed, codes)
        for k in range(tasks[t, 2]):
            at = tasks[t, 3] + k
            stc, stb, sto, elder, dealer, turnup, other[at] = BK.branch_deal(
                useed, info, tasks[t, 1] + k, fixed, turnups, codes, deck, choices, class_of_rank, fixed_is_dealer)
            ui = np.uint64((info << ITEM_SHIFT) | (tasks[t, 1] + k))
            for br in range(BK.N_BRANCHES):
                st_e = stream_start(useed, ui, np.uint64(LANE_CHECK_ELDER))
                st_d = stream_start(useed, ui, np.uint64(LANE_CHECK_DEALER))
                for c in range(32):
                    deck2[c] = deck[c]
                pe_b = e_play if br == BK.PLAYED else e_propose
                pd_b = d_refuse if br == BK.REFUSED else d_accept
                h, s, v, _ = play_two_ways((deck2, stc, stb, sto, elder, dealer, turnup), my_rules, pe_b, pd_b,
                                           (samples, cond, st_e, st_d, pe_probs, pd_probs, class_of_rank),
                                           (out, sums, vals, rec, hist))
                heuristic[at, br] = h
                search[at, br] = s
                violations[at] += v


@runs(branch_search_group)
def branch_search_records(seed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd, reads, outs):
    """As ``studies.equilibrium.branches.branch_records`` (same tasks and deals), writing into ``outs`` =
    (other, heuristic, search, violations) elder's net per branch under heuristic trick play and
    under both players searching (int8, (n, 3) each) and the searchers' violations (inferences
    that exclude the actual hand: always 0). ``reads`` = (samples, cond, pe_probs, pd_probs): the
    searchers draw ``samples`` layouts and read ``cond`` of the other's exchanges
    (search_inference): under COND_TABLE the first proposal and answer by the equilibrium's
    chances ``pe_probs`` (elder proposes) and ``pd_probs`` (the dealer refuses) per information set."""
    useed = np.uint64(seed)
    on_threads(lambda g: branch_search_group(g, useed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd,
                                             reads, outs), min(len(tasks), GROUPS))
    return 0


def check(eq, sets: int, deals: int, samples: int, seed: int, rules, policy, threads: int | None = None,
          read: bool = False) -> dict:
    """Per side, ``sets`` information sets drawn by weight (with replacement), ``deals`` deals each
    (the fitted deals' streams: seed and seed + 1): the solution's value under heuristic and search
    play, and what the solution's decisions lose under search play (plug-in and cross-fitted, as
    on the held-out deals), with 95% intervals over the sets drawn. ``read``: the searchers read the
    other's exchanges (search_inference.COND_ALL) and his first proposal or answer by the
    solution's chances (COND_TABLE); the per-set values are in ``per_set`` for paired comparisons."""
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands

    info = info_sets()
    h = hands()
    rng = np.random.default_rng([seed, 23])
    cond = (COND_ALL | COND_TABLE) if read else 0
    x = np.ascontiguousarray(eq.x, dtype=np.float64)
    y = np.ascontiguousarray(eq.y, dtype=np.float64)
    out = {"sets_per_side": sets, "deals_per_set": deals, "samples": samples, "reading": read,
           "search": f"both players search the tricks (PIMC on the double-dummy solver, {samples} samples"
                     + ("; each reads the other's proposal, answer and discards" if read else "") + ")",
           "per_set": {}}
    for side, strat, opp in (("elder", eq.x, eq.y), ("dealer", eq.y, eq.x)):
        chosen = np.sort(rng.choice(len(info.weight), size=sets, p=info.weight))
        tasks = np.array([(s, 0, deals, k * deals) for k, s in enumerate(chosen.tolist())], dtype=np.int64)
        n = sets * deals
        other = np.zeros(n, dtype=np.int32)
        nets = {"heuristic": np.zeros((n, 3), dtype=np.int8), "search": np.zeros((n, 3), dtype=np.int8)}
        viol = np.zeros(n, dtype=np.int64)
        pa = policy.to_array()
        with kernel_threads(threads):
            branch_search_records(seed + (side == "dealer"), tasks, h.masks, h.class_of_rank, side == "dealer",
                                  rules.to_array(), pa, pa, (samples, cond, x, y),
                                  (other, nets["heuristic"], nets["search"], viol))
        partner = other >> 1
        half = other & 1
        per = {}
        for play, v in nets.items():
            v = v.astype(np.float64).reshape(sets, deals, 3)
            part = opp[partner].reshape(sets, deals)
            mine = strat[chosen][:, None]
            gain, refusal = v[..., 1] - v[..., 0], v[..., 2] - v[..., 1]
            if side == "elder":
                q_deal = gain + part * refusal
                value = v[..., 0] + mine * q_deal
            else:
                q_deal = -part * refusal  # the dealer's gain from refusing (elder's net, negated)
                value = v[..., 0] + part * (gain + mine * refusal)
            hs = half.reshape(sets, deals)
            q = q_deal.mean(axis=1)
            qa = np.array([q_deal[i][hs[i] == 0].mean() for i in range(sets)])
            qb = np.array([q_deal[i][hs[i] == 1].mean() for i in range(sets)])
            x = strat[chosen]
            plug = np.maximum(q, 0) - x * q
            cross = 0.5 * (((qa > 0) - x) * qb + ((qb > 0) - x) * qa)
            per[play] = {"value": value.mean(axis=1), "q": q, "plugin": plug, "crossfit": cross}
        out["per_set"][side] = {"value_search": per["search"]["value"], "q_search": per["search"]["q"]}
        d = per["search"]["value"] - per["heuristic"]["value"]
        agree = np.sign(per["search"]["q"]) == np.sign(per["heuristic"]["q"])
        out[side] = {"value_heuristic": _mean_ci(per["heuristic"]["value"]),
                     "value_search": _mean_ci(per["search"]["value"]),
                     "value_search_minus_heuristic": _mean_ci(d),
                     "decision_sign_agreement": float(agree.mean()),
                     "loss_under_search_plugin": _mean_ci(per["search"]["plugin"]),
                     "loss_under_search_crossfit": _mean_ci(per["search"]["crossfit"]),
                     "loss_under_heuristic_plugin": _mean_ci(per["heuristic"]["plugin"]),
                     # Both plug-ins carry about the same noise; their paired difference is what
                     # search play adds to the solution's loss.
                     "loss_search_minus_heuristic_plugin": _mean_ci(per["search"]["plugin"]
                                                                    - per["heuristic"]["plugin"]),
                     "violations": int(viol.sum())}
    return out


@njit(cache=True, nogil=True)
def second_round_group(g, useed, tasks, masks, class_of_rank, rules, pe, pd, other, nets):
    """Group g of ``second_round_records``: its tasks g, g + groups, ... (GROUPS at most)."""
    nt = tasks.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nt, GROUPS)
    deck, deck2, out, codes, my_rules, _, e_way, d_accept, _ = BK.branch_scratch(rules, pe, pd)
    for t in range(g, nt, groups):
        info = tasks[t, 0]
        fixed = masks[info // TB.N_BUCKETS]
        turnups = TB.bucket_turnups(fixed, info % TB.N_BUCKETS)
        codes_of(fixed, codes)
        for k in range(tasks[t, 2]):
            at = tasks[t, 3] + k
            stc, stb, sto, _, dealer, turnup, other[at] = BK.branch_deal(
                useed, info, tasks[t, 1] + k, fixed, turnups, codes, deck, choices, class_of_rank, False)
            for way in range(3):
                for c in range(32):
                    deck2[c] = deck[c]
                e_way[P_FORCE_SECOND] = way - 1  # -1 the heuristic, 0 play, 1 propose
                play_hand(deck2, np.int64(11), (stc, stb, sto), fixed, dealer, turnup, my_rules, e_way, d_accept,
                          out, np.bool_(False))
                nets[at, way] = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]


@runs(second_round_group)
def second_round_records(seed, tasks, masks, class_of_rank, rules, pe, pd, other, nets):
    """On the deals of elder's information sets (``branch_records``' tasks and streams), elder
    proposes and the dealer accepts; then elder's second proposal decision is the heuristic's,
    forced play, or forced propose (the dealer answering it by his policy): elder's net for each,
    (n, 3) int8, and the other side's set as in the records."""
    useed = np.uint64(seed)
    on_threads(lambda g: second_round_group(g, useed, tasks, masks, class_of_rank, rules, pe, pd, other, nets),
               min(len(tasks), GROUPS))
    return 0


def second_round(eq, sets: int, deals: int, seed: int, rules, policy, threads: int | None = None) -> dict:
    """What leaving elder's second proposal decision to the heuristic costs, on ``sets`` of elder's
    information sets drawn by weight (``deals`` deals each, weighted by the chance the solution
    reaches an accepted first proposal): how often it is reached, and elder's gain per hand (all
    hands) from always playing, always proposing, and from the better of the two known in
    advance (an upper bound on any second-round policy's gain over the heuristic)."""
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands

    info = info_sets()
    h = hands()
    rng = np.random.default_rng([seed, 29])
    chosen = np.sort(rng.choice(len(info.weight), size=sets, p=info.weight))
    tasks = np.array([(s, 0, deals, k * deals) for k, s in enumerate(chosen.tolist())], dtype=np.int64)
    n = sets * deals
    other = np.zeros(n, dtype=np.int32)
    nets = np.zeros((n, 3), dtype=np.int8)
    pa = policy.to_array()
    with kernel_threads(threads):
        second_round_records(seed, tasks, h.masks, h.class_of_rank, rules.to_array(), pa, pa, other, nets)
    reach = (eq.x[chosen][:, None] * (1 - eq.y[other >> 1].reshape(sets, deals)))
    v = nets.astype(np.float64).reshape(sets, deals, 3)
    heur = v[..., 0]
    per_set = {"reached": reach.mean(axis=1),
               "always_play": (reach * (v[..., 1] - heur)).mean(axis=1),
               "always_propose": (reach * (v[..., 2] - heur)).mean(axis=1),
               "better_known_in_advance": (reach * (np.maximum(v[..., 1], v[..., 2]) - heur)).mean(axis=1)}
    return {"sets": sets, "deals_per_set": deals, **{k: _mean_ci(x) for k, x in per_set.items()}}


def reading_against_plain(plain: dict, reading: dict) -> None:
    """Add to ``reading`` (a ``check(..., read=True)``), per side, what reading changes against
    ``plain`` (the same sets and deals, ``read=False``): the value's paired difference with its
    interval and the share of sets whose decision keeps its sign."""
    for side in ("elder", "dealer"):
        p, r = plain["per_set"][side], reading["per_set"][side]
        reading[side]["value_reading_minus_plain"] = _mean_ci(r["value_search"] - p["value_search"])
        reading[side]["decision_sign_agreement_with_plain"] = float(np.mean(np.sign(r["q_search"])
                                                                            == np.sign(p["q_search"])))


def _mean_ci(v: np.ndarray) -> dict:
    m = float(v.mean())
    h = float(1.96 * v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")
    return {"value": m, "ci95": [m - h, m + h]}

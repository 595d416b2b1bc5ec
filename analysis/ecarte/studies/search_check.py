"""Écarté's strategy tables checked against search play (``salon study ecarte strategy
--search-check``).

``search_decision_block`` and ``search_check`` check the strategy tables (studies/strategy/tables.py), which are
computed with the heuristic's trick play, against search play on a sample of hand classes.

The search player itself is in ``players/search.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import rank_of_mask
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.deal import deal_with_elder
from analysis.ecarte.engine.layout import O_DEALER_POINTS, O_ELDER_POINTS
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import penalties, policy_tricks, uses_choices, write_result
from analysis.ecarte.players.learned import opening_of
from analysis.ecarte.players.search import REC_VIOLATIONS, play_tricks_search, search_scratch, seat
from analysis.ecarte.players.solver import value_table
from analysis.ecarte.policies import P_FORCE_FIRST, P_FORCE_RESPONSE
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.ecarte.studies.strategy.kernel import (
    GROUPS,
    ITEM_SHIFT,
    codes_of,
    item_streams,
    scratch,
    turnup_for,
)
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start

# search_decision_block follows studies/strategy/kernel.elder_block deal for deal (stream index
# ``item << ITEM_SHIFT | i``, lane 0 the cards, 1 the choices, 2 the turn-up) and plays every
# deal's two configurations, a = elder plays without proposing and b = elder proposes (the dealer
# answering by his table), each with the five tricks by the heuristic and by both players
# searching. The searches draw from lanes 3 (elder's) and 4 (the dealer's), the same in a and b:
# where the positions coincide (a proposal refused), both configurations see the same samples.
LANE_CHECK_ELDER = 3
LANE_CHECK_DEALER = 4
# Tally row: DIFF is b's elder net minus a's, H under heuristic play, S under search play.
DC_N = 0
DC_H_DIFF, DC_H_DIFF_SQ, DC_S_DIFF, DC_S_DIFF_SQ = 1, 2, 3, 4
DC_HS_CROSS = 5  # Σ of (heuristic diff) * (search diff), for the paired change search - heuristic
DC_H_PLAY, DC_H_PROPOSE, DC_S_PLAY, DC_S_PROPOSE = 6, 7, 8, 9  # Σ elder's net per configuration
DC_REFUSED = 10  # deals where the dealer refused the proposal
DC_DIFF_CHANGED = 11  # deals where search play changed the difference
DC_VIOLATIONS = 12  # the searchers' inferences excluding the actual hand (always 0)
DC_NET_CHANGED = 13  # hands (two per deal) where search play changed elder's net
N_DECISION_TALLY = 14


@njit(cache=True)
def play_two_ways(dealt, rules, pe, pd, search, scratch):
    """A dealt hand (``dealt``: the deck, ``deck[11:]`` the stock, its card, stock and choice
    streams, elder's and the dealer's hands, the turn-up) exchanged and its kings announced by the
    kernel (the steps of ``kernel.play_hand``), then its tricks played by the policies
    (``kernel.policy_tricks``) and by both players searching. ``search``: (samples per decision,
    what each reads of the other's exchanges (search_inference), elder's and the dealer's search
    streams, the first decisions' chances elder's and the dealer's under COND_TABLE, the classes
    that number the information sets); ``scratch``: (out, sums, vals, rec, hist). Returns
    (elder's net with the policies' play, with search play, the searchers' violations, the dealer
    refused)."""
    deck, stc, stb, sto, elder, dealer, turnup = dealt
    samples, cond, st_e, st_d, pe_probs, pd_probs, class_of_rank = search
    out, sums, vals, rec, hist = scratch
    t = turnup >> 3
    (p, stc, stb, sto, e, d, rnd, ending, pwp, refused, proposed,
     e_disc, d_disc) = exchanges(deck, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd, hist)
    sto, announced = announce_kings(e, d, t, sto, pe, pd)
    sto, tricks = policy_tricks(e, d, turnup, (e_disc, d_disc), announced, opening_of(pwp, refused), sto, rules, pe, pd,
                                out, np.bool_(False))
    write_result(out, turnup, tricks, ending, rnd, announced, p - 11, proposed, pwp, refused, rules)
    net_h = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    pen_e, pen_d = penalties(ending, pwp, refused, rules)
    table = value_table(pen_e, pen_d, rules)
    seats = (seat(e, e_disc, samples, cond, pe, pe_probs), seat(d, d_disc, samples, cond, pd, pd_probs))
    tricks = play_tricks_search(seats, np.array([st_e, st_d], dtype=np.uint64), turnup, announced,
                                rules[R_MUST_TRUMP_WHEN_VOID], table, hist, class_of_rank, sums, vals, rec)
    write_result(out, turnup, tricks, ending, rnd, announced, p - 11, proposed, pwp, refused, rules)
    net_s = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    return net_h, net_s, rec[REC_VIOLATIONS], ending


@njit(cache=True, nogil=True)
def search_decision_group(g, useed, starts, counts, hands, dealer_table, rules, pe, pd, samples, tallies):
    """Group g of ``search_decision_block``: its chunks g, g + groups, ... (GROUPS at most), each into
    its row of ``tallies``."""
    nc = starts.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nc, GROUPS)
    # The group's own arrays (see studies/strategy/kernel.GROUPS).
    deck, deck2, out, row, my_rules = scratch(rules, N_DECISION_TALLY)
    sums, vals, rec, hist, no_probs, no_classes = search_scratch()
    codes = np.empty(5, dtype=np.int64)
    pe_a = pe.copy()
    pe_b = pe.copy()
    pd_a = pd.copy()
    pd_b = pd.copy()
    pe_a[P_FORCE_FIRST] = 0
    pe_b[P_FORCE_FIRST] = 1
    for ci in range(g, nc, groups):
        row[:] = 0
        elder = hands[starts[ci] >> ITEM_SHIFT]
        codes_of(elder, codes)
        for i in range(starts[ci], starts[ci] + counts[ci]):
            ui = np.uint64(i)
            stc, sto, stu = item_streams(useed, i, choices)
            stu, turnup = turnup_for(elder, stu)
            stc, stb, dealer = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
            pd_b[P_FORCE_RESPONSE] = dealer_table[rank_of_mask(dealer)]
            st_e = stream_start(useed, ui, np.uint64(LANE_CHECK_ELDER))
            st_d = stream_start(useed, ui, np.uint64(LANE_CHECK_DEALER))
            for k in range(32):
                deck2[k] = deck[k]
            search = (samples, np.int64(0), st_e, st_d, no_probs, no_probs, no_classes)
            work = (out, sums, vals, rec, hist)
            ha, sa, va, _ = play_two_ways((deck2, stc, stb, sto, elder, dealer, turnup), my_rules, pe_a, pd_a,
                                          search, work)
            hb, sb, vb, refused = play_two_ways((deck, stc, stb, sto, elder, dealer, turnup), my_rules, pe_b, pd_b,
                                                search, work)
            dh = hb - ha
            ds = sb - sa
            row[DC_N] += 1
            row[DC_H_DIFF] += dh
            row[DC_H_DIFF_SQ] += dh * dh
            row[DC_S_DIFF] += ds
            row[DC_S_DIFF_SQ] += ds * ds
            row[DC_HS_CROSS] += dh * ds
            row[DC_H_PLAY] += ha
            row[DC_H_PROPOSE] += hb
            row[DC_S_PLAY] += sa
            row[DC_S_PROPOSE] += sb
            row[DC_REFUSED] += refused
            row[DC_DIFF_CHANGED] += 1 if ds != dh else 0
            row[DC_NET_CHANGED] += (1 if sa != ha else 0) + (1 if sb != hb else 0)
            row[DC_VIOLATIONS] += va + vb
        tallies[ci, :] = row


@runs(search_decision_group)
def search_decision_block(seed, starts, counts, hands, dealer_table, rules, pe, pd, samples):
    """Per chunk of deals of elder hand ``hands[start >> ITEM_SHIFT]`` (DC_* row): playing (a)
    against proposing (b), the dealer answering the first proposal by ``dealer_table``, on the
    deals of ``studies.strategy.kernel.elder_block`` (same streams, same turn-ups, same exchanges), with the
    tricks played by the heuristic (which reproduces elder_block's differences exactly) and by
    both players searching with ``samples`` draws per decision."""
    tallies = np.zeros((len(starts), N_DECISION_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    on_threads(lambda g: search_decision_group(g, useed, starts, counts, hands, dealer_table, rules, pe, pd, samples,
                                               tallies), min(len(starts), GROUPS))
    return tallies


def _t_half(n, s, q):
    """95% t half-width of a mean from n values with sum s and sum of squares q (vectorised)."""
    from scipy import stats

    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return stats.t.ppf(0.975, np.maximum(n - 1, 1)) * np.sqrt(np.maximum(n * q - s * s, 0) / (n * n * (n - 1)))


def _draw_mean(values: np.ndarray, draws: np.ndarray):
    """Mean over the sampled draws (a class drawn k times counts k times) with a 95% t interval."""
    from analysis.stats import Estimate

    x = np.repeat(np.asarray(values, dtype=np.float64), draws)
    n = len(x)
    m = float(x.mean())
    half = float(_t_half(n, x.sum(), (x * x).sum())) if n > 1 else float("nan")
    return Estimate(m, m - half, m + half, n)


def search_check(strategy_result, n_hands: int = 200, deals: int = 200, samples: int = 10, seed: int = 1,
                 rules=None, threads: int | None = None, *, chunk: int = 25, quiet: bool = True):
    """Check elder's propose / play table (computed with the heuristic's trick play) against search
    play on ``n_hands`` hand classes drawn at random by weight (with replacement, a seeded numpy
    Generator; a class drawn twice is played once and counted twice).

    Each chosen class is played on ``deals`` deals by ``search_decision_block``: playing and
    proposing, exchanges and kings by the policies the tables used (``strategy_result.policies``,
    discard tables included) and the dealer answering by the final dealer table, the tricks by the
    heuristic and by both players searching (``samples`` draws per decision). Use a seed other
    than the tables' for fresh deals (with the tables' seed the heuristic's part replays their deals).

    Returns (per-class DataFrame, summary dict). The summary's means are over the draws, so they
    estimate weighted means over all hands:

    - ``agreement_search``: the share of hands where the decision under search play (proposing's
      mean difference > 0 on these deals) is the table's; ``agreement_heuristic`` the same under
      heuristic play on these fresh deals, i.e. what noise alone leaves;
    - ``loss_search``: the points per hand the table's decision loses under search play, where
      search play prefers the other decision (max(0, other - table's) per class). Noise biases
      this upwards; ``loss_search_crossfit`` decides on one half of the deals and measures on the
      other (both ways), which is unbiased for the gain of switching by such a noisy check and
      at most the true loss in expectation: the two bracket it. ``loss_heuristic`` and
      ``loss_heuristic_crossfit`` are the same under heuristic play (the noise floor);
    - ``search_minus_heuristic``: how much search play changes proposing's advantage (paired);
    - ``search_changed_share``: the share of deals whose difference search play changed,
      ``search_changed_net_share`` the share of hands whose net it changed;
    - ``net_table_search`` / ``net_table_heuristic``: elder's net under the table's decisions.
    """
    import pandas as pd

    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.strategy import tables as ST
    from analysis.runner import run_ranges
    from analysis.stats import proportion

    if n_hands < 2:
        raise InputError(f"n_hands must be at least 2, not {n_hands}")
    if deals < 4:
        raise InputError(f"deals must be at least 4, not {deals}")
    if samples < 1:
        raise InputError(f"samples must be at least 1, not {samples}")
    spec = getattr(strategy_result, "spec", {}) or {}
    if rules is None:
        if "rules" not in spec:
            raise InputError("the strategy result names no rules: pass rules")
        r = get_rules(spec["rules"], spec.get("switches"))
    else:
        r = get_rules(rules) if isinstance(rules, str) else rules
    if "switches" in spec:
        import json

        if json.loads(json.dumps(r.switches())) != json.loads(json.dumps(spec["switches"])):
            raise InputError(f"the tables were computed under other rules ({spec['rules']}, {spec['switches']})")
    if len(getattr(strategy_result, "policies", ())) != 2:
        raise InputError("the strategy result carries no policies (elder's, the dealer's)")
    pe_pol, pd_pol = strategy_result.policies
    h = ST.hands()
    e = strategy_result.elder
    w = e["weight"].to_numpy(dtype=np.float64)
    gen = np.random.default_rng(seed)
    picks = gen.choice(len(w), size=n_hands, replace=True, p=w / w.sum())
    classes, draws = np.unique(picks, return_counts=True)
    dealer_table = h.expand((strategy_result.dealer["decision"] == "refuse").to_numpy(np.int8))
    half = deals // 2
    ranges = ([(int(c) << ITEM_SHIFT, half) for c in classes]
              + [((int(c) << ITEM_SHIFT) + half, deals - half) for c in classes])
    args = (h.masks, dealer_table, r.to_array(), pe_pol.to_array(), pd_pol.to_array(), np.int64(samples))
    rows = run_ranges(search_decision_block, args, ranges, seed, chunk=chunk, threads=threads, quiet=quiet,
                      desc="search check")
    k = len(classes)
    first, second = rows[:k], rows[k:]
    tot = first + second
    if tot[:, DC_VIOLATIONS].any():
        bad = int(tot[:, DC_VIOLATIONS].sum())
        raise RuntimeError(f"the searchers' inferences excluded the actual hand {bad} times")
    n = tot[:, DC_N].astype(np.float64)
    table_propose = (e["decision"].to_numpy()[classes] == "propose")
    sign = np.where(table_propose, 1.0, -1.0)  # the table's decision's value minus the other's = sign * diff
    df = pd.DataFrame({"class": classes, "hand": e["hand"].to_numpy()[classes], "mask": h.masks[classes],
                       "weight": w[classes], "draws": draws, "n": tot[:, DC_N],
                       "table_decision": np.where(table_propose, "propose", "play")})
    per = {}
    for key, d, q, play, prop in (("heuristic", DC_H_DIFF, DC_H_DIFF_SQ, DC_H_PLAY, DC_H_PROPOSE),
                                  ("search", DC_S_DIFF, DC_S_DIFF_SQ, DC_S_PLAY, DC_S_PROPOSE)):
        diff = tot[:, d] / n
        df[f"diff_{key}"] = diff
        df[f"diff_{key}_half"] = _t_half(n, tot[:, d], tot[:, q])
        df[f"net_play_{key}"] = tot[:, play] / n
        df[f"net_propose_{key}"] = tot[:, prop] / n
        df[f"decision_{key}"] = np.where(diff > 0, "propose", "play")
        df[f"agree_{key}"] = (diff > 0) == table_propose
        df[f"loss_{key}"] = np.maximum(-sign * diff, 0)  # points the table's decision loses here
        g1 = -sign * first[:, d] / first[:, DC_N]
        g2 = -sign * second[:, d] / second[:, DC_N]
        per[key] = 0.5 * (g2 * (g1 > 0) + g1 * (g2 > 0))
        per[f"net_table_{key}"] = np.where(table_propose, tot[:, prop], tot[:, play]) / n
    df["agree"] = df["agree_search"]
    df["search_minus_heuristic"] = df["diff_search"] - df["diff_heuristic"]
    df["search_minus_heuristic_half"] = _t_half(n, tot[:, DC_S_DIFF] - tot[:, DC_H_DIFF],
                                                tot[:, DC_S_DIFF_SQ] + tot[:, DC_H_DIFF_SQ] - 2 * tot[:, DC_HS_CROSS])
    df["refused_share"] = tot[:, DC_REFUSED] / n
    df["search_changed_share"] = tot[:, DC_DIFF_CHANGED] / n
    df["search_changed_net_share"] = tot[:, DC_NET_CHANGED] / (2 * n)
    summary = {"classes": int(k), "draws": int(n_hands), "deals": int(deals), "samples": int(samples),
               "seed": int(seed), "rules": r.name, "hands_played": int(tot[:, DC_N].sum()) * 2}
    for key in ("search", "heuristic"):
        agree = int((draws * df[f"agree_{key}"].to_numpy()).sum())
        summary[f"agreement_{key}"] = proportion(agree, int(n_hands))
        summary[f"loss_{key}"] = _draw_mean(df[f"loss_{key}"].to_numpy(), draws)
        summary[f"loss_{key}_crossfit"] = _draw_mean(per[key], draws)
        summary[f"net_table_{key}"] = _draw_mean(per[f"net_table_{key}"], draws)
    summary["search_minus_heuristic"] = _draw_mean(df["search_minus_heuristic"].to_numpy(), draws)
    for key in ("search_changed_share", "search_changed_net_share"):
        summary[key] = float((draws * df[key].to_numpy()).sum() / n_hands)
    return df, summary

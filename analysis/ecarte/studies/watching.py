"""EC-T7, "watch the opponent's discards": what a searching player gains by reading the
opponent's exchanges, and what the discards say about the hand behind them.

``watching_block`` deals every hand as the kernel does (heuristic policies decide the proposals,
exchanges and kings, writing the public history), then plays its five tricks four ways on the same
cards: elder searching with the plain sampler and with the sampler that reads the dealer's
exchanges (``search_inference``), the dealer heuristic; and the same for the dealer searching
against elder. Both of a side's searches draw from the same stream (lanes 2 and 3, as in
``search_strength``), so where reading changes nothing they play alike. It also tallies, by the
number of cards a player threw in the first round, his hand before and after the exchange.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.blocks import chunk_rows, runs
from analysis.ecarte.engine.deal import deal, strength
from analysis.ecarte.engine.layout import EH_ROUND0, EH_ROUNDS, EHR_DK, EHR_EK
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import penalties
from analysis.ecarte.players.search import (
    LANE_DEALER_SEARCH,
    LANE_ELDER_SEARCH,
    REC_DRAWS,
    REC_FALLBACKS,
    REC_VIOLATIONS,
    play_tricks_search,
    search_scratch,
    seat,
)
from analysis.ecarte.players.search_inference import COND_ALL, COND_DECISIONS, COND_DISCARDS
from analysis.ecarte.players.solver import table_value, value_table
from analysis.ecarte.policies import KIND_HEURISTIC, P_KIND
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start

MIDDLE = 0x0E0E0E0E
"""The 8, 9 and 10 of every suit: the "middle cards" of the tip (the rulebook's 10-9-8)."""

# Tally row. Nets are elder's points of the hand (tricks and kings) minus the dealer's.
W_N = 0
W_E_PLAIN, W_E_WATCH, W_E_GAIN, W_E_GAIN_SQ = 1, 2, 3, 4  # elder searches; gain = watch - plain
W_D_PLAIN, W_D_WATCH, W_D_GAIN, W_D_GAIN_SQ = 5, 6, 7, 8  # the dealer searches; gain = plain - watch
W_BOTH_GAIN, W_BOTH_GAIN_SQ = 9, 10  # the two sides' gains added, per deal
W_E_CHANGED, W_D_CHANGED = 11, 12  # deals where reading changed the searcher's net
W_FALLBACKS, W_DRAWS, W_VIOLATIONS = 13, 14, 15
W_BY_COUNT = 16  # per side (elder, dealer) and first-round count k = 0..5: N_BY_COUNT entries
# Per count: deals; Σ strength before, after; Σ trumps, middle cards after; Σ squares of before, middle.
BC_N, BC_BEFORE, BC_AFTER, BC_TRUMPS, BC_MIDDLE, BC_BEFORE_SQ, BC_MIDDLE_SQ = 0, 1, 2, 3, 4, 5, 6
N_BY_COUNT = 7
N_WATCH_TALLY = W_BY_COUNT + 2 * 6 * N_BY_COUNT
CONDS = {"discards": COND_DISCARDS, "decisions": COND_DECISIONS, "all": COND_ALL}


@njit(cache=True, nogil=True)
def watching_chunk(useed, start, count, rules, pe, pd, samples, cond):
    """The tally row (W_*) of deals start..start+count-1."""
    deck = np.empty(32, dtype=np.int8)
    sums, vals, rec, hist, no_probs, no_classes = search_scratch()
    row = np.zeros(N_WATCH_TALLY, dtype=np.int64)
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    streams = np.zeros(2, dtype=np.uint64)
    none = np.uint64(0)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        stc, stb, elder0, dealer0, turnup = deal(deck, stc, EMPTY_HALF)
        t = turnup >> 3
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges(deck, 11, stc, stb, none, elder0, dealer0, t, rules, pe, pd, hist)
        sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        kings = (announced & 1) - (announced >> 1) - (1 if (turnup & 7) == 7 else 0)
        nets = np.zeros(4, dtype=np.int64)
        for j in range(4):
            elder_searches = j < 2
            c = cond if j % 2 == 1 else 0
            st = stream_start(useed, ui, np.uint64(LANE_ELDER_SEARCH if elder_searches else LANE_DEALER_SEARCH))
            streams[:] = st
            seats = (seat(elder, e_disc, samples if elder_searches else 0, c if elder_searches else 0, pe, no_probs),
                     seat(dealer, d_disc, 0 if elder_searches else samples, 0 if elder_searches else c, pd, no_probs))
            tricks = play_tricks_search(seats, streams, turnup, announced, must, table, hist, no_classes, sums, vals,
                                        rec)
            nets[j] = table_value(table, tricks) + kings
            row[W_VIOLATIONS] += rec[REC_VIOLATIONS]
            row[W_FALLBACKS] += rec[REC_FALLBACKS]
            row[W_DRAWS] += rec[REC_DRAWS]
        ge = nets[1] - nets[0]
        gd = nets[2] - nets[3]
        row[W_N] += 1
        row[W_E_PLAIN] += nets[0]
        row[W_E_WATCH] += nets[1]
        row[W_E_GAIN] += ge
        row[W_E_GAIN_SQ] += ge * ge
        row[W_D_PLAIN] += nets[2]
        row[W_D_WATCH] += nets[3]
        row[W_D_GAIN] += gd
        row[W_D_GAIN_SQ] += gd * gd
        row[W_BOTH_GAIN] += ge + gd
        row[W_BOTH_GAIN_SQ] += (ge + gd) * (ge + gd)
        row[W_E_CHANGED] += 1 if ge != 0 else 0
        row[W_D_CHANGED] += 1 if gd != 0 else 0
        for side in range(2):
            k = 0
            if hist[EH_ROUNDS] > 0:
                k = hist[EH_ROUND0 + (EHR_EK if side == 0 else EHR_DK)]
            before = elder0 if side == 0 else dealer0
            after = elder if side == 0 else dealer
            b = W_BY_COUNT + (6 * side + k) * N_BY_COUNT
            sb = strength(before, t)
            mid = popcount(after & MIDDLE)
            row[b + BC_N] += 1
            row[b + BC_BEFORE] += sb
            row[b + BC_AFTER] += strength(after, t)
            row[b + BC_TRUMPS] += popcount((after >> (8 * t)) & 0xFF)
            row[b + BC_MIDDLE] += mid
            row[b + BC_BEFORE_SQ] += sb * sb
            row[b + BC_MIDDLE_SQ] += mid * mid
    return row


@runs(watching_chunk)
def watching_block(seed, starts, counts, rules, pe, pd, samples, cond):
    """Tally rows (N_WATCH_TALLY per chunk): every deal played four ways (module docstring)."""
    return chunk_rows(watching_chunk, seed, starts, counts, rules, pe, pd, samples, cond)


def watching(n: int, seed: int, rules="seed-de", samples: int = 20, read: str = "discards",
             threads: int | None = None, *, policy=None, chunk: int = 256, quiet: bool = True) -> dict:
    """What reading the opponent's exchanges gains a searching player, per hand, on n deals.

    ``read``: "discards" (each round's count and cards, as the opponent's policy throws them: the
    tip), "decisions" (his proposals, answers and kings) or "all". Both players' model of the
    other is the other's actual policy (heuristic, default unless ``policy``). Returns Estimates
    (95%): ``elder_gain``, ``dealer_gain`` (each in his own points), ``mean_gain`` (the two sides'
    average, paired per deal), the nets, the fallback rate, and ``by_count``: per side and
    first-round discard count, the deals, the mean strength of the hand before (with its interval)
    and after the exchange, trumps and middle cards after (with its interval); ``dealt_strength``:
    the mean strength of every dealt hand, both sides."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.runner import run_tallies
    from analysis.stats import Estimate, mean_from_sums, paired_difference

    if samples < 1:
        raise InputError(f"samples must be at least 1, not {samples}")
    if read not in CONDS:
        raise InputError(f"unknown reading {read!r}; valid: {', '.join(CONDS)}")
    r = get_rules(rules) if isinstance(rules, str) else rules
    pol = (policy or HeuristicPolicy()).to_array()
    if pol[P_KIND] != KIND_HEURISTIC:
        raise InputError("watching plays heuristic exchanges: the policy must be heuristic")
    tot = run_tallies(watching_block, (r.to_array(), pol, pol, np.int64(samples), np.int64(CONDS[read])), n, seed,
                      chunk=chunk, threads=threads, quiet=quiet, desc="watching")
    if tot[W_VIOLATIONS]:
        raise RuntimeError(f"the searchers' inferences excluded the actual hand {int(tot[W_VIOLATIONS])} times")
    m = int(tot[W_N])
    both = paired_difference(int(tot[W_BOTH_GAIN]), int(tot[W_BOTH_GAIN_SQ]), m)
    by_count = []
    for side, name in enumerate(("elder", "dealer")):
        for k in range(6):
            b = W_BY_COUNT + (6 * side + k) * N_BY_COUNT
            d = int(tot[b + BC_N])
            if d:
                by_count.append({
                    "side": name, "discarded": k, "deals": d,
                    "strength_before": mean_from_sums(int(tot[b + BC_BEFORE]), int(tot[b + BC_BEFORE_SQ]), d),
                    "strength_after": float(tot[b + BC_AFTER] / d), "trumps_after": float(tot[b + BC_TRUMPS] / d),
                    "middle_after": mean_from_sums(int(tot[b + BC_MIDDLE]), int(tot[b + BC_MIDDLE_SQ]), d)})
    return {
        "read": read, "samples": samples, "deals": m,
        "elder_gain": paired_difference(int(tot[W_E_GAIN]), int(tot[W_E_GAIN_SQ]), m),
        "dealer_gain": paired_difference(int(tot[W_D_GAIN]), int(tot[W_D_GAIN_SQ]), m),
        "mean_gain": Estimate(both.value / 2, both.lo / 2, both.hi / 2, both.n),
        "nets": {"elder_searching_plain": tot[W_E_PLAIN] / m, "elder_searching_reading": tot[W_E_WATCH] / m,
                 "dealer_searching_plain": tot[W_D_PLAIN] / m, "dealer_searching_reading": tot[W_D_WATCH] / m},
        "changed": {"elder": int(tot[W_E_CHANGED]), "dealer": int(tot[W_D_CHANGED])},
        "fallback_rate": float(tot[W_FALLBACKS] / tot[W_DRAWS]) if tot[W_DRAWS] else 0.0,
        "by_count": by_count, "tallies": tot,
        "dealt_strength": float(sum(tot[W_BY_COUNT + j * N_BY_COUNT + BC_BEFORE] for j in range(12))
                                / (2 * m)) if m else float("nan"),
    }


def as_json(res: dict) -> dict:
    """The JSON form: Estimates as {"value", "ci95", "n"}, the tallies left out."""
    def plain(v):
        if hasattr(v, "to_dict"):
            return v.to_dict()
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, list):
            return [plain(x) for x in v]
        return float(v) if isinstance(v, np.floating) else v

    return {"players": {"exchanges": "heuristic", "trick_play": f"search ({res['samples']} samples) against the "
                        "heuristic"}, **{k: plain(v) for k, v in res.items() if k != "tallies"}}


def text(res: dict) -> str:
    """The gains, then the hand behind each first-round discard count."""
    lines = [f"Reading the opponent's {res['read']} (search, {res['samples']} samples, against the heuristic; "
             f"heuristic exchanges; {res['deals']:,} deals; fallback to a plain draw {res['fallback_rate']:.2%})",
             f"  elder's gain:      {res['elder_gain']}", f"  the dealer's gain: {res['dealer_gain']}",
             f"  mean per side:     {res['mean_gain']}",
             f"By first-round discard count (every dealt hand's strength {res['dealt_strength']:.2f}; "
             "a random hand holds 1.875 middle cards):",
             "  side    threw  deals   strength before        after   trumps  middle cards after"]
    for r in res["by_count"]:
        b, m = r["strength_before"], r["middle_after"]
        lines.append(f"  {r['side']:<7} {r['discarded']:>5} {r['deals']:>6}   {b.value:5.2f} [{b.lo:5.2f}, {b.hi:5.2f}]"
                     f"  {r['strength_after']:5.2f}   {r['trumps_after']:5.2f}   {m.value:.2f} [{m.lo:.2f}, {m.hi:.2f}]")
    return "\n".join(lines)

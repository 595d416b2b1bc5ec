"""How much the search player gains over the heuristic in Écarté's trick play.

``search_vs_heuristic_block`` plays every deal's post-exchange position three ways on the same
cards (heuristic against heuristic, elder searching, the dealer searching; lane 2 for elder's
draws, lane 3 for the dealer's; lane 0 is the cards, 1 a random policy's choices) and
``search_strength`` turns its tallies into paired estimates of what searching gains each side.

The search player itself is in ``players/search.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import penalties, uses_choices
from analysis.ecarte.players.search import (
    LANE_DEALER_SEARCH,
    LANE_ELDER_SEARCH,
    REC_VIOLATIONS,
    play_tricks_search,
    search_scratch,
    seat,
)
from analysis.ecarte.players.solver import table_value, value_table
from analysis.ecarte.policies import KIND_HEURISTIC, P_KIND
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start

# Tally row of search_vs_heuristic_block. Nets are elder's points of the hand (tricks and kings)
# minus the dealer's. a: both heuristic; b: elder searches; c: the dealer searches.
ST_N, ST_A_NET, ST_A_NET_SQ = 0, 1, 2
ST_B_NET, ST_B_NET_SQ, ST_B_GAIN, ST_B_GAIN_SQ = 3, 4, 5, 6  # gain = b - a (elder's gain)
ST_C_NET, ST_C_NET_SQ, ST_C_GAIN, ST_C_GAIN_SQ = 7, 8, 9, 10  # gain = a - c (the dealer's gain)
ST_A_TRICKS, ST_B_TRICKS, ST_C_TRICKS = 11, 12, 13
ST_B_CHANGED, ST_C_CHANGED = 14, 15  # deals where searching changed elder's tricks
ST_VIOLATIONS = 16
N_SEARCH_TALLY = 17


@njit(cache=True, nogil=True)
def search_chunk(useed, start, count, rules, pe, pd, samples):
    """The tally row (ST_*) of deals start..start+count-1 (the body of the block's loop)."""
    deck = np.empty(32, dtype=np.int8)
    sums, vals, rec, hist, no_probs, no_classes = search_scratch()
    row = np.zeros(N_SEARCH_TALLY, dtype=np.int64)
    choices = uses_choices(pe, pd)
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    streams = np.zeros(2, dtype=np.uint64)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        t = turnup >> 3
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges(deck, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd, hist)
        sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        kings = (announced & 1) - (announced >> 1) - (1 if (turnup & 7) == 7 else 0)
        plain = (seat(elder, e_disc, 0, 0, pe, no_probs), seat(dealer, d_disc, 0, 0, pd, no_probs))
        streams[:] = 0
        ta = play_tricks_search(plain, streams, turnup, announced, must, table, hist, no_classes, sums, vals, rec)
        streams[0] = stream_start(useed, ui, np.uint64(LANE_ELDER_SEARCH))
        elder_searches = (seat(elder, e_disc, samples, 0, pe, no_probs), plain[1])
        tb = play_tricks_search(elder_searches, streams, turnup, announced, must, table, hist, no_classes, sums, vals,
                                rec)
        row[ST_VIOLATIONS] += rec[REC_VIOLATIONS]
        streams[1] = stream_start(useed, ui, np.uint64(LANE_DEALER_SEARCH))
        dealer_searches = (plain[0], seat(dealer, d_disc, samples, 0, pd, no_probs))
        tc = play_tricks_search(dealer_searches, streams, turnup, announced, must, table, hist, no_classes, sums, vals,
                                rec)
        row[ST_VIOLATIONS] += rec[REC_VIOLATIONS]
        a = table_value(table, ta) + kings
        b = table_value(table, tb) + kings
        c = table_value(table, tc) + kings
        row[ST_N] += 1
        row[ST_A_NET] += a
        row[ST_A_NET_SQ] += a * a
        row[ST_B_NET] += b
        row[ST_B_NET_SQ] += b * b
        row[ST_B_GAIN] += b - a
        row[ST_B_GAIN_SQ] += (b - a) * (b - a)
        row[ST_C_NET] += c
        row[ST_C_NET_SQ] += c * c
        row[ST_C_GAIN] += a - c
        row[ST_C_GAIN_SQ] += (a - c) * (a - c)
        row[ST_A_TRICKS] += ta
        row[ST_B_TRICKS] += tb
        row[ST_C_TRICKS] += tc
        row[ST_B_CHANGED] += 1 if tb != ta else 0
        row[ST_C_CHANGED] += 1 if tc != ta else 0
    return row


@runs(search_chunk)
def search_vs_heuristic_block(seed, starts, counts, rules, pe, pd, samples):
    """Tally rows (N_SEARCH_TALLY per chunk) of deals played three ways on the same cards.

    Deal i is dealt, exchanged and its kings announced as in the kernel (heuristic or random
    policies ``pe``/``pd``, the kernel's streams); its post-exchange position is then played (a)
    elder heuristic vs dealer heuristic, (b) elder searching with ``samples`` draws vs dealer
    heuristic, (c) elder heuristic vs dealer searching; (a) is the baseline of both comparisons
    (elder's gain b - a, the dealer's gain a - c). The heuristic's trick play is the kernel's
    heuristic_lead / heuristic_follow; nets count the kings as ``kernel.write_result`` does.
    """
    return chunk_rows(search_chunk, seed, starts, counts, rules, pe, pd, samples)


def search_strength(n: int, seed: int, rules="seed-de", samples: int = 20, threads: int | None = None, *,
                    elder_policy=None, dealer_policy=None, chunk: int = 512, quiet: bool = True) -> dict:
    """How much the search policy gains over the heuristic in trick play, per hand, on n deals.

    ``rules``: a variant name or an EcarteRules; the policies (heuristic, default parameters unless
    given) decide the exchanges and kings and play the heuristic side. Returns Estimates (95%):
    ``elder_gain`` (elder's net with elder searching minus with the heuristic, paired on the same
    deals), ``dealer_gain`` (the same for the dealer, in the dealer's net), the mean nets
    ``net_heuristic``, ``net_elder_search``, ``net_dealer_search``, and the raw ``tallies``.
    """
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.runner import run_tallies
    from analysis.stats import mean_from_sums, paired_difference

    if samples < 1:
        raise InputError(f"samples must be at least 1, not {samples}")
    r = get_rules(rules) if isinstance(rules, str) else rules
    pe = (elder_policy or HeuristicPolicy()).to_array()
    pd = (dealer_policy or HeuristicPolicy()).to_array()
    if pe[P_KIND] != KIND_HEURISTIC or pd[P_KIND] != KIND_HEURISTIC:
        raise InputError("search_strength compares against the heuristic: both policies must be heuristic")
    tot = run_tallies(search_vs_heuristic_block, (r.to_array(), pe, pd, np.int64(samples)), n, seed,
                      chunk=chunk, threads=threads, quiet=quiet, desc="search")
    if tot[ST_VIOLATIONS]:
        raise RuntimeError(f"the searchers' inferences excluded the actual hand {int(tot[ST_VIOLATIONS])} times")
    m = int(tot[ST_N])
    return {
        "elder_gain": paired_difference(int(tot[ST_B_GAIN]), int(tot[ST_B_GAIN_SQ]), m),
        "dealer_gain": paired_difference(int(tot[ST_C_GAIN]), int(tot[ST_C_GAIN_SQ]), m),
        "net_heuristic": mean_from_sums(int(tot[ST_A_NET]), int(tot[ST_A_NET_SQ]), m),
        "net_elder_search": mean_from_sums(int(tot[ST_B_NET]), int(tot[ST_B_NET_SQ]), m),
        "net_dealer_search": mean_from_sums(int(tot[ST_C_NET]), int(tot[ST_C_NET_SQ]), m),
        "tallies": tot,
    }

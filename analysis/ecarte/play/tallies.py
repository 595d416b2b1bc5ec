"""Tallies of single Écarté hands: the compact histogram per chunk (``H_*``, ``HIST_FIELDS``) that
``hands_chunk`` / ``hands_block`` fill, and ``hand_tallies``, the named tallies (``T_*``,
``TALLY_FIELDS``) derived from it. ``hands_block`` is the kernel behind ``salon simulate ecarte``
and ``salon bench``.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import (
    H_FLAGS,
    H_POINTS,
    H_ROUNDS,
    H_STOCK_DRAWN,
    H_TRICKS,
    H_TRUMPS,
    N_HIST,
    N_OUT,
    N_TALLY,
    O_ANNOUNCED,
    O_DEALER_DEALT,
    O_DEALER_POINTS,
    O_ELDER_DEALT,
    O_ELDER_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_PROPOSED_FIRST,
    O_ROUNDS,
    O_STOCK_DRAWN,
    O_TURNUP,
    T_DEALER_ANNOUNCES,
    T_DEALER_POINTS,
    T_DEALER_POINTS_SQ,
    T_DEALER_REFUSES,
    T_DEALER_VOLE,
    T_ELDER_ANNOUNCES,
    T_ELDER_DEALT_TRUMP_KING,
    T_ELDER_POINTS,
    T_ELDER_POINTS_SQ,
    T_ELDER_PROPOSES,
    T_ELDER_TRICKS,
    T_ELDER_TRUMPS,
    T_ELDER_VOLE,
    T_ELDER_WINS_POINT,
    T_HANDS,
    T_NET,
    T_NET_SQ,
    T_ONE_TRUMP,
    T_ONE_TRUMP_DEALER_TWO_PLUS,
    T_PLAYED_WITHOUT_PROPOSING,
    T_ROUNDS,
    T_STOCK_DRAWN,
    T_TURNUP_KING,
    T_VOLE,
)
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import hand_points, play_hand, uses_choices
from analysis.ecarte.players.heuristic import heuristic_tricks_pair
from analysis.ecarte.policies import P_LEAD_TRUMPS, P_LEADS
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import EMPTY_HALF, stream_start


@njit(cache=True, inline="always")
def tally_hand(h, out):
    """Add one hand's outcome vector to a histogram row (H_* layout)."""
    tally_fields(h, out[O_TURNUP], out[O_ELDER_DEALT], out[O_DEALER_DEALT], out[O_ELDER_POINTS],
                 out[O_DEALER_POINTS], out[O_ELDER_TRICKS], out[O_PROPOSED_FIRST], out[O_ENDING],
                 out[O_ANNOUNCED], out[O_ROUNDS], out[O_STOCK_DRAWN])


@njit(cache=True, inline="always")
def tally_fields(h, turnup, elder_dealt, dealer_dealt, elder_points, dealer_points, etricks, proposed, ending,
                 announced, rnd, drawn):
    """Add one hand to a histogram row (H_* layout) from its outcome's fields."""
    t = turnup >> 3
    tmask = 0xFF << (8 * t)
    h[H_POINTS + elder_points * 6 + dealer_points] += 1
    h[H_TRICKS + etricks] += 1
    tk = 1 if (turnup & 7) == 7 else 0
    flags = (tk | (((elder_dealt >> (8 * t + 7)) & 1) << 1) | (proposed << 2) | (ending << 3) | (announced << 4))
    h[H_FLAGS + flags] += 1
    two = 1 if popcount(dealer_dealt & tmask) >= 2 else 0
    h[H_TRUMPS + popcount(elder_dealt & tmask) * 2 + two] += 1
    h[H_ROUNDS] += rnd
    h[H_STOCK_DRAWN] += drawn


def hand_tallies(h: np.ndarray) -> np.ndarray:
    """The named tallies (T_* layout) from a summed histogram (H_* layout)."""
    h = np.asarray(h, dtype=np.int64)
    t = np.zeros(N_TALLY, dtype=np.int64)
    pts = h[H_POINTS:H_POINTS + 36].reshape(6, 6)
    ep = np.arange(6)[:, None]
    dp = np.arange(6)[None, :]
    n = int(pts.sum())
    t[T_HANDS] = n
    t[T_ELDER_POINTS] = (pts * ep).sum()
    t[T_ELDER_POINTS_SQ] = (pts * ep * ep).sum()
    t[T_DEALER_POINTS] = (pts * dp).sum()
    t[T_DEALER_POINTS_SQ] = (pts * dp * dp).sum()
    t[T_NET] = (pts * (ep - dp)).sum()
    t[T_NET_SQ] = (pts * (ep - dp) ** 2).sum()
    tricks = h[H_TRICKS:H_TRICKS + 6]
    t[T_ELDER_WINS_POINT] = tricks[3:].sum()
    t[T_ELDER_VOLE] = tricks[5]
    t[T_DEALER_VOLE] = tricks[0]
    t[T_VOLE] = tricks[0] + tricks[5]
    t[T_ELDER_TRICKS] = (tricks * np.arange(6)).sum()
    flags = h[H_FLAGS:H_FLAGS + 64]
    f = np.arange(64)
    t[T_TURNUP_KING] = flags[(f & 1) == 1].sum()
    t[T_ELDER_DEALT_TRUMP_KING] = flags[(f >> 1) & 1 == 1].sum()
    t[T_ELDER_PROPOSES] = flags[(f >> 2) & 1 == 1].sum()
    t[T_PLAYED_WITHOUT_PROPOSING] = n - t[T_ELDER_PROPOSES]
    t[T_DEALER_REFUSES] = flags[(f >> 3) & 1 == 1].sum()
    t[T_ELDER_ANNOUNCES] = flags[(f >> 4) & 1 == 1].sum()
    t[T_DEALER_ANNOUNCES] = flags[(f >> 5) & 1 == 1].sum()
    trumps = h[H_TRUMPS:H_TRUMPS + 12].reshape(6, 2)
    t[T_ELDER_TRUMPS:T_ELDER_TRUMPS + 6] = trumps.sum(axis=1)
    t[T_ONE_TRUMP] = trumps[1].sum()
    t[T_ONE_TRUMP_DEALER_TWO_PLUS] = trumps[1, 1]
    t[T_ROUNDS] = h[H_ROUNDS]
    t[T_STOCK_DRAWN] = h[H_STOCK_DRAWN]
    return t


ReadyHand = namedtuple("ReadyHand", ("elder", "dealer", "turnup", "elder_dealt", "dealer_dealt", "drawn", "rounds",
                                     "ending", "pwp", "refused", "proposed", "announced"))
"""A hand dealt, exchanged and its kings announced (``exchange_phase``): the hands to play, the
turn-up, the hands dealt, the stock cards drawn, and the fields of ``exchanges`` and
``announce_kings`` that the score and the tally need."""


@njit(cache=True, inline="always")
def exchange_phase(deck, useed, ui, rules, pe, pd):
    """Deal hand ``ui`` and play its exchanges and kings under heuristic policies (no choices
    stream); returns a ``ReadyHand``, what the tricks and the tally need."""
    stc = stream_start(useed, ui, np.uint64(0))
    stc, stb, elder_dealt, dealer_dealt, turnup = deal(deck, stc, EMPTY_HALF)
    t = turnup >> 3
    x = exchanges(deck, 11, stc, stb, np.uint64(0), elder_dealt, dealer_dealt, t, rules, pe, pd)
    sto, announced = announce_kings(x.elder, x.dealer, t, x.sto, pe, pd)
    return ReadyHand(x.elder, x.dealer, turnup, elder_dealt, dealer_dealt, x.p - 11, x.rounds, x.ending, x.pwp,
                     x.refused_round, x.proposed_first, announced)


@njit(cache=True, inline="always")
def tally_scored(h, x, etricks, rules):
    """Score the ``ReadyHand`` x, in which elder took ``etricks`` tricks (as write_result), and add
    it to a histogram row, without an outcome vector."""
    ep, dp, _, _, _ = hand_points(x.turnup, etricks, x.ending, x.announced, x.pwp, x.refused, rules)
    tally_fields(h, x.turnup, x.elder_dealt, x.dealer_dealt, ep, dp, etricks, x.proposed, x.ending, x.announced,
                 x.rounds, x.drawn)


@njit(cache=True, nogil=True, _nrt=False)
def hands_chunk(useed, start, count, rules, pe, pd, deck, deck_b, out, row):
    """Add the hands start..start+count-1 to the histogram row ``row`` (the body of hands_block's
    loop; ``deck``, ``deck_b`` and ``out`` are scratch arrays).

    With heuristic players (heuristic leads), hands go in pairs whose tricks are interleaved (the same results as
    ``play_hand``, faster: one hand's trick play is a chain of dependent steps). Compiled without
    numba's reference counting: the inlined helpers of the paired path take arrays, and the atomic
    increments and decrements on them were about a fifth of its time."""
    choices = uses_choices(pe, pd)
    i = start
    end = start + count
    if not (choices or pe[P_LEADS] or pd[P_LEADS]):
        must = rules[R_MUST_TRUMP_WHEN_VOID]
        e_lead = pe[P_LEAD_TRUMPS]
        d_lead = pd[P_LEAD_TRUMPS]
        while i + 1 < end:
            a = exchange_phase(deck, useed, np.uint64(i), rules, pe, pd)
            b = exchange_phase(deck_b, useed, np.uint64(i + 1), rules, pe, pd)
            tricks_a, tricks_b = heuristic_tricks_pair(a.elder, a.dealer, a.turnup >> 3, b.elder, b.dealer,
                                                       b.turnup >> 3, e_lead, d_lead, must)
            tally_scored(row, a, tricks_a, rules)
            tally_scored(row, b, tricks_b, rules)
            i += 2
    while i < end:
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        # A call, not inlined: these players (learned leads, random choices) spend far more per
        # hand than the call's reference counting, and inlining the whole hand here doubled
        # this kernel's compile time (about 35 of its 59 seconds).
        play_hand(deck, np.int64(11), (stc, stb, sto), elder, dealer, turnup, rules, pe, pd, out, np.bool_(False))
        tally_hand(row, out)
        i += 1


@runs(hands_chunk)
def hands_block(seed, starts, counts, rules, pe, pd):
    """Histogram rows (N_HIST per chunk) of the hands in each chunk [starts[c], starts[c] + counts[c]),
    on all threads (``blocks.on_threads``), each chunk with its own scratch arrays."""
    tallies = np.zeros((len(starts), N_HIST), dtype=np.int64)
    useed = np.uint64(seed)

    def run(c: int) -> None:
        hands_chunk(useed, starts[c], counts[c], rules, pe, pd, np.empty(32, dtype=np.int8), np.empty(32, dtype=np.int8),
                    np.zeros(N_OUT, dtype=np.int64), tallies[c])

    on_threads(run, len(starts))
    return tallies

"""Numba kernels of the discard analyser: every exchange of one hand played on the same sampled
deals, and the exact declaration odds of an exchange over every possible draw.

The sampled deal ``i`` of seed ``s`` (docs/piquet-engine.md, "Discard analyser"): the 20 cards
not in the hand, in ascending code order, are shuffled with ``Stream(s, i, 0).below32`` (for
``p = 0..18``: ``j = p + below32(20 - p)``, swap); positions 0-11 are the opponent's hand and
12-19 the talon, 12 its top. The random policy's choices come from ``Stream(s, i, 1)``, the same
stream for every option.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import lowest_bit, popcount
from analysis.blocks import on_threads, runs
from analysis.piquet.engine.declarations import point_key, sequence_key_and_score, set_key_and_score
from analysis.piquet.engine.layout import (
    N_OUT,
    O_CAPOT,
    O_CARDS,
    O_PIQUE,
    O_POINT,
    O_REPIQUE,
    O_SEQUENCES,
    O_SETS,
    O_TOTAL,
)
from analysis.piquet.play.deal import play_dealt
from analysis.piquet.players.heuristic import card_values, choose_discard
from analysis.piquet.players.learned_features import exchange_model
from analysis.piquet.players.search import S_DISCARD, play_scratch, uses_solver
from analysis.piquet.policies import KIND_RANDOM, P_KIND
from analysis.piquet.rules import R_LEAD_POINTS_EVERY_TRICK, R_YOUNGER_MIN, R_YOUNGER_TAKES_LEFTOVERS
from analysis.rng import EMPTY_HALF, stream_start
from analysis.shuffle import shuffle_first

# Flags of one (deal, option), from the analysed player's side.
F_POINT, F_SEQUENCES, F_SETS, F_REPIQUE, F_PIQUE, F_CAPOT, F_CARDS = 1, 2, 4, 8, 16, 32, 64


@njit(cache=True)
def sample_deck(deck, hand_codes, unseen, useed, i, younger):
    """Fill ``deck`` (32 codes: elder's 12, younger's 12, the talon) for sampled deal i, the
    analysed hand in its seat; returns (elder mask, younger mask)."""
    st = stream_start(useed, np.uint64(i), np.uint64(0))
    rest = unseen.copy()
    shuffle_first(rest, 20, 19, st, EMPTY_HALF)
    mine = 12 if younger else 0
    theirs = 0 if younger else 12
    hand = 0
    opp = 0
    for q in range(12):
        deck[mine + q] = hand_codes[q]
        deck[theirs + q] = rest[q]
        hand |= 1 << np.int64(hand_codes[q])
        opp |= 1 << np.int64(rest[q])
    for q in range(8):
        deck[24 + q] = rest[12 + q]
    if younger:
        return opp, hand
    return hand, opp


@njit(cache=True, nogil=True)
def options_chunk(useed, start, count, hand_codes, unseen, younger, options, rules, pe, py):
    """Play every option on sampled deals start..start+count-1: (count, options) net and flags."""
    net = np.empty((count, options.shape[0]), dtype=np.int16)
    flags = np.empty((count, options.shape[0]), dtype=np.int8)
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pe) or uses_solver(py))
    out = np.zeros(N_OUT, dtype=np.int64)
    ve = card_values(pe, np.bool_(False))
    vy = card_values(py, np.bool_(True))
    me = 1 if younger else 0
    sign = -1 if younger else 1
    theirs = pe if younger else py
    # A heuristic opponent's exchange depends only on his hand and on how many cards elder took,
    # so it is decided once per deal (per count) and forced for every option: the same result.
    cache = theirs[P_KIND] != KIND_RANDOM
    their_discard = np.full(6, -1, dtype=np.int64)
    lo_y = rules[R_YOUNGER_MIN]
    model = exchange_model(rules[R_YOUNGER_TAKES_LEFTOVERS], rules[R_LEAD_POINTS_EVERY_TRICK])
    work = scratch[S_DISCARD:S_DISCARD + 32].view(np.int32)
    for r in range(count):
        i = start + r
        elder, yng = sample_deck(deck, hand_codes, unseen, useed, i, younger)
        sto0 = stream_start(useed, np.uint64(i), np.uint64(1))
        if cache and younger:
            _, their_discard[0] = choose_discard(elder, 1, 5, pe, ve, False, sto0, work, -1, model)
        elif cache:
            for k in range(1, 6):
                hi = 8 - k if rules[R_YOUNGER_TAKES_LEFTOVERS] else 3
                _, their_discard[k] = choose_discard(yng, lo_y, hi, py, vy, True, sto0, work, -1, model)
        for o in range(options.shape[0]):
            opt = options[o]
            theirs_now = their_discard[0 if younger else popcount(opt)]
            e_force = theirs_now if younger else opt
            y_force = opt if younger else theirs_now
            play_dealt(deck, elder, yng, sto0, rules, (pe, py), (ve, vy), out, scratch, np.bool_(False),
                       (e_force, y_force))
            net[r, o] = sign * (out[O_TOTAL] - out[O_TOTAL + 1])
            f = 0
            f |= F_POINT if out[O_POINT + me] > 0 else 0
            f |= F_SEQUENCES if out[O_SEQUENCES + me] > 0 else 0
            f |= F_SETS if out[O_SETS + me] > 0 else 0
            f |= F_REPIQUE if out[O_REPIQUE + me] > 0 else 0
            f |= F_PIQUE if (out[O_PIQUE] > 0 and not younger) else 0
            f |= F_CAPOT if out[O_CAPOT + me] > 0 else 0
            f |= F_CARDS if (out[O_CARDS + me] > 0 or out[O_CAPOT + me] > 0) else 0
            flags[r, o] = f
    return net, flags


@runs(options_chunk)
def options_block(seed, start, n, hand_codes, unseen, younger, options, rules, pe, py, chunk):
    """Net score (mine minus the opponent's) and flags of every option on sampled deals
    start..start+n-1: two (n, options) arrays, identical for any thread count."""
    net = np.zeros((n, options.shape[0]), dtype=np.int16)
    flags = np.zeros((n, options.shape[0]), dtype=np.int8)
    useed = np.uint64(seed)

    def run(ci: int) -> None:
        a = ci * chunk
        b = min(n, a + chunk)
        net[a:b], flags[a:b] = options_chunk(useed, start + a, b - a, hand_codes, unseen, younger, options, rules, pe, py)

    on_threads(run, (n + chunk - 1) // chunk)
    return net, flags


# ------------------------------------------------------------------------------- exact odds
@njit(cache=True)
def exact_odds(kept, unseen, k, point_hist, seq_hist, set_hist):
    """Add, over every k-card draw from the unseen cards, the declarations of kept + draw:
    point_hist[length], seq_hist[length of the best sequence, 0 for none], set_hist[best set key
    (16 + rank for a quatorze, 8 + rank for a trio, 0 for none)]. Returns the number of draws."""
    n = unseen.shape[0]
    idx = np.arange(k)
    total = 0
    while True:
        h = kept
        for q in range(k):
            h |= 1 << np.int64(unseen[idx[q]])
        point_hist[point_key(h) >> 7] += 1
        sk, _ = sequence_key_and_score(h)
        seq_hist[sk >> 3] += 1
        tk, _ = set_key_and_score(h)
        set_hist[tk] += 1
        total += 1
        # Next k-combination of 0..n-1 in lexicographic order.
        q = k - 1
        while q >= 0 and idx[q] == n - k + q:
            q -= 1
        if q < 0:
            break
        idx[q] += 1
        for r in range(q + 1, k):
            idx[r] = idx[r - 1] + 1
    return total


@njit(cache=True, parallel=True)
def exact_block(hand, options, unseen, point_hist, seq_hist, set_hist):
    """exact_odds of every option (discard mask, drawing as many cards as it throws)."""
    for o in prange(options.shape[0]):
        d = options[o]
        exact_odds(hand & ~d, unseen, popcount(d), point_hist[o], seq_hist[o], set_hist[o])


@njit(cache=True)
def mask_codes(mask):
    """The codes of a mask, ascending (int8)."""
    out = np.empty(popcount(mask), dtype=np.int8)
    q = 0
    while mask:
        out[q] = lowest_bit(mask)
        mask &= mask - 1
        q += 1
    return out

"""Paired comparisons in the Écarté kernel: two configurations (policies and forced first
decisions) played on the same deal with the same streams, tallied as ``C_*`` rows
(``COMPARE_FIELDS``): over random deals (``pair_block``), for one elder hand (``fixed_hand_block``),
per hand class (``class_block``) and per cell of class, sure winners and 10-9-8 (``cells_block``).

The scratch arrays stay separate arguments of ``compare_both`` (not one named tuple as in the
Bezique kernel): these kernels fill them inside ``prange`` bodies, and numba 0.68's parfor
lowering drops writes made there through a named tuple's array field (``ps.deck[i] = ...``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.blocks import chunk_rows, runs
from analysis.ecarte.engine.deal import KINGS, deal, deal_with_elder
from analysis.ecarte.engine.layout import (
    C_A_NET,
    C_A_NET_SQ,
    C_A_VOLE,
    C_A_WINS,
    C_B_NET,
    C_B_NET_SQ,
    C_B_PROPOSED,
    C_B_REFUSED,
    C_B_VOLE,
    C_B_WINS,
    C_DIFF,
    C_DIFF_SQ,
    C_N,
    N_COMPARE,
    N_OUT,
    O_DEALER_POINTS,
    O_ELDER_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_PROPOSED_FIRST,
)
from analysis.ecarte.play.hand import play_hand, uses_choices
from analysis.rng import EMPTY_HALF, stream_start


@njit(cache=True, inline="always")
def compare_both(deck, deck2, p, streams, elder, dealer, turnup, rules, cfg, out, row):
    """Play the dealt hand under configuration a and under b; add the pair (b - a) to ``row``.

    ``cfg`` rows: elder's and dealer's policy arrays of a, then of b.

    Nets are elder's points minus the dealer's; ``deck`` is left as b consumed it.
    """
    for i in range(32):
        deck2[i] = deck[i]
    play_hand(deck2, p, streams, elder, dealer, turnup, rules, cfg[0], cfg[1], out, np.bool_(False))
    net_a = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    row[C_A_WINS] += 1 if out[O_ELDER_TRICKS] >= 3 else 0
    row[C_A_VOLE] += 1 if out[O_ELDER_TRICKS] == 5 else 0
    play_hand(deck, p, streams, elder, dealer, turnup, rules, cfg[2], cfg[3], out, np.bool_(False))
    net_b = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    row[C_B_WINS] += 1 if out[O_ELDER_TRICKS] >= 3 else 0
    row[C_B_VOLE] += 1 if out[O_ELDER_TRICKS] == 5 else 0
    row[C_B_REFUSED] += out[O_ENDING]
    row[C_B_PROPOSED] += out[O_PROPOSED_FIRST]
    row[C_N] += 1
    row[C_A_NET] += net_a
    row[C_A_NET_SQ] += net_a * net_a
    row[C_B_NET] += net_b
    row[C_B_NET_SQ] += net_b * net_b
    d = net_b - net_a
    row[C_DIFF] += d
    row[C_DIFF_SQ] += d * d


@njit(cache=True)
def paired_scratch(rules, cfg, width):
    """A chunk's own arrays for a paired kernel: two decks, an outcome vector, copies of the rule
    and configuration arrays, and a tally row of ``width``."""
    return (np.empty(32, dtype=np.int8), np.empty(32, dtype=np.int8), np.empty(N_OUT, dtype=np.int64),
            rules.copy(), cfg.copy(), np.zeros(width, dtype=np.int64))


@njit(cache=True, nogil=True)
def pair_chunk(useed, start, count, rules, cfg):
    """The paired tally row (N_COMPARE) of two configurations on random deals start..start+count-1."""
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, N_COMPARE)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        compare_both(deck, deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, my_cfg, out, row)
    return row


@runs(pair_chunk)
def pair_block(seed, starts, counts, rules, cfg):
    """Paired tallies (N_COMPARE per chunk) of two configurations on the same random deals."""
    return chunk_rows(pair_chunk, seed, starts, counts, rules, cfg)


@njit(cache=True, nogil=True)
def fixed_hand_chunk(useed, start, count, elder_codes, turnup, rules, cfg):
    """The paired tally row (N_COMPARE) of two configurations for one given elder hand and
    turn-up, over the sampled deals start..start+count-1."""
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    elder = np.int64(0)  # typed: a literal 0 would compile play_hand once more
    for c in elder_codes:
        elder |= 1 << c
    deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, N_COMPARE)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, dealer = deal_with_elder(deck, stc, EMPTY_HALF, elder_codes, turnup)
        compare_both(deck, deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, my_cfg, out, row)
    return row


@runs(fixed_hand_chunk)
def fixed_hand_block(seed, starts, counts, elder_codes, turnup, rules, cfg):
    """Paired tallies of two configurations for one given elder hand and turn-up, over sampled deals."""
    return chunk_rows(fixed_hand_chunk, seed, starts, counts, elder_codes, turnup, rules, cfg)


@njit(cache=True, inline="always")
def hand_class(hand, turnup, class_ids):
    """Class of a dealt hand: class_ids[trumps, trump king held, plain kings] (-1: none)."""
    t = turnup >> 3
    tl = (hand >> (8 * t)) & 0xFF
    pk = popcount(hand & ~(0xFF << (8 * t)) & KINGS)
    return class_ids[popcount(tl), (tl >> 7) & 1, pk]


@njit(cache=True, inline="always")
def sure_winners(hand, turnup):
    """EC-T2's sure trick winners: master trumps (unbroken from the K, the turn-up counting as
    seen) plus plain kings."""
    t = turnup >> 3
    tl = (hand >> (8 * t)) & 0xFF
    seen = tl | (1 << (turnup & 7))
    n = 0
    for r in range(7, -1, -1):
        if not (seen >> r) & 1:
            break
        if (tl >> r) & 1:
            n += 1
    return n + popcount(hand & ~(0xFF << (8 * t)) & KINGS)


@njit(cache=True, inline="always")
def has_ten_nine_eight(hand):
    """True when the hand holds 10, 9 and 8 of one suit (EC-T3)."""
    m = 0b1110
    for s in range(4):
        if ((hand >> (8 * s)) & m) == m:
            return True
    return False


CLASS_SHIFT = 32
"""Deal i of hand class c has stream index ``c << CLASS_SHIFT | i`` (class_block)."""


@njit(cache=True, nogil=True)
def class_chunk(useed, start, count, class_ids, rules, cfg):
    """The paired tally row (N_COMPARE) of the deals start..start+count-1 of one elder hand class,
    found by rejection (``class_block``)."""
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, N_COMPARE)
    cls = start >> CLASS_SHIFT
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        while True:
            stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
            if hand_class(elder, turnup, class_ids) == cls:
                break
        compare_both(deck, deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, my_cfg, out, row)
    return row


@runs(class_chunk)
def class_block(seed, starts, counts, class_ids, rules, cfg):
    """Paired tallies per chunk of deals of one elder hand class, found by rejection.

    A chunk's stream indices ``c << CLASS_SHIFT | i`` name its class c and deals i: lane 0 deals
    until elder's hand falls in class c (the rejected deals use up the same stream), lane 1 is the
    choices stream.
    """
    return chunk_rows(class_chunk, seed, starts, counts, class_ids, rules, cfg)


@njit(cache=True, nogil=True)
def cells_chunk(useed, start, count, class_ids, n_classes, by_dealer, rules, cfg):
    """The paired tallies per cell (n_classes * 12, N_COMPARE) of deals start..start+count-1
    (``cells_block``)."""
    tallies = np.zeros((n_classes * 12, N_COMPARE), dtype=np.int64)
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    deck, deck2, out, my_rules, my_cfg, scratch = paired_scratch(rules, cfg, N_COMPARE)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        hand = dealer if by_dealer else elder
        cell = (hand_class(hand, turnup, class_ids) * 6 + sure_winners(hand, turnup)) * 2
        cell += 1 if has_ten_nine_eight(hand) else 0
        scratch[:] = 0
        compare_both(deck, deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, my_cfg, out,
                     scratch)
        if by_dealer and scratch[C_B_PROPOSED] == 0:
            continue
        for k in range(N_COMPARE):
            tallies[cell, k] += scratch[k]
    return tallies


@runs(cells_chunk)
def cells_block(seed, starts, counts, class_ids, n_classes, by_dealer, rules, cfg):
    """Paired tallies per cell (class, sure winners 0..5, holds 10-9-8) over random deals.

    The cell is computed on elder's dealt hand, or on the dealer's when ``by_dealer``; with
    ``by_dealer`` only deals in which elder proposed first (under configuration b) are tallied.
    """
    return chunk_rows(cells_chunk, seed, starts, counts, class_ids, n_classes, by_dealer, rules, cfg)

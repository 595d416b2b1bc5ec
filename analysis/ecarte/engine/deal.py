"""Dealing and hand measures in the Écarté kernel: the Fisher–Yates draw, the deal (EC-DEAL), a
deal with elder's hand fixed, the weakest card and the heuristic's hand strength.

Cards are codes ``8 * suit + rank`` (Écarté rank index: 7 8 9 10 J Q K A = 0..7 in the low bits,
so a higher card of a suit is a higher bit); a hand is a 32-bit mask.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.rng import below32

KINGS = 0x80808080
QUEENS = 0x40404040
COLUMN = 0x01010101


@njit(cache=True, inline="always")
def draw(deck, p, st, half):
    """Fix deck position p by one Fisher–Yates step: returns (stream state, half, card).

    Decks are int8 arrays of card codes (one 32-byte store resets a deck)."""
    st, half, j = below32(st, half, 32 - p)
    j += p
    c = deck[j]
    deck[j] = deck[p]
    deck[p] = c
    return st, half, np.int64(c)


@njit(cache=True, inline="always")
def deal(deck, st, half):
    """EC-DEAL: positions 0-4 elder, 5-9 dealer, 10 turn-up; returns (st, half, elder, dealer, turnup)."""
    for i in range(32):
        deck[i] = i
    elder = np.int64(0)  # typed: literals would compile the callers' callees once more
    dealer = np.int64(0)
    for p in range(5):
        st, half, c = draw(deck, p, st, half)
        elder |= 1 << c
    for p in range(5, 10):
        st, half, c = draw(deck, p, st, half)
        dealer |= 1 << c
    st, half, turnup = draw(deck, 10, st, half)
    return st, half, elder, dealer, turnup


@njit(cache=True)
def deal_with_elder(deck, st, half, elder_codes, turnup):
    """A deal with elder's five cards and the turn-up fixed; the dealer's five drawn at random.

    Layout: positions 0-4 elder, 5 the turn-up, 6-10 the dealer; the stock follows from 11.
    """
    fixed = 1 << turnup
    for c in elder_codes:
        fixed |= 1 << c
    for i in range(5):
        deck[i] = elder_codes[i]
    deck[5] = turnup
    k = 6
    for c in range(32):
        if not (fixed >> c) & 1:
            deck[k] = c
            k += 1
    dealer = 0
    for p in range(6, 11):
        st, half, c = draw(deck, p, st, half)
        dealer |= 1 << c
    return st, half, dealer


@njit(cache=True, inline="always")
def weakest(cards, t):
    """First card of a non-empty set in weakest-first order (non-trumps by rank, then trumps):
    the lowest rank present (the suits' lanes ORed together), in the lowest suit holding it."""
    tmask = 0xFF << (8 * t)
    plain = cards & ~tmask
    src = plain if plain else cards & tmask
    x = src | (src >> 16)
    r = lowest_bit(x | (x >> 8))
    return lowest_bit(src & (COLUMN << r))


@njit(cache=True, inline="always")
def strength(hand, t):
    """Heuristic hand strength: trumps 3 each (+3 K, +2 Q, +1 J), plain kings 2, plain queens 1."""
    tl = (hand >> (8 * t)) & 0xFF
    s = 3 * popcount(tl) + 3 * ((tl >> 7) & 1) + 2 * ((tl >> 6) & 1) + ((tl >> 5) & 1)
    plain = hand & ~(0xFF << (8 * t))
    return s + 2 * popcount(plain & KINGS) + popcount(plain & QUEENS)

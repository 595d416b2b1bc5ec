"""Card masks of the Bezique kernel: codes, faces, suits, which card wins a trick.

A card is the code ``32 * copy + 8 * suit + rank`` (rank 7 8 9 J Q K 10 A = 0..7, so a higher
card of a suit is a higher bit); a set of cards is one int64 mask over the 64 codes (bit 63 is the
sign bit, so every right shift is masked). The *face* of a card is ``code & 31``: a 32-bit face
mask names cards without their copy.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import popcount

SEVEN, JACK, QUEEN, KING, TEN, ACE = 0, 3, 4, 5, 6, 7
QS = 4  # queen of spades (face)
JD = 19  # jack of diamonds (face)
LOW32 = 0xFFFFFFFF
COL32 = 0x01010101  # rank 0 of every suit, one copy
BRISQUES32 = 0xC0C0C0C0  # tens and aces, one copy
NO_TARGET = 1 << 62  # above any score or sort key: the target of a single deal


@njit(cache=True, inline="always")
def bit(c):
    return np.int64(1) << np.int64(c)


@njit(cache=True, inline="always")
def faces_of(h):
    """The 32-bit mask of the faces present in a 64-bit card mask."""
    return (h | (h >> 32)) & LOW32


@njit(cache=True, inline="always")
def count32(h, m32):
    """Cards of ``h`` whose face is in the 32-bit face mask ``m32`` (copies counted)."""
    return popcount(h & m32 & LOW32) + popcount((h >> 32) & m32 & LOW32)


@njit(cache=True, inline="always")
def both_copies(m32):
    """The 64-bit mask of both copies of the faces in ``m32``."""
    return (m32 & LOW32) | ((m32 & LOW32) << 32)


@njit(cache=True, inline="always")
def suit_mask(s):
    return both_copies(0xFF << (8 * s))


@njit(cache=True, inline="always")
def follower_wins(led, fol, trump):
    """BZ-STOCK-PLAY: a higher card of the suit led, or a trump to a non-trump lead; of two
    identical cards the one led wins."""
    if ((fol ^ led) >> 3) & 3 == 0:
        return (fol & 7) > (led & 7)
    return (fol >> 3) & 3 == trump


@njit(cache=True, inline="always")
def beaters(led, trump):
    """The 64-bit mask of the cards that beat ``led`` (``follower_wins``)."""
    s = (led >> 3) & 3
    m = both_copies(((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * s))
    if s != trump:
        m |= suit_mask(trump)
    return m

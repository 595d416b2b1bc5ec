"""Piquet reference: seats, cards and hands, the deal, and the laws of the exchanges and of play.

The vocabulary the rest of the reference is written in (docs/piquet-engine.md): card codes
``8 * suit + rank`` and hand bitmasks, the shuffle of PQ-DEAL, how many cards each player may
exchange and which talon cards he takes or sees (PQ-EX-E, PQ-EX-Y, PQ-SEE), which card may follow
and which wins a trick (PQ-PLAY).
"""
from __future__ import annotations

from typing import NamedTuple

from analysis.piquet.rules import POINT_VALUES, PiquetRules
from analysis.rng import Stream

ELDER = "elder"
YOUNGER = "younger"
SEATS = (ELDER, YOUNGER)
HAND_SIZE = 12
TALON_SIZE = 8
ELDER_SHARE = 5          # talon indices 0..4 are elder's, 5..7 younger's (PQ-DEAL)
ELDER_MAX = 5
N_TRICKS = 12
ALL_CARDS = (1 << 32) - 1
JACK, QUEEN, KING, ACE = 4, 5, 6, 7


def other(seat: str) -> str:
    """The opponent's seat."""
    return YOUNGER if seat == ELDER else ELDER


# ---------------------------------------------------------------------------------------------
# Cards and hands
# ---------------------------------------------------------------------------------------------

def suit_of(code: int) -> int:
    """Suit index (S H D C = 0..3) of a card code."""
    return code >> 3


def rank_of(code: int) -> int:
    """Rank index (7 8 9 10 J Q K A = 0..7, PQ-DECK) of a card code."""
    return code & 7


def point_value(code: int) -> int:
    """PQ-DECK: a card's point value (A 11, K Q J 10, others face value)."""
    return POINT_VALUES[rank_of(code)]


def suit_mask(suit: int) -> int:
    """The mask of all eight cards of a suit."""
    return 0xFF << (8 * suit)


def ranks_in(mask: int, suit: int) -> int:
    """The 8-bit rank mask of a hand's cards of one suit (bit r set when rank r is held)."""
    return (mask >> (8 * suit)) & 0xFF


def mask_of_codes(codes) -> int:
    """The mask of some card codes."""
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def highest(mask: int) -> int:
    """The highest card code in a non-empty mask (within one suit: the highest card)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest card code in a non-empty mask (within one suit: the lowest card)."""
    return (mask & -mask).bit_length() - 1


def count(mask: int) -> int:
    """The number of cards in a mask."""
    return bin(mask).count("1")


def runs_of(ranks: int) -> list[tuple[int, int]]:
    """The maximal runs of consecutive ranks in an 8-bit rank mask, as (length, top rank)."""
    runs, r = [], 0
    while r < 8:
        if ranks >> r & 1:
            start = r
            while r < 8 and ranks >> r & 1:
                r += 1
            runs.append((r - start, r - 1))
        else:
            r += 1
    return runs


# ---------------------------------------------------------------------------------------------
# The deal (PQ-DEAL)
# ---------------------------------------------------------------------------------------------

def deal_cards(seed: int, index: int, lane: int = 0) -> list[int]:
    """PQ-DEAL: the 32 codes after the engine's shuffle of ``Stream(seed, index, lane)``.

    For p = 0..30: ``j = p + below32(32 - p)``, swap deck[p] and deck[j]. Then deck[0:12] is
    elder's hand, deck[12:24] younger's, deck[24:32] the talon, deck[24] its top.
    """
    stream = Stream(seed, index, lane)
    deck = list(range(32))
    for p in range(31):
        j = p + stream.below32(32 - p)
        deck[p], deck[j] = deck[j], deck[p]
    return deck


# ---------------------------------------------------------------------------------------------
# Exchanges and play (PQ-EX-E, PQ-EX-Y, PQ-SEE, PQ-PLAY)
# ---------------------------------------------------------------------------------------------

def elder_bounds() -> tuple[int, int]:
    """PQ-EX-E: elder exchanges 1 to 5 cards."""
    return 1, ELDER_MAX


def younger_bounds(rules: PiquetRules, elder_took: int) -> tuple[int, int]:
    """PQ-EX-Y: younger's least and most cards (bottom 3 only, or every card left)."""
    return rules.younger_bounds(elder_took)


def younger_talon_indices(rules: PiquetRules, elder_took: int, younger_took: int) -> range:
    """PQ-EX-Y: the talon indices younger takes: the cards elder left first (seed-no,
    cavendish), or the bottom three only (seed-de)."""
    start = elder_took if rules.younger_takes_leftovers else ELDER_SHARE
    return range(start, start + younger_took)


def seen_talon_indices(seat: str, rules: PiquetRules, elder_took: int,
                       younger_took: int) -> range:
    """PQ-SEE: the talon cards a player left and saw that are still in the talon at play."""
    if seat == ELDER:
        start = elder_took + younger_took if rules.younger_takes_leftovers else elder_took
        return range(start, ELDER_SHARE)
    start = elder_took + younger_took if rules.younger_takes_leftovers else ELDER_SHARE + younger_took
    return range(start, TALON_SIZE)


class Trick(NamedTuple):
    """One trick: who led, the card led, the card played to it, who won."""

    leader: str
    led: int
    followed: int
    winner: str


def legal_follows(hand: int, led: int) -> int:
    """PQ-PLAY: the follower's legal cards: his cards of the suit led if any, else his hand."""
    suited = hand & suit_mask(suit_of(led))
    return suited or hand


def follower_wins(led: int, followed: int) -> bool:
    """PQ-PLAY: no trumps; only a higher card of the suit led beats it."""
    return suit_of(followed) == suit_of(led) and followed > led

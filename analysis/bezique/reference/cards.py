"""Bezique reference: seats, cards, and the deal (BZ-DECK, BZ-DEAL).

The vocabulary the rest of the reference is written in (docs/bezique-engine.md): card codes
``32 * copy + 8 * suit + rank`` and their faces, brisques and the seven of trumps, which card wins
a trick, and the shuffle of the deal.
"""
from __future__ import annotations

from analysis.bezique.rules import ACE, SEVEN, TEN
from analysis.rng import Stream

ELDER = "elder"
DEALER = "dealer"
SEATS = (ELDER, DEALER)
HAND_SIZE = 8
TURN_UP_POS = 16
STOCK_SIZE = 47
N_STOCK_TRICKS = 24
N_TRICKS = 32
N_CARDS = 64

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def other(seat: str) -> str:
    """The opponent's seat."""
    return DEALER if seat == ELDER else ELDER


# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------

def suit_of(code: int) -> int:
    """Suit index (S H D C = 0..3) of a card code."""
    return (code >> 3) & 3


def rank_of(code: int) -> int:
    """Rank index in Bezique order (7 8 9 J Q K 10 A = 0..7, BZ-DECK) of a card code."""
    return code & 7


def face(code: int) -> int:
    """The face of a card (the code of its first copy): what a player sees."""
    return code & 31


def is_brisque(code: int) -> bool:
    """BZ-BRISQUE: aces and tens."""
    return rank_of(code) in (TEN, ACE)


def is_trump_seven(code: int, trump: int) -> bool:
    """BZ-SEVEN: the seven of trumps (either copy)."""
    return rank_of(code) == SEVEN and suit_of(code) == trump


def follower_wins(led: int, followed: int, trump: int) -> bool:
    """BZ-STOCK-PLAY, BZ-END: a higher card of the suit led, or a trump to a non-trump lead,
    beats the card led; of two identical cards the first played (the lead) wins."""
    if suit_of(followed) == suit_of(led):
        return rank_of(followed) > rank_of(led)
    return suit_of(followed) == trump


def deal_cards(seed: int, index: int, lane: int = 0) -> list[int]:
    """BZ-DEAL: the 64 codes after the engine's shuffle of ``Stream(seed, index, lane)``.

    ``deck = [0..63]``; for p = 0..62: ``j = p + below32(64 - p)``, swap deck[p] and deck[j].
    deck[0:8] is elder's hand, deck[8:16] the dealer's, deck[16] the turn-up, deck[17:64] the
    stock in drawing order (deck[17] drawn first).
    """
    stream = Stream(seed, index, lane)
    deck = list(range(N_CARDS))
    for p in range(N_CARDS - 1):
        j = p + stream.below32(N_CARDS - p)
        deck[p], deck[j] = deck[j], deck[p]
    return deck

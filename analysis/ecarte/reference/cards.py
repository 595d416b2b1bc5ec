"""Écarté reference: seats, cards and hands, the lazy deal, and the rules of a hand, one function each.

The vocabulary the rest of the reference is written in (docs/ecarte-engine.md): card codes
``8 * suit + rank`` and hand bitmasks, the heuristic's card strength and weakest-first order, the
deck dealt card by card from the hand's stream (EC-DEAL), and each rule as one small function
citing its RULES.md ID: the king, the discard bounds, following, the trick's winner, the penalty
and the points for tricks.
"""
from __future__ import annotations

from analysis.ecarte.rules import KING, EcarteRules, codes_of_mask
from analysis.rng import Stream

ELDER = "elder"
DEALER = "dealer"
ROLES = (ELDER, DEALER)
QUEEN = 6
JACK = 5
HAND_SIZE = 5
STOCK_SIZE = 21
N_TRICKS = 5
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")
TRUMP_HONOUR = {KING: 3, QUEEN: 2, JACK: 1}   # strength added to a trump's 3
PLAIN_HONOUR = {KING: 2, QUEEN: 1}            # strength of a plain card


# ---------------------------------------------------------------------------------------------
# Cards and hands
# ---------------------------------------------------------------------------------------------

def suit_of(code: int) -> int:
    """Suit index (S H D C = 0..3) of a card code."""
    return code >> 3


def rank_of(code: int) -> int:
    """Écarté rank index (7 8 9 10 A J Q K = 0..7, EC-DECK) of a card code."""
    return code & 7


def suit_mask(suit: int) -> int:
    """The mask of all eight cards of a suit."""
    return 0xFF << (8 * suit)


def mask_of_codes(codes) -> int:
    """The mask of some card codes."""
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def highest(mask: int) -> int:
    """The highest card code in a non-empty mask (within one suit: the highest card)."""
    return mask.bit_length() - 1


def trump_king(trump_suit: int) -> int:
    """The code of the king of trumps (EC-KING)."""
    return 8 * trump_suit + KING


def weakest_first_key(code: int, trump_suit: int) -> tuple[int, int, int]:
    """Sort key of the engine's "weakest-first order": non-trumps by rank then suit, then trumps."""
    return (suit_of(code) == trump_suit, rank_of(code), suit_of(code))


def weakest_first(mask: int, trump_suit: int) -> list[int]:
    """The cards of a mask in weakest-first order (docs/ecarte-engine.md, Policies)."""
    return sorted(codes_of_mask(mask), key=lambda c: weakest_first_key(c, trump_suit))


def strength(hand_mask: int, trump_suit: int) -> int:
    """The heuristic's hand strength: each trump 3 (+3 K, +2 Q, +1 J); plain K 2, plain Q 1."""
    total = 0
    for c in codes_of_mask(hand_mask):
        if suit_of(c) == trump_suit:
            total += 3 + TRUMP_HONOUR.get(rank_of(c), 0)
        else:
            total += PLAIN_HONOUR.get(rank_of(c), 0)
    return total


# ---------------------------------------------------------------------------------------------
# The deal (EC-DEAL)
# ---------------------------------------------------------------------------------------------

class LazyDeck:
    """EC-DEAL: a Fisher–Yates shuffle fixed one position at a time, as cards are needed.

    Position p: ``j = p + below32(32 - p)``, swap ``deck[p]`` and ``deck[j]``; the card is then
    ``deck[p]``. (The cards stream draws on 32-bit halves: two positions per 64-bit output.)
    Positions 0-4 are elder's, 5-9 the dealer's, 10 the turn-up, 11... the stock in drawing order.
    """

    def __init__(self, stream: Stream) -> None:
        self.deck = list(range(32))
        self.position = 0
        self.stream = stream

    def next_card(self) -> int:
        """Fix the next position of the deck and return its card."""
        p = self.position
        j = p + self.stream.below32(32 - p)
        self.deck[p], self.deck[j] = self.deck[j], self.deck[p]
        self.position += 1
        return self.deck[p]

    def take(self, n: int) -> list[int]:
        """The next n cards, in order."""
        return [self.next_card() for _ in range(n)]


# ---------------------------------------------------------------------------------------------
# The rules, one function each
# ---------------------------------------------------------------------------------------------

def turnup_king_points(turnup: int) -> int:
    """EC-TURNKING: a king turned up scores 1 for the dealer."""
    return 1 if rank_of(turnup) == KING else 0


def elder_discard_bounds(stock_left: int) -> tuple[int, int]:
    """EC-PROPOSE, EC-STOCK: elder discards 1..5 cards, never more than the stock holds."""
    return 1, min(HAND_SIZE, stock_left)


def dealer_discard_bounds(stock_left: int, rules: EcarteRules) -> tuple[int, int]:
    """EC-DEALER-MIN, EC-STOCK: the dealer discards min(dealer_min, stock)..min(5, stock) cards.

    ``stock_left`` is counted after elder's draw (elder is served first).
    """
    return min(rules.dealer_min_discard, stock_left), min(HAND_SIZE, stock_left)


def can_announce_king(hand_mask: int, trump_suit: int) -> bool:
    """EC-KING: only a player holding the king of trumps (dealt or drawn) may announce it."""
    return bool(hand_mask >> trump_king(trump_suit) & 1)


def legal_follows(hand_mask: int, led_code: int, trump_suit: int, rules: EcarteRules) -> int:
    """EC-FOLLOW: the follower's legal cards, as a mask.

    Higher cards of the suit led if he has any; else all his cards of the suit led; else, if
    ``must_trump_when_void`` and he has trumps, his trumps; else his whole hand.
    """
    suited = hand_mask & suit_mask(suit_of(led_code))
    higher = suited & ~((2 << led_code) - 1)
    if higher:
        return higher
    if suited:
        return suited
    trumps = hand_mask & suit_mask(trump_suit)
    if rules.must_trump_when_void and trumps:
        return trumps
    return hand_mask


def follow_requirement(hand_mask: int, led_code: int, trump_suit: int, rules: EcarteRules) -> str:
    """EC-FOLLOW in words: what the follower's hand obliges him to play to this lead."""
    led_suit = suit_of(led_code)
    suited = hand_mask & suit_mask(led_suit)
    if suited & ~((2 << led_code) - 1):
        return f"must win with a higher {SUIT_SINGULAR[led_suit]}"
    if suited:
        return f"must follow with a {SUIT_SINGULAR[led_suit]}"
    if rules.must_trump_when_void and hand_mask & suit_mask(trump_suit):
        return f"is void in {SUIT_NAMES[led_suit]} and must trump"
    return f"is void in {SUIT_NAMES[led_suit]} and may play any card"


def follower_wins(led_code: int, followed_code: int, trump_suit: int) -> bool:
    """EC-FOLLOW: the follower wins with a higher card of the suit led or a trump to a plain lead."""
    if suit_of(followed_code) == suit_of(led_code):
        return followed_code > led_code
    return suit_of(followed_code) == trump_suit


def penalised_side(played_without_proposing: bool, refused_round: int | None,
                   rules: EcarteRules) -> str | None:
    """EC-PENALTY: which side (if any) is penalised for losing this hand.

    Elder, when he played without proposing. After a refusal, the side named by
    ``refusal_penalises`` (only for a refusal in round 0 when ``refusal_penalty_first_only``).
    """
    if played_without_proposing:
        return ELDER
    if refused_round is not None and (refused_round == 0 or not rules.refusal_penalty_first_only):
        return rules.refusal_penalises
    return None


def trick_points(elder_tricks: int, penalised: str | None, rules: EcarteRules) -> dict[str, int]:
    """EC-POINT, EC-PENALTY: the points for the tricks, per side.

    Elder wins the hand with 3 or more tricks; 0 or 5 is a vole. The winner scores 1 (vole 2),
    or ``penalty_point`` (``penalty_vole``) when the loser is the penalised side.
    """
    winner = ELDER if elder_tricks >= 3 else DEALER
    vole = elder_tricks in (0, N_TRICKS)
    loser = DEALER if winner == ELDER else ELDER
    if penalised == loser:
        points = rules.penalty_vole if vole else rules.penalty_point
    else:
        points = 2 if vole else 1
    return {winner: points, loser: 0}

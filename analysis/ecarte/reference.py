"""Écarté in plain Python: the rules of RULES.md as a person reads them, and the test oracle.

This module follows docs/ecarte-engine.md to the letter (random streams, the lazy deal, the order
of decisions, the two policies, the outcome vector), so that the numba kernel can be compared with
it deal by deal. Each rule is one small function citing its RULES.md ID; :func:`play_hand` strings
them together in the order of the engine document, :func:`play_game` plays a game to the target and
:func:`explain` narrates a hand.

Cards are Écarté codes ``8 * suit + rank`` (rank 0..7 = 7 8 9 10 A J Q K, EC-DECK); a hand is an
int bitmask with bit ``code`` set for each card held.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import NamedTuple

from analysis.ecarte.rules import KING, VARIANTS, EcarteRules, codes_of_mask, name_of
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


# ---------------------------------------------------------------------------------------------
# Policies (docs/ecarte-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

class Decisions:
    """One player's decisions: a policy (heuristic or random) and the hand's choices stream.

    Both players share one choices stream, consumed in the order the decisions occur; the
    heuristic policy consumes no randomness.
    """

    def __init__(self, policy, choices: Stream, trump_suit: int) -> None:
        self.policy = policy
        self.random = policy.kind == "random"
        self.choices = choices
        self.trump = trump_suit

    def propose(self, hand: int) -> bool:
        """Elder: propose (True) or play (False)."""
        if self.random:
            return self.choices.below(2) == 1
        return strength(hand, self.trump) < self.policy.elder_play_threshold

    def accept(self, hand: int) -> bool:
        """Dealer: accept (True) or refuse (False) a proposal."""
        if self.random:
            return self.choices.below(2) == 0
        return strength(hand, self.trump) < self.policy.dealer_refuse_threshold

    def discard(self, hand: int, lo: int, hi: int) -> list[int]:
        """Between lo and hi cards of the (5-card) hand to discard, ascending codes."""
        if self.random:
            codes = codes_of_mask(hand)
            while True:
                m = self.choices.below(32)
                if lo <= m.bit_count() <= hi:
                    return [codes[b] for b in range(len(codes)) if m >> b & 1]
        table = getattr(self.policy, "discard_table", None)
        if table is not None:
            chosen = self.table_discard(table, hand, lo, hi)
            if chosen is not None:
                return chosen
        order = weakest_first(hand, self.trump)
        keep_from = self.policy.keep_plain_min_rank
        chosen = [c for c in order if suit_of(c) != self.trump and rank_of(c) < keep_from][:hi]
        for c in order:
            if len(chosen) >= lo:
                break
            if c not in chosen:
                chosen.append(c)
        return sorted(chosen)

    def table_discard(self, table, hand: int, lo: int, hi: int) -> list[int] | None:
        """The discard a table gives the hand: entries are indexed by the hand with trumps moved
        to suit 0 (its rank among the five-card masks) and hold the discard in the same terms."""
        relative = [(8 * ((suit_of(c) - self.trump) % 4) + c % 8) for c in codes_of_mask(hand)]
        rank = sum(comb(code, k + 1) for k, code in enumerate(sorted(relative)))
        entry = int(table[rank])
        if entry < 0:
            return None
        cards = sorted(8 * ((b // 8 + self.trump) % 4) + b % 8 for b in range(32) if entry >> b & 1)
        return cards if lo <= len(cards) <= hi else None

    def announce(self) -> bool:
        """EC-KING: announce the king of trumps (only asked of its holder)."""
        if self.random:
            return self.choices.below(2) == 1
        return bool(self.policy.announce_king)

    def lead(self, hand: int) -> int:
        """The card to lead."""
        if self.random:
            codes = codes_of_mask(hand)
            return codes[self.choices.below(len(codes))]
        trumps = hand & suit_mask(self.trump)
        if self.policy.lead_trumps and trumps.bit_count() >= 2:
            return highest(trumps)
        plain_suits = [s for s in range(4) if s != self.trump and hand & suit_mask(s)]
        for s in plain_suits:
            if hand >> (8 * s + KING) & 1:
                return 8 * s + KING
        if plain_suits:
            def suit_key(s):
                cards = hand & suit_mask(s)
                return (cards.bit_count(), rank_of(highest(cards)), -s)
            return highest(hand & suit_mask(max(plain_suits, key=suit_key)))
        return highest(trumps)

    def follow(self, legal: int, led: int) -> int:
        """The card to play to ``led`` from the legal cards."""
        if self.random:
            codes = codes_of_mask(legal)
            return codes[self.choices.below(len(codes))]
        winners = mask_of_codes(c for c in codes_of_mask(legal)
                                if follower_wins(led, c, self.trump))
        return weakest_first(winners or legal, self.trump)[0]


# ---------------------------------------------------------------------------------------------
# One hand
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Exchange:
    """One exchange round (EC-PROPOSE): the cards discarded and drawn, ascending / drawing order."""

    elder_discard: list[int]
    elder_drawn: list[int]
    dealer_discard: list[int]
    dealer_drawn: list[int]


class Trick(NamedTuple):
    """One trick: who led, the card led, the card played to it, who won."""

    leader: str
    led: int
    followed: int
    winner: str


@dataclass(frozen=True)
class Points:
    """A side's points in one hand, by source."""

    turnup_king: int = 0
    king: int = 0
    tricks: int = 0

    @property
    def total(self) -> int:
        """All the hand's points of this side."""
        return self.turnup_king + self.king + self.tricks


@dataclass
class HandResult:
    """Everything that happened in one hand, in card codes and masks."""

    seed: int
    index: int
    lane_base: int
    rules: EcarteRules
    elder_dealt: list[int]
    dealer_dealt: list[int]
    turnup: int
    stock_drawn: list[int]
    exchanges: list[Exchange]
    ending: str                      # "elder_plays" or "dealer_refuses"
    played_without_proposing: bool
    refused_round: int | None        # the round of the refused proposal, 0-based
    elder_hand: int                  # masks of the hands as play starts
    dealer_hand: int
    announced: dict[str, bool]
    tricks: list[Trick]
    follow_options: list[int]        # the follower's legal cards in each trick (masks)
    elder_tricks: int
    penalised: str | None
    points: dict[str, Points]

    @property
    def trump_suit(self) -> int:
        """The suit of the turn-up."""
        return suit_of(self.turnup)

    @property
    def rounds(self) -> int:
        """Exchange rounds completed."""
        return len(self.exchanges)

    @property
    def stock_exhausted(self) -> bool:
        """True when elder had to play because the stock was empty (EC-STOCK)."""
        return len(self.stock_drawn) == STOCK_SIZE

    @property
    def elder_points(self) -> int:
        """Elder's points in this hand."""
        return self.points[ELDER].total

    @property
    def dealer_points(self) -> int:
        """The dealer's points in this hand."""
        return self.points[DEALER].total

    @property
    def winner(self) -> str:
        """The side that won the tricks (EC-POINT)."""
        return ELDER if self.elder_tricks >= 3 else DEALER

    def points_in_order(self) -> list[tuple[str, int]]:
        """EC-GAME: (side, points) in scoring order: turn-up king, elder's king, dealer's king,
        tricks."""
        return [
            (DEALER, self.points[DEALER].turnup_king),
            (ELDER, self.points[ELDER].king),
            (DEALER, self.points[DEALER].king),
            (self.winner, self.points[self.winner].tricks),
        ]

    def outcome_vector(self) -> list[int]:
        """The 22 ints the differential test compares (docs/ecarte-engine.md, "Outcome vector")."""
        plays = []
        for t in self.tricks:
            plays += [t.led, t.followed]
        return [
            self.elder_points,
            self.dealer_points,
            self.elder_tricks,
            0 if self.ending == "elder_plays" else 1,
            self.rounds,
            int(self.announced[ELDER]) | 2 * int(self.announced[DEALER]),
            self.turnup,
            mask_of_codes(self.elder_dealt),
            mask_of_codes(self.dealer_dealt),
            self.elder_hand,
            self.dealer_hand,
            *plays,
            len(self.stock_drawn),
        ]


def play_hand(seed: int, index: int, rules: EcarteRules, elder_policy, dealer_policy=None, *,
              force_first: int = -1, force_response: int = -1, lane_base: int = 0) -> HandResult:
    """Play one hand (docs/ecarte-engine.md, "One hand"): cards from Stream(seed, index, lane_base),
    the random policy's choices from Stream(seed, index, lane_base + 1).

    ``force_first``: -1 elder's policy takes his first propose/play decision, 0 he plays without
    proposing, 1 he proposes. ``force_response``: -1 the dealer's policy answers the first
    proposal, 0 he accepts, 1 he refuses. A forced decision consumes no randomness.
    """
    if dealer_policy is None:
        dealer_policy = elder_policy
    deck = LazyDeck(Stream(seed, index, lane_base))
    elder_dealt, dealer_dealt = deck.take(HAND_SIZE), deck.take(HAND_SIZE)
    turnup = deck.next_card()
    trump = suit_of(turnup)
    choices = Stream(seed, index, lane_base + 1)
    players = {ELDER: Decisions(elder_policy, choices, trump),
               DEALER: Decisions(dealer_policy, choices, trump)}
    hands = {ELDER: mask_of_codes(elder_dealt), DEALER: mask_of_codes(dealer_dealt)}

    # Exchanges (EC-PROPOSE, EC-DEALER-MIN, EC-STOCK).
    exchanges: list[Exchange] = []
    stock_drawn: list[int] = []
    refused_round = None
    played_without_proposing = False
    while True:
        round_ = len(exchanges)
        stock_left = STOCK_SIZE - len(stock_drawn)
        if stock_left == 0:
            ending = "elder_plays"
            break
        if round_ == 0 and force_first != -1:
            proposes = force_first == 1
        else:
            proposes = players[ELDER].propose(hands[ELDER])
        if not proposes:
            ending = "elder_plays"
            played_without_proposing = round_ == 0
            break
        if round_ == 0 and force_response != -1:
            accepts = force_response == 0
        else:
            accepts = players[DEALER].accept(hands[DEALER])
        if not accepts:
            ending = "dealer_refuses"
            refused_round = round_
            break
        swaps = {}
        for role in ROLES:
            stock_left = STOCK_SIZE - len(stock_drawn)
            if role == ELDER:
                lo, hi = elder_discard_bounds(stock_left)
            else:
                lo, hi = dealer_discard_bounds(stock_left, rules)
            discard = players[role].discard(hands[role], lo, hi) if hi > 0 else []
            drawn = deck.take(len(discard))
            stock_drawn += drawn
            hands[role] = hands[role] & ~mask_of_codes(discard) | mask_of_codes(drawn)
            swaps[role] = (discard, drawn)
        exchanges.append(Exchange(*swaps[ELDER], *swaps[DEALER]))

    # King (EC-KING): elder first, then the dealer; only the holder is asked.
    announced = {role: can_announce_king(hands[role], trump) and players[role].announce()
                 for role in ROLES}

    # Tricks (EC-FOLLOW).
    play_hands = dict(hands)
    tricks: list[Trick] = []
    follow_options: list[int] = []
    leader = ELDER
    for _ in range(N_TRICKS):
        follower = DEALER if leader == ELDER else ELDER
        led = players[leader].lead(hands[leader])
        legal = legal_follows(hands[follower], led, trump, rules)
        followed = players[follower].follow(legal, led)
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        winner = follower if follower_wins(led, followed, trump) else leader
        tricks.append(Trick(leader, led, followed, winner))
        follow_options.append(legal)
        leader = winner
    elder_tricks = sum(t.winner == ELDER for t in tricks)

    # Score (EC-TURNKING, EC-KING, EC-POINT, EC-PENALTY).
    penalised = penalised_side(played_without_proposing, refused_round, rules)
    for_tricks = trick_points(elder_tricks, penalised, rules)
    points = {
        ELDER: Points(0, int(announced[ELDER]), for_tricks[ELDER]),
        DEALER: Points(turnup_king_points(turnup), int(announced[DEALER]), for_tricks[DEALER]),
    }
    return HandResult(
        seed=seed, index=index, lane_base=lane_base, rules=rules,
        elder_dealt=elder_dealt, dealer_dealt=dealer_dealt, turnup=turnup,
        stock_drawn=stock_drawn, exchanges=exchanges, ending=ending,
        played_without_proposing=played_without_proposing, refused_round=refused_round,
        elder_hand=play_hands[ELDER], dealer_hand=play_hands[DEALER], announced=announced,
        tricks=tricks, follow_options=follow_options, elder_tricks=elder_tricks,
        penalised=penalised, points=points,
    )


# ---------------------------------------------------------------------------------------------
# A game (EC-GAME)
# ---------------------------------------------------------------------------------------------

@dataclass
class GameResult:
    """A game to the target: the winner ("A" or "B"), final scores and every hand played.

    Player A is elder in hand 0 (B deals first); the deal alternates.
    """

    winner: str
    scores: dict[str, int]
    hands_played: int
    hands: list[HandResult]

    def elder_of(self, hand: int) -> str:
        """Who ("A" or "B") was elder in hand ``hand`` (0-based)."""
        return "A" if hand % 2 == 0 else "B"


def add_to_game(scores: dict[str, int], awards: list[tuple[str, int]], target: int) -> str | None:
    """EC-GAME: add (player, points) awards in order to ``scores``; a point counts the moment it is
    scored, so the first player to reach ``target`` wins at once (returned) and later awards are
    not added. None while nobody has reached it."""
    for player, pts in awards:
        scores[player] += pts
        if scores[player] >= target:
            return player
    return None


def play_game(seed: int, game_index: int, rules: EcarteRules, policy_a,
              policy_b=None) -> GameResult:
    """EC-GAME: play hands until a player reaches ``rules.target``.

    Hand h uses Stream(seed, game_index, 2h) for cards and 2h+1 for choices; A is elder in even
    hands. Points are added in the order turn-up king, elder's king, dealer's king, tricks.
    """
    policies = {"A": policy_a, "B": policy_a if policy_b is None else policy_b}
    scores = {"A": 0, "B": 0}
    hands: list[HandResult] = []
    for h in range(128):  # lanes 2h+1 < 256; every hand scores at least 1, so ~2*target hands
        elder, dealer = ("A", "B") if h % 2 == 0 else ("B", "A")
        result = play_hand(seed, game_index, rules, policies[elder], policies[dealer],
                           lane_base=2 * h)
        hands.append(result)
        player_of = {ELDER: elder, DEALER: dealer}
        awards = [(player_of[role], pts) for role, pts in result.points_in_order()]
        winner = add_to_game(scores, awards, rules.target)
        if winner is not None:
            return GameResult(winner, scores, len(hands), hands)
    raise RuntimeError("game did not end within 128 hands")  # unreachable: each hand scores >= 1


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

def overridden_switches(rules: EcarteRules) -> dict:
    """The switches of ``rules`` that differ from its named variant (all of seed-de's if unnamed)."""
    base = VARIANTS.get(rules.name, VARIANTS["seed-de"])
    return {k: v for k, v in rules.switches().items() if base.switches()[k] != v}


def _cards(codes) -> str:
    return " ".join(name_of(c, symbols=True) for c in codes)


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _hand(mask: int, trump_suit: int) -> str:
    """A hand, strongest first within each suit, trumps first."""
    suits = [trump_suit] + [s for s in range(4) if s != trump_suit]
    return " ".join(name_of(c, True)
                    for s in suits for c in reversed(codes_of_mask(mask & suit_mask(s))))


def explain(seed: int, index: int, rules: EcarteRules, elder_policy, dealer_policy=None, *,
            force_first: int = -1, force_response: int = -1, lane_base: int = 0) -> str:
    """A step-by-step narration of one hand (the same hand :func:`play_hand` plays)."""
    if dealer_policy is None:
        dealer_policy = elder_policy
    r = play_hand(seed, index, rules, elder_policy, dealer_policy, force_first=force_first,
                  force_response=force_response, lane_base=lane_base)
    trump = r.trump_suit
    changed = "".join(f", {k}={v}" for k, v in overridden_switches(rules).items())
    title = (f"Écarté hand {index} of seed {seed} under rules {rules.name}{changed} "
             f"(elder {elder_policy.kind}, dealer {dealer_policy.kind})")
    out = [title]
    out.append(f"Deal (EC-DEAL): elder {_cards(r.elder_dealt)} | dealer {_cards(r.dealer_dealt)}")
    out.append(f"Turn-up {name_of(r.turnup, True)}: trumps are {SUIT_NAMES[trump]}.")
    if r.points[DEALER].turnup_king:
        out.append("  EC-TURNKING: the turn-up is the king: dealer scores 1")

    stock_left = STOCK_SIZE
    for n, ex in enumerate(r.exchanges, 1):
        out.append(f"Exchange {n} (EC-PROPOSE): elder proposes, dealer accepts.")
        stock_left -= len(ex.elder_drawn)
        out.append(f"  elder discards {_cards(ex.elder_discard)}, draws {_cards(ex.elder_drawn)}"
                   f" (stock {stock_left})")
        stock_left -= len(ex.dealer_drawn)
        if ex.dealer_discard:
            out.append(f"  dealer discards {_cards(ex.dealer_discard)}, draws "
                       f"{_cards(ex.dealer_drawn)} (stock {stock_left})")
        else:
            out.append("  dealer exchanges no card" + (
                " (EC-STOCK: the stock is empty)" if stock_left == 0 else " (EC-DEALER-MIN)"))
    if r.ending == "dealer_refuses":
        out.append("Elder proposes; dealer refuses (\"je joue\"): play starts (EC-PROPOSE).")
    elif r.stock_exhausted:
        out.append("The stock is empty: elder must play (EC-STOCK).")
    elif r.played_without_proposing:
        out.append("Elder plays without proposing (EC-PROPOSE).")
    else:
        out.append("Elder proposes no more and plays (EC-PROPOSE).")
    out.append(f"Hands at play: elder {_hand(r.elder_hand, trump)} | "
               f"dealer {_hand(r.dealer_hand, trump)}")

    king = name_of(trump_king(trump), True)
    holder = next((role for role, m in ((ELDER, r.elder_hand), (DEALER, r.dealer_hand))
                   if can_announce_king(m, trump)), None)
    if holder is None:
        out.append(f"EC-KING: nobody holds the king of trumps {king}.")
    elif r.announced[holder]:
        out.append(f"EC-KING: {holder} announces the king of trumps {king}: {holder} scores 1")
    else:
        out.append(f"EC-KING: {holder} holds the king of trumps {king} but does not announce it.")

    hands = {ELDER: r.elder_hand, DEALER: r.dealer_hand}
    for n, (t, legal) in enumerate(zip(r.tricks, r.follow_options, strict=True), 1):
        follower = DEALER if t.leader == ELDER else ELDER
        need = follow_requirement(hands[follower], t.led, trump, rules)
        out.append(f"Trick {n}: {t.leader} leads {name_of(t.led, True)}; {follower} {need} "
                   f"[{_cards(codes_of_mask(legal))}] and plays {name_of(t.followed, True)}: "
                   f"{t.winner} wins (EC-FOLLOW).")
        hands[t.leader] &= ~(1 << t.led)
        hands[follower] &= ~(1 << t.followed)

    out.append(f"Score: elder took {_tricks(r.elder_tricks)}, "
               f"dealer {_tricks(N_TRICKS - r.elder_tricks)}.")
    out.append("  " + _trick_score_reason(r))
    out.append(f"Hand points: elder {r.elder_points}, dealer {r.dealer_points}.")
    return "\n".join(out)


def _trick_score_reason(r: HandResult) -> str:
    """The rule behind the trick points, in words."""
    winner = r.winner
    taken = r.elder_tricks if winner == ELDER else N_TRICKS - r.elder_tricks
    pts = r.points[winner].tricks
    loser = DEALER if winner == ELDER else ELDER
    what = "the vole" if taken == N_TRICKS else "the point"
    if r.penalised == loser:
        if loser == ELDER:
            why = ("elder played without proposing and took" if r.played_without_proposing
                   else f"dealer refused elder's proposal in round {r.refused_round + 1} and elder took")
            return (f"EC-PENALTY: {why} {_tricks(r.elder_tricks)}: "
                    f"dealer scores {pts} ({what})")
        return (f"EC-PENALTY: dealer refused the proposal in round {r.refused_round + 1} and took "
                f"{_tricks(N_TRICKS - r.elder_tricks)}: elder scores {pts} ({what})")
    return f"EC-POINT: {winner} took {_tricks(taken)}: {winner} scores {pts} ({what})"

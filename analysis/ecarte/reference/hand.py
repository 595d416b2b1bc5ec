"""Écarté in plain Python: the rules of RULES.md as a person reads them, and the test oracle.

This module follows docs/ecarte-engine.md to the letter (random streams, the lazy deal, the order
of decisions, the two policies, the outcome vector), so that the numba kernel can be compared with
it deal by deal. Each rule is one small function citing its RULES.md ID; :func:`play_hand` strings
them together in the order of the engine document, :func:`play_game` plays a game to the target and
:func:`explain` narrates a hand.

The rules live in sibling modules split by job (import each name from the module that holds it):
``reference/cards`` (cards and hands, the lazy deal, the rules one function each) and
``reference/policies`` (the policies' decisions); ``reference/learned`` holds the learned leads
(what the leader knows, the features and the score) and ``reference/reading`` the reading leads
(the learned leads with the opponent's cards weighted by ratios). This module plays hands and games
and narrates them.

Cards are Écarté codes ``8 * suit + rank`` (rank 0..7 = 7 8 9 10 A J Q K, EC-DECK); a hand is an
int bitmask with bit ``code`` set for each card held.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    HAND_SIZE,
    N_TRICKS,
    ROLES,
    STOCK_SIZE,
    SUIT_NAMES,
    LazyDeck,
    can_announce_king,
    dealer_discard_bounds,
    elder_discard_bounds,
    follow_requirement,
    follower_wins,
    legal_follows,
    mask_of_codes,
    penalised_side,
    suit_mask,
    suit_of,
    trick_points,
    trump_king,
    turnup_king_points,
)
from analysis.ecarte.reference.learned import LEARNED_TRICKS, learned_lead_in_play, uses_learned_leads
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.reference.reading import reading_lead_in_play, reading_row, uses_reading
from analysis.ecarte.rules import VARIANTS, EcarteRules, codes_of_mask, name_of
from analysis.rng import Stream

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
              force_first: int = -1, force_response: int = -1, force_second: int = -1,
              lane_base: int = 0) -> HandResult:
    """Play one hand (docs/ecarte-engine.md, "One hand"): cards from Stream(seed, index, lane_base),
    the random policy's choices from Stream(seed, index, lane_base + 1).

    ``force_first``: -1 elder's policy takes his first propose/play decision, 0 he plays without
    proposing, 1 he proposes. ``force_response``: -1 the dealer's policy answers the first
    proposal, 0 he accepts, 1 he refuses. ``force_second``: elder's second proposal decision (after
    a first exchange), -1 his policy's, 0 play, 1 propose. A forced decision consumes no randomness.
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
        elif round_ == 1 and force_second != -1:
            proposes = force_second == 1
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
    for k in range(N_TRICKS):
        follower = DEALER if leader == ELDER else ELDER
        reads = uses_reading(players[leader].policy)
        row = reading_row(leader, played_without_proposing, refused_round)
        if k < LEARNED_TRICKS and reads is not None and row is not None:  # "Reading leads"
            led = reading_lead_in_play(reads, row, leader, play_hands[leader], turnup, exchanges,
                                       announced, tricks, rules)
        elif k < LEARNED_TRICKS and uses_learned_leads(players[leader].policy):  # "Learned leads"
            led = learned_lead_in_play(leader, play_hands[leader], turnup, exchanges, announced,
                                       tricks, rules)
        else:
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

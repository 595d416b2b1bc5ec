"""Bezique reference: one deal's state, every action checked and scored, and the deal's result.

:class:`DealState` is the one reading of the rules (docs/bezique-engine.md, "One deal, step by
step"): plays, the seven's exchange, melds and draws are each checked against the rules (a
one-line error naming the step and the rule otherwise) and scored as they happen, the game target
watched in the stock phase (BZ-GAME). :class:`DealResult` is what a deal leaves, with the outcome
vector of the differential tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from analysis.bezique.reference.cards import (
    DEALER,
    ELDER,
    HAND_SIZE,
    N_CARDS,
    N_STOCK_TRICKS,
    N_TRICKS,
    SEATS,
    STOCK_SIZE,
    TURN_UP_POS,
    face,
    follower_wins,
    is_brisque,
    is_trump_seven,
    other,
    rank_of,
    suit_of,
)
from analysis.bezique.reference.melds import (
    KIND_NAMES,
    KINDS,
    Meld,
    legal_melds,
    meld_kind_of,
    table_card_eligible,
    table_order,
)
from analysis.bezique.rules import BeziqueRules, name_of
from analysis.errors import InputError

BREAKDOWN_KEYS = (*KINDS, "seven", "brisques", "last_trick", "total", "tricks")


# ---------------------------------------------------------------------------------------------
# One deal: the state, every action checked and scored
# ---------------------------------------------------------------------------------------------

class Event(NamedTuple):
    """One scoring event: the step ("deal", "trick 3", "end of deal"), who scored, the breakdown
    category, the points, and why (for narration)."""

    step: str
    seat: str
    category: str
    points: int
    why: str = ""


@dataclass
class Trick:
    """One trick and what followed it: cards, winner, the seven exchange, the meld, the draws."""

    number: int
    leader: str
    led: int
    followed: int
    winner: str
    led_from_table: bool = False
    followed_from_table: bool = False
    exchanged: bool = False
    meld: Meld | None = None
    draws: tuple[int, int] | None = None  # (winner's card, loser's card)


def fail(step: str, message: str, rule: str | None = None) -> None:
    """Raise the one-line error of an illegal deal: ``step: message (RULE)``."""
    raise InputError(f"{step}: {message}" + (f" ({rule})" if rule else ""))


class DealState:
    """One deal in progress. Every action is checked against the rules and scored.

    Actions, in the order of docs/bezique-engine.md: :meth:`play` (lead, then follow), then after
    a stock trick :meth:`exchange` (optional), :meth:`meld` (optional), :meth:`draw`. With a
    ``target`` (a game), ``game_winner`` is set when a player reaches it during the stock phase
    (BZ-GAME) and no further action is accepted.
    """

    def __init__(self, rules: BeziqueRules, deck: list[int], start: dict[str, int] | None = None,
                 target: int | None = None) -> None:
        if sorted(deck) != list(range(N_CARDS)):
            fail("deal", "the deck must hold each of the 64 codes once", "BZ-DECK")
        self.rules = rules
        self.hands = {ELDER: set(deck[:HAND_SIZE]), DEALER: set(deck[HAND_SIZE:2 * HAND_SIZE])}
        self.tables: dict[str, dict[int, frozenset]] = {ELDER: {}, DEALER: {}}
        self.turn_up = deck[TURN_UP_POS]
        self.trump = suit_of(self.turn_up)
        self.stock = list(deck[TURN_UP_POS + 1:])
        self.drawn = 0
        self.won: dict[str, list[int]] = {ELDER: [], DEALER: []}
        self.tricks: list[Trick] = []
        self.plays: list[int] = []
        self.points = {seat: dict.fromkeys(BREAKDOWN_KEYS, 0) for seat in SEATS}
        self.events: list[Event] = []
        self.start = dict(start) if start else {ELDER: 0, DEALER: 0}
        self.target = target
        self.game_winner: str | None = None
        self.leader = ELDER
        self.pending: Trick | None = None  # a stock trick whose exchange / meld / draws are open
        self.led: tuple[int, bool] | None = None
        self.finished = False
        if is_trump_seven(self.turn_up, self.trump):
            self._score("deal", DEALER, "seven", rules.seven_points, "the turn-up is the seven of trumps")

    # -- state queries -------------------------------------------------------------------------

    @property
    def trick_number(self) -> int:
        """The number (1..32) of the trick being played, or just played and still open."""
        return len(self.tricks) + 1

    @property
    def stock_phase(self) -> bool:
        """BZ-STOCK-PLAY: tricks 1..24 are played while the stock lasts."""
        return self.trick_number <= N_STOCK_TRICKS

    @property
    def stock_left(self) -> int:
        """Cards still in the stock (the turn-up not counted)."""
        return STOCK_SIZE - self.drawn

    def cards_of(self, seat: str) -> set[int]:
        """Every card a player may play: his hand and his table."""
        return self.hands[seat] | set(self.tables[seat])

    def play_options(self, seat: str) -> list[int]:
        """The distinct cards a player may play, ascending: per face, his lowest hand copy and
        his first table copy in :func:`table_order` (copies alike in every way are one option)."""
        out = []
        faces = {face(c) for c in self.cards_of(seat)}
        order = table_order(self.tables[seat])
        for f in faces:
            in_hand = [c for c in sorted(self.hands[seat]) if face(c) == f]
            on_table = [c for c in order if face(c) == f]
            out += in_hand[:1] + on_table[:1]
        return sorted(out)

    def legal_follows(self, seat: str, led: int) -> list[int]:
        """BZ-STOCK-PLAY, BZ-END: the follower's legal options.

        Stock phase: any. End phase: a card of the suit led (classic, ``end_must_win``: a higher
        one if he has one); void, a trump; else any.
        """
        options = self.play_options(seat)
        if self.stock_phase:
            return options
        suited = [c for c in options if suit_of(c) == suit_of(led)]
        if suited:
            if self.rules.end_must_win:
                higher = [c for c in suited if rank_of(c) > rank_of(led)]
                return higher or suited
            return suited
        trumps = [c for c in options if suit_of(c) == self.trump]
        return trumps or options

    def melds_for(self, seat: str) -> list[Meld]:
        """The melds a player could lay now with his hand and table."""
        return legal_melds(self.hands[seat], self.tables[seat], self.trump, self.rules)

    def can_exchange(self, seat: str) -> bool:
        """BZ-SEVEN: after winning a stock trick, before drawing, holding the seven of trumps,
        while the turn-up is not itself a seven of trumps (so once per deal)."""
        t = self.pending
        return (t is not None and t.winner == seat and not t.exchanged and t.meld is None
                and not is_trump_seven(self.turn_up, self.trump)
                and any(is_trump_seven(c, self.trump) for c in self.hands[seat]))

    def check_cards(self) -> None:
        """Invariant: each of the 64 cards is in exactly one place."""
        places = [*self.hands.values(), *(set(t) for t in self.tables.values()),
                  set(self.stock[self.drawn:]), set(self.plays)]
        if self.drawn < STOCK_SIZE or (self.pending is not None and self.pending.draws is None):
            places.append({self.turn_up})
        seen = [c for p in places for c in p]
        assert sorted(seen) == list(range(N_CARDS)), "a card is missing or in two places"
        assert all(not set(self.hands[s]) & set(self.tables[s]) for s in SEATS)

    # -- scoring -------------------------------------------------------------------------------

    def _score(self, step: str, seat: str, category: str, points: int, why: str = "") -> None:
        """Add a scoring event; in the stock phase, check the game target (BZ-GAME)."""
        if points <= 0:
            return
        self.points[seat][category] += points
        self.points[seat]["total"] += points
        self.events.append(Event(step, seat, category, points, why))
        if (self.target is not None and self.game_winner is None and self.stock_phase
                and self.start[seat] + self.points[seat]["total"] >= self.target):
            self.game_winner = seat

    def _check_open(self, step: str) -> None:
        if self.game_winner is not None:
            fail(step, f"the game is over: {self.game_winner} reached {self.target}", "BZ-GAME")
        if self.finished:
            fail(step, "the deal is over: 32 tricks were played", "BZ-END")

    # -- actions -------------------------------------------------------------------------------

    def _take(self, seat: str, code: int, step: str, verb: str) -> bool:
        """Remove a played card from the player's hand or table; True when from the table."""
        if code in self.hands[seat]:
            self.hands[seat].discard(code)
            return False
        if code in self.tables[seat]:
            del self.tables[seat][code]
            return True
        fail(step, f"{seat} {verb} {name_of(code)}, which he does not hold", "BZ-STOCK-PLAY")

    def play(self, seat: str, code: int) -> None:
        """A card led or played to the trick (BZ-STOCK-PLAY, BZ-END, BZ-SEVEN announcement)."""
        n = self.trick_number
        step = f"trick {n}"
        self._check_open(step)
        if self.pending is not None:
            fail(step, "the previous trick's draws are still open", "BZ-DRAW")
        leading = self.led is None
        expected = self.leader if leading else other(self.leader)
        if seat != expected:
            why = "leads" if leading else "plays second"
            fail(step, f"{seat} played but {expected} {why}", "BZ-STOCK-PLAY")
        if not leading and not self.stock_phase and code in self.cards_of(seat):
            if face(code) not in {face(c) for c in self.legal_follows(seat, self.led[0])}:
                led = self.led[0]
                rule_text = ("follow suit and win if able, else trump" if self.rules.end_must_win
                             else "follow suit, else trump")
                fail(step, f"{seat} played {name_of(code)} to {name_of(led)} but must {rule_text}",
                      "BZ-END")
        from_table = self._take(seat, code, step, "led" if leading else "played")
        self.plays.append(code)
        if self.stock_phase and is_trump_seven(code, self.trump):
            self._score(step, seat, "seven", self.rules.seven_points, "seven of trumps played and announced")
        if leading:
            self.led = (code, from_table)
            return
        led, led_from_table = self.led
        self.led = None
        winner = other(self.leader) if follower_wins(led, code, self.trump) else self.leader
        trick = Trick(n, self.leader, led, code, winner, led_from_table, from_table)
        self.won[winner] += [led, code]
        self.points[winner]["tricks"] += 1
        self.leader = winner
        if n == self.rules.last_trick_at:
            self._score(step, winner, "last_trick", self.rules.last_trick, f"trick {n}")
        if n <= N_STOCK_TRICKS:
            self.pending = trick
        else:
            self.tricks.append(trick)
            if n == N_TRICKS:
                self._end_of_deal()

    def exchange(self, seat: str) -> None:
        """BZ-SEVEN: the trick's winner exchanges the seven of trumps for the turn-up, +10."""
        step = f"trick {self.trick_number}"
        self._check_open(step)
        if not self.can_exchange(seat):
            t = self.pending
            if t is None or t.winner != seat:
                why = "only the winner of a stock trick may exchange, before drawing"
            elif t.exchanged or t.meld is not None:
                why = "the exchange comes once, before the meld"
            elif is_trump_seven(self.turn_up, self.trump):
                why = "the turn-up is already a seven of trumps"
            else:
                why = f"{seat} holds no seven of trumps"
            fail(step, f"{seat} cannot exchange: {why}", "BZ-SEVEN")
        seven = min(c for c in self.hands[seat] if is_trump_seven(c, self.trump))
        self.hands[seat].discard(seven)
        self.hands[seat].add(self.turn_up)
        self.turn_up = seven
        self.pending.exchanged = True
        self._score(step, seat, "seven", self.rules.seven_points, "seven of trumps exchanged")

    def meld(self, seat: str, meld: Meld) -> None:
        """BZ-MELD: the trick's winner lays one meld before drawing."""
        step = f"trick {self.trick_number}"
        self._check_open(step)
        t = self.pending
        if t is None or t.winner != seat:
            fail(step, f"{seat} melds but only the winner of a stock trick may, before drawing",
                  "BZ-MELD")
        if t.meld is not None:
            fail(step, f"{seat} melds twice after one trick", "BZ-MELD")
        if meld not in self.melds_for(seat):
            fail(step, f"{seat} cannot meld {KIND_NAMES[meld.kind]} "
                        f"{' '.join(name_of(c) for c in meld.cards)}: {self.meld_problem(seat, meld)}",
                  "BZ-REUSE" if meld.kind in KINDS else "BZ-VALUES")
        for c in meld.cards:
            used = self.tables[seat].get(c, frozenset())
            self.hands[seat].discard(c)
            self.tables[seat][c] = used | {meld.kind}
        t.meld = meld
        self._score(step, seat, meld.kind, meld.points, KIND_NAMES[meld.kind])

    def meld_problem(self, seat: str, meld: Meld) -> str:
        """Why a meld is not legal, in words."""
        if meld.kind not in KINDS or meld_kind_of([face(c) for c in meld.cards], self.trump) != meld.kind:
            return "these cards do not form that meld"
        for c in meld.cards:
            if c in meld.hand and c not in self.hands[seat]:
                return f"{name_of(c)} is not in his hand"
            if c not in meld.hand and c not in self.tables[seat]:
                return f"{name_of(c)} is not on his table"
            if c in self.tables[seat] and not table_card_eligible(self.tables[seat][c], meld.kind, self.rules):
                used = ", ".join(KIND_NAMES[k] for k in sorted(self.tables[seat][c]))
                return f"{name_of(c)} was already melded in {used}, of the same class"
        if not meld.hand:
            return "a new meld must add a card from the hand"
        return "not a legal meld"

    def draw(self) -> None:
        """BZ-DRAW: the winner draws the top of the stock, then the loser; after trick 24 the loser
        takes the turn-up and the end phase begins (BZ-END: melded cards go back to the hand)."""
        step = f"trick {self.trick_number}"
        self._check_open(step)
        t = self.pending
        if t is None:
            fail(step, "nothing to draw: no stock trick is open", "BZ-DRAW")
        winner_card = self.stock[self.drawn]
        self.drawn += 1
        if self.drawn < STOCK_SIZE:
            loser_card = self.stock[self.drawn]
            self.drawn += 1
        else:
            loser_card = self.turn_up
        self.hands[t.winner].add(winner_card)
        self.hands[other(t.winner)].add(loser_card)
        t.draws = (winner_card, loser_card)
        self.tricks.append(t)
        self.pending = None
        if t.number == N_STOCK_TRICKS:
            for seat in SEATS:
                self.hands[seat] |= set(self.tables[seat])
                self.tables[seat] = {}

    def _end_of_deal(self) -> None:
        """BZ-BRISQUE: aces and tens won, counted at the end of the deal."""
        self.finished = True
        for seat in SEATS:
            n = sum(is_brisque(c) for c in self.won[seat])
            self._score("end of deal", seat, "brisques", n * self.rules.brisque,
                        f"{n} aces and tens won")


# ---------------------------------------------------------------------------------------------
# What a deal leaves: its result
# ---------------------------------------------------------------------------------------------

OUTCOME_LENGTH = 120


@dataclass
class DealResult:
    """Everything that happened in one deal, in card codes."""

    seed: int
    index: int
    lane_base: int
    rules: BeziqueRules
    deck: list[int]
    tricks: list[Trick]
    plays: list[int]
    scores: dict[str, dict[str, int]]
    events: list[Event] = field(default_factory=list)
    game_winner: str | None = None

    @property
    def elder_dealt(self) -> list[int]:
        return self.deck[:HAND_SIZE]

    @property
    def dealer_dealt(self) -> list[int]:
        return self.deck[HAND_SIZE:2 * HAND_SIZE]

    @property
    def turn_up(self) -> int:
        return self.deck[TURN_UP_POS]

    @property
    def stock(self) -> list[int]:
        return self.deck[TURN_UP_POS + 1:]

    @property
    def trump(self) -> int:
        return suit_of(self.turn_up)

    def total(self, seat: str) -> int:
        """A player's points in this deal."""
        return self.scores[seat]["total"]

    def outcome_vector(self) -> list[int]:
        """The ints the differential test compares (docs/bezique-engine.md, "Outcome vector")."""
        e, d = self.scores[ELDER], self.scores[DEALER]
        out = []
        for key in ("total", *KINDS, "seven", "brisques", "last_trick", "tricks"):
            out += [e[key], d[key]]
        stock_won = sum(t.winner == ELDER for t in self.tricks if t.number <= N_STOCK_TRICKS)
        out += [stock_won, len(self.tricks), self.turn_up,
                next((t.number for t in self.tricks if t.exchanged), 0)]
        out += self.plays + [-1] * (N_CARDS - len(self.plays))
        melds = {t.number: KINDS.index(t.meld.kind) for t in self.tricks if t.meld is not None}
        out += [melds.get(n, -1) for n in range(1, N_STOCK_TRICKS + 1)]
        assert len(out) == OUTCOME_LENGTH
        return out


def deal_result(st: DealState, deck, seed=0, index=0, lane_base=0) -> DealResult:
    """The deal a state has played so far (its open stock trick included), as a :class:`DealResult`."""
    tricks = list(st.tricks) + ([st.pending] if st.pending is not None else [])
    return DealResult(seed, index, lane_base, st.rules, list(deck), tricks, list(st.plays),
                      st.points, st.events, st.game_winner)

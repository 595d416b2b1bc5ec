"""Bezique in plain Python: the rules of RULES.md as a person reads them, and the test oracle.

This module follows docs/bezique-engine.md to the letter (random streams, the deal, every step of
a trick, the order of scoring events, the two policies, the outcome vector), so that a numba
kernel can be compared with it deal by deal. :class:`DealState` is the one reading of the rules: it
checks and scores every action of a deal; :func:`play_deal` drives it with policies,
:func:`score_deal` with a recorded deal, :func:`play_game` plays to the target and
:func:`explain` narrates a deal.

Cards are Bezique codes ``32 * copy + 8 * suit + rank`` (rank 0..7 = 7 8 9 J Q K 10 A, BZ-DECK);
a player's cards are a set of codes in his hand and a *table* (his melded cards still on the
table): ``{code: frozenset of meld kinds the card has been used in}``.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import NamedTuple

from analysis.bezique.rules import (
    ACE,
    BOOK_ORDER,
    DIAMONDS,
    JACK,
    KING,
    QUEEN,
    SEVEN,
    SPADES,
    TEN,
    VARIANTS,
    BeziqueRules,
    card_of,
    name_of,
)
from analysis.cards import format_book
from analysis.errors import InputError
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

KINDS = ("marriage", "royal_marriage", "sequence", "bezique", "double_bezique",
         "four_jacks", "four_queens", "four_kings", "four_aces")
CLASS_OF = {"marriage": "M", "royal_marriage": "M", "sequence": "M", "bezique": "B",
            "double_bezique": "B", "four_jacks": "F", "four_queens": "F", "four_kings": "F",
            "four_aces": "F"}
FOUR_RANK = {"four_jacks": JACK, "four_queens": QUEEN, "four_kings": KING, "four_aces": ACE}
KIND_NAMES = {"marriage": "marriage", "royal_marriage": "royal marriage",
              "sequence": "trump sequence", "bezique": "bezique", "double_bezique": "double bezique",
              "four_jacks": "four jacks", "four_queens": "four queens", "four_kings": "four kings",
              "four_aces": "four aces"}
BREAKDOWN_KEYS = (*KINDS, "seven", "brisques", "last_trick", "total", "tricks")
QUEEN_SPADES = 8 * SPADES + QUEEN
JACK_DIAMONDS = 8 * DIAMONDS + JACK
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


# ---------------------------------------------------------------------------------------------
# Melds (BZ-MELD, BZ-VALUES, BZ-REUSE, BZ-DOUBLE)
# ---------------------------------------------------------------------------------------------

class Meld(NamedTuple):
    """One meld: its kind, its cards (ascending codes), the ones laid from the hand, its points."""

    kind: str
    cards: tuple[int, ...]
    hand: tuple[int, ...]
    points: int


@functools.lru_cache(maxsize=None)
def required_faces(kind: str, trump: int) -> list[dict[int, int]]:
    """BZ-VALUES: the face multisets (face -> copies needed) that form a meld of ``kind``.

    Fours take any four cards of the rank (suits need not differ: "any suits"), so they have one
    multiset per way of taking 0, 1 or 2 copies of each suit's card, four in all.
    """
    if kind == "marriage":
        return [{8 * s + KING: 1, 8 * s + QUEEN: 1} for s in range(4) if s != trump]
    if kind == "royal_marriage":
        return [{8 * trump + KING: 1, 8 * trump + QUEEN: 1}]
    if kind == "sequence":
        return [{8 * trump + r: 1 for r in (ACE, TEN, KING, QUEEN, JACK)}]
    if kind == "bezique":
        return [{QUEEN_SPADES: 1, JACK_DIAMONDS: 1}]
    if kind == "double_bezique":
        return [{QUEEN_SPADES: 2, JACK_DIAMONDS: 2}]
    r = FOUR_RANK[kind]
    return [{8 * s + r: n for s, n in enumerate(need) if n}
            for need in itertools.product(range(3), repeat=4) if sum(need) == 4]


def table_card_eligible(used: frozenset, kind: str, rules: BeziqueRules) -> bool:
    """BZ-REUSE, BZ-DOUBLE: may a table card already used in the meld kinds ``used`` join a new
    meld of ``kind``?

    Any class it has not been used in: yes. Its own class: no, except a royal marriage's card in
    a sequence (both variants), a sequence's card in a royal marriage (seed-de, ``either_order``)
    and a single bezique's card in a double bezique (classic, ``double_bezique_after_single``).
    """
    same = {u for u in used if CLASS_OF[u] == CLASS_OF[kind]}
    if not same:
        return True
    if kind == "sequence" and same == {"royal_marriage"}:
        return True
    if kind == "royal_marriage" and same == {"sequence"} and rules.reuse_either_order:
        return True
    return kind == "double_bezique" and same == {"bezique"} and rules.double_bezique_after_single


def needs_hand_card(kind: str, table_used: list[frozenset], rules: BeziqueRules) -> bool:
    """BZ-REUSE: every new meld adds a card from the hand, except (seed-de) a royal marriage made
    of the king and queen of a sequence already on the table."""
    if kind == "royal_marriage" and rules.reuse_either_order and len(table_used) == 2:
        return not all("sequence" in used for used in table_used)
    return True


def table_order(table: dict[int, frozenset]) -> list[int]:
    """The canonical order in which a player uses table copies of a face: the copy used in the
    most meld kinds first, ties by lower code (keep the fresher copy)."""
    return sorted(table, key=lambda c: (-len(table[c]), c))


def legal_melds(hand, table: dict[int, frozenset], trump: int, rules: BeziqueRules) -> list[Meld]:
    """Every meld the player may lay now (BZ-MELD, BZ-VALUES, BZ-REUSE, BZ-DOUBLE).

    ``hand``: codes of his cards not on the table; ``table``: his table cards and the meld kinds
    each has been used in. Two melds that differ only in which of two interchangeable copies
    they use are the same meld: hand copies are taken lowest code first, table copies in
    :func:`table_order` among those eligible. Ordered by kind (KINDS), then cards.
    """
    in_hand: dict[int, list[int]] = {}
    for c in sorted(hand):
        in_hand.setdefault(face(c), []).append(c)
    on_table: dict[int, list[int]] = {}
    for c in table_order(table):
        on_table.setdefault(face(c), []).append(c)
    out: dict[tuple, Meld] = {}
    for kind in KINDS:
        if kind in FOUR_RANK:
            r = FOUR_RANK[kind]
            held = sum(len(v) for d in (in_hand, on_table) for f, v in d.items() if rank_of(f) == r)
            if held < 4:
                continue
        for need in required_faces(kind, trump):
            if any(len(in_hand.get(f, ())) + len(on_table.get(f, ())) < n for f, n in need.items()):
                continue
            per_face = []
            for f, n in need.items():
                h_cards = in_hand.get(f, [])
                t_cards = [c for c in on_table.get(f, ()) if table_card_eligible(table[c], kind, rules)]
                per_face.append([(h_cards[:h], t_cards[:n - h])
                                 for h in range(n + 1) if h <= len(h_cards) and n - h <= len(t_cards)])
            for choice in itertools.product(*per_face):
                from_hand = tuple(sorted(c for h, _ in choice for c in h))
                from_table = [c for _, t in choice for c in t]
                if not from_hand and needs_hand_card(kind, [table[c] for c in from_table], rules):
                    continue
                cards = tuple(sorted(from_hand + tuple(from_table)))
                out[(KINDS.index(kind), cards)] = Meld(kind, cards, from_hand, rules.meld_value(kind))
    return [out[k] for k in sorted(out)]


def meld_kind_of(faces: list[int], trump: int) -> str | None:
    """The meld kind a multiset of faces forms (None: no meld)."""
    counts = sorted(faces)
    for kind in KINDS:
        for need in required_faces(kind, trump):
            if counts == sorted(f for f, n in need.items() for _ in range(n)):
                return kind
    return None


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


def _fail(step: str, message: str, rule: str | None = None) -> None:
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
            _fail("deal", "the deck must hold each of the 64 codes once", "BZ-DECK")
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
            _fail(step, f"the game is over: {self.game_winner} reached {self.target}", "BZ-GAME")
        if self.finished:
            _fail(step, "the deal is over: 32 tricks were played", "BZ-END")

    # -- actions -------------------------------------------------------------------------------

    def _take(self, seat: str, code: int, step: str, verb: str) -> bool:
        """Remove a played card from the player's hand or table; True when from the table."""
        if code in self.hands[seat]:
            self.hands[seat].discard(code)
            return False
        if code in self.tables[seat]:
            del self.tables[seat][code]
            return True
        _fail(step, f"{seat} {verb} {name_of(code)}, which he does not hold", "BZ-STOCK-PLAY")

    def play(self, seat: str, code: int) -> None:
        """A card led or played to the trick (BZ-STOCK-PLAY, BZ-END, BZ-SEVEN announcement)."""
        n = self.trick_number
        step = f"trick {n}"
        self._check_open(step)
        if self.pending is not None:
            _fail(step, "the previous trick's draws are still open", "BZ-DRAW")
        leading = self.led is None
        expected = self.leader if leading else other(self.leader)
        if seat != expected:
            why = "leads" if leading else "plays second"
            _fail(step, f"{seat} played but {expected} {why}", "BZ-STOCK-PLAY")
        if not leading and not self.stock_phase and code in self.cards_of(seat):
            if face(code) not in {face(c) for c in self.legal_follows(seat, self.led[0])}:
                led = self.led[0]
                rule_text = ("follow suit and win if able, else trump" if self.rules.end_must_win
                             else "follow suit, else trump")
                _fail(step, f"{seat} played {name_of(code)} to {name_of(led)} but must {rule_text}",
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
            _fail(step, f"{seat} cannot exchange: {why}", "BZ-SEVEN")
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
            _fail(step, f"{seat} melds but only the winner of a stock trick may, before drawing",
                  "BZ-MELD")
        if t.meld is not None:
            _fail(step, f"{seat} melds twice after one trick", "BZ-MELD")
        if meld not in self.melds_for(seat):
            _fail(step, f"{seat} cannot meld {KIND_NAMES[meld.kind]} "
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
            _fail(step, "nothing to draw: no stock trick is open", "BZ-DRAW")
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
# Policies (docs/bezique-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

def meld_in_view(code: int, held: list[int], trump: int, four_keep_min: int) -> bool:
    """The heuristic's "meld in view" (BZ-T2): the card's marriage or bezique partner is held,
    three of the five trump sequence faces are held, or ``four_keep_min`` cards of its rank
    (jacks and up, not tens) are held. ``held``: the faces of every card he may play."""
    f, r, s = face(code), rank_of(code), suit_of(code)
    faces = set(held)
    if r in (KING, QUEEN) and (8 * s + (KING + QUEEN - r)) in faces:
        return True
    if (f == QUEEN_SPADES and JACK_DIAMONDS in faces) or (f == JACK_DIAMONDS and QUEEN_SPADES in faces):
        return True
    sequence = {8 * trump + q for q in (ACE, TEN, KING, QUEEN, JACK)}
    if f in sequence and len(sequence & faces) >= 3:
        return True
    return r in (JACK, QUEEN, KING, ACE) and sum(rank_of(h) == r for h in held) >= four_keep_min


class Player:
    """One player's decisions: his policy (heuristic or random) and the deal's choices stream.

    Both players share one choices stream, consumed in the order the decisions occur; the
    heuristic consumes no randomness.
    """

    def __init__(self, policy, seat: str, choices: Stream) -> None:
        kind = getattr(policy, "kind", None)
        if kind not in ("heuristic", "random"):
            raise InputError(f"unknown Bezique policy {policy!r}; use HeuristicPolicy or RandomPolicy")
        self.policy = policy
        self.seat = seat
        self.random = kind == "random"
        self.choices = choices

    def _pick(self, options: list[int]):
        return options[self.choices.below(len(options))]

    # -- the heuristic's measures ----------------------------------------------------------------

    def keep_value(self, st: DealState, code: int) -> int:
        """Stock phase: rank + brisque_keep (A, 10) + trump_keep (trumps) + meld_keep (meld in
        view). End phase: rank + brisque_keep (A, 10)."""
        p = self.policy
        v = rank_of(code) + (p.brisque_keep if is_brisque(code) else 0)
        if st.stock_phase:
            held = [face(c) for c in st.cards_of(self.seat)]
            v += p.trump_keep if suit_of(code) == st.trump else 0
            v += p.meld_keep if meld_in_view(code, held, st.trump, p.four_keep_min) else 0
        return v

    def double_possible(self, st: DealState) -> bool:
        """BZ-T5: no copy of Q♠ or J♦ played or on the opponent's table, and (seed-de) none of
        his own used in a bezique."""
        bez = (QUEEN_SPADES, JACK_DIAMONDS)
        if any(face(c) in bez for c in st.plays) or any(face(c) in bez for c in st.tables[other(self.seat)]):
            return False
        if st.rules.double_bezique_after_single:
            return True
        return not any(face(c) in bez and "bezique" in used for c, used in st.tables[self.seat].items())

    def chosen_meld(self, st: DealState) -> Meld | None:
        """The heuristic's meld: the most points, then fewest hand cards, then the first in
        :func:`legal_melds` order; a single bezique is held (BZ-T5) while ``hold_bezique``, the
        double is possible and the stock holds at least ``hold_bezique_stock`` cards."""
        p = self.policy
        melds = st.melds_for(self.seat)
        if p.hold_bezique and st.stock_left >= p.hold_bezique_stock and self.double_possible(st):
            melds = [m for m in melds if m.kind != "bezique"]
        if not melds:
            return None
        return min(enumerate(melds), key=lambda im: (-im[1].points, len(im[1].hand), im[0]))[1]

    def _unseen_higher(self, st: DealState, code: int) -> bool:
        """End phase: may the opponent hold a card of the suit higher than ``code``? (He counts
        his own cards and the cards played, two copies of each face.)"""
        mine = [face(c) for c in st.cards_of(self.seat)]
        gone = [face(c) for c in st.plays]
        s = suit_of(code)
        return any(mine.count(8 * s + r) + gone.count(8 * s + r) < 2 for r in range(rank_of(code) + 1, 8))

    # -- decisions -------------------------------------------------------------------------------

    def lead(self, st: DealState) -> int:
        """The card to lead."""
        options = st.play_options(self.seat)
        if self.random:
            return self._pick(options)
        if st.stock_phase:
            plain = [c for c in options if suit_of(c) != st.trump]
            if self.policy.lead_low or not plain:
                return min(options, key=lambda c: (self.keep_value(st, c), c))
            return max(plain, key=lambda c: (rank_of(c), -c))
        plain = [c for c in options if suit_of(c) != st.trump]
        masters = [c for c in plain if not self._unseen_higher(st, c)]
        if masters:
            return max(masters, key=lambda c: (rank_of(c), -c))
        if plain:
            return min(plain, key=lambda c: (rank_of(c), c))
        return max(options, key=lambda c: (rank_of(c), -c))

    def follow(self, st: DealState, led: int) -> int:
        """The card to play to ``led``."""
        legal = st.legal_follows(self.seat, led)
        if self.random:
            return self._pick(legal)
        winners = [c for c in legal if follower_wins(led, c, st.trump)]
        if not st.stock_phase:
            if winners:
                return min(winners, key=lambda c: (rank_of(c), c))
            return min(legal, key=lambda c: (self.keep_value(st, c), c))
        p = self.policy
        meld = self.chosen_meld(st) if p.meld_win else None
        for_meld = meld is not None and meld.points >= p.meld_win_min
        if p.greedy_win or (p.brisque_win and is_brisque(led)) or for_meld:
            in_suit = [c for c in winners if suit_of(c) == suit_of(led)]
            if in_suit:
                return min(in_suit, key=lambda c: (rank_of(c), self.keep_value(st, c), c))
            if winners and (p.trump_win or for_meld):
                return min(winners, key=lambda c: (rank_of(c), self.keep_value(st, c), c))
        return min(legal, key=lambda c: (self.keep_value(st, c), c))

    def exchange(self, st: DealState) -> bool:
        """Exchange the seven of trumps now? (Asked only when the exchange is legal.)"""
        if self.random:
            return self.choices.below(2) == 1
        return bool(self.policy.exchange_seven)

    def meld(self, st: DealState, melds: list[Meld]) -> Meld | None:
        """Which meld to lay, or None. (Asked only when some meld is legal.)"""
        if self.random:
            k = self.choices.below(len(melds) + 1)
            return None if k == len(melds) else melds[k]
        return self.chosen_meld(st)


# ---------------------------------------------------------------------------------------------
# One deal played, and a recorded deal scored
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


def _result(st: DealState, deck, seed=0, index=0, lane_base=0) -> DealResult:
    tricks = list(st.tricks) + ([st.pending] if st.pending is not None else [])
    return DealResult(seed, index, lane_base, st.rules, list(deck), tricks, list(st.plays),
                      st.points, st.events, st.game_winner)


def play_cards(deck: list[int], rules: BeziqueRules, dealer_policy, elder_policy, choices: Stream, *,
               start: dict[str, int] | None = None, target: int | None = None, audit: bool = False,
               seed: int = 0, index: int = 0, lane_base: int = 0) -> DealResult:
    """Play a deal whose 64 cards are given (docs: "One deal, step by step"). ``start`` and
    ``target``: the game scores before the deal and the target (BZ-GAME); ``audit`` checks the
    cards' places after every action."""
    st = DealState(rules, deck, start, target)
    players = {ELDER: Player(elder_policy, ELDER, choices), DEALER: Player(dealer_policy, DEALER, choices)}

    def check():
        if audit:
            st.check_cards()
        return st.game_winner is not None

    if not check():
        for _ in range(N_TRICKS):
            leader, follower = st.leader, other(st.leader)
            st.play(leader, players[leader].lead(st))
            if check():
                break
            led = st.led[0]
            st.play(follower, players[follower].follow(st, led))
            if check() or st.finished:
                break
            if st.pending is None:
                continue
            winner = st.pending.winner
            if st.can_exchange(winner) and players[winner].exchange(st):
                st.exchange(winner)
                if check():
                    break
            melds = st.melds_for(winner)
            if melds:
                chosen = players[winner].meld(st, melds)
                if chosen is not None:
                    st.meld(winner, chosen)
                    if check():
                        break
            st.draw()
            check()
    return _result(st, deck, seed, index, lane_base)


def play_deal(seed: int, index: int, rules: BeziqueRules, dealer_policy, elder_policy=None,
              lane_base: int = 0, *, start: dict[str, int] | None = None, target: int | None = None,
              audit: bool = False) -> DealResult:
    """Play one deal: cards from Stream(seed, index, lane_base), the random policy's choices from
    Stream(seed, index, lane_base + 1). ``elder_policy`` defaults to ``dealer_policy``."""
    if elder_policy is None:
        elder_policy = dealer_policy
    return play_cards(deal_cards(seed, index, lane_base), rules, dealer_policy, elder_policy,
                      Stream(seed, index, lane_base + 1), start=start, target=target, audit=audit,
                      seed=seed, index=index, lane_base=lane_base)


class TrickPlay(NamedTuple):
    """One recorded trick, in faces (0..31; copies are resolved by the engine): the cards, whether
    each came from the player's table, the seven exchange, and the meld as faces laid from the
    hand and from the table."""

    lead: int
    follow: int
    lead_from_table: bool = False
    follow_from_table: bool = False
    exchange: bool = False
    meld_hand: tuple[int, ...] = ()
    meld_table: tuple[int, ...] = ()


def assign_copies(elder_dealt, dealer_dealt, turn_up: int, stock) -> list[int]:
    """BZ-DECK: faces of a recorded deal -> the 64 codes; the first occurrence of a face (elder's
    hand, dealer's hand, turn-up, stock in drawing order) is copy 0, the second copy 1."""
    parts = (("elder's hand", list(elder_dealt), HAND_SIZE), ("dealer's hand", list(dealer_dealt), HAND_SIZE),
             ("turn-up", [turn_up], 1), ("stock", list(stock), STOCK_SIZE))
    seen: dict[int, int] = {}
    deck = []
    for where, faces, size in parts:
        if len(faces) != size:
            _fail(where, f"{len(faces)} cards, expected {size}", "BZ-DEAL")
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < 32:
                _fail(where, f"{f!r} is not a card face 0..31")
            n = seen.get(f, 0)
            if n == 2:
                _fail(where, f"{name_of(f)} appears a third time; the pack has two of each card", "BZ-DECK")
            seen[f] = n + 1
            deck.append(32 * n + f)
    return deck


def resolve_play(st: DealState, seat: str, f: int, from_table: bool, step: str) -> int:
    """A recorded card (a face) -> the physical card played: from the hand if he holds the face
    there and the record does not say "table", else his first table copy (:func:`table_order`)."""
    in_hand = sorted(c for c in st.hands[seat] if face(c) == f)
    on_table = [c for c in table_order(st.tables[seat]) if face(c) == f]
    if from_table:
        if not on_table:
            _fail(step, f"{seat} plays {name_of(f)} from the table but has none there", "BZ-MELD")
        return on_table[0]
    if in_hand:
        return in_hand[0]
    if on_table:
        return on_table[0]
    _fail(step, f"{seat} played {name_of(f)}, which he does not hold", "BZ-STOCK-PLAY")


def resolve_meld(st: DealState, seat: str, hand_faces, table_faces, step: str) -> Meld:
    """A recorded meld (faces from the hand and from the table) -> the engine's meld."""
    kind = meld_kind_of(list(hand_faces) + list(table_faces), st.trump)
    names = " ".join(name_of(f) for f in (*hand_faces, *table_faces))
    if kind is None:
        _fail(step, f"{seat} melds {names}, which is no meld", "BZ-VALUES")
    hand_cards: list[int] = []
    for f in hand_faces:
        left = sorted(c for c in st.hands[seat] if face(c) == f and c not in hand_cards)
        if not left:
            _fail(step, f"{seat} melds {name_of(f)} from the hand but holds none there", "BZ-MELD")
        hand_cards.append(left[0])
    table_cards: list[int] = []
    for f in table_faces:
        copies = [c for c in table_order(st.tables[seat]) if face(c) == f and c not in table_cards]
        if not copies:
            _fail(step, f"{seat} melds {name_of(f)} from the table but has none there", "BZ-MELD")
        fit = [c for c in copies if table_card_eligible(st.tables[seat][c], kind, st.rules)]
        table_cards.append((fit or copies)[0])
    cards = tuple(sorted(hand_cards + table_cards))
    return Meld(kind, cards, tuple(sorted(hand_cards)), st.rules.meld_value(kind))


def score_deal(rules: BeziqueRules, elder_dealt, dealer_dealt, turn_up: int, stock, tricks) -> DealResult:
    """Check a fully recorded deal step by step and score it (faces 0..31; ``tricks``: 32
    :class:`TrickPlay`). Anything illegal raises :class:`InputError` naming the step and rule."""
    deck = assign_copies(elder_dealt, dealer_dealt, turn_up, stock)
    tricks = list(tricks)
    if len(tricks) != N_TRICKS:
        _fail("tricks", f"{len(tricks)} tricks recorded, a deal has {N_TRICKS}", "BZ-END")
    st = DealState(rules, deck)
    for n, t in enumerate(tricks, 1):
        step = f"trick {n}"
        leader, follower = st.leader, other(st.leader)
        if n > N_STOCK_TRICKS and (t.exchange or t.meld_hand or t.meld_table):
            _fail(step, "no exchange and no meld in the end phase", "BZ-END")
        st.play(leader, resolve_play(st, leader, t.lead, t.lead_from_table, step))
        st.play(follower, resolve_play(st, follower, t.follow, t.follow_from_table, step))
        if st.pending is None:
            continue
        winner = st.pending.winner
        if t.exchange:
            st.exchange(winner)
        if t.meld_hand or t.meld_table:
            st.meld(winner, resolve_meld(st, winner, t.meld_hand, t.meld_table, step))
        st.draw()
    return _result(st, deck)


# ---------------------------------------------------------------------------------------------
# A game to the target (BZ-GAME)
# ---------------------------------------------------------------------------------------------

MAX_GAME_DEALS = 128  # lanes 2d and 2d+1 must stay below 256


@dataclass
class GameResult:
    """A game: totals of A and B, the deals played, the winner (None: undecided after
    MAX_GAME_DEALS deals), and whether it ended during a stock phase.

    B deals first, so A is elder in deals 0, 2, 4, ...
    """

    totals: dict[str, int]
    deals: list[DealResult]
    winner: str | None
    in_stock_phase: bool

    @staticmethod
    def dealer_of(deal: int) -> str:
        """Who ("A" or "B") deals deal ``deal`` (0-based)."""
        return "B" if deal % 2 == 0 else "A"

    def outcome_vector(self) -> list[int]:
        """[total A, total B, deals played, winner (0 A, 1 B, -1 none), ended in a stock phase]."""
        code = {"A": 0, "B": 1, None: -1}[self.winner]
        return [self.totals["A"], self.totals["B"], len(self.deals), code, int(self.in_stock_phase)]


def play_game(seed: int, index: int, rules: BeziqueRules, policy_a, policy_b=None) -> GameResult:
    """BZ-GAME: deals until a player reaches ``target`` in a stock phase (he wins at once) or one
    or both reach it at the end of a deal (the higher wins; equal totals play on). Deal d uses
    lanes 2d and 2d+1; B deals first and the deal alternates."""
    policies = {"A": policy_a, "B": policy_a if policy_b is None else policy_b}
    totals = {"A": 0, "B": 0}
    deals: list[DealResult] = []
    for d in range(MAX_GAME_DEALS):
        dealer = GameResult.dealer_of(d)
        elder = "A" if dealer == "B" else "B"
        who = {ELDER: elder, DEALER: dealer}
        r = play_deal(seed, index, rules, policies[dealer], policies[elder], lane_base=2 * d,
                      start={ELDER: totals[elder], DEALER: totals[dealer]}, target=rules.target)
        deals.append(r)
        for seat in SEATS:
            totals[who[seat]] += r.total(seat)
        if r.game_winner is not None:
            return GameResult(totals, deals, who[r.game_winner], True)
        if max(totals.values()) >= rules.target and totals["A"] != totals["B"]:
            return GameResult(totals, deals, max(totals, key=totals.get), False)
    return GameResult(totals, deals, None, False)


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

def overridden_switches(rules: BeziqueRules) -> dict:
    """The switches of ``rules`` that differ from its named variant (all of seed-de's if unnamed)."""
    base = VARIANTS.get(rules.name, VARIANTS["seed-de"])
    return {k: v for k, v in rules.switches().items() if base.switches()[k] != v}


def _book(codes) -> str:
    return format_book((card_of(c) for c in codes), BOOK_ORDER) or "—"


def _card(code: int) -> str:
    return name_of(code, symbols=True)


def explain(seed: int, index: int, rules: BeziqueRules, dealer_policy, elder_policy=None,
            lane_base: int = 0) -> str:
    """A step-by-step narration of one deal (the same deal :func:`play_deal` plays)."""
    if elder_policy is None:
        elder_policy = dealer_policy
    r = play_deal(seed, index, rules, dealer_policy, elder_policy, lane_base)
    changed = "".join(f", {k}={v}" for k, v in overridden_switches(rules).items())
    out = [f"Bezique deal {index} of seed {seed} under rules {rules.name}{changed} "
           f"(elder {elder_policy.kind}, dealer {dealer_policy.kind})",
           f"Deal (BZ-DEAL): elder {_book(r.elder_dealt)} | dealer {_book(r.dealer_dealt)}",
           f"Turn-up {_card(r.turn_up)}: {SUIT_NAMES[r.trump]} are trumps; stock of 47."]
    by_step: dict[str, list[Event]] = {}
    for e in r.events:
        by_step.setdefault(e.step, []).append(e)
    running = {ELDER: 0, DEALER: 0}
    for e in by_step.get("deal", []):
        running[e.seat] += e.points
        out.append(f"  {e.seat} +{e.points} ({e.why}, BZ-DEAL)")
    for t in r.tricks:
        step = f"trick {t.number}"
        if t.number == N_STOCK_TRICKS + 1:
            out.append("Stock exhausted (BZ-END): melded cards go back to the hands; "
                       + ("follow suit and win if able, else trump." if rules.end_must_win
                          else "follow suit, else trump."))
        lt = " from the table" if t.led_from_table else ""
        ft = " from the table" if t.followed_from_table else ""
        line = (f"Trick {t.number}: {t.leader} leads {_card(t.led)}{lt}, {other(t.leader)} plays "
                f"{_card(t.followed)}{ft}: {t.winner} wins")
        notes = []
        for e in by_step.get(step, []):
            running[e.seat] += e.points
            notes.append(f"{e.seat} +{e.points} ({e.why})")
        if t.meld is not None:
            notes.append(f"meld {' '.join(_card(c) for c in t.meld.cards)}"
                         + (f", {len(t.meld.cards) - len(t.meld.hand)} from the table"
                            if len(t.meld.hand) < len(t.meld.cards) else ""))
        if t.draws is not None:
            notes.append(f"draws: {t.winner} {_card(t.draws[0])}, {other(t.winner)} {_card(t.draws[1])}")
        out.append(line + ("; " + "; ".join(notes) if notes else "")
                   + f" [elder {running[ELDER]}, dealer {running[DEALER]}]")
    for e in by_step.get("end of deal", []):
        running[e.seat] += e.points
        out.append(f"Brisques (BZ-BRISQUE): {e.seat} +{e.points} ({e.why})")
    out.append(f"Totals: elder {r.total(ELDER)}, dealer {r.total(DEALER)}.")
    return "\n".join(out)

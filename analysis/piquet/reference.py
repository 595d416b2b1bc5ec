"""Piquet in plain Python: the rules of RULES.md as a person reads them, and the test oracle.

This module follows docs/piquet-engine.md to the letter (random streams, the deal, the order of
decisions and of scoring events, the two policies, the outcome vector), so that the numba kernel
can be compared with it deal by deal. Each rule is one small function citing its RULES.md ID;
:func:`score_deal` checks a fully specified deal and scores it, :func:`play_deal` plays one (and
scores it through the same code), :func:`play_partie` plays a partie and :func:`explain`
narrates a deal.

Cards are Piquet codes ``8 * suit + rank`` (rank 0..7 = 7 8 9 10 J Q K A, PQ-DECK); a hand is an
int bitmask with bit ``code`` set for each card held.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from analysis.cards import format_book
from analysis.errors import InputError
from analysis.piquet.rules import (
    POINT_VALUES,
    SEQUENCE_SCORES,
    TEN,
    VARIANTS,
    PiquetRules,
    card_of,
    codes_of_mask,
    name_of,
)
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
COURT_CARDS = sum(1 << (8 * s + r) for s in range(4) for r in (JACK, QUEEN, KING))
CATEGORIES = ("point", "sequences", "sets")
BREAKDOWN_KEYS = ("carte_blanche", "point", "sequences", "sets", "repique", "pique",
                  "trick_points", "cards", "capot", "total", "tricks")
DECLARATION_KEYS = ("carte_blanche", "point", "sequences", "sets", "repique", "total")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")
RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}


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
# Declarations (PQ-CB, PQ-POINT, PQ-SEQ, PQ-SET)
# ---------------------------------------------------------------------------------------------

def has_carte_blanche(mask: int) -> bool:
    """PQ-CB: a (dealt) hand without any king, queen or jack."""
    return mask & COURT_CARDS == 0


def point_of(mask: int) -> tuple[int, int]:
    """PQ-POINT: (length, point value) of the suit with the most cards, ties by higher value.

    (0, 0) for an empty hand.
    """
    best = (0, 0)
    for s in range(4):
        ranks = ranks_in(mask, s)
        pair = (count(ranks), sum(point_value(r) for r in range(8) if ranks >> r & 1))
        best = max(best, pair)
    return best


def sequences_of(mask: int) -> list[tuple[int, int]]:
    """PQ-SEQ: every maximal run of >= 3 consecutive ranks of one suit, as (length, top code),
    suit by suit, low runs first."""
    return [(length, 8 * s + top)
            for s in range(4) for length, top in runs_of(ranks_in(mask, s)) if length >= 3]


def sets_of(mask: int) -> list[tuple[int, int]]:
    """PQ-SET: every trio (3) or quatorze (4) of tens or higher, as (count, rank), low ranks first."""
    found = []
    for r in range(TEN, 8):
        n = sum(mask >> (8 * s + r) & 1 for s in range(4))
        if n >= 3:
            found.append((n, r))
    return found


def best_sequence(mask: int) -> tuple[int, int]:
    """PQ-SEQ: (length, top rank) of the longest sequence, ties by higher top card; (0, -1) if none."""
    return max(((length, rank_of(top)) for length, top in sequences_of(mask)), default=(0, -1))


def best_set(mask: int) -> tuple[int, int]:
    """PQ-SET: (count, rank) of the best set: a quatorze beats a trio, then the higher rank wins;
    (0, -1) if none."""
    return max(sets_of(mask), default=(0, -1))


def declared_key(category: str, mask: int, sunk: bool = False) -> tuple[int, int]:
    """What a player declares in a category, as the pair compared (a sunk category: nothing)."""
    if category == "point":
        return (0, 0) if sunk else point_of(mask)
    if category == "sequences":
        return (0, -1) if sunk else best_sequence(mask)
    return (0, -1) if sunk else best_set(mask)


def compare(elder_key: tuple[int, int], younger_key: tuple[int, int]) -> str | None:
    """PQ-POINT, PQ-SEQ, PQ-SET: the better declaration's seat; None when they are equal."""
    if elder_key > younger_key:
        return ELDER
    if younger_key > elder_key:
        return YOUNGER
    return None


def compare_point(elder_mask: int, younger_mask: int) -> str | None:
    """PQ-POINT: longer wins; equal length, higher value wins; both equal: nobody (None)."""
    return compare(point_of(elder_mask), point_of(younger_mask))


def compare_sequences(elder_mask: int, younger_mask: int) -> str | None:
    """PQ-SEQ: longer best sequence wins, then higher top card; equal: the category is void."""
    return compare(best_sequence(elder_mask), best_sequence(younger_mask))


def compare_sets(elder_mask: int, younger_mask: int) -> str | None:
    """PQ-SET: quatorze beats trio, then the higher rank; None only when nobody has a set."""
    return compare(best_set(elder_mask), best_set(younger_mask))


def category_points(category: str, mask: int) -> int:
    """What the winner of a category scores with this hand.

    Point: the length (PQ-POINT). Sequences: every sequence he holds, 3 4 15 16 17 18 for 3..8
    cards (PQ-SEQ). Sets: every set he holds, 14 per quatorze and 3 per trio (PQ-SET).
    """
    if category == "point":
        return point_of(mask)[0]
    if category == "sequences":
        return sum(SEQUENCE_SCORES[length] for length, _ in sequences_of(mask))
    return sum(14 if n == 4 else 3 for n, _ in sets_of(mask))


def category_winner(category: str, elder_mask: int, younger_mask: int,
                    sink: dict | None = None) -> str | None:
    """The seat scoring a category (None: nobody), a sunk category declared as nothing."""
    sink = _check_sink(sink)
    return compare(declared_key(category, elder_mask, category in sink[ELDER]),
                   declared_key(category, younger_mask, category in sink[YOUNGER]))


def _check_sink(sink: dict | None) -> dict[str, frozenset]:
    """The sunk categories of each seat (none by default), checked."""
    out = {ELDER: frozenset(), YOUNGER: frozenset()}
    if not sink:
        return out
    for seat, cats in sink.items():
        if seat not in SEATS:
            raise InputError(f"sink: unknown player {seat!r}; valid: elder, younger")
        for cat in cats:
            if cat not in CATEGORIES:
                raise InputError(f"sink: unknown category {cat!r}; valid: {', '.join(CATEGORIES)}")
        out[seat] = frozenset(cats)
    return out


# ---------------------------------------------------------------------------------------------
# Scoring events (PQ-ORDER, PQ-REPIQUE, PQ-TRICK, PQ-LAST, PQ-PIQUE, PQ-CARDS)
# ---------------------------------------------------------------------------------------------

class Event(NamedTuple):
    """One scoring event: the step ("carte blanche", "point", "trick 3", ...), who scored, the
    breakdown category, the points, and why (for narration)."""

    step: str
    seat: str
    category: str
    points: int
    why: str = ""


class Scoresheet:
    """The running scores of one deal, event by event, with repique and pique checked after each.

    ``repiqued`` is the seat that gained a repique (None while nobody has); ``piqued`` whether
    elder gained a pique.
    """

    def __init__(self, rules: PiquetRules) -> None:
        self.rules = rules
        self.points = {seat: dict.fromkeys(BREAKDOWN_KEYS, 0) for seat in SEATS}
        self.running = {ELDER: 0, YOUNGER: 0}
        self.repiqued: str | None = None
        self.piqued = False
        self.events: list[Event] = []

    def _add(self, step: str, seat: str, category: str, points: int, why: str = "") -> None:
        self.points[seat][category] += points
        self.points[seat]["total"] += points
        self.running[seat] += points
        self.events.append(Event(step, seat, category, points, why))

    def declare(self, step: str, seat: str, category: str, points: int) -> None:
        """PQ-REPIQUE: a carte blanche or declaration event; then, if the scorer has 30 while the
        opponent has 0 and no repique has been given, he gains the repique at once."""
        if points <= 0:
            return
        self._add(step, seat, category, points)
        if self.repiqued is None and self.running[seat] >= 30 and self.running[other(seat)] == 0:
            self.repiqued = seat
            self._add(step, seat, "repique", self.rules.repique, "repique")

    def play(self, step: str, seat: str, points: int, why: str) -> None:
        """PQ-PIQUE: a trick-point event; then, if elder scored, has 30 with younger at 0, no
        repique of his own and no pique yet, he gains the pique at once."""
        if points <= 0:
            return
        self._add(step, seat, "trick_points", points, why)
        if (seat == ELDER and not self.piqued and self.repiqued != ELDER
                and self.running[ELDER] >= 30 and self.running[YOUNGER] == 0):
            self.piqued = True
            self._add(step, ELDER, "pique", self.rules.pique, "pique")

    def bonus(self, seat: str, category: str, points: int) -> None:
        """PQ-CARDS: the cards or capot (never counted towards pique)."""
        if points > 0:
            self._add("the cards", seat, category, points)


def score_carte_blanche(sheet: Scoresheet, elder_cb: bool, younger_cb: bool) -> None:
    """PQ-CB, PQ-ORDER: carte blanche scores first, elder's then younger's."""
    if elder_cb:
        sheet.declare("carte blanche", ELDER, "carte_blanche", sheet.rules.carte_blanche)
    if younger_cb:
        sheet.declare("carte blanche", YOUNGER, "carte_blanche", sheet.rules.carte_blanche)


def score_categories(sheet: Scoresheet, elder_mask: int, younger_mask: int,
                     sink: dict | None = None) -> None:
    """PQ-ORDER: point, sequences, sets; in each only the winner scores (PQ-POINT, PQ-SEQ,
    PQ-SET)."""
    masks = {ELDER: elder_mask, YOUNGER: younger_mask}
    for category in CATEGORIES:
        winner = category_winner(category, elder_mask, younger_mask, sink)
        if winner is not None:
            sheet.declare(category, winner, category, category_points(category, masks[winner]))


def score_declarations(elder_mask: int, younger_mask: int, rules: PiquetRules, elder_cb: bool,
                       younger_cb: bool, sink: dict | None = None) -> dict:
    """Carte blanche and the declarations on the hands after the exchanges, repique included.

    Returns ``{"elder": {...}, "younger": {...}}`` with keys carte_blanche, point, sequences,
    sets, repique, total. ``sink``: ``{"elder": {"point", ...}, ...}``, categories declared as
    nothing.
    """
    sheet = Scoresheet(rules)
    score_carte_blanche(sheet, elder_cb, younger_cb)
    score_categories(sheet, elder_mask, younger_mask, sink)
    return {seat: {k: sheet.points[seat][k] for k in DECLARATION_KEYS} for seat in SEATS}


def score_tricks(sheet: Scoresheet, tricks: list[Trick]) -> None:
    """PQ-TRICK, PQ-LAST, PQ-PIQUE: the trick-point events of play, in order."""
    rules = sheet.rules
    for n, t in enumerate(tricks, 1):
        step = f"trick {n}"
        if rules.trick_scoring == "lead_and_win_against":
            sheet.play(step, t.leader, 1, "lead")
            if t.winner != t.leader:
                sheet.play(step, t.winner, 1, "win against the lead")
        else:
            if n == 1:
                sheet.play(step, ELDER, 1, "first lead")
            sheet.play(step, t.winner, 1, "trick won")
        if n == N_TRICKS:
            sheet.play(step, t.winner, rules.last_trick, "last trick")


def cards_points(tricks_won: int, rules: PiquetRules) -> tuple[int, int]:
    """PQ-CARDS: (cards bonus, capot) of a player who won ``tricks_won`` tricks."""
    if tricks_won == N_TRICKS:
        return 0, rules.capot
    if tricks_won * 2 > N_TRICKS:
        return rules.cards_bonus, 0
    return 0, 0


def score_cards(sheet: Scoresheet, elder_tricks: int) -> None:
    """PQ-CARDS: 7 to 11 tricks the cards bonus, 12 the capot instead, 6-6 nobody."""
    for seat, won in ((ELDER, elder_tricks), (YOUNGER, N_TRICKS - elder_tricks)):
        sheet.points[seat]["tricks"] = won
        bonus, capot = cards_points(won, sheet.rules)
        sheet.bonus(seat, "cards", bonus)
        sheet.bonus(seat, "capot", capot)


# ---------------------------------------------------------------------------------------------
# Exchanges and play (PQ-EX-E, PQ-EX-Y, PQ-PLAY)
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


def legal_follows(hand: int, led: int) -> int:
    """PQ-PLAY: the follower's legal cards: his cards of the suit led if any, else his hand."""
    suited = hand & suit_mask(suit_of(led))
    return suited or hand


def follower_wins(led: int, followed: int) -> bool:
    """PQ-PLAY: no trumps; only a higher card of the suit led beats it."""
    return suit_of(followed) == suit_of(led) and followed > led


# ---------------------------------------------------------------------------------------------
# Policies (docs/piquet-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

def point_suit(hand: int) -> int:
    """The heuristic's point suit: most cards, ties by higher point value, then lower suit."""
    def key(s):
        ranks = ranks_in(hand, s)
        return (count(ranks), sum(POINT_VALUES[r] for r in range(8) if ranks >> r & 1), -s)
    return max(range(4), key=key)


def guards(hand: int) -> int:
    """The heuristic's guards (younger): the lowest card under a king with >= 2 cards in the suit,
    the two lowest under a queen with >= 3, when that is the suit's highest card."""
    out = 0
    for s in range(4):
        cards = hand & suit_mask(s)
        n = count(cards)
        if not cards:
            continue
        top = rank_of(highest(cards))
        if top == KING and n >= 2:
            out |= 1 << lowest(cards)
        elif top == QUEEN and n >= 3:
            first = lowest(cards)
            out |= 1 << first | 1 << lowest(cards & ~(1 << first))
    return out


def keep_values(hand: int, policy, seat: str) -> dict[int, int]:
    """The heuristic's keep value of each card of a 12-card hand (higher: rather kept)."""
    psuit = point_suit(hand)
    guarded = guards(hand) if seat == YOUNGER else 0
    in_runs = 0
    for s in range(4):
        for length, top in runs_of(ranks_in(hand, s)):
            if length >= 3:
                for r in range(top - length + 1, top + 1):
                    in_runs |= 1 << (8 * s + r)
    values = {}
    for c in codes_of_mask(hand):
        s, r = suit_of(c), rank_of(c)
        v = r + policy.len_weight * count(hand & suit_mask(s))
        if s == psuit:
            v += policy.point_bonus
        if in_runs >> c & 1:
            v += policy.sequence_bonus
        if r >= TEN and sum(hand >> (8 * t + r) & 1 for t in range(4)) >= 3:
            v += policy.set_bonus
        if r == ACE:
            v += policy.ace_bonus
        if guarded >> c & 1:
            v += policy.guard_bonus
        values[c] = v
    return values


class Player:
    """One player's decisions: his policy (heuristic or random) and the deal's choices stream.

    Both players share one choices stream, consumed in the order the decisions occur; the
    heuristic consumes no randomness. ``unseen`` is the heuristic's U: the cards that may be in
    the opponent's hand (kept only with ``track_cards``).
    """

    def __init__(self, policy, seat: str, choices: Stream) -> None:
        kind = getattr(policy, "kind", None)
        if kind not in ("heuristic", "random"):
            raise InputError(f"unknown Piquet policy {policy!r}; use HeuristicPolicy or RandomPolicy")
        self.policy = policy
        self.seat = seat
        self.random = kind == "random"
        self.choices = choices
        self.track = not self.random and bool(policy.track_cards)
        self.unseen = ALL_CARDS

    def _pick(self, codes: list[int]) -> int:
        """The below(n)-th lowest of n codes (ascending)."""
        return codes[self.choices.below(len(codes))]

    def discard(self, hand: int, lo: int, hi: int) -> list[int]:
        """PQ-EX-E / PQ-EX-Y: between lo and hi cards of the 12-card hand, ascending codes."""
        if self.random:
            n = lo + self.choices.below(hi - lo + 1)
            left, chosen = codes_of_mask(hand), []
            for _ in range(n):
                chosen.append(left.pop(self.choices.below(len(left))))
            return sorted(chosen)
        values = keep_values(hand, self.policy, self.seat)
        keep = self.policy.elder_keep if self.seat == ELDER else self.policy.younger_keep
        n = min(hi, max(lo, sum(v < keep for v in values.values())))
        return sorted(sorted(values, key=lambda c: (values[c], c))[:n])

    def start_play(self, hand: int, discards: list[int], seen: list[int]) -> None:
        """Card tracking: U is every card but his hand, his discards and the seen talon cards."""
        self.unseen = ALL_CARDS & ~hand & ~mask_of_codes(discards) & ~mask_of_codes(seen)

    def observe(self, led: int, followed: int, i_led: bool) -> None:
        """Card tracking after a trick: both cards leave U; a void opponent shows his suit empty."""
        self.unseen &= ~(1 << led | 1 << followed)
        if i_led and suit_of(followed) != suit_of(led):
            self.unseen &= ~suit_mask(suit_of(led))

    def lead(self, hand: int) -> int:
        """The card to lead: a master suit's highest card, else the longest suit's lowest."""
        if self.random:
            return self._pick(codes_of_mask(hand))
        unseen = self.unseen if self.track else ALL_CARDS & ~hand
        held = [s for s in range(4) if hand & suit_mask(s)]
        masters = [s for s in held
                   if highest(hand & suit_mask(s)) > highest(unseen & suit_mask(s))]
        if masters:
            s = max(masters, key=lambda s: (count(hand & suit_mask(s)), -s))
            return highest(hand & suit_mask(s))
        s = max(held, key=lambda s: (count(hand & suit_mask(s)),
                                     rank_of(highest(hand & suit_mask(s))), -s))
        return lowest(hand & suit_mask(s))

    def follow(self, hand: int, led: int) -> int:
        """The card to play to ``led``: win as cheaply as possible, else play low; void: his
        lowest-ranked card, ties by the suit with fewer cards, then lower suit index."""
        legal = legal_follows(hand, led)
        if self.random:
            return self._pick(codes_of_mask(legal))
        suited = hand & suit_mask(suit_of(led))
        if suited:
            higher = suited & ~((2 << led) - 1)
            return lowest(higher or suited)
        held = [s for s in range(4) if hand & suit_mask(s)]
        s = min(held, key=lambda s: (rank_of(lowest(hand & suit_mask(s))),
                                     count(hand & suit_mask(s)), s))
        return lowest(hand & suit_mask(s))


# ---------------------------------------------------------------------------------------------
# A fully specified deal: checked and scored
# ---------------------------------------------------------------------------------------------

class Trick(NamedTuple):
    """One trick: who led, the card led, the card played to it, who won."""

    leader: str
    led: int
    followed: int
    winner: str


def _fail(step: str, message: str, rule: str | None = None) -> None:
    """Raise the one-line error of an illegal deal: ``step: message (RULE)``."""
    raise InputError(f"{step}: {message}" + (f" ({rule})" if rule else ""))


def _check_codes(codes, where: str) -> list[int]:
    """A list of card codes, each an int 0..31."""
    out = list(codes)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 32:
            _fail(where, f"{c!r} is not a card code 0..31")
    return out


def check_deal(elder_dealt, younger_dealt, talon) -> tuple[int, int, list[int]]:
    """PQ-DEAL, PQ-DECK: 12 cards each, a talon of 8, the 32 cards all distinct.

    Returns the two dealt masks and the talon (top first).
    """
    parts = {"elder": _check_codes(elder_dealt, "deal"),
             "younger": _check_codes(younger_dealt, "deal"),
             "talon": _check_codes(talon, "talon")}
    place = {"elder": "elder's hand", "younger": "younger's hand", "talon": "the talon"}
    seen: dict[int, str] = {}
    for where, cards in parts.items():
        step = "talon" if where == "talon" else f"{where}'s hand"
        for c in cards:
            if c in seen:
                what = "listed twice" if seen[c] == where else f"also in {place[seen[c]]}"
                _fail(step, f"{name_of(c)} is {what}", "PQ-DECK")
            seen[c] = where
    for seat in SEATS:
        if len(parts[seat]) != HAND_SIZE:
            _fail(f"{seat}'s hand", f"{len(parts[seat])} cards dealt, a hand has {HAND_SIZE}",
                  "PQ-DEAL")
    if len(parts["talon"]) != TALON_SIZE:
        _fail("talon", f"{len(parts['talon'])} cards, the talon has {TALON_SIZE}", "PQ-DEAL")
    return mask_of_codes(parts["elder"]), mask_of_codes(parts["younger"]), parts["talon"]


def check_discard(seat: str, dealt: int, discard, lo: int, hi: int, rules: PiquetRules) -> list[int]:
    """PQ-EX-E / PQ-EX-Y: a discard of lo..hi distinct cards from the player's dealt hand."""
    rule = "PQ-EX-E" if seat == ELDER else "PQ-EX-Y"
    step = f"{seat}'s exchange"
    cards = _check_codes(discard, step)
    for i, c in enumerate(cards):
        if c in cards[:i]:
            _fail(step, f"{seat} discards {name_of(c)} twice", rule)
        if not dealt >> c & 1:
            _fail(step, f"{seat} discards {name_of(c)}, which is not in his dealt hand", rule)
    n = len(cards)
    if n < lo:
        _fail(step, f"{seat} exchanges {_plural(n, 'card')}, at least {lo} required", rule)
    if n > hi:
        if seat == ELDER:
            why = ""
        elif rules.younger_takes_leftovers:
            why = f" (the talon holds {hi} after elder took {8 - hi})"
        else:
            why = f" ({rules.name}: only the bottom 3 of the talon)"
        _fail(step, f"{seat} exchanges {n} cards, at most {hi} allowed{why}", rule)
    return cards


def check_tricks(elder_hand: int, younger_hand: int, tricks) -> list[Trick]:
    """PQ-PLAY: 12 legal tricks, elder leading the first and each winner the next."""
    tricks = list(tricks)
    if len(tricks) != N_TRICKS:
        _fail("tricks", f"{len(tricks)} tricks recorded, a deal has {N_TRICKS}", "PQ-PLAY")
    hands = {ELDER: elder_hand, YOUNGER: younger_hand}
    played: dict[int, int] = {}
    out: list[Trick] = []
    leader = ELDER
    for n, pair in enumerate(tricks, 1):
        step = f"trick {n}"
        if len(pair) != 2:
            _fail(step, "expected a pair (card led, card played to it)")
        led, followed = _check_codes(pair, step)
        follower = other(leader)
        why_leader = "elder leads the first trick" if n == 1 else \
            f"{leader} won trick {n - 1} and leads"
        for seat, c, verb in ((leader, led, "led"), (follower, followed, "played")):
            if hands[seat] >> c & 1:
                continue
            if c in played:
                _fail(step, f"{name_of(c)} was already played in trick {played[c]}", "PQ-PLAY")
            if seat == leader and hands[follower] >> c & 1:
                _fail(step, f"{follower} led {name_of(c)} but {why_leader}", "PQ-PLAY")
            _fail(step, f"{seat} {verb} {name_of(c)}, which is not in his hand", "PQ-PLAY")
        if not legal_follows(hands[follower], led) >> followed & 1:
            suit = suit_of(led)
            held = count(hands[follower] & suit_mask(suit))
            _fail(step, f"{follower} played {name_of(followed)} but must follow suit with a "
                        f"{SUIT_SINGULAR[suit]} (holds {held})", "PQ-PLAY")
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        played[led] = played[followed] = n
        winner = follower if follower_wins(led, followed) else leader
        out.append(Trick(leader, led, followed, winner))
        leader = winner
    return out


@dataclass
class CheckedDeal:
    """A deal after every step was checked: hands (masks), the cards taken, tricks and scores."""

    elder_dealt: int
    younger_dealt: int
    talon: list[int]
    elder_discard: list[int]
    younger_discard: list[int]
    elder_took: list[int]
    younger_took: list[int]
    elder_hand: int
    younger_hand: int
    tricks: list[Trick]
    sheet: Scoresheet


def check_and_score(rules: PiquetRules, elder_dealt, younger_dealt, talon, elder_discard,
                    younger_discard, tricks, sink=None) -> CheckedDeal:
    """Check a fully specified deal step by step and score it (the one reading of the rules)."""
    e_dealt, y_dealt, talon = check_deal(elder_dealt, younger_dealt, talon)
    e_disc = check_discard(ELDER, e_dealt, elder_discard, *elder_bounds(), rules)
    k = len(e_disc)
    lo, hi = younger_bounds(rules, k)
    y_disc = check_discard(YOUNGER, y_dealt, younger_discard, lo, hi, rules)
    e_took = talon[:k]
    y_took = [talon[t] for t in younger_talon_indices(rules, k, len(y_disc))]
    e_hand = e_dealt & ~mask_of_codes(e_disc) | mask_of_codes(e_took)
    y_hand = y_dealt & ~mask_of_codes(y_disc) | mask_of_codes(y_took)
    played = check_tricks(e_hand, y_hand, tricks)

    sheet = Scoresheet(rules)
    score_carte_blanche(sheet, has_carte_blanche(e_dealt), has_carte_blanche(y_dealt))
    score_categories(sheet, e_hand, y_hand, sink)
    score_tricks(sheet, played)
    score_cards(sheet, sum(t.winner == ELDER for t in played))
    return CheckedDeal(e_dealt, y_dealt, talon, e_disc, y_disc, e_took, y_took, e_hand, y_hand,
                       played, sheet)


def score_deal(rules: PiquetRules, elder_dealt, younger_dealt, talon, elder_discard,
               younger_discard, tricks, sink: dict | None = None) -> dict:
    """Check and re-score a fully specified deal (card codes; tricks as (led, followed) pairs).

    Returns ``{"elder": {...}, "younger": {...}}``, each with the keys of BREAKDOWN_KEYS. Anything
    illegal raises :class:`InputError` with one line naming the step and the rule.
    """
    return check_and_score(rules, elder_dealt, younger_dealt, talon, elder_discard,
                           younger_discard, tricks, sink).sheet.points


# ---------------------------------------------------------------------------------------------
# One deal played
# ---------------------------------------------------------------------------------------------

@dataclass
class DealResult:
    """Everything that happened in one deal, in card codes and masks."""

    seed: int
    index: int
    lane_base: int
    rules: PiquetRules
    elder_dealt: list[int]
    younger_dealt: list[int]
    talon: list[int]                 # top first
    elder_discard: list[int]         # ascending codes
    younger_discard: list[int]
    elder_took: list[int]            # talon cards, in talon order
    younger_took: list[int]
    elder_hand: int                  # masks after the exchanges
    younger_hand: int
    tricks: list[Trick]
    scores: dict[str, dict[str, int]]
    events: list[Event] = field(default_factory=list)

    @property
    def elder_total(self) -> int:
        """Elder's points in this deal."""
        return self.scores[ELDER]["total"]

    @property
    def younger_total(self) -> int:
        """Younger's points in this deal."""
        return self.scores[YOUNGER]["total"]

    def outcome_vector(self) -> list[int]:
        """The 50 ints the differential test compares (docs/piquet-engine.md, "Outcome vector")."""
        e, y = self.scores[ELDER], self.scores[YOUNGER]
        plays = []
        for t in self.tricks:
            plays += [t.led, t.followed]
        return [
            e["total"], y["total"],
            e["carte_blanche"], y["carte_blanche"],
            e["point"], y["point"],
            e["sequences"], y["sequences"],
            e["sets"], y["sets"],
            e["repique"], y["repique"],
            e["pique"],
            e["trick_points"], y["trick_points"],
            e["tricks"],
            e["cards"], y["cards"],
            e["capot"], y["capot"],
            len(self.elder_took), len(self.younger_took),
            mask_of_codes(self.elder_dealt), mask_of_codes(self.younger_dealt),
            self.elder_hand, self.younger_hand,
            *plays,
        ]


def play_deal(seed: int, index: int, rules: PiquetRules, elder_policy, younger_policy=None,
              lane_base: int = 0) -> DealResult:
    """Play one deal (docs/piquet-engine.md, "One deal"): cards from Stream(seed, index,
    lane_base), the random policy's choices from Stream(seed, index, lane_base + 1)."""
    if younger_policy is None:
        younger_policy = elder_policy
    return play_cards(deal_cards(seed, index, lane_base), rules, elder_policy, younger_policy,
                      Stream(seed, index, lane_base + 1), seed=seed, index=index, lane_base=lane_base)


def play_cards(deck: list[int], rules: PiquetRules, elder_policy, younger_policy, choices: Stream, *,
               elder_discard: list[int] | None = None, younger_discard: list[int] | None = None,
               elder_count: int | None = None, seed: int = 0, index: int = 0, lane_base: int = 0) -> DealResult:
    """Play a deal whose 32 cards are given (elder's 12, younger's 12, the talon top first).

    The discard analyser's entry: ``elder_discard`` / ``younger_discard`` force a player's
    discard; ``elder_count`` forces how many cards elder exchanges (his policy picks which)."""
    elder_dealt, younger_dealt, talon = deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE], deck[24:]
    players = {ELDER: Player(elder_policy, ELDER, choices),
               YOUNGER: Player(younger_policy, YOUNGER, choices)}
    hands = {ELDER: mask_of_codes(elder_dealt), YOUNGER: mask_of_codes(younger_dealt)}

    # Exchanges (PQ-EX-E, PQ-EX-Y): elder first, then younger.
    if elder_discard is not None:
        e_disc = sorted(elder_discard)
    else:
        bounds = (elder_count, elder_count) if elder_count is not None else elder_bounds()
        e_disc = players[ELDER].discard(hands[ELDER], *bounds)
    k = len(e_disc)
    hands[ELDER] = hands[ELDER] & ~mask_of_codes(e_disc) | mask_of_codes(talon[:k])
    if younger_discard is not None:
        y_disc = sorted(younger_discard)
    else:
        y_disc = players[YOUNGER].discard(hands[YOUNGER], *younger_bounds(rules, k))
    m = len(y_disc)
    y_took = [talon[t] for t in younger_talon_indices(rules, k, m)]
    hands[YOUNGER] = hands[YOUNGER] & ~mask_of_codes(y_disc) | mask_of_codes(y_took)
    for seat, disc in ((ELDER, e_disc), (YOUNGER, y_disc)):
        seen = [talon[t] for t in seen_talon_indices(seat, rules, k, m)]
        players[seat].start_play(hands[seat], disc, seen)

    # Play (PQ-PLAY).
    pairs = []
    leader = ELDER
    for _ in range(N_TRICKS):
        follower = other(leader)
        led = players[leader].lead(hands[leader])
        followed = players[follower].follow(hands[follower], led)
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        players[leader].observe(led, followed, True)
        players[follower].observe(led, followed, False)
        pairs.append((led, followed))
        leader = follower if follower_wins(led, followed) else leader

    # Scores: the same code that checks and scores a recorded deal.
    d = check_and_score(rules, elder_dealt, younger_dealt, talon, e_disc, y_disc, pairs)
    return DealResult(
        seed=seed, index=index, lane_base=lane_base, rules=rules,
        elder_dealt=elder_dealt, younger_dealt=younger_dealt, talon=talon,
        elder_discard=d.elder_discard, younger_discard=d.younger_discard,
        elder_took=d.elder_took, younger_took=d.younger_took,
        elder_hand=d.elder_hand, younger_hand=d.younger_hand,
        tricks=d.tricks, scores=d.sheet.points, events=d.sheet.events,
    )


# ---------------------------------------------------------------------------------------------
# A partie (PQ-PARTIE, PQ-TIE, PQ-RUBICON)
# ---------------------------------------------------------------------------------------------

def partie_outcome(total_a: int, total_b: int, rules: PiquetRules) -> tuple[str | None, int, bool]:
    """PQ-RUBICON: (winner "A"/"B" or None when drawn, margin, rubiconed).

    Loser's L below ``rubicon``: margin W + L + bonus (rubiconed); else W - L + bonus.
    """
    if total_a == total_b:
        return None, 0, False
    winner = "A" if total_a > total_b else "B"
    w, loser = max(total_a, total_b), min(total_a, total_b)
    if loser < rules.rubicon:
        return winner, w + loser + rules.rubicon_bonus, True
    return winner, w - loser + rules.rubicon_bonus, False


@dataclass
class PartieResult:
    """A partie: totals of A and B, the deals played, the winner (None: drawn), margin, rubicon.

    B deals first, so A is elder in deals 0, 2, 4, ...
    """

    totals: dict[str, int]
    deals: list[DealResult]
    winner: str | None
    margin: int
    rubiconed: bool

    @staticmethod
    def elder_of(deal: int) -> str:
        """Who ("A" or "B") was elder in deal ``deal`` (0-based)."""
        return "A" if deal % 2 == 0 else "B"

    @property
    def deals_played(self) -> int:
        """Deals played, extra deals included."""
        return len(self.deals)

    def outcome_vector(self) -> list[int]:
        """[total A, total B, deals played, winner (0 A, 1 B, -1 drawn), margin, rubiconed]."""
        code = {"A": 0, "B": 1, None: -1}[self.winner]
        return [self.totals["A"], self.totals["B"], self.deals_played, code, self.margin,
                int(self.rubiconed)]


def play_partie(seed: int, index: int, rules: PiquetRules, policy_a, policy_b=None) -> PartieResult:
    """PQ-PARTIE, PQ-TIE: ``partie_deals`` deals, dealer alternating (B deals first), then
    ``tie_extra_deals`` more when the totals are equal. Deal d uses lanes 2d and 2d+1."""
    policies = {"A": policy_a, "B": policy_a if policy_b is None else policy_b}
    totals = {"A": 0, "B": 0}
    deals: list[DealResult] = []
    planned = rules.partie_deals
    while len(deals) < planned:
        d = len(deals)
        elder = PartieResult.elder_of(d)
        younger = "B" if elder == "A" else "A"
        r = play_deal(seed, index, rules, policies[elder], policies[younger], lane_base=2 * d)
        deals.append(r)
        totals[elder] += r.elder_total
        totals[younger] += r.younger_total
        if len(deals) == planned == rules.partie_deals and totals["A"] == totals["B"]:
            planned += rules.tie_extra_deals
    winner, margin, rubiconed = partie_outcome(totals["A"], totals["B"], rules)
    return PartieResult(totals, deals, winner, margin, rubiconed)


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

def overridden_switches(rules: PiquetRules) -> dict:
    """The switches of ``rules`` that differ from its named variant (all of seed-de's if unnamed)."""
    base = VARIANTS.get(rules.name, VARIANTS["seed-de"])
    return {k: v for k, v in rules.switches().items() if base.switches()[k] != v}


def _book(codes) -> str:
    return format_book(card_of(c) for c in codes) or "—"


def _cards(codes) -> str:
    return " ".join(name_of(c, symbols=True) for c in codes) or "no card"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _describe(category: str, mask: int) -> str:
    """A player's declaration in words (his best, and in full what he holds)."""
    if category == "point":
        length, value = point_of(mask)
        return f"point of {length} ({value})"
    if category == "sequences":
        seqs = sequences_of(mask)
        if not seqs:
            return "no sequence"
        return ", ".join(f"{SEQUENCE_NAMES[n]} to the {RANK_WORDS[rank_of(top)]} of "
                         f"{SUIT_NAMES[suit_of(top)]}" for n, top in sorted(seqs, reverse=True))
    found = sets_of(mask)
    if not found:
        return "no set"
    return ", ".join(f"{'quatorze' if n == 4 else 'trio'} of {RANK_WORDS[r]}s"
                     for n, r in sorted(found, reverse=True))


def _declaration_line(category: str, rule: str, r: DealResult) -> str:
    """Elder declares, younger answers good / not good / equal, and who scores."""
    e_key = declared_key(category, r.elder_hand)
    y_key = declared_key(category, r.younger_hand)
    winner = compare(e_key, y_key)
    title = {"point": "Point", "sequences": "Sequences", "sets": "Sets"}[category]
    line = (f"{title} ({rule}): elder declares {_describe(category, r.elder_hand)}; younger, "
            f"with {_describe(category, r.younger_hand)}, says ")
    if winner == ELDER:
        answer = "good" if y_key[0] > 0 or category == "point" else "good (he has none)"
        return line + f"{answer}: elder scores {r.scores[ELDER][category]}."
    if winner == YOUNGER:
        return line + f"not good: younger scores {r.scores[YOUNGER][category]}."
    if category == "point" or e_key[0] > 0:
        return line + "equal: nobody scores."
    return f"{title} ({rule}): neither player holds any: nobody scores."


def explain(seed: int, index: int, rules: PiquetRules, elder_policy, younger_policy=None,
            lane_base: int = 0) -> str:
    """A step-by-step narration of one deal (the same deal :func:`play_deal` plays)."""
    if younger_policy is None:
        younger_policy = elder_policy
    r = play_deal(seed, index, rules, elder_policy, younger_policy, lane_base)
    changed = "".join(f", {k}={v}" for k, v in overridden_switches(rules).items())
    out = [f"Piquet deal {index} of seed {seed} under rules {rules.name}{changed} "
           f"(elder {elder_policy.kind}, younger {younger_policy.kind})"]
    out.append(f"Deal (PQ-DEAL): elder {_book(r.elder_dealt)} | younger {_book(r.younger_dealt)}")
    out.append(f"Talon, top first: {_cards(r.talon)} (top 5 elder's, bottom 3 younger's)")

    by_step: dict[str, list[Event]] = {}
    for e in r.events:
        by_step.setdefault(e.step, []).append(e)

    def repique_note(step: str) -> list[str]:
        return [f"  Repique (PQ-REPIQUE): {e.seat} reaches 30 before {other(e.seat)} has scored: "
                f"{e.seat} scores {e.points}." for e in by_step.get(step, []) if e.category == "repique"]

    cb = [e for e in by_step.get("carte blanche", []) if e.category == "carte_blanche"]
    if cb:
        for e in cb:
            out.append(f"Carte blanche (PQ-CB): {e.seat} holds no king, queen or jack: "
                       f"{e.seat} scores {e.points}.")
    else:
        out.append("Carte blanche (PQ-CB): neither player has carte blanche.")
    out += repique_note("carte blanche")

    k, m = len(r.elder_took), len(r.younger_took)
    out.append(f"Elder's exchange (PQ-EX-E): discards {_cards(r.elder_discard)}, takes "
               f"{_cards(r.elder_took)}" + (f", leaves {_cards(r.talon[k:ELDER_SHARE])}"
                                            if k < ELDER_SHARE else "") + ".")
    lo, hi = younger_bounds(rules, k)
    out.append(f"Younger's exchange (PQ-EX-Y, {lo} to {hi} cards): "
               + (f"discards {_cards(r.younger_discard)}, takes {_cards(r.younger_took)}."
                  if m else "exchanges no card."))
    out.append(f"Hands at play: elder {_book(codes_of_mask(r.elder_hand))} | "
               f"younger {_book(codes_of_mask(r.younger_hand))}")
    for category, rule in (("point", "PQ-POINT"), ("sequences", "PQ-SEQ"), ("sets", "PQ-SET")):
        out.append(_declaration_line(category, rule, r))
        out += repique_note(category)

    running = {ELDER: 0, YOUNGER: 0}
    for e in r.events:
        if e.step in ("carte blanche", *CATEGORIES):
            running[e.seat] += e.points
    out.append(f"Before play: elder {running[ELDER]}, younger {running[YOUNGER]}.")
    for n, t in enumerate(r.tricks, 1):
        step = f"trick {n}"
        follower = other(t.leader)
        scored = []
        for e in by_step.get(step, []):
            running[e.seat] += e.points
            if e.category == "pique":
                scored.append(f"PIQUE (PQ-PIQUE): elder reaches 30 before younger has scored, "
                              f"elder +{e.points}")
            else:
                scored.append(f"{e.seat} +{e.points} ({e.why})")
        out.append(f"Trick {n}: {t.leader} leads {name_of(t.led, True)}, {follower} plays "
                   f"{name_of(t.followed, True)}: {t.winner} wins; " + "; ".join(scored)
                   + f" [elder {running[ELDER]}, younger {running[YOUNGER]}]")

    e_tricks = r.scores[ELDER]["tricks"]
    y_tricks = N_TRICKS - e_tricks
    line = f"The cards (PQ-CARDS): elder took {_plural(e_tricks, 'trick')}, younger {y_tricks}"
    bonus = [e for e in by_step.get("the cards", [])]
    if bonus:
        e = bonus[0]
        what = "capot" if e.category == "capot" else "the cards"
        line += f": {e.seat} scores {e.points} for {what}."
    elif e_tricks * 2 == N_TRICKS:
        line += ": cards divided, nobody scores."
    else:
        line += "."
    out.append(line)
    out.append(f"Totals: elder {r.elder_total}, younger {r.younger_total}.")
    return "\n".join(out)

"""Piquet reference: the declarations and the scoresheet of a deal.

Who wins point, sequences and sets and what each scores (PQ-CB, PQ-POINT, PQ-SEQ, PQ-SET), and
the scoring events of a deal in order, repique, pique, trick points, the cards and capot checked
as each is scored (PQ-ORDER, PQ-REPIQUE, PQ-TRICK, PQ-LAST, PQ-PIQUE, PQ-CARDS).
"""
from __future__ import annotations

from typing import NamedTuple

from analysis.errors import InputError
from analysis.piquet.reference.cards import (
    ELDER,
    JACK,
    KING,
    N_TRICKS,
    QUEEN,
    SEATS,
    YOUNGER,
    Trick,
    count,
    other,
    point_value,
    rank_of,
    ranks_in,
    runs_of,
)
from analysis.piquet.rules import SEQUENCE_SCORES, TEN, PiquetRules

COURT_CARDS = sum(1 << (8 * s + r) for s in range(4) for r in (JACK, QUEEN, KING))
CATEGORIES = ("point", "sequences", "sets")
BREAKDOWN_KEYS = ("carte_blanche", "point", "sequences", "sets", "repique", "pique",
                  "trick_points", "cards", "capot", "total", "tricks")
DECLARATION_KEYS = ("carte_blanche", "point", "sequences", "sets", "repique", "total")


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


def score_trick(sheet: Scoresheet, n: int, t: Trick) -> None:
    """PQ-TRICK, PQ-LAST, PQ-PIQUE: the trick-point events of trick ``n`` (1-based), in order: the
    lead point, then the win and last-trick points, the pique checked after each."""
    rules = sheet.rules
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


def score_tricks(sheet: Scoresheet, tricks: list[Trick]) -> None:
    """PQ-TRICK, PQ-LAST, PQ-PIQUE: the trick-point events of play, in order."""
    for n, t in enumerate(tricks, 1):
        score_trick(sheet, n, t)


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

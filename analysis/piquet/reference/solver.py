"""A brute-force double-dummy evaluator of the rest of a Piquet deal's trick play: the test oracle
for a fast solver.

Two readings of the same rules, each deliberately plain:

- :func:`brute_force` plays out EVERY line (every card of the leader, every legal card of the
  follower, at every trick) and takes the minimax, elder maximising and younger minimising. It
  reads PQ-PLAY, PQ-TRICK, PQ-LAST, PQ-CARDS and PQ-PIQUE from docs/rules.md on its own (small
  functions below), memoising on the exact state only: no two cards are ever treated as
  equivalent, no pruning, no move ordering.
- :func:`line_value` scores ONE given line of play through the reference module
  (:mod:`analysis.piquet.reference.deal`: ``legal_follows``, ``follower_wins``, ``score_tricks``,
  ``score_cards`` and a ``Scoresheet`` seeded with the running scores).

Both return V: elder's points from here to the end of the deal minus younger's (trick points,
the last trick, a pique gained from here, the cards or capot).

A position is the two hands (card-code masks, ``code = 8 * suit + rank``, both of n = 1..12
cards), who leads the next trick, the tricks each player has already won (``e_won + y_won + n ==
12``), the running scores of the deal so far (``e_score``, ``y_score``: carte blanche,
declarations, repique, play points, pique) and whether elder already has his pique. Scoring
details, as in ``Scoresheet.play`` / ``score_tricks``:

- PQ-TRICK, ``lead_and_win_against``: the leader +1 for every lead, then the follower +1 when he
  wins the trick. ``first_lead_and_wins``: elder +1 for leading trick 1 (only when trick 1 is still
  to play), then the winner of every trick +1.
- PQ-LAST: after those, the winner of trick 12 scores ``rules.last_trick`` more.
- PQ-PIQUE: after each of those events scored by elder (in that order), if his running score has
  reached 30 while younger's is still 0, elder gains ``rules.pique`` at once (once per deal). Not
  if ``pique_done``; not if ``e_score >= 30`` at the start (with younger at 0 that can only mean a
  repique or a pique already given; with younger above 0 no pique can come any more).
- PQ-CARDS: at the end, 7..11 tricks in the deal ``rules.cards_bonus``, 12 ``rules.capot``
  instead, 6-6 nobody; never towards the pique.

Elder leads trick 1 (PQ-PLAY), and whoever leads a later trick won the trick before; positions
that contradict this are rejected with ValueError.
"""
from __future__ import annotations

from functools import lru_cache

from analysis.piquet.reference.cards import ELDER, YOUNGER, Trick, follower_wins, legal_follows
from analysis.piquet.reference.scoring import Scoresheet, score_cards, score_tricks
from analysis.piquet.rules import PiquetRules, name_of

N_TRICKS = 12
PIQUE_AT = 30


# ---------------------------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------------------------

def _cards(mask: int) -> list[int]:
    """The card codes of a mask, ascending."""
    return [c for c in range(32) if mask >> c & 1]


def check_position(elder: int, younger: int, *, elder_leads: bool, e_won: int, y_won: int,
                   e_score: int, y_score: int) -> int:
    """Check a position (see the module docstring) and return n, the cards in each hand.

    Raises ValueError when a hand is not a 32-bit mask, the hands share a card or differ in
    size, n is not 1..12, the tricks won do not add up to 12 - n, a score is negative, or the
    leader cannot be the leader (elder leads trick 1; a later trick's leader won a trick).
    """
    for what, m in (("elder's hand", elder), ("younger's hand", younger)):
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < 1 << 32:
            raise ValueError(f"{what} must be a 32-bit card mask, not {m!r}")
    if elder & younger:
        raise ValueError(f"both hands hold {', '.join(name_of(c) for c in _cards(elder & younger))}")
    n = len(_cards(elder))
    if len(_cards(younger)) != n:
        raise ValueError(f"elder holds {n} cards, younger {len(_cards(younger))}")
    if not 1 <= n <= N_TRICKS:
        raise ValueError(f"each hand must hold 1 to 12 cards, not {n}")
    for what, v in (("e_won", e_won), ("y_won", y_won), ("e_score", e_score), ("y_score", y_score)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{what} must be an int >= 0, not {v!r}")
    if e_won + y_won + n != N_TRICKS:
        raise ValueError(f"e_won + y_won + cards in hand = {e_won} + {y_won} + {n}, not 12")
    if e_won + y_won == 0 and not elder_leads:
        raise ValueError("elder leads the first trick (PQ-PLAY)")
    if e_won + y_won > 0 and (e_won if elder_leads else y_won) == 0:
        leader = "elder" if elder_leads else "younger"
        raise ValueError(f"{leader} leads but has won no trick (the winner leads next, PQ-PLAY)")
    return n


# ---------------------------------------------------------------------------------------------
# The rules, read from docs/rules.md (independently of analysis.piquet.reference.deal)
# ---------------------------------------------------------------------------------------------

def _legal(hand: int, led: int) -> list[int]:
    """PQ-PLAY: the cards of the suit led if he holds any, else any card."""
    same = [c for c in _cards(hand) if c // 8 == led // 8]
    return same or _cards(hand)


def _follower_takes(led: int, followed: int) -> bool:
    """PQ-PLAY: no trumps; only a higher card of the suit led beats it."""
    return followed // 8 == led // 8 and followed % 8 > led % 8


def _cards_bonus(won: int, rules: PiquetRules) -> int:
    """PQ-CARDS: all 12 tricks the capot; 7 to 11 the cards bonus; 6 or fewer nothing."""
    if won == N_TRICKS:
        return rules.capot
    if won >= 7:
        return rules.cards_bonus
    return 0


def _trick_events(number: int, elder_led: bool, elder_won: bool, rules: PiquetRules) -> list[tuple[bool, int]]:
    """PQ-TRICK, PQ-LAST: the scoring events of trick ``number`` (1..12) in order, as (to elder?,
    points)."""
    events = []
    if rules.trick_scoring == "lead_and_win_against":
        events.append((elder_led, 1))              # the lead
        if elder_won != elder_led:
            events.append((elder_won, 1))          # won against the opponent's lead
    else:
        if number == 1:
            events.append((True, 1))               # elder's first lead
        events.append((elder_won, 1))              # the trick won
    if number == N_TRICKS:
        events.append((elder_won, rules.last_trick))
    return events


# ---------------------------------------------------------------------------------------------
# Brute force
# ---------------------------------------------------------------------------------------------

def brute_force(elder: int, younger: int, *, elder_leads: bool, e_won: int, y_won: int,
                e_score: int, y_score: int, pique_done: bool, rules: PiquetRules) -> tuple[int, list[int]]:
    """The double-dummy value of the rest of the play by exhaustive minimax.

    Returns ``(V, best)``: V is elder's points from here on minus younger's with elder maximising
    and younger minimising at every card, ``best`` the leader's card codes (ascending) whose
    optimal continuation reaches V. Every legal card of each player is tried at every trick; the
    only shortcut is a memo on the exact state (both hands, leader, tricks won, running scores,
    whether a pique can still come).
    """
    check_position(elder, younger, elder_leads=elder_leads, e_won=e_won, y_won=y_won,
                   e_score=e_score, y_score=y_score)

    @lru_cache(maxsize=None)
    def rest(e_hand: int, y_hand: int, elder_leads: bool, e_won: int, y_won: int,
             e_run: int, y_run: int, pique_open: bool) -> int:
        """V from a trick boundary."""
        if e_won + y_won == N_TRICKS:
            return _cards_bonus(e_won, rules) - _cards_bonus(y_won, rules)
        leader_hand = e_hand if elder_leads else y_hand
        values = [after_lead(e_hand, y_hand, elder_leads, e_won, y_won, e_run, y_run, pique_open, led)
                  for led in _cards(leader_hand)]
        return max(values) if elder_leads else min(values)

    def after_lead(e_hand, y_hand, elder_leads, e_won, y_won, e_run, y_run, pique_open, led) -> int:
        """V once ``led`` is on the table: the follower picks among his legal cards."""
        follower_hand = y_hand if elder_leads else e_hand
        values = []
        for followed in _legal(follower_hand, led):
            elder_won = elder_leads != _follower_takes(led, followed)
            number = e_won + y_won + 1
            gained, e_now, y_now, open_now = 0, e_run, y_run, pique_open
            for to_elder, points in _trick_events(number, elder_leads, elder_won, rules):
                if points <= 0:
                    continue
                if to_elder:
                    gained += points
                    e_now += points
                    if open_now and e_now >= PIQUE_AT and y_now == 0:     # PQ-PIQUE
                        open_now = False
                        gained += rules.pique
                        e_now += rules.pique
                else:
                    gained -= points
                    y_now += points
            e_card, y_card = (led, followed) if elder_leads else (followed, led)
            values.append(gained + rest(e_hand & ~(1 << e_card), y_hand & ~(1 << y_card), elder_won,
                                        e_won + elder_won, y_won + (not elder_won), e_now, y_now, open_now))
        return min(values) if elder_leads else max(values)

    pique_open = not pique_done and e_score < PIQUE_AT
    leader_hand = elder if elder_leads else younger
    by_lead = {led: after_lead(elder, younger, elder_leads, e_won, y_won, e_score, y_score, pique_open, led)
               for led in _cards(leader_hand)}
    v = max(by_lead.values()) if elder_leads else min(by_lead.values())
    return v, sorted(c for c, value in by_lead.items() if value == v)


# ---------------------------------------------------------------------------------------------
# One line, scored by the reference
# ---------------------------------------------------------------------------------------------

class _SheetFrom(Scoresheet):
    """A reference Scoresheet that lets through only the play events of tricks after ``played``."""

    def __init__(self, rules: PiquetRules, played: int) -> None:
        super().__init__(rules)
        self.played = played

    def play(self, step: str, seat: str, points: int, why: str) -> None:
        word, number = step.split()
        if word != "trick":  # pragma: no cover - score_tricks names its steps "trick N"
            raise AssertionError(f"unexpected play step {step!r}")
        if int(number) > self.played:
            super().play(step, seat, points, why)


def line_value(elder: int, younger: int, *, elder_leads: bool, e_won: int, y_won: int, e_score: int,
               y_score: int, pique_done: bool, rules: PiquetRules, tricks: list[tuple[int, int]]) -> int:
    """V of one complete line of play from the position: ``tricks`` are (card led, card played
    to it), one per card in hand, the first led by elder if ``elder_leads``, each later one by
    the previous trick's winner.

    A second reading through :mod:`analysis.piquet.reference.deal`: legality with its
    ``legal_follows`` (ValueError for a card not in the player's hand or a failure to follow
    suit), winners with ``follower_wins``. The scoring is the reference's own code: a
    ``Scoresheet`` whose running scores are seeded with ``e_score`` / ``y_score`` and whose
    ``piqued`` flag is ``pique_done`` (elder already at 30 with younger at 0 and no pique is
    marked as elder's repique, the only other way there, so no pique can follow); ``score_tricks``
    is run on the whole deal, the tricks already played standing in as placeholders (``e_won``
    won by elder, then ``y_won`` by younger, ordered so that the last winner leads now) whose
    events the sheet drops, so that trick numbers, the first lead, the last trick and the pique
    checks are exactly the reference's; then ``score_cards`` with elder's tricks in the whole
    deal. V is elder's total on the sheet minus younger's (the sheet's totals start at 0).
    """
    n = check_position(elder, younger, elder_leads=elder_leads, e_won=e_won, y_won=y_won,
                       e_score=e_score, y_score=y_score)
    tricks = list(tricks)
    if len(tricks) != n:
        raise ValueError(f"{len(tricks)} tricks given, {n} left to play")
    hands = {ELDER: elder, YOUNGER: younger}
    leader = ELDER if elder_leads else YOUNGER
    played: list[Trick] = []
    for k, pair in enumerate(tricks, e_won + y_won + 1):
        if len(pair) != 2:
            raise ValueError(f"trick {k}: expected (card led, card played to it), not {pair!r}")
        led, followed = pair
        follower = YOUNGER if leader == ELDER else ELDER
        for seat, c in ((leader, led), (follower, followed)):
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 32 or not hands[seat] >> c & 1:
                what = name_of(c) if isinstance(c, int) and 0 <= c < 32 else repr(c)
                raise ValueError(f"trick {k}: {seat} does not hold {what}")
        if not legal_follows(hands[follower], led) >> followed & 1:
            raise ValueError(f"trick {k}: {follower} must follow {name_of(led)} with its suit, "
                             f"not {name_of(followed)}")
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        winner = follower if follower_wins(led, followed) else leader
        played.append(Trick(leader, led, followed, winner))
        leader = winner

    # The tricks already played: their winners only matter (their events are dropped); the
    # player leading now won the last of them.
    first, second = (YOUNGER, ELDER) if elder_leads else (ELDER, YOUNGER)
    counts = {ELDER: e_won, YOUNGER: y_won}
    before = [Trick(s, -1, -1, s) for s in (first, second) for _ in range(counts[s])]

    sheet = _SheetFrom(rules, e_won + y_won)
    sheet.running = {ELDER: e_score, YOUNGER: y_score}
    sheet.piqued = pique_done
    if e_score >= PIQUE_AT and y_score == 0 and not pique_done:
        sheet.repiqued = ELDER
    score_tricks(sheet, before + played)
    score_cards(sheet, e_won + sum(t.winner == ELDER for t in played))
    return sheet.points[ELDER]["total"] - sheet.points[YOUNGER]["total"]

"""Bezique reference: the policies' decisions, as docs/bezique-engine.md ("Policies") states them.

The heuristic's keep values, meld in view, held bezique, leads, follows, exchanges and melds, and
the random policy's draws from the deal's choices stream: one :class:`Player` per seat.
"""
from __future__ import annotations

from analysis.bezique.reference.cards import face, follower_wins, is_brisque, other, rank_of, suit_of
from analysis.bezique.reference.deal_state import DealState
from analysis.bezique.reference.melds import JACK_DIAMONDS, QUEEN_SPADES, Meld
from analysis.bezique.reference.solver import exact_follow, exact_lead
from analysis.bezique.rules import ACE, JACK, KING, QUEEN, TEN
from analysis.errors import InputError
from analysis.rng import Stream

# ---------------------------------------------------------------------------------------------
# Policies (docs/bezique-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

MELD_POINTS = {"sequence": 250, "double": 500, "bezique": 40, "royal": 40, "marriage": 20}
FOURS_POINTS = {JACK: 40, QUEEN: 60, KING: 80, ACE: 100}


def draw_chance(u: int, unseen: int, draws: int) -> int:
    """Per mille, rounded down at every step: at least one of u wanted cards among ``draws``
    cards from ``unseen`` (1 - C(unseen - u, draws) / C(unseen, draws))."""
    if u <= 0:
        return 0
    q = 1000
    for i in range(draws):
        if unseen - u - i <= 0:
            return 1000
        q = q * (unseen - u - i) // (unseen - i)
    return 1000 - q


def expected_meld_points(f: int, held: list[int], gone: list[int], unseen: int, draws: int, trump: int) -> int:
    """``meld_chance``'s value of face f: the points of each meld it could still join (marriage,
    bezique, double bezique, trump sequence, fours) times the chance of drawing what it lacks."""
    r, s = f & 7, (f >> 3) & 3
    have, out = held.count, gone.count

    def chance(g: int) -> int:  # one more copy of face g
        return draw_chance(2 - have(g) - out(g), unseen, draws)

    total = 0
    if r in (KING, QUEEN):
        g = (f & ~7) | (KING + QUEEN - r)
        if not have(g):
            total += MELD_POINTS["royal" if s == trump else "marriage"] * chance(g)
    if f in (QUEEN_SPADES, JACK_DIAMONDS):
        g = JACK_DIAMONDS if f == QUEEN_SPADES else QUEEN_SPADES
        if not have(g):
            total += MELD_POINTS["bezique"] * chance(g)
        p = 1000
        for h in (QUEEN_SPADES, JACK_DIAMONDS):
            need, avail = 2 - have(h), 2 - have(h) - out(h)
            if need > avail:
                p = 0
            for j in range(need):
                p = p * draw_chance(avail - j, unseen, draws) // 1000
        total += MELD_POINTS["double"] * p
    if s == trump and r >= JACK:
        p, missing = 1000, 0
        for rr in range(JACK, ACE + 1):
            g = 8 * trump + rr
            if not have(g):
                missing += 1
                p = p * chance(g) // 1000
        if missing:
            total += MELD_POINTS["sequence"] * p
    if r in FOURS_POINTS:
        n_held = sum(have(8 * ss + r) for ss in range(4))
        need, avail = 4 - n_held, 8 - n_held - sum(out(8 * ss + r) for ss in range(4))
        if 0 < need <= avail:
            p = 1000
            for j in range(need):
                p = p * draw_chance(avail - j, unseen, draws) // 1000
            total += FOURS_POINTS[r] * p
    return total // 1000


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
        view) + meld_chance / 100 x the expected points of the melds it could still join. End
        phase: rank + brisque_keep (A, 10)."""
        p = self.policy
        v = rank_of(code) + (p.brisque_keep if is_brisque(code) else 0)
        if st.stock_phase:
            held = [face(c) for c in st.cards_of(self.seat)]
            v += p.trump_keep if suit_of(code) == st.trump else 0
            v += p.meld_keep if meld_in_view(code, held, st.trump, p.four_keep_min) else 0
            if p.meld_chance:
                gone = [face(c) for c in st.plays] + [face(c) for c in st.tables[other(self.seat)]]
                draws = (st.stock_left + 1) // 2
                v += p.meld_chance * expected_meld_points(face(code), held, gone, 64 - len(held) - len(gone), draws,
                                                          st.trump) // 100
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

    @staticmethod
    def _end_points(st: DealState) -> tuple[int, int]:
        """The end game's points: per brisque, and for the last trick (none when BZ-LAST puts it
        on trick 24)."""
        return st.rules.brisque, (st.rules.last_trick if st.rules.last_trick_at == 32 else 0)

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
        if self.policy.exact_endgame:
            f = exact_lead(sorted(st.hands[self.seat]), sorted(st.hands[other(self.seat)]), st.trump,
                           st.rules.end_must_win, *self._end_points(st))
            return min(c for c in options if face(c) == f)
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
        if not st.stock_phase and self.policy.exact_endgame:
            leader = sorted(st.hands[other(self.seat)] | {led})
            f = exact_follow(leader, sorted(st.hands[self.seat]), led, st.trump, st.rules.end_must_win,
                             *self._end_points(st))
            return min(c for c in legal if face(c) == f)
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

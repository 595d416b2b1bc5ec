"""A Bezique deal reviewed decision by decision (``salon review``; analysis.review, docs/review.md).

- The stock phase: the recorded deal is replayed in the kernel (``players.trick_loop.play_on``,
  paused at each lead, follow and meld); at each pause the search player's machinery
  (``players.search.sample_diffs``) draws the cards the player could not see (the other's hand and
  the stock's order, uniformly: nothing else is revealed in the stock phase), plays every candidate
  to the end of the deal with the search player's rollout policy and compares it with the choice
  made on the same layouts; the best is chosen on one set of layouts and its gain measured on
  another. The seven's exchange likewise, wherever the winner of a trick held the seven of trumps
  and could exchange it: exchanging now against keeping it for now (the rollouts then exchange it
  at the next trick they win). ``--player dd`` has no meaning before the end game (the stock's
  order is unknown to both): the stock phase is then not rated.
- The end game (the last eight tricks, after the stock): every card is known to both players, so
  each lead and reply is rated exactly by the end-game solver (``reference.solver``: brisques and
  the last trick), with either reviewer; along the end game the losses add up to the solver's value
  at its first lead minus what the end game scored.
"""
from __future__ import annotations

from analysis.bezique.reference.cards import DEALER, ELDER, N_STOCK_TRICKS, face, is_brisque, other
from analysis.bezique.reference.checks import assign_copies, resolve_meld, resolve_play
from analysis.bezique.reference.deal_state import DealState
from analysis.bezique.reference.records import SCHEMA, replay, trick_play
from analysis.bezique.reference.solver import option_values
from analysis.bezique.rules import name_of
from analysis.review import DealReview, Decision, best_of_means, exact_loss, normal_interval, sums_moments

SEATS = (ELDER, DEALER)
DEFAULT_SAMPLES = 200
"""Layouts of the hidden cards a stock-phase choice is chosen on, and as many again it is measured on."""
RATED = ("Each stock-phase lead, follow and meld by the search player's rollouts (its heuristic to the end of the "
         "stock, then the exact end game) on layouts of the cards the player could not see; the end game's cards exactly by the end-game "
         "solver (every card is known to both players then); the seven's exchange, now or later, by the same rollouts.")
STOCK_NOTE = "the stock phase has no open-hands bound (the stock's order is hidden from both): not rated"
PAUSE_EVERYWHERE = 0b1111
"""The kernel's stop mask: both seats' cards and melds (bits 0, 1) and seven's exchanges (bits 2, 3)."""
SEVEN_WORDS = ("keep the seven of trumps for now", "exchange the seven of trumps")
"""Keeping the seven (0) and exchanging it (1): the kernel's forced choice at its exchange pause."""


SCORE_UNIT = None
"""salon's Bezique players do not play for the game's score: a game's decisions are rated in points."""
SCORE_RATED = ("In a game the score is shown at each deal; salon's Bezique players do not play for it, so every "
               "decision is rated in points.")


def match_step(result: dict, before: dict[str, int], rules, number: int) -> tuple[dict[str, int], bool, bool]:
    """A game's deal (BZ-GAME): the totals after it by seat; the game is over when a total reaches
    the target and the totals differ. The deals of a game record are complete: a win the moment the
    target is reached in a stock phase is read at the deal's end."""
    after = {s: before[s] + result["scores"][s]["total"] for s in SEATS}
    return after, False, max(after.values()) >= rules.target and after[ELDER] != after[DEALER]


def match_result(totals: dict[str, int], rules) -> dict:
    """The game's outcome from the players' totals: the higher once one has reached the target."""
    (a, ta), (b, tb) = totals.items()
    over = max(ta, tb) >= rules.target and ta != tb
    return {"winner": (a if ta > tb else b) if over else None, "target": rules.target}


def review(record: dict, index: int, rules=None, player: str = "search", samples: int = DEFAULT_SAMPLES,
           seed: int = 0, threads: int | None = None, score=None) -> DealReview:
    """Every decision of a Bezique deal record (checked by ``replay`` first); ``score`` (its place in
    a game) changes nothing: salon's players do not play for the game's score."""
    result = replay(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    deck = assign_copies(SCHEMA.cards(record["elder"], "elder"), SCHEMA.cards(record["dealer"], "dealer"),
                         SCHEMA.card(record["turn_up"], "turn_up"), SCHEMA.cards(record["stock"], "stock"))
    st = DealState(rules, deck)
    last = rules.last_trick if rules.last_trick_at == 32 else 0
    decisions: list[Decision] = []
    end_start = None
    end_points = {s: 0 for s in SEATS}
    kernel = _Kernel(deck, rules, seed, index, samples) if player == "search" else None
    for n, entry in enumerate(record["tricks"], 1):
        t, _ = trick_play(entry, n)
        step = f"trick {n}"
        leader, follower = st.leader, other(st.leader)
        if n <= N_STOCK_TRICKS:
            lead = resolve_play(st, leader, t.lead, t.lead_from_table, step)
            decisions.append(_stock(kernel, leader, "lead", step, st, lead))
            st.play(leader, lead)
            fol = resolve_play(st, follower, t.follow, t.follow_from_table, step)
            decisions.append(_stock(kernel, follower, "follow", step, st, fol))
            st.play(follower, fol)
            winner = st.pending.winner
            if kernel is not None and kernel.at_exchange():
                decisions.append(_seven(kernel, winner, step, bool(t.exchange)))
            elif kernel is None and t.exchange:
                decisions.append(Decision(winner, "meld", step, SEVEN_WORDS[1], note=STOCK_NOTE))
            elif t.exchange:
                raise AssertionError(f"{step}: the kernel's replay found no exchange of the seven")
            if t.exchange:
                st.exchange(winner)
            meld = resolve_meld(st, winner, t.meld_hand, t.meld_table, step) if t.meld_hand or t.meld_table else None
            if st.melds_for(winner):
                decisions.append(_stock(kernel, winner, "meld", step, st, meld))
            if meld is not None:
                st.meld(winner, meld)
            st.draw()
            continue
        hands = {s: sorted(st.cards_of(s)) for s in SEATS}
        if end_start is None:
            v = option_values(hands[ELDER] if leader == ELDER else hands[DEALER],
                              hands[follower], None, st.trump, rules.end_must_win, rules.brisque, last)
            end_start = max(v.values()) * (1 if leader == ELDER else -1)
        lead = resolve_play(st, leader, t.lead, t.lead_from_table, step)
        values = option_values(hands[leader], hands[follower], None, st.trump, rules.end_must_win, rules.brisque, last)
        decisions.append(_rate(leader, "lead", step, values, t.lead))
        values = option_values(hands[leader], hands[follower], lead, st.trump, rules.end_must_win, rules.brisque, last)
        decisions.append(_rate(follower, "follow", step, values, t.follow))
        st.play(leader, lead)
        st.play(follower, resolve_play(st, follower, t.follow, t.follow_from_table, step))
        trick = st.tricks[-1]
        pts = rules.brisque * (is_brisque(trick.led) + is_brisque(trick.followed)) + (last if n == 32 else 0)
        end_points[trick.winner] += pts
    sc = result["scores"]
    words = f"elder {sc[ELDER]['total']}, dealer {sc[DEALER]['total']}"
    return DealReview(decisions, words, SEATS,
                      extra={"net": sc[ELDER]["total"] - sc[DEALER]["total"],
                             "end_game_value_at_first_lead": end_start,
                             "end_game_net": end_points[ELDER] - end_points[DEALER]})


class _Kernel:
    """The recorded deal replayed in the kernel, paused at each stock-phase decision."""

    def __init__(self, deck, rules, seed: int, index: int, samples: int):
        import numpy as np

        from analysis.bezique.engine.cards import NO_TARGET
        from analysis.bezique.players.search import MAX_CANDIDATES, rollout_policy, rollout_scratch
        from analysis.bezique.players.trick_loop import new_scratch, setup_from_deck
        from analysis.bezique.policies import get_policy
        from analysis.rng import stream_start

        self.p = get_policy("search", ["rollout_exact=true"]).to_array()
        self.rp = rollout_policy(self.p)
        self.pe, self.pd = self.p.copy(), self.p.copy()
        self.rules = rules.to_array()
        self.scr = new_scratch()
        self.scr.deck[:] = np.array(deck, dtype=np.int64)
        self.target = np.int64(NO_TARGET)
        setup_from_deck(self.scr, self.rules, self.pe, self.pd, np.int64(0), self.target)
        self.r = rollout_scratch(self.scr)
        self.cands = np.zeros(MAX_CANDIDATES, dtype=np.int64)
        self.diff = np.zeros(MAX_CANDIDATES, dtype=np.int64)
        self.diff_sq = np.zeros(MAX_CANDIDATES, dtype=np.int64)
        self.pool = np.zeros(64, dtype=np.int64)
        self.streams = [np.uint64(stream_start(np.uint64(seed), np.uint64(index), np.uint64(lane))) for lane in (41, 42)]
        self.samples = samples
        self.paused = self._resume()

    def _resume(self) -> bool:
        """Play on to the next pause; False once the stock phase is over."""
        import numpy as np

        from analysis.bezique.players.trick_loop import PAUSE, play_on

        _, gw = play_on(self.scr, np.uint64(0), self.rules, self.pe, self.pd, 0, 0, self.target, PAUSE_EVERYWHERE)
        return gw == PAUSE

    def at_exchange(self) -> bool:
        """Paused where the winner of the trick may exchange the seven of trumps."""
        from analysis.bezique.players.trick_loop import PH_EXCHANGE, Q_PHASE

        return self.paused and self.scr.pos[Q_PHASE] == PH_EXCHANGE

    def rate(self, seat: str, chosen_k, describe, cands=None) -> tuple:
        """(candidates' words, the recorded choice's index, the best's, loss, ci95) at the pause:
        ``chosen_k(cands)`` is the recorded choice's index, ``describe(cands)`` the candidates' words
        (read before the rollouts reuse the meld arrays); None for a forced choice's best.
        ``cands``: the choices when they are not a card or a meld (the seven's exchange)."""
        import numpy as np

        from analysis.bezique.players.search import candidates, sample_diffs
        from analysis.bezique.players.trick_loop import Q_FORCED

        s = 0 if seat == ELDER else 1
        if cands is None:
            m = candidates(self.scr, s, self.rules, self.p, self.cands)
            cands = self.cands[:m].copy()
        m = len(cands)
        k0 = chosen_k(cands)
        words = describe(cands)
        out = (words, k0, None, None, None)
        if m > 1:
            n = self.samples
            self.streams[0] = np.uint64(sample_diffs(self.scr, self.r, s, self.rules, self.rp, self.streams[0], cands,
                                                     k0, n, self.diff, self.diff_sq, self.pool))
            means, sd = sums_moments(self.diff[:m], self.diff_sq[:m], n)
            best = best_of_means(means, sd / np.sqrt(n), k0)
            if best == k0:
                out = (words, k0, best, 0.0, (0.0, 0.0))
            else:
                self.streams[1] = np.uint64(sample_diffs(self.scr, self.r, s, self.rules, self.rp, self.streams[1],
                                                         cands, k0, n, self.diff, self.diff_sq, self.pool))
                means, sd = sums_moments(self.diff[:m], self.diff_sq[:m], n)
                out = (words, k0, best, float(means[best]), normal_interval(float(means[best]), float(sd[best]), n))
        self.scr.pos[Q_FORCED] = cands[k0]
        return out

    def play(self) -> None:
        """Resume after the recorded choice."""
        self.paused = self._resume()


def _card_words(st, seat: str, code: int) -> str:
    return name_of(code) + (" from the table" if code not in st.hands[seat] else "")


def _meld_words(cards) -> str:
    return "meld " + " ".join(name_of(c) for c in sorted(cards, key=face))


def _seven(kernel, seat: str, step: str, exchanged: bool) -> Decision:
    """The seven's exchange or keeping it for now, rated in the kernel as a card is."""
    import numpy as np

    words, _, best, loss, ci = kernel.rate(seat, lambda cands: int(exchanged), lambda cands: list(SEVEN_WORDS),
                                           np.array([0, 1], dtype=np.int64))
    kernel.play()
    return Decision(seat, "meld", step, SEVEN_WORDS[exchanged], words[best], loss, ci)


def _stock(kernel, seat: str, kind: str, step: str, st, chosen) -> Decision:
    """A stock-phase decision rated in the kernel (``chosen``: the card's code, or the Meld or None)."""
    from analysis.bezique.engine.layout import S_HAND
    from analysis.bezique.players.trick_loop import NO_MELD

    chosen_words = (_card_words(st, seat, chosen) if kind != "meld" else
                    "no meld" if chosen is None else _meld_words(chosen.cards))
    if kernel is None:
        return Decision(seat, kind, step, chosen_words, note=STOCK_NOTE)
    if not kernel.paused:
        raise AssertionError(f"{step}: the kernel's replay ended before the record's stock phase")
    hand = kernel.scr.S[S_HAND + (0 if seat == ELDER else 1)]

    def meld_cards(k):
        return int(kernel.scr.ms[1, kernel.scr.order[k]])

    if kind == "meld":
        want = None if chosen is None else sorted(face(c) for c in chosen.cards)

        def index(cands):
            for i, c in enumerate(cands.tolist()):
                if (c == NO_MELD and want is None) or (c != NO_MELD and want is not None and sorted(
                        face(x) for x in range(64) if meld_cards(c) >> x & 1) == want):
                    return i
            raise AssertionError(f"{step}: the recorded meld is not among the kernel's")
    else:
        in_hand = chosen in st.hands[seat]

        def index(cands):
            for i, c in enumerate(cands.tolist()):
                if face(c) == face(chosen) and bool(hand >> c & 1) == in_hand:
                    return i
            raise AssertionError(f"{step}: the recorded card is not among the kernel's options")

    def describe(cands):
        return [("no meld" if c == NO_MELD else _meld_words([x for x in range(64) if meld_cards(c) >> x & 1]))
                if kind == "meld" else name_of(c) + ("" if hand >> c & 1 else " from the table")
                for c in cands.tolist()]

    words, _, best, loss, ci = kernel.rate(seat, index, describe)
    kernel.play()
    if best is None:
        return Decision(seat, kind, step, chosen_words, forced=True)
    return Decision(seat, kind, step, chosen_words, words[best], loss, ci)


def _rate(seat: str, kind: str, step: str, values: dict[int, int], chosen: int) -> Decision:
    """An end-game card rated exactly among its options (values from the mover's side, by face)."""
    import numpy as np

    faces = sorted(values)
    if len(faces) == 1:
        return Decision(seat, kind, step, name_of(chosen), forced=True)
    v = np.array([values[f] for f in faces], dtype=float)
    best, loss = exact_loss(v, faces.index(face(chosen)))
    return Decision(seat, kind, step, name_of(chosen), name_of(faces[best]), loss, None)

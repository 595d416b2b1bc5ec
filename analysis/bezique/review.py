"""A Bezique deal reviewed decision by decision (``salon review``; analysis.review, docs/review.md).

- The end game (the last eight tricks, after the stock): every card is known to both players, so
  each lead and reply is rated exactly by the end-game solver (``reference.solver``: brisques and
  the last trick), with either reviewer; along the end game the losses add up to the solver's value
  at its first lead minus what the end game scored.
- The stock phase (each card led and played, each meld declared or held, the seven of trumps) is
  listed and not rated yet: the review says so.
"""
from __future__ import annotations

from analysis.bezique.reference.cards import DEALER, ELDER, N_STOCK_TRICKS, face, is_brisque, other
from analysis.bezique.reference.checks import assign_copies, resolve_meld, resolve_play
from analysis.bezique.reference.deal_state import DealState
from analysis.bezique.reference.records import SCHEMA, replay, trick_play
from analysis.bezique.reference.solver import option_values
from analysis.bezique.rules import name_of
from analysis.review import DealReview, Decision, exact_loss

SEATS = (ELDER, DEALER)
DEFAULT_SAMPLES = None
"""No sampling: the end game is rated exactly and the stock phase not yet."""
RATED = ("The end game's cards are rated exactly by the end-game solver (every card is known to both players "
         "then); the stock phase's cards, melds and seven are not rated yet.")
STOCK_NOTE = "stock-phase decisions are not rated yet"


def review(record: dict, index: int, rules=None, player: str = "search", samples: int | None = None,
           seed: int = 0, threads: int | None = None) -> DealReview:
    """Every decision of a Bezique deal record (checked by ``replay`` first)."""
    result = replay(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    deck = assign_copies(SCHEMA.cards(record["elder"], "elder"), SCHEMA.cards(record["dealer"], "dealer"),
                         SCHEMA.card(record["turn_up"], "turn_up"), SCHEMA.cards(record["stock"], "stock"))
    st = DealState(rules, deck)
    last = rules.last_trick if rules.last_trick_at == 32 else 0
    decisions: list[Decision] = []
    end_start = None
    end_points = {s: 0 for s in SEATS}
    for n, entry in enumerate(record["tricks"], 1):
        t, _ = trick_play(entry, n)
        step = f"trick {n}"
        leader, follower = st.leader, other(st.leader)
        if n <= N_STOCK_TRICKS:
            decisions.append(Decision(leader, "lead", step, name_of(t.lead), note=STOCK_NOTE))
            decisions.append(Decision(follower, "follow", step, name_of(t.follow), note=STOCK_NOTE))
            st.play(leader, resolve_play(st, leader, t.lead, t.lead_from_table, step))
            st.play(follower, resolve_play(st, follower, t.follow, t.follow_from_table, step))
            winner = st.pending.winner
            if t.exchange:
                decisions.append(Decision(winner, "meld", step, "exchange the seven of trumps", note=STOCK_NOTE))
                st.exchange(winner)
            if t.meld_hand or t.meld_table:
                meld = resolve_meld(st, winner, t.meld_hand, t.meld_table, step)
                decisions.append(Decision(winner, "meld", step, f"meld {' '.join(name_of(c) for c in meld.cards)}",
                                          note=STOCK_NOTE))
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


def _rate(seat: str, kind: str, step: str, values: dict[int, int], chosen: int) -> Decision:
    """An end-game card rated exactly among its options (values from the mover's side, by face)."""
    import numpy as np

    faces = sorted(values)
    if len(faces) == 1:
        return Decision(seat, kind, step, name_of(chosen), forced=True)
    v = np.array([values[f] for f in faces], dtype=float)
    best, loss = exact_loss(v, faces.index(face(chosen)))
    return Decision(seat, kind, step, name_of(chosen), name_of(faces[best]), loss, None)

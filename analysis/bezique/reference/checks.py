"""Bezique reference: a recorded deal checked step by step, and scored.

A deal written in faces (the hands, the turn-up, the stock, 32 :class:`TrickPlay`) gets its two
copies of each card assigned (BZ-DECK), each recorded card and meld resolved to the physical cards,
and is played through :class:`DealState`, which checks and scores every action: anything illegal
raises an error naming the step and the rule.
"""
from __future__ import annotations

from typing import NamedTuple

from analysis.bezique.reference.cards import HAND_SIZE, N_STOCK_TRICKS, N_TRICKS, STOCK_SIZE, face, other
from analysis.bezique.reference.deal_state import DealResult, DealState, deal_result, fail
from analysis.bezique.reference.melds import Meld, meld_kind_of, table_card_eligible, table_order
from analysis.bezique.rules import BeziqueRules, name_of

# ---------------------------------------------------------------------------------------------
# A recorded deal: checked and scored
# ---------------------------------------------------------------------------------------------

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
            fail(where, f"{len(faces)} cards, expected {size}", "BZ-DEAL")
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < 32:
                fail(where, f"{f!r} is not a card face 0..31")
            n = seen.get(f, 0)
            if n == 2:
                fail(where, f"{name_of(f)} appears a third time; the pack has two of each card", "BZ-DECK")
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
            fail(step, f"{seat} plays {name_of(f)} from the table but has none there", "BZ-MELD")
        return on_table[0]
    if in_hand:
        return in_hand[0]
    if on_table:
        return on_table[0]
    fail(step, f"{seat} played {name_of(f)}, which he does not hold", "BZ-STOCK-PLAY")


def resolve_meld(st: DealState, seat: str, hand_faces, table_faces, step: str) -> Meld:
    """A recorded meld (faces from the hand and from the table) -> the engine's meld."""
    kind = meld_kind_of(list(hand_faces) + list(table_faces), st.trump)
    names = " ".join(name_of(f) for f in (*hand_faces, *table_faces))
    if kind is None:
        fail(step, f"{seat} melds {names}, which is no meld", "BZ-VALUES")
    hand_cards: list[int] = []
    for f in hand_faces:
        left = sorted(c for c in st.hands[seat] if face(c) == f and c not in hand_cards)
        if not left:
            fail(step, f"{seat} melds {name_of(f)} from the hand but holds none there", "BZ-MELD")
        hand_cards.append(left[0])
    table_cards: list[int] = []
    for f in table_faces:
        copies = [c for c in table_order(st.tables[seat]) if face(c) == f and c not in table_cards]
        if not copies:
            fail(step, f"{seat} melds {name_of(f)} from the table but has none there", "BZ-MELD")
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
        fail("tricks", f"{len(tricks)} tricks recorded, a deal has {N_TRICKS}", "BZ-END")
    st = DealState(rules, deck)
    for n, t in enumerate(tricks, 1):
        step = f"trick {n}"
        leader, follower = st.leader, other(st.leader)
        if n > N_STOCK_TRICKS and (t.exchange or t.meld_hand or t.meld_table):
            fail(step, "no exchange and no meld in the end phase", "BZ-END")
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
    return deal_result(st, deck)

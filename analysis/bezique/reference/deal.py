"""Bezique in plain Python: the rules of RULES.md as a person reads them, and the test oracle.

This module follows docs/bezique-engine.md to the letter (random streams, the deal, every step of
a trick, the order of scoring events, the two policies, the outcome vector), so that a numba
kernel can be compared with it deal by deal. :class:`DealState` is the one reading of the rules: it
checks and scores every action of a deal; :func:`play_deal` drives it with policies,
:func:`score_deal` with a recorded deal, :func:`play_game` plays to the target and
:func:`explain` narrates a deal.

The rules live in sibling modules split by job (import each name from the module that holds it):
``reference/cards`` (seats, cards, the deal), ``reference/melds`` (meld kinds and legal melds),
``reference/deal_state`` (:class:`DealState` and :class:`DealResult`), ``reference/policies`` (the
policies' decisions) and ``reference/checks`` (a recorded deal checked and scored). This module
plays deals and games and narrates them.

Cards are Bezique codes ``32 * copy + 8 * suit + rank`` (rank 0..7 = 7 8 9 J Q K 10 A, BZ-DECK);
a player's cards are a set of codes in his hand and a *table* (his melded cards still on the
table): ``{code: frozenset of meld kinds the card has been used in}``.
"""
from __future__ import annotations

from dataclasses import dataclass

from analysis.bezique.reference.cards import (
    DEALER,
    ELDER,
    N_STOCK_TRICKS,
    N_TRICKS,
    SEATS,
    SUIT_NAMES,
    deal_cards,
    other,
)
from analysis.bezique.reference.deal_state import (
    DealResult,
    DealState,
    Event,
    deal_result,
)
from analysis.bezique.reference.policies import (
    Player,
)
from analysis.bezique.rules import (
    BOOK_ORDER,
    VARIANTS,
    BeziqueRules,
    card_of,
    name_of,
)
from analysis.cards import format_book
from analysis.rng import Stream

# ---------------------------------------------------------------------------------------------
# One deal played
# ---------------------------------------------------------------------------------------------

def play_cards(deck: list[int], rules: BeziqueRules, elder_policy, dealer_policy, choices: Stream, *,
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
    return deal_result(st, deck, seed, index, lane_base)


def play_deal(seed: int, index: int, rules: BeziqueRules, elder_policy, dealer_policy=None,
              lane_base: int = 0, *, start: dict[str, int] | None = None, target: int | None = None,
              audit: bool = False) -> DealResult:
    """Play one deal: cards from Stream(seed, index, lane_base), the random policy's choices from
    Stream(seed, index, lane_base + 1). ``dealer_policy`` defaults to ``elder_policy``."""
    if dealer_policy is None:
        dealer_policy = elder_policy
    return play_cards(deal_cards(seed, index, lane_base), rules, elder_policy, dealer_policy,
                      Stream(seed, index, lane_base + 1), start=start, target=target, audit=audit,
                      seed=seed, index=index, lane_base=lane_base)


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
        r = play_deal(seed, index, rules, policies[elder], policies[dealer], lane_base=2 * d,
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


def explain(seed: int, index: int, rules: BeziqueRules, elder_policy, dealer_policy=None,
            lane_base: int = 0) -> str:
    """A step-by-step narration of one deal (the same deal :func:`play_deal` plays)."""
    if dealer_policy is None:
        dealer_policy = elder_policy
    r = play_deal(seed, index, rules, elder_policy, dealer_policy, lane_base)
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

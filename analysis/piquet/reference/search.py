"""Piquet reference: the solver's players ``dd`` and ``search``, as docs/piquet-engine.md states
them ("The double-dummy solver and the strong players", "Random streams", "Policies").

Both exchange as the heuristic does, with the heuristic's parameters (:class:`Player`'s
``discard``); only their cards differ. A card with no alternative is played at once, with no
randomness used. Otherwise:

- ``dd`` sees both hands and plays the legal card of best double-dummy value: elder the highest
  value (elder's points from here on minus younger's), younger the lowest; ties to the lowest code.
- ``search`` draws ``samples`` hands for the opponent from the cards he may hold, each kept only if,
  with the cards he has played, it gives the declarations he made or conceded (rejection); it
  solves each kept hand double dummy with its own, adds the values per legal card and plays the
  best total (ties: the lowest code). Without ``track_cards`` it knows only its hand and the cards
  played, and every draw is kept. The declarations are read at face value: a category the
  opponent sank (reference.play_cards' ``sink``) reads as declared nothing; a reading his play
  has contradicted is dropped (with no sinking nothing changes: true evidence is never dropped).
- With ``partie=margin`` or ``partie=win``, in a deciding deal of a partie (the table is told the
  partie's totals before the deal), either player values each legal card in each of its worlds (the
  true hands, or the hands drawn as above) by the partie after the deal completed along the
  double-dummy line (:mod:`analysis.piquet.reference.partie`) and plays the best sum.

The double-dummy values come from the numba solver (:mod:`analysis.piquet.players.solver`; it is checked
against the brute force of ``reference/solver`` in tests/test_piquet_solver.py). Everything else
(who may hold what, the declarations' evidence, the draws, the running scores that give the pique
state, the choice of card) is read here from the docs, in plain Python.

A strong player is shown the table through a :class:`Table` that :func:`reference.play_cards`
builds only when a strong player sits at it: the hands now (``dd`` reads the opponent's), the hands
the declarations were made on, the running scoresheet (the same :class:`Scoresheet` events as the
deal's scoring: carte blanche, declarations with repique, then each finished trick through
:func:`score_trick`), the tricks elder has won, the cards each player has played and, in a
deciding deal of a partie, the partie's totals before the deal.
"""
from __future__ import annotations

import copy

import numpy as np

from analysis.piquet.reference.cards import (
    ALL_CARDS,
    ELDER,
    YOUNGER,
    Trick,
    count,
    legal_follows,
    lowest,
    mask_of_codes,
    other,
)
from analysis.piquet.reference.partie import best_card, partie_card_values
from analysis.piquet.reference.policies import Player
from analysis.piquet.reference.scoring import (
    CATEGORIES,
    Scoresheet,
    category_points,
    compare,
    declared_key,
    has_carte_blanche,
    score_carte_blanche,
    score_categories,
    score_trick,
)
from analysis.piquet.rules import PiquetRules, codes_of_mask

STRONG_KINDS = ("dd", "search")
"""The policy kinds played by :class:`StrongPlayer`."""
MAX_DRAWS = 1_000_000
"""Draws of one hidden hand after which the declarations' evidence is given up (the last draw
kept; docs/piquet-engine.md: never seen)."""
SUNK_DRAWS = 20_000
"""The same when a category was sunk in the deal: a reader at face value may find no hand that fits
(a declaration he believed was false), so the evidence is then given up for the rest of the deal."""
TABLE_BITS = 18
"""The solver memory's table: 2**18 entries. Its size changes only the speed: values are exact."""


class Table:
    """What the strong players are shown of a deal in play.

    ``hands``: the deal's hands as :func:`reference.play_cards` keeps them (a trick's two cards
    leave them once the trick is complete); ``declared``: the hands the declarations were made on;
    ``sink``: each seat's categories declared as nothing (public: what was declared);
    ``sheet``: the running scores, event by event; ``elder_tricks``; ``played``: each seat's cards
    played so far (the current trick's only once it is complete); ``partie``: (elder's, younger's)
    partie totals before a deciding deal of a partie, else None.
    """

    def __init__(self, rules: PiquetRules, hands: dict[str, int], elder_dealt, younger_dealt,
                 partie: tuple[int, int] | None = None, sink: dict | None = None) -> None:
        self.rules = rules
        self.partie = partie
        self.hands = hands
        self.declared = dict(hands)
        self.sink = {ELDER: frozenset(), YOUNGER: frozenset(), **(sink or {})}
        self.sheet = Scoresheet(rules)
        score_carte_blanche(self.sheet, has_carte_blanche(mask_of_codes(elder_dealt)),
                            has_carte_blanche(mask_of_codes(younger_dealt)))
        score_categories(self.sheet, hands[ELDER], hands[YOUNGER], self.sink)
        self.tricks_played = 0
        self.elder_tricks = 0
        self.played = {ELDER: 0, YOUNGER: 0}
        self._rules_array = None
        self._memory = None

    def trick_done(self, trick: Trick) -> None:
        """A complete trick: its points scored in the events' order, its cards played."""
        self.tricks_played += 1
        score_trick(self.sheet, self.tricks_played, trick)
        self.played[trick.leader] |= 1 << trick.led
        self.played[other(trick.leader)] |= 1 << trick.followed
        self.elder_tricks += trick.winner == ELDER

    def branch(self) -> Table:
        """A copy to play a line on (reference/partie.complete_line): its own scoresheet, tricks and
        cards played, the same solver memory; the real table is left as it is."""
        self._ensure_memory()
        line = copy.copy(self)
        line.hands = dict(self.hands)
        line.sheet = copy.deepcopy(self.sheet)
        line.played = dict(self.played)
        return line

    def played_cards(self) -> int:
        """Every card played in complete tricks."""
        return self.played[ELDER] | self.played[YOUNGER]

    def solve(self, elder: int, younger: int, leader: str, led: int | None, for_pique: bool = True) -> np.ndarray:
        """Double-dummy values (elder's points from here on minus younger's) of each legal card of
        the player to move, indexed by code: a lead when ``led`` is None, else a reply to ``led``
        (no longer in the leader's hand). The pique state is the running scores' at the start of
        this trick; closed when ``for_pique`` is false (a player who does not play for the pique)."""
        from analysis.piquet.players import solver

        self._ensure_memory()
        running = self.sheet.running
        pique = solver.pique_state(running[ELDER], running[YOUNGER], self.sheet.piqued) if for_pique else -1
        el = 1 if leader == ELDER else 0
        out = np.zeros(32, dtype=np.int64)
        if led is None:
            solver.lead_values(elder, younger, el, self.elder_tricks, pique, self._rules_array,
                               self._memory, out)
        else:
            solver.follow_values(elder, younger, el, led, self.elder_tricks, pique,
                                 self._rules_array, self._memory, out)
        return out

    def _ensure_memory(self) -> None:
        """The solver's memory and rules array, made at the first solve."""
        from analysis.piquet.players import solver

        if self._memory is None:
            self._rules_array = self.rules.to_array()
            self._memory = solver.new_memory(TABLE_BITS)


def open_table(players: dict, rules: PiquetRules, hands: dict[str, int], elder_dealt,
               younger_dealt, partie: tuple[int, int] | None = None,
               sink: dict | None = None) -> Table | None:
    """At the start of play: a :class:`Table` shown to the strong players, or None when no strong
    player sits (nothing more is computed for the heuristic and random players). ``partie``: the
    partie's totals before a deciding deal, (elder's, younger's); None otherwise. ``sink``: each
    seat's categories declared as nothing."""
    strong = [p for p in players.values() if isinstance(p, StrongPlayer)]
    if not strong:
        return None
    table = Table(rules, hands, elder_dealt, younger_dealt, partie, sink)
    for p in strong:
        p.table = table
    return table


class StrongPlayer(Player):
    """A ``dd`` or ``search`` player: the heuristic's exchange, the solver's cards.

    ``table`` is set by :func:`open_table` before the first card.
    """

    KINDS = STRONG_KINDS

    def __init__(self, policy, seat: str, choices) -> None:
        super().__init__(policy, seat, choices)
        self.table: Table | None = None
        self._evidence: list | None = None
        self._consistent_cache: dict[int, bool] = {}

    # -- the cards -------------------------------------------------------------------------

    def lead(self, hand: int) -> int:
        return self._card(hand, hand, None)

    def follow(self, hand: int, led: int) -> int:
        return self._card(hand, legal_follows(hand, led), led)

    def _card(self, hand: int, legal: int, led: int | None) -> int:
        if count(legal) == 1:
            return lowest(legal)
        leader = self.seat if led is None else other(self.seat)
        if self.plays_for_partie():
            values = partie_card_values(self, self._worlds(hand, led, leader), legal, leader, led)
            return best_card(values, legal, True)
        if self.policy.kind == "dd":
            values = self._open_values(hand, led, leader)
        else:
            values = self._sampled_values(hand, legal, led, leader)
        return best_card(values, legal, self.seat == ELDER)

    def plays_for_partie(self) -> bool:
        """Whether this player chooses his cards for the partie: ``partie`` margin or win, in a
        deciding deal of a partie."""
        return self.policy.partie != "deal" and self.table.partie is not None

    def _worlds(self, hand: int, led: int | None, leader: str):
        """The (elder, younger) hands this player values his cards in, a card led no longer in the
        leader's hand: ``dd`` the true hands; ``search`` each of ``samples`` drawn hands of the
        opponent with his own (the draws of the docs' "exact draws")."""
        if self.policy.kind == "dd":
            hands = dict(self.table.hands)
            if led is not None:
                hands[leader] &= ~(1 << led)
            yield hands[ELDER], hands[YOUNGER]
            return
        possible, k, his_played = self._hidden_cards(hand, led)
        for _ in range(self.policy.samples):
            hidden = self._draw(possible, k, his_played)
            yield (hand, hidden) if self.seat == ELDER else (hidden, hand)

    def worlds(self, hand: int, led: int | None) -> list[tuple[int, int]]:
        """The (elder, younger) hands this player values its cards in at this decision (``led``:
        the card led to it, None for a lead): the true hands for ``dd``, else ``samples`` draws
        (``salon review`` measures a card's loss on them)."""
        return list(self._worlds(hand, led, self.seat if led is None else other(self.seat)))

    def _open_values(self, hand: int, led: int | None, leader: str) -> np.ndarray:
        """dd: the solver's values with both hands as they are."""
        (elder, younger), = self._worlds(hand, led, leader)
        return self.table.solve(elder, younger, leader, led, self.policy.play_for_pique)

    def _sampled_values(self, hand: int, legal: int, led: int | None, leader: str) -> dict[int, int]:
        """search: the solver's values summed over ``samples`` drawn hands of the opponent."""
        totals = dict.fromkeys(codes_of_mask(legal), 0)
        for elder, younger in self._worlds(hand, led, leader):
            values = self.table.solve(elder, younger, leader, led, self.policy.play_for_pique)
            for c in totals:
                totals[c] += int(values[c])
        return totals

    def _hidden_cards(self, hand: int, led: int | None) -> tuple[int, int, int]:
        """What a hidden hand is drawn from: the cards the opponent may hold, how many he holds
        (as many as I do, one fewer once he has led to this trick) and the cards he has played
        (the one just led included)."""
        led_bit = 0 if led is None else 1 << led
        k = count(hand) - (1 if led is not None else 0)
        gone = self.table.played_cards() | led_bit
        if self.track:
            possible = self.unseen & ~gone
        else:
            possible = ALL_CARDS & ~hand & ~gone
        return possible, k, self.table.played[other(self.seat)] | led_bit

    # -- drawing the hidden hand -----------------------------------------------------------

    def _draw(self, possible: int, k: int, his_played: int) -> int:
        """k of the ``possible`` cards, one at a time: ``below(n - i)`` picks the below()-th lowest
        code of the n - i cards left; drawn again until, with the cards he played, the hand gives
        the declarations (any draw without card tracking). In a deal with a sunk category, after
        SUNK_DRAWS draws the evidence is given up for the rest of the deal (the last draw kept)."""
        codes = codes_of_mask(possible)
        hidden = 0
        sunk = any(self.table.sink.values())
        if self.track:
            self._drop_broken(his_played)
        for _ in range(SUNK_DRAWS if sunk else MAX_DRAWS):
            left = list(codes)
            hidden = 0
            for _ in range(k):
                hidden |= 1 << left.pop(self.choices.below(len(left)))
            if not self.track or self._consistent(hidden | his_played):
                return hidden
        if sunk:
            self._evidence, self._consistent_cache = [], {}
        return hidden

    def _consistent(self, his_hand: int) -> bool:
        """Whether the opponent, holding ``his_hand`` at the declarations, would have declared or
        conceded exactly what he did (PQ-POINT, PQ-SEQ, PQ-SET)."""
        known = self._consistent_cache.get(his_hand)
        if known is None:
            known = all(self._fits(category, how, key, points, his_hand)
                        for category, how, key, points in self._declarations())
            self._consistent_cache[his_hand] = known
        return known

    def _drop_broken(self, his_played: int) -> None:
        """Evidence that the cards he has played already break is dropped for the rest of the deal:
        a declaration read at face value that was false (he sank the category). A key only grows
        with the cards held, so evidence from declarations in full is never dropped."""
        kept = [e for e in self._declarations() if not self._broken(*e[:3], his_played)]
        if len(kept) < len(self._evidence):
            self._evidence = kept
            self._consistent_cache.clear()

    def _broken(self, category: str, how: str, key, his_played: int) -> bool:
        """Whether the cards he played alone exceed what he declared or conceded in a category."""
        played_key = declared_key(category, his_played)
        if how == "conceded":
            return self._winner(key, played_key) != self.seat
        return played_key > key

    def _fits(self, category: str, how: str, key, points, his_hand: int) -> bool:
        his_key = declared_key(category, his_hand)
        if how == "declared":  # he won the category: exactly his declaration and his score
            return his_key == key and category_points(category, his_hand) == points
        if how == "conceded":  # I won it: his best was below mine
            return self._winner(key, his_key) == self.seat
        return his_key == key  # void: his best equal to mine

    def _winner(self, my_key, his_key) -> str | None:
        """The seat that wins a category with these keys (None: equal)."""
        if self.seat == ELDER:
            return compare(my_key, his_key)
        return compare(his_key, my_key)

    def _declarations(self) -> list[tuple[str, str, tuple[int, int], int | None]]:
        """What the declarations told me, per category: ("declared", his key, his score) when he
        won it, ("conceded", my key, None) when I did, ("equal", my key, None) when it was void.
        Read at face value from what was declared: a sunk category is nothing (declared_key), and
        I do not suspect that he sank one (``_fits`` reads a drawn hand as declared in full)."""
        if self._evidence is None:
            sunk, his_seat = self.table.sink, other(self.seat)
            mine, his = self.table.declared[self.seat], self.table.declared[his_seat]
            self._evidence = []
            for category in CATEGORIES:
                my_key = declared_key(category, mine, category in sunk[self.seat])
                his_key = declared_key(category, his, category in sunk[his_seat])
                winner = self._winner(my_key, his_key)
                if winner == self.seat:
                    self._evidence.append((category, "conceded", my_key, None))
                elif winner is None:
                    self._evidence.append((category, "equal", my_key, None))
                else:
                    self._evidence.append((category, "declared", his_key, category_points(category, his)))
        return self._evidence


__all__ = ["MAX_DRAWS", "STRONG_KINDS", "SUNK_DRAWS", "StrongPlayer", "Table", "best_card", "open_table"]

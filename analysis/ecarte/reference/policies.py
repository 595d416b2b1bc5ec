"""Écarté reference: the policies' decisions, as docs/ecarte-engine.md ("Policies") states them.

:class:`Decisions` is one player's policy at work: propose or play, accept or refuse, what to
discard (by the heuristic's order or a strategy table), whether to announce the king, what to lead
and to follow; the random policy draws from the hand's choices stream.
"""
from __future__ import annotations

from math import comb

from analysis.ecarte.reference.cards import (
    follower_wins,
    highest,
    mask_of_codes,
    rank_of,
    strength,
    suit_mask,
    suit_of,
    weakest_first,
)
from analysis.ecarte.rules import KING, codes_of_mask
from analysis.rng import Stream

# ---------------------------------------------------------------------------------------------
# Policies (docs/ecarte-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

class Decisions:
    """One player's decisions: a policy (heuristic or random) and the hand's choices stream.

    Both players share one choices stream, consumed in the order the decisions occur; the
    heuristic policy consumes no randomness.
    """

    def __init__(self, policy, choices: Stream, trump_suit: int) -> None:
        self.policy = policy
        self.random = policy.kind == "random"
        self.choices = choices
        self.trump = trump_suit

    def propose(self, hand: int) -> bool:
        """Elder: propose (True) or play (False)."""
        if self.random:
            return self.choices.below(2) == 1
        return strength(hand, self.trump) < self.policy.elder_play_threshold

    def accept(self, hand: int) -> bool:
        """Dealer: accept (True) or refuse (False) a proposal."""
        if self.random:
            return self.choices.below(2) == 0
        return strength(hand, self.trump) < self.policy.dealer_refuse_threshold

    def discard(self, hand: int, lo: int, hi: int) -> list[int]:
        """Between lo and hi cards of the (5-card) hand to discard, ascending codes."""
        if self.random:
            codes = codes_of_mask(hand)
            while True:
                m = self.choices.below(32)
                if lo <= m.bit_count() <= hi:
                    return [codes[b] for b in range(len(codes)) if m >> b & 1]
        table = getattr(self.policy, "discard_table", None)
        if table is not None:
            chosen = self.table_discard(table, hand, lo, hi)
            if chosen is not None:
                return chosen
        order = weakest_first(hand, self.trump)
        keep_from = self.policy.keep_plain_min_rank
        chosen = [c for c in order if suit_of(c) != self.trump and rank_of(c) < keep_from][:hi]
        for c in order:
            if len(chosen) >= lo:
                break
            if c not in chosen:
                chosen.append(c)
        return sorted(chosen)

    def table_discard(self, table, hand: int, lo: int, hi: int) -> list[int] | None:
        """The discard a table gives the hand: entries are indexed by the hand with trumps moved
        to suit 0 (its rank among the five-card masks) and hold the discard in the same terms."""
        relative = [(8 * ((suit_of(c) - self.trump) % 4) + c % 8) for c in codes_of_mask(hand)]
        rank = sum(comb(code, k + 1) for k, code in enumerate(sorted(relative)))
        entry = int(table[rank])
        if entry < 0:
            return None
        cards = sorted(8 * ((b // 8 + self.trump) % 4) + b % 8 for b in range(32) if entry >> b & 1)
        return cards if lo <= len(cards) <= hi else None

    def announce(self) -> bool:
        """EC-KING: announce the king of trumps (only asked of its holder)."""
        if self.random:
            return self.choices.below(2) == 1
        return bool(self.policy.announce_king)

    def lead(self, hand: int) -> int:
        """The card to lead."""
        if self.random:
            codes = codes_of_mask(hand)
            return codes[self.choices.below(len(codes))]
        trumps = hand & suit_mask(self.trump)
        if self.policy.lead_trumps and trumps.bit_count() >= 2:
            return highest(trumps)
        plain_suits = [s for s in range(4) if s != self.trump and hand & suit_mask(s)]
        for s in plain_suits:
            if hand >> (8 * s + KING) & 1:
                return 8 * s + KING
        if plain_suits:
            def suit_key(s):
                cards = hand & suit_mask(s)
                return (cards.bit_count(), rank_of(highest(cards)), -s)
            return highest(hand & suit_mask(max(plain_suits, key=suit_key)))
        return highest(trumps)

    def follow(self, legal: int, led: int) -> int:
        """The card to play to ``led`` from the legal cards."""
        if self.random:
            codes = codes_of_mask(legal)
            return codes[self.choices.below(len(codes))]
        winners = mask_of_codes(c for c in codes_of_mask(legal)
                                if follower_wins(led, c, self.trump))
        return weakest_first(winners or legal, self.trump)[0]

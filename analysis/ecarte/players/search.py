"""The search player of Écarté's trick play: sample the hidden hand, solve double-dummy, average.

At each of his decisions (a lead, or a reply with more than one legal card) the searching player
draws ``samples`` hands for the opponent, uniformly among the hands consistent with what he knows,
solves each of them exactly (``players/solver.py``) for every card he may play, and plays the card with
the best total value (elder's net trick points: elder maximises, the dealer minimises). Ties go to
the card the heuristic would play if it is among the best, else to the weakest (weakest-first
order).

What the searcher knows about the opponent's hand:

- it is drawn from the *unseen* cards: 32 minus his own hand, the turn-up, his own discards (all
  rounds) and the cards already played; its size is public;
- the trump king the opponent announced is in it until played (EC-KING);
- under the strict follow rules (EC-FOLLOW), from each trick the opponent followed: a card of
  another suit shows a void in the suit led, and, under ``must_trump_when_void``, a card that is
  not a trump shows no trumps either; a card of the suit led that did not beat the card led shows
  he holds no higher card of that suit.

Each of these is "card c is not held" or "card c is held", so the consistent hands are exactly
the required cards plus any subset of the right size of the allowed cards, and a uniform draw
among them needs no rejection. A searcher may also read the opponent's exchanges through his policy
(his discards, proposals, answers and kings: ``players/search_inference.py``, EC-T7); then the hands are
drawn from that posterior by rejection. Draws come from counter-based streams (``analysis/rng.py``) of
the deal, one per searching player, so results do not depend on threads or chunking.

The exchanges and kings are the kernel's own (``kernel.exchanges``, which also returns each
player's discards: what he knows to be out of play), so the search plays after any exchange policy
the kernel has: heuristic, random, forced discards, discard tables.

Its two uses are ``studies/search_strength.py`` (search against the heuristic) and ``studies/search_check.py``
(the strategy tables against search play).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.ecarte.engine.deal import weakest
from analysis.ecarte.engine.layout import N_EXCHANGE_HIST
from analysis.ecarte.engine.tricks import (
    ALL_CARDS,
    beats,
    follow_inference,
    hidden_constraints,
    legal_follows,
)
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.players.learned import learned_lead
from analysis.ecarte.players.search_inference import sample_opponent
from analysis.ecarte.players.solver import INF, lead_value, run_top, run_tops, value_after
from analysis.ecarte.policies import P_LEAD_TRUMPS, P_LEAD_WEIGHTS, P_LEADS

LANE_ELDER_SEARCH = 2
LANE_DEALER_SEARCH = 3
N_RECORD = 13
"""Record of one play: lead, follow for tricks 1..5, then the count of constraint violations, of
samples that fell back to a plain draw (search_inference.sample_opponent) and of samples drawn."""
REC_VIOLATIONS = 10
REC_FALLBACKS = 11
REC_DRAWS = 12


@njit(cache=True)
def search_scratch():
    """A searching kernel's private arrays: the two 32-entry sums, the play record, the exchange
    history (engine/layout.N_EXCHANGE_HIST), and the empty chances and classes of a searcher that does not
    read the equilibrium (search_inference.COND_TABLE)."""
    return (np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64), np.zeros(N_RECORD, dtype=np.int64),
            np.zeros(N_EXCHANGE_HIST, dtype=np.int64), np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.int32))


@njit(cache=True)
def choose_card(st, own, led, hidden, mover_is_elder, et, samples, default, know, position, scratch):
    """The searching player's card: the best total double-dummy value over sampled opponent hands.

    ``led`` < 0: the mover leads from ``own``; else he replies to ``led``. ``hidden``: (allowed,
    required, size) of the opponent's hand (who, having led, then holds ``size`` cards besides),
    drawn by ``sample_opponent``. ``default`` (the heuristic's card) wins ties, else the weakest
    of the best. ``position``: (trump suit, must trump when void, value table) with elder's tricks
    ``et``; ``scratch``: (sums, vals: 32-entry arrays, the play record). ``know``: what the
    searcher reads from the exchanges (search_inference.sample_opponent; cond 0 reads nothing);
    fallbacks are counted in rec[REC_FALLBACKS]. Returns (stream state, card)."""
    allowed, required, opp_size = hidden
    t, must, table = position
    sums, vals, rec = scratch
    leading = led < 0
    cands = own if leading else legal_follows(own, led, t, must)
    if popcount(cands) == 1:
        return st, lowest_bit(cands)
    elder_leads = mover_is_elder if leading else not mover_is_elder
    # One draw suffices when the constraints leave a single hand.
    n = samples if popcount(allowed) > opp_size - popcount(required) else 1
    x = cands
    while x:
        sums[lowest_bit(x)] = 0
        x &= x - 1
    for _ in range(n):
        st, opp, fell_back = sample_opponent(st, allowed, required, opp_size, know, t)
        rec[REC_FALLBACKS] += fell_back
        rec[REC_DRAWS] += 1
        inplay = own | opp
        if not leading:
            inplay |= 1 << led
        reps = run_tops(cands, inplay)
        while reps:
            c = lowest_bit(reps)
            reps &= reps - 1
            if leading:
                vals[c] = lead_value(own, opp, c, t, elder_leads, et, must, table)
            else:
                vals[c] = value_after(opp, own, led, c, t, elder_leads, et, must, table, -INF, INF)
        x = cands
        while x:
            c = lowest_bit(x)
            x &= x - 1
            sums[c] += vals[run_top(c, cands, inplay)]
    # The best total: the most for elder, the least for the dealer.
    best = sums[default]
    x = cands
    while x:
        c = lowest_bit(x)
        x &= x - 1
        best = max(best, sums[c]) if mover_is_elder else min(best, sums[c])
    if sums[default] == best:
        return st, default
    ties = 0
    x = cands
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if sums[c] == best:
            ties |= 1 << c
    return st, weakest(ties, t)


Seat = namedtuple("Seat", ("hand", "out", "samples", "cond", "policy", "probs"))
"""One player of ``play_tricks_search`` (``seat`` makes it): his hand after the exchanges, the cards he
knows to be out of play besides the turn-up (his own discards), his search's samples (0: he plays
by his policy: the heuristic, with the learned leads if it has them), what his search reads from
the exchanges (``cond``, search_inference; 0 reads nothing), his policy array (the other's model of
him) and, under COND_TABLE, his first decision's chance per information set (elder's of proposing,
the dealer's of refusing)."""


@njit(cache=True, inline="always")
def seat(hand, out, samples, cond, policy, probs):
    """A :data:`Seat`, its numbers typed (literals would compile the search again for each value)."""
    return Seat(np.int64(hand), np.int64(out), np.int64(samples), np.int64(cond), policy, probs)


@njit(cache=True)
def play_tricks_search(seats, streams, turnup, announced, must, table, hist, class_of_rank, sums, vals, rec):
    """The five tricks of a post-exchange position, each player (``seats``: elder's and the dealer's
    :data:`Seat`) searching or playing by his policy; returns elder's tricks.

    ``streams``: the streams elder's and the dealer's searches draw from, advanced in place (each
    player his own, so that one player's draws do not depend on how many the other made).
    ``announced``: 1 elder | 2 dealer announced the trump king. ``hist``: the exchanges' history
    (``exchanges`` wrote it) the searches read; ``class_of_rank`` numbers the information sets of
    COND_TABLE. Writes the cards played into ``rec`` (lead, follow per trick) and in
    rec[REC_VIOLATIONS] how many times a player's constraints on the opponent excluded the
    opponent's actual hand (always 0). Each player's part is written once, for the seat to move."""
    LEADS = np.int64(-1)
    NO_READING = np.int64(-1)  # a policy side here leads by the learned score without reading
    t = turnup >> 3
    king = 8 * t + 7
    hand = np.empty(2, dtype=np.int64)
    known = np.empty(2, dtype=np.int64)  # what each knows to be out of play
    shown = np.zeros(2, dtype=np.int64)  # what the other knows each holds: the king announced
    void = np.zeros(2, dtype=np.int64)  # what the other knows each does not hold
    played_by = np.zeros(2, dtype=np.int64)
    for s in range(2):
        hand[s] = seats[s].hand
        known[s] = seats[s].out | (1 << turnup)
        if (announced >> s) & 1:
            shown[s] = 1 << king
    played = 0
    rec[REC_FALLBACKS] = 0
    rec[REC_DRAWS] = 0
    violations = 0
    lead = 0  # the seat to lead: elder first
    etricks = np.int64(0)
    for k in range(5):
        f = 1 - lead
        leader, follower = seats[lead], seats[f]
        if k == 4:
            led = lowest_bit(hand[lead])
            fol = lowest_bit(hand[f])
        else:
            led = heuristic_lead(hand[lead], t, leader.policy[P_LEAD_TRUMPS])
            allowed, req = 0, 0
            if leader.samples > 0 or leader.policy[P_LEADS]:
                allowed, req = hidden_constraints(hand[lead], known[lead], played, void[f], shown[f])
            if leader.samples == 0 and leader.policy[P_LEADS]:
                led = learned_lead(hand[lead], allowed, req, popcount(hand[f]), t, k,
                                   etricks if lead == 0 else k - etricks, lead == 0,
                                   heuristic_lead(hand[lead], t, True), leader.policy, np.int64(P_LEAD_WEIGHTS),
                                   np.int64(NO_READING))  # typed: one compilation of learned_lead
            elif leader.samples > 0:
                violations += 0 if ((hand[f] & ~(allowed | req)) == 0 and (hand[f] & req) == req) else 1
                know = (leader.cond, ALL_CARDS & ~hand[lead] & ~known[lead] & ~played, played_by[f], hist, f == 0,
                        (announced >> f) & 1 != 0, follower.policy, follower.probs, class_of_rank, turnup & 7)
                streams[lead], led = choose_card(streams[lead], hand[lead], LEADS, (allowed, req, popcount(hand[f])),
                                                 lead == 0, etricks, leader.samples, led, know, (t, must, table),
                                                 (sums, vals, rec))
            played |= 1 << led
            legal = legal_follows(hand[f], led, t, must)
            fol = heuristic_follow(legal, led, t)
            if follower.samples > 0 and popcount(legal) > 1:
                opp = hand[lead] & ~(1 << led)
                allowed, req = hidden_constraints(hand[f], known[f], played, void[lead], shown[lead])
                violations += 0 if ((opp & ~(allowed | req)) == 0 and (opp & req) == req) else 1
                know = (follower.cond, ALL_CARDS & ~hand[f] & ~known[f] & ~played, played_by[lead] | (1 << led), hist,
                        lead == 0, (announced >> lead) & 1 != 0, leader.policy, leader.probs, class_of_rank,
                        turnup & 7)
                streams[f], fol = choose_card(streams[f], hand[f], led, (allowed, req, popcount(opp)), f == 0,
                                              etricks, follower.samples, fol, know, (t, must, table),
                                              (sums, vals, rec))
            void[f] = follow_inference(void[f], led, fol, t, must)
        played |= (1 << led) | (1 << fol)
        played_by[lead] |= 1 << led
        played_by[f] |= 1 << fol
        rec[2 * k] = led
        rec[2 * k + 1] = fol
        hand[lead] &= ~(1 << led)
        hand[f] &= ~(1 << fol)
        if beats(fol, led, t):
            lead = f
        etricks += 1 if lead == 0 else 0
    rec[REC_VIOLATIONS] = violations
    return etricks

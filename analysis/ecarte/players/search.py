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
from analysis.ecarte.policies import P_LEAD_WEIGHTS, P_LEADS

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
def choose_card(st, own, led, opp_size, allowed, required, mover_is_elder, et, t, must, table, samples,
                default, sums, vals, know, rec):
    """The searching player's card: the best total double-dummy value over sampled opponent hands.

    ``led`` < 0: the mover leads from ``own``; else he replies to ``led`` (the opponent, who led
    it, then holds ``opp_size`` cards besides). The opponent's hand is drawn by ``sample_hidden``
    from ``allowed``/``required``. ``default`` (the heuristic's card) wins ties, else the weakest
    of the best. ``sums``/``vals`` are 32-entry scratch arrays. ``know``: what the searcher reads
    from the exchanges (search_inference.sample_opponent; cond 0 reads nothing); fallbacks are
    counted in rec[REC_FALLBACKS]. Returns (stream state, card)."""
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


@njit(cache=True)
def play_tricks_search(elder, dealer, turnup, e_out, d_out, announced, must, table, e_samples, d_samples,
                       e_lead_trumps, d_lead_trumps, st_e, st_d, sums, vals, rec, pe, pd, hist, e_cond, d_cond,
                       pe_probs, pd_probs, class_of_rank):
    """The five tricks of a post-exchange position, each player searching (samples > 0) or playing
    by his policy (samples 0: the heuristic, with the learned leads if his policy has them); returns (elder's stream state, the dealer's, elder's tricks).

    ``st_e``/``st_d``: the streams elder's and the dealer's searches draw from (each player his own,
    so that one player's draws do not depend on how many the other made).

    ``e_out``/``d_out``: the cards elder / the dealer knows to be out of play besides the turn-up
    (his own discards); ``announced``: 1 elder | 2 dealer announced the trump king. Writes the cards
    played into ``rec`` (lead, follow per trick) and in rec[REC_VIOLATIONS] how many times a
    player's constraints on the opponent excluded the opponent's actual hand (always 0).

    ``e_cond``/``d_cond``: what elder's / the dealer's search reads from the exchanges
    (search_inference: the history ``hist`` that ``exchanges`` wrote, the opponent's policy array
    ``pd``/``pe`` as his model); 0 reads nothing. Under COND_TABLE the first proposal is read from
    ``pe_probs`` (elder's chance of proposing per information set) and the first answer from
    ``pd_probs`` (the dealer's chance of refusing), the sets numbered through ``class_of_rank``."""
    # Typed values, not literals: numba compiles a callee once per literal value it is passed, so
    # choose_card and sample_opponent would be compiled again for every caller's constants.
    e_samples, d_samples, e_cond, d_cond = (np.int64(e_samples), np.int64(d_samples), np.int64(e_cond),
                                            np.int64(d_cond))
    YES, NO, LEADS = np.bool_(True), np.bool_(False), np.int64(-1)
    NO_READING = np.int64(-1)  # a policy side here leads by the learned score without reading
    t = turnup >> 3
    king = 8 * t + 7
    known_e = e_out | (1 << turnup)
    known_d = d_out | (1 << turnup)
    req_e = (1 << king) if announced & 1 else 0  # what the dealer knows elder holds
    req_d = (1 << king) if announced & 2 else 0
    ex_e = 0  # cards the dealer knows elder does not hold
    ex_d = 0
    played = 0
    played_e = np.int64(0)  # the cards elder has played, and the dealer
    played_d = np.int64(0)
    rec[REC_FALLBACKS] = 0
    rec[REC_DRAWS] = 0
    violations = 0
    hand_l = elder
    hand_f = dealer
    elder_leads = True
    etricks = np.int64(0)
    for k in range(5):
        l_samples = e_samples if elder_leads else d_samples
        f_samples = d_samples if elder_leads else e_samples
        if k == 4:
            led = lowest_bit(hand_l)
            fol = lowest_bit(hand_f)
        else:
            led = heuristic_lead(hand_l, t, e_lead_trumps if elder_leads else d_lead_trumps)
            p_l = pe if elder_leads else pd
            allowed, req = 0, 0
            if l_samples > 0 or p_l[P_LEADS]:
                if elder_leads:
                    allowed, req = hidden_constraints(hand_l, known_e, played, ex_d, req_d)
                else:
                    allowed, req = hidden_constraints(hand_l, known_d, played, ex_e, req_e)
            if l_samples == 0 and p_l[P_LEADS]:
                led = learned_lead(hand_l, allowed, req, popcount(hand_f), t, k, etricks if elder_leads else k - etricks,
                                   elder_leads, heuristic_lead(hand_l, t, True), p_l, P_LEAD_WEIGHTS, NO_READING)
            elif l_samples > 0:
                violations += 0 if ((hand_f & ~(allowed | req)) == 0 and (hand_f & req) == req) else 1
                if elder_leads:
                    know = (e_cond, ALL_CARDS & ~hand_l & ~known_e & ~played, played_d, hist, NO,
                            (announced & 2) != 0, pd, pd_probs, class_of_rank, turnup & 7)
                    st_e, led = choose_card(st_e, hand_l, LEADS, popcount(hand_f), allowed, req, YES, etricks, t,
                                            must, table, l_samples, led, sums, vals, know, rec)
                else:
                    know = (d_cond, ALL_CARDS & ~hand_l & ~known_d & ~played, played_e, hist, YES,
                            (announced & 1) != 0, pe, pe_probs, class_of_rank, turnup & 7)
                    st_d, led = choose_card(st_d, hand_l, LEADS, popcount(hand_f), allowed, req, NO, etricks, t,
                                            must, table, l_samples, led, sums, vals, know, rec)
            played |= 1 << led
            legal = legal_follows(hand_f, led, t, must)
            fol = heuristic_follow(legal, led, t)
            if f_samples > 0 and popcount(legal) > 1:
                opp = hand_l & ~(1 << led)
                if elder_leads:
                    allowed, req = hidden_constraints(hand_f, known_d, played, ex_e, req_e)
                else:
                    allowed, req = hidden_constraints(hand_f, known_e, played, ex_d, req_d)
                violations += 0 if ((opp & ~(allowed | req)) == 0 and (opp & req) == req) else 1
                if elder_leads:
                    know = (d_cond, ALL_CARDS & ~hand_f & ~known_d & ~played, played_e | (1 << led), hist, YES,
                            (announced & 1) != 0, pe, pe_probs, class_of_rank, turnup & 7)
                    st_d, fol = choose_card(st_d, hand_f, led, popcount(opp), allowed, req, NO, etricks,
                                            t, must, table, f_samples, fol, sums, vals, know, rec)
                else:
                    know = (e_cond, ALL_CARDS & ~hand_f & ~known_e & ~played, played_d | (1 << led), hist, NO,
                            (announced & 2) != 0, pd, pd_probs, class_of_rank, turnup & 7)
                    st_e, fol = choose_card(st_e, hand_f, led, popcount(opp), allowed, req, YES, etricks,
                                            t, must, table, f_samples, fol, sums, vals, know, rec)
            if elder_leads:
                ex_d = follow_inference(ex_d, led, fol, t, must)
            else:
                ex_e = follow_inference(ex_e, led, fol, t, must)
        played |= (1 << led) | (1 << fol)
        if elder_leads:
            played_e |= 1 << led
            played_d |= 1 << fol
        else:
            played_d |= 1 << led
            played_e |= 1 << fol
        rec[2 * k] = led
        rec[2 * k + 1] = fol
        hand_l &= ~(1 << led)
        hand_f &= ~(1 << fol)
        if beats(fol, led, t):
            hand_l, hand_f = hand_f, hand_l
            elder_leads = not elder_leads
        etricks += 1 if elder_leads else 0
    rec[REC_VIOLATIONS] = violations
    return st_e, st_d, etricks

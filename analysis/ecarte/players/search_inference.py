"""What the searcher reads from the opponent's exchanges: hidden hands drawn from the posterior
given the proposal rounds (EC-T7, "watch the opponent's discards").

The plain sampler (``players.search.sample_hidden``) draws the opponent's hand uniformly among the
hands consistent with the cards seen. But the opponent's decisions before the play were made by
his policy from his hands at the time: how many cards he threw in each round, whether elder
proposed or played, whether the dealer accepted or refused, whether a king was announced. With the
opponent's policy known (the searcher's model of him: the policy array he plays by), a hand he
holds now is likely in proportion to the number of his histories that lead to it and agree with
every decision seen.

``sample_opponent`` draws that posterior by rejection. It draws a hand ``o`` as the plain sampler
does, then one history backwards through the accepted rounds (``backstory_fits``): of the k cards
he threw in a round, which k of his hand he drew, and which k unseen cards he threw; the hand
before the round is his kept cards plus those. It keeps ``o`` if the policy, given each earlier
hand, makes the same decisions and throws exactly those cards. Every hand has the same number of
histories (the counts and the number of unseen cards are public), so a hand is kept with
probability proportional to its posterior weight: the draws that are kept are exact draws from the
posterior. After ``tries`` rejections it keeps the last plain draw (counted as a fallback).

``cond`` chooses what is read: COND_DISCARDS (each round's discards, as his policy would throw
them), COND_DECISIONS (his proposals and answers, and a king his policy would have announced), and
COND_TABLE (the first proposal or answer by his equilibrium chances: a hand is kept with the chance
that its information set decides as seen, so the draws stay exact for mixed decisions). 0 is the
plain sampler, drawing exactly what it draws.
"""
from __future__ import annotations

from numba import njit

from analysis.bits import nth_bit, popcount, rank_of_mask
from analysis.ecarte.engine.buckets import N_BUCKETS, turnup_bucket
from analysis.ecarte.engine.layout import (
    EH_FINAL,
    EH_ROUND0,
    EH_ROUNDS,
    EHR_DHI,
    EHR_DK,
    EHR_DLO,
    EHR_EHI,
    EHR_EK,
    EHR_SIZE,
    FINAL_NONE,
    FINAL_REFUSED,
)
from analysis.ecarte.players.heuristic import dealer_refuses, elder_proposes, policy_discard
from analysis.ecarte.policies import KIND_RANDOM, P_ANNOUNCE_KING, P_KIND
from analysis.rng import below

COND_DISCARDS = 1
COND_DECISIONS = 2
COND_ALL = COND_DISCARDS | COND_DECISIONS
COND_TABLE = 4
"""The first proposal and answer read from the equilibrium's chances (``probs``) instead of the
policy, which in the equilibrium's branches only forces them."""
TRIES = 4000
"""Rejected draws before a searcher falls back to the plain sampler for one sample. A history
drawn at random fits rarely (about 1 in 400 for a hand that threw two and proposed again), so the
bound is generous; the studies report how often it was reached."""


@njit(cache=True, inline="always")
def sample_hidden(st, allowed, required, size):
    """A hand of ``size`` cards drawn uniformly among those holding every card of ``required``
    and otherwise only cards of ``allowed`` (disjoint masks); returns (stream state, hand).

    If ``allowed`` holds too few cards (inconsistent constraints) the hand is short."""
    hand = required
    m = allowed
    left = popcount(m)
    for _ in range(size - popcount(required)):
        if left == 0:
            break
        st, i = below(st, left)
        c = nth_bit(m, i)
        hand |= 1 << c
        m &= ~(1 << c)
        left -= 1
    return st, hand


@njit(cache=True, inline="always")
def info_set_of(hand, t, turnup_rank, class_of_rank):
    """The proposal game's information set of a hand (studies/equilibrium/branches: its class up to suit symmetry,
    trumps moved to lane 0, times 3 plus the turn-up's bucket, engine/buckets.py)."""
    sh = 8 * t
    rel = ((hand >> sh) | (hand << (32 - sh))) & 0xFFFFFFFF
    return class_of_rank[rank_of_mask(rel)] * N_BUCKETS + turnup_bucket(rel, turnup_rank)


@njit(cache=True, inline="always")
def _decision_fits(st, pol, hand, t, rnd, opp_is_elder, proposed_or_refused, table, probs, class_of_rank,
                   turnup_rank):
    """(stream state, whether the opponent, holding ``hand`` at round ``rnd``, decides as seen): for
    elder, proposing (True) or playing; for the dealer, refusing (True) or accepting. By his policy
    (a random policy fits all), or with ``table`` in the first round by ``probs`` (his chance of
    proposing / refusing per information set): then the hand is kept with that chance."""
    if table and rnd == 0:
        p = probs[info_set_of(hand, t, turnup_rank, class_of_rank)]
        if not proposed_or_refused:
            p = 1.0 - p
        st, u = below(st, 1 << 30)
        return st, u < p * (1 << 30)
    d = elder_proposes(pol, hand, t, rnd) if opp_is_elder else dealer_refuses(pol, hand, t, rnd)
    return st, d < 0 or (d == 1) == proposed_or_refused


@njit(cache=True)
def backstory_fits(st, o, pool, t, hist, opp_is_elder, opp_announced, pol, cond, probs, class_of_rank, turnup_rank):
    """Draw one history of the opponent's exchanges ending in his hand ``o`` (all his cards after
    the exchanges, the ones played included), his discards from ``pool`` (the cards the searcher
    has not seen, outside ``o``); returns (stream state, whether his policy makes it)."""
    decisions = (cond & COND_DECISIONS) != 0
    table = (cond & COND_TABLE) != 0
    discards = (cond & COND_DISCARDS) != 0 and pol[P_KIND] != KIND_RANDOM
    rounds = hist[EH_ROUNDS]
    final = hist[EH_FINAL]
    if decisions:
        king = 8 * t + 7
        if (not opp_announced and pol[P_KIND] != KIND_RANDOM and pol[P_ANNOUNCE_KING]
                and (o >> king) & 1):
            return st, False
    if final != FINAL_NONE and (decisions or (table and rounds == 0)):
        if opp_is_elder or final == FINAL_REFUSED:
            st, fits = _decision_fits(st, pol, o, t, rounds, opp_is_elder, final == FINAL_REFUSED, table, probs,
                                      class_of_rank, turnup_rank)
            if not fits:
                return st, False
    h = o
    for r in range(rounds - 1, -1, -1):
        base = EH_ROUND0 + EHR_SIZE * r
        k = hist[base + EHR_EK] if opp_is_elder else hist[base + EHR_DK]
        if k > 0:
            st, drawn = sample_hidden(st, h, 0, k)
            st, thrown = sample_hidden(st, pool, 0, k)
            pool &= ~thrown
            h = (h & ~drawn) | thrown
            if discards:
                lo = 1 if opp_is_elder else hist[base + EHR_DLO]
                hi = hist[base + EHR_EHI] if opp_is_elder else hist[base + EHR_DHI]
                if policy_discard(pol, h, t, lo, hi, r) != thrown:
                    return st, False
        if decisions or (table and r == 0):
            # Elder proposed in every accepted round; the dealer accepted.
            st, fits = _decision_fits(st, pol, h, t, r, opp_is_elder, opp_is_elder, table, probs, class_of_rank,
                                      turnup_rank)
            if not fits:
                return st, False
    return st, True


@njit(cache=True)
def sample_opponent(st, allowed, required, size, know, t):
    """(stream state, hand, 1 if it fell back to a plain draw): the opponent's remaining hand drawn
    from the posterior (module docstring). ``know`` = (cond, cards unseen by the searcher, cards the
    opponent played, hist, opponent is elder, he announced the king, his policy array, his first
    decision's chances per information set, the classes of the hands by rank, the turn-up's rank);
    the last three are read only under COND_TABLE."""
    cond, unseen, opp_played, hist, opp_is_elder, opp_announced, pol, probs, class_of_rank, turnup_rank = know
    st, hand = sample_hidden(st, allowed, required, size)
    if cond == 0:
        return st, hand, 0
    for _ in range(TRIES):
        st, fits = backstory_fits(st, hand | opp_played, unseen & ~hand, t, hist, opp_is_elder, opp_announced, pol,
                                  cond, probs, class_of_rank, turnup_rank)
        if fits:
            return st, hand, 0
        st, hand = sample_hidden(st, allowed, required, size)
    return st, hand, 1

"""Trick rules in the Écarté kernel (EC-FOLLOW, EC-POINT): legal follows, who wins a trick, the
points for the tricks taken, and what a player knows of the opponent's hand
(``hidden_constraints``, ``follow_inference``: the search player's and the learned leads'
reading). The heuristic's lead and follow are in ``players/heuristic.py``, five tricks by the
policies in ``play/tricks.py``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.ecarte.rules import (
    R_PENALTY_POINT,
    R_PENALTY_VOLE,
)

ALL_CARDS = (1 << 32) - 1


@njit(cache=True, inline="always")
def legal_follows(hand, led, t, must_trump):
    """EC-FOLLOW: follow suit, overtake if able; void: trump if able (switch); else anything."""
    suited = hand & (0xFF << (led & 24))
    higher = suited & -(2 << led)
    trumps = hand & (0xFF << (8 * t))
    void = trumps if (trumps != 0) & (must_trump != 0) else hand
    in_suit = higher if higher else suited
    return in_suit if suited else void


@njit(cache=True, inline="always")
def beats(follow, led, t):
    """True when the follower's card wins the trick: a higher card of the suit led (same suit:
    codes differ only in the low three bits), or a trump on a plain lead."""
    return (((follow ^ led) < 8) & (follow > led)) | (((follow >> 3) == t) & ((led >> 3) != t))


@njit(cache=True, inline="always")
def hidden_constraints(own, known, played, excluded, required):
    """(allowed, required) for the opponent's hand as the mover sees it: his own hand, the cards he
    knows out of play (turn-up, own discards), the cards played, the cards shown not held, and the
    announced king (required until played)."""
    req = required & ~played
    allowed = ALL_CARDS & ~own & ~known & ~played & ~excluded & ~req
    return allowed, req


@njit(cache=True, inline="always")
def follow_inference(excluded, led, fol, t, must):
    """Cards the follower shows he does not hold by playing ``fol`` to ``led`` (EC-FOLLOW)."""
    ls = led >> 3
    if (fol >> 3) != ls:
        excluded |= 0xFF << (8 * ls)  # void in the suit led
        if must and (fol >> 3) != t:
            excluded |= 0xFF << (8 * t)  # ... and, having to trump, no trumps
    elif (fol & 7) < (led & 7):
        # Followed without heading the trick: no higher card of the suit led.
        excluded |= ((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * ls)
    return excluded


@njit(cache=True, inline="always")
def knowledge_start(turnup, e_out, d_out, announced):
    """What each player knows of the other's hand before the first trick: the cards he knows are
    not in it (the turn-up and his own discards, ``e_out``/``d_out``) and the trump king it holds
    when announced (``announced``: 1 elder, 2 the dealer). (known_e, known_d, req_e, req_d): known
    out of play to elder / the dealer, the king elder / the dealer is known to hold."""
    king = np.int64(1) << (8 * (turnup >> 3) + 7)
    return (e_out | (np.int64(1) << turnup), d_out | (np.int64(1) << turnup), king if announced & 1 else 0,
            king if announced & 2 else 0)


@njit(cache=True, inline="always")
def after_trick(led, fol, t, must, elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks):
    """The state after a trick with tracked knowledge: the leader learns what the follow shows the
    follower does not hold (``ex_e``/``ex_d``: cards shown not in elder's / the dealer's hand), the
    cards leave the hands, the winner leads next. (elder_leads, ex_e, ex_d, played, hand_l, hand_f,
    etricks)."""
    if elder_leads:
        ex_d = follow_inference(ex_d, led, fol, t, must)
    else:
        ex_e = follow_inference(ex_e, led, fol, t, must)
    played |= (np.int64(1) << led) | (np.int64(1) << fol)
    hand_l &= ~(np.int64(1) << led)
    hand_f &= ~(np.int64(1) << fol)
    if beats(fol, led, t):
        hand_l, hand_f = hand_f, hand_l
        elder_leads = not elder_leads
    etricks += 1 if elder_leads else 0
    return elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks


@njit(cache=True, inline="always")
def trick_points(etricks, pen_elder, pen_dealer, rules):
    """EC-POINT / EC-PENALTY: (elder's, dealer's) points for elder taking ``etricks`` of 5.

    The winner scores 1 (vole 2), or the penalty point (penalty vole) when the loser is the
    penalised side."""
    vole = (etricks == 5) | (etricks == 0)
    normal = 2 if vole else 1
    penalty = rules[R_PENALTY_VOLE] if vole else rules[R_PENALTY_POINT]
    elder_wins = np.int64(etricks >= 3)
    ept = elder_wins * (penalty if pen_dealer else normal)
    dpt = (1 - elder_wins) * (penalty if pen_elder else normal)
    return ept, dpt

"""Trick play in the Écarté kernel (EC-FOLLOW): legal follows, who wins a trick, the heuristic's
lead and follow, what a player knows of the opponent's hand (``hidden_constraints``,
``follow_inference``: the search player's and the learned leads' reading), five tricks; and two
heuristic hands' tricks interleaved (``hands_chunk``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, nth_bit, popcount
from analysis.ecarte.engine.deal import KINGS, weakest
from analysis.ecarte.engine.layout import O_TRICKS
from analysis.ecarte.policies import KIND_RANDOM, P_KIND, P_LEAD_TRUMPS
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import below

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


# LEAD_KEY[lane] ranks a plain suit's lane for the lead: its length, then its top card (0 if empty).
LEAD_KEY = np.zeros(256, dtype=np.int64)
for _lane in range(1, 256):
    LEAD_KEY[_lane] = (bin(_lane).count("1") << 3) | (_lane.bit_length() - 1)


@njit(cache=True, inline="always")
def heuristic_lead(hand, t, lead_trumps):
    """Highest trump with 2+ (if lead_trumps), else a plain king, else top of the longest plain suit.

    Written as selections rather than early returns, so it compiles to few unpredictable branches.
    """
    tl = (hand >> (8 * t)) & 0xFF
    top_trump = 8 * t + highest_bit(tl)
    plain = hand & ~(0xFF << (8 * t))
    kings = plain & KINGS
    # Longest plain suit, ties to the higher top card, then the lower suit: the largest key.
    k0 = (LEAD_KEY[plain & 0xFF] << 2) | 3
    k1 = (LEAD_KEY[(plain >> 8) & 0xFF] << 2) | 2
    k2 = (LEAD_KEY[(plain >> 16) & 0xFF] << 2) | 1
    k3 = LEAD_KEY[(plain >> 24) & 0xFF] << 2
    best = max(max(k0, k1), max(k2, k3))
    longest_top = 8 * (3 - (best & 3)) + ((best >> 2) & 7)
    card = top_trump if plain == 0 else longest_top
    card = lowest_bit(kings) if kings else card
    return top_trump if (lead_trumps and popcount(tl) >= 2) else card


@njit(cache=True, inline="always")
def heuristic_follow(legal, led, t):
    """The cheapest winning legal card, else the cheapest legal card (weakest-first order)."""
    ls = led >> 3
    higher_in_suit = (0xFF << (8 * ls)) & -(2 << led)
    win = higher_in_suit | ((0xFF << (8 * t)) & -np.int64(ls != t))
    winners = legal & win
    return weakest(winners if winners else legal, t)


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
def play_tricks(elder, dealer, t, sto, rules, pe, pd, out, record):
    """EC-FOLLOW: five tricks, elder leads the first, the winner the next; returns (sto, elder's
    tricks). The leader's and the follower's hands swap when the follower wins."""
    must_trump = rules[R_MUST_TRUMP_WHEN_VOID]
    e_random = pe[P_KIND] == KIND_RANDOM
    d_random = pd[P_KIND] == KIND_RANDOM
    e_lead_trumps = pe[P_LEAD_TRUMPS]
    d_lead_trumps = pd[P_LEAD_TRUMPS]
    hand_l = elder
    hand_f = dealer
    elder_leads = True
    etricks = 0
    for k in range(5):
        l_random = e_random if elder_leads else d_random
        f_random = d_random if elder_leads else e_random
        if k == 4:
            # The last trick is forced: one card each (nothing is drawn from the choices stream
            # after it, so skipping the random policy's calls changes nothing).
            led = lowest_bit(hand_l)
            fol = lowest_bit(hand_f)
        elif l_random:
            sto, i = below(sto, popcount(hand_l))
            led = nth_bit(hand_l, i)
        else:
            led = heuristic_lead(hand_l, t, e_lead_trumps if elder_leads else d_lead_trumps)
        if k == 4:
            pass
        elif f_random:
            legal = legal_follows(hand_f, led, t, must_trump)
            sto, i = below(sto, popcount(legal))
            fol = nth_bit(legal, i)
        else:
            legal = legal_follows(hand_f, led, t, must_trump)
            fol = heuristic_follow(legal, led, t)
        if record:
            out[O_TRICKS + 2 * k] = led
            out[O_TRICKS + 2 * k + 1] = fol
        hand_l &= ~(1 << led)
        hand_f &= ~(1 << fol)
        # The follower wins: swap the hands (without a branch: the winner is unpredictable).
        swap = -np.int64(beats(fol, led, t))
        x = (hand_l ^ hand_f) & swap
        hand_l ^= x
        hand_f ^= x
        elder_leads = elder_leads != (swap != 0)
        etricks += 1 if elder_leads else 0
    return sto, etricks


@njit(cache=True, inline="always")
def heuristic_trick(hand_l, hand_f, elder_leads, t, e_lead_trumps, d_lead_trumps, must_trump):
    """One trick (not the last) between heuristic players: returns the hands and who leads next."""
    led = heuristic_lead(hand_l, t, e_lead_trumps if elder_leads else d_lead_trumps)
    fol = heuristic_follow(legal_follows(hand_f, led, t, must_trump), led, t)
    hand_l &= ~(1 << led)
    hand_f &= ~(1 << fol)
    swap = -np.int64(beats(fol, led, t))
    x = (hand_l ^ hand_f) & swap
    return hand_l ^ x, hand_f ^ x, elder_leads != (swap != 0)


@njit(cache=True, inline="always")
def heuristic_tricks_pair(a_elder, a_dealer, a_t, b_elder, b_dealer, b_t, e_lead_trumps, d_lead_trumps,
                          must_trump):
    """The tricks of two independent hands between heuristic players, interleaved so that the
    processor overlaps their chains of dependent steps; returns elder's tricks in each."""
    al, af, ae = a_elder, a_dealer, True
    bl, bf, be = b_elder, b_dealer, True
    a_tricks = 0
    b_tricks = 0
    for _ in range(4):
        al, af, ae = heuristic_trick(al, af, ae, a_t, e_lead_trumps, d_lead_trumps, must_trump)
        bl, bf, be = heuristic_trick(bl, bf, be, b_t, e_lead_trumps, d_lead_trumps, must_trump)
        a_tricks += 1 if ae else 0
        b_tricks += 1 if be else 0
    # The last trick is forced.
    a_last = ae != beats(lowest_bit(af), lowest_bit(al), a_t)
    b_last = be != beats(lowest_bit(bf), lowest_bit(bl), b_t)
    return a_tricks + (1 if a_last else 0), b_tricks + (1 if b_last else 0)

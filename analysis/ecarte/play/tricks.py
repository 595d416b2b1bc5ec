"""Five tricks of an Écarté hand in the kernel (EC-FOLLOW): each seat's card by its policy (the
heuristic's or a random one's); the search player's tricks are in ``players/search.py``."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.ecarte.engine.layout import O_TRICKS
from analysis.ecarte.engine.tricks import beats, legal_follows
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.policies import KIND_RANDOM, P_KIND, P_LEAD_TRUMPS
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import below


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

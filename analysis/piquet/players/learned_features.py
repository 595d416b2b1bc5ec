"""The learned Piquet exchange's features: the additive form that ``players/learned`` uses twice (its
ordering, and the first part of its scorer), fitted to the discard analyser (scripts/fit_exchange.py;
docs/piquet-engine.md, "Learned exchange").

An exchange D of k cards scores  sum over c in D of u(c) + B[k],  where u(c) = w . phi(c) is how
much the model likes throwing card c of this hand and B[k] = b[k] + v[k] . g(hand) the bias of
taking k cards with this hand (g: its aces, kings, point length, longest run, low cards). For such a
score the best exchange of each size is the k cards with the highest u (one sort).

phi(c) has a part that depends on c's own suit only (``LANE_FEATURES``, tabled per lane and rank
once per policy, as the heuristic's keep values are) and a part that depends on the whole hand
(``HAND_FEATURES``: the point suit and the sets). One model per seat and variant; the kernel picks
the variant's model by the switches that shape the exchange (``exchange_model``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.piquet.engine.cards import COLUMN, LANE_GUARDS, LANE_RUN, point_suit

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
LANE_FEATURES = (
    *(f"rank_{r}_in_suit_of_{n}" for n in range(1, 9) for r in RANKS),  # index 8 * (n - 1) + rank
    *(f"run_{n}" for n in ("2", "3", "4", "5+")),  # the run of consecutive ranks held that c is in
    *(f"higher_out_{n}" for n in ("0", "1", "2", "3+")),  # cards of c's suit above c not held
    "near_cards",  # cards of c's suit held within two ranks of c
    "is_guard",  # the heuristic's guard of an unaccompanied K or Q
    "guarded_honour",  # a K or Q that is the top of its suit and has such a guard
)
HAND_FEATURES = (
    *(f"point_suit_rank_{r}" for r in RANKS),
    "point_suit_5plus",
    *(f"rank_{r}_held_{k}" for k in (2, 3, 4) for r in RANKS[3:]),  # index 5 * (k - 2) + rank - 3
)
COUNT_FEATURES = ("aces", "kings", "point_length", "longest_run", "low_cards")
"""Hand-level terms of the bias of taking k cards: b[k] + sum over j of v[k, j] * g_j(hand)."""
FEATURES = LANE_FEATURES + HAND_FEATURES
N_LANE = len(LANE_FEATURES)
N_FEATURES = len(FEATURES)
N_COUNTS = 8
"""Biases b[0..7]: younger may take up to seven cards in the leftovers variants."""
N_G = len(COUNT_FEATURES)
ORDER_SIZE = N_FEATURES + N_COUNTS * (1 + N_G)
"""An additive model: the card weights, then b[0..7], then v[k, j] for k = 0..7, j over COUNT_FEATURES
(the ordering of ``players/learned``, and the first part of its scorer)."""
MODELS = ("seed-de", "seed-no", "cavendish")
N_MODELS = len(MODELS)
SCALE = 1000
"""Weights are stored as integers in thousandths of a point (the kernel's arithmetic is exact)."""


@njit(cache=True)
def lane_features(lane, r, row):
    """phi's suit-only part for the card of rank r in a suit holding ``lane``, into row[0:N_LANE]."""
    row[:] = 0
    n = popcount(lane)
    row[8 * (n - 1) + r] = 1
    lo = r
    while lo > 0 and (lane >> (lo - 1)) & 1:
        lo -= 1
    hi = r
    while hi < 7 and (lane >> (hi + 1)) & 1:
        hi += 1
    run = hi - lo + 1
    if run >= 2:
        row[64 + min(run, 5) - 2] = 1
    above = 0
    for q in range(r + 1, 8):
        above += 1 - ((lane >> q) & 1)
    row[68 + min(above, 3)] = 1
    near = 0
    for q in range(max(0, r - 2), min(7, r + 2) + 1):
        near += (lane >> q) & 1 if q != r else 0
    row[72] = near
    g = LANE_GUARDS[lane]
    row[73] = (g >> r) & 1
    top = 7
    while top > 0 and not (lane >> top) & 1:
        top -= 1
    row[74] = 1 if (g != 0 and r == top and (r == 5 or r == 6)) else 0


@njit(cache=True)
def hand_features(hand, c, ps, row):
    """phi's whole-hand part for card c (point suit ``ps``), into row[0:len(HAND_FEATURES)]."""
    row[:] = 0
    s = c >> 3
    r = c & 7
    if s == ps:
        row[r] = 1
        row[8] = 1 if popcount((hand >> (8 * s)) & 0xFF) >= 5 else 0
    if r >= 3:
        held = popcount((hand >> r) & COLUMN)
        if held >= 2:
            row[9 + 5 * (held - 2) + r - 3] = 1


@njit(cache=True, inline="always")
def count_terms(hand, ps):
    """The hand-level terms g_j of the count biases (COUNT_FEATURES) for point suit ``ps``: aces,
    kings, the point suit's length, the longest run of consecutive ranks in a suit, 7s 8s and 9s."""
    longest = max(max(LANE_RUN[hand & 0xFF], LANE_RUN[(hand >> 8) & 0xFF]),
                  max(LANE_RUN[(hand >> 16) & 0xFF], LANE_RUN[(hand >> 24) & 0xFF]))
    return (popcount((hand >> 7) & COLUMN), popcount((hand >> 6) & COLUMN), popcount((hand >> (8 * ps)) & 0xFF),
            longest, popcount(hand & 0x07070707))


@njit(cache=True)
def feature_matrix(hand):
    """phi of the hand's cards (ascending codes) as a (cards, N_FEATURES) int64 matrix (fitting)."""
    n = popcount(hand)
    out = np.zeros((n, N_FEATURES), dtype=np.int64)
    ps = point_suit(hand)
    x = hand
    i = 0
    while x:
        c = lowest_bit(x)
        x &= x - 1
        lane_features((hand >> (8 * (c >> 3))) & 0xFF, c & 7, out[i, :N_LANE])
        hand_features(hand, c, ps, out[i, N_LANE:])
        i += 1
    return out


@njit(cache=True)
def count_matrix(hand):
    """The hand's count terms g (COUNT_FEATURES) as an int64 vector (fitting)."""
    g = np.zeros(N_G, dtype=np.int64)
    g[0], g[1], g[2], g[3], g[4] = count_terms(hand, point_suit(hand))
    return g


@njit(cache=True, inline="always")
def exchange_model(leftovers, every_lead):
    """The model a rule set uses: seed-de's (younger takes only the bottom three), seed-no's (the
    leftovers, points for the first lead only) or cavendish's (the leftovers, every lead)."""
    if not leftovers:
        return 0
    return 2 if every_lead else 1

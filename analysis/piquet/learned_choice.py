"""The learned exchange's choice: a fast ordering proposes exchanges, a scorer of the kept hand
picks among them and improves the pick by single-card moves (docs/piquet-engine.md, "Learned
exchange").

A model has two parts, both fitted to the discard analyser (scripts/fit_exchange.py):
- the *ordering* (``learned_exchange``'s additive form, ``ORDER_SIZE`` weights): u0(c) = w0 . phi(c)
  for each card, whose k best cards make an exchange of every size k in one sort;
- the *scorer* (``SCORER_SIZE`` weights): the same additive form with its own weights w1, plus
  w2 . psi(K, D), features of the kept hand K = H - D that see which cards go together (the point and
  sequence kept, the sets kept, the suits kept and emptied, the suits thrown from).

The choice: the scorer's best of the candidates (for every legal k, the k best cards by u0, and the
same with one suit, or one rank of which three or more are held, kept whole), then first-improvement
moves (swap a thrown card for a kept one, throw one fewer, throw one more; cards in ascending code
order) while the score rises, at most ``MAX_MOVES`` moves.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.piquet.card_masks import COLUMN, LANE_VALUE, point_suit
from analysis.piquet.learned_exchange import (
    N_COUNTS,
    N_FEATURES,
    N_G,
    N_LANE,
    N_MODELS,
    ORDER_SIZE,
    count_terms,
    lane_features,
)

KEPT_FEATURES = (
    *(f"point_length_{n}" for n in range(9)),  # the kept hand's point suit (most cards, then value)
    *(f"point_value_over_40_at_length_{n}" for n in range(9)),  # its point value minus 40
    *(f"longest_run_{n}" for n in range(9)),  # the longest run of consecutive ranks kept in a suit
    *(f"rank_{r}_kept_{k}" for r in ("10", "J", "Q", "K", "A") for k in (2, 3, 4)),
    *(f"second_suit_length_{n}" for n in range(9)),  # the second-longest suit kept
    "suits_emptied",  # suits with no card kept
    *(f"suits_thrown_from_{n}" for n in range(5)),
)
N_KEPT = len(KEPT_FEATURES)
SCORER_SIZE = ORDER_SIZE + N_KEPT
"""The scorer: card weights, b[0..7], v[k, j] (as the ordering), then the kept-hand weights."""
MODEL_SIZE = ORDER_SIZE + SCORER_SIZE
"""A model: the ordering's weights, then the scorer's."""
TABLES = 2 * 2048
"""Per model: the ordering's and the scorer's suit-only card tables (8 * lane + rank each)."""
MAX_MOVES = 16
"""At most this many improving moves (a bound on the time; the climb usually stops after one or two)."""
RUN = np.zeros(256, dtype=np.int64)
"""The longest run of consecutive ranks in a lane."""
KEY = np.zeros(256, dtype=np.int64)
"""A lane's point key: its cards * 128 + its point value (the point suit has the highest key, the
lower suit on ties, as ``card_masks.point_suit``)."""
for _lane in range(256):
    _run = 0
    for _r in range(8):
        _run = _run + 1 if _lane >> _r & 1 else 0
        RUN[_lane] = max(RUN[_lane], _run)
    KEY[_lane] = bin(_lane).count("1") * 128 + LANE_VALUE[_lane]
PACK = KEY + (RUN << 12)
"""A lane's point key (12 bits), then its longest run."""


@njit(cache=True, inline="always")
def kept_terms(kept, thrown):
    """The kept hand K's point length and point value minus 40, its longest run, its second-longest
    suit, its suits emptied, and the suits the thrown cards D come from (branch-free: this is the
    inner loop of the choice)."""
    a = PACK[kept & 0xFF]
    b = PACK[(kept >> 8) & 0xFF]
    c = PACK[(kept >> 16) & 0xFF]
    d = PACK[(kept >> 24) & 0xFF]
    point = max(max(a & 4095, b & 4095), max(c & 4095, d & 4095))
    longest = max(max(a >> 12, b >> 12), max(c >> 12, d >> 12))
    ma = (a & 4095) >> 7
    mb = (b & 4095) >> 7
    mc = (c & 4095) >> 7
    md = (d & 4095) >> 7
    # The second largest of four: the larger of the two pairs' smaller, and the smaller of their larger.
    hi1 = max(ma, mb)
    hi2 = max(mc, md)
    second = max(min(hi1, hi2), max(min(ma, mb), min(mc, md)))
    emptied = (ma == 0) + (mb == 0) + (mc == 0) + (md == 0)
    touched = (((thrown & 0xFF) != 0) + (((thrown >> 8) & 0xFF) != 0) + (((thrown >> 16) & 0xFF) != 0)
               + (((thrown >> 24) & 0xFF) != 0))
    return point >> 7, (point & 127) - 40, longest, second, emptied, touched


@njit(cache=True)
def kept_features(kept, thrown, row):
    """psi(K, D) into row[0:N_KEPT] (kept hand K, thrown cards D)."""
    row[:] = 0
    n, value, longest, second, emptied, touched = kept_terms(kept, thrown)
    row[n] = 1
    row[9 + n] = value
    row[18 + longest] = 1
    for r in range(3, 8):
        held = popcount((kept >> r) & COLUMN)
        if held >= 2:
            row[27 + 3 * (r - 3) + held - 2] = 1
    row[42 + second] = 1
    row[51] = emptied
    row[52 + touched] = 1


@njit(cache=True, inline="always")
def kept_score(kept, thrown, w, at):
    """w[at:at + N_KEPT] . psi(K, D), without building psi."""
    n, value, longest, second, emptied, touched = kept_terms(kept, thrown)
    total = w[at + n] + w[at + 9 + n] * value + w[at + 18 + longest] + w[at + 42 + second] + w[at + 51] * emptied
    total += w[at + 52 + touched]
    for r in range(3, 8):
        held = popcount((kept >> r) & COLUMN)
        total += w[at + 27 + 3 * (r - 3) + max(held - 2, 0)] * (held >= 2)
    return total


@njit(cache=True)
def kept_matrix(hand, thrown):
    """psi of every exchange ``thrown[o]`` (masks) of ``hand`` as an (options, N_KEPT) int64 matrix."""
    out = np.zeros((len(thrown), N_KEPT), dtype=np.int64)
    for o in range(len(thrown)):
        kept_features(hand & ~thrown[o], thrown[o], out[o])
    return out


@njit(cache=True, inline="always")
def card_utility(hand, c, ps, w, at, table, t0):
    """u(c) = w[at:] . phi(c) for card c of ``hand`` (point suit ps): the suit-only part from ``table``
    (from ``t0``), the point-suit and set parts added (``learned_exchange.hand_features``' terms)."""
    s = c >> 3
    r = c & 7
    u = table[t0 + 8 * ((hand >> (8 * s)) & 0xFF) + r]
    if s == ps:
        u += w[at + N_LANE + r]
        if popcount((hand >> (8 * s)) & 0xFF) >= 5:
            u += w[at + N_LANE + 8]
    if r >= 3:
        held = popcount((hand >> r) & COLUMN)
        if held >= 2:
            u += w[at + N_LANE + 9 + 5 * (held - 2) + r - 3]
    return u


@njit(cache=True, inline="always")
def size_bias(w, at, k, g0, g1, g2, g3, g4):
    """B[k] = b[k] + v[k] . g(H) of the part of ``w`` starting at ``at``."""
    v = at + N_FEATURES + N_COUNTS + N_G * k
    return w[at + N_FEATURES + k] + w[v] * g0 + w[v + 1] * g1 + w[v + 2] * g2 + w[v + 3] * g3 + w[v + 4] * g4


@njit(cache=True, inline="always")
def _value(hand, thrown, work, w, at, lo):
    """The scorer's value of throwing ``thrown`` (work: sort keys, then u1 by code from slot 12, then
    B1[k] from slot 44 + k - lo)."""
    total = work[44 + popcount(thrown) - lo] + kept_score(hand & ~thrown, thrown, w, at + ORDER_SIZE)
    x = thrown
    while x:
        total += work[12 + lowest_bit(x)]
        x &= x - 1
    return total


@njit(cache=True, inline="always")
def _improves(hand, thrown, additive, weights, kat, best_value):
    """(whether throwing ``thrown`` scores above ``best_value``, its score), its additive part given."""
    v = additive + kept_score(hand & ~thrown, thrown, weights, kat)
    return v > best_value, v


@njit(cache=True, inline="always")
def _top(work, n, k, avoid):
    """The k cards of highest u0 not in ``avoid`` (a mask), or -1 when fewer are left."""
    out = 0
    m = 0
    for i in range(n):
        if m == k:
            break
        c = 63 - (work[i] & 63)
        if not (avoid >> c) & 1:
            out |= 1 << c
            m += 1
    return out if m == k else -1


@njit(cache=True, inline="always")
def _ordered(hand, ps, weights, base, tables, t0, work):
    """The hand's cards as sort keys u0 * 64 + (63 - code) in work[0:n], highest u0 first (ties: the
    lower code first); returns n."""
    n = 0
    x = hand
    while x:
        c = lowest_bit(x)
        x &= x - 1
        work[n] = card_utility(hand, c, ps, weights, base, tables, t0) * 64 + (63 - c)
        n += 1
    for i in range(1, n):  # insertion sort of 12 keys, descending
        key = work[i]
        j = i - 1
        while j >= 0 and work[j] < key:
            work[j + 1] = work[j]
            j -= 1
        work[j + 1] = key
    return n


@njit(cache=True)
def ordering_discard(hand, lo, hi, weights, tables, model, work):
    """The ordering alone (``exchange=learned-fast``): for each legal k the k cards of highest u0,
    then the k whose total plus B0[k] is highest (ties: the fewer cards); for an additive score this
    is the best of every legal exchange. ``work``: 12+ int32 slots."""
    base = model * MODEL_SIZE
    ps = point_suit(hand)
    n = _ordered(hand, ps, weights, base, tables, TABLES * model, work)
    g0, g1, g2, g3, g4 = count_terms(hand, ps)
    best_k = lo
    best = -(1 << 62)
    total = 0
    for k in range(0, hi + 1):
        if k > 0:
            total += work[k - 1] >> 6
        if k >= lo:
            score = total + size_bias(weights, base, k, g0, g1, g2, g3, g4)
            if score > best:
                best = score
                best_k = k
    return _top(work, n, best_k, 0)


@njit(cache=True)
def learned_discard(hand, lo, hi, weights, tables, model, work):
    """The learned exchange of lo..hi cards (module docstring). ``tables``: ``learned_tables``;
    ``work``: 64 int32 slots."""
    base = model * MODEL_SIZE
    at = base + ORDER_SIZE
    t0 = TABLES * model
    ps = point_suit(hand)
    n = _ordered(hand, ps, weights, base, tables, t0, work)
    x = hand
    while x:
        c = lowest_bit(x)
        x &= x - 1
        work[12 + c] = card_utility(hand, c, ps, weights, at, tables, t0 + 2048)
    g0, g1, g2, g3, g4 = count_terms(hand, ps)
    for k in range(lo, hi + 1):
        work[44 + k - lo] = size_bias(weights, at, k, g0, g1, g2, g3, g4)
    # The candidates: every size's best by u0, whole or keeping one suit or one set whole.
    best = -1
    best_value = -(1 << 62)
    for k in range(lo, hi + 1):
        plain = _top(work, n, k, 0)
        for e in range(10):
            if e == 0:
                avoid = 0
            elif e <= 4:
                avoid = 0xFF << (8 * (e - 1))
            else:
                avoid = COLUMN << (e - 2)  # ranks 10, J, Q, K, A (e = 5..9 -> rank 3..7)
                if popcount(hand & avoid) < 3:
                    continue
            if e > 0 and (plain & avoid) == 0:
                continue  # the same cards as the plain candidate
            d = _top(work, n, k, avoid)
            if d >= 0:
                v = _value(hand, d, work, weights, at, lo)
                if v > best_value:
                    best_value = v
                    best = d
    # First-improvement moves: swap, throw one fewer, throw one more. The additive part of the
    # score changes by the cards moved and the size's bias only.
    kat = at + ORDER_SIZE
    base_value = best_value - kept_score(hand & ~best, best, weights, kat)
    for _ in range(MAX_MOVES):
        moved = False
        k = popcount(best)
        thrown = best
        while thrown and not moved:
            i = lowest_bit(thrown)
            thrown &= thrown - 1
            kept = hand & ~best
            while kept and not moved:
                j = lowest_bit(kept)
                kept &= kept - 1
                d = best ^ (1 << i) ^ (1 << j)
                a = base_value - work[12 + i] + work[12 + j]
                moved, v = _improves(hand, d, a, weights, kat, best_value)
            if not moved and k > lo:
                d = best ^ (1 << i)
                a = base_value - work[12 + i] - work[44 + k - lo] + work[43 + k - lo]
                moved, v = _improves(hand, d, a, weights, kat, best_value)
        kept = hand & ~best if k < hi else 0
        while kept and not moved:
            j = lowest_bit(kept)
            kept &= kept - 1
            d = best | (1 << j)
            a = base_value + work[12 + j] - work[44 + k - lo] + work[45 + k - lo]
            moved, v = _improves(hand, d, a, weights, kat, best_value)
        if not moved:
            break
        best, best_value, base_value = d, v, a
    return best


@njit(cache=True)
def learned_tables(weights, parts=2):
    """For every model (``weights``: N_MODELS * MODEL_SIZE ints), the suit-only part of u0 and of u1
    for every lane and rank: table[TABLES * model + 8 * lane + r], the scorer's 2048 further on
    (``parts`` 1: the ordering's only, for learned-fast)."""
    table = np.zeros(TABLES * N_MODELS, dtype=np.int64)
    row = np.zeros(N_LANE, dtype=np.int64)
    for m in range(N_MODELS):
        for part in range(parts):
            at = m * MODEL_SIZE + part * ORDER_SIZE
            w = weights[at:at + N_LANE]
            for lane in range(1, 256):
                for r in range(8):
                    if (lane >> r) & 1:
                        lane_features(lane, r, row)
                        table[TABLES * m + 2048 * part + 8 * lane + r] = np.sum(row * w)
    return table

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
same with one suit, or one rank of which three or more are held, kept whole), then, when five cards
or more may be taken, first-improvement moves (swap a thrown card for a kept one, throw one fewer,
throw one more; cards in ascending code order) while the score rises, at most ``MAX_MOVES`` moves.
"""
from __future__ import annotations

import json
import pathlib
from functools import lru_cache

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.piquet.engine.cards import COLUMN, LANE_RUN, POINT_KEY, point_suit
from analysis.piquet.players.learned_features import (
    MODELS,
    N_COUNTS,
    N_FEATURES,
    N_G,
    N_LANE,
    N_MODELS,
    ORDER_SIZE,
    RANKS,
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
    # How many suits are kept exactly as this pattern of ranks (high to low; "none": emptied).
    *(f"suit_kept_{'-'.join(RANKS[r] for r in range(7, -1, -1) if lane >> r & 1) or 'none'}"
      for lane in range(256)),
)
SUIT_KEPT_AT = 57
"""Where the per-suit kept patterns start in KEPT_FEATURES (one per 8-bit lane, by its value)."""
N_KEPT = len(KEPT_FEATURES)
SCORER_SIZE = ORDER_SIZE + N_KEPT
"""The scorer: card weights, b[0..7], v[k, j] (as the ordering), then the kept-hand weights."""
MODEL_SIZE = ORDER_SIZE + SCORER_SIZE
"""A model: the ordering's weights, then the scorer's."""
SCORER_TABLE, POINT_TABLE, RANKS_LOW, RANKS_HIGH = 1024, 2048, 3200, 3712
SETS_HELD, POINT_SUIT, SHAPE, LONGEST, SUIT_KEPT = 3776, 3904, 3936, 4161, 4170
"""Where each table of a model starts (int32 entries):
- the ordering's suit-only card table (from 0) and the scorer's (1024 each, ``card_index``);
- the scorer's weight of the kept point by its key (1152), of the sets kept of ranks 10, J and Q
  (3 bits a rank: 512) and of K and A (64);
- the ordering's and the scorer's weight of a card of rank r held n times (64 each: 8 * r + n) and
  of a card of the point suit (16 each: 8 * (the point has 5+ cards) + r);
- the scorer's weight of the kept hand's second-longest suit n, suits emptied e and suits thrown
  from t (25 * n + 5 * e + t), of its longest run (9), and of a suit kept as each 8-bit lane (256).
The tables are small so that both players' stay in the first-level cache during a deal."""
TABLES = (SUIT_KEPT + 256 + 1) // 2 * 2
"""A model's table size (``learned_tables``; int32 entries, even: the kernel keeps the tables in its
int64 value array, two to a slot)."""
MAX_MOVES = 16
"""At most this many improving moves (a bound on the time; the climb usually stops after one or two)."""
SEARCH_FROM = 5
"""The moves run only when this many cards or more may be taken. With at most three or four, the
candidates already hold the scorer's best (the moves gained -0.01 +- 0.03 points on 14,000 seed-de
and 7,000 seed-no younger training hands, against +0.5 to +0.7 with five or more: docs/piquet-engine.md),
and skipping them saves a third of younger's time."""
SORT_12 = np.array([
    (0, 8), (1, 7), (2, 6), (3, 11), (4, 10), (5, 9), (0, 1), (2, 5), (3, 4), (6, 9), (7, 8), (10, 11),
    (0, 2), (1, 6), (5, 10), (9, 11), (0, 3), (1, 2), (4, 6), (5, 7), (8, 11), (9, 10), (1, 4), (3, 5),
    (6, 8), (7, 10), (1, 3), (2, 5), (6, 9), (8, 10), (2, 3), (4, 5), (6, 7), (8, 9), (4, 6), (5, 7),
    (3, 4), (5, 6), (7, 8)], dtype=np.int64)
"""A sorting network of 12 keys (39 compare-exchanges, 9 layers; tested on every 0-1 input): each
pair (a, b) puts the larger key at a, so the keys end in descending order."""
SPREAD = np.array([sum(((lane >> r) & 1) << (3 * r) for r in range(8)) for lane in range(256)], dtype=np.int64)
"""A lane's ranks as 3-bit fields (rank r at bit 3r): the sum over the four lanes counts each rank."""
PACK = SPREAD + (LANE_RUN << 24) + (POINT_KEY << 32)
"""A lane's SPREAD (bits 0-23), longest run (24-27) and point key (32-43): the largest of four is the
point's, and the sum of four counts the ranks (the fields do not carry)."""


@njit(cache=True, inline="always")
def _lane_mask(x):
    """Bit s set for each of the four 8-bit lanes of x that is not empty."""
    x |= x >> 4
    x |= x >> 2
    x |= x >> 1
    x &= COLUMN
    return (x & 1) | ((x >> 7) & 2) | ((x >> 14) & 4) | ((x >> 21) & 8)


@njit(cache=True, inline="always")
def _packs(kept):
    """PACK of the four lanes of ``kept``."""
    return PACK[kept & 0xFF], PACK[(kept >> 8) & 0xFF], PACK[(kept >> 16) & 0xFF], PACK[(kept >> 24) & 0xFF]


@njit(cache=True, inline="always")
def _terms(a, b, c, d):
    """From PACK of the kept hand's four lanes: its point key (cards * 128 + value), longest run,
    second-longest suit, suits emptied and rank counts (SPREAD's fields); branch-free."""
    point = max(max(a, b), max(c, d)) >> 32
    longest = max(max((a >> 24) & 15, (b >> 24) & 15), max((c >> 24) & 15, (d >> 24) & 15))
    ma = a >> 39  # the lane's cards: its point key >> 7
    mb = b >> 39
    mc = c >> 39
    md = d >> 39
    # The second largest of four: the larger of the two pairs' smaller, and the smaller of their larger.
    hi1 = max(ma, mb)
    hi2 = max(mc, md)
    second = max(min(hi1, hi2), max(min(ma, mb), min(mc, md)))
    emptied = (ma == 0) + (mb == 0) + (mc == 0) + (md == 0)
    counts = (a + b + c + d) & 0xFFFFFF
    return point, longest, second, emptied, counts


@njit(cache=True)
def kept_features(kept, thrown, row):
    """psi(K, D) into row[0:N_KEPT] (kept hand K, thrown cards D)."""
    row[:] = 0
    a, b, c, d = _packs(kept)
    point, longest, second, emptied, _ = _terms(a, b, c, d)
    n = point >> 7
    row[n] = 1
    row[9 + n] = (point & 127) - 40
    row[18 + longest] = 1
    for r in range(3, 8):
        held = popcount((kept >> r) & COLUMN)
        if held >= 2:
            row[27 + 3 * (r - 3) + held - 2] = 1
    row[42 + second] = 1
    row[51] = emptied
    row[52 + popcount(_lane_mask(thrown))] = 1
    for s in range(4):
        row[SUIT_KEPT_AT + ((kept >> (8 * s)) & 0xFF)] += 1


@njit(cache=True, inline="always")
def _packed_score(a, b, c, d, suits, touched, table, t0):
    """w2 . psi(K, D) from PACK of K's four lanes, the sum of K's lanes' suit-kept weights
    (``suits``) and the number of suits D comes from: five lookups in the model's tables."""
    point, longest, second, emptied, counts = _terms(a, b, c, d)
    total = table[t0 + POINT_TABLE + point] + table[t0 + RANKS_LOW + ((counts >> 9) & 511)]
    total += table[t0 + RANKS_HIGH + (counts >> 18)] + table[t0 + SHAPE + 25 * second + 5 * emptied + touched]
    return total + table[t0 + LONGEST + longest] + suits


@njit(cache=True, inline="always")
def _suits_kept(kept, table, t0):
    """The sum of the suit-kept weights of the four lanes of ``kept``."""
    at = t0 + SUIT_KEPT
    total = table[at + (kept & 0xFF)] + table[at + ((kept >> 8) & 0xFF)]
    return total + table[at + ((kept >> 16) & 0xFF)] + table[at + ((kept >> 24) & 0xFF)]


@njit(cache=True, inline="always")
def kept_score(kept, thrown, table, t0):
    """w2 . psi(K, D), the scorer's kept-hand part, without building psi (``learned_tables``' layout,
    the model's from ``t0``)."""
    a, b, c, d = _packs(kept)
    return _packed_score(a, b, c, d, _suits_kept(kept, table, t0), popcount(_lane_mask(thrown)), table, t0)


@njit(cache=True)
def kept_matrix(hand, thrown):
    """psi of every exchange ``thrown[o]`` (masks) of ``hand`` as an (options, N_KEPT) int64 matrix."""
    out = np.zeros((len(thrown), N_KEPT), dtype=np.int64)
    for o in range(len(thrown)):
        kept_features(hand & ~thrown[o], thrown[o], out[o])
    return out


@njit(cache=True, inline="always")
def card_index(lane, r):
    """The card of rank r in a suit holding ``lane`` (which has bit r): 128 * r + the other cards."""
    return 128 * r + (((lane >> (r + 1)) << r) | (lane & ((1 << r) - 1)))


@njit(cache=True, inline="always")
def card_utility(c, lanes, ps, long_point, counts, table, t0, part):
    """u(c) = w . phi(c) for card c of a hand (its lanes, point suit ps, whether the point has 5+
    cards, its rank counts as SPREAD's fields), from the model's tables (from ``t0``) of the ordering
    (``part`` 0) or the scorer (1): the suit-only part, the set part and the point-suit part,
    branch-free (``players.learned_features.lane_features`` and ``hand_features``)."""
    s = c >> 3
    r = c & 7
    u = table[t0 + SCORER_TABLE * part + card_index((lanes >> (8 * s)) & 0xFF, r)]
    u += table[t0 + SETS_HELD + 64 * part + 8 * r + ((counts >> (3 * r)) & 7)]
    return u + table[t0 + POINT_SUIT + 16 * part + 8 * long_point + r] * (s == ps)


@njit(cache=True, inline="always")
def size_bias(w, at, k, g0, g1, g2, g3, g4):
    """B[k] = b[k] + v[k] . g(H) of the part of ``w`` starting at ``at``."""
    v = at + N_FEATURES + N_COUNTS + N_G * k
    return w[at + N_FEATURES + k] + w[v] * g0 + w[v + 1] * g1 + w[v + 2] * g2 + w[v + 3] * g3 + w[v + 4] * g4


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
def _ordered(hand, ps, tables, t0, work, scorer):
    """The hand's cards as sort keys u0 * 64 + (63 - code) in work[0:n], highest u0 first (ties: the
    lower code first), and with ``scorer`` u1 by code in work[12 + code]; returns n."""
    long_point = popcount((hand >> (8 * ps)) & 0xFF) >= 5
    counts = SPREAD[hand & 0xFF] + SPREAD[(hand >> 8) & 0xFF] + SPREAD[(hand >> 16) & 0xFF] + SPREAD[hand >> 24]
    n = 0
    x = hand
    while x:
        c = lowest_bit(x)
        x &= x - 1
        work[n] = card_utility(c, hand, ps, long_point, counts, tables, t0, 0) * 64 + (63 - c)
        if scorer:
            work[12 + c] = card_utility(c, hand, ps, long_point, counts, tables, t0, 1)
        n += 1
    for i in range(n, 12):  # fewer cards than a dealt hand: keys below any card's, sorted last
        work[i] = -(1 << 31)
    for e in range(len(SORT_12)):  # the sorting network, branch-free
        a = work[SORT_12[e, 0]]
        b = work[SORT_12[e, 1]]
        work[SORT_12[e, 0]] = max(a, b)
        work[SORT_12[e, 1]] = min(a, b)
    return n


@njit(cache=True)
def ordering_discard(hand, lo, hi, weights, tables, model, work):
    """The ordering alone (``exchange=learned-ordering``): for each legal k the k cards of highest u0,
    then the k whose total plus B0[k] is highest (ties: the fewer cards); for an additive score this
    is the best of every legal exchange. ``work``: 12+ int32 slots."""
    base = model * MODEL_SIZE
    ps = point_suit(hand)
    n = _ordered(hand, ps, tables, TABLES * model, work, False)
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


@njit(cache=True, inline="always")
def _best_candidate(hand, lo, hi, n, work, tables, t0):
    """The scorer's best candidate and its score: every size's best by u0, whole or keeping one suit
    or one set whole. Each variant walks the order once; ties go to the fewer cards, then the
    earlier variant (``work`` as ``learned_discard`` fills it)."""
    best = 0
    best_value = -(1 << 62)
    best_rank = 1 << 30
    if lo == 0:
        best_value = work[44] + kept_score(hand, 0, tables, t0)
        best_rank = 0
    widest = _top(work, n, hi, 0)  # a variant that skips none of these cards is the plain candidate
    for e in range(10):
        if e == 0:
            avoid = 0
        elif e <= 4:
            avoid = 0xFF << (8 * (e - 1))
        else:
            avoid = COLUMN << (e - 2)  # ranks 10, J, Q, K, A (e = 5..9 -> rank 3..7)
            if popcount(hand & avoid) < 3:
                continue
        if e > 0 and (widest & avoid) == 0:
            continue
        d = 0
        m = 0
        skipped = 0
        additive = 0
        for i in range(n):
            if m == hi:
                break
            c = 63 - (work[i] & 63)
            if (avoid >> c) & 1:
                skipped += 1
                continue
            d |= 1 << c
            m += 1
            additive += work[12 + c]
            if m >= lo and (e == 0 or skipped > 0):  # else: the same cards as the plain candidate
                v = additive + work[44 + m - lo] + kept_score(hand & ~d, d, tables, t0)
                rank = 16 * m + e
                if v > best_value or (v == best_value and rank < best_rank):
                    best_value = v
                    best_rank = rank
                    best = d
    return best, best_value


@njit(cache=True, inline="always")
def _others(a, b, c, d, s):
    """What the kept part needs of the three lanes other than s (packs a, b, c, d): their largest
    pack, longest run, the two most cards, how many are empty and the sum of their packs."""
    a, b, c, d = (0 if s == 0 else a), (0 if s == 1 else b), (0 if s == 2 else c), (0 if s == 3 else d)
    top = max(max(a, b), max(c, d))
    longest = max(max((a >> 24) & 15, (b >> 24) & 15), max((c >> 24) & 15, (d >> 24) & 15))
    ma = a >> 39
    mb = b >> 39
    mc = c >> 39
    md = d >> 39
    first = max(max(ma, mb), max(mc, md))
    second = max(min(max(ma, mb), max(mc, md)), max(min(ma, mb), min(mc, md)))
    emptied = (ma == 0) + (mb == 0) + (mc == 0) + (md == 0) - 1
    return top, longest, first, second, emptied, a + b + c + d


@njit(cache=True, inline="always")
def _score_with_lane(x, top, longest, first, second, emptied, rest, suits, touched, table, t0):
    """The kept part when one lane's pack is x and the other three are summed up by ``_others``
    (``_packed_score``'s five lookups; ``suits``: the four lanes' suit-kept weights)."""
    point = max(top, x) >> 32
    longest = max(longest, (x >> 24) & 15)
    m = x >> 39
    second = max(min(m, first), second)
    counts = (rest + x) & 0xFFFFFF
    total = table[t0 + POINT_TABLE + point] + table[t0 + RANKS_LOW + ((counts >> 9) & 511)]
    total += table[t0 + RANKS_HIGH + (counts >> 18)] + table[t0 + SHAPE + 25 * second + 5 * (emptied + (m == 0)) + touched]
    return total + table[t0 + LONGEST + longest] + suits


@njit(cache=True, inline="always")
def _first_better(lane, cards, s, packs, base, suits, lanes, best_value, work, tables, t0):
    """The first of ``cards`` (ascending) that, thrown from suit s's kept ``lane`` (the kept hand's
    four suit packs; its suit-kept sum ``suits``; the suits thrown from before, ``lanes``), scores
    above ``best_value``: its rank, score and additive part (``base`` + its u1); rank -1 if none."""
    a, b, c, d = packs
    top, longest, first, second, emptied, rest = _others(a, b, c, d, s)
    touched = popcount(lanes | (1 << s))
    suits -= tables[t0 + SUIT_KEPT + lane]
    while cards:
        r = lowest_bit(cards)
        cards &= cards - 1
        w = lane & ~(1 << r)
        additive = base + work[12 + 8 * s + r]
        v = additive + _score_with_lane(PACK[w], top, longest, first, second, emptied, rest,
                                        suits + tables[t0 + SUIT_KEPT + w], touched, tables, t0)
        if v > best_value:
            return r, v, additive
    return -1, 0, 0


@njit(cache=True, inline="always")
def _climb(hand, lo, hi, best, best_value, work, tables, t0):
    """First-improvement moves from ``best`` while the score rises (at most MAX_MOVES): for each
    thrown card a swap with each kept card, then throwing it no more; then throwing one more. The
    additive part of the score changes by the cards moved and the size's bias only; the kept part is
    worked out from the kept hand's packs, one suit's lane at a time (``_first_better``)."""
    base_value = best_value - kept_score(hand & ~best, best, tables, t0)
    sk = t0 + SUIT_KEPT
    for _ in range(MAX_MOVES):
        k = popcount(best)
        kept0 = hand & ~best
        qa, qb, qc, qd = _packs(kept0)
        suits0 = _suits_kept(kept0, tables, t0)
        moved = False
        thrown = best
        while thrown:
            i = lowest_bit(thrown)
            thrown &= thrown - 1
            ai = base_value - work[12 + i]
            si = i >> 3
            lane_i = (kept0 >> (8 * si)) & 0xFF
            back = lane_i | (1 << (i & 7))  # card i kept again: only its suit's lane changes
            x = PACK[back]
            pa, pb, pc, pd = (x if si == 0 else qa), (x if si == 1 else qb), (x if si == 2 else qc), (x if si == 3 else qd)
            suits = suits0 + tables[sk + back] - tables[sk + lane_i]
            lanes = _lane_mask(best ^ (1 << i))
            for sj in range(4):
                lane = back if sj == si else (kept0 >> (8 * sj)) & 0xFF
                if lane:
                    rj, v, a = _first_better(lane, (kept0 >> (8 * sj)) & 0xFF, sj, (pa, pb, pc, pd), ai, suits, lanes,
                                             best_value, work, tables, t0)
                    if rj >= 0:
                        moved = True
                        d = best ^ (1 << i) ^ (1 << (8 * sj + rj))
                        break
            if moved:
                break
            if k > lo:
                a = ai - work[44 + k - lo] + work[43 + k - lo]
                v = a + _packed_score(pa, pb, pc, pd, suits, popcount(lanes), tables, t0)
                if v > best_value:
                    moved = True
                    d = best ^ (1 << i)
                    break
        if k < hi and not moved:
            lanes = _lane_mask(best)
            a0 = base_value - work[44 + k - lo] + work[45 + k - lo]
            for sj in range(4):
                lane = (kept0 >> (8 * sj)) & 0xFF
                if lane:
                    rj, v, a = _first_better(lane, lane, sj, (qa, qb, qc, qd), a0, suits0, lanes, best_value, work,
                                             tables, t0)
                    if rj >= 0:
                        moved = True
                        d = best | (1 << (8 * sj + rj))
                        break
        if not moved:
            break
        best, best_value, base_value = d, v, a
    return best


@njit(cache=True)
def learned_discard(hand, lo, hi, weights, tables, model, work):
    """The learned exchange of lo..hi cards (module docstring). ``tables``: ``learned_tables``;
    ``work``: 64 int32 slots (sort keys, then u1 by code from slot 12, then B1[k] from 44 + k - lo)."""
    at = model * MODEL_SIZE + ORDER_SIZE
    t0 = TABLES * model
    ps = point_suit(hand)
    n = _ordered(hand, ps, tables, t0, work, True)
    g0, g1, g2, g3, g4 = count_terms(hand, ps)
    for k in range(lo, hi + 1):
        work[44 + k - lo] = size_bias(weights, at, k, g0, g1, g2, g3, g4)
    best, best_value = _best_candidate(hand, lo, hi, n, work, tables, t0)
    return _climb(hand, lo, hi, best, best_value, work, tables, t0) if hi >= SEARCH_FROM else best


@njit(cache=True)
def learned_tables(weights, parts=2):
    """For every model (``weights``: N_MODELS * MODEL_SIZE ints), from TABLES * model: the tables the
    choice reads (their layout: the docstring under SCORER_TABLE); ``parts`` 1: the ordering's only, for
    learned-ordering."""
    table = np.zeros(TABLES * N_MODELS, dtype=np.int32)
    row = np.zeros(N_LANE, dtype=np.int64)
    for m in range(N_MODELS):
        t0 = TABLES * m
        for part in range(parts):
            at = m * MODEL_SIZE + part * ORDER_SIZE
            w = weights[at:at + N_LANE]
            for lane in range(1, 256):
                for r in range(8):
                    if (lane >> r) & 1:
                        lane_features(lane, r, row)
                        table[t0 + SCORER_TABLE * part + card_index(lane, r)] = np.sum(row * w)
            for r in range(3, 8):
                for held in range(2, 5):
                    table[t0 + SETS_HELD + 64 * part + 8 * r + held] = weights[at + N_LANE + 9 + 5 * (held - 2) + r - 3]
            for r in range(8):
                table[t0 + POINT_SUIT + 16 * part + r] = weights[at + N_LANE + r]
                table[t0 + POINT_SUIT + 16 * part + 8 + r] = weights[at + N_LANE + r] + weights[at + N_LANE + 8]
        if parts < 2:
            continue
        kat = m * MODEL_SIZE + 2 * ORDER_SIZE
        for n in range(9):
            table[t0 + LONGEST + n] = weights[kat + 18 + n]
        for lane in range(256):
            table[t0 + SUIT_KEPT + lane] = weights[kat + SUIT_KEPT_AT + lane]
        for shape in range(9 * 5 * 5):
            second, emptied, touched = shape // 25, shape // 5 % 5, shape % 5
            table[t0 + SHAPE + shape] = weights[kat + 42 + second] + weights[kat + 51] * emptied + weights[kat + 52 + touched]
        for key in range(9 * 128):
            table[t0 + POINT_TABLE + key] = weights[kat + (key >> 7)] + weights[kat + 9 + (key >> 7)] * ((key & 127) - 40)
        for fields in range(512):  # ranks 10, J, Q: 3 bits each; K, A: the first 6 bits
            for r in range(3, 8):
                held = (fields >> (3 * (r - 3 if r < 6 else r - 6))) & 7
                if r >= 6 and fields >= 64 or not 2 <= held <= 4:
                    continue
                table[t0 + (RANKS_LOW if r < 6 else RANKS_HIGH) + fields] += weights[kat + 27 + 3 * (r - 3) + held - 2]
    return table


# ------------------------------------------------------------------- the shipped weights
WEIGHTS_FILE = pathlib.Path(__file__).resolve().parents[1] / "data" / "learned_exchange.json"


def load_weights(path: pathlib.Path = WEIGHTS_FILE) -> np.ndarray:
    """The shipped integer weights: (seats, models, MODEL_SIZE), seat 0 elder (a copy)."""
    return _weights(str(path), path.stat().st_mtime_ns).copy()


@lru_cache(maxsize=4)
def _weights(path: str, mtime: int) -> np.ndarray:
    data = json.loads(pathlib.Path(path).read_text())
    out = np.zeros((2, len(MODELS), MODEL_SIZE), dtype=np.int64)
    for m, name in enumerate(MODELS):
        for s, seat in enumerate(("elder", "younger")):
            out[s, m] = data["models"][name][seat]["weights"]
    return out

"""Melds in the Bezique kernel (BZ-MELD, BZ-VALUES, BZ-REUSE, BZ-DOUBLE): the legal melds of a
position, listed as the reference lists them, and the heuristic's choice among them.

``legal_melds`` writes rows ``(kind, cards, hand cards)`` of ``ms``; ``fo`` (face options) and
``nopt`` (their counts, then an odometer) are its scratch arrays (``players.trick_loop.new_scratch``).
The meld kinds ``K_*`` are in ``layout``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import (
    ACE,
    COL32,
    JACK,
    JD,
    KING,
    QS,
    QUEEN,
    bit,
    both_copies,
    count32,
    faces_of,
)
from analysis.bezique.engine.layout import (
    K_BEZIQUE,
    K_DOUBLE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_MARRIAGE,
    K_ROYAL,
    K_SEQUENCE,
    N_KINDS,
    S_HAND,
    S_KINDS,
    S_PLAYED,
    S_TABLE,
    S_USED,
)
from analysis.bezique.rules import R_DOUBLE_AFTER_SINGLE, R_MARRIAGE, R_REUSE_EITHER_ORDER
from analysis.bits import lowest_bit, popcount

MAX_MELDS = 256


@njit(cache=True, inline="always")
def meld_value(rules, kind):
    """BZ-VALUES: rules slots R_MARRIAGE.. hold marriage, royal, sequence, bezique, double, then
    the fours from aces down to jacks (KINDS lists them from jacks up)."""
    if kind < 5:
        return rules[R_MARRIAGE + kind]
    return rules[R_MARRIAGE + 13 - kind]


@njit(cache=True, inline="always")
def class_mask(kind):
    if kind < 3:
        return 7
    if kind < 5:
        return 24
    return 480


@njit(cache=True, inline="always")
def eligible(used, kind, either, das):
    """BZ-REUSE, BZ-DOUBLE: may a table card used in the kinds ``used`` join a meld of ``kind``?"""
    same = used & class_mask(kind)
    if same == 0:
        return True
    if kind == K_SEQUENCE and same == (1 << K_ROYAL):
        return True
    if kind == K_ROYAL and same == (1 << K_SEQUENCE) and either:
        return True
    return kind == K_DOUBLE and same == (1 << K_BEZIQUE) and das != 0


@njit(cache=True, _nrt=False)
def face_options(f, lo, hi, hand, table, S, kind, either, das, fo, i):
    """The ways to take ``lo..hi`` cards of face ``f`` for a meld of ``kind`` (hand copies lowest
    code first, eligible table copies in table order); row i of fo[0] (cards), fo[1] (hand cards),
    fo[2] (count). Returns the number of ways."""
    h1 = -1
    h2 = -1
    if (hand >> f) & 1:
        h1 = f
    if (hand >> (f + 32)) & 1:
        if h1 < 0:
            h1 = f + 32
        else:
            h2 = f + 32
    # Table copies in table order (the most used first, ties lower code), eligible ones only.
    a = f if (table >> f) & 1 else -1
    b = f + 32 if (table >> (f + 32)) & 1 else -1
    if a >= 0 and b >= 0 and popcount(S[S_KINDS + b]) > popcount(S[S_KINDS + a]):
        a, b = b, a
    elif a < 0:
        a, b = b, -1
    e1 = -1
    e2 = -1
    if a >= 0 and eligible(S[S_KINDS + a], kind, either, das):
        e1 = a
    if b >= 0 and eligible(S[S_KINDS + b], kind, either, das):
        if e1 < 0:
            e1 = b
        else:
            e2 = b
    k = 0
    for need in range(lo, hi + 1):
        if need == 0:
            fo[0, i, k] = 0
            fo[1, i, k] = 0
            fo[2, i, k] = 0
            k += 1
        elif need == 1:
            if h1 >= 0:
                fo[0, i, k] = bit(h1)
                fo[1, i, k] = bit(h1)
                fo[2, i, k] = 1
                k += 1
            if e1 >= 0:
                fo[0, i, k] = bit(e1)
                fo[1, i, k] = 0
                fo[2, i, k] = 1
                k += 1
        else:
            if h2 >= 0:
                fo[0, i, k] = bit(h1) | bit(h2)
                fo[1, i, k] = fo[0, i, k]
                fo[2, i, k] = 2
                k += 1
            elif h1 >= 0 and e1 >= 0:
                fo[0, i, k] = bit(h1) | bit(e1)
                fo[1, i, k] = bit(h1)
                fo[2, i, k] = 2
                k += 1
            elif h1 < 0 and e2 >= 0:
                fo[0, i, k] = bit(e1) | bit(e2)
                fo[1, i, k] = 0
                fo[2, i, k] = 2
                k += 1
    return k


@njit(cache=True, _nrt=False)
def add_kind(kind, nf, total, fo, nopt, either, S, ms, n):
    """Every combination of the faces' options (``total`` cards in all when >= 0) that adds a
    hand card or is a seed-de royal marriage of two sequence cards: appended to ms from row n."""
    idx = nopt[5:]  # the odometer: face i's option, face 0 turning fastest
    for i in range(nf):
        if nopt[i] == 0:
            return n
        idx[i] = 0
    more = True
    while more:
        cards = 0
        hand = 0
        cnt = 0
        for i in range(nf):
            j = idx[i]
            cards |= fo[0, i, j]
            hand |= fo[1, i, j]
            cnt += fo[2, i, j]
        i = 0
        while i < nf:
            idx[i] += 1
            if idx[i] < nopt[i]:
                break
            idx[i] = 0
            i += 1
        more = i < nf
        if total >= 0 and cnt != total:
            continue
        if hand == 0:
            if not (kind == K_ROYAL and either):
                continue
            ok = True
            y = cards
            while y != 0:
                c = lowest_bit(y)
                y &= y - 1
                if (S[S_KINDS + c] & (1 << K_SEQUENCE)) == 0:
                    ok = False
            if not ok:
                continue
        ms[0, n] = kind
        ms[1, n] = cards
        ms[2, n] = hand
        n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_melds(seat, S, trump, rules, ms, fo, nopt):
    """BZ-MELD: the melds the player may lay now, as rows of ms (kind, cards, hand cards), grouped
    by kind in KINDS order (not sorted within a kind: see ``sort_melds``). Returns their number."""
    # Typed values, not literals: numba compiles a callee once per literal value it is passed, so
    # face_options and add_kind would be compiled again for every call site's constants.
    i0, i1, i2, i4, none = np.int64(0), np.int64(1), np.int64(2), np.int64(4), np.int64(-1)
    k_marriage, k_royal, k_sequence = np.int64(K_MARRIAGE), np.int64(K_ROYAL), np.int64(K_SEQUENCE)
    k_bezique, k_double, qs, jd = np.int64(K_BEZIQUE), np.int64(K_DOUBLE), np.int64(QS), np.int64(JD)
    hand = S[S_HAND + seat]
    table = S[S_TABLE + seat]
    either = rules[R_REUSE_EITHER_ORDER] != 0
    das = rules[R_DOUBLE_AFTER_SINGLE]
    # A meld needs its faces among the hand and the table cards eligible for its kind (BZ-REUSE,
    # BZ-DOUBLE, as in ``eligible``) and, but for a seed-de royal marriage, a face in hand: kinds
    # failing that are skipped before their options are listed.
    hf = faces_of(hand)
    u = S[S_USED:S_USED + N_KINDS]
    in_class0 = u[K_MARRIAGE] | u[K_ROYAL] | u[K_SEQUENCE]
    n = i0
    af = hf | faces_of(table & ~in_class0)
    # Per suit at its queen's bit: king and queen among those faces, one of them in hand.
    pairs = af & (af >> 1) & (hf | (hf >> 1)) & (COL32 << QUEEN) & ~(1 << (8 * trump + QUEEN))
    while pairs != 0:
        s = lowest_bit(pairs) >> 3
        pairs &= pairs - 1
        nopt[0] = face_options(8 * s + KING, i1, i1, hand, table, S, k_marriage, either, das, fo, i0)
        nopt[1] = face_options(8 * s + QUEEN, i1, i1, hand, table, S, k_marriage, either, das, fo, i1)
        n = add_kind(k_marriage, i2, none, fo, nopt, either, S, ms, n)
    t8 = 8 * trump
    kq = (1 << (t8 + KING)) | (1 << (t8 + QUEEN))
    af = hf | faces_of(table & ~(u[K_MARRIAGE] | u[K_ROYAL] | (0 if either else u[K_SEQUENCE])))
    if (af & kq) == kq and ((hf & kq) != 0 or either):
        nopt[0] = face_options(t8 + KING, i1, i1, hand, table, S, k_royal, either, das, fo, i0)
        nopt[1] = face_options(t8 + QUEEN, i1, i1, hand, table, S, k_royal, either, das, fo, i1)
        n = add_kind(k_royal, i2, none, fo, nopt, either, S, ms, n)
    seq = 0xF8 << t8
    af = hf | faces_of(table & ~(u[K_MARRIAGE] | u[K_SEQUENCE]))
    if (af & seq) == seq and (hf & seq) != 0:
        for i in range(5):
            nopt[i] = face_options(t8 + 7 - i, i1, i1, hand, table, S, k_sequence, either, das, fo, np.int64(i))
        n = add_kind(k_sequence, np.int64(5), none, fo, nopt, either, S, ms, n)
    bz = (1 << QS) | (1 << JD)
    if (hf & bz) != 0:
        af = hf | faces_of(table & ~(u[K_BEZIQUE] | u[K_DOUBLE]))
        if (af & bz) == bz:
            nopt[0] = face_options(qs, i1, i1, hand, table, S, k_bezique, either, das, fo, i0)
            nopt[1] = face_options(jd, i1, i1, hand, table, S, k_bezique, either, das, fo, i1)
            n = add_kind(k_bezique, i2, none, fo, nopt, either, S, ms, n)
        pool = hand | (table & ~(u[K_DOUBLE] | (0 if das else u[K_BEZIQUE])))
        if count32(pool, bz) == 4:
            nopt[0] = face_options(qs, i2, i2, hand, table, S, k_double, either, das, fo, i0)
            nopt[1] = face_options(jd, i2, i2, hand, table, S, k_double, either, das, fo, i1)
            n = add_kind(k_double, i2, none, fo, nopt, either, S, ms, n)
    pool = hand | (table & ~(u[K_FOUR_JACKS] | u[K_FOUR_QUEENS] | u[K_FOUR_KINGS] | u[K_FOUR_ACES]))
    for kind in range(K_FOUR_JACKS, N_KINDS):
        r = ACE if kind == K_FOUR_ACES else JACK + kind - K_FOUR_JACKS
        if popcount(pool & both_copies(COL32 << r)) < 4 or (hf & (COL32 << r)) == 0:
            continue
        for s in range(4):
            nopt[s] = face_options(8 * s + r, i0, i2, hand, table, S, np.int64(kind), either, das, fo, np.int64(s))
        n = add_kind(np.int64(kind), i4, i4, fo, nopt, either, S, ms, n)
    return n


@njit(cache=True, inline="always")
def cards_before(a, b):
    """Ascending code tuples of two equal-sized card sets: is a's before b's?"""
    d = a ^ b
    return (a & d & -d) != 0


@njit(cache=True, _nrt=False)
def sort_melds(ms, n, order):
    """order[0..n-1]: the melds in legal_melds order (kind, then ascending cards)."""
    for i in range(n):
        j = i
        while j > 0:
            o = order[j - 1]
            if ms[0, o] < ms[0, i] or (ms[0, o] == ms[0, i] and cards_before(ms[1, o], ms[1, i])):
                break
            order[j] = o
            j -= 1
        order[j] = i


@njit(cache=True, _nrt=False)
def double_possible(seat, S, das):
    """BZ-T5: no Q♠ or J♦ played or on the opponent's table, and (seed-de) none of his own used in
    a single bezique."""
    bz = both_copies((1 << QS) | (1 << JD))
    if (S[S_PLAYED] & bz) != 0 or (S[S_TABLE + 1 - seat] & bz) != 0:
        return False
    if das:
        return True
    y = S[S_TABLE + seat] & bz
    while y != 0:
        c = lowest_bit(y)
        y &= y - 1
        if S[S_KINDS + c] & (1 << K_BEZIQUE):
            return False
    return True

"""Exact solver of Bezique's end game (BZ-END, BZ-BRISQUE, BZ-LAST), in numba.

When the stock is exhausted each player knows the other's hand (every card not in his hand and
not yet played), so the last tricks are a perfect-information zero-sum game. A position is taken
at the start of a trick: the leader's and the follower's hands, of equal size 1..8. Its value is
the **leader's points from the remaining tricks minus the follower's** (``brisque`` for each ace
and ten won, ``last`` for the last trick), with both playing best.

Representation: a hand is a 64-bit mask in *canonical* form, bit ``f`` set when the hand holds the
face ``f`` (``code & 31``), bit ``f + 32`` when it holds both copies. Copies are interchangeable
in the end game (the one played first wins a tie, whichever copy it is), so this loses nothing.

The search is fail-soft alpha-beta over whole tricks (negamax on the leader's value), with
- equivalent cards tried once: two faces of one hand in one suit, both brisques or both not,
  with no face of the other hand ranked between them or equal to either, win, lose and score alike
  (the card led counts as the leader's while the follower chooses);
- a bound from the points still in play (the value lies within +- their sum);
- a transposition table of exact positions (both hands and the rules' meta), kept across solves:
  an entry stays valid for ever, so a deal's successive decisions reuse the earlier searches;
- the one-card position scored directly; the table's best lead tried first, then winners.

The players' decisions and the benchmark's positions are in :mod:`analysis.bezique.players.solver_play`;
the plain-Python brute force it is tested against is :mod:`analysis.bezique.reference.solver`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, popcount

INF = 1 << 20
LOW32 = 0xFFFFFFFF
BRISQUE_FACES = 0xC0C0C0C0  # tens and aces of every suit
TT_BITS = 18
ST_NODES = 0  # column of the counters' row
_H1 = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # odd multipliers of the table's hash (as int64)
_H2 = np.int64(0xC2B2AE3D27D4EB4F - (1 << 64))


@njit(cache=True)
def new_table(bits):
    """A transposition table of 2**bits entries, one row each: leader, follower, meta (the rules
    and trump) and the packed bounds and best lead (``_pack``); one more row at the end holds the
    search's counters (``ST_*``). One array, so the recursion passes one reference."""
    n = 1 << bits
    tt = np.zeros((n + 1, 4), dtype=np.int64)
    tt[:n, 2] = -1  # no meta matches: the table starts empty
    return tt


@njit(cache=True, inline="always")
def _pack(lo, hi, face):
    """Lower and upper bound (|v| < 2**20) and the best lead's face (-1..31) in one int64."""
    return (lo + INF) | ((hi + INF) << 21) | ((face + 1) << 42)


@njit(cache=True, inline="always")
def nodes(tt):
    """The positions searched with this table so far."""
    return tt[tt.shape[0] - 1, ST_NODES]


@njit(cache=True, inline="always")
def canonical(h):
    """A 64-bit card mask (any copies) in canonical form."""
    lo = h & LOW32
    hi = (h >> 32) & LOW32
    return (lo | hi) | ((lo & hi) << 32)


@njit(cache=True, inline="always")
def remove_face(h, f):
    """The canonical hand without one copy of face ``f``."""
    b = np.int64(1) << np.int64(f + 32)
    if h & b:
        return h & ~b
    return h & ~(np.int64(1) << np.int64(f))


@njit(cache=True, inline="always")
def points_in(h, brisque):
    """The brisque points of a canonical hand (copies counted)."""
    return brisque * (popcount(h & BRISQUE_FACES) + popcount((h >> 32) & BRISQUE_FACES))


@njit(cache=True, inline="always")
def legal_faces(faces, led, trump, must):
    """BZ-END: the faces (32-bit mask) the follower may play to face ``led``."""
    s = (led >> 3) & 3
    suited = faces & (0xFF << (8 * s))
    if suited != 0:
        if must:
            higher = suited & (((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * s))
            if higher != 0:
                return higher
        return suited
    trumps = faces & (0xFF << (8 * trump))
    if trumps != 0:
        return trumps
    return faces


@njit(cache=True, inline="always")
def follower_wins(led, fol, trump):
    """A higher card of the suit led, or a trump to another suit; a tie goes to the card led."""
    if ((fol ^ led) >> 3) & 3 == 0:
        return (fol & 7) > (led & 7)
    return (fol >> 3) & 3 == trump


@njit(cache=True, inline="always")
def distinct(own, other):
    """The faces of ``own`` (32-bit) with equivalent ones dropped: in each suit, a face is kept
    unless the one below it that was kept is equivalent (same brisque class, and no face of
    ``other`` ranked from the lower up to this one inclusive)."""
    out = 0
    for s in range(4):
        lane = (own >> (8 * s)) & 0xFF
        opp = (other >> (8 * s)) & 0xFF
        prev = -1
        while lane != 0:
            r = lowest_bit(lane)
            lane &= lane - 1
            if prev >= 0 and (prev >= 6) == (r >= 6):
                between = ((0xFF << prev) & (0xFF >> (7 - r))) & 0xFF
                if opp & between == 0:
                    continue  # equivalent to the kept face below
            out |= 1 << (8 * s + r)
            prev = r
    return out


@njit(cache=True, inline="always")
def _slot(L, F, meta, n):
    """The table slot of a position (``n`` a power of two)."""
    return ((L * _H1 + F * _H2 + meta) >> 17) & (n - 1)


@njit(cache=True, inline="always")
def _last(lf, ff, trump, brisque, last):
    """The leader's value of the one-card position (faces ``lf`` and ``ff``)."""
    led = lowest_bit(lf)
    f = lowest_bit(ff)
    pts = brisque * (((led & 7) >= 6) + ((f & 7) >= 6)) + last
    return -pts if follower_wins(led, f, trump) else pts


@njit(cache=True)
def _two(L, F, trump, must, brisque, last):
    """The leader's exact value of a two-card position, by enumeration (no table, no recursion)."""
    lf = L & LOW32
    ff = F & LOW32
    best = -INF
    leads = lf
    while leads != 0:
        led = lowest_bit(leads)
        leads &= leads - 1
        L2 = remove_face(L, led) & LOW32
        opts = legal_faces(ff, led, trump, must)
        worst = INF
        while opts != 0:
            fol = lowest_bit(opts)
            opts &= opts - 1
            F2 = remove_face(F, fol) & LOW32
            pts = brisque * (((led & 7) >= 6) + ((fol & 7) >= 6))
            if follower_wins(led, fol, trump):
                v = -(pts + _last(F2, L2, trump, brisque, last))
            else:
                v = pts + _last(L2, F2, trump, brisque, last)
            if v < worst:
                worst = v
        if worst > best:
            best = worst
    return best


@njit(cache=True, inline="always")
def next_reply(opts, led, trump):
    """The follower's next reply to try: his cheapest winner, else his lowest card."""
    rest = opts
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        if follower_wins(led, c, trump):
            return c
    return lowest_bit(opts)


@njit(cache=True, inline="always")
def winners(leads, ff, trump):
    """The faces of ``leads`` no legal reply from the follower's faces ``ff`` can beat."""
    out = 0
    for s in range(4):
        lane = (leads >> (8 * s)) & 0xFF
        if lane == 0:
            continue
        opp = (ff >> (8 * s)) & 0xFF
        if opp == 0 and s != trump and (ff >> (8 * trump)) & 0xFF:
            continue  # he is void and trumps
        top = highest_bit(opp) if opp else -1
        out |= ((lane >> (top + 1)) << (top + 1)) << (8 * s)
    return out


@njit(cache=True)
def _value(L, F, trump, must, brisque, last, alpha, beta, tt, meta):
    """The leader's value of the position (fail-soft within (alpha, beta)). Every argument of the
    recursive calls is computed, never a constant, so the recursion stays in one compiled
    specialisation (numba's cache cannot link a recursive call to another): callers go through
    ``_root``."""
    tt[tt.shape[0] - 1, ST_NODES] += 1
    lf = L & LOW32
    ff = F & LOW32
    n = popcount(L)
    if n == 1:
        return _last(lf, ff, trump, brisque, last)
    if n == 2:
        return _two(L, F, trump, must, brisque, last)
    rem = points_in(L, brisque) + points_in(F, brisque) + last
    if rem <= alpha:
        return rem
    if -rem >= beta:
        return -rem
    slot = _slot(L, F, meta, tt.shape[0] - 1)
    hint = -1
    if tt[slot, 0] == L and tt[slot, 1] == F and tt[slot, 2] == meta:
        packed = tt[slot, 3]
        lo = (packed & 0x1FFFFF) - INF
        hi = ((packed >> 21) & 0x1FFFFF) - INF
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        hint = (packed >> 42) - 1
    a0 = alpha
    best = -INF
    best_face = -1
    leads = distinct(lf, ff)
    sure = winners(leads, ff, trump)
    for k in range(33):
        if k == 0:
            if hint < 0 or (leads >> hint) & 1 == 0:
                continue
            led = hint
        else:
            if leads == 0:
                break
            # the cards the follower cannot beat first, then the others, high cards first
            led = highest_bit(leads & sure) if leads & sure else highest_bit(leads)
            if led == hint:
                leads &= ~(1 << led)
                continue
        leads &= ~(1 << led)
        L2 = remove_face(L, led)
        all_opts = distinct(legal_faces(ff, led, trump, must), lf)
        floor = alpha if alpha > best else best
        # Principal variation search: the first lead in the full window, the others first tested
        # in a null window above the best so far, searched again only when they pass it.
        top = beta if best_face < 0 or floor + 1 >= beta else floor + 1
        while True:
            opts = all_opts
            v_lead = INF
            while opts != 0:
                fol = next_reply(opts, led, trump)
                opts &= ~(1 << fol)
                pts = brisque * (((led & 7) >= 6) + ((fol & 7) >= 6))
                F2 = remove_face(F, fol)
                cap = top if top < v_lead else v_lead
                if follower_wins(led, fol, trump):
                    v = -(pts + _value(F2, L2, trump, must, brisque, last, -cap - pts, -floor - pts, tt, meta))
                else:
                    v = pts + _value(L2, F2, trump, must, brisque, last, floor - pts, cap - pts, tt, meta)
                if v < v_lead:
                    v_lead = v
                if v_lead <= floor:
                    break
            if v_lead <= floor or top >= beta:
                break
            top = beta  # it passed the null window: its value is wanted
        if v_lead > best:
            best = v_lead
            best_face = led
        if best >= beta:
            break
    tt[slot, 0] = L
    tt[slot, 1] = F
    tt[slot, 2] = meta
    tt[slot, 3] = _pack(best if best > a0 else -rem, best if best < beta else rem, best_face)
    return best


@njit(cache=True, inline="always")
def _root(L, F, trump, must, brisque, last, alpha, beta, tt):
    """``_value`` from an entry point, the scalars made plain int64 first (see ``_value``)."""
    meta = np.int64(trump + 4 * must + 8 * brisque + 8192 * last)
    return _value(np.int64(L), np.int64(F), np.int64(trump), np.int64(must), np.int64(brisque), np.int64(last),
                  np.int64(alpha), np.int64(beta), tt, meta)


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def solve_masks(L, F, trump, must, brisque, last, tt):
    """The leader's exact value of the position (canonical masks) and his best lead's face."""
    v = _root(L, F, trump, must, brisque, last, -INF, INF, tt)
    meta = np.int64(trump + 4 * must + 8 * brisque + 8192 * last)
    if popcount(L) > 2:
        return v, (tt[_slot(L, F, meta, tt.shape[0] - 1), 3] >> 42) - 1
    leads = L & LOW32  # one or two cards: searched without the table, so look the lead up
    while True:
        f = lowest_bit(leads)
        leads &= leads - 1
        if leads == 0 or lead_value(L, F, f, trump, must, brisque, last, tt) == v:
            return v, f


@njit(cache=True)
def after_follow(L, F, led, fol, trump, must, brisque, last, alpha, beta, tt):
    """The follower's value (his points minus the leader's, from this trick on; fail-soft within
    (alpha, beta)) when the leader has led face ``led`` (still in ``L``) and he plays face ``fol``."""
    L2 = remove_face(L, led)
    F2 = remove_face(F, fol)
    pts = brisque * (((led & 7) >= 6) + ((fol & 7) >= 6))
    if L2 == 0:
        pts += last
        return pts if follower_wins(led, fol, trump) else -pts
    if follower_wins(led, fol, trump):
        return pts + _root(F2, L2, trump, must, brisque, last, alpha - pts, beta - pts, tt)
    return -(pts + _root(L2, F2, trump, must, brisque, last, -beta - pts, -alpha - pts, tt))


@njit(cache=True)
def best_follow(L, F, led, trump, must, brisque, last, tt):
    """The follower's best legal face to face ``led`` (the lowest of the best) and his exact value
    with it. The best value is found first, trying the cheapest winners first (each later reply
    searched only for whether it does better); then the lower replies are tested in a null window
    for whether they reach it too."""
    all_opts = distinct(legal_faces(F & LOW32, led, trump, must), L & LOW32)
    opts = all_opts
    inf = np.int64(INF)  # typed: a literal would compile after_follow once more
    best = -inf
    face = -1
    while opts != 0:
        f = next_reply(opts, led, trump)
        opts &= ~(1 << f)
        v = after_follow(L, F, led, f, trump, must, brisque, last, best, inf, tt)
        if v > best:
            best = v
            face = f
    lower = all_opts & ((1 << face) - 1)
    while lower != 0:
        f = lowest_bit(lower)
        lower &= lower - 1
        if after_follow(L, F, led, f, trump, must, brisque, last, best - 1, best, tt) >= best:
            return f, best
    return face, best


@njit(cache=True)
def lead_value(L, F, led, trump, must, brisque, last, tt):
    """The leader's exact value when he leads face ``led``: the follower answers best."""
    return -best_follow(L, F, led, trump, must, brisque, last, tt)[1]

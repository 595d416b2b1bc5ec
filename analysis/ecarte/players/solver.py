"""Exact double-dummy solver for the trick play of Écarté (both hands known), in numba.

A position is taken at the start of a trick: the leader's and the follower's hands (int masks of
equal size, 1..5 cards), the trump suit, whether elder leads and the tricks elder has taken so far.
Play follows EC-FOLLOW exactly as ``kernel.legal_follows`` / ``kernel.beats`` implement it (with
the ``must_trump_when_void`` switch). The value of a position is **elder's net points from the
trick play** (elder's trick points minus the dealer's, EC-POINT / EC-PENALTY as scored by
``kernel.penalties`` / ``kernel.trick_points``): elder maximises it, the dealer minimises it.

What the hand's ending makes of each final trick count is fixed before the play starts, so it is
computed once per position as a *value table*: the net for elder's final tricks 0..5, packed into
one int64 (one byte per entry, see ``value_table``) so the search passes scalars only (no array
reference counting).

The search is alpha-beta over whole tricks (the leader's card, then the follower's), with
- equivalent cards tried once: two cards of one hand in the same suit with no card still in play
  between them win and lose against exactly the same cards (the card led counts as in play while
  the follower chooses);
- a cut-off from the value table: the values still reachable (elder's final tricks between his
  tricks so far and that plus the tricks left) bound the position, and a position whose reachable
  values are all equal is settled without search;
- the last two tricks solved directly (``_two_tricks``), without recursion.

The search is recursive; numba caches it as long as every recursive call has the argument types of
the function itself, which is why the entry points go through ``_root``.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, popcount
from analysis.ecarte.engine.tricks import beats, legal_follows, trick_points
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import below, stream_start

INF = 1 << 20
"""Larger than any net value (nets lie in -4..4)."""
_BIAS = 128  # a packed entry is value + _BIAS in one byte
MONOTONE = np.int64(1) << 56
"""Flag bit of a packed table whose values never decrease with elder's tricks (the usual case:
the values still reachable are then bounded by the two ends of the range, without a loop)."""


@njit(cache=True)
def value_table(pen_elder, pen_dealer, rules):
    """The packed value table: byte k holds elder's net trick points for k final tricks (+128);
    bit 56 (MONOTONE) is set when the values never decrease."""
    packed = np.int64(0)
    for k in range(6):
        ept, dpt = trick_points(k, pen_elder, pen_dealer, rules)
        packed |= np.int64(ept - dpt + _BIAS) << (8 * k)
    monotone = True
    for k in range(5):
        monotone &= table_value(packed, k) <= table_value(packed, k + 1)
    return packed | (MONOTONE if monotone else 0)


@njit(cache=True, inline="always")
def table_value(table, etricks):
    """Entry ``etricks`` of a packed value table."""
    return ((table >> (8 * etricks)) & 0xFF) - _BIAS


def unpack_table(table: int) -> list[int]:
    """The six values of a packed table (elder's final tricks 0..5), for Python callers."""
    return [((int(table) >> (8 * k)) & 0xFF) - _BIAS for k in range(6)]


@njit(cache=True, inline="always")
def run_tops(h, inplay):
    """One card (the highest) of each run of equivalent cards of ``h``: same suit and no card of
    ``inplay`` between them."""
    out = 0
    x = h
    while x:
        c = lowest_bit(x)
        x &= x - 1
        above = inplay & ~((2 << c) - 1) & (0xFF << (c & 24))
        if above == 0 or ((h >> lowest_bit(above)) & 1) == 0:
            out |= 1 << c
    return out


@njit(cache=True, inline="always")
def run_top(c, h, inplay):
    """The card representing ``c`` among ``h``: the highest card of c's run (see ``run_tops``)."""
    while True:
        above = inplay & ~((2 << c) - 1) & (0xFF << (c & 24))
        if above == 0:
            return c
        n = lowest_bit(above)
        if ((h >> n) & 1) == 0:
            return c
        c = n


@njit(cache=True, inline="always")
def _two_tricks(hl, hf, elder_leads, et, t, must, table):
    """Exact value of a position with two cards a hand (the last trick is forced): no recursion."""
    best = -INF if elder_leads else INF
    leads = run_tops(hl, hl | hf)
    while leads:
        led = lowest_bit(leads)
        leads &= leads - 1
        hl2 = hl & ~(1 << led)
        fols = run_tops(legal_follows(hf, led, t, must), hl2 | hf)
        v = INF if elder_leads else -INF
        while fols:
            fol = lowest_bit(fols)
            fols &= fols - 1
            hf2 = hf & ~(1 << fol)
            f_wins = beats(fol, led, t)
            e_next = elder_leads != f_wins  # elder leads the last trick iff he took this one
            nl = hf2 if f_wins else hl2
            nf = hl2 if f_wins else hf2
            e_last = e_next != beats(lowest_bit(nf), lowest_bit(nl), t)
            w = table_value(table, et + (1 if e_next else 0) + (1 if e_last else 0))
            v = min(v, w) if elder_leads else max(v, w)
        best = max(best, v) if elder_leads else min(best, v)
    return best


@njit(cache=True)
def _search(hl, hf, el, et, t, must, table, alpha, beta):
    """Alpha-beta value (elder's net) of a position at the start of a trick, within (alpha, beta).

    ``el`` is 1 when elder leads, else 0. Fail-soft: a value <= alpha is an upper bound, >= beta a
    lower bound, otherwise exact. Every argument of the recursive calls is computed (never a
    constant), so the recursion stays in one compiled specialisation (numba's cache cannot link
    a recursive call to another one)."""
    n = popcount(hl)
    lo = table_value(table, et)
    if table & MONOTONE:
        hi = table_value(table, et + n)
    else:
        hi = lo
        for k in range(et + 1, et + n + 1):
            v = table_value(table, k)
            lo = min(lo, v)
            hi = max(hi, v)
    if lo == hi or lo >= beta:
        return lo
    if hi <= alpha:
        return hi
    if n == 1:
        e_won = (el == 1) != beats(lowest_bit(hf), lowest_bit(hl), t)
        return table_value(table, et + (1 if e_won else 0))
    if n == 2:
        return _two_tricks(hl, hf, el == 1, et, t, must, table)
    leads = run_tops(hl, hl | hf)
    other = 1 - el
    best = -INF if el == 1 else INF
    tmask = 0xFF << (8 * t)
    while leads:
        # Plain cards before trumps, high before low (measured the fastest order: good moves
        # early make the cut-offs).
        pl = leads & ~tmask
        led = highest_bit(pl if pl else leads)
        leads &= ~(1 << led)
        hl2 = hl & ~(1 << led)
        legal = legal_follows(hf, led, t, must)
        fols = run_tops(legal, hl2 | hf | (1 << led))
        if el == 1:
            # Elder leads and maximises; the dealer's reply minimises within (a, beta).
            a = max(alpha, best)
            v = INF
            while fols:
                fol = lowest_bit(fols)
                fols &= fols - 1
                hf2 = hf & ~(1 << fol)
                if beats(fol, led, t):
                    child = _search(hf2, hl2, other, et, t, must, table, a, min(beta, v))
                else:
                    child = _search(hl2, hf2, el, et + 1, t, must, table, a, min(beta, v))
                v = min(v, child)
                if v <= a:
                    break
            best = max(best, v)
            if best >= beta:
                return best
        else:
            # The dealer leads and minimises; elder's reply maximises within (alpha, b).
            b = min(beta, best)
            v = -INF
            while fols:
                fol = lowest_bit(fols)
                fols &= fols - 1
                hf2 = hf & ~(1 << fol)
                if beats(fol, led, t):
                    child = _search(hf2, hl2, other, et + 1, t, must, table, max(alpha, v), b)
                else:
                    child = _search(hl2, hf2, el, et, t, must, table, max(alpha, v), b)
                v = max(v, child)
                if v >= b:
                    break
            best = min(best, v)
            if best <= alpha:
                return best
    return best


@njit(cache=True, inline="always")
def _root(hl, hf, elder_leads, et, t, must, table, alpha, beta):
    """``_search`` from an entry point: the arguments made plain int64 first (see ``_search``)."""
    el = np.int64(1) if elder_leads else np.int64(0)
    return _search(np.int64(hl), np.int64(hf), el, np.int64(et), np.int64(t), np.int64(must),
                   np.int64(table), np.int64(alpha), np.int64(beta))


@njit(cache=True, inline="always")
def value_after(leader, follower, led, fol, t, elder_leads, et, must, table, alpha, beta):
    """Value after ``fol`` is played to ``led`` (``leader`` without the card led), in a window."""
    hf2 = follower & ~(1 << fol)
    f_wins = beats(fol, led, t)
    if popcount(leader) == 0:
        return table_value(table, et + (1 if elder_leads != f_wins else 0))
    if f_wins:
        e_next = not elder_leads
        return _root(hf2, leader, e_next, et + (1 if e_next else 0), t, must, table, alpha, beta)
    return _root(leader, hf2, elder_leads, et + (1 if elder_leads else 0), t, must, table, alpha, beta)


@njit(cache=True)
def solve(leader, follower, trump, elder_leads, etricks, must_trump, table):
    """Exact double-dummy value of a position at the start of a trick: elder's net trick points.

    ``leader``/``follower``: the hands (masks of equal size 1..5); ``trump``: the trump suit;
    ``elder_leads``: True when elder is the leader; ``etricks``: elder's tricks so far (at most
    5 minus the cards in a hand); ``must_trump``: the EC-FOLLOW switch (rules slot
    R_MUST_TRUMP_WHEN_VOID); ``table``: ``value_table(pen_elder, pen_dealer, rules)``.
    """
    return _root(leader, follower, elder_leads, etricks, trump, must_trump, table, -INF, INF)


@njit(cache=True)
def lead_value(leader, follower, led, trump, elder_leads, etricks, must_trump, table):
    """Exact value (elder's net) of leading ``led`` from ``leader``: the follower replies best."""
    hl2 = leader & ~(1 << led)
    legal = legal_follows(follower, led, trump, must_trump)
    fols = run_tops(legal, hl2 | follower | (1 << led))
    v = INF if elder_leads else -INF
    while fols:
        fol = lowest_bit(fols)
        fols &= fols - 1
        # Only a reply better for the follower than v matters: a window that stops at v.
        if elder_leads:
            v = min(v, value_after(hl2, follower, led, fol, trump, elder_leads, etricks, must_trump, table, -INF, v))
        else:
            v = max(v, value_after(hl2, follower, led, fol, trump, elder_leads, etricks, must_trump, table, v, INF))
    return v


@njit(cache=True)
def follow_value(leader, follower, led, fol, trump, elder_leads, etricks, must_trump, table):
    """Exact value (elder's net) after the follower plays ``fol`` to ``led``.

    ``leader`` is the leader's hand without ``led``; ``follower`` still holds ``fol``."""
    return value_after(leader, follower, led, fol, trump, elder_leads, etricks, must_trump, table, -INF, INF)


@njit(cache=True)
def best_card(leader, follower, trump, elder_leads, etricks, must_trump, table):
    """(value, card): the double-dummy value of the position (as ``solve``) and a lead that
    achieves it (the highest of its run of equivalent cards)."""
    leads = run_tops(leader, leader | follower)
    best = -INF if elder_leads else INF
    card = -1
    while leads:
        led = highest_bit(leads)
        leads &= ~(1 << led)
        v = lead_value(leader, follower, led, trump, elder_leads, etricks, must_trump, table)
        if (elder_leads and v > best) or (not elder_leads and v < best):
            best = v
            card = led
    return best, card


@njit(cache=True)
def best_follow(leader, follower, led, trump, elder_leads, etricks, must_trump, table):
    """(value, card): the follower's best reply to ``led`` (``leader`` without the card led)."""
    legal = legal_follows(follower, led, trump, must_trump)
    fols = run_tops(legal, leader | follower | (1 << led))
    best = INF if elder_leads else -INF
    card = -1
    while fols:
        fol = lowest_bit(fols)
        fols &= fols - 1
        v = follow_value(leader, follower, led, fol, trump, elder_leads, etricks, must_trump, table)
        if (elder_leads and v < best) or (not elder_leads and v > best):
            best = v
            card = fol
    return best, card


@njit(cache=True)
def _random_positions(n, seed, size):
    """n random positions of ``size`` cards each: rows (leader, follower, trump, elder leads)."""
    out = np.empty((n, 4), dtype=np.int64)
    for i in range(n):
        st = stream_start(np.uint64(seed), np.uint64(i), np.uint64(0))
        taken = 0
        hands = np.zeros(2, dtype=np.int64)
        for k in range(2 * size):
            while True:
                st, c = below(st, 32)
                if not (taken >> c) & 1:
                    break
            taken |= 1 << c
            hands[k & 1] |= 1 << c
        st, tr = below(st, 4)
        st, el = below(st, 2)
        out[i, 0] = hands[0]
        out[i, 1] = hands[1]
        out[i, 2] = tr
        out[i, 3] = el
    return out


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def _solve_all(pos, must, table):
    """Solve every position of ``pos`` (from ``_random_positions``); returns the sum of values."""
    total = 0
    for i in range(pos.shape[0]):
        total += solve(pos[i, 0], pos[i, 1], pos[i, 2], pos[i, 3] == 1, np.int64(0), must, table)
    return total


def bench_solves(n: int = 20_000, seed: int = 1, rules=None, size: int = 5) -> float:
    """Solves per second of random positions of ``size`` cards a hand (one thread, seed-de
    scoring without penalty; elder has no tricks yet)."""
    from analysis.ecarte.rules import get_rules

    r = (rules or get_rules()).to_array()
    table = value_table(0, 0, r)
    pos = _random_positions(n, seed, size)
    _solve_all(pos[:2], r[R_MUST_TRUMP_WHEN_VOID], table)  # compile or load
    t0 = time.perf_counter()
    _solve_all(pos, r[R_MUST_TRUMP_WHEN_VOID], table)
    return n / (time.perf_counter() - t0)

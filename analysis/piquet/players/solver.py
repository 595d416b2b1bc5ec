"""Exact double-dummy solver for Piquet's trick play (both hands known), in numba.

A position: elder's and younger's cards (32-bit masks of equal size n, 1..12), who leads, the
tricks elder has won so far (younger's are 12 - n - elder's), and the pique state: elder's running
score while a pique is still possible (``pq`` 0..29), else -1. Its value is **elder's points from
here on minus younger's**: the trick points (PQ-TRICK in the rules' scoring, PQ-LAST), the cards or
capot on the final counts (PQ-CARDS) and a pique made in play (PQ-PIQUE), scored in the deal
kernel's event order (``play.deal.play_dealt``). Elder maximises it, younger minimises it.

The search is alpha-beta over single cards (a node is a trick's start or the follower's turn), with
- equivalent cards tried once: two cards of a hand in one suit with no card still in play between
  them win and lose against the same cards (the card led counts as in play while the follower
  chooses), so only the lowest card of each such group is searched (``group_lows``);
- a transposition table at trick starts keyed by the position's *shape*: each suit as the pattern of
  who holds its remaining cards from the lowest up (the ranks themselves no longer matter), the four
  suits sorted (there are no trumps, so suits are interchangeable), the leader, elder's tricks and
  the pique state. The key determines the value for given rules, so the table stays valid from one
  solve to the next (clear it when the rules change);
- good moves first: the leader's sure winners, then his high cards; the follower's cheapest winner,
  then his lowest card;
- the last trick played out directly.

The reference for all this is ``reference.solver.brute_force`` (every line of play), and the tests
compare them on random positions of every variant.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, popcount
from analysis.piquet.rules import R_CAPOT, R_CARDS_BONUS, R_LAST_TRICK, R_LEAD_POINTS_EVERY_TRICK, R_PIQUE

INF = 1 << 13
"""Larger than any value (values lie within about ±110)."""
PQ_CLOSED = -1
"""The pique state once no pique can be made any more."""

TT_BITS = 20
"""Transposition-table entries of ``new_memory()``: 2**TT_BITS (16 MB)."""
M_NODES = 0
"""The solver's memory (one int64 array, so that a kernel passes it as one argument): slot 0
counts the positions searched; slots M_PEXT.. hold PEXT8; entry i of the transposition table is
slots M_TABLE + 2i (the key, -1 when empty) and M_TABLE + 2i + 1 (the bounds, packed)."""
M_PEXT = 2
M_TABLE = M_PEXT + (1 << 16)
_EMPTY = -1
_OFFSET = 1 << 14  # a bound is stored as bound + _OFFSET in 16 bits
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def init_memory(mem):
    """Fill a solver memory: no positions counted, PEXT8 (PEXT8[r << 8 | e]: the bits of e at the
    set bits of r, packed from bit 0, i.e. pext on one lane) and an empty table."""
    mem[M_NODES] = 0
    for r in range(256):
        for e in range(256):
            out = 0
            i = 0
            for b in range(8):
                if (r >> b) & 1:
                    out |= ((e >> b) & 1) << i
                    i += 1
            mem[M_PEXT + ((r << 8) | e)] = out
    mem[M_TABLE:] = _EMPTY


def new_memory(bits: int = TT_BITS) -> np.ndarray:
    """The solver's memory with an empty transposition table of 2**bits entries. Its entries stay
    valid from one solve to the next under the same rules; use a new one for other rules."""
    m = np.empty(M_TABLE + (2 << bits), dtype=np.int64)
    init_memory(m)
    return m


@njit(cache=True, inline="always")
def table_bits(mem):
    """log2 of the number of entries of the memory's table."""
    return highest_bit((mem.shape[0] - M_TABLE) >> 1)


@njit(cache=True)
def pique_state(e_score: int, y_score: int, pique_done: bool) -> int:
    """PQ-PIQUE: elder's running score while a pique can still be made, else PQ_CLOSED (younger has
    scored, the pique was made, or elder already had 30, which was a repique or a pique)."""
    return e_score if (not pique_done and y_score == 0 and e_score < 30) else PQ_CLOSED


@njit(cache=True, inline="always")
def cards_value(ewon, rules):
    """PQ-CARDS on the final counts: elder's cards or capot minus younger's."""
    if ewon == 12:
        return rules[R_CAPOT]
    if ewon == 0:
        return -rules[R_CAPOT]
    if ewon >= 7:
        return rules[R_CARDS_BONUS]
    if ewon <= 5:
        return -rules[R_CARDS_BONUS]
    return 0


@njit(cache=True, inline="always")
def trick_value(elder_leads, elder_wins, follower_wins, t, pq, rules):
    """Elder's points minus younger's from trick t (0-based) and the new pique state: the lead
    point, then the win and last-trick points, the pique checked after each (PQ-TRICK, PQ-LAST,
    PQ-PIQUE)."""
    if rules[R_LEAD_POINTS_EVERY_TRICK]:
        le = 1 if elder_leads else 0
        ly = 1 - le
    else:
        le = 1 if t == 0 else 0
        ly = 0
    d = le - ly
    if pq >= 0:
        if ly > 0:
            pq = PQ_CLOSED
        else:
            pq += le
            if pq >= 30:
                d += rules[R_PIQUE]
                pq = PQ_CLOSED
    wp = (1 if (follower_wins or not rules[R_LEAD_POINTS_EVERY_TRICK]) else 0) + (rules[R_LAST_TRICK] if t == 11 else 0)
    if wp > 0:
        if elder_wins:
            d += wp
            if pq >= 0:
                pq += wp
                if pq >= 30:
                    d += rules[R_PIQUE]
                    pq = PQ_CLOSED
        else:
            d -= wp
            pq = PQ_CLOSED
    return d, pq


@njit(cache=True, inline="always")
def group_lows(h, inplay):
    """The lowest card of each group of h's cards with no other card of ``inplay`` between them
    in their suit (h is part of inplay)."""
    out = 0
    x = h
    while x:
        c = lowest_bit(x)
        x &= x - 1
        below = inplay & ((1 << c) - 1) & (0xFF << (c & 24))
        if below == 0 or not (h >> highest_bit(below)) & 1:
            out |= 1 << c
    return out


@njit(cache=True, inline="always")
def masters(h, inplay):
    """h's cards that no card of ``inplay`` outside h beats (every card above them is h's)."""
    out = 0
    for s in range(4):
        lane = (h >> (8 * s)) & 0xFF
        if lane:
            other = ((inplay & ~h) >> (8 * s)) & 0xFF
            above = 0xFF if other == 0 else (0xFF << (highest_bit(other) + 1)) & 0xFF
            out |= (lane & above) << (8 * s)
    return out


@njit(cache=True, inline="always")
def position_key(e, y, el, ewon, pq, mem):
    """The position's shape: every suit as (cards left, elder's pattern among them), sorted; the
    leader, elder's tricks and the pique state (58 bits)."""
    r = e | y
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for s in range(4):
        rl = (r >> (8 * s)) & 0xFF
        code = (popcount(rl) << 8) | mem[M_PEXT + ((rl << 8) | ((e >> (8 * s)) & 0xFF))]
        if s == 0:
            c0 = code
        elif s == 1:
            c1 = code
        elif s == 2:
            c2 = code
        else:
            c3 = code
    # A sorting network of four.
    if c0 > c1:
        c0, c1 = c1, c0
    if c2 > c3:
        c2, c3 = c3, c2
    if c0 > c2:
        c0, c2 = c2, c0
    if c1 > c3:
        c1, c3 = c3, c1
    if c1 > c2:
        c1, c2 = c2, c1
    return c0 | (c1 << 12) | (c2 << 24) | (c3 << 36) | (el << 48) | (ewon << 49) | ((pq + 1) << 53)


@njit(cache=True, inline="always")
def play_reply(e, y, el, led, c, t, pq, rules):
    """The follower plays c to ``led`` (already out of the leader's hand) in trick t: elder's
    points minus younger's from the trick, the hands after it, who leads next (1 elder), and the
    pique state."""
    fw = (c >> 3) == (led >> 3) and c > led
    ew = fw != (el == 1)
    d, pq2 = trick_value(el == 1, ew, fw, t, pq, rules)
    bit = 1 << c
    ne = e if el else e & ~bit
    ny = y & ~bit if el else y
    return d, ne, ny, np.int64(1) if ew else np.int64(0), pq2


@njit(cache=True, inline="always")
def _slot(key, bits):
    return np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))


@njit(cache=True)
def _search(e, y, el, led, ewon, pq, alpha, beta, rules, mem, bits):
    """Fail-soft alpha-beta value of a position within (alpha, beta): a trick's start when
    ``led`` < 0, else the follower's turn with ``led`` already out of the leader's hand.

    A value <= alpha is an upper bound, >= beta a lower bound, otherwise exact. Every argument of
    the recursive calls is an int64 variable, so the recursion stays in one specialisation."""
    n = popcount(e)
    if led < 0:
        t = 12 - n
        if n == 1:
            hl = e if el else y
            hf = y if el else e
            lc = lowest_bit(hl)
            fc = lowest_bit(hf)
            fw = (fc >> 3) == (lc >> 3) and fc > lc
            ew = fw != (el == 1)
            d, _ = trick_value(el == 1, ew, fw, t, pq, rules)
            return d + cards_value(ewon + (1 if ew else 0), rules)
        mem[M_NODES] += 1
        key = position_key(e, y, el, ewon, pq, mem)
        slot = M_TABLE + 2 * _slot(key, bits)
        lo = -INF
        hi = INF
        if mem[slot] == key:
            packed = mem[slot + 1]
            lo = (packed & 0xFFFF) - _OFFSET
            hi = ((packed >> 16) & 0xFFFF) - _OFFSET
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        hl = e if el else y
        inplay = e | y
        cand = group_lows(hl, inplay)
        sure = cand & masters(hl, inplay)
        best = -INF if el else INF
        for phase in range(2):
            moves = sure if phase == 0 else cand & ~sure
            while moves:
                c = highest_bit(moves)
                moves &= ~(1 << c)
                bit = 1 << c
                ne = e & ~bit if el else e
                ny = y if el else y & ~bit
                if el:
                    v = _search(ne, ny, el, np.int64(c), ewon, pq, max(alpha, best), beta, rules, mem, bits)
                    if v > best:
                        best = v
                        if best >= beta:
                            break
                else:
                    v = _search(ne, ny, el, np.int64(c), ewon, pq, alpha, min(beta, best), rules, mem, bits)
                    if v < best:
                        best = v
                        if best <= alpha:
                            break
            if (el and best >= beta) or (not el and best <= alpha):
                break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        mem[slot] = key
        mem[slot + 1] = (lo + _OFFSET) | ((hi + _OFFSET) << 16)
        return best
    # The follower's turn: elder follows when younger led (el == 0) and maximises.
    t = 11 - n if el else 12 - n  # n counts the follower's cards when elder follows
    hf = y if el else e
    inplay = e | y | (1 << led)
    suit = 0xFF << (led & 24)
    follows = hf & suit
    if follows:
        cand = group_lows(follows, inplay)
        above = cand & ~((2 << led) - 1)
        first = above & -above  # the cheapest winner
    else:
        cand = group_lows(hf, inplay)
        first = cand & -cand
    maximise = el == 0
    best = INF if el else -INF
    for phase in range(2):
        moves = first if phase == 0 else cand & ~first
        while moves:
            c = lowest_bit(moves)
            moves &= moves - 1
            d, ne, ny, nel, pq2 = play_reply(e, y, el, led, c, t, pq, rules)
            if ne == 0 and ny == 0:
                v = d + cards_value(ewon + nel, rules)
                if (maximise and v > best) or (not maximise and v < best):
                    best = v
                continue
            if maximise:
                v = d + _search(ne, ny, nel, np.int64(-1), ewon + nel, pq2, max(alpha, best) - d, beta - d,
                                rules, mem, bits)
                if v > best:
                    best = v
                    if best >= beta:
                        return best
            else:
                v = d + _search(ne, ny, nel, np.int64(-1), ewon + nel, pq2, alpha - d, min(beta, best) - d,
                                rules, mem, bits)
                if v < best:
                    best = v
                    if best <= alpha:
                        return best
    return best


@njit(cache=True)
def solve(e, y, el, ewon, pq, rules, mem):
    """The exact value of a position at a trick's start (``el`` 1 when elder leads)."""
    return _search(np.int64(e), np.int64(y), np.int64(el), np.int64(-1), np.int64(ewon), np.int64(pq),
                   np.int64(-INF), np.int64(INF), rules, mem, table_bits(mem))


@njit(cache=True, inline="always")
def set_group(out, c, v, h, inplay):
    """out[x] = v for every card x of h in c's group (c the group's lowest card, ``group_lows``):
    they win and lose against the same cards, so they are worth the same."""
    x = c
    while x < 32 and (x & 24) == (c & 24) and (h >> x) & 1:
        out[x] = v
        x += 1
        while x < 32 and (x & 24) == (c & 24) and not (inplay >> x) & 1:
            x += 1


@njit(cache=True)
def lead_values(e, y, el, ewon, pq, rules, mem, out):
    """The exact value of leading each of the leader's cards: out[code] (others untouched)."""
    hl = e if el else y
    inplay = e | y
    cand = group_lows(hl, inplay)
    while cand:
        c = lowest_bit(cand)
        cand &= cand - 1
        bit = 1 << c
        ne = e & ~bit if el else e
        ny = y if el else y & ~bit
        v = _search(np.int64(ne), np.int64(ny), np.int64(el), np.int64(c), np.int64(ewon), np.int64(pq),
                    np.int64(-INF), np.int64(INF), rules, mem, table_bits(mem))
        set_group(out, c, v, hl, inplay)
    return out


@njit(cache=True)
def follow_values(e, y, el, led, ewon, pq, rules, mem, out):
    """The exact value of each legal reply to ``led`` (already out of the leader's hand): out[code]."""
    n = popcount(e)
    t = 11 - n if el else 12 - n
    hf = y if el else e
    inplay = e | y | (1 << led)
    follows = hf & (0xFF << (led & 24))
    legal = follows if follows else hf
    cand = group_lows(legal, inplay)
    while cand:
        c = lowest_bit(cand)
        cand &= cand - 1
        d, ne, ny, nel, pq2 = play_reply(e, y, el, led, c, t, pq, rules)
        if ne == 0:
            v = d + cards_value(ewon + nel, rules)
        else:
            v = d + _search(np.int64(ne), np.int64(ny), np.int64(nel), np.int64(-1), np.int64(ewon + nel),
                            np.int64(pq2), np.int64(-INF), np.int64(INF), rules, mem, table_bits(mem))
        set_group(out, c, v, legal, inplay)
    return out


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def solve_many(elders, youngers, rules, mem, fresh):
    """Full 12-card solves of many deals (elder leads, nothing scored yet), for ``salon bench``;
    ``fresh``: empty the table before each solve. Returns the values."""
    out = np.empty(elders.shape[0], dtype=np.int64)
    for i in range(elders.shape[0]):
        if fresh:
            mem[M_TABLE:] = _EMPTY
        out[i] = solve(elders[i], youngers[i], 1, 0, 0, rules, mem)
    return out


def random_deals(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n random pairs of 12-card hands (elder's, younger's masks)."""
    rng = np.random.default_rng(seed)
    e = np.empty(n, dtype=np.int64)
    y = np.empty(n, dtype=np.int64)
    for i in range(n):
        d = rng.permutation(32)
        e[i] = sum(1 << int(c) for c in d[:12])
        y[i] = sum(1 << int(c) for c in d[12:24])
    return e, y

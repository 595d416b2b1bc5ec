"""The Bezique deal engine in numba: the shuffle, the 24 stock tricks with announced sevens, the seven
exchange, melds and draws, the 8 end-phase tricks and the brisques; and the game to the target.

Same rules and policies as ``reference.py``, step for step as written in docs/bezique-engine.md.
Cards are codes ``32 * copy + 8 * suit + rank`` (rank 7 8 9 J Q K 10 A = 0..7); a set of cards is
one int64 mask over the 64 codes (bit 63 is the sign bit, so every right shift is masked). The
state of a deal lives in one small int64 array (``S_*`` slots): both hands, both tables, the cards
played, the cards won and, per table card, the mask of meld kinds it has been used in.

Entry points (argument order: seed, first index, count, rules array, then the policy arrays):

- ``deal_outcomes(seed, start, n, rules, dealer, elder)``: the outcome vectors (OUTCOME_LENGTH
  ints) of single deals start..start+n-1, equal to
  ``reference.play_deal(seed, i, rules, dealer_policy, elder_policy).outcome_vector()``;
- ``game_results(seed, start, n, rules, a, b)``: ``reference.play_game(...).outcome_vector()``;
- ``deals_block`` / ``games_block``: integer tallies (``T_*`` / ``G_*``) per chunk, in parallel.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bezique.policies import (
    KIND_RANDOM,
    P_BRISQUE_KEEP,
    P_BRISQUE_WIN,
    P_EXCHANGE_SEVEN,
    P_FOUR_KEEP_MIN,
    P_GREEDY_WIN,
    P_HOLD_BEZIQUE,
    P_HOLD_BEZIQUE_STOCK,
    P_KIND,
    P_LEAD_LOW,
    P_MELD_KEEP,
    P_MELD_WIN,
    P_MELD_WIN_MIN,
    P_TRUMP_KEEP,
    P_TRUMP_WIN,
)
from analysis.bezique.rules import (
    R_BRISQUE,
    R_DOUBLE_AFTER_SINGLE,
    R_END_MUST_WIN,
    R_LAST_TRICK,
    R_LAST_TRICK_AT,
    R_MARRIAGE,
    R_REUSE_EITHER_ORDER,
    R_SEVEN_POINTS,
    R_TARGET,
)
from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.rng import EMPTY_HALF, below, below32, stream_start

# Outcome vector of one deal (docs/bezique-engine.md, "Outcome vector"); pairs are elder, dealer.
O_TOTAL = 0
O_MELD = 2  # 18 entries: per kind (KINDS order) elder, dealer
O_SEVEN = 20
O_BRISQUE = 22
O_LAST = 24
O_TRICKS = 26
O_ELDER_STOCK = 28
O_TRICKS_PLAYED = 29
O_TURN_UP = 30
O_EXCHANGE = 31
O_PLAYED = 32  # 64 entries
O_MELD_AT = 96  # 24 entries
OUTCOME_LENGTH = 120
# Internal slots after the public vector: number of melds laid per kind, elder then dealer.
O_MELD_COUNT = 120  # 18 entries
N_OUT = 138

# Meld kinds (reference.KINDS order) and their classes.
K_MARRIAGE, K_ROYAL, K_SEQUENCE, K_BEZIQUE, K_DOUBLE = 0, 1, 2, 3, 4
K_FOUR_JACKS, K_FOUR_QUEENS, K_FOUR_KINGS, K_FOUR_ACES = 5, 6, 7, 8
N_KINDS = 9

SEVEN, JACK, QUEEN, KING, TEN, ACE = 0, 3, 4, 5, 6, 7
QS = 4  # queen of spades (face)
JD = 19  # jack of diamonds (face)
LOW32 = 0xFFFFFFFF
COL32 = 0x01010101  # rank 0 of every suit, one copy
BRISQUES32 = 0xC0C0C0C0  # tens and aces, one copy
MAX_MELDS = 256
NO_TARGET = 1 << 62

# State array slots.
S_HAND = 0  # 2: elder, dealer
S_TABLE = 2  # 2
S_PLAYED = 4
S_WON = 5  # 2
S_KINDS = 8  # 64: meld kinds used by each card on a table
S_KEEP = 72  # 2 x 32: per seat and face, the keep value before the meld-in-view bonus
S_USED = 136  # 9: per meld kind, the mask of the table cards used in it (S_KINDS by kind)
N_STATE = 145


@njit(cache=True, inline="always")
def bit(c):
    return np.int64(1) << np.int64(c)


@njit(cache=True, inline="always")
def faces_of(h):
    """The 32-bit mask of the faces present in a 64-bit card mask."""
    return (h | (h >> 32)) & LOW32


@njit(cache=True, inline="always")
def count32(h, m32):
    """Cards of ``h`` whose face is in the 32-bit face mask ``m32`` (copies counted)."""
    return popcount(h & m32 & LOW32) + popcount((h >> 32) & m32 & LOW32)


@njit(cache=True, inline="always")
def both_copies(m32):
    """The 64-bit mask of both copies of the faces in ``m32``."""
    return (m32 & LOW32) | ((m32 & LOW32) << 32)


@njit(cache=True, inline="always")
def suit_mask(s):
    return both_copies(0xFF << (8 * s))


@njit(cache=True, inline="always")
def follower_wins(led, fol, trump):
    """BZ-STOCK-PLAY: a higher card of the suit led, or a trump to a non-trump lead; of two
    identical cards the one led wins."""
    if ((fol ^ led) >> 3) & 3 == 0:
        return (fol & 7) > (led & 7)
    return (fol >> 3) & 3 == trump


@njit(cache=True, inline="always")
def beaters(led, trump):
    """The 64-bit mask of the cards that beat ``led`` (``follower_wins``)."""
    s = (led >> 3) & 3
    m = both_copies(((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * s))
    if s != trump:
        m |= suit_mask(trump)
    return m


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
def shuffle(deck, stc):
    """BZ-DEAL: 63 half draws of the cards stream, the whole Fisher-Yates shuffle."""
    half = EMPTY_HALF
    for i in range(64):
        deck[i] = i
    for p in range(63):
        stc, half, j = below32(stc, half, 64 - p)
        j += p
        c = deck[j]
        deck[j] = deck[p]
        deck[p] = c


# ---------------------------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------------------------

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
    n = 0
    af = hf | faces_of(table & ~in_class0)
    # Per suit at its queen's bit: king and queen among those faces, one of them in hand.
    pairs = af & (af >> 1) & (hf | (hf >> 1)) & (COL32 << QUEEN) & ~(1 << (8 * trump + QUEEN))
    while pairs != 0:
        s = lowest_bit(pairs) >> 3
        pairs &= pairs - 1
        nopt[0] = face_options(8 * s + KING, 1, 1, hand, table, S, K_MARRIAGE, either, das, fo, 0)
        nopt[1] = face_options(8 * s + QUEEN, 1, 1, hand, table, S, K_MARRIAGE, either, das, fo, 1)
        n = add_kind(K_MARRIAGE, 2, -1, fo, nopt, either, S, ms, n)
    t8 = 8 * trump
    kq = (1 << (t8 + KING)) | (1 << (t8 + QUEEN))
    af = hf | faces_of(table & ~(u[K_MARRIAGE] | u[K_ROYAL] | (0 if either else u[K_SEQUENCE])))
    if (af & kq) == kq and ((hf & kq) != 0 or either):
        nopt[0] = face_options(t8 + KING, 1, 1, hand, table, S, K_ROYAL, either, das, fo, 0)
        nopt[1] = face_options(t8 + QUEEN, 1, 1, hand, table, S, K_ROYAL, either, das, fo, 1)
        n = add_kind(K_ROYAL, 2, -1, fo, nopt, either, S, ms, n)
    seq = 0xF8 << t8
    af = hf | faces_of(table & ~(u[K_MARRIAGE] | u[K_SEQUENCE]))
    if (af & seq) == seq and (hf & seq) != 0:
        for i in range(5):
            nopt[i] = face_options(t8 + 7 - i, 1, 1, hand, table, S, K_SEQUENCE, either, das, fo, i)
        n = add_kind(K_SEQUENCE, 5, -1, fo, nopt, either, S, ms, n)
    bz = (1 << QS) | (1 << JD)
    if (hf & bz) != 0:
        af = hf | faces_of(table & ~(u[K_BEZIQUE] | u[K_DOUBLE]))
        if (af & bz) == bz:
            nopt[0] = face_options(QS, 1, 1, hand, table, S, K_BEZIQUE, either, das, fo, 0)
            nopt[1] = face_options(JD, 1, 1, hand, table, S, K_BEZIQUE, either, das, fo, 1)
            n = add_kind(K_BEZIQUE, 2, -1, fo, nopt, either, S, ms, n)
        pool = hand | (table & ~(u[K_DOUBLE] | (0 if das else u[K_BEZIQUE])))
        if count32(pool, bz) == 4:
            nopt[0] = face_options(QS, 2, 2, hand, table, S, K_DOUBLE, either, das, fo, 0)
            nopt[1] = face_options(JD, 2, 2, hand, table, S, K_DOUBLE, either, das, fo, 1)
            n = add_kind(K_DOUBLE, 2, -1, fo, nopt, either, S, ms, n)
    pool = hand | (table & ~(u[K_FOUR_JACKS] | u[K_FOUR_QUEENS] | u[K_FOUR_KINGS] | u[K_FOUR_ACES]))
    for kind in range(K_FOUR_JACKS, N_KINDS):
        r = ACE if kind == K_FOUR_ACES else JACK + kind - K_FOUR_JACKS
        if popcount(pool & both_copies(COL32 << r)) < 4 or (hf & (COL32 << r)) == 0:
            continue
        for s in range(4):
            nopt[s] = face_options(8 * s + r, 0, 2, hand, table, S, kind, either, das, fo, s)
        n = add_kind(kind, 4, 4, fo, nopt, either, S, ms, n)
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


@njit(cache=True, _nrt=False)
def best_meld(seat, S, trump, rules, p, drawn, ms, fo, nopt):
    """The heuristic's meld: the row of ms, or -1 for none."""
    n = legal_melds(seat, S, trump, rules, ms, fo, nopt)
    if n == 0:
        return -1
    hold = (p[P_HOLD_BEZIQUE] != 0 and 47 - drawn >= p[P_HOLD_BEZIQUE_STOCK]
            and double_possible(seat, S, rules[R_DOUBLE_AFTER_SINGLE]))
    best = -1
    bp = 0
    bh = 0
    for i in range(n):
        k = ms[0, i]
        if hold and k == K_BEZIQUE:
            continue
        pts = meld_value(rules, k)
        hc = popcount(ms[2, i])
        if best < 0:
            better = True
        elif pts != bp:
            better = pts > bp
        elif hc != bh:
            better = hc < bh
        elif k != ms[0, best]:
            better = k < ms[0, best]
        else:
            better = cards_before(ms[1, i], ms[1, best])
        if better:
            best = i
            bp = pts
            bh = hc
    return best


# ---------------------------------------------------------------------------------------------
# Options and the heuristic's measures
# ---------------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def options_of(seat, S):
    """The player's distinct cards: per face his lowest hand copy and his first table copy."""
    h = S[S_HAND + seat]
    t = S[S_TABLE + seat]
    lo = h & LOW32
    hi = (h >> 32) & LOW32
    opts = lo | ((hi & ~lo) << 32)
    tlo = t & LOW32
    thi = (t >> 32) & LOW32
    both = tlo & thi
    opts |= (tlo & ~both) | ((thi & ~both) << 32)
    while both != 0:
        f = lowest_bit(both)
        both &= both - 1
        if popcount(S[S_KINDS + f + 32]) > popcount(S[S_KINDS + f]):
            opts |= bit(f + 32)
        else:
            opts |= bit(f)
    return opts


@njit(cache=True, inline="always")
def end_legal(opts, led, trump, must_win):
    """BZ-END: the follower's legal options in the end phase."""
    suited = opts & suit_mask((led >> 3) & 3)
    if suited != 0:
        if must_win:
            higher = suited & both_copies(((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * ((led >> 3) & 3)))
            if higher != 0:
                return higher
        return suited
    trumps = opts & suit_mask(trump)
    if trumps != 0:
        return trumps
    return opts


@njit(cache=True, inline="always")
def meld_view(hold, trump, p):
    """The 32-bit mask of faces with a meld in view (docs: "Keep value"): a marriage partner held,
    Q♠ with J♦ held and J♦ with Q♠, a trump J..A with three of the five sequence faces held, a J, Q,
    K or A with ``four_keep_min`` cards of its rank held."""
    faces = faces_of(hold)
    view = ((faces >> 1) & (COL32 << QUEEN)) | ((faces << 1) & (COL32 << KING))
    if (faces >> JD) & 1:
        view |= 1 << QS
    if (faces >> QS) & 1:
        view |= 1 << JD
    seq = 0xF8 << (8 * trump)
    if popcount(faces & seq) >= 3:
        view |= seq
    for r in (JACK, QUEEN, KING, ACE):
        if popcount(hold & both_copies(COL32 << r)) >= p[P_FOUR_KEEP_MIN]:
            view |= COL32 << r
    return view


@njit(cache=True)
def set_keep_values(S, seat, trump, p):
    """The seat's keep values by face for this deal's trump: rank, + ``brisque_keep`` for aces
    and tens, + ``trump_keep`` for trumps (docs: "Keep value"; the meld bonus comes per decision)."""
    for f in range(32):
        r = f & 7
        v = r
        if r >= TEN:
            v += p[P_BRISQUE_KEEP]
        if (f >> 3) & 3 == trump:
            v += p[P_TRUMP_KEEP]
        S[S_KEEP + 32 * seat + f] = v


@njit(cache=True, _nrt=False)
def min_keep(cands, S, seat, trump, p, stock):
    """The candidate with the lowest (keep value, code): keys (value << 7 | code), the least."""
    if stock:
        view = meld_view(S[S_HAND + seat] | S[S_TABLE + seat], trump, p)
        mk = p[P_MELD_KEEP]
    else:
        view = 0
        mk = 0
    base = S_KEEP + 32 * seat
    least = NO_TARGET
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        f = c & 31
        k = S[base + f]
        if not stock:
            k -= p[P_TRUMP_KEEP] if (f >> 3) & 3 == trump else 0
        key = ((k + mk * ((view >> f) & 1)) << 7) | c
        least = min(least, key)
    return least & 127


@njit(cache=True, _nrt=False)
def min_rank_keep(cands, S, seat, trump, p):
    """The candidate with the lowest (rank, stock keep value, code)."""
    view = meld_view(S[S_HAND + seat] | S[S_TABLE + seat], trump, p)
    mk = p[P_MELD_KEEP]
    base = S_KEEP + 32 * seat
    least = NO_TARGET
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        f = c & 31
        key = (((f & 7) << 20) + ((S[base + f] + mk * ((view >> f) & 1)) << 7)) | c
        least = min(least, key)
    return least & 127


@njit(cache=True, inline="always")
def max_rank(cands):
    """The highest-ranked candidate, ties lower code."""
    best = -1
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        if best < 0 or (c & 7) > (best & 7):
            best = c
    return best


@njit(cache=True, inline="always")
def min_rank(cands):
    """The lowest-ranked candidate, ties lower code."""
    best = -1
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        if best < 0 or (c & 7) < (best & 7):
            best = c
    return best


@njit(cache=True, _nrt=False)
def heuristic_lead(seat, S, trump, p, stock):
    opts = options_of(seat, S)
    plain = opts & ~suit_mask(trump)
    if stock:
        if p[P_LEAD_LOW] != 0 or plain == 0:
            return min_keep(opts, S, seat, trump, p, True)
        return max_rank(plain)
    # End lead: the highest master non-trump, else the lowest non-trump, else the highest trump.
    known = S[S_HAND + seat] | S[S_TABLE + seat] | S[S_PLAYED]
    gone = known & (known >> 32) & LOW32  # faces whose two copies he has seen
    masters = 0
    x = plain
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        hm = ((0xFF << ((c & 7) + 1)) & 0xFF) << (8 * ((c >> 3) & 3))
        if (gone & hm) == hm:
            masters |= bit(c)
    if masters != 0:
        return max_rank(masters)
    if plain != 0:
        return min_rank(plain)
    return max_rank(opts)


@njit(cache=True, _nrt=False)
def heuristic_follow(seat, S, trump, rules, p, led, stock, drawn, ms, fo, nopt):
    opts = options_of(seat, S)
    if not stock:
        legal = end_legal(opts, led, trump, rules[R_END_MUST_WIN] != 0)
        winners = legal & beaters(led, trump)
        if winners != 0:
            return min_rank(winners)
        return min_keep(legal, S, seat, trump, p, False)
    winners = opts & beaters(led, trump)
    if winners == 0:
        return min_keep(opts, S, seat, trump, p, True)
    in_suit = winners & suit_mask((led >> 3) & 3)
    win_with = in_suit if in_suit != 0 else winners
    if p[P_GREEDY_WIN] != 0 or (p[P_BRISQUE_WIN] != 0 and (led & 7) >= TEN):
        if in_suit != 0 or p[P_TRUMP_WIN] != 0:
            return min_rank_keep(win_with, S, seat, trump, p)
    # Only a waiting meld can make him win now (the meld is listed only when it decides).
    if p[P_MELD_WIN] != 0:
        m = best_meld(seat, S, trump, rules, p, drawn, ms, fo, nopt)
        if m >= 0 and meld_value(rules, ms[0, m]) >= p[P_MELD_WIN_MIN]:
            return min_rank_keep(win_with, S, seat, trump, p)
    return min_keep(opts, S, seat, trump, p, True)


# ---------------------------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def score(out, seat, slot, pts, base, target, gw):
    """A stock-phase scoring event (BZ-GAME check); returns the game winner so far (-1 none)."""
    if pts <= 0:
        return gw
    out[slot + seat] += pts
    out[O_TOTAL + seat] += pts
    if gw < 0 and base + out[O_TOTAL + seat] >= target:
        return seat
    return gw


@njit(cache=True, inline="always")
def take(S, seat, c):
    """Remove a played card from the player's hand or table."""
    b = bit(c)
    if S[S_HAND + seat] & b:
        S[S_HAND + seat] &= ~b
    else:
        S[S_TABLE + seat] &= ~b
        S[S_KINDS + c] = 0
        for k in range(N_KINDS):
            S[S_USED + k] &= ~b


@njit(cache=True, _nrt=False)
def play_deal(deck, stc, sto, rules, pe, pd, S, ms, fo, nopt, order, out, start_e, start_d, target):
    """One deal (docs/bezique-engine.md, "One deal, step by step"); fills ``out`` (O_* layout, N_OUT
    entries). ``pe``, ``pd``: elder's and dealer's policy arrays; ``start_e``, ``start_d``: their
    game totals before the deal and ``target`` the game target (NO_TARGET for single deals).
    Returns the seat that reached the target during the stock phase (0 elder, 1 dealer) or -1."""
    for i in range(N_OUT):
        out[i] = 0
    for i in range(64):
        out[O_PLAYED + i] = -1
    for i in range(24):
        out[O_MELD_AT + i] = -1
    for i in range(N_STATE):
        S[i] = 0
    shuffle(deck, stc)
    for i in range(8):
        S[S_HAND] |= bit(deck[i])
        S[S_HAND + 1] |= bit(deck[8 + i])
    turnup = deck[16]
    trump = (turnup >> 3) & 3
    out[O_TURN_UP] = turnup
    set_keep_values(S, 0, trump, pe)
    set_keep_values(S, 1, trump, pd)
    sp = rules[R_SEVEN_POINTS]
    last = rules[R_LAST_TRICK]
    last_at = rules[R_LAST_TRICK_AT]
    sevens = both_copies(1 << (8 * trump))
    gw = -1
    if (turnup & 7) == SEVEN:
        gw = score(out, 1, O_SEVEN, sp, start_d, target, gw)
        if gw >= 0:
            return gw
    leader = 0
    drawn = 0
    nplayed = 0
    for n in range(1, 33):
        stock = n <= 24
        lead_p = pe if leader == 0 else pd
        fol_p = pd if leader == 0 else pe
        follower = 1 - leader
        # The lead.
        if lead_p[P_KIND] == KIND_RANDOM:
            opts = options_of(leader, S)
            sto, j = below(sto, popcount(opts))
            led = nth_bit(opts, j)
        else:
            led = heuristic_lead(leader, S, trump, lead_p, stock)
        take(S, leader, led)
        out[O_PLAYED + nplayed] = led
        nplayed += 1
        S[S_PLAYED] |= bit(led)
        if stock and (sevens & bit(led)) != 0:
            gw = score(out, leader, O_SEVEN, sp, start_e if leader == 0 else start_d, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n - 1
                return gw
        # The follow.
        if fol_p[P_KIND] == KIND_RANDOM:
            opts = options_of(follower, S)
            if not stock:
                opts = end_legal(opts, led, trump, rules[R_END_MUST_WIN] != 0)
            sto, j = below(sto, popcount(opts))
            fol = nth_bit(opts, j)
        else:
            fol = heuristic_follow(follower, S, trump, rules, fol_p, led, stock, drawn, ms, fo, nopt)
        take(S, follower, fol)
        out[O_PLAYED + nplayed] = fol
        nplayed += 1
        S[S_PLAYED] |= bit(fol)
        if stock and (sevens & bit(fol)) != 0:
            gw = score(out, follower, O_SEVEN, sp, start_e if follower == 0 else start_d, target, gw)
        w = follower if follower_wins(led, fol, trump) else leader
        S[S_WON + w] |= bit(led) | bit(fol)
        out[O_TRICKS + w] += 1
        leader = w
        base_w = start_e if w == 0 else start_d
        if stock:
            out[O_ELDER_STOCK] += w == 0
            if n == last_at:
                gw = score(out, w, O_LAST, last, base_w, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n
                return gw
        else:
            if n == last_at and last > 0:
                out[O_LAST + w] += last
                out[O_TOTAL + w] += last
            continue
        pw = pe if w == 0 else pd
        # BZ-SEVEN: the exchange.
        if (turnup & 7) != SEVEN and (S[S_HAND + w] & sevens) != 0:
            if pw[P_KIND] == KIND_RANDOM:
                sto, x = below(sto, 2)
                ex = x == 1
            else:
                ex = pw[P_EXCHANGE_SEVEN] != 0
            if ex:
                seven = 8 * trump if (S[S_HAND + w] >> (8 * trump)) & 1 else 8 * trump + 32
                S[S_HAND + w] = (S[S_HAND + w] & ~bit(seven)) | bit(turnup)
                turnup = seven
                out[O_EXCHANGE] = n
                gw = score(out, w, O_SEVEN, sp, base_w, target, gw)
                if gw >= 0:
                    out[O_TRICKS_PLAYED] = n
                    return gw
        # BZ-MELD.
        chosen = -1
        if pw[P_KIND] == KIND_RANDOM:
            m = legal_melds(w, S, trump, rules, ms, fo, nopt)
            if m > 0:
                sort_melds(ms, m, order)
                sto, k = below(sto, m + 1)
                if k < m:
                    chosen = order[k]
        else:
            chosen = best_meld(w, S, trump, rules, pw, drawn, ms, fo, nopt)
        if chosen >= 0:
            kind = ms[0, chosen]
            cards = ms[1, chosen]
            S[S_HAND + w] &= ~cards
            S[S_TABLE + w] |= cards
            y = cards
            while y != 0:
                c = lowest_bit(y)
                y &= y - 1
                S[S_KINDS + c] |= 1 << kind
            S[S_USED + kind] |= cards
            out[O_MELD_AT + n - 1] = kind
            out[O_MELD_COUNT + 2 * kind + w] += 1
            gw = score(out, w, O_MELD + 2 * kind, meld_value(rules, kind), base_w, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n
                return gw
        # BZ-DRAW.
        wc = deck[17 + drawn]
        drawn += 1
        if drawn < 47:
            lc = deck[17 + drawn]
            drawn += 1
        else:
            lc = turnup
        S[S_HAND + w] |= bit(wc)
        S[S_HAND + 1 - w] |= bit(lc)
        if n == 24:
            for seat in range(2):
                y = S[S_TABLE + seat]
                while y != 0:
                    c = lowest_bit(y)
                    y &= y - 1
                    S[S_KINDS + c] = 0
                S[S_HAND + seat] |= S[S_TABLE + seat]
                S[S_TABLE + seat] = 0
            for k in range(N_KINDS):
                S[S_USED + k] = 0
    out[O_TRICKS_PLAYED] = 32
    bq = rules[R_BRISQUE]
    for seat in range(2):
        pts = count32(S[S_WON + seat], BRISQUES32) * bq
        out[O_BRISQUE + seat] = pts
        out[O_TOTAL + seat] += pts
    return -1


@njit(cache=True)
def _scratch():
    deck = np.empty(64, dtype=np.int64)
    S = np.zeros(N_STATE, dtype=np.int64)
    ms = np.zeros((3, MAX_MELDS), dtype=np.int64)
    fo = np.zeros((3, 5, 4), dtype=np.int64)
    nopt = np.zeros(10, dtype=np.int64)  # options per face, then add_kind's odometer
    order = np.zeros(MAX_MELDS, dtype=np.int64)
    out = np.zeros(N_OUT, dtype=np.int64)
    return deck, S, ms, fo, nopt, order, out


@njit(cache=True)
def deal_outcomes(seed, start, n, rules, dealer, elder):
    """Outcome vectors (n, OUTCOME_LENGTH) of single deals start..start+n-1: cards from lane 0,
    choices from lane 1; ``dealer`` and ``elder`` are the policy arrays (reference.play_deal's
    argument order)."""
    res = np.zeros((n, OUTCOME_LENGTH), dtype=np.int64)
    deck, S, ms, fo, nopt, order, out = _scratch()
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        play_deal(deck, stc, sto, rules, elder, dealer, S, ms, fo, nopt, order, out, 0, 0, NO_TARGET)
        res[k, :] = out[:OUTCOME_LENGTH]
    return res


# Tallies of single deals (T_*), integers per chunk.
T_DEALS = 0
T_ELDER, T_ELDER_SQ, T_DEALER, T_DEALER_SQ, T_NET, T_NET_SQ = 1, 2, 3, 4, 5, 6
T_BRISQUE = 7  # 2: elder, dealer
T_LAST = 9  # 2
T_SEVEN = 11  # 2
T_TURN_UP_SEVEN = 13  # deals whose turn-up is a seven
T_EXCHANGES = 14  # deals with a seven exchanged
T_ELDER_TRICKS = 15  # sum of elder's tricks
T_ELDER_STOCK_TRICKS = 16  # sum of elder's stock tricks
T_MELD_COUNT = 17  # 18: melds laid, 2 * kind (KINDS order) + side (0 elder, 1 dealer)
T_MELD_POINTS = 35  # 18: meld points, the same layout
# Squares of the per-deal totals (both sides) of brisque, last-trick and seven points, for intervals.
T_BRISQUE_SQ, T_LAST_SQ, T_SEVEN_SQ = 53, 54, 55
T_MELD_DEALS = 56  # 9: deals in which the kind was laid (by either side)
N_TALLY = 65


@njit(cache=True, inline="always")
def tally_deal(row, out):
    """Add one deal's outcome to a tally row (T_* layout)."""
    e = out[O_TOTAL]
    d = out[O_TOTAL + 1]
    row[T_DEALS] += 1
    row[T_ELDER] += e
    row[T_ELDER_SQ] += e * e
    row[T_DEALER] += d
    row[T_DEALER_SQ] += d * d
    row[T_NET] += e - d
    row[T_NET_SQ] += (e - d) * (e - d)
    for s in range(2):
        row[T_BRISQUE + s] += out[O_BRISQUE + s]
        row[T_LAST + s] += out[O_LAST + s]
        row[T_SEVEN + s] += out[O_SEVEN + s]
    row[T_TURN_UP_SEVEN] += (out[O_TURN_UP] & 7) == SEVEN
    row[T_EXCHANGES] += out[O_EXCHANGE] > 0
    row[T_ELDER_TRICKS] += out[O_TRICKS]
    row[T_ELDER_STOCK_TRICKS] += out[O_ELDER_STOCK]
    for i in range(2 * N_KINDS):
        row[T_MELD_COUNT + i] += out[O_MELD_COUNT + i]
        row[T_MELD_POINTS + i] += out[O_MELD + i]
    b = out[O_BRISQUE] + out[O_BRISQUE + 1]
    last = out[O_LAST] + out[O_LAST + 1]
    seven = out[O_SEVEN] + out[O_SEVEN + 1]
    row[T_BRISQUE_SQ] += b * b
    row[T_LAST_SQ] += last * last
    row[T_SEVEN_SQ] += seven * seven
    for k in range(N_KINDS):
        row[T_MELD_DEALS + k] += (out[O_MELD_COUNT + 2 * k] + out[O_MELD_COUNT + 2 * k + 1]) > 0


@njit(cache=True)
def deals_chunk(useed, start, count, rules, dealer, elder):
    """The tally row of deals start..start+count-1."""
    deck, S, ms, fo, nopt, order, out = _scratch()
    row = np.zeros(N_TALLY, dtype=np.int64)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1))
        play_deal(deck, stc, sto, rules, elder, dealer, S, ms, fo, nopt, order, out, 0, 0, NO_TARGET)
        tally_deal(row, out)
    return row


@njit(cache=True, parallel=True)
def deals_block(seed, starts, counts, rules, dealer, elder):
    """Tally rows (N_TALLY per chunk) of the deals in each chunk [starts[c], starts[c] + counts[c])."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        # Private copies of the parameters (shared arrays' reference counts bounce between cores).
        tallies[ci, :] = deals_chunk(useed, starts[ci], counts[ci], rules.copy(), dealer.copy(), elder.copy())
    return tallies


# Games (BZ-GAME). B deals first: A is elder in deals 0, 2, 4, ...
MAX_GAME_DEALS = 128
N_GAME_OUT = 5
G_GAMES, G_DEALS, G_DEALS_SQ, G_FIRST_DEALER_WINS, G_UNDECIDED, G_IN_STOCK = 0, 1, 2, 3, 4, 5
N_GAME_TALLY = 6


@njit(cache=True, _nrt=False)
def play_game(useed, g, rules, pa, pb, deck, S, ms, fo, nopt, order, out, res):
    """Game g; res = [total A, total B, deals, winner (0 A, 1 B, -1 undecided), ended in a stock
    phase]."""
    ug = np.uint64(g)
    ta = 0
    tb = 0
    target = rules[R_TARGET]
    for d in range(MAX_GAME_DEALS):
        stc = stream_start(useed, ug, np.uint64(2 * d))
        sto = stream_start(useed, ug, np.uint64(2 * d + 1))
        a_elder = d % 2 == 0
        if a_elder:
            gw = play_deal(deck, stc, sto, rules, pa, pb, S, ms, fo, nopt, order, out, ta, tb, target)
            ta += out[O_TOTAL]
            tb += out[O_TOTAL + 1]
        else:
            gw = play_deal(deck, stc, sto, rules, pb, pa, S, ms, fo, nopt, order, out, tb, ta, target)
            tb += out[O_TOTAL]
            ta += out[O_TOTAL + 1]
        res[0] = ta
        res[1] = tb
        res[2] = d + 1
        if gw >= 0:
            res[3] = gw if a_elder else 1 - gw
            res[4] = 1
            return
        if max(ta, tb) >= target and ta != tb:
            res[3] = 0 if ta > tb else 1
            res[4] = 0
            return
    res[3] = -1
    res[4] = 0


@njit(cache=True)
def game_results(seed, start, n, rules, a, b):
    """Game outcome vectors (n, 5) of games start..start+n-1 (reference.play_game)."""
    res = np.zeros((n, N_GAME_OUT), dtype=np.int64)
    deck, S, ms, fo, nopt, order, out = _scratch()
    for k in range(n):
        play_game(np.uint64(seed), start + k, rules, a, b, deck, S, ms, fo, nopt, order, out, res[k])
    return res


@njit(cache=True, parallel=True)
def games_block(seed, starts, counts, rules, a, b):
    """Tallies (N_GAME_TALLY per chunk) of the games in each chunk."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_GAME_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        deck, S, ms, fo, nopt, order, out = _scratch()
        res = np.zeros(N_GAME_OUT, dtype=np.int64)
        row = np.zeros(N_GAME_TALLY, dtype=np.int64)
        my_rules = rules.copy()
        my_a = a.copy()
        my_b = b.copy()
        for g in range(starts[ci], starts[ci] + counts[ci]):
            play_game(useed, g, my_rules, my_a, my_b, deck, S, ms, fo, nopt, order, out, res)
            row[G_GAMES] += 1
            row[G_DEALS] += res[2]
            row[G_DEALS_SQ] += res[2] * res[2]
            row[G_FIRST_DEALER_WINS] += res[3] == 1
            row[G_UNDECIDED] += res[3] == -1
            row[G_IN_STOCK] += res[4]
        tallies[ci, :] = row
    return tallies

"""The Écarté hand engine in numba: deal, proposals and exchanges, king, five tricks, scoring.

Same rules and policies as ``reference.py``, step for step as written in docs/ecarte-engine.md, on
32-bit card masks (code = 8 * suit + Écarté rank index). Kernels tally integers per chunk; the
block functions are what ``analysis.runner`` drives.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import highest_bit, lowest_bit, nth_bit, popcount, rank_of_mask
from analysis.ecarte.policies import (
    KIND_RANDOM,
    N_POLICY_SLOTS,
    P_ANNOUNCE_KING,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_DISCARD,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_KEEP_PLAIN_MIN_RANK,
    P_KIND,
    P_LEAD_TRUMPS,
)
from analysis.ecarte.rules import (
    R_DEALER_MIN_DISCARD,
    R_MUST_TRUMP_WHEN_VOID,
    R_PENALTY_POINT,
    R_PENALTY_VOLE,
    R_REFUSAL_PENALISES_DEALER,
    R_REFUSAL_PENALTY_FIRST_ONLY,
    R_TARGET,
)
from analysis.rng import EMPTY_HALF, below, below32, stream_start

# Outcome vector of one hand (the first N_COMPARED entries are what the reference also gives).
O_ELDER_POINTS, O_DEALER_POINTS, O_ELDER_TRICKS, O_ENDING, O_ROUNDS, O_ANNOUNCED = 0, 1, 2, 3, 4, 5
O_TURNUP, O_ELDER_DEALT, O_DEALER_DEALT, O_ELDER_FINAL, O_DEALER_FINAL = 6, 7, 8, 9, 10
O_TRICKS = 11  # 10 entries: lead, follow for tricks 1..5
O_STOCK_DRAWN = 21
N_COMPARED = 22
O_PROPOSED_FIRST, O_PLAYED_WITHOUT_PROPOSING = 22, 23
O_ELDER_TRICK_POINTS, O_DEALER_TRICK_POINTS, O_TURNUP_KING = 24, 25, 26
N_OUT = 27

KINGS = 0x80808080
QUEENS = 0x40404040
COLUMN = 0x01010101


@njit(cache=True, inline="always")
def draw(deck, p, st, half):
    """Fix deck position p by one Fisher–Yates step: returns (stream state, half, card).

    Decks are int8 arrays of card codes (one 32-byte store resets a deck)."""
    st, half, j = below32(st, half, 32 - p)
    j += p
    c = deck[j]
    deck[j] = deck[p]
    deck[p] = c
    return st, half, np.int64(c)


@njit(cache=True, inline="always")
def deal(deck, st, half):
    """EC-DEAL: positions 0-4 elder, 5-9 dealer, 10 turn-up; returns (st, half, elder, dealer, turnup)."""
    for i in range(32):
        deck[i] = i
    elder = 0
    dealer = 0
    for p in range(5):
        st, half, c = draw(deck, p, st, half)
        elder |= 1 << c
    for p in range(5, 10):
        st, half, c = draw(deck, p, st, half)
        dealer |= 1 << c
    st, half, turnup = draw(deck, 10, st, half)
    return st, half, elder, dealer, turnup


@njit(cache=True)
def deal_with_elder(deck, st, half, elder_codes, turnup):
    """A deal with elder's five cards and the turn-up fixed; the dealer's five drawn at random.

    Layout: positions 0-4 elder, 5 the turn-up, 6-10 the dealer; the stock follows from 11.
    """
    fixed = 1 << turnup
    for c in elder_codes:
        fixed |= 1 << c
    for i in range(5):
        deck[i] = elder_codes[i]
    deck[5] = turnup
    k = 6
    for c in range(32):
        if not (fixed >> c) & 1:
            deck[k] = c
            k += 1
    dealer = 0
    for p in range(6, 11):
        st, half, c = draw(deck, p, st, half)
        dealer |= 1 << c
    return st, half, dealer


@njit(cache=True, inline="always")
def weakest(cards, t):
    """First card of a non-empty set in weakest-first order (non-trumps by rank, then trumps):
    the lowest rank present (the suits' lanes ORed together), in the lowest suit holding it."""
    tmask = 0xFF << (8 * t)
    plain = cards & ~tmask
    src = plain if plain else cards & tmask
    x = src | (src >> 16)
    r = lowest_bit(x | (x >> 8))
    return lowest_bit(src & (COLUMN << r))


@njit(cache=True, inline="always")
def strength(hand, t):
    """Heuristic hand strength: trumps 3 each (+3 K, +2 Q, +1 J), plain kings 2, plain queens 1."""
    tl = (hand >> (8 * t)) & 0xFF
    s = 3 * popcount(tl) + 3 * ((tl >> 7) & 1) + 2 * ((tl >> 6) & 1) + ((tl >> 5) & 1)
    plain = hand & ~(0xFF << (8 * t))
    return s + 2 * popcount(plain & KINGS) + popcount(plain & QUEENS)


@njit(cache=True, inline="always")
def heuristic_discard(hand, t, lo, hi, keep_min_rank):
    """Discard the non-trumps below keep_min_rank, trimmed or padded weakest-first to lo..hi."""
    low = ((1 << keep_min_rank) - 1) * COLUMN
    cand = hand & ~(0xFF << (8 * t)) & low
    n = popcount(cand)
    if n > hi:
        out = 0
        for _ in range(hi):
            c = weakest(cand, t)
            out |= 1 << c
            cand &= ~(1 << c)
        return out
    while n < lo:
        c = weakest(hand & ~cand, t)
        cand |= 1 << c
        n += 1
    return cand


@njit(cache=True, inline="always")
def chosen_discard(p, hand, t, lo, hi, rnd):
    """A discard the policy array fixes: the forced first discard, or its discard table's entry
    for the hand; -1 when the policy's rule decides."""
    if rnd == 0 and p[P_FORCE_DISCARD] >= 0:
        return p[P_FORCE_DISCARD]
    if p.shape[0] > N_POLICY_SLOTS:
        return table_discard(p, hand, t, lo, hi)
    return -1


@njit(cache=True)
def table_discard(p, hand, t, lo, hi):
    """The discard table's entry for the hand (taken relative to trumps), or -1 where the table
    leaves it to the rule or its discard has the wrong size.

    Not inlined: inlined, its loop slowed the exchanges of every hand by about 15 ns, table or not."""
    sh = 8 * t
    rel = ((hand >> sh) | (hand << (32 - sh))) & 0xFFFFFFFF
    d = p[N_POLICY_SLOTS + rank_of_mask(rel)]
    if d >= 0:
        d = ((d << sh) | (d >> (32 - sh))) & 0xFFFFFFFF
        if lo <= popcount(d) <= hi:
            return d
    return -1


@njit(cache=True, inline="always")
def random_discard(hand, lo, hi, st):
    """A uniformly random discard of lo..hi cards (rejection on 5-bit masks over the hand)."""
    while True:
        st, m = below(st, 32)
        k = popcount(m)
        if lo <= k <= hi:
            break
    out = 0
    idx = 0
    x = hand
    while x:
        c = lowest_bit(x)
        if (m >> idx) & 1:
            out |= 1 << c
        idx += 1
        x &= x - 1
    return st, out


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
def exchanges(deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd):
    """EC-PROPOSE / EC-STOCK / EC-DEALER-MIN: the proposal rounds, exchanges and draws.

    Returns (p, stc, stb, sto, elder, dealer, rounds, ending, played without proposing, refused
    round, proposed first, elder's discards, the dealer's discards): the discards are the cards
    each player put out over all rounds (what he knows to be out of play; search.py uses them)."""
    force = pe[P_FORCE_FIRST]
    stock_left = 32 - p
    rnd = 0
    ending = 0
    pwp = 0
    refused_round = -1
    proposed_first = 0
    e_disc = 0
    d_disc = 0
    # EC-PROPOSE / EC-STOCK / EC-DEALER-MIN
    while True:
        if stock_left == 0:
            break
        if rnd == 0 and force >= 0:
            propose = force >= 1
        elif pe[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            propose = r == 1
        else:
            propose = strength(elder, t) < pe[P_ELDER_PLAY_THRESHOLD]
        if rnd == 0:
            proposed_first = 1 if propose else 0
        if not propose:
            if rnd == 0:
                pwp = 1
            break
        if rnd == 0 and pd[P_FORCE_RESPONSE] >= 0:
            refuse = pd[P_FORCE_RESPONSE] == 1
        elif pd[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            refuse = r != 0
        else:
            refuse = strength(dealer, t) >= pd[P_DEALER_REFUSE_THRESHOLD]
        if refuse:
            ending = 1
            refused_round = rnd
            break
        hi = min(5, stock_left)
        if pe[P_KIND] == KIND_RANDOM:
            sto, disc = random_discard(elder, 1, hi, sto)
        else:
            disc = chosen_discard(pe, elder, t, 1, hi, rnd)
            if disc < 0:
                disc = heuristic_discard(elder, t, 1, hi, pe[P_KEEP_PLAIN_MIN_RANK])
        k = popcount(disc)
        elder &= ~disc
        e_disc |= disc
        for _ in range(k):
            stc, stb, c = draw(deck, p, stc, stb)
            p += 1
            elder |= 1 << c
        stock_left -= k
        hi = min(5, stock_left)
        if hi > 0:
            lo = min(rules[R_DEALER_MIN_DISCARD], stock_left)
            if pd[P_KIND] == KIND_RANDOM:
                sto, disc = random_discard(dealer, lo, hi, sto)
            else:
                disc = chosen_discard(pd, dealer, t, lo, hi, rnd)
                if disc < 0:
                    disc = heuristic_discard(dealer, t, lo, hi, pd[P_KEEP_PLAIN_MIN_RANK])
            k = popcount(disc)
            dealer &= ~disc
            d_disc |= disc
            for _ in range(k):
                stc, stb, c = draw(deck, p, stc, stb)
                p += 1
                dealer |= 1 << c
            stock_left -= k
        rnd += 1
    return p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused_round, proposed_first, e_disc, d_disc


@njit(cache=True, inline="always")
def announce_kings(elder, dealer, t, sto, pe, pd):
    """EC-KING: elder first, then the dealer; returns (sto, announced: 1 elder | 2 dealer)."""
    king = 8 * t + 7
    announced = 0
    if (elder >> king) & 1:
        if pe[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            if r == 1:
                announced |= 1
        elif pe[P_ANNOUNCE_KING]:
            announced |= 1
    if (dealer >> king) & 1:
        if pd[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            if r == 1:
                announced |= 2
        elif pd[P_ANNOUNCE_KING]:
            announced |= 2
    return sto, announced


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


@njit(cache=True, inline="always")
def penalties(ending, pwp, refused_round, rules):
    """EC-PENALTY: (elder penalised, dealer penalised) for the hand's ending (write_result, the solver).

    ``ending`` 1 = the dealer refused (in ``refused_round``); ``pwp`` 1 = elder played without
    proposing."""
    first_ok = (rules[R_REFUSAL_PENALTY_FIRST_ONLY] == 0) | (refused_round == 0)
    refused = ending == 1
    on_dealer = rules[R_REFUSAL_PENALISES_DEALER] != 0
    pen_elder = (pwp == 1) | (refused & (not on_dealer) & first_ok)
    pen_dealer = refused & on_dealer & first_ok
    return np.int64(pen_elder), np.int64(pen_dealer)


@njit(cache=True, inline="always")
def trick_points(etricks, pen_elder, pen_dealer, rules):
    """EC-POINT / EC-PENALTY: (elder's, dealer's) points for elder taking ``etricks`` of 5.

    The winner scores 1 (vole 2), or the penalty point (penalty vole) when the loser is the
    penalised side."""
    vole = (etricks == 5) | (etricks == 0)
    normal = 2 if vole else 1
    penalty = rules[R_PENALTY_VOLE] if vole else rules[R_PENALTY_POINT]
    elder_wins = np.int64(etricks >= 3)
    ept = elder_wins * (penalty if pen_dealer else normal)
    dpt = (1 - elder_wins) * (penalty if pen_elder else normal)
    return ept, dpt


@njit(cache=True, inline="always")
def hand_points(turnup, etricks, ending, announced, pwp, refused_round, rules):
    """EC-POINT / EC-PENALTY / EC-KING: (elder's points, the dealer's, elder's trick points, the
    dealer's, 1 if the turn-up is a king) of a finished hand."""
    pen_elder, pen_dealer = penalties(ending, pwp, refused_round, rules)
    ept, dpt = trick_points(etricks, pen_elder, pen_dealer, rules)
    tk = 1 if (turnup & 7) == 7 else 0
    return ept + (announced & 1), dpt + (announced >> 1) + tk, ept, dpt, tk


@njit(cache=True, inline="always")
def write_result(out, turnup, etricks, ending, rnd, announced, drawn, proposed_first, pwp, refused_round, rules):
    """EC-POINT / EC-PENALTY: score the hand and write the outcome fields of ``out``."""
    ep, dp, ept, dpt, tk = hand_points(turnup, etricks, ending, announced, pwp, refused_round, rules)
    out[O_ELDER_POINTS] = ep
    out[O_DEALER_POINTS] = dp
    out[O_ELDER_TRICKS] = etricks
    out[O_ENDING] = ending
    out[O_ROUNDS] = rnd
    out[O_ANNOUNCED] = announced
    out[O_STOCK_DRAWN] = drawn
    out[O_PROPOSED_FIRST] = proposed_first
    out[O_PLAYED_WITHOUT_PROPOSING] = pwp
    out[O_ELDER_TRICK_POINTS] = ept
    out[O_DEALER_TRICK_POINTS] = dpt
    out[O_TURNUP_KING] = tk


@njit(cache=True, _nrt=False)
def play_hand(deck, p, stc, stb, sto, elder, dealer, turnup, rules, pe, pd, out, record=True):
    """Play one dealt hand to the end and write its outcome vector (O_*) into ``out``.

    ``deck[p:]`` holds the undealt cards (the stock is fixed lazily from position p); ``stc`` (with
    its half-buffer ``stb``) and ``sto`` are the cards and choices streams; ``pe``/``pd`` the elder's and dealer's policy arrays.
    Without ``record`` the final hands and the cards of the tricks are not written (speed).
    Compiled without reference counting (see hands_chunk); it allocates nothing.
    """
    t = turnup >> 3
    out[O_TURNUP] = turnup
    out[O_ELDER_DEALT] = elder
    out[O_DEALER_DEALT] = dealer
    p0 = p
    p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused_round, proposed_first, _, _ = exchanges(
        deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd)
    if record:
        out[O_ELDER_FINAL] = elder
        out[O_DEALER_FINAL] = dealer
    sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
    sto, etricks = play_tricks(elder, dealer, t, sto, rules, pe, pd, out, record)
    write_result(out, turnup, etricks, ending, rnd, announced, p - p0, proposed_first, pwp, refused_round, rules)


# The same function inlined (at numba's IR level) into the hot single-hand kernel: a call passes
# arrays, and numba's reference counting on them costs four atomic operations per hand. Only
# hands_block uses it, since inlining multiplies compile time.
play_hand_inline = njit(cache=True, inline="always")(play_hand.py_func)


@njit(cache=True, inline="always")
def uses_choices(pe, pd):
    """True when a policy draws from the choices stream (heuristic players never do)."""
    return pe[P_KIND] == KIND_RANDOM or pd[P_KIND] == KIND_RANDOM


@njit(cache=True)
def hand_outcomes(seed, start, n, rules, pe, pd):
    """Outcome vectors of hands start..start+n-1 (for the differential test and records)."""
    res = np.zeros((n, N_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        play_hand(deck, 11, stc, stb, sto, elder, dealer, turnup, rules, pe, pd, res[k])
    return res


# Tallies of single hands (salon simulate ecarte). The kernel keeps a compact histogram per chunk
# (five increments per hand); ``hand_tallies`` turns it into the named tallies T_*.
H_POINTS = 0  # 36 cells: elder's points * 6 + dealer's points (0..5 each)
H_TRICKS = 36  # 6 cells: tricks elder took
H_FLAGS = 42  # 64 cells: turn-up king | elder dealt trump king <<1 | proposed <<2 | refused <<3 | announced <<4
H_TRUMPS = 106  # 12 cells: trumps elder was dealt * 2 + (dealer dealt 2+ trumps)
H_ROUNDS, H_STOCK_DRAWN = 118, 119
N_HIST = 120

T_HANDS, T_TURNUP_KING, T_ELDER_DEALT_TRUMP_KING, T_ELDER_WINS_POINT, T_VOLE = 0, 1, 2, 3, 4
T_ELDER_PROPOSES, T_DEALER_REFUSES, T_PLAYED_WITHOUT_PROPOSING = 5, 6, 7
T_ELDER_POINTS, T_ELDER_POINTS_SQ, T_DEALER_POINTS, T_DEALER_POINTS_SQ = 8, 9, 10, 11
T_NET, T_NET_SQ = 12, 13
T_ELDER_TRUMPS = 14  # 6 entries: elder dealt 0..5 trumps
T_ONE_TRUMP, T_ONE_TRUMP_DEALER_TWO_PLUS = 20, 21
T_ELDER_TRICKS, T_ROUNDS, T_ELDER_ANNOUNCES, T_DEALER_ANNOUNCES, T_STOCK_DRAWN = 22, 23, 24, 25, 26
T_ELDER_VOLE, T_DEALER_VOLE = 27, 28
N_TALLY = 29


@njit(cache=True, inline="always")
def tally_hand(h, out):
    """Add one hand's outcome vector to a histogram row (H_* layout)."""
    tally_fields(h, out[O_TURNUP], out[O_ELDER_DEALT], out[O_DEALER_DEALT], out[O_ELDER_POINTS],
                 out[O_DEALER_POINTS], out[O_ELDER_TRICKS], out[O_PROPOSED_FIRST], out[O_ENDING],
                 out[O_ANNOUNCED], out[O_ROUNDS], out[O_STOCK_DRAWN])


@njit(cache=True, inline="always")
def tally_fields(h, turnup, elder_dealt, dealer_dealt, elder_points, dealer_points, etricks, proposed, ending,
                 announced, rnd, drawn):
    """Add one hand to a histogram row (H_* layout) from its outcome's fields."""
    t = turnup >> 3
    tmask = 0xFF << (8 * t)
    h[H_POINTS + elder_points * 6 + dealer_points] += 1
    h[H_TRICKS + etricks] += 1
    tk = 1 if (turnup & 7) == 7 else 0
    flags = (tk | (((elder_dealt >> (8 * t + 7)) & 1) << 1) | (proposed << 2) | (ending << 3) | (announced << 4))
    h[H_FLAGS + flags] += 1
    two = 1 if popcount(dealer_dealt & tmask) >= 2 else 0
    h[H_TRUMPS + popcount(elder_dealt & tmask) * 2 + two] += 1
    h[H_ROUNDS] += rnd
    h[H_STOCK_DRAWN] += drawn


def hand_tallies(h: np.ndarray) -> np.ndarray:
    """The named tallies (T_* layout) from a summed histogram (H_* layout)."""
    h = np.asarray(h, dtype=np.int64)
    t = np.zeros(N_TALLY, dtype=np.int64)
    pts = h[H_POINTS:H_POINTS + 36].reshape(6, 6)
    ep = np.arange(6)[:, None]
    dp = np.arange(6)[None, :]
    n = int(pts.sum())
    t[T_HANDS] = n
    t[T_ELDER_POINTS] = (pts * ep).sum()
    t[T_ELDER_POINTS_SQ] = (pts * ep * ep).sum()
    t[T_DEALER_POINTS] = (pts * dp).sum()
    t[T_DEALER_POINTS_SQ] = (pts * dp * dp).sum()
    t[T_NET] = (pts * (ep - dp)).sum()
    t[T_NET_SQ] = (pts * (ep - dp) ** 2).sum()
    tricks = h[H_TRICKS:H_TRICKS + 6]
    t[T_ELDER_WINS_POINT] = tricks[3:].sum()
    t[T_ELDER_VOLE] = tricks[5]
    t[T_DEALER_VOLE] = tricks[0]
    t[T_VOLE] = tricks[0] + tricks[5]
    t[T_ELDER_TRICKS] = (tricks * np.arange(6)).sum()
    flags = h[H_FLAGS:H_FLAGS + 64]
    f = np.arange(64)
    t[T_TURNUP_KING] = flags[(f & 1) == 1].sum()
    t[T_ELDER_DEALT_TRUMP_KING] = flags[(f >> 1) & 1 == 1].sum()
    t[T_ELDER_PROPOSES] = flags[(f >> 2) & 1 == 1].sum()
    t[T_PLAYED_WITHOUT_PROPOSING] = n - t[T_ELDER_PROPOSES]
    t[T_DEALER_REFUSES] = flags[(f >> 3) & 1 == 1].sum()
    t[T_ELDER_ANNOUNCES] = flags[(f >> 4) & 1 == 1].sum()
    t[T_DEALER_ANNOUNCES] = flags[(f >> 5) & 1 == 1].sum()
    trumps = h[H_TRUMPS:H_TRUMPS + 12].reshape(6, 2)
    t[T_ELDER_TRUMPS:T_ELDER_TRUMPS + 6] = trumps.sum(axis=1)
    t[T_ONE_TRUMP] = trumps[1].sum()
    t[T_ONE_TRUMP_DEALER_TWO_PLUS] = trumps[1, 1]
    t[T_ROUNDS] = h[H_ROUNDS]
    t[T_STOCK_DRAWN] = h[H_STOCK_DRAWN]
    return t


@njit(cache=True, inline="always")
def exchange_phase(deck, useed, ui, rules, pe, pd):
    """Deal hand ``ui`` and play its exchanges and kings under heuristic policies (no choices
    stream); returns what the tricks and the tally need."""
    stc = stream_start(useed, ui, np.uint64(0))
    stc, stb, elder_dealt, dealer_dealt, turnup = deal(deck, stc, EMPTY_HALF)
    t = turnup >> 3
    p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed, _, _ = exchanges(
        deck, 11, stc, stb, np.uint64(0), elder_dealt, dealer_dealt, t, rules, pe, pd)
    sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
    return elder, dealer, turnup, elder_dealt, dealer_dealt, p - 11, rnd, ending, pwp, refused, proposed, announced


@njit(cache=True, inline="always")
def tally_scored(h, turnup, elder_dealt, dealer_dealt, etricks, drawn, rnd, ending, pwp, refused, proposed, announced,
                 rules):
    """Score a hand (as write_result) and add it to a histogram row, without an outcome vector."""
    ep, dp, _, _, _ = hand_points(turnup, etricks, ending, announced, pwp, refused, rules)
    tally_fields(h, turnup, elder_dealt, dealer_dealt, ep, dp, etricks, proposed, ending, announced, rnd, drawn)


@njit(cache=True, _nrt=False)
def hands_chunk(useed, start, count, rules, pe, pd, deck, deck_b, out, row):
    """Add the hands start..start+count-1 to the histogram row ``row`` (the body of hands_block's
    loop; ``deck``, ``deck_b`` and ``out`` are scratch arrays).

    With heuristic players, hands go in pairs whose tricks are interleaved (the same results as
    ``play_hand``, faster: one hand's trick play is a chain of dependent steps). Compiled without
    numba's reference counting: the inlined helpers take arrays, and the atomic increments and
    decrements on them were about a fifth of its time."""
    choices = uses_choices(pe, pd)
    i = start
    end = start + count
    if not choices:
        must = rules[R_MUST_TRUMP_WHEN_VOID]
        e_lead = pe[P_LEAD_TRUMPS]
        d_lead = pd[P_LEAD_TRUMPS]
        while i + 1 < end:
            ea, da, ua, ea0, da0, drawn_a, rnd_a, end_a, pwp_a, ref_a, prop_a, ann_a = exchange_phase(
                deck, useed, np.uint64(i), rules, pe, pd)
            eb, db, ub, eb0, db0, drawn_b, rnd_b, end_b, pwp_b, ref_b, prop_b, ann_b = exchange_phase(
                deck_b, useed, np.uint64(i + 1), rules, pe, pd)
            tricks_a, tricks_b = heuristic_tricks_pair(ea, da, ua >> 3, eb, db, ub >> 3, e_lead, d_lead, must)
            tally_scored(row, ua, ea0, da0, tricks_a, drawn_a, rnd_a, end_a, pwp_a, ref_a, prop_a, ann_a, rules)
            tally_scored(row, ub, eb0, db0, tricks_b, drawn_b, rnd_b, end_b, pwp_b, ref_b, prop_b, ann_b, rules)
            i += 2
    while i < end:
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        play_hand_inline(deck, 11, stc, stb, sto, elder, dealer, turnup, rules, pe, pd, out, False)
        tally_hand(row, out)
        i += 1


@njit(cache=True, parallel=True)
def hands_block(seed, starts, counts, rules, pe, pd):
    """Histogram rows (N_HIST per chunk) of the hands in each chunk [starts[c], starts[c] + counts[c])."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_HIST), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        # Private arrays only (copies of the parameters, a fresh row): numba's reference counts on
        # arrays shared by the threads would bounce one cache line between the cores.
        row = np.zeros(N_HIST, dtype=np.int64)
        hands_chunk(useed, starts[ci], counts[ci], rules.copy(), pe.copy(), pd.copy(), np.empty(32, dtype=np.int8),
                    np.empty(32, dtype=np.int8), np.zeros(N_OUT, dtype=np.int64), row)
        tallies[ci, :] = row
    return tallies


# Tallies of games to the target (salon simulate ecarte --game).
G_GAMES, G_FIRST_DEALER_WINS, G_HANDS, G_HANDS_SQ, G_WINNER_MARGIN = 0, 1, 2, 3, 4
N_GAME_TALLY = 5


@njit(cache=True)
def play_game(seed, g, rules, pa, pb, deck, out):
    """EC-GAME: play game g to the target; returns (A's score, B's score, hands played)."""
    target = rules[R_TARGET]
    score = np.zeros(2, dtype=np.int64)  # 0 = A (elder in hand 0), 1 = B (first dealer)
    useed = np.uint64(seed)
    ug = np.uint64(g)
    h = 0
    while True:
        elder_is_a = h % 2 == 0
        e_idx = 0 if elder_is_a else 1
        d_idx = 1 - e_idx
        stc = stream_start(useed, ug, np.uint64(2 * h))
        sto = stream_start(useed, ug, np.uint64(2 * h + 1))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        if elder_is_a:
            play_hand(deck, 11, stc, stb, sto, elder, dealer, turnup, rules, pa, pb, out, False)
        else:
            play_hand(deck, 11, stc, stb, sto, elder, dealer, turnup, rules, pb, pa, out, False)
        h += 1
        # Points in the order they are scored; the game ends the moment one reaches the target.
        score[d_idx] += out[O_TURNUP_KING]
        if score[d_idx] >= target:
            break
        score[e_idx] += out[O_ANNOUNCED] & 1
        if score[e_idx] >= target:
            break
        score[d_idx] += out[O_ANNOUNCED] >> 1
        if score[d_idx] >= target:
            break
        score[e_idx] += out[O_ELDER_TRICK_POINTS]
        score[d_idx] += out[O_DEALER_TRICK_POINTS]
        if score[0] >= target or score[1] >= target:
            break
    return score[0], score[1], h


@njit(cache=True, parallel=True)
def games_block(seed, starts, counts, rules, pa, pb):
    """Tallies (N_GAME_TALLY per chunk) of the games in each chunk."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_GAME_TALLY), dtype=np.int64)
    for ci in prange(nc):
        deck = np.empty(32, dtype=np.int8)
        out = np.empty(N_OUT, dtype=np.int64)
        row = np.zeros(tallies.shape[1], dtype=np.int64)  # private (see hands_block)
        my_rules = rules.copy()  # private copies (see hands_block)
        my_pa = pa.copy()
        my_pb = pb.copy()
        for g in range(starts[ci], starts[ci] + counts[ci]):
            a, b, h = play_game(seed, g, my_rules, my_pa, my_pb, deck, out)
            row[G_GAMES] += 1
            row[G_FIRST_DEALER_WINS] += 1 if b > a else 0
            row[G_HANDS] += h
            row[G_HANDS_SQ] += h * h
            row[G_WINNER_MARGIN] += abs(a - b)
        tallies[ci, :] = row
    return tallies


@njit(cache=True)
def game_results(seed, start, n, rules, pa, pb):
    """Per game: A's score, B's score, hands played (for the differential test)."""
    res = np.zeros((n, 3), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    out = np.empty(N_OUT, dtype=np.int64)
    for k in range(n):
        a, b, h = play_game(seed, start + k, rules, pa, pb, deck, out)
        res[k, 0] = a
        res[k, 1] = b
        res[k, 2] = h
    return res


# Paired comparisons: two configurations (policies and forced first decisions) played on the same
# deal with the same streams. Layout of a comparison row ("a" and "b" are the two configurations).
C_N, C_A_WINS, C_A_NET, C_A_NET_SQ = 0, 1, 2, 3
C_B_WINS, C_B_NET, C_B_NET_SQ, C_DIFF, C_DIFF_SQ = 4, 5, 6, 7, 8
C_A_VOLE, C_B_VOLE, C_B_REFUSED, C_B_PROPOSED = 9, 10, 11, 12
N_COMPARE = 13


@njit(cache=True, inline="always")
def compare_both(deck, deck2, p, stc, stb, sto, elder, dealer, turnup, rules, cfg, out, row):
    """Play the dealt hand under configuration a and under b; add the pair (b - a) to ``row``.

    ``cfg`` rows: elder's and dealer's policy arrays of a, then of b.

    Nets are elder's points minus the dealer's; ``deck`` is left as b consumed it.
    """
    for i in range(32):
        deck2[i] = deck[i]
    play_hand(deck2, p, stc, stb, sto, elder, dealer, turnup, rules, cfg[0], cfg[1], out, False)
    net_a = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    row[C_A_WINS] += 1 if out[O_ELDER_TRICKS] >= 3 else 0
    row[C_A_VOLE] += 1 if out[O_ELDER_TRICKS] == 5 else 0
    play_hand(deck, p, stc, stb, sto, elder, dealer, turnup, rules, cfg[2], cfg[3], out, False)
    net_b = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    row[C_B_WINS] += 1 if out[O_ELDER_TRICKS] >= 3 else 0
    row[C_B_VOLE] += 1 if out[O_ELDER_TRICKS] == 5 else 0
    row[C_B_REFUSED] += out[O_ENDING]
    row[C_B_PROPOSED] += out[O_PROPOSED_FIRST]
    row[C_N] += 1
    row[C_A_NET] += net_a
    row[C_A_NET_SQ] += net_a * net_a
    row[C_B_NET] += net_b
    row[C_B_NET_SQ] += net_b * net_b
    d = net_b - net_a
    row[C_DIFF] += d
    row[C_DIFF_SQ] += d * d


@njit(cache=True)
def paired_scratch(rules, cfg, width):
    """A thread's private arrays for a paired kernel: two decks, an outcome vector, copies of the
    rule and configuration arrays, and a tally row of ``width`` (see hands_block on why private)."""
    return (np.empty(32, dtype=np.int8), np.empty(32, dtype=np.int8), np.empty(N_OUT, dtype=np.int64),
            rules.copy(), cfg.copy(), np.zeros(width, dtype=np.int64))


@njit(cache=True, parallel=True)
def pair_block(seed, starts, counts, rules, cfg):
    """Paired tallies (N_COMPARE per chunk) of two configurations on the same random deals."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_COMPARE), dtype=np.int64)
    useed = np.uint64(seed)
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    for ci in prange(nc):
        deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, tallies.shape[1])
        for i in range(starts[ci], starts[ci] + counts[ci]):
            ui = np.uint64(i)
            stc = stream_start(useed, ui, np.uint64(0))
            sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
            stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
            compare_both(deck, deck2, 11, stc, stb, sto, elder, dealer, turnup, my_rules, my_cfg, out, row)
        tallies[ci, :] = row
    return tallies


@njit(cache=True, parallel=True)
def fixed_hand_block(seed, starts, counts, elder_codes, turnup, rules, cfg):
    """Paired tallies of two configurations for one given elder hand and turn-up, over sampled deals."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_COMPARE), dtype=np.int64)
    useed = np.uint64(seed)
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    elder = 0
    for c in elder_codes:
        elder |= 1 << c
    for ci in prange(nc):
        deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, tallies.shape[1])
        for i in range(starts[ci], starts[ci] + counts[ci]):
            ui = np.uint64(i)
            stc = stream_start(useed, ui, np.uint64(0))
            sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
            stc, stb, dealer = deal_with_elder(deck, stc, EMPTY_HALF, elder_codes, turnup)
            compare_both(deck, deck2, 11, stc, stb, sto, elder, dealer, turnup, my_rules, my_cfg, out, row)
        tallies[ci, :] = row
    return tallies


@njit(cache=True, inline="always")
def hand_class(hand, turnup, class_ids):
    """Class of a dealt hand: class_ids[trumps, trump king held, plain kings] (-1: none)."""
    t = turnup >> 3
    tl = (hand >> (8 * t)) & 0xFF
    pk = popcount(hand & ~(0xFF << (8 * t)) & KINGS)
    return class_ids[popcount(tl), (tl >> 7) & 1, pk]


@njit(cache=True, inline="always")
def sure_winners(hand, turnup):
    """EC-T2's sure trick winners: master trumps (unbroken from the K, the turn-up counting as
    seen) plus plain kings."""
    t = turnup >> 3
    tl = (hand >> (8 * t)) & 0xFF
    seen = tl | (1 << (turnup & 7))
    n = 0
    for r in range(7, -1, -1):
        if not (seen >> r) & 1:
            break
        if (tl >> r) & 1:
            n += 1
    return n + popcount(hand & ~(0xFF << (8 * t)) & KINGS)


@njit(cache=True, inline="always")
def has_ten_nine_eight(hand):
    """True when the hand holds 10, 9 and 8 of one suit (EC-T3)."""
    m = 0b1110
    for s in range(4):
        if ((hand >> (8 * s)) & m) == m:
            return True
    return False


CLASS_SHIFT = 32
"""Deal i of hand class c has stream index ``c << CLASS_SHIFT | i`` (class_block)."""


@njit(cache=True, parallel=True)
def class_block(seed, starts, counts, class_ids, rules, cfg):
    """Paired tallies per chunk of deals of one elder hand class, found by rejection.

    A chunk's stream indices ``c << CLASS_SHIFT | i`` name its class c and deals i: lane 0 deals
    until elder's hand falls in class c (the rejected deals use up the same stream), lane 1 is the
    choices stream.
    """
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_COMPARE), dtype=np.int64)
    useed = np.uint64(seed)
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    for ci in prange(nc):
        deck, deck2, out, my_rules, my_cfg, row = paired_scratch(rules, cfg, tallies.shape[1])
        cls = starts[ci] >> CLASS_SHIFT
        for i in range(starts[ci], starts[ci] + counts[ci]):
            ui = np.uint64(i)
            stc = stream_start(useed, ui, np.uint64(0))
            sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
            while True:
                stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
                if hand_class(elder, turnup, class_ids) == cls:
                    break
            compare_both(deck, deck2, 11, stc, stb, sto, elder, dealer, turnup, my_rules, my_cfg, out, row)
        tallies[ci, :] = row
    return tallies


@njit(cache=True, parallel=True)
def cells_block(seed, starts, counts, class_ids, n_classes, by_dealer, rules, cfg):
    """Paired tallies per cell (class, sure winners 0..5, holds 10-9-8) over random deals.

    The cell is computed on elder's dealt hand, or on the dealer's when ``by_dealer``; with
    ``by_dealer`` only deals in which elder proposed first (under configuration b) are tallied.
    """
    nc = starts.shape[0]
    tallies = np.zeros((nc, n_classes * 12, N_COMPARE), dtype=np.int64)
    useed = np.uint64(seed)
    choices = uses_choices(cfg[0], cfg[1]) or uses_choices(cfg[2], cfg[3])
    for ci in prange(nc):
        deck, deck2, out, my_rules, my_cfg, scratch = paired_scratch(rules, cfg, N_COMPARE)
        for i in range(starts[ci], starts[ci] + counts[ci]):
            ui = np.uint64(i)
            stc = stream_start(useed, ui, np.uint64(0))
            sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
            stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
            hand = dealer if by_dealer else elder
            cell = (hand_class(hand, turnup, class_ids) * 6 + sure_winners(hand, turnup)) * 2
            cell += 1 if has_ten_nine_eight(hand) else 0
            scratch[:] = 0
            compare_both(deck, deck2, 11, stc, stb, sto, elder, dealer, turnup, my_rules, my_cfg, out, scratch)
            if by_dealer and scratch[C_B_PROPOSED] == 0:
                continue
            for k in range(N_COMPARE):
                tallies[ci, cell, k] += scratch[k]
    return tallies

"""Kernels of the Écarté strategy tables (analysis/ecarte/studies/strategy/tables.py).

Hands are taken relative to the trump suit, which is suit 0 here: a hand's index in a decision
table is its rank among the C(32, 5) five-card masks (``bits.rank_of_mask``). The elder block plays the
hands of one elder hand ("item") twice on the same deal, playing and proposing; the dealer block
plays one dealer hand accepting and refusing, on deals in which elder proposed by his table. The
rest of the hand is played by the policies of ``kernel.play_hand`` (heuristic exchanges and trick
play), with the tables deciding elder's first proposal and the dealer's first answer.

Deal i of item h has stream index ``h << ITEM_SHIFT | i``: lane 0 deals, lane 1 is the choices
stream, lane 2 draws the turn-up (uniform among the trumps not in the fixed hand: the turn-up's
rank is marginalised).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, nth_bit, popcount, rank_of_mask
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.deal import deal_with_elder, strength
from analysis.ecarte.engine.layout import (
    N_OUT,
    O_ANNOUNCED,
    O_DEALER_POINTS,
    O_DEALER_TRICK_POINTS,
    O_ELDER_POINTS,
    O_ELDER_TRICK_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_TURNUP_KING,
)
from analysis.ecarte.play.hand import play_hand, uses_choices
from analysis.ecarte.play.paired import sure_winners
from analysis.ecarte.players.heuristic import heuristic_discard
from analysis.ecarte.policies import P_FORCE_DISCARD, P_FORCE_FIRST, P_FORCE_RESPONSE, P_KEEP_PLAIN_MIN_RANK
from analysis.rng import EMPTY_HALF, below, stream_start

ITEM_SHIFT = 32
N_HANDS = 201_376  # C(32, 5)
GROUPS = 64
"""Chunks are taken by this many groups, each with its own copies of the arrays: policy arrays
that carry a discard table are large, so a copy per chunk would cost more than the chunk."""
MAX_TRIES = 100_000
"""Deals tried per sample of the dealer block before giving up (elder never proposes)."""

# Outcome cells of a hand (who scored the king point, and the trick points: every point of the
# hand; the king point is scored before the tricks', EC-GAME, so a score chain can follow the
# order). King is 0 (no king point), 1 (elder announced the trump king), 2 (the turn-up is the
# king: the dealer's) or 3 (the dealer announced it). Exactly one side scores trick points, 1 to 4
# (EC-POINT, EC-PENALTY; penalty_point and penalty_vole go up to 4). Trick points up to 3 (every
# hand under the named variants) are cell king * 16 + elder's points * 4 + the dealer's, the first
# BASE_CELLS; a 4 (a penalty override) is cell BASE_CELLS + king * 2 + 0 (elder scored it) or 1 (the
# dealer did). Of the 72 cells 32 can occur (4 kings x 8 trick outcomes).
BASE_CELLS = 64
N_CELLS = BASE_CELLS + 8
KING_NONE, KING_ELDER, KING_TURNUP, KING_DEALER = 0, 1, 2, 3
# Row of an item's tallies: a = playing (elder block) or accepting (dealer block), b = proposing or
# refusing; DIFF is b's elder net minus a's; TIP counts deals where the rule of thumb picks b
# (elder: fewer than 3 sure winners, EC-T2), with the sums of the difference over them.
R_N = 0
R_A = 1
R_B = R_A + N_CELLS
R_DIFF = R_B + N_CELLS
R_DIFF_SQ = R_DIFF + 1
R_A_VOLE = R_DIFF + 2
R_B_VOLE = R_DIFF + 3
R_B_REFUSED = R_DIFF + 4
R_TIP_N = R_DIFF + 5
R_TIP_DIFF = R_DIFF + 6
R_TIP_DIFF_SQ = R_DIFF + 7
R_TRIES = R_DIFF + 8
N_ROW = R_DIFF + 9


@njit(cache=True)
def all_hands():
    """Every five-card mask, by rank."""
    out = np.empty(N_HANDS, dtype=np.int64)
    for a in range(32):
        for b in range(a):
            for c in range(b):
                for d in range(c):
                    for e in range(d):
                        m = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
                        out[rank_of_mask(m)] = m
    return out


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def heuristic_tables(elder_threshold, dealer_threshold):
    """The heuristic policy's first decisions on every hand (trumps suit 0): elder proposes (1)
    below ``elder_threshold``, the dealer refuses (1) from ``dealer_threshold``."""
    hands = all_hands()
    elder = np.zeros(N_HANDS, dtype=np.int8)
    dealer = np.zeros(N_HANDS, dtype=np.int8)
    for r in range(N_HANDS):
        s = strength(hands[r], 0)
        elder[r] = 1 if s < elder_threshold else 0
        dealer[r] = 1 if s >= dealer_threshold else 0
    return elder, dealer


@njit(cache=True, inline="always")
def make_cell(king, elder_points, dealer_points):
    """The outcome cell of a hand's king and trick points (see N_CELLS)."""
    if elder_points == 4 or dealer_points == 4:
        return BASE_CELLS + king * 2 + (1 if dealer_points == 4 else 0)
    return king * 16 + elder_points * 4 + dealer_points


@njit(cache=True, inline="always")
def cell_king(cell):
    """Who scored the king point in an outcome cell (KING_*)."""
    return (cell - BASE_CELLS) >> 1 if cell >= BASE_CELLS else cell >> 4


@njit(cache=True, inline="always")
def elder_trick_points(cell):
    """Elder's trick points in an outcome cell."""
    if cell >= BASE_CELLS:
        return 0 if cell & 1 else 4
    return (cell >> 2) & 3


@njit(cache=True, inline="always")
def dealer_trick_points(cell):
    """The dealer's trick points in an outcome cell."""
    if cell >= BASE_CELLS:
        return 4 if cell & 1 else 0
    return cell & 3


@njit(cache=True, inline="always")
def outcome_cell(out):
    """The outcome cell of a played hand (see N_CELLS)."""
    ann = out[O_ANNOUNCED]
    king = KING_ELDER if ann & 1 else (KING_TURNUP if out[O_TURNUP_KING] else (KING_DEALER if ann >> 1 else 0))
    return make_cell(king, out[O_ELDER_TRICK_POINTS], out[O_DEALER_TRICK_POINTS])


@njit(cache=True, inline="always")
def elder_net(cell):
    """Elder's points minus the dealer's of an outcome cell."""
    king = cell_king(cell)
    return ((1 if king == KING_ELDER else 0) - (1 if king >= KING_TURNUP else 0) + elder_trick_points(cell)
            - dealer_trick_points(cell))


@njit(cache=True, inline="always")
def turnup_for(hand, st):
    """A turn-up uniform among the trumps (suit 0) not in ``hand``."""
    free = 0xFF & ~hand
    st, j = below(st, popcount(free))
    return st, nth_bit(free, j)


@njit(cache=True, inline="always")
def codes_of(mask, codes):
    k = 0
    m = mask
    while m:
        codes[k] = lowest_bit(m)
        k += 1
        m &= m - 1


@njit(cache=True)
def scratch(rules, width):
    """A group's own arrays: two decks, an outcome vector, a tally row of ``width`` and a copy of
    the rules."""
    return (np.empty(32, dtype=np.int8), np.empty(32, dtype=np.int8), np.empty(N_OUT, dtype=np.int64),
            np.zeros(width, dtype=np.int64), rules.copy())


@njit(cache=True, inline="always")
def item_streams(useed, i, choices):
    """Deal i's streams: cards (lane 0), choices (lane 1, when a policy draws), turn-up (lane 2)."""
    ui = np.uint64(i)
    sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
    return stream_start(useed, ui, np.uint64(0)), sto, stream_start(useed, ui, np.uint64(2))


@njit(cache=True, inline="always")
def deal_meeting(deck, stc, stu, fixed, codes, table, want):
    """Deal around the fixed hand (turn-up first, then the other five) until the other hand's
    ``table`` entry is ``want``, at most MAX_TRIES times. Returns (stc, stb, stu, turn-up, the
    other hand, deals tried, found)."""
    stb = EMPTY_HALF
    turnup = 0
    other = 0
    for k in range(1, MAX_TRIES + 1):
        stu, turnup = turnup_for(fixed, stu)
        stc, stb, other = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
        if table[rank_of_mask(other)] == want:
            return stc, stb, stu, turnup, other, k, True
    return stc, stb, stu, turnup, other, MAX_TRIES, False


@njit(cache=True, inline="always")
def play_pair(deck, deck2, streams, elder, dealer, turnup, rules, a, b, out, row, tip):
    """Play the dealt hand under a and under b (each elder's and the dealer's policy arrays) on the
    same streams; tally both into ``row``."""
    pe_a, pd_a = a
    pe_b, pd_b = b
    for i in range(32):
        deck2[i] = deck[i]
    play_hand(deck2, np.int64(11), streams, elder, dealer, turnup, rules, pe_a, pd_a, out, np.bool_(False))
    ca = outcome_cell(out)
    va = out[O_ELDER_TRICKS] == 5
    play_hand(deck, np.int64(11), streams, elder, dealer, turnup, rules, pe_b, pd_b, out, np.bool_(False))
    cb = outcome_cell(out)
    d = elder_net(cb) - elder_net(ca)
    row[R_N] += 1
    row[R_A + ca] += 1
    row[R_B + cb] += 1
    row[R_DIFF] += d
    row[R_DIFF_SQ] += d * d
    row[R_A_VOLE] += 1 if va else 0
    row[R_B_VOLE] += 1 if out[O_ELDER_TRICKS] == 5 else 0
    row[R_B_REFUSED] += out[O_ENDING]
    if tip:
        row[R_TIP_N] += 1
        row[R_TIP_DIFF] += d
        row[R_TIP_DIFF_SQ] += d * d


@njit(cache=True, nogil=True)
def elder_group(g, useed, starts, counts, hands, dealer_table, rules, pe, pd, tallies):
    """Group g of ``elder_block``: its chunks g, g + groups, ... (GROUPS at most), each into
    its row of ``tallies``."""
    nc = starts.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nc, GROUPS)
    deck, deck2, out, row, my_rules = scratch(rules, N_ROW)
    pe_a = pe.copy()
    pe_b = pe.copy()
    pd_b = pd.copy()
    pe_a[P_FORCE_FIRST] = 0
    pe_b[P_FORCE_FIRST] = 1
    for ci in range(g, nc, groups):
        row[:] = 0
        elder = hands[starts[ci] >> ITEM_SHIFT]
        codes = np.empty(5, dtype=np.int64)
        codes_of(elder, codes)
        for i in range(starts[ci], starts[ci] + counts[ci]):
            stc, sto, stu = item_streams(useed, i, choices)
            stu, turnup = turnup_for(elder, stu)
            stc, stb, dealer = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
            pd_b[P_FORCE_RESPONSE] = dealer_table[rank_of_mask(dealer)]
            tip = sure_winners(elder, turnup) < 3
            play_pair(deck, deck2, (stc, stb, sto), elder, dealer, turnup, my_rules, (pe_a, pd), (pe_b, pd_b),
                      out, row, tip)
        tallies[ci, :] = row


@runs(elder_group)
def elder_block(seed, starts, counts, hands, dealer_table, rules, pe, pd):
    """Per chunk of deals of elder hand ``hands[start >> ITEM_SHIFT]``: playing (a) against
    proposing (b), the dealer answering the first proposal by ``dealer_table``."""
    tallies = np.zeros((len(starts), N_ROW), dtype=np.int64)
    useed = np.uint64(seed)
    on_threads(lambda g: elder_group(g, useed, starts, counts, hands, dealer_table, rules, pe, pd, tallies),
               min(len(starts), GROUPS))
    return tallies


@njit(cache=True, nogil=True)
def dealer_group(g, useed, starts, counts, hands, elder_table, rules, pe, pd, tallies):
    """Group g of ``dealer_block``: its chunks g, g + groups, ... (GROUPS at most), each into
    its row of ``tallies``."""
    nc = starts.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nc, GROUPS)
    deck, deck2, out, row, my_rules = scratch(rules, N_ROW)
    pe_f = pe.copy()
    pd_a = pd.copy()
    pd_b = pd.copy()
    pe_f[P_FORCE_FIRST] = 1
    pd_a[P_FORCE_RESPONSE] = 0
    pd_b[P_FORCE_RESPONSE] = 1
    for ci in range(g, nc, groups):
        row[:] = 0
        dealer = hands[starts[ci] >> ITEM_SHIFT]
        codes = np.empty(5, dtype=np.int64)
        codes_of(dealer, codes)
        for i in range(starts[ci], starts[ci] + counts[ci]):
            stc, sto, stu = item_streams(useed, i, choices)
            # The deal layout with the dealer's hand fixed: the hand drawn is elder's.
            stc, stb, stu, turnup, elder, tries, found = deal_meeting(deck, stc, stu, dealer, codes,
                                                                      elder_table, 1)
            row[R_TRIES] += tries
            if found:
                play_pair(deck, deck2, (stc, stb, sto), elder, dealer, turnup, my_rules, (pe_f, pd_a),
                          (pe_f, pd_b), out, row, False)
        tallies[ci, :] = row


@runs(dealer_group)
def dealer_block(seed, starts, counts, hands, elder_table, rules, pe, pd):
    """Per chunk of deals of dealer hand ``hands[start >> ITEM_SHIFT]`` in which elder proposed
    first by ``elder_table`` (found by rejection; R_TRIES counts the deals tried): accepting (a)
    against refusing (b) the first proposal."""
    tallies = np.zeros((len(starts), N_ROW), dtype=np.int64)
    useed = np.uint64(seed)
    on_threads(lambda g: dealer_group(g, useed, starts, counts, hands, elder_table, rules, pe, pd, tallies),
               min(len(starts), GROUPS))
    return tallies


# Discard evaluation (the exchange chosen, not assumed): per item, every discard of the fixed hand
# on the same deals. Row: n, deals tried, then Σ and Σ² of elder's net per option (option o is
# the subset o of the hand's five cards, ascending codes; 0 = no discard, legal for the dealer
# only when the rules allow it).
D_N = 0
D_TRIES = 1
D_SUM = 2
D_SQ = D_SUM + 32
D_DIFF_SQ = D_SQ + 32  # Σ (net of the option - net of the heuristic's discard)², per option
N_DISCARD_ROW = D_DIFF_SQ + 32


@njit(cache=True, inline="always")
def option_mask(codes, o):
    """The cards of option o: bit b of o takes the hand's b-th card."""
    m = 0
    for b in range(5):
        if (o >> b) & 1:
            m |= 1 << codes[b]
    return m


@njit(cache=True, nogil=True)
def discard_group(g, useed, starts, counts, hands, other_table, as_dealer, first_option, rules, pe, pd,
                  tallies):
    """Group g of ``discard_block``: its chunks g, g + groups, ... (GROUPS at most), each into
    its row of ``tallies``."""
    nc = starts.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nc, GROUPS)
    deck, deck2, out, row, my_rules = scratch(rules, N_DISCARD_ROW)
    my_pe = pe.copy()
    my_pd = pd.copy()
    my_pe[P_FORCE_FIRST] = 1
    my_pd[P_FORCE_RESPONSE] = 0
    nets = np.zeros(32, dtype=np.int64)
    keep = pd[P_KEEP_PLAIN_MIN_RANK] if as_dealer else pe[P_KEEP_PLAIN_MIN_RANK]
    for ci in range(g, nc, groups):
        row[:] = 0
        fixed = hands[starts[ci] >> ITEM_SHIFT]
        codes = np.empty(5, dtype=np.int64)
        codes_of(fixed, codes)
        heuristic = heuristic_discard(fixed, 0, first_option, 5, keep)
        h_opt = 0
        for o in range(32):
            if option_mask(codes, o) == heuristic:
                h_opt = o
        for i in range(starts[ci], starts[ci] + counts[ci]):
            stc, sto, stu = item_streams(useed, i, choices)
            stc, stb, stu, turnup, other, tries, found = deal_meeting(deck, stc, stu, fixed, codes, other_table,
                                                                      1 if as_dealer else 0)
            row[D_TRIES] += tries
            if not found:
                continue
            elder, dealer = (other, fixed) if as_dealer else (fixed, other)
            row[D_N] += 1
            for o in range(first_option, 32):
                if as_dealer:
                    my_pd[P_FORCE_DISCARD] = option_mask(codes, o)
                else:
                    my_pe[P_FORCE_DISCARD] = option_mask(codes, o)
                for k in range(32):
                    deck2[k] = deck[k]
                play_hand(deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, my_pe, my_pd,
                          out, np.bool_(False))
                net = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
                nets[o] = net
                row[D_SUM + o] += net
                row[D_SQ + o] += net * net
            for o in range(first_option, 32):
                d = nets[o] - nets[h_opt]
                row[D_DIFF_SQ + o] += d * d
        tallies[ci, :] = row


@runs(discard_group)
def discard_block(seed, starts, counts, hands, other_table, as_dealer, first_option, rules, pe, pd):
    """Per chunk of deals of hand ``hands[start >> ITEM_SHIFT]``: elder's net under every discard
    option of that hand after a proposal and an acceptance. For elder's hand (``as_dealer``
    False) the deals are those in which the dealer accepts by ``other_table`` (1 = refuse); for
    the dealer's, those in which elder proposes by it (1 = propose). Options
    ``first_option``..31 (0 allows the dealer not to discard). The squared paired differences to
    the heuristic's discard (with the deciding side's keep rank) make its comparisons paired."""
    tallies = np.zeros((len(starts), N_DISCARD_ROW), dtype=np.int64)
    useed = np.uint64(seed)
    on_threads(lambda g: discard_group(g, useed, starts, counts, hands, other_table, as_dealer, first_option,
                                       rules, pe, pd, tallies), min(len(starts), GROUPS))
    return tallies

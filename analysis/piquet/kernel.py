"""The Piquet deal engine in numba: deal, exchanges, declarations, repique, twelve tricks, pique,
the cards; and the partie of six deals with the Rubicon.

Same rules and policies as ``reference.py``, step for step as written in docs/piquet-engine.md, on
32-bit card masks (code = 8 * suit + rank, 7 8 9 10 J Q K A = 0..7). Kernels tally integers per
chunk; the block functions are what ``analysis.runner`` drives.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import highest_bit, lowest_bit, nth_bit, popcount
from analysis.piquet.policies import (
    KIND_RANDOM,
    P_ACE_BONUS,
    P_ELDER_KEEP,
    P_FORCE_COUNT,
    P_FORCE_DISCARD,
    P_FORCE_MASK,
    P_GUARD_BONUS,
    P_KIND,
    P_LEN_WEIGHT,
    P_POINT_BONUS,
    P_SEQUENCE_BONUS,
    P_SET_BONUS,
    P_TRACK_CARDS,
    P_YOUNGER_KEEP,
)
from analysis.piquet.rules import (
    POINT_VALUES,
    R_CAPOT,
    R_CARDS_BONUS,
    R_CARTE_BLANCHE,
    R_LAST_TRICK,
    R_LEAD_POINTS_EVERY_TRICK,
    R_PARTIE_DEALS,
    R_PIQUE,
    R_REPIQUE,
    R_RUBICON,
    R_RUBICON_BONUS,
    R_TIE_EXTRA_DEALS,
    R_YOUNGER_MIN,
    R_YOUNGER_TAKES_LEFTOVERS,
    SEQUENCE_SCORES,
)
from analysis.rng import EMPTY_HALF, below, below32, stream_start

# Outcome vector of one deal (docs/piquet-engine.md, "Outcome vector").
O_TOTAL = 0  # 2 entries: elder, younger (the same pairing for every O_* pair below)
O_CARTE_BLANCHE, O_POINT, O_SEQUENCES, O_SETS, O_REPIQUE = 2, 4, 6, 8, 10
O_PIQUE = 12
O_TRICK_POINTS = 13
O_ELDER_TRICKS = 15
O_CARDS, O_CAPOT = 16, 18
O_TOOK = 20
O_DEALT = 22
O_FINAL = 24
O_PLAYED = 26  # 24 entries: lead, follow for tricks 1..12
N_OUT = 50

ALL = 0xFFFFFFFF
COLUMN = 0x01010101
COURTS = 0x70707070  # J, Q, K of every suit


def _lane_tables():
    """256-entry tables over one suit's 8-bit lane: point value, sequence score and best key,
    the cards in sequences, and the guards of an unaccompanied K or Q (heuristic exchange)."""
    value = np.zeros(256, dtype=np.int64)
    seq_score = np.zeros(256, dtype=np.int64)
    seq_best = np.zeros(256, dtype=np.int64)
    seq_members = np.zeros(256, dtype=np.int64)
    guards = np.zeros(256, dtype=np.int64)
    for lane in range(256):
        ranks = [r for r in range(8) if lane >> r & 1]
        value[lane] = sum(POINT_VALUES[r] for r in ranks)
        r = 0
        while r < 8:
            if lane >> r & 1:
                top = r
                while top + 1 < 8 and lane >> (top + 1) & 1:
                    top += 1
                length = top - r + 1
                if length >= 3:
                    seq_score[lane] += SEQUENCE_SCORES[length]
                    seq_best[lane] = max(seq_best[lane], length * 8 + top)
                    seq_members[lane] |= ((1 << length) - 1) << r
                r = top + 1
            else:
                r += 1
        if ranks and ranks[-1] == 6 and len(ranks) >= 2:
            guards[lane] = 1 << ranks[0]
        elif ranks and ranks[-1] == 5 and len(ranks) >= 3:
            guards[lane] = (1 << ranks[0]) | (1 << ranks[1])
    return value, seq_score, seq_best, seq_members, guards


LANE_VALUE, LANE_SEQ_SCORE, LANE_SEQ_BEST, LANE_SEQ_MEMBERS, LANE_GUARDS = _lane_tables()


@njit(cache=True)
def shuffle(deck, stc):
    """PQ-DEAL: the whole Fisher–Yates shuffle of deck (31 half draws); returns (elder, younger)."""
    half = EMPTY_HALF
    for i in range(32):
        deck[i] = i
    for p in range(31):
        stc, half, j = below32(stc, half, 32 - p)
        j += p
        c = deck[j]
        deck[j] = deck[p]
        deck[p] = c
    elder = 0
    younger = 0
    for p in range(12):
        elder |= 1 << np.int64(deck[p])
        younger |= 1 << np.int64(deck[12 + p])
    return elder, younger


@njit(cache=True, inline="always")
def talon_cards(deck, a, b):
    """Mask of talon indices a..b-1 (talon index t is deck position 24 + t)."""
    m = 0
    for t in range(a, b):
        m |= 1 << np.int64(deck[24 + t])
    return m


@njit(cache=True, inline="always")
def point_key(hand):
    """PQ-POINT: 128 * length + value of the player's point suit (largest key wins)."""
    best = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        key = popcount(lane) * 128 + LANE_VALUE[lane]
        if key > best:
            best = key
    return best


@njit(cache=True, inline="always")
def sequence_key_and_score(hand):
    """PQ-SEQ: (8 * length + top rank of the best sequence or 0, score of all sequences)."""
    best = 0
    score = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        score += LANE_SEQ_SCORE[lane]
        if LANE_SEQ_BEST[lane] > best:
            best = LANE_SEQ_BEST[lane]
    return best, score


@njit(cache=True, inline="always")
def set_key_and_score(hand):
    """PQ-SET: (16 + rank of the best quatorze, else 8 + rank of the best trio, else 0; score)."""
    best = 0
    score = 0
    for r in range(3, 8):
        n = popcount((hand >> r) & COLUMN)
        if n == 4:
            score += 14
            best = 16 + r
        elif n == 3:
            score += 3
            if best < 16:
                best = 8 + r
    return best, score


@njit(cache=True)
def card_values(p, is_younger):
    """The part of the heuristic's keep value that depends on a card's own suit only, for every
    lane and rank: table[8 * lane + rank] (the point-suit and set bonuses are added per hand)."""
    table = np.zeros(2048, dtype=np.int64)
    gb = p[P_GUARD_BONUS] if is_younger else 0
    for lane in range(256):
        n = popcount(lane)
        for r in range(8):
            table[8 * lane + r] = (r + p[P_LEN_WEIGHT] * n + p[P_SEQUENCE_BONUS] * ((LANE_SEQ_MEMBERS[lane] >> r) & 1)
                                   + (p[P_ACE_BONUS] if r == 7 else 0) + gb * ((LANE_GUARDS[lane] >> r) & 1))
    return table


@njit(cache=True, inline="always")
def heuristic_discard(hand, lo, hi, p, values, is_younger, scratch):
    """The heuristic exchange: throw the cards valued below the keep threshold, clamped to lo..hi,
    lowest (value, code) first (docs/piquet-engine.md). ``values`` is ``card_values(p, seat)``."""
    best = -1
    ps = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        key = popcount(lane) * 128 + LANE_VALUE[lane]
        if key > best:
            best = key
            ps = s
    sets = 0
    for r in range(3, 8):
        col = (hand >> r) & COLUMN
        if popcount(col) >= 3:
            sets |= col << r
    keep = p[P_YOUNGER_KEEP] if is_younger else p[P_ELDER_KEEP]
    pb = p[P_POINT_BONUS]
    stb = p[P_SET_BONUS]
    n = 0
    low = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        base = pb if s == ps else 0
        row = 8 * lane
        x = lane
        while x:
            r = lowest_bit(x)
            x &= x - 1
            c = 8 * s + r
            v = values[row + r] + base + stb * ((sets >> c) & 1)
            scratch[n] = v * 32 + c
            n += 1
            low += v < keep
    k = min(max(low, lo), hi)
    if k == 0:
        return 0
    # The k smallest keys: those with fewer than k smaller keys (branch-free counting).
    out = 0
    for i in range(12):  # an exchanging hand always holds 12 cards
        key = scratch[i]
        smaller = 0
        for j in range(12):
            smaller += scratch[j] < key
        out |= (1 << (key & 31)) if smaller < k else 0
    return out


@njit(cache=True, inline="always")
def random_discard(hand, lo, hi, sto):
    """A random discard: the count uniform in lo..hi, then the cards one by one."""
    sto, k = below(sto, hi - lo + 1)
    k += lo
    out = 0
    rest = hand
    for i in range(k):
        sto, j = below(sto, popcount(hand) - i)
        c = nth_bit(rest, j)
        rest &= ~(1 << c)
        out |= 1 << c
    return sto, out


@njit(cache=True, inline="always")
def choose_discard(hand, lo, hi, p, values, is_younger, sto, scratch, force):
    """The discard of the player with policy p: ``force`` (a mask) when it is not -1, else the
    policy's forced discard or count if set, else the random or heuristic choice."""
    if force >= 0:
        return sto, force
    if p[P_FORCE_DISCARD]:
        return sto, p[P_FORCE_MASK]
    if p[P_FORCE_COUNT] >= 0:
        lo = p[P_FORCE_COUNT]
        hi = lo
    if p[P_KIND] == KIND_RANDOM:
        return random_discard(hand, lo, hi, sto)
    return sto, heuristic_discard(hand, lo, hi, p, values, is_younger, scratch)


@njit(cache=True, inline="always")
def smear_down(x):
    """In every 8-bit lane, set all bits below the lane's highest set bit."""
    x |= (x >> 1) & 0x7F7F7F7F
    x |= (x >> 2) & 0x3F3F3F3F
    return x | ((x >> 4) & 0x0F0F0F0F)


@njit(cache=True, inline="always")
def lane_counts(x):
    """The number of set bits of every 8-bit lane, in that lane."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (x + (x >> 4)) & 0x0F0F0F0F


@njit(cache=True, inline="always")
def heuristic_lead(hand, unknown):
    """Highest card of the longest master suit; else lowest card of the longest suit.

    The master suits are found for all four lanes at once: a held suit is master when no card
    above its highest card may be with the opponent."""
    below_top = smear_down(hand)
    threat = smear_down(unknown & ~below_top & ALL) & COLUMN  # lane bit 0: a higher card is out
    masters = below_top & ~threat & COLUMN  # lane bit 0: a held suit with nothing above its top
    if masters:
        # Key per lane: 4 * cards + 3 - suit (most cards, then the lower suit), masters only.
        keys = ((lane_counts(hand) << 2) | 0x00010203) & (masters * 0xFF)
        best = keys & 0xFF
        for s in range(1, 4):
            k = (keys >> (8 * s)) & 0xFF
            best = k if k > best else best
        s = 3 - (best & 3)
        return 8 * s + highest_bit((hand >> (8 * s)) & 0xFF)
    best_o = 0
    card_o = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        key = (popcount(lane) * 64 + highest_bit(lane | 1) * 4 + 4 - s) if lane else 0
        if key > best_o:
            best_o = key
            card_o = 8 * s + lowest_bit(lane)
    return card_o


@njit(cache=True, inline="always")
def heuristic_follow(hand, led):
    """Win as cheaply as possible, else play low; void: the lowest card, from the shortest suit on ties."""
    s = led >> 3
    lane = (hand >> (8 * s)) & 0xFF
    if lane:
        w = lane >> ((led & 7) + 1)
        if w:
            return led + 1 + lowest_bit(w)
        return 8 * s + lowest_bit(lane)
    best = 1 << 20
    card = 0
    for s2 in range(4):
        l2 = (hand >> (8 * s2)) & 0xFF
        if l2:
            key = lowest_bit(l2) * 64 + popcount(l2) * 4 + s2
            if key < best:
                best = key
                card = 8 * s2 + lowest_bit(l2)
    return card


@njit(cache=True, inline="always")
def random_card(cards, sto):
    """The below(n)-th lowest code of n cards."""
    sto, j = below(sto, popcount(cards))
    return sto, nth_bit(cards, j)


@njit(cache=True, inline="always")
def declaration_event(me, opp, pts, rep_done, rep_value):
    """Add a declaration score; returns (new total, repique gained) per PQ-REPIQUE."""
    if pts <= 0:
        return me, 0
    me += pts
    if not rep_done and me >= 30 and opp == 0:
        return me + rep_value, rep_value
    return me, 0


@njit(cache=True)
def play_deal(deck, stc, sto, rules, pe, py, ve, vy, out, scratch, record):
    """One whole deal (docs/piquet-engine.md, "One deal"); fills ``out`` (O_* layout).

    ``ve``, ``vy``: ``card_values`` of elder's and younger's policies in their seats. ``record``:
    also write the dealt and final hands and the 24 cards played."""
    elder, younger = shuffle(deck, stc)
    play_dealt(deck, elder, younger, sto, rules, pe, py, ve, vy, out, scratch, record, -1, -1)


@njit(cache=True, inline="always")
def play_dealt(deck, elder, younger, sto, rules, pe, py, ve, vy, out, scratch, record, e_force, y_force):
    """A deal whose cards are already in ``deck`` (positions 0-11 elder's, 12-23 younger's, 24-31
    the talon, top first; ``elder`` and ``younger`` their masks), from carte blanche to the end.
    ``e_force`` / ``y_force``: a player's discard mask, or -1 for his policy's choice."""
    if record:
        out[O_DEALT] = elder
        out[O_DEALT + 1] = younger

    # PQ-CB: judged on the dealt hands.
    cb = rules[R_CARTE_BLANCHE]
    e_cb = cb if (elder & COURTS) == 0 else 0
    y_cb = cb if (younger & COURTS) == 0 else 0

    # PQ-EX-E, PQ-EX-Y.
    sto, e_disc = choose_discard(elder, 1, 5, pe, ve, False, sto, scratch, e_force)
    k = popcount(e_disc)
    elder = (elder & ~e_disc) | talon_cards(deck, 0, k)
    leftovers = rules[R_YOUNGER_TAKES_LEFTOVERS]
    y_from = k if leftovers else 5
    y_hi = 8 - k if leftovers else 3
    sto, y_disc = choose_discard(younger, rules[R_YOUNGER_MIN], y_hi, py, vy, True, sto, scratch, y_force)
    m = popcount(y_disc)
    younger = (younger & ~y_disc) | talon_cards(deck, y_from, y_from + m)
    if record:
        out[O_FINAL] = elder
        out[O_FINAL + 1] = younger
    out[O_TOOK] = k
    out[O_TOOK + 1] = m

    # Declarations, scored as events in PQ-ORDER (PQ-REPIQUE).
    rep = rules[R_REPIQUE]
    e = 0
    y = 0
    e_rep = 0
    y_rep = 0
    e, g = declaration_event(e, y, e_cb, False, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_cb, e_rep > 0, rep)
    y_rep += g
    ep = point_key(elder)
    yp = point_key(younger)
    e_pt = (ep >> 7) if ep > yp else 0
    y_pt = (yp >> 7) if yp > ep else 0
    e, g = declaration_event(e, y, e_pt, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_pt, (e_rep + y_rep) > 0, rep)
    y_rep += g
    esk, ess = sequence_key_and_score(elder)
    ysk, yss = sequence_key_and_score(younger)
    e_seq = ess if esk > ysk else 0
    y_seq = yss if ysk > esk else 0
    e, g = declaration_event(e, y, e_seq, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_seq, (e_rep + y_rep) > 0, rep)
    y_rep += g
    etk, ets = set_key_and_score(elder)
    ytk, yts = set_key_and_score(younger)
    e_set = ets if etk > ytk else 0
    y_set = yts if ytk > etk else 0
    e, g = declaration_event(e, y, e_set, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_set, (e_rep + y_rep) > 0, rep)
    y_rep += g

    # Card tracking: what each player knows is not in the opponent's hand (PQ-SEE).
    if leftovers:
        e_seen = talon_cards(deck, k + m, 5) if k + m < 5 else 0
        y_seen = talon_cards(deck, k + m, 8)
    else:
        e_seen = talon_cards(deck, k, 5)
        y_seen = talon_cards(deck, 5 + m, 8)
    e_track = pe[P_TRACK_CARDS] != 0 and pe[P_KIND] != KIND_RANDOM
    y_track = py[P_TRACK_CARDS] != 0 and py[P_KIND] != KIND_RANDOM
    e_unknown = ALL & ~(elder | e_disc | e_seen)
    y_unknown = ALL & ~(younger | y_disc | y_seen)

    # PQ-PLAY, PQ-TRICK, PQ-LAST, PQ-PIQUE.
    every_lead = rules[R_LEAD_POINTS_EVERY_TRICK]
    pique_value = rules[R_PIQUE]
    last = rules[R_LAST_TRICK]
    e_random = pe[P_KIND] == KIND_RANDOM
    y_random = py[P_KIND] == KIND_RANDOM
    # Pique stays open while elder has no repique; it closes when given or once younger scores.
    # Checking after every event is the same as checking after elder's: only his points raise e.
    pique_open = e_rep == 0
    e_play = e
    y_play = y
    e_tricks = 0
    elder_leads = True
    for t in range(12):
        if not e_track:
            e_unknown = ALL & ~elder
        if not y_track:
            y_unknown = ALL & ~younger
        lh = elder if elder_leads else younger
        fh = younger if elder_leads else elder
        if e_random if elder_leads else y_random:
            sto, led = random_card(lh, sto)
        else:
            led = heuristic_lead(lh, e_unknown if elder_leads else y_unknown)
        suit = 0xFF << (8 * (led >> 3))
        in_suit = fh & suit
        if y_random if elder_leads else e_random:
            sto, fol = random_card(in_suit if in_suit else fh, sto)
        else:
            fol = heuristic_follow(fh, led)
        if record:
            out[O_PLAYED + 2 * t] = led
            out[O_PLAYED + 2 * t + 1] = fol
        played = ~((1 << led) | (1 << fol))
        # A follower who shows out of the suit led tells the leader he holds none of it.
        shown_out = 0 if in_suit else suit
        e_unknown &= played & ~(shown_out if elder_leads else 0)
        y_unknown &= played & ~(0 if elder_leads else shown_out)
        elder &= played
        younger &= played
        follower_wins = ((fol ^ led) < 8) & (fol > led)
        elder_wins = follower_wins != elder_leads
        # Trick-point events in order: the lead, the win (and the last trick), pique after each.
        if every_lead:
            e += elder_leads
            y += not elder_leads
        else:
            e += t == 0
        hit = pique_open & (y == 0) & (e >= 30)
        e += pique_value if hit else 0
        pique_open &= not hit
        win_pt = (1 if (follower_wins or not every_lead) else 0) + (last if t == 11 else 0)
        e += win_pt if elder_wins else 0
        y += 0 if elder_wins else win_pt
        hit = pique_open & (y == 0) & (e >= 30)
        e += pique_value if hit else 0
        pique_open &= not hit
        e_tricks += elder_wins
        elder_leads = elder_wins
    pique = 0 if pique_open or e_rep else pique_value
    e_tp = e - e_play - pique
    y_tp = y - y_play

    # PQ-CARDS.
    e_cards = 0
    y_cards = 0
    e_capot = 0
    y_capot = 0
    if e_tricks == 12:
        e_capot = rules[R_CAPOT]
    elif e_tricks >= 7:
        e_cards = rules[R_CARDS_BONUS]
    elif e_tricks == 0:
        y_capot = rules[R_CAPOT]
    elif e_tricks <= 5:
        y_cards = rules[R_CARDS_BONUS]
    e += e_cards + e_capot
    y += y_cards + y_capot

    out[O_TOTAL] = e
    out[O_TOTAL + 1] = y
    out[O_CARTE_BLANCHE] = e_cb
    out[O_CARTE_BLANCHE + 1] = y_cb
    out[O_POINT] = e_pt
    out[O_POINT + 1] = y_pt
    out[O_SEQUENCES] = e_seq
    out[O_SEQUENCES + 1] = y_seq
    out[O_SETS] = e_set
    out[O_SETS + 1] = y_set
    out[O_REPIQUE] = e_rep
    out[O_REPIQUE + 1] = y_rep
    out[O_PIQUE] = pique
    out[O_TRICK_POINTS] = e_tp
    out[O_TRICK_POINTS + 1] = y_tp
    out[O_ELDER_TRICKS] = e_tricks
    out[O_CARDS] = e_cards
    out[O_CARDS + 1] = y_cards
    out[O_CAPOT] = e_capot
    out[O_CAPOT + 1] = y_capot


@njit(cache=True)
def deal_outcomes(seed, start, n, rules, pe, py):
    """Outcome vectors of deals start..start+n-1 (for the differential test and records)."""
    res = np.zeros((n, N_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    scratch = np.empty(16, dtype=np.int32)
    ve = card_values(pe, False)
    vy = card_values(py, True)
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        play_deal(deck, stc, sto, rules, pe, py, ve, vy, res[k], scratch, True)
    return res


# Tallies of single deals (salon simulate piquet). T_BINS: the classical table's score bins
# (under 10, 10-19, ..., 140-149, 150 or more) for elder then younger.
T_DEALS, T_CB_ELDER, T_CB_YOUNGER = 0, 1, 2
T_ELDER_SCORE, T_ELDER_SCORE_SQ, T_YOUNGER_SCORE, T_YOUNGER_SCORE_SQ, T_NET, T_NET_SQ = 3, 4, 5, 6, 7, 8
T_REPIQUE_ELDER, T_REPIQUE_YOUNGER, T_PIQUE, T_CAPOT_ELDER, T_CAPOT_YOUNGER = 9, 10, 11, 12, 13
T_CARDS_ELDER, T_CARDS_YOUNGER, T_CARDS_DIVIDED = 14, 15, 16
T_DECL_NET, T_DECL_NET_SQ, T_PLAY_NET, T_PLAY_NET_SQ = 17, 18, 19, 20
T_ELDER_DECL, T_YOUNGER_DECL, T_ELDER_PLAY, T_YOUNGER_PLAY = 21, 22, 23, 24
# Net score (elder minus younger) by who won the cards (elder incl. capot, younger incl. capot,
# divided): sums and sums of squares.
T_NET_BY_CARDS, T_NET_SQ_BY_CARDS = 25, 28
T_ELDER_TOOK, T_YOUNGER_TOOK, T_ELDER_TRICKS = 31, 32, 33
T_POINT_ELDER, T_POINT_YOUNGER, T_SEQ_ELDER, T_SEQ_YOUNGER, T_SET_ELDER, T_SET_YOUNGER = 34, 35, 36, 37, 38, 39
# Elder's play score minus younger's (everything but carte blanche, declarations and repique) by
# who won the cards, as above.
T_PLAY_NET_BY_CARDS, T_PLAY_NET_SQ_BY_CARDS = 40, 43
T_BINS = 46  # 32 entries: 16 bins elder, 16 bins younger
N_BINS = 16
N_TALLY = T_BINS + 2 * N_BINS


@njit(cache=True, inline="always")
def tally_deal(row, out):
    """Add one deal's outcome to a tally row (T_* layout)."""
    e = out[O_TOTAL]
    y = out[O_TOTAL + 1]
    row[T_DEALS] += 1
    row[T_CB_ELDER] += out[O_CARTE_BLANCHE] > 0
    row[T_CB_YOUNGER] += out[O_CARTE_BLANCHE + 1] > 0
    row[T_ELDER_SCORE] += e
    row[T_ELDER_SCORE_SQ] += e * e
    row[T_YOUNGER_SCORE] += y
    row[T_YOUNGER_SCORE_SQ] += y * y
    row[T_NET] += e - y
    row[T_NET_SQ] += (e - y) * (e - y)
    row[T_REPIQUE_ELDER] += out[O_REPIQUE] > 0
    row[T_REPIQUE_YOUNGER] += out[O_REPIQUE + 1] > 0
    row[T_PIQUE] += out[O_PIQUE] > 0
    et = out[O_ELDER_TRICKS]
    row[T_CAPOT_ELDER] += et == 12
    row[T_CAPOT_YOUNGER] += et == 0
    row[T_CARDS_ELDER] += et >= 7
    row[T_CARDS_YOUNGER] += et <= 5
    row[T_CARDS_DIVIDED] += et == 6
    ed = (out[O_CARTE_BLANCHE] + out[O_POINT] + out[O_SEQUENCES] + out[O_SETS] + out[O_REPIQUE])
    yd = (out[O_CARTE_BLANCHE + 1] + out[O_POINT + 1] + out[O_SEQUENCES + 1] + out[O_SETS + 1]
          + out[O_REPIQUE + 1])
    row[T_ELDER_DECL] += ed
    row[T_YOUNGER_DECL] += yd
    row[T_ELDER_PLAY] += e - ed
    row[T_YOUNGER_PLAY] += y - yd
    row[T_DECL_NET] += ed - yd
    row[T_DECL_NET_SQ] += (ed - yd) * (ed - yd)
    pn = (e - ed) - (y - yd)
    row[T_PLAY_NET] += pn
    row[T_PLAY_NET_SQ] += pn * pn
    cat = 0 if et >= 7 else (1 if et <= 5 else 2)
    row[T_NET_BY_CARDS + cat] += e - y
    row[T_NET_SQ_BY_CARDS + cat] += (e - y) * (e - y)
    row[T_PLAY_NET_BY_CARDS + cat] += pn
    row[T_PLAY_NET_SQ_BY_CARDS + cat] += pn * pn
    row[T_ELDER_TOOK] += out[O_TOOK]
    row[T_YOUNGER_TOOK] += out[O_TOOK + 1]
    row[T_ELDER_TRICKS] += et
    row[T_POINT_ELDER] += out[O_POINT] > 0
    row[T_POINT_YOUNGER] += out[O_POINT + 1] > 0
    row[T_SEQ_ELDER] += out[O_SEQUENCES] > 0
    row[T_SEQ_YOUNGER] += out[O_SEQUENCES + 1] > 0
    row[T_SET_ELDER] += out[O_SETS] > 0
    row[T_SET_YOUNGER] += out[O_SETS + 1] > 0
    row[T_BINS + min(e // 10, N_BINS - 1)] += 1
    row[T_BINS + N_BINS + min(y // 10, N_BINS - 1)] += 1


@njit(cache=True)
def deals_chunk(useed, start, count, rules, pe, py):
    """The tally row of deals start..start+count-1."""
    deck = np.empty(32, dtype=np.int8)
    scratch = np.empty(16, dtype=np.int32)
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_TALLY, dtype=np.int64)
    ve = card_values(pe, False)
    vy = card_values(py, True)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1))
        play_deal(deck, stc, sto, rules, pe, py, ve, vy, out, scratch, False)
        tally_deal(row, out)
    return row


@njit(cache=True, parallel=True)
def deals_block(seed, starts, counts, rules, pe, py):
    """Tally rows (N_TALLY per chunk) of the deals in each chunk [starts[c], starts[c] + counts[c])."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        # Private copies of the parameters (shared arrays' reference counts bounce between cores).
        tallies[ci, :] = deals_chunk(useed, starts[ci], counts[ci], rules.copy(), pe.copy(), py.copy())
    return tallies


# Paired comparisons: elder's net score under two policies on the same deals, the same younger.
N_PAIRED = 3  # deals, sum of the per-deal differences, sum of their squares


@njit(cache=True)
def paired_chunk(useed, start, count, rules, pa, pb, py):
    """[deals, Σd, Σd²] of d = elder's net score (elder minus younger) with policy pa minus with
    pb, deals start..start+count-1 (cards and choices streams as in ``deals_chunk``)."""
    deck = np.empty(32, dtype=np.int8)
    scratch = np.empty(16, dtype=np.int32)
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_PAIRED, dtype=np.int64)
    va = card_values(pa, False)
    vb = card_values(pb, False)
    vy = card_values(py, True)
    for i in range(start, start + count):
        ui = np.uint64(i)
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pa, py,
                  va, vy, out, scratch, False)
        d = out[O_TOTAL] - out[O_TOTAL + 1]
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pb, py,
                  vb, vy, out, scratch, False)
        d -= out[O_TOTAL] - out[O_TOTAL + 1]
        row[0] += 1
        row[1] += d
        row[2] += d * d
    return row


@njit(cache=True, parallel=True)
def paired_block(seed, starts, counts, rules, pa, pb, py):
    """Paired rows (N_PAIRED per chunk) of the deals in each chunk (``run_tallies`` block)."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_PAIRED), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        tallies[ci, :] = paired_chunk(useed, starts[ci], counts[ci], rules.copy(), pa.copy(), pb.copy(), py.copy())
    return tallies


# Parties (PQ-PARTIE, PQ-TIE, PQ-RUBICON). Player A is elder in deal 0; B deals first.
G_PARTIES, G_FIRST_DEALER_WINS, G_DRAWN, G_RUBICON = 0, 1, 2, 3
G_MARGIN, G_MARGIN_SQ = 4, 5  # the winner's margin
G_FIRST_DEALER_MARGIN, G_FIRST_DEALER_MARGIN_SQ = 6, 7  # B's margin, negative when A wins
G_DEALS, G_EXTRA = 8, 9
N_PARTIE_TALLY = 10
N_PARTIE_OUT = 6


@njit(cache=True)
def partie_values(pa, pb):
    """card_values of A as elder, A as younger, B as elder, B as younger (rows 0..3)."""
    v = np.empty((4, 2048), dtype=np.int64)
    v[0] = card_values(pa, False)
    v[1] = card_values(pa, True)
    v[2] = card_values(pb, False)
    v[3] = card_values(pb, True)
    return v


@njit(cache=True)
def play_partie(useed, g, rules, pa, pb, values, deck, out, scratch, res):
    """Play partie g; fills res = [total A, total B, deals, winner (0 A, 1 B, -1 drawn), margin,
    rubiconed]. ``values``: ``partie_values(pa, pb)``."""
    ug = np.uint64(g)
    a = 0
    b = 0
    n = rules[R_PARTIE_DEALS]
    d = 0
    while True:
        while d < n:
            stc = stream_start(useed, ug, np.uint64(2 * d))
            sto = stream_start(useed, ug, np.uint64(2 * d + 1))
            if d % 2 == 0:
                play_deal(deck, stc, sto, rules, pa, pb, values[0], values[3], out, scratch, False)
                a += out[O_TOTAL]
                b += out[O_TOTAL + 1]
            else:
                play_deal(deck, stc, sto, rules, pb, pa, values[2], values[1], out, scratch, False)
                b += out[O_TOTAL]
                a += out[O_TOTAL + 1]
            d += 1
        if a != b or n > rules[R_PARTIE_DEALS]:
            break
        n += rules[R_TIE_EXTRA_DEALS]
        if n == d:
            break
    res[0] = a
    res[1] = b
    res[2] = d
    if a == b:
        res[3] = -1
        res[4] = 0
        res[5] = 0
    else:
        w = max(a, b)
        lo = min(a, b)
        res[3] = 0 if a > b else 1
        rubiconed = lo < rules[R_RUBICON]
        res[4] = (w + lo if rubiconed else w - lo) + rules[R_RUBICON_BONUS]
        res[5] = 1 if rubiconed else 0


@njit(cache=True)
def partie_results(seed, start, n, rules, pa, pb):
    """Partie outcome vectors of parties start..start+n-1 (for the differential test)."""
    res = np.zeros((n, N_PARTIE_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    scratch = np.empty(16, dtype=np.int32)
    out = np.zeros(N_OUT, dtype=np.int64)
    values = partie_values(pa, pb)
    for k in range(n):
        play_partie(np.uint64(seed), start + k, rules, pa, pb, values, deck, out, scratch, res[k])
    return res


@njit(cache=True, parallel=True)
def parties_block(seed, starts, counts, rules, pa, pb):
    """Tallies (N_PARTIE_TALLY per chunk) of the parties in each chunk."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_PARTIE_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        deck = np.empty(32, dtype=np.int8)
        scratch = np.empty(16, dtype=np.int32)
        out = np.zeros(N_OUT, dtype=np.int64)
        res = np.zeros(N_PARTIE_OUT, dtype=np.int64)
        row = np.zeros(N_PARTIE_TALLY, dtype=np.int64)
        my_rules = rules.copy()
        my_pa = pa.copy()
        my_pb = pb.copy()
        deals0 = my_rules[R_PARTIE_DEALS]
        values = partie_values(my_pa, my_pb)
        for g in range(starts[ci], starts[ci] + counts[ci]):
            play_partie(useed, g, my_rules, my_pa, my_pb, values, deck, out, scratch, res)
            row[G_PARTIES] += 1
            row[G_FIRST_DEALER_WINS] += res[3] == 1
            row[G_DRAWN] += res[3] == -1
            row[G_RUBICON] += res[5]
            row[G_MARGIN] += res[4]
            row[G_MARGIN_SQ] += res[4] * res[4]
            fd = res[4] if res[3] == 1 else -res[4]
            row[G_FIRST_DEALER_MARGIN] += fd
            row[G_FIRST_DEALER_MARGIN_SQ] += fd * fd
            row[G_DEALS] += res[2]
            row[G_EXTRA] += res[2] > deals0
        tallies[ci, :] = row
    return tallies

"""The search player of Bezique's stock phase (``SearchPolicy``, policies.py), in numba.

At each of its stock-phase decisions (``players.trick_loop.play_on`` pauses there) it draws ``samples``
layouts of the cards it cannot see and, on each, plays every candidate to the end of the deal
with its rollout policy (its own heuristic parameters for both players, the exact end game when
``rollout_exact``); it takes the candidate with the best total of (its points minus the
opponent's), the first candidate on ties. Every candidate meets the same layouts (common random
numbers). Candidates: its distinct cards for a lead or a stock follow; the legal melds and laying
none after a won trick.

What it knows: its hand and table, the opponent's table, the cards played, the turn-up, and the
card the opponent took in a seven's exchange (while he holds it). The opponent's other cards and
the stock's order are drawn uniformly from the rest: in the stock phase nothing else is revealed
(there is no obligation to follow). Draws come from a stream of the deal (the cards stream's
start, scrambled), so results do not depend on threads or chunking.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import NO_TARGET, bit
from analysis.bezique.engine.layout import (
    K_BEZIQUE,
    K_DOUBLE,
    N_STATE,
    O_EXCHANGE,
    O_TOTAL,
    O_TURN_UP,
    S_HAND,
    S_PLAYED,
    S_TABLE,
)
from analysis.bezique.engine.melds import double_possible, legal_melds, sort_melds
from analysis.bezique.engine.tricks import options_of
from analysis.bezique.players.heuristic import best_meld, heuristic_follow, heuristic_lead, set_keep_values
from analysis.bezique.players.trick_loop import (
    NO_MELD,
    PAUSE,
    PH_FOLLOW,
    PH_LEAD,
    PH_MELD,
    Q_DRAWN,
    Q_FORCED,
    Q_LEADER,
    Q_LED,
    Q_PHASE,
    Q_TURNUP,
    DealScratch,
    play_on,
    setup_deal,
)
from analysis.bezique.policies import (
    KIND_HEURISTIC,
    KIND_SEARCH,
    N_POLICY_SLOTS,
    P_BEZIQUE_RULE,
    P_EXACT_ENDGAME,
    P_HOLD_BEZIQUE_STOCK,
    P_KIND,
    P_LEAD_LOW,
    P_LEAD_RULE,
    P_MARGIN,
    P_MELD_RULE,
    P_ROLLOUT_EXACT,
    P_SAMPLES,
)
from analysis.bezique.rules import R_DOUBLE_AFTER_SINGLE
from analysis.bits import lowest_bit, popcount
from analysis.rng import below, mix64

_SEARCH_SALT = np.uint64(0x5EA2C8B1D00DFEED)
RULE_HOLD, RULE_DECLARE = 1, 2  # bezique_rule (policies.BEZIQUE_RULES)
LEAD_LOW = 1  # lead_rule (policies.LEAD_RULES): 1 low, 2 high
MAX_CANDIDATES = 64


@njit(cache=True, inline="always")
def search_mask(pe, pd):
    """Bit 0 when elder searches, bit 1 when the dealer does."""
    return (1 if pe[P_KIND] == KIND_SEARCH else 0) | (2 if pd[P_KIND] == KIND_SEARCH else 0)


@njit(cache=True)
def rollout_policy(p):
    """The rollout policy of a search policy array: its heuristic slots, as a heuristic."""
    r = p[:N_POLICY_SLOTS].copy()
    r[P_KIND] = KIND_HEURISTIC
    r[P_EXACT_ENDGAME] = p[P_ROLLOUT_EXACT]
    return r


@njit(cache=True)
def candidates(scr, seat, rules, p, out):
    """The decision's candidates into ``out``; returns their number (meld: indices in sort order,
    as ``bezique_rule`` allows, then NO_MELD)."""
    S = scr.S
    if scr.pos[Q_PHASE] == PH_MELD:
        trump = (scr.out[O_TURN_UP] >> 3) & 3
        m = legal_melds(seat, S, trump, rules, scr.ms, scr.fo, scr.nopt)
        sort_melds(scr.ms, m, scr.order)
        rule = p[P_BEZIQUE_RULE]
        single = -1
        double = False
        for k in range(m):
            kind = scr.ms[0, scr.order[k]]
            single = k if kind == K_BEZIQUE and single < 0 else single
            double = double or kind == K_DOUBLE
        if rule == RULE_DECLARE and single >= 0 and not double:
            out[0] = single
            return 1
        hold = (rule == RULE_HOLD and 47 - scr.pos[Q_DRAWN] >= p[P_HOLD_BEZIQUE_STOCK]
                and double_possible(seat, S, rules[R_DOUBLE_AFTER_SINGLE]))
        c = 0
        for k in range(m):
            if not (hold and scr.ms[0, scr.order[k]] == K_BEZIQUE):
                out[c] = k
                c += 1
        out[c] = NO_MELD
        return c + 1
    opts = options_of(seat, S)
    k = 0
    while opts != 0:
        out[k] = lowest_bit(opts)
        opts &= opts - 1
        k += 1
    return k


@njit(cache=True)
def deal_hidden(scr, r, seat, st, pool):
    """Copy the position of ``scr`` into the rollout arrays ``r``, the cards ``seat`` cannot see
    drawn afresh: the opponent's hidden hand and the stock's order. Returns the stream state."""
    S = scr.S
    opp = 1 - seat
    pos = scr.pos
    turnup = pos[Q_TURNUP]
    dealt = scr.out[O_TURN_UP]
    required = 0
    if scr.out[O_EXCHANGE] > 0 and (S[S_HAND + opp] >> dealt) & 1:
        required = bit(dealt)  # the turn-up he took for his seven
    known = S[S_HAND + seat] | S[S_TABLE + seat] | S[S_TABLE + opp] | S[S_PLAYED] | bit(turnup) | required
    hidden = popcount(S[S_HAND + opp]) - popcount(required)
    n = 0
    for c in range(64):
        if not (known >> c) & 1:
            pool[n] = c
            n += 1
    for i in range(n - 1):  # Fisher-Yates
        st, j = below(st, n - i)
        j += i
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    for i in range(N_STATE):
        r.S[i] = S[i]
    for i in range(r.out.shape[0]):
        r.out[i] = scr.out[i]
    for i in range(r.pos.shape[0]):
        r.pos[i] = pos[i]
    for i in range(64):
        r.deck[i] = scr.deck[i]
    hand = required
    for i in range(hidden):
        hand |= bit(pool[i])
    r.S[S_HAND + opp] = hand
    drawn = pos[Q_DRAWN]
    for i in range(n - hidden):
        r.deck[17 + drawn + i] = pool[hidden + i]
    return st


@njit(cache=True)
def heuristic_choice(scr, seat, rules, p):
    """The heuristic's own choice at the paused position, as a candidate (``candidates``)."""
    S = scr.S
    pos = scr.pos
    trump = (scr.out[O_TURN_UP] >> 3) & 3
    if pos[Q_PHASE] == PH_LEAD:
        return heuristic_lead(seat, S, trump, p, np.bool_(True))
    if pos[Q_PHASE] == PH_FOLLOW:
        return heuristic_follow(seat, S, trump, rules, p, pos[Q_LED], np.bool_(True), pos[Q_DRAWN], scr.ms, scr.fo,
                                scr.nopt)
    chosen = best_meld(seat, S, trump, rules, p, pos[Q_DRAWN], scr.ms, scr.fo, scr.nopt)
    if chosen < 0:
        return NO_MELD
    m = legal_melds(seat, S, trump, rules, scr.ms, scr.fo, scr.nopt)
    sort_melds(scr.ms, m, scr.order)
    for k in range(m):
        if scr.order[k] == chosen:
            return k
    return NO_MELD


@njit(cache=True)
def rule_lead(scr, seat, p):
    """The stock lead ``lead_rule`` asks for: the heuristic's low lead, or the highest plain card."""
    q = p[:N_POLICY_SLOTS].copy()
    q[P_LEAD_LOW] = 1 if p[P_LEAD_RULE] == LEAD_LOW else 0
    return heuristic_lead(seat, scr.S, (scr.out[O_TURN_UP] >> 3) & 3, q, np.bool_(True))


@njit(cache=True)
def decide(scr, r, seat, rules, p, rp, st, cands, diff, diff_sq, pool):
    """The search player's choice at the paused position; returns (stream state, choice). A lead
    or meld its ``lead_rule`` or ``meld_rule`` decides is not searched."""
    if scr.pos[Q_PHASE] == PH_LEAD and p[P_LEAD_RULE] != 0:
        return st, rule_lead(scr, seat, p)
    default = heuristic_choice(scr, seat, rules, p)
    if scr.pos[Q_PHASE] == PH_MELD and p[P_MELD_RULE] != 0:
        return st, default
    m = candidates(scr, seat, rules, p, cands)
    if m == 1:
        return st, cands[0]
    d = 0
    for k in range(m):
        if cands[k] == default:
            d = k
    n = p[P_SAMPLES]
    st = sample_diffs(scr, r, seat, rules, rp, st, cands[:m], d, n, diff, diff_sq, pool)
    best = d
    best_mean = 0.0
    z = p[P_MARGIN] / 100.0
    for k in range(m):
        if k == d:
            continue
        mean = diff[k] / n
        var = max(diff_sq[k] / n - mean * mean, 0.0) / max(n - 1, 1)
        if mean > best_mean and mean > z * np.sqrt(var):
            best = k
            best_mean = mean
    return st, cands[best]


@njit(cache=True)
def sample_diffs(scr, r, seat, rules, rp, st, cands, d, n, diff, diff_sq, pool):
    """On ``n`` layouts of what ``seat`` cannot see (``deal_hidden``), each of the candidates
    played to the end of the deal by the rollout policy ``rp``: the sums of candidate k's total
    (its points minus the opponent's) minus candidate d's into ``diff[k]``, their squares into
    ``diff_sq[k]`` (every candidate meets the same layouts). Returns the stream state."""
    m = len(cands)
    for k in range(m):
        diff[k] = 0
        diff_sq[k] = 0
    trump = (scr.out[O_TURN_UP] >> 3) & 3
    totals = np.zeros(m, dtype=np.int64)
    for _ in range(n):
        st = deal_hidden(scr, r, seat, st, pool)
        saved_S = r.S.copy()
        saved_out = r.out.copy()
        saved_pos = r.pos.copy()
        for k in range(m):
            if k > 0:
                r.S[:] = saved_S
                r.out[:] = saved_out
                r.pos[:] = saved_pos
            set_keep_values(r.S, np.int64(0), trump, rp)
            set_keep_values(r.S, np.int64(1), trump, rp)
            r.pos[Q_FORCED] = cands[k]
            play_on(r, np.uint64(0), rules, rp, rp, np.int64(0), np.int64(0), np.int64(NO_TARGET), np.int64(0))
            totals[k] = r.out[O_TOTAL + seat] - r.out[O_TOTAL + 1 - seat]
        for k in range(m):
            x = totals[k] - totals[d]
            diff[k] += x
            diff_sq[k] += x * x
    return st


@njit(cache=True)
def search_deal(scr, stc, sto, rules, pe, pd, start_e, start_d, target, mask):
    """A whole deal with search players in the seats of ``mask``; returns as ``run_deal``."""
    r = rollout_scratch(scr)
    st = mix64(stc ^ _SEARCH_SALT)
    gw = setup_deal(scr, stc, rules, pe, pd, start_d, target)
    if gw >= 0:
        return gw
    rp_e = rollout_policy(pe)
    rp_d = rollout_policy(pd)
    cands = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    diff = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    diff_sq = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    pool = np.zeros(64, dtype=np.int64)
    while True:
        sto, gw = play_on(scr, sto, rules, pe, pd, start_e, start_d, target, mask)
        if gw != PAUSE:
            return gw
        pos = scr.pos
        if pos[Q_PHASE] == PH_LEAD or pos[Q_PHASE] == PH_MELD:
            seat = pos[Q_LEADER]  # the leader leads; after the trick the winner is the leader
        else:
            seat = 1 - pos[Q_LEADER]
        st, choice = decide(scr, r, seat, rules, pe if seat == 0 else pd, rp_e if seat == 0 else rp_d, st, cands,
                            diff, diff_sq, pool)
        pos[Q_FORCED] = choice


@njit(cache=True)
def rollout_scratch(scr):
    """The rollout arrays beside a deal's: its own deck, state, outcome and position; the meld
    and option scratch and the end-game table shared."""
    return DealScratch(scr.deck.copy(), scr.S.copy(), scr.ms, scr.fo, scr.nopt, scr.order, scr.out.copy(), scr.tt,
                       scr.pos.copy())

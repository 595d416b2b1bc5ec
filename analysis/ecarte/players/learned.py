"""Learned leads for Écarté's trick play: a linear score per card fitted to the search player's values.

The search player (``players/search.py``: sampled hidden hands, each solved double-dummy) gains
most of its advantage over the heuristic on the leads; its follows add little (the rules leave
the follower few choices). The learned lead scores each card of the leader's hand by 25 features
of what he knows (the chance that the opponent holds a higher card of its suit, is void in it,
holds no trump, ...) with integer weights per trick, tricks won and seat, and leads the best:
the search player's strength at the heuristic's speed. The features and the choice are specified
in docs/ecarte-engine.md ("Policies", learned leads); ``reference/learned.py`` is the plain-Python
reading of that text; ``fit/lead.py`` fits the weights (``scripts/fit_lead.py``).

The weights travel in the policy array (``policies.P_LEAD_WEIGHTS``), as integers.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.ecarte.engine.layout import O_TRICKS
from analysis.ecarte.engine.tricks import after_trick, hidden_constraints, knowledge_start, legal_follows
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.players.learned_weights import (
    LEAD_WEIGHTS_SIZE,
    N_LEAD_FEATURES,
)
from analysis.ecarte.policies import (
    KIND_RANDOM,
    N_READ_GROUPS,
    P_KIND,
    P_LEAD_TRUMPS,
    P_LEAD_WEIGHTS,
    P_LEADS,
    P_READ_RATIOS,
    P_READ_WEIGHTS,
    P_READS,
)
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import below


@njit(cache=True, inline="always")
def lead_model(k, lt, leader_is_elder):
    """The model of trick ``k`` (0..3) for a leader with ``lt`` tricks won."""
    return (k * (k + 1) // 2 + lt) * 2 + (1 if leader_is_elder else 0)


@njit(cache=True, inline="always")
def powers(q):
    """q to the powers 0..8, each by repeated multiplication from 1.0 (the reference's order)."""
    q1 = 1.0 * q
    q2 = q1 * q
    q3 = q2 * q
    q4 = q3 * q
    q5 = q4 * q
    q6 = q5 * q
    q7 = q6 * q
    return (1.0, q1, q2, q3, q4, q5, q6, q7, q7 * q)


@njit(cache=True, inline="always")
def _ind(b):
    return 1.0 if b else 0.0


@njit(cache=True, inline="always")
def card_masks(c, t):
    """(suit of c, trumps, the cards of c's suit above c), as card masks."""
    suit = np.int64(0xFF) << (8 * (c >> 3))
    return suit, np.int64(0xFF) << (8 * t), suit & ~((np.int64(2) << c) - 1)


@njit(cache=True, inline="always")
def features_of(c, hand, t, lt, ft, heur, p_nohigher, p_void, p_notrump, e_h, e_s, e_t):
    """The 25 features of leading card ``c`` (docs/ecarte-engine.md), as a tuple, given the six
    that depend on the opponent's odds (``lead_features``, ``reading_features``)."""
    s = c >> 3
    suit, trumps, higher = card_masks(c, t)
    own_s = popcount(hand & suit)
    own_t = popcount(hand & trumps)
    own_higher = popcount(hand & higher)
    lower_own = own_s - own_higher - 1
    is_tr = _ind(s == t)
    pl = 1.0 - is_tr
    p_win = p_nohigher if s == t else p_nohigher * (1 - p_void * (1 - p_notrump))
    single = _ind(own_s == 1)
    return (is_tr, (c & 7) / 7, p_nohigher, e_h, p_void * pl, e_s * pl, is_tr * own_t, is_tr * e_t,
            pl * p_notrump, pl * own_s, pl * _ind(own_higher > 0), p_win, p_win * _ind(3 - lt <= 1),
            p_win * _ind(3 - ft <= 1), is_tr * _ind(own_t >= 2), pl * _ind(own_t == 0), pl * own_t,
            pl * p_void * own_t, pl * lower_own, is_tr * lower_own, p_win * is_tr, pl * single,
            pl * single * own_t, pl * p_nohigher * single, _ind(c == heur))


@njit(cache=True, inline="always")
def lead_features(c, hand, allowed, required, p, pw, t, lt, ft, heur):
    """The 25 features of leading card ``c`` (docs/ecarte-engine.md), as a tuple; ``p`` and ``pw``
    (``powers(1 - p)``) are the decision's (``lead_odds``)."""
    suit, trumps, higher = card_masks(c, t)
    h_a = popcount(allowed & higher)
    h_r = popcount(required & higher)
    a_s = popcount(allowed & suit)
    r_s = popcount(required & suit)
    a_t = popcount(allowed & trumps)
    r_t = popcount(required & trumps)
    p_nohigher = pw[h_a] if h_r == 0 else 0.0
    p_void = pw[a_s] if r_s == 0 else 0.0
    p_notrump = pw[a_t] if r_t == 0 else 0.0
    return features_of(c, hand, t, lt, ft, heur, p_nohigher, p_void, p_notrump, h_a * p + h_r, a_s * p + r_s,
                       a_t * p + r_t)


@njit(cache=True, inline="always")
def read_group(a, t):
    """The reading ratios' group of card ``a``: its rank index if a trump, else 8 + its rank index."""
    return (a & 7) + (0 if (a >> 3) == t else 8)


@njit(cache=True, inline="always")
def read_odds(x, t, free, ratios, r0, total):
    """(product of 1 - pi(a), sum of pi(a)) over the cards a of ``x`` in ascending code, where
    pi(a) = min(1, free * ratio(a) / total), ratio(a) = ratios[r0 + group of a] ("Reading leads")."""
    prod = 1.0
    tot = 0.0
    while x:
        a = lowest_bit(x)
        x &= x - 1
        pi = min(1.0, (free * ratios[r0 + read_group(a, t)]) / total)
        prod = prod * (1.0 - pi)
        tot = tot + pi
    return prod, tot


@njit(cache=True, inline="always")
def reading_features(c, hand, allowed, required, free, total, ratios, r0, t, lt, ft, heur):
    """The 25 features of leading ``c`` when the leader reads the opponent's first decision by
    the ratios at ``ratios[r0:r0 + 16]``; ``total``: the ratios' sum over ``allowed``."""
    suit, trumps, higher = card_masks(c, t)
    h_r = popcount(required & higher)
    r_s = popcount(required & suit)
    r_t = popcount(required & trumps)
    q_h, e_h = read_odds(allowed & higher, t, free, ratios, r0, total)
    q_s, e_s = read_odds(allowed & suit, t, free, ratios, r0, total)
    q_t, e_t = read_odds(allowed & trumps, t, free, ratios, r0, total)
    return features_of(c, hand, t, lt, ft, heur, q_h if h_r == 0 else 0.0, q_s if r_s == 0 else 0.0,
                       q_t if r_t == 0 else 0.0, e_h + h_r, e_s + r_s, e_t + r_t)


@njit(cache=True, inline="always")
def read_total(allowed, t, ratios, r0):
    """The sum of the ratios of the allowed cards (the reading chances' denominator)."""
    total = 0
    x = allowed
    while x:
        a = lowest_bit(x)
        x &= x - 1
        total += ratios[r0 + read_group(a, t)]
    return total


@njit(cache=True, inline="always")
def lead_odds(allowed, required, m):
    """(p, powers(1 - p)): the chance that the opponent holds a given allowed card, and the powers
    of the chance that he does not (the features' ``pw``)."""
    na = popcount(allowed)
    free = m - popcount(required)
    p = free / na if na > 0 else 0.0
    return p, powers(1.0 - p)


@njit(cache=True, inline="always")
def lead_score(f, w, base):
    """The score of features ``f`` under the weights w[base:base + 25]: five partial sums (features
    j = r, r + 5, ..., r + 20 for r = 0..4, each in order from 0.0), added in order. (Five
    independent chains of additions instead of one: twice as fast, and still one exact order.)"""
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    s4 = 0.0
    for j in range(0, N_LEAD_FEATURES, 5):
        s0 += float(w[base + j]) * f[j]
        s1 += float(w[base + j + 1]) * f[j + 1]
        s2 += float(w[base + j + 2]) * f[j + 2]
        s3 += float(w[base + j + 3]) * f[j + 3]
        s4 += float(w[base + j + 4]) * f[j + 4]
    return (((s0 + s1) + s2) + s3) + s4


@njit(cache=True)
def learned_lead(hand, allowed, required, m, t, k, lt, leader_is_elder, heur, w, w0, r0):
    """The learned lead from ``hand`` (tricks 0..3): the card of the highest score under the model
    of (k, lt, seat), the lowest card code among equal scores. ``allowed``/``required``: the
    opponent's possible and certain cards (engine/tricks.hidden_constraints); ``m``: his number of
    cards; ``heur``: the heuristic's lead with lead_trumps on (a feature); ``w[w0:]``: the
    LEAD_WEIGHTS_SIZE integer weights, model-major (a policy array and P_LEAD_WEIGHTS); ``r0``: -1,
    or where in ``w`` (then a policy array) the row of reading ratios starts ("Reading leads"):
    the score then takes that row's reading weights, from w[P_READ_WEIGHTS + row * LEAD_WEIGHTS_SIZE]."""
    if r0 >= 0:
        w0 = P_READ_WEIGHTS + (r0 - P_READ_RATIOS) // N_READ_GROUPS * LEAD_WEIGHTS_SIZE
    base = w0 + lead_model(k, lt, leader_is_elder) * N_LEAD_FEATURES
    p, pw = lead_odds(allowed, required, m)
    # Reading only when there is a row to read and a card it can weigh (else the learned lead's odds).
    total = read_total(allowed, t, w, r0) if r0 >= 0 else 0
    free = m - popcount(required) if total > 0 else 0
    best = -np.inf
    card = heur
    x = hand
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if total > 0:
            f = reading_features(c, hand, allowed, required, free, total, w, r0, t, lt, k - lt, heur)
        else:
            f = lead_features(c, hand, allowed, required, p, pw, t, lt, k - lt, heur)
        score = lead_score(f, w, base)
        if score > best:
            best = score
            card = c
    return card


OPENING_PLAYED, OPENING_REFUSED, OPENING_OTHER = 0, 1, 2
"""The first decisions as a reading leader sees them: elder played without proposing; the dealer
refused the first proposal; anything else (an accepted first proposal)."""


@njit(cache=True, inline="always")
def opening_of(pwp, refused_round):
    """OPENING_* from play/exchange.exchanges' flags (played without proposing, refused round)."""
    return OPENING_PLAYED if pwp else (OPENING_REFUSED if refused_round == 0 else OPENING_OTHER)


@njit(cache=True, inline="always")
def opening_row(opening, leader_is_elder):
    """The row of ratios a leader could read (0 the dealer after elder played, 1 the dealer after
    refusing, 2 elder after a refusal), or -1 (an accepted first proposal; elder after playing)."""
    if leader_is_elder:
        return 2 if opening == OPENING_REFUSED else -1
    return 0 if opening == OPENING_PLAYED else (1 if opening == OPENING_REFUSED else -1)


@njit(cache=True, inline="always")
def reading_row(opening, leader_is_elder):
    """Where the leader's row of reading ratios starts in a policy array, or -1 when he reads
    nothing ("Reading leads": the dealer reads elder's play, elder the refusal; the dealer does not
    read elder's proposal after refusing it, which lost in play: docs/ecarte-engine.md)."""
    v = opening_row(opening, leader_is_elder)
    if v == 1:
        v = -1
    return P_READ_RATIOS + N_READ_GROUPS * v if v >= 0 else -1


@njit(cache=True)
def play_tricks_learned(elder, dealer, turnup, outs, announced, opening, sto, rules, pe, pd, out, record):
    """play/tricks.play_tricks when a player leads by the learned score (policies.P_LEADS): the
    same five tricks, each player's knowledge of the other's hand tracked for his leads.
    ``outs``: elder's and the dealer's discards (all rounds); ``announced``: 1 elder |
    2 the dealer announced the trump king; ``opening``: the first decisions (OPENING_*), read by a
    reading leader (policies.P_READS). Returns (sto, elder's tricks)."""
    e_out, d_out = outs
    t = turnup >> 3
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    known_e, known_d, req_e, req_d = knowledge_start(turnup, e_out, d_out, announced)
    ex_e = 0  # the cards the dealer knows elder does not hold
    ex_d = 0
    played = 0
    hand_l = elder
    hand_f = dealer
    elder_leads = True
    etricks = 0
    for k in range(5):
        pl = pe if elder_leads else pd
        pf = pd if elder_leads else pe
        if k == 4:
            led = lowest_bit(hand_l)
            fol = lowest_bit(hand_f)
        else:
            if pl[P_KIND] == KIND_RANDOM:
                sto, i = below(sto, popcount(hand_l))
                led = nth_bit(hand_l, i)
            elif pl[P_LEADS]:
                if elder_leads:
                    allowed, req = hidden_constraints(hand_l, known_e, played, ex_d, req_d)
                else:
                    allowed, req = hidden_constraints(hand_l, known_d, played, ex_e, req_e)
                lt = etricks if elder_leads else k - etricks
                r0 = reading_row(opening, elder_leads) if pl[P_READS] else -1
                # Typed arguments: numba compiles a callee once per literal value.
                led = learned_lead(hand_l, allowed, req, popcount(hand_f), t, k, lt, np.bool_(elder_leads),
                                   heuristic_lead(hand_l, t, True), pl, np.int64(P_LEAD_WEIGHTS), r0)
            else:
                led = heuristic_lead(hand_l, t, pl[P_LEAD_TRUMPS])
            legal = legal_follows(hand_f, led, t, must)
            if pf[P_KIND] == KIND_RANDOM:
                sto, i = below(sto, popcount(legal))
                fol = nth_bit(legal, i)
            else:
                fol = heuristic_follow(legal, led, t)
        if record:
            out[O_TRICKS + 2 * k] = led
            out[O_TRICKS + 2 * k + 1] = fol
        elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks = after_trick(
            led, fol, t, must, elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks)
    return sto, etricks

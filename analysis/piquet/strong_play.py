"""The cards of the ``dd`` and ``search`` players in the Piquet kernel (analysis.piquet.strong_policies).

The deal kernel's ``scratch`` array carries their state: slots S_DISCARD.. the exchange's work
space (every policy), S_INFO.. what each seat learnt from the declarations, S_VALUES.. and
S_TOTALS.. the solver's values per card, and from S_MEMORY the solver's memory (its transposition
table, allocated only when a player uses the solver).

``search`` draws each hidden hand by rejection: the opponent's cards now are a uniform draw from
the cards he may hold (not in my hand, not discarded or seen by me in the talon, not played, not in
a suit he showed out of; with ``track_cards`` off, only not mine and not played), kept only if, with the cards he has played, they give exactly the
declarations he made or conceded: his point, sequences and sets equal to what he declared when he
won a category, below mine when I won it, equal to mine when it was void (PQ-POINT, PQ-SEQ,
PQ-SET). The accepted draws are uniform over the consistent hands. The number of cards he
exchanged constrains nothing beyond which talon cards I saw. Carte blanche is not used.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.piquet.declaration_kernel import point_key, sequence_key_and_score, set_key_and_score
from analysis.piquet.policies import P_KIND, P_TRACK_CARDS
from analysis.piquet.solver import M_TABLE, follow_values, init_memory, lead_values
from analysis.piquet.strong_policies import KIND_DD, KIND_SEARCH, P_SAMPLES
from analysis.rng import below

S_DISCARD = 0
S_INFO = 16  # 8 slots per seat, elder's view of younger first (I_* below)
S_VALUES = 32
S_TOTALS = 64
S_MEMORY = 96
PLAY_TT_BITS = 18
"""The table of a kernel's solver memory: 2**18 entries (4 MB) per chunk."""
MAX_TRIES = 1_000_000
"""Rejection draws per sample before the search player gives up the declarations' evidence."""

# What a seat knows of the opponent's declarations (I_*): the range of his point key, sequence
# key and set key, and the sequence and set scores he declared (-1: unknown).
I_POINT_LO = 0
I_POINT_HI = 1
I_SEQ_LO = 2
I_SEQ_HI = 3
I_SEQ_SCORE = 4
I_SET_LO = 5
I_SET_HI = 6
I_SET_SCORE = 7


@njit(cache=True, inline="always")
def uses_solver(p):
    """Whether a policy array is a ``dd`` or ``search`` player's."""
    return p[P_KIND] >= KIND_DD


@njit(cache=True)
def play_scratch(strong):
    """The deal kernel's scratch array; with the solver's memory when ``strong``."""
    if not strong:
        return np.zeros(S_MEMORY, dtype=np.int64)
    s = np.zeros(S_MEMORY + M_TABLE + (2 << PLAY_TT_BITS), dtype=np.int64)
    init_memory(s[S_MEMORY:])
    return s


@njit(cache=True, inline="always")
def _known_range(scratch, base, lo, hi, score_slot, mine, theirs, their_score):
    """One category: the opponent declared it (theirs > mine), conceded it, or it was void."""
    if theirs > mine:
        scratch[base + lo] = theirs
        scratch[base + hi] = theirs
        if score_slot >= 0:
            scratch[base + score_slot] = their_score
    else:
        scratch[base + lo] = 0 if theirs < mine else mine
        scratch[base + hi] = mine - 1 if theirs < mine else mine
        if score_slot >= 0:
            scratch[base + score_slot] = -1


@njit(cache=True)
def note_declarations(scratch, elder, younger):
    """Each seat's view of the other's declarations, from the two hands after the exchanges."""
    ep = point_key(elder)
    yp = point_key(younger)
    esk, ess = sequence_key_and_score(elder)
    ysk, yss = sequence_key_and_score(younger)
    etk, ets = set_key_and_score(elder)
    ytk, yts = set_key_and_score(younger)
    for seat in range(2):
        base = S_INFO + 8 * seat
        if seat == 0:  # elder's view of younger
            _known_range(scratch, base, I_POINT_LO, I_POINT_HI, -1, ep, yp, 0)
            _known_range(scratch, base, I_SEQ_LO, I_SEQ_HI, I_SEQ_SCORE, esk, ysk, yss)
            _known_range(scratch, base, I_SET_LO, I_SET_HI, I_SET_SCORE, etk, ytk, yts)
        else:
            _known_range(scratch, base, I_POINT_LO, I_POINT_HI, -1, yp, ep, 0)
            _known_range(scratch, base, I_SEQ_LO, I_SEQ_HI, I_SEQ_SCORE, ysk, esk, ess)
            _known_range(scratch, base, I_SET_LO, I_SET_HI, I_SET_SCORE, ytk, etk, ets)


@njit(cache=True, inline="always")
def consistent(hand, scratch, base):
    """Whether a 12-card hand gives the declarations a seat saw (``note_declarations``)."""
    pk = point_key(hand)
    if pk < scratch[base + I_POINT_LO] or pk > scratch[base + I_POINT_HI]:
        return False
    sk, ss = sequence_key_and_score(hand)
    if sk < scratch[base + I_SEQ_LO] or sk > scratch[base + I_SEQ_HI]:
        return False
    if scratch[base + I_SEQ_SCORE] >= 0 and ss != scratch[base + I_SEQ_SCORE]:
        return False
    tk, ts = set_key_and_score(hand)
    if tk < scratch[base + I_SET_LO] or tk > scratch[base + I_SET_HI]:
        return False
    return scratch[base + I_SET_SCORE] < 0 or ts == scratch[base + I_SET_SCORE]


@njit(cache=True)
def sample_hidden(possible, k, opp_played, scratch, base, sto, informed):
    """A uniform draw of k of the ``possible`` cards consistent with the declarations (with the
    opponent's played cards ``opp_played``; any draw when not ``informed``); returns (stream,
    hand, draws made). After MAX_TRIES draws the last draw is kept (the declarations' evidence
    given up)."""
    n = popcount(possible)
    h = 0
    for tries in range(1, MAX_TRIES + 1):
        h = 0
        rest = possible
        for i in range(k):
            sto, j = below(sto, n - i)
            c = nth_bit(rest, j)
            rest &= ~(1 << c)
            h |= 1 << c
        if not informed or consistent(h | opp_played, scratch, base):
            return sto, h, tries
    return sto, h, MAX_TRIES


@njit(cache=True, inline="always")
def _values(e, y, el, led, etr, pq, rules, mem, out):
    if led < 0:
        lead_values(e, y, el, etr, pq, rules, mem, out)
    else:
        follow_values(e, y, el, led, etr, pq, rules, mem, out)


@njit(cache=True, inline="always")
def _pick(values, legal, maximise):
    """The legal card with the best value; ties: the lowest card."""
    best = lowest_bit(legal)
    x = legal & (legal - 1)
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if (values[c] > values[best]) if maximise else (values[c] < values[best]):
            best = c
    return best


@njit(cache=True)
def strong_card(p, seat_elder, elder, younger, el, led, etr, pq, rules, scratch, sto, possible, opp_played):
    """The card of a ``dd`` or ``search`` player (policy array p) in seat ``seat_elder``: a lead when
    ``led`` < 0, else a reply to ``led`` (already out of the leader's hand). ``possible``: the cards
    the opponent may hold now; ``opp_played``: the cards he played. A search player without
    ``track_cards`` is given every card not his and not played as possible and ignores the
    declarations. Returns (stream, card)."""
    me = elder if seat_elder else younger
    legal = me
    if led >= 0:
        suited = me & (0xFF << (led & 24))
        legal = suited if suited else me
    if legal & (legal - 1) == 0:
        return sto, lowest_bit(legal)
    mem = scratch[S_MEMORY:]
    vals = scratch[S_VALUES:S_VALUES + 32]
    if p[P_KIND] == KIND_DD:
        _values(elder, younger, el, led, etr, pq, rules, mem, vals)
        return sto, _pick(vals, legal, seat_elder)
    totals = scratch[S_TOTALS:S_TOTALS + 32]
    totals[:] = 0
    base = S_INFO + (0 if seat_elder else 8)
    k = popcount(younger if seat_elder else elder)
    informed = p[P_TRACK_CARDS] != 0
    for _ in range(p[P_SAMPLES]):
        sto, h, _tries = sample_hidden(possible, k, opp_played, scratch, base, sto, informed)
        if seat_elder:
            _values(elder, h, el, led, etr, pq, rules, mem, vals)
        else:
            _values(h, younger, el, led, etr, pq, rules, mem, vals)
        x = legal
        while x:
            c = lowest_bit(x)
            x &= x - 1
            totals[c] += vals[c]
    return sto, _pick(totals, legal, seat_elder)


__all__ = ["KIND_SEARCH", "S_MEMORY", "note_declarations", "play_scratch", "strong_card", "uses_solver"]

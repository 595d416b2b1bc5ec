"""The cards of the ``dd`` and ``search`` players in the Piquet kernel (analysis.piquet.policies).

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
from analysis.piquet.engine.cards import ALL
from analysis.piquet.engine.declarations import point_key, sequence_key_and_score, set_key_and_score
from analysis.piquet.engine.layout import O_PLAYED
from analysis.piquet.players.heuristic import (
    cards_and_capot,
    heuristic_follow,
    heuristic_lead,
    random_card,
    trick_events,
)
from analysis.piquet.players.solver import (
    M_TABLE,
    PQ_CLOSED,
    follow_values,
    init_memory,
    lead_values,
    pique_state,
)
from analysis.piquet.policies import (
    KIND_DD,
    KIND_RANDOM,
    KIND_SEARCH,
    P_KIND,
    P_PARTIE,
    P_PLAY_FOR_PIQUE,
    P_SAMPLES,
    P_TRACK_CARDS,
)
from analysis.piquet.rules import (
    R_LAST_TRICK,
    R_LEAD_POINTS_EVERY_TRICK,
    R_PIQUE,
    R_RUBICON,
    R_RUBICON_BONUS,
)
from analysis.rng import below

S_DISCARD = 0  # 32 slots (the exchange's 64 int32)
S_PARTIE = 32  # a deciding deal of a partie (1 or 0), then elder's and younger's partie totals before it
S_INFO = 40  # 8 slots per seat, elder's view of younger first (I_* below)
S_VALUES = 56
S_TOTALS = 88
S_MEMORY = 120
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
def dd_trick(trick, scores, for_pique, rules, mem, vals):
    """Trick t finished along the double-dummy line. ``trick``: (elder's hand, younger's, elder
    leads, led (-1: not yet led), fol (-1: not yet followed), t, elder's tricks so far), the cards
    played already out of the hands; a card still to choose is the solver's best for the player to
    move (ties: the lowest). ``scores``: (e, y, pique_open), the running scores and the pique at the
    start of the trick. Returns the state after the trick: (elder, younger, elder leads next, etr,
    e, y, pique_open)."""
    elder, younger, elder_leads, led, fol, t, etr = trick
    e, y, pique_open = scores
    pq = pique_state(e, y, not pique_open) if for_pique else PQ_CLOSED
    el = 1 if elder_leads else 0
    if led < 0:
        lh = elder if elder_leads else younger
        if lh & (lh - 1) == 0:
            led = lowest_bit(lh)
        else:
            lead_values(elder, younger, el, etr, pq, rules, mem, vals)
            led = _pick(vals, lh, elder_leads)
        if elder_leads:
            elder &= ~(1 << led)
        else:
            younger &= ~(1 << led)
    if fol < 0:
        fh = younger if elder_leads else elder
        suited = fh & (0xFF << (led & 24))
        legal = suited if suited else fh
        if legal & (legal - 1) == 0:
            fol = lowest_bit(legal)
        else:
            follow_values(elder, younger, el, led, etr, pq, rules, mem, vals)
            fol = _pick(vals, legal, not elder_leads)
        if elder_leads:
            younger &= ~(1 << fol)
        else:
            elder &= ~(1 << fol)
    follower_wins = ((fol ^ led) < 8) & (fol > led)
    elder_wins = follower_wins != elder_leads
    e, y, pique_open = trick_events(e, y, elder_leads, follower_wins, elder_wins, t, rules[R_LEAD_POINTS_EVERY_TRICK],
                                   rules[R_LAST_TRICK], rules[R_PIQUE], pique_open)
    return elder, younger, elder_wins, etr + elder_wins, e, y, pique_open


@njit(cache=True)
def complete_line(trick, scores, for_pique, rules, mem, vals):
    """The deal's final totals and elder's tricks (e, y, etr) when its play goes on from trick t
    (``trick`` and ``scores`` as in ``dd_trick``) along the double-dummy line (docs/piquet-engine.md,
    "Playing for the partie"), the cards or capot included."""
    elder, younger, elder_leads, led, fol, t, etr = trick
    e, y, pique_open = scores
    # Typed values, not literals: numba compiles dd_trick once per literal value it is passed.
    elder_leads, led, fol, t, etr = np.bool_(elder_leads), np.int64(led), np.int64(fol), np.int64(t), np.int64(etr)
    for_pique = np.bool_(for_pique)
    while t < 12:
        elder, younger, elder_leads, etr, e, y, pique_open = dd_trick((elder, younger, elder_leads, led, fol, t, etr),
                                                                      (e, y, pique_open), for_pique, rules, mem, vals)
        led = -1
        fol = -1
        t += 1
    e_cards, y_cards, e_capot, y_capot = cards_and_capot(etr, rules)
    return e + e_cards + e_capot, y + y_cards + y_capot, etr


@njit(cache=True, inline="always")
def partie_value(mine, his, objective, rules):
    """The partie's value to a player whose total is ``mine`` against ``his`` when it ends now:
    objective 1 the margin (PQ-RUBICON), 2 a win (+1, -1, 0)."""
    if mine == his:
        return 0
    if objective == 2:
        return 1 if mine > his else -1
    w = max(mine, his)
    lo = min(mine, his)
    m = (w + lo if lo < rules[R_RUBICON] else w - lo) + rules[R_RUBICON_BONUS]
    return m if mine > his else -m


@njit(cache=True)
def partie_totals(p, seat_elder, hands, play, scores, rules, scratch, legal, totals):
    """Add to totals[c], for each legal card c, the partie's value of playing c in one world (the
    opponent's hand ``h`` with my hand: ``hands`` = (elder, younger, h)) and completing the deal
    along the double-dummy line. ``play``: (1 when elder leads, the card led or -1, elder's tricks);
    ``scores``: (e, y, pique_open)."""
    elder, younger, h = hands
    el, led, etr = play
    mem = scratch[S_MEMORY:]
    vals = scratch[S_VALUES:S_VALUES + 32]
    for_pique = p[P_PLAY_FOR_PIQUE] != 0
    e_hand = elder if seat_elder else h
    y_hand = h if seat_elder else younger
    t = 12 - popcount(elder if seat_elder else younger)
    x = legal
    while x:
        c = lowest_bit(x)
        x &= x - 1
        eh = e_hand & ~(1 << c) if seat_elder else e_hand
        yh = y_hand if seat_elder else y_hand & ~(1 << c)
        elder_leads = el == 1
        if led < 0:
            fe, fy, _ = complete_line((eh, yh, elder_leads, c, np.int64(-1), t, etr), scores, for_pique, rules, mem,
                                      vals)
        else:
            fe, fy, _ = complete_line((eh, yh, elder_leads, led, c, t, etr), scores, for_pique, rules, mem, vals)
        e_total = scratch[S_PARTIE + 1] + fe
        y_total = scratch[S_PARTIE + 2] + fy
        if seat_elder:
            totals[c] += partie_value(e_total, y_total, p[P_PARTIE], rules)
        else:
            totals[c] += partie_value(y_total, e_total, p[P_PARTIE], rules)


@njit(cache=True)
def strong_card(p, seat_elder, hands, play, scores, rules, scratch, sto, opponent):
    """The card of a ``dd`` or ``search`` player (policy array p) in seat ``seat_elder``.
    ``hands``: (elder, younger); ``play``: (1 when elder leads, the card led, elder's tricks): a lead
    when the card led is < 0, else a reply to it (already out of the leader's hand); ``scores``:
    (e, y, pique_open); ``opponent``: (the cards he may hold now, the cards he played). A search
    player without ``track_cards`` is given every card not his and not played as possible and
    ignores the declarations. Returns (stream, card)."""
    elder, younger = hands
    el, led, etr = play
    e, y, pique_open = scores
    possible, opp_played = opponent
    me = elder if seat_elder else younger
    legal = me
    if led >= 0:
        suited = me & (0xFF << (led & 24))
        legal = suited if suited else me
    if legal & (legal - 1) == 0:
        return sto, lowest_bit(legal)
    # The solver's pique state; -1 when closed or the player does not count a pique still to make.
    pq = pique_state(e, y, not pique_open) if p[P_PLAY_FOR_PIQUE] != 0 else PQ_CLOSED
    for_partie = p[P_PARTIE] != 0 and scratch[S_PARTIE] != 0
    mem = scratch[S_MEMORY:]
    vals = scratch[S_VALUES:S_VALUES + 32]
    totals = scratch[S_TOTALS:S_TOTALS + 32]
    totals[:] = 0
    if p[P_KIND] == KIND_DD:
        if for_partie:
            partie_totals(p, seat_elder, (elder, younger, younger if seat_elder else elder), play, scores, rules,
                          scratch, legal, totals)
            return sto, _pick(totals, legal, True)
        _values(elder, younger, el, led, etr, pq, rules, mem, vals)
        return sto, _pick(vals, legal, seat_elder)
    base = S_INFO + (0 if seat_elder else 8)
    k = popcount(younger if seat_elder else elder)
    informed = p[P_TRACK_CARDS] != 0
    for _ in range(p[P_SAMPLES]):
        sto, h, _tries = sample_hidden(possible, k, opp_played, scratch, base, sto, informed)
        if for_partie:
            partie_totals(p, seat_elder, (elder, younger, h), play, scores, rules, scratch, legal, totals)
            continue
        if seat_elder:
            _values(elder, h, el, led, etr, pq, rules, mem, vals)
        else:
            _values(h, younger, el, led, etr, pq, rules, mem, vals)
        x = legal
        while x:
            c = lowest_bit(x)
            x &= x - 1
            totals[c] += vals[c]
    return sto, _pick(totals, legal, seat_elder or for_partie)


@njit(cache=True)
def strong_tricks(elder, younger, unknown, track, sto, rules, pe, py, scratch, out, record, scores):
    """The twelve tricks of a deal in which a ``dd`` or ``search`` player sits (play/deal.play_dealt
    calls it; its own loop for the heuristic and random players is the same without the solver and
    the cards-played masks, kept apart for speed). ``unknown``: the cards elder and younger do not
    know the place of; ``track``: whether each tracks them; ``scores``: (e, y, pique open) after
    the declarations. Returns (stream, e, y, pique open, elder's tricks)."""
    e_unknown, y_unknown = unknown
    e_track, y_track = track
    e, y, pique_open = scores
    note_declarations(scratch, elder, younger)
    every_lead = rules[R_LEAD_POINTS_EVERY_TRICK]
    pique_value = rules[R_PIQUE]
    last = rules[R_LAST_TRICK]
    e_random = pe[P_KIND] == KIND_RANDOM
    y_random = py[P_KIND] == KIND_RANDOM
    e_strong = uses_solver(pe)
    y_strong = uses_solver(py)
    e_played = np.int64(0)  # typed values, not literals (complete_line says why)
    y_played = np.int64(0)
    e_tricks = np.int64(0)
    elder_leads = np.bool_(True)
    NONE = np.int64(-1)
    for t in range(12):
        if not e_track:
            e_unknown = ALL & ~elder
        if not y_track:
            y_unknown = ALL & ~younger
        lh = elder if elder_leads else younger
        fh = younger if elder_leads else elder
        gone = e_played | y_played
        if e_random if elder_leads else y_random:
            sto, led = random_card(lh, sto)
        elif e_strong if elder_leads else y_strong:
            sto, led = strong_card(pe if elder_leads else py, elder_leads, (elder, younger),
                                   (1 if elder_leads else 0, NONE, e_tricks), (e, y, pique_open), rules, scratch, sto,
                                   ((e_unknown if elder_leads else y_unknown) & ~gone,
                                    y_played if elder_leads else e_played))
        else:
            led = heuristic_lead(lh, e_unknown if elder_leads else y_unknown)
        suit = 0xFF << (8 * (led >> 3))
        in_suit = fh & suit
        lbit = 1 << led
        if y_random if elder_leads else e_random:
            sto, fol = random_card(in_suit if in_suit else fh, sto)
        elif y_strong if elder_leads else e_strong:
            sto, fol = strong_card(py if elder_leads else pe, not elder_leads,
                                   (elder & ~lbit if elder_leads else elder, younger if elder_leads else younger & ~lbit),
                                   (1 if elder_leads else 0, led, e_tricks), (e, y, pique_open), rules, scratch, sto,
                                   ((y_unknown if elder_leads else e_unknown) & ~(lbit | gone),
                                    (e_played if elder_leads else y_played) | lbit))
        else:
            fol = heuristic_follow(fh, led)
        if record:
            out[O_PLAYED + 2 * t] = led
            out[O_PLAYED + 2 * t + 1] = fol
        played = ~(lbit | (1 << fol))
        shown_out = 0 if in_suit else suit
        e_unknown &= played & ~(shown_out if elder_leads else 0)
        y_unknown &= played & ~(0 if elder_leads else shown_out)
        elder &= played
        younger &= played
        e_played |= lbit if elder_leads else (1 << fol)
        y_played |= (1 << fol) if elder_leads else lbit
        follower_wins = ((fol ^ led) < 8) & (fol > led)
        elder_wins = follower_wins != elder_leads
        e, y, pique_open = trick_events(e, y, elder_leads, follower_wins, elder_wins, t, every_lead, last,
                                       pique_value, pique_open)
        e_tricks += elder_wins
        elder_leads = elder_wins
    return sto, e, y, pique_open, e_tricks


__all__ = ["KIND_SEARCH", "S_MEMORY", "note_declarations", "play_scratch", "strong_card", "strong_tricks",
           "uses_solver"]

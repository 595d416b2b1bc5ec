"""Fitting the learned leads (players/learned.py) to the search player's values, and their regret.

Deals are played with every lead chosen by the search player (``players.search.choose_card``:
``samples`` hidden hands drawn from what the leader knows, each solved double-dummy) and the
follows by the heuristic; at each lead with a choice the position (what the leader knows) and the
search's value of every card (elder's net trick points, from the leader's side, averaged over the
samples) are recorded. The weights of each model (trick, leader's tricks, seat) are the ridge
least-squares fit of the values by the features, both centred within each decision (only the
differences between a decision's cards matter). They are rounded to integers (``SCALE``) so that
the kernel and the reference score alike.

``regret`` measures a choice rule on *other* deals than those fitted (``scripts/fit_lead.py``
uses distinct seeds): the search value of the best card minus that of the card chosen, summed
per deal. The search values there are noisy but unbiased for each card, and neither the
heuristic's nor the learned choice depends on them. (The search's own choice is not measured this
way: on the values that chose it, its regret is zero by construction.)
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.tricks import (
    ALL_CARDS,
    after_trick,
    hidden_constraints,
    knowledge_start,
    legal_follows,
)
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import penalties
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.players.learned import (
    lead_features,
    lead_model,
    lead_odds,
    learned_lead,
    read_total,
    reading_features,
)
from analysis.ecarte.players.learned_weights import N_LEAD_FEATURES, N_LEAD_MODELS
from analysis.ecarte.players.search import choose_card, search_scratch
from analysis.ecarte.players.solver import value_table
from analysis.ecarte.policies import N_READ_GROUPS
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import EMPTY_HALF, stream_start

SCALE = 1 << 20
"""Integer weights are the fitted ones times SCALE, rounded."""
LANE_FIT_SEARCH = 2
"""The stream lane of the deal the collecting search draws from."""
CHUNK = 500
"""Deals per chunk of the collection (fixed: the records do not depend on the threads)."""
# A record: the position of one lead with a choice.
F_DEAL, F_HAND, F_ALLOWED, F_REQUIRED, F_M, F_TRUMP, F_TRICK, F_LT, F_ELDER, F_HEUR, F_SEARCH = range(11)
N_FIELDS = 11
MAX_LEADS = 4
"""Leads with a choice per deal: tricks 1 to 4."""


@njit(cache=True, inline="always")
def write_record(row, values, i, lead, choice, sums, samples):
    """Record one lead with a choice of deal i into ``row`` (the F_* fields) and the search's value
    of each card of the hand into ``values`` (elder's net from the leader's side: ``sums`` over the
    samples drawn, one when the opponent's hand was known). ``lead``: (the leader's hand, the
    opponent's allowed and required cards and size, trumps, trick, the leader's tricks, the leader
    is elder); ``choice``: (the heuristic's card, the search's)."""
    hand, allowed, req, m, t, k, lt, leader_is_elder = lead
    heur, led = choice
    n = samples if popcount(allowed) > m - popcount(req) else 1
    row[F_DEAL] = i
    row[F_HAND] = hand
    row[F_ALLOWED] = allowed
    row[F_REQUIRED] = req
    row[F_M] = m
    row[F_TRUMP] = t
    row[F_TRICK] = k
    row[F_LT] = lt
    row[F_ELDER] = 1 if leader_is_elder else 0
    row[F_HEUR] = heur
    row[F_SEARCH] = led
    x = hand
    while x:
        c = lowest_bit(x)
        x &= x - 1
        v = sums[c] / n
        values[c] = v if leader_is_elder else -v


@njit(cache=True)
def _collect_deal(i, position, game, samples, st, scratch, outputs, pos):
    """Play one post-exchange position (elder's hand, the dealer's, the turn-up, their discards, the
    kings announced) with search leads and heuristic follows (``game``: must trump, value table),
    recording each lead with a choice at rec_out[pos], val_out[pos] (``outputs``; NaN for cards not
    held); returns (st, pos)."""
    elder, dealer, turnup, e_out, d_out, announced = position
    must, table = game
    rec_out, val_out = outputs
    sums, vals, rec, hist, no_probs, no_classes = scratch
    t = turnup >> 3
    known_e, known_d, req_e, req_d = knowledge_start(turnup, e_out, d_out, announced)
    ex_e = 0
    ex_d = 0
    played = 0
    hand_l = elder
    hand_f = dealer
    elder_leads = np.bool_(True)
    etricks = np.int64(0)
    # Typed values, not literals (players/search.play_tricks_search says why); cond 0 reads nothing,
    # so the policy slot (an int64 array, hist) is never read.
    zero = np.int64(0)
    know = (zero, np.int64(ALL_CARDS), zero, hist, np.bool_(False), np.bool_(False), hist, no_probs, no_classes, zero)
    for k in range(4):
        if elder_leads:
            allowed, req = hidden_constraints(hand_l, known_e, played, ex_d, req_d)
        else:
            allowed, req = hidden_constraints(hand_l, known_d, played, ex_e, req_e)
        heur = heuristic_lead(hand_l, t, True)
        m = popcount(hand_f)
        st, led = choose_card(st, hand_l, np.int64(-1), (allowed, req, m), elder_leads, etricks, samples, heur, know,
                              (t, must, table), (sums, vals, rec))
        lt = etricks if elder_leads else k - etricks
        write_record(rec_out[pos], val_out[pos], i, (hand_l, allowed, req, m, t, k, lt, elder_leads), (heur, led), sums,
                     samples)
        pos += 1
        fol = heuristic_follow(legal_follows(hand_f, led, t, must), led, t)
        elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks = after_trick(
            led, fol, t, must, elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks)
    return st, pos


@njit(cache=True, nogil=True)
def _collect_chunk(useed, start, count, rules, pe, pd, samples, rec_out, val_out):
    """Records of deals start..start+count-1 (exchanges and kings by the policies, which must not
    draw from the choices stream); returns how many were written."""
    deck = np.empty(32, dtype=np.int8)
    scratch = search_scratch()
    hist = scratch[3]
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    pos = np.int64(0)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        t = turnup >> 3
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges(deck, 11, stc, stb, np.uint64(0), elder, dealer, t, rules, pe, pd, hist)
        sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        st = stream_start(useed, ui, np.uint64(LANE_FIT_SEARCH))
        st, pos = _collect_deal(i, (elder, dealer, turnup, e_disc, d_disc, announced), (must, table), samples, st,
                                scratch, (rec_out, val_out), pos)
    return pos


@runs(_collect_chunk)
def _collect_block(seed, start, n_chunks, rules, pe, pd, samples, rec_out, val_out, counts):
    useed = np.uint64(seed)
    cap = MAX_LEADS * CHUNK

    def run(ci: int) -> None:
        counts[ci] = _collect_chunk(useed, start + ci * CHUNK, CHUNK, rules, pe, pd, samples,
                                    rec_out[ci * cap:(ci + 1) * cap], val_out[ci * cap:(ci + 1) * cap])

    on_threads(run, n_chunks)


def collect(rules, policy, deals: int, seed: int, samples: int = 30, start: int = 0):
    """(records, values) of the leads with a choice in deals start..start+deals-1 (a multiple of
    CHUNK): records (n, N_FIELDS) int64, values (n, 32) float64 (NaN for cards not held)."""
    n_chunks, rec, val, counts = record_arrays(deals, N_FIELDS)
    pa = policy.to_array()
    _collect_block(seed, start, n_chunks, rules.to_array(), pa, pa.copy(), samples, rec, val, counts)
    return written(rec, val, counts)


def record_arrays(deals: int, fields: int):
    """(chunks, records, values, counts per chunk): the empty outputs of a collection of ``deals``
    deals (a multiple of CHUNK), MAX_LEADS records of ``fields`` fields per deal."""
    if deals % CHUNK:
        raise ValueError(f"deals must be a multiple of {CHUNK}")
    n_chunks = deals // CHUNK
    cap = MAX_LEADS * CHUNK
    return (n_chunks, np.zeros((n_chunks * cap, fields), dtype=np.int64), np.full((n_chunks * cap, 32), np.nan),
            np.zeros(n_chunks, dtype=np.int64))


def written(rec: np.ndarray, val: np.ndarray, counts: np.ndarray):
    """The records and values the chunks wrote (each chunk's first counts[ci] of its block)."""
    cap = MAX_LEADS * CHUNK
    keep = np.concatenate([np.arange(ci * cap, ci * cap + counts[ci]) for ci in range(len(counts))])
    return rec[keep], val[keep]


@njit(cache=True)
def features(rec, rows, ratios):
    """(decision index, card, model, the 25 features) of every card of every record; where rows[r]
    >= 0 the odds are read from that row of ``ratios`` (a variant's 3 x 16, flat) as the kernel's
    reading leads read them (players/learned.learned_lead: the plain odds where no allowed card can be
    weighed)."""
    n = 0
    for r in range(rec.shape[0]):
        n += popcount(rec[r, F_HAND])
    idx = np.empty(n, dtype=np.int64)
    card = np.empty(n, dtype=np.int64)
    model = np.empty(n, dtype=np.int64)
    f = np.empty((n, N_LEAD_FEATURES))
    j = 0
    for r in range(rec.shape[0]):
        hand = rec[r, F_HAND]
        allowed, req, m, t = rec[r, F_ALLOWED], rec[r, F_REQUIRED], rec[r, F_M], rec[r, F_TRUMP]
        lt = rec[r, F_LT]
        ft = rec[r, F_TRICK] - lt
        r0 = N_READ_GROUPS * rows[r]
        total = read_total(allowed, t, ratios, r0) if rows[r] >= 0 else 0
        free = m - popcount(req)
        p, pw = lead_odds(allowed, req, m)
        x = hand
        while x:
            c = lowest_bit(x)
            x &= x - 1
            if total > 0:
                row = reading_features(c, hand, allowed, req, free, total, ratios, r0, t, lt, ft, rec[r, F_HEUR])
            else:
                row = lead_features(c, hand, allowed, req, p, pw, t, lt, ft, rec[r, F_HEUR])
            for q in range(N_LEAD_FEATURES):
                f[j, q] = row[q]
            idx[j] = r
            card[j] = c
            model[j] = lead_model(rec[r, F_TRICK], lt, rec[r, F_ELDER] == 1)
            j += 1
    return idx, card, model, f


def plain_features(rec):
    """``features`` with the learned leads' own odds (nothing read)."""
    return features(rec, np.full(len(rec), -1, dtype=np.int64), np.zeros(0, dtype=np.int64))


def fit(rec: np.ndarray, val: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Integer weights (N_LEAD_MODELS, N_LEAD_FEATURES): per model, the ridge least-squares fit of
    the decision-centred values by the decision-centred features (penalty ``ridge`` times the
    number of rows), times SCALE, rounded."""
    return fit_features(*plain_features(rec), val, ridge)


def fit_features(idx, card, model, f, val: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """``fit`` from the features (``features``, or the reading ones: fit/reading_lead)."""
    y = val[idx, card]
    w = np.zeros((N_LEAD_MODELS, N_LEAD_FEATURES))
    for k in range(N_LEAD_MODELS):
        s = model == k
        if not s.any():
            continue
        _, inv = np.unique(idx[s], return_inverse=True)
        cnt = np.bincount(inv)
        fs = f[s]
        x = fs - (np.stack([np.bincount(inv, fs[:, q]) for q in range(N_LEAD_FEATURES)], 1) / cnt[:, None])[inv]
        yc = y[s] - (np.bincount(inv, y[s]) / cnt)[inv]
        if ridge > 0:
            w[k] = np.linalg.solve(x.T @ x + ridge * len(x) * np.eye(N_LEAD_FEATURES), x.T @ yc)
        else:  # the least-norm solution (features constant within a model's decisions get 0)
            w[k] = np.linalg.lstsq(x, yc, rcond=None)[0]
    return np.round(w * SCALE).astype(np.int64)


@njit(cache=True)
def learned_choices(rec, weights, w0, r0):
    """The learned lead of every record under ``weights[w0:]`` (model-major), by the kernel's rule;
    ``r0`` per record: -1, or where its row of reading ratios starts in ``weights`` (then a policy
    array: the reading leads, fit/reading_lead)."""
    out = np.empty(rec.shape[0], dtype=np.int64)
    for r in range(rec.shape[0]):
        out[r] = learned_lead(rec[r, F_HAND], rec[r, F_ALLOWED], rec[r, F_REQUIRED], rec[r, F_M], rec[r, F_TRUMP],
                              rec[r, F_TRICK], rec[r, F_LT], rec[r, F_ELDER] == 1, rec[r, F_HEUR], weights, w0,
                              r0[r])
    return out


def regret(rec: np.ndarray, val: np.ndarray, choice: np.ndarray, start: int, deals: int) -> tuple[float, float]:
    """(mean, half-width of its 95% interval) of the per-deal regret of ``choice`` in deals
    start..start+deals-1: the search value of each decision's best card minus that of the card
    chosen, summed over a deal's leads (deals without a choice count 0)."""
    r = np.nanmax(val, 1) - val[np.arange(len(val)), choice]
    per_deal = np.bincount(rec[:, F_DEAL] - start, r, minlength=deals)
    return float(per_deal.mean()), float(1.96 * per_deal.std(ddof=1) / np.sqrt(deals))

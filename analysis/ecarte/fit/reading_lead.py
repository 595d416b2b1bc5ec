"""Fitting the reading leads' weights (docs/ecarte-engine.md, "Reading leads") to a *reading*
searcher's values.

The learned leads' weights (``fit/lead.py``) were fitted to a searcher who draws the hidden hand
uniformly; fed the odds read from the opponent's first decision, that score loses (stop 39: the
dealer reading the true odds costs him 0.0022 points per hand under classic). So the reading
leads get weights of their own, fitted the same way to a searcher who reads the same decision:
``players.search_inference.COND_TABLE``, hidden hands drawn from the posterior given the first proposal
or answer made by the shipped solution's chances.

Deals are dealt uniformly; elder's first decision is drawn by the solution's chance for his
information set, and if he proposes, the dealer's answer by hers. An accepted proposal is dropped
(nobody reads it). On the other deals (elder played; elder proposed and was refused) the five
tricks are played with every lead chosen by the search player, reading where the reading leads
read (the dealer after elder played or was refused, elder after a refusal) and uniform
elsewhere, the follows by the heuristic; the reading leads with a choice are recorded as
``fit/lead`` records plus the row read (F_READ), with the search's value of every card. The
dealer's leads after refusing (row 1) are collected and fitted too, though the policy does not
read them (players/learned.reading_row): there the reading leads lost to the learned ones. Their
features are the reading features of the variant's ratios (``reading_features_of``), and
``fit.lead.fit_features`` fits them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.tricks import (
    ALL_CARDS,
    after_trick,
    hidden_constraints,
    knowledge_start,
    legal_follows,
)
from analysis.ecarte.fit import lead as LF
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import penalties
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.players.learned import OPENING_PLAYED, OPENING_REFUSED, opening_row
from analysis.ecarte.players.search import choose_card, search_scratch
from analysis.ecarte.players.search_inference import COND_TABLE, info_set_of
from analysis.ecarte.players.solver import value_table
from analysis.ecarte.policies import P_FORCE_FIRST, P_FORCE_RESPONSE
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.rng import EMPTY_HALF, below, stream_start

LANE_DECIDE = 5
"""The stream lane of the deal's first decisions (drawn by the solution's chances)."""
LANE_ELDER = 6
LANE_DEALER = 7
"""The lanes elder's and the dealer's searches draw from."""
F_READ = LF.N_FIELDS
"""The row of ratios the leader reads (0, 1, 2: players/reading.READ_ROWS)."""
N_FIELDS = LF.N_FIELDS + 1
CHUNK = LF.CHUNK
MAX_LEADS = LF.MAX_LEADS


@njit(cache=True)
def _reading_deal(i, position, opening, game, samples, streams, scratch, models, outputs, pos):
    """Play one position (``position``: elder's hand, the dealer's, the turn-up, their discards,
    the kings announced; ``game``: must trump, value table) with search leads (elder's and the
    dealer's ``streams``; the reader's reading his opponent's first decision by the chances
    ``x`` (elder proposes) / ``y`` (the dealer refuses) of ``models`` = (pe, pd, x, y,
    class_of_rank)) and heuristic follows, recording the reading leads with a choice in
    ``outputs`` (rec_out, val_out); returns (st_e, st_d, pos)."""
    elder, dealer, turnup, e_out, d_out, announced = position
    must, table = game
    st_e, st_d = streams
    pe, pd, x, y, class_of_rank = models
    rec_out, val_out = outputs
    sums, vals, rec, hist, no_probs, _ = scratch
    t = turnup >> 3
    known_e, known_d, req_e, req_d = knowledge_start(turnup, e_out, d_out, announced)
    ex_e = 0
    ex_d = 0
    played = 0
    played_e = np.int64(0)
    played_d = np.int64(0)
    hand_l = elder
    hand_f = dealer
    elder_leads = np.bool_(True)
    etricks = np.int64(0)
    zero = np.int64(0)
    cond_table = np.int64(COND_TABLE)
    for k in range(4):
        row = opening_row(opening, elder_leads)
        reads = row >= 0
        if elder_leads:
            allowed, req = hidden_constraints(hand_l, known_e, played, ex_d, req_d)
            know = (cond_table if reads else zero, ALL_CARDS & ~hand_l & ~known_e & ~played, played_d, hist,
                    np.bool_(False), (announced & 2) != 0, pd, y if reads else no_probs, class_of_rank,
                    np.int64(turnup & 7))
        else:
            allowed, req = hidden_constraints(hand_l, known_d, played, ex_e, req_e)
            know = (cond_table if reads else zero, ALL_CARDS & ~hand_l & ~known_d & ~played, played_e, hist,
                    np.bool_(True), (announced & 1) != 0, pe, x if reads else no_probs, class_of_rank,
                    np.int64(turnup & 7))
        heur = heuristic_lead(hand_l, t, True)
        m = popcount(hand_f)
        if elder_leads:
            st_e, led = choose_card(st_e, hand_l, np.int64(-1), (allowed, req, m), elder_leads, etricks, samples,
                                    heur, know, (t, must, table), (sums, vals, rec))
        else:
            st_d, led = choose_card(st_d, hand_l, np.int64(-1), (allowed, req, m), elder_leads, etricks, samples,
                                    heur, know, (t, must, table), (sums, vals, rec))
        if reads:
            lt = etricks if elder_leads else k - etricks
            LF.write_record(rec_out[pos], val_out[pos], i, (hand_l, allowed, req, m, t, k, lt, elder_leads),
                            (heur, led), sums, samples)
            rec_out[pos, F_READ] = row
            pos += 1
        fol = heuristic_follow(legal_follows(hand_f, led, t, must), led, t)
        if elder_leads:
            played_e |= 1 << led
            played_d |= 1 << fol
        else:
            played_d |= 1 << led
            played_e |= 1 << fol
        elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks = after_trick(
            led, fol, t, must, elder_leads, ex_e, ex_d, played, hand_l, hand_f, etricks)
    return st_e, st_d, pos


@njit(cache=True, nogil=True)
def _reading_chunk(useed, start, count, rules, pol, x, y, class_of_rank, samples, rec_out, val_out):
    """Records of deals start..start+count-1; returns how many were written."""
    deck = np.empty(32, dtype=np.int8)
    scratch = search_scratch()
    hist = scratch[3]
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    e_play, e_propose, d_refuse = pol.copy(), pol.copy(), pol.copy()
    e_play[P_FORCE_FIRST] = 0
    e_propose[P_FORCE_FIRST] = 1
    d_refuse[P_FORCE_RESPONSE] = 1
    pos = np.int64(0)
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        t = turnup >> 3
        std = stream_start(useed, ui, np.uint64(LANE_DECIDE))
        std, u = below(std, 1 << 30)
        propose = u < x[info_set_of(elder, t, turnup & 7, class_of_rank)] * (1 << 30)
        if propose:
            std, u = below(std, 1 << 30)
            if u >= y[info_set_of(dealer, t, turnup & 7, class_of_rank)] * (1 << 30):
                continue  # accepted: nobody reads it
        pe = e_propose if propose else e_play
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges(deck, 11, stc, stb, np.uint64(0), elder, dealer, t, rules, pe, d_refuse, hist)
        sto, announced = announce_kings(elder, dealer, t, sto, pe, d_refuse)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        st_e = stream_start(useed, ui, np.uint64(LANE_ELDER))
        st_d = stream_start(useed, ui, np.uint64(LANE_DEALER))
        opening = np.int64(OPENING_REFUSED if propose else OPENING_PLAYED)
        st_e, st_d, pos = _reading_deal(i, (elder, dealer, turnup, e_disc, d_disc, announced), opening,
                                        (must, table), samples, (st_e, st_d), scratch,
                                        (pe, d_refuse, x, y, class_of_rank), (rec_out, val_out), pos)
    return pos


@runs(_reading_chunk)
def _reading_block(seed, start, n_chunks, rules, pol, x, y, class_of_rank, samples, rec_out, val_out, counts):
    useed = np.uint64(seed)
    cap = MAX_LEADS * CHUNK

    def run(ci: int) -> None:
        counts[ci] = _reading_chunk(useed, start + ci * CHUNK, CHUNK, rules, pol, x, y, class_of_rank,
                                    samples, rec_out[ci * cap:(ci + 1) * cap], val_out[ci * cap:(ci + 1) * cap])

    on_threads(run, n_chunks)


def collect(rules_name: str, deals: int, seed: int, samples: int = 30, start: int = 0, solution: str = "reading"):
    """(records, values) of the reading leads with a choice in deals start..start+deals-1 (a
    multiple of CHUNK), first decisions by the shipped ``solution`` of ``rules_name``
    (reading_ratios.first_decisions; the searcher reads them under the same chances):
    records (n, N_FIELDS) int64, values (n, 32) float64 (NaN for cards not held)."""
    from analysis.ecarte.fit.reading_ratios import first_decisions, solution_chances
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.strategy.tables import hands

    n_chunks, rec, val, counts = LF.record_arrays(deals, N_FIELDS)
    x, y = (np.ascontiguousarray(p, dtype=np.float64) for p in solution_chances(first_decisions(rules_name, solution)[0]))
    _reading_block(seed, start, n_chunks, get_rules(rules_name).to_array(), HeuristicPolicy(leads="learned").to_array(),
                   x, y, hands().class_of_rank, np.int64(samples), rec, val, counts)
    return LF.written(rec, val, counts)


def reading_features_of(rec, ratios):
    """(decision index, card, model, the 25 features) of every card of every record, the odds read
    from row rec[:, F_READ] of ``ratios`` (a variant's 3 x 16, flat) as the kernel reads them."""
    return LF.features(rec, np.ascontiguousarray(rec[:, F_READ]), ratios)

"""PQ-T11 measured causally: what winning the cards is worth at a decision that decides them.

On each deal, play goes along the double-dummy line from the start of play. At the first trick
where the leader has one lead after which (both playing double dummy from then on) he wins the cards
and another after which he loses them, the swing is the best net score (his points minus the
opponent's, the whole deal) among the leads that win him the cards minus the best among those that
lose them: the same deal, the same position, the cards won or lost by one decision. Deals where no
lead decides the cards (one side wins them whatever is led, all along the line) give no swing.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import lowest_bit
from analysis.piquet.engine.layout import (
    O_CAPOT,
    O_CARDS,
    O_FINAL,
    O_PIQUE,
    O_REPIQUE,
    O_TOTAL,
    O_TRICK_POINTS,
)
from analysis.piquet.players.search import PLAY_TT_BITS, complete_line, dd_trick
from analysis.piquet.players.solver import M_TABLE, init_memory

NO_SWING = -(1 << 30)


@njit(cache=True)
def cards_swing(elder, younger, e, y, pique_open, rules, mem, vals):
    """(swing, trick) of one deal from the start of play (``e``, ``y``: the scores then), or
    (NO_SWING, -1) when no lead along the double-dummy line decides the cards."""
    elder_leads = np.bool_(True)  # typed values, not literals (players/search.complete_line says why)
    etr = np.int64(0)
    for t in range(12):
        lh = elder if elder_leads else younger
        best_win = NO_SWING
        best_lose = NO_SWING
        x = lh
        while x:
            c = lowest_bit(x)
            x &= x - 1
            eh = elder & ~(1 << c) if elder_leads else elder
            yh = younger if elder_leads else younger & ~(1 << c)
            fe, fy, ftr = complete_line((eh, yh, elder_leads, c, np.int64(-1), t, etr), (e, y, pique_open),
                                        np.bool_(True), rules, mem, vals)
            net = fe - fy if elder_leads else fy - fe
            mine = ftr if elder_leads else 12 - ftr
            if mine >= 7 and net > best_win:
                best_win = net
            if mine <= 5 and net > best_lose:
                best_lose = net
        if best_win != NO_SWING and best_lose != NO_SWING:
            return best_win - best_lose, t
        none = np.int64(-1)
        elder, younger, elder_leads, etr, e, y, pique_open = dd_trick((elder, younger, elder_leads, none, none, t, etr),
                                                                      (e, y, pique_open), np.bool_(True), rules, mem,
                                                                      vals)
    return NO_SWING, -1


@njit(cache=True, parallel=True)
def swings_block(rows, rules):
    """cards_swing of each deal's outcome row (deal_outcomes with its record: the hands after the
    exchanges, the declarations' scores): (n, 2) swing and trick."""
    n = rows.shape[0]
    out = np.zeros((n, 2), dtype=np.int64)
    chunks = max(1, n // 64)
    for ci in prange(chunks):
        mem = np.zeros(M_TABLE + (2 << PLAY_TT_BITS), dtype=np.int64)
        init_memory(mem)
        vals = np.zeros(32, dtype=np.int64)
        for i in range(ci * n // chunks, (ci + 1) * n // chunks):
            r = rows[i]
            e = r[O_TOTAL] - r[O_TRICK_POINTS] - r[O_PIQUE] - r[O_CARDS] - r[O_CAPOT]
            y = r[O_TOTAL + 1] - r[O_TRICK_POINTS + 1] - r[O_CARDS + 1] - r[O_CAPOT + 1]
            s, t = cards_swing(r[O_FINAL], r[O_FINAL + 1], e, y, r[O_REPIQUE] == 0, rules, mem, vals)
            out[i, 0] = s
            out[i, 1] = t
    return out


def causal_swing(rules, n: int, seed: int, threads: int | None = None) -> dict:
    """PQ-T11's causal swing over n deals (learned exchanges, the double-dummy line): the mean
    swing with its interval over the deals that have one, their share, and the trick it falls on."""
    from analysis.blocks import kernel_threads
    from analysis.piquet.play.deal import deal_outcomes
    from analysis.piquet.policies import get_policy
    from analysis.stats import mean_from_sums, proportion

    p = get_policy("dd", ["exchange=learned"]).to_array()
    rows = deal_outcomes(seed, 0, n, rules.to_array(), p, p)
    with kernel_threads(threads):
        res = swings_block(rows, rules.to_array())
    found = res[:, 0] != NO_SWING
    s = res[found, 0]
    return {"swing": mean_from_sums(int(s.sum()), int((s * s).sum()), len(s)), "deals": n,
            "deals_with_a_deciding_lead": proportion(int(found.sum()), n),
            "median_trick": float(np.median(res[found, 1]) + 1) if found.any() else None,
            "players": "dd players (open hands) with the learned exchange; swings along the double-dummy line"}

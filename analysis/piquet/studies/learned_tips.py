"""Piquet tips about the exchange measured with the learned exchange (the fast player fitted to the
discard analyser): over many deals instead of a few hundred analysed hands. PQ-T7 (what the
number of cards taken reveals) and PQ-T13 (what always taking every card costs younger)."""
from __future__ import annotations

import numpy as np

from analysis.piquet.engine.layout import O_DEALT, O_TOOK, O_TOTAL
from analysis.piquet.rules import PiquetRules
from analysis.stats import Estimate, paired_difference, proportion

BLOCK = 100_000
TAKE_ALL = 8
"""A forced count above the most allowed: the player takes every card he may (players/heuristic)."""


def _outcomes(rules: PiquetRules, n: int, seed: int, pe, py):
    """deal_outcomes of deals 0..n-1 in blocks (the kernel's rows, one block at a time)."""
    from analysis.piquet.play.deal import deal_outcomes

    for start in range(0, n, BLOCK):
        yield deal_outcomes(seed, start, min(BLOCK, n - start), rules.to_array(), pe, py)


def take_all_cost(rules: PiquetRules, n: int, seed: int) -> Estimate:
    """Younger's points per deal lost by always taking every card he may (the learned exchange
    choosing which) against the learned exchange, both elders learned, the same deals (paired)."""
    from analysis.piquet.policies import get_policy

    learned = get_policy("learned")
    pe = learned.to_array()
    s = 0
    s2 = 0
    for a, b in zip(_outcomes(rules, n, seed, pe, learned.to_array()),
                    _outcomes(rules, n, seed, pe, learned.to_array(force_count=TAKE_ALL)), strict=True):
        d = (a[:, O_TOTAL + 1] - a[:, O_TOTAL]) - (b[:, O_TOTAL + 1] - b[:, O_TOTAL])
        s += int(d.sum())
        s2 += int((d * d).sum())
    return paired_difference(s, s2, n)


def exchange_counts(rules: PiquetRules, n: int, seed: int, strength_deals: int = 20_000) -> dict:
    """Both players learned: the share of deals on which each seat takes every card allowed, the
    distribution of younger's count, and younger's dealt declarations (studies/discards/study's strength
    measure) by his count on the first ``strength_deals`` deals."""
    from analysis.piquet.policies import get_policy
    from analysis.piquet.studies.discards.study import declaration_value

    p = get_policy("learned").to_array()
    counts = np.zeros((2, 9), dtype=np.int64)
    y_all = 0
    strength: dict[int, list[int]] = {}
    done = 0
    for rows in _outcomes(rules, n, seed, p, p):
        e_took, y_took = rows[:, O_TOOK], rows[:, O_TOOK + 1]
        counts[0] += np.bincount(e_took, minlength=9)[:9]
        counts[1] += np.bincount(y_took, minlength=9)[:9]
        most = 8 - e_took if rules.younger_takes_leftovers else np.full_like(e_took, 3)
        y_all += int((y_took == most).sum())
        for r in rows[:max(0, strength_deals - done)]:
            strength.setdefault(int(r[O_TOOK + 1]), []).append(declaration_value(int(r[O_DEALT + 1])))
        done += len(rows)
    return {"younger_takes_all": proportion(y_all, n), "elder_takes_five": proportion(int(counts[0, 5]), n),
            "younger_count_shares": {k: float(counts[1, k] / n) for k in range(9) if counts[1, k]},
            "elder_count_shares": {k: float(counts[0, k] / n) for k in range(9) if counts[0, k]},
            "younger_dealt_declarations_by_count": {k: float(np.mean(v)) for k, v in sorted(strength.items())},
            "strength_deals": min(n, strength_deals)}

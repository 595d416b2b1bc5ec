"""PQ-T12, "Consider sinking combinations to hide information": the value of sinking against an
opponent that reads declarations, measured in the plain-Python reference (reference.play_deal with
a ``sink`` rule; the numba kernel does not sink).

Younger sinks by :func:`small_combinations` (his own hand only, decided after the exchanges):
every category whose own score would be at most 4 points, a point of 4 cards or fewer, sequences
scoring 3 or 4 (one tierce or one quart, nothing else), sets scoring 3 (one trio). A sunk
category is declared as nothing: he scores nothing in it, and elder scores it if he holds any.
Elder is a search player who reads the declarations at face value (reference/search: he does not
know that sinking exists, and drops a declaration only once the cards played contradict it), or a
search player without card tracking who reads nothing (his hand and the cards played only).
Younger is a search player with the same samples in every arm; every arm plays the same deals.
"""
from __future__ import annotations

import time

from analysis.piquet.reference.cards import ELDER, YOUNGER
from analysis.piquet.reference.deal import play_deal
from analysis.piquet.reference.scoring import CATEGORIES, category_points
from analysis.piquet.rules import PiquetRules
from analysis.stats import mean_from_sums, paired_difference, proportion

SINK_LIMIT = 4
"""Younger sinks a category worth at most this many points to him."""
DECLARATION_KEYS = ("carte_blanche", "point", "sequences", "sets", "repique")


def small_combinations(hand: int, rules: PiquetRules | None = None, limit: int = SINK_LIMIT) -> set[str]:
    """The categories a hand would score 1 to ``limit`` points in if it won them (the study's
    sinking rule; it reads the player's own hand only)."""
    return {c for c in CATEGORIES if 0 < category_points(c, hand) <= limit}


def _net(r) -> int:
    """Younger's total minus elder's in one deal."""
    return r.younger_total - r.elder_total


def _declaration_net(r) -> int:
    """Younger's carte blanche, declarations and repique minus elder's."""
    return sum(r.scores[YOUNGER][k] - r.scores[ELDER][k] for k in DECLARATION_KEYS)


def deal_row(seed: int, i: int, rules: PiquetRules, reader, blind, younger) -> dict:
    """One deal in four arms (elder reader or blind, younger sinking or in full): the paired
    differences of younger's net (sinking minus in full) and what the sinking cost in declarations."""
    sink = {YOUNGER: small_combinations}
    arms = {(e, s): play_deal(seed, i, rules, pol, younger, sink=sink if s else None)
            for e, pol in (("reader", reader), ("blind", blind)) for s in (True, False)}
    full, sunk = arms["reader", False], arms["reader", True]
    cats = sunk.sink[YOUNGER]
    return {
        "reader": _net(sunk) - _net(full),
        "blind": _net(arms["blind", True]) - _net(arms["blind", False]),
        "categories": cats,
        "given_up": sum(full.scores[YOUNGER][c] for c in cats),
        "declaration_cost": _declaration_net(full) - _declaration_net(sunk),
    }


def _mean(values: list[int]):
    """Mean of integer values with its t interval (from integer sums)."""
    return mean_from_sums(sum(values), sum(v * v for v in values), len(values))


def _paired(values: list[int]):
    """Paired difference (one integer per deal) with its 95% interval."""
    return paired_difference(sum(values), sum(v * v for v in values), len(values))


def sinking_value(rules: PiquetRules, deals: int, seed: int, samples: int = 20) -> dict:
    """PQ-T12 on deals 0..deals-1 of ``seed`` (the same deals in every arm): younger's net per deal
    (his total minus elder's) sinking by :func:`small_combinations` minus declaring in full,
    against an elder search player who reads declarations (``against_reader``) and one with
    ``track_cards=0`` (``against_blind``), with their per-deal difference ``information_value``
    (what sinking denies a declaration reader; all with 95% intervals). Also how often the rule
    sinks, per category, the points given up (younger's score in the sunk categories declared in
    full) and the declarations' net cost (younger's carte blanche, declarations and repique minus
    elder's, in full minus sinking), and the deals per second of the four arms."""
    from analysis.piquet.policies import get_policy

    reader = get_policy("search", [f"samples={samples}"])
    blind = get_policy("search", [f"samples={samples}", "track_cards=0"])
    start = time.perf_counter()
    rows = [deal_row(seed, i, rules, reader, blind, reader) for i in range(deals)]
    seconds = time.perf_counter() - start
    sinks = sum(bool(r["categories"]) for r in rows)
    return {
        "deals": deals, "seed": seed, "samples": samples, "rules": rules.name,
        "rule": f"younger sinks every category worth 1 to {SINK_LIMIT} points to him",
        "against_reader": _paired([r["reader"] for r in rows]),
        "against_blind": _paired([r["blind"] for r in rows]),
        "information_value": _paired([r["reader"] - r["blind"] for r in rows]),
        "sinks": proportion(sinks, deals),
        "sunk_by_category": {c: sum(c in r["categories"] for r in rows) for c in CATEGORIES},
        "points_given_up": _mean([r["given_up"] for r in rows]),
        "declaration_net_cost": _mean([r["declaration_cost"] for r in rows]),
        "seconds": seconds,
        "search_deals_per_second": 4 * deals / seconds if seconds > 0 else float("nan"),
    }

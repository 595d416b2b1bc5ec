"""What a first decision says of the dealt hand, for the reading leads (docs/ecarte-engine.md,
"Reading leads"): per kind of card, how much more or less often it is in a hand that made the
decision than in any hand, under a variant's equilibrium tables.

Rows (``READ_ROWS``): elder played without proposing, elder proposed, the dealer refused. Groups:
a trump of rank index g (g = 0..7), a plain card of rank index g - 8. The ratios are exact
averages over every hand and turn-up (trumps as suit 0: the 201,376 hands times the turn-up ranks
they leave, all equally likely), weighted by the chance that the hand's information set makes the
decision; they are stored as integers in units of ``RATIO_UNIT`` so that the kernel and the
reference read the same numbers. ``scripts/make_reading_ratios.py`` writes
``data/reading_ratios.json``.
"""
from __future__ import annotations

import hashlib
import os

import numpy as np

from analysis.ecarte.players.reading import (
    RATIO_UNIT,
    READ_ROWS,
)
from analysis.ecarte.policies import (
    N_POLICY_SLOTS,
    N_READ_GROUPS,
    P_LEAD_WEIGHTS,
    P_READ_RATIOS,
    P_READ_WEIGHTS,
    P_READS,
)
from analysis.errors import InputError


def group_counts(masks: np.ndarray) -> np.ndarray:
    """Per hand (trumps in lane 0), how many cards of each group it holds: (n, 16)."""
    m = masks.astype(np.int64)
    out = np.zeros((len(m), N_READ_GROUPS), dtype=np.int64)
    for g in range(8):
        out[:, g] = (m >> g) & 1
        out[:, 8 + g] = sum((m >> (8 * lane + g)) & 1 for lane in (1, 2, 3))
    return out


def ratios_from_tables(elder_probability: np.ndarray, dealer_probability: np.ndarray) -> np.ndarray:
    """The three rows of ratios (floats) from the tables' chances by information set: elder's
    chance to propose and the dealer's chance to refuse (index 3 * class + turn-up bucket)."""
    from analysis.ecarte.engine import buckets as TB
    from analysis.ecarte.studies.strategy import kernel as TK
    from analysis.ecarte.studies.strategy.tables import hands

    masks = TK.all_hands()
    classes = hands().class_of_rank
    counts = group_counts(masks)
    trumps = masks & 0xFF
    top = np.where(trumps > 0, np.floor(np.log2(np.maximum(trumps, 1))).astype(np.int64), -1)
    num = np.zeros((len(READ_ROWS), N_READ_GROUPS))
    den = np.zeros(len(READ_ROWS))
    all_num = np.zeros(N_READ_GROUPS)
    all_den = 0.0
    for r in range(8):  # the turn-up's rank; the hand cannot hold it
        ok = ((trumps >> r) & 1) == 0
        bucket = np.where(r == 7, TB.KING_TURNED, np.where(r > top, TB.ABOVE, TB.BELOW))
        info = classes * TB.N_BUCKETS + bucket
        c = counts[ok]
        for v, w in enumerate((1.0 - elder_probability[info][ok], elder_probability[info][ok],
                               dealer_probability[info][ok])):
            num[v] += w @ c
            den[v] += w.sum()
        all_num += c.sum(axis=0)
        all_den += ok.sum()
    return (num / den[:, None]) / (all_num / all_den)[None, :]


def solution_chances(df) -> tuple[np.ndarray, np.ndarray]:
    """(elder's chance to propose, the dealer's to refuse) by information set, from shipped tables
    (studies/equilibrium/tables.shipped); sets the tables do not list get 0."""
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    n = len(info_sets().weight)
    chances = []
    for side in ("elder", "dealer"):
        part = df[df["side"] == side]
        p = np.zeros(n)
        p[part["info_set"].to_numpy()] = part["probability"].to_numpy()
        chances.append(p)
    return chances[0], chances[1]


def ratios_of_shipped(rules_name: str, policy) -> tuple[np.ndarray, dict]:
    """(integer ratios, provenance) from the tables shipped for these rules and policy."""
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.tables import shipped

    found = shipped(get_rules(rules_name), policy, exact=True)
    if found is None:
        raise InputError(f"no equilibrium tables shipped for {rules_name} played by {policy.describe()}")
    df, summary = found
    x, y = solution_chances(df)
    ratios = np.maximum(1, np.round(ratios_from_tables(x, y) * RATIO_UNIT)).astype(np.int64)
    path = os.path.join(os.path.dirname(__file__), "..", "..", "..", summary["tables"])
    with open(path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()[:16]
    return ratios, {"tables": summary["tables"], "tables_sha256": sha, "play_policy": summary.get("play_policy"),
                    "policy": summary.get("policy")}


class _Arrays:
    """A policy whose kernel array is given (simulate calls ``to_array``)."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def to_array(self) -> np.ndarray:
        return self.array


SOLUTIONS = ("reading",)
"""The shipped solutions the reading leads can read: the tables played with the reading leads (the
fixed point's last step). The first step read the tables played with the learned leads, which no
longer ship (docs/ecarte-engine.md, "Reading leads", says how to make them again)."""


def first_decisions(rules_name: str, solution: str = "reading"):
    """(tables, summary) of the shipped solution whose first decisions the reading leads read, found
    by name, since new ratios or weights change the policy that matches them."""
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium.tables import shipped_file

    if solution not in SOLUTIONS:
        raise InputError(f"solution must be one of {', '.join(SOLUTIONS)}, not {solution!r}")
    found = shipped_file(get_rules(rules_name), "learned", rules_name)
    if found is None:
        raise InputError(f"no {solution}-lead equilibrium tables shipped for {rules_name}")
    return found


def with_learned_weights(reading: np.ndarray) -> np.ndarray:
    """A reading policy array whose reading weights are the learned leads' (stop 39's reading)."""
    out = reading.copy()
    out[P_READ_WEIGHTS:N_POLICY_SLOTS] = np.tile(out[P_LEAD_WEIGHTS:P_READS], 3)
    return out


def _interval(d: np.ndarray) -> dict:
    """Mean and 95% interval (normal) of per-deal values, rounded to 5 places."""
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    return {"value": round(float(d.mean()), 5), "ci95": [round(float(d.mean() - half), 5),
                                                         round(float(d.mean() + half), 5)]}


def reading_gain(rules_name: str, deals: int, seed: int = 7, power: float = 1.0, weights: str = "reading",
                 solution: str = "reading") -> dict:
    """What reading is worth to each side at a shipped solution's first decisions (``solution``, as
    in ``first_decisions``: the reading-lead tables'):
    ``deals`` deals of elder's information sets drawn by their weight, every branch played on the
    same deals with and without each side's reading leads, each deal valued by the solution's
    chances. Per reader: the change in elder's value per hand (95% interval, paired per deal) and
    its parts by branch (each branch's change in elder's net times the solution's chance of it). ``power`` raises the ratios
    to that power (0 reads nothing, 1 the file's ratios, -1 their opposite: a diagnostic).
    ``weights``: "reading" scores the reading leads by their own weights (data/reading_lead.json),
    "learned" by the learned leads' (stop 39's reading, a diagnostic: with power 0 it leads exactly
    as the learned leads do)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import study as EQ
    from analysis.ecarte.studies.equilibrium.measures import info_sets, net_values

    rules = get_rules(rules_name)
    plain = HeuristicPolicy(leads="learned")
    reading = HeuristicPolicy(leads="learned", reads=rules_name).to_array()
    ratios = reading[P_READ_RATIOS:P_READ_WEIGHTS] / RATIO_UNIT
    reading[P_READ_RATIOS:P_READ_WEIGHTS] = np.maximum(1, np.round(ratios ** power * RATIO_UNIT))
    if weights == "learned":
        reading = with_learned_weights(reading)
    elif weights != "reading":
        raise InputError(f"weights must be reading or learned, not {weights!r}")
    reading = _Arrays(reading)
    df, summary = first_decisions(rules_name, solution)
    sets = info_sets()
    x, y = solution_chances(df)
    counts = np.random.default_rng(seed).multinomial(deals, sets.weight)
    first = np.zeros(len(counts), dtype=np.int64)
    runs = {}
    for name, pols in (("none", (plain, plain)), ("dealer", (plain, reading)), ("elder", (reading, plain))):
        fixed, other, cells = EQ.simulate("elder", first, counts, seed, rules, pols)
        nets = net_values().astype(np.float64)[cells]
        px, py = x[fixed], y[other // 2]
        # Each branch's part of elder's value: its net times the chance the solution takes it.
        runs[name] = nets * np.stack([1 - px, px * (1 - py), px * py], axis=1)
    out = {"rules": rules_name, "deals": int(deals), "seed": seed, "power": power, "weights": weights,
           "solution": summary["tables"],
           "play_policy": "heuristic with the learned leads; the reader's leads weight the opponent's cards "
                          "by his first decision (reads), scored by the "
                          + ("reading leads' own weights" if weights == "reading" else "learned leads' weights"),
           "readers": {}}
    for reader in ("dealer", "elder"):
        d = runs[reader] - runs["none"]
        out["readers"][reader] = {
            "elder_value_change": _interval(d.sum(axis=1)),
            "elder_value_change_by_branch": {name: _interval(d[:, b])
                                             for b, name in enumerate(("played", "accepted", "refused"))}}
    return out

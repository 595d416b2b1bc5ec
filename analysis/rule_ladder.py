"""The ladder of playing rules (docs/playing-rules.md, "The ladder"): for a two-action decision, the
best decision list of each length found by a beam search over short conditions on the hand's
features, chosen on one sample's values (the fit) and costed by the game on another.

A game supplies the groups and costs the rules found on its own held-out sample
(``analysis.ecarte.studies.rule_ladder``). The search works on groups: the distinct feature vectors of the decision's hands, each with its
**gain**, the fit sample's points per dealt hand of the first action over the second summed over
its hands. A rule's fit value is the sum of the gains of the groups where it takes the first action,
so every candidate line is scored exactly. A line's condition is one comparison of a feature or a
sum of features with a whole number, or two joined by ``and``; lines are added at the end, before
``otherwise``, whose action is chosen best each time. The beam keeps the best partial lists; at each
length the best complete rule found is that length's rung."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

SIMPLER = 1e-12
"""Points per hand given up, in the search, for each feature a line names: between equal rules,
the simpler one is kept."""


@dataclass(frozen=True)
class Groups:
    """The decision's hands by feature vector: ``values`` (groups x features), ``gain`` (the fit
    sample's points per dealt hand of the first action over the second)."""

    names: tuple[str, ...]
    values: np.ndarray
    gain: np.ndarray


@dataclass(frozen=True)
class Atom:
    """A comparison ``features op number``, with its truth on every group."""

    features: tuple[str, ...]
    op: str
    number: int
    holds: np.ndarray

    def text(self) -> str:
        return f"{' + '.join(self.features)} {self.op} {self.number}"


def atoms(groups: Groups, alone: set[str], most_summed: int = 3) -> list[Atom]:
    """Every comparison of a feature or a sum of up to ``most_summed`` features that splits the
    groups (the ``alone`` ones are never summed; a 0/1 feature is compared ``= 1`` or ``= 0``),
    the simplest of those with the same truth on every group."""
    counts = [n for n in groups.names if n not in alone]
    exprs = [(n,) for n in groups.names if n in alone]
    exprs += [c for k in range(1, most_summed + 1) for c in combinations(counts, k)]
    seen, out = set(), []
    for expr in exprs:
        total = groups.values[:, [groups.names.index(n) for n in expr]].sum(axis=1)
        lo, hi = int(total.min()), int(total.max())
        if len(expr) == 1 and lo >= 0 and hi <= 1 and expr[0] in alone:
            cuts = [("=", 1, total == 1), ("=", 0, total == 0)]
        else:
            cuts = [c for t in range(lo + 1, hi + 1) for c in ((">=", t, total >= t), ("<=", t - 1, total <= t - 1))]
        for op, number, holds in cuts:
            key = holds.tobytes()
            if holds.all() or not holds.any() or key in seen:
                continue
            seen.add(key)
            out.append(Atom(expr, op, number, holds))
    return out


@dataclass(frozen=True)
class Partial:
    """A decision list without its last line: (first action?, condition atoms) lines, the groups
    they decide, and the fit value of those decisions."""

    lines: tuple[tuple[bool, tuple[int, ...]], ...]
    covered: np.ndarray
    value: float


def search(groups: Groups, candidates: list[Atom], most_lines: int = 8, beam: int = 24
           ) -> list[tuple[tuple[tuple[bool, tuple[int, ...]], ...], bool, float]]:
    """The best rule found of each length 1..most_lines: (lines, otherwise is the first action,
    fit value) where a line is (first action?, indices of its atoms, joined by ``and``)."""
    gain = groups.gain
    truth = np.array([a.holds for a in candidates], dtype=np.float64)  # atoms x groups
    size = np.array([len(a.features) for a in candidates], dtype=np.float64)
    n = len(candidates)
    i_up, j_up = np.triu_indices(n, 1)
    pairs = np.concatenate([np.stack([np.arange(n), np.arange(n)], 1), np.stack([i_up, j_up], 1)])
    words = np.concatenate([size, size[i_up] + size[j_up] + 1])  # a pair (k, k) is the atom alone

    def complete(p: Partial) -> tuple[bool, float]:
        rest = float(gain[~p.covered].sum())
        return rest > 0, p.value + max(rest, 0.0)

    start = Partial((), np.zeros(len(gain), dtype=bool), 0.0)
    first, value = complete(start)
    best = [((), first, value)]
    level = [start]
    for _ in range(most_lines - 1):
        found = []
        for p in level:
            open_ = ~p.covered
            g = gain * open_
            rest = float(g.sum())
            inside = (truth * g) @ truth.T  # the open gain of every pair of atoms (the diagonal: one)
            count = (truth * open_) @ truth.T
            s = np.concatenate([np.diag(inside), inside[i_up, j_up]])
            c = np.concatenate([np.diag(count), count[i_up, j_up]])
            score = p.value + np.maximum(s, 0) + np.maximum(rest - s, 0) - SIMPLER * (words + len(p.lines) + 1)
            score[(c < 0.5) | (c > open_.sum() - 0.5)] = -np.inf  # decides nothing new, or everything left
            top = np.argpartition(-score, min(beam, len(score) - 1))[:beam]
            found += [(score[k], p, pairs[k], s[k]) for k in top if np.isfinite(score[k])]
        found.sort(key=lambda x: -x[0])
        level, seen = [], set()
        for _, p, (i, j), s in found:
            atoms_ = (int(i),) if i == j else (int(i), int(j))
            cond = np.logical_and.reduce([candidates[k].holds for k in atoms_])
            first_action = s > 0
            covered = p.covered | cond
            value = p.value + (s if first_action else 0.0)
            key = (covered.tobytes(), first_action, round(value, 15))
            if key in seen:
                continue
            seen.add(key)
            level.append(Partial(p.lines + ((bool(first_action), atoms_),), covered, value))
            if len(level) >= beam:
                break
        if not level:
            break
        top_ = max(level, key=lambda q: complete(q)[1])
        first, value = complete(top_)
        best.append((top_.lines, first, value))
    return best


def rule_text(lines, otherwise_first: bool, candidates: list[Atom], actions: tuple[str, str]) -> str:
    """A searched rule in the playing-rule syntax."""
    out = [f"{actions[0] if first else actions[1]} if {' and '.join(candidates[k].text() for k in atoms_)}"
           for first, atoms_ in lines]
    return "; ".join(out + [f"otherwise {actions[0] if otherwise_first else actions[1]}"])


def decide(lines, otherwise_first: bool, candidates: list[Atom]) -> np.ndarray:
    """Per group, True where the rule takes the first action."""
    n = len(candidates[0].holds) if candidates else 0
    out = np.full(n, otherwise_first)
    decided = np.zeros(n, dtype=bool)
    for first, atoms_ in lines:
        cond = np.logical_and.reduce([candidates[k].holds for k in atoms_]) & ~decided
        out[cond] = first
        decided |= cond
    return out


def simplify(lines, otherwise_first: bool, candidates: list[Atom]):
    """The rule without the lines whose removal changes no group's decision."""
    lines = list(lines)
    target = decide(lines, otherwise_first, candidates)
    k = len(lines) - 1
    while k >= 0:
        trial = lines[:k] + lines[k + 1:]
        if np.array_equal(decide(trial, otherwise_first, candidates), target):
            lines = trial
        k -= 1
    return tuple(lines)


def read_ladders(path: str) -> dict | None:
    """A game's shipped ladders (its ``data/rule_ladders.json``), or None when the package has none."""
    import json

    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def pick_ladders(shipped: dict | None, rules_name: str, decisions: list[str], switches) -> list[dict]:
    """The shipped ladders of ``decisions`` under the variant ``rules_name`` played with ``switches``
    (a variant whose switches were changed has none)."""
    return [lad for lad in (shipped or {"ladders": []})["ladders"]
            if lad["rules"] == rules_name and lad["decision"] in decisions and lad["switches"] == switches]


def merge_ladders(shipped: dict | None, found: list[dict], variants, decisions, all_variants, all_decisions) -> dict:
    """The shipped ladders with those of ``decisions`` under ``variants`` replaced by ``found``, in
    the order of ``all_variants`` then ``all_decisions`` (what ``scripts/make_rule_ladders.py
    --decisions`` writes: the other ladders kept as they are)."""
    kept = [lad for lad in (shipped or {"ladders": []})["ladders"]
            if lad["decision"] not in decisions or lad["rules"] not in variants]
    order = {v: i for i, v in enumerate(all_variants)}
    names = list(all_decisions)
    return {"ladders": sorted(kept + found, key=lambda lad: (order.get(lad["rules"], len(order)),
                                                             names.index(lad["decision"])))}

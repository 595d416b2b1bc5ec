"""Écarté's first decisions as playing rules (``analysis.playing_rules``; docs/playing-rules.md):
elder's propose or play and the dealer's refuse or accept, over features of the hand (trumps as
suit 0) and the turn-up's bucket, costed against the shipped equilibrium.

The cost of a rule is what its side gives up per dealt hand against the solution when the other
side plays the solution: the sum over information sets of weight x (solution's probability -
rule's) x the decision's held-out value, with its 95% interval. The rule depends on the hand and
bucket only, so it decides each information set once; its choice never saw the held-out deals
(``studies/classical.py`` costs the Britannica's rules the same way)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.ecarte.engine.buckets import ABOVE, KING_TURNED
from analysis.playing_rules import Decision, Feature, Rule, parse

KING, QUEEN, JACK, ACE = 7, 6, 5, 4


def _plain(mask: int, rank: int) -> int:
    return sum((mask >> (8 * s + rank)) & 1 for s in range(1, 4))


def _longest_plain(mask: int) -> int:
    return max(bin((mask >> (8 * s)) & 0xFF).count("1") for s in range(1, 4))


def _features() -> dict[str, Feature]:
    from analysis.ecarte.studies.classical import guarded_suits

    return {f.name: f for f in (
        Feature("trumps", "trumps held", lambda h, b: bin(h & 0xFF).count("1")),
        Feature("trump_king", "the trump king held", lambda h, b: (h >> KING) & 1),
        Feature("plain_kings", "kings in plain suits", lambda h, b: _plain(h, KING)),
        Feature("plain_queens", "queens in plain suits", lambda h, b: _plain(h, QUEEN)),
        Feature("plain_jacks", "jacks in plain suits", lambda h, b: _plain(h, JACK)),
        Feature("plain_aces", "aces in plain suits", lambda h, b: _plain(h, ACE)),
        Feature("longest_plain", "cards in my longest plain suit", lambda h, b: _longest_plain(h)),
        Feature("top_trump", "my highest trump's rank (1 the seven ... 8 the king, 0 none)",
                lambda h, b: (h & 0xFF).bit_length()),
        Feature("guarded_suits", "guarded plain suits",
                lambda h, b: guarded_suits(h)),
        Feature("king_turned", "the king turned up (1, else 0)", lambda h, b: int(b == KING_TURNED)),
        Feature("turnup_above", "the turn-up above my top trump (1, else 0)", lambda h, b: int(b == ABOVE)),
    )}


SIDES = {"elder": ("propose", "play"), "dealer": ("refuse", "accept")}
"""Each decision's actions: the first is the one the tables' probability is of."""


def decision(name: str) -> Decision:
    from analysis.errors import InputError

    if name not in SIDES:
        raise InputError(f"unknown Écarté decision {name!r}: one of {', '.join(SIDES)}")
    return Decision("ecarte", name, SIDES[name], _features())


@dataclass(frozen=True)
class SetTable:
    """One decision's information sets (hand class and turn-up bucket) in the shipped equilibrium:
    their weight among dealt hands, the solution's probability of the first action, that action's
    value over the other on the fitted deals (``fit``) and on the held-out ones (``held``, with its
    standard error), the weight of the hands that meet the decision, and the hands."""

    side: str
    info_set: np.ndarray
    weight: np.ndarray
    probability: np.ndarray
    fit: np.ndarray
    held: np.ndarray
    held_se: np.ndarray
    meet: np.ndarray
    masks: np.ndarray
    buckets: np.ndarray
    summary: dict

    def features(self, decision_: Decision) -> np.ndarray:
        """The sets' feature values (sets x the decision's features, in its order)."""
        return np.array([[f.value(m, b) for f in decision_.features.values()]
                         for m, b in zip(self.masks.tolist(), self.buckets.tolist(), strict=True)], dtype=np.int64)


def set_table(side: str, rules, policy=None) -> SetTable:
    """The shipped equilibrium's sets for ``side`` under ``rules`` (an InputError when none ships)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands
    from analysis.errors import InputError

    got = T.shipped(rules, policy or HeuristicPolicy())
    if got is None:
        raise InputError(f"no shipped equilibrium tables for rules {rules.name}: run scripts/make_equilibrium_tables.py")
    df, summary = got
    sets = info_sets()
    t = df[df["side"] == side]
    idx = t["info_set"].to_numpy()
    w = sets.weight[idx]
    return SetTable(side, idx, w, t["probability"].to_numpy().astype(float), t["value"].to_numpy().astype(float),
                    t["held_out"].to_numpy().astype(float), t["held_out_half_width"].to_numpy().astype(float) / 1.96,
                    w * t["p_proposal"].to_numpy() if side == "dealer" else w,  # the hands the decision is met with
                    hands().masks[sets.cls[idx]], sets.bucket[idx], summary)


def choice_cost(t: SetTable, d: np.ndarray) -> dict:
    """What taking the first action with probability ``d`` per set gives up against the solution,
    per dealt hand, on the held-out deals (``cost``, with its 95% interval) and on the fitted ones
    (``fit_cost``); the agreement with the solution by hand weight and by stake; each one's share of
    the first action."""
    gap = t.probability - d
    value = float((t.weight * gap * t.held).sum())
    half = 1.96 * float(np.sqrt((t.weight ** 2 * gap ** 2 * t.held_se ** 2).sum()))
    agree = 1 - np.abs(gap)
    stake = t.meet * np.abs(t.held)
    return {"cost": {"value": value, "ci95": [value - half, value + half],
                     "unit": "points per dealt hand given up against the solution"},
            "fit_cost": float((t.weight * gap * t.fit).sum()),
            "agreement": {"by_hands": float((t.meet * agree).sum() / t.meet.sum()),
                          "by_stake": float((stake * agree).sum() / max(stake.sum(), 1e-300))},
            "share": {"rule": float((t.meet * d).sum() / t.meet.sum()),
                      "solution": float((t.meet * t.probability).sum() / t.meet.sum()), "of": SIDES[t.side][0]}}


def rule_choices(rule: Rule, t: SetTable) -> np.ndarray:
    """1.0 where the rule takes the decision's first action, per set of ``t``."""
    names = list(rule.decision.features)
    yes = SIDES[t.side][0]
    return np.array([1.0 if rule.action(dict(zip(names, row, strict=True))) == yes else 0.0
                     for row in t.features(rule.decision).tolist()])


def players(t: SetTable, rules) -> dict:
    return {"against": f"the shipped equilibrium of {rules.name} (the other side plays its solution)",
            "players": {"tables": t.summary["method"], "play_inside": t.summary["play_policy"]},
            "deals": {"held_out": t.summary["deals"]["held_out"]}, "seed": t.summary["seed"]}


def cost(rule: Rule, rules, policy=None) -> dict:
    """The rule against the shipped equilibrium of ``rules``: its cost per dealt hand with its 95%
    interval, its agreement with the solution by hand weight and by stake, and who plays."""
    t = set_table(rule.decision.name, rules, policy)
    measured = choice_cost(t, rule_choices(rule, t))
    return {"game": "ecarte", "decision": t.side, "rules": rules.name, "rule": rule.text(), "words": rule.words(),
            "lines": rule.length, "cost": measured["cost"],
            "exploitability": {"value": None, "ci95": None},
            "exploitability_note": "not measured yet: it needs the records the tables were fitted on",
            "agreement": measured["agreement"], "share": measured["share"], **players(t, rules)}


def text(res: dict) -> str:
    """The answer in a player's words, first the rule, then what it costs."""
    c = res["cost"]
    a = res["agreement"]
    lines = [f"Écarté, {res['decision']}'s rule ({res['rules']}):"] + ["  " + ln for ln in res["words"].splitlines()]
    lines += [f"Gives up {c['value']:+.4f} points per hand [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] against "
              "perfect play (the other side plays the solved strategy).",
              f"Agrees with the solution on {a['by_hands']:.0%} of hands ({a['by_stake']:.0%} by the points at stake); "
              f"{res['share']['of']}s with {res['share']['rule']:.0%} of hands (the solution "
              f"{res['share']['solution']:.0%}).",
              "What an opponent who knew the rule would gain is not measured yet."]
    return "\n".join(lines)


def rule_answer(name: str, text_: str, rules, deals: int | None = None, seed: int = 0) -> tuple[dict, str]:
    """``salon rule ecarte DECISION RULE``: (JSON, text). The cost is read from the shipped tables
    (their own held-out deals and seed), so ``deals`` and ``seed`` do not apply."""
    from analysis.errors import InputError

    if deals is not None or seed != 0:
        raise InputError("Écarté's rules are costed on the shipped tables' held-out deals: --deals and --seed "
                         "do not apply")
    res = cost(parse(decision(name), text_), rules)
    return res, text(res)

"""Écarté's first decisions as playing rules (``analysis.playing_rules``; docs/playing-rules.md):
elder's propose or play and the dealer's refuse or accept, over features of the hand (trumps as
suit 0) and the turn-up's bucket, costed against the shipped equilibrium.

The cost of a rule is what its side gives up per dealt hand against the solution when the other
side plays the solution: the sum over information sets of weight x (solution's probability -
rule's) x the decision's held-out value, with its 95% interval. The rule depends on the hand and
bucket only, so it decides each information set once; its choice never saw the held-out deals
(``studies/classical.py`` costs the Britannica's rules the same way)."""
from __future__ import annotations

import numpy as np

from analysis.ecarte.engine.buckets import ABOVE, KING_TURNED
from analysis.playing_rules import Decision, Feature, Rule, parse

KING, QUEEN, JACK = 7, 6, 5


def _plain(mask: int, rank: int) -> int:
    return sum((mask >> (8 * s + rank)) & 1 for s in range(1, 4))


def _features() -> dict[str, Feature]:
    from analysis.ecarte.studies.classical import guarded_suits

    return {f.name: f for f in (
        Feature("trumps", "trumps held", lambda h, b: bin(h & 0xFF).count("1")),
        Feature("trump_king", "the trump king held", lambda h, b: (h >> KING) & 1),
        Feature("plain_kings", "kings in plain suits", lambda h, b: _plain(h, KING)),
        Feature("plain_queens", "queens in plain suits", lambda h, b: _plain(h, QUEEN)),
        Feature("plain_jacks", "jacks in plain suits", lambda h, b: _plain(h, JACK)),
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


def cost(rule: Rule, rules, policy=None) -> dict:
    """The rule against the shipped equilibrium of ``rules``: its cost per dealt hand with its 95%
    interval, its agreement with the solution by hand weight and by stake, and who plays."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands
    from analysis.errors import InputError

    got = T.shipped(rules, policy or HeuristicPolicy())
    if got is None:
        raise InputError(f"no shipped equilibrium tables for rules {rules.name}: run scripts/make_equilibrium_tables.py")
    df, summary = got
    side = rule.decision.name
    sets = info_sets()
    t = df[df["side"] == side].set_index("info_set")
    idx = t.index.to_numpy()
    masks = hands().masks[sets.cls[idx]]
    buckets = sets.bucket[idx]
    feats = rule.decision.features
    yes = SIDES[side][0]
    d = np.array([1.0 if rule.action({n: f.value(int(m), int(b)) for n, f in feats.items()}) == yes else 0.0
                  for m, b in zip(masks.tolist(), buckets.tolist(), strict=True)])
    w = sets.weight[idx]
    p = t["probability"].to_numpy().astype(float)
    q = t["held_out"].to_numpy().astype(float)
    se = t["held_out_half_width"].to_numpy().astype(float) / 1.96
    loss = w * (p - d) * q
    value = float(loss.sum())
    half = 1.96 * float(np.sqrt((w ** 2 * (p - d) ** 2 * se ** 2).sum()))
    meet = w * t["p_proposal"].to_numpy() if side == "dealer" else w  # the hands the decision is met with
    agree = 1 - np.abs(p - d)
    stake = meet * np.abs(q)
    return {"game": "ecarte", "decision": side, "rules": rules.name, "rule": rule.text(), "words": rule.words(),
            "lines": rule.length,
            "cost": {"value": value, "ci95": [value - half, value + half],
                     "unit": "points per dealt hand given up against the solution"},
            "exploitability": {"value": None, "ci95": None},
            "exploitability_note": "not measured yet: it needs the records the tables were fitted on",
            "agreement": {"by_hands": float((meet * agree).sum() / meet.sum()),
                          "by_stake": float((stake * agree).sum() / max(stake.sum(), 1e-300))},
            "share": {"rule": float((meet * d).sum() / meet.sum()), "solution": float((meet * p).sum() / meet.sum()),
                      "of": yes},
            "against": f"the shipped equilibrium of {rules.name} (the other side plays its solution)",
            "players": {"tables": summary["method"], "play_inside": summary["play_policy"]},
            "deals": {"held_out": summary["deals"]["held_out"]}, "seed": summary["seed"]}


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


def rule_answer(name: str, text_: str, rules) -> tuple[dict, str]:
    """``salon rule ecarte DECISION RULE``: (JSON, text)."""
    res = cost(parse(decision(name), text_), rules)
    return res, text(res)

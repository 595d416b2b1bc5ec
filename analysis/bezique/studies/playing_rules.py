"""Bezique's playing rules (``analysis.playing_rules``; docs/playing-rules.md): whether to win a
stock trick as follower, whether to hold a single bezique for the double, how to lead while the
stock lasts, and whether to lay a meld at once. A rule compiles to
the player's parameters, so it plays at full speed inside the strongest player that can follow it,
and its cost is that player's own choice minus the rule, on the same deals in both seats against
the same opponent (``play/paired.py``: seat and luck cancel).

- ``single-bezique`` is played by the search player (``SearchPolicy``), which otherwise chooses by
  search whether to lay a single bezique: the baseline is the strongest player's own choice.
- ``lead`` (low: the lowest card one can spare, or high: the highest plain card) and ``meld``
  (lay the best meld whenever one may) are played by the search player too, the rule deciding
  those decisions instead of its search (its rollouts unchanged).
- ``win`` is played by the tuned heuristic with the exact end game (``tuned-exact``): the search
  player decides its follows by search, so it cannot follow a rule there; the baseline is the tuned
  heuristic's own choice (win every trick it can with a card of the suit led). A rule decides
  whether to try to win; whether a trump may win is left to the player's ``trump_win`` (tuned:
  only for a waiting meld).
"""
from __future__ import annotations

import dataclasses

from analysis.errors import InputError
from analysis.playing_rules import Comparison, Decision, Feature, Join, Rule, parse

DECISIONS = {
    "single-bezique": Decision("bezique", "single-bezique", ("hold", "lay"), {
        "stock": Feature("stock", "cards left in the stock", None)}),
    "win": Decision("bezique", "win", ("win", "duck"), {
        "meld": Feature("meld", "points of the best meld a win lets you lay now (0 none)", None),
        "brisque_led": Feature("brisque_led", "an ace or ten led (1, else 0)", None)}),
    "lead": Decision("bezique", "lead", ("low", "high"), {}),
    "meld": Decision("bezique", "meld", ("meld",), {}),
}
SEARCHED = ("single-bezique", "lead", "meld")
"""The decisions whose rules the searching player follows (the others: the tuned player)."""
SHAPES = {"single-bezique": "'otherwise hold', 'otherwise lay', or 'hold if stock >= N; otherwise lay'",
          "win": "'otherwise win', 'otherwise duck', or lines 'win if meld >= N', 'win if brisque_led >= 1' (or both "
                 "joined by 'or') and 'otherwise duck'",
          "lead": "'otherwise low' (the lowest card you can spare) or 'otherwise high' (the highest plain card)",
          "meld": "'otherwise meld' (lay your best meld whenever you may)"}
DEALS = {"single-bezique": 300, "win": 100_000, "lead": 300, "meld": 300}
"""Deals (each played in both seats by the rule's player and the baseline) by default."""
SAMPLES = 32
"""The search player's samples per decision (BZ-T5's search check uses as many)."""


def decision(name: str) -> Decision:
    if name not in DECISIONS:
        raise InputError(f"unknown Bezique decision {name!r}: one of {', '.join(DECISIONS)}")
    return DECISIONS[name]


def _shape(rule: Rule) -> InputError:
    return InputError(f"Bezique's {rule.decision.name} rules are played by the player's own parameters: write "
                      f"{SHAPES[rule.decision.name]}, not {rule.text()!r}")


def _comparisons(condition) -> list[Comparison]:
    """The comparisons of a condition joined by 'or' (a rule line the parameters can follow)."""
    if isinstance(condition, Join):
        if condition.kind != "or":
            raise ValueError
        return [c for p in condition.parts for c in _comparisons(p)]
    return [condition]


def overrides(rule: Rule) -> dict:
    """The player's parameters that follow ``rule`` (an InputError naming the shapes they can follow)."""
    name = rule.decision.name
    try:
        comps = [c for _, cond in rule.lines for c in _comparisons(cond)]
    except ValueError:
        raise _shape(rule) from None
    if any(len(c.features) != 1 for c in comps):
        raise _shape(rule)
    if name in ("lead", "meld"):
        if rule.lines:
            raise _shape(rule)
        return {"lead_rule": rule.otherwise} if name == "lead" else {"meld_rule": "at-once"}
    if name == "single-bezique":
        if not rule.lines:
            return {"bezique_rule": "hold", "hold_bezique_stock": 0} if rule.otherwise == "hold" else {
                "bezique_rule": "declare"}
        if len(rule.lines) != 1 or len(comps) != 1:
            raise _shape(rule)
        c = comps[0]
        if rule.lines[0][0] != "hold" or rule.otherwise != "lay" or c.op not in (">=", ">") or c.number < 0:
            raise _shape(rule)
        return {"bezique_rule": "hold", "hold_bezique_stock": min(c.number + (c.op == ">"), 47)}
    if not rule.lines and rule.otherwise == "win":
        return {"greedy_win": True}  # trumps still spent as the player's parameters say (trump_win)
    if not rule.lines:
        return {"greedy_win": False, "meld_win": False, "brisque_win": False}
    if rule.otherwise != "duck" or any(a != "win" for a, _ in rule.lines):
        raise _shape(rule)
    meld = [c for c in comps if c.features == ("meld",)]
    brisque = [c for c in comps if c.features == ("brisque_led",)]
    if (len(meld) > 1 or any(c.op not in (">=", ">") or c.number < 0 for c in meld)
            or any((c.op, c.number) not in ((">=", 1), (">", 0), ("=", 1)) for c in brisque)):
        raise _shape(rule)
    out = {"greedy_win": False, "meld_win": bool(meld), "brisque_win": bool(brisque)}
    if meld:
        out["meld_win_min"] = min(meld[0].number + (meld[0].op == ">"), 1000)
    return out


def players(name: str, samples: int = SAMPLES) -> tuple:
    """(the rule's player before the rule, the opponent, the player in a few words, in more) for
    decision ``name``."""
    from analysis.bezique.policies import TUNED_EXACT, SearchPolicy

    if name in SEARCHED:
        base = SearchPolicy(samples=samples)
        short = "the searching player"
        words = (f"a strong searching player ({samples} samples a decision, exact end game), its own choice by search "
                 "as the baseline")
    else:
        base = TUNED_EXACT
        short = "salon's tuned rule-of-thumb player"
        words = ("salon's tuned rule-of-thumb player with the exact end game, its own choice (win every trick it can "
                 "with a card of the suit led) as the baseline; the searching player decides its follows by search "
                 "and cannot follow a rule")
    return base, TUNED_EXACT, short, words


def cost(rule: Rule, rules, deals: int | None = None, seed: int = 0, samples: int = SAMPLES,
         threads: int | None = None, quiet: bool = True) -> dict:
    """What following ``rule`` gives up per deal and seat against the player's own choice, with
    its 95% paired interval: both play the same ``deals`` deals (seed ``seed``) in both seats
    against the same opponent."""
    from analysis.bezique.play.paired import compare

    name = rule.decision.name
    deals = DEALS[name] if deals is None else deals
    base, opponent, short, words = players(name, samples)
    follower = dataclasses.replace(base, **overrides(rule))
    # A searched deal takes about a second: small chunks keep both threads busy (same numbers).
    p = compare(deals, seed, rules, [base, follower], opponent, threads=threads, quiet=quiet,
                chunk=4 if base.kind == "search" else 1 << 9)
    e = p.diff(0, 1)
    return {"game": "bezique", "decision": name, "rules": rules.name, "rule": rule.text(), "words": rule.words(),
            "lines": rule.length,
            "cost": {"value": e.value, "ci95": [e.lo, e.hi],
                     "unit": "points per deal and seat given up against the player's own choice"},
            "exploitability": {"value": None, "ci95": None},
            "exploitability_note": "not measured: no solved Bezique game gives the opponent's best answer",
            "agreement": {"by_hands": None, "by_stake": None},
            "agreement_note": "no solution to agree with: the cost is measured against the player's own choice",
            "against": f"{short}'s own choice, each playing the same deals in both seats against tuned-exact (the "
                       "tuned rule-of-thumb player with the exact end game)",
            "players": {"rule_follower": follower.describe(), "baseline": base.describe(),
                        "opponent": opponent.describe(), "player": short, "words": words},
            "deals": deals, "seed": seed}


def text(res: dict) -> str:
    """The answer in a player's words: the rule, then what it gives up."""
    c = res["cost"]
    lines = [f"Bezique, {res['decision']} rule ({res['rules']}):"] + ["  " + ln for ln in res["words"].splitlines()]
    lines += [f"Gives up {c['value']:+.1f} points per deal [{c['ci95'][0]:+.1f}, {c['ci95'][1]:+.1f}] against "
              f"{res['players']['player']}'s own choice, each playing the same {res['deals']:,} deals in both seats "
              f"against the tuned rule-of-thumb player (seed {res['seed']}; negative: the rule does better).",
              "What an opponent who knew the rule would gain is not measured (Bezique has no solved game)."]
    return "\n".join(lines)


def rule_answer(name: str, text_: str, rules, deals: int | None = None, seed: int = 0,
                player: str | None = None) -> tuple[dict, str]:
    """``salon rule bezique DECISION RULE``: (JSON, text)."""
    if deals is not None and deals < 1:
        raise InputError(f"--deals must be at least 1, not {deals}")
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if player is not None:
        raise InputError("Bezique's rules are played by the strongest player that can follow them: "
                         "--player does not apply")
    res = cost(parse(decision(name), text_), rules, deals, seed)
    return res, text(res)

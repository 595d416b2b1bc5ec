"""The ladder of Bezique's playing rules (docs/playing-rules.md, "The ladder"): per variant and
decision, every rule the player's parameters can follow (``studies/playing_rules.py``) is played
beside the player's own choice on the same deals in both seats; the best of each length is chosen
on one seed's deals and costed on another's, and the books' advice is coded on the same scale.
``salon rules bezique`` reads the shipped ladders (``data/rule_ladders.json``, made by
``scripts/make_rule_ladders.py --game bezique``); ``--refit`` plays them again."""
from __future__ import annotations

import dataclasses
import os

from analysis.bezique.studies.playing_rules import DECISIONS, SAMPLES, decision, overrides, players
from analysis.errors import InputError
from analysis.playing_rules import parse
from analysis.rule_ladder import merge_ladders, pick_ladders, read_ladders

LADDERS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "rule_ladders.json")
VARIANTS = ("seed-de", "classic")
FIT_SEED, TEST_SEED = 1, 2
DEALS = {"single-bezique": 1_000, "win": 30_000, "lead": 2_000, "meld": 2_000}
"""Deals (in both seats, every candidate on each) that choose the rungs, and as many that cost them."""
MORE_DEALS = {("seed-de", "single-bezique"): 6_000}
"""Where the effect is small against its interval at DEALS: seed-de's single bezique (about 3
points a deal against the searching player's own choice, ±3.4 at 1,000 deals, ±1.7 at 4,000) is
played on six times as many, for an interval at most half the effect."""
MELDS = (20, 40, 60, 80, 100, 250)
STOCKS = (4, 8, 12, 16, 20, 24)
CANDIDATES = {
    "single-bezique": ["otherwise lay", "otherwise hold"] + [f"hold if stock >= {n}; otherwise lay" for n in STOCKS],
    "win": (["otherwise win", "otherwise duck", "win if brisque_led >= 1; otherwise duck"]
            + [f"win if meld >= {n}; otherwise duck" for n in MELDS]
            + [f"win if meld >= {n} or brisque_led >= 1; otherwise duck" for n in MELDS]),
    "lead": ["otherwise low", "otherwise high"],
    "meld": ["otherwise meld"],
}
"""Every rule of the shapes the parameters follow, on a grid of thresholds (a line with 'or' counts as one)."""
BOOK = {
    "single-bezique": (("BZ-T5: hold a single bezique while the double may still come (the stock holds 10 or more)",
                        "hold if stock >= 10; otherwise lay"),
                       ("never hold a single bezique for the double", "otherwise lay")),
    "win": (("BZ-T1: win a stock trick only to declare or to take a brisque",
             "win if meld >= 20 or brisque_led >= 1; otherwise duck"),
            ("win tricks for the right to meld, not for the cards in them", "win if meld >= 20; otherwise duck")),
    "lead": (("BZ-T3: keep your own brisques back (lead the lowest card you can spare)", "otherwise low"),
             ("the former tip study's alternative: always lead the highest plain card", "otherwise high")),
    "meld": (),
}
"""The rulebooks' advice (docs/tips.md) and the guide's former advice, coded as literally as the
shapes allow: BZ-T5's 'a real chance of drawing the second pair' as ten cards or more left."""


def _lines(text: str) -> int:
    return text.count(";") + 1


def ladder(name: str, rules, deals: int | None = None, quiet: bool = True) -> dict:
    """The ladder of decision ``name`` under ``rules``: every candidate and book rule beside the
    player's own choice on ``deals`` deals of FIT_SEED (to choose each length's best) and of
    TEST_SEED (to cost it), both seats against the same opponent."""
    from analysis.bezique.play.paired import compare

    dec = decision(name)
    deals = MORE_DEALS.get((rules.name, name), DEALS[name]) if deals is None else deals
    base, opponent, short, words = players(name)
    texts = list(dict.fromkeys(CANDIDATES[name] + [t for _, t in BOOK[name]]))
    options = [base] + [dataclasses.replace(base, **overrides(parse(dec, t))) for t in texts]
    chunk = 4 if base.kind == "search" else 1 << 9
    fit, test = (compare(deals, s, rules, options, opponent, chunk=chunk, quiet=quiet) for s in (FIT_SEED, TEST_SEED))

    def entry(text: str, source: str) -> dict:
        i = texts.index(text) + 1
        e = test.diff(0, i)
        rule = parse(dec, text)
        return {"source": source, "lines": _lines(text), "rule": rule.text(), "words": rule.words(),
                "cost": {"value": e.value, "ci95": [e.lo, e.hi]}, "fit_cost": fit.diff(0, i).value}

    rungs = []
    for n in sorted({_lines(t) for t in CANDIDATES[name]}):
        best = min((t for t in CANDIDATES[name] if _lines(t) == n), key=lambda t: fit.diff(0, texts.index(t) + 1).value)
        rung = entry(best, "searched")
        if rungs and rung["fit_cost"] >= rungs[-1]["fit_cost"]:
            continue  # not better on the deals that chose it than a shorter rule
        rungs.append(rung)
    book = [entry(text, source) for source, text in BOOK[name]]
    if book:
        best_book = min(book, key=lambda r: r["cost"]["value"])
        target = max(best_book["cost"]["value"], 0.0) / 3
        met = [r["lines"] for r in rungs if r["lines"] <= 5 and r["cost"]["ci95"][1] <= target]
        moonshot = {"target": target, "best_book": best_book["source"], "met_at_lines": min(met) if met else None,
                    "reading": "a rule of at most 5 lines whose cost's 95% upper bound is at most a third of the "
                               "best book rule's cost"}
    else:
        moonshot = {"target": None, "best_book": None, "met_at_lines": None,
                    "reading": "no book rule to measure against: the rulebooks say nothing on this decision"}
    return {"game": "bezique", "decision": name, "rules": rules.name, "switches": rules.to_array().tolist(),
            "rungs": rungs, "book": book, "moonshot": moonshot,
            "chosen_on": f"{deals:,} deals of seed {FIT_SEED}", "costed_on": f"{deals:,} deals of seed {TEST_SEED}",
            "search": f"every rule the player's parameters follow, thresholds {MELDS} points (win) and {STOCKS} cards "
                      "(single bezique)",
            "against": f"{short}'s own choice, each playing the same deals in both seats against tuned-exact",
            "players": {"rule_follower": base.describe(), "opponent": opponent.describe(), "player": short,
                        "words": words, "samples": SAMPLES if base.kind == "search" else None},
            "deals": deals}


def make_ladders(variants=VARIANTS, decisions=tuple(DECISIONS)) -> dict:
    """The ladders of ``decisions`` under each variant (what ``scripts/make_rule_ladders.py``
    ships), the shipped ladders of the other decisions and variants kept as they are."""
    from analysis.bezique.rules import get_rules

    found = [ladder(d, get_rules(v), quiet=False) for v in variants for d in decisions]
    return merge_ladders(shipped_ladders(), found, variants, decisions, VARIANTS, DECISIONS)


def shipped_ladders() -> dict | None:
    return read_ladders(LADDERS_FILE)


def ladders_answer(name: str | None, rules, refit: bool = False) -> tuple[dict, str]:
    """``salon rules bezique``: the ladders of ``name`` (every decision when None) under ``rules``,
    read from the package (``refit``: played again, minutes), as (JSON, text)."""
    if name is not None:
        decision(name)  # an unknown decision: one line naming the valid ones
    names = [name] if name else list(DECISIONS)
    if refit:
        found = [ladder(n, rules) for n in names]
    else:
        found = pick_ladders(shipped_ladders(), rules.name, names, rules.to_array().tolist())
        if len(found) < len(names):
            raise InputError(f"no shipped Bezique ladder for rules {rules.name} as given; shipped: "
                             f"{', '.join(VARIANTS)} (--refit plays one again, minutes)")
    res = {"game": "bezique", "rules": rules.name, "ladders": found}
    return res, ladders_text(res)


def ladders_text(res: dict) -> str:
    """The ladders in a player's words: each rung's rule, then what it gives up."""
    out = []
    for lad in res["ladders"]:
        out.append(f"Bezique, {lad['decision']} ({lad['rules']}). Points per deal given up against "
                   f"{lad['players']['player']}'s own choice:")
        for r in lad["rungs"]:
            c = r["cost"]
            out.append(f"  {r['lines']} line{'s' if r['lines'] > 1 else ''}: gives up {c['value']:+.1f} "
                       f"[{c['ci95'][0]:+.1f}, {c['ci95'][1]:+.1f}]: {r['rule']}")
        out.append("  The books:" if lad["book"] else "  The books say nothing on this decision.")
        for r in lad["book"]:
            c = r["cost"]
            out.append(f"    {r['source']}: gives up {c['value']:+.1f} [{c['ci95'][0]:+.1f}, {c['ci95'][1]:+.1f}]")
        out.append("")
    out.append("Rules chosen on one seed's deals and costed on another's; negative: the rule does better than the "
               "player's own choice.")
    return "\n".join(out)

"""The ladder of Piquet's exchanges (docs/playing-rules.md, "The ladder"): per seat, the best
exchange rule of each length (``studies/playing_rules.py``: the classes kept, then how to throw
and how many to take), **chosen** on one set of dealt hands and **costed** on another, with the
books' rules on the same hands.

Each hand's every legal exchange is played on the same held-out deals, after the race that
chose the hand's best exchange (the discard study's measure, as ``salon rule piquet``), so any
rule's cost on a hand is a lookup: the best's mean score minus the rule's exchange's. The search
is a beam over ordered keep-lists. ``salon rules piquet`` reads the shipped ladder
(``data/rule_ladders.json``, made by ``scripts/make_rule_ladders.py``); ``--refit`` searches again."""
from __future__ import annotations

import os

import numpy as np

from analysis.errors import InputError
from analysis.piquet.studies.playing_rules import BOOK, CLASS_WORDS, SEATS, ExchangeRule, parse
from analysis.rule_ladder import pick_ladders, read_ladders

LADDERS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "rule_ladders.json")
VARIANTS = ("seed-de", "seed-no", "cavendish")
FIT_SEED, TEST_SEED = 1, 2
"""The hands rules are chosen on, and the hands they are costed on (``salon rule``'s default
seed 0 is neither)."""
HANDS, SAMPLES, HELD_OUT = 200, 4_000, 2_000
MOST_CLASSES, BEAM = 5, 16
THROWS = ("lowest", "shortest")


def hand_table(seat: str, rules, seed: int, h: int, samples: int = SAMPLES, held_out: int = HELD_OUT):
    """Hand ``h`` of ``seed``: (hand, legal exchanges, each one's cost against the race's best on
    the held-out deals, the best's index), the same race and deals as ``salon rule piquet``."""
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand
    from analysis.piquet.studies.discards.study import HELD_OUT_OFFSET, dealt_hand, held_out_nets

    hand = dealt_hand(seed, h, seat)
    books = tuple(parse(f"{seat}-exchange", t).discard(hand, rules) for t, _ in BOOK.values())
    a = analyse_hand(hand, seat, rules, samples=samples, seed=seed + 1 + h, race=Racing(keep=books))
    best = int(a.table.iloc[0]["option"])
    every = list(range(len(a.options)))
    means = held_out_nets(a, seat, rules, every, seed + HELD_OUT_OFFSET + h, held_out, 5, None).mean(axis=0)
    return hand, a.options, means[best] - means, best


class HandTables:
    """Many hands' tables, for looking up what a rule's exchanges cost."""

    def __init__(self, seat: str, rules, tables: list):
        self.seat, self.rules = seat, rules
        self.hands = [t[0] for t in tables]
        self.index = [{int(m): i for i, m in enumerate(t[1])} for t in tables]
        self.costs = [t[2] for t in tables]
        self.best = [t[3] for t in tables]

    def chosen(self, rule: ExchangeRule) -> list[int]:
        """The index of the rule's exchange on each hand."""
        return [ix[rule.discard(h, self.rules)] for h, ix in zip(self.hands, self.index, strict=True)]

    def per_hand(self, rule: ExchangeRule) -> np.ndarray:
        """The rule's cost on each hand."""
        return np.array([c[o] for c, o in zip(self.costs, self.chosen(rule), strict=True)])

    def agreement(self, rule: ExchangeRule) -> float:
        """The share of hands on which the rule throws the race's best exchange."""
        return float(np.mean([o == b for o, b in zip(self.chosen(rule), self.best, strict=True)]))


def tables(seat: str, rules, seed: int, hands: int = HANDS) -> HandTables:
    return HandTables(seat, rules, [hand_table(seat, rules, seed, h) for h in range(hands)])


def _takes(seat: str, rules) -> tuple[int | None, ...]:
    from analysis.piquet.studies.discards.analyser import exchange_bounds

    lo, hi = exchange_bounds(seat, rules)
    return (None, *range(hi - 1, max(lo, hi - 2) - 1, -1))


def search(fit: HandTables, most_classes: int = MOST_CLASSES, beam: int = BEAM) -> list[ExchangeRule]:
    """The best rule found with 0, 1, ... ``most_classes`` kept classes (by mean cost on ``fit``):
    a beam over keep-lists grown one class at a time, each tried with every throw and take."""
    takes = _takes(fit.seat, fit.rules)
    scored: dict[ExchangeRule, float] = {}

    def score(r: ExchangeRule) -> float:
        if r not in scored:
            scored[r] = float(fit.per_hand(r).mean())
        return scored[r]

    best, frontier = [], [()]
    for _ in range(most_classes + 1):
        candidates = [ExchangeRule(fit.seat, keep, take, throw) for keep in frontier for throw in THROWS
                      for take in takes]
        candidates.sort(key=lambda r: (score(r), r.text()))
        best.append(candidates[0])
        keeps = []
        for r in candidates:
            if r.keep not in keeps:
                keeps.append(r.keep)
            if len(keeps) == beam:
                break
        frontier = [k + (c,) for k in keeps for c in CLASS_WORDS if c not in k]
    return best


def ladder(seat: str, rules, hands: int = HANDS) -> dict:
    """The ladder of ``seat``'s exchange under ``rules``: rules chosen on the fit hands, costed on
    the test hands, and the books' rules on the test hands."""
    from analysis.piquet.studies.discards.study import mean_over_hands

    fit, test = tables(seat, rules, FIT_SEED, hands), tables(seat, rules, TEST_SEED, hands)

    def rung(r: ExchangeRule) -> dict:
        e = mean_over_hands(test.per_hand(r))
        return {"rule": r.text(), "words": r.words(), "lines": len(r.keep) + 1,
                "fit_cost": float(fit.per_hand(r).mean()), "cost": {"value": e.value, "ci95": [e.lo, e.hi]},
                "agreement": {"by_hands": test.agreement(r)}}

    found = search(fit)
    rungs, last = [], None
    for r in found:
        if last is None or float(fit.per_hand(r).mean()) < last - 0.05:  # a line must save 0.05 a deal
            rungs.append(rung(r))
            last = rungs[-1]["fit_cost"]
    book = [{"source": words, **rung(parse(f"{seat}-exchange", text))} for text, words in BOOK.values()]
    best_book = min(b["cost"]["value"] for b in book)
    target = best_book / 3
    met = next((r["lines"] for r in rungs if r["lines"] <= 5 and r["cost"]["value"] <= target), None)
    return {"decision": f"{seat}-exchange", "rules": rules.name, "switches": rules.to_array().tolist(),
            "rungs": rungs, "book": book, "moonshot": {"target": target, "met_at_lines": met},
            "hands": {"fit": hands, "test": hands, "fit_seed": FIT_SEED, "test_seed": TEST_SEED},
            "deals": {"race_samples": SAMPLES, "held_out_per_hand": HELD_OUT},
            "players": {"trick_play": "heuristic, both players", "opponent_exchange": "heuristic"},
            "search": f"beam search ({BEAM} keep-lists) over up to {MOST_CLASSES} kept classes, each with every "
                      f"throw order and take"}


STRONG_HANDS = {"dd": 60, "search": 30}
"""The ladder's first test hands each rung is costed on again under open-hands and searching play."""


def strong_costs(lad: dict, rules, play: str, hands: int | None = None, threads: int | None = None) -> dict:
    """Each rung and book rule of ladder ``lad`` costed again with the trick play by open-hands
    (``play="dd"``) or searching players, on the ladder's first ``hands`` test hands, as ``salon rule
    piquet ... --player`` costs one rule (``playing_rules.strong_lost``): the same hands and deals
    for every rule, so their order is paired. Returns {"rungs": [...], "book": [...]} of
    {"value", "ci95", "hands"}."""
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand
    from analysis.piquet.studies.discards.study import dealt_hand, mean_over_hands
    from analysis.piquet.studies.playing_rules import strong_lost

    hands = hands or STRONG_HANDS[play]
    seat = lad["decision"].split("-")[0]
    named = [parse(lad["decision"], r["rule"]) for r in lad["rungs"] + lad["book"]]
    lost = []
    for h in range(hands):
        hand = dealt_hand(TEST_SEED, h, seat)
        masks = [int(r.discard(hand, rules)) for r in named]
        a = analyse_hand(hand, seat, rules, samples=SAMPLES, seed=TEST_SEED + 1 + h,
                         race=Racing(keep=tuple(dict.fromkeys(masks))), threads=threads)
        lost.append(strong_lost(a, masks, rules, TEST_SEED, h, threads, play)[0])
    per_rule = np.array(lost).T
    out = []
    for x in per_rule:
        e = mean_over_hands(list(map(float, x)))
        out.append({"value": e.value, "ci95": [e.lo, e.hi], "hands": hands})
    k = len(lad["rungs"])
    return {"rungs": out[:k], "book": out[k:]}


def add_strong_costs(ladders: dict, plays=("dd", "search"), threads: int | None = None) -> dict:
    """The shipped ladders with each rung's and book rule's ``strong_costs`` under each of ``plays``
    (their ``"strong"`` entries), the players named."""
    from analysis.piquet.policies import SearchPolicy
    from analysis.piquet.rules import get_rules

    for lad in ladders["ladders"]:
        rules = get_rules(lad["rules"])
        for play in plays:
            got = strong_costs(lad, rules, play, threads=threads)
            for entry, cost in zip(lad["rungs"] + lad["book"], got["rungs"] + got["book"], strict=True):
                entry.setdefault("strong", {})[play] = cost
        lad["strong_players"] = {"dd": "dd (open hands, a bound, not a legal player), both players",
                                 "search": f"search ({SearchPolicy().samples} hidden hands drawn a card, each "
                                           "solved), both players", "opponent_exchange": "heuristic"}
    return ladders


def make_ladders(variants=VARIANTS, hands: int = HANDS) -> dict:
    from analysis.piquet.rules import get_rules

    return {"game": "piquet", "ladders": [ladder(SEATS[d], get_rules(v), hands) for v in variants for d in SEATS]}


def shipped_ladders() -> dict | None:
    """The shipped ladders, or None when the package has none."""
    return read_ladders(LADDERS_FILE)


def ladders_answer(decision: str | None, rules, refit: bool = False) -> tuple[dict, str]:
    """``salon rules piquet``: the ladders of ``decision`` (both exchanges when None) under
    ``rules``, read from the package (``refit``: searched again, several minutes), as (JSON, text)."""
    from analysis.piquet.studies.playing_rules import seat_of

    decisions = [decision] if decision else list(SEATS)
    for d in decisions:
        seat_of(d)  # an unknown decision: one line naming the valid ones
    if refit:
        found = [ladder(SEATS[d], rules) for d in decisions]
    else:
        found = pick_ladders(shipped_ladders(), rules.name, decisions, rules.to_array().tolist())
        if len(found) < len(decisions):
            raise InputError(f"no shipped Piquet ladder for rules {rules.name} as given; shipped: "
                             f"{', '.join(VARIANTS)} (--refit searches one, about ten minutes a seat)")
    res = {"game": "piquet", "rules": rules.name, "ladders": found}
    return res, ladders_text(res)


def ladders_text(res: dict) -> str:
    """The ladders in a player's words: each rung's rule, then what it gives up."""
    out = []
    for lad in res["ladders"]:
        seat = lad["decision"].split("-")[0]
        out.append(f"Piquet, {seat}'s exchange ({lad['rules']}). Points per deal given up against each hand's best "
                   "exchange:")
        for r in lad["rungs"]:
            c = r["cost"]
            out.append(f"  {r['lines']} line{'s' if r['lines'] > 1 else ''}: gives up {c['value']:.2f} "
                       f"[{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}], throws the best exchange on "
                       f"{r['agreement']['by_hands']:.0%} of hands{_strong_words(r)}")
            out += ["      " + ln for ln in r["words"].splitlines()]
        out.append("  The books:")
        for r in lad["book"]:
            c = r["cost"]
            out.append(f"    {r['source']}: gives up {c['value']:.2f} [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}]"
                       f"{_strong_words(r)}")
        m = lad["moonshot"]
        out.append(f"  A rule of at most 5 lines within {m['target']:.2f} (a third of the best book rule): "
                   + (f"met with {m['met_at_lines']} lines." if m["met_at_lines"] else "not met."))
        out.append("")
    out.append(f"Rules chosen on {HANDS} dealt hands and costed on {HANDS} others; both players play their tricks as "
               "salon's rule-of-thumb player.")
    strong = next((r["strong"] for lad in res["ladders"] for r in lad["rungs"] if r.get("strong")), None)
    if strong:
        out.append("Then costed again with strong trick play on the first of those hands: "
                   + "; ".join(f"{PLAY_WORDS[p]} on {c['hands']}" for p, c in strong.items())
                   + " (the exchange's best chosen and costed on other deals under that play).")
    return "\n".join(out)


PLAY_WORDS = {"dd": "open hands (a bound)", "search": "the searching player"}


def _strong_words(entry: dict) -> str:
    """A rung's costs under strong trick play, where the shipped ladder has them."""
    strong = entry.get("strong")
    if not strong:
        return ""
    return "; with strong trick play: " + ", ".join(f"{PLAY_WORDS[p]} {c['value']:.2f} [{c['ci95'][0]:.2f}, "
                                                   f"{c['ci95'][1]:.2f}]" for p, c in strong.items())

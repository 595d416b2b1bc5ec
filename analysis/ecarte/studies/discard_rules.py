"""Écarté's discards as playing rules (docs/playing-rules.md, "Écarté: the discard"): which cards
to keep, costed against the discards of the player inside the shipped tables on the same deals.

A rule reads ``keep CLASS, CLASS, ...``: the cards of those classes are kept and every other card
thrown. A hand whose every card is kept throws one all the same (elder must exchange at least one
card, EC-STOCK): a card of the last class in the list that holds one, the weakest first (plain
cards by rank, then trumps). It is parsed by hand (never ``eval``) and printed back in words.

The rule decides every discard of the player who follows it, in every round: it is compiled to the
kernel's discard table (``ChosenDiscards``: a discard for each of the 201,376 five-card hands taken
relative to trumps), so a rule is costed at the kernel's full speed. A discard the stock cannot
serve in a late round (more cards than are left) is left to the tables' player.

Its cost is ``salon compare``'s measure: the rule's player and the tables' player (the heuristic
that played inside the shipped equilibrium: its thresholds, its learned leads reading the other's
first decision, its discards) play the same deals in both seats; the cost is the tables' player's
points minus the rule's, per dealt hand and seat, with its paired 95% interval (negative: the rule
does better). Every other decision is the tables' player's for both, so the difference is the
discards' alone. Also measured with every first proposal made and accepted (``when_exchanging``):
what the rule gives up each time a proposal is accepted, over all dealt hands."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from analysis.ecarte.reference.cards import JACK, QUEEN, weakest_first
from analysis.ecarte.rules import KING
from analysis.errors import InputError

ACE, TEN = 4, 3
PLAIN = 0xFFFFFF00
CLASS_WORDS = {
    "trumps": "trumps",
    "kings": "plain kings",
    "queens": "plain queens",
    "jacks": "plain jacks",
    "aces": "plain aces",
    "tens": "plain tens",
    "guarded_queens": "plain queens with another card of their suit",
    "long_suits": "the cards of a plain suit of three or more",
}
BOOK = {"Britannica": ("keep trumps, kings", "Britannica: throw everything except trumps and kings")}
"""The books' discard rules in this syntax (docs/classical.md)."""
DEALS = 1_000_000
"""Dealt hands a rule is costed on by default (both seats): about two seconds a measure."""


def _column(rank: int) -> int:
    """The plain suits' cards of ``rank`` (trumps are suit 0)."""
    return sum(1 << (8 * s + rank) for s in range(1, 4))


def class_masks(hands: np.ndarray) -> dict[str, np.ndarray]:
    """Each class's cards in each hand (hands: int64 masks, trumps as suit 0), as masks."""
    hands = np.asarray(hands, dtype=np.int64)
    out = {"trumps": hands & 0xFF}
    for name, rank in (("kings", KING), ("queens", QUEEN), ("jacks", JACK), ("aces", ACE), ("tens", TEN)):
        out[name] = hands & _column(rank)
    guarded = np.zeros_like(hands)
    long_ = np.zeros_like(hands)
    for s in range(1, 4):
        suit = (hands >> (8 * s)) & 0xFF
        n = np.zeros_like(hands)
        for r in range(8):
            n += (suit >> r) & 1
        queen = suit & (1 << QUEEN)
        guarded |= np.where((queen != 0) & (n >= 2), queen << (8 * s), 0)
        long_ |= np.where(n >= 3, suit << (8 * s), 0)
    out["guarded_queens"] = guarded
    out["long_suits"] = long_
    return out


WEAKEST_FIRST = weakest_first((1 << 32) - 1, 0)
"""The cards in the engine's weakest-first order, trumps as suit 0 (plain cards by rank then suit,
then trumps)."""


def weakest(cards: np.ndarray) -> np.ndarray:
    """The weakest card of each non-empty mask, as a one-card mask (0 for an empty one)."""
    out = np.zeros_like(cards)
    for c in reversed(WEAKEST_FIRST):  # the last written is the weakest present
        out = np.where((cards >> c) & 1 == 1, np.int64(1) << c, out)
    return out


@dataclass(frozen=True)
class DiscardRule:
    """A parsed discard rule: the classes kept (every other card is thrown)."""

    keep: tuple[str, ...]

    @property
    def length(self) -> int:
        """Its lines: one a kept class, and 'throw the rest'."""
        return len(self.keep) + 1

    def text(self) -> str:
        """The rule in its own syntax, normalised (the form ``parse`` reads back)."""
        return "keep " + ", ".join(self.keep) if self.keep else "keep nothing"

    def words(self) -> str:
        """The rule in plain words, a line each."""
        if not self.keep:
            return "throw all five cards"
        return ("keep " + ", then ".join(CLASS_WORDS[k] for k in self.keep)
                + "\nthrow the rest (with nothing to throw, the weakest of the last kept)")

    def discards(self, hands: np.ndarray, classes: dict | None = None) -> np.ndarray:
        """The rule's discard of each hand (int64 masks, trumps as suit 0; ``classes``: their
        ``class_masks`` when known)."""
        hands = np.asarray(hands, dtype=np.int64)
        classes = class_masks(hands) if classes is None else classes
        kept = np.zeros_like(hands)
        for k in self.keep:
            kept |= classes[k]
        throw = hands & ~kept
        none = throw == 0
        earlier = [np.zeros_like(hands)]
        for k in self.keep:
            earlier.append(earlier[-1] | classes[k])
        for i in reversed(range(len(self.keep))):  # the lowest priority first
            if not none.any():
                break
            at = np.flatnonzero(none)
            cand = hands[at] & classes[self.keep[i]][at] & ~earlier[i][at]
            pick = cand != 0
            throw[at[pick]] = weakest(cand[pick])
            none[at[pick]] = False
        return throw

    def table(self) -> np.ndarray:
        """The kernel's discard table: the discard of every five-card hand, by its rank."""
        return self.discards(every_hand(), every_hand_classes())


@functools.lru_cache(maxsize=1)
def every_hand() -> np.ndarray:
    """Every five-card mask (trumps as suit 0), by rank (``bits.rank_of_mask``)."""
    from analysis.ecarte.studies.strategy.kernel import all_hands

    return all_hands()


@functools.lru_cache(maxsize=1)
def every_hand_classes() -> dict[str, np.ndarray]:
    """``class_masks`` of ``every_hand``."""
    return class_masks(every_hand())


def parse(text: str) -> DiscardRule:
    """The discard rule ``text``; an InputError (one line) names what is wrong."""
    parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    if len(parts) != 1 or not parts[0].lower().startswith("keep"):
        raise InputError("an Écarté discard rule is one line 'keep CLASS, CLASS, ...', for example 'keep trumps, "
                         f"kings'; classes: {', '.join(CLASS_WORDS)}")
    rest = parts[0][4:].strip()
    keep = tuple(k.strip().lower() for k in rest.split(",") if k.strip())
    if keep == ("nothing",):
        return DiscardRule(())
    if not keep:
        raise InputError(f"'keep' needs classes of cards (or 'keep nothing'): {', '.join(CLASS_WORDS)}")
    unknown = [k for k in keep if k not in CLASS_WORDS]
    if unknown:
        raise InputError(f"unknown class {unknown[0]!r} in the discard rule: one of {', '.join(CLASS_WORDS)}")
    if len(set(keep)) < len(keep):
        raise InputError(f"a class is kept twice in {rest!r}")
    return DiscardRule(keep)


@dataclass(frozen=True)
class Exchanging:
    """A policy whose first proposal is always made (as elder) and accepted (as the dealer)."""

    policy: object

    def to_array(self) -> np.ndarray:
        return self.policy.to_array(force_first=1, force_response=0)

    def describe(self) -> dict:
        return {**self.policy.describe(), "first_round": "proposes and accepts"}


@functools.lru_cache(maxsize=4)
def tables_player(rules):
    """The player inside the shipped tables of ``rules`` (an InputError when none ship)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.playing_rules import tables_policy

    got = T.shipped(rules, HeuristicPolicy())
    if got is None:
        raise InputError(f"no shipped equilibrium tables for rules {rules.name}: run scripts/make_equilibrium_tables.py")
    return tables_policy(rules, got[1])


def _given_up(tallies) -> dict:
    """The tables' player minus the rule's per dealt hand and seat, with its 95% interval."""
    from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS
    from analysis.stats import mean_from_sums

    e = mean_from_sums(int(tallies[C_BOTH]), int(tallies[C_BOTH_SQ]), int(tallies[C_DEALS]))
    return {"value": -e.value / 2 + 0.0, "ci95": [-e.ci95[1] / 2 + 0.0, -e.ci95[0] / 2 + 0.0]}


def measure(rule: DiscardRule, rules, deals: int = DEALS, seed: int = 0, threads: int | None = None,
            exchanging: bool = True) -> dict:
    """What following ``rule`` gives up against the tables' player on ``deals`` dealt hands of
    ``seed`` (both seats): per dealt hand (``cost``) and with every first proposal accepted
    (``when_exchanging``, when asked), and its agreement with that player's discards."""
    from analysis.ecarte.play.compare import compare_tallies
    from analysis.ecarte.policies import ChosenDiscards

    base = tables_player(rules)
    mine = ChosenDiscards(base, rule.table())
    out = {"cost": {**_given_up(compare_tallies(deals, seed, rules, mine, base, threads=threads)),
                    "unit": "points per dealt hand and seat given up against the tables' player's discards"}}
    if exchanging:
        out["when_exchanging"] = {
            **_given_up(compare_tallies(deals, seed, rules, Exchanging(mine), Exchanging(base), threads=threads)),
            "unit": "points per dealt hand and seat when every first proposal is made and accepted"}
    theirs = tables_discards(base.keep_plain_min_rank)
    out["agreement"] = {"by_hands": float((mine.discard_table == theirs).mean()), "by_stake": None}
    return out


@functools.lru_cache(maxsize=2)
def tables_discards(keep_plain_min_rank: int) -> np.ndarray:
    """The tables' player's first discard of every hand (trumps as suit 0): the plain cards below
    its ``keep_plain_min_rank`` thrown, the weakest card when there is none (players/heuristic.py)."""
    hands = every_hand()
    low = ((1 << keep_plain_min_rank) - 1) * 0x01010101
    throw = hands & PLAIN & low
    return np.where(throw == 0, weakest(hands), throw)


def players(rules) -> dict:
    """Who plays inside the measure, for the JSON."""
    base = tables_player(rules)
    return {"against": f"the discards of the player inside the shipped tables of {rules.name} (the same deals, both "
                       "seats; every other decision that player's for both)",
            "players": {"rule": "the tables' player with the rule's discards", "tables": base.describe()}}


def cost(rule: DiscardRule, rules, deals: int = DEALS, seed: int = 0, threads: int | None = None) -> dict:
    """``salon rule ecarte discard``'s JSON."""
    m = measure(rule, rules, deals, seed, threads)
    return {"game": "ecarte", "decision": "discard", "rules": rules.name, "rule": rule.text(), "words": rule.words(),
            "lines": rule.length, **m, **players(rules), "deals": deals, "seed": seed}


def text(res: dict) -> str:
    """The answer in a player's words."""
    c, x = res["cost"], res["when_exchanging"]
    lines = [f"Écarté, the discard ({res['rules']}):"] + ["  " + ln for ln in res["words"].splitlines()]
    lines += [f"Gives up {c['value']:+.4f} points per hand [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] against the "
              "discards of salon's player inside the solved tables (negative: the rule does better), "
              f"{x['value']:+.4f} [{x['ci95'][0]:+.4f}, {x['ci95'][1]:+.4f}] when every first proposal is accepted.",
              f"Throws what that player throws on {res['agreement']['by_hands']:.0%} of hands; "
              f"{res['deals']:,} deals in both seats (seed {res['seed']})."]
    return "\n".join(lines)


FIT_SEED, COST_SEED = 1, 2
FIT_DEALS, COST_DEALS = 1_000_000, 2_000_000
LINE_WORTH = 0.001
"""Points per dealt hand a longer rung must save on the choosing deals to be shown."""


def ladder(rules, fit_deals: int = FIT_DEALS, cost_deals: int = COST_DEALS, threads: int | None = None) -> dict:
    """The discard ladder of ``rules``: every set of classes kept (256 rules) measured on
    ``fit_deals`` hands of seed FIT_SEED, the best of each size chosen there, and those and the
    books' rules costed on ``cost_deals`` other hands (seed COST_SEED)."""
    import itertools

    fit = {keep: measure(DiscardRule(keep), rules, fit_deals, FIT_SEED, threads, exchanging=False)["cost"]["value"]
           for k in range(len(CLASS_WORDS) + 1) for keep in itertools.combinations(CLASS_WORDS, k)}

    def rung(rule: DiscardRule, source: str) -> dict:
        m = measure(rule, rules, cost_deals, COST_SEED, threads)
        return {"source": source, "lines": rule.length, "rule": rule.text(), "words": rule.words(), **m,
                "fit_cost": fit[rule.keep]}

    rungs = []
    for k in range(len(CLASS_WORDS) + 1):
        best = min((keep for keep in fit if len(keep) == k), key=fit.get)
        if rungs and fit[best] > rungs[-1]["fit_cost"] - LINE_WORTH:
            continue  # not worth its lines on the deals that chose it
        rungs.append(rung(DiscardRule(best), "searched"))
    book = [rung(parse(text_), source) for text_, source in BOOK.values()]
    return {"game": "ecarte", "decision": "discard", "rules": rules.name, "switches": rules.switches(),
            "rungs": rungs, "book": book, "search": f"every set of the {len(CLASS_WORDS)} classes kept",
            "chosen_on": f"{fit_deals:,} dealt hands of seed {FIT_SEED}",
            "costed_on": f"{cost_deals:,} dealt hands of seed {COST_SEED}", **players(rules)}


def ladder_text(lad: dict) -> str:
    """A discard ladder in a player's words."""
    out = [f"Écarté, the discard ({lad['rules']}). Points per hand given up against the discards of salon's player "
           "inside the solved tables (negative: the rule does better):"]
    for r in lad["rungs"] + [{**b, "book": True} for b in lad["book"]]:
        c, x = r["cost"], r["when_exchanging"]
        head = (f"  {r['source']}" if r.get("book") else
                f"  {r['lines']} line{'s' if r['lines'] > 1 else ''}")
        out.append(f"{head}: gives up {c['value']:+.4f} [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}], "
                   f"{x['value']:+.4f} when every first proposal is accepted; throws what that player throws on "
                   f"{r['agreement']['by_hands']:.0%} of hands")
        out.append(f"      {r['rule']}")
    out.append(f"Rules chosen on {lad['chosen_on']} and costed on {lad['costed_on']}, in both seats.")
    return "\n".join(out)

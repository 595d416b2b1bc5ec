"""Piquet's exchanges as playing rules (docs/playing-rules.md): which cards to keep, in priority
order, and how many to take, costed against each hand's best exchange.

A rule reads ``keep CLASS, CLASS, ...; throw lowest|shortest; take N|all`` (``keep`` and
``throw`` may be left out): a card's priority is the first class in the list it belongs to (cards
in none come last); the seat throws the ``N`` cards of lowest priority, among equals the lowest
rank first, then from the shorter suit (``throw lowest``, the default), or the shortest suit's
cards first, the lowest of them first (``throw shortest``; suits of one length alike). It is parsed by hand (never ``eval``)
and printed back in words.

The cost of a rule is the discard study's measure (``studies/discards``): on each of ``hands``
dealt hands, every legal exchange is raced on sampled deals (the rule's and the book's exchanges
are never dropped), and the best of the race and the rule's exchange then play ``held_out`` other
deals; the hand's cost is the best's mean net score minus the rule's on those deals, so the best
is not flattered by the deals that chose it. The mean over hands has a t interval across hands.
Both players play their tricks as the heuristic; the opponent exchanges as the heuristic.

Under open-hands play (``play="dd"``, ``salon rule ... --player dd``) the race's DD_CANDIDATES
leaders, the rule's and the books' exchanges are played by double-dummy players on DD_DEALS deals
that choose each hand's best and DD_DEALS others that cost every exchange against it (the discard
study's ``study_search``): what a rule gives up when the cards are played well. The open-hands
player is a bound on good play, not a legal player. Under the searching player (``play="search"``)
that open-hands choice first narrows each hand to its SEARCH_TOP leaders; those, the rule's and the
books' exchanges are then played by searching players (a legal player: it sees only its own cards)
on SEARCH_DEALS deals that choose the best and SEARCH_DEALS others that cost them."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from analysis.errors import InputError

SEATS = {"elder-exchange": "elder", "younger-exchange": "younger"}
RANK_NAMES = {"tens": 3, "jacks": 4, "queens": 5, "kings": 6, "aces": 7}
CLASS_WORDS = {
    "point": "the point suit",
    "sequences": "sequences (three or more)",
    "sets": "sets (three or four, tens and up)",
    "guards": "guarded kings and queens (with their guards)",
    "aces": "aces", "kings": "kings", "queens": "queens", "jacks": "jacks", "tens": "tens",
}
BOOK = {
    "PQ-T2": ("throw shortest; take all", "the book: throw the shortest suits' weakest cards first (PQ-T2)"),
    "keep-point": ("keep point; take all", "keep the point suit, throw the weakest other cards"),
    "Cavendish": ("keep point, sequences, sets; take all",
                  "Cavendish: take all you may (the coding keeps the point suit, sequences and sets)"),
}
"""The books' rules on the same scale, in this syntax (the coding's choices in docs/playing-rules.md)."""
HANDS, SAMPLES, HELD_OUT = 60, 4_000, 2_000


@dataclass(frozen=True)
class ExchangeRule:
    """A parsed exchange rule: the classes kept, in priority order, which of equal cards go first
    (``lowest`` rank or ``shortest`` suit), and the cards taken (None: all the seat may take)."""

    seat: str
    keep: tuple[str, ...]
    take: int | None
    throw: str = "lowest"

    def text(self) -> str:
        """The rule in its own syntax, normalised (the form ``parse`` reads back)."""
        take = "all" if self.take is None else str(self.take)
        return ((f"keep {', '.join(self.keep)}; " if self.keep else "")
                + (f"throw {self.throw}; " if self.throw != "lowest" else "") + f"take {take}")

    def words(self) -> str:
        """The rule in plain words, one line each."""
        first = ("keep " + ", then ".join(CLASS_WORDS[k] for k in self.keep) + "; throw the rest"
                 if self.keep else "throw")
        order = ("the lowest first, from the shorter suit first" if self.throw == "lowest"
                 else "the shortest suit's cards first, the lowest of them first")
        take = "as many cards as you may" if self.take is None else f"{self.take} card{'s' * (self.take != 1)}"
        return f"{first}{', ' if self.keep else ' '}{order}\ntake {take}"

    def discard(self, hand: int, rules, elder_took: int = 5) -> int:
        """The discard (a mask of the hand's cards) this rule makes."""
        from analysis.piquet.studies.discards.analyser import exchange_bounds

        lo, hi = exchange_bounds(self.seat, rules, elder_took)
        n = hi if self.take is None else self.take
        if not lo <= n <= hi:
            raise InputError(f"{self.seat} may take {lo} to {hi} cards here (PQ-EX-{self.seat[0].upper()}), "
                             f"not {n}")
        classes = card_classes(hand)
        length = {s: bin(hand >> (8 * s) & 0xFF).count("1") for s in range(4)}

        def priority(c: int):
            first = next((i for i, k in enumerate(self.keep) if classes[k] >> c & 1), len(self.keep))
            if self.throw == "lowest":  # thrown first: the lowest priority
                return (-first, c & 7, length[c >> 3], c >> 3)
            return (-first, length[c >> 3], c & 7, c >> 3)

        codes = sorted((c for c in range(32) if hand >> c & 1), key=priority)
        return sum(1 << c for c in codes[:n])


def card_classes(hand: int) -> dict[str, int]:
    """Each class's cards in ``hand``, as masks."""
    from analysis.piquet.reference.policies import guards, point_suit
    from analysis.piquet.reference.scoring import sequences_of, sets_of

    out = {"point": hand & (0xFF << (8 * point_suit(hand)))}
    out["sequences"] = 0
    for length, top in sequences_of(hand):
        for c in range(top - length + 1, top + 1):
            out["sequences"] |= 1 << c
    out["sets"] = sum(1 << (8 * s + r) for _, r in sets_of(hand) for s in range(4) if hand >> (8 * s + r) & 1)
    guarding = guards(hand)
    out["guards"] = guarding
    for s in range(4):
        if guarding >> (8 * s) & 0xFF:
            out["guards"] |= 1 << (8 * s + (hand >> (8 * s) & 0xFF).bit_length() - 1)  # the honour guarded
    for name, r in RANK_NAMES.items():
        out[name] = sum(1 << (8 * s + r) for s in range(4) if hand >> (8 * s + r) & 1)
    return out


def seat_of(decision: str) -> str:
    if decision not in SEATS:
        raise InputError(f"unknown Piquet decision {decision!r}: one of {', '.join(SEATS)}")
    return SEATS[decision]


def parse(decision: str, text: str) -> ExchangeRule:
    """The exchange rule ``text`` for ``decision``; an InputError (one line) names what is wrong."""
    seat = seat_of(decision)
    parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    keep, take, throw, seen_take, seen_throw = (), None, "lowest", False, False
    for part in parts:
        word, _, rest = part.partition(" ")
        word = word.lower()
        if word == "keep" and not keep:
            keep = tuple(k.strip().lower() for k in rest.split(",") if k.strip())
            if not keep:
                raise InputError("'keep' needs classes of cards, for example 'keep point, sequences, aces'")
            unknown = [k for k in keep if k not in CLASS_WORDS]
            if unknown:
                raise InputError(f"unknown class of cards {unknown[0]!r}: one of {', '.join(CLASS_WORDS)}")
            if len(set(keep)) != len(keep):
                raise InputError(f"a class is kept twice in {rest.strip()!r}")
        elif word == "throw" and not seen_throw:
            seen_throw = True
            throw = rest.strip().lower()
            if throw not in ("lowest", "shortest"):
                raise InputError(f"'throw' is 'lowest' (rank first) or 'shortest' (suit first), not {throw!r}")
        elif word == "take" and not seen_take:
            seen_take = True
            amount = rest.strip().lower()
            if amount != "all" and not re.fullmatch(r"\d+", amount):
                raise InputError(f"'take' needs a number of cards or 'all', not {amount!r}")
            take = None if amount == "all" else int(amount)
        else:
            raise InputError(f"an exchange rule is 'keep CLASS, ...; throw lowest|shortest; take N|all', "
                             f"not {part!r}")
    if not seen_take:
        raise InputError("an exchange rule needs 'take N' or 'take all' (how many cards to exchange)")
    return ExchangeRule(seat, keep, take, throw)


PLAYS = ("heuristic", "dd", "search")
DD_CANDIDATES = 12
DD_DEALS = 200
SEARCH_TOP = 4
"""The open-hands choice's leaders the searching players play beside the named exchanges."""
SEARCH_DEALS = 200
SEARCH_HANDS = 30
"""The dealt hands costed under the searching player by default (about seven seconds each on 2 threads)."""
SEARCH_CHOOSE_OFFSET, SEARCH_REPORT_OFFSET = 13_000_003, 14_000_003


def _named_lost(played: list[int], masks: list[int], chose: np.ndarray, net: np.ndarray) -> tuple[np.ndarray, bool]:
    """Each named exchange's cost against the best of ``played`` (chosen on the ``chose`` deals,
    costed on the ``net`` deals), and whether the first named is the best."""
    best = int(np.argmax(chose.mean(axis=0)))
    named = [played.index(m) for m in masks]
    return (net[:, best:best + 1] - net[:, named]).mean(axis=0), named[0] == best


def strong_lost(a, masks: list[int], rules, seed: int, h: int, threads: int | None,
                 play: str) -> tuple[np.ndarray, bool]:
    """Hand ``a``'s race leaders and the named exchanges ``masks`` played with open hands, then
    (``play="search"``) the open-hands leaders and the named ones by searching players: each named
    exchange's cost against the best, and whether the first named is the best."""
    from analysis.piquet.policies import SearchPolicy
    from analysis.piquet.studies.discards.analyser_search import play_options, policy_arrays
    from analysis.piquet.studies.discards.study_search import dd_choose_and_report

    younger = a.spec["seat"] == "younger"
    played = list(dict.fromkeys([int(m) for m in a.options[a.table["option"].to_numpy()[:DD_CANDIDATES]]] + masks))
    chose, net, _ = dd_choose_and_report(a.hand, younger, np.array(played, dtype=np.int64), rules,
                                         seed, h, DD_DEALS, 5, threads)
    if play == "dd":
        return _named_lost(played, masks, chose, net)
    leaders = np.argsort(-chose.mean(axis=0), kind="stable")[:SEARCH_TOP]
    played = list(dict.fromkeys([played[j] for j in leaders] + masks))
    arr = np.array(played, dtype=np.int64)
    pe, py = policy_arrays(SearchPolicy(), younger, 5)
    chose, _ = play_options(a.hand, younger, arr, rules, pe, py, seed + SEARCH_CHOOSE_OFFSET + h, SEARCH_DEALS, threads)
    net, _ = play_options(a.hand, younger, arr, rules, pe, py, seed + SEARCH_REPORT_OFFSET + h, SEARCH_DEALS, threads)
    return _named_lost(played, masks, chose, net)


def cost(rule: ExchangeRule, rules, hands: int = HANDS, seed: int = 0, samples: int = SAMPLES,
         held_out: int = HELD_OUT, threads: int | None = None, play: str = "heuristic") -> dict:
    """The rule's cost per deal against each hand's best exchange, with the books' rules costed on
    the same hands and held-out deals (paired), and the rule's agreement with the best; the trick
    play by the heuristic, by open-hands players (``play="dd"``) or by searching players (``"search"``)."""
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand
    from analysis.piquet.studies.discards.study import (
        HELD_OUT_OFFSET,
        dealt_hand,
        held_out_nets,
        mean_over_hands,
    )
    from analysis.runner import check_seed

    check_seed(seed)
    if play not in PLAYS:
        raise InputError(f"--player for Piquet's rules is one of {', '.join(PLAYS)}, not {play!r}")
    if hands < 2:
        raise InputError(f"--deals (hands costed) must be at least 2, not {hands}")
    book = {name: parse("elder-exchange" if rule.seat == "elder" else "younger-exchange", t)
            for name, (t, _) in BOOK.items()}
    named = {"rule": rule, **book}
    costs = {name: [] for name in named}
    agree, stakes = [], []
    for h in range(hands):
        hand = dealt_hand(seed, h, rule.seat)
        masks = {name: r.discard(hand, rules) for name, r in named.items()}
        a = analyse_hand(hand, rule.seat, rules, samples=samples, seed=seed + 1 + h,
                         race=Racing(keep=tuple(masks.values())), threads=threads)
        if play != "heuristic":
            lost, agrees = strong_lost(a, [int(m) for m in masks.values()], rules, seed, h, threads, play)
        else:
            best = int(a.table.iloc[0]["option"])
            options = [best] + [int(np.flatnonzero(a.options == m)[0]) for m in masks.values()]
            net = held_out_nets(a, rule.seat, rules, options, seed + HELD_OUT_OFFSET + h, held_out, 5, threads)
            lost = (net[:, :1] - net[:, 1:]).mean(axis=0)
            agrees = options[1] == best
        for name, x in zip(named, lost, strict=True):
            costs[name].append(float(x))
        agree.append(agrees)
        stakes.append(max(float(lost.max()), 0.0))
    estimate = {name: mean_over_hands(x) for name, x in costs.items()}
    w = np.asarray(stakes)
    by_stake = float(np.dot(w, agree) / w.sum()) if w.sum() > 0 else 1.0

    def value(e) -> dict:
        return {"value": e.value, "ci95": [e.lo, e.hi]}

    from analysis.piquet.policies import SearchPolicy

    return {"game": "piquet", "decision": f"{rule.seat}-exchange", "rules": rules.name, "rule": rule.text(),
            "words": rule.words(), "cost": value(estimate["rule"]),
            "exploitability": {"value": None, "ci95": None},
            "exploitability_note": "does not apply: the exchange is hidden from the opponent, who plays as the "
                                   "heuristic whatever the rule",
            "agreement": {"by_hands": float(np.mean(agree)), "by_stake": by_stake},
            "book": {name: {"rule": named[name].text(), "words": BOOK[name][1], "cost": value(estimate[name])}
                     for name in BOOK},
            "against": AGAINST[play],
            "players": {"trick_play": {"heuristic": "heuristic, both players",
                                       "dd": "dd (open hands, a bound, not a legal player), both players",
                                       "search": f"search (the searching player, {SearchPolicy().samples} hidden hands "
                                                 "drawn a card, each solved), both players"}[play],
                        "opponent_exchange": "heuristic",
                        **({"search": SearchPolicy().describe()} if play == "search" else {})},
            "deals": {"hands": hands, "race_samples": samples,
                      **({"held_out_per_hand": held_out} if play == "heuristic" else
                         {"dd_candidates": DD_CANDIDATES, "dd_choose_per_hand": DD_DEALS,
                          "dd_report_per_hand": DD_DEALS}),
                      **({"search_candidates": SEARCH_TOP, "search_choose_per_hand": SEARCH_DEALS,
                          "search_report_per_hand": SEARCH_DEALS} if play == "search" else {})},
            "seed": seed, "play": play}


AGAINST = {"heuristic": "each hand's best exchange: every legal exchange raced on sampled deals, the best and the "
                        "rule's then played on other deals (held out)",
           "dd": f"each hand's best exchange under open-hands play: the race's {DD_CANDIDATES} leaders and the named "
                 f"exchanges played by double-dummy players on {DD_DEALS} deals that choose the best and "
                 f"{DD_DEALS} others that cost them",
           "search": f"each hand's best exchange under the searching player: the {SEARCH_TOP} best of the race's "
                     f"{DD_CANDIDATES} leaders under open-hands play and the named exchanges played by searching "
                     f"players on {SEARCH_DEALS} deals that choose the best and {SEARCH_DEALS} others that cost them"}


def text(res: dict) -> str:
    """The answer in a player's words, first the rule, then what it costs beside the books' rules."""
    c, a = res["cost"], res["agreement"]
    seat = res["decision"].split("-")[0]
    lines = [f"Piquet, {seat}'s exchange ({res['rules']}):"] + ["  " + ln for ln in res["words"].splitlines()]
    lines += [f"Gives up {c['value']:+.2f} points per deal [{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}] against "
              f"each hand's best exchange{UNDER[res['play']]}, on "
              f"{res['deals']['hands']} dealt hands.",
              f"Throws what the best exchange throws on {a['by_hands']:.0%} of hands "
              f"({a['by_stake']:.0%} by the points at stake).", "On the same hands and deals:"]
    for b in res["book"].values():
        lines.append(f"  {b['words']}: gives up {b['cost']['value']:+.2f} "
                     f"[{b['cost']['ci95'][0]:+.2f}, {b['cost']['ci95'][1]:+.2f}]")
    lines.append({"heuristic": "Both players play their tricks as salon's rule-of-thumb player (--player search: a "
                               "strong searching player; --player dd: with open hands).",
                  "dd": "Both players play their tricks with open hands (a bound on good play, not a legal player).",
                  "search": "Both players play their tricks as salon's strong searching player (it sees only its own "
                            "cards)."}[res["play"]])
    return "\n".join(lines)


UNDER = {"heuristic": "", "dd": " under open-hands play", "search": " under the searching player"}


def rule_answer(name: str, text_: str, rules, deals: int | None = None, seed: int = 0,
                player: str | None = None) -> tuple[dict, str]:
    """``salon rule piquet DECISION RULE``: (JSON, text); ``deals``: the dealt hands costed;
    ``player``: the trick play (heuristic, dd: open hands, or search)."""
    play = player or "heuristic"
    default = SEARCH_HANDS if play == "search" else HANDS
    res = cost(parse(name, text_), rules, hands=default if deals is None else deals, seed=seed, play=play)
    return res, text(res)

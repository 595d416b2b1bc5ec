"""Piquet deal records: JSON in and out, step-by-step validation, replay and re-scoring.

A record is one deal as a JSON object, cards as strings (``"KH"``, ``"10S"``; parsing also takes
``"K♥"``, ``"♥K"``, ``"10h"``, ``"Th"``)::

    {"game": "piquet", "rules": "seed-de", "switches": {"capot": 40},        # switches optional
     "elder": {"dealt": [12 cards], "discard": [cards], "sink": ["point"]},  # sink optional
     "younger": {"dealt": [12 cards], "discard": [cards]},
     "talon": [8 cards, top first],
     "tricks": [[card led, card played to it], ... 12 pairs]}

``"game"`` may be left out when the other keys are this game's (a record of another game is
named as such: ``this is a piquet record; salon ecarte replay reads ecarte records``).

The cards each player takes follow from the rules (PQ-EX-E, PQ-EX-Y); elder leads the first trick
and each winner the next (PQ-PLAY). ``"sink"`` lists categories (point, sequences, sets) the
player declared as nothing; declarations are in full otherwise. An optional ``"source"`` (where
the deal came from) and ``"comment"`` are carried along and not checked. :func:`replay` checks
every step against docs/rules.md and raises :class:`InputError` with one line naming the step and the
rule broken; otherwise it re-scores the deal.
"""
from __future__ import annotations

from analysis.piquet.reference.cards import ELDER, SEATS, YOUNGER
from analysis.piquet.reference.checks import score_deal
from analysis.piquet.reference.deal import DealResult
from analysis.piquet.reference.scoring import CATEGORIES
from analysis.piquet.rules import CODEC, VARIANTS, PiquetRules, get_rules, name_of
from analysis.record_files import (  # noqa: F401 (the records API)
    RecordSchema,
    fail_step,
    load_record,
    load_records,
    save_records,
)

REQUIRED_KEYS = ("game", "rules", "elder", "younger", "talon", "tricks")
OPTIONAL_KEYS = ("switches", "source", "comment")
PLAYER_KEYS = ("dealt", "discard")
PLAYER_OPTIONAL = ("sink",)
SCHEMA = RecordSchema("piquet", REQUIRED_KEYS, OPTIONAL_KEYS, get_rules, CODEC, VARIANTS)


_fail = fail_step


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def record_from_deal(result: DealResult, rules: PiquetRules) -> dict:
    """The JSON record (a dict) of a deal played by :func:`reference.play_deal`."""
    def names(codes):
        return [name_of(c) for c in codes]

    return {
        "game": "piquet",
        **SCHEMA.rules_entries(rules),
        "elder": {"dealt": names(result.elder_dealt), "discard": names(result.elder_discard)},
        "younger": {"dealt": names(result.younger_dealt),
                    "discard": names(result.younger_discard)},
        "talon": names(result.talon),
        "tricks": [[name_of(t.led), name_of(t.followed)] for t in result.tricks],
        "source": {"seed": result.seed, "index": result.index, "lane_base": result.lane_base},
    }


# ---------------------------------------------------------------------------------------------
# Reading the structure
# ---------------------------------------------------------------------------------------------

_card = SCHEMA.card  # one card string -> its code
_cards = SCHEMA.cards  # a list of card strings -> codes


def _player(record: dict, seat: str) -> tuple[list[int], list[int], list[str]]:
    """A player's entry: dealt cards, discard and sunk categories."""
    entry = record[seat]
    if not isinstance(entry, dict):
        _fail(seat, f"expected an object with {' and '.join(PLAYER_KEYS)}, got {type(entry).__name__}")
    for key in PLAYER_KEYS:
        if key not in entry:
            _fail(seat, f"missing key {key!r}")
    for key in entry:
        if key not in PLAYER_KEYS + PLAYER_OPTIONAL:
            _fail(seat, f"unknown key {key!r}; valid: {', '.join(PLAYER_KEYS + PLAYER_OPTIONAL)}")
    dealt = _cards(entry["dealt"], f"{seat}: dealt")
    discard = _cards(entry["discard"], f"{seat}: discard")
    sink = entry.get("sink", [])
    if not isinstance(sink, list):
        _fail(f"{seat}: sink", f"expected a list of categories, got {type(sink).__name__}")
    for cat in sink:
        if cat not in CATEGORIES:
            _fail(f"{seat}: sink", f"unknown category {cat!r}; valid: {', '.join(CATEGORIES)}")
    return dealt, discard, sink


def _tricks(record: dict) -> list[tuple[int, int]]:
    """The tricks as (led, followed) code pairs (their legality is checked by the reference)."""
    tricks = record["tricks"]
    if not isinstance(tricks, list):
        _fail("tricks", f"expected a list of [led, played] pairs, got {type(tricks).__name__}")
    pairs = []
    for n, pair in enumerate(tricks, 1):
        step = f"trick {n}"
        if not isinstance(pair, list) or len(pair) != 2:
            _fail(step, "expected a pair [card led, card played to it]")
        pairs.append((_card(pair[0], step), _card(pair[1], step)))
    return pairs


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def replay(record: dict, rules: PiquetRules | None = None) -> dict:
    """Check every step of a record against the rules and re-score the deal.

    ``rules`` overrides the record's ``"rules"`` and ``"switches"``. Returns ``{"game": "piquet",
    "rules": name, "switches": {...}, "scores": {"elder": {...}, "younger": {...}}}``, each score a
    breakdown (carte_blanche, point, sequences, sets, repique, pique, trick_points, cards, capot,
    total, tricks). An illegal or malformed record raises :class:`InputError` naming the step and
    the rule.
    """
    SCHEMA.check(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    e_dealt, e_disc, e_sink = _player(record, ELDER)
    y_dealt, y_disc, y_sink = _player(record, YOUNGER)
    talon = _cards(record["talon"], "talon")
    pairs = _tricks(record)
    scores = score_deal(rules, e_dealt, y_dealt, talon, e_disc, y_disc, pairs,
                            sink={ELDER: set(e_sink), YOUNGER: set(y_sink)})
    return {
        "game": "piquet",
        "rules": rules.name,
        "switches": rules.switches(),
        "scores": {seat: dict(scores[seat]) for seat in SEATS},
    }

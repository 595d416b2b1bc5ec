"""Bezique deal records: JSON in and out, step-by-step validation, replay and re-scoring.

A record is one deal as a JSON object, cards as strings (``"KH"``, ``"10S"``; parsing also takes
``"K♥"``, ``"♥K"``, ``"10h"``, ``"Th"``). The two copies of a card are written alike::

    {"game": "bezique", "rules": "seed-de", "switches": {"target": 500},   # switches optional
     "elder": [8 cards], "dealer": [8 cards], "turn_up": "7H",
     "stock": [47 cards, in drawing order],
     "tricks": [{"lead": "QS", "follow": "9H",
                 "table": ["lead"],                      # optional: played from the table
                 "exchange": true,                       # optional: seven of trumps exchanged
                 "meld": {"hand": ["KH", "QH"], "table": []},   # optional
                 "draws": ["8C", "AS"]},                 # optional: winner's, loser's card
                ... 32 tricks]}

``"game"`` may be left out when the other keys are this game's (a record of another game is
named as such: ``this is a piquet record; salon ecarte replay reads ecarte records``).

Elder (the non-dealer) leads the first trick and each winner the next (BZ-STOCK-PLAY); draws
follow from the stock (BZ-DRAW) and, when given, are checked. A played card comes from the
player's hand when he holds that card there, else from his table, unless ``"table"`` names it;
a meld's cards are the ones laid from the hand and the ones already on his table. The seven of
trumps played in the stock phase is always announced. An optional ``"source"`` and
``"comment"`` are carried along and not checked. :func:`replay` checks every step against
docs/rules.md and raises :class:`InputError` with one line naming the step and the rule broken.
"""
from __future__ import annotations

from analysis.bezique.reference.cards import DEALER, ELDER, SEATS
from analysis.bezique.reference.checks import TrickPlay, score_deal
from analysis.bezique.reference.deal_state import DealResult
from analysis.bezique.rules import CODEC, VARIANTS, BeziqueRules, get_rules, name_of
from analysis.record_files import RecordSchema, fail_step, load_record, load_records  # noqa: F401 (the records API)

REQUIRED_KEYS = ("game", "rules", "elder", "dealer", "turn_up", "stock", "tricks")
OPTIONAL_KEYS = ("switches", "source", "comment")
TRICK_KEYS = ("lead", "follow")
TRICK_OPTIONAL = ("table", "exchange", "meld", "draws")
SCHEMA = RecordSchema("bezique", REQUIRED_KEYS, OPTIONAL_KEYS, get_rules, CODEC, VARIANTS,
                      item_per_line=("tricks",))


_fail = fail_step


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def record_from_deal(result: DealResult, rules: BeziqueRules | None = None) -> dict:
    """The JSON record (a dict) of a deal played by :func:`reference.play_deal` (a deal cut
    short by the end of a game has fewer than 32 tricks and does not replay)."""
    rules = rules or result.rules

    def names(codes):
        return [name_of(c) for c in codes]

    tricks = []
    for t in result.tricks:
        entry: dict = {"lead": name_of(t.led), "follow": name_of(t.followed)}
        table = [k for k, flag in (("lead", t.led_from_table), ("follow", t.followed_from_table)) if flag]
        if table:
            entry["table"] = table
        if t.exchanged:
            entry["exchange"] = True
        if t.meld is not None:
            entry["meld"] = {"hand": names(t.meld.hand),
                             "table": names(c for c in t.meld.cards if c not in t.meld.hand)}
        if t.draws is not None:
            entry["draws"] = names(t.draws)
        tricks.append(entry)
    return {
        "game": "bezique",
        **SCHEMA.rules_entries(rules),
        "elder": names(result.elder_dealt),
        "dealer": names(result.dealer_dealt),
        "turn_up": name_of(result.turn_up),
        "stock": names(result.stock),
        "tricks": tricks,
        "source": {"seed": result.seed, "index": result.index, "lane_base": result.lane_base},
    }


# ---------------------------------------------------------------------------------------------
# Reading the structure
# ---------------------------------------------------------------------------------------------

_card = SCHEMA.card  # one card string -> its code (the first copy's; replay works on faces)
_cards = SCHEMA.cards  # a list of card strings -> codes


def trick_play(entry, n: int) -> tuple[TrickPlay, list[int] | None]:
    """One trick entry -> a TrickPlay of faces, and the recorded draws (None if not given)."""
    step = f"trick {n}"
    if not isinstance(entry, dict):
        _fail(step, "expected an object with lead and follow")
    for key in TRICK_KEYS:
        if key not in entry:
            _fail(step, f"missing key {key!r}")
    for key in entry:
        if key not in TRICK_KEYS + TRICK_OPTIONAL:
            _fail(step, f"unknown key {key!r}; valid: {', '.join(TRICK_KEYS + TRICK_OPTIONAL)}")
    table = entry.get("table", [])
    if not isinstance(table, list) or any(t not in TRICK_KEYS for t in table):
        _fail(step, "\"table\" must list \"lead\" and/or \"follow\"")
    exchange = entry.get("exchange", False)
    if not isinstance(exchange, bool):
        _fail(step, "\"exchange\" must be true or false")
    meld_hand: list[int] = []
    meld_table: list[int] = []
    if "meld" in entry:
        meld = entry["meld"]
        if not isinstance(meld, dict) or any(k not in ("hand", "table") for k in meld):
            _fail(step, "\"meld\" must be an object with \"hand\" and \"table\" card lists")
        meld_hand = _cards(meld.get("hand", []), f"{step}: meld")
        meld_table = _cards(meld.get("table", []), f"{step}: meld")
        if not meld_hand and not meld_table:
            _fail(step, "an empty meld")
    draws = _cards(entry["draws"], f"{step}: draws") if "draws" in entry else None
    if draws is not None and len(draws) != 2:
        _fail(step, "\"draws\" must be the winner's and the loser's card")
    play = TrickPlay(_card(entry["lead"], step), _card(entry["follow"], step), "lead" in table,
                     "follow" in table, exchange, tuple(meld_hand), tuple(meld_table))
    return play, draws


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def replay(record: dict, rules: BeziqueRules | None = None) -> dict:
    """Check every step of a record against the rules and re-score the deal.

    ``rules`` overrides the record's ``"rules"`` and ``"switches"``. Returns ``{"game":
    "bezique", "rules": name, "switches": {...}, "scores": {"elder": {...}, "dealer": {...}}}``,
    each score a breakdown (the meld kinds, seven, brisques, last_trick, total, tricks). An
    illegal or malformed record raises :class:`InputError` naming the step and the rule.
    """
    SCHEMA.check(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    elder = _cards(record["elder"], "elder")
    dealer = _cards(record["dealer"], "dealer")
    turn_up = _card(record["turn_up"], "turn_up")
    stock = _cards(record["stock"], "stock")
    entries = record["tricks"]
    if not isinstance(entries, list):
        _fail("tricks", f"expected a list of tricks, got {type(entries).__name__}")
    parsed = [trick_play(e, n) for n, e in enumerate(entries, 1)]
    result = score_deal(rules, elder, dealer, turn_up, stock, [p for p, _ in parsed])
    for (_, draws), t in zip(parsed, result.tricks, strict=True):
        if draws is not None and t.draws is not None and draws != [c & 31 for c in t.draws]:
            _fail(f"trick {t.number}", f"recorded draws {name_of(draws[0])} {name_of(draws[1])} but the "
                  f"stock gives {t.winner} {name_of(t.draws[0])} and the loser {name_of(t.draws[1])}",
                  "BZ-DRAW")
        if draws is not None and t.draws is None:
            _fail(f"trick {t.number}", "no draws in the end phase", "BZ-END")
    return {
        "game": "bezique",
        "rules": rules.name,
        "switches": rules.switches(),
        "scores": {seat: dict(result.scores[seat]) for seat in SEATS},
    }


# ---------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------

save_records = SCHEMA.save  # one record (a dict) or a list of them, tricks one per line


__all__ = ["DEALER", "ELDER", "load_records", "record_from_deal", "replay", "save_records"]

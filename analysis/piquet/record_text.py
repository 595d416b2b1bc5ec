"""A Piquet deal in the text notation (analysis.record_text, docs/records.md)::

    game: piquet
    rules: seed-de
    elder: ♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8       # any card spelling: book style, A♠, AS
    younger: ...
    talon: 8 cards, top first
    elder discards: 7S 8H 7D 9D 8C
    younger discards: 7H 8S 9C
    elder sinks: point                          # optional: categories declared as nothing
    trick 1: AS 7S                              # card led, card played to it
    ...

The cards each player takes follow from the rules; every step is checked by the replay.
"""
from __future__ import annotations

from analysis.piquet.reference.records import replay
from analysis.piquet.rules import CODEC
from analysis.record_text import Keys, Line, cards_of, text_lines

STEP_KEYS = {"elder's exchange": "elder discards", "younger's exchange": "younger discards",
             "elder's hand": "elder", "younger's hand": "younger"}
"""The replay's step names that are not a line's key."""
REQUIRED = ("game", "elder", "younger", "talon", "elder discards", "younger discards")
OPTIONAL = ("rules", "elder sinks", "younger sinks", "comment")
CATEGORIES = ("point", "sequences", "sets")


def _sinks(line: Line | None) -> list[str]:
    if line is None:
        return []
    out = []
    for w in line.tokens():
        w = w.lower()
        if w not in CATEGORIES:
            line.fail(f"unknown category {w!r}; valid: {', '.join(CATEGORIES)}")
        out.append(w)
    return out


def from_lines(lines: list[Line]) -> dict:
    """The JSON record of a text deal."""
    k = Keys(lines, REQUIRED, OPTIONAL, prefixes=("trick",))
    record = {"game": "piquet", "rules": k.get("rules").value if k.get("rules") else "seed-de"}
    for seat in ("elder", "younger"):
        entry = {"dealt": cards_of(k.get(seat), CODEC, 12, "PQ-DEAL"),
                 "discard": cards_of(k.get(f"{seat} discards"), CODEC)}
        sinks = _sinks(k.get(f"{seat} sinks"))
        if sinks:
            entry["sink"] = sinks
        record[seat] = entry
    record["talon"] = cards_of(k.get("talon"), CODEC, 8, "PQ-DEAL")
    record["tricks"] = [cards_of(ln, CODEC, 2, "PQ-PLAY") for ln in k.numbered("trick")]
    return k.finish(record)


def to_text(record: dict) -> str:
    """A JSON record (checked by the replay first) in the notation."""
    replay(record)
    out = [f"{seat}: {' '.join(record[seat]['dealt'])}" for seat in ("elder", "younger")]
    out.append(f"talon: {' '.join(record['talon'])}")
    for seat in ("elder", "younger"):
        out.append(f"{seat} discards: {' '.join(record[seat]['discard']) or '-'}")
    for seat in ("elder", "younger"):
        if record[seat].get("sink"):
            out.append(f"{seat} sinks: {' '.join(record[seat]['sink'])}")
    out += [f"trick {n}: {a} {b}" for n, (a, b) in enumerate(record["tricks"], 1)]
    return text_lines(record, "piquet", out)

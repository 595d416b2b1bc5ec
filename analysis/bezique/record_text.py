"""A Bezique deal in the text notation (analysis.record_text, docs/records.md)::

    game: bezique
    rules: seed-de
    elder: 8 cards
    dealer: 8 cards
    turn-up: 7H
    stock: 47 cards, in drawing order
    trick 1: QS 9H
    trick 2: KH AH; meld KH QH; draws 8C AS
    trick 3: 7H 10S; exchange; from table lead; meld QS + table JD

Each trick is the card led and the card played to it, then optional clauses after ``;``: ``from
table lead|follow|both`` (played from the table), ``exchange`` (the seven of trumps exchanged for
the turn-up), ``meld CARDS`` (laid from the hand, then ``+ table CARDS`` already on the table) and
``draws WINNER'S LOSER'S`` (checked against the stock). Every step is checked by the replay.
"""
from __future__ import annotations

from analysis.bezique.reference.records import replay
from analysis.bezique.rules import CODEC
from analysis.record_text import Keys, Line, cards_of, text_lines

STEP_KEYS = {"elder's hand": "elder", "dealer's hand": "dealer", "turn_up": "turn-up"}
"""The replay's step names that are not a line's key."""
REQUIRED = ("game", "elder", "dealer", "turn-up", "stock")
OPTIONAL = ("rules", "comment")


def _trick(ln: Line) -> dict:
    parts = [p.strip() for p in ln.value.split(";")]
    entry: dict = {}
    lead_follow = cards_of(Line(ln.number, ln.key, parts[0]), CODEC, 2, "BZ-STOCK-PLAY")
    entry["lead"], entry["follow"] = lead_follow
    for part in parts[1:]:
        word, _, rest = part.partition(" ")
        word = word.lower()
        if word == "from" and rest.lower().startswith("table"):
            which = rest[5:].strip().lower()
            if which not in ("lead", "follow", "both"):
                ln.fail(f"expected 'from table lead|follow|both', got {part!r}")
            entry["table"] = ["lead", "follow"] if which == "both" else [which]
        elif word == "exchange" and not rest:
            entry["exchange"] = True
        elif word == "meld":
            hand, _, table = rest.partition("+")
            table = table.strip()
            if table and not table.lower().startswith("table"):
                ln.fail(f"expected 'meld CARDS + table CARDS', got {part!r}")
            entry["meld"] = {"hand": cards_of(Line(ln.number, f"{ln.key}: meld", hand), CODEC),
                             "table": cards_of(Line(ln.number, f"{ln.key}: meld", table[5:]), CODEC)}
        elif word == "draws":
            entry["draws"] = cards_of(Line(ln.number, f"{ln.key}: draws", rest), CODEC, 2, "BZ-DRAW")
        else:
            ln.fail(f"unknown clause {part!r}; valid: from table ..., exchange, meld ..., draws ...")
    return entry


def from_lines(lines: list[Line]) -> dict:
    """The JSON record of a text deal."""
    k = Keys(lines, REQUIRED, OPTIONAL, prefixes=("trick",))
    record = {"game": "bezique", "rules": k.get("rules").value if k.get("rules") else "seed-de",
              "elder": cards_of(k.get("elder"), CODEC, 8, "BZ-DEAL"),
              "dealer": cards_of(k.get("dealer"), CODEC, 8, "BZ-DEAL"),
              "turn_up": cards_of(k.get("turn-up"), CODEC, 1)[0],
              "stock": cards_of(k.get("stock"), CODEC)}
    record["tricks"] = [_trick(ln) for ln in k.numbered("trick")]
    return k.finish(record)


def to_text(record: dict) -> str:
    """A JSON record (checked by the replay first) in the notation."""
    replay(record)
    out = [f"elder: {' '.join(record['elder'])}", f"dealer: {' '.join(record['dealer'])}",
           f"turn-up: {record['turn_up']}", f"stock: {' '.join(record['stock'])}"]
    for n, t in enumerate(record["tricks"], 1):
        parts = [f"{t['lead']} {t['follow']}"]
        table = t.get("table", [])
        if table:
            parts.append("from table " + ("both" if len(table) == 2 else table[0]))
        if t.get("exchange"):
            parts.append("exchange")
        if t.get("meld"):
            m = t["meld"]
            parts.append("meld " + " ".join(m.get("hand", [])) + (" + table " + " ".join(m["table"]) if m.get("table") else ""))
        if t.get("draws"):
            parts.append("draws " + " ".join(t["draws"]))
        out.append(f"trick {n}: {'; '.join(parts)}")
    return text_lines(record, "bezique", out)

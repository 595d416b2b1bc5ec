"""An Écarté hand in the text notation (analysis.record_text, docs/records.md)::

    game: ecarte
    rules: seed-de
    elder: KS QS 7H 8D 9C
    dealer: AH KH 10D 7C JC
    turnup: 10S
    exchange 1: elder 7H 8D takes 9S JD; dealer 7C takes QD
    ending: elder plays            # or: dealer refuses
    king: elder                    # who announced the king of trumps (optional)
    trick 1: KS AS                 # card led, card played to it
    ...

``exchange N`` lines (in order) give each player's discard and the cards he drew from the stock;
the stock of the JSON record is those draws in order (then ``stock:``'s cards, if given). Every
step is checked by the replay afterwards.
"""
from __future__ import annotations

from analysis.ecarte.reference.records import replay
from analysis.ecarte.rules import CODEC
from analysis.record_text import Keys, Line, cards_of, text_lines

STEP_KEYS = {"announced": "king"}
"""The replay's step names that are not a line's key."""
REQUIRED = ("game", "elder", "dealer", "turnup", "ending")
OPTIONAL = ("rules", "king", "stock", "comment")
ENDINGS = {"elder plays": "elder_plays", "dealer refuses": "dealer_refuses"}


def _part(line: Line, text: str, seat: str) -> tuple[list[str], list[str]]:
    """``SEAT DISCARD takes DRAWN`` of an exchange line: (discard, drawn)."""
    words = text.split(None, 1)
    if not words or words[0].lower() != seat:
        line.fail(f"expected '{seat} CARDS takes CARDS', got {text.strip()!r}")
    rest = words[1] if len(words) > 1 else ""
    thrown, sep, drawn = rest.partition(" takes ")
    if not sep:
        thrown, sep, drawn = rest.partition("takes")
        if not sep:
            line.fail(f"{seat}: expected 'CARDS takes CARDS' (the discard, then the cards drawn)")
    discard = cards_of(Line(line.number, f"{line.key}: {seat}'s discard", thrown), CODEC)
    taken = cards_of(Line(line.number, f"{line.key}: {seat}'s draw", drawn), CODEC)
    if len(discard) != len(taken):
        line.fail(f"{seat} throws {len(discard)} cards but takes {len(taken)}", "EC-PROPOSE")
    return discard, taken


def from_lines(lines: list[Line]) -> dict:
    """The JSON record of a text hand."""
    k = Keys(lines, REQUIRED, OPTIONAL, prefixes=("exchange", "trick"))
    record = {"game": "ecarte", "rules": k.get("rules").value if k.get("rules") else "seed-de",
              "elder": cards_of(k.get("elder"), CODEC, 5, "EC-DEAL"),
              "dealer": cards_of(k.get("dealer"), CODEC, 5, "EC-DEAL"),
              "turnup": cards_of(k.get("turnup"), CODEC, 1)[0]}
    stock: list[str] = []
    exchanges = []
    for ln in k.numbered("exchange"):
        parts = ln.value.split(";")
        if len(parts) != 2:
            ln.fail("expected 'elder CARDS takes CARDS; dealer CARDS takes CARDS'")
        e_disc, e_took = _part(ln, parts[0], "elder")
        d_disc, d_took = _part(ln, parts[1], "dealer")
        exchanges.append({"elder_discard": e_disc, "dealer_discard": d_disc})
        stock += e_took + d_took
    if k.get("stock"):
        stock += cards_of(k.get("stock"), CODEC)
    record["stock"] = stock
    record["exchanges"] = exchanges
    ending = " ".join(k.get("ending").value.lower().split())
    if ending not in ENDINGS:
        k.get("ending").fail(f"expected 'elder plays' or 'dealer refuses', got {k.get('ending').value!r}")
    record["ending"] = ENDINGS[ending]
    king = k.get("king")
    announced = [w for w in (king.tokens() if king else []) if w.lower() != "none"]
    for w in announced:
        if w.lower() not in ("elder", "dealer"):
            king.fail(f"expected 'elder', 'dealer' or 'none', got {w!r}")
    record["announced"] = [w.lower() for w in announced]
    record["tricks"] = [cards_of(ln, CODEC, 2, "EC-FOLLOW") for ln in k.numbered("trick")]
    return k.finish(record)


def to_text(record: dict) -> str:
    """A JSON record (checked by the replay first) in the notation."""
    replay(record)
    out = [f"elder: {' '.join(record['elder'])}", f"dealer: {' '.join(record['dealer'])}",
            f"turnup: {record['turnup']}"]
    drawn = 0
    stock = record["stock"]
    for n, ex in enumerate(record["exchanges"], 1):
        parts = []
        for seat in ("elder", "dealer"):
            disc = ex[f"{seat}_discard"]
            took = stock[drawn:drawn + len(disc)]
            drawn += len(disc)
            parts.append(f"{seat} {' '.join(disc) or '-'} takes {' '.join(took) or '-'}")
        out.append(f"exchange {n}: {'; '.join(parts)}")
    if stock[drawn:]:
        out.append(f"stock: {' '.join(stock[drawn:])}")
    out.append(f"ending: {record['ending'].replace('_', ' ')}")
    out.append(f"king: {' '.join(record['announced']) or 'none'}")
    out += [f"trick {n}: {a} {b}" for n, (a, b) in enumerate(record["tricks"], 1)]
    return text_lines(record, "ecarte", out)

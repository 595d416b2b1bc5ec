"""Declaration analysis for ``salon piquet declare``, and the text of a scored deal.

Reads hands at the edge (``analysis.cards``) and scores them with the reference implementation,
so the command answers at once without compiling kernels.
"""
from __future__ import annotations

from analysis.cards import SUIT_SYMBOLS, parse_cards
from analysis.errors import InputError
from analysis.piquet.reference.policies import point_suit
from analysis.piquet.reference.scoring import (
    has_carte_blanche,
    point_of,
    score_declarations,
    sequences_of,
    sets_of,
)
from analysis.piquet.rules import RANK_NAMES, SEQUENCE_SCORES, PiquetRules, mask_of, name_of

SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}
CATEGORIES = ("carte_blanche", "point", "sequences", "sets", "repique", "total")


def _hand(text: str, who: str, lang: str) -> int:
    try:
        return mask_of(parse_cards(text, count=12, lang=None if lang == "en" else lang))
    except InputError as e:
        raise InputError(f"{who}'s hand: {e}") from None


def combinations(mask: int) -> dict:
    """A hand's combinations: carte blanche, point, every sequence and set, with their values."""
    length, value = point_of(mask)
    suit = point_suit(mask)
    seqs = [{"name": SEQUENCE_NAMES[n], "length": n, "top": name_of(top), "points": SEQUENCE_SCORES[n]}
            for n, top in sequences_of(mask)]
    sets = [{"name": "quatorze" if n == 4 else "trio", "rank": RANK_NAMES[r], "count": n,
             "points": 14 if n == 4 else 3} for n, r in sets_of(mask)]
    return {
        "carte_blanche": has_carte_blanche(mask),
        "point": {"suit": SUIT_SYMBOLS[suit], "length": length, "value": value},
        "sequences": seqs,
        "sets": sets,
    }


def declaration_report(elder: str, younger: str | None, rules: PiquetRules, lang: str = "en") -> dict:
    """``salon piquet declare``: each hand's combinations and, given both, the declarations scored."""
    e = _hand(elder, "elder", lang)
    out = {"rules": rules.name, "elder": {"combinations": combinations(e)}}
    if younger is None:
        return out
    y = _hand(younger, "younger", lang)
    if e & y:
        shared = " ".join(name_of(c) for c in range(32) if (e & y) >> c & 1)
        raise InputError(f"the hands overlap: {shared} in both")
    scored = score_declarations(e, y, rules, has_carte_blanche(e), has_carte_blanche(y))
    out["younger"] = {"combinations": combinations(y)}
    for seat in ("elder", "younger"):
        out[seat].update({k: scored[seat][k] for k in CATEGORIES})
    return out


PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "knaves", "10": "tens", "9": "nines", "8": "eights",
           "7": "sevens"}


def _combination_lines(c: dict, notation) -> list[str]:
    p = c["point"]
    lines = [f"    point {p['length']} in {p['suit']} (value {p['value']})"]
    lines += [f"    {s['name']} to the {notation.names([s['top']])} ({s['points']})" for s in c["sequences"]] \
        or ["    no sequence"]
    lines += [f"    {s['name']} of {s['rank']} ({s['points']})" for s in c["sets"]] or ["    no set"]
    if c["carte_blanche"]:
        lines.insert(0, "    carte blanche")
    return lines


def _holds(c: dict, notation) -> str:
    """A hand's combinations in a sentence: a point of 5 (51), a quint to the ♠A, a quatorze of aces."""
    p = c["point"]
    parts = (["carte blanche"] if c["carte_blanche"] else []) + [f"a point of {p['length']} ({p['value']})"]
    parts += [f"a {s['name']} to the {notation.names([s['top']])}" for s in c["sequences"]]
    parts += [f"a {s['name']} of {PLURALS[s['rank']]}" for s in c["sets"]]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def declare_text(res: dict, notation=None) -> str:
    """The text form of ``declaration_report``: first in a sentence what elder holds (and, given
    both hands, what each scores), the cards in ``notation`` (analysis.piquet.notation); then each
    combination with its value."""
    from analysis.piquet.notation import Notation

    notation = notation or Notation()
    e = res["elder"]["combinations"]
    if "younger" in res:
        first = [f"Elder scores {res['elder']['total']} in declarations and younger {res['younger']['total']} "
                 f"({res['rules']} rules)."]
        for seat in ("elder", "younger"):
            won = [f"{k.replace('_', ' ')} {res[seat][k]}" for k in CATEGORIES[:-1] if res[seat][k]]
            first.append(f"{seat.capitalize()} holds {_holds(res[seat]['combinations'], notation)}"
                         + (f"; scores {', '.join(won)}." if won else "; scores nothing."))
    else:
        first = [f"Elder holds {_holds(e, notation)} ({res['rules']} rules; --vs with younger's twelve cards "
                 "scores them)."]
    lines = first + ["", f"rules {res['rules']}"]
    for seat in ("elder", "younger"):
        if seat not in res:
            continue
        lines.append(f"  {seat}:")
        lines += _combination_lines(res[seat]["combinations"], notation)
    if "younger" in res:
        lines.append("  scored: " + "; ".join(
            f"{seat} " + ", ".join(f"{k.replace('_', ' ')} {res[seat][k]}" for k in CATEGORIES)
            for seat in ("elder", "younger")))
    return "\n".join(lines)


def scores_text(scores: dict, rules: str) -> str:
    """A deal's per-player breakdown as text (``salon piquet replay``)."""
    keys = [k for k in scores["elder"] if k != "total"] + ["total"]
    width = max(len(k) for k in keys)
    lines = [f"rules {rules}", f"  {'':<{width}}  {'elder':>6}  {'younger':>7}"]
    lines += [f"  {k.replace('_', ' '):<{width}}  {scores['elder'][k]:>6}  {scores['younger'][k]:>7}" for k in keys]
    return "\n".join(lines)

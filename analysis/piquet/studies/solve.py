"""``salon piquet solve``: the exact double-dummy value of a Piquet position, its best cards and
the line both players then play (analysis.piquet.players.solver); checked input, JSON and text."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from analysis.cards import parse_cards
from analysis.errors import InputError
from analysis.piquet.rules import PiquetRules, mask_of, name_of

PLAYER = "double-dummy (open hands): both players see every card and play perfectly; a bound, not a legal player"


@dataclass(frozen=True)
class Position:
    """A checked position at a trick's start: both hands (masks), the leader, tricks won so far,
    the running scores of the deal and whether a pique was already made."""

    elder: int
    younger: int
    elder_leads: bool
    e_won: int
    y_won: int
    e_score: int = 0
    y_score: int = 0
    pique_done: bool = False


def _pair(text: str | None, what: str, default: tuple[int, int] | None) -> tuple[int, int] | None:
    if text is None:
        return default
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InputError(f"{what} must be two counts E-Y such as 3-2, not {text!r}")
    return int(parts[0]), int(parts[1])


def parse_position(elder: str, younger: str, leader: str = "elder", won: str | None = None,
                   scores: str | None = None, pique_done: bool = False, lang: str | None = None) -> Position:
    """A position from the command line's strings; every inconsistency is an InputError."""
    hands = []
    for seat, text in (("elder", elder), ("younger", younger)):
        try:
            cards = parse_cards(text, lang=lang)
        except InputError as e:
            raise InputError(f"--{seat}: {e}") from None
        if not 1 <= len(cards) <= 12:
            raise InputError(f"--{seat} holds {len(cards)} cards; a hand in play holds 1 to 12")
        hands.append(mask_of(cards))
    e, y = hands
    ne, ny = bin(e).count("1"), bin(y).count("1")
    if ne != ny:
        raise InputError(f"elder holds {ne} cards and younger {ny}: at a trick's start both hold the same number")
    if e & y:
        both = " ".join(name_of(c) for c in range(32) if (e & y) >> c & 1)
        raise InputError(f"{both} in both hands")
    if leader not in ("elder", "younger"):
        raise InputError(f"--leader must be elder or younger, not {leader!r}")
    default = (0, 0) if ne == 12 else None
    w = _pair(won, "--won", default)
    if w is None:
        raise InputError(f"--won E-Y is required with {ne} cards a hand (E + Y + {ne} = 12)")
    if w[0] + w[1] + ne != 12:
        raise InputError(f"--won {w[0]}-{w[1]} with {ne} cards a hand: the tricks must add up to 12")
    if ne == 12 and leader != "elder":
        raise InputError("elder leads the first trick (PQ-PLAY)")
    if ne < 12 and (w[0] if leader == "elder" else w[1]) == 0:
        raise InputError(f"{leader} leads but has won no trick (the winner of a trick leads the next, PQ-PLAY)")
    s = _pair(scores, "--scores", (0, 0))
    return Position(e, y, leader == "elder", w[0], w[1], s[0], s[1], pique_done)


def _solver_state(pos: Position):
    from analysis.piquet.players.solver import pique_state

    return (pos.elder, pos.younger, 1 if pos.elder_leads else 0, pos.e_won,
            pique_state(pos.e_score, pos.y_score, pos.pique_done))


def _best_of(values: np.ndarray, legal: int, maximise: bool) -> tuple[int, list[int]]:
    codes = [c for c in range(32) if legal >> c & 1]
    v = max(values[c] for c in codes) if maximise else min(values[c] for c in codes)
    return int(v), [c for c in codes if values[c] == v]


def principal_line(pos: Position, rules: np.ndarray, mem: np.ndarray) -> list[dict]:
    """The tricks both players then play, each taking his lowest card among the best: per trick
    the leader, the card led, the card played to it and the winner (names)."""
    from analysis.piquet.players import solver as S

    e, y, el, ewon, pq = _solver_state(pos)
    seat = ("younger", "elder")
    line = []
    while e:
        vals = np.zeros(32, dtype=np.int64)
        S.lead_values(e, y, el, ewon, pq, rules, mem, vals)
        led = _best_of(vals, e if el else y, el == 1)[1][0]
        if el:
            e &= ~(1 << led)
        else:
            y &= ~(1 << led)
        vals[:] = 0
        S.follow_values(e, y, el, led, ewon, pq, rules, mem, vals)
        hf = y if el else e
        fol = _best_of(vals, hf & (0xFF << (led & 24)) or hf, el == 0)[1][0]
        t = 12 - (bin(e | y).count("1") + 1) // 2  # trick number, 0-based
        _, e, y, nel, pq = S.play_reply(e, y, el, led, fol, t, pq, rules)
        line.append({"leader": seat[el], "led": name_of(led), "followed": name_of(fol), "winner": seat[nel]})
        el = int(nel)
        ewon += el
    return line


def solve_answer(pos: Position, rules: PiquetRules) -> dict:
    """The position's value, the leader's best cards, the principal line, nodes and time."""
    from analysis.piquet.players import solver as S

    arr = rules.to_array()
    mem = S.new_memory()
    e, y, el, ewon, pq = _solver_state(pos)
    S.solve(1, 2, 1, 11, -1, arr, S.new_memory(4))  # compiles or loads the search, untimed
    t0 = time.perf_counter()
    value = int(S.solve(e, y, el, ewon, pq, arr, mem))
    seconds = time.perf_counter() - t0
    nodes = int(mem[S.M_NODES])
    vals = np.zeros(32, dtype=np.int64)
    S.lead_values(e, y, el, ewon, pq, arr, mem, vals)
    v2, best = _best_of(vals, e if el else y, el == 1)
    if v2 != value:  # the two searches are independent readings of the same tree
        raise RuntimeError(f"solver disagrees with itself: {value} vs {v2}")
    line = principal_line(pos, arr, mem)
    return {
        "value": value,
        "best": [name_of(c) for c in best],
        "nodes": nodes,
        "seconds": round(seconds, 6),
        "leader": "elder" if pos.elder_leads else "younger",
        "line": line,
        "won": [pos.e_won, pos.y_won],
        "scores": [pos.e_score, pos.y_score],
        "pique_done": pos.pique_done,
        "rules": rules.name,
        "switches": rules.switches(),
        "player": PLAYER,
    }


def solve_text(r: dict, notation=None, verbose: bool = False) -> str:
    """The answer for a card player: the card to lead and what the rest of the deal is worth, in
    the hands' own notation (analysis.piquet.notation; codes by default), then the line both play;
    ``verbose`` adds the solver's description and its work."""
    from analysis.piquet.notation import Notation

    notation = notation or Notation()
    best = [notation.names([c]) for c in r["best"]]
    also = ""
    if len(best) == 2:
        also = f" ({best[1]} is as good)"
    elif len(best) > 2:
        also = f" ({', '.join(best[1:-1])} or {best[-1]} are as good)"
    v = r["value"]
    if v > 0:
        worth = f"elder scores {v} more point{'s' if v != 1 else ''} than younger from here on"
    elif v < 0:
        worth = f"younger scores {-v} more point{'s' if v != -1 else ''} than elder from here on"
    else:
        worth = "elder and younger score alike from here on"
    sign = "+" if v > 0 else ""
    width = max([3] + [len(notation.names([t[k]])) for t in r["line"] for k in ("led", "followed")])
    lines = [
        f"{r['leader'].capitalize()} leads {best[0]}{also}: with both hands open, {worth}.",
        f"Value: {sign}{v} (elder's points from here on minus younger's, {r['rules']} rules, both players seeing "
        "every card and playing their best)",
        "Line (leader's card first, * the winner's):",
    ]
    for i, t in enumerate(r["line"], 13 - len(r["line"])):
        led, fol = notation.names([t["led"]]), notation.names([t["followed"]])
        won = led if t["winner"] == t["leader"] else fol
        lines.append(f"  {i:2d}. {t['leader']:<7} {led:>{width}} {fol:>{width}}  *{won}")
    if verbose:
        lines.append(f"Player: {r['player']}")
        lines.append(f"Searched {r['nodes']:,} positions in {r['seconds'] * 1000:.1f} ms")
    return "\n".join(lines)


__all__ = ["PLAYER", "Position", "parse_position", "principal_line", "solve_answer", "solve_text"]

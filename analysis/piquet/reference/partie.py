"""Piquet reference: playing for the partie in its deciding deals (docs/piquet-engine.md,
"Playing for the partie").

In the deciding deals of a partie (the deal ``partie_deals - 1`` and any tie deal), a ``dd`` or
``search`` player with ``partie=margin`` or ``partie=win`` values each legal card ``c`` in each
world (``dd``: the true hands; ``search``: each drawn hidden hand) by completing the deal along the
double-dummy line after ``c`` (:func:`complete_line`) and scoring the partie as if it ended with the
deal (:func:`partie_value`). :class:`reference/search.StrongPlayer` sums the values over its worlds
and plays the best card (ties: the lowest code).

The line is scored on a branch of the strong players' :class:`reference/search.Table`: a copy of
its running scoresheet (carte blanche, declarations with repique, the tricks so far), each trick of
the line through the same :func:`score_trick` with the trick numbers continuing from the real ones
(trick points, last trick, pique), then :func:`score_cards` (the cards or capot), as the deal's own
scoring does (``reference.checks.check_and_score``).
"""
from __future__ import annotations

from analysis.piquet.reference.cards import (
    ELDER,
    N_TRICKS,
    YOUNGER,
    Trick,
    count,
    follower_wins,
    legal_follows,
    lowest,
    other,
)
from analysis.piquet.reference.scoring import score_cards
from analysis.piquet.rules import PiquetRules, codes_of_mask


def best_card(values, legal: int, maximise: bool) -> int:
    """The legal card of highest (``maximise``) or lowest value; ties: the lowest code."""
    sign = -1 if maximise else 1
    return min(codes_of_mask(legal), key=lambda c: (sign * int(values[c]), c))


def partie_value(objective: str, mine: int, his: int, rules: PiquetRules) -> int:
    """The partie's value to a player with partie total ``mine`` against ``his``, the partie read
    as ending here. ``margin`` (PQ-RUBICON): the winner's margin, ``W - L + rubicon_bonus``, or
    ``W + L + rubicon_bonus`` when the loser is rubiconed (``L < rubicon``), negative when I lose;
    ``win``: +1 or -1. Equal totals: 0 (a tie deal follows, or the partie is drawn)."""
    if mine == his:
        return 0
    sign = 1 if mine > his else -1
    if objective == "win":
        return sign
    w, loser = max(mine, his), min(mine, his)
    margin = w - loser + rules.rubicon_bonus if loser >= rules.rubicon else w + loser + rules.rubicon_bonus
    return sign * margin


def dd_card(line, hands: dict[str, int], leader: str, led: int | None, for_pique: bool) -> int:
    """The card the ``dd`` player to move plays on ``line`` (a Table): his only legal card, else the
    legal card of best solver value (elder highest, younger lowest; ties: the lowest code).
    ``hands`` are the hands now (a card led is no longer in the leader's)."""
    mover = leader if led is None else other(leader)
    legal = hands[mover] if led is None else legal_follows(hands[mover], led)
    if count(legal) == 1:
        return lowest(legal)
    values = line.solve(hands[ELDER], hands[YOUNGER], leader, led, for_pique)
    return best_card(values, legal, mover == ELDER)


def complete_line(table, elder: int, younger: int, leader: str, led: int | None, card: int,
                  for_pique: bool) -> tuple[int, int]:
    """The deal's final totals (elder's, younger's) when ``card`` is played now and every later
    card is the ``dd`` player's in the world of hands ``elder`` and ``younger`` (a card ``led`` to
    this trick no longer in the leader's hand): ``card`` is a lead when ``led`` is None, else the
    reply to ``led``. ``for_pique``: the deciding player's ``play_for_pique``, used for every card
    of the line. ``table`` is not changed."""
    line = table.branch()
    hands = {ELDER: elder, YOUNGER: younger}
    if led is None:
        led, followed = card, None
    else:
        hands[leader] |= 1 << led
        followed = card
    while True:
        leader = play_trick(line, hands, leader, led, followed, for_pique)
        if line.tricks_played == N_TRICKS:
            break
        led = followed = None
    score_cards(line.sheet, line.elder_tricks)
    return line.sheet.points[ELDER]["total"], line.sheet.points[YOUNGER]["total"]


def play_trick(line, hands: dict[str, int], leader: str, led: int | None, followed: int | None,
               for_pique: bool) -> str:
    """One trick of a line: the card led and the reply as given, or the ``dd`` player's when None
    (the solver asked with the line's running scores at the start of the trick); the cards leave
    ``hands``, the trick is scored on ``line`` (:meth:`Table.trick_done`). Returns the winner."""
    follower = other(leader)
    if led is None:
        led = dd_card(line, hands, leader, None, for_pique)
    hands[leader] &= ~(1 << led)
    if followed is None:
        followed = dd_card(line, hands, leader, led, for_pique)
    hands[follower] &= ~(1 << followed)
    winner = follower if follower_wins(led, followed) else leader
    line.trick_done(Trick(leader, led, followed, winner))
    return winner


def partie_card_values(player, worlds, legal: int, leader: str, led: int | None) -> dict[int, int]:
    """The sum over ``worlds`` ((elder, younger) hands, a card led no longer in the leader's) of
    :func:`partie_value` for each legal card of ``player`` (a StrongPlayer whose table knows the
    partie's totals before the deal), from his own view."""
    table, policy = player.table, player.policy
    e0, y0 = table.partie
    totals = dict.fromkeys(codes_of_mask(legal), 0)
    for elder, younger in worlds:
        for c in totals:
            e, y = complete_line(table, elder, younger, leader, led, c, policy.play_for_pique)
            mine, his = (e0 + e, y0 + y) if player.seat == ELDER else (y0 + y, e0 + e)
            totals[c] += partie_value(policy.partie, mine, his, table.rules)
    return totals


__all__ = ["best_card", "complete_line", "dd_card", "partie_card_values", "partie_value", "play_trick"]

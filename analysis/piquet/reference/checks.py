"""Piquet reference: a fully specified deal checked step by step, and scored.

A recorded deal (the hands dealt, the talon, both discards, twelve tricks) is checked against
PQ-DECK, PQ-DEAL, PQ-EX-E, PQ-EX-Y and PQ-PLAY, with a one-line error naming the step and the rule
for anything illegal, and scored through the scoresheet: :func:`check_and_score` is the one
reading of the rules that played deals and recorded ones share.
"""
from __future__ import annotations

from dataclasses import dataclass

from analysis.errors import InputError
from analysis.piquet.reference.cards import (
    ELDER,
    HAND_SIZE,
    N_TRICKS,
    SEATS,
    TALON_SIZE,
    YOUNGER,
    Trick,
    count,
    elder_bounds,
    follower_wins,
    legal_follows,
    mask_of_codes,
    other,
    suit_mask,
    suit_of,
    younger_bounds,
    younger_talon_indices,
)
from analysis.piquet.reference.scoring import (
    Scoresheet,
    has_carte_blanche,
    score_cards,
    score_carte_blanche,
    score_categories,
    score_tricks,
)
from analysis.piquet.rules import PiquetRules, name_of

SUIT_SINGULAR = ("spade", "heart", "diamond", "club")


# ---------------------------------------------------------------------------------------------
# A fully specified deal: checked and scored
# ---------------------------------------------------------------------------------------------

def _fail(step: str, message: str, rule: str | None = None) -> None:
    """Raise the one-line error of an illegal deal: ``step: message (RULE)``."""
    raise InputError(f"{step}: {message}" + (f" ({rule})" if rule else ""))


def _check_codes(codes, where: str) -> list[int]:
    """A list of card codes, each an int 0..31."""
    out = list(codes)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 32:
            _fail(where, f"{c!r} is not a card code 0..31")
    return out


def check_deal(elder_dealt, younger_dealt, talon) -> tuple[int, int, list[int]]:
    """PQ-DEAL, PQ-DECK: 12 cards each, a talon of 8, the 32 cards all distinct.

    Returns the two dealt masks and the talon (top first).
    """
    parts = {"elder": _check_codes(elder_dealt, "deal"),
             "younger": _check_codes(younger_dealt, "deal"),
             "talon": _check_codes(talon, "talon")}
    place = {"elder": "elder's hand", "younger": "younger's hand", "talon": "the talon"}
    seen: dict[int, str] = {}
    for where, cards in parts.items():
        step = "talon" if where == "talon" else f"{where}'s hand"
        for c in cards:
            if c in seen:
                what = "listed twice" if seen[c] == where else f"also in {place[seen[c]]}"
                _fail(step, f"{name_of(c)} is {what}", "PQ-DECK")
            seen[c] = where
    for seat in SEATS:
        if len(parts[seat]) != HAND_SIZE:
            _fail(f"{seat}'s hand", f"{len(parts[seat])} cards dealt, a hand has {HAND_SIZE}",
                  "PQ-DEAL")
    if len(parts["talon"]) != TALON_SIZE:
        _fail("talon", f"{len(parts['talon'])} cards, the talon has {TALON_SIZE}", "PQ-DEAL")
    return mask_of_codes(parts["elder"]), mask_of_codes(parts["younger"]), parts["talon"]


def check_discard(seat: str, dealt: int, discard, lo: int, hi: int, rules: PiquetRules) -> list[int]:
    """PQ-EX-E / PQ-EX-Y: a discard of lo..hi distinct cards from the player's dealt hand."""
    rule = "PQ-EX-E" if seat == ELDER else "PQ-EX-Y"
    step = f"{seat}'s exchange"
    cards = _check_codes(discard, step)
    for i, c in enumerate(cards):
        if c in cards[:i]:
            _fail(step, f"{seat} discards {name_of(c)} twice", rule)
        if not dealt >> c & 1:
            _fail(step, f"{seat} discards {name_of(c)}, which is not in his dealt hand", rule)
    n = len(cards)
    if n < lo:
        _fail(step, f"{seat} exchanges {plural(n, 'card')}, at least {lo} required", rule)
    if n > hi:
        if seat == ELDER:
            why = ""
        elif rules.younger_takes_leftovers:
            why = f" (the talon holds {hi} after elder took {8 - hi})"
        else:
            why = f" ({rules.name}: only the bottom 3 of the talon)"
        _fail(step, f"{seat} exchanges {n} cards, at most {hi} allowed{why}", rule)
    return cards


def check_tricks(elder_hand: int, younger_hand: int, tricks) -> list[Trick]:
    """PQ-PLAY: 12 legal tricks, elder leading the first and each winner the next."""
    tricks = list(tricks)
    if len(tricks) != N_TRICKS:
        _fail("tricks", f"{len(tricks)} tricks recorded, a deal has {N_TRICKS}", "PQ-PLAY")
    hands = {ELDER: elder_hand, YOUNGER: younger_hand}
    played: dict[int, int] = {}
    out: list[Trick] = []
    leader = ELDER
    for n, pair in enumerate(tricks, 1):
        step = f"trick {n}"
        if len(pair) != 2:
            _fail(step, "expected a pair (card led, card played to it)")
        led, followed = _check_codes(pair, step)
        follower = other(leader)
        why_leader = "elder leads the first trick" if n == 1 else \
            f"{leader} won trick {n - 1} and leads"
        for seat, c, verb in ((leader, led, "led"), (follower, followed, "played")):
            if hands[seat] >> c & 1:
                continue
            if c in played:
                _fail(step, f"{name_of(c)} was already played in trick {played[c]}", "PQ-PLAY")
            if seat == leader and hands[follower] >> c & 1:
                _fail(step, f"{follower} led {name_of(c)} but {why_leader}", "PQ-PLAY")
            _fail(step, f"{seat} {verb} {name_of(c)}, which is not in his hand", "PQ-PLAY")
        if not legal_follows(hands[follower], led) >> followed & 1:
            suit = suit_of(led)
            held = count(hands[follower] & suit_mask(suit))
            _fail(step, f"{follower} played {name_of(followed)} but must follow suit with a "
                        f"{SUIT_SINGULAR[suit]} (holds {held})", "PQ-PLAY")
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        played[led] = played[followed] = n
        winner = follower if follower_wins(led, followed) else leader
        out.append(Trick(leader, led, followed, winner))
        leader = winner
    return out


@dataclass
class CheckedDeal:
    """A deal after every step was checked: hands (masks), the cards taken, tricks and scores."""

    elder_dealt: int
    younger_dealt: int
    talon: list[int]
    elder_discard: list[int]
    younger_discard: list[int]
    elder_took: list[int]
    younger_took: list[int]
    elder_hand: int
    younger_hand: int
    tricks: list[Trick]
    sheet: Scoresheet


def check_and_score(rules: PiquetRules, elder_dealt, younger_dealt, talon, elder_discard,
                    younger_discard, tricks, sink=None) -> CheckedDeal:
    """Check a fully specified deal step by step and score it (the one reading of the rules)."""
    e_dealt, y_dealt, talon = check_deal(elder_dealt, younger_dealt, talon)
    e_disc = check_discard(ELDER, e_dealt, elder_discard, *elder_bounds(), rules)
    k = len(e_disc)
    lo, hi = younger_bounds(rules, k)
    y_disc = check_discard(YOUNGER, y_dealt, younger_discard, lo, hi, rules)
    e_took = talon[:k]
    y_took = [talon[t] for t in younger_talon_indices(rules, k, len(y_disc))]
    e_hand = e_dealt & ~mask_of_codes(e_disc) | mask_of_codes(e_took)
    y_hand = y_dealt & ~mask_of_codes(y_disc) | mask_of_codes(y_took)
    played = check_tricks(e_hand, y_hand, tricks)

    sheet = Scoresheet(rules)
    score_carte_blanche(sheet, has_carte_blanche(e_dealt), has_carte_blanche(y_dealt))
    score_categories(sheet, e_hand, y_hand, sink)
    score_tricks(sheet, played)
    score_cards(sheet, sum(t.winner == ELDER for t in played))
    return CheckedDeal(e_dealt, y_dealt, talon, e_disc, y_disc, e_took, y_took, e_hand, y_hand,
                       played, sheet)


def score_deal(rules: PiquetRules, elder_dealt, younger_dealt, talon, elder_discard,
               younger_discard, tricks, sink: dict | None = None) -> dict:
    """Check and re-score a fully specified deal (card codes; tricks as (led, followed) pairs).

    Returns ``{"elder": {...}, "younger": {...}}``, each with the keys of BREAKDOWN_KEYS. Anything
    illegal raises :class:`InputError` with one line naming the step and the rule.
    """
    return check_and_score(rules, elder_dealt, younger_dealt, talon, elder_discard,
                           younger_discard, tricks, sink).sheet.points


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

"""Écarté deal records: JSON in and out, step-by-step validation, replay and re-scoring.

A record is one hand as a JSON object, cards as strings (``"KH"``, ``"10S"``; parsing also takes
``"K♥"``, ``"♥K"``, ``"10h"``, ``"Th"``)::

    {"game": "ecarte", "rules": "seed-de", "switches": {"target": 7},        # switches optional
     "elder": [5 cards], "dealer": [5 cards], "turnup": "7C",
     "stock": [the cards drawn, in drawing order; more may follow],
     "exchanges": [{"elder_discard": [...], "dealer_discard": [...]}, ...],
     "ending": "elder_plays" | "dealer_refuses",
     "announced": ["elder" and/or "dealer"],
     "tricks": [[card led, card played to it], ... 5 pairs]}

``"game"`` may be left out when the other keys are this game's (a record of another game is
named as such: ``this is a piquet record; salon ecarte replay reads ecarte records``).

The cards drawn in each exchange are taken from ``"stock"`` in order (elder's first). An optional
``"source"`` (where the hand came from) and ``"comment"`` are carried along and not checked.
:func:`replay` checks every step against docs/rules.md and raises :class:`InputError` with one line
naming the step and the rule broken; otherwise it re-scores the hand.
"""
from __future__ import annotations

from analysis.ecarte.reference import hand as ref
from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    HAND_SIZE,
    N_TRICKS,
    ROLES,
    STOCK_SIZE,
    can_announce_king,
    dealer_discard_bounds,
    elder_discard_bounds,
    follow_requirement,
    follower_wins,
    legal_follows,
    mask_of_codes,
    penalised_side,
    suit_of,
    trick_points,
    turnup_king_points,
)
from analysis.ecarte.reference.hand import HandResult
from analysis.ecarte.rules import CODEC, VARIANTS, EcarteRules, get_rules, name_of
from analysis.record_files import (  # noqa: F401 (the records API)
    RecordSchema,
    fail_step,
    load_record,
    load_records,
    save_records,
)

REQUIRED_KEYS = ("game", "rules", "elder", "dealer", "turnup", "stock", "exchanges", "ending",
                 "announced", "tricks")
OPTIONAL_KEYS = ("switches", "source", "comment")
EXCHANGE_KEYS = ("elder_discard", "dealer_discard")
ENDINGS = ("elder_plays", "dealer_refuses")
SCHEMA = RecordSchema("ecarte", REQUIRED_KEYS, OPTIONAL_KEYS, get_rules, CODEC, VARIANTS)


_fail = fail_step


def _name(code: int) -> str:
    """A card code as a record writes it: ``KH``, ``10S``."""
    return name_of(code)


_PLACE = {"elder": "elder's hand", "dealer": "dealer's hand", "turnup": "the turn-up",
          "stock": "the stock"}


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def record_from_hand(result: HandResult, rules: EcarteRules) -> dict:
    """The JSON record (a dict) of a hand played by :func:`reference.play_hand`."""
    def names(codes):
        return [_name(c) for c in codes]

    return {
        "game": "ecarte",
        **SCHEMA.rules_entries(rules),
        "elder": names(result.elder_dealt),
        "dealer": names(result.dealer_dealt),
        "turnup": _name(result.turnup),
        "stock": names(result.stock_drawn),
        "exchanges": [{"elder_discard": names(ex.elder_discard),
                       "dealer_discard": names(ex.dealer_discard)} for ex in result.exchanges],
        "ending": result.ending,
        "announced": [role for role in ROLES if result.announced[role]],
        "tricks": [[_name(t.led), _name(t.followed)] for t in result.tricks],
        "source": {"seed": result.seed, "index": result.index, "lane_base": result.lane_base},
    }


# ---------------------------------------------------------------------------------------------
# Reading the structure
# ---------------------------------------------------------------------------------------------

_card = SCHEMA.card  # one card string -> its code
_cards = SCHEMA.cards  # a list of card strings -> codes


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def _deal(record: dict) -> tuple[dict[str, int], int, list[int]]:
    """EC-DEAL, EC-DECK: the hands (masks), turn-up and stock, all cards distinct."""
    elder = _cards(record["elder"], "elder")
    dealer = _cards(record["dealer"], "dealer")
    turnup = _card(record["turnup"], "turnup")
    stock = _cards(record["stock"], "stock")
    seen: dict[int, str] = {}
    places = [("elder", c) for c in elder] + [("dealer", c) for c in dealer]
    places += [("turnup", turnup)] + [("stock", c) for c in stock]
    for where, code in places:
        if code in seen:
            other = "listed twice" if seen[code] == where else f"also in {_PLACE[seen[code]]}"
            _fail(where, f"{_name(code)} is {other}", "EC-DECK")
        seen[code] = where
    for role, cards in ((ELDER, elder), (DEALER, dealer)):
        if len(cards) != HAND_SIZE:
            _fail(role, f"{len(cards)} cards dealt, a hand has {HAND_SIZE}", "EC-DEAL")
    return {ELDER: mask_of_codes(elder), DEALER: mask_of_codes(dealer)}, turnup, stock


def _exchange(n: int, entry, hands: dict[str, int], stock: list[int], drawn: int,
              rules: EcarteRules) -> int:
    """EC-PROPOSE, EC-DEALER-MIN, EC-STOCK: one exchange round; returns the cards drawn so far."""
    step = f"exchange {n}"
    if not isinstance(entry, dict):
        _fail(step, f"expected an object with {' and '.join(EXCHANGE_KEYS)}")
    for key in EXCHANGE_KEYS:
        if key not in entry:
            _fail(step, f"missing key {key!r}")
    for key in entry:
        if key not in EXCHANGE_KEYS:
            _fail(step, f"unknown key {key!r}; valid: {', '.join(EXCHANGE_KEYS)}")
    if drawn == STOCK_SIZE:
        _fail(step, "the stock is empty, so elder must play", "EC-STOCK")
    for role in ROLES:
        discard = _cards(entry[f"{role}_discard"], f"{step}: {role}_discard")
        stock_left = STOCK_SIZE - drawn
        for i, code in enumerate(discard):
            if code in discard[:i]:
                _fail(step, f"{role} discards {_name(code)} twice", "EC-PROPOSE")
            if not hands[role] >> code & 1:
                _fail(step, f"{role} discards {_name(code)}, which is not in his hand",
                      "EC-PROPOSE")
        if role == ELDER:
            (lo, hi), min_rule = elder_discard_bounds(stock_left), "EC-PROPOSE"
        else:
            (lo, hi), min_rule = dealer_discard_bounds(stock_left, rules), "EC-DEALER-MIN"
        k = len(discard)
        if k > stock_left:
            _fail(step, f"{role} discards {k} but the stock holds {stock_left}", "EC-STOCK")
        if k < lo:
            _fail(step, f"{role} discarded {k} cards, at least {lo} required", min_rule)
        if k > hi:  # pragma: no cover - a 5-card hand cannot discard 6 distinct cards
            _fail(step, f"{role} discarded {k} cards, at most {hi} allowed", min_rule)
        if drawn + k > len(stock):
            _fail(step, f"{role} draws {k} but the record's stock lists only "
                        f"{len(stock) - drawn} more card(s)")
        new = stock[drawn:drawn + k]
        hands[role] = hands[role] & ~mask_of_codes(discard) | mask_of_codes(new)
        drawn += k
    return drawn


def _announced(record: dict, hands: dict[str, int], trump: int) -> dict[str, bool]:
    """EC-KING: each announcing side holds the king of trumps, and announces it once."""
    value = record["announced"]
    if not isinstance(value, list):
        _fail("announced", f"expected a list of 'elder'/'dealer', got {type(value).__name__}")
    announced = {ELDER: False, DEALER: False}
    for role in value:
        if role not in ROLES:
            _fail("announced", f"expected 'elder' or 'dealer', got {role!r}")
        if announced[role]:
            _fail("announced", f"{role} announces the king twice; it scores once per hand",
                  "EC-KING")
        if not can_announce_king(hands[role], trump):
            _fail("announced", f"{role} does not hold the king of trumps", "EC-KING")
        announced[role] = True
    return announced


def _tricks(record: dict, hands: dict[str, int], trump: int, rules: EcarteRules) -> int:
    """EC-FOLLOW: 5 legal tricks, elder leading the first, each winner the next; elder's count."""
    tricks = record["tricks"]
    if not isinstance(tricks, list):
        _fail("tricks", f"expected a list of [led, played] pairs, got {type(tricks).__name__}")
    if len(tricks) != N_TRICKS:
        _fail("tricks", f"{len(tricks)} tricks recorded, a hand has {N_TRICKS}", "EC-FOLLOW")
    hands = dict(hands)
    played: dict[int, int] = {}
    leader, elder_tricks = ELDER, 0
    for n, pair in enumerate(tricks, 1):
        step = f"trick {n}"
        if not isinstance(pair, list) or len(pair) != 2:
            _fail(step, "expected a pair [card led, card played to it]")
        led, followed = _card(pair[0], step), _card(pair[1], step)
        follower = DEALER if leader == ELDER else ELDER
        why_leader = "elder leads the first trick" if n == 1 else \
            f"{leader} won trick {n - 1} and leads"
        for role, code, verb in ((leader, led, "led"), (follower, followed, "played")):
            if hands[role] >> code & 1:
                continue
            if code in played:
                _fail(step, f"{_name(code)} was already played in trick {played[code]}",
                      "EC-FOLLOW")
            other = follower if role == leader else leader
            if hands[other] >> code & 1 and role == leader:
                _fail(step, f"{other} led {_name(code)} but {why_leader}", "EC-FOLLOW")
            _fail(step, f"{role} {verb} {_name(code)}, which is not in his hand", "EC-FOLLOW")
        legal = legal_follows(hands[follower], led, trump, rules)
        if not legal >> followed & 1:
            need = follow_requirement(hands[follower], led, trump, rules)
            _fail(step, f"{follower} played {_name(followed)} but {need}", "EC-FOLLOW")
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        played[led] = played[followed] = n
        leader = follower if follower_wins(led, followed, trump) else leader
        elder_tricks += leader == ELDER
    return elder_tricks


def replay(record: dict, rules: EcarteRules | None = None) -> dict:
    """Check every step of a record against the rules and re-score the hand.

    ``rules`` overrides the record's ``"rules"`` and ``"switches"``. Returns ``{"scores":
    {"elder", "dealer"}, "tricks": {"elder", "dealer"}, "breakdown": {...}}``; scores are the hand
    points including the turn-up king and an announced king. An illegal or malformed record raises
    :class:`InputError` naming the step and the rule.
    """
    SCHEMA.check(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    hands, turnup, stock = _deal(record)
    trump = suit_of(turnup)

    exchanges = record["exchanges"]
    if not isinstance(exchanges, list):
        _fail("exchanges", f"expected a list, got {type(exchanges).__name__}")
    drawn = 0
    for n, entry in enumerate(exchanges, 1):
        drawn = _exchange(n, entry, hands, stock, drawn, rules)

    ending = record["ending"]
    if ending not in ENDINGS:
        _fail("ending", f"expected 'elder_plays' or 'dealer_refuses', got {ending!r}")
    if ending == "dealer_refuses" and drawn == STOCK_SIZE:
        _fail("ending", f"dealer_refuses, but the stock is empty after exchange {len(exchanges)}"
                        " so elder cannot propose and must play", "EC-STOCK")
    played_without_proposing = ending == "elder_plays" and not exchanges
    refused_round = len(exchanges) if ending == "dealer_refuses" else None

    announced = _announced(record, hands, trump)
    elder_tricks = _tricks(record, hands, trump, rules)

    penalised = penalised_side(played_without_proposing, refused_round, rules)
    for_tricks = trick_points(elder_tricks, penalised, rules)
    points = {
        ELDER: ref.Points(0, int(announced[ELDER]), for_tricks[ELDER]),
        DEALER: ref.Points(turnup_king_points(turnup), int(announced[DEALER]),
                           for_tricks[DEALER]),
    }
    return {
        "scores": {role: points[role].total for role in ROLES},
        "tricks": {ELDER: elder_tricks, DEALER: N_TRICKS - elder_tricks},
        "breakdown": {
            **{role: {"turnup_king": points[role].turnup_king, "king": points[role].king,
                      "tricks": points[role].tricks} for role in ROLES},
            "rules": rules.name,
            "switches": rules.switches(),
            "rounds": len(exchanges),
            "ending": ending,
            "played_without_proposing": played_without_proposing,
            "refused_round": refused_round,
            "penalised": penalised,
            "winner": ELDER if elder_tricks >= 3 else DEALER,
            "vole": elder_tricks in (0, N_TRICKS),
        },
    }

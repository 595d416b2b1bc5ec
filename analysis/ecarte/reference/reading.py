"""Écarté reference: the reading leads, as docs/ecarte-engine.md ("Policies", "Reading leads") states them.

The reading leads are the learned leads (:mod:`analysis.ecarte.reference.learned`) except that, in
three cases, the leader weights the opponent's allowed cards by ratios read from
``data/reading_ratios.json`` (:func:`reading_ratios`, :func:`reading_row`), which changes six
quantities of the 25 features (``p_nohigher``, ``p_void``, ``p_notrump``, ``e_h``, ``e_s``,
``e_t``, :func:`reading_features`), and the score takes the reading weights of
``data/reading_lead.json`` (:func:`reading_weights`); the models and the choice are the learned
leads' (:func:`reading_lead`). Written from the text of the spec alone, as the plain-Python side of the
differential test against the kernel. :func:`analysis.ecarte.reference.hand.play_hand` calls
:func:`reading_lead_in_play` for the leads of tricks 1 to 4 of a policy that reads
(:func:`uses_reading`) when :func:`reading_row` names a row.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from analysis.ecarte.reference.cards import DEALER, ELDER, rank_of, suit_mask, suit_of
from analysis.ecarte.reference.learned import (
    N_FEATURES,
    N_MODELS,
    LeadKnowledge,
    best_card,
    features_from_odds,
    heuristic_lead_trumps_on,
    knowledge_in_play,
    lead_model,
    lead_score,
    uses_learned_leads,
)
from analysis.ecarte.rules import EcarteRules, codes_of_mask

RATIOS_PATH = Path(__file__).resolve().parents[1] / "data" / "reading_ratios.json"
READING_WEIGHTS_PATH = Path(__file__).resolve().parents[1] / "data" / "reading_lead.json"
N_ROWS = 3          # v = 0 elder played without proposing, 1 elder proposed (dealer refused), 2 dealer refused
N_GROUPS = 16       # g = rank index of a trump, 8 + rank index of a non-trump


@cache
def reading_ratios(variant: str, path: Path = RATIOS_PATH) -> tuple[tuple[int, ...], ...]:
    """The variant's three rows of 16 positive integer ratios ``ratio[v][g]`` from the JSON file."""
    data = json.loads(Path(path).read_text())
    try:
        rows = data["variants"][variant]["ratios"]
    except (KeyError, TypeError) as err:
        raise ValueError(f"{path}: no ratios for variant {variant!r}") from err
    if not (isinstance(rows, list) and len(rows) == N_ROWS
            and all(isinstance(row, list) and len(row) == N_GROUPS for row in rows)
            and all(type(x) is int and x > 0 for row in rows for x in row)):
        raise ValueError(f"{path}: variant {variant!r} needs {N_ROWS} rows of {N_GROUPS} positive integers")
    return tuple(tuple(row) for row in rows)


@cache
def reading_weights(row: int, path: Path = READING_WEIGHTS_PATH) -> tuple[tuple[int, ...], ...]:
    """The 20 models' integer weights (model-major, 25 each) of row ``row`` of the reading file
    (its "weights": one list of 20 models per row v)."""
    data = json.loads(Path(path).read_text())
    blocks = data["weights"]
    if not isinstance(blocks, list) or len(blocks) != N_ROWS:
        raise ValueError(f"{path}: expected {N_ROWS} rows of weights")
    return _block(path, blocks[row], data["features"])


def _block(path, block, features) -> tuple[tuple[int, ...], ...]:
    """One row's 20 models of 25 integers, checked."""
    if len(features) != N_FEATURES or len(block) != N_MODELS or any(len(m) != N_FEATURES for m in block):
        raise ValueError(f"{path}: expected {N_MODELS} models of {N_FEATURES} weights per row")
    if any(type(w) is not int for m in block for w in m):
        raise ValueError(f"{path}: the weights must be integers")
    return tuple(tuple(m) for m in block)


def uses_reading(policy) -> str | None:
    """The variant whose ratios a policy reads (its ``reads``), or None when it does not read.

    Only a heuristic policy with learned leads reads; ``reads`` = ``none`` (the default) does not.
    """
    reads = getattr(policy, "reads", "none")
    return reads if uses_learned_leads(policy) and reads != "none" else None


def reading_row(role: str, played_without_proposing: bool, refused_round: int | None) -> int | None:
    """The row ``v`` the leader ``role`` reads, or None when he leads exactly the learned lead.

    The dealer reads 0 when elder played without proposing; elder reads 2 when the dealer refused
    the first proposal. Row 1 (elder proposed) is never read: the dealer who refused leads exactly
    the learned lead (spec, "Reading leads").
    """
    if role == DEALER:
        return 0 if played_without_proposing else None
    if role == ELDER:
        return 2 if refused_round == 0 else None
    raise ValueError(f"role must be {ELDER!r} or {DEALER!r}, not {role!r}")


def ratio_group(card: int, trump: int) -> int:
    """g: the card's rank index if it is a trump, else 8 + its rank index."""
    return rank_of(card) if suit_of(card) == trump else 8 + rank_of(card)


def holding_chances(knowledge: LeadKnowledge, ratio_row) -> dict[int, float]:
    """pi(a) for each allowed card a (ascending code): min(1.0, (free * r(a)) / S), 0.0 when S = 0."""
    A, t = knowledge.allowed, knowledge.trump
    free = knowledge.opponent_cards - knowledge.required.bit_count()
    r = {a: ratio_row[ratio_group(a, t)] for a in codes_of_mask(A)}
    S = sum(r.values())
    return {a: min(1.0, (free * ra) / S) if S != 0 else 0.0 for a, ra in r.items()}


def _sum_over(chances: dict[int, float], cards: int) -> float:
    """The sum of pi(a) over the cards of a mask, from 0.0 in ascending card code."""
    out = 0.0
    for a in codes_of_mask(cards):
        out = out + chances[a]
    return out


def _absent_over(chances: dict[int, float], cards: int) -> float:
    """The product of 1.0 - pi(a) over the cards of a mask, from 1.0 in ascending card code."""
    out = 1.0
    for a in codes_of_mask(cards):
        out = out * (1.0 - chances[a])
    return out


def reading_features(knowledge: LeadKnowledge, card: int, ratio_row,
                     heuristic_card: int | None = None, chances: dict[int, float] | None = None) -> list[float]:
    """The 25 features of leading ``card`` (of H), in the spec's order, read through ``ratio_row``.

    As :func:`reference/learned.lead_features`, with p_nohigher, p_void, p_notrump, e_h, e_s, e_t
    (and every feature built on them) from the chances pi(a). ``heuristic_card``: the heuristic's
    lead with lead_trumps on, ``chances``: :func:`holding_chances` (both computed when None).
    """
    hand, t = knowledge.hand, knowledge.trump
    if not hand >> card & 1:
        raise ValueError(f"card {card} is not in the hand")
    if heuristic_card is None:
        heuristic_card = heuristic_lead_trumps_on(hand, t)
    if chances is None:
        chances = holding_chances(knowledge, ratio_row)
    A, R = knowledge.allowed, knowledge.required
    suit = suit_mask(suit_of(card))
    higher = suit & ~((2 << card) - 1)
    trumps = suit_mask(t)
    hR = (R & higher).bit_count()
    rS = (R & suit).bit_count()
    rT = (R & trumps).bit_count()
    return features_from_odds(
        knowledge, card, heuristic_card,
        _absent_over(chances, A & higher) if hR == 0 else 0.0,
        _absent_over(chances, A & suit) if rS == 0 else 0.0,
        _absent_over(chances, A & trumps) if rT == 0 else 0.0,
        _sum_over(chances, A & higher) + hR,
        _sum_over(chances, A & suit) + rS,
        _sum_over(chances, A & trumps) + rT)


def reading_scores(knowledge: LeadKnowledge, ratio_row, weights) -> dict[int, float]:
    """Every card of H (ascending code) and its score under the position's reading model.

    ``weights``: the 20 models' weights (model-major) of the row read (:func:`reading_weights`).
    """
    w = weights[lead_model(knowledge.trick, knowledge.won, knowledge.elder)]
    heuristic_card = heuristic_lead_trumps_on(knowledge.hand, knowledge.trump)
    chances = holding_chances(knowledge, ratio_row)
    return {c: lead_score(w, reading_features(knowledge, c, ratio_row, heuristic_card, chances))
            for c in codes_of_mask(knowledge.hand)}


def reading_lead(knowledge: LeadKnowledge, ratio_row, weights) -> int:
    """The reading lead: the card of the highest score, the lowest card code among equal scores."""
    return best_card(reading_scores(knowledge, ratio_row, weights))


def reading_lead_in_play(variant: str, row: int, role: str, play_hand: int, turnup: int, exchanges,
                         announced: dict, tricks, rules: EcarteRules, weights=None) -> int:
    """The reading lead of ``role`` after ``tricks``, reading ``variant``'s row ``row``.

    The other arguments as :func:`reference/learned.learned_lead_in_play`.
    """
    knowledge = knowledge_in_play(role, play_hand, turnup, exchanges, announced, tricks, rules)
    return reading_lead(knowledge, reading_ratios(variant)[row], reading_weights(row) if weights is None else weights)

"""Écarté reference: the learned leads, as docs/ecarte-engine.md ("Policies", "Learned leads") states them.

What the leader knows when he leads (:class:`LeadKnowledge`: his hand ``H``, the trick ``k``, the
tricks he won ``lt``, the required cards ``R``, the excluded cards ``X`` read from the tricks the
opponent followed, the allowed cards ``A``), the 25 features of each card of his hand
(:func:`lead_features`), the model of the position (:func:`lead_model`) and the lead itself, the
card of the highest linear score (:func:`players/learned`). Written from the text of the spec alone,
as the plain-Python side of the differential test against the kernel (players/learned.py); the
weights are read from ``data/learned_lead.json``. :func:`analysis.ecarte.reference.hand.play_hand`
calls :func:`learned_lead_in_play` for the leads of tricks 1 to 4 of a policy with
``leads="learned"``.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    rank_of,
    suit_mask,
    suit_of,
    trump_king,
)
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.rules import EcarteRules, codes_of_mask

WEIGHTS_PATH = Path(__file__).resolve().parents[1] / "data" / "learned_lead.json"
N_FEATURES = 25
N_MODELS = 20
LEARNED_TRICKS = 4          # the leads of tricks 1 to 4 (k = 0..3); the 5th trick has one card
ALL_CARDS = (1 << 32) - 1
FEATURES = (  # the spec's 25 features, in order (the JSON's "features" name the same ones)
    "is_tr", "r / 7", "p_nohigher", "e_h", "p_void * pl", "e_s * pl", "is_tr * ownT", "is_tr * e_t",
    "pl * p_notrump", "pl * ownS", "pl * [own_higher > 0]", "p_win", "p_win * [need <= 1]",
    "p_win * [oneed <= 1]", "is_tr * [ownT >= 2]", "pl * [ownT = 0]", "pl * ownT", "pl * p_void * ownT",
    "pl * lower_own", "is_tr * lower_own", "p_win * is_tr", "pl * single", "pl * single * ownT",
    "pl * p_nohigher * single", "[c = the heuristic's lead with lead_trumps on]",
)
# The heuristic's lead "with lead_trumps on", whatever the player's own lead_trumps.
_LEAD_TRUMPS_ON = HeuristicPolicy(lead_trumps=True)


@cache
def lead_weights(path: Path = WEIGHTS_PATH) -> tuple[tuple[int, ...], ...]:
    """The 20 models' integer weights (model-major, 25 each) from the JSON file."""
    data = json.loads(Path(path).read_text())
    weights = tuple(tuple(int(w) for w in row) for row in data["weights"])
    if len(data["features"]) != N_FEATURES or len(weights) != N_MODELS or any(
            len(row) != N_FEATURES for row in weights):
        raise ValueError(f"{path}: expected {N_MODELS} models of {N_FEATURES} weights")
    if any(not isinstance(w, int) for row in data["weights"] for w in row):
        raise ValueError(f"{path}: the weights must be integers")
    return weights


def uses_learned_leads(policy) -> bool:
    """True for a heuristic policy whose leads are the learned ones (the random policy has none)."""
    return policy.kind == "heuristic" and getattr(policy, "leads", "heuristic") == "learned"


# ---------------------------------------------------------------------------------------------
# What the leader knows
# ---------------------------------------------------------------------------------------------

def follow_exclusions(led: int, followed: int, trump: int, must_trump_when_void: bool) -> int:
    """X from one trick the opponent followed: the cards this follow shows he does not hold.

    A card of another suit than the suit led: no card of the suit led, and, if that card is not a
    trump and ``must_trump_when_void``, no trump either. A card of the suit led of lower rank than
    the card led: no card of that suit above the card led. Otherwise nothing.
    """
    led_suit = suit_of(led)
    if suit_of(followed) != led_suit:
        excluded = suit_mask(led_suit)
        if suit_of(followed) != trump and must_trump_when_void:
            excluded |= suit_mask(trump)
        return excluded
    if rank_of(followed) < rank_of(led):
        return suit_mask(led_suit) & ~((2 << led) - 1)
    return 0


class LeadKnowledge:
    """What one player (``role``, elder or dealer) knows of the hand during the trick play.

    Start it with his hand as play starts, the trump suit, the turn-up, all his own discards
    (every exchange round, a mask) and whether the *opponent* announced the trump king; then
    :meth:`observe` every trick in order. At his lead, ``hand`` is ``H``, ``trick`` is ``k``,
    ``won`` is ``lt``, and :attr:`required`, :attr:`excluded`, :attr:`allowed` are ``R``, ``X``,
    ``A``.
    """

    def __init__(self, role: str, hand: int, trump: int, turnup: int, discards: int,
                 opponent_announced: bool, must_trump_when_void: bool) -> None:
        if role not in (ELDER, DEALER):
            raise ValueError(f"role must be {ELDER!r} or {DEALER!r}, not {role!r}")
        self.role = role
        self.hand = hand
        self.trump = trump
        self.turnup = turnup
        self.discards = discards
        self.opponent_announced = opponent_announced
        self.must_trump_when_void = must_trump_when_void
        self.played = 0         # every card played so far, both players
        self.excluded = 0       # X
        self.trick = 0          # k, tricks played
        self.won = 0            # lt, tricks this player won

    def observe(self, leader: str, led: int, followed: int, winner: str) -> None:
        """One trick played: its cards leave the game; a trick the opponent followed adds to X."""
        if leader == self.role:
            self.hand &= ~(1 << led)
            self.excluded |= follow_exclusions(led, followed, self.trump, self.must_trump_when_void)
        else:
            self.hand &= ~(1 << followed)
        self.played |= 1 << led | 1 << followed
        self.trick += 1
        self.won += winner == self.role

    @property
    def elder(self) -> bool:
        """True when this player is elder."""
        return self.role == ELDER

    @property
    def lost(self) -> int:
        """ft = k - lt, the tricks the opponent won."""
        return self.trick - self.won

    @property
    def opponent_cards(self) -> int:
        """m, the opponent's number of cards (= his own)."""
        return self.hand.bit_count()

    @property
    def required(self) -> int:
        """R: the trump king if the opponent announced it and it has not been played yet."""
        king = 1 << trump_king(self.trump)
        return king if self.opponent_announced and not self.played & king else 0

    @property
    def allowed(self) -> int:
        """A: all 32 cards minus H, the turn-up, his discards, the cards played, X and R."""
        out = self.hand | 1 << self.turnup | self.discards | self.played | self.excluded | self.required
        return ALL_CARDS & ~out


def knowledge_in_play(role: str, play_hand: int, turnup: int, exchanges, announced: dict,
                      tricks, rules: EcarteRules) -> LeadKnowledge:
    """A player's knowledge after the tricks so far, from :func:`reference.play_hand`'s record.

    ``play_hand``: his hand as play started; ``exchanges``: the :class:`reference.Exchange` rounds;
    ``announced``: who announced the king ({role: bool}); ``tricks``: the tricks played
    (``leader, led, followed, winner``).
    """
    opponent = DEALER if role == ELDER else ELDER
    discards = 0
    for ex in exchanges:
        for c in (ex.elder_discard if role == ELDER else ex.dealer_discard):
            discards |= 1 << c
    knowledge = LeadKnowledge(role, play_hand, suit_of(turnup), turnup, discards,
                              bool(announced[opponent]), rules.must_trump_when_void)
    for t in tricks:
        knowledge.observe(t.leader, t.led, t.followed, t.winner)
    return knowledge


# ---------------------------------------------------------------------------------------------
# Features, model, score
# ---------------------------------------------------------------------------------------------

def pw(q: float, n: int) -> float:
    """1.0 multiplied by q n times, left to right."""
    out = 1.0
    for _ in range(n):
        out = out * q
    return out


def heuristic_lead_trumps_on(hand: int, trump: int) -> int:
    """The heuristic's lead (reference/policies.Decisions.lead) with ``lead_trumps`` on."""
    return Decisions(_LEAD_TRUMPS_ON, None, trump).lead(hand)


def lead_features(knowledge: LeadKnowledge, card: int, heuristic_card: int | None = None) -> list[float]:
    """The 25 features of leading ``card`` (of H) in this position, in the spec's order.

    ``heuristic_card``: the heuristic's lead with lead_trumps on (computed when None).
    """
    hand, t = knowledge.hand, knowledge.trump
    if not hand >> card & 1:
        raise ValueError(f"card {card} is not in the hand")
    if heuristic_card is None:
        heuristic_card = heuristic_lead_trumps_on(hand, t)
    A, R = knowledge.allowed, knowledge.required
    m = knowledge.opponent_cards
    suit = suit_mask(suit_of(card))
    higher = suit & ~((2 << card) - 1)
    trumps = suit_mask(t)

    na = A.bit_count()
    free = m - R.bit_count()
    p = free / na if na > 0 else 0.0
    q = 1.0 - p
    hA = (A & higher).bit_count()
    hR = (R & higher).bit_count()
    aS = (A & suit).bit_count()
    rS = (R & suit).bit_count()
    aT = (A & trumps).bit_count()
    rT = (R & trumps).bit_count()
    p_nohigher = pw(q, hA) if hR == 0 else 0.0
    p_void = pw(q, aS) if rS == 0 else 0.0
    p_notrump = pw(q, aT) if rT == 0 else 0.0
    return features_from_odds(knowledge, card, heuristic_card, p_nohigher, p_void, p_notrump, hA * p + hR,
                              aS * p + rS, aT * p + rT)


def features_from_odds(knowledge: LeadKnowledge, card: int, heuristic_card: int, p_nohigher: float,
                       p_void: float, p_notrump: float, e_h: float, e_s: float, e_t: float) -> list[float]:
    """The 25 features of leading ``card``, in the spec's order, given the six quantities that
    depend on the opponent's odds (the learned leads' uniform odds, or the reading leads')."""
    hand, t = knowledge.hand, knowledge.trump
    lt, ft = knowledge.won, knowledge.lost
    s, r = suit_of(card), rank_of(card)
    suit = suit_mask(s)
    higher = suit & ~((2 << card) - 1)
    trumps = suit_mask(t)
    ownS = (hand & suit).bit_count()
    ownT = (hand & trumps).bit_count()
    own_higher = (hand & higher).bit_count()
    lower_own = ownS - own_higher - 1
    is_tr = 1.0 if s == t else 0.0
    pl = 1.0 - is_tr
    p_win = p_nohigher if s == t else p_nohigher * (1 - p_void * (1 - p_notrump))
    need = 3 - lt
    oneed = 3 - ft
    single = 1.0 if ownS == 1 else 0.0

    def ind(x: bool) -> float:
        return 1.0 if x else 0.0

    return [
        is_tr,
        r / 7,
        p_nohigher,
        e_h,
        p_void * pl,
        e_s * pl,
        is_tr * ownT,
        is_tr * e_t,
        pl * p_notrump,
        pl * ownS,
        pl * ind(own_higher > 0),
        p_win,
        p_win * ind(need <= 1),
        p_win * ind(oneed <= 1),
        is_tr * ind(ownT >= 2),
        pl * ind(ownT == 0),
        pl * ownT,
        pl * p_void * ownT,
        pl * lower_own,
        is_tr * lower_own,
        p_win * is_tr,
        pl * single,
        pl * single * ownT,
        pl * p_nohigher * single,
        ind(card == heuristic_card),
    ]


def lead_model(k: int, lt: int, elder: bool) -> int:
    """The model of a lead: (k * (k + 1) / 2 + lt) * 2 + [the leader is elder] (k 0..3, lt 0..k)."""
    if not (0 <= k < LEARNED_TRICKS and 0 <= lt <= k):
        raise ValueError(f"no learned model for trick {k} with {lt} tricks won")
    return (k * (k + 1) // 2 + lt) * 2 + int(elder)


def lead_score(w, f: list[float]) -> float:
    """(((s0 + s1) + s2) + s3) + s4, where sr starts at 0.0 and adds float(w[j]) * f[j] for
    j = r, r + 5, r + 10, r + 15, r + 20 in that order."""
    sums = []
    for r in range(5):
        sr = 0.0
        for j in range(r, N_FEATURES, 5):
            sr += float(w[j]) * f[j]
        sums.append(sr)
    return (((sums[0] + sums[1]) + sums[2]) + sums[3]) + sums[4]


def lead_scores(knowledge: LeadKnowledge, weights=None) -> dict[int, float]:
    """Every card of H (ascending code) and its score under the position's model.

    ``weights``: the 20 models' weights (model-major), the JSON file's when None.
    """
    if weights is None:
        weights = lead_weights()
    w = weights[lead_model(knowledge.trick, knowledge.won, knowledge.elder)]
    heuristic_card = heuristic_lead_trumps_on(knowledge.hand, knowledge.trump)
    return {c: lead_score(w, lead_features(knowledge, c, heuristic_card))
            for c in codes_of_mask(knowledge.hand)}


def best_card(scores: dict[int, float]) -> int:
    """The card of the highest score, the lowest card code among equal scores."""
    best, best_score = -1, 0.0
    for c, score in scores.items():   # ascending card code
        if best < 0 or score > best_score:
            best, best_score = c, score
    return best


def learned_lead(knowledge: LeadKnowledge, weights=None) -> int:
    """The learned lead: the card of the highest score, the lowest card code among equal scores."""
    return best_card(lead_scores(knowledge, weights))


def learned_lead_in_play(role: str, play_hand: int, turnup: int, exchanges, announced: dict,
                         tricks, rules: EcarteRules, weights=None) -> int:
    """The learned lead of ``role`` after ``tricks`` (see :func:`knowledge_in_play`)."""
    return learned_lead(knowledge_in_play(role, play_hand, turnup, exchanges, announced, tricks, rules),
                        weights)


"""The kernel's bit-trick decision functions against the reference's readable ones, position by
position: heuristic lead and follow, the weakest-first order, legal follows and who wins a trick.

The hand-by-hand differential test covers them only on the positions the heuristic reaches; here
every function meets random hands of one to five cards under every trump suit and every lead.
They are Hypothesis properties (derandomized: the same cases on every run, a failure shrunk to a
small hand), each example checking every setting (trump suit, lead_trumps, rules variant), with
as many hands as the loops they replace (1,500 a property; the loops drew 1,500 a setting).
"""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.ecarte.engine import tricks
from analysis.ecarte.engine.deal import weakest
from analysis.ecarte.engine.tricks import beats
from analysis.ecarte.players.heuristic import heuristic_follow, heuristic_lead
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.reference.cards import follower_wins, legal_follows, weakest_first
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.rules import get_rules

HANDS = 1500
PROPERTY = settings(max_examples=HANDS, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# A hand of 1..5 distinct cards, as a mask.
hands = st.lists(st.integers(0, 31), min_size=1, max_size=5, unique=True).map(lambda cs: sum(1 << c for c in cs))
LEAD_POLICIES = {lead_trumps: HeuristicPolicy(lead_trumps=lead_trumps) for lead_trumps in (True, False)}
FOLLOW_RULES = (get_rules(), get_rules("classic", ["must_trump_when_void=false"]))


@PROPERTY
@given(hand=hands)
def test_lead_and_weakest_match_reference(hand):
    """The heuristic's lead (leading trumps or not) and the weakest card, under every trump suit."""
    for t in range(4):
        for lead_trumps, policy in LEAD_POLICIES.items():
            want = Decisions(policy, None, t).lead(hand)
            assert heuristic_lead(hand, t, int(lead_trumps)) == want, (hex(hand), t, lead_trumps)
        assert weakest(hand, t) == weakest_first(hand, t)[0], (hex(hand), t)


# A hand of 1..5 cards and four other cards, each led to it in turn.
hand_and_leads = st.integers(1, 5).flatmap(
    lambda k: st.lists(st.integers(0, 31), min_size=k + 4, max_size=k + 4, unique=True).map(
        lambda cs: (sum(1 << c for c in cs[:-4]), cs[-4:])))


@PROPERTY
@given(hand_leads=hand_and_leads, t=st.integers(0, 3))
def test_follow_matches_reference(hand_leads, t):
    """Legal follows and the heuristic's follow, four led cards a hand, with and without the
    obligation to trump when void (seed-de; classic with must_trump_when_void=false)."""
    hand, leads = hand_leads
    policy = HeuristicPolicy()
    for led in leads:
        for rules in FOLLOW_RULES:
            must = int(rules.must_trump_when_void)
            legal = legal_follows(hand, led, t, rules)
            assert tricks.legal_follows(hand, led, t, must) == legal, (hex(hand), led, t, must)
            want = Decisions(policy, None, t).follow(legal, led)
            assert heuristic_follow(legal, led, t) == want, (hex(hand), led, t, must)


def test_beats_matches_reference_for_every_pair_of_cards():
    for t in range(4):
        for led in range(32):
            for fol in range(32):
                if fol != led:
                    assert bool(beats(fol, led, t)) == follower_wins(led, fol, t), (led, fol, t)

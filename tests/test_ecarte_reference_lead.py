"""The plain-Python reference of Écarté's learned leads (analysis/ecarte/reference/learned.py) against
docs/ecarte-engine.md ("Policies", "Learned leads"): what the leader knows, the 25 features of a
hand-worked position, the model index, the score's order and tie rule, and whole hands played with
``leads="learned"``."""
from __future__ import annotations

import json

import pytest

from analysis.cards import parse_card
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.reference import hand as ref
from analysis.ecarte.reference import learned as RL
from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    follower_wins,
    legal_follows,
    mask_of_codes,
    suit_mask,
)
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.rules import code_of, codes_of_mask, get_rules

S, H, D, C = range(4)
LEARNED = HeuristicPolicy(leads="learned")
HEURISTIC = HeuristicPolicy()
ZERO = [[0] * RL.N_FEATURES for _ in range(RL.N_MODELS)]


def code(text: str) -> int:
    """A card's Écarté code from its name."""
    return code_of(parse_card(text))


def mask(text: str) -> int:
    """The mask of some cards given by name."""
    return mask_of_codes(code(t) for t in text.split())


def suit(s: int) -> int:
    return suit_mask(s)


def one_model(model: int, weights: dict[int, int]) -> list[list[int]]:
    """Weights that are zero everywhere but the given features of one model."""
    table = [row[:] for row in ZERO]
    for j, w in weights.items():
        table[model][j] = w
    return table


# ---------------------------------------------------------------------------------------------
# What the leader knows: X from the tricks the opponent followed, R, A
# ---------------------------------------------------------------------------------------------

def test_void_with_a_plain_card_excludes_the_suit_led_and_trumps_only_when_trumping_is_compulsory():
    led, followed = code("10H"), code("7D")        # trumps spades; the opponent throws a diamond
    assert RL.follow_exclusions(led, followed, S, True) == suit(H) | suit(S)
    assert RL.follow_exclusions(led, followed, S, False) == suit(H)


def test_void_with_a_trump_excludes_only_the_suit_led():
    for must_trump in (True, False):
        assert RL.follow_exclusions(code("10H"), code("8S"), S, must_trump) == suit(H)


def test_a_trump_lead_answered_by_a_plain_card_excludes_all_trumps():
    for must_trump in (True, False):
        assert RL.follow_exclusions(code("9S"), code("KH"), S, must_trump) == suit(S)


def test_following_under_the_card_led_excludes_the_cards_of_the_suit_above_it():
    assert RL.follow_exclusions(code("JH"), code("9H"), S, True) == mask("QH KH")
    assert RL.follow_exclusions(code("10C"), code("7C"), H, True) == mask("AC JC QC KC")
    assert RL.follow_exclusions(code("KD"), code("7D"), H, False) == 0   # nothing above the king
    assert RL.follow_exclusions(code("JH"), code("KH"), S, True) == 0    # he won: nothing shown
    assert RL.follow_exclusions(code("7S"), code("8S"), S, True) == 0


def test_knowledge_reads_only_the_tricks_the_opponent_followed():
    rules = get_rules("seed-de")
    kn = RL.LeadKnowledge(ELDER, mask("8S 10H KH QD 9C"), S, code("7S"), mask("9S 7H"), False,
                          rules.must_trump_when_void)
    kn.observe(ELDER, code("9C"), code("7D"), DEALER)     # he followed void with a plain card
    assert kn.excluded == suit(C) | suit(S)
    assert kn.hand == mask("8S 10H KH QD")
    kn.observe(DEALER, code("AD"), code("QD"), ELDER)     # he led: nothing is read from his lead
    assert kn.excluded == suit(C) | suit(S)
    assert kn.hand == mask("8S 10H KH")
    assert (kn.trick, kn.won, kn.lost) == (2, 1, 1)
    assert kn.played == mask("9C 7D AD QD")
    assert kn.opponent_cards == 3
    # A: 32 cards minus H, the turn-up, his discards, the cards played, X (R is empty).
    gone = mask("8S 10H KH") | mask("7S") | mask("9S 7H") | kn.played | suit(C) | suit(S)
    assert kn.allowed == ((1 << 32) - 1) & ~gone
    assert kn.allowed == mask("8H 9H AH JH QH 8D 9D 10D JD KD")


def test_knowledge_without_compulsory_trumping():
    kn = RL.LeadKnowledge(DEALER, mask("8S 10H KH QD 9C"), S, code("7S"), 0, False, False)
    kn.observe(DEALER, code("9C"), code("7D"), DEALER)
    assert kn.excluded == suit(C)
    assert kn.elder is False


def test_required_is_the_announced_trump_king_until_it_is_played():
    kn = RL.LeadKnowledge(ELDER, mask("8S 10H KH QD 9C"), S, code("7H"), 0, True, True)
    assert kn.required == mask("KS")
    assert not kn.allowed & mask("KS")
    kn.observe(ELDER, code("9C"), code("KS"), DEALER)
    assert kn.required == 0
    # He did not announce it (or the player himself did): nothing is required.
    assert RL.LeadKnowledge(ELDER, mask("8S"), S, code("7H"), 0, False, True).required == 0


def test_knowledge_in_play_gathers_every_rounds_discards_and_the_opponents_announcement():
    rules = get_rules("classic")
    for index in range(300):
        r = ref.play_hand(2, index, rules, LEARNED)
        if r.rounds < 2:
            continue
        for role, start in ((ELDER, r.elder_hand), (DEALER, r.dealer_hand)):
            attr = "elder_discard" if role == ELDER else "dealer_discard"
            kn = RL.knowledge_in_play(role, start, r.turnup, r.exchanges, r.announced, r.tricks[:2], rules)
            assert kn.discards == mask_of_codes(c for ex in r.exchanges for c in getattr(ex, attr))
            assert kn.opponent_announced == r.announced[DEALER if role == ELDER else ELDER]
            assert kn.hand.bit_count() == 3 and kn.trick == 2
        return
    pytest.fail("no hand with two exchange rounds")


# ---------------------------------------------------------------------------------------------
# The features of a hand-worked position
# ---------------------------------------------------------------------------------------------
# Trumps spades, turn-up 7S; elder holds 8S 10H KH QD 9C and discarded 9S 7H 7D 8C. Trick 1: he
# leads 9C, the dealer follows 7C (no club above the 9: X = 10C AC JC QC KC) and elder wins.
# At trick 2 (k = 1, lt = 1, ft = 0): H = 8S 10H KH QD, m = 4, R empty, and
# A = 10S AS JS QS KS | 8H 9H AH JH QH | 8D 9D 10D AD JD KD: na = 16, p = 4/16 = 0.25, q = 0.75,
# so every feature is exact in binary floating point.

Q5 = 243 / 1024      # q^5
Q6 = 729 / 4096      # q^6
Q3 = 27 / 64         # q^3


def worked_position(announced: bool = False, discards: str = "9S 7H 7D 8C") -> RL.LeadKnowledge:
    kn = RL.LeadKnowledge(ELDER, mask("8S 10H KH QD 9C"), S, code("7S"), mask(discards), announced, True)
    kn.observe(ELDER, code("9C"), code("7C"), ELDER)
    return kn


def test_worked_position_knowledge():
    kn = worked_position()
    assert kn.excluded == mask("10C AC JC QC KC")
    assert kn.required == 0
    assert kn.allowed == mask("10S AS JS QS KS 8H 9H AH JH QH 8D 9D 10D AD JD KD")
    assert (kn.trick, kn.won, kn.opponent_cards) == (1, 1, 4)
    assert RL.heuristic_lead_trumps_on(kn.hand, S) == code("KH")   # one trump: the plain king


def test_features_of_the_worked_position_by_hand():
    kn = worked_position()
    # 8S: a trump; higher in A: 10S AS JS QS KS (5); own trumps 1.
    assert RL.lead_features(kn, code("8S")) == [
        1.0, 1 / 7, Q5, 1.25, 0.0, 0.0, 1.0, 1.25, 0.0, 0.0, 0.0, Q5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, Q5, 0.0, 0.0, 0.0, 0.0]
    # 10H: higher in A: AH JH QH (3); hearts in A 5; trumps in A 5; own hearts 2 (KH higher).
    p_win_10h = Q3 * (1 - Q5 * (1 - Q5))
    assert p_win_10h == 23187411 / 2 ** 26
    assert RL.lead_features(kn, code("10H")) == [
        0.0, 3 / 7, Q3, 0.75, Q5, 1.25, 0.0, 0.0, Q5, 2.0, 1.0, p_win_10h, 0.0, 0.0, 0.0, 0.0, 1.0,
        Q5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    # KH: nothing higher (p_nohigher 1); lower own 1 (10H); the heuristic's lead.
    assert RL.lead_features(kn, code("KH")) == [
        0.0, 1.0, 1.0, 0.0, Q5, 1.25, 0.0, 0.0, Q5, 2.0, 0.0, 858793 / 2 ** 20, 0.0, 0.0, 0.0, 0.0,
        1.0, Q5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    # QD: a singleton; higher in A: KD (1); diamonds in A 6.
    p_win_qd = 0.75 * (1 - Q6 * (1 - Q5))
    assert p_win_qd == 10874865 / 2 ** 24
    assert RL.lead_features(kn, code("QD")) == [
        0.0, 6 / 7, 0.75, 0.25, Q6, 1.5, 0.0, 0.0, Q5, 1.0, 0.0, p_win_qd, 0.0, 0.0, 0.0, 0.0, 1.0,
        Q6, 0.0, 0.0, 0.0, 1.0, 1.0, 0.75, 0.0]


def test_features_with_the_trump_king_required():
    # The dealer announced the king of spades and elder kept 9S: R = KS, A has 16 cards
    # (9S 10S AS JS QS and the same hearts and diamonds), free = 4 - 1 = 3, p = 3/16.
    kn = worked_position(announced=True, discards="7H 7D 8C")
    assert kn.required == mask("KS")
    assert kn.allowed.bit_count() == 16
    q = 13 / 16
    f = RL.lead_features(kn, code("8S"))
    assert f[2] == 0.0                     # p_nohigher: KS is required and higher
    assert f[3] == 5 * (3 / 16) + 1        # e_h = hA * p + hR
    assert f[7] == 31 / 16                 # e_t
    assert f[11] == 0.0 and f[20] == 0.0   # p_win
    f = RL.lead_features(kn, code("10H"))
    assert f[8] == 0.0                     # p_notrump: the required KS is a trump
    assert f[11] == (2197 / 4096) * (1 - q ** 5)
    assert f[11] == 2197 * 677283 / 2 ** 32
    assert f[3] == 9 / 16


def test_needs_one_features_follow_the_tricks_won_and_lost():
    kn = worked_position()
    kn.won, kn.trick = 2, 2         # need = 1: feature 12 is p_win; oneed = 3
    f = RL.lead_features(kn, code("KH"))
    assert f[12] == f[11] > 0 and f[13] == 0.0
    kn.won, kn.trick = 0, 2         # oneed = 1: feature 13 is p_win; need = 3
    f = RL.lead_features(kn, code("KH"))
    assert f[13] == f[11] > 0 and f[12] == 0.0


def test_heuristic_card_feature_uses_lead_trumps_on():
    # Two trumps: the heuristic with lead_trumps on leads the higher trump (off, it would lead KH).
    kn = RL.LeadKnowledge(DEALER, mask("8S JS KH 7D"), S, code("7S"), 0, False, True)
    assert [RL.lead_features(kn, c)[24] for c in codes_of_mask(kn.hand)] == [0.0, 1.0, 0.0, 0.0]  # JS
    off = Decisions(HeuristicPolicy(lead_trumps=False), None, S).lead(kn.hand)
    assert off == code("KH")


def test_features_reject_a_card_not_in_hand():
    with pytest.raises(ValueError):
        RL.lead_features(worked_position(), code("9C"))


# ---------------------------------------------------------------------------------------------
# Model, weights, score and ties
# ---------------------------------------------------------------------------------------------

def test_model_index_is_a_bijection_onto_the_20_models():
    models = [RL.lead_model(k, lt, elder) for k in range(4) for lt in range(k + 1) for elder in (False, True)]
    assert sorted(models) == list(range(20))
    assert RL.lead_model(0, 0, True) == 1
    assert RL.lead_model(1, 1, True) == 5
    assert RL.lead_model(3, 3, False) == 18
    occurring = {RL.lead_model(0, 0, True)} | {RL.lead_model(k, lt, e) for k in (1, 2, 3)
                                               for lt in range(1, k + 1) for e in (False, True)}
    assert len(occurring) == 13
    for bad in ((4, 0, True), (1, 2, False), (0, -1, True)):
        with pytest.raises(ValueError):
            RL.lead_model(*bad)


def test_weights_file_holds_20_models_of_25_integers():
    data = json.loads(RL.WEIGHTS_PATH.read_text())
    assert len(data["features"]) == RL.N_FEATURES
    w = RL.lead_weights()
    assert len(w) == 20 and all(len(row) == 25 and all(isinstance(x, int) for x in row) for row in w)
    assert any(any(row) for row in w)


def test_score_runs_five_interleaved_sums():
    # j = 0 and j = 5 (both in s0) cancel before s1 = 1 is added; one chain j = 0..24 would lose
    # the 1 in 1e16 + 1 and return 0.
    f = [0.0] * 25
    f[0], f[1], f[5] = 1e16, 1.0, -1e16
    assert RL.lead_score([1] * 25, f) == 1.0
    chain = 0.0
    for j in range(25):
        chain += f[j]
    assert chain == 0.0


def test_all_zero_weights_lead_the_lowest_card_code():
    kn = worked_position()
    assert set(RL.lead_scores(kn, ZERO).values()) == {0.0}
    assert RL.learned_lead(kn, ZERO) == code("8S")


def test_ties_go_to_the_lowest_card_code_and_the_model_is_the_positions():
    kn = worked_position()   # model 5: k = 1, lt = 1, elder
    assert RL.learned_lead(kn, one_model(5, {0: -1})) == code("10H")      # the plain cards tie at 0
    assert RL.learned_lead(kn, one_model(5, {9: 1})) == code("10H")       # 10H and KH: pl * ownS = 2
    assert RL.learned_lead(kn, one_model(5, {24: 1})) == code("KH")       # the heuristic's card
    assert RL.learned_lead(kn, one_model(5, {1: 1})) == code("KH")        # the highest rank
    assert RL.learned_lead(kn, one_model(5, {21: 1})) == code("QD")       # the plain singleton
    assert RL.learned_lead(kn, one_model(4, {24: 1})) == code("8S")       # another model: all 0
    assert RL.learned_lead(kn, one_model(5, {0: 1})) == code("8S")        # the trump


# ---------------------------------------------------------------------------------------------
# Whole hands with leads="learned"
# ---------------------------------------------------------------------------------------------

def check_tricks(r, rules, policies) -> int:
    """Every trick of a hand obeys the rules and each lead is the policy's; returns how many of
    tricks 1 to 4 were led by the learned score."""
    hands = {ELDER: r.elder_hand, DEALER: r.dealer_hand}
    trump = r.trump_suit
    leader, learned = ELDER, 0
    for k, t in enumerate(r.tricks):
        follower = DEALER if leader == ELDER else ELDER
        assert t.leader == leader
        assert hands[leader] >> t.led & 1
        assert t.followed in codes_of_mask(legal_follows(hands[follower], t.led, trump, rules))
        assert t.winner == (follower if follower_wins(t.led, t.followed, trump) else leader)
        start = r.elder_hand if leader == ELDER else r.dealer_hand
        if k < 4 and RL.uses_learned_leads(policies[leader]):
            kn = RL.knowledge_in_play(leader, start, r.turnup, r.exchanges, r.announced, r.tricks[:k], rules)
            assert kn.hand == hands[leader] and kn.trick == k
            assert RL.lead_model(k, kn.won, leader == ELDER) in range(20)
            assert t.led == RL.learned_lead(kn)
            learned += 1
        elif policies[leader].kind == "heuristic":
            assert t.led == Decisions(policies[leader], None, trump).lead(hands[leader])
        hands[leader] &= ~(1 << t.led)
        hands[follower] &= ~(1 << t.followed)
        leader = t.winner
    assert hands == {ELDER: 0, DEALER: 0}
    return learned


@pytest.mark.parametrize("variant", ["classic", "seed-de"])
def test_learned_hands_obey_the_rules_and_differ_from_the_heuristic(variant):
    rules = get_rules(variant)
    differ_first = differ_outcome = learned = 0
    for index in range(200):
        r = ref.play_hand(1, index, rules, LEARNED)
        h = ref.play_hand(1, index, rules, HEURISTIC)
        learned += check_tricks(r, rules, {ELDER: LEARNED, DEALER: LEARNED})
        # Only the leads change: the deal, exchanges, kings and hands at play are the heuristic's.
        assert r.outcome_vector()[3:11] == h.outcome_vector()[3:11]
        differ_first += r.tricks[0].led != h.tricks[0].led
        differ_outcome += r.outcome_vector() != h.outcome_vector()
        # One learned player against the heuristic, in both seats.
        for pols in ({ELDER: LEARNED, DEALER: HEURISTIC}, {ELDER: HEURISTIC, DEALER: LEARNED}):
            check_tricks(ref.play_hand(1, index, rules, pols[ELDER], pols[DEALER]), rules, pols)
    assert learned >= 200 * 4
    assert differ_first > 0 and differ_outcome > 0


def test_leads_heuristic_and_the_random_policy_are_unchanged():
    rules = get_rules("seed-de")
    explicit = HeuristicPolicy(leads="heuristic")
    learned = 0
    for index in range(100):
        assert (ref.play_hand(4, index, rules, explicit).outcome_vector()
                == ref.play_hand(4, index, rules, HEURISTIC).outcome_vector())
        for pols in ({ELDER: RandomPolicy(), DEALER: LEARNED}, {ELDER: LEARNED, DEALER: RandomPolicy()}):
            learned += check_tricks(ref.play_hand(4, index, rules, pols[ELDER], pols[DEALER]), rules, pols)
    assert learned > 0

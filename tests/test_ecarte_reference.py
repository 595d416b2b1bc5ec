"""The plain-Python Écarté reference (analysis/ecarte/reference/hand.py) against RULES.md.

Rule tests cite RULES.md IDs (EC-...) and, where the German rulebook (seeds/003) states a worked
fact, quote it. Invariant tests play a few thousand seeded hands with both policies under both
variants and check what must hold in every hand.
"""
from __future__ import annotations

import pytest

from analysis.cards import parse_card
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.reference import hand as ref
from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    STOCK_SIZE,
    LazyDeck,
    dealer_discard_bounds,
    elder_discard_bounds,
    follow_requirement,
    follower_wins,
    legal_follows,
    mask_of_codes,
    penalised_side,
    rank_of,
    strength,
    trick_points,
    trump_king,
)
from analysis.ecarte.reference.hand import add_to_game, explain, play_game, play_hand
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.rules import KING, code_of, codes_of_mask, get_rules, name_of
from analysis.rng import Stream

SEED_DE = get_rules("seed-de")
CLASSIC = get_rules("classic")
S, H, D, C = range(4)
HEURISTIC = HeuristicPolicy()
RANDOM = RandomPolicy()
# Always proposes and accepts, and throws every plain card: reaches the end of the stock fast.
GREEDY = HeuristicPolicy(elder_play_threshold=100, dealer_refuse_threshold=100,
                         keep_plain_min_rank=8)


def code(text: str) -> int:
    """A card's Écarté code from its name."""
    return code_of(parse_card(text))


def mask(text: str) -> int:
    """The mask of some cards given by name."""
    return mask_of_codes(code(t) for t in text.split())


def names(m: int) -> set[str]:
    """The names of the cards in a mask."""
    return {name_of(c) for c in codes_of_mask(m)}


# ---------------------------------------------------------------------------------------------
# EC-DECK, EC-DEAL
# ---------------------------------------------------------------------------------------------

def test_ec_deck_rank_order_king_queen_jack_ace_ten():
    """EC-DECK; seed 003: "König, Dame, Bube, Ass, 10, 9, 8, 7 ... Asse NIEDRIG (unterhalb der 10)"."""
    order = [code(f"{r}H") for r in ["7", "8", "9", "10", "A", "J", "Q", "K"]]
    assert order == sorted(order)
    assert follower_wins(code("AH"), code("10H"), S) is False
    assert follower_wins(code("10H"), code("AH"), S) is True
    assert follower_wins(code("AH"), code("JH"), S) is True
    assert follower_wins(code("QH"), code("KH"), S) is True


def test_ec_deal_matches_the_lazy_fisher_yates_of_the_engine_doc():
    """EC-DEAL: positions 0-4 elder, 5-9 dealer, 10 turn-up, 11... the stock in drawing order."""
    for index in range(50):
        r = play_hand(3, index, SEED_DE, GREEDY)
        stream, deck = Stream(3, index, 0), list(range(32))
        order = []
        for p in range(11 + len(r.stock_drawn)):
            j = p + stream.below32(32 - p)
            deck[p], deck[j] = deck[j], deck[p]
            order.append(deck[p])
        assert r.elder_dealt == order[:5]
        assert r.dealer_dealt == order[5:10]
        assert r.turnup == order[10]
        assert r.stock_drawn == order[11:]


def test_ec_turnking_dealer_scores_one_for_a_king_turned_up():
    """EC-TURNKING; seed 003: "Ist die aufgedeckte Karte der Trumpf-König, erhält der Geber 1 Punkt"."""
    kings = 0
    for index in range(400):
        r = play_hand(11, index, SEED_DE, HEURISTIC)
        is_king = rank_of(r.turnup) == KING
        kings += is_king
        assert r.points[DEALER].turnup_king == int(is_king)
        assert r.points[ELDER].turnup_king == 0
        if is_king:  # nobody can hold (and announce) the king that was turned up
            assert not any(r.announced.values())
    assert kings > 0


def test_ec_turnking_turnup_is_a_king_about_one_time_in_eight():
    """RULES.md invariant: the turn-up is a king with probability 1/8 (here within 4 sigma)."""
    n = 20000
    kings = 0
    for index in range(n):
        deck = LazyDeck(Stream(5, index, 0))
        deck.take(10)
        kings += rank_of(deck.next_card()) == KING
    sigma = (n * (1 / 8) * (7 / 8)) ** 0.5
    assert abs(kings - n / 8) < 4 * sigma


# ---------------------------------------------------------------------------------------------
# EC-FOLLOW
# ---------------------------------------------------------------------------------------------

def test_ec_follow_must_follow_suit():
    """EC-FOLLOW: holding only lower cards of the suit led, the follower must still follow."""
    hand = mask("7H 8H KS 9D")
    assert names(legal_follows(hand, code("JH"), S, SEED_DE)) == {"7H", "8H"}


def test_ec_follow_must_overtake_with_a_higher_card_of_the_suit():
    """EC-FOLLOW; seed 003: "Kann der Spieler den Stich gewinnen ..., muss er dies tun"."""
    hand = mask("7H QH KH 8S KS")
    assert names(legal_follows(hand, code("JH"), S, SEED_DE)) == {"QH", "KH"}
    # a trump lead must be overtaken too
    assert names(legal_follows(hand, code("10S"), S, SEED_DE)) == {"KS"}


def test_ec_follow_must_trump_when_void():
    """EC-FOLLOW; seed 003: "Kann der Spieler die Farbe nicht bedienen, muss er einen Trumpf spielen"."""
    hand = mask("7S KS 8D QC AC")
    assert names(legal_follows(hand, code("9H"), S, SEED_DE)) == {"7S", "KS"}
    assert names(legal_follows(hand, code("9H"), S, CLASSIC)) == {"7S", "KS"}


def test_ec_follow_switch_must_trump_when_void_off_frees_the_void_follower():
    """EC-FOLLOW, ``must_trump_when_void=False``: a void follower may play any card."""
    rules = get_rules("classic", {"must_trump_when_void": "false"})
    hand = mask("7S KS 8D QC AC")
    assert legal_follows(hand, code("9H"), S, rules) == hand
    # following suit and overtaking are unaffected by the switch
    assert names(legal_follows(mask("7H QH 8S"), code("9H"), S, rules)) == {"QH"}


def test_ec_follow_void_without_trumps_plays_anything():
    """EC-FOLLOW: void in the suit led and without trumps: the whole hand."""
    hand = mask("8D QC AC")
    assert legal_follows(hand, code("9H"), S, SEED_DE) == hand


def test_ec_follow_who_wins():
    """EC-FOLLOW: a higher card of the suit led or any trump to a plain lead wins; else the leader."""
    assert follower_wins(code("KH"), code("7S"), S)          # trumped
    assert not follower_wins(code("KH"), code("QD"), S)      # discard
    assert not follower_wins(code("10S"), code("9S"), S)     # lower trump
    assert follower_wins(code("10S"), code("JS"), S)


def test_ec_follow_requirement_words():
    """EC-FOLLOW in words, as explain() and record errors print it."""
    assert follow_requirement(mask("7H KH"), code("9H"), S, SEED_DE) == \
        "must win with a higher heart"
    assert follow_requirement(mask("7H KS"), code("9H"), S, SEED_DE) == \
        "must follow with a heart"
    assert follow_requirement(mask("7S KD"), code("9H"), S, SEED_DE) == \
        "is void in hearts and must trump"
    assert follow_requirement(mask("7C KD"), code("9H"), S, SEED_DE) == \
        "is void in hearts and may play any card"


# ---------------------------------------------------------------------------------------------
# EC-POINT, EC-PENALTY
# ---------------------------------------------------------------------------------------------

def test_ec_point_three_or_four_tricks_one_point_all_five_two():
    """EC-POINT; seed 003: "3 oder 4 Stiche zu gewinnen ergibt 1 Punkt, alle 5 Stiche ... 2 Punkte"."""
    for rules in (SEED_DE, CLASSIC):
        assert trick_points(3, None, rules) == {ELDER: 1, DEALER: 0}
        assert trick_points(4, None, rules) == {ELDER: 1, DEALER: 0}
        assert trick_points(5, None, rules) == {ELDER: 2, DEALER: 0}
        assert trick_points(2, None, rules) == {ELDER: 0, DEALER: 1}
        assert trick_points(0, None, rules) == {ELDER: 0, DEALER: 2}


def test_ec_penalty_seed_de_played_without_proposing():
    """EC-PENALTY seed-de; seed 003: "Le point wird zu 2 Punkten für den Geber statt 1; le vole
    ... wird zu 3 Punkten statt 2"."""
    side = penalised_side(True, None, SEED_DE)
    assert side == ELDER
    assert trick_points(2, side, SEED_DE) == {ELDER: 0, DEALER: 2}
    assert trick_points(0, side, SEED_DE) == {ELDER: 0, DEALER: 3}
    # the penalty never changes what elder scores when he wins
    assert trick_points(3, side, SEED_DE) == {ELDER: 1, DEALER: 0}
    assert trick_points(5, side, SEED_DE) == {ELDER: 2, DEALER: 0}


def test_ec_penalty_seed_de_any_refusal_penalises_elder():
    """EC-PENALTY seed-de: a refused proposal, first or later, carries the same risk for elder."""
    for refused_round in (0, 1, 3):
        side = penalised_side(False, refused_round, SEED_DE)
        assert side == ELDER
        assert trick_points(1, side, SEED_DE) == {ELDER: 0, DEALER: 2}
        assert trick_points(0, side, SEED_DE) == {ELDER: 0, DEALER: 3}


def test_ec_penalty_classic_played_without_proposing_two_even_for_the_vole():
    """EC-PENALTY classic: elder played without proposing and took < 3: dealer 2 (vole 2)."""
    side = penalised_side(True, None, CLASSIC)
    assert side == ELDER
    assert trick_points(2, side, CLASSIC) == {ELDER: 0, DEALER: 2}
    assert trick_points(0, side, CLASSIC) == {ELDER: 0, DEALER: 2}


def test_ec_penalty_classic_refused_first_proposal_penalises_dealer():
    """EC-PENALTY classic: dealer refused the first proposal and took < 3: elder scores 2 (vole 2)."""
    side = penalised_side(False, 0, CLASSIC)
    assert side == DEALER
    assert trick_points(3, side, CLASSIC) == {ELDER: 2, DEALER: 0}
    assert trick_points(5, side, CLASSIC) == {ELDER: 2, DEALER: 0}
    # dealer winning after his own refusal scores as usual
    assert trick_points(2, side, CLASSIC) == {ELDER: 0, DEALER: 1}
    assert trick_points(0, side, CLASSIC) == {ELDER: 0, DEALER: 2}


def test_ec_penalty_classic_refused_later_proposal_is_not_penalised():
    """EC-PENALTY classic: only a refusal of the *first* proposal is penalised."""
    assert penalised_side(False, 1, CLASSIC) is None
    assert trick_points(4, None, CLASSIC) == {ELDER: 1, DEALER: 0}
    assert trick_points(1, None, CLASSIC) == {ELDER: 0, DEALER: 1}


def test_ec_penalty_no_penalty_after_exchanges_when_elder_stops_proposing():
    """EC-PENALTY: playing after one or more exchanges is not "playing without proposing"."""
    for rules in (SEED_DE, CLASSIC):
        assert penalised_side(False, None, rules) is None


def test_ec_penalty_in_played_hands_force_first():
    """EC-PENALTY end to end: force_first=0 makes elder play without proposing; a loss costs 2/3."""
    seen = set()
    for index in range(300):
        r = play_hand(21, index, SEED_DE, HEURISTIC, force_first=0)
        assert r.played_without_proposing and r.rounds == 0 and r.ending == "elder_plays"
        assert r.penalised == ELDER
        if r.elder_tricks < 3:
            expected = 3 if r.elder_tricks == 0 else 2
            assert r.points[DEALER].tricks == expected
            seen.add(expected)
    assert seen == {2, 3}


# ---------------------------------------------------------------------------------------------
# EC-PROPOSE, EC-STOCK, EC-DEALER-MIN
# ---------------------------------------------------------------------------------------------

def test_ec_stock_discard_limits_near_the_end_of_the_stock():
    """EC-STOCK: nobody draws more than the stock holds; elder is served first."""
    assert elder_discard_bounds(21) == (1, 5)
    assert elder_discard_bounds(2) == (1, 2)
    assert dealer_discard_bounds(16, SEED_DE) == (1, 5)
    assert dealer_discard_bounds(3, SEED_DE) == (1, 3)
    assert dealer_discard_bounds(0, SEED_DE) == (0, 0)


def test_ec_dealer_min_switch_allows_standing_pat():
    """EC-DEALER-MIN: 1..5 by default; ``dealer_min_discard=0`` allows 0."""
    rules = get_rules("classic", {"dealer_min_discard": "0"})
    assert dealer_discard_bounds(10, rules) == (0, 5)
    assert dealer_discard_bounds(10, CLASSIC) == (1, 5)
    # a heuristic dealer keeping every card (all plain ranks kept) then exchanges none
    keeper = HeuristicPolicy(keep_plain_min_rank=0, elder_play_threshold=100,
                             dealer_refuse_threshold=100)
    pats = 0
    for index in range(100):
        r = play_hand(2, index, rules, GREEDY, keeper)
        for ex in r.exchanges:
            assert ex.dealer_discard == [] and ex.dealer_drawn == []
            pats += 1
    assert pats > 0
    # under the default the same dealer must still take a card while the stock has one
    r = play_hand(2, 0, CLASSIC, GREEDY, keeper)
    left = STOCK_SIZE
    for ex in r.exchanges:
        left -= len(ex.elder_drawn)
        assert len(ex.dealer_discard) == min(1, left)
        left -= len(ex.dealer_drawn)


def test_ec_stock_dealer_discards_nothing_when_elder_empties_the_stock():
    """EC-STOCK: when elder's draw empties the stock the dealer exchanges 0 and is not asked."""
    found = 0
    for index in range(300):
        r = play_hand(8, index, SEED_DE, GREEDY)
        drawn = 0
        for ex in r.exchanges:
            drawn += len(ex.elder_drawn)
            if drawn == STOCK_SIZE:
                assert ex.dealer_discard == [] and ex.dealer_drawn == []
                found += 1
            drawn += len(ex.dealer_drawn)
    assert found > 0


def test_ec_stock_elder_must_play_with_the_stock_empty():
    """EC-STOCK: with the stock empty elder must play; this is not playing without proposing."""
    found = 0
    for index in range(100):
        r = play_hand(8, index, SEED_DE, GREEDY)
        if r.stock_exhausted:
            found += 1
            assert r.ending == "elder_plays"
            assert not r.played_without_proposing and r.penalised is None
            assert len(r.stock_drawn) == STOCK_SIZE
    assert found > 0


def test_random_discards_stay_within_the_bounds():
    """EC-PROPOSE, EC-STOCK, EC-DEALER-MIN: every random discard is within its bounds."""
    for rules in (SEED_DE, get_rules("classic", {"dealer_min_discard": "0"})):
        for index in range(1500):
            r = play_hand(4, index, rules, RANDOM)
            left = STOCK_SIZE
            for ex in r.exchanges:
                lo, hi = elder_discard_bounds(left)
                assert lo <= len(ex.elder_discard) <= hi
                left -= len(ex.elder_drawn)
                lo, hi = dealer_discard_bounds(left, rules)
                assert lo <= len(ex.dealer_discard) <= hi
                left -= len(ex.dealer_drawn)


# ---------------------------------------------------------------------------------------------
# EC-KING
# ---------------------------------------------------------------------------------------------

def test_ec_king_needs_the_king_in_hand_and_scores_once():
    """EC-KING; seed 003: "Die Ansage ist zwingend erforderlich, um den Bonus zu erhalten"."""
    never = HeuristicPolicy(announce_king=False)
    held = 0
    for index in range(600):
        r = play_hand(13, index, SEED_DE, HEURISTIC)
        king = trump_king(r.trump_suit)
        for role, hand in ((ELDER, r.elder_hand), (DEALER, r.dealer_hand)):
            holds = bool(hand >> king & 1)
            assert r.announced[role] == holds       # the heuristic always announces
            assert r.points[role].king == int(holds)
            held += holds
        assert r.points[ELDER].king + r.points[DEALER].king <= 1
        silent = play_hand(13, index, SEED_DE, never)
        assert not any(silent.announced.values())
        assert silent.points[ELDER].king == silent.points[DEALER].king == 0
    assert held > 0


def test_ec_king_drawn_king_counts():
    """EC-KING: the king of trumps drawn in an exchange may be announced (dealt or drawn)."""
    for index in range(2000):
        r = play_hand(17, index, SEED_DE, GREEDY)
        king = trump_king(r.trump_suit)
        if king in r.stock_drawn and r.elder_hand >> king & 1:
            assert r.announced[ELDER] and r.points[ELDER].king == 1
            return
    pytest.fail("no hand with a drawn king of trumps found")


# ---------------------------------------------------------------------------------------------
# Policies (docs/ecarte-engine.md)
# ---------------------------------------------------------------------------------------------

def test_strength_counts_trumps_and_plain_honours():
    """Heuristic strength: trump 3 (+3 K, +2 Q, +1 J); plain K 2; plain Q 1."""
    assert strength(mask("KS QS JS 7S"), S) == 6 + 5 + 4 + 3
    assert strength(mask("KH QH JH AH"), S) == 3
    assert strength(mask("KH 7S"), S) == 2 + 3


def test_heuristic_discard_keeps_kings_and_trumps():
    """Heuristic discard: plain non-kings, weakest first, capped at hi, topped up to lo."""
    d = Decisions(HEURISTIC, Stream(0, 0, 1), S)
    hand = mask("KH QH 7D 9S KS")
    assert d.discard(hand, 1, 5) == sorted([code("QH"), code("7D")])
    assert d.discard(hand, 1, 1) == [code("7D")]          # weakest plain first
    strong = mask("KH KD KS QS JS")
    assert d.discard(strong, 1, 5) == [code("KH")]         # K♥ and K♦ tie on rank: lower suit
    assert d.discard(strong, 0, 5) == []


def test_heuristic_lead_order():
    """Heuristic lead: highest trump with 2+ trumps; plain K; top of longest plain suit; trump."""
    d = Decisions(HEURISTIC, Stream(0, 0, 1), S)
    assert d.lead(mask("7S JS KH 8D 9D")) == code("JS")
    assert d.lead(mask("7S KD KH 8D 9D")) == code("KH")
    assert d.lead(mask("7S QH 8D 9D 10C")) == code("9D")           # longest plain suit
    assert d.lead(mask("7S QH 8H JD 9D")) == code("QH")            # tie: higher top card
    assert d.lead(mask("7S JH 8H QD 9D")) == code("QD")
    assert d.lead(mask("7S JH 8H JD 9D")) == code("JH")            # ties again: lower suit
    assert d.lead(mask("7S")) == code("7S")
    no_trumps_first = Decisions(HeuristicPolicy(lead_trumps=False), Stream(0, 0, 1), S)
    assert no_trumps_first.lead(mask("7S JS KH 8D 9D")) == code("KH")


def test_heuristic_follow_wins_cheaply_or_throws_the_weakest():
    """Heuristic follow: the weakest winning legal card, else the weakest legal card."""
    d = Decisions(HEURISTIC, Stream(0, 0, 1), S)
    assert d.follow(mask("JH QH KH"), code("10H")) == code("JH")
    assert d.follow(mask("7S KS"), code("10H")) == code("7S")
    assert d.follow(mask("8D 7C QD"), code("10H")) == code("7C")


def test_random_policy_consumes_the_choices_stream_in_order():
    """Random policy with force_first=0: no propose draw; the lead is below(5) of elder's hand."""
    for index in range(200):
        r = play_hand(31, index, SEED_DE, RANDOM, force_first=0)
        choices = Stream(31, index, 1)
        king = trump_king(r.trump_suit)
        for hand in (r.elder_hand, r.dealer_hand):
            if hand >> king & 1:
                choices.below(2)  # the holder's announce decision comes first
        assert r.tricks[0].led == codes_of_mask(r.elder_hand)[choices.below(5)]


def test_force_first_one_makes_elder_propose_without_randomness():
    """force_first=1: the first choices draw is the dealer's accept (below(2) == 0)."""
    for index in range(200):
        r = play_hand(32, index, SEED_DE, RANDOM, force_first=1)
        accepted = Stream(32, index, 1).below(2) == 0
        assert (r.rounds >= 1) == accepted
        assert (r.refused_round == 0) == (not accepted)
        assert not r.played_without_proposing


def test_force_response_forces_the_answer_to_the_first_proposal():
    """force_response: 1 refuses, 0 accepts the first proposal, without consuming randomness."""
    for index in range(50):
        refused = play_hand(33, index, CLASSIC, RANDOM, force_first=1, force_response=1)
        assert refused.ending == "dealer_refuses" and refused.refused_round == 0
        assert refused.penalised == DEALER
        accepted = play_hand(33, index, CLASSIC, RANDOM, force_first=1, force_response=0)
        assert accepted.rounds >= 1


# ---------------------------------------------------------------------------------------------
# EC-GAME
# ---------------------------------------------------------------------------------------------

def test_ec_game_king_announced_at_four_wins():
    """EC-GAME; seed 003: a point counts the moment it is scored: a king announced at 4 wins,
    even if the opponent, also at 4, takes the tricks of that hand."""
    scores = {"A": 4, "B": 4}
    awards = [("B", 0), ("A", 1), ("B", 0), ("B", 1)]   # A elder announces, B wins the point
    assert add_to_game(scores, awards, 5) == "A"
    assert scores == {"A": 5, "B": 4}


def test_ec_game_turnup_king_comes_first():
    """EC-GAME: the dealer's turn-up king is scored before anything else in the hand."""
    scores = {"A": 3, "B": 4}
    assert add_to_game(scores, [("B", 1), ("A", 1), ("B", 0), ("A", 2)], 5) == "B"
    assert scores == {"A": 3, "B": 5}
    scores = {"A": 0, "B": 0}
    assert add_to_game(scores, [("B", 1), ("A", 0), ("B", 0), ("A", 2)], 5) is None
    assert scores == {"A": 2, "B": 1}


def test_ec_game_points_in_scoring_order():
    """EC-GAME: a hand's points are added turn-up king, elder's king, dealer's king, tricks."""
    for index in range(300):
        r = play_hand(6, index, SEED_DE, HEURISTIC)
        assert r.points_in_order() == [
            (DEALER, r.points[DEALER].turnup_king), (ELDER, r.points[ELDER].king),
            (DEALER, r.points[DEALER].king), (r.winner, r.points[r.winner].tricks)]
        assert r.points[r.winner].tricks >= 1


@pytest.mark.parametrize("target", [3, 5, 7])
def test_ec_game_played_to_the_target(target):
    """EC-GAME (``target`` switch 3, 5, 7): the game stops the moment a player reaches it."""
    rules = get_rules("seed-de", {"target": str(target)})
    lengths = []
    for g in range(40):
        game = play_game(9, g, rules, HEURISTIC, RANDOM)
        assert game.scores[game.winner] >= target
        loser = "B" if game.winner == "A" else "A"
        assert game.scores[loser] < target
        assert game.hands_played == len(game.hands)
        # replay the scoring: nobody reached the target before the last hand
        scores = {"A": 0, "B": 0}
        for h, hand in enumerate(game.hands):
            elder = game.elder_of(h)
            assert elder == ("A" if h % 2 == 0 else "B")
            assert hand.lane_base == 2 * h and hand.index == g
            pol = {"A": HEURISTIC, "B": RANDOM}
            dealer = "B" if elder == "A" else "A"
            again = play_hand(9, g, rules, pol[elder], pol[dealer], lane_base=2 * h)
            assert again.outcome_vector() == hand.outcome_vector()
            player = {ELDER: elder, DEALER: dealer}
            won = add_to_game(scores, [(player[r], p) for r, p in hand.points_in_order()], target)
            assert (won is not None) == (h == len(game.hands) - 1)
        assert scores == game.scores
        lengths.append(game.hands_played)
    assert max(lengths) > 1


def test_ec_game_longer_targets_take_longer():
    """EC-GAME: a target of 7 takes more hands on average than a target of 3."""
    short = get_rules("seed-de", {"target": "3"})
    long = get_rules("seed-de", {"target": "7"})
    n3 = sum(play_game(1, g, short, HEURISTIC).hands_played for g in range(60))
    n7 = sum(play_game(1, g, long, HEURISTIC).hands_played for g in range(60))
    assert n7 > n3


# ---------------------------------------------------------------------------------------------
# Invariants over many hands
# ---------------------------------------------------------------------------------------------

def expected_trick_points(rules_name: str, e: int, pwp: bool, refused_round) -> dict[str, int]:
    """EC-POINT and EC-PENALTY written out again from the RULES.md table, independently."""
    vole = e in (0, 5)
    if e >= 3:
        pts = 2 if vole else 1
        if rules_name == "classic" and refused_round == 0:
            pts = 2
        return {ELDER: pts, DEALER: 0}
    pts = 2 if vole else 1
    if rules_name == "seed-de" and (pwp or refused_round is not None):
        pts = 3 if vole else 2
    if rules_name == "classic" and pwp:
        pts = 2
    return {ELDER: 0, DEALER: pts}


def check_hand(r: ref.HandResult, rules) -> None:
    """Everything that must hold in every hand."""
    trump = r.trump_suit
    dealt = r.elder_dealt + r.dealer_dealt + [r.turnup] + r.stock_drawn
    assert len(set(dealt)) == len(dealt) == 11 + len(r.stock_drawn) <= 32
    # hands as play starts = dealt - discards + draws, in every exchange
    hands = {ELDER: mask_of_codes(r.elder_dealt), DEALER: mask_of_codes(r.dealer_dealt)}
    discarded = 0
    drawn = []
    for ex in r.exchanges:
        for role, out, new in ((ELDER, ex.elder_discard, ex.elder_drawn),
                               (DEALER, ex.dealer_discard, ex.dealer_drawn)):
            assert len(out) == len(new)
            assert mask_of_codes(out) & ~hands[role] == 0
            hands[role] = hands[role] & ~mask_of_codes(out) | mask_of_codes(new)
            discarded |= mask_of_codes(out)
            drawn += new
        assert hands[ELDER].bit_count() == hands[DEALER].bit_count() == 5
    assert drawn == r.stock_drawn
    assert hands == {ELDER: r.elder_hand, DEALER: r.dealer_hand}
    # all cards accounted for: in a hand at play, discarded, the turn-up, or never drawn
    assert r.elder_hand & r.dealer_hand == 0
    seen = r.elder_hand | r.dealer_hand | discarded | 1 << r.turnup
    assert seen == mask_of_codes(dealt)
    assert (r.elder_hand | r.dealer_hand | discarded).bit_count() == 10 + len(r.stock_drawn)
    # exchanges and ending
    assert r.ending in ("elder_plays", "dealer_refuses")
    assert r.played_without_proposing == (r.ending == "elder_plays" and r.rounds == 0)
    assert r.refused_round == (r.rounds if r.ending == "dealer_refuses" else None)
    # tricks: 5, 10 distinct cards, legal, winners chained
    assert len(r.tricks) == 5
    played = [c for t in r.tricks for c in (t.led, t.followed)]
    assert len(set(played)) == 10
    assert mask_of_codes(played) == r.elder_hand | r.dealer_hand
    live = dict(hands)
    leader = ELDER
    for t in r.tricks:
        follower = DEALER if leader == ELDER else ELDER
        assert t.leader == leader
        assert live[leader] >> t.led & 1
        assert legal_follows(live[follower], t.led, trump, rules) >> t.followed & 1
        assert t.winner == (follower if follower_wins(t.led, t.followed, trump) else leader)
        live[leader] &= ~(1 << t.led)
        live[follower] &= ~(1 << t.followed)
        leader = t.winner
    assert r.elder_tricks == sum(t.winner == ELDER for t in r.tricks)
    # king scored at most once, and only by its holder
    king = trump_king(trump)
    assert not (r.announced[ELDER] and r.announced[DEALER])
    for role, hand in ((ELDER, r.elder_hand), (DEALER, r.dealer_hand)):
        assert r.points[role].king == int(r.announced[role])
        if r.announced[role]:
            assert hand >> king & 1
    # points consistent with the outcome
    tp = expected_trick_points(rules.name, r.elder_tricks, r.played_without_proposing,
                               r.refused_round)
    assert {role: r.points[role].tricks for role in (ELDER, DEALER)} == tp
    assert r.points[DEALER].turnup_king == int(rank_of(r.turnup) == KING)
    assert r.elder_points == r.points[ELDER].king + tp[ELDER]
    assert r.dealer_points == r.points[DEALER].turnup_king + r.points[DEALER].king + tp[DEALER]
    # the outcome vector
    v = r.outcome_vector()
    assert len(v) == 22 and all(isinstance(x, int) and x >= 0 for x in v)
    assert v[:7] == [r.elder_points, r.dealer_points, r.elder_tricks,
                     int(r.ending == "dealer_refuses"), r.rounds,
                     int(r.announced[ELDER]) + 2 * int(r.announced[DEALER]), r.turnup]
    assert v[9:11] == [r.elder_hand, r.dealer_hand]
    assert v[11:21] == played and v[21] == len(r.stock_drawn)


@pytest.mark.parametrize("rules_name", ["seed-de", "classic"])
@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC], ids=["random", "heuristic"])
def test_invariants_over_seeded_hands(rules_name, policy):
    """RULES.md invariants: 5 tricks, 10 distinct cards, every card accounted for, king once,
    points consistent with the outcome; over 2,000 hands per policy and variant."""
    rules = get_rules(rules_name)
    endings = set()
    for index in range(2000):
        r = play_hand(2024, index, rules, policy)
        check_hand(r, rules)
        endings.add((r.ending, r.played_without_proposing))
    assert len(endings) == 3  # played without proposing, played after exchanges, refused


def test_invariants_with_switches_and_mixed_policies():
    """The invariants under overridden switches and with different policies per side."""
    rules = get_rules("classic", {"dealer_min_discard": "0", "must_trump_when_void": "false"})
    for index in range(500):
        check_hand(play_hand(77, index, rules, RANDOM, HEURISTIC), rules)
        check_hand(play_hand(77, index, rules, HEURISTIC, RANDOM, lane_base=6), rules)


def test_play_hand_is_deterministic_and_lanes_differ():
    """Every hand is a pure function of (seed, index, lane_base)."""
    a = [play_hand(5, i, SEED_DE, RANDOM).outcome_vector() for i in range(20)]
    b = [play_hand(5, i, SEED_DE, RANDOM).outcome_vector() for i in range(20)]
    c = [play_hand(5, i, SEED_DE, RANDOM, lane_base=2).outcome_vector() for i in range(20)]
    assert a == b and a != c


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

def test_explain_narrates_the_penalty_and_each_trick():
    """explain(): deal, turn-up, exchanges, each trick with the legal cards, the scoring rule."""
    for index in range(200):
        r = play_hand(40, index, SEED_DE, HEURISTIC, force_first=0)
        if r.elder_tricks == 2:
            break
    text = explain(40, index, SEED_DE, HEURISTIC, force_first=0)
    assert "EC-PENALTY: elder played without proposing and took 2 tricks: dealer scores 2" in text
    assert "Elder plays without proposing" in text
    assert text.count("Trick ") == 5
    assert f"Turn-up {name_of(r.turnup, True)}" in text
    for t in r.tricks:
        assert name_of(t.led, True) in text


def test_explain_narrates_exchanges_and_kings():
    """explain(): proposals, discards and draws, the king announcement, the overridden switches."""
    rules = get_rules("seed-de", {"target": "7"})
    for index in range(500):
        r = play_hand(41, index, rules, GREEDY)
        if r.rounds >= 2 and any(r.announced.values()):
            break
    text = explain(41, index, rules, GREEDY)
    assert "target=7" in text
    assert "Exchange 2 (EC-PROPOSE): elder proposes, dealer accepts." in text
    assert "announces the king of trumps" in text
    assert any(symbol in text for symbol in "♠♥♦♣")

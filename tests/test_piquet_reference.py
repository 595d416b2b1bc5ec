"""The plain-Python Piquet reference (analysis/piquet/reference/deal.py) against RULES.md.

Rule tests cite RULES.md IDs (PQ-...) and docs/piquet-engine.md. Hand-made deals exercise every
tricky case of declarations, repique, pique and the cards; invariant tests play a few hundred
seeded deals with both policies under all three variants and check what must hold in every deal.
"""
from __future__ import annotations

import math
import random

import pytest

from analysis.cards import parse_cards
from analysis.errors import InputError
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference.cards import (
    ALL_CARDS,
    ELDER,
    YOUNGER,
    Trick,
    count,
    deal_cards,
    elder_bounds,
    follower_wins,
    highest,
    legal_follows,
    lowest,
    mask_of_codes,
    other,
    suit_mask,
    younger_bounds,
    younger_talon_indices,
)
from analysis.piquet.reference.checks import check_and_score, score_deal
from analysis.piquet.reference.deal import explain, partie_outcome, play_deal, play_partie
from analysis.piquet.reference.policies import Player, guards, keep_values, point_suit
from analysis.piquet.reference.scoring import (
    BREAKDOWN_KEYS,
    Event,
    Scoresheet,
    best_sequence,
    best_set,
    cards_points,
    category_points,
    compare_point,
    compare_sequences,
    compare_sets,
    has_carte_blanche,
    point_of,
    score_cards,
    score_declarations,
    score_tricks,
    sequences_of,
    sets_of,
)
from analysis.piquet.rules import code_of, codes_of_mask, get_rules, name_of
from analysis.rng import Stream

SEED_DE = get_rules("seed-de")
SEED_NO = get_rules("seed-no")
CAVENDISH = get_rules("cavendish")
VARIANT_NAMES = ("seed-de", "seed-no", "cavendish")
HEURISTIC = HeuristicPolicy()
RANDOM = RandomPolicy()


def codes(text: str) -> list[int]:
    """Card codes from any spelling of analysis.cards (book style ``♠A K Q`` included)."""
    return [code_of(c) for c in parse_cards(text)]


def code(text: str) -> int:
    return codes(text)[0]


def mask(text: str) -> int:
    return mask_of_codes(codes(text))


def names(m: int) -> list[str]:
    return [name_of(c) for c in codes_of_mask(m)]


def declare(elder: str, younger: str, rules=SEED_DE, elder_cb=False, younger_cb=False, sink=None):
    return score_declarations(mask(elder), mask(younger), rules, elder_cb, younger_cb, sink)


def autoplay(elder: int, younger: int, elder_leads: str = "") -> list[tuple[int, int]]:
    """12 legal tricks: elder leads the cards of ``elder_leads`` first while he holds them; a
    leader otherwise leads his highest code; the follower plays his lowest legal code."""
    prefs = codes(elder_leads) if elder_leads else []
    hands, leader, pairs = {ELDER: elder, YOUNGER: younger}, ELDER, []
    for _ in range(12):
        follower = other(leader)
        wanted = [c for c in prefs if hands[leader] >> c & 1] if leader == ELDER else []
        led = wanted[0] if wanted else highest(hands[leader])
        followed = lowest(legal_follows(hands[follower], led))
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        pairs.append((led, followed))
        leader = follower if follower_wins(led, followed) else leader
    return pairs


def full_deal(elder_play: str, younger_play: str, took: str | None = None,
              discard: str | None = None, younger_took: str | None = None):
    """A deal whose hands at play are given: elder exchanged one card (he discarded ``discard``,
    by default the lowest code left over, and took ``took``, by default the first card listed);
    younger none, or with ``younger_took`` one card: the second talon card, which he takes under
    rules where younger takes elder's leftovers. Returns (elder_dealt, younger_dealt, talon,
    elder_discard, younger_discard)."""
    e, y = codes(elder_play), codes(younger_play)
    assert len(e) == 12 and len(y) == 12 and not set(e) & set(y)
    rest = sorted(set(range(32)) - set(e) - set(y))
    x = code(took) if took else e[0]
    d = code(discard) if discard else rest[0]
    others = [c for c in rest if c != d]
    y_disc = []
    if younger_took:
        z = code(younger_took)
        y_disc = [others.pop()]
        y = [c for c in y if c != z] + y_disc
        others.insert(0, z)
    talon = [x] + others
    dealt = [c for c in e if c != x] + [d]
    return dealt, y, talon, [d], y_disc


def score_full(elder_play, younger_play, rules=SEED_DE, elder_leads="", **kw):
    deal = full_deal(elder_play, younger_play, **kw)
    tricks = autoplay(mask(elder_play), mask(younger_play), elder_leads)
    return score_deal(rules, *deal, tricks)


# ---------------------------------------------------------------------------------------------
# PQ-DECK, PQ-DEAL
# ---------------------------------------------------------------------------------------------

def test_pq_deck_codes_and_point_values():
    """PQ-DECK: code 8*suit+rank, a higher card of a suit is a higher bit; A 11, K Q J 10 10."""
    assert code("7S") == 0 and code("AS") == 7 and code("7H") == 8 and code("AC") == 31
    assert point_of(mask("AS KS QS JS 10S 9S 8S 7S")) == (8, 11 + 40 + 9 + 8 + 7)


def test_pq_deal_is_the_engine_shuffle():
    """PQ-DEAL: 31 below32 swaps; elder deck[0:12], younger deck[12:24], talon deck[24:], top first."""
    for index in range(30):
        stream, deck = Stream(7, index, 0), list(range(32))
        for p in range(31):
            j = p + stream.below32(32 - p)
            deck[p], deck[j] = deck[j], deck[p]
        assert deal_cards(7, index) == deck
        r = play_deal(7, index, SEED_DE, HEURISTIC)
        assert r.elder_dealt == deck[:12] and r.younger_dealt == deck[12:24]
        assert r.talon == deck[24:]
        assert sorted(deck) == list(range(32))
    assert deal_cards(7, 0, lane=2) != deal_cards(7, 0, lane=0)


# ---------------------------------------------------------------------------------------------
# PQ-CB
# ---------------------------------------------------------------------------------------------

def test_pq_cb_no_king_queen_or_jack():
    """PQ-CB: carte blanche is a hand without K, Q or J (aces and tens do not spoil it)."""
    assert has_carte_blanche(mask("♠A 10 9 8 7 ♥A 10 9 8 7 ♦A 10"))
    assert not has_carte_blanche(mask("♠A 10 9 8 7 ♥A 10 9 8 7 ♦A J"))
    assert not has_carte_blanche(mask("♠A 10 9 8 7 ♥A 10 9 8 7 ♦A Q"))
    assert not has_carte_blanche(mask("♠A 10 9 8 7 ♥A 10 9 8 7 ♦A K"))


def test_pq_cb_probability_is_exactly_323_in_578956():
    """RULES.md invariant: P(carte blanche) for a named player = C(20,12)/C(32,12) = 323/578956.

    Exact enumeration by the number j of court cards in a 12-card hand: sum_j C(12,j) C(20,12-j)
    covers every hand (Vandermonde) and the hands with carte blanche are exactly j = 0, which
    has_carte_blanche confirms on hands of every j.
    """
    total = math.comb(32, 12)
    by_courts = {j: math.comb(12, j) * math.comb(20, 12 - j) for j in range(13)}
    assert sum(by_courts.values()) == total
    assert math.gcd(by_courts[0], total) * 323 == by_courts[0]
    assert by_courts[0] * 578956 == total * 323
    rng = random.Random(5)
    courts = [c for c in range(32) if c & 7 in (4, 5, 6)]
    plain = [c for c in range(32) if c & 7 not in (4, 5, 6)]
    for j in range(13):
        for _ in range(50):
            hand = rng.sample(courts, j) + rng.sample(plain, 12 - j)
            assert has_carte_blanche(mask_of_codes(hand)) == (j == 0)


def test_pq_cb_frequency_in_dealt_hands():
    """PQ-CB on the engine's deals: elder's and younger's dealt hands, within 5 sigma of 323/578956."""
    n = 40000
    found = 0
    for index in range(n):
        deck = deal_cards(11, index)
        found += has_carte_blanche(mask_of_codes(deck[:12]))
        found += has_carte_blanche(mask_of_codes(deck[12:24]))
    p = 323 / 578956
    expected, sigma = 2 * n * p, math.sqrt(2 * n * p * (1 - p))
    assert abs(found - expected) < 5 * sigma


def test_pq_cb_scores_first_and_counts_towards_repique():
    """PQ-CB, PQ-ORDER, PQ-REPIQUE: carte blanche (10) scores first; 10 + point 5 + two quarts 8
    + quatorze of tens 14 = 37 reaches 30 with younger at 0: repique. Without it, 27: none."""
    elder = "♠A 10 9 8 7 ♥10 9 8 7 ♦10 9 ♣10"
    younger = "♠K Q J ♥A K Q ♦A K 8 7 ♣A 9"
    with_cb = declare(elder, younger, elder_cb=True)
    assert with_cb[ELDER] == {"carte_blanche": 10, "point": 5, "sequences": 8, "sets": 14,
                              "repique": 60, "total": 97}
    assert with_cb[YOUNGER]["total"] == 0
    without = declare(elder, younger)
    assert without[ELDER]["repique"] == 0 and without[ELDER]["total"] == 27
    # The same in a full deal, carte blanche judged on the dealt hand.
    s = score_full(elder, younger, took="AS", discard="7C")
    assert s[ELDER]["carte_blanche"] == 10 and s[ELDER]["repique"] == 60
    assert s[ELDER]["pique"] == 0


def test_pq_cb_judged_on_the_dealt_hand():
    """PQ-CB: a court card discarded does not give carte blanche; one taken in does not spoil it."""
    elder = "♠A 10 9 8 7 ♥10 9 8 7 ♦10 9 ♣10"
    younger = "♠K Q J ♥A K Q ♦A K 8 7 ♣A 9"
    s = score_full(elder, younger, took="AS", discard="QC")   # dealt with QC: no carte blanche
    assert s[ELDER]["carte_blanche"] == 0
    elder_took_court = "♠A 10 9 8 7 ♥10 9 8 7 ♦10 9 ♣J"
    younger2 = "♠K Q J ♥A K Q ♦A K 8 7 ♣A 9"
    s = score_full(elder_took_court, younger2, took="JC", discard="7C")  # dealt without JC
    assert s[ELDER]["carte_blanche"] == 10


def test_pq_cb_younger_blocks_elders_repique():
    """PQ-CB, PQ-REPIQUE (engine doc): younger's carte blanche scores before the declarations, so
    elder's 50 from point, sequences and sets is no repique."""
    elder = "♠A K Q J 10 9 ♥A K ♦A K ♣A K"
    younger = "♥10 9 8 7 ♦10 9 8 7 ♣10 9 8 7"
    assert has_carte_blanche(mask(younger))
    d = declare(elder, younger, younger_cb=True)
    assert d[YOUNGER] == {"carte_blanche": 10, "point": 0, "sequences": 0, "sets": 0,
                          "repique": 0, "total": 10}
    assert d[ELDER]["point"] == 6 and d[ELDER]["sequences"] == 16 and d[ELDER]["sets"] == 28
    assert d[ELDER]["repique"] == 0
    # in a full deal, with play: no pique either
    s = score_full(elder, younger, elder_leads="AS KS QS JS 10S 9S")
    assert s[YOUNGER]["carte_blanche"] == 10
    assert s[ELDER]["repique"] == 0 and s[ELDER]["pique"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-POINT
# ---------------------------------------------------------------------------------------------

def test_pq_point_longest_suit_ties_between_own_suits_by_value():
    """PQ-POINT: a player's point is his longest suit; between his equal suits the higher value."""
    assert point_of(mask("♠A K Q J ♥10 9 8 7 7C")) == (4, 41)
    assert point_of(mask("♠9 8 7 ♥K Q J 10 9")) == (5, 49)


def test_pq_point_longer_wins():
    """PQ-POINT: five cards beat four of any value; the winner scores the number of cards."""
    d = declare("♠J 10 9 8 7 ♥8", "♣A K Q J ♦A K")
    assert d[ELDER]["point"] == 5 and d[YOUNGER]["point"] == 0


def test_pq_point_equal_length_decided_by_value():
    """PQ-POINT: equal length, the higher point value wins (51 against 49)."""
    assert compare_point(mask("♠A K Q J 10"), mask("♥K Q J 10 9")) == ELDER
    assert compare_point(mask("♠K Q J 10 9"), mask("♥A K Q J 10")) == YOUNGER
    d = declare("♠K Q J 10 9", "♥A K Q 10 9 ♦K")
    assert d[YOUNGER]["point"] == 5 and d[ELDER]["point"] == 0


def test_pq_point_equal_length_and_value_nobody_scores():
    """PQ-POINT: both equal: nobody scores the point."""
    assert compare_point(mask("♠A K Q J"), mask("♥A K 10 J")) is None
    d = declare("♠A K Q J 7D", "♥A K 10 J 8C")
    assert d[ELDER]["point"] == 0 and d[YOUNGER]["point"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-SEQ
# ---------------------------------------------------------------------------------------------

def test_pq_seq_maximal_runs_of_three_or_more():
    """PQ-SEQ: maximal runs of >= 3 in one suit, as (length, top code); runs do not span suits."""
    assert sequences_of(mask("♠A K Q J 9 8 7 ♥A K ♦7 8")) == [(3, code("9S")), (4, code("AS"))]
    assert sequences_of(mask("♠A K ♥7 8")) == []
    assert best_sequence(mask("♠10 9 8 ♥Q J 10")) == (3, 5)
    assert best_sequence(mask("♠A K")) == (0, -1)


def test_pq_seq_scores_three_four_fifteen_to_eighteen():
    """PQ-SEQ: 3, 4, 15, 16, 17, 18 for 3..8 cards."""
    for n, pts in zip(range(3, 9), (3, 4, 15, 16, 17, 18), strict=True):
        run = " ".join(f"{r}S" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")[:n])
        assert category_points("sequences", mask(run)) == pts


def test_pq_seq_longer_wins_then_higher_top_card():
    """PQ-SEQ: a quart beats any tierce; equal length, the higher top card."""
    assert compare_sequences(mask("♠10 9 8 7"), mask("♥A K Q")) == ELDER
    assert compare_sequences(mask("♠Q J 10"), mask("♥K Q J")) == YOUNGER
    assert compare_sequences(mask("♠A K"), mask("♥9 8 7")) == YOUNGER


def test_pq_seq_equal_sequences_void_the_whole_category():
    """PQ-SEQ: equal best sequences: nobody scores, not even the player with an extra tierce."""
    d = declare("♠K Q J 10 ♥9 8 7", "♦K Q J 10 ♣A")
    assert d[ELDER]["sequences"] == 0 and d[YOUNGER]["sequences"] == 0
    assert compare_sequences(mask("♠K Q J 10 ♥9 8 7"), mask("♦K Q J 10")) is None


def test_pq_seq_winner_also_scores_his_smaller_sequences():
    """PQ-SEQ: the winner scores all his sequences: quint 15 + tierce 3 against a quart."""
    d = declare("♠A K Q J 10 ♥9 8 7", "♦K Q J 10 ♣A K Q")
    assert d[ELDER]["sequences"] == 18 and d[YOUNGER]["sequences"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-SET
# ---------------------------------------------------------------------------------------------

def test_pq_set_tens_or_higher_only():
    """PQ-SET: four 9s, 8s or 7s are no set; a trio of tens is."""
    assert sets_of(mask("9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7D")) == []
    assert sets_of(mask("10S 10H 10D")) == [(3, 3)]
    d = declare("9S 9H 9D 9C 8S 8H 8D 8C", "10S 10H 10D")
    assert d[YOUNGER]["sets"] == 3 and d[ELDER]["sets"] == 0


def test_pq_set_quatorze_beats_trio():
    """PQ-SET: a quatorze of tens beats a trio of aces; the winner scores all his sets."""
    assert compare_sets(mask("AS AH AD"), mask("10S 10H 10D 10C")) == YOUNGER
    d = declare("AS AH AD", "10S 10H 10D 10C KS KH KD")
    assert d[YOUNGER]["sets"] == 14 + 3 and d[ELDER]["sets"] == 0


def test_pq_set_same_kind_higher_rank_wins():
    """PQ-SET: quatorze against quatorze, trio against trio: the higher rank."""
    assert compare_sets(mask("KS KH KD KC 10S 10H 10D"), mask("QS QH QD QC")) == ELDER
    assert compare_sets(mask("JS JH JD"), mask("QS QH QD")) == YOUNGER
    assert best_set(mask("KS KH KD AS AH AD")) == (3, 7)
    assert best_set(mask("KS KH KD KC AS AH AD")) == (4, 6)
    d = declare("KS KH KD KC 10S 10H 10D", "QS QH QD QC")
    assert d[ELDER]["sets"] == 17 and d[YOUNGER]["sets"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-ORDER, PQ-REPIQUE
# ---------------------------------------------------------------------------------------------

REPIQUE_ELDER = "♠A K Q J 10 9 ♥A 7 ♦A 7 ♣A 7"      # point 6, sixième 16, quatorze of aces 14
REPIQUE_YOUNGER = "♥K Q J 9 8 ♦K Q J 9 8 ♣K Q"


def test_pq_repique_elder():
    """PQ-REPIQUE: 6 + 16 + 14 = 36 from declarations, younger at 0: +60."""
    d = declare(REPIQUE_ELDER, REPIQUE_YOUNGER)
    assert d[ELDER] == {"carte_blanche": 0, "point": 6, "sequences": 16, "sets": 14,
                        "repique": 60, "total": 96}
    assert d[YOUNGER]["total"] == 0


def test_pq_repique_for_younger():
    """PQ-REPIQUE: either player can repique: younger with the same cards against elder's."""
    d = declare(REPIQUE_YOUNGER, REPIQUE_ELDER)
    assert d[YOUNGER]["repique"] == 60 and d[YOUNGER]["total"] == 96
    assert d[ELDER]["total"] == 0


def test_pq_repique_blocked_by_younger_winning_the_point():
    """PQ-ORDER, PQ-REPIQUE: younger wins the point (6 diamonds), so elder's later 30 for two quints
    and 14 for the aces is no repique."""
    elder = "♠A K Q J 10 ♥A K Q J 10 ♦A ♣A"
    younger = "♦K Q J 9 8 7 ♣K Q 9 7 ♠9 ♥9"
    d = declare(elder, younger)
    assert d[YOUNGER]["point"] == 6
    assert d[ELDER] == {"carte_blanche": 0, "point": 0, "sequences": 30, "sets": 14,
                        "repique": 0, "total": 44}


def test_pq_repique_sinking_the_point():
    """Sinking (RULES.md): a sunk category is declared as nothing; here younger sinking his point
    hands it to elder, who then repiques."""
    elder = "♠A K Q J 10 ♥A K Q J 10 ♦A ♣A"
    younger = "♦K Q J 9 8 7 ♣K Q 9 7 ♠9 ♥9"
    d = declare(elder, younger, sink={YOUNGER: {"point"}})
    assert d[ELDER]["point"] == 5 and d[ELDER]["repique"] == 60
    d = declare(elder, younger, sink={ELDER: {"point", "sequences", "sets"}})
    assert d[ELDER]["total"] == 0 and d[YOUNGER]["point"] == 6 and d[YOUNGER]["sequences"] == 6
    with pytest.raises(InputError, match="sink: unknown category 'quint'"):
        declare(elder, younger, sink={ELDER: {"quint"}})


def test_pq_repique_in_a_full_deal_excludes_pique():
    """PQ-PIQUE: no pique with a repique in the same deal, although elder keeps scoring in play."""
    s = score_full(REPIQUE_ELDER, REPIQUE_YOUNGER, elder_leads="AS KS QS JS 10S 9S")
    assert s[ELDER]["repique"] == 60 and s[ELDER]["pique"] == 0
    assert s[YOUNGER]["repique"] == 0 and s[YOUNGER]["pique"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-PIQUE
# ---------------------------------------------------------------------------------------------

PIQUE_ELDER = "♠A K Q J 10 9 ♥A 7 ♦A 7 ♣8 7"   # point 6 (60), sixième 16, trio of aces 3: 25
PIQUE_YOUNGER = "♥K Q J 10 9 8 ♦K Q J 10 9 8"   # point 6 (57), sixième to the king


def test_pq_pique_elder_reaches_30_in_play_before_younger_scores():
    """PQ-PIQUE, seed-de: 25 from declarations, +1 for each lead of ♠A K Q J 10: 30 at the fifth
    lead with younger at 0: +30. Elder leads 11 tricks and wins 10 (cards 10); younger wins
    trick 11 (+1), leads trick 12 (+1) and wins it (+1 last)."""
    s = score_full(PIQUE_ELDER, PIQUE_YOUNGER, elder_leads="AS KS QS JS 10S 9S 8C 7C AD AH 7D")
    assert s[ELDER] == {"carte_blanche": 0, "point": 6, "sequences": 16, "sets": 3, "repique": 0,
                        "pique": 30, "trick_points": 11, "cards": 10, "capot": 0, "total": 76,
                        "tricks": 10}
    assert s[YOUNGER] == {"carte_blanche": 0, "point": 0, "sequences": 0, "sets": 0,
                          "repique": 0, "pique": 0, "trick_points": 3, "cards": 0, "capot": 0,
                          "total": 3, "tricks": 2}


def test_pq_pique_seed_no_counts_tricks_won():
    """PQ-PIQUE, PQ-TRICK seed-no: 25 + 1 first lead + 1 per trick won: 30 after trick 4."""
    deal = full_deal(PIQUE_ELDER, PIQUE_YOUNGER)
    tricks = autoplay(mask(PIQUE_ELDER), mask(PIQUE_YOUNGER), "AS KS QS JS 10S 9S 8C 7C AD AH 7D")
    r = check_and_score(SEED_NO, *deal, tricks)
    pique = [e for e in r.sheet.events if e.category == "pique"]
    assert pique == [Event("trick 4", ELDER, "pique", 30, "pique")]
    assert r.sheet.points[ELDER]["trick_points"] == 1 + 10
    r = check_and_score(SEED_DE, *deal, tricks)
    assert [e.step for e in r.sheet.events if e.category == "pique"] == ["trick 5"]


def test_pq_pique_blocked_by_any_younger_score():
    """PQ-PIQUE: elder leads ♦7 first and younger wins it (+1): elder later passes 30, no pique."""
    s = score_full(PIQUE_ELDER, PIQUE_YOUNGER, elder_leads="7D AS KS QS JS 10S 9S")
    assert s[YOUNGER]["trick_points"] >= 1
    e = s[ELDER]
    assert e["point"] + e["sequences"] + e["sets"] + e["trick_points"] >= 30
    assert e["pique"] == 0


def test_pq_pique_elder_only():
    """PQ-PIQUE: younger scoring 30 in play before elder scores gets nothing extra."""
    sheet = Scoresheet(SEED_DE)
    sheet.declare("point", YOUNGER, "point", 29)
    sheet.play("trick 1", YOUNGER, 1, "lead")
    assert sheet.points[YOUNGER]["pique"] == 0 and not sheet.piqued
    sheet = Scoresheet(SEED_DE)
    sheet.declare("point", ELDER, "point", 29)
    sheet.play("trick 1", ELDER, 1, "lead")
    assert sheet.points[ELDER]["pique"] == 30 and sheet.points[ELDER]["total"] == 60
    sheet.play("trick 2", ELDER, 1, "lead")
    assert sheet.points[ELDER]["pique"] == 30   # once per deal


def test_pq_pique_cards_and_capot_do_not_count():
    """PQ-PIQUE: the cards bonus is added after play and never makes a pique."""
    sheet = Scoresheet(SEED_DE)
    sheet.declare("point", ELDER, "point", 25)
    score_cards(sheet, 12)
    assert sheet.points[ELDER]["capot"] == 40 and sheet.points[ELDER]["pique"] == 0


# ---------------------------------------------------------------------------------------------
# PQ-TRICK, PQ-LAST, PQ-CARDS
# ---------------------------------------------------------------------------------------------

def scripted_tricks() -> list[Trick]:
    """Elder leads and wins 1-3; elder leads 4, younger wins; younger leads and wins 5-6; younger
    leads 7, elder wins; elder leads and wins 8-12. (Cards are irrelevant to the points.)"""
    plan = [(ELDER, ELDER)] * 3 + [(ELDER, YOUNGER)] + [(YOUNGER, YOUNGER)] * 2
    plan += [(YOUNGER, ELDER)] + [(ELDER, ELDER)] * 5
    return [Trick(leader, 0, 1, winner) for leader, winner in plan]


@pytest.mark.parametrize("name, elder, younger", [
    ("seed-de", 9 + 1 + 1, 3 + 1),      # leads, wins against the lead, last trick
    ("cavendish", 9 + 1 + 1, 3 + 1),
    ("seed-no", 1 + 9 + 1, 3),          # first lead, tricks won, last trick
])
def test_pq_trick_points_per_variant(name, elder, younger):
    """PQ-TRICK, PQ-LAST: seed-de / cavendish +1 per lead and per trick won against the lead;
    seed-no +1 to elder for the first lead and +1 per trick won; +1 for the last trick."""
    sheet = Scoresheet(get_rules(name))
    score_tricks(sheet, scripted_tricks())
    assert sheet.points[ELDER]["trick_points"] == elder
    assert sheet.points[YOUNGER]["trick_points"] == younger


def test_pq_last_trick_switch():
    """PQ-LAST: the winner of trick 12 scores ``last_trick`` more (switch)."""
    sheet = Scoresheet(get_rules("seed-de", {"last_trick": "5"}))
    score_tricks(sheet, scripted_tricks())
    assert sheet.points[ELDER]["trick_points"] == 9 + 1 + 5


CAPOT_ELDER = "♠A K Q J 10 9 8 7 ♥A K Q J"
CAPOT_YOUNGER = "♥10 9 8 7 ♦A K Q J 10 9 ♣A K"


@pytest.mark.parametrize("name, trick_points", [("seed-de", 13), ("seed-no", 14), ("cavendish", 13)])
def test_pq_cards_capot_replaces_the_cards(name, trick_points):
    """PQ-CARDS: all 12 tricks: capot 40 instead of the 10; PQ-TRICK: 12 leads + last (seed-de),
    first lead + 12 won + last (seed-no). Point 8 + huitième 18 + quart 4 = 30: repique."""
    rules = get_rules(name)
    s = score_full(CAPOT_ELDER, CAPOT_YOUNGER, rules=rules,
                   younger_took="AC" if rules.younger_min else None)
    assert s[ELDER] == {"carte_blanche": 0, "point": 8, "sequences": 22, "sets": 0, "repique": 60,
                        "pique": 0, "trick_points": trick_points, "cards": 0, "capot": 40,
                        "total": 130 + trick_points, "tricks": 12}
    assert s[YOUNGER]["total"] == 0 and s[YOUNGER]["tricks"] == 0


def test_pq_cards_bonus_rules():
    """PQ-CARDS: 7 to 11 tricks +10, 12 capot 40 instead, 6-6 nobody, fewer than 6 nothing."""
    for won in range(13):
        bonus, capot = cards_points(won, SEED_DE)
        assert (bonus, capot) == ((0, 40) if won == 12 else (10, 0) if won >= 7 else (0, 0))


def test_pq_cards_six_six_nobody_scores_the_cards():
    """PQ-CARDS: a 6-6 deal played out: no cards bonus and no capot for either."""
    seen = 0
    for index in range(200):
        r = play_deal(3, index, SEED_DE, HEURISTIC, RANDOM)
        if r.scores[ELDER]["tricks"] == 6:
            seen += 1
            for seat in (ELDER, YOUNGER):
                assert r.scores[seat]["cards"] == 0 and r.scores[seat]["capot"] == 0
    assert seen > 5


# ---------------------------------------------------------------------------------------------
# PQ-EX-E, PQ-EX-Y
# ---------------------------------------------------------------------------------------------

def test_pq_ex_y_bounds_per_variant():
    """PQ-EX-Y: seed-de 0..3 (bottom 3 only); seed-no 0..cards left; cavendish 1..cards left."""
    for k in range(1, 6):
        assert younger_bounds(SEED_DE, k) == (0, 3)
        assert younger_bounds(SEED_NO, k) == (0, 8 - k)
        assert younger_bounds(CAVENDISH, k) == (1, 8 - k)
    assert elder_bounds() == (1, 5)


def test_pq_ex_y_which_talon_cards_younger_takes():
    """PQ-EX-Y: seed-de the bottom three (indices 5..); seed-no / cavendish elder's leftovers first."""
    assert list(younger_talon_indices(SEED_DE, 2, 3)) == [5, 6, 7]
    assert list(younger_talon_indices(SEED_NO, 2, 4)) == [2, 3, 4, 5]
    assert list(younger_talon_indices(CAVENDISH, 5, 1)) == [5]


def test_pq_ex_exchanges_in_played_deals():
    """PQ-EX-E, PQ-EX-Y: elder takes the top k, younger the right cards, within the bounds."""
    for name in VARIANT_NAMES:
        rules = get_rules(name)
        for index in range(100):
            r = play_deal(8, index, rules, RANDOM, RANDOM)
            k, m = len(r.elder_discard), len(r.younger_discard)
            lo, hi = rules.younger_bounds(k)
            assert 1 <= k <= 5 and lo <= m <= hi
            assert r.elder_took == r.talon[:k]
            start = k if rules.younger_takes_leftovers else 5
            assert r.younger_took == r.talon[start:start + m]


@pytest.mark.parametrize("name, elder_n, younger_n, message", [
    ("seed-de", 0, 0, "elder's exchange: elder exchanges 0 cards, at least 1 required (PQ-EX-E)"),
    ("seed-de", 6, 0, "elder's exchange: elder exchanges 6 cards, at most 5 allowed (PQ-EX-E)"),
    ("seed-de", 2, 4, "younger's exchange: younger exchanges 4 cards, at most 3 allowed "
                      "(seed-de: only the bottom 3 of the talon) (PQ-EX-Y)"),
    ("seed-no", 5, 4, "younger's exchange: younger exchanges 4 cards, at most 3 allowed "
                      "(the talon holds 3 after elder took 5) (PQ-EX-Y)"),
    ("cavendish", 2, 0, "younger's exchange: younger exchanges 0 cards, at least 1 required "
                        "(PQ-EX-Y)"),
])
def test_pq_ex_illegal_discards(name, elder_n, younger_n, message):
    """PQ-EX-E, PQ-EX-Y: discards outside the bounds are errors naming the step and the rule."""
    deck = deal_cards(1, 1)
    e, y, talon = deck[:12], deck[12:24], deck[24:]
    with pytest.raises(InputError) as info:
        score_deal(get_rules(name), e, y, talon, e[:elder_n], y[:younger_n], [])
    assert str(info.value) == message


def test_pq_ex_seed_no_younger_may_take_four():
    """PQ-EX-Y seed-no: after elder took 2, younger may take up to 6 (the leftovers first)."""
    deck = deal_cards(1, 1)
    e, y, talon = deck[:12], deck[12:24], deck[24:]
    with pytest.raises(InputError, match="tricks: 0 tricks recorded"):  # the exchange is legal
        score_deal(SEED_NO, e, y, talon, e[:2], y[:6], [])
    with pytest.raises(InputError, match="at most 3 allowed"):
        score_deal(SEED_DE, e, y, talon, e[:2], y[:4], [])


# ---------------------------------------------------------------------------------------------
# PQ-PLAY
# ---------------------------------------------------------------------------------------------

def test_pq_play_follow_suit_no_trumps():
    """PQ-PLAY: follow suit if able, any card when void; only a higher card of the suit led wins."""
    hand = mask("7H KH AS 9D")
    assert names(legal_follows(hand, code("JH"))) == ["7H", "KH"]
    assert legal_follows(hand, code("JC")) == hand
    assert follower_wins(code("JH"), code("KH"))
    assert not follower_wins(code("JH"), code("7H"))
    assert not follower_wins(code("7H"), code("AS"))


def test_pq_play_revoke_is_an_error():
    """PQ-PLAY: playing another suit while holding the suit led is an error naming the trick."""
    tricks = autoplay(mask(PIQUE_ELDER), mask(PIQUE_YOUNGER), "7D")
    tricks[0] = (code("7D"), code("8H"))
    with pytest.raises(InputError) as info:
        score_deal(SEED_DE, *full_deal(PIQUE_ELDER, PIQUE_YOUNGER), tricks)
    assert str(info.value) == ("trick 1: younger played 8H but must follow suit with a diamond "
                               "(holds 6) (PQ-PLAY)")


# ---------------------------------------------------------------------------------------------
# PQ-PARTIE, PQ-TIE, PQ-RUBICON
# ---------------------------------------------------------------------------------------------

def test_pq_rubicon_norwegian_example():
    """PQ-RUBICON (seed 001): 128 against 85, the loser under 100: 128 + 85 + 100 = 313."""
    assert partie_outcome(128, 85, SEED_NO) == ("A", 313, True)
    assert partie_outcome(85, 128, SEED_DE) == ("B", 313, True)


def test_pq_rubicon_loser_over_the_rubicon():
    """PQ-RUBICON: the loser has 100 or more: W - L + 100."""
    assert partie_outcome(150, 120, SEED_DE) == ("A", 130, False)
    assert partie_outcome(150, 100, SEED_DE) == ("A", 150, False)
    assert partie_outcome(150, 99, SEED_DE) == ("A", 349, True)


def test_pq_tie_drawn_partie():
    """PQ-TIE: equal totals at the end: drawn, margin 0."""
    assert partie_outcome(140, 140, SEED_DE) == (None, 0, False)


class _FakeDeal:
    def __init__(self, elder_total, younger_total):
        self.elder_total, self.younger_total = elder_total, younger_total


def _scripted_partie(monkeypatch, totals, dealer_first="B"):
    """play_partie with deals scoring the given (elder, younger) totals and ``dealer_first``
    dealing first; records the calls."""
    calls = []

    def fake(seed, index, rules, elder_policy, younger_policy, lane_base=0):
        calls.append((lane_base, elder_policy, younger_policy))
        return _FakeDeal(*totals[len(calls) - 1])

    monkeypatch.setattr(ref, "play_deal", fake)
    monkeypatch.setattr(ref, "first_dealer", lambda seed, index: dealer_first)
    return calls


def test_pq_first_a_deals_first_so_b_is_elder_in_the_first_deal(monkeypatch):
    """PQ-FIRST: when A deals first, B is elder in deals 0, 2, 4 and the outcome says A (0)."""
    calls = _scripted_partie(monkeypatch, [(10, 0)] * 5 + [(20, 0)], dealer_first="A")
    p = play_partie(1, 2, SEED_DE, "pa", "pb")
    assert [c[1:] for c in calls] == [("pb", "pa"), ("pa", "pb")] * 3
    assert [p.elder_of(d) for d in range(3)] == ["B", "A", "B"]
    assert p.outcome_vector()[-1] == 0 and p.totals == {"A": 40, "B": 30}


def test_pq_first_the_first_dealer_is_a_fair_coin_per_partie():
    """PQ-FIRST (simulation: the cut is a fair coin): over 4,000 parties B deals first in about
    half (99.9% binomial interval), reproducibly from seed and index."""
    firsts = [ref.first_dealer(3, i) for i in range(4_000)]
    assert firsts == [ref.first_dealer(3, i) for i in range(4_000)]
    b = firsts.count("B")
    assert abs(b - 2_000) < 3.3 * (4_000 * 0.25) ** 0.5, b


def test_pq_partie_six_deals_b_deals_first(monkeypatch):
    """PQ-PARTIE: 6 deals; B deals first, so A is elder in deals 0, 2, 4; deal d on lanes 2d."""
    calls = _scripted_partie(monkeypatch, [(10, 0)] * 5 + [(20, 0)])
    p = play_partie(1, 2, SEED_DE, "pa", "pb")
    assert [c[0] for c in calls] == [0, 2, 4, 6, 8, 10]
    assert [c[1:] for c in calls] == [("pa", "pb"), ("pb", "pa")] * 3
    assert p.totals == {"A": 30, "B": 40} and p.deals_played == 6
    assert [p.elder_of(d) for d in range(4)] == ["A", "B", "A", "B"]


def test_pq_tie_extra_deals_then_a_winner(monkeypatch):
    """PQ-TIE: equal after 6 deals: two more, the dealer still alternating."""
    _scripted_partie(monkeypatch, [(50, 10), (50, 10)] * 3 + [(30, 0), (0, 0)])
    p = play_partie(1, 2, SEED_DE, "pa", "pb")
    assert p.deals_played == 8
    assert p.totals == {"A": 210, "B": 180}
    assert p.outcome_vector() == [210, 180, 8, 0, 210 - 180 + 100, 0, 1]


def test_pq_tie_still_equal_is_drawn(monkeypatch):
    """PQ-TIE: still equal after the extra deals: drawn (winner -1, margin 0)."""
    _scripted_partie(monkeypatch, [(20, 5)] * 8)
    p = play_partie(1, 2, SEED_DE, "pa", "pb")
    assert p.outcome_vector() == [100, 100, 8, -1, 0, 0, 1]


def test_pq_partie_no_extra_deals_without_a_tie(monkeypatch):
    """PQ-PARTIE, PQ-RUBICON: 6 deals; B under 100 is rubiconed."""
    _scripted_partie(monkeypatch, [(40, 0), (30, 0)] * 3)
    p = play_partie(1, 2, SEED_DE, "pa", "pb")
    assert p.outcome_vector() == [120, 90, 6, 0, 120 + 90 + 100, 1, 1]


def test_pq_partie_played_deals_add_up():
    """PQ-PARTIE: each deal is play_deal on lanes 2d, 2d+1 and the totals are their sums."""
    for index in range(4):
        p = play_partie(9, index, SEED_DE, HEURISTIC, RANDOM)
        assert p.deals_played in (6, 8)
        totals = {"A": 0, "B": 0}
        for d, deal in enumerate(p.deals):
            elder = p.elder_of(d)
            policies = (HEURISTIC, RANDOM) if elder == "A" else (RANDOM, HEURISTIC)
            again = play_deal(9, index, SEED_DE, *policies, lane_base=2 * d)
            assert again.outcome_vector() == deal.outcome_vector()
            totals[elder] += deal.elder_total
            totals["B" if elder == "A" else "A"] += deal.younger_total
        assert totals == p.totals
        assert p.outcome_vector()[:3] == [totals["A"], totals["B"], p.deals_played]


# ---------------------------------------------------------------------------------------------
# Policies (docs/piquet-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

EXCHANGE_HAND = "♠A K Q ♥A 10 9 8 7 ♦K 8 ♣10 7"


def test_heuristic_keep_values():
    """Heuristic exchange values: rank + length + point suit + sequence + set + ace + guard."""
    hand = mask(EXCHANGE_HAND)
    elder = keep_values(hand, HEURISTIC, ELDER)
    younger = keep_values(hand, HEURISTIC, YOUNGER)
    assert elder[code("10H")] == 3 + 5 + 6 + 8
    assert elder[code("AS")] == 7 + 3 + 8 + 4
    assert elder[code("8D")] == 1 + 2 and younger[code("8D")] == 1 + 2 + 4   # guard of the king
    assert elder[code("KD")] == younger[code("KD")] == 6 + 2
    assert elder[code("7C")] == 2


def test_heuristic_discards_elder_and_younger():
    """Heuristic exchange: the cards valued below keep, clamped to the bounds, lowest first."""
    hand = mask(EXCHANGE_HAND)
    chooser = Player(HEURISTIC, ELDER, Stream(0, 0, 1))
    assert [name_of(c) for c in chooser.discard(hand, 1, 5)] == ["8D", "KD", "7C", "10C"]
    assert [name_of(c) for c in chooser.discard(hand, 1, 2)] == ["8D", "7C"]
    chooser = Player(HEURISTIC, YOUNGER, Stream(0, 0, 1))
    assert [name_of(c) for c in chooser.discard(hand, 0, 3)] == ["8D", "7C", "10C"]
    strong = Player(HeuristicPolicy(elder_keep=0), ELDER, Stream(0, 0, 1))
    assert [name_of(c) for c in strong.discard(hand, 1, 5)] == ["7C"]   # at least one


def test_heuristic_point_suit_and_queen_guards():
    """Point suit: most cards, then value, then lower suit; a queen's two lowest are guards."""
    assert point_suit(mask("♠Q 9 8 ♥K 10 8 ♦A")) == 1
    assert point_suit(mask("♠K 10 7 ♥K 10 7")) == 0
    assert names(guards(mask("♠Q 9 8 ♥K 10 7 ♦A ♣Q 8"))) == ["8S", "9S", "7H"]


def test_heuristic_lead_master_suit_else_longest_lowest():
    """Heuristic lead: highest card of the longest master suit, else lowest of the longest suit."""
    p = Player(HEURISTIC, ELDER, Stream(0, 0, 1))
    hand = mask("♠A K 7 ♥K Q J 10 ♦9 8")
    p.unseen = ALL_CARDS & ~hand
    assert name_of(p.lead(hand)) == "AS"          # spades is the only master suit
    p.unseen &= ~mask("AH")                       # ace of hearts seen: hearts is master too
    assert name_of(p.lead(hand)) == "KH"          # the longer master suit
    no_master = mask("♠K 7 ♥Q J 10 ♦9 8 ♣Q 9 8")
    p.unseen = ALL_CARDS & ~no_master
    assert name_of(p.lead(no_master)) == "10H"    # 3 hearts, 3 clubs, both to the queen: hearts
    other_hand = mask("♥Q J 10 ♣K 9 8")
    p.unseen = ALL_CARDS & ~other_hand
    assert name_of(p.lead(other_hand)) == "8C"    # clubs to the king beat hearts to the queen


def test_heuristic_lead_without_tracking_counts_played_cards_as_unseen():
    """track_cards off: U is every card not in hand, so only a top sequence is master."""
    p = Player(HeuristicPolicy(track_cards=False), ELDER, Stream(0, 0, 1))
    p.unseen = 0   # ignored without tracking
    assert name_of(p.lead(mask("♠K Q 7 ♥9 8"))) == "7S"
    assert name_of(p.lead(mask("♠A 7 ♥9 8 7"))) == "AS"


def test_heuristic_follow():
    """Heuristic follow: cheapest winner, else lowest of the suit; void: the lowest-ranked card,
    ties by the shorter suit, then the lower suit index."""
    p = Player(HEURISTIC, YOUNGER, Stream(0, 0, 1))
    assert name_of(p.follow(mask("♥7 Q K ♠A"), code("JH"))) == "QH"
    assert name_of(p.follow(mask("♥7 8 ♠A"), code("JH"))) == "7H"
    assert name_of(p.follow(mask("♠A K ♦Q ♣8 7"), code("JH"))) == "7C"   # not the short suit
    assert name_of(p.follow(mask("♠A K ♦9 ♣8"), code("JH"))) == "8C"
    assert name_of(p.follow(mask("♠7 K A ♦7 Q"), code("JH"))) == "7D"   # ties: fewer cards
    assert name_of(p.follow(mask("♠8 K ♦8 A"), code("JH"))) == "8S"    # then lower suit


def test_heuristic_card_tracking():
    """track_cards: U starts without own hand, discards and seen talon cards; a void shows."""
    p = Player(HEURISTIC, ELDER, Stream(0, 0, 1))
    hand = mask("♠K 7 ♥9 8")
    p.start_play(hand, codes("AS"), codes("QS"))
    assert not p.unseen & mask("AS QS KS 7S 9H 8H")
    assert p.unseen & mask("JS")
    assert name_of(p.lead(hand)) == "KS"          # AS discarded, QS in the talon: KS is master
    p.observe(code("KS"), code("7D"), i_led=True)  # the opponent shows out of spades
    assert not p.unseen & suit_mask(0)


def test_random_policy_consumes_the_choices_stream_as_documented():
    """Random policy: k = 1 + below(5), then below(r)-th lowest of the r cards left, and so on."""
    for index in range(20):
        r = play_deal(4, index, SEED_NO, RANDOM, RANDOM)
        s = Stream(4, index, 1)
        k = 1 + s.below(5)
        left, chosen = sorted(r.elder_dealt), []
        for _ in range(k):
            chosen.append(left.pop(s.below(len(left))))
        assert r.elder_discard == sorted(chosen)
        lo, hi = SEED_NO.younger_bounds(k)
        m = lo + s.below(hi - lo + 1)
        left, chosen = sorted(r.younger_dealt), []
        for _ in range(m):
            chosen.append(left.pop(s.below(len(left))))
        assert r.younger_discard == sorted(chosen)
        hands = {ELDER: r.elder_hand, YOUNGER: r.younger_hand}
        for t in r.tricks:
            own = codes_of_mask(hands[t.leader])
            assert t.led == own[s.below(len(own))]
            legal = codes_of_mask(legal_follows(hands[other(t.leader)], t.led))
            assert t.followed == legal[s.below(len(legal))]
            hands[t.leader] &= ~(1 << t.led)
            hands[other(t.leader)] &= ~(1 << t.followed)


def test_heuristic_consumes_no_randomness():
    """The heuristic uses no choices: a random younger sees the same stream as against itself."""
    a = play_deal(6, 3, SEED_DE, HEURISTIC, HEURISTIC)
    b = play_deal(6, 3, SEED_DE, HEURISTIC, HeuristicPolicy())
    assert a.outcome_vector() == b.outcome_vector()


def test_unknown_policy_is_an_input_error():
    with pytest.raises(InputError, match="unknown Piquet policy"):
        play_deal(1, 1, SEED_DE, object())


# ---------------------------------------------------------------------------------------------
# Invariants (RULES.md) on played deals
# ---------------------------------------------------------------------------------------------

def check_invariants(r, rules) -> None:
    e, y = r.scores[ELDER], r.scores[YOUNGER]
    # 32 cards accounted for at every step
    assert sorted(r.elder_dealt + r.younger_dealt + r.talon) == list(range(32))
    k, m = len(r.elder_discard), len(r.younger_discard)
    left = mask_of_codes(r.talon) & ~mask_of_codes(r.elder_took + r.younger_took)
    parts = [r.elder_hand, r.younger_hand, mask_of_codes(r.elder_discard),
             mask_of_codes(r.younger_discard), left]
    assert sum(count(p) for p in parts) == 32
    assert count(r.elder_hand) == count(r.younger_hand) == 12
    assert count(left) == 8 - k - m
    # 12 legal tricks using the 24 cards at play
    assert len(r.tricks) == 12
    played = [c for t in r.tricks for c in (t.led, t.followed)]
    assert mask_of_codes(played) == r.elder_hand | r.younger_hand
    hands = {ELDER: r.elder_hand, YOUNGER: r.younger_hand}
    leader = ELDER
    for t in r.tricks:
        follower = other(t.leader)
        assert t.leader == leader and hands[leader] >> t.led & 1
        assert legal_follows(hands[follower], t.led) >> t.followed & 1
        hands[leader] &= ~(1 << t.led)
        hands[follower] &= ~(1 << t.followed)
        leader = t.winner
    assert e["tricks"] + y["tricks"] == 12
    # cards and capot exclusive, for one player at most
    for s in (e, y):
        assert not (s["cards"] and s["capot"])
    assert not ((e["cards"] or e["capot"]) and (y["cards"] or y["capot"]))
    # only elder piques; no repique and pique for one player
    assert y["pique"] == 0
    assert not (e["repique"] and e["pique"])
    assert e["repique"] == 0 or y["repique"] == 0
    # trick points
    against = sum(t.winner != t.leader for t in r.tricks)
    expected = 12 + against + 1 if rules.trick_scoring == "lead_and_win_against" else 14
    assert e["trick_points"] + y["trick_points"] == expected
    # totals
    for s in (e, y):
        parts = [s[k] for k in BREAKDOWN_KEYS if k not in ("total", "tricks")]
        assert s["total"] == sum(parts) and 0 <= s["total"] <= 300
        assert s["point"] <= 8 and s["sequences"] <= 44 and s["sets"] <= 42
        assert 0 <= s["trick_points"] <= 25
    assert e["carte_blanche"] + y["carte_blanche"] <= 10
    vector = r.outcome_vector()
    assert len(vector) == 50 and all(isinstance(v, int) for v in vector)


@pytest.mark.parametrize("name", VARIANT_NAMES)
@pytest.mark.parametrize("policies", [(RANDOM, RANDOM), (HEURISTIC, HEURISTIC),
                                      (HEURISTIC, RANDOM)], ids=["random", "heuristic", "mixed"])
def test_invariants_on_played_deals(name, policies):
    """RULES.md invariants over 300 seeded deals per variant and pair of policies."""
    rules = get_rules(name)
    for index in range(300):
        check_invariants(play_deal(21, index, rules, *policies), rules)


def test_invariants_with_tracking_off():
    rules = SEED_NO
    for index in range(200):
        check_invariants(play_deal(22, index, rules, HeuristicPolicy(track_cards=False)), rules)


def test_the_rare_events_occur_in_playouts():
    """Over heuristic playouts, repique, pique, capot and the cards all happen (the tests above
    therefore exercise them)."""
    seen = {"repique": 0, "pique": 0, "capot": 0, "cards": 0, "sequences": 0, "sets": 0}
    for index in range(600):
        r = play_deal(31, index, SEED_DE, HEURISTIC)
        for seat in (ELDER, YOUNGER):
            for key in seen:
                seen[key] += r.scores[seat][key] > 0
    assert all(v > 0 for v in seen.values()), seen


# ---------------------------------------------------------------------------------------------
# Determinism, outcome vector, explain
# ---------------------------------------------------------------------------------------------

def test_determinism_same_seed_same_deal():
    for index in range(20):
        a = play_deal(5, index, CAVENDISH, RANDOM, HEURISTIC)
        b = play_deal(5, index, CAVENDISH, RANDOM, HEURISTIC)
        assert a.outcome_vector() == b.outcome_vector()
    assert play_deal(5, 0, SEED_DE, RANDOM).outcome_vector() != \
        play_deal(6, 0, SEED_DE, RANDOM).outcome_vector()


def test_outcome_vector_layout():
    """docs/piquet-engine.md, "Outcome vector": the 50 entries in order."""
    r = play_deal(2, 5, SEED_DE, HEURISTIC)
    v = r.outcome_vector()
    e, y = r.scores[ELDER], r.scores[YOUNGER]
    assert v[:2] == [e["total"], y["total"]]
    assert v[2:12] == [e["carte_blanche"], y["carte_blanche"], e["point"], y["point"],
                       e["sequences"], y["sequences"], e["sets"], y["sets"],
                       e["repique"], y["repique"]]
    assert v[12:20] == [e["pique"], e["trick_points"], y["trick_points"], e["tricks"],
                        e["cards"], y["cards"], e["capot"], y["capot"]]
    assert v[20:22] == [len(r.elder_took), len(r.younger_took)]
    assert v[22:26] == [mask_of_codes(r.elder_dealt), mask_of_codes(r.younger_dealt),
                        r.elder_hand, r.younger_hand]
    assert v[26:] == [c for t in r.tricks for c in (t.led, t.followed)]


def test_explain_narrates_the_deal():
    text = explain(1, 3, SEED_DE, HEURISTIC)
    r = play_deal(1, 3, SEED_DE, HEURISTIC)
    assert text.startswith("Piquet deal 3 of seed 1 under rules seed-de")
    for word in ("PQ-DEAL", "PQ-CB", "PQ-EX-E", "PQ-EX-Y", "PQ-POINT", "PQ-SEQ", "PQ-SET",
                 "Trick 12", "PQ-CARDS"):
        assert word in text
    assert any(w in text for w in ("says good", "says not good", "says equal", "nobody scores"))
    assert text.endswith(f"Totals: elder {r.elder_total}, younger {r.younger_total}.")
    assert explain(1, 3, SEED_DE, HEURISTIC) == text
    declared = sum(r.scores[ELDER][k] for k in ("carte_blanche", "point", "sequences", "sets",
                                                 "repique"))
    assert f"Before play: elder {declared}," in text
    e, y = r.scores[ELDER], r.scores[YOUNGER]
    last = [line for line in text.splitlines() if line.startswith("Trick 12:")][0]
    assert last.endswith(f"[elder {e['total'] - e['cards'] - e['capot']}, "
                         f"younger {y['total'] - y['cards'] - y['capot']}]")


def test_explain_mentions_repique_and_pique():
    found = set()
    for index in range(400):
        r = play_deal(31, index, SEED_DE, HEURISTIC)
        if r.scores[ELDER]["pique"] and "pique" not in found:
            assert "PIQUE (PQ-PIQUE)" in explain(31, index, SEED_DE, HEURISTIC)
            found.add("pique")
        if (r.scores[ELDER]["repique"] or r.scores[YOUNGER]["repique"]) and "repique" not in found:
            assert "Repique (PQ-REPIQUE)" in explain(31, index, SEED_DE, HEURISTIC)
            found.add("repique")
    assert found == {"pique", "repique"}


def test_explain_with_overridden_switches():
    rules = get_rules("seed-no", {"capot": "50"})
    assert "under rules seed-no, capot=50" in explain(2, 2, rules, RANDOM, HEURISTIC)

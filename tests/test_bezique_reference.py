"""The plain-Python Bezique reference (analysis/bezique/reference/deal.py) against RULES.md.

Rule tests cite RULES.md IDs (BZ-...) and the rulebook (seeds/002, German); the procedure is
docs/bezique-engine.md. Meld legality is checked on hand-built hands and tables; invariant tests
play a few hundred seeded deals per variant with both policies.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from analysis.bezique.policies import HeuristicPolicy, RandomPolicy, get_policy
from analysis.bezique.reference import deal as ref
from analysis.bezique.reference.cards import (
    DEALER,
    ELDER,
    N_TRICKS,
    SEATS,
    TURN_UP_POS,
    deal_cards,
    follower_wins,
    is_brisque,
    other,
)
from analysis.bezique.reference.deal import explain, play_deal, play_game
from analysis.bezique.reference.deal_state import OUTCOME_LENGTH, DealState
from analysis.bezique.reference.melds import KINDS, legal_melds
from analysis.bezique.reference.policies import Player
from analysis.bezique.rules import (
    N_RULE_SLOTS,
    R_END_MUST_WIN,
    R_LAST_TRICK_AT,
    VARIANTS,
    card_of,
    code_of,
    get_rules,
    name_of,
)
from analysis.cards import PACK, parse_cards
from analysis.errors import InputError
from analysis.rng import Stream

SEED_DE = get_rules("seed-de")
CLASSIC = get_rules("classic")
HEARTS, SPADES, DIAMONDS, CLUBS = 1, 0, 2, 3
HEURISTIC = HeuristicPolicy()
RANDOM = RandomPolicy()


def f(text: str) -> list[int]:
    """Faces (first-copy codes) of cards in any analysis.cards spelling; copies allowed."""
    return [code_of(c) for c in parse_cards(text, allow_copies=2)]


def cards(text: str) -> list[int]:
    """Physical codes: the first occurrence of a card is copy 0, the second copy 1."""
    out: list[int] = []
    for c in f(text):
        out.append(c + 32 if c in out else c)
    return out


def table(**used) -> dict[int, frozenset]:
    """A table from ``kind="cards"`` pairs: every card listed was used in that meld kind."""
    out: dict[int, frozenset] = {}
    for kind, text in used.items():
        for c in cards(text):
            out[c] = out.get(c, frozenset()) | {kind}
    return out


def kinds_of(melds) -> list[str]:
    return [m.kind for m in melds]


def melds_of(kind, melds):
    return [m for m in melds if m.kind == kind]


# ---------------------------------------------------------------------------------------------
# Rules, variants, codes
# ---------------------------------------------------------------------------------------------

def test_variants_and_switches():
    """RULES.md Bezique table: seed-de and classic differ in BZ-REUSE, BZ-DOUBLE, BZ-END."""
    assert set(VARIANTS) == {"seed-de", "classic"}
    assert SEED_DE.reuse == "either_order" and not SEED_DE.double_bezique_after_single
    assert CLASSIC.reuse == "marriage_first" and CLASSIC.double_bezique_after_single
    assert not SEED_DE.end_must_win and CLASSIC.end_must_win
    for r in (SEED_DE, CLASSIC):
        assert (r.last_trick, r.last_trick_at, r.target, r.seven_points, r.brisque) == (10, 32, 1000, 10, 10)
        assert [r.meld_value(k) for k in KINDS] == [20, 40, 250, 40, 500, 40, 60, 80, 100]
        a = r.to_array()
        assert a.dtype == np.int64 and len(a) == N_RULE_SLOTS
        assert a[R_END_MUST_WIN] == int(r.end_must_win) and a[R_LAST_TRICK_AT] == 32
        assert "name" not in r.switches()
    assert get_rules("classic", ["last_trick_at=24", "target=500"]).target == 500
    assert get_rules("seed-de", {"last_trick": "24"}).last_trick == 24


@pytest.mark.parametrize("override, words", [
    (["target=700"], "target must be one of 500, 1000, 1500"),
    (["reuse=never"], "reuse must be one of"),
    (["last_trick_at=30"], "last_trick_at must be 32 or 24"),
    (["last_trick=-1"], "last_trick must be a whole number"),
    (["nope=1"], "unknown switch 'nope'"),
    (["end_must_win=maybe"], "takes true or false"),
])
def test_rule_errors_are_one_line(override, words):
    with pytest.raises(InputError) as info:
        get_rules("seed-de", override)
    assert words in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(InputError, match="unknown Bezique variant"):
        get_rules("rubicon")


def test_card_codes():
    """BZ-DECK: code = 32*copy + 8*suit + rank, ranks 7 8 9 J Q K 10 A low to high."""
    codes = {code_of(c, copy) for c in PACK for copy in (0, 1)}
    assert codes == set(range(64))
    for c in PACK:
        for copy in (0, 1):
            code = code_of(c, copy)
            assert card_of(code) == c and name_of(code) == str(c)
    spades = [code_of(c) for c in parse_cards("7S 8S 9S JS QS KS 10S AS")]
    assert spades == list(range(8))  # higher card = higher bit
    assert f("QS JD") == [4, 19] and name_of(36) == "QS" and name_of(51, True) == "J♦"


def test_trick_winner():
    """BZ-STOCK-PLAY: higher card of the suit led or a trump wins; identical cards: first wins."""
    ah, th, kh, ah2, seven_s = cards("AH 10H KH AH 7S")
    assert follower_wins(kh, th, SPADES) and not follower_wins(th, kh, SPADES)
    assert not follower_wins(ah, ah2, SPADES) and not follower_wins(ah2, ah, SPADES)
    assert follower_wins(ah, seven_s, SPADES) and not follower_wins(ah, seven_s, CLUBS)
    assert not follower_wins(seven_s, ah, SPADES)


# ---------------------------------------------------------------------------------------------
# Melds (BZ-VALUES, BZ-REUSE, BZ-DOUBLE)
# ---------------------------------------------------------------------------------------------

def test_every_meld_value_from_the_hand():
    """BZ-VALUES: every meld from a fresh hand, hearts trumps, both variants alike."""
    cases = [
        ("KS QS", "marriage", 20), ("KH QH", "royal_marriage", 40), ("QS JD", "bezique", 40),
        ("QS QS JD JD", "double_bezique", 500), ("AC AS AH AD", "four_aces", 100),
        ("KC KS KH KD", "four_kings", 80), ("QC QS QH QD", "four_queens", 60),
        ("JC JS JH JD", "four_jacks", 40),
    ]
    for rules in (SEED_DE, CLASSIC):
        for hand, kind, points in cases:
            found = melds_of(kind, legal_melds(cards(hand), {}, HEARTS, rules))
            assert len(found) == 1 and found[0].points == points, hand
            assert sorted(found[0].cards) == sorted(cards(hand)) == sorted(found[0].hand)
        seq = legal_melds(cards("AH 10H KH QH JH"), {}, HEARTS, rules)
        assert kinds_of(seq) == ["royal_marriage", "sequence"]
        assert melds_of("sequence", seq)[0].points == 250
    # The marriage is in a non-trump suit; the royal marriage in trumps only.
    assert kinds_of(legal_melds(cards("KH QH"), {}, SPADES, SEED_DE)) == ["marriage"]
    assert legal_melds(cards("KH QS AH 10H JH 9H"), {}, HEARTS, SEED_DE) == []


def test_bezique_is_the_fixed_pair():
    """BZ-VALUES: bezique is Q♠ + J♦ whatever the trump (RULES.md: fixed pair)."""
    for trump in range(4):
        assert kinds_of(legal_melds(cards("QS JD"), {}, trump, SEED_DE)) == ["bezique"]
    assert legal_melds(cards("QD JS"), {}, DIAMONDS, SEED_DE) == []


def test_four_of_a_kind_any_suits_with_identical_copies():
    """BZ-VALUES "(any suits)": four aces may hold both copies of a card; three are not four."""
    melds = legal_melds(cards("AS AS AH AD"), {}, CLUBS, SEED_DE)
    assert kinds_of(melds) == ["four_aces"] and len(melds[0].cards) == 4
    assert legal_melds(cards("AS AS AH AH"), {}, CLUBS, SEED_DE)[0].points == 100
    assert legal_melds(cards("AS AS AH"), {}, CLUBS, SEED_DE) == []
    # Five aces in hand: every distinct choice of four is an option (copies alike are one).
    five = legal_melds(cards("AS AS AH AD AC"), {}, CLUBS, SEED_DE)
    faces = sorted(tuple(sorted(c & 31 for c in m.cards)) for m in five)
    assert len(five) == 4 and len(set(faces)) == 4


def test_reuse_across_classes_allowed():
    """BZ-REUSE; rulebook "Wiederverwendung": a Q♠ melded in a bezique may later join a
    marriage with the K♠ (another class), the new meld adding the king from the hand."""
    t = table(bezique="QS JD")
    melds = legal_melds(cards("KS"), t, HEARTS, SEED_DE)
    assert kinds_of(melds) == ["marriage"]
    assert melds[0].hand == tuple(cards("KS")) and melds[0].cards == tuple(sorted(cards("QS KS")))
    # Fours from table cards of other classes plus one from the hand.
    t = table(bezique="QS JD", marriage="KD QD KC QC")
    four_q = melds_of("four_queens", legal_melds(cards("QH"), t, HEARTS, SEED_DE))
    assert len(four_q) == 1 and four_q[0].hand == tuple(cards("QH"))
    four_j = melds_of("four_jacks", legal_melds(cards("JS JC JH"), t, HEARTS, SEED_DE))
    assert len(four_j) == 1 and len(four_j[0].hand) == 3


def test_reuse_within_a_class_refused():
    """BZ-REUSE: a melded card may not join another meld of its own class."""
    # A married king may not marry the other queen of hearts.
    t = table(marriage="KH QH")
    assert legal_melds(cards("QH"), {c: v for c, v in t.items() if c & 7 == 5}, SPADES, SEED_DE) == []
    # Four kings melded: a fifth king from the hand does not make four kings again.
    t = table(four_kings="KS KH KD KC")
    assert melds_of("four_kings", legal_melds(cards("KS"), t, HEARTS, SEED_DE)) == []
    # ... but four new kings would.
    assert len(melds_of("four_kings", legal_melds(cards("KS KH KD KC"), t, HEARTS, SEED_DE))) == 1
    # A single bezique's queen cannot form a second single bezique with the other jack.
    t = table(bezique="QS")
    assert legal_melds(cards("JD"), t, HEARTS, SEED_DE) == []
    assert legal_melds(cards("JD"), t, HEARTS, CLASSIC) == []


def test_each_new_meld_adds_a_card_from_the_hand():
    """BZ-REUSE: every new meld adds at least one card from the hand."""
    t = table(bezique="QS JD", four_kings="KS KH KD KC")
    # K♠ and Q♠ are both on the table, of other classes: still no marriage without a hand card.
    assert legal_melds([], t, HEARTS, SEED_DE) == []
    assert kinds_of(legal_melds(cards("9C"), t, HEARTS, SEED_DE)) == []
    # With the other K♠ from the hand the marriage adds a card from the hand: legal.
    m = legal_melds(cards("KS KS")[1:], t, HEARTS, CLASSIC)
    assert kinds_of(m) == ["marriage"] and m[0].hand == (cards("KS KS")[1],)


@pytest.mark.parametrize("rules, allowed", [(SEED_DE, True), (CLASSIC, False)])
def test_royal_marriage_after_sequence(rules, allowed):
    """BZ-REUSE seed-de: a royal marriage may be formed from the K and Q of a sequence already on
    the table (the one meld without a card from the hand); classic: sequence then marriage is
    not allowed. Rulebook: "müssen aber als Hochzeit in einem anderen Zug gemeldet werden"."""
    t = table(sequence="AH 10H KH QH JH")
    melds = legal_melds([], t, HEARTS, rules)
    assert kinds_of(melds) == (["royal_marriage"] if allowed else [])
    if allowed:
        assert melds[0].hand == () and melds[0].points == 40
    # King from the sequence, queen from the hand: legal only in seed-de.
    t2 = {c: v for c, v in t.items() if c & 7 != 4}
    assert kinds_of(legal_melds(cards("QH"), t2, HEARTS, rules)) == (["royal_marriage"] if allowed else [])
    # The exception is only for a sequence's K and Q: a queen from four queens does not count.
    t3 = {**t2, **table(four_queens="QH")}
    assert legal_melds([], t3, HEARTS, rules) == []
    # The same royal marriage is not scored twice.
    twice = table(sequence="AH 10H KH QH JH")
    for c in cards("KH QH"):
        twice[c] = twice[c] | {"royal_marriage"}
    assert legal_melds([], twice, HEARTS, rules) == []


@pytest.mark.parametrize("rules", [SEED_DE, CLASSIC], ids=["seed-de", "classic"])
def test_sequence_after_royal_marriage(rules):
    """BZ-REUSE: royal marriage then sequence scores 40 + 250 in both variants."""
    t = table(royal_marriage="KH QH")
    melds = legal_melds(cards("AH 10H JH"), t, HEARTS, rules)
    assert kinds_of(melds) == ["sequence"] and melds[0].points == 250
    assert melds[0].hand == tuple(sorted(cards("AH 10H JH")))
    # Without the ten of trumps from the hand there is no sequence.
    assert legal_melds(cards("AH JH"), t, HEARTS, rules) == []


@pytest.mark.parametrize("rules, allowed", [(SEED_DE, False), (CLASSIC, True)])
def test_double_bezique_after_single(rules, allowed):
    """BZ-DOUBLE: seed-de only when all four cards are melded in one turn; classic also after a
    single bezique whose two cards are still on the table (40 + 500)."""
    t = table(bezique="QS JD")
    second = cards("QS QS JD JD")[1::2]  # the second copies
    melds = legal_melds(second, t, HEARTS, rules)
    doubles = melds_of("double_bezique", melds)
    assert len(doubles) == (1 if allowed else 0)
    if allowed:
        assert doubles[0].points == 500 and len(doubles[0].cards) == 4 and len(doubles[0].hand) == 2
    # A second single bezique from the two new cards is legal in both variants.
    assert len(melds_of("bezique", melds)) == 1
    # All four from the hand: the double in both variants.
    fresh = legal_melds(cards("QS QS JD JD"), {}, HEARTS, rules)
    assert kinds_of(fresh) == ["bezique", "double_bezique"]


def test_double_bezique_needs_both_pairs():
    """BZ-DOUBLE: both Q♠ and both J♦ together."""
    for hand in ("QS QS JD", "QS JD JD", "QS QS"):
        assert melds_of("double_bezique", legal_melds(cards(hand), {}, HEARTS, CLASSIC)) == []
    # One copy played (not on the table nor in hand): impossible, even in classic.
    t = table(bezique="QS JD")
    t.pop(cards("QS")[0])
    assert melds_of("double_bezique", legal_melds(cards("QS QS JD JD")[1::2], t, HEARTS, CLASSIC)) == []
    # seed-de: a queen of spades from a royal marriage (another class) may join the double.
    t = table(royal_marriage="KS QS")
    doubles = melds_of("double_bezique", legal_melds(cards("QS QS JD JD")[1:], t, SPADES, SEED_DE))
    assert len(doubles) == 1 and len(doubles[0].hand) == 3


def test_table_copies_are_chosen_canonically():
    """docs: table copies in table order (most used first, then lower code)."""
    qs1, qs2 = cards("QS QS")
    t = {qs1: frozenset({"bezique"}), qs2: frozenset({"bezique", "royal_marriage"})}
    m = melds_of("four_queens", legal_melds(cards("QH QD"), t, SPADES, SEED_DE))
    assert len(m) == 1 and set(m[0].cards) >= {qs1, qs2}
    m = melds_of("marriage", legal_melds(cards("KS"), {qs1: frozenset({"bezique"}),
                                                       qs2: frozenset({"four_queens", "bezique"})},
                                         HEARTS, SEED_DE))
    assert len(m) == 1 and qs2 in m[0].cards


# ---------------------------------------------------------------------------------------------
# Hand-built deals: sevens, the end phase
# ---------------------------------------------------------------------------------------------

def build_deck(elder: str, dealer: str, turn_up: str, stock_top: str = "") -> list[int]:
    """A 64-code deck: the hands and turn-up given, the stock beginning with ``stock_top``, the
    rest of the pack after it in code order."""
    named = cards(" ".join([elder, dealer, turn_up, stock_top]))
    rest = [c for c in range(64) if c not in named]
    return named + rest


def test_turn_up_seven_scores_for_the_dealer():
    """BZ-DEAL: a turned-up seven of trumps gives the dealer 10; no exchange for it (BZ-SEVEN)."""
    deck = build_deck("7H 8H 9H JH QH KH 10H AH", "7C 8C 9C JC QC KC 10C AC", "7S")
    st = DealState(SEED_DE, deck)
    assert st.trump == SPADES and st.points[DEALER]["seven"] == 10
    assert st.events[0].step == "deal"


def test_seven_exchange_and_announcement():
    """BZ-SEVEN: exchanged after its holder wins a trick (before drawing) for 10, or played in the
    stock phase and announced for 10; neither uses up the meld."""
    deck = build_deck("7H 7H KS QS 8C 9C 8D 9D", "AC AD 10C 10D JC JD 9S 8S", "KH")
    st = DealState(SEED_DE, deck)
    seven1, seven2 = cards("7H 7H")
    assert not st.can_exchange(ELDER)  # no trick won yet
    st.play(ELDER, cards("8C")[0])
    st.play(DEALER, cards("9S")[0])  # 9♠ does not beat 8♣ (no trump): elder wins
    assert st.pending.winner == ELDER and st.can_exchange(ELDER) and not st.can_exchange(DEALER)
    with pytest.raises(InputError, match="BZ-SEVEN"):
        st.exchange(DEALER)
    st.exchange(ELDER)
    assert st.points[ELDER]["seven"] == 10 and st.turn_up == seven1
    assert cards("KH")[0] in st.hands[ELDER]
    # The K♥ gained makes no royal marriage alone, but the meld is still open: K♠ Q♠.
    melds = st.melds_for(ELDER)
    assert kinds_of(melds) == ["marriage"]
    st.meld(ELDER, melds[0])
    assert st.points[ELDER]["marriage"] == 20
    with pytest.raises(InputError, match="BZ-SEVEN"):
        st.exchange(ELDER)  # once, before the meld
    st.draw()
    # The other seven, played in the stock phase, is announced: +10.
    st.play(ELDER, seven2)
    assert st.points[ELDER]["seven"] == 20
    # The turn-up is now a seven: nobody can exchange any more.
    st.play(DEALER, cards("10D")[0])
    assert not st.can_exchange(st.pending.winner)


def end_phase_state(rules, follower_hand: str, led: str, trump: int = SPADES) -> DealState:
    """A deal state moved to trick 25 (end phase) with the follower holding ``follower_hand``."""
    trump_card = {SPADES: "KS", HEARTS: "KH", DIAMONDS: "KD", CLUBS: "KC"}[trump]
    st = DealState(rules, build_deck("7H 8H 9H JH QH KH 10H AH", "7C 8C 9C JC QC KC 10C AC", trump_card))
    st.tricks = [None] * 24  # trick 25 comes next
    st.hands = {ELDER: set(cards(led)), DEALER: set(cards(follower_hand))}
    st.tables = {ELDER: {}, DEALER: {}}
    return st


@pytest.mark.parametrize("hand, led, seed_de, classic", [
    ("9H AH 7C AS", "10H", "9H AH", "AH"),       # follow suit; classic: and win if able
    ("9H 8H 7C AS", "10H", "8H 9H", "8H 9H"),    # cannot win: any card of the suit
    ("7C 8C 7S AS", "10H", "7S AS", "7S AS"),    # void: trump
    ("7C 8C 9D", "10H", "7C 8C 9D", "7C 8C 9D"),  # void, no trump: any card
    ("7S AS 9H", "10S", "7S AS", "AS"),          # trump led
    ("AH AH 9H", "AH", "9H AH", "9H AH"),        # an identical card does not win
])
def test_end_phase_follow_rules(hand, led, seed_de, classic):
    """BZ-END: follow suit; if void trump; else any; classic: follow suit and win if able."""
    for rules, expected in ((SEED_DE, seed_de), (CLASSIC, classic)):
        st = end_phase_state(rules, hand, led)
        assert not st.stock_phase
        legal = st.legal_follows(DEALER, cards(led)[0])
        assert sorted(c & 31 for c in legal) == sorted(set(f(expected))), (rules.name, hand, led)


def test_end_phase_revoke_is_refused():
    """BZ-END: playing off-suit while holding the suit is refused, naming the rule."""
    st = end_phase_state(CLASSIC, "9H AH 7C", "10H")
    st.play(ELDER, cards("10H")[0])
    with pytest.raises(InputError, match=r"trick 25: .*must follow suit and win if able.*\(BZ-END\)"):
        st.play(DEALER, cards("9H")[0])


def test_stock_phase_needs_no_follow():
    """BZ-STOCK-PLAY: while the stock lasts any card may be played."""
    deck = build_deck("7H 8H 9H JH QH KH 10H AH", "7C 8C 9C JC QC KC 10C AC", "KS")
    st = DealState(SEED_DE, deck)
    assert len(st.legal_follows(DEALER, cards("AH")[0])) == 8


# ---------------------------------------------------------------------------------------------
# Invariants on random playouts
# ---------------------------------------------------------------------------------------------

def check_deal(r, rules) -> None:
    """The invariants of RULES.md every deal must hold."""
    e, d = r.scores[ELDER], r.scores[DEALER]
    assert len(r.tricks) == N_TRICKS and e["tricks"] + d["tricks"] == N_TRICKS
    assert sum(t.number <= 24 for t in r.tricks) == 24 and all(t.draws for t in r.tricks[:24])
    assert not any(t.meld or t.exchanged or t.draws for t in r.tricks[24:])
    assert sorted(r.plays) == list(range(64))  # every card played exactly once
    assert e["brisques"] + d["brisques"] == 16 * rules.brisque == 160 * rules.brisque // 10
    assert e["last_trick"] + d["last_trick"] == rules.last_trick
    winner = r.tricks[rules.last_trick_at - 1].winner
    assert r.scores[winner]["last_trick"] == rules.last_trick
    assert e["seven"] + d["seven"] in (0, 10, 20)
    for seat in SEATS:
        s = r.scores[seat]
        assert s["total"] == sum(s[k] for k in (*KINDS, "seven", "brisques", "last_trick"))
        for kind in KINDS:
            assert s[kind] == sum(t.meld.points for t in r.tricks if t.meld and t.meld.kind == kind
                                  and t.winner == seat)
        assert s["tricks"] == sum(t.winner == seat for t in r.tricks)
        won = [c for t in r.tricks if t.winner == seat for c in (t.led, t.followed)]
        assert s["brisques"] == rules.brisque * sum(is_brisque(c) for c in won)
    v = r.outcome_vector()
    assert len(v) == OUTCOME_LENGTH and v[0] == e["total"] and v[29] == 32


@pytest.mark.parametrize("name", ["seed-de", "classic"])
@pytest.mark.parametrize("elder, dealer, n", [(HEURISTIC, HEURISTIC, 250), (RANDOM, RANDOM, 300),
                                              (RANDOM, HEURISTIC, 60)], ids=["heuristic", "random", "mixed"])
def test_invariants_on_playouts(name, elder, dealer, n):
    """RULES.md invariants: 32 tricks (24 + 8), 160 brisque points, 10 last-trick points, seven
    points in {0, 10, 20}, no card in two places (checked after every action), scores add up."""
    rules = get_rules(name)
    melds = 0
    for i in range(n):
        r = play_deal(7, i, rules, elder, dealer, audit=True)
        check_deal(r, rules)
        melds += sum(t.meld is not None for t in r.tricks)
    assert melds > n  # melds do happen


def test_invariants_with_switches():
    """The last-trick switch (24 or 32, any points) and other values keep the invariants."""
    rules = get_rules("classic", {"last_trick_at": "24", "last_trick": "24", "brisque": "5"})
    for i in range(40):
        r = play_deal(8, i, rules, HEURISTIC, RANDOM, audit=True)
        check_deal(r, rules)
        assert any(e.category == "last_trick" and e.step == "trick 24" for e in r.events)


def test_turn_up_is_a_seven_one_in_eight():
    """BZ-DEAL, RULES.md classical figure: P(turn-up is a seven) = 1/8, exactly (8 sevens of 64
    cards, every position of a uniform shuffle alike) and by simulation (5 sigma tolerance)."""
    exact = Fraction(sum(c & 7 == 0 for c in range(64)), 64)
    assert exact == Fraction(1, 8)
    n = 16000
    hits = sum(deal_cards(11, i)[TURN_UP_POS] & 7 == 0 for i in range(n))
    sigma = math.sqrt(n * (1 / 8) * (7 / 8))
    assert abs(hits - n / 8) < 5 * sigma
    # The dealer's turn-up seven points follow the turn-up.
    for i in range(200):
        r = DealState(SEED_DE, deal_cards(11, i))
        assert (r.points[DEALER]["seven"] == 10) == (deal_cards(11, i)[16] & 7 == 0)


def test_shuffle_is_the_documented_fisher_yates():
    """docs: 63 calls of below32(64 - p) on Stream(seed, i, 0), swap, top of stock at 17."""
    s = Stream(3, 4, 0)
    deck = list(range(64))
    for p in range(63):
        j = p + s.below32(64 - p)
        deck[p], deck[j] = deck[j], deck[p]
    assert deal_cards(3, 4) == deck
    r = play_deal(3, 4, SEED_DE, RANDOM)
    assert r.deck == deck and r.tricks[0].draws[0] == deck[17]


def test_random_policy_stream_contract():
    """docs, "Random policy": a hand-written driver consuming Stream(seed, i, 1) exactly as
    documented reproduces play_deal's deal."""
    for i in range(15):
        rules = SEED_DE if i % 2 else CLASSIC
        st = DealState(rules, deal_cards(21, i))
        s = Stream(21, i, 1)
        while not st.finished:
            leader, follower = st.leader, other(st.leader)
            opts = st.play_options(leader)
            st.play(leader, opts[s.below(len(opts))])
            legal = st.legal_follows(follower, st.led[0])
            st.play(follower, legal[s.below(len(legal))])
            if st.pending is None:
                continue
            w = st.pending.winner
            if st.can_exchange(w) and s.below(2) == 1:
                st.exchange(w)
            melds = st.melds_for(w)
            if melds:
                k = s.below(len(melds) + 1)
                if k < len(melds):
                    st.meld(w, melds[k])
            st.draw()
        assert st.plays == play_deal(21, i, rules, RANDOM).plays


# ---------------------------------------------------------------------------------------------
# Policies, determinism, games, narration
# ---------------------------------------------------------------------------------------------

def test_policies_validate_and_describe():
    """Heuristic parameters are validated; both policies describe themselves."""
    p = get_policy("heuristic", ["meld_win_min=40", "lead_low=false"])
    assert p.meld_win_min == 40 and not p.lead_low and p.describe()["lead_low"] == 0
    assert len(p.to_array()) == len(RANDOM.to_array())
    with pytest.raises(InputError, match="four_keep_min"):
        get_policy("heuristic", ["four_keep_min=9"])
    with pytest.raises(InputError, match="takes no parameters"):
        get_policy("random", ["x=1"])
    with pytest.raises(InputError, match="unknown policy"):
        get_policy("clever")
    with pytest.raises(InputError):
        Player(object(), ELDER, Stream(1, 1, 1))


def test_heuristic_holds_single_bezique_while_double_possible():
    """BZ-T5 (hold_bezique): the heuristic does not lay a single bezique early in the stock when
    the double is still possible; with hold_bezique=false it does."""
    deck = build_deck("QS JD 8C 9C 8D 9D 7D 7C", "AC AD 10C 10D JC 9S 8S 7S", "KH")
    for hold, expect in ((True, None), (False, "bezique")):
        st = DealState(SEED_DE, deck)
        st.play(ELDER, cards("8C")[0])
        st.play(DEALER, cards("9S")[0])
        pol = HeuristicPolicy(hold_bezique=hold)
        chosen = Player(pol, ELDER, Stream(0, 0, 1)).chosen_meld(st)
        assert (chosen.kind if chosen else None) == expect


def test_determinism():
    """A deal is a pure function of (seed, index, lane_base); games likewise."""
    for i in range(5):
        a = play_deal(99, i, CLASSIC, HEURISTIC, RANDOM).outcome_vector()
        assert a == play_deal(99, i, CLASSIC, HEURISTIC, RANDOM).outcome_vector()
        assert a != play_deal(99, i, CLASSIC, HEURISTIC, RANDOM, lane_base=2).outcome_vector()
    g = play_game(5, 0, get_rules("seed-de", ["target=500"]), HEURISTIC, RANDOM)
    assert g.outcome_vector() == play_game(5, 0, get_rules("seed-de", ["target=500"]),
                                           HEURISTIC, RANDOM).outcome_vector()


def test_games_reach_the_target():
    """BZ-GAME: the game ends at the first stock-phase event reaching the target (the deal is cut
    there) or at the end of a deal with the higher total; B deals first, dealers alternate."""
    rules = get_rules("seed-de", ["target=500"])
    stock_ends = 0
    for g in range(12):
        res = play_game(2, g, rules, HEURISTIC, HEURISTIC if g % 2 else RANDOM)
        assert res.winner in ("A", "B")
        assert res.totals[res.winner] >= 500 and res.totals[res.winner] > res.totals[
            "A" if res.winner == "B" else "B"] or res.in_stock_phase
        for d, r in enumerate(res.deals[:-1]):
            assert len(r.tricks) == 32 and r.game_winner is None
            assert r.seed == 2 and r.lane_base == 2 * d
        last = res.deals[-1]
        if res.in_stock_phase:
            stock_ends += 1
            assert last.game_winner is not None and len(last.tricks) <= 24
            assert last.scores[last.game_winner]["brisques"] == 0
        else:
            assert max(res.totals.values()) >= 500
        assert sum(r.total(ELDER) + r.total(DEALER) for r in res.deals) == sum(res.totals.values())
    assert stock_ends > 0
    assert ref.GameResult.dealer_of(0) == "B" and ref.GameResult.dealer_of(1) == "A"


def test_explain_narrates_the_deal():
    """explain: the deal, every trick, melds, draws, brisques and totals, citing rule IDs."""
    text = explain(1, 3, SEED_DE, HEURISTIC)
    r = play_deal(1, 3, SEED_DE, HEURISTIC)
    assert "BZ-DEAL" in text and "Trick 32" in text and "BZ-BRISQUE" in text
    assert f"Totals: elder {r.total(ELDER)}, dealer {r.total(DEALER)}." in text
    assert "\n" in text and "under rules seed-de" in text

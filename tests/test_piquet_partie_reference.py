"""Playing for the partie in the reference (docs/piquet-engine.md, "Playing for the partie"):
``dd`` and ``search`` with ``partie=margin|win`` in the deciding deals of a partie
(analysis/piquet/reference/partie.py, reference/search.StrongPlayer, reference.play_partie).

The completion of a deal along the double-dummy line is checked against real deals (the dd line is
the line dd players actually play, so it must end on the deal's own totals); parties of players who
play for the deal are unchanged; the partie's value is checked by hand; parties played for the
margin are well formed and do play differently.
"""
from __future__ import annotations

import hashlib

import pytest

from analysis.piquet.policies import get_policy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference.cards import ELDER, YOUNGER, Trick, legal_follows, lowest, other
from analysis.piquet.reference.partie import best_card, complete_line, partie_value
from analysis.piquet.reference.search import Table
from analysis.piquet.rules import get_rules

VARIANTS = ("seed-de", "seed-no", "cavendish")
SPECIAL = {"seed-de": (10, 19, 35, 42), "seed-no": (12, 134, 369), "cavendish": (13, 35, 37)}
"""Deals of seed 300 + the variant's index, dd against dd, with a pique, a repique, a carte
blanche or a capot, beyond deals 0-5."""


def tables_along(r, rules) -> list:
    """The strong players' table at each card of a played deal: (table, elder's and younger's hands
    with a card led removed, leader, card led or None, the card played)."""
    hands = {ELDER: r.elder_hand, YOUNGER: r.younger_hand}
    table = Table(rules, dict(hands), r.elder_dealt, r.younger_dealt)
    out = []
    for t in r.tricks:
        out.append((table.branch(), hands[ELDER], hands[YOUNGER], t.leader, None, t.led))
        hands[t.leader] &= ~(1 << t.led)
        out.append((table.branch(), hands[ELDER], hands[YOUNGER], t.leader, t.led, t.followed))
        hands[other(t.leader)] &= ~(1 << t.followed)
        table.trick_done(Trick(t.leader, t.led, t.followed, t.winner))
    return out


# -- (a) the completion along the dd line is the deal dd players play --------------------------

@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("pique", [True, False])
def test_completing_the_dd_line_from_any_card_gives_the_real_deals_totals(variant, pique):
    """Both players dd playing for the deal: from the first card (the dd choice, checked to be the
    card played) and from every later card of the real deal, the completion scores exactly the
    deal's final totals (declarations, repique, trick points, last trick, pique, cards, capot)."""
    rules = get_rules(variant)
    pol = get_policy("dd", [] if pique else ["play_for_pique=0"])
    seed = 300 + VARIANTS.index(variant)
    for i in (*range(6), *SPECIAL[variant]):
        r = ref.play_deal(seed, i, rules, pol, pol)
        real = (r.elder_total, r.younger_total)
        steps = tables_along(r, rules)
        table, elder, younger, leader, _, first = steps[0]
        assert best_card(table.solve(elder, younger, ELDER, None, pique), elder, True) == first
        for table, elder, younger, leader, led, card in steps:
            events = list(table.sheet.events)
            assert complete_line(table, elder, younger, leader, led, card, pique) == real, (seed, i)
            assert table.sheet.events == events  # the table is not changed


@pytest.mark.parametrize("variant", VARIANTS)
def test_completing_the_last_trick_of_any_deal_gives_its_totals(variant):
    """Heuristic against random: from the last trick's lead and its reply (no choice left), the
    completion scores the deal's own totals."""
    rules = get_rules(variant)
    pe, py = get_policy("heuristic"), get_policy("random")
    for i in range(40):
        r = ref.play_deal(9, i, rules, pe, py)
        for table, elder, younger, leader, led, card in tables_along(r, rules)[-2:]:
            assert complete_line(table, elder, younger, leader, led, card, True) == (r.elder_total, r.younger_total)


def test_far_ahead_on_the_margin_plays_exactly_the_deal_points():
    """With both partie totals at or above the rubicon and the winner settled whatever the deal,
    the margin is (mine - his) plus a constant: ``dd`` and ``search`` with partie=margin play the
    very deal they play for the deal's points (same cards, same draws)."""
    rules = get_rules("seed-no")
    for name, params in (("dd", []), ("search", ["samples=2"])):
        deal, margin = get_policy(name, params), get_policy(name, params + ["partie=margin"])
        for i in range(3):
            a = ref.play_deal(41, i, rules, deal, deal)
            for partie in ((1100, 100), (100, 1100)):
                b = ref.play_deal(41, i, rules, margin, margin, partie=partie)
                assert b.outcome_vector() == a.outcome_vector(), (name, i, partie)


def test_win_already_settled_every_card_ties_to_the_lowest():
    """partie=win with the partie settled whatever the deal: every card is worth the same (+1 or
    -1 in the one world), so both dd players play their lowest legal card throughout."""
    rules = get_rules("cavendish")
    pol = get_policy("dd", ["partie=win"])
    for i in range(3):
        r = ref.play_deal(42, i, rules, pol, pol, partie=(900, 10))
        hands = {ELDER: r.elder_hand, YOUNGER: r.younger_hand}
        for t in r.tricks:
            assert t.led == lowest(hands[t.leader])
            assert t.followed == lowest(legal_follows(hands[other(t.leader)], t.led))
            hands[t.leader] &= ~(1 << t.led)
            hands[other(t.leader)] &= ~(1 << t.followed)


# -- (b) partie=deal: unchanged -------------------------------------------------------------

GOLDEN = {  # play_partie(21, g): outcome vector, sha256 of the deals' outcome vectors (before partie play)
    ("seed-de", "dd", "dd"): {0: ([184, 210, 6, 1, 126, 0, 0], "ee72df59e0d9d69d"),
                              1: ([99, 194, 6, 1, 393, 1, 1], "045b7810410b671c"),
                              2: ([110, 140, 6, 1, 130, 0, 1], "2c4ed34ecd19004b")},
    ("seed-no", "search", "heuristic"): {0: ([182, 183, 6, 1, 101, 0, 0], "d8d3b932eb479e05"),
                                         1: ([91, 184, 6, 1, 375, 1, 1], "33e239e48c5fae11"),
                                         2: ([100, 138, 6, 1, 138, 0, 1], "5140b00b9aafac4b")},
    ("cavendish", "dd", "search"): {0: ([212, 167, 6, 0, 145, 0, 0], "c891cfbdb7147048"),
                                    1: ([93, 191, 6, 1, 384, 1, 1], "dbc66e2b08c395f4"),
                                    2: ([124, 116, 6, 0, 108, 0, 1], "cc47e16576f9583e")},
}
POLICY_PARAMS = {"dd": [], "search": ["samples=2"], "heuristic": []}


@pytest.mark.parametrize("key", GOLDEN)
def test_parties_played_for_the_deal_are_unchanged(key):
    """The default (partie=deal) and an explicit partie=deal play the parties they played before
    partie play existed, deal by deal."""
    variant, a, b = key
    rules = get_rules(variant)
    for explicit in (False, True):
        extra = ["partie=deal"] if explicit else []
        pa = get_policy(a, POLICY_PARAMS[a] + (extra if a != "heuristic" else []))
        pb = get_policy(b, POLICY_PARAMS[b] + (extra if b != "heuristic" else []))
        for g, (vector, digest) in GOLDEN[key].items():
            p = ref.play_partie(21, g, rules, pa, pb)
            deals = hashlib.sha256(repr([r.outcome_vector() for r in p.deals]).encode()).hexdigest()[:16]
            assert (p.outcome_vector(), deals) == (vector, digest), (key, g, explicit)


def test_the_partie_state_changes_nothing_for_players_of_the_deal():
    """A deal told the partie's totals plays as without them when nobody plays for the partie."""
    rules = get_rules("seed-de")
    dd, search = get_policy("dd"), get_policy("search", ["samples=2"])
    for i in range(3):
        for pe, py in ((dd, dd), (search, dd)):
            assert (ref.play_deal(5, i, rules, pe, py, partie=(80, 20)).outcome_vector()
                    == ref.play_deal(5, i, rules, pe, py).outcome_vector())


def test_play_partie_tells_the_deciding_deals_the_totals_before_them(monkeypatch):
    """Deals 5, 6, 7 (the sixth and the tie deals) get (elder's, younger's) totals before them;
    earlier deals get nothing; parties of players of the deal are never told."""
    calls = []
    scripted = [(50, 10), (50, 10)] * 3 + [(30, 0), (0, 0)]

    class Deal:
        def __init__(self, e, y):
            self.elder_total, self.younger_total = e, y

    def fake(seed, index, rules, elder_policy, younger_policy, lane_base=0, partie=None):
        calls.append(partie)
        return Deal(*scripted[len(calls) - 1])

    monkeypatch.setattr(ref, "play_deal", fake)
    monkeypatch.setattr(ref, "first_dealer", lambda seed, index: "B")
    rules = get_rules("seed-de")
    margin = get_policy("dd", ["partie=margin"])
    p = ref.play_partie(1, 2, rules, margin, get_policy("heuristic"))
    # A is elder in deals 0, 2, 4, 6: after 5 deals A 50+10+50+10+50 = 170, B 10+50+10+50+10 = 130.
    assert calls == [None] * 5 + [(130, 170), (180, 180), (180, 210)]
    assert p.deals_played == 8
    calls.clear()
    ref.play_partie(1, 2, rules, get_policy("dd"), get_policy("search"))
    assert calls == [None] * 8


# -- (c) the partie's value ---------------------------------------------------------------

def test_partie_value_by_hand():
    """PQ-RUBICON with rubicon 100 and bonus 100 (seed-de)."""
    rules = get_rules("seed-de")
    assert (rules.rubicon, rules.rubicon_bonus) == (100, 100)
    assert partie_value("margin", 150, 120, rules) == 150 - 120 + 100
    assert partie_value("margin", 150, 100, rules) == 150 - 100 + 100  # 100 is not rubiconed
    assert partie_value("margin", 150, 99, rules) == 150 + 99 + 100  # rubiconed
    assert partie_value("margin", 120, 150, rules) == -130
    assert partie_value("margin", 99, 150, rules) == -349
    assert partie_value("margin", 80, 60, rules) == 240  # both under 100: the loser is rubiconed
    assert partie_value("margin", 140, 140, rules) == 0
    assert [partie_value("win", m, h, rules) for m, h in ((150, 99), (99, 150), (101, 100), (90, 90))] == [1, -1, 1, 0]


# -- (d) parties played for the margin -----------------------------------------------------

def check_partie(p, rules) -> None:
    """A partie's outcome vector is well formed: totals the sum of its deals by seat, 6 deals (8
    after a tie), winner, margin and rubicon from the totals."""
    totals = {"A": 0, "B": 0}
    for d, r in enumerate(p.deals):
        elder = p.elder_of(d)
        totals[elder] += r.elder_total
        totals["B" if elder == "A" else "A"] += r.younger_total
    v = p.outcome_vector()
    assert v[:2] == [totals["A"], totals["B"]]
    assert v[2] in (rules.partie_deals, rules.partie_deals + rules.tie_extra_deals)
    winner, margin, rubiconed = ref.partie_outcome(totals["A"], totals["B"], rules)
    assert v[3:6] == [{"A": 0, "B": 1, None: -1}[winner], margin, int(rubiconed)]
    assert v[6] in (0, 1) and len(v) == 7


@pytest.mark.parametrize("name, params, parties", [("search", ["samples=3"], 12), ("dd", [], 20)])
def test_parties_played_for_the_margin_are_well_formed_and_play_differently(name, params, parties):
    """The first five deals are those played for the deal; some deciding deals are played
    differently (a card, and so the totals)."""
    rules = get_rules("cavendish")
    deal, margin = get_policy(name, params), get_policy(name, params + ["partie=margin"])
    differ = 0
    for g in range(parties):
        a = ref.play_partie(17, g, rules, deal, deal)
        b = ref.play_partie(17, g, rules, margin, margin)
        check_partie(b, rules)
        first = rules.partie_deals - 1
        assert [r.outcome_vector() for r in b.deals[:first]] == [r.outcome_vector() for r in a.deals[:first]]
        cards = [[(t.led, t.followed) for t in r.tricks] for r in (a.deals[first], b.deals[first])]
        differ += cards[0] != cards[1]
    assert differ > 0

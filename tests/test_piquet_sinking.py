"""Sinking in the plain-Python reference (PQ-T12): reference.play_deal / play_cards with a ``sink``
rule per seat, the search player reading the declarations at face value (reference/search), and
the study analysis/piquet/studies/sinking.py.

(a) without sinking every deal is played as before; (b) a sunk point is scored by the opponent,
repique included; (c) a search player's draws fit what was declared, not the truth; (d) the
study runs and returns well-formed intervals.
"""
from __future__ import annotations

import math

import pytest

from analysis.cards import parse_cards
from analysis.errors import InputError
from analysis.piquet.policies import get_policy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference.cards import ELDER, YOUNGER, mask_of_codes
from analysis.piquet.reference.records import record_from_deal, replay
from analysis.piquet.reference.scoring import point_of
from analysis.piquet.reference.search import StrongPlayer, Table
from analysis.piquet.rules import code_of, get_rules
from analysis.piquet.studies.sinking import sinking_value, small_combinations
from analysis.rng import Stream

SEED_DE = get_rules("seed-de")
HEURISTIC = get_policy("heuristic")
SEARCH = get_policy("search", ["samples=3"])
NONE_SUNK = {ELDER: frozenset(), YOUNGER: frozenset()}


def codes(text: str) -> list[int]:
    return [code_of(c) for c in parse_cards(text)]


def mask(text: str) -> int:
    return mask_of_codes(codes(text))


def in_full(hand, rules):
    """A sinking rule that sinks nothing."""
    return set()


# -- (a) without sinking nothing changes ---------------------------------------------------------

PAIRINGS = {  # elder, younger, deals
    "heuristic/random": (HEURISTIC, get_policy("random"), 30),
    "search/search": (SEARCH, SEARCH, 8),
    "untracked-search/search": (get_policy("search", ["samples=3", "track_cards=0"]), SEARCH, 6),
    "dd/heuristic": (get_policy("dd"), HEURISTIC, 8),
}


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_without_sinking_every_deal_is_played_as_before(pairing):
    """sink None, an empty dict, or rules that sink nothing: the outcome vectors and events of
    play_deal without the argument (the kernel comparison of tests/test_piquet_strong_reference.py
    pins those to the numba kernel's)."""
    pe, py, n = PAIRINGS[pairing]
    rules = get_rules("seed-no")
    for i in range(n):
        base = ref.play_deal(21, i, rules, pe, py)
        assert base.sink == NONE_SUNK
        for sink in (None, {}, {ELDER: None, YOUNGER: in_full}):
            r = ref.play_deal(21, i, rules, pe, py, sink=sink)
            assert r.outcome_vector() == base.outcome_vector(), (pairing, i, sink)
            assert r.events == base.events and r.sink == NONE_SUNK


def test_a_sinking_rule_must_name_seats_and_categories():
    with pytest.raises(InputError, match="unknown category"):
        ref.play_deal(1, 0, SEED_DE, HEURISTIC, sink={YOUNGER: lambda hand, rules: {"quint"}})
    with pytest.raises(InputError, match="unknown player"):
        ref.play_deal(1, 0, SEED_DE, HEURISTIC, sink={"dealer": in_full})


# -- (b) a hand-made deal: younger sinks his winning point ---------------------------------------

# Elder (after throwing the 7S for the 7D): quint to the ace of hearts (point 5, 51; 15),
# quatorze of aces and a trio of kings (17). Younger: six clubs (point 6, 54), a quart and a tierce
# (below the quint), no set. Younger keeps his cards (seed-de: 0 to 3).
ELDER_DEALT = "AH KH QH JH 10H AS AD AC KS KD JC 7S"
YOUNGER_DEALT = "KC QC 10C 9C 8C 7C 9H 8H 7H QS 9S 8S"
TALON = "7D JS 10S QD JD 10D 9D 8D"
DECK = codes(ELDER_DEALT) + codes(YOUNGER_DEALT) + codes(TALON)


def hand_made(sink=None, elder=HEURISTIC, younger=HEURISTIC):
    return ref.play_cards(DECK, SEED_DE, elder, younger, Stream(4, 0, 1), elder_discard=codes("7S"),
                          younger_discard=[], sink=sink)


def test_a_sunk_point_is_scored_by_the_opponent_who_then_repiques():
    """PQ-POINT, PQ-REPIQUE: in full younger's point (6) stops elder's repique (elder 32); sunk,
    elder scores his point of 5 and reaches 37 with younger at 0: repique."""
    full = hand_made()
    sunk = hand_made({YOUNGER: lambda hand, rules: {"point"}})
    assert sunk.sink == {ELDER: frozenset(), YOUNGER: frozenset({"point"})}
    e, y = full.scores[ELDER], full.scores[YOUNGER]
    assert (e["point"], y["point"], e["sequences"], e["sets"], e["repique"]) == (0, 6, 15, 17, 0)
    e, y = sunk.scores[ELDER], sunk.scores[YOUNGER]
    assert (e["point"], y["point"], e["sequences"], e["sets"], e["repique"]) == (5, 0, 15, 17, 60)
    assert y["sequences"] == y["sets"] == y["repique"] == 0
    assert [(ev.step, ev.category, ev.points) for ev in sunk.events[:4]] == [
        ("point", "point", 5), ("sequences", "sequences", 15), ("sets", "sets", 17),
        ("sets", "repique", 60)]
    assert sunk.tricks == full.tricks  # heuristic players do not read declarations


def test_sinking_everything_can_give_elder_a_pique():
    """PQ-PIQUE: younger, sinking every category, is still at 0 when elder reaches 30 in play (a
    seeded deal where declaring in full would have stopped the pique)."""
    everything = {YOUNGER: lambda hand, rules: {"point", "sequences", "sets"}}
    full = ref.play_deal(2, 2, SEED_DE, HEURISTIC)
    sunk = ref.play_deal(2, 2, SEED_DE, HEURISTIC, sink=everything)
    assert full.scores[ELDER]["pique"] == 0 and full.scores[YOUNGER]["total"] > 0
    assert sunk.scores[ELDER]["pique"] == 30
    assert all(sunk.scores[YOUNGER][c] == 0 for c in ("point", "sequences", "sets", "repique"))
    running = {ELDER: 0, YOUNGER: 0}
    for ev in sunk.events:
        if ev.category == "pique":
            assert ev.step.startswith("trick") and running[ELDER] >= 30 and running[YOUNGER] == 0
            break
        running[ev.seat] += ev.points


def test_a_sunk_deal_replays_from_its_record_with_the_sink_added():
    """records.record_from_deal does not write the sink (reference/records.py unchanged); with the
    record's optional "sink" added, replay gives the deal's scores."""
    r = hand_made({YOUNGER: lambda hand, rules: {"point"}}, elder=SEARCH, younger=SEARCH)
    record = record_from_deal(r, SEED_DE)
    record["younger"]["sink"] = sorted(r.sink[YOUNGER])
    assert replay(record)["scores"] == r.scores


# -- (c) the search player reads what was declared ----------------------------------------------

def reader(sink) -> StrongPlayer:
    """Elder, a tracking search player, at the hand-made deal's table after the exchanges."""
    elder = mask(ELDER_DEALT) & ~mask("7S") | mask("7D")
    hands = {ELDER: elder, YOUNGER: mask(YOUNGER_DEALT)}
    p = StrongPlayer(SEARCH, ELDER, Stream(9, 0, 1))
    p.start_play(elder, codes("7S"), codes("JS 10S QD JD"))  # the talon cards he left
    p.table = Table(SEED_DE, hands, codes(ELDER_DEALT), codes(YOUNGER_DEALT), None, sink)
    return p


def test_the_reader_draws_hands_that_fit_the_sunk_declaration_not_the_truth():
    truth = mask(YOUNGER_DEALT)
    honest = reader(None)
    assert honest._declarations()[0] == ("point", "declared", (6, 54), 6)
    assert honest._consistent(truth)

    p = reader({YOUNGER: frozenset({"point"})})
    assert p._declarations()[0] == ("point", "conceded", (5, 51), None)
    assert not p._consistent(truth)
    possible, k, his_played = p._hidden_cards(p.table.hands[ELDER], None)
    assert possible == truth | mask("10D 9D 8D") and k == 12 and his_played == 0
    draws = [p._draw(possible, k, his_played) for _ in range(200)]
    assert all(point_of(h) < (5, 51) for h in draws)  # never the six clubs he holds
    assert all(h & mask("KC QC 10C 9C 8C 7C") != mask("KC QC 10C 9C 8C 7C") for h in draws)
    assert len(set(draws)) > 20


def test_a_reading_the_cards_played_contradict_is_dropped():
    """Five clubs played (point 5, 47) still fit 'below 5, 51'; the sixth breaks it, and the
    point's reading is dropped for the rest of the deal (the other two are kept)."""
    p = reader({YOUNGER: frozenset({"point"})})
    p._drop_broken(mask("KC QC 10C 9C 8C"))
    assert [e[0] for e in p._declarations()] == ["point", "sequences", "sets"]
    p._drop_broken(mask("KC QC 10C 9C 8C 7C"))
    assert [e[0] for e in p._declarations()] == ["sequences", "sets"]
    assert p._consistent(mask(YOUNGER_DEALT))


# -- (d) the study ---------------------------------------------------------------------------

def test_the_sinking_rule_sinks_what_is_worth_four_points_or_less():
    assert small_combinations(mask(YOUNGER_DEALT)) == set()  # point 6, quart + tierce 7
    small = mask("AS KS QS 9S 10H 7H 10D 8D JD 10C 7C 8C")  # point 4, a tierce, a trio of 10s
    assert small_combinations(small) == {"point", "sequences", "sets"}
    quart_and_tierce = mask("AS KS QS JS 7H 9H 10H KH 7D 8D 9D 7C")  # point 4, sequences 7
    assert small_combinations(quart_and_tierce) == {"point"}


def test_sinking_value_returns_paired_intervals():
    n = 6
    res = sinking_value(get_rules("seed-no"), n, seed=3, samples=3)
    for key in ("against_reader", "against_blind", "information_value", "points_given_up",
                "declaration_net_cost", "sinks"):
        est = res[key]
        assert est.n == n and est.confidence == 0.95, key
        assert math.isfinite(est.value) and est.lo <= est.value <= est.hi, key
    assert res["information_value"].value == pytest.approx(
        res["against_reader"].value - res["against_blind"].value)
    assert all(0 <= c <= n for c in res["sunk_by_category"].values())
    assert res["points_given_up"].value >= 0 and res["search_deals_per_second"] > 0

"""The ladder of Piquet's exchange rules (``salon rules piquet``): the search finds a planted rule,
a rule's cost looked up in the hands' tables is what ``salon rule piquet`` measures, and the
shipped ladder is well formed and answered from the package."""
import json

import numpy as np
import pytest

from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.analyser import legal_options
from analysis.piquet.studies.discards.study import dealt_hand
from analysis.piquet.studies.playing_rules import cost, parse
from analysis.piquet.studies.rule_ladder import HandTables, search, shipped_ladders, tables

RULES = get_rules("seed-de")


def test_the_search_finds_a_planted_rule():
    planted = parse("younger-exchange", "keep point, aces; throw shortest; take 2")
    rows = []
    for h in range(60):
        hand = dealt_hand(4, h, "younger")
        options = legal_options(hand, "younger", RULES)
        costs = np.ones(len(options))
        best = int(np.flatnonzero(options == planted.discard(hand, RULES))[0])
        costs[best] = 0.0
        rows.append((hand, options, costs, best))
    fit = HandTables("younger", RULES, rows)
    found = search(fit, most_classes=3, beam=8)
    assert [len(r.keep) for r in found] == [0, 1, 2, 3]
    assert fit.per_hand(found[2]).mean() == 0 and fit.agreement(found[2]) == 1.0
    assert fit.per_hand(found[0]).mean() > 0  # no rule without a kept class throws the planted cards
    assert fit.per_hand(found[1]).mean() > 0  # nor with one


def test_a_cost_looked_up_in_the_tables_is_what_salon_rule_measures():
    rule = parse("younger-exchange", "keep point, guards; take all")
    looked_up = tables("younger", RULES, 5, hands=3).per_hand(rule)
    measured = cost(rule, RULES, hands=3, seed=5)
    assert measured["cost"]["value"] == pytest.approx(float(np.round(looked_up * 100).mean() / 100), abs=1e-9)


@pytest.fixture(scope="module")
def shipped():
    got = shipped_ladders()
    assert got is not None, "analysis/piquet/data/rule_ladders.json is missing: run scripts/make_rule_ladders.py --game piquet"
    return got


def test_both_exchanges_have_a_ladder_that_descends_on_the_hands_that_chose_it(shipped):
    assert {(lad["rules"], lad["decision"]) for lad in shipped["ladders"]} == {
        (v, d) for v in ("seed-de", "seed-no", "cavendish") for d in ("elder-exchange", "younger-exchange")}
    for lad in shipped["ladders"]:
        fits = [r["fit_cost"] for r in lad["rungs"]]
        assert fits == sorted(fits, reverse=True) and len(set(fits)) == len(fits)
        assert lad["hands"]["fit_seed"] != lad["hands"]["test_seed"]
        for r in lad["rungs"] + lad["book"]:
            rule = parse(lad["decision"], r["rule"])
            assert rule.text() == r["rule"] and r["lines"] == len(rule.keep) + 1
            lo, hi = r["cost"]["ci95"]
            assert lo <= r["cost"]["value"] <= hi and 0 <= r["agreement"]["by_hands"] <= 1
        assert {b["source"].split(":")[0] for b in lad["book"]} >= {"the book", "Cavendish"}


def test_salon_rules_piquet_answers_from_the_package(salon, shipped):
    code, out, err = salon(["rules", "piquet", "--decision", "younger-exchange", "--json"])
    assert code == 0, err
    res = json.loads(out)
    assert res["game"] == "piquet" and [lad["decision"] for lad in res["ladders"]] == ["younger-exchange"]
    code, out, err = salon(["rules", "piquet"])
    assert code == 0 and "Piquet, elder's exchange (seed-de)" in out and "Piquet, younger's exchange" in out
    assert "The books:" in out and "{" not in out
    for args, says in ((["rules", "piquet", "--decision", "elder"], "unknown Piquet decision"),
                       (["rules", "piquet", "--rules", "cavendish", "--rule", "pique=31"], "no shipped Piquet ladder"),
                       (["rules", "bezique", "--decision", "captain"], "unknown Bezique decision")):
        code, out, err = salon(args)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, (args, err)


def test_the_shipped_rungs_are_costed_again_under_strong_trick_play(shipped, salon):
    """Every rung and book rule of every shipped ladder carries its cost with the searching player
    and with open hands playing the tricks (scripts/make_rule_ladders.py --strong), on the same hands
    for every rule of a ladder: a rung that is a book rule word for word costs what the book costs."""
    for lad in shipped["ladders"]:
        entries = lad["rungs"] + lad["book"]
        for play, hands in (("dd", 60), ("search", 30)):
            for r in entries:
                c = r["strong"][play]
                assert c["hands"] == hands and c["ci95"][0] <= c["value"] <= c["ci95"][1]
            for r in lad["rungs"]:
                for b in lad["book"]:
                    if r["rule"] == b["rule"]:
                        assert r["strong"][play] == b["strong"][play]
        assert set(lad["strong_players"]) == {"dd", "search", "opponent_exchange"}
    code, out, _ = salon(["rules", "piquet", "--decision", "elder-exchange"])
    assert code == 0 and "the searching player" in out and "open hands (a bound)" in out


def test_strong_costs_pair_every_rule_on_the_same_hands():
    """On two hands with open hands, every rule of the ladder on the same deals: a rung equal to a
    book rule word for word costs exactly what the book costs."""
    from analysis.piquet.studies.rule_ladder import strong_costs

    lad = next(lad for lad in shipped_ladders()["ladders"] if lad["rules"] == "seed-de"
               and lad["decision"] == "elder-exchange")
    got = strong_costs(lad, RULES, "dd", hands=2)
    assert len(got["rungs"]) == len(lad["rungs"]) and len(got["book"]) == len(lad["book"])
    for r, c in zip(lad["rungs"], got["rungs"], strict=True):
        for b, d in zip(lad["book"], got["book"], strict=True):
            if r["rule"] == b["rule"]:
                assert c == d
    assert any(r["rule"] == b["rule"] for r in lad["rungs"] for b in lad["book"])

"""Bezique's playing rules (analysis/bezique/studies/playing_rules.py): a rule compiles to the
player's parameters, its cost is the player's own choice minus the rule on the same deals in both
seats, and rules the parameters cannot follow are refused in one line."""
from __future__ import annotations

import json

import pytest

from analysis.bezique.policies import TUNED_EXACT
from analysis.bezique.rules import get_rules
from analysis.bezique.studies import playing_rules as B
from analysis.errors import InputError
from analysis.playing_rules import parse


@pytest.mark.parametrize("name, text, want", [
    ("single-bezique", "otherwise lay", {"bezique_rule": "declare"}),
    ("single-bezique", "otherwise hold", {"bezique_rule": "hold", "hold_bezique_stock": 0}),
    ("single-bezique", "hold if stock >= 10; otherwise lay", {"bezique_rule": "hold", "hold_bezique_stock": 10}),
    ("single-bezique", "hold if stock > 9; otherwise lay", {"bezique_rule": "hold", "hold_bezique_stock": 10}),
    ("win", "otherwise win", {"greedy_win": True}),
    ("win", "otherwise duck", {"greedy_win": False, "meld_win": False, "brisque_win": False}),
    ("win", "win if meld >= 40 or brisque_led >= 1; otherwise duck",
     {"greedy_win": False, "meld_win": True, "brisque_win": True, "meld_win_min": 40}),
    ("win", "win if meld >= 20; win if brisque_led = 1; otherwise duck",
     {"greedy_win": False, "meld_win": True, "brisque_win": True, "meld_win_min": 20}),
    ("lead", "otherwise low", {"lead_rule": "low"}),
    ("lead", "otherwise high", {"lead_rule": "high"}),
    ("meld", "otherwise meld", {"meld_rule": "at-once"}),
])
def test_a_rule_compiles_to_the_players_parameters(name, text, want):
    assert B.overrides(parse(B.decision(name), text)) == want


@pytest.mark.parametrize("name, text", [
    ("single-bezique", "lay if stock >= 10; otherwise hold"),
    ("single-bezique", "hold if stock <= 10; otherwise lay"),
    ("win", "win if meld >= 20 and brisque_led >= 1; otherwise duck"),
    ("win", "duck if meld >= 20; otherwise win"),
    ("win", "win if meld + brisque_led >= 20; otherwise duck"),
    ("win", "win if brisque_led >= 2; otherwise duck"),
])
def test_rules_the_parameters_cannot_follow_are_refused_naming_the_shapes_they_can(name, text):
    with pytest.raises(InputError) as e:
        B.overrides(parse(B.decision(name), text))
    assert "write" in str(e.value) and "\n" not in str(e.value)


def test_the_players_own_choice_written_as_a_rule_costs_exactly_zero():
    """The tuned player wins every trick it can: 'otherwise win' is its choice, deal for deal."""
    res = B.cost(parse(B.decision("win"), "otherwise win"), get_rules("seed-de"), deals=2_000, seed=4)
    assert res["cost"]["value"] == 0 and res["cost"]["ci95"] == [0, 0]
    assert res["players"]["baseline"] == TUNED_EXACT.describe() and res["players"]["opponent"] == TUNED_EXACT.describe()
    ducking = B.cost(parse(B.decision("win"), "otherwise duck"), get_rules("seed-de"), deals=2_000, seed=4)
    assert ducking["cost"]["ci95"][0] > 0  # never trying to win a trick gives points away


def test_the_command_line_contract(salon):
    code, out, err = salon(["rule", "bezique", "single-bezique", "hold if stock >= 10; otherwise lay", "--deals", "4",
                            "--seed", "1", "--json"])
    assert code == 0, err
    res = json.loads(out)
    assert set(res) >= {"game", "decision", "rules", "rule", "cost", "exploitability", "agreement", "against",
                        "players", "deals", "seed"}
    assert res["deals"] == 4 and res["seed"] == 1 and res["players"]["baseline"]["kind"] == "search"
    assert res["players"]["rule_follower"]["bezique_rule"] == "hold" and res["players"]["baseline"]["bezique_rule"] == "search"
    assert res["cost"]["ci95"][0] <= res["cost"]["value"] <= res["cost"]["ci95"][1]
    code, out, err = salon(["rule", "bezique", "lead", "otherwise high", "--deals", "2", "--json"])
    assert code == 0, err
    res = json.loads(out)
    assert res["decision"] == "lead" and res["players"]["rule_follower"]["lead_rule"] == "high"
    assert "lead_rule" not in res["players"]["baseline"] and res["players"]["baseline"]["kind"] == "search"
    code, out, err = salon(["rule", "bezique", "win", "win if meld >= 20; otherwise duck", "--deals", "500"])
    assert code == 0 and "Gives up" in out and "tuned rule-of-thumb player" in out
    for args, says in ((["win", "win if meld >= 20 and brisque_led >= 1; otherwise duck"], "write"),
                       (["lead", "low if stock >= 10; otherwise high"], "take no condition: write 'otherwise ACTION' with one of low, high"),
                       (["meld", "otherwise hold"], "unknown action 'hold'"),
                       (["captain", "otherwise win"], "unknown Bezique decision"),
                       (["win", "otherwise win", "--deals", "0"], "--deals must be at least 1")):
        code, out, err = salon(["rule", "bezique", *args])
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_shipped_ladders_choose_on_one_seed_and_cost_on_another_with_the_books_beside():
    from analysis.bezique.studies import rule_ladder as L

    shipped = L.shipped_ladders()
    assert sorted((lad["rules"], lad["decision"]) for lad in shipped["ladders"]) == [
        ("classic", "lead"), ("classic", "meld"), ("classic", "single-bezique"), ("classic", "win"),
        ("seed-de", "lead"), ("seed-de", "meld"), ("seed-de", "single-bezique"), ("seed-de", "win")]
    for lad in shipped["ladders"]:
        fits = [r["fit_cost"] for r in lad["rungs"]]
        assert [r["lines"] for r in lad["rungs"]] == sorted({r["lines"] for r in lad["rungs"]})
        assert fits == sorted(fits, reverse=True) and lad["chosen_on"] != lad["costed_on"]
        assert {b["rule"] for b in lad["book"]} == {parse(B.decision(lad["decision"]), t).text()
                                                    for _, t in L.BOOK[lad["decision"]]}
        assert lad["switches"] == get_rules(lad["rules"]).to_array().tolist()
        for r in lad["rungs"] + lad["book"]:
            B.overrides(parse(B.decision(lad["decision"]), r["rule"]))  # every rule is one the player follows
        if lad["decision"] == "win":  # the player's own choice, written as a rule, costs nothing
            assert lad["rungs"][0]["rule"] == "otherwise win" and lad["rungs"][0]["cost"]["ci95"] == [0, 0]
    small = L.ladder("win", get_rules("seed-de"), deals=300)  # --refit's path, on a few deals
    assert small["rungs"][0]["rule"] == "otherwise win" and len(small["book"]) == 2


def test_salon_rules_bezique_answers_from_the_package(salon):
    code, out, err = salon(["rules", "bezique", "--decision", "single-bezique", "--json"])
    assert code == 0, err
    (lad,) = json.loads(out)["ladders"]
    assert lad["decision"] == "single-bezique" and lad["players"]["rule_follower"]["kind"] == "search"
    code, out, err = salon(["rules", "bezique"])
    assert code == 0 and "Bezique, win (seed-de)" in out and "The books:" in out and "{" not in out
    code, out, err = salon(["rules", "bezique", "--rules", "seed-de", "--rule", "target=1500"])
    assert code == 2 and "no shipped Bezique ladder" in err and len(err.strip().splitlines()) == 1

"""The ladder of playing rules (docs/playing-rules.md, "The ladder"): the search finds planted
rules, the shipped Écarté ladders are costed on held-out deals exactly as `salon rule` costs them,
and `salon rules` answers from the package."""
import json

import numpy as np
import pytest

from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies import playing_rules as PR
from analysis.ecarte.studies import rule_ladder as RL
from analysis.playing_rules import parse
from analysis.rule_ladder import Groups, atoms, decide, rule_text, search, simplify


def _grid():
    a, b, c = np.meshgrid(np.arange(6), np.arange(4), np.arange(2), indexing="ij")
    return np.stack([a.ravel(), b.ravel(), c.ravel()], 1)


def test_the_search_finds_a_planted_three_line_rule_and_its_value():
    values = _grid()
    # Planted: "yes if a + b >= 5; no if c = 1; yes if a >= 3; otherwise no", with random gains of the right sign.
    rng = np.random.default_rng(1)
    yes = (values[:, 0] + values[:, 1] >= 5) | ((values[:, 2] == 0) & (values[:, 0] >= 3))
    gain = np.where(yes, 1, -1) * rng.uniform(0.1, 1.0, len(values))
    g = Groups(("a", "b", "c"), values, gain)
    cands = atoms(g, {"c"}, 2)
    best = search(g, cands, 4, 8)
    assert [len(lines) + 1 for lines, _, _ in best] == [1, 2, 3, 4]
    fits = [v for _, _, v in best]
    assert fits == sorted(fits) and fits[-1] == pytest.approx(gain[gain > 0].sum())
    lines, first, _ = best[-1]
    assert np.array_equal(decide(lines, first, cands), yes)
    text = rule_text(lines, first, cands, ("yes", "no"))
    assert text.count(";") == 3 and text.endswith("otherwise no")


def test_simplify_drops_only_the_lines_that_decide_nothing():
    values = _grid()
    g = Groups(("a", "b", "c"), values, np.ones(len(values)))
    cands = atoms(g, {"c"}, 1)
    a3 = next(k for k, x in enumerate(cands) if x.text() == "a >= 3")
    a4 = next(k for k, x in enumerate(cands) if x.text() == "a >= 4")
    c1 = next(k for k, x in enumerate(cands) if x.text() == "c = 1")
    lines = ((True, (a3,)), (True, (a4,)), (False, (c1,)))  # a >= 4 is inside a >= 3: it decides nothing
    assert simplify(lines, False, cands) == ((True, (a3,)),)
    assert simplify(((True, (a3,)), (False, (c1,))), True, cands) == ((True, (a3,)), (False, (c1,)))


@pytest.fixture(scope="module")
def shipped():
    got = RL.shipped_ladders()
    assert got is not None, "analysis/ecarte/data/rule_ladders.json is missing: run scripts/make_rule_ladders.py"
    return got


def test_every_variant_and_decision_has_a_ladder_that_descends_on_the_deals_that_chose_it(shipped):
    assert sorted((lad["rules"], lad["decision"]) for lad in shipped["ladders"]) == [
        ("classic", "dealer"), ("classic", "discard"), ("classic", "elder"), ("seed-de", "dealer"),
        ("seed-de", "discard"), ("seed-de", "elder")]
    for lad in shipped["ladders"]:
        if lad["decision"] == "discard":  # tests/test_ecarte_discard_rules.py
            continue
        lines = [r["lines"] for r in lad["rungs"]]
        fits = [r["fit_cost"] for r in lad["rungs"]]
        assert lines[0] == 1 and lines == sorted(set(lines)) and max(lines) <= RL.MOST_LINES
        assert fits == sorted(fits, reverse=True), lad["rules"]
        assert lad["chosen_on"] != lad["costed_on"] and lad["switches"] == get_rules(lad["rules"]).switches()
        assert lad["book"] and all(b["cost"]["ci95"][0] <= b["cost"]["value"] <= b["cost"]["ci95"][1]
                                   for b in lad["book"])


def test_the_shipped_rungs_cost_what_salon_rule_says_on_the_held_out_deals(shipped):
    lad = next(x for x in shipped["ladders"] if x["rules"] == "classic" and x["decision"] == "elder")
    rules = get_rules("classic")
    for rung in lad["rungs"][:4]:
        res = PR.cost(parse(PR.decision("elder"), rung["rule"]), rules, deals=1)
        assert res["cost"]["value"] == pytest.approx(rung["cost"]["value"], abs=1e-12)
        assert res["lines"] == rung["lines"] and res["agreement"] == pytest.approx(rung["agreement"])
    # ... and what the dealer gains by answering it, measured as `salon rule` measures it (on few deals
    # here; the shipped figures use salon rule's default deals and seed).
    rung = lad["rungs"][0]
    ans = PR.answers("elder", rules, deals=1)
    t = PR.set_table("elder", rules)
    mine = RL._rung(t, PR.rule_choices(parse(PR.decision("elder"), rung["rule"]), t), ans, "searched", 1)
    res = PR.cost(parse(PR.decision("elder"), rung["rule"]), rules, deals=1)
    assert res["exploitability"]["value"] == mine["exploitability"]["value"] > 0  # always proposing: read
    assert rung["exploitability"]["ci95"][0] > 0.005 and res["exploitability"]["reading"]
    # The searched rules are measured on other deals than those that chose them: the two costs differ.
    assert any(abs(r["cost"]["value"] - r["fit_cost"]) > 1e-4 for r in lad["rungs"])
    # The books' rules on the same scale: the Britannica's elder rule costs what `salon rule` gives it.
    brit = lad["book"][0]
    assert brit["source"].startswith("Britannica") and brit["cost"]["value"] == pytest.approx(0.0358, abs=5e-4)


@pytest.mark.parametrize("args, words", [
    (["rules", "bezique", "--decision", "captain"], "unknown Bezique decision"),
    (["rules", "ecarte", "--decision", "kings"], "unknown Écarté decision"),
    (["rules", "ecarte", "--rules", "nosuch"], "nosuch"),
    (["rules", "ecarte", "--rules", "classic", "--rule", "target=7"], "with target=7"),
])
def test_bad_questions_get_one_line_and_exit_2(salon, args, words):
    code, out, err = salon(args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_salon_rules_answers_from_the_package(salon):
    code, out, err = salon(["rules", "ecarte", "--decision", "dealer", "--rules", "classic", "--json"])
    assert code == 0
    res = json.loads(out)
    (lad,) = res["ladders"]
    assert res["game"] == "ecarte" and res["rules"] == "classic" and lad["decision"] == "dealer"
    for rung in lad["rungs"]:
        assert set(rung) >= {"lines", "rule", "cost", "fit_cost", "agreement"}
        lo, hi = rung["cost"]["ci95"]
        assert lo <= rung["cost"]["value"] <= hi
    assert lad["players"]["tables"] and lad["against"].startswith("the shipped equilibrium")
    code, text, _ = salon(["rules", "ecarte", "--rules", "classic"])
    assert code == 0 and "1 line: gives up" in text and "Britannica" in text and "{" not in text
    assert "Écarté, the discard (classic)" in text and "keep trumps" in text


def test_refit_searches_the_same_ladder_again(shipped):
    lad = next(x for x in shipped["ladders"] if x["rules"] == "classic" and x["decision"] == "dealer")
    again = json.loads(json.dumps(RL.ladder("dealer", get_rules("classic"), most_lines=3, exploit_deals=1)))
    assert [r["rule"] for r in again["rungs"]] == [r["rule"] for r in lad["rungs"] if r["lines"] <= 3]
    shipped_third = [r for r in lad["rungs"] if r["lines"] <= 3][-1]
    assert again["rungs"][-1]["cost"]["value"] == pytest.approx(shipped_third["cost"]["value"], abs=1e-12)


def test_ladders_made_again_replace_only_their_own_and_keep_the_order():
    from analysis.rule_ladder import merge_ladders

    shipped = {"ladders": [{"rules": "classic", "decision": "elder", "old": 1},
                           {"rules": "seed-de", "decision": "discard", "old": 1},
                           {"rules": "seed-de", "decision": "elder", "old": 1}]}
    new = {"rules": "seed-de", "decision": "discard", "old": 0}
    got = merge_ladders(shipped, [new], ("seed-de",), ("discard",), ("seed-de", "classic"),
                        ("elder", "dealer", "discard"))
    assert got["ladders"] == [shipped["ladders"][2], new, shipped["ladders"][0]]
    assert RL.make_ladders(RL.VARIANTS, ()) == RL.shipped_ladders()  # nothing made again: the file as it is

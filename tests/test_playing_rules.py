"""Playing rules (analysis/playing_rules.py, analysis/ecarte/studies/playing_rules.py): the syntax
parsed and printed back, bad rules refused in one line, and Écarté's costs against the shipped
equilibrium checked against the tables by hand and against the Britannica's cost."""
from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies import playing_rules as EP
from analysis.errors import InputError
from analysis.playing_rules import parse


def test_a_rule_is_read_printed_in_words_and_read_back_the_same():
    d = EP.decision("dealer")
    r = parse(d, "refuse if trumps >= 3 or (guarded_suits >= 2 and trumps >= 1)\nrefuse if trump_king = 1; otherwise ACCEPT")
    assert r.length == 3 and r.otherwise == "accept"
    assert parse(d, r.text()) == r
    assert r.words().splitlines()[0] == ("refuse if trumps held at least 3 or (guarded plain suits at least 2 and "
                                         "trumps held at least 1)")
    # First line that holds decides; and binds before or.
    assert r.action({"trumps": 1, "guarded_suits": 2, "trump_king": 0}) == "refuse"
    assert r.action({"trumps": 0, "guarded_suits": 2, "trump_king": 0}) == "accept"
    assert r.action({"trumps": 0, "guarded_suits": 0, "trump_king": 1}) == "refuse"
    r2 = parse(d, "refuse if trumps >= 3 or guarded_suits >= 2 and trumps >= 1; otherwise accept")
    assert r2.action({"trumps": 0, "guarded_suits": 2}) == "accept" and r2.action({"trumps": 3, "guarded_suits": 0})


@pytest.mark.parametrize("text, says", [
    ("play if trumps >= 3", "last line must be 'otherwise ACTION'"),
    ("play if spades >= 3; otherwise propose", "unknown feature 'spades'"),
    ("fold if trumps >= 3; otherwise propose", "unknown action 'fold'"),
    ("play if trumps >= ; otherwise propose", "ends too soon"),
    ("play if trumps 3; otherwise propose", "expected a comparison"),
    ("play if (trumps >= 3; otherwise propose", "ends too soon"),
    ("play if trumps >= 3 __import__; otherwise propose", "unexpected"),
    ("play trumps >= 3; otherwise propose", "ACTION if CONDITION"),
    ("", "at least one line"),
])
def test_bad_rules_are_refused_in_one_line_naming_what_is_valid(text, says):
    with pytest.raises(InputError) as e:
        parse(EP.decision("elder"), text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_always_proposing_costs_what_the_tables_say_and_the_britannica_what_classical_says():
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies import classical
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    rules = get_rules("classic")
    got = EP.cost(parse(EP.decision("elder"), "otherwise propose"), rules, deals=2)
    df, _ = T.shipped(rules, HeuristicPolicy())
    t = df[df["side"] == "elder"]
    w = info_sets().weight[t["info_set"].to_numpy()]
    want = float((w * (t["probability"].to_numpy() - 1.0) * t["held_out"].to_numpy()).sum())
    assert got["cost"]["value"] == pytest.approx(want, rel=1e-9)
    assert got["share"]["rule"] == 1.0 and got["cost"]["ci95"][0] <= want <= got["cost"]["ci95"][1]
    book = EP.cost(parse(EP.decision("elder"), "play if trumps + plain_kings >= 3; otherwise propose"), rules, deals=2)
    assert book["cost"]["value"] == pytest.approx(classical.compare(rules)["sides"]["elder"]["cost"]["value"])
    assert 0 < book["agreement"]["by_hands"] < 1 and book["players"]["tables"] and book["deals"]["held_out"] > 0


def test_the_command_line_contract(salon):
    code, out, err = salon(["rule", "ecarte", "elder", "play if trumps + plain_kings >= 3; otherwise propose",
                            "--rules", "classic", "--deals", "2", "--seed", "3", "--json"])
    assert code == 0, err
    res = json.loads(out)
    assert set(res) >= {"game", "decision", "rules", "rule", "cost", "exploitability", "agreement", "against",
                        "players", "deals", "seed"}
    assert res["game"] == "ecarte" and res["decision"] == "elder" and res["rules"] == "classic"
    e = res["exploitability"]
    assert e["ci95"][0] <= e["value"] <= e["ci95"][1] and res["deals"]["exploitability"] == (2 * EP.CHOOSE_FACTOR + 2) * 86_810
    assert res["seed"] == 3 and str(EP.EXPLOIT_SEED + 6) in e["reading"] and e["answering_policy"]["kind"] == "heuristic"
    lo, hi = res["cost"]["ci95"]
    assert lo <= res["cost"]["value"] <= hi and np.isfinite(res["cost"]["value"])
    code, out, err = salon(["rule", "ecarte", "elder", "play if trumps >= 2; otherwise propose", "--deals", "2"])
    assert code == 0 and out.splitlines()[1] == "  play if trumps held at least 2" and "Gives up" in out
    assert "An opponent who knew the rule" in out
    for args, says in ((["ecarte", "elder", "play if spades >= 2; otherwise propose"], "unknown feature"),
                       (["ecarte", "captain", "otherwise play"], "unknown Écarté decision"),
                       (["bezique", "lead", "otherwise medium"], "unknown action 'medium'"),
                       (["piquet", "elder", "otherwise keep"], "unknown Piquet decision"),
                       (["ecarte", "elder", "otherwise play", "--deals", "0"], "--deals must be at least 1")):
        code, out, err = salon(["rule", *args])
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_exploitability_is_zero_for_the_solution_and_for_a_rule_that_leaves_no_answer_and_clear_for_a_bad_rule():
    """What the other side gains by answering a rule (measured on deals that did not choose the
    answer): nothing against the solution itself (no change to answer), nothing against an elder who
    never proposes (the dealer never answers), and a clear gain against the Britannica's dealer
    under seed-de, whose refusals elder can read (he proposes more where it refuses less)."""
    rules = get_rules("seed-de")
    t = EP.set_table("dealer", rules)
    ans = EP.answers("dealer", rules, deals=4, seed=1)
    assert len(ans.choose) == EP.CHOOSE_FACTOR * len(ans.measure) == EP.CHOOSE_FACTOR * 4 * 86_810 and ans.seeds == (EP.EXPLOIT_SEED + 2, EP.EXPLOIT_SEED + 3)
    assert abs(EP.exploitability(t, t.probability, ans)["answer_gain"]["value"]) < 1e-4
    britannica = parse(EP.decision("dealer"), "refuse if trumps >= 3 or guarded_suits >= 3 or (guarded_suits >= 2 and "
                                              "trumps >= 1) or (guarded_suits >= 1 and trumps >= 2); otherwise accept")
    e = EP.exploitability(t, EP.rule_choices(britannica, t), ans)
    assert e["ci95"][0] > 0.01 and e["answer_changes"] > 0.01
    never = EP.cost(parse(EP.decision("elder"), "otherwise play"), rules, deals=4, seed=1)
    lo, hi = never["exploitability"]["ci95"]
    g = never["exploitability"]["answer_gain"]
    assert lo == 0 and hi < 0.005 and g["ci95"][0] <= 0 <= g["ci95"][1] + 1e-4

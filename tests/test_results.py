"""Study results as objects (analysis.results): the table agrees with the JSON contract, estimates
come back as Estimates, and the notebook view names the players and rules."""
import json

import numpy as np
import pytest

from analysis.clikit import json_default
from analysis.results import Result, estimate_of, estimates_frame, flat_row, options_frame
from analysis.stats import Estimate, proportion


def test_estimate_round_trips_through_its_json_form():
    e = proportion(37, 400)
    back = estimate_of(e.to_dict())
    assert (back.value, back.lo, back.hi, back.n) == pytest.approx((e.value, e.lo, e.hi, e.n))
    assert estimate_of(None) is None
    missing = estimate_of({"value": None, "ci95": None, "n": 0})
    assert np.isnan(missing.value) and np.isnan(missing.lo)


def test_flat_row_spreads_estimates_and_joins_card_lists():
    row = flat_row({"card": "AS", "discard": ["7S", "8H"], "net": {"value": 2.5, "ci95": [1.0, 4.0], "n": 9},
                    "deep": {"x": 1}, "rank": 1})
    assert row == {"card": "AS", "discard": "7S 8H", "net": 2.5, "net_lo": 1.0, "net_hi": 4.0, "rank": 1}


def test_simulation_table_is_the_contract_stats():
    from analysis.piquet.studies.simulate import simulate_deals

    res = simulate_deals(3_000, seed=4)
    assert isinstance(res, Result)
    stats = res["stats"]
    assert list(res.table["statistic"]) == list(stats)
    row = res.table.set_index("statistic").loc["elder_score"]
    assert (row["value"], row["lo"], row["hi"], row["n"]) == pytest.approx(
        (stats["elder_score"]["value"], *stats["elder_score"]["ci95"], 3_000))
    assert isinstance(res.estimate("pique"), Estimate) and res.estimate("pique").value == stats["pique"]["value"]
    with pytest.raises(KeyError):
        res.estimate("no_such_statistic")
    assert res.about["rules"] == "seed-de" and res.about["deals"] == 3_000 and set(res.about["policies"]) == {
        "elder", "younger"}
    # The JSON contract is unchanged: the same document whether dumped from the object or its dict.
    assert json.loads(json.dumps(res, default=json_default)) == json.loads(json.dumps(res.to_dict()))


def test_notebook_view_names_players_rules_and_budget():
    from analysis.ecarte.studies.simulate import propose_hand

    res = propose_hand("KS QS 7H 8D 9C", "10S", samples=400, seed=1)
    html = res._repr_html_()
    for words in ("seed-de", "players elder heuristic; dealer heuristic", "400", "propose minus play"):
        assert words in html
    t = res.table.set_index("option")
    assert t.loc["propose minus play", "value"] == pytest.approx(res["difference"]["value"])
    assert res.recommendation == res["recommendation"] == ("propose" if res["difference"]["value"] > 0 else "play")
    assert t.loc["propose", "p_point"] == pytest.approx(res["propose_point"]["value"])


def test_options_frame_keeps_order_and_columns():
    rows = [{"card": c, "net": {"value": v, "ci95": [v - 1, v + 1], "n": 5}} for c, v in (("AS", 3.0), ("7H", -1.0))]
    df = options_frame(rows)
    assert list(df["card"]) == ["AS", "7H"] and list(df.columns) == ["card", "net", "net_lo", "net_hi"]
    named = estimates_frame({"a": proportion(1, 4)}, index="option")
    assert list(named.columns) == ["option", "value", "lo", "hi", "n"] and named.loc[0, "n"] == 4

"""The discard study under double-dummy play (analysis/piquet/studies/discards/study_search.py): each row is
checked against the exchanges played again directly, the store resumes it identically, and a
saved report gets it with ``--refresh``."""
import numpy as np
import pytest

from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.analyser import mask_of, parse_cards
from analysis.piquet.studies.discards.study import dealt_hand, rule_discards
from analysis.piquet.studies.discards.study_search import (
    CHOOSE_OFFSET,
    REPORT_OFFSET,
    strong_hand_row,
    strong_study,
    strong_summary,
)

RULES = get_rules("seed-de")
ARGS = dict(race_samples=200, candidates=4, deals=40, seed=3, elder_took=5)


def _play(hand, seat, masks, seed):
    from analysis.piquet.policies import DoubleDummyPolicy
    from analysis.piquet.studies.discards.analyser_search import play_options, policy_arrays

    pe, py = policy_arrays(DoubleDummyPolicy(), seat == "younger", 5)
    return play_options(hand, seat == "younger", np.array(masks, dtype=np.int64), RULES, pe, py, seed, ARGS["deals"],
                        None)[0]


@pytest.mark.parametrize("seat", ["elder", "younger"])
def test_a_row_is_what_the_exchanges_score_when_played_again(seat):
    h = 1
    row = strong_hand_row(h, seat, RULES, ARGS["race_samples"], ARGS["candidates"], ARGS["deals"], ARGS["seed"], 5)
    hand = dealt_hand(ARGS["seed"], h, seat)
    best = mask_of(parse_cards(row["dd_best_discard"]))
    assert best & hand == best and bin(best).count("1") == row["dd_best_takes"]
    rules_of_thumb = rule_discards(hand, seat, RULES)
    named = {name: rules_of_thumb[name] for name in ("shortest_weakest", "heuristic", "learned")}
    masks = [best, *named.values()]
    report = _play(hand, seat, masks, ARGS["seed"] + REPORT_OFFSET + h)
    assert row["dd_best_net"] == pytest.approx(report[:, 0].mean())
    for i, name in enumerate(named, start=1):
        assert row[f"{name}_cost"] == pytest.approx((report[:, 0] - report[:, i]).mean())
    # The best was chosen on other deals: on them it scores at least as much as every rule's exchange.
    chose = _play(hand, seat, masks, ARGS["seed"] + CHOOSE_OFFSET + h).mean(axis=0)
    assert chose[0] >= chose.max() - 1e-9
    assert 1 <= row["race_best_dd_rank"] <= row["exchanges_played"]
    assert row["agrees_with_race"] == (row["race_best_dd_rank"] == 1)
    if row["agrees_with_race"]:
        assert row["race_best_cost"] == 0.0


def test_the_study_resumes_from_the_store_identically(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    small = strong_study(2, "elder", RULES, **{k: v for k, v in ARGS.items() if k != "elder_took"})
    larger = strong_study(3, "elder", RULES, **{k: v for k, v in ARGS.items() if k != "elder_took"})
    assert larger.iloc[:2].equals(small)
    monkeypatch.setenv("SALON_RESULTS", "off")
    fresh = strong_study(3, "elder", RULES, **{k: v for k, v in ARGS.items() if k != "elder_took"})
    assert fresh.equals(larger)
    s = strong_summary(larger)
    assert s["hands"] == 3 and sum(s["best_takes"].values()) == pytest.approx(1.0)
    assert s["costs"]["take_all"]["n"] == 3 and "keep_guards" not in s["costs"]  # a younger-only rule


def test_bad_sizes_are_one_line_errors(salon):
    from analysis.errors import InputError

    with pytest.raises(InputError, match="deals must be positive"):
        strong_study(1, "elder", RULES, deals=0)
    code, _, err = salon(["report", "--refresh", "piquet.strong_discards"])
    assert code == 2 and "--refresh needs --from-saved" in err and len(err.strip().splitlines()) == 1


def test_refresh_computes_one_part_of_a_saved_report_again(tmp_path, monkeypatch, salon):
    import json

    from analysis.report import build

    monkeypatch.setitem(build.BUDGETS, "tiny", {"piquet_dd_hands": 1, "piquet_dd_race_samples": 100,
                                                "piquet_dd_candidates": 2, "piquet_dd_deals": 20})
    saved = {"budget": "tiny", "seed": 2, "tips": {}, "sections": {"piquet": {"discards": [], "kept": 1}}}
    (tmp_path / "figures").mkdir()
    (tmp_path / build.CONTEXT_FILE).write_text(json.dumps(saved))
    code, _, err = salon(["report", "--from-saved", "--refresh", "piquet.nope", "--out", str(tmp_path)])
    assert code == 2 and "no report part 'piquet.nope' (parts: " in err and "piquet.strong_discards" in err
    context = build.refresh_part(build.load_context(str(tmp_path)), str(tmp_path), "piquet.strong_discards")
    part = context["sections"]["piquet"]["strong_discards"]
    assert [s["seat"] for s in part["seats"]] == ["elder", "younger"] and part["hands"] == 1
    assert context["sections"]["piquet"]["kept"] == 1  # the rest of the saved report is untouched
    assert context["refreshed"][0]["part"] == "piquet.strong_discards" and context["refreshed"][0]["code"]
    assert json.loads((tmp_path / build.CONTEXT_FILE).read_text())["refreshed"] == context["refreshed"]
    assert (tmp_path / "piquet_discards_dd_younger.csv").exists()


def test_refresh_players_replaces_only_the_players_table(tmp_path, monkeypatch):
    """``--refresh piquet.players`` (after a learned-exchange refit: its rows name the learned
    exchange) recomputes the table at the saved budget and leaves the rest of the section."""
    import json

    from analysis.report import build

    monkeypatch.setitem(build.BUDGETS, "tiny", {"piquet_search_deals": 20})
    saved = {"budget": "tiny", "seed": 3, "tips": {}, "sections": {"piquet": {"players": {}, "kept": 1}}}
    (tmp_path / "figures").mkdir()
    (tmp_path / build.CONTEXT_FILE).write_text(json.dumps(saved))
    context = build.refresh_part(build.load_context(str(tmp_path)), str(tmp_path), "piquet.players")
    part = context["sections"]["piquet"]["players"]
    assert "learned" in part["players"] and part["players"][-1] == "Cavendish"
    assert {n for n, deals, _ in part["why"] if deals} >= {"heuristic", "learned"}
    assert context["sections"]["piquet"]["kept"] == 1 and context["refreshed"][0]["part"] == "piquet.players"
    assert (tmp_path / "piquet_players.csv").exists()


def test_the_pique_row_counts_elders_pique_and_repique_as_cavendish_did():
    """Cavendish's 12.2% pique counts elder's repiques (docs/classical.md), not younger's: the row
    compared with it is pique + elder's repique, never younger's repique."""
    import numpy as np

    from analysis.piquet.engine import layout as L
    from analysis.piquet.studies.players import CAVENDISH, STATISTICS, player_stats

    t = np.zeros(L.N_TALLY, dtype=np.int64)
    t[L.T_DEALS], t[L.T_PIQUE], t[L.T_REPIQUE_ELDER], t[L.T_REPIQUE_YOUNGER] = 1000, 90, 30, 15
    stats = player_stats(t)
    assert stats["pique_elder"].value == 0.12 and stats["repique_younger"].value == 0.015
    assert dict(STATISTICS)["pique_elder"].startswith("pique or repique, elder") and CAVENDISH["pique_elder"] == 0.122

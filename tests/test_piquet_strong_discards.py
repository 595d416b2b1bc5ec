"""The discard analyser under strong play (analysis.piquet.studies.discards.analyser_search): the leaders of the
heuristic race are ranked by dd (then search) players on one set of deals and reported on another;
the command line's --play."""
from __future__ import annotations

import json

import numpy as np

from analysis.cli import main
from analysis.piquet.answers import BUDGETS
from analysis.piquet.policies import DoubleDummyPolicy
from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.analyser import analyse_hand
from analysis.piquet.studies.discards.analyser_search import SEED_OFFSETS, play_options, strong_analysis

HAND = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8"


def test_choose_and_report_deals_are_different_deals():
    """The two dd stages play the same exchanges on deals of different seeds (held out), and the
    same seed gives the same numbers."""
    rules = get_rules()
    a = analyse_hand(HAND, "elder", rules, samples=300, race=False)
    masks = a.options[a.table["option"].to_numpy()[:3]]
    p = DoubleDummyPolicy().to_array()
    one = play_options(a.hand, False, masks, rules, p, p, 5 + SEED_OFFSETS["dd_choose"], 60, 1)[0]
    two = play_options(a.hand, False, masks, rules, p, p, 5 + SEED_OFFSETS["dd_report"], 60, 2)[0]
    again = play_options(a.hand, False, masks, rules, p, p, 5 + SEED_OFFSETS["dd_choose"], 60, 2)[0]
    assert np.array_equal(one, again) and not np.array_equal(one, two)
    assert len(set(SEED_OFFSETS.values())) == len(SEED_OFFSETS)


def test_strong_analysis_ranks_reports_and_compares_with_the_heuristic():
    rules = get_rules("cavendish")
    a = analyse_hand(HAND, "elder", rules, samples=400, race=False)
    s = strong_analysis(a, rules, "search", candidates=6, deals=80, search_top=2, search_deals=12, seed=3)
    assert [e["rank"] for e in s["exchanges"]] == list(range(1, 7))
    assert sorted(e["heuristic_rank"] for e in s["exchanges"]) == list(range(1, 7))
    best = s["exchanges"][0]
    assert best["diff_to_best"]["value"] == 0.0
    for e in s["exchanges"]:
        lo, hi = e["net"]["ci95"]
        assert lo <= e["net"]["value"] <= hi
        assert 0 <= e["p_cards"]["value"] <= 1 and e["net"]["n"] == 80
    assert -1 <= s["kendall_tau"]["value"] <= 1 and s["kendall_tau"]["over"] == 6
    # Each best's cost under the other's play, on deals neither ranking saw.
    assert s["heuristic_best_cost_under_strong"]["n"] == s["strong_best_cost_under_heuristic"]["n"] == 80
    assert [e["dd_rank"] for e in s["search"]["exchanges"]] != [] and s["best"] == s["search"]["exchanges"][0]["discard"]
    assert s["players"]["search"]["kind"] == "search" and s["players"]["dd"]["kind"] == "dd"
    json.dumps(s)


def test_auto_play_is_the_budgets_player_and_heuristic_play_skips_the_strong_stage(capsys):
    assert {k: b.play for k, b in BUDGETS.items()} == {"quick": "dd", "standard": "dd", "thorough": "search"}
    main(["piquet", "discard", HAND, "--samples", "400", "--top", "2", "--json", "--quiet", "--play", "heuristic"])
    obj = json.loads(capsys.readouterr().out)
    assert obj["play"] == {"asked": "heuristic", "used": "heuristic"} and "strong" not in obj
    # Without a strong stage the answer is the race's best, measured on the deals that chose it.
    assert obj["answer"]["player"] == "heuristic" and obj["answer"]["held_out"] is False
    assert obj["answer"]["throw"] == obj["options"][0]["discard"]


def test_a_progress_bar_changes_nothing():
    """The strong stage plays its deals in blocks when a bar is shown: the same numbers."""
    rules = get_rules()
    a = analyse_hand(HAND, "elder", rules, samples=200, race=False)
    masks = a.options[a.table["option"].to_numpy()[:2]]
    p = DoubleDummyPolicy().to_array()

    class Bar:
        disable = False
        n = 0

        def update(self, k):
            self.n += k

    bar = Bar()
    whole = play_options(a.hand, False, masks, rules, p, p, 9, 40, 2)
    blocks = play_options(a.hand, False, masks, rules, p, p, 9, 40, 2, bar)
    assert np.array_equal(whole[0], blocks[0]) and np.array_equal(whole[1], blocks[1]) and bar.n == 80

"""The Bezique section of the report: the variants side by side, the invariant and exact checks,
games to the target, the figures, and the templates rendering it (small budgets, the section alone)."""
import math
import re

import pytest

from analysis.bezique.report import overview_section
from analysis.bezique.studies.simulate import INVARIANTS, OVERVIEW_STATS, invariant_checks
from analysis.report.build import BUDGETS, not_built, write_report

DEALS, GAMES = 20_000, 200


@pytest.fixture(scope="module")
def section(tmp_path_factory):
    out = tmp_path_factory.mktemp("bezique_report")
    (out / "figures").mkdir()
    return out, overview_section(str(out), str(out / "figures"), DEALS, GAMES, seed=1, threads=None)


def _cells(rows):
    return [c for r in rows for c in r["cells"]]


def test_section_statistics_have_intervals(section):
    _, bz = section
    assert bz["variants"] == ["seed-de", "classic"] and bz["deals"] == DEALS and bz["games"] == GAMES
    assert [r["statistic"] for r in bz["melds"]] == list(OVERVIEW_STATS["meld"])
    assert {r["statistic"] for r in bz["rows"]} == set(OVERVIEW_STATS["points"] + OVERVIEW_STATS["sevens"])
    assert [r["statistic"] for r in bz["game_rows"]] == ["deals_per_game", "dealer_first_wins",
                                                         "ended_in_stock_phase", "undecided"]
    for value, lo, hi in _cells(bz["rows"] + bz["melds"] + bz["game_rows"]):
        assert all(math.isfinite(x) for x in (value, lo, hi)) and lo <= value <= hi
    for value, _, _ in _cells(bz["melds"]):
        assert 0 <= value <= 1
    rows = {r["statistic"]: r["cells"] for r in bz["rows"] + bz["game_rows"]}
    # The trump sevens score 0, 10 or 20 per deal; the same seed deals the same turn-ups in both variants.
    assert all(0 < c[0] < 20 for c in rows["seven_points"])
    assert rows["turnup_seven"][0] == rows["turnup_seven"][1]
    # Elder's and the dealer's points differ by the edge, in each variant.
    for e, d, net in zip(rows["points_per_deal_elder"], rows["points_per_deal_dealer"], rows["elder_minus_dealer"],
                         strict=True):
        assert e[0] - d[0] == pytest.approx(net[0])
    assert all(c[0] >= 2 for c in rows["deals_per_game"])
    assert bz["target"] == "1000"


def test_invariants_hold_in_every_deal(section):
    _, bz = section
    assert {(r["name"], r["variant"]) for r in bz["invariants"]} == {
        (n, v) for n in INVARIANTS for v in ("seed-de", "classic")}
    for r in bz["invariants"]:
        assert r["holds"] and r["value"] == r["lo"] == r["hi"] == r["required"]


def test_turnup_seven_checked_against_one_eighth(section):
    _, bz = section
    (row,) = bz["exact"]
    assert row["name"] == "turnup_seven" and row["exact"] == "1/8" and row["exact_value"] == 0.125
    assert row["n"] == DEALS and row["inside"] and row["lo"] < 0.125 < row["hi"]
    assert bz["exact_variant"] == "seed-de"


def test_figures_and_tables_are_written(section):
    out, bz = section
    assert bz["figures"] == ["figures/bezique_overview_melds.png", "figures/bezique_overview_points.png"]
    for name in ("melds", "points"):
        assert (out / "figures" / f"bezique_overview_{name}.png").stat().st_size > 10_000
        assert (out / "figures" / f"bezique_overview_{name}.svg").exists()
    csv = (out / "bezique_overview.csv").read_text()
    assert "four_aces" in csv and "brisque_points" in csv and "classic_lo" in csv
    assert "dealer_first_wins" in (out / "bezique_games.csv").read_text()


def test_a_broken_invariant_is_reported():
    import pandas as pd

    table = pd.DataFrame([{"statistic": "brisque_points", "seed-de": 160.0, "seed-de_lo": 159.9, "seed-de_hi": 160.1},
                          {"statistic": "last_trick_points", "seed-de": 10.0, "seed-de_lo": 10.0, "seed-de_hi": 10.0}])
    table.attrs["variants"] = ["seed-de"]
    holds = {r["name"]: r["holds"] for r in invariant_checks(table)}
    assert holds == {"brisque_points": False, "last_trick_points": True}


def _context(bezique, tips, not_built_list):
    """A report's context with the Bezique section alone (when given) and an empty Écarté one."""
    games = [{"name": "ecarte", "title": "Écarté"}] + ([{"name": "bezique", "title": "Bezique"}] if bezique else [])
    return {"version": "0", "numba": "0", "seed": 1, "budget": "quick", "games": games,
            "sections": {"ecarte": {"hands": 1, "per_class": 1, "policy": "p", "variants": []}, "bezique": bezique},
            "tips": tips, "generated": "now", "not_built": not_built_list}


def test_templates_render_the_section(section, tmp_path):
    _, bz = section
    tips = {"deals_per_study": 1000, "seed": 1, "tips": []}
    paths = write_report(_context(bz, tips, []), str(tmp_path))
    md = open(paths["markdown"], encoding="utf-8").read()
    html = open(paths["html"], encoding="utf-8").read()
    for text in (md, html):
        assert "Bezique: the variants side by side" in text and "1/8" in text
        assert "four aces" in text and "double bezique" in text and "the first dealer wins" in text
        assert "brisque points" in text and "last trick points" in text and "four_aces" not in text
        assert "figures/bezique_overview_melds.png" in text
        assert "Not in this report yet" not in text  # nothing missing: no empty sentence
        assert not re.search(r"\bnan\b", text.lower()), "a nan in the report"
        assert "**no**" not in text and 'class="no"' not in text
    assert "| turnup seven | 1/8 = 0.12500 |" in md
    assert "| brisque points | seed-de | 160 | 160.0000 | [160.0000, 160.0000] | yes |" in md
    assert f"{DEALS:,} deals per variant" in md and f"{GAMES:,} games per variant" in md


def test_not_built_names_only_games_without_any_verdict(tmp_path):
    verdict = [{"verdict": "supported"}]
    tips = {"deals_per_study": 1, "seed": 0, "tips": [
        {"game": "ecarte", "verdicts": verdict}, {"game": "ecarte", "verdicts": []},
        {"game": "bezique", "verdicts": []}, {"game": "bezique", "verdicts": []}]}
    assert not_built(tips) == ["Bezique tip verdicts (not yet studied)"]
    tips["tips"][2]["verdicts"] = verdict
    assert not_built(tips) == []
    md = open(write_report(_context(None, {**tips, "tips": []}, ["Bezique tip verdicts (not yet studied)"]),
                           str(tmp_path))["markdown"], encoding="utf-8").read()
    assert "Not in this report yet: Bezique tip verdicts (not yet studied)." in md
    assert "Bezique: the variants side by side" not in md


def test_html_escapes_values_and_markdown_does_not(tmp_path):
    """A value with markup in it (a reading such as "strength < 9 & no king") is text in the HTML."""
    tips = {"deals_per_study": 1, "seed": 0, "tips": []}
    paths = write_report(_context(None, tips, ["<b>x</b> & y"]), str(tmp_path))
    html = open(paths["html"], encoding="utf-8").read()
    md = open(paths["markdown"], encoding="utf-8").read()
    assert "&lt;b&gt;x&lt;/b&gt; &amp; y" in html and "<b>x</b>" not in html
    assert "<b>x</b> & y" in md


def test_budgets():
    quick, full = BUDGETS["quick"], BUDGETS["full"]
    assert 10_000 <= quick["bezique_deals"] <= 200_000 and quick["bezique_games"] <= 5_000
    assert full["bezique_deals"] >= 10 * quick["bezique_deals"] and full["bezique_games"] >= 10 * quick["bezique_games"]

"""The tips registry and the report: every TIPS.md tip listed, real verdicts only where studied."""
import json
import pathlib
import re

import pytest
from browser import BROWSER_ARGS, JS_BROKEN_IMAGES, JS_DEAD_LINKS, JS_OUTSIDE, browser_or_skip

from analysis.bezique.policies import HeuristicPolicy as BezHeuristic
from analysis.bezique.studies.tips import STUDIES as BZ_STUDIES
from analysis.bezique.studies.tips import VARIANTS as BZ_VARIANTS
from analysis.bezique.studies.tips import bz_t5_search_deals, study_deals
from analysis.ecarte.report import exact_values
from analysis.games import GAMES
from analysis.report.build import build_report, load_context, write_report
from analysis.review import review_text
from analysis.stats import Estimate
from analysis.tips import evaluate_tips, tips_text
from analysis.tips_registry import TIPS
from analysis.verdicts import Verdict

SHARED_TIPS = "../shared/TIPS.md"
REPORT_GAMES = [name for name, g in GAMES.items() if g.report is not None]
TIP_SEED, TIP_DEALS = 2, 10_000
"""The tip tests and the report test judge the tips on the same seed and deals, and share a result
store: the report reads back the verdicts of the three games' tip tests (they run first, in this
file's order) instead of computing them again."""


@pytest.fixture(scope="module")
def tips_store(tmp_path_factory):
    return str(tmp_path_factory.mktemp("tips-store"))


def test_registry_has_every_tip_of_tips_md():
    ids = [t["id"] for t in TIPS]
    assert len(ids) == len(set(ids)) == 27
    # The user's copy in the repository names every tip (docs/tips.md, a heading per tip).
    docs = (pathlib.Path(__file__).parent.parent / "docs" / "tips.md").read_text(encoding="utf-8")
    assert sorted(set(re.findall(r"\b((?:PQ|EC|BZ)-T\d+)\b", docs))) == sorted(ids)
    try:
        text = open(SHARED_TIPS, encoding="utf-8").read()
    except OSError:
        return  # shared/ not beside the checkout: the copy in the package is what counts
    assert sorted(set(re.findall(r"\| ((?:PQ|EC|BZ)-T\d+) \|", text))) == sorted(ids)


def test_verdict_json_and_text_forms():
    v = Verdict("PQ-T2", "seed-de", "refuted", Estimate(1.5, 1.0, 2.0, 40), "cost", "under 2 points", 4000, 3,
                {"both": "heuristic"}, {"hands": 40}, part="younger", extra={"parties": 7})
    d = v.to_dict()
    assert list(d) == ["id", "variant", "verdict", "effect_name", "effect", "sharp_reading", "deals", "seed",
                       "policies", "players", "details", "parties"]
    assert d["variant"] == v.label == "seed-de, younger" and d["effect"] == {"value": 1.5, "ci95": [1.0, 2.0], "n": 40}
    assert Verdict.from_dict(d) == v and Verdict.from_dict(d).to_dict() == d
    assert v.text() == "REFUTED · cost: +1.50 [+1.00, +2.00] · 4,000 deals · heuristic"
    plain = Verdict("EC-T8", "classic", "partly", Estimate(float("nan"), float("nan"), float("nan"), 0), "x", "r",
                    0, 0, {})
    assert plain.to_dict()["effect"]["value"] is None and plain.to_dict()["variant"] == "classic"
    assert Verdict.from_dict(plain.to_dict()).to_dict() == plain.to_dict()
    res = {"budget": "quick", "deals_per_study": 4000, "seed": 3,
           "tips": [{"id": "PQ-T2", "tip": "t", "verdicts": [v]}, {"id": "PQ-T6", "tip": "u", "verdicts": []}]}
    text = tips_text(res)
    assert text == tips_text({**res, "tips": [{**res["tips"][0], "verdicts": [d]}, res["tips"][1]]})
    assert "       [seed-de, younger] Do not throw by the book's rule" in text and "PQ-T6  not yet studied — u" in text
    assert "         REFUTED · cost: +1.50 [+1.00, +2.00]" in text
    with pytest.raises(ValueError, match="unknown verdict"):
        Verdict("EC-T8", "classic", "maybe", v.effect, "x", "r", 0, 0, {})


def test_tips_loop_over_the_registry():
    import analysis.tips

    assert not re.search(r"ecarte|piquet|bezique", open(analysis.tips.__file__, encoding="utf-8").read(), re.I)
    for g in GAMES.values():
        assert set(g.tips.load().STUDIES) <= {t["id"] for t in TIPS if t["game"] == g.name}


def test_every_game_has_a_report_section_and_its_templates():
    from importlib.resources import files

    templates = files("analysis") / "report" / "templates"
    for g in GAMES.values():
        assert callable(g.report.load().section)
        assert all((templates / f"{g.name}.{ext}.j2").is_file() for ext in ("md", "html"))


@pytest.mark.uses_store
def test_tip_verdicts_are_real_or_not_yet_studied(tips_store, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", tips_store)
    res = evaluate_tips("ecarte", "quick", seed=TIP_SEED, deals=TIP_DEALS)
    by_id = {t["id"]: t for t in res["tips"]}
    for tip_id in ("EC-T1", "EC-T2", "EC-T3", "EC-T5", "EC-T6", "EC-T8"):
        verdicts = by_id[tip_id]["verdicts"]
        assert verdicts, tip_id
        for v in verdicts:
            assert v["verdict"] in ("supported", "refuted", "partly", "inconclusive")
            lo, hi = v["effect"]["ci95"]
            assert lo <= v["effect"]["value"] <= hi
            # Verdicts read from the shipped equilibrium tables carry the tables' seed, not the run's.
            tables = "equilibrium tables" in v["players"]
            # EC-T1 reads only its propose and accept points from them and plays the rest on the run's seed.
            own_seed = 0 if tables and tip_id != "EC-T1" else TIP_SEED
            assert v["deals"] > 0 and v["seed"] == own_seed and v["variant"] in ("seed-de", "classic")
            assert tables == (tip_id in ("EC-T1", "EC-T2", "EC-T5", "EC-T6"))
    # EC-T7: watching the discards (search players) and the two claims about a discard of three.
    t7 = by_id["EC-T7"]["verdicts"]
    assert {v["variant"].partition(", ")[2] for v in t7} == {"watching", "weak hand", "middle cards"} and len(t7) == 6
    watch = [v for v in t7 if v["variant"].endswith("watching")]
    assert all(v["players"] == "heuristic, search" and v["details"]["fallback_rate"] < 0.05 for v in watch)
    # EC-T1: every decision point's loss (worst option against the best, so never negative), and the
    # effect is the proposal's loss minus the largest of the others.
    for v in by_id["EC-T1"]["verdicts"]:
        d = v["details"]
        losses = {k: d[k]["loss"] for k in ("propose", "accept", "discard", "lead", "king")}
        for loss in losses.values():
            assert 0 <= loss["ci95"][0] <= loss["value"] <= loss["ci95"][1]
        others = max(x["value"] for k, x in losses.items() if k != "propose")
        assert v["effect"]["value"] == pytest.approx(losses["propose"]["value"] - others)
        assert d["largest_other"] in losses and set(d["discard"]["by_side"]) == {"elder", "dealer"}
        # From the tables the three pairs are one identity: (table - no) - (table - yes) = yes - no.
        for point, yes, no in (("propose", "propose", "play"), ("accept", "refuse", "accept")):
            pairs = d[point]["pairs"]
            assert (pairs[f"table vs always {no}"]["value"] - pairs[f"table vs always {yes}"]["value"]
                    == pytest.approx(pairs[f"always {yes} vs always {no}"]["value"], abs=1e-12))
            assert pairs[f"table vs always {no}"]["value"] >= -1e-3 and pairs[f"table vs always {yes}"]["value"] >= -1e-3
    # EC-T8 under seed-de: both situations are scored alike, so the paired difference is exactly 0;
    # under classic a refusal penalises the dealer, so elder is better off after a refusal.
    assert all(Verdict.from_dict(v).to_dict() == v for t in res["tips"] for v in t["verdicts"])
    t8 = {v["variant"]: v for v in by_id["EC-T8"]["verdicts"]}
    assert t8["seed-de"]["effect"]["value"] == 0 and t8["seed-de"]["verdict"] == "supported"
    assert t8["classic"]["effect"]["ci95"][0] > 0 and t8["classic"]["verdict"] == "refuted"
    json.dumps(res)


@pytest.mark.uses_store
def test_piquet_tip_verdicts_are_real(tips_store, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", tips_store)
    res = evaluate_tips("piquet", "quick", seed=TIP_SEED, deals=TIP_DEALS)
    by_id = {t["id"]: t for t in res["tips"]}
    for tip_id in ("PQ-T1", "PQ-T2", "PQ-T3", "PQ-T4", "PQ-T5", "PQ-T6", "PQ-T7", "PQ-T8", "PQ-T9", "PQ-T10",
                   "PQ-T11", "PQ-T12", "PQ-T13", "PQ-T14"):
        assert by_id[tip_id]["status"] == "studied" and by_id[tip_id]["verdicts"], tip_id
        for v in by_id[tip_id]["verdicts"]:
            assert v["verdict"] in ("supported", "refuted", "inconclusive", "not testable")
            lo, hi = v["effect"]["ci95"]
            assert lo <= v["effect"]["value"] <= hi and v["seed"] == TIP_SEED
    # Elder's declarations edge is large and certain even on 10,000 deals.
    assert all(v["verdict"] == "supported" for v in by_id["PQ-T9"]["verdicts"])
    assert [v["variant"] for v in by_id["PQ-T2"]["verdicts"]] == ["seed-de, elder", "seed-de, younger"]
    assert by_id["PQ-T3"]["verdicts"][0]["details"]["arithmetic"]["elder_unseen"] == 15
    # PQ-T10 is judged with score-aware search players (16 parties at this budget), dd on more.
    assert by_id["PQ-T10"]["verdicts"][0]["parties"] == 16
    assert all(v["players"] == "search" and v["details"]["dd_parties"] == TIP_DEALS // 60 for v in by_id["PQ-T10"]["verdicts"])
    assert [v["variant"] for v in by_id["PQ-T8"]["verdicts"]] == ["seed-de, elder", "seed-de, younger"]
    assert {v["players"] for v in by_id["PQ-T3"]["verdicts"]} == {"search"}
    # PQ-T11 causal: double-dummy lines from the learned exchanges; T7 and T13 with the learned exchange.
    assert {v["players"] for v in by_id["PQ-T11"]["verdicts"]} == {"dd with the learned exchange"}
    assert all(v["effect"]["n"] > 0 for v in by_id["PQ-T11"]["verdicts"])
    assert {v["players"] for v in by_id["PQ-T7"]["verdicts"] + by_id["PQ-T13"]["verdicts"]} == {
        "heuristic with the learned exchange"}
    assert all(Verdict.from_dict(v).to_dict() == v for t in res["tips"] for v in t["verdicts"])
    t12 = by_id["PQ-T12"]["verdicts"][0]
    assert t12["players"] == "search" and t12["variant"] == "seed-de, younger" and t12["details"]["deals"] == 4
    assert by_id["PQ-T6"]["verdicts"][0]["players"] == "search"
    json.dumps(res)


@pytest.mark.uses_store
def test_every_bezique_tip_has_well_formed_verdicts(tips_store, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", tips_store)
    n = TIP_DEALS
    res = evaluate_tips("bezique", "quick", seed=TIP_SEED, deals=n)
    by_id = {t["id"]: t for t in res["tips"]}
    assert sorted(by_id) == sorted(BZ_STUDIES) == ["BZ-T1", "BZ-T2", "BZ-T3", "BZ-T4", "BZ-T5"]
    expected_variants = {"BZ-T1": ["seed-de"], "BZ-T2": ["seed-de, partners", "seed-de, fours"],
                         "BZ-T3": ["seed-de, lead", "seed-de, keep"], "BZ-T4": ["seed-de"],
                         "BZ-T5": ["seed-de", "classic"]}
    options = {"BZ-T1": 4, "BZ-T2": 5, "BZ-T3": 5, "BZ-T4": 5, "BZ-T5": 6}
    assert BZ_VARIANTS["BZ-T5"] == ("seed-de", "classic")
    for tip_id, t in by_id.items():
        assert t["status"] == "studied"
        assert [v["variant"] for v in t["verdicts"]] == expected_variants[tip_id]
        for v in t["verdicts"]:
            assert set(v) >= {"id", "variant", "verdict", "effect_name", "effect", "sharp_reading", "deals", "seed",
                              "policies", "details"}
            assert v["id"] == tip_id and v["seed"] == TIP_SEED
            assert v["verdict"] in ("supported", "refuted", "inconclusive")
            lo, hi = v["effect"]["ci95"]
            assert lo <= v["effect"]["value"] <= hi
            assert v["deals"] == v["effect"]["n"] == study_deals(n, options[tip_id])
            assert v["verdict"] == ("supported" if lo > 0 else "refuted" if hi < 0 else "inconclusive")
            assert v["policies"]["opponent"]["kind"] == "heuristic"
            assert Verdict.from_dict(v).to_dict() == v
    t5 = by_id["BZ-T5"]["verdicts"]
    for v in t5:
        rows = v["details"]["by_threshold"]
        assert [r["hold_while_stock_at_least"] for r in rows] == [0, 10, 20, 30, 40]
        head = next(r for r in rows if r["hold_while_stock_at_least"] == BezHeuristic().hold_bezique_stock)
        assert head["net"] == v["effect"]
        assert "double_possible" in v["details"]["cards_seen_model"]
        assert v["policies"]["player"] == "heuristic, exact end game"
        sp = v["details"]["search_play"]  # the same question under search play
        assert sp["player"].startswith("search") and sp["deals"] == bz_t5_search_deals(n)
        assert [r["hold_while_stock_at_least"] for r in sp["by_threshold"]] == [0, 10, 20, 30, 40]
        for r in [*sp["by_threshold"], {"net": sp["search_chooses_minus_declare"]}]:
            assert r["net"]["ci95"][0] <= r["net"]["value"] <= r["net"]["ci95"][1] and r["net"]["n"] == sp["deals"]
    t1 = by_id["BZ-T1"]["verdicts"][0]["details"]
    assert t1["plays"] == 8 * t1["deals"]
    assert {"meld_points", "brisque_points"} <= set(t1["comparisons"][0])
    t4 = by_id["BZ-T4"]["verdicts"][0]["details"]["comparisons"][0]
    assert {"end_tricks", "last_trick_points", "end_brisque_points"} <= set(t4)
    text = tips_text(res)
    assert "BZ-T5" in text and "[classic]" in text and "not yet studied" not in text
    json.dumps(res)


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory, tips_store):
    """A quick report at small budgets, built once for this file's report tests: (folder, paths)."""
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SALON_RESULTS", tips_store)
        paths = build_report(str(out), quick=True, seed=TIP_SEED,
                             budget={"tip_ids": None, "hands": 60_000, "per_class": 300, "piquet_deals": 30_000,
                                     "piquet_search_deals": 60, "tip_deals": TIP_DEALS,
                                     "bezique_deals": 10_000, "bezique_games": 100, "bezique_search_deals": 4,
                                     "bezique_search_games": 1, "bezique_advice_deals": 6,
                                     "strategy_deals_per_hand": 3, "strategy_rounds": 1, "piquet_dd_hands": 2,
                                     "piquet_dd_race_samples": 200, "piquet_dd_candidates": 4,
                                     "piquet_dd_deals": 30})
    return out, paths


@pytest.mark.uses_store
def test_report_is_written_with_exact_values_and_verdicts(quick_report):
    tmp_path, paths = quick_report
    md = open(paths["markdown"], encoding="utf-8").read()
    html = open(paths["html"], encoding="utf-8").read()
    for text in (md, html):
        assert "21206/65780" in text and "35/248" in text and "1/8" in text
        assert "EC-T2" in text and "EC-T7" in text
        assert "seed-de" in text and "classic" in text
        assert "323/578956" in text and "PQ-T9" in text and "cavendish" in text
        assert "Which cards to throw" in text and "a random legal exchange" in text
        assert "The same hands under strong play" in text and "elder: dd play" in text
        assert "the players beside Cavendish" in text and "62.5" in text and "search" in text and "dd" in text
        assert "Bezique: the variants side by side" in text and "BZ-T1" in text
        assert "The players side by side" in text and "tuned-exact" in text
        assert "net points against the tuned heuristic" in text and "net_vs_tuned" not in text
        assert "The period advice against the search player" in text and "keep tens until they count" in text
        assert "Best-response tables" in text and "38,304 classes" in text
        # The shipped equilibrium, with its certificate and the Britannica's rules beside it.
        assert "The solved game: propose or play, accept or refuse (equilibrium)" in text
        assert "86,810 information sets" in text and "Britannica" in text and "met" in text
        assert "exploitability" in text and "The frontier: Elder" in text and "EC-T1" in text
        assert not re.search(r"\bnan\b", text.lower()), "a nan in the report"
        assert not re.search(r"\{('|&#39;)\w+('|&#39;): ", text), "a Python dict in the report"
    assert (tmp_path / "figures" / "ecarte_propose_seed-de.png").stat().st_size > 10_000
    assert (tmp_path / "figures" / "ecarte_propose_classic.png").exists()
    assert not list((tmp_path / "figures").glob("*.svg"))  # the guide shows PNG: each figure written once
    assert (tmp_path / "figures" / "ecarte_equilibrium_seed-de.png").stat().st_size > 10_000
    for variant in ("seed-de", "classic"):
        assert (tmp_path / "figures" / f"ecarte_strategy_{variant}_frontiers.png").stat().st_size > 10_000
        assert (tmp_path / "figures" / f"ecarte_strategy_{variant}_by_score.png").stat().st_size > 10_000
        assert len((tmp_path / f"ecarte_strategy_{variant}_by_trumps.csv").read_text().splitlines()) == 7
        assert json.loads((tmp_path / f"ecarte_strategy_{variant}_rounds.json").read_text())["spec"]["deals_per_hand"] == 3
    assert (tmp_path / "figures" / "piquet_overview_scores.png").stat().st_size > 10_000
    assert (tmp_path / "figures" / "piquet_overview_edge.png").exists()
    assert (tmp_path / "figures" / "piquet_discards_younger.png").stat().st_size > 10_000
    players = (tmp_path / "piquet_players.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in players[1:]] == ["heuristic", "learned", "search", "search (learned exchange)", "dd",
                                                      "Cavendish"]
    assert "rubicon" in players[0]
    assert (tmp_path / "figures" / "bezique_overview_melds.png").stat().st_size > 10_000
    assert len(exact_values()) == 9
    # The guide: per game its advice, its tips in words and its evidence; the validation in an appendix.
    for text in (md, html):
        assert text.count("What to do") >= len(REPORT_GAMES) and "The rulebooks' tips" in text
        assert "Appendix: validation and provenance" in text and "Which to follow" in text
    for game in REPORT_GAMES:
        assert f'<a id="{game}-advice"></a>' in md and f'id="{game}-advice"' in html
    # The Markdown twin: every image it shows exists and every internal link has its anchor.
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', md))
    assert set(re.findall(r"\]\(#([^)]+)\)", md)) <= anchors
    for src in re.findall(r"!\[[^]]*\]\(([^)]+)\)", md):
        assert (tmp_path / src).exists(), src
    # The reviewed example deals, at the quick budget's quarter of the reviewer's samples; the command
    # the guide prints reviews the printed deal again to the same numbers.
    for text in (md, html):
        assert "Reviewing your own deals" in text and "salon review deal.txt --seed 2 --samples 50" in text
    example = load_context(str(tmp_path))["sections"]["ecarte"]["review_example"]
    assert example["review"]["reviewer"]["samples"] == 50
    again = json.loads(json.dumps(review_text(example["notation"], samples=50, seed=TIP_SEED)))
    assert again["deals"] == example["review"]["deals"]
    # The saved context renders the same report again without a study.
    again = write_report(load_context(str(tmp_path)), str(tmp_path / "again"))
    for kind in ("markdown", "html"):
        assert open(again[kind], encoding="utf-8").read() == open(paths[kind], encoding="utf-8").read()


@pytest.mark.uses_store
def test_the_quick_budget_runs_its_few_tips_leaves_the_search_parts_out_and_says_so(tips_store, tmp_path,
                                                                                   monkeypatch):
    """The quick guide (scripts/demo) studies QUICK_TIPS only and no search player's part; the guide
    lists every other tip as not run at this budget and says so where each left-out part would be."""
    from analysis.report.build import QUICK_TIPS

    monkeypatch.setenv("SALON_RESULTS", tips_store)
    budget = {"tip_deals": TIP_DEALS, "hands": 60_000, "per_class": 300, "piquet_deals": 30_000, "bezique_deals": 10_000}
    paths = build_report(str(tmp_path / "parallel"), quick=True, seed=TIP_SEED, budget=budget, jobs=3)
    context = load_context(str(tmp_path / "parallel"))
    # The games computed in three processes at once give the numbers of one process, game after game.
    build_report(str(tmp_path / "serial"), quick=True, seed=TIP_SEED, budget=budget, jobs=1)
    serial = load_context(str(tmp_path / "serial"))
    for key in ("generated", "seconds", "part_seconds"):
        context.pop(key), serial.pop(key)
    assert json.dumps(context, sort_keys=True) == json.dumps(serial, sort_keys=True)
    tips = context["tips"]["tips"]
    assert [t["id"] for t in tips] == [t["id"] for t in TIPS]
    assert {t["id"] for t in tips if t["verdicts"]} == set(QUICK_TIPS)
    assert {t["id"] for t in tips if t["status"] == "not run at this budget"} == {t["id"] for t in TIPS} - set(QUICK_TIPS)
    sections = context["sections"]
    assert sections["piquet"]["players"] is None and sections["piquet"]["strong_discards"] is None
    assert sections["bezique"]["players"] is None and sections["bezique"]["advice"] is None
    assert all(v["strategy"] is None and v["equilibrium"] for v in sections["ecarte"]["variants"])
    for kind in ("markdown", "html"):
        text = open(paths[kind], encoding="utf-8").read()
        assert text.count("Not run at this budget") >= 27 - len(QUICK_TIPS) + 6, kind
        assert "not yet studied" not in text.lower() and not re.search(r"\bnan\b", text.lower())
        assert re.search(r"(about a minute|\d+ minutes) of wall time", text) and "hours of wall time" not in text


@pytest.mark.uses_store
def test_report_reads_in_a_browser(quick_report):
    """The HTML in headless Chromium, at a desktop and at a phone width: offline (no outside address),
    every figure loads, every internal link has its target, nothing wider than the screen, the
    navigation scrolls to each game, and each game's advice is there."""
    out, paths = quick_report
    sync_playwright, exe = browser_or_skip()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=BROWSER_ARGS)
        try:
            for width, height in ((1400, 900), (390, 844)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(pathlib.Path(paths["html"]).as_uri())
                assert page.evaluate("document.images.length") >= 10
                assert page.evaluate(JS_BROKEN_IMAGES) == []
                assert page.evaluate(JS_DEAD_LINKS) == []
                assert page.evaluate(JS_OUTSIDE) == []
                assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
                for game in REPORT_GAMES:
                    page.click(f'nav a[href="#{game}"]')
                    assert page.evaluate("location.hash") == f"#{game}"
                    top = page.evaluate(f"document.getElementById('{game}').getBoundingClientRect().top")
                    assert 0 <= top < height / 2, (game, width, top)
                    advice = page.locator(f"#{game}-advice")
                    assert advice.is_visible() and "What to do" in advice.inner_text()
                    assert page.locator(f"#{game}-advice li").count() >= 1
                page.screenshot(path=str(out / f"landing-{width}.png"))
                page.close()
        finally:
            browser.close()

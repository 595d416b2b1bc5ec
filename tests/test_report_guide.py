"""The strategy guide's derived parts (analysis/report/guide.py): advice from verdicts, readings by
part, numbers to their interval's precision, readable labels."""
from analysis.bezique import report as bezique_report
from analysis.ecarte import report as ecarte_report
from analysis.piquet import report as piquet_report
from analysis.report import guide as G
from analysis.report.guide_words import ADVICE_ORDER, READINGS
from analysis.tips_registry import TIPS
from analysis.verdicts import WORDS


def _verdict(variant, verdict, value=1.0, lo=0.5, hi=1.5):
    return {"variant": variant, "verdict": verdict, "effect": {"value": value, "ci95": [lo, hi]},
            "effect_name": "points", "deals": 100, "players": "heuristic"}


def _tips(*tips):
    games = {"PQ": "piquet", "EC": "ecarte", "BZ": "bezique"}
    return {"tips": [{"id": i, "game": games[i[:2]], "tip": f"tip {i}", "verdicts": list(vs)} for i, vs in tips]}


def test_every_reading_is_a_known_tip_and_verdict_word():
    ids = {t["id"] for t in TIPS}
    for key, by_verdict in READINGS.items():
        assert key.partition(":")[0] in ids, key
        assert set(by_verdict) <= set(WORDS), key
    for game, keys in ADVICE_ORDER.items():
        assert all(k in READINGS or k.partition(":")[0] in READINGS for k in keys), game


def test_advice_takes_clear_agreeing_verdicts_and_leaves_out_the_rest():
    tips = _tips(("EC-T5", [_verdict("seed-de", "supported"), _verdict("classic", "supported")]),
                 ("EC-T6", [_verdict("seed-de", "refuted"), _verdict("classic", "partly")]),
                 ("EC-T2", [_verdict("seed-de", "supported"), _verdict("classic", "refuted")]),
                 ("EC-T4", [_verdict("seed-de", "inconclusive")]),
                 ("EC-T3", []))
    rows = G.tip_rows(tips, "ecarte")
    assert [r["id"] for r in rows] == ["EC-T5", "EC-T5", "EC-T6", "EC-T6", "EC-T2", "EC-T2", "EC-T4", "EC-T3"]
    assert rows[-1]["verdict"] == "not yet studied" and rows[-1]["anchor"] == "tip-ec-t3"
    advice = G.tip_advice(rows, "ecarte")
    # EC-T6 (refuted and partly agree), EC-T5 (supported twice); not EC-T2 (variants disagree) nor EC-T4.
    assert [a["tip"] for a in advice] == ["EC-T6", "EC-T5"]
    assert advice[0]["text"] == READINGS["EC-T6"]["refuted"]
    assert [m["variant"] for m in advice[1]["margins"]] == ["seed-de", "classic"]
    assert G.tip_rows(tips, "piquet") == []


def test_a_tip_judged_by_part_reads_each_part_by_its_own_sentence():
    tips = _tips(("BZ-T3", [_verdict("seed-de, lead", "supported"), _verdict("seed-de, keep", "refuted", -5, -6, -4)]))
    rows = G.tip_rows(tips, "bezique")
    assert [(r["variant"], r["part"]) for r in rows] == [("seed-de", "lead"), ("seed-de", "keep")]
    assert rows[0]["reading"] == READINGS["BZ-T3:lead"]["supported"]
    assert rows[1]["reading"] == READINGS["BZ-T3:keep"]["refuted"]
    texts = [a["text"] for a in G.tip_advice(rows, "bezique")]
    # "Lead low" stays out of the advice while its only measure is against always leading high.
    assert texts == [READINGS["BZ-T3:keep"]["refuted"]]
    assert G.reading("PQ-T2", "elder", "refuted") == READINGS["PQ-T2"]["refuted"]  # no part entry: the tip's
    assert G.reading("PQ-T2", None, "inconclusive") is None


def test_numbers_carry_the_decimals_their_interval_warrants():
    assert G.effect_text({"value": 0.0031, "ci95": [0.0012, 0.0052]}) == "+0.0031 [+0.0012, +0.0052]"
    assert G.effect_text({"value": 29.54, "ci95": [29.0, 30.08]}) == "+29.54 [+29.00, +30.08]"
    assert G.effect_text({"value": -5.25, "ci95": [-10.34, -0.16]}) == "-5.2 [-10.3, -0.2]"
    assert G.effect_text({"value": 0.0, "ci95": [0.0, 0.0]}) == "+0.0 [+0.0, +0.0]"
    assert G.effect_text(None) == ""


def test_labels_and_anchors():
    assert G.label("elder_wins_point") == "elder wins point"
    assert G.label("net_vs_tuned") == "net points against the tuned heuristic"
    assert G.anchor("tip", "PQ-T2") == "tip-pq-t2"
    assert G.anchor("piquet", "discards", "elder") == "piquet-discards-elder"
    assert G.split_label("seed-de, middle cards") == ("seed-de", "middle cards")


def test_charts_to_act_on_come_from_the_sections():
    summary = {"best_takes": {"5": 0.75, "4": 0.25}, "best_exchange": {"throws_whole_suit": 0.5, "keeps_sets": 1.0},
               "take_all_cost": {"value": 0.9, "ci95": [0.5, 1.3]}}
    section = {"discards": [{"seat": "elder", "hands": 40, "summary": summary},
                            {"seat": "younger", "hands": 40, "summary": {**summary, "best_takes": {"3": 1.0}}}]}
    chart = piquet_report.guide_chart(section, [], None)
    assert chart["columns"] == ["elder (40 hands)", "younger (40 hands)"]
    assert chart["rows"][:3] == [("takes 5 cards", ["75%", "0%"]), ("takes 4 cards", ["25%", "0%"]),
                                 ("takes 3 cards", ["0%", "100%"])]
    assert ("keeps every set (three or four of a rank)", ["100%", "100%"]) in chart["rows"]
    assert chart["figures"] == []  # no per-hand tables to draw the shapes from
    assert piquet_report.guide_chart({}, [], None) is None
    eq = {"figure": "figures/eq.png", "summary": {}}
    chart = ecarte_report.guide_chart({"variants": [{"name": "seed-de", "equilibrium": eq}, {"name": "classic", "equilibrium": None}]},
                           [], None)
    assert chart["figures"] == [("seed-de: the solved game's chart", "figures/eq.png")]
    assert ecarte_report.guide_chart({"variants": []}, [], None) is None


def test_bezique_chart_is_bz_t5_by_stock_size():
    def row(t, value):
        return {"hold_while_stock_at_least": t, "verdict": "refuted",
                "net": {"value": value, "ci95": [value - 0.25, value + 0.25], "n": 100}}

    tips = [{"id": "BZ-T5", "verdicts": [
        {"variant": v, "players": "heuristic", "deals": 100, "details": {"by_threshold": [row(0, -1.5), row(20, d)]}}
        for v, d in (("seed-de", -0.5), ("classic", -2.0))]}]
    chart = bezique_report.guide_chart({}, tips, None)
    assert chart["columns"] == ["seed-de", "classic"]
    assert chart["rows"] == [("hold as long as the stock lasts", ["-1.50 [-1.75, -1.25] (refuted)"] * 2),
                             ("hold while the stock has 20 cards or more",
                              ["-0.50 [-0.75, -0.25] (refuted)", "-2.00 [-2.25, -1.75] (refuted)"])]
    assert bezique_report.guide_chart({}, [{"id": "BZ-T5", "verdicts": []}], None) is None


def test_piquet_shapes_from_the_per_hand_tables(tmp_path):
    import pandas as pd

    from analysis.piquet.studies.discards.shapes import patterns_by_shape, shape_of

    assert shape_of("AH 8D 10D JD QD KD AD 7S 8H 9H JH 7C") == "6 or more"
    assert shape_of("AH KH QH JH 7S 8S 9S 10S 7C 8C 7D 8D") == "4 or fewer"
    flags = {f"best_{k}": [True, False, True] for k in ("throws_whole_suit", "throws_only_shortest",
                                                        "keeps_point_suit", "keeps_sequences", "keeps_sets",
                                                        "keeps_guards")}
    df = pd.DataFrame({"cards": ["AH KH QH JH 10H 7S 8S 9S 7C 8C 7D 8D"] * 2 + ["AH KH QH JH 7S 8S 9S 10S 7C 8C 7D 8D"],
                       "best_takes": [5, 3, 5], **flags})
    t = patterns_by_shape(df, "elder")
    assert list(t.columns) == ["4 or fewer", "5"] and t.attrs["hands"] == {"4 or fewer": 1, "5": 2}
    assert t.loc["takes every card it may", "5"] == 0.5 and t.loc["throws a whole suit", "4 or fewer"] == 1.0
    (tmp_path / "figures").mkdir()
    for seat in ("elder", "younger"):
        df.to_csv(tmp_path / f"piquet_discards_{seat}.csv", index=False)
    discards = [{"seat": "elder"}, {"seat": "younger"}]
    path = piquet_report.shapes_figure(discards, str(tmp_path))  # from the per-hand tables (an older saved report)
    assert path == "figures/piquet_discard_shapes.png" and (tmp_path / path).stat().st_size > 10_000
    from analysis.piquet.studies.discards.shapes import shape_record, shape_table

    back = shape_table(shape_record(t))
    assert back.equals(t) and back.attrs == t.attrs
    elsewhere = tmp_path / "elsewhere"  # from the context alone: no per-hand tables there
    with_tables = [{"seat": s, "by_shape": shape_record(patterns_by_shape(df, s))} for s in ("elder", "younger")]
    assert piquet_report.shapes_figure(with_tables, str(elsewhere)) == path and (elsewhere / path).exists()
    assert piquet_report.shapes_figure(discards, str(elsewhere / "empty")) is None


def test_ecartes_advice_leads_with_the_ladders_rules():
    from analysis.ecarte.studies.rule_ladder import shipped_ladders

    eq = {"figure": "figures/eq.png", "summary": {"play_policy": "heuristic"}}
    items = ecarte_report.guide_advice({"variants": [{"name": "seed-de", "equilibrium": eq},
                                                     {"name": "classic", "equilibrium": eq}]})
    *items, discard = items
    assert [i["text"].split(" under ")[0] for i in items] == ["As elder", "As dealer, when elder proposes"] * 2
    ladders = {(lad["rules"], lad["decision"]): lad for lad in shipped_ladders()["ladders"]}
    # The discard last, one piece of advice for both variants: each ladder's cheapest rung in words,
    # then what keeping one class fewer and the book's rule give up against it.
    assert discard["text"] == ("Discarding, keep your trumps and plain kings under seed-de rules (the Britannica's "
                               "rule), your trumps under classic rules; throw the rest.")
    assert [m["effect"] for m in discard["margins"]] == [
        ladders[("seed-de", "discard")]["rungs"][1]["cost"], ladders[("classic", "discard")]["book"][0]["cost"]]
    assert all("salon's player inside the solved tables" in m["players"] for m in discard["margins"])
    for item, key in zip(items, [("seed-de", "elder"), ("seed-de", "dealer"), ("classic", "elder"),
                                 ("classic", "dealer")], strict=True):
        lad = ladders[key]
        best = min(r["cost"]["value"] for r in lad["rungs"])
        first = item["margins"][0]["effect"]
        rung = next(r for r in lad["rungs"] if r["cost"] == first)
        assert rung["cost"]["value"] <= ecarte_report.WORTH_LEARNING * best  # worth learning...
        shorter = [r for r in lad["rungs"] if r["lines"] < rung["lines"]]
        assert all(r["cost"]["value"] > ecarte_report.WORTH_LEARNING * best for r in shorter)  # ...and the shortest
        assert ("otherwise" in item["text"] or "always" in item["text"]) and "_" not in item["text"]
        assert ">=" not in item["text"] and "<=" not in item["text"]
        assert item["margins"][-1]["effect_name"].startswith("the book's rule")
        assert item["margins"][1]["effect"] == rung["exploitability"]  # what an opponent who knew it gains
        assert "opponent who knew this rule" in item["margins"][1]["effect_name"]
        assert all("perfect play" in m["players"] for m in item["margins"])


def test_the_landing_screenshot_shows_the_committed_guide():
    import hashlib
    import pathlib

    root = pathlib.Path(__file__).parent.parent
    shown = (root / "docs" / "report-landing.sha256").read_text().strip()
    assert shown == hashlib.sha256((root / "reports" / "index.html").read_bytes()).hexdigest(), (
        "docs/report-landing.png shows an older guide: run scripts/report_screenshot.py")


def test_the_advice_names_its_players_in_a_players_words():
    import pathlib

    from analysis.report.build import load_context
    from analysis.report.guide_words import plain_players

    assert plain_players("equilibrium tables, heuristic (reads=classic)") == "perfect play: the solved game"
    assert "a bound, not a legal player" in plain_players("dd with the learned exchange")
    assert plain_players("a player not listed") == "a player not listed"
    context = load_context(str(pathlib.Path(__file__).parent.parent / "reports"))
    words = [m["players"] for gd in G.guide(context).values() for a in gd["advice"] for m in a["margins"]]
    assert words and not [w for w in words if w.startswith(("dd", "heuristic", "equilibrium tables")) or w == "search"]


def test_bezique_advice_leads_with_the_rule_that_gave_up_least_on_the_choosing_deals(monkeypatch):
    from analysis.bezique.studies import rule_ladder

    def rung(rule, value, fit, source="searched"):
        return {"source": source, "rule": rule, "cost": {"value": value, "ci95": [value - 1, value + 1]},
                "fit_cost": fit}

    def ladder(variant, name, rungs, book):
        return {"rules": variant, "decision": name, "rungs": rungs, "book": book,
                "players": {"player": "the searching player" if name == "single-bezique" else "the tuned player"}}

    win_book = [rung("win if meld >= 20; otherwise duck", 7.0, 6.5, "the guide: win for the right to meld")]
    bz_book = [rung("hold if stock >= 10; otherwise lay", 2.0, 2.5, "BZ-T5: hold while the stock holds 10"),
               rung("otherwise lay", 1.0, 1.5, "never hold")]
    ladders = [ladder(v, "win", [{**rung("otherwise win", 0.0, 0.0), "cost": {"value": 0.0, "ci95": [0, 0]}}],
                      win_book) for v in ("seed-de", "classic")]
    ladders += [ladder("seed-de", "single-bezique", [rung("otherwise hold", -3.0, -2.0),
                                                     rung("hold if stock >= 12; otherwise lay", -1.0, -0.5)], bz_book)]
    monkeypatch.setattr(rule_ladder, "shipped_ladders", lambda: {"ladders": ladders})
    advice = bezique_report.guide_advice({"overview": {}})
    assert [a["text"] for a in advice] == [
        "Following a trick while the stock lasts: win every trick you can with a card of the suit led.",
        "Holding a single bezique while the double may still come: hold it as long as the double may come."]
    win, single = advice
    # The player's own choice costs 0 by construction: only the books' rules are measured against it.
    assert [(m["variant"], m["effect"]["value"]) for m in win["margins"]] == [("seed-de", 7.0), ("classic", 7.0)]
    assert [m["effect"]["value"] for m in single["margins"]] == [-3.0, 2.0, 1.0]
    assert win["anchor"] == "tip-bz-t1" and single["anchor"] == "tip-bz-t5"
    assert bezique_report.rule_words("hold if stock >= 12; otherwise lay") == (
        "hold it while the stock holds 12 cards or more, then lay it")
    assert bezique_report.rule_words("win if meld >= 40 or brisque_led >= 1; otherwise duck") == (
        "win it only for a meld of 40 or more or to take an ace or ten led")
    assert bezique_report.rule_words("otherwise low") == "lead the lowest card you can spare"
    assert bezique_report.rule_words("otherwise meld") == "lay your best meld as soon as you may"
    assert bezique_report.guide_advice({}) == []

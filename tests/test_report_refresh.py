"""``salon report --from-saved --refresh``: one part of a saved report computed again (Écarté's
view of the shipped equilibrium tables, one tip's verdicts), the rest of the report untouched."""
from __future__ import annotations

import json

from analysis.report import build


def _saved(tmp_path, context: dict) -> str:
    (tmp_path / "figures").mkdir()
    (tmp_path / build.CONTEXT_FILE).write_text(json.dumps(context))
    return str(tmp_path)


def test_refresh_ecarte_equilibrium_reads_the_shipped_tables(tmp_path):
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import tables as T

    out = _saved(tmp_path, {"budget": "quick", "seed": 0, "tips": {"tips": []}, "sections": {"ecarte": {
        "variants": [{"name": "classic", "equilibrium": {"old": True}, "kept": 1}], "kept": 2}}})
    context = build.refresh_part(build.load_context(out), out, "ecarte.equilibrium")
    section = context["sections"]["ecarte"]
    v = section["variants"][0]
    assert section["kept"] == 2 and v["kept"] == 1 and "old" not in v["equilibrium"]
    _, summary = T.shipped(get_rules("classic"), HeuristicPolicy())
    assert v["equilibrium"]["summary"]["exploitability"] == summary["exploitability"]
    assert (tmp_path / v["equilibrium"]["figure"]).exists()
    words = v["equilibrium"]["words"]  # the shipped summary's checks, stated with its own numbers
    gain = summary["search_check_reading"]["dealer"]["value_reading_minus_plain"]["value"]
    assert words["search_reading"].startswith("elder's sets") and f"dealer's sets: value {gain:+.4f}" in words["search_reading"]
    scores = summary["by_score"]["scores"]
    under = sum(all(r[f"exploitability_{s}_upper"] < summary["target"] for s in ("elder", "dealer")) for r in scores)
    assert f"at {under} of {len(scores)} scores" in words["by_score_certificate"]
    assert summary["discard_rule"]["chosen_words"] in words["discards"]
    assert context["refreshed"][-1]["part"] == "ecarte.equilibrium"


def test_refresh_one_tip_replaces_only_its_verdicts(tmp_path, salon):
    from analysis.tips import as_json, tip_verdicts

    tips = as_json(tip_verdicts("ecarte", "quick", 0, deals=2_000, ids={"EC-T5", "EC-T2"}))
    assert [t["id"] for t in tips["tips"]] == ["EC-T2", "EC-T5"]
    stale = json.loads(json.dumps(tips))
    for t in stale["tips"]:
        t["verdicts"] = [{"stale": True}]
    out = _saved(tmp_path, {"budget": "quick", "seed": 0, "tips": stale, "sections": {}})
    code, _, err = salon(["report", "--from-saved", "--refresh", "tips.EC-T99", "--out", out])
    assert code == 2 and "tips.ID" in err and len(err.strip().splitlines()) == 1
    context = build.refresh_part(build.load_context(out), out, "tips.EC-T5")
    got = {t["id"]: t for t in context["tips"]["tips"]}
    assert got["EC-T2"]["verdicts"] == [{"stale": True}]  # untouched
    assert got["EC-T5"]["verdicts"] == json.loads(json.dumps(tips["tips"][1]["verdicts"]))
    assert json.loads((tmp_path / build.CONTEXT_FILE).read_text())["tips"] == context["tips"]

"""The command line: JSON contracts, and bad input as one line on stderr with exit code 2."""
import json
import subprocess
import sys

import pytest

from analysis.cli import main


def run(args, capsys):
    """Run salon in-process; returns (exit code, stdout, stderr)."""
    try:
        main(args)
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out, err = capsys.readouterr()
    return code, out, err


BAD = [
    (["simulate", "ecarte", "--deals", "0"], "--deals"),
    (["simulate", "ecarte", "--deals", "-5"], "--deals"),
    (["simulate", "ecarte", "--deals", "100", "--rules", "nonsense"], "valid: seed-de, classic"),
    (["simulate", "ecarte", "--deals", "100", "--rule", "bogus=1"], "unknown switch 'bogus'"),
    (["simulate", "ecarte", "--deals", "100", "--rule", "target=4"], "target"),
    (["simulate", "ecarte", "--deals", "100", "--rule", "target"], "key=value"),
    (["simulate", "ecarte", "--deals", "100", "--rule", "must_trump_when_void=maybe"], "true or false"),
    (["simulate", "ecarte", "--deals", "100", "--threads", "0"], "--threads"),
    (["simulate", "ecarte", "--deals", "100", "--param", "nope=1"], "nope"),
    (["simulate", "ecarte", "--deals", "100", "--seed", str(2**64)], "seed"),
    (["simulate", "piquet", "--deals", "100", "--rules", "classic"], "valid: seed-de, seed-no, cavendish"),
    (["simulate", "piquet", "--deals", "100", "--rule", "younger_min=2"], "younger_min"),
    (["simulate", "piquet", "--deals", "100", "--game"], "--partie"),
    (["simulate", "ecarte", "--deals", "100", "--partie"], "--game"),
    (["piquet", "declare", "AS KS QS JS 10S 9S 8S 7S AH KH QH"], "expected 12 cards"),
    (["piquet", "declare", "AS KS QS JS 10S 9S 8S 7S AH KH QH QH"], "duplicate"),
    (["piquet", "declare", "AS KS QS JS 10S 9S 8S 7S AH KH QH XH"], "'XH'"),
    (["piquet", "declare", "AS KS QS JS 10S 9S 8S 7S AH KH QH JH", "--vs", "AS KD QD JD 10D 9D 8D 7D AC KC QC JC"],
     "overlap"),
    (["piquet", "declare", "AS KS QS JS 10S 9S 8S 7S AH KH QH JH", "--vs", "AD KD QD"], "younger"),
    (["piquet", "replay", "/nonexistent/piquet.json"], "piquet.json"),
    (["piquet", "explain", "--seed", "-1"], "--seed"),
    (["study", "piquet", "overview", "--deals", "0"], "--deals"),
    (["simulate", "bezique", "--deals", "10", "--partie"], "--partie is for piquet"),
    (["simulate", "chess"], "chess"),
    (["ecarte", "propose", "KS QS 7H 8D 9X", "--turnup", "10S"], "'9X'"),
    (["ecarte", "propose", "KS QS 7H 8D 8D", "--turnup", "10S"], "duplicate"),
    (["ecarte", "propose", "KS QS 7H 8D", "--turnup", "10S"], "expected 5 cards"),
    (["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "KS"], "turn-up"),
    (["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "ZZ"], "'ZZ'"),
    (["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--samples", "0"], "--samples"),
    (["ecarte", "replay", "/nonexistent/record.json"], "record.json"),
    (["compare", "ecarte", "--a", "heuristic", "--b", "heuristic", "--param", "a.leads=learned", "--param",
      "a.reads=nowhere", "--deals", "10"], "reads must be none or one of"),
    (["compare", "ecarte", "--a", "heuristic", "--b", "heuristic", "--param", "a.reads=classic", "--deals", "10"],
     "reads needs leads=learned"),
    (["study", "ecarte", "propose-table", "--deals-per-class", "0"], "--deals-per-class"),
    (["tips", "--budget", "huge"], "huge"),
    (["bench", "bezique", "--repeats", "0"], "--repeats"),
    (["bezique", "melds", "QS JD", "--trump", "X"], "not a suit"),
    (["bezique", "melds", "QS JD QS QS", "--trump", "H"], "duplicate"),
    (["bezique", "melds", "QS JD", "--trump", "H", "--table", "QS JD; QS JD; QS KS"], "third"),
    (["bezique", "melds", "QS JD", "--trump", "H", "--table", "7S 8S"], "not a meld"),
    (["bezique", "melds", "QS JZ", "--trump", "H"], "'JZ'"),
    (["bezique", "replay", "/nonexistent/bz.json"], "bz.json"),
    (["no-such-command"], "no-such-command"),
    (["report", "--from-saved", "--out", "/nonexistent/reports"], "report_context.json"),
]


@pytest.mark.parametrize("args,needle", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_code_2(args, needle, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert needle in lines[0]


def test_simulate_json_contract(capsys):
    code, out, err = run(["simulate", "ecarte", "--deals", "20000", "--seed", "3", "--json", "--rules", "classic",
                          "--rule", "target=7"], capsys)
    assert code == 0
    res = json.loads(out)
    for key in ("game", "rules", "switches", "policies", "deals", "seed", "version", "stats"):
        assert key in res
    assert res["game"] == "ecarte" and res["rules"] == "classic" and res["switches"]["target"] == 7
    assert res["deals"] == 20000 and res["seed"] == 3
    for name in ("turnup_king", "elder_dealt_trump_king", "elder_wins_point", "vole", "elder_proposes",
                 "dealer_refuses", "elder_points_per_hand", "dealer_points_per_hand"):
        s = res["stats"][name]
        lo, hi = s["ci95"]
        assert lo <= s["value"] <= hi and s["n"] > 0


def test_propose_json_contract(capsys):
    code, out, _ = run(["ecarte", "propose", "♠K Q ♥7 ♦8 ♣9", "--turnup", "10S", "--samples", "4000", "--simulate",
                        "--json"], capsys)
    assert code == 0
    res = json.loads(out)
    for key in ("play", "propose", "difference"):
        assert set(res[key]) >= {"value", "ci95"}
    assert res["recommendation"] in ("play", "propose") and res["source"] == "simulation" and res["opponent"]
    assert abs(res["difference"]["value"] - (res["propose"]["value"] - res["play"]["value"])) < 1e-9


def test_simulate_writes_records_that_replay(tmp_path, capsys):
    path = tmp_path / "recs.json"
    code, out, _ = run(["simulate", "ecarte", "--deals", "50", "--records", str(path), "--record-count", "5",
                        "--policy", "random", "--json"], capsys)
    assert code == 0
    code, out, err = run(["ecarte", "replay", str(path), "--json"], capsys)
    assert code == 0, err
    assert len(json.loads(out)["records"]) == 5


def test_help_and_version_do_not_import_numba():
    code = ("import sys; from analysis.cli import main\n"
            "try:\n main(['--help'])\nexcept SystemExit: pass\n"
            "assert 'numba' not in sys.modules, 'numba imported for --help'\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-m", "analysis.cli", "--version"], check=True, capture_output=True,
                         text=True).stdout
    assert "salon" in out


def test_simulate_piquet_json_contract(capsys):
    code, out, err = run(["simulate", "piquet", "--deals", "20000", "--seed", "4", "--json", "--rules", "cavendish"],
                         capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["game"] == "piquet" and res["rules"] == "cavendish" and res["switches"]["younger_min"] == 1
    for name in ("carte_blanche_elder", "carte_blanche_younger", "elder_score", "younger_score", "repique_elder",
                 "repique_younger", "pique", "capot", "cards_elder", "cards_younger", "cards_divided"):
        s = res["stats"][name]
        lo, hi = s["ci95"]
        assert lo <= s["value"] <= hi and s["n"] == 20000
    for seat in ("elder", "younger"):
        bins = res["score_bins"][seat]
        assert len(bins) == 16 and sum(bins.values()) == 20000
        assert list(bins)[0] == "under 10" and list(bins)[-1] == "150 or more"
    c = res["stats"]
    assert abs(c["cards_elder"]["value"] + c["cards_younger"]["value"] + c["cards_divided"]["value"] - 1) < 1e-12


def test_simulate_piquet_partie_json_contract(capsys):
    code, out, err = run(["simulate", "piquet", "--deals", "2000", "--partie", "--json", "--rules", "seed-no"], capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["mode"] == "parties"
    for name in ("first_dealer_wins", "rubicon", "partie_margin"):
        lo, hi = res["stats"][name]["ci95"]
        assert lo <= res["stats"][name]["value"] <= hi
    assert res["stats"]["partie_margin"]["value"] >= 100  # the winner's margin includes the 100 bonus


def test_piquet_declare_json_contract(capsys):
    # Elder: quint major in spades (15), quatorze of aces (14), point 5: 34 before younger scores -> repique.
    code, out, err = run(["piquet", "declare", "♠A K Q J 10 ♥A 9 ♦A 8 ♣A 8 7", "--vs",
                          "♠9 8 7 ♥K Q J 10 ♦K Q J ♣K Q", "--json"], capsys)
    assert code == 0, err
    res = json.loads(out)
    for seat in ("elder", "younger"):
        assert set(res[seat]) >= {"carte_blanche", "point", "sequences", "sets", "repique", "total"}
    e, y = res["elder"], res["younger"]
    assert y["point"] == 0 and e["point"] == 5
    assert e["sequences"] == 15 and e["sets"] == 14 and e["repique"] == 60 and e["total"] == 94
    assert y["total"] == 0


def test_piquet_simulate_records_replay(tmp_path, capsys):
    path = tmp_path / "pq.json"
    code, out, err = run(["simulate", "piquet", "--deals", "50", "--records", str(path), "--record-count", "4",
                          "--policy", "random", "--json"], capsys)
    assert code == 0, err
    code, out, err = run(["piquet", "replay", str(path), "--json"], capsys)
    assert code == 0, err
    recs = json.loads(out)["records"]
    assert len(recs) == 4 and all("total" in r["scores"]["elder"] for r in recs)
    code, out, err = run(["piquet", "explain", "--seed", "2", "--deal", "3"], capsys)
    assert code == 0 and "trick" in out.lower()


def test_bezique_melds_json_contract(capsys):
    """BZ-VALUES / BZ-REUSE / BZ-DOUBLE through the command: names, cards and points."""
    got = set()
    for hand in ("QS JD KH QH 10H AH JH", "KS QS AS AS AD AC"):  # a melding hand holds at most 7 cards
        code, out, err = run(["bezique", "melds", hand, "--trump", "♥", "--json"], capsys)
        assert code == 0, err
        got |= {(m["name"], m["points"]) for m in json.loads(out)["melds"]}
    assert {("common_marriage", 20), ("royal_marriage", 40), ("trump_sequence", 250), ("bezique", 40),
            ("four_aces", 100)} <= got
    # Classic: a single bezique on the table and the other pair in hand -> double bezique (BZ-DOUBLE).
    code, out, _ = run(["bezique", "melds", "QS JD", "--trump", "H", "--table", "QS JD", "--rules", "classic",
                        "--json"], capsys)
    assert ("double_bezique", 500) in {(m["name"], m["points"]) for m in json.loads(out)["melds"]}
    code, out, _ = run(["bezique", "melds", "QS JD", "--trump", "H", "--table", "QS JD", "--json"], capsys)
    assert "double_bezique" not in {m["name"] for m in json.loads(out)["melds"]}  # seed-de: one turn only


def test_bezique_explain_and_records_replay(tmp_path, capsys):
    from analysis.bezique.policies import HeuristicPolicy
    from analysis.bezique.reference.deal import play_deal
    from analysis.bezique.reference.records import record_from_deal, save_records
    from analysis.bezique.rules import get_rules

    rules = get_rules("classic")
    recs = [record_from_deal(play_deal(3, i, rules, HeuristicPolicy()), rules) for i in range(2)]
    path = tmp_path / "bz.json"
    save_records(recs, path)
    code, out, err = run(["bezique", "replay", str(path), "--json"], capsys)
    assert code == 0, err
    assert len(json.loads(out)["records"]) == 2
    code, out, err = run(["bezique", "explain", "--seed", "2", "--deal", "1"], capsys)
    assert code == 0 and "Trick 32" in out


def test_simulate_bezique_json_contract(capsys):
    code, out, err = run(["simulate", "bezique", "--deals", "3000", "--seed", "5", "--json", "--rules", "classic"],
                         capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["game"] == "bezique" and res["rules"] == "classic" and res["deals"] == 3000
    st = res["stats"]
    assert st["brisque_points"]["value"] == 160 and st["last_trick_points"]["value"] == res["switches"]["last_trick"]
    assert 0 <= st["seven_points"]["value"] <= 20
    for name in ("points_per_deal_elder", "points_per_deal_dealer", "turnup_seven", "double_bezique",
                 "trump_sequence", "four_aces", "common_marriage", "royal_marriage", "bezique"):
        lo, hi = st[name]["ci95"]
        assert lo <= st[name]["value"] <= hi
    code, out, err = run(["simulate", "bezique", "--deals", "40", "--game", "--json"], capsys)
    assert code == 0, err
    res = json.loads(out)
    assert res["mode"] == "games" and res["stats"]["deals_per_game"]["value"] >= 1
    assert 0 <= res["stats"]["dealer_first_wins"]["value"] <= 1


@pytest.mark.parametrize("game, old, new", [("bezique", "heuristic-new", "tuned-exact"),
                                            ("piquet", "learned-fast", "learned-ordering")])
def test_a_policys_old_name_still_works_with_a_notice(game, old, new, salon):
    """Policies are named by what they are; their old names still play the same policy, with a
    one-line notice naming the new one."""
    args = ["simulate", game, "--deals", "200", "--seed", "3", "--json", "--quiet", "--policy"]
    code_old, out_old, err_old = salon(args + [old])
    code_new, out_new, err_new = salon(args + [new])
    assert code_old == code_new == 0, err_old + err_new
    assert f"'{old}' is now called '{new}'" in err_old and err_old.count("\n") == 1 and "is now called" not in err_new
    assert json.loads(out_old)["stats"] == json.loads(out_new)["stats"]

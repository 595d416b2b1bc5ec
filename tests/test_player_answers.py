"""The one-hand commands, ``compare`` and ``tips`` speak a player's language (DESIGN.md): the first
line(s) say what to do, in the notation the hand was typed in, with what it is worth and its
interval; the players are named in words; the technical description waits for --verbose and the
JSON; no Python dict, symbol or repr is ever printed."""
import json
import re

import pytest

INTERVAL = re.compile(r"[+-]\d+(\.\d+)? \[[+-]\d+(\.\d+)?, [+-]\d+(\.\d+)?\]")
PYTHON = ("{'", "policies.", "<analysis", "array(", "np.", "None", "True", "False", "Traceback")


def no_python(text: str) -> None:
    for needle in PYTHON:
        assert needle not in text, f"{needle!r} printed:\n{text}"


# ------------------------------------------------------------------------------ ecarte propose
def test_propose_answers_first_in_book_notation_with_the_discard_if_accepted(salon):
    code, out, err = salon(["ecarte", "propose", "♠K Q ♥7 ♦8 ♣9", "--turnup", "10S"])
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("Propose — a clear choice: it gains ") and INTERVAL.search(first)
    assert "points per hand over playing without proposing" in first
    assert second == "If the dealer accepts, throw ♥7 ♦8 ♣9 and keep ♠K Q."
    no_python(out)
    assert "false-discovery" not in out and "reads=" not in out and "heuristic (" not in out
    assert "legend:" in out and "hand class" in out


def test_propose_speaks_codes_when_typed_so_and_by_score(salon):
    code, out, err = salon(["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--score", "3-4"])
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("At 3-4 (your score first), propose") and INTERVAL.search(first)
    assert second == "If the dealer accepts, throw 7H 8D 9C and keep KS QS."
    no_python(out)


def test_propose_verbose_and_json_keep_the_technical_description(salon):
    code, out, err = salon(["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--verbose"])
    assert code == 0, err
    assert "clear at a 5% false-discovery rate" in out and "play: heuristic (" in out and "tables: " in out
    no_python(out)
    code, out, err = salon(["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--json"])
    res = json.loads(out)
    # The JSON's fields are unchanged, with the discard added.
    assert {"source", "tables", "method", "rules", "budget", "opponent", "play_policy", "class", "bucket",
            "propose_probability", "recommendation", "difference", "held_out", "exploitability"} <= set(res)
    assert res["discard_if_accepted"]["throw"] == ["7H", "8D", "9C"] and res["discard_if_accepted"]["keep"] == ["KS", "QS"]


def test_a_play_hand_says_what_to_throw_if_proposed_anyway(salon):
    code, out, err = salon(["ecarte", "propose", "KH QH JH 7S KD", "--turnup", "7H"])
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith("Play without proposing — ") and INTERVAL.search(first)
    assert second == "If you propose anyway and the dealer accepts, throw 7S and keep KH QH JH KD."


def test_propose_simulated_answers_first_too(salon):
    code, out, err = salon(["ecarte", "propose", "K♠ Q♠ 7♥ 8♦ 9♣", "--turnup", "10S", "--simulate", "--samples",
                            "2000", "--quiet"])
    assert code == 0, err
    first, second = out.splitlines()[:2]
    assert first.startswith(("Propose — ", "Play without proposing — ")) and INTERVAL.search(first)
    assert second.endswith("throw 7♥ 8♦ 9♣ and keep K♠ Q♠.")
    assert "P(point)" in out and "legend:" in out and "2,000 simulated deals" in out
    no_python(out)


def test_the_discard_if_accepted_is_legal_and_the_engine_s():
    """The discard named is the heuristic's (the kernel's own function, at the tables' keep rule):
    cards of the hand, one to five of them, trumps kept unless the hand holds nothing else."""
    import numpy as np

    from analysis.ecarte.answers import discard_if_accepted
    from analysis.ecarte.players.heuristic import heuristic_discard

    rng = np.random.default_rng(43)
    for _ in range(300):
        cards = rng.choice(32, 6, replace=False)
        hand, up = [int(c) for c in cards[:5]], int(cards[5])
        trump = up >> 3
        for keep in (7, 8):
            thrown, kept = discard_if_accepted(hand, up, keep)
            assert sorted(thrown + kept) == sorted(hand) and 1 <= len(thrown) <= 5
            assert sum(1 << c for c in thrown) == heuristic_discard(sum(1 << c for c in hand), trump, 1, 5, keep)
            if any(c >> 3 != trump for c in hand):
                assert all(c >> 3 != trump for c in thrown)


def test_propose_with_tables_that_are_not_there_stops_before_any_work(salon, monkeypatch):
    from analysis.ecarte.studies import simulate as studies
    from analysis.ecarte.studies.equilibrium import tables as equilibrium_tables

    monkeypatch.setattr(equilibrium_tables, "answer", lambda *a, **k: pytest.fail("answered from the shipped tables"))
    monkeypatch.setattr(studies, "propose_hand", lambda *a, **k: pytest.fail("simulated"))
    code, out, err = salon(["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--tables", "/nonexistent"])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0] == "error: --tables /nonexistent: no such directory"


def test_propose_with_a_directory_without_tables_is_an_error(salon, tmp_path):
    code, out, err = salon(["ecarte", "propose", "KS QS 7H 8D 9C", "--turnup", "10S", "--tables", str(tmp_path)])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no strategy tables" in err


def test_propose_help_has_no_markup(salon):
    code, out, _ = salon(["ecarte", "propose", "--help"])
    assert code == 0 and "`" not in out and "--verbose" in out


# ------------------------------------------------------------------------------ bezique advise
ADVISE = ["bezique", "advise", "AS 10S KH QH 9D JD QS 7C", "--trump", "H", "--stock", "40", "--samples", "30"]


def test_advise_answers_first_and_names_no_python_symbol(salon):
    code, out, err = salon(ADVISE)
    assert code == 0, err
    res = json.loads(salon([*ADVISE, "--json"])[1])
    first = out.splitlines()[0]
    assert first.startswith(f"Play {res['best']} — ") and INTERVAL.search(first)
    assert "points to the end of the deal" in first
    no_python(out)
    assert "tuned-exact" not in out and "method:" not in out
    code, verbose, _ = salon([*ADVISE, "--verbose"])
    assert "opponent: tuned-exact (" in verbose and "method: " in verbose
    no_python(verbose)
    no_python(res["opponent"])


def test_advise_speaks_book_notation_when_typed_so(salon):
    code, out, err = salon(["bezique", "advise", "♠A 10 Q ♥K Q ♦9 J ♣7", "--trump", "H", "--stock", "40",
                            "--samples", "30"])
    assert code == 0, err
    first = out.splitlines()[0]
    assert re.match(r"Play [♠♥♦♣](A|10|K|Q|J|9|8|7) — ", first), first
    assert not re.search(r"\b(10|[AKQJ987])[SHDC]\b", out), out  # no card printed as a code
    assert "royal marriage ♥K Q 40" in out


# ------------------------------------------------------------------------------ bezique solve
def _line_sum(res):
    return sum(r["points"] if r["winner"] == "hand" else -r["points"] for r in res["line"])


def test_solve_says_any_card_when_every_lead_is_equal_and_prints_a_line(salon):
    args = ["bezique", "solve", "--hand", "AS 10S KH QH 9D", "--opponent", "AH 7S JD 8C AC", "--trump", "S"]
    code, out, err = salon(args)
    assert code == 0, err
    res = json.loads(salon([*args, "--json"])[1])
    assert res["any"] and len(res["best"]) == 5 and set(res["lead_values"].values()) == {res["value"]}
    assert out.splitlines()[0] == (f"Lead any card: every lead gives you {res['value']:+d} points from these 5 tricks "
                                   "(your brisques and last trick minus the opponent's), exact with both sides "
                                   "playing best.")
    assert "line of best play" in out and len(res["line"]) == 5 and _line_sum(res) == res["value"]
    for r in res["line"]:
        assert f"{r['led']} {r['followed']}" in out
    assert "legend:" in out and "searched" not in out
    no_python(out)
    code, verbose, _ = salon([*args, "--verbose"])
    assert "searched" in verbose and "every lead's value for you" in verbose


def test_solve_names_the_best_lead_in_the_typed_notation(salon):
    code, out, err = salon(["bezique", "solve", "--hand", "♠A ♥7", "--opponent", "10S 8H", "--trump", "H"])
    assert code == 0, err
    assert out.splitlines()[0].startswith("Lead ♥7: it gives you +30 points from these 2 tricks")
    assert "♥7 ♥8" in out and "♠10 ♠A" in out


def test_solve_line_sums_to_the_value_whoever_leads():
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies import solve as S

    for leader in ("hand", "opponent"):
        res = S.solve("AS 10S KH QH 9D 7D", "AH 7S JD 8C AC 10D", "D", leader, get_rules())
        assert _line_sum(res) == res["value"] and res["line"][0]["leader"] == leader
        assert res["line"][-1]["trick"] == 32 and len(res["line"]) == 6


# ------------------------------------------------------------------------------ compare
def _compare(a="heuristic", b="random", params=(), d=(80, 0, 0), seats=((120, 0), (40, 0))):
    from analysis.compare import compare_result
    from analysis.games import GAMES

    g = GAMES["ecarte"]
    pa, pb = g.policy(a, list(params)), g.policy(b)
    n = 100
    t = [n, 2 * d[0] * n, (2 * d[0]) ** 2 * n + 400 * n, seats[0][0] * n, seats[0][0] ** 2 * n + n,
         seats[1][0] * n, seats[1][0] ** 2 * n + n]
    return compare_result(g, g.rules(), a, b, pa, pb, n, 0, t)


def test_compare_answers_first_and_names_players_in_words():
    from analysis.compare import compare_text

    res = _compare(params=["lead_trumps=false"])
    text = compare_text(res)
    first = text.splitlines()[0]
    assert first.startswith("A (heuristic) is stronger than B (random): ") and INTERVAL.search(first)
    assert "A = heuristic: heuristic player (with lead_trumps=false)" in text
    assert "B = random: random player (every choice at random)" in text
    no_python(text)
    assert "elder_play_threshold" not in text
    assert "A's parameters: elder_play_threshold=9" in compare_text(res, verbose=True)
    assert res["players_in_words"]["b"].startswith("random player")
    json.dumps(res)


def test_compare_on_the_command_line_prints_no_dict(salon):
    code, out, err = salon(["compare", "ecarte", "--a", "heuristic", "--b", "random", "--deals", "500", "--quiet"])
    assert code == 0, err
    assert out.startswith("A (heuristic) is stronger than B (random): ")
    no_python(out)


def test_player_words():
    from analysis.words import player_words

    search = {"kind": "search", "samples": 32, "exact_endgame": 1, "meld_chance": 0}
    assert player_words(search) == "search player (32 samples of the hidden cards, the exact end game)"
    assert player_words({"kind": "heuristic", "leads": "learned", "reads": "seed-de",
                         "lead_weights_sha256": "x"}) == (
        "heuristic player (learned leads reading the other's first decision)")
    assert player_words("heuristic (discards (reads=seed-de))") == "heuristic"


# ------------------------------------------------------------------------------ tips
def _verdicts():
    from analysis.stats import Estimate
    from analysis.verdicts import Verdict

    eq = {"first_decisions": {"kind": "equilibrium tables", "budget": "standard"},
          "exchanges_and_play": {"kind": "heuristic", "leads": "learned", "reads": "seed-de",
                                 "lead_weights_sha256": "03635d0edbea8689"}}
    return [Verdict("EC-T6", "seed-de", "refuted", Estimate(0.9076, 0.7579, 0.9535, 100), "share of proposals "
                    "the dealer should refuse", "refuted if above one half", 301_649_408, 0, eq),
            Verdict("EC-T8", "seed-de", "supported", Estimate(0.0, 0.0, 0.0, 300_000), "elder net points: "
                    "refused proposal minus playing", "supported if 0 lies in the interval", 300_000, 0,
                    {"both": {"kind": "heuristic", "elder_play_threshold": 9}}),
            Verdict("EC-T3", "seed-de", "inconclusive", Estimate(0.01, -0.02, 0.04, 100), "x", "r", 100, 0, {})]


def test_tips_print_each_verdict_s_sentence_for_a_player_first():
    from analysis.report.guide_words import READINGS
    from analysis.tips import tips_text

    vs = _verdicts()
    res = {"budget": "quick", "deals_per_study": 300_000, "seed": 0,
           "tips": [{"id": v.tip, "tip": "the tip", "verdicts": [v.to_dict()]} for v in vs]}
    text = tips_text(res)
    lines = text.splitlines()
    # The guide's own sentence, right under the tip, then the evidence.
    k = lines.index("       [seed-de] " + READINGS["EC-T6"]["refuted"])
    assert lines[k + 1].startswith("         REFUTED · share of proposals the dealer should refuse: +0.908 [+0.758, +0.95")
    assert "the solved equilibrium tables, heuristic player (learned leads reading the other's first decision)" in text
    assert "       [seed-de] " + READINGS["EC-T8"]["supported"] in lines
    assert "       [seed-de] The deals cannot tell whether the tip holds." in lines  # no sentence in the guide
    assert "+0.0000 [+0.0000, +0.0000]" not in text and "(reads=" not in text and "sha256" not in text
    no_python(text)
    verbose = tips_text(res, verbose=True)
    assert "tested: refuted if above one half" in verbose and "reads=seed-de" in verbose
    no_python(verbose)

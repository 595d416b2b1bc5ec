"""``salon piquet discard`` and ``salon piquet solve`` answer first in a player's words (issue 43):
what to throw and what to keep, in the hand's own notation, with its worth and interval; the
detail under it with a legend; the players' technical description only with --verbose; budgets."""
from __future__ import annotations

import contextlib
import functools
import io
import json
import re

import pytest

from analysis.cards import parse_cards
from analysis.cli import main
from analysis.piquet.answers import BUDGETS
from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.analyser import exchange_bounds

BOOK = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8"
CODES = "AS KS QS JS 7S AH 10H 8H 9D 7D KC 8C"
FAST = ("--budget", "quick", "--samples", "300", "--quiet")
REPR = re.compile(r"\{'|'\w+':|\['|\bNone\b|\bTrue\b|\bFalse\b|np\.|array\(|<\w+ object")
FIRST = re.compile(r"^Throw (.+) and keep (.+): worth [+-]\d+\.\d points a deal over (elder|younger) "
                   r"\[[+-]\d+\.\d, [+-]\d+\.\d\]\.$")


@functools.lru_cache(maxsize=None)
def salon(*args: str) -> tuple[int, str, str]:
    """The command line in-process (cached: the same arguments give the same answer)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def _answer(text: str) -> tuple[str, str]:
    m = FIRST.match(text.splitlines()[0])
    assert m, text.splitlines()[0]
    return m[1], m[2]


@pytest.mark.parametrize("hand, seat, extra, style", [
    (BOOK, "elder", (), "book"),
    (CODES, "elder", (), "codes"),
    (CODES, "younger", ("--elder-took", "3"), "codes"),
])
def test_the_first_line_says_what_to_throw_and_keep_in_the_hands_notation(hand, seat, extra, style):
    seat_args = ("--seat", seat, *extra) if seat == "younger" else ()
    code, out, err = salon("piquet", "discard", hand, *seat_args, *FAST)
    assert code == 0, err
    throw, keep = _answer(out)
    for words in (throw, keep):
        tokens = words.split()
        if style == "book":
            ranks = ("A", "K", "Q", "J", "10", "9", "8", "7")
            assert tokens[0][0] in "♠♥♦♣" and all(t[0] in "♠♥♦♣" or t in ranks for t in tokens), words
        else:
            assert all(re.fullmatch(r"(10|[7-9JQKA])[SHDC]", t) for t in tokens), words
    thrown, kept = parse_cards(throw), parse_cards(keep)
    assert set(thrown).isdisjoint(kept) and set(thrown) | set(kept) == set(parse_cards(hand))
    lo, hi = exchange_bounds(seat, get_rules(), int(extra[1]) if extra else 5)
    assert lo <= len(thrown) <= hi
    # The second line: the next best and who played the deals the figures come from.
    second = out.splitlines()[1]
    assert second.startswith("The next best, throwing ") and "deals other than those that chose it" in second


def test_the_json_answer_says_the_same():
    throw, keep = _answer(salon("piquet", "discard", BOOK, *FAST)[1])
    code, out, err = salon("piquet", "discard", BOOK, *FAST, "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert set(parse_cards(" ".join(obj["throw"]))) == set(parse_cards(throw))
    assert set(parse_cards(" ".join(obj["keep"]))) == set(parse_cards(keep))
    assert obj["answer"]["throw"] == obj["throw"] and obj["answer"]["keep"] == obj["keep"]
    # The figures are the strong stage's, reported on deals other than those that chose the best.
    assert obj["budget"]["name"] == "quick" and obj["answer"]["player"] == "dd" and obj["answer"]["held_out"]
    assert obj["answer"]["net"] == obj["strong"]["exchanges"][0]["net"]
    assert obj["throw"] == obj["strong"]["best"] and set(obj["players"]) == {"race", "dd"}
    assert set(obj["seconds"]) == {"race", "dd", "total"}


def test_codes_keep_the_order_they_were_typed_in():
    typed = "8C KC 7D 9D 8H 10H AH 7S JS QS KS AS"
    code, out, err = salon("piquet", "discard", typed, *FAST)
    assert code == 0, err
    throw, keep = _answer(out)
    order = typed.split()
    for words in (throw, keep):
        places = [order.index(t) for t in words.split()]
        assert places == sorted(places), words


@pytest.mark.parametrize("budget", sorted(BUDGETS))
def test_every_budget_is_accepted_and_explicit_options_override_it(budget):
    code, out, err = salon("piquet", "discard", BOOK, "--budget", budget, "--samples", "300", "--play", "heuristic",
                           "--quiet", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["budget"]["name"] == budget and obj["samples"] == 300 and obj["play"]["used"] == "heuristic"


def test_a_wrong_budget_is_one_line_and_exit_2():
    code, out, err = salon("piquet", "discard", BOOK, "--budget", "fast")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--budget" in err


def test_the_help_quotes_each_budgets_time_and_no_doubled_percent():
    code, out, _ = salon("piquet", "discard", "--help")
    assert code == 0 and "%%" not in out
    flat = " ".join(out.split())
    for name, b in BUDGETS.items():
        assert f"{name}, about {b.seconds:g} s" in flat


def test_verbose_adds_the_players_technical_description():
    code, plain, _ = salon("piquet", "discard", BOOK, *FAST)
    code2, verbose, err = salon("piquet", "discard", BOOK, *FAST, "--verbose")
    assert code == code2 == 0, err
    assert verbose.startswith(plain.rstrip("\n"))  # the same answer, more under it
    for needle in ("point_bonus=", "dd, both sides:", "round 1:", "dd_choose seed"):
        assert needle in verbose and needle not in plain


def test_the_detail_names_its_players_and_has_a_legend_for_every_column():
    code, out, _ = salon("piquet", "discard", BOOK, *FAST)
    assert "played out with open hands (the double-dummy player" in out
    assert "under search play" not in out
    legend = out[out.index("Columns:"):]
    for column in ("net [95%]", "vs best [95%]", "point, seq, sets, repiq, cards", "exact P(point 6+)", "piq/rep",
                   "capot", "heuristic #"):
        assert f"  {column}" in legend, column


def test_each_strong_table_is_headed_by_its_own_player():
    from analysis.piquet.studies.discards.analyser import analyse_hand
    from analysis.piquet.studies.discards.analyser_search import strong_analysis, strong_text

    rules = get_rules()
    a = analyse_hand(BOOK, "elder", rules, samples=200, race=False)
    s = strong_analysis(a, rules, "search", candidates=3, deals=30, search_top=2, search_deals=4, seed=1)
    lines = strong_text(s).splitlines()
    dd_head = next(i for i, line in enumerate(lines) if "double-dummy player" in line)
    search_head = next(i for i, line in enumerate(lines) if "by the search player" in line)
    assert dd_head < search_head
    assert lines[dd_head + 1].rstrip().endswith("heuristic #")
    assert lines[search_head + 1].rstrip().endswith("open-hands #")
    assert "30 deals" in lines[dd_head] and "4 deals" in lines[search_head]


def test_no_python_repr_in_the_answers():
    texts = [salon("piquet", "discard", BOOK, *FAST, "--verbose")[1],
             salon("piquet", "discard", CODES, *FAST, "--play", "heuristic", "--mine", "7S 8H 7D 9D 8C")[1],
             salon("piquet", "solve", "--elder", BOOK, "--younger", "♠10 9 8 ♥K Q J 9 ♦A K Q ♣A Q",
                   "--verbose")[1]]
    for text in texts:
        assert text and not REPR.search(text), REPR.search(text)


@pytest.mark.parametrize("elder, younger, lead", [
    (BOOK, "♠10 9 8 ♥K Q J 9 ♦A K Q ♣A Q", "Elder leads ♠J (♠Q, ♠K or ♠A are as good): "),
    ("AS KS QS 7H", "JS 10S AH KH", "Elder leads QS (KS or AS are as good): "),
])
def test_solve_answers_first_with_the_lead_and_its_worth_in_the_hands_notation(elder, younger, lead):
    won = () if len(elder.split()) > 4 else ("--won", "5-3")
    code, out, err = salon("piquet", "solve", "--elder", elder, "--younger", younger, *won)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(lead) and "with both hands open, elder scores 12 more points than younger" in lines[0]
    assert lines[1].startswith("Value: +12 ") and "Searched" not in out
    line = lines[3].split()
    assert line[2][0] in "♠♥♦♣" if elder == BOOK else re.fullmatch(r"[0-9JQKA]+[SHDC]", line[2])


def test_the_race_gives_the_same_table_with_its_progress_bar_moving_in_blocks():
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand

    kw = {"samples": 600, "race": Racing(first_batch=300), "threads": 2}
    quiet = analyse_hand(BOOK, "elder", get_rules(), **kw)
    shown = analyse_hand(BOOK, "elder", get_rules(), progress=True, **kw)
    assert quiet.table.equals(shown.table) and quiet.rounds == shown.rounds


def test_declare_says_first_what_each_holds_and_scores_in_the_hands_notation():
    code, out, err = salon("piquet", "declare", "♠A K Q J 10 ♥A 9 ♦A 8 ♣A 8 7")
    assert code == 0, err
    assert out.splitlines()[0].startswith("Elder holds a point of 5 (51), a quint to the ♠A and a quatorze of aces")
    code, out, _ = salon("piquet", "declare", "AS KS QS JS 10S AH 9H AD 8D AC 8C 7C", "--vs",
                         "9S 8S 7S KH QH JH 10H KD QD JD KC QC")
    lines = out.splitlines()
    assert lines[0].startswith("Elder scores 94 in declarations and younger 0")
    assert "a quint to the AS" in lines[1] and "repique 60" in lines[1] and lines[2].endswith("scores nothing.")
    assert not REPR.search(out)

"""The Piquet double-dummy solver (analysis.piquet.players.solver) against the brute force of every line
of play (analysis.piquet.reference.solver), under every variant; its line through the reference's
scorer; ``salon piquet solve``'s contract and its bad input."""
from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cards import parse_cards
from analysis.piquet.players import solver as S
from analysis.piquet.reference.solver import brute_force, line_value
from analysis.piquet.rules import get_rules, mask_of, name_of
from analysis.piquet.studies.solve import parse_position, solve_answer

VARIANTS = ("seed-de", "seed-no", "cavendish")


def _random_position(rng, n):
    """A random position of n cards a side: hands, leader, tricks won, running scores (the pique
    open, near 30, or closed) and whether a pique was made."""
    cards = rng.permutation(32)
    e = sum(1 << int(c) for c in cards[:n])
    y = sum(1 << int(c) for c in cards[n:2 * n])
    played = 12 - n
    e_won = int(rng.integers(0, played + 1))
    elder_leads = True if n == 12 else bool(rng.integers(2))
    kind = rng.integers(4)
    if kind == 0:  # elder has won every trick, a pique within reach
        e_won = played
        elder_leads = True
        scores = (int(rng.integers(20, 30)), 0)
    elif kind == 1:
        scores = (int(rng.integers(0, 30)), int(rng.integers(1, 20)))
    else:
        scores = (int(rng.integers(0, 30)), 0)
    if played:  # the leader won the last trick
        elder_leads = e_won > 0 if (e_won == 0 or e_won == played) else elder_leads
    return dict(elder=e, younger=y, elder_leads=elder_leads, e_won=e_won, y_won=played - e_won,
                e_score=scores[0], y_score=scores[1], pique_done=bool(kind == 3 and rng.integers(2)))


def _solver_values(pos, rules, mem):
    pq = S.pique_state(pos["e_score"], pos["y_score"], pos["pique_done"])
    el = 1 if pos["elder_leads"] else 0
    v = S.solve(pos["elder"], pos["younger"], el, pos["e_won"], pq, rules, mem)
    vals = np.full(32, -999, dtype=np.int64)
    S.lead_values(pos["elder"], pos["younger"], el, pos["e_won"], pq, rules, mem, vals)
    hl = pos["elder"] if el else pos["younger"]
    codes = [c for c in range(32) if hl >> c & 1]
    best_v = max(vals[c] for c in codes) if el else min(vals[c] for c in codes)
    return int(v), int(best_v), sorted(c for c in codes if vals[c] == best_v)


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_equals_brute_force_on_random_positions(variant):
    """Value and the set of best leads equal the brute force's on 700 random positions of 1 to 5
    cards a side, every kind of pique state; one table kept across all of them (its keys are exact
    shapes, so no entry may leak into another position's value)."""
    rules = get_rules(variant)
    arr = rules.to_array()
    mem = S.new_memory(12)  # a small table: collisions and replacements happen
    rng = np.random.default_rng(sum(map(ord, variant)))
    for n in (1, 2, 3, 4, 5):
        for _ in range(220 if n < 5 else 60):
            pos = _random_position(rng, n)
            want, best = brute_force(rules=rules, **pos)
            v, v_leads, got_best = _solver_values(pos, arr, mem)
            assert v == want, (variant, pos, v, want)
            assert v_leads == want, (variant, pos)
            assert got_best == sorted(best), (variant, pos, [name_of(c) for c in got_best])


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_equals_brute_force_on_six_card_positions(variant):
    """As above, 40 positions of 6 cards a side (the brute force's limit in a few seconds)."""
    rules = get_rules(variant)
    arr = rules.to_array()
    mem = S.new_memory(16)
    rng = np.random.default_rng(6 + len(variant))
    for _ in range(40):
        pos = _random_position(rng, 6)
        want, best = brute_force(rules=rules, **pos)
        v, _, got_best = _solver_values(pos, arr, mem)
        assert (v, got_best) == (want, sorted(best)), (variant, pos)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_solvers_line_scores_its_value_through_the_reference(variant):
    """Full 12-card deals: the principal line, scored by the reference's scoresheet, gives exactly
    the solver's value; so does every 4-card ending of it against the brute force."""
    rules = get_rules(variant)
    rng = np.random.default_rng(12)
    for _ in range(15):
        cards = rng.permutation(32)
        e = " ".join(name_of(int(c)) for c in cards[:12])
        y = " ".join(name_of(int(c)) for c in cards[12:24])
        e_score = int(rng.integers(0, 30))
        pos = parse_position(e, y, scores=f"{e_score}-0")
        r = solve_answer(pos, rules)
        tricks = [(mask_of(parse_cards(t["led"]))).bit_length() - 1 for t in r["line"]]
        follows = [(mask_of(parse_cards(t["followed"]))).bit_length() - 1 for t in r["line"]]
        v = line_value(pos.elder, pos.younger, elder_leads=True, e_won=0, y_won=0, e_score=e_score, y_score=0,
                       pique_done=False, rules=rules, tricks=list(zip(tricks, follows, strict=True)))
        assert v == r["value"], (variant, e, y)


def test_values_of_a_worked_position():
    """Elder A K Q of spades and 7H against younger J 10 of spades, A K of hearts, 8 tricks to 0
    played 5-3 (seed-de): elder wins three spade leads (3 lead points) and leads the 7H to the A
    (younger: 1 for winning against the lead and 1 for the last trick); 8 tricks give elder the
    cards (10): 3 + 1 + 10 - 2 = +12 (PQ-TRICK, PQ-LAST, PQ-CARDS)."""
    pos = parse_position("AS KS QS 7H", "JS 10S AH KH", won="5-3")
    r = solve_answer(pos, get_rules("seed-de"))
    assert r["value"] == 12
    assert r["best"] == ["QS", "KS", "AS"]
    assert [t["winner"] for t in r["line"]] == ["elder"] * 3 + ["younger"]


def test_solve_command_json_contract(salon):
    code, out, err = salon(["piquet", "solve", "--elder", "AS KS", "--younger", "JS 9H", "--won", "5-5",
                                   "--rules", "cavendish", "--json"])
    assert code == 0, err
    obj = json.loads(out)
    assert obj["value"] == 13  # two lead points (2), the last trick (1), 7 tricks: the cards (10)
    assert obj["best"] == ["KS", "AS"] and obj["rules"] == "cavendish"
    assert obj["nodes"] >= 0 and "open hands" in obj["player"]
    code, out, _ = salon(["piquet", "solve", "--elder", "AS KS", "--younger", "JS 9H", "--won", "5-5"])
    assert code == 0 and "Value: +13" in out


@pytest.mark.parametrize("args, message", [
    (["--elder", "AS KS", "--younger", "JS"], "same number"),
    (["--elder", "AS KS", "--younger", "AS 9S", "--won", "5-5"], "in both hands"),
    (["--elder", "AS KS", "--younger", "JS 9S"], "--won E-Y is required"),
    (["--elder", "AS KS", "--younger", "JS 9S", "--won", "5-4"], "add up to 12"),
    (["--elder", "AS KS", "--younger", "JS 9S", "--won", "five"], "two counts"),
    (["--elder", "AS KS", "--younger", "JS 9S", "--won", "5-5", "--rules", "foo"], "unknown Piquet variant"),
    (["--elder", "AS XX", "--younger", "JS 9S", "--won", "5-5"], "--elder"),
    (["--elder", "AS KS", "--younger", "JS 9S", "--won", "5-5", "--scores", "3"], "--scores"),
])
def test_solve_bad_input_is_one_line_and_exit_2(salon, args, message):
    code, out, err = salon(["piquet", "solve", *args])
    assert code == 2 and out == "", (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err


def test_twelve_cards_and_younger_leading_is_refused(salon):
    cards = list(range(24))
    e = " ".join(name_of(c) for c in cards[:12])
    y = " ".join(name_of(c) for c in cards[12:])
    code, _, err = salon(["piquet", "solve", "--elder", e, "--younger", y, "--leader", "younger"])
    assert code == 2 and "elder leads the first trick" in err
    code, _, err = salon(["piquet", "solve", "--elder", "AS", "--younger", "7S", "--won", "11-0",
                                 "--leader", "younger"])
    assert code == 2 and "has won no trick" in err

"""The exact Bezique end game (analysis/bezique/players/solver.py, players/solver_play.py) against the brute force
(reference/solver.py), against the reference's own scoring of its line, inside the deal kernel
against the reference player, and its command."""
from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from analysis.bezique.players import solver as EG
from analysis.bezique.players import solver_play as EP
from analysis.bezique.policies import TUNED, HeuristicPolicy
from analysis.bezique.reference import solver as R
from analysis.bezique.rules import get_rules
from analysis.bezique.studies.solve import mask


def _table():
    return EG.new_table(EG.TT_BITS)


def _solver_best(h, o, t, must, brisque, last, tt):
    L, F = EG.canonical(mask(h)), EG.canonical(mask(o))
    v, rep = EG.solve_masks(L, F, t, must, brisque, last, tt)
    faces = sorted({c & 31 for c in h})
    best = [f for f in faces if EG.lead_value(L, F, f, t, must, brisque, last, tt) == v] \
        if len(h) > 1 else faces
    return int(v), int(rep), best


@pytest.mark.parametrize("must", [0, 1])
def test_solver_equals_brute_force_on_random_positions(must):
    """Value, every optimal lead, and the table's best lead among them, on 1,200 random positions
    of 1..5 cards a side per variant (seed-de follows suit; classic must also win), with the
    standard points and with brisques worth nothing (only the last trick counts)."""
    rng = random.Random(100 + must)
    tt = _table()  # one table for all: its entries are exact positions
    for i in range(1200):
        h, o, t = R.random_position(rng, 1 + i % 5)
        brisque, last = (10, 10) if i % 4 else (0, 10)
        v_ref, best_ref = R.solve(h, o, t, True, bool(must), brisque, last)
        v, rep, best = _solver_best(h, o, t, must, brisque, last, tt)
        assert (v, best) == (v_ref, best_ref), (h, o, t, must)
        assert rep in best


def test_solver_on_full_positions_and_its_table():
    """8-card positions: the value does not depend on what the table already holds (a fresh
    table and one warm from other positions agree), and both players' choices agree with the
    brute force on a few full positions."""
    rng = random.Random(7)
    warm = _table()
    for i in range(6):
        h, o, t = R.random_position(rng, 8)
        must = i % 2
        v_ref, best_ref = R.solve(h, o, t, True, bool(must))
        assert _solver_best(h, o, t, must, 10, 10, _table())[::2] == (v_ref, best_ref)
        assert _solver_best(h, o, t, must, 10, 10, warm)[::2] == (v_ref, best_ref)
        tt = warm
        lead = EP.exact_lead(mask(h), mask(o), t, must, 10, 10, tt)
        assert lead & 31 == R.exact_lead(h, o, t, bool(must))
        rest = mask([c for c in h if c != lead])
        reply = EP.exact_follow(rest, mask(o), lead, t, must, 10, 10, tt)
        assert reply & 31 == R.exact_follow(h, o, lead, t, bool(must))


def _end_points(res, seat, brisque):
    """The reference's own score of the end phase for ``seat``: its brisques minus those it won in
    the stock tricks, plus its last-trick points."""
    stock = sum(brisque * sum((c & 7) >= 6 for c in (tr.led, tr.followed))
                for tr in res.tricks[:24] if tr.winner == seat)
    return res.scores[seat]["brisques"] - stock + res.scores[seat]["last_trick"]


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_the_solver_line_played_through_the_reference_scores_its_value(variant, monkeypatch):
    """Both players' end-game choices taken from the numba solver, played and scored by the
    reference deal: the end phase's points (leader of trick 25 minus the other) equal the value
    the solver gives the position at trick 25."""
    from analysis.bezique.reference import policies as RP
    from analysis.bezique.reference.deal import play_deal

    tt = _table()

    def lead(hand, opp, t, must, brisque, last):
        return EP.exact_lead(mask(hand), mask(opp), t, int(must), brisque, last, tt) & 31

    def follow(leader, hand, led, t, must, brisque, last):
        rest = mask([c for c in leader if c != led])
        return EP.exact_follow(rest, mask(hand), led, t, int(must), brisque, last, tt) & 31

    monkeypatch.setattr(RP, "exact_lead", lead)
    monkeypatch.setattr(RP, "exact_follow", follow)
    rules = get_rules(variant)
    pol = HeuristicPolicy(exact_endgame=True)
    for i in range(12):
        res = play_deal(11, i, rules, pol, pol)
        end = res.tricks[24:]
        assert len(end) == 8
        first = end[0].leader
        hands = {seat: [tr.led if tr.leader == seat else tr.followed for tr in end] for seat in ("elder", "dealer")}
        other = "dealer" if first == "elder" else "elder"
        hand, opp = hands[first], hands[other]
        trump = (res.turn_up >> 3) & 3
        v, _ = EG.solve_masks(EG.canonical(mask(hand)), EG.canonical(mask(opp)), trump, int(rules.end_must_win),
                              rules.brisque, rules.last_trick, _table())
        assert _end_points(res, first, rules.brisque) - _end_points(res, other, rules.brisque) == v


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_kernel_plays_the_exact_end_game_as_the_reference_does(variant):
    """Deal by deal, the kernel's deals with the exact end game (against itself and against the
    heuristic in either seat, so the solver re-solves after a heuristic's mistakes) equal the
    reference's, outcome vector for outcome vector."""
    from analysis.bezique.play.deal import deal_outcomes
    from analysis.bezique.reference.deal import play_deal

    rules = get_rules(variant)
    exact = dataclasses.replace(TUNED, exact_endgame=True)
    for k, (elder, dealer) in enumerate(((exact, exact), (TUNED, exact), (exact, HeuristicPolicy()))):
        got = deal_outcomes(20 + k, 0, 10, rules.to_array(), elder.to_array(), dealer.to_array())
        for i in range(10):
            assert list(got[i]) == play_deal(20 + k, i, rules, elder, dealer).outcome_vector(), (k, i)


def test_the_exact_end_game_gains_against_the_heuristic():
    """On the same deals against the same heuristic opponent, the flag changes nothing before
    trick 25 (the same 48 cards are played) and the end phase's net points rise on average."""
    from analysis.bezique.engine.layout import O_BRISQUE, O_LAST, O_PLAYED
    from analysis.bezique.play.deal import deal_outcomes

    rules = get_rules("seed-de").to_array()
    exact = dataclasses.replace(TUNED, exact_endgame=True).to_array()
    a = deal_outcomes(5, 0, 400, rules, exact, TUNED.to_array())
    b = deal_outcomes(5, 0, 400, rules, TUNED.to_array(), TUNED.to_array())
    assert (a[:, O_PLAYED:O_PLAYED + 48] == b[:, O_PLAYED:O_PLAYED + 48]).all()
    assert (a[:, O_PLAYED + 48:O_PLAYED + 64] != b[:, O_PLAYED + 48:O_PLAYED + 64]).any()

    def net(o):
        return (o[:, O_BRISQUE] + o[:, O_LAST]) - (o[:, O_BRISQUE + 1] + o[:, O_LAST + 1])

    d = net(a) - net(b)
    assert d.mean() > 2 * d.std() / np.sqrt(len(d))


def test_solve_command_answers_and_rejects_bad_input(salon):
    base = ["bezique", "solve", "--hand", "9H 10H", "--opponent", "7H AH", "--trump", "S", "--json"]
    code, out, _ = salon(base)
    res = json.loads(out)
    assert code == 0 and (res["value"], res["best"], res["rules"]) == (-10, ["10H"], "seed-de") and res["nodes"] > 0
    res = json.loads(salon([*base, "--rules", "classic"])[1])
    assert (res["value"], res["best"]) == (10, ["9H"])
    res = json.loads(salon([*base, "--leader", "opponent"])[1])
    assert res["value"] == R.solve([10, 14], [8, 15], 0, False)[0] and set(res["best"]) <= {"7H", "AH"}
    for args, words in ((["--hand", "9H 10H", "--opponent", "7H"], "same number"),
                        (["--hand", "AH AH", "--opponent", "AH 7H"], "more than two copies"),
                        (["--hand", "AH", "--opponent", "7H", "--trump", "X"], "not a suit"),
                        (["--hand", "AH 9S 9S 9S", "--opponent", "7H 8H 9H JH"], "--hand")):
        full = ["bezique", "solve", *args] + ([] if "--trump" in args else ["--trump", "S"])
        code, out, err = salon(full)
        assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_bench_measures_the_end_game_and_the_search_player():
    """salon bench bezique's end-game and search lines: every rate measured and printed."""
    from analysis.bezique.bench import endgame, search, text

    e = endgame(positions=200, deals=512, repeats=1)
    assert e["solves_per_s"] > 0 and e["nodes_per_solve"] > 0
    assert all(r["exact_deals_per_s"] > 0 and r["heuristic_deals_per_s"] > 0 for r in e["results"])
    s = search(deals=2, repeats=1)
    assert set(s["self_play_deals_per_s"]) == {"32", "128"}
    text = text({"results": [], "endgame": e, "search": s})
    assert "8-card solves/s" in text and "deals with the exact end game" in text and "at 128 samples" in text

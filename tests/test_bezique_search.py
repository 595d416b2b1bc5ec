"""The Bezique search player (players/search.py) and the resumable trick loop it stands on
(players/trick_loop.py): pausing and resuming changes nothing, a rollout from a pause with the true cards
replays the deal, the layouts it draws are consistent with what it has seen, its results do not
depend on threads or chunks, and it beats the heuristic it rolls out with."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analysis.bezique.engine.cards import NO_TARGET
from analysis.bezique.engine.layout import O_EXCHANGE, O_TURN_UP, OUTCOME_LENGTH, S_HAND, S_PLAYED, S_TABLE
from analysis.bezique.players import search as SP
from analysis.bezique.players import trick_loop as TL
from analysis.bezique.policies import TUNED, get_policy
from analysis.bezique.rules import get_rules
from analysis.rng import stream_start

ROLLOUT = dataclasses.replace(TUNED, exact_endgame=True)


def _start(rules, pe, pd, i, seed=4):
    scr = TL.new_scratch()
    useed = np.uint64(seed)
    stc = np.uint64(stream_start(useed, np.uint64(i), np.uint64(0)))
    sto = np.uint64(stream_start(useed, np.uint64(i), np.uint64(1)))
    TL.setup_deal(scr, stc, rules, pe, pd, 0, NO_TARGET)
    return scr, sto


def _whole(rules, pe, pd, i):
    scr, sto = _start(rules, pe, pd, i)
    TL.play_on(scr, sto, rules, pe, pd, 0, 0, NO_TARGET, 0)
    return scr.out[:OUTCOME_LENGTH].copy()


def _paused(rules, pe, pd, i, mask):
    """Yield the scratch at every pause of the seats in ``mask``; resumes with the heuristic's
    own choice; finally yields None and the finished outcome."""
    scr, sto = _start(rules, pe, pd, i)
    while True:
        sto, code = TL.play_on(scr, sto, rules, pe, pd, 0, 0, NO_TARGET, mask)
        sto = np.uint64(sto)
        if code != TL.PAUSE:
            yield None, scr.out[:OUTCOME_LENGTH].copy()
            return
        seat = _seat(scr)
        yield scr, seat
        scr.pos[TL.Q_FORCED] = SP.heuristic_choice(scr, seat, rules, pe if seat == 0 else pd)


def _seat(scr):
    phase = scr.pos[TL.Q_PHASE]
    return scr.pos[TL.Q_LEADER] if phase in (TL.PH_LEAD, TL.PH_MELD) else 1 - scr.pos[TL.Q_LEADER]


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_pausing_and_resuming_with_the_heuristics_choice_changes_nothing(variant):
    """Both seats stopping at every stock decision and resuming with the heuristic's own choice
    play exactly the uninterrupted deal (every pause kind is met: leads, follows, melds)."""
    rules = get_rules(variant).to_array()
    pe, pd = ROLLOUT.to_array(), TUNED.to_array()
    phases = set()
    for i in range(30):
        for scr, seat in _paused(rules, pe, pd, i, 3):
            if scr is None:
                assert (seat == _whole(rules, pe, pd, i)).all(), i
            else:
                phases.add(int(scr.pos[TL.Q_PHASE]))
    assert phases == {TL.PH_LEAD, TL.PH_FOLLOW, TL.PH_MELD}


def test_a_rollout_from_a_pause_with_the_true_cards_replays_the_deal():
    """A rollout (rollout arrays, keep values reset, the forced first decision) started from a
    pause with the deal's own hidden cards, both players on the rollout policy, ends exactly as
    the uninterrupted deal does."""
    rules = get_rules("seed-de").to_array()
    p = ROLLOUT.to_array()
    for i in range(12):
        whole = _whole(rules, p, p, i)
        for k, (scr, seat) in enumerate(_paused(rules, p, p, i, 1)):
            if scr is None or k % 5:
                continue
            r = SP.rollout_scratch(scr)
            trump = (scr.out[O_TURN_UP] >> 3) & 3
            TL.set_keep_values(r.S, 0, trump, p)
            TL.set_keep_values(r.S, 1, trump, p)
            r.pos[TL.Q_FORCED] = SP.heuristic_choice(scr, seat, rules, p)
            TL.play_on(r, np.uint64(0), rules, p, p, 0, 0, NO_TARGET, 0)
            assert (r.out[:OUTCOME_LENGTH] == whole).all(), (i, k)


def test_the_layouts_drawn_are_consistent_with_what_the_player_has_seen():
    """Every card once (hands, tables, played, the stock still to draw, the turn-up); the
    player's own cards, both tables and the cards played untouched; the opponent's hidden hand
    of the right size; and over many draws every unseen card lands in his hand about as often
    as hand size / unseen cards says."""
    rules = get_rules("seed-de").to_array()
    p = ROLLOUT.to_array()
    pool = np.zeros(64, dtype=np.int64)
    checked = 0
    for i in range(6):
        for scr, seat in _paused(rules, p, p, i, 1):
            if scr is None or scr.pos[TL.Q_TRICK] % 6 != 3:
                continue
            r = SP.rollout_scratch(scr)
            opp = 1 - seat
            S = scr.S
            seen = S[S_HAND + seat] | S[S_TABLE + seat] | S[S_TABLE + opp] | S[S_PLAYED]
            drawn = scr.pos[TL.Q_DRAWN]
            counts = {}
            st = np.uint64(99 + i)
            for _ in range(400):
                st = np.uint64(SP.deal_hidden(scr, r, seat, st, pool))
                for slot in (S_HAND + seat, S_TABLE, S_TABLE + 1, S_PLAYED):
                    assert r.S[slot] == S[slot]
                hand = int(r.S[S_HAND + opp])
                assert bin(hand & (2 ** 64 - 1)).count("1") == bin(int(S[S_HAND + opp]) & (2 ** 64 - 1)).count("1")
                cards = [c for c in range(64) if (int(r.S[S_HAND]) | int(r.S[S_HAND + 1]) | int(r.S[S_TABLE])
                                                  | int(r.S[S_TABLE + 1]) | int(r.S[S_PLAYED])) >> c & 1]
                stock = list(r.deck[17 + drawn:64])
                everything = sorted(cards + stock + [int(scr.pos[TL.Q_TURNUP])])
                assert everything == list(range(64))
                for c in range(64):
                    if hand >> c & 1:
                        counts[c] = counts.get(c, 0) + 1
            h = bin(int(S[S_HAND + opp]) & (2 ** 64 - 1)).count("1")
            dealt = int(scr.out[O_TURN_UP])
            if scr.out[O_EXCHANGE] > 0 and int(S[S_HAND + opp]) >> dealt & 1:  # he took it for his seven
                assert counts.pop(dealt) == 400
                seen, h = int(seen) | 1 << dealt, h - 1
            unseen = [c for c in range(64) if not (int(seen) >> c & 1) and c != scr.pos[TL.Q_TURNUP]]
            expected = 400 * h / len(unseen)
            assert set(counts) <= set(unseen)
            for c in unseen:  # binomial(400, h/len(unseen)): within 5 standard deviations
                assert abs(counts.get(c, 0) - expected) <= 5 * np.sqrt(expected) + 1, c
            checked += 1
    assert checked >= 6


def test_search_results_do_not_depend_on_threads_or_chunks():
    from analysis.bezique.play.compare import compare_tallies

    rules = get_rules("seed-de")
    a = get_policy("search", ["samples=4"])
    one = compare_tallies(24, 3, rules, a, TUNED, chunk=24, threads=1)
    many = compare_tallies(24, 3, rules, a, TUNED, chunk=5, threads=2)
    assert (one == many).all()


def test_search_beats_the_heuristic_it_rolls_out_with_and_keeps_the_invariants():
    """Against tuned (its own rollout policy) on the same 150 deals, both seats: a clear gain.
    Its deals keep BZ-BRISQUE and BZ-LAST (32 tricks, 160 brisque points, one last trick)."""
    from analysis.bezique import api
    from analysis.bezique.play.compare import compare_tallies
    from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS

    rules = get_rules("seed-de")
    search = get_policy("search", ["samples=16"])
    t = compare_tallies(150, 8, rules, search, TUNED, chunk=38)
    n = t[C_DEALS]
    mean = t[C_BOTH] / n / 2
    sd = np.sqrt(max(t[C_BOTH_SQ] / n / 4 - mean ** 2, 0) / (n - 1))
    assert mean - 3 * sd > 0, (mean, sd)
    assert api.invariants(20, 2, rules, search) == []


def test_players_study_command(capsys):
    """``salon study bezique players``: every player named with its deals and its gain against tuned
    (tuned against itself exactly 0, tuned-exact's gain is the exact end game's, positive)."""
    import json

    from analysis.cli import main

    try:
        main(["study", "bezique", "players", "--deals", "2000", "--games", "10", "--search-deals", "8",
              "--search-games", "1", "--samples", "4", "--json"])
    except SystemExit as e:
        assert e.code in (0, None)
    res = json.loads(capsys.readouterr().out)
    rows = {r["player"]: r for r in res["players"]}
    assert list(rows) == ["heuristic", "tuned", "tuned-exact", "search"]
    assert rows["search"]["deals"] == 8 and rows["tuned"]["deals"] == 2000
    assert rows["tuned"]["net_vs_tuned"] == 0 and rows["tuned-exact"]["net_vs_tuned_lo"] > 0
    assert rows["search"]["policy"]["kind"] == "search" and rows["search"]["policy"]["samples"] == 4


def test_advice_rates_read_from_the_cards_played():
    """Two hand-made stock tricks: the dealer wins elder's 7♦ with the 8♦ and lays nothing (a
    purposeless win), then leads the 7 of trumps (a low trump lead); the rates count both, for his
    seat only. And tuned against itself in both seats wins the last trick but one in exactly half
    the plays."""
    from analysis.bezique.engine.layout import O_MELD_AT, O_PLAYED, O_TURN_UP, OUTCOME_LENGTH
    from analysis.bezique.studies.advice import advice_check, count

    row = np.full(OUTCOME_LENGTH, -1, dtype=np.int64)
    row[O_TURN_UP] = 8 * 1  # the seven of hearts: hearts are trumps
    row[O_PLAYED], row[O_PLAYED + 1] = 8 * 2 + 0, 8 * 2 + 1  # 7♦ led by elder, 8♦ wins it
    row[O_PLAYED + 2], row[O_PLAYED + 3] = 8 * 1 + 0, 8 * 3 + 7  # the dealer leads 7♥ (a low trump), A♣ loses
    row[O_MELD_AT:O_MELD_AT + 24] = -1
    c = count(row[None, :], 1)
    assert c["purposeless_wins"] == [1, 1] and c["low_trump_leads"] == [1, 1]
    e = count(row[None, :], 0)
    assert e["purposeless_wins"] == [0, 0] and e["low_trump_leads"] == [0, 1]
    res = advice_check(40, 3, "seed-de", player="heuristic", baseline="tuned")
    assert res["players"]["tuned"]["trick_23_won"]["value"] == 0.5
    assert all(0 <= v["value"] <= 1 for p in res["players"].values() for v in p.values())


def test_advice_holdings_rebuild_the_hands():
    """What each seat held, rebuilt from the dealt cards, the plays, the seven's exchange and the
    draws: every card played was held (else KeyError), and after the stock each seat holds exactly
    the eight cards it plays in the end phase; both variants, 200 deals, exchanges included."""
    from analysis.bezique.engine.layout import O_EXCHANGE, O_PLAYED, O_TURN_UP
    from analysis.bezique.play.deal import deal_outcomes
    from analysis.bezique.policies import get_policy
    from analysis.bezique.reference.cards import deal_cards, follower_wins
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.advice import holdings

    exchanges = 0
    for rules in ("seed-de", "classic"):
        rows = deal_outcomes(5, 0, 200, get_rules(rules).to_array(), get_policy("tuned").to_array(),
                             get_policy("heuristic").to_array())
        for i, o in enumerate(rows):
            states = holdings(o, deal_cards(5, i))
            assert len(states) == 25
            trump = (int(o[O_TURN_UP]) >> 3) & 3
            leader, ended = 0, (set(), set())
            for n in range(1, 33):
                led, fol = int(o[O_PLAYED + 2 * n - 2]), int(o[O_PLAYED + 2 * n - 1])
                w = 1 - leader if follower_wins(led, fol, trump) else leader
                if n > 24:
                    ended[leader].add(led)
                    ended[1 - leader].add(fol)
                leader = w
            assert states[24] == ended
            exchanges += int(o[O_EXCHANGE]) > 0
    assert exchanges > 50


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_a_lead_or_meld_rule_decides_instead_of_the_search(variant):
    """With ``lead_rule`` low or high the search player's stock leads are the heuristic's low lead
    or the highest plain card, and with ``meld_rule`` at-once its melds are the heuristic's best, at
    every such pause of 12 deals; without them the search decides (its choices differ somewhere)."""
    rules = get_rules(variant).to_array()
    tuned = ROLLOUT.to_array()
    low, high = tuned.copy(), tuned.copy()
    low[SP.P_LEAD_LOW], high[SP.P_LEAD_LOW] = 1, 0
    searched = get_policy("search", ["samples=4"])
    ruled = {k: dataclasses.replace(searched, **v).to_array() for k, v in
             {"low": {"lead_rule": "low"}, "high": {"lead_rule": "high"}, "meld": {"meld_rule": "at-once"},
              "search": {}}.items()}
    cands, diff, diff_sq = (np.zeros(SP.MAX_CANDIDATES, dtype=np.int64) for _ in range(3))
    pool = np.zeros(64, dtype=np.int64)
    met, differs = set(), 0
    for i in range(12):
        for scr, seat in _paused(rules, tuned, tuned, i, 3):
            if scr is None:
                continue
            phase = int(scr.pos[TL.Q_PHASE])
            r = SP.rollout_scratch(scr)

            def choice(p, scr=scr, r=r, seat=seat):
                return SP.decide(scr, r, seat, rules, p, SP.rollout_policy(p), np.uint64(9), cands, diff, diff_sq,
                                 pool)[1]

            if phase == TL.PH_LEAD:
                assert choice(ruled["low"]) == SP.heuristic_choice(scr, seat, rules, low)
                assert choice(ruled["high"]) == SP.heuristic_choice(scr, seat, rules, high)
                met.add("lead")
                differs += choice(ruled["search"]) != choice(ruled["low"])
            elif phase == TL.PH_MELD:
                assert choice(ruled["meld"]) == SP.heuristic_choice(scr, seat, rules, ruled["meld"])
                met.add("meld")
    assert met == {"lead", "meld"} and differs > 0

"""The search policy (analysis/ecarte/search.py): legal play, consistent sampling, the kernel's
exchanges and heuristic play reproduced, reproducible tallies, double-dummy play when the hidden
hand is determined."""
import random

import numpy as np
import pytest

from analysis.ecarte import kernel as K
from analysis.ecarte import search as Q
from analysis.ecarte import solver as S
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.rules import get_rules
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start
from analysis.runner import run_tallies
from analysis.stats import chi_square_check

ALL = (1 << 32) - 1


def bits(mask):
    return [c for c in range(32) if mask >> c & 1]


def scratch():
    return np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64), np.zeros(Q.N_RECORD, dtype=np.int64)


def post_exchange(seed, i, rules, pe, pd):
    """Deal i, exchanged by both the kernel and exchanges_tracked (asserted equal), kings announced."""
    r = rules.to_array()
    deck = np.empty(32, dtype=np.int8)
    stc = np.uint64(stream_start(np.uint64(seed), np.uint64(i), np.uint64(0)))
    sto = np.uint64(stream_start(np.uint64(seed), np.uint64(i), np.uint64(1)))
    stc, stb, elder, dealer, turnup = K.deal(deck, stc, EMPTY_HALF)
    stc, stb = np.uint64(stc), np.uint64(stb)  # numba hands uint64 back as Python ints
    deck2 = deck.copy()
    t = turnup >> 3
    got = Q.exchanges_tracked(deck, 11, stc, stb, sto, elder, dealer, t, r, pe, pd)
    want = K.exchanges(deck2, 11, stc, stb, sto, elder, dealer, t, r, pe, pd)
    assert tuple(got[:11]) == tuple(want), i
    assert (deck == deck2).all()
    p, e_disc, d_disc = got[0], got[11], got[12]
    e_final, d_final = got[4], got[5]
    # Every card dealt or drawn is in a final hand, a discard pile or the turn-up, once.
    seen = sum(1 << int(c) for c in deck[:p])
    parts = [e_final, d_final, e_disc, d_disc, 1 << turnup]
    assert sum(bin(x).count("1") for x in parts) == bin(seen).count("1")
    assert e_final | d_final | e_disc | d_disc | (1 << turnup) == seen
    # What elder discarded he held: his dealt cards or cards drawn from the stock.
    assert e_disc & ~(elder | sum(1 << int(c) for c in deck[11:p])) == 0
    sto, announced = K.announce_kings(e_final, d_final, t, np.uint64(got[3]), pe, pd)
    return e_final, d_final, turnup, e_disc, d_disc, announced, got


@pytest.mark.parametrize("policies", ["heuristic", "random", "forced"])
def test_exchanges_tracked_equal_the_kernels(policies):
    """exchanges_tracked makes the kernel's decisions and draws, and its discard piles add up."""
    rules = get_rules("classic", ["dealer_min_discard=0"]) if policies == "random" else get_rules()
    if policies == "heuristic":
        pe = pd = HeuristicPolicy().to_array()
    elif policies == "random":
        pe = pd = RandomPolicy().to_array()
    else:
        pe, pd = HeuristicPolicy().to_array(force_first=1), HeuristicPolicy(dealer_refuse_threshold=99).to_array()
    rounds = 0
    for i in range(600):
        got = post_exchange(11, i, rules, pe, pd)[-1]
        rounds += got[6]
    assert rounds > 100  # the exchanges were exercised


def test_heuristic_play_is_the_kernels():
    """With no searching player the tricks are the kernel's play_tricks, card for card."""
    pol = HeuristicPolicy()
    pe = pol.to_array()
    for name in ("seed-de", "classic"):
        for must in ("true", "false"):
            rules = get_rules(name, [f"must_trump_when_void={must}"])
            r = rules.to_array()
            sums, vals, rec = scratch()
            out = np.zeros(K.N_OUT, dtype=np.int64)
            for i in range(300):
                e, d, turnup, e_disc, d_disc, ann, _ = post_exchange(5, i, rules, pe, pe)
                table = S.value_table(0, 0, r)
                _, tricks = Q.play_tricks_search(e, d, turnup, e_disc, d_disc, ann, int(must == "true"), table,
                                                 0, 0, 1, 1, np.uint64(0), sums, vals, rec)
                _, want = K.play_tricks(e, d, turnup >> 3, np.uint64(0), r, pe, pe, out, True)
                assert tricks == want
                assert list(rec[:10]) == list(out[K.O_TRICKS:K.O_TRICKS + 10])


def replay_is_legal(elder, dealer, turnup, rec, must):
    """Replay recorded tricks: each lead from the leader's hand, each reply kernel-legal."""
    t = turnup >> 3
    hl, hf, elder_leads, et = elder, dealer, True, 0
    for k in range(5):
        led, fol = int(rec[2 * k]), int(rec[2 * k + 1])
        assert hl >> led & 1
        assert K.legal_follows(hf, led, t, must) >> fol & 1
        hl &= ~(1 << led)
        hf &= ~(1 << fol)
        if K.beats(fol, led, t):
            hl, hf, elder_leads = hf, hl, not elder_leads
        et += elder_leads
    assert hl == 0 and hf == 0
    return et


@pytest.mark.parametrize("must", [1, 0])
def test_search_plays_only_legal_cards_and_its_constraints_hold(must):
    """Both players searching, on many post-exchange positions: every card is legal, and the
    opponent's actual hand always satisfies what the searcher inferred (no violations)."""
    rules = get_rules("seed-de", [f"must_trump_when_void={'true' if must else 'false'}"])
    r = rules.to_array()
    pe = HeuristicPolicy().to_array()
    sums, vals, rec = scratch()
    for i in range(400):
        e, d, turnup, e_disc, d_disc, ann, got = post_exchange(9, i, rules, pe, pe)
        pen_e, pen_d = S.penalties(got[7], got[8], got[9], r)
        table = S.value_table(pen_e, pen_d, r)
        st = np.uint64(stream_start(np.uint64(3), np.uint64(i), np.uint64(2)))
        _, tricks = Q.play_tricks_search(e, d, turnup, e_disc, d_disc, ann, must, table, 4, 4, 1, 1, st,
                                         sums, vals, rec)
        assert rec[Q.REC_VIOLATIONS] == 0
        assert replay_is_legal(e, d, turnup, rec, must) == tricks


def test_follow_inference():
    """Voids, 'no trumps' under must-trump, and 'no higher card' when following without beating."""
    t = 3
    led = 8 * 1 + 5  # jack of hearts
    # Discarded a spade on a heart lead: void in hearts; under must-trump also no clubs (trumps).
    assert Q.follow_inference(0, led, 8 * 0 + 2, t, 1) == (0xFF << 8) | (0xFF << 24)
    assert Q.follow_inference(0, led, 8 * 0 + 2, t, 0) == 0xFF << 8
    # Trumped: void in hearts only.
    assert Q.follow_inference(0, led, 8 * 3 + 0, t, 1) == 0xFF << 8
    # Played the 9 of hearts under the jack: no queen or king of hearts.
    assert Q.follow_inference(0, led, 8 * 1 + 2, t, 1) == (1 << (8 + 6)) | (1 << (8 + 7))
    # Beat it with the king: nothing learnt.
    assert Q.follow_inference(0, led, 8 * 1 + 7, t, 1) == 0


def test_sampler_respects_every_constraint():
    """Hidden hands drawn from hidden_constraints never hold the searcher's cards, the turn-up, his
    discards, played cards or cards shown not held, and always hold the announced king."""
    rng = random.Random(4)
    st = stream_start(np.uint64(1), np.uint64(0), np.uint64(2))
    for _ in range(300):
        cards = rng.sample(range(32), 32)
        own = sum(1 << c for c in cards[:3])
        opp_cards = cards[3:6]
        opp = sum(1 << c for c in opp_cards)
        turnup = cards[6]
        t = turnup >> 3
        discards = sum(1 << c for c in cards[7:10])
        played = sum(1 << c for c in cards[10:14])
        # Constraints true of opp: voids in suits he lacks, and the king if he holds it.
        void_suits = [s for s in range(4) if not any(c >> 3 == s for c in opp_cards)]
        excluded = sum(0xFF << (8 * s) for s in void_suits[:1])
        king = 8 * t + 7
        required = (1 << king) if opp >> king & 1 else 0
        allowed, req = Q.hidden_constraints(own, discards | (1 << turnup), played, excluded, required)
        assert opp & ~(allowed | req) == 0  # the true hand is possible
        for _ in range(5):
            st, h = Q.sample_hidden(np.uint64(st), allowed, req, 3)
            assert bin(h).count("1") == 3
            assert h & (own | (1 << turnup) | discards | played | excluded) == 0
            assert h & req == req


def test_sampler_is_uniform():
    """All consistent hands equally likely: 3 of 6 allowed cards (20 hands) plus a required king."""
    allowed = sum(1 << c for c in (0, 3, 9, 14, 20, 30))
    required = 1 << 31
    counts = {}
    st = stream_start(np.uint64(8), np.uint64(0), np.uint64(2))
    n = 20_000
    for _ in range(n):
        st, h = Q.sample_hidden(np.uint64(st), allowed, required, 4)
        assert h & required
        counts[h] = counts.get(h, 0) + 1
    assert len(counts) == 20
    res = chi_square_check(list(counts.values()), [1 / 20] * 20)
    assert res.pvalue > 1e-4, res


def random_full_information(rng, size):
    cards = rng.sample(range(32), 2 * size + 1)
    own = sum(1 << c for c in cards[:size])
    opp = sum(1 << c for c in cards[size:2 * size])
    turnup = cards[-1]
    return own, opp, turnup


def test_search_is_double_dummy_optimal_when_the_hidden_hand_is_determined():
    """When the unseen cards are exactly the opponent's hand, the searcher's card (leading and
    following) has the double-dummy value of the position."""
    rng = random.Random(12)
    r = get_rules("classic").to_array()
    sums, vals, _ = scratch()
    st = stream_start(np.uint64(2), np.uint64(0), np.uint64(2))
    for _ in range(600):
        size = rng.randint(2, 5)
        own, opp, turnup = random_full_information(rng, size)
        t = turnup >> 3
        must = rng.randint(0, 1)
        table = S.value_table(rng.randint(0, 1), 0, r)
        et = rng.randint(0, 5 - size)
        me_elder = rng.random() < 0.5
        allowed, req = Q.hidden_constraints(own, ALL & ~(own | opp), 0, 0, 0)
        assert allowed == opp
        default = K.heuristic_lead(own, t, 1)
        st, card = Q.choose_card(np.uint64(st), own, -1, size, allowed, req, me_elder, et, t, must, table, 50, default,
                                 sums, vals)
        best, _ = S.best_card(own, opp, t, me_elder, et, must, table)
        assert S.lead_value(own, opp, card, t, me_elder, et, must, table) == best
        # Following: the opponent leads his heuristic card.
        led = K.heuristic_lead(opp, t, 1)
        legal = K.legal_follows(own, led, t, must)
        allowed, req = Q.hidden_constraints(own, ALL & ~(own | opp), 1 << led, 0, 0)
        default = K.heuristic_follow(legal, led, t)
        st, card = Q.choose_card(np.uint64(st), own, led, size - 1, allowed, req, me_elder, et, t, must, table, 50,
                                 default, sums, vals)
        assert legal >> card & 1
        opp2 = opp & ~(1 << led)
        best, _ = S.best_follow(opp2, own, led, t, not me_elder, et, must, table)
        assert S.follow_value(opp2, own, led, card, t, not me_elder, et, must, table) == best


def test_fully_informed_players_reach_the_double_dummy_value():
    """Both players told every card out of play: the play's result is the solver's value; elder
    alone informed does at least as well as the value."""
    rng = random.Random(3)
    r = get_rules().to_array()
    sums, vals, rec = scratch()
    for i in range(300):
        elder, dealer, turnup = random_full_information(rng, 5)
        rest = ALL & ~(elder | dealer | (1 << turnup))
        king = 8 * (turnup >> 3) + 7
        ann = (1 if elder >> king & 1 else 0) | (2 if dealer >> king & 1 else 0)
        pen_e = rng.randint(0, 1)
        table = S.value_table(pen_e, 0, r)
        for must in (0, 1):
            value = S.solve(elder, dealer, turnup >> 3, True, 0, must, table)
            st = np.uint64(stream_start(np.uint64(6), np.uint64(i), np.uint64(2)))
            _, tricks = Q.play_tricks_search(elder, dealer, turnup, rest, rest, ann, must, table, 30, 30, 1, 1, st,
                                             sums, vals, rec)
            assert S.unpack_table(table)[tricks] == value
            _, tricks = Q.play_tricks_search(elder, dealer, turnup, rest, 0, ann, must, table, 30, 0, 1, 1, st,
                                             sums, vals, rec)
            assert S.unpack_table(table)[tricks] >= value


def test_baseline_equals_the_kernels_hands():
    """Configuration (a) of the block is the kernel's hand: same number of hands and net points."""
    rules = get_rules()
    pe = HeuristicPolicy().to_array()
    r = rules.to_array()
    n = 400
    tot = run_tallies(Q.search_vs_heuristic_block, (r, pe, pe, np.int64(2)), n, 21, chunk=100, threads=1)
    outs = K.hand_outcomes(21, 0, n, r, pe, pe)
    assert tot[Q.ST_N] == n
    assert tot[Q.ST_A_NET] == int((outs[:, K.O_ELDER_POINTS] - outs[:, K.O_DEALER_POINTS]).sum())
    assert tot[Q.ST_A_TRICKS] == int(outs[:, K.O_ELDER_TRICKS].sum())
    assert tot[Q.ST_VIOLATIONS] == 0
    assert tot[Q.ST_EXCHANGE_MISMATCH] == 0


def test_tallies_reproducible_and_independent_of_chunks_and_threads():
    """The same seed gives the same tallies whatever the chunk size and thread count."""
    r = get_rules("classic").to_array()
    pe = HeuristicPolicy().to_array()
    args = (r, pe, pe, np.int64(3))
    a = run_tallies(Q.search_vs_heuristic_block, args, 300, 77, chunk=300, threads=1)
    b = run_tallies(Q.search_vs_heuristic_block, args, 300, 77, chunk=7, threads=2)
    c = run_tallies(Q.search_vs_heuristic_block, args, 300, 77, chunk=64, threads=None)
    assert (a == b).all() and (a == c).all()
    assert a[Q.ST_B_CHANGED] > 0 and a[Q.ST_C_CHANGED] > 0  # the searchers did play differently
    d = run_tallies(Q.search_vs_heuristic_block, args, 300, 78, chunk=300, threads=1)
    assert not (a == d).all()


def test_search_strength_wrapper():
    """The wrapper's estimates are the tallies' means; a paired gain lies inside its interval."""
    res = Q.search_strength(200, 5, "seed-de", samples=2, threads=1)
    tot = res["tallies"]
    assert res["elder_gain"].n == 200
    assert res["elder_gain"].value == pytest.approx(tot[Q.ST_B_GAIN] / 200)
    assert res["dealer_gain"].value == pytest.approx(tot[Q.ST_C_GAIN] / 200)
    assert res["net_elder_search"].value - res["net_heuristic"].value == pytest.approx(res["elder_gain"].value)
    assert res["net_heuristic"].value - res["net_dealer_search"].value == pytest.approx(res["dealer_gain"].value)
    with pytest.raises(InputError):
        Q.search_strength(10, 5, samples=0)

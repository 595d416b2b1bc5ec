"""The search policy (analysis/ecarte/search.py): legal play, consistent sampling, the kernel's
exchanges' discard piles, heuristic play reproduced, reproducible tallies, double-dummy play when
the hidden hand is determined; the search check of the strategy tables (its heuristic part is
studies/strategy/kernel.elder_block deal for deal)."""
import random

import numpy as np
import pytest

from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import (
    N_EXCHANGE_HIST,
    N_OUT,
    O_DEALER_FINAL,
    O_DEALER_POINTS,
    O_ELDER_FINAL,
    O_ELDER_POINTS,
    O_ELDER_TRICKS,
    O_TRICKS,
)
from analysis.ecarte.engine.tricks import beats, follow_inference, hidden_constraints, legal_follows
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.hand import hand_outcomes, penalties, play_hand
from analysis.ecarte.play.tricks import play_tricks
from analysis.ecarte.players import solver as S
from analysis.ecarte.players.heuristic import heuristic_discard, heuristic_follow, heuristic_lead
from analysis.ecarte.players.search import N_RECORD, REC_VIOLATIONS, choose_card, play_tricks_search, seat
from analysis.ecarte.players.search_inference import sample_hidden
from analysis.ecarte.policies import (
    N_POLICY_SLOTS,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_DISCARD,
    P_KEEP_PLAIN_MIN_RANK,
    ChosenDiscards,
    HeuristicPolicy,
    RandomPolicy,
)
from analysis.ecarte.rules import R_DEALER_MIN_DISCARD, get_rules
from analysis.ecarte.studies.search_check import (
    DC_DIFF_CHANGED,
    DC_H_DIFF,
    DC_H_DIFF_SQ,
    DC_H_PLAY,
    DC_H_PROPOSE,
    DC_HS_CROSS,
    DC_N,
    DC_NET_CHANGED,
    DC_REFUSED,
    DC_S_DIFF_SQ,
    DC_VIOLATIONS,
    search_check,
    search_decision_block,
)
from analysis.ecarte.studies.search_strength import (
    ST_A_NET,
    ST_A_TRICKS,
    ST_B_CHANGED,
    ST_B_GAIN,
    ST_C_CHANGED,
    ST_C_GAIN,
    ST_N,
    ST_VIOLATIONS,
    search_strength,
    search_vs_heuristic_block,
)
from analysis.ecarte.studies.strategy import kernel as TK
from analysis.ecarte.studies.strategy import tables as ST
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start
from analysis.runner import run_ranges, run_tallies
from analysis.stats import chi_square_check

ALL = (1 << 32) - 1


def bits(mask):
    return [c for c in range(32) if mask >> c & 1]


def scratch():
    return np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64), np.zeros(N_RECORD, dtype=np.int64)


NO_HIST = np.zeros(N_EXCHANGE_HIST, dtype=np.int64)
PLAIN = HeuristicPolicy().to_array()
NO_PROBS = np.zeros(0, dtype=np.float64)
NO_CLASSES = np.zeros(0, dtype=np.int32)  # the dtype of Hands.class_of_rank: one specialisation of the search
READS_NOTHING = (0, 0, 0, NO_HIST, False, False, PLAIN, NO_PROBS, NO_CLASSES, 0)
"""search_inference's ``know`` for a searcher that reads nothing from the exchanges."""


def tricks_searched(elder, dealer, turnup, outs, samples, ann, must, table, streams, rec, pe=PLAIN, pd=PLAIN):
    """play_tricks_search with both players' outs and samples (elder's, the dealer's), neither
    reading the exchanges."""
    seats = (seat(elder, outs[0], samples[0], 0, pe, NO_PROBS), seat(dealer, outs[1], samples[1], 0, pd, NO_PROBS))
    return play_tricks_search(seats, np.array(streams, dtype=np.uint64), turnup, ann, must, table, NO_HIST,
                              NO_CLASSES, np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64), rec)


def post_exchange(seed, i, rules, pe, pd):
    """Deal i, exchanged by the kernel (its discard piles checked against the cards), kings announced."""
    r = rules.to_array()
    deck = np.empty(32, dtype=np.int8)
    stc = np.uint64(stream_start(np.uint64(seed), np.uint64(i), np.uint64(0)))
    sto = np.uint64(stream_start(np.uint64(seed), np.uint64(i), np.uint64(1)))
    stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
    stc, stb = np.uint64(stc), np.uint64(stb)  # numba hands uint64 back as Python ints
    t = turnup >> 3
    got = exchanges(deck, 11, stc, stb, sto, elder, dealer, t, r, pe, pd)
    p, e_disc, d_disc = got[0], got[11], got[12]
    e_final, d_final = got[4], got[5]
    # Every card dealt or drawn is in a final hand, a discard pile or the turn-up, once.
    seen = sum(1 << int(c) for c in deck[:p])
    parts = [e_final, d_final, e_disc, d_disc, 1 << turnup]
    assert sum(bin(x).count("1") for x in parts) == bin(seen).count("1")
    assert e_final | d_final | e_disc | d_disc | (1 << turnup) == seen
    # What each discarded he held: his dealt cards or cards drawn from the stock.
    drawn = sum(1 << int(c) for c in deck[11:p])
    assert e_disc & ~(elder | drawn) == 0 and d_disc & ~(dealer | drawn) == 0
    # No discards without an exchange; elder discards at least a card per round.
    assert (e_disc == 0) == (got[6] == 0)
    assert bin(e_disc).count("1") >= got[6]
    sto, announced = announce_kings(e_final, d_final, t, np.uint64(got[3]), pe, pd)
    return e_final, d_final, turnup, e_disc, d_disc, announced, got


def discard_table_policies(seed=0):
    """Both players discarding by tables (ChosenDiscards): for every hand relative to trumps a
    random non-empty subset, or -1 (the heuristic decides) for a third of the hands."""
    rng = np.random.default_rng(seed)
    every = TK.all_hands()
    tables = []
    for _ in range(2):
        sub = rng.integers(1, 32, size=len(every))
        table = np.zeros(len(every), dtype=np.int64)
        for b in range(5):
            # The b-th lowest card of each hand, where bit b of the subset is set.
            rest = every.copy()
            for _ in range(b):
                rest &= rest - 1
            table |= np.where((sub >> b) & 1 == 1, rest & -rest, 0)
        table[rng.random(len(every)) < 1 / 3] = -1
        tables.append(table)
    base = HeuristicPolicy(elder_play_threshold=30, dealer_refuse_threshold=40)
    return ChosenDiscards(base, tables[0]), ChosenDiscards(base, tables[1])


def exchange_policies(kind):
    """(rules, elder's policy array, the dealer's) for the exchange policies the kernel has."""
    if kind == "random":
        return get_rules("classic", ["dealer_min_discard=0"]), RandomPolicy().to_array(), RandomPolicy().to_array()
    if kind == "forced":
        return (get_rules(), HeuristicPolicy().to_array(force_first=1),
                HeuristicPolicy(dealer_refuse_threshold=99).to_array())
    if kind == "table":
        pe, pd = discard_table_policies()
        return get_rules(), pe.to_array(), pd.to_array()
    return get_rules(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array()


@pytest.mark.parametrize("policies", ["heuristic", "random", "forced", "table"])
def test_kernel_exchanges_return_the_discard_piles(policies):
    """kernel.exchanges' discards: with the final hands and the turn-up they are every card dealt or
    drawn, each once; each player held what he discarded (post_exchange's checks)."""
    rules, pe, pd = exchange_policies(policies)
    rounds = 0
    for i in range(600):
        got = post_exchange(11, i, rules, pe, pd)[-1]
        rounds += got[6]
    assert rounds > 100  # the exchanges were exercised


def relative(mask, t):
    """A mask with trumps (suit t) rotated to suit 0, and back with -t."""
    sh = (8 * t) % 32
    return ((mask >> sh) | (mask << (32 - sh))) & ALL


def one_exchange(seed, i, r, pe, pd):
    """Deal i and kernel.exchanges with elder proposing, the dealer accepting and elder then
    playing: one round. Returns (elder, dealer, turnup, exchanges' result, play_hand's outcome)."""
    deck = np.empty(32, dtype=np.int8)
    stc = np.uint64(stream_start(np.uint64(seed), np.uint64(i), np.uint64(0)))
    stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
    stc, stb = np.uint64(stc), np.uint64(stb)
    deck2 = deck.copy()
    got = exchanges(deck, 11, stc, stb, np.uint64(0), elder, dealer, turnup >> 3, r, pe, pd)
    out = np.zeros(N_OUT, dtype=np.int64)
    play_hand(deck2, 11, (stc, stb, np.uint64(0)), elder, dealer, turnup, r, pe, pd, out, True)
    assert got[6] == 1 and (got[4], got[5]) == (out[O_ELDER_FINAL], out[O_DEALER_FINAL])
    return elder, dealer, turnup, got


def test_discards_are_the_chosen_ones():
    """The discard piles are what the policy arrays fix: each player's discard table entry for his
    hand (relative to trumps; the heuristic's where it is -1), or elder's forced first discard."""
    r = get_rules().to_array()
    e_pol, d_pol = discard_table_policies()
    # One round: elder proposes (forced) and then stops proposing; the dealer accepts (forced).
    pe = e_pol.to_array(force_first=1)
    pe[P_ELDER_PLAY_THRESHOLD] = 0  # no second proposal
    pd = d_pol.to_array(force_response=0)
    from_table = 0
    for i in range(300):
        elder, dealer, turnup, got = one_exchange(4, i, r, pe, pd)
        t = turnup >> 3
        for hand, pol, pile, lo in ((elder, pe, got[11], 1), (dealer, pd, got[12], int(r[R_DEALER_MIN_DISCARD]))):
            d = int(pol[N_POLICY_SLOTS + TK.rank_of_mask(relative(hand, t))])
            if d >= 0:
                assert pile == relative(d, -t)
                from_table += 1
            else:
                assert pile == heuristic_discard(hand, t, lo, 5, int(pol[P_KEEP_PLAIN_MIN_RANK]))
    assert from_table > 300
    # A forced first discard (here elder's two lowest cards) is elder's pile.
    pe = HeuristicPolicy(elder_play_threshold=0).to_array(force_first=1)
    pd = HeuristicPolicy(dealer_refuse_threshold=99).to_array(force_response=0)
    for i in range(100):
        deck = np.empty(32, dtype=np.int8)
        stc = np.uint64(stream_start(np.uint64(5), np.uint64(i), np.uint64(0)))
        _, _, elder, _, _ = deal(deck, stc, EMPTY_HALF)
        rest = elder & (elder - 1)
        pe[P_FORCE_DISCARD] = (elder & -elder) | (rest & -rest)
        got = one_exchange(5, i, r, pe, pd)[-1]
        assert got[11] == pe[P_FORCE_DISCARD]


def test_heuristic_play_is_the_kernels():
    """With no searching player the tricks are the kernel's play_tricks, card for card."""
    pol = HeuristicPolicy()
    pe = pol.to_array()
    for name in ("seed-de", "classic"):
        for must in ("true", "false"):
            rules = get_rules(name, [f"must_trump_when_void={must}"])
            r = rules.to_array()
            sums, vals, rec = scratch()
            out = np.zeros(N_OUT, dtype=np.int64)
            for i in range(300):
                e, d, turnup, e_disc, d_disc, ann, _ = post_exchange(5, i, rules, pe, pe)
                table = S.value_table(0, 0, r)
                tricks = tricks_searched(e, d, turnup, (e_disc, d_disc), (0, 0), ann, int(must == "true"), table,
                                         (0, 0), rec, pe, pe)
                _, want = play_tricks(e, d, turnup >> 3, np.uint64(0), r, pe, pe, out, True)
                assert tricks == want
                assert list(rec[:10]) == list(out[O_TRICKS:O_TRICKS + 10])


def replay_is_legal(elder, dealer, turnup, rec, must):
    """Replay recorded tricks: each lead from the leader's hand, each reply kernel-legal."""
    t = turnup >> 3
    hl, hf, elder_leads, et = elder, dealer, True, 0
    for k in range(5):
        led, fol = int(rec[2 * k]), int(rec[2 * k + 1])
        assert hl >> led & 1
        assert legal_follows(hf, led, t, must) >> fol & 1
        hl &= ~(1 << led)
        hf &= ~(1 << fol)
        if beats(fol, led, t):
            hl, hf, elder_leads = hf, hl, not elder_leads
        et += elder_leads
    assert hl == 0 and hf == 0
    return et


@pytest.mark.parametrize("must,policies", [(1, "heuristic"), (0, "heuristic"), (1, "table"), (0, "table")])
def test_search_plays_only_legal_cards_and_its_constraints_hold(must, policies):
    """Both players searching, on many post-exchange positions (exchanges by the heuristic, or by
    discard tables through kernel.chosen_discard): every card is legal, and the opponent's actual
    hand always satisfies what the searcher inferred (no violations)."""
    rules, pe, pd = exchange_policies(policies)
    rules = get_rules(rules.name, [f"must_trump_when_void={'true' if must else 'false'}"])
    r = rules.to_array()
    sums, vals, rec = scratch()
    for i in range(400 if policies == "heuristic" else 200):
        e, d, turnup, e_disc, d_disc, ann, got = post_exchange(9, i, rules, pe, pd)
        pen_e, pen_d = penalties(got[7], got[8], got[9], r)
        table = S.value_table(pen_e, pen_d, r)
        st = np.uint64(stream_start(np.uint64(3), np.uint64(i), np.uint64(3)))
        st_d = np.uint64(stream_start(np.uint64(3), np.uint64(i), np.uint64(4)))
        tricks = tricks_searched(e, d, turnup, (e_disc, d_disc), (4, 4), ann, must, table, (st, st_d), rec, pe, pd)
        assert rec[REC_VIOLATIONS] == 0
        assert replay_is_legal(e, d, turnup, rec, must) == tricks


def test_follow_inference():
    """Voids, 'no trumps' under must-trump, and 'no higher card' when following without beating."""
    t = 3
    led = 8 * 1 + 5  # jack of hearts
    # Discarded a spade on a heart lead: void in hearts; under must-trump also no clubs (trumps).
    assert follow_inference(0, led, 8 * 0 + 2, t, 1) == (0xFF << 8) | (0xFF << 24)
    assert follow_inference(0, led, 8 * 0 + 2, t, 0) == 0xFF << 8
    # Trumped: void in hearts only.
    assert follow_inference(0, led, 8 * 3 + 0, t, 1) == 0xFF << 8
    # Played the 9 of hearts under the jack: no queen or king of hearts.
    assert follow_inference(0, led, 8 * 1 + 2, t, 1) == (1 << (8 + 6)) | (1 << (8 + 7))
    # Beat it with the king: nothing learnt.
    assert follow_inference(0, led, 8 * 1 + 7, t, 1) == 0


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
        allowed, req = hidden_constraints(own, discards | (1 << turnup), played, excluded, required)
        assert opp & ~(allowed | req) == 0  # the true hand is possible
        for _ in range(5):
            st, h = sample_hidden(np.uint64(st), allowed, req, 3)
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
        st, h = sample_hidden(np.uint64(st), allowed, required, 4)
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
    sums, vals, rec = scratch()
    st = stream_start(np.uint64(2), np.uint64(0), np.uint64(2))
    for _ in range(600):
        size = rng.randint(2, 5)
        own, opp, turnup = random_full_information(rng, size)
        t = turnup >> 3
        must = rng.randint(0, 1)
        table = S.value_table(rng.randint(0, 1), 0, r)
        et = rng.randint(0, 5 - size)
        me_elder = rng.random() < 0.5
        allowed, req = hidden_constraints(own, ALL & ~(own | opp), 0, 0, 0)
        assert allowed == opp
        default = heuristic_lead(own, t, 1)
        st, card = choose_card(np.uint64(st), own, -1, (allowed, req, size), me_elder, et, 50, default,
                               READS_NOTHING, (t, must, table), (sums, vals, rec))
        best, _ = S.best_card(own, opp, t, me_elder, et, must, table)
        assert S.lead_value(own, opp, card, t, me_elder, et, must, table) == best
        # Following: the opponent leads his heuristic card.
        led = heuristic_lead(opp, t, 1)
        legal = legal_follows(own, led, t, must)
        allowed, req = hidden_constraints(own, ALL & ~(own | opp), 1 << led, 0, 0)
        default = heuristic_follow(legal, led, t)
        st, card = choose_card(np.uint64(st), own, led, (allowed, req, size - 1), me_elder, et, 50, default,
                               READS_NOTHING, (t, must, table), (sums, vals, rec))
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
            tricks = tricks_searched(elder, dealer, turnup, (rest, rest), (30, 30), ann, must, table, (st, st), rec)
            assert S.unpack_table(table)[tricks] == value
            tricks = tricks_searched(elder, dealer, turnup, (rest, 0), (30, 0), ann, must, table, (st, 0), rec)
            assert S.unpack_table(table)[tricks] >= value


def test_baseline_equals_the_kernels_hands():
    """Configuration (a) of the block is the kernel's hand: same number of hands and net points."""
    rules = get_rules()
    pe = HeuristicPolicy().to_array()
    r = rules.to_array()
    n = 400
    tot = run_tallies(search_vs_heuristic_block, (r, pe, pe, np.int64(2)), n, 21, chunk=100, threads=1)
    outs = hand_outcomes(21, 0, n, r, pe, pe)
    assert tot[ST_N] == n
    assert tot[ST_A_NET] == int((outs[:, O_ELDER_POINTS] - outs[:, O_DEALER_POINTS]).sum())
    assert tot[ST_A_TRICKS] == int(outs[:, O_ELDER_TRICKS].sum())
    assert tot[ST_VIOLATIONS] == 0


def test_tallies_reproducible_and_independent_of_chunks_and_threads():
    """The same seed gives the same tallies whatever the chunk size and thread count."""
    r = get_rules("classic").to_array()
    pe = HeuristicPolicy().to_array()
    args = (r, pe, pe, np.int64(3))
    a = run_tallies(search_vs_heuristic_block, args, 300, 77, chunk=300, threads=1)
    b = run_tallies(search_vs_heuristic_block, args, 300, 77, chunk=7, threads=2)
    c = run_tallies(search_vs_heuristic_block, args, 300, 77, chunk=64, threads=None)
    assert (a == b).all() and (a == c).all()
    assert a[ST_B_CHANGED] > 0 and a[ST_C_CHANGED] > 0  # the searchers did play differently
    d = run_tallies(search_vs_heuristic_block, args, 300, 78, chunk=300, threads=1)
    assert not (a == d).all()


def test_search_strength_wrapper():
    """The wrapper's estimates are the tallies' means; a paired gain lies inside its interval."""
    res = search_strength(200, 5, "seed-de", samples=2, threads=1)
    tot = res["tallies"]
    assert res["elder_gain"].n == 200
    assert res["elder_gain"].value == pytest.approx(tot[ST_B_GAIN] / 200)
    assert res["dealer_gain"].value == pytest.approx(tot[ST_C_GAIN] / 200)
    assert res["net_elder_search"].value - res["net_heuristic"].value == pytest.approx(res["elder_gain"].value)
    assert res["net_heuristic"].value - res["net_dealer_search"].value == pytest.approx(res["dealer_gain"].value)
    with pytest.raises(InputError):
        search_strength(10, 5, samples=0)


# ------------------------------------------------------------------ the search check of the tables
def decision_args(policies="heuristic", samples=2):
    """search_decision_block's and elder_block's arguments: the class masks, the heuristic's
    dealer table, seed-de rules and the policies (heuristic, or discard tables)."""
    h = ST.hands()
    _, d_tab = TK.heuristic_tables(9, 10)
    if policies == "table":
        pe, pd = (p.to_array() for p in discard_table_policies(3))
        pe[P_ELDER_PLAY_THRESHOLD] = pd[P_ELDER_PLAY_THRESHOLD] = 9
        pe[P_DEALER_REFUSE_THRESHOLD] = pd[P_DEALER_REFUSE_THRESHOLD] = 10
    else:
        pe = pd = HeuristicPolicy().to_array()
    base = (h.masks, d_tab, get_rules().to_array(), pe, pd)
    return base, (*base, np.int64(samples))


ITEMS = [3, 777, 9001, 20_000, 31_337, 38_303]


@pytest.mark.parametrize("policies", ["heuristic", "table"])
def test_decision_blocks_heuristic_part_is_elder_block(policies):
    """On the same items, seed and tables, the heuristic-play part of search_decision_block is
    studies/strategy/kernel.elder_block deal for deal: the same n, Σ and Σ² of the difference, the same nets."""
    tk_args, args = decision_args(policies)
    ranges = [(c << TK.ITEM_SHIFT, 60) for c in ITEMS]
    want = run_ranges(TK.elder_block, tk_args, ranges, 17, chunk=25, threads=1)
    got = run_ranges(search_decision_block, args, ranges, 17, chunk=25, threads=1)
    nets = np.array([TK.elder_net.py_func(c) for c in range(TK.N_CELLS)])
    assert (got[:, DC_N] == want[:, TK.R_N]).all()
    assert (got[:, DC_H_DIFF] == want[:, TK.R_DIFF]).all()
    assert (got[:, DC_H_DIFF_SQ] == want[:, TK.R_DIFF_SQ]).all()
    assert (got[:, DC_H_PLAY] == want[:, TK.R_A:TK.R_A + TK.N_CELLS] @ nets).all()
    assert (got[:, DC_H_PROPOSE] == want[:, TK.R_B:TK.R_B + TK.N_CELLS] @ nets).all()
    assert (got[:, DC_REFUSED] == want[:, TK.R_B_REFUSED]).all()
    assert (got[:, DC_VIOLATIONS] == 0).all()
    assert got[:, DC_DIFF_CHANGED].sum() > 0  # search play did change some outcomes
    assert (got[:, DC_NET_CHANGED] >= got[:, DC_DIFF_CHANGED]).all()
    # Sums of squares and cross products are consistent (Cauchy–Schwarz per item).
    assert (got[:, DC_HS_CROSS] ** 2 <= got[:, DC_H_DIFF_SQ] * got[:, DC_S_DIFF_SQ]).all()


def test_decision_block_reproducible_for_any_chunks_and_threads():
    """The same seed gives the same tallies whatever the chunk size and thread count."""
    _, args = decision_args(samples=3)
    ranges = [(c << TK.ITEM_SHIFT, 40) for c in ITEMS[:4]]
    a = run_ranges(search_decision_block, args, ranges, 5, chunk=40, threads=1)
    b = run_ranges(search_decision_block, args, ranges, 5, chunk=7, threads=2)
    c = run_ranges(search_decision_block, args, ranges, 5, chunk=16, threads=None)
    assert (a == b).all() and (a == c).all()
    d = run_ranges(search_decision_block, args, ranges, 6, chunk=40, threads=1)
    assert not (a == d).all()


def fake_strategy():
    """A strategy result as search_check reads it (strategy.Strategy's fields): the heuristic's
    decisions, the class weights, both players' heuristic policies and the rules' spec."""
    import pandas as pd

    h = ST.hands()
    e_tab, d_tab = TK.heuristic_tables(9, 10)
    first = np.unique(h.class_of_rank, return_index=True)[1]
    rules = get_rules()
    elder = pd.DataFrame({"hand": [ST.hand_label(m) for m in h.masks], "weight": h.weights(),
                          "decision": np.where(e_tab[first] == 1, "propose", "play")})
    dealer = pd.DataFrame({"decision": np.where(d_tab[first] == 1, "refuse", "accept")})
    spec = {"rules": rules.name, "switches": rules.switches()}
    return ST.Strategy(elder, dealer, [], {}, spec, np.zeros((0, 0)), np.zeros((0, 0)),
                       (HeuristicPolicy(), HeuristicPolicy()))


def test_search_check_on_a_small_budget():
    """search_check's frame and summary: the chosen classes' numbers are the block's (its heuristic
    part elder_block's), the rates and losses are in range and agree with the frame."""
    res = fake_strategy()
    df, summ = search_check(res, n_hands=12, deals=24, samples=2, seed=3, threads=None)
    assert summ["draws"] == 12 and summ["classes"] == len(df) and df["draws"].sum() == 12
    assert (df["n"] == 24).all()
    assert summ["hands_played"] == 2 * 24 * len(df)
    w = res.elder["weight"].to_numpy()
    assert (df["weight"].to_numpy() == w[df["class"].to_numpy()]).all()
    for key in ("search", "heuristic"):
        agree = summ[f"agreement_{key}"]
        assert 0 <= agree.lo <= agree.value <= agree.hi <= 1
        assert agree.value == pytest.approx((df["draws"] * df[f"agree_{key}"]).sum() / 12)
        loss = summ[f"loss_{key}"]
        assert 0 <= loss.value <= df[f"diff_{key}"].abs().max() + 1e-12
        assert loss.lo <= loss.value <= loss.hi
        assert abs(summ[f"loss_{key}_crossfit"].value) <= 8
        assert ((df[f"diff_{key}"] > 0) == (df[f"decision_{key}"] == "propose")).all()
    assert (df["agree"] == (df["decision_search"] == df["table_decision"])).all()
    assert (df["search_minus_heuristic_half"] >= 0).all()
    assert summ["search_minus_heuristic"].value == pytest.approx(
        (df["draws"] * (df["diff_search"] - df["diff_heuristic"])).sum() / 12)
    # The frame's heuristic differences are elder_block's on the same deals (both halves summed).
    h = ST.hands()
    _, d_tab = TK.heuristic_tables(9, 10)
    pe = HeuristicPolicy().to_array()
    ranges = [(int(c) << TK.ITEM_SHIFT, 24) for c in df["class"]]
    want = run_ranges(TK.elder_block, (h.masks, d_tab, get_rules().to_array(), pe, pe), ranges, 3, chunk=24,
                      threads=1)
    assert df["diff_heuristic"].to_numpy() == pytest.approx(want[:, TK.R_DIFF] / 24)
    with pytest.raises(InputError):
        search_check(res, n_hands=12, deals=24, samples=0)
    with pytest.raises(InputError):
        search_check(res, n_hands=12, deals=24, samples=2, rules="classic")

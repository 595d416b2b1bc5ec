"""EC-T7: the searcher that reads the opponent's exchanges (search_inference) against an exact
forward enumeration through the reference policy, and the watching study (studies/watching.py)."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import (
    EH_FINAL,
    EH_ROUND0,
    EH_ROUNDS,
    EHR_DK,
    EHR_EHI,
    EHR_EK,
    EHR_SIZE,
    FINAL_PLAYED,
    FINAL_REFUSED,
    N_EXCHANGE_HIST,
)
from analysis.ecarte.play.exchange import exchanges
from analysis.ecarte.players.search_inference import COND_ALL, sample_opponent
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.reference.policies import Decisions
from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies.watching import MIDDLE, watching
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, stream_start
from analysis.stats import chi_square_check

NO_PROBS = np.zeros(0, dtype=np.float64)
NO_CLASSES = np.zeros(0, dtype=np.int64)


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def category(o: int, t: int) -> tuple[int, int]:
    """What the test compares: trumps and (up to 2) middle cards in the hand."""
    return bin((o >> (8 * t)) & 0xFF).count("1"), min(bin(o & MIDDLE).count("1"), 2)


def exact_posterior(unseen: int, t: int, k: int, again: bool, played: int, allowed: int) -> Counter:
    """Elder's hands after one accepted round as the dealer can tell them apart, forward: every
    dealt hand of the unseen cards that the reference policy proposes with and discards k from,
    every k cards he could draw, kept when he then proposes again (``again``, and the dealer
    refuses) or plays, holds no trump king
    (he would have announced it), holds the cards he played and otherwise only ``allowed``."""
    dec = Decisions(HeuristicPolicy(), None, t)
    cards = [c for c in range(32) if unseen >> c & 1]
    king = 8 * t + 7
    counts = Counter()
    for dealt in combinations(cards, 5):
        e0 = mask(dealt)
        if not dec.propose(e0):
            continue
        thrown = dec.discard(e0, 1, 5)
        if len(thrown) != k:
            continue
        kept = e0 & ~mask(thrown)
        rest = [c for c in cards if not e0 >> c & 1]
        for drawn in combinations(rest, k):
            o = kept | mask(drawn)
            if dec.propose(o) != again or o >> king & 1:
                continue
            if o & played != played or (o & ~played) & ~allowed:
                continue
            counts[category(o, t)] += 1
    return counts


@pytest.mark.parametrize("k,final,with_play", [(2, FINAL_REFUSED, False), (3, FINAL_PLAYED, True),
                                               (2, FINAL_REFUSED, True)])
def test_reading_the_exchange_draws_the_exact_posterior(k, final, with_play):
    """The dealer has seen 10 cards of his own and the turn-up; elder proposed, threw k, then
    proposed again (refused) or played (the forward enumeration grows with k: k = 4 would take a
    minute and a half of the suite). The sampler's hands (trumps, middle cards) follow the exact forward enumeration
    (chi-square, p > 1e-4 on 20,000 draws), while the plain sampler's are far from it: reading the
    exchange changes the hand, and the check can tell."""
    rng = random.Random(7 + k)
    t = 2
    turnup = 8 * t + 3
    rest = [c for c in range(32) if c != turnup]
    own = rng.sample(rest, 10)
    unseen = mask(c for c in rest if c not in own)
    played, allowed, size = 0, unseen, 5
    if with_play:
        # Elder led a plain card; the dealer also knows a suit elder is void in (not the card's).
        c = next(x for x in range(32) if unseen >> x & 1 and x >> 3 != t and x >> 3 != 0)
        played, size = 1 << c, 4
        allowed = unseen & ~played & ~(0xFF << 0)
    exact = exact_posterior(unseen, t, k, final == FINAL_REFUSED, played, allowed)
    total = sum(exact.values())
    assert total > 1000
    hist = np.zeros(N_EXCHANGE_HIST, dtype=np.int64)
    hist[EH_ROUNDS], hist[EH_FINAL] = 1, final
    hist[EH_ROUND0 + EHR_EK], hist[EH_ROUND0 + EHR_EHI] = k, 5
    pol = HeuristicPolicy().to_array()
    st = np.uint64(stream_start(np.uint64(4), np.uint64(k), np.uint64(2)))
    got, plain = Counter(), Counter()
    fallbacks = 0
    for _ in range(20_000):
        know = (COND_ALL, unseen & ~played, played, hist, True, False, pol, NO_PROBS, NO_CLASSES, 0)
        st, hand, fell = sample_opponent(st, allowed, 0, size, know, t)
        st = np.uint64(st)
        fallbacks += fell
        if not fell:
            got[category(int(hand) | played, t)] += 1
        st, hand, _ = sample_opponent(st, allowed, 0, size, (0, 0, 0, hist, True, False, pol, NO_PROBS, NO_CLASSES, 0), t)
        st = np.uint64(st)
        plain[category(int(hand) | played, t)] += 1
    # A draw kept before the bound is an exact posterior draw, so leaving out the rare fallbacks
    # (plain draws after 4,000 rejections) biases nothing.
    assert fallbacks <= 200
    cells = sorted(set(exact) | set(got) | set(plain))
    big = [c for c in cells if exact[c] / total * 20_000 >= 5]
    probs = [exact[c] / total for c in big] + [1 - sum(exact[c] for c in big) / total]

    def counts(cnt):
        return [cnt[c] for c in big] + [sum(cnt.values()) - sum(cnt[c] for c in big)]

    assert chi_square_check(counts(got), probs).pvalue > 1e-4
    assert chi_square_check(counts(plain), probs).pvalue < 1e-6


def test_exchanges_write_their_history():
    """The history ``exchanges`` writes agrees with the discards it returns, and writing it changes
    nothing of the hand (the same as with no history, for heuristic and random policies)."""
    r = get_rules().to_array()
    for pol in (HeuristicPolicy(), HeuristicPolicy(elder_play_threshold=99), RandomPolicy()):
        pa = pol.to_array()
        for i in range(300):
            outs = []
            for hist in (None, np.zeros(N_EXCHANGE_HIST, dtype=np.int64)):
                deck = np.empty(32, dtype=np.int8)
                stc = np.uint64(stream_start(np.uint64(8), np.uint64(i), np.uint64(0)))
                stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
                args = (deck, 11, np.uint64(stc), np.uint64(stb), np.uint64(0), elder, dealer, turnup >> 3, r, pa, pa)
                outs.append(exchanges(*args) if hist is None else exchanges(*args, hist))
            assert tuple(outs[0]) == tuple(outs[1])
            got = outs[1]
            rounds = int(hist[EH_ROUNDS])
            assert rounds == got[6]
            ek = sum(int(hist[EH_ROUND0 + EHR_SIZE * j + EHR_EK]) for j in range(rounds))
            dk = sum(int(hist[EH_ROUND0 + EHR_SIZE * j + EHR_DK]) for j in range(rounds))
            assert ek == bin(got[11]).count("1") and dk == bin(got[12]).count("1")
            assert (hist[EH_FINAL] == FINAL_REFUSED) == (got[7] == 1)
            assert got[8] == 0 or hist[EH_FINAL] == FINAL_PLAYED


def test_watching_reads_consistently_and_reading_nothing_changes_nothing():
    """On 300 deals: the readers' inferences never exclude the actual hand, few draws fall back,
    the tallies by discard count add up to the deals; and a 'reading' that reads nothing (cond 0
    through the same block) plays exactly as the plain searcher."""
    from analysis.ecarte.studies.watching import W_BY_COUNT, W_D_GAIN, W_E_GAIN, W_N, watching_block
    from analysis.runner import run_tallies

    res = watching(300, 3, "seed-de", samples=4, read="all", threads=1)
    assert res["deals"] == 300 and res["fallback_rate"] < 0.05
    assert sum(r["deals"] for r in res["by_count"] if r["side"] == "elder") == 300
    assert all(r["strength_before"].value >= 0 and 0 <= r["middle_after"].value <= 5 for r in res["by_count"])
    pol = HeuristicPolicy().to_array()
    tot = run_tallies(watching_block, (get_rules().to_array(), pol, pol, np.int64(4), np.int64(0)), 200, 3,
                      chunk=50, threads=1)
    assert tot[W_N] == 200 and tot[W_E_GAIN] == 0 and tot[W_D_GAIN] == 0 and tot[W_BY_COUNT] > 0
    with pytest.raises(InputError):
        watching(10, 0, read="minds")


def test_watching_command(salon):
    """``salon study ecarte watching``: the JSON names its players and carries the gains with
    intervals and the table by discard count; bad input gets one line and exit code 2."""
    import json

    code, out, _ = salon(["study", "ecarte", "watching", "--deals", "200", "--json", "--quiet"])
    res = json.loads(out)
    assert code == 0 and res["players"]["trick_play"].startswith("search") and res["deals"] == 200
    assert set(res["mean_gain"]) == {"value", "ci95", "n"} and res["by_count"][0]["side"] == "elder"
    for bad in (["--deals", "0"], ["--read", "minds"], ["--rules", "nope"]):
        code, _, err = salon(["study", "ecarte", "watching", *bad])
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_reading_mixed_first_answers_draws_the_exact_posterior():
    """COND_TABLE: the dealer refused elder's first proposal, and refuses an information set with a
    chance (here 0.9 with two trumps or more, else 0.05). Elder's draws of the dealer's hand follow
    the forward enumeration of every dealer hand weighted by that chance (its information set
    computed here from the class table and the bucket's definition), and the plain draws do not."""
    from analysis.bits import rank_of_mask
    from analysis.ecarte.players.search_inference import COND_TABLE
    from analysis.ecarte.studies.strategy.tables import hands

    h = hands()
    refuse = np.array([0.9 if bin(int(h.masks[i // 3]) & 0xFF).count("1") >= 2 else 0.05
                       for i in range(3 * len(h.masks))])
    rng = random.Random(5)
    t, r = 1, 4  # hearts, the ace turned
    turnup = 8 * t + r
    own = rng.sample([c for c in range(32) if c != turnup], 5)
    unseen = mask(c for c in range(32) if c != turnup and c not in own)

    def info_set(hand):
        rel = ((hand >> (8 * t)) | (hand << (32 - 8 * t))) & 0xFFFFFFFF
        trumps = rel & 0xFF
        bucket = 0 if r == 7 else 1 if trumps == 0 or r > trumps.bit_length() - 1 else 2
        return int(h.class_of_rank[rank_of_mask(rel)]) * 3 + bucket

    exact = Counter()
    for dealt in combinations([c for c in range(32) if unseen >> c & 1], 5):
        o = mask(dealt)
        exact[category(o, t)] += refuse[info_set(o)]
    total = sum(exact.values())
    hist = np.zeros(N_EXCHANGE_HIST, dtype=np.int64)
    hist[EH_ROUNDS], hist[EH_FINAL] = 0, FINAL_REFUSED
    pol = HeuristicPolicy().to_array()
    know = (COND_TABLE, unseen, 0, hist, False, False, pol, refuse, h.class_of_rank.astype(np.int64), r)
    st = np.uint64(stream_start(np.uint64(6), np.uint64(0), np.uint64(2)))
    got, plain = Counter(), Counter()
    for _ in range(20_000):
        st, hand, fell = sample_opponent(st, unseen, 0, 5, know, t)
        st = np.uint64(st)
        assert not fell
        got[category(int(hand), t)] += 1
        st, hand, _ = sample_opponent(st, unseen, 0, 5, (0, *know[1:]), t)
        st = np.uint64(st)
        plain[category(int(hand), t)] += 1
    big = [c for c in sorted(exact) if exact[c] / total * 20_000 >= 5]
    probs = [exact[c] / total for c in big] + [1 - sum(exact[c] for c in big) / total]

    def counts(cnt):
        return [cnt[c] for c in big] + [sum(cnt.values()) - sum(cnt[c] for c in big)]

    assert chi_square_check(counts(got), probs).pvalue > 1e-4
    assert chi_square_check(counts(plain), probs).pvalue < 1e-6

"""Bezique tip studies: the paired kernel (same deals, both seats) and the BZ-T1..T5 verdicts."""
import dataclasses

import numpy as np
import pytest

from analysis.bezique.engine.layout import (
    O_BRISQUE,
    O_ELDER_STOCK,
    O_LAST,
    O_MELD,
    O_PLAYED,
    O_SEVEN,
    O_TOTAL,
    O_TRICKS,
    O_TURN_UP,
)
from analysis.bezique.play import paired as P
from analysis.bezique.play.deal import deal_outcomes
from analysis.bezique.policies import HeuristicPolicy, RandomPolicy
from analysis.bezique.reference.melds import KINDS
from analysis.bezique.rules import get_rules
from analysis.bezique.studies.tips import bz_t5_search_deals

BASE = HeuristicPolicy()
OPTIONS = [BASE, dataclasses.replace(BASE, meld_win=False, lead_low=False),
           dataclasses.replace(BASE, trump_keep=10, trump_win=False, hold_bezique=False)]


def _walk(o, side):
    """The paired kernel's trick quantities, replayed in plain Python from an outcome vector."""
    trump = (o[O_TURN_UP] >> 3) & 3
    leader, res = 0, dict.fromkeys(("stock", "end", "end_bq", "stock_trumps", "end_trumps"), 0)
    for t in range(32):
        led, fol = int(o[O_PLAYED + 2 * t]), int(o[O_PLAYED + 2 * t + 1])
        same = (led >> 3) & 3 == (fol >> 3) & 3
        fw = (fol & 7) > (led & 7) if same else (fol >> 3) & 3 == trump
        w = 1 - leader if fw else leader
        mine = led if leader == side else fol
        phase = "stock" if t < 24 else "end"
        res[f"{phase}_trumps"] += (mine >> 3) & 3 == trump
        if w == side:
            res[phase] += 1
            if phase == "end":
                res["end_bq"] += 10 * (((led & 7) >= 6) + ((fol & 7) >= 6))
        leader = w
    return res


def _quantities(o, side):
    """Per-deal Q_* values (rows of outcome vectors o) for the player in seat ``side``."""
    other = 1 - side
    walk = [_walk(row, side) for row in o]
    q = {P.Q_NET: o[:, O_TOTAL + side] - o[:, O_TOTAL + other], P.Q_TOTAL: o[:, O_TOTAL + side],
         P.Q_MELD: sum(o[:, O_MELD + 2 * k + side] for k in range(len(KINDS))),
         P.Q_BRISQUE: o[:, O_BRISQUE + side], P.Q_LAST: o[:, O_LAST + side], P.Q_SEVEN: o[:, O_SEVEN + side]}
    for key, slot in (("stock", P.Q_STOCK_TRICKS), ("end", P.Q_END_TRICKS), ("end_bq", P.Q_END_BRISQUE),
                      ("stock_trumps", P.Q_STOCK_TRUMPS), ("end_trumps", P.Q_END_TRUMPS)):
        q[slot] = np.array([w[key] for w in walk], dtype=np.int64)
    return q


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_paired_tallies_equal_the_deals_played_one_by_one(variant):
    rules = get_rules(variant)
    n, seed = 120, 11
    res = P.compare(n, seed, rules, OPTIONS, BASE, chunk=37)
    per_option = []
    for opt in OPTIONS:
        as_elder = deal_outcomes(seed, 0, n, rules.to_array(), opt.to_array(), BASE.to_array())
        as_dealer = deal_outcomes(seed, 0, n, rules.to_array(), BASE.to_array(), opt.to_array())
        # The trick replay agrees with the kernel's own trick counts.
        assert (_quantities(as_elder, 0)[P.Q_STOCK_TRICKS] == as_elder[:, O_ELDER_STOCK]).all()
        for o, side in ((as_elder, 0), (as_dealer, 1)):
            q = _quantities(o, side)
            assert (q[P.Q_STOCK_TRICKS] + q[P.Q_END_TRICKS] == o[:, O_TRICKS + side]).all()
        per_option.append((_quantities(as_elder, 0), _quantities(as_dealer, 1), as_elder, as_dealer))
    assert res.deals == n
    for q in range(P.NQ):
        for a in range(len(OPTIONS)):
            for view, x in ((P.V_ELDER, per_option[a][0][q]), (P.V_DEALER, per_option[a][1][q]),
                            (P.V_BOTH, per_option[a][0][q] + per_option[a][1][q])):
                assert res.level_sums(a, q, view) == (int(x.sum()), int((x * x).sum()), n)
            for b in range(len(OPTIONS)):
                d = (per_option[a][0][q] + per_option[a][1][q]) - (per_option[b][0][q] + per_option[b][1][q])
                assert res.diff_sums(a, b, q) == (int(d.sum()), int((d * d).sum()), n), (q, a, b)
    # Meld rates: plays (both seats) in which the tested player laid the kind.
    for a in range(len(OPTIONS)):
        _, _, e, d = per_option[a]
        for k in range(len(KINDS)):
            laid = int((e[:, O_MELD + 2 * k] > 0).sum() + (d[:, O_MELD + 2 * k + 1] > 0).sum())
            assert res.meld_rate(a, k).value == laid / (2 * n)


def test_paired_tallies_are_thread_and_chunk_invariant():
    rules = get_rules("classic")
    options = [BASE, RandomPolicy(), dataclasses.replace(BASE, brisque_keep=0)]
    ref = P.paired_tallies(300, 4, rules, options, BASE, threads=1, chunk=300)
    for threads, chunk in ((2, 1), (2, 17), (1, 64)):
        assert np.array_equal(P.paired_tallies(300, 4, rules, options, BASE, threads=threads, chunk=chunk), ref)
    # A run resumed from deal 100 adds up to the whole.
    parts = P.paired_tallies(100, 4, rules, options, BASE) + P.paired_tallies(200, 4, rules, options, BASE, start=100)
    assert np.array_equal(parts, ref)


def test_identical_policies_differ_by_exactly_zero():
    res = P.compare(400, 2, get_rules(), [BASE, BASE, OPTIONS[1]], BASE)
    for q in range(P.NQ):
        for view in (P.V_BOTH, P.V_ELDER, P.V_DEALER):
            assert res.diff_sums(0, 1, q, view)[:2] == (0, 0)
    assert not res.differs(0, 1) and res.differs(0, 2)
    # The opponent's own policy in both seats: the net score cancels deal by deal, brisques split 80/80.
    assert res.level_sums(0, P.Q_NET) == (0, 0, 400)
    assert res.level(0, P.Q_BRISQUE).value == 80 and res.level(0, P.Q_LAST).value == 5
    e = res.diff(2, 0)
    assert e.lo <= e.value <= e.hi and e.n == 400


def test_paired_run_rejects_no_options():
    from analysis.errors import InputError

    with pytest.raises(InputError):
        P.compare(10, 0, get_rules(), [], BASE)


def test_bz_t5_search_study_takes_a_five_thousandth_of_the_deals_within_its_bounds():
    assert [bz_t5_search_deals(n) for n in (1, 30_000, 300_000, 5_000_000, 9_000_000)] == [4, 6, 60, 1000, 1000]

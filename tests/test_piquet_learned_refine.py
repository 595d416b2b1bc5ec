"""The learned exchange's scorer fitted by its softmax choice's value (analysis/piquet/fit/refine.py):
the validation split is a scramble, the gradient is the objective's, and the fit kept is the one
that costs least on validation hands, and beats the zero scorer on new hands."""
from __future__ import annotations

import numpy as np
import pytest

from analysis.piquet.fit.exchange import choice_costs, is_held_out, least_squares, scorer_design
from analysis.piquet.fit.refine import design_data, is_validation, objective, refined_scorer
from analysis.piquet.players.learned import SCORER_SIZE, SUIT_KEPT_AT
from analysis.piquet.players.learned_features import N_FEATURES, ORDER_SIZE
from tests.test_piquet_learned_exchange import planted_groups


def test_validation_hands_are_one_in_four_in_every_residue_of_the_held_out_split():
    """The held-out split takes hands by their index modulo 10 (and younger's training groups follow
    the index modulo 5): the validation split must not, or it would validate on one group."""
    h = np.arange(40_000)
    chosen = np.array([is_validation(int(x)) for x in h])
    for r in range(10):
        share = chosen[h % 10 == r].mean()
        assert abs(share - 0.25) < 4 * np.sqrt(0.25 * 0.75 / 4_000), f"residue {r}: {share:.3f}"
    fitting = np.array([not is_held_out(int(x)) for x in h])
    assert abs(chosen[fitting].mean() - 0.25) < 0.015


def planted_scorer_groups(rng, hands):
    """Option values from a planted scorer that pays for throwing from one suit (an effect of cards
    thrown together), with noise, in the fitter's group format."""
    w_true = np.zeros(SCORER_SIZE)
    w_true[:64] = -(np.arange(64) % 8) * 1.0
    w_true[N_FEATURES + 1:N_FEATURES + 6] = [-40, -30, -20, -10, 0]
    w_true[ORDER_SIZE + 52:ORDER_SIZE + 57] = [0, 20, 10, 0, 0]
    g = planted_groups(rng, np.zeros(ORDER_SIZE), hands=hands, noise=0.0)
    clean = np.stack([scorer_design(g, h) @ w_true for h in range(hands)])
    g["values"] = clean + rng.normal(0, 2.0, clean.shape)
    g["checks"] = clean + rng.normal(0, 2.0, clean.shape)
    return g


@pytest.mark.parametrize("anchor", [0.0, 0.7])
def test_gradient_matches_finite_differences(anchor):
    rng = np.random.default_rng(21)
    data = [(x.astype(float), lanes, q.astype(float), n, o)
            for x, lanes, q, n, o in design_data([planted_scorer_groups(rng, 12)])]
    v = rng.normal(0, 0.3, SCORER_SIZE)
    _, grad = objective(v, data, 2.0, anchor)
    kept_lanes = ORDER_SIZE + SUIT_KEPT_AT
    for j in (0, 9, 70, N_FEATURES + 3, ORDER_SIZE - 2, ORDER_SIZE + 5, ORDER_SIZE + 53, kept_lanes,
              kept_lanes + 0b10000001):
        e = np.zeros(SCORER_SIZE)
        e[j] = 1e-3
        numeric = (objective(v + e, data, 2.0, anchor)[0] - objective(v - e, data, 2.0, anchor)[0]) / 2e-3
        assert numeric == pytest.approx(grad[j], rel=1e-3, abs=1e-6)


def test_the_anchor_keeps_a_good_option_scored_far_below_the_choice_in_sight():
    """Seed-no elder's fit settled where breaking a quatorze of tens always won (14 points a hand lost):
    once the good options score far below the choice, the value's gradient on what would lift them
    vanishes, the anchor's does not. Planted: one feature marks each hand's best option, and the
    weights start with it at -30 (the others as planted)."""
    from analysis.piquet.fit import refine as LR

    rng = np.random.default_rng(23)
    g = planted_scorer_groups(rng, 30)
    data = LR.design_data([g])
    x, lanes, q, n, options = data[0]
    marked = np.zeros((n, options), dtype=np.float32)
    marked[np.arange(n), q.argmax(axis=1)] = 1
    j = ORDER_SIZE + 3  # a dense kept-hand feature column, overwritten with the mark
    x = x.copy()
    x[:, j] = marked.ravel()
    data = [(x, lanes, q, n, options)]
    v = np.zeros(SCORER_SIZE)
    v[j] = -30.0
    _, plain = objective(v, data, 0.3)
    _, anchored = objective(v, data, 0.3, 1.0)
    ridge = LR.RIDGE * v[j]
    assert abs(plain[j] - ridge) < 1e-6  # the value alone: only the ridge (the best options' chance ~e^-100)
    assert anchored[j] - ridge < -0.5  # the anchor: a strong pull up (the gradient of a minimised objective)


def test_the_fit_kept_is_the_cheapest_on_validation_and_beats_the_zero_scorer_on_new_hands():
    rng = np.random.default_rng(22)
    train, test = planted_scorer_groups(rng, 160), planted_scorer_groups(rng, 100)
    order = np.round(least_squares([train]) * 1000).astype(np.int64)
    scorer, report = refined_scorer(order, [train], most=60)
    fits = [name for name in report if isinstance(report[name], dict)]
    assert fits == ["least squares", "softmax to T=4", "softmax to T=1", "softmax to T=0.3"]
    assert report["chosen"] == min(fits, key=lambda name: report[name]["cost"])
    assert report["least squares"]["vs_least_squares"] == 0.0
    assert 0 < report["validation_hands"] < 160
    fitted = choice_costs(np.concatenate([order, scorer]), [test]).mean()
    zero = choice_costs(np.concatenate([order, np.zeros(SCORER_SIZE, dtype=np.int64)]), [test]).mean()
    assert fitted < 1.5 and fitted < zero - 1.0


def test_softmax_refinement_objective_is_the_full_designs():
    """design_data holds the per-suit kept patterns as four lanes per option: the objective and its
    gradient equal the softmax choice's computed on the full scorer design."""
    from analysis.piquet.fit import refine as LR
    from analysis.piquet.fit.exchange import scorer_design

    rng = np.random.default_rng(13)
    g = planted_groups(rng, np.zeros(ORDER_SIZE), hands=12, noise=1.0)
    v = rng.normal(0, 0.05, SCORER_SIZE)
    data = LR.design_data([g])
    f, grad = LR.objective(v, data, 1.3)
    full = np.stack([scorer_design(g, h) for h in range(12)])  # (hands, options, SCORER_SIZE)
    s = full @ v / 1.3
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ev = (p * g["values"]).sum(axis=1)
    want_grad = -np.einsum("ho,hof->f", p * (g["values"] - ev[:, None]) / 1.3, full) / 12 + LR.RIDGE * v
    assert f == pytest.approx(-ev.mean() + 0.5 * LR.RIDGE * v @ v, rel=1e-4)
    assert np.allclose(grad, want_grad, rtol=1e-3, atol=1e-5)


def test_the_softmax_fit_uses_each_groups_first_hands_up_to_its_cap():
    """``--softmax-hands`` caps each group at its first hands: the capped design's objective is the
    objective of the group cut to those hands, and the report counts them."""
    from analysis.piquet.fit import refine as LR

    rng = np.random.default_rng(14)
    g = planted_groups(rng, np.zeros(ORDER_SIZE), hands=12, noise=1.0)
    v = rng.normal(0, 0.05, SCORER_SIZE)
    first = {**g, **{k: g[k][:5] for k in ("idx", "phi", "g", "values", "checks", "hands")}}
    capped, cut = LR.objective(v, LR.design_data([g], most=5), 0.7), LR.objective(v, LR.design_data([first]), 0.7)
    assert capped[0] == cut[0] and np.array_equal(capped[1], cut[1])
    assert capped[0] != LR.objective(v, LR.design_data([g]), 0.7)[0]
    train = planted_scorer_groups(rng, 60)
    order = np.round(least_squares([train]) * 1000).astype(np.int64)
    _, report = refined_scorer(order, [train], most=20)
    assert report["softmax_hands"] == 20 < report["fitting_hands"]


@pytest.mark.parametrize(("cards", "kind"), [
    ("10S 10H 10D 10C 7S 8H 9D JC QC KD AH 8S", "quatorze"),      # four tens, also a trio's ranks
    ("7S 8S 9S 10S JS 10H 10D AC KC QH 8D 9C", "quint or longer"),  # quint 7-J of spades, three tens
    ("10S 10H 10D 7S 8S 9S QS AC KC QH 8D 9C", "trio"),            # a quart 7-10 only, three tens
    ("9S 9H 9D 9C 7S 8H KD JC QC AH 8S AD", "other"),              # four nines: no set (PQ-SET)
])
def test_the_held_out_kinds_of_hand_name_the_combination_a_fit_may_break(cards, kind):
    from analysis.cards import parse_cards
    from analysis.piquet.fit.exchange import hand_category
    from analysis.piquet.rules import mask_of

    assert hand_category(mask_of(parse_cards(cards))) == kind


def test_held_out_figures_split_the_cost_by_kind_and_add_up_to_the_mean():
    from analysis.piquet.fit.exchange import hand_category, held_out_figures

    rng = np.random.default_rng(4)
    groups = [planted_groups(rng, rng.normal(0, 1, ORDER_SIZE), hands=60)]
    w = np.zeros(ORDER_SIZE + SCORER_SIZE, dtype=np.int64)
    w[:N_FEATURES] = (np.arange(N_FEATURES) % 7 - 3) * 100
    fig = held_out_figures(w, groups)
    by_kind = fig["held_out_cost_by_kind"]
    n = sum(v[2] for v in by_kind.values())
    assert n == fig["held_out_hands"] == sum(len(g["hands"]) for g in groups)
    kinds = [hand_category(int(h)) for g in groups for h in g["hands"]]
    assert {k: v[2] for k, v in by_kind.items()} == {k: kinds.count(k) for k in set(kinds)}
    assert sum(v[0] * v[2] for v in by_kind.values()) / n == pytest.approx(fig["held_out_cost_vs_sampled_best"][0])

"""The learned exchange (analysis/piquet/learned_exchange.py): the kernel's features against the
reference's plain-Python reading of docs/piquet-engine.md, its one-sort choice against the brute
force over every legal exchange, the kernel's deals with learned players against the reference's,
and the fit against a planted model."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from analysis.piquet import kernel as K
from analysis.piquet import reference as ref
from analysis.piquet.learned_exchange import (
    MODEL_SIZE,
    MODELS,
    N_COUNTS,
    N_FEATURES,
    N_G,
    count_matrix,
    feature_matrix,
    learned_discard,
    learned_tables,
)
from analysis.piquet.learned_fit import (
    WEIGHTS_FILE,
    feature_names,
    fit,
    greedy_costs,
    incidence,
    load_weights,
    objective,
)
from analysis.piquet.policies import get_policy
from analysis.piquet.rules import get_rules

VARIANTS = ("seed-de", "seed-no", "cavendish")


def random_hand(rng) -> int:
    return int(sum(1 << int(c) for c in rng.choice(32, 12, replace=False)))


def test_kernel_features_equal_the_reference_reading():
    rng = np.random.default_rng(3)
    for _ in range(400):
        hand = random_hand(rng)
        codes = [c for c in range(32) if hand >> c & 1]
        got = feature_matrix(hand).tolist()
        want = [ref.learned_features(hand, c) for c in codes]
        assert got == want, f"hand {hand:#x}"
        assert count_matrix(hand).tolist() == ref.learned_count_terms(hand), f"hand {hand:#x}"


def test_one_sort_finds_the_best_score_over_every_legal_exchange():
    """Any weights: the kernel's choice scores as high as the best of the C(12, k) exchanges, and the
    reference's (same tie rule) is the same cards."""
    rng = np.random.default_rng(5)
    scratch = np.zeros(16, np.int32)
    for t in range(300):
        w = rng.integers(-4000, 4000, size=len(MODELS) * MODEL_SIZE)
        w[rng.integers(0, len(w), 20)] = 0  # ties between cards and sizes happen
        table = learned_tables(w)
        hand = random_hand(rng)
        model = int(rng.integers(len(MODELS)))
        lo, hi = ((1, 5), (0, 3), (1, 7))[t % 3]
        got = learned_discard(hand, lo, hi, w, table, model, scratch)
        wm = w[model * MODEL_SIZE:(model + 1) * MODEL_SIZE]
        u = feature_matrix(hand) @ wm[:N_FEATURES]
        v = wm[N_FEATURES + N_COUNTS:].reshape(N_COUNTS, N_G)
        bias = wm[N_FEATURES:N_FEATURES + N_COUNTS] + v @ count_matrix(hand)
        best = max(sum(u[list(combo)]) + bias[k]
                   for k in range(lo, hi + 1) for combo in itertools.combinations(range(12), k))
        codes = [c for c in range(32) if hand >> c & 1]
        thrown = [i for i, c in enumerate(codes) if got >> c & 1]
        assert lo <= len(thrown) <= hi
        assert sum(u[thrown]) + bias[len(thrown)] == best
        assert ref.learned_discard(hand, lo, hi, wm.tolist()) == [codes[i] for i in thrown]


def test_shipped_weights_cover_every_seat_and_variant():
    doc = json.loads(WEIGHTS_FILE.read_text())
    assert doc["features"] == feature_names() and len(feature_names()) == MODEL_SIZE
    w = load_weights()
    assert w.shape == (2, len(MODELS), MODEL_SIZE)
    for name in MODELS:
        for seat in ("elder", "younger"):
            m = doc["models"][name][seat]
            assert m["hands"] > 0 and m["held_out_hands"] > 0
            assert any(m["weights"][:N_FEATURES])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("pairing", [("learned", "learned"), ("learned", "heuristic"), ("heuristic", "learned")])
def test_kernel_and_reference_learned_players_agree_deal_by_deal(variant, pairing):
    rules = get_rules(variant)
    pe, py = get_policy(pairing[0]), get_policy(pairing[1])
    seed = 8100 + VARIANTS.index(variant)
    rows = K.deal_outcomes(seed, 0, 60, rules.to_array(), pe.to_array(), py.to_array())
    for i in range(60):
        assert [int(x) for x in rows[i]] == ref.play_deal(seed, i, rules, pe, py).outcome_vector(), f"deal {i}"


def test_the_learned_exchange_takes_effect():
    """The learned players' exchanges differ from the keep values' on some deals (else the policy
    would be a no-op)."""
    rules = get_rules("seed-de")
    a = K.deal_outcomes(1, 0, 200, rules.to_array(), get_policy("learned").to_array(),
                        get_policy("learned").to_array())
    b = K.deal_outcomes(1, 0, 200, rules.to_array(), get_policy("heuristic").to_array(),
                        get_policy("heuristic").to_array())
    assert (a[:, K.O_FINAL] != b[:, K.O_FINAL]).sum() > 20


def planted_groups(rng, w_true, hands=300, noise=2.0):
    """Option values from a known linear model plus noise, in the fitter's group format."""
    masks = [random_hand(rng) for _ in range(hands)]
    phi = np.stack([feature_matrix(m) for m in masks]).astype(float)
    g = np.stack([count_matrix(m) for m in masks]).astype(float)
    a, sizes = incidence(1, 5)
    clean = (phi @ w_true[:N_FEATURES]) @ a.T + w_true[N_FEATURES + sizes]
    values = clean + rng.normal(0, noise, clean.shape)
    checks = clean + rng.normal(0, noise, clean.shape)
    return {"idx": np.arange(hands), "lo": 1, "hi": 5, "phi": phi, "g": g, "values": values, "checks": checks,
            "clean": clean}


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(7)
    w_true = rng.normal(0, 1, MODEL_SIZE)
    g = [planted_groups(rng, w_true, hands=40)]
    w = rng.normal(0, 1, MODEL_SIZE)
    f0, grad = objective(w, g, 1.5)
    for j in (0, 9, 17, 70, 80, N_FEATURES + 3, MODEL_SIZE - 2):
        e = np.zeros(MODEL_SIZE)
        e[j] = 1e-5
        numeric = (objective(w + e, g, 1.5)[0] - objective(w - e, g, 1.5)[0]) / 2e-5
        assert numeric == pytest.approx(grad[j], rel=1e-4, abs=1e-7)


def test_fit_recovers_a_planted_model_on_held_out_hands():
    """Values made by a known scorer plus noise: the fitted greedy choice on new hands loses little
    against the planted model's own choice (measured on the noiseless values)."""
    rng = np.random.default_rng(11)
    w_true = np.zeros(MODEL_SIZE)
    length, rank = np.divmod(np.arange(64), 8)
    w_true[:64] = -rank * 1.5 - length * 0.7  # throw low cards from short suits
    w_true[N_FEATURES + 1:N_FEATURES + 6] = [-20, -15, -10, -5, 0]  # take many
    train, test = planted_groups(rng, w_true), planted_groups(rng, w_true)
    w = fit([train])
    from analysis.piquet.learned_fit import scores

    s = scores(w, test)
    rows = np.arange(len(s))
    loss = (test["clean"].max(axis=1) - test["clean"][rows, s.argmax(axis=1)]).mean()
    assert loss < 0.5
    zero = greedy_costs(np.zeros(MODEL_SIZE, dtype=np.int64), [test]).mean()
    assert greedy_costs(np.round(w * 1000).astype(np.int64), [test]).mean() < zero - 5

"""The learned exchange (analysis/piquet/players/learned.py, players/learned_features.py): the kernel's
features against the reference's plain-Python reading of docs/piquet-engine.md, its choice against
the reference's and the brute force (learned-ordering's one sort: the best legal exchange), the kernel's
deals with learned players against the reference's, and the fits against planted models."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from analysis.piquet.engine.layout import O_FINAL
from analysis.piquet.fit.exchange import (
    choice_costs,
    feature_names,
    fit,
    fit_scorer,
    greedy_costs,
    incidence,
    least_squares,
    objective,
)
from analysis.piquet.play.deal import deal_outcomes
from analysis.piquet.players.learned import (
    KEPT_FEATURES,
    MODEL_SIZE,
    N_KEPT,
    SCORER_SIZE,
    SORT_12,
    WEIGHTS_FILE,
    kept_matrix,
    learned_discard,
    learned_tables,
    load_weights,
    ordering_discard,
)
from analysis.piquet.players.learned_features import (
    MODELS,
    N_COUNTS,
    N_FEATURES,
    N_G,
    ORDER_SIZE,
    count_matrix,
    feature_matrix,
)
from analysis.piquet.policies import get_policy
from analysis.piquet.reference import policies as ref
from analysis.piquet.reference.deal import play_deal
from analysis.piquet.reference.policies import (
    learned_count_terms,
    learned_features,
    learned_kept_features,
    learned_ordering_discard,
)
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
        want = [learned_features(hand, c) for c in codes]
        assert got == want, f"hand {hand:#x}"
        assert count_matrix(hand).tolist() == learned_count_terms(hand), f"hand {hand:#x}"


def test_kept_features_equal_the_reference_reading():
    rng = np.random.default_rng(4)
    for _ in range(300):
        hand = random_hand(rng)
        codes = [c for c in range(32) if hand >> c & 1]
        thrown = np.array([sum(1 << c for c in rng.choice(codes, k, replace=False)) for k in (0, 1, 3, 5, 7)])
        got = kept_matrix(hand, thrown).tolist()
        assert got == [learned_kept_features(hand & ~int(d), int(d)) for d in thrown], f"hand {hand:#x}"
    assert N_KEPT == len(KEPT_FEATURES)


def scorer_values(hand: int, lo: int, hi: int, wm: np.ndarray) -> dict[frozenset, int]:
    """The scorer's value of every legal exchange, by brute force from the feature matrices."""
    codes = [c for c in range(32) if hand >> c & 1]
    w1, w2 = wm[ORDER_SIZE:ORDER_SIZE + ORDER_SIZE], wm[2 * ORDER_SIZE:]
    u = feature_matrix(hand) @ w1[:N_FEATURES]
    bias = w1[N_FEATURES:N_FEATURES + N_COUNTS] + w1[N_FEATURES + N_COUNTS:].reshape(N_COUNTS, N_G) @ count_matrix(hand)
    combos = [combo for k in range(lo, hi + 1) for combo in itertools.combinations(range(12), k)]
    thrown = np.array([sum(1 << codes[i] for i in combo) for combo in combos], dtype=np.int64)
    kept = kept_matrix(hand, thrown) @ w2
    return {frozenset(codes[i] for i in combo): int(sum(u[list(combo)]) + bias[len(combo)] + kept[o])
            for o, combo in enumerate(combos)}


def test_kernel_choice_equals_the_reference_and_no_move_improves_it():
    """Any weights: the kernel's exchange is the reference's (candidates, then first-improvement
    moves), legal, and no single swap, drop or addition raises the scorer's brute-force value."""
    rng = np.random.default_rng(5)
    work = np.zeros(64, np.int32)
    for t in range(150):
        w = rng.integers(-4000, 4000, size=len(MODELS) * MODEL_SIZE)
        w[rng.integers(0, len(w), 40)] = 0  # ties between cards and sizes happen
        tables = learned_tables(w)
        hand = random_hand(rng)
        model = int(rng.integers(len(MODELS)))
        lo, hi = ((1, 5), (0, 3), (1, 7), (2, 2))[t % 4]
        got = learned_discard(hand, lo, hi, w, tables, model, work)
        wm = w[model * MODEL_SIZE:(model + 1) * MODEL_SIZE]
        chosen = [c for c in range(32) if got >> c & 1]
        assert lo <= len(chosen) <= hi and got & ~hand == 0
        assert ref.learned_discard(hand, lo, hi, wm.tolist()) == chosen
        if t % 2:
            continue
        # With the kept-hand weights small beside the cards' the climb ends well within MAX_MOVES:
        # the choice is then a local optimum.
        w //= 8
        got = learned_discard(hand, lo, hi, w, learned_tables(w), model, work)
        values = scorer_values(hand, lo, hi, w[model * MODEL_SIZE:(model + 1) * MODEL_SIZE])
        here = frozenset(c for c in range(32) if got >> c & 1)
        neighbours = [m for m in values if len(m ^ here) == 1 or (len(m ^ here) == 2 and len(m) == len(here))]
        assert all(values[m] <= values[here] for m in neighbours), f"hand {hand:#x}"


def test_the_sorting_network_sorts_every_zero_one_input_in_descending_order():
    """The ordering's network of 12 keys (``SORT_12``): by the 0-1 principle a comparator network
    sorts every input once it sorts the 4,096 inputs of zeros and ones."""
    for x in range(1 << 12):
        keys = [(x >> i) & 1 for i in range(12)]
        for a, b in SORT_12:
            keys[a], keys[b] = max(keys[a], keys[b]), min(keys[a], keys[b])
        assert keys == sorted(keys, reverse=True), f"input {x:012b}"


def test_hands_shorter_than_twelve_cards_are_ordered_as_the_reference_orders_them():
    """The network sorts 12 keys; a hand of fewer cards is padded with keys below any card's, and the
    choices on 8- to 11-card hands are the reference's."""
    rng = np.random.default_rng(8)
    work = np.zeros(64, np.int32)
    for t in range(40):
        w = rng.integers(-4000, 4000, size=len(MODELS) * MODEL_SIZE)
        hand = int(sum(1 << int(c) for c in rng.choice(32, 8 + t % 4, replace=False)))
        wm = w[:MODEL_SIZE]
        for lo, hi in ((1, 5), (0, 3)):
            got = ordering_discard(hand, lo, hi, w, learned_tables(w), 0, work)
            assert [c for c in range(32) if got >> c & 1] == learned_ordering_discard(hand, lo, hi, wm.tolist())
            got = learned_discard(hand, lo, hi, w, learned_tables(w), 0, work)
            assert [c for c in range(32) if got >> c & 1] == ref.learned_discard(hand, lo, hi, wm.tolist())


def test_the_ordering_alone_finds_the_best_additive_score_over_every_legal_exchange():
    """learned-ordering, any weights: the one-sort choice scores as high as the best of the C(12, k)
    exchanges under the ordering, and the reference's (same tie rule) is the same cards."""
    rng = np.random.default_rng(5)
    work = np.zeros(64, np.int32)
    for t in range(200):
        w = rng.integers(-4000, 4000, size=len(MODELS) * MODEL_SIZE)
        w[rng.integers(0, len(w), 30)] = 0  # ties between cards and sizes happen
        hand = random_hand(rng)
        model = int(rng.integers(len(MODELS)))
        lo, hi = ((1, 5), (0, 3), (1, 7))[t % 3]
        got = ordering_discard(hand, lo, hi, w, learned_tables(w), model, work)
        wm = w[model * MODEL_SIZE:(model + 1) * MODEL_SIZE]
        u = feature_matrix(hand) @ wm[:N_FEATURES]
        v = wm[N_FEATURES + N_COUNTS:ORDER_SIZE].reshape(N_COUNTS, N_G)
        bias = wm[N_FEATURES:N_FEATURES + N_COUNTS] + v @ count_matrix(hand)
        best = max(sum(u[list(combo)]) + bias[k]
                   for k in range(lo, hi + 1) for combo in itertools.combinations(range(12), k))
        codes = [c for c in range(32) if hand >> c & 1]
        thrown = [i for i, c in enumerate(codes) if got >> c & 1]
        assert lo <= len(thrown) <= hi
        assert sum(u[thrown]) + bias[len(thrown)] == best
        assert learned_ordering_discard(hand, lo, hi, wm.tolist()) == [codes[i] for i in thrown]


def test_with_an_additive_scorer_the_choice_is_the_best_legal_exchange():
    """When the scorer is the ordering (no kept-hand weights), the k best cards by u are each size's
    best exchange: the kernel's choice is the best of all C(12, k), as the brute force finds."""
    rng = np.random.default_rng(6)
    work = np.zeros(64, np.int32)
    for t in range(150):
        wm = np.zeros(MODEL_SIZE, dtype=np.int64)
        wm[:ORDER_SIZE] = rng.integers(-4000, 4000, size=ORDER_SIZE)
        wm[ORDER_SIZE:2 * ORDER_SIZE] = wm[:ORDER_SIZE]
        w = np.tile(wm, len(MODELS))
        hand = random_hand(rng)
        lo, hi = ((1, 5), (0, 3), (1, 7))[t % 3]
        got = learned_discard(hand, lo, hi, w, learned_tables(w), t % len(MODELS), work)
        values = scorer_values(hand, lo, hi, wm)
        assert values[frozenset(c for c in range(32) if got >> c & 1)] == max(values.values())


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
@pytest.mark.parametrize("pairing", [("learned", "learned"), ("learned-ordering", "learned")])
def test_kernel_and_reference_learned_players_agree_deal_by_deal(variant, pairing):
    """The pairings the golden vectors do not hold (learned against heuristic, either seat, is there:
    3,000 deals per variant, tests/test_piquet_differential.py)."""
    rules = get_rules(variant)
    pe, py = get_policy(pairing[0]), get_policy(pairing[1])
    seed = 8100 + VARIANTS.index(variant)
    rows = deal_outcomes(seed, 0, 60, rules.to_array(), pe.to_array(), py.to_array())
    for i in range(60):
        assert [int(x) for x in rows[i]] == play_deal(seed, i, rules, pe, py).outcome_vector(), f"deal {i}"


def test_the_learned_exchange_takes_effect():
    """The learned players' exchanges differ from the keep values' on some deals (else the policy
    would be a no-op)."""
    rules = get_rules("seed-de")
    a = deal_outcomes(1, 0, 200, rules.to_array(), get_policy("learned").to_array(),
                        get_policy("learned").to_array())
    b = deal_outcomes(1, 0, 200, rules.to_array(), get_policy("heuristic").to_array(),
                        get_policy("heuristic").to_array())
    assert (a[:, O_FINAL] != b[:, O_FINAL]).sum() > 20


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
            "clean": clean, "hands": np.array(masks, dtype=np.int64)}


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(7)
    w_true = rng.normal(0, 1, ORDER_SIZE)
    g = [planted_groups(rng, w_true, hands=40)]
    w = rng.normal(0, 1, ORDER_SIZE)
    f0, grad = objective(w, g, 1.5)
    for j in (0, 9, 17, 70, 80, N_FEATURES + 3, ORDER_SIZE - 2):
        e = np.zeros(ORDER_SIZE)
        e[j] = 1e-5
        numeric = (objective(w + e, g, 1.5)[0] - objective(w - e, g, 1.5)[0]) / 2e-5
        assert numeric == pytest.approx(grad[j], rel=1e-4, abs=1e-7)


def test_fit_recovers_a_planted_model_on_held_out_hands():
    """Values made by a known scorer plus noise: the fitted greedy choice on new hands loses little
    against the planted model's own choice (measured on the noiseless values)."""
    rng = np.random.default_rng(11)
    w_true = np.zeros(ORDER_SIZE)
    length, rank = np.divmod(np.arange(64), 8)
    w_true[:64] = -rank * 1.5 - length * 0.7  # throw low cards from short suits
    w_true[N_FEATURES + 1:N_FEATURES + 6] = [-20, -15, -10, -5, 0]  # take many
    train, test = planted_groups(rng, w_true), planted_groups(rng, w_true)
    w = fit([train])
    from analysis.piquet.fit.exchange import scores

    s = scores(w, test)
    rows = np.arange(len(s))
    loss = (test["clean"].max(axis=1) - test["clean"][rows, s.argmax(axis=1)]).mean()
    assert loss < 0.5
    zero = greedy_costs(np.zeros(ORDER_SIZE, dtype=np.int64), [test]).mean()
    assert greedy_costs(np.round(w * 1000).astype(np.int64), [test]).mean() < zero - 5


def test_scorer_fit_learns_a_kept_hand_effect_the_ordering_cannot():
    """Values made by a planted scorer that pays for throwing from one suit only (an effect of the
    cards thrown together, not a sum over them): the fitted model's kernel choice on new hands beats the
    ordering alone and the zero scorer, measured on independent noisy checks."""
    rng = np.random.default_rng(12)
    w_true = np.zeros(SCORER_SIZE)
    length, rank = np.divmod(np.arange(64), 8)
    w_true[:64] = -rank * 1.0
    w_true[N_FEATURES + 1:N_FEATURES + 6] = [-40, -30, -20, -10, 0]  # take many
    w_true[ORDER_SIZE + 52:ORDER_SIZE + 57] = [0, 20, 10, 0, 0]  # thrown cards from one suit, or two

    from analysis.piquet.fit.exchange import scorer_design

    out = []
    for hands in (120, 100):
        g = planted_groups(rng, np.zeros(ORDER_SIZE), hands=hands, noise=0.0)
        clean = np.stack([scorer_design(g, h) @ w_true for h in range(hands)])
        g["values"] = clean + rng.normal(0, 2.0, clean.shape)
        g["checks"] = clean + rng.normal(0, 2.0, clean.shape)
        out.append(g)
    train, test = out
    scorer = np.round(fit_scorer([train]) * 1000).astype(np.int64)
    order = np.round(least_squares([train]) * 1000).astype(np.int64)  # the ordering's start (fast)
    fitted = choice_costs(np.concatenate([order, scorer]), [test]).mean()
    alone = greedy_costs(order, [test]).mean()
    zero = choice_costs(np.concatenate([order, np.zeros(SCORER_SIZE, dtype=np.int64)]), [test]).mean()
    assert fitted < 1.0 and fitted < alone - 1.0 and fitted < zero - 1.0


"""The kernels' named layouts: every outcome and tally layout's field names agree with its index
constants (checked at import by ``check_layout``, and here that the check bites), the outcome
fields name what the reference's ``outcome_vector()`` puts there, and ``kernel`` still re-exports
the names that other modules and the notebooks use. No numba compilation: layouts are plain
Python."""
import importlib

import pytest

GAMES = ("bezique", "ecarte", "piquet")


@pytest.mark.parametrize("game", GAMES)
def test_check_layout_catches_a_misplaced_constant(game):
    L = importlib.import_module(f"analysis.{game}.engine.layout")
    names = {k: v for k, v in vars(L).items() if k.startswith("T_")}
    L.check_layout(L.TALLY_FIELDS, L.N_TALLY, "T_", names)
    first, second = sorted(names, key=names.get)[1:3]
    swapped = dict(names, **{first: names[second], second: names[first]})
    with pytest.raises(AssertionError):
        L.check_layout(L.TALLY_FIELDS, L.N_TALLY, "T_", swapped)
    with pytest.raises(AssertionError):
        L.check_layout(L.TALLY_FIELDS[:-1], L.N_TALLY, "T_", names)


def test_bezique_outcome_fields_name_the_reference_outcome():
    from analysis.bezique.engine.layout import KIND_NAMES, OUTCOME_FIELDS
    from analysis.bezique.engine.layout import OUTCOME_LENGTH as KERNEL_LENGTH
    from analysis.bezique.policies import HeuristicPolicy, RandomPolicy
    from analysis.bezique.reference.deal import play_deal
    from analysis.bezique.reference.deal_state import OUTCOME_LENGTH
    from analysis.bezique.reference.melds import KINDS
    from analysis.bezique.rules import get_rules

    assert KIND_NAMES == KINDS and len(OUTCOME_FIELDS) == OUTCOME_LENGTH == KERNEL_LENGTH
    rules = get_rules()
    for i, (dealer, elder) in enumerate(((HeuristicPolicy(), RandomPolicy()), (RandomPolicy(), HeuristicPolicy()))):
        r = play_deal(5, i, rules, dealer, elder)
        v = dict(zip(OUTCOME_FIELDS, r.outcome_vector(), strict=True))
        for seat in ("elder", "dealer"):
            s = r.scores[seat]
            assert v[f"total_{seat}"] == r.total(seat)
            assert v[f"brisque_{seat}"] == s["brisques"] and v[f"last_{seat}"] == s["last_trick"]
            assert v[f"seven_{seat}"] == s["seven"] and v[f"tricks_{seat}"] == s["tricks"]
            for kind in KINDS:
                assert v[f"meld_{kind}_{seat}"] == s[kind]
        assert v["turn_up"] == r.turn_up and v["tricks_played"] == len(r.tricks)
        assert v["played_lead1"] == r.plays[0] and v["played_follow1"] == r.plays[1]
        assert v["played_follow32"] == (r.plays[63] if len(r.plays) == 64 else -1)
        melds = {t.number: KINDS.index(t.meld.kind) for t in r.tricks if t.meld is not None}
        assert [v[f"meld_at_trick{n}"] for n in range(1, 25)] == [melds.get(n, -1) for n in range(1, 25)]


def test_ecarte_outcome_fields_name_the_reference_outcome():
    from analysis.ecarte.engine.layout import COMPARED_FIELDS, N_COMPARED, N_OUT, OUTCOME_FIELDS
    from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
    from analysis.ecarte.reference.hand import play_hand
    from analysis.ecarte.rules import get_rules

    assert COMPARED_FIELDS == OUTCOME_FIELDS[:N_COMPARED] and len(OUTCOME_FIELDS) == N_OUT
    rules = get_rules()
    for i, policy in enumerate((HeuristicPolicy(), RandomPolicy())):
        r = play_hand(3, i, rules, policy)
        vec = r.outcome_vector()
        assert len(vec) == N_COMPARED
        v = dict(zip(COMPARED_FIELDS, vec, strict=True))
        assert (v["elder_points"], v["dealer_points"], v["elder_tricks"]) == (r.elder_points, r.dealer_points,
                                                                             r.elder_tricks)
        assert v["rounds"] == r.rounds and v["turnup"] == r.turnup and v["stock_drawn"] == len(r.stock_drawn)
        assert (v["elder_final"], v["dealer_final"]) == (r.elder_hand, r.dealer_hand)
        for n, t in enumerate(r.tricks, start=1):
            assert (v[f"tricks_lead{n}"], v[f"tricks_follow{n}"]) == (t.led, t.followed)


def test_piquet_outcome_fields_name_the_reference_outcome():
    from analysis.piquet.engine.layout import N_OUT, OUTCOME_FIELDS
    from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
    from analysis.piquet.reference.deal import play_deal
    from analysis.piquet.rules import get_rules

    rules = get_rules()
    for i, policy in enumerate((HeuristicPolicy(), RandomPolicy())):
        r = play_deal(3, i, rules, policy, policy)
        vec = r.outcome_vector()
        assert len(vec) == N_OUT
        v = dict(zip(OUTCOME_FIELDS, vec, strict=True))
        for seat in ("elder", "younger"):
            s = r.scores[seat]
            for key in ("total", "carte_blanche", "point", "sequences", "sets", "repique", "trick_points", "cards",
                        "capot"):
                assert v[f"{key}_{seat}"] == s[key], (key, seat)
        assert v["pique"] == r.scores["elder"]["pique"] and v["elder_tricks"] == r.scores["elder"]["tricks"]
        assert (v["took_elder"], v["took_younger"]) == (len(r.elder_took), len(r.younger_took))
        assert (v["final_elder"], v["final_younger"]) == (r.elder_hand, r.younger_hand)
        for n, t in enumerate(r.tricks, start=1):
            assert (v[f"played_lead{n}"], v[f"played_follow{n}"]) == (t.led, t.followed)

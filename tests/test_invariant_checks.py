"""The registry's invariant checks (analysis/<game>/api.invariants) are not vacuous: outcome rows
that break a rule make each of them report the deal."""
import pytest

from analysis.games import GAMES

SEED = 20261201


def _corrupt(name):
    """(the module owning the outcome function, its name function name, a corruption of the rows that breaks a rule)."""
    if name == "ecarte":
        from analysis.ecarte.engine.layout import O_DEALER_TRICK_POINTS, O_ELDER_TRICK_POINTS
        from analysis.ecarte.play import hand

        def both_score(rows):  # both sides score trick points
            rows[:, O_DEALER_TRICK_POINTS] = rows[:, O_ELDER_TRICK_POINTS] = 1
        return hand, "hand_outcomes", both_score
    if name == "piquet":
        from analysis.piquet.engine.layout import O_PLAYED
        from analysis.piquet.play import deal

        def same_card_twice(rows):  # a trick of two equal cards
            rows[:, O_PLAYED + 1] = rows[:, O_PLAYED]
        return deal, "deal_outcomes", same_card_twice
    from analysis.bezique.engine.layout import O_BRISQUE
    from analysis.bezique.play import deal

    def extra_brisque(rows):  # 170 brisque points in a deal
        rows[:, O_BRISQUE] += 10
    return deal, "deal_outcomes", extra_brisque


@pytest.mark.parametrize("name", list(GAMES))
def test_broken_outcomes_are_reported(name, monkeypatch):
    g = GAMES[name]
    module, fn, corrupt = _corrupt(name)
    real = getattr(module, fn)

    def broken(*args):
        rows = real(*args)
        corrupt(rows)
        return rows

    assert g.invariants(20, SEED, g.rules(), g.policy("heuristic")) == []
    monkeypatch.setattr(module, fn, broken)
    bad = g.invariants(20, SEED, g.rules(), g.policy("heuristic"))
    assert len(bad) == 20 and bad[0].startswith(("deal 0", "hand 0"))

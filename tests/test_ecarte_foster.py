"""Foster's jeu de règle (analysis/ecarte/studies/foster.py): the definition on hands built by
hand, against the double-dummy bound, CLASSICAL.md's lower bounds, and the comparison with the
shipped classic tables."""
from __future__ import annotations

import numpy as np
import pytest

from analysis.ecarte.studies import foster as F

# Écarté rank bits (7 8 9 10 A J Q K = bits 0..7); trumps are lane 0.
SEVEN, EIGHT, NINE, TEN, ACE, JACK, QUEEN, KING = (1 << r for r in range(8))


def hand(*lanes):
    return sum(lane << (8 * s) for s, lane in enumerate(lanes))


def free_ranks(h):
    return [r for r in range(8) if not (h >> r) & 1]


@pytest.mark.parametrize("rest", [hand(0, SEVEN, EIGHT), hand(0, SEVEN | EIGHT), hand(0, ACE, 0, NINE)])
def test_king_queen_jack_of_trumps_is_a_jeu_de_regle_and_a_certain_point(rest):
    h = hand(KING | QUEEN | JACK) | rest
    for r in free_ranks(h):
        assert F.is_jeu_de_regle(h, r) and F.is_point_certain(h, r)


def test_hands_that_are_not_jeux_de_regle():
    # No trump and no king: the dealer's single trump and his kings beat it.
    h = hand(0, QUEEN | JACK | ACE, QUEEN, TEN)
    assert not any(F.is_jeu_de_regle(h, r) for r in range(8))
    # One low trump and K-Q-J of a plain suit (in Foster's list of hands the dealer may meet, but
    # not certain: a dealer void in that suit with one trump ruffs the king).
    h = hand(SEVEN, KING | QUEEN | JACK, EIGHT, TEN)
    assert not any(F.is_jeu_de_regle(h, r) for r in free_ranks(h))
    # The trump king and two plain kings are: the king draws the dealer's one trump, if any.
    h = hand(KING, KING, KING, SEVEN | EIGHT)
    assert all(F.is_jeu_de_regle(h, r) for r in free_ranks(h))
    assert not any(F.is_point_certain(h, r) for r in free_ranks(h))  # two trumps over it can beat it


def test_not_peeking_is_stricter_than_double_dummy():
    """Every jeu de règle passes the double-dummy bound (elder seeing the dealer's cards); the
    trump king, K-J, A, A with the knave turned passes that bound but is no jeu de règle: after
    the two kings, which of the jack and the aces wins depends on cards elder cannot see."""
    h = hand(KING, KING | JACK, ACE, ACE)
    assert F.double_dummy_sure(h, 5, 1, 1) and not F.is_jeu_de_regle(h, 5)
    from analysis.ecarte.studies.strategy.tables import hands

    masks = hands().masks
    tab = F.jeu_table(True)
    rng = np.random.default_rng(3)
    jeux = np.argwhere(tab >= 1)
    for c, r in jeux[rng.choice(len(jeux), 12, replace=False)]:
        assert F.double_dummy_sure(int(masks[c]), int(r), 1, 1)
        if tab[c, r] == 2:
            assert F.double_dummy_sure(int(masks[c]), int(r), 8, 1)
    # With four trumps the hand is always a jeu de règle; with five the point is always certain.
    trumps = hands().trumps
    free = np.array([[not (int(m) >> r) & 1 for r in range(8)] for m in masks])
    assert (tab[(trumps == 4)[:, None] & free] >= 1).all() and (tab[(trumps == 5)[:, None] & free] == 2).all()
    assert (tab[~free] == 0).all()


def test_dealer_holds_at_most_one_trump():
    """CLASSICAL.md's lower bounds: 0.6776 with one trump in elder's hand, 0.7643 with two."""
    assert F.p_dealer_at_most_one_trump(1) == pytest.approx(0.6776, abs=5e-5)
    assert F.p_dealer_at_most_one_trump(2) == pytest.approx(0.7643, abs=5e-5)
    assert F.p_dealer_at_most_one_trump(1) == (15504 + 6 * 4845) / 65780


def test_compare_foster_on_the_shipped_classic_tables(capsys):
    from analysis.ecarte.rules import get_rules

    r = F.compare_foster(get_rules("classic"))
    assert 0 < r["coverage"] <= 1 and 0 <= r["agreement"] <= 1
    lo, hi = r["cost"]["ci95"]
    assert lo <= r["cost"]["value"] <= hi
    assert sum(v["share"] for v in r["parts"].values()) == pytest.approx(1)
    assert r["win_lower_bound"]["value"] >= F.p_dealer_at_most_one_trump(0)
    # Wired into the classical comparison and its text.
    from analysis.cli import main

    main(["study", "ecarte", "classical", "--rules", "classic"])
    out = capsys.readouterr().out
    assert "elder (Foster)" in out and "jeux de règle win at least" in out

"""Differential test of the solver's players: the kernel's ``dd`` and ``search``
(analysis/piquet/players/search.py inside play/deal.play_dealt) and the reference's
(analysis/piquet/reference/search.py, a separate plain-Python reading of docs/piquet-engine.md) play
the same seeded deals and must agree on every outcome, every card included, deal by deal.

Both call the same numba solver for double-dummy values (checked against brute force in
tests/test_piquet_solver.py); what is compared here is everything around it: who may hold which
card, the declarations' evidence and the rejection draws from the deal's choices stream, the
running scores that give the pique state, the choice among the legal cards and its ties.
"""
from __future__ import annotations

import pytest

from analysis.piquet.engine.layout import O_PLAYED, OUTCOME_FIELDS
from analysis.piquet.play.deal import deal_outcomes
from analysis.piquet.policies import get_policy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference import search as ref_strong
from analysis.piquet.reference.records import record_from_deal, replay
from analysis.piquet.rules import get_rules, name_of

VARIANTS = ("seed-de", "seed-no", "cavendish")
SEARCH = ("search", ["samples=4"])
PAIRINGS = {  # elder's policy, younger's, deals
    "dd/dd": (("dd", []), ("dd", []), 60),
    "search/search": (SEARCH, SEARCH, 40),
    "search/heuristic": (SEARCH, ("heuristic", []), 50),
    "heuristic/dd": (("heuristic", []), ("dd", []), 60),
    "untracked-search/search": (("search", ["samples=4", "track_cards=0"]), SEARCH, 40),
    "random/search": (("random", []), SEARCH, 40),
    "no-pique-search/dd": (("search", ["samples=4", "play_for_pique=0"]), ("dd", ["play_for_pique=false"]), 40),
}


def first_difference(kernel_rows, reference_rows) -> str | None:
    """The first deal and field where the two sides differ, and the first card played
    differently, in words (None: they agree)."""
    for i, (k, r) in enumerate(zip(kernel_rows, reference_rows, strict=True)):
        k = [int(x) for x in k]
        if k != r:
            where = [j for j in range(len(k)) if k[j] != r[j]]
            text = f"deal {i}: {OUTCOME_FIELDS[where[0]]} kernel {k[where[0]]}, reference {r[where[0]]}"
            cards = [j for j in where if j >= O_PLAYED]
            if cards and cards[0] != where[0]:
                c = cards[0]
                text += (f"; first card played differently: {OUTCOME_FIELDS[c]} kernel "
                         f"{name_of(k[c])}, reference {name_of(r[c])}")
            return text
    return None


@pytest.mark.parametrize("pairing", PAIRINGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_and_reference_strong_players_agree_deal_by_deal(variant, pairing):
    (a, a_params), (b, b_params), n = PAIRINGS[pairing]
    rules = get_rules(variant)
    pe, py = get_policy(a, a_params), get_policy(b, b_params)
    seed = 7000 + 10 * VARIANTS.index(variant) + list(PAIRINGS).index(pairing)
    rows = deal_outcomes(seed, 0, n, rules.to_array(), pe.to_array(), py.to_array())
    mine = [ref.play_deal(seed, i, rules, pe, py).outcome_vector() for i in range(n)]
    where = first_difference(rows, mine)
    assert where is None, f"{variant} {pairing} seed {seed}: {where}"


def test_a_search_deal_replays_from_its_record_to_the_same_score():
    rules = get_rules("seed-no")
    pol = get_policy(*SEARCH)
    for i in range(3):
        r = ref.play_deal(5, i, rules, pol, pol)
        assert replay(record_from_deal(r, rules))["scores"] == r.scores


@pytest.mark.parametrize("name", ["dd", "search"])
def test_explain_narrates_a_strong_deal(name):
    pol = get_policy(name, ["samples=3"] if name == "search" else [])
    rules = get_rules("cavendish")
    text = ref.explain(1, 0, rules, pol)
    r = ref.play_deal(1, 0, rules, pol, pol)
    assert f"(elder {name}, younger {name})" in text
    assert text.endswith(f"Totals: elder {r.elder_total}, younger {r.younger_total}.")


def test_heuristic_and_random_deals_open_no_table(monkeypatch):
    """Without a dd or search player the reference builds no running scoresheet."""
    def refuse(*args):
        raise AssertionError("a Table was built for heuristic or random players")

    monkeypatch.setattr("analysis.piquet.reference.search.Table", refuse)
    ref.play_deal(3, 0, get_rules("seed-de"), get_policy("heuristic"), get_policy("random"))


def test_the_running_scores_are_the_deals_own_events(monkeypatch):
    """The strong players' sheet, trick by trick, holds the deal's scoring events but the cards."""
    rules = get_rules("seed-no")
    pol = get_policy("dd")
    tables = []

    def spy(*args):
        tables.append(ref_strong.open_table(*args))
        return tables[-1]

    monkeypatch.setattr(ref, "open_table", spy)
    for i in range(10):
        r = ref.play_deal(8, i, rules, pol, pol)
        table = tables[-1]
        assert table.sheet.events == [e for e in r.events if e.step != "the cards"]
        assert table.elder_tricks == r.scores["elder"]["tricks"]

"""Parties played for the partie (docs/piquet-engine.md, "Playing for the partie"): the kernel's
parties (play/partie with players/search's partie_totals) against the reference's
(reference/partie, a separate plain-Python reading of the docs), outcome by outcome; and the
parties' first dealer now matters to who plays the deciding deal as elder."""
from __future__ import annotations

import pytest

from analysis.piquet.play.deal import deal_outcomes
from analysis.piquet.play.partie import partie_results
from analysis.piquet.policies import get_policy
from analysis.piquet.reference import deal as ref
from analysis.piquet.rules import get_rules

VARIANTS = ("seed-de", "seed-no", "cavendish")
CASES = {  # policy, parameters, parties
    "dd-margin": ("dd", ["partie=margin"], 16),
    "dd-win": ("dd", ["partie=win"], 12),
    "search-margin": ("search", ["samples=3", "partie=margin"], 6),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_and_reference_parties_agree(variant, case):
    name, params, n = CASES[case]
    rules = get_rules(variant)
    p = get_policy(name, params)
    seed = 900 + VARIANTS.index(variant)
    rows = partie_results(seed, 0, n, rules.to_array(), p.to_array(), p.to_array())
    for g in range(n):
        assert [int(x) for x in rows[g]] == ref.play_partie(seed, g, rules, p).outcome_vector(), f"partie {g}"


def test_playing_for_the_margin_changes_some_parties_and_only_their_deciding_deals():
    rules = get_rules("cavendish")
    deal = get_policy("dd").to_array()
    margin = get_policy("dd", ["partie=margin"]).to_array()
    a = partie_results(5, 0, 200, rules.to_array(), deal, deal)
    b = partie_results(5, 0, 200, rules.to_array(), margin, margin)
    assert (a != b).any(axis=1).sum() > 0
    # Single deals (no partie) are untouched by the setting.
    assert (deal_outcomes(5, 0, 100, rules.to_array(), deal, deal)
            == deal_outcomes(5, 0, 100, rules.to_array(), margin, margin)).all()

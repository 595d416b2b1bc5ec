"""The Écarté discard rule fitted on pooled exchanges, and its use inside the equilibrium tables:
chosen only when better at 95%, used only when confirmed on other deals, and tables played with it
answer for the policy it replaced."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies.equilibrium import discard_rule


def test_fit_chooses_only_a_rule_better_at_95_percent_and_checks_it_elsewhere():
    rules = get_rules("classic")
    got = discard_rule.fit(rules, 4_000, 5, HeuristicPolicy())
    assert got["base"] == 7 and len(got["candidates"]) == len(discard_rule.CANDIDATES) - 1
    better = [d for d in got["candidates"].values() if d["ci95"][0] > 0]
    if better:
        best = max(d["value"] for d in better)
        assert got["candidates"][got["chosen_words"]]["value"] == best
        assert got["check_on_other_deals"] is not None
    else:
        assert got["chosen"] == 7 and got["check_on_other_deals"] is None
    # Keeping every plain card from the 9 up throws almost nothing: far worse than the kings rule.
    assert got["candidates"]["plain cards from the A up"]["ci95"][1] < 0


@pytest.mark.parametrize("chosen,check_lo,used", [(7, None, False), (8, 0.0004, True), (8, -0.0001, False),
                                                  (8, None, False)])
def test_play_policy_uses_the_rule_only_when_confirmed(chosen, check_lo, used):
    base = HeuristicPolicy()
    check = None if check_lo is None else {"value": check_lo + 0.001, "ci95": [check_lo, check_lo + 0.002]}
    play = discard_rule.play_policy(base, {"chosen": chosen, "check_on_other_deals": check})
    assert (play != base) == used
    assert play == (dataclasses.replace(base, keep_plain_min_rank=chosen) if used else base)


def test_tables_played_with_the_fitted_discards_answer_for_the_base_policy(tmp_path, monkeypatch):
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.study import play_words

    rules = get_rules("classic")
    base, play = HeuristicPolicy(), HeuristicPolicy(keep_plain_min_rank=8)
    assert "no plain card" in play_words(play) and "discards, later proposals" in play_words(base)
    import pandas as pd

    cols = ("value", "half_width", "held_out", "held_out_half_width", "probability", "p_proposal")
    df = pd.DataFrame({"side": ["elder"], "info_set": np.array([0], np.int32), **{c: [0] for c in cols}})
    df.to_parquet(tmp_path / "equilibrium_classic.parquet")
    for summary, answers in (({"policy": play.describe(), "base_policy": base.describe()}, (base, play)),
                             ({"policy": base.describe()}, (base,))):
        with open(tmp_path / "equilibrium_classic.json", "w") as f:
            json.dump({**summary, "switches": rules.switches()}, f)
        monkeypatch.setattr(T, "DATA_DIR", str(tmp_path))
        for pol in (base, play, HeuristicPolicy(keep_plain_min_rank=6)):
            assert (T.shipped(rules, pol, exact=True) is not None) == (pol in answers)

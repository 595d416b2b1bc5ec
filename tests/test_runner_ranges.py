"""Studies with one range of deals per item (analysis.runner.run_ranges): the same numbers as one
run per range, any chunk size, and the Écarté propose table stored and read back per class."""
import numpy as np
import pytest

from analysis import store
from analysis.ecarte.studies.simulate import propose_table
from analysis.piquet.play.tallies import deals_block
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules
from analysis.runner import run_ranges, run_tallies

ARGS = (get_rules().to_array(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array())


def test_each_range_sums_its_own_deals_whatever_the_chunk_size():
    ranges = [(0, 3000), (10_000, 1234), (1 << 32, 500)]
    expected = np.stack([run_tallies(deals_block, ARGS, n, 3, start=s, chunk=1000) for s, n in ranges])
    for chunk in (1000, 777):
        assert np.array_equal(run_ranges(deals_block, ARGS, ranges, 3, chunk=chunk), expected)


@pytest.mark.uses_store
def test_the_propose_table_is_read_back_from_the_store_and_extended(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", "off")
    fresh_short, fresh_long = propose_table(600, seed=2), propose_table(1000, seed=2)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    assert propose_table(600, seed=2).equals(fresh_short)
    [run] = store.runs()
    from analysis.blocks import block_name
    from analysis.ecarte.play.paired import class_block

    assert run["block"] == block_name(class_block) == "analysis.ecarte.play.paired.class_block"
    assert run["deals"] == 600 * len(fresh_short)
    saved = []
    monkeypatch.setattr(store.RunStore, "save", lambda self, s, c, rows: saved.append(c.tolist()))
    assert propose_table(600, seed=2).equals(fresh_short)  # read back: nothing computed
    assert saved == []
    assert propose_table(1000, seed=2).equals(fresh_long)  # per class: a new chunk of 1000
    assert saved == [[1000] * len(fresh_short)]

"""``salon bench`` measures what it plays: the result store stays off while it runs (nothing read
back, nothing written), so a second run does the first run's work again."""
import json
import os

import pytest


@pytest.mark.uses_store
def test_bench_never_reads_or_writes_the_result_store(tmp_path, monkeypatch, salon):
    from analysis import store
    from analysis.bezique.play import tallies

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path / "store"))
    played, roots = [], []
    real_block, real_root = tallies.deals_block, store.root

    def counting_block(seed, starts, counts, *arrays):
        played.append(int(counts.sum()))
        return real_block(seed, starts, counts, *arrays)

    def watched_root():
        roots.append(real_root())
        return roots[-1]

    monkeypatch.setattr(tallies, "deals_block", counting_block)
    monkeypatch.setattr(store, "root", watched_root)
    runs = []
    for _ in range(2):
        played.clear()
        code, out, err = salon(["bench", "bezique", "--deals", "2000", "--reference-deals", "2", "--repeats", "1",
                                "--json"])
        assert code == 0, err
        runs.append((list(played), json.loads(out)))
    (first, res), (second, _) = runs
    assert first == second and sum(first) >= 2 * 2000  # the kernel ran every measured deal, both times
    assert res["result_store"] == "off" and res["full"] is False and len(res["results"]) >= 1
    assert all(r is None for r in roots)  # whatever asked for the store was told it is off
    assert not (tmp_path / "store").exists()
    assert os.environ["SALON_RESULTS"] == str(tmp_path / "store")  # and it is on again afterwards


def test_bench_text_says_where_the_players_figures_are(salon):
    code, out, err = salon(["bench", "bezique", "--deals", "1000", "--reference-deals", "1", "--repeats", "1"])
    assert code == 0, err
    assert "bezique: 1 thread(s)" in out and "salon bench bezique --full" in out

"""The Dask backend: a real local cluster on loopback (a scheduler and two worker processes) gives
the same tallies as the local backend, bit for bit, even when a worker is killed mid-study; the
Piquet discard study (hands sent to the workers in batches) gives the same table."""
import os
import signal

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from analysis import runner  # noqa: E402
from analysis.bezique.studies import simulate as bezique_studies  # noqa: E402
from analysis.dask_backend import DaskBackend  # noqa: E402
from analysis.piquet.play.tallies import deals_block  # noqa: E402
from analysis.piquet.policies import HeuristicPolicy  # noqa: E402
from analysis.piquet.rules import get_rules  # noqa: E402
from analysis.piquet.studies.discards import study as DS  # noqa: E402

ARGS = (get_rules().to_array(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array())


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        yield c


@pytest.fixture
def backend(cluster, monkeypatch):
    b = DaskBackend(cluster.scheduler_address)
    monkeypatch.setattr(runner, "BATCH_DEALS", 20_000)  # many small batches, finishing in any order
    runner.use_backend(b)
    yield b
    runner.use_backend(None)
    b.client.close()


def test_dask_tallies_equal_the_local_ones(backend):
    on_dask = runner.run_tallies(deals_block, ARGS, 300_000, 11, chunk=4096)
    b = bezique_studies.simulate_deals(30_000, seed=4)
    runner.use_backend(None)
    local = runner.run_tallies(deals_block, ARGS, 300_000, 11, chunk=4096, threads=1)
    assert np.array_equal(on_dask, local)
    assert b["tallies"] == bezique_studies.simulate_deals(30_000, seed=4)["tallies"]


def test_a_killed_worker_costs_only_its_batch(backend):
    runner.use_backend(None)
    local = runner.run_tallies(deals_block, ARGS, 600_000, 12, chunk=4096)
    starts, counts = runner.chunk_bounds(0, 600_000, 4096)
    batches = [(starts[b:b + 4], counts[b:b + 4]) for b in range(0, len(starts), 4)]
    pids = backend.client.run(os.getpid)
    total = np.zeros_like(local)
    killed = False
    for _, _, rows in backend.map_batches(deals_block, 12, batches, ARGS):
        total += rows.sum(axis=0)
        if not killed:
            os.kill(next(iter(pids.values())), signal.SIGKILL)  # a worker dies with batches queued
            killed = True
    assert killed and np.array_equal(total, local)


def test_a_bad_scheduler_address_is_one_line_error(capsys, monkeypatch):
    import distributed

    from analysis.cli import main

    real = distributed.Client  # the backend waits 10 s for a scheduler; 1 s tells as well that none answers
    monkeypatch.setattr(distributed, "Client", lambda address, timeout=None, **kw: real(address, timeout="1s", **kw))

    with pytest.raises(SystemExit) as e:
        main(["--scheduler", "tcp://127.0.0.1:9", "simulate", "piquet", "--deals", "10"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1


def _same(df, want):
    assert list(df.columns) == list(want.columns) and list(df.dtypes) == list(want.dtypes)
    pd.testing.assert_frame_equal(df, want, check_exact=True)
    assert df.equals(want) and {**df.attrs, "hands": len(want)} == {**want.attrs, "hands": len(want)}


def test_the_discard_study_on_dask_equals_the_local_one(backend, monkeypatch):
    monkeypatch.setattr(DS, "DASK_HANDS", 2)  # several tasks per worker, finishing in any order
    calls = []
    real = backend.map_calls
    monkeypatch.setattr(backend, "map_calls", lambda name, c: calls.append(c) or real(name, c))
    younger = DS.study_hands(7, "younger", samples=300, seed=5)
    elder = DS.study_hands(4, "elder", samples=300, seed=6)
    assert [[c[0] for c in batch] for batch in calls] == [[[0, 1], [2, 3], [4, 5], [6]], [[0, 1], [2, 3]]]
    runner.use_backend(None)
    _same(younger, DS.study_hands(7, "younger", samples=300, seed=5))
    _same(elder, DS.study_hands(4, "elder", samples=300, seed=6))


@pytest.mark.uses_store
def test_the_discard_study_on_dask_fills_the_store(backend, monkeypatch, tmp_path):
    from analysis import store

    monkeypatch.setenv("SALON_RESULTS", "off")
    runner.use_backend(None)
    want = DS.study_hands(8, "younger", samples=300, seed=8)
    runner.use_backend(backend)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _same(DS.study_hands(3, "younger", samples=300, seed=8), want.iloc[:3])
    _same(DS.study_hands(8, "younger", samples=300, seed=8), want)  # hands 3-7 on the workers
    [run] = store.runs()
    assert run["items"] == 8 and run["files"] == 3  # hands 0-2, then 3-6 and 7 (DASK_HANDS = 4)
    runner.use_backend(None)
    monkeypatch.setattr(DS, "analyse_hand", lambda *a, **k: pytest.fail("a stored hand was recomputed"))
    _same(DS.study_hands(8, "younger", samples=300, seed=8), want)


def test_the_solvers_players_on_dask_equal_the_local_ones(backend):
    """dd and search (the solver in the kernel, its memory per chunk) give the same compare tallies
    on the workers as locally."""
    from analysis.piquet.play.compare import compare_tallies
    from analysis.piquet.policies import get_policy

    rules = get_rules("cavendish")
    pairs = [(get_policy("search", ["samples=3"]), get_policy("dd"))]
    on_dask = [compare_tallies(40, 12, rules, a, b) for a, b in pairs]
    runner.use_backend(None)
    local = [compare_tallies(40, 12, rules, a, b, threads=1) for a, b in pairs]
    assert all(np.array_equal(x, y) for x, y in zip(on_dask, local, strict=True))

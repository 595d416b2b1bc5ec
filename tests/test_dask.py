"""The Dask backend: a real local cluster on loopback (a scheduler and two worker processes) gives
the same tallies as the local backend, bit for bit, even when a worker is killed mid-study."""
import os
import signal

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from analysis import runner  # noqa: E402
from analysis.bezique import studies as bezique_studies  # noqa: E402
from analysis.dask_backend import DaskBackend  # noqa: E402
from analysis.piquet import kernel as K  # noqa: E402
from analysis.piquet.policies import HeuristicPolicy  # noqa: E402
from analysis.piquet.rules import get_rules  # noqa: E402

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
    on_dask = runner.run_tallies(K.deals_block, ARGS, 300_000, 11, chunk=4096)
    b = bezique_studies.simulate_deals(30_000, seed=4)
    runner.use_backend(None)
    local = runner.run_tallies(K.deals_block, ARGS, 300_000, 11, chunk=4096, threads=1)
    assert np.array_equal(on_dask, local)
    assert b["tallies"] == bezique_studies.simulate_deals(30_000, seed=4)["tallies"]


def test_a_killed_worker_costs_only_its_batch(backend):
    runner.use_backend(None)
    local = runner.run_tallies(K.deals_block, ARGS, 600_000, 12, chunk=4096)
    starts, counts = runner.chunk_bounds(0, 600_000, 4096)
    batches = [(starts[b:b + 4], counts[b:b + 4]) for b in range(0, len(starts), 4)]
    pids = backend.client.run(os.getpid)
    total = np.zeros_like(local)
    killed = False
    for _, _, rows in backend.map_batches(K.deals_block, 12, batches, ARGS):
        total += rows.sum(axis=0)
        if not killed:
            os.kill(next(iter(pids.values())), signal.SIGKILL)  # a worker dies with batches queued
            killed = True
    assert killed and np.array_equal(total, local)


def test_a_bad_scheduler_address_is_one_line_error(capsys):
    from analysis.cli import main

    with pytest.raises(SystemExit) as e:
        main(["--scheduler", "tcp://127.0.0.1:9", "simulate", "piquet", "--deals", "10"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1

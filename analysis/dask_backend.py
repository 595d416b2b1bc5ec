"""Runs the runner's batches of chunks on a Dask distributed cluster (``--scheduler``, ``--workers``).

A task is one batch of chunks: the worker imports the kernel block by its module and name from
the installed package (nothing is pickled from ``__main__``), runs it on its own threads and
returns the integer tally rows. The client sums them, so the total is bit-identical to the local
backend whatever the number of workers or the order the batches finish in. A batch on a worker
that dies is run again elsewhere by the scheduler; its numbers are the same.

Studies that work item by item (the Piquet discard study) use :meth:`DaskBackend.map_calls`: a
task calls a module-level function named ``module.function`` with plain arguments, on the worker,
and the client puts the results back in order.
"""
from __future__ import annotations

import re

import numpy as np

from analysis.blocks import block_name, function_by_name, set_threads
from analysis.errors import InputError

INSTALL_EXTRA = "pip install 'salon-analysis[dask]'"
"""How to install what ``--scheduler`` and ``--workers`` need."""
_ADDRESS = re.compile(r"(?:(tcp|tls|ucx|ws|wss)://)?([^\s/:\[\]]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})")


def check_address(address: str) -> None:
    """A scheduler address is ``tcp://HOST:PORT`` (or tls, ucx, ws, wss; ``HOST:PORT`` means tcp)."""
    m = _ADDRESS.fullmatch(address.strip())
    if m is None or not 0 < int(m.group(3)) < 65536:
        raise InputError(f"--scheduler {address!r} is not a scheduler address: write tcp://HOST:PORT, "
                         "e.g. tcp://127.0.0.1:8786")


def require_distributed(option: str) -> None:
    """Bad input, said in one line, when the Dask extra (dask.distributed) is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError(f"{option} needs the dask extra, which is not installed: {INSTALL_EXTRA}") from None


def run_batch(name: str, seed: int, starts: np.ndarray, counts: np.ndarray, args: tuple,
              threads: int) -> np.ndarray:
    """On a worker: the tally rows of one batch of chunks."""
    block = function_by_name(name)
    set_threads(threads)
    return block(seed, starts, counts, *args)


def run_call(name: str, args: tuple):
    """On a worker: ``module.function(*args)``, the function imported by name."""
    return function_by_name(name)(*args)


class DaskBackend:
    """A connection to a cluster: an existing scheduler's address, or a local cluster of N worker
    processes (one thread each) started here and closed with :meth:`close`."""

    def __init__(self, scheduler: str | None = None, workers: int | None = None, threads_per_worker: int = 1):
        if scheduler:
            check_address(scheduler)
        require_distributed("--scheduler" if scheduler else "--workers")
        from distributed import Client, LocalCluster

        self.cluster = None
        self.threads = threads_per_worker
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, ValueError, TypeError) as e:
                raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        else:
            if workers is None or workers < 1:
                raise InputError(f"--workers must be at least 1, not {workers}")
            self.cluster = LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker, processes=True,
                                        host="127.0.0.1", dashboard_address=None)
            self.client = Client(self.cluster)
            from analysis import interrupts

            interrupts.on_stop(self._no_restarts)

    def _no_restarts(self) -> None:
        """On Ctrl-C (analysis/interrupts.py), before the worker processes are ended: the local
        cluster's nannies do not start them again."""
        from distributed.core import Status

        for nanny in list(getattr(self.cluster, "workers", {}).values()):
            nanny.status = Status.closing

    def map_batches(self, block, seed: int, batches: list[tuple[np.ndarray, np.ndarray]], args: tuple):
        """Yield (starts, counts, rows) for every batch, as the batches finish."""
        from distributed import as_completed

        name = block_name(block)
        futures = {self.client.submit(run_batch, name, seed, s, c, args, self.threads, pure=False,
                                      retries=2): (s, c) for s, c in batches}
        for fut in as_completed(futures):
            s, c = futures[fut]
            yield s, c, fut.result()

    def map_calls(self, name, calls: list[tuple]):
        """Yield (i, result) of ``name(*calls[i])`` for every call, as the calls finish. ``name`` is
        a module-level function's ``module.function`` (or the function itself): the worker imports
        it (nothing is pickled from ``__main__``); a call on a worker that dies is run again elsewhere."""
        from distributed import as_completed

        if not isinstance(name, str):
            name = block_name(name)
        futures = {self.client.submit(run_call, name, tuple(args), pure=False, retries=2): i
                   for i, args in enumerate(calls)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

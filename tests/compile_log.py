"""Where a cold suite's compile time goes: with SALON_COMPILE_LOG=FILE set, every numba compilation
in the test processes appends one line to FILE (process, test, nesting depth, function, seconds in
all, seconds of its own); ``python tests/compile_log.py FILE`` sums them per kernel, per test file
and per game, and counts what both xdist workers compiled. Subprocesses and notebooks are not
logged. Used by tests/conftest.py; the log is off unless the variable is set.

  rm -rf /tmp/cold && XDG_CACHE_HOME=/tmp/cold SALON_COMPILE_LOG=/tmp/compile.log scripts/test
  .venv/bin/python tests/compile_log.py /tmp/compile.log"""
from __future__ import annotations

import os
import sys
import time
from collections import defaultdict

CURRENT = ["(collection)"]
"""The test running in this process (set by conftest's hook)."""


def install(path: str) -> None:
    """Log every compilation of this process to ``path`` (numba's "numba:compile" event)."""
    from numba.core import event

    open_starts: list[list[float]] = []  # [start, seconds spent compiling callees]

    class CompileLog(event.Listener):
        def on_start(self, ev):
            open_starts.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            start, callees = open_starts.pop()
            seconds = time.perf_counter() - start
            if open_starts:
                open_starts[-1][1] += seconds
            f = ev.data["dispatcher"].py_func
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"{os.getpid()}\t{CURRENT[0]}\t{len(open_starts)}\t{f.__module__}.{f.__qualname__}\t"
                         f"{seconds:.3f}\t{seconds - callees:.3f}\n")

    event.register("numba:compile", CompileLog())


def summary(path: str, top: int = 25) -> str:
    """The log's sums: per kernel, per test file, per game's sub-package; and the duplicates."""
    rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8") if line.strip()]
    own = [float(r[5]) for r in rows]
    kernel, test_file, package = defaultdict(float), defaultdict(float), defaultdict(float)
    processes = defaultdict(set)
    for (pid, test, _depth, fn, _all, _own), s in zip(rows, own, strict=True):
        kernel[fn] += s
        test_file[test.split("::")[0]] += s
        parts = fn.split(".")
        package[".".join(parts[:3]) if parts[0] == "analysis" else parts[0]] += s
        processes[fn].add(pid)
    twice = [fn for fn, p in processes.items() if len(p) > 1]
    lines = [f"{len(rows)} compilations, {sum(own):.0f} s of compiling in {len({r[0] for r in rows})} processes; "
             f"{len(twice)} functions compiled by more than one process ({sum(kernel[f] for f in twice):.0f} s)"]
    for title, sums in (("kernels", kernel), ("test files", test_file), ("packages", package)):
        lines.append(f"\nby {title} (seconds of their own compiling):")
        lines += [f"  {s:7.1f}  {name}" for name, s in sorted(sums.items(), key=lambda kv: -kv[1])[:top]]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1]))

"""The result store: finished chunks' integer tallies as Parquet, keyed by the run's full spec.

A run of ``runner.run_tallies`` is keyed by a hash of everything that decides its numbers: the
kernel block (module and name), its argument arrays (rules and policies), the seed, the chunk
size, the package version and a fingerprint of the package's source files (so an edited kernel
never reuses old tallies). Its finished chunks are written batch by batch to
``ROOT/KEY/part-<first>-<last>.parquet`` (the spec beside them as ``_spec.json``) (write to a temporary file, then rename: a run killed at
any moment leaves no partial file), with provenance columns. A repeated run reads the chunks it
finds instead of computing them; a run with more deals reuses the chunks it has, so a run
interrupted by Ctrl-C or ``kill -9`` continues where it stopped, with identical numbers.

ROOT is ``$SALON_RESULTS`` or ``~/.cache/salon``; ``SALON_RESULTS=off`` turns the store off.
A corrupt or foreign file is reported on stderr and skipped.
"""
from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

from analysis import __version__

OFF = ("off", "none", "0", "")


def root() -> Path | None:
    """The store's directory, or None when the store is off."""
    value = os.environ.get("SALON_RESULTS")
    if value is None:
        return Path.home() / ".cache" / "salon"
    if value.strip().lower() in OFF:
        return None
    return Path(value).expanduser()


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of the package's Python sources (any edit changes every key)."""
    h = hashlib.sha256()
    base = Path(__file__).resolve().parent
    for path in sorted(base.rglob("*.py")):
        h.update(str(path.relative_to(base)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def run_spec(block, args: tuple, seed: int, chunk: int) -> dict:
    """What decides a run's tallies (the key is its hash; the store keeps it as _spec.json)."""
    from analysis.dask_backend import block_name

    return {
        "block": block_name(block),
        "args": [np.asarray(a).tolist() for a in args],
        "seed": int(seed), "chunk": int(chunk), "version": __version__, "code": code_fingerprint(),
    }


def spec_key(spec: dict) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]


def _warn(message: str) -> None:
    print(f"salon: results store: {message}", file=sys.stderr)


class RunStore:
    """The stored chunks of one run spec."""

    def __init__(self, base: Path, spec: dict) -> None:
        self.spec = spec
        self.key = spec_key(spec)
        self.dir = base / self.key

    def load(self) -> dict[tuple[int, int], np.ndarray]:
        """Stored chunks: (start, count) -> tally row. Unreadable or foreign files are skipped."""
        import pyarrow.parquet as pq

        found: dict[tuple[int, int], np.ndarray] = {}
        if not self.dir.is_dir():
            return found
        for path in sorted(self.dir.glob("part-*.parquet")):
            try:
                t = pq.read_table(path).to_pydict()
                if any(k != self.key for k in t["key"]):
                    raise ValueError("it belongs to another run")
                for s, c, row in zip(t["start"], t["count"], t["tallies"], strict=True):
                    found[(int(s), int(c))] = np.asarray(row, dtype=np.int64)
            except Exception as e:  # noqa: BLE001 - any unreadable file is reported and skipped
                _warn(f"skipped {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return found

    def save(self, starts: np.ndarray, counts: np.ndarray, rows: np.ndarray) -> None:
        """Write finished chunks atomically (temporary file, then rename). A store that cannot be
        written is reported once and the run goes on without it (nothing computed is lost)."""
        if getattr(self, "failed", False):
            return
        try:
            self._write(starts, counts, rows)
        except OSError as e:
            self.failed = True
            _warn(f"cannot write to {self.dir} ({e.strerror or e}); the run goes on without the store")

    def _write(self, starts: np.ndarray, counts: np.ndarray, rows: np.ndarray) -> None:
        import numba
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.dir.mkdir(parents=True, exist_ok=True)
        spec_path = self.dir / "_spec.json"
        if not spec_path.exists():
            tmp = spec_path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(self.spec, sort_keys=True))
            os.replace(tmp, spec_path)
        n = len(starts)
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        table = pa.table({
            "key": [self.key] * n, "start": [int(s) for s in starts], "count": [int(c) for c in counts],
            "tallies": [r.tolist() for r in rows], "block": [self.spec["block"]] * n,
            "spec": [json.dumps(self.spec, sort_keys=True)] * n,
            "seed": [self.spec["seed"]] * n, "version": [__version__] * n, "numba": [numba.__version__] * n,
            "written": [now] * n,
        })
        final = self.dir / f"part-{int(starts[0]):020d}-{int(starts[-1] + counts[-1]):020d}.parquet"
        tmp = self.dir / f".{final.name}.tmp{os.getpid()}"
        pq.write_table(table, tmp)
        os.replace(tmp, final)


def open_run(block, args: tuple, seed: int, chunk: int) -> RunStore | None:
    """The run's store, or None when the store is off."""
    base = root()
    if base is None:
        return None
    return RunStore(base, run_spec(block, args, seed, chunk))


# ------------------------------------------------------------------------------------------ queries
def runs(base: Path | None = None) -> list[dict]:
    """Every stored run: key, block, seed, chunks, deals covered, files."""
    base = base or root()
    out = []
    if base is None or not base.is_dir():
        return out
    for d in sorted(p for p in base.iterdir() if p.is_dir()):
        try:
            spec = json.loads((d / "_spec.json").read_text())
        except (OSError, ValueError):
            _warn(f"skipped {d}: no readable _spec.json")
            continue
        chunks = RunStore(base, spec).load()
        out.append({"key": d.name, "block": spec.get("block"), "seed": spec.get("seed"),
                    "version": spec.get("version"), "chunks": len(chunks),
                    "deals": sum(c for _, c in chunks), "files": len(list(d.glob("part-*.parquet")))})
    return out


def run_table(key: str, base: Path | None = None):
    """The stored chunks of run ``key`` as a pandas DataFrame (one row per chunk)."""
    import pandas as pd
    import pyarrow.parquet as pq

    from analysis.errors import InputError

    base = base or root()
    d = (base / key) if base else None
    if d is None or not (d / "_spec.json").exists():
        raise InputError(f"no stored run {key!r}; `salon results list` shows the keys")
    frames = []
    for path in sorted(d.glob("part-*.parquet")):
        try:
            frames.append(pq.read_table(path).to_pandas())
        except Exception as e:  # noqa: BLE001
            _warn(f"skipped {path}: {type(e).__name__}")
    if not frames:
        return pd.DataFrame(columns=["key", "start", "count", "tallies"])
    return pd.concat(frames, ignore_index=True).sort_values("start").reset_index(drop=True)


def prune(base: Path | None = None) -> list[str]:
    """Remove temporary files left by killed runs and unreadable part files; their paths."""
    import pyarrow.parquet as pq

    base = base or root()
    removed = []
    if base is None or not base.is_dir():
        return removed
    for path in base.rglob("*"):
        if not path.is_file():
            continue
        bad = ".tmp" in path.name
        if not bad and path.name.startswith("part-"):
            try:
                pq.read_metadata(path)
            except Exception:  # noqa: BLE001
                bad = True
        if bad:
            path.unlink()
            removed.append(str(path))
    return removed

"""The result store: finished work of every run as Parquet, keyed by the run's full spec.

Two kinds of run share it:

- **chunks**: a run of ``runner.run_tallies`` is keyed by a hash of everything that decides its
  numbers: the kernel block (module and name), its argument arrays (rules and policies), the seed,
  the chunk size, the package version and a fingerprint of the package's source and data files
  (so an edited kernel or refitted weights never reuse old tallies). Its finished chunks' integer tallies are written batch
  by batch to ``ROOT/KEY/part-<first>-<last>.parquet``.
- **items**: a study that analyses many items one by one (the Piquet discard study: one row per
  dealt hand) is keyed by a hash of its study name and spec (seat, rules, policies, samples,
  seed, ..., the package version and the code fingerprint; not the number of items, so a larger
  study reuses the items it has). Its finished items (item number -> row dict, stored as JSON
  text: ints, floats and bools come back exactly) are written to
  ``ROOT/KEY/items-<first>-<last>.parquet``.

Either way the spec is kept beside the files as ``_spec.json``, every row carries provenance
columns (spec, seed, version, numba version, written time), and files are written atomically
(temporary file, then rename: a run killed at any moment leaves no partial file). A repeated run
reads what it finds instead of computing it; a run interrupted by Ctrl-C or ``kill -9``
continues where it stopped, with identical numbers.

ROOT is ``$SALON_RESULTS`` or ``~/.cache/salon``; ``SALON_RESULTS=off`` turns the store off.
A corrupt or foreign file is reported on stderr and skipped; a store that cannot be written is
reported once and the run goes on without it.
"""
from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Callable

import numpy as np

from analysis import __version__

OFF = ("off", "none", "0", "")
KINDS = {"chunks": "part-*.parquet", "items": "items-*.parquet"}
"""The kinds of run and the glob of their data files."""

WRITE_LOCK = threading.Lock()
"""Held while a file is written: Ctrl-C (analysis/interrupts.py) waits for it, so a write under
way is finished (renamed to its final name, no temporary file left) before the process exits."""
_kept: dict[str, set] = {kind: set() for kind in KINDS}
"""What this process found in the store or wrote to it: (run key, chunk start or item) per kind."""
_written: set[str] = set()
"""The data files this process wrote."""


def _keep(kind: str, key: str, ids) -> None:
    _kept[kind].update((key, i) for i in ids)


def kept_counts() -> dict[str, int]:
    """Chunks and items of this process's runs that are in the store (found there or written):
    what survives an interruption."""
    return {kind: len(ids) for kind, ids in _kept.items()}


def written_elsewhere(since: float) -> dict[str, int]:
    """Chunks and items in the data files that other processes (a command's worker processes)
    wrote to the store since the time ``since``."""
    counts = {kind: 0 for kind in KINDS}
    base = root()
    if base is None or not base.is_dir():
        return counts
    for d in base.iterdir():
        for kind, pattern in KINDS.items():
            for f in d.glob(pattern) if d.is_dir() else ():
                try:
                    if str(f) in _written or f.stat().st_mtime < since:
                        continue
                    import pyarrow.parquet as pq

                    counts[kind] += pq.read_metadata(f).num_rows
                except Exception:  # noqa: BLE001 - a file removed meanwhile or unreadable is not counted
                    pass
    return counts


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
    """A hash of the package's Python sources and data files (any edit changes it): the guide's
    provenance."""
    return fingerprint(Path(__file__).resolve().parent)


@functools.lru_cache(maxsize=None)
def module_fingerprint(module: str, package: Path | None = None) -> str:
    """A hash of what the code of ``module`` can read: its import closure in the package and the
    package's data files (``analysis.sources``), by relative path and content. A store key holds
    the fingerprint of its kernel's or study's module, so an edit elsewhere (the command line, the
    guide, another game) leaves its results readable, and an edit inside the closure recomputes."""
    from analysis.sources import data_files, files_digest, import_closure, module_file

    package = package or Path(__file__).resolve().parent
    if not module.startswith(package.name + "."):  # code from outside the package: the whole package
        return fingerprint(package)
    return files_digest(package, import_closure(package, [module_file(package, module)]) | data_files(package))


def fingerprint(base: Path) -> str:
    """A hash of the ``.py`` files under ``base`` and of every file in a ``data`` folder (fitted
    weights and solved tables decide numbers as the code does), by relative path and content."""
    from analysis.sources import files_digest

    return files_digest(base, [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                               and (p.suffix == ".py" or "data" in p.relative_to(base).parts[:-1])])


BIG_ARG = 1000
"""Argument arrays longer than this are kept in the spec by their hash (e.g. decision tables)."""


def spec_arg(a) -> object:
    """An argument array as the spec holds it: its values, or for a big one its shape, dtype and hash."""
    a = np.asarray(a)
    if a.size <= BIG_ARG:
        return a.tolist()
    data = np.ascontiguousarray(a)
    return {"shape": list(a.shape), "dtype": str(a.dtype), "sha256": hashlib.sha256(data.tobytes()).hexdigest()}


def run_spec(block, args: tuple, seed: int, chunk: int) -> dict:
    """What decides a run's tallies (the key is its hash; the store keeps it as _spec.json)."""
    from analysis.blocks import block_name

    name = block_name(block)
    return {
        "block": name,
        "args": [spec_arg(a) for a in args],
        "seed": int(seed), "chunk": int(chunk), "version": __version__,
        "code": module_fingerprint(name.rsplit(".", 1)[0]),
    }


def items_spec(study: str, spec: dict, module: str) -> dict:
    """What decides an item study's rows: its name, its spec (JSON values), version, and the
    fingerprint of the study code's ``module``."""
    return {"kind": "items", "study": study, **spec, "version": __version__, "module": module,
            "code": module_fingerprint(module)}


def spec_module(spec: dict) -> str | None:
    """The module whose code made a stored run: its study's, or its kernel block's."""
    return spec.get("module") or (spec["block"].rsplit(".", 1)[0] if spec.get("block") else None)


def made_by_current_code(spec: dict, package: Path | None = None) -> bool:
    """Whether the current code would key this spec's results as it did: its module still exists
    and its fingerprint is the one stored (else no current key can reach the run)."""
    from analysis.sources import module_file

    package = package or Path(__file__).resolve().parent
    module = spec_module(spec)
    if not module or not module.startswith(package.name + ".") or not module_file(package, module).is_file():
        return False
    return spec.get("code") == module_fingerprint(module, package)


def spec_key(spec: dict) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:20]


def kind_of(spec: dict) -> str:
    """``chunks`` (a runner run) or ``items`` (an item study)."""
    return spec.get("kind", "chunks")


def _warn(message: str) -> None:
    print(f"salon: results store: {message}", file=sys.stderr)


def _why(e: Exception) -> str:
    """The first line of an exception's message, or its type."""
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _plain(value):
    """JSON for numpy scalars (their Python value); anything else JSON cannot hold is an error."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a stored row holds a {type(value).__name__}, which JSON cannot keep exactly")


def _write_spec(directory: Path, spec: dict) -> None:
    """``_spec.json`` of a run, written once, atomically."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "_spec.json"
    if not path.exists():
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(spec, sort_keys=True))
        os.replace(tmp, path)


def _provenance(spec: dict, n: int) -> dict:
    """The provenance columns of n rows: spec, seed, salon and numba versions, time written."""
    import numba

    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    return {"spec": [json.dumps(spec, sort_keys=True)] * n, "seed": [spec.get("seed")] * n,
            "version": [__version__] * n, "numba": [numba.__version__] * n, "written": [now] * n}


def _write_table(final: Path, columns: dict) -> None:
    """Write a Parquet file atomically: a temporary file beside it, then rename."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = final.with_name(f".{final.name}.tmp{os.getpid()}")
    pq.write_table(pa.table(columns), tmp)
    os.replace(tmp, final)
    _written.add(str(final))


class CorruptFile(ValueError):
    """A stored file whose rows do not match their checksums."""


def row_checksum(key: str, *fields) -> str:
    """The checksum stored beside each row: a hash of the run's key and the row's fields (numbers,
    text, or a tally row as int64 bytes)."""
    h = hashlib.blake2b(key.encode(), digest_size=8)
    for f in fields:
        h.update(b"|")
        h.update(np.asarray(f, dtype=np.int64).tobytes() if isinstance(f, (list, np.ndarray)) else str(f).encode())
    return h.hexdigest()


def _check_rows(t: dict, key: str, fields: tuple[str, ...]) -> None:
    """Every row's checksum against its fields, or CorruptFile."""
    sums = t.get("checksum")
    if sums is None:
        raise CorruptFile("it has no checksums")
    for k, stored in enumerate(sums):
        if stored != row_checksum(key, *(t[f][k] for f in fields)):
            raise CorruptFile(f"row {k + 1} does not match its checksum")


class _Stored:
    """The stored files of one run spec (shared by RunStore and ItemStore). Each row carries a
    checksum of its fields; a file whose rows do not match is reported, set aside (renamed
    ``*.corrupt``, which ``prune`` removes) and its work done again."""

    kind = ""

    def __init__(self, base: Path, spec: dict) -> None:
        self.spec = spec
        self.key = spec_key(spec)
        self.dir = base / self.key
        self.failed = False

    def files(self) -> list[Path]:
        return sorted(self.dir.glob(KINDS[self.kind])) if self.dir.is_dir() else []

    def _read(self, parse: Callable[[dict], list]) -> list:
        """``parse(columns)`` of every own file, in file order; unreadable or foreign files are skipped."""
        import pyarrow.parquet as pq

        out = []
        for path in self.files():
            try:
                t = self._columns(pq.read_table(path))
                if any(k != self.key for k in t["key"]):
                    raise ValueError("it belongs to another run")
                _check_rows(t, self.key, self.fields)
                out.extend(parse(t))
            except CorruptFile as e:
                aside = path.with_name(path.name + ".corrupt")
                try:
                    os.replace(path, aside)
                except OSError:
                    aside = path
                _warn(f"set aside {aside}: {e}; its work is done again")
            except Exception as e:  # noqa: BLE001 - any unreadable file is reported and skipped
                _warn(f"skipped {path}: {_why(e)}")
        return out

    def _columns(self, table) -> dict:
        """A file's columns as its checks and its reader take them."""
        return table.to_pydict()

    def save(self, *args) -> None:
        """Write finished work atomically. A store that cannot be written is reported once and the
        run goes on without it (nothing computed is lost)."""
        if self.failed:
            return
        try:
            with WRITE_LOCK:
                _write_spec(self.dir, self.spec)
                self._write(*args)
        except OSError as e:
            self.failed = True
            _warn(f"cannot write to {self.dir} ({e.strerror or e}); the run goes on without the store")

    def _write(self, *args) -> None:
        raise NotImplementedError


class RunStore(_Stored):
    """The stored chunks of one run spec."""

    kind = "chunks"
    fields = ("start", "count", "tallies")

    def load(self) -> dict[tuple[int, int], np.ndarray]:
        """Stored chunks: (start, count) -> tally row. Unreadable or foreign files are skipped."""
        found = dict(self._read(lambda t: [((int(s), int(c)), row) for s, c, row
                                           in zip(t["start"], t["count"], t["tallies"], strict=True)]))
        _keep(self.kind, self.key, found)
        return found

    def _columns(self, table) -> dict:
        """The tally rows as one int64 array (rows of unequal lengths: a ValueError, the file skipped)."""
        t = {name: table.column(name).to_pylist() for name in ("key", "start", "count", "checksum")
             if name in table.column_names}
        lists = table.column("tallies").combine_chunks()
        lengths = np.diff(lists.offsets.to_numpy())
        if len(lengths) and (lists.null_count or np.any(lengths != lengths[0])):
            raise ValueError("its tally rows differ in length")
        values = np.asarray(lists.flatten().to_numpy(zero_copy_only=False), dtype=np.int64)
        t["tallies"] = values.reshape(len(lists), lengths[0] if len(lengths) else 0)
        return t

    def save(self, starts: np.ndarray, counts: np.ndarray, rows: np.ndarray) -> None:
        super().save(starts, counts, rows)

    def _write(self, starts: np.ndarray, counts: np.ndarray, rows: np.ndarray) -> None:
        import pyarrow as pa

        n = len(starts)
        final = self.dir / f"part-{int(starts[0]):020d}-{int(starts[-1] + counts[-1]):020d}.parquet"
        starts, counts = [int(s) for s in starts], [int(c) for c in counts]
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        width = rows.shape[1]
        tallies = pa.ListArray.from_arrays(pa.array(np.arange(0, n * width + 1, width, dtype=np.int32)),
                                           pa.array(rows.reshape(-1)))
        _write_table(final, {
            "key": [self.key] * n, "start": starts, "count": counts, "tallies": tallies,
            "checksum": [row_checksum(self.key, *f) for f in zip(starts, counts, rows, strict=True)],
            "block": [self.spec["block"]] * n, **_provenance(self.spec, n),
        })
        _keep(self.kind, self.key, zip((int(s) for s in starts), (int(c) for c in counts), strict=True))


class ItemStore(_Stored):
    """The stored items of one item study (item number -> row dict)."""

    kind = "items"
    fields = ("item", "row")

    def load(self) -> dict[int, dict]:
        """Stored items: item -> row dict. Unreadable or foreign files are skipped."""
        def parse(t):
            out = [(int(i), json.loads(r)) for i, r in zip(t["item"], t["row"], strict=True)]
            if not all(isinstance(r, dict) for _, r in out):
                raise ValueError("a row is not a JSON object")
            return out

        found = dict(self._read(parse))
        _keep(self.kind, self.key, found)
        return found

    def save(self, items: list[int], rows: list[dict]) -> None:
        """Write finished items (one file; the items should be consecutive, so two files of the
        same name always hold the same items)."""
        if items:
            super().save(list(items), list(rows))

    def _write(self, items: list[int], rows: list[dict]) -> None:
        n = len(items)
        texts = [json.dumps(r, default=_plain) for r in rows]
        final = self.dir / f"items-{int(min(items)):020d}-{int(max(items)):020d}.parquet"
        numbers = [int(i) for i in items]
        _write_table(final, {"key": [self.key] * n, "item": numbers, "row": texts,
                             "checksum": [row_checksum(self.key, i, r) for i, r in zip(numbers, texts, strict=True)],
                             "study": [self.spec["study"]] * n, **_provenance(self.spec, n)})
        _keep(self.kind, self.key, (int(i) for i in items))


def open_run(block, args: tuple, seed: int, chunk: int) -> RunStore | None:
    """The run's store, or None when the store is off."""
    base = root()
    if base is None:
        return None
    return RunStore(base, run_spec(block, args, seed, chunk))


def open_items(study: str, spec: dict, module: str) -> ItemStore | None:
    """The item study's store (``spec``: JSON values, without the number of items; ``module``: the
    study code's, whose import closure the key covers), or None when the store is off."""
    base = root()
    if base is None:
        return None
    return ItemStore(base, items_spec(study, spec, module))


# ------------------------------------------------------------------------------------------ queries
def _store_of(base: Path, spec: dict) -> RunStore | ItemStore:
    return (ItemStore if kind_of(spec) == "items" else RunStore)(base, spec)


def runs(base: Path | None = None) -> list[dict]:
    """Every stored run: key, kind (chunks or items), block or study, seed, what it holds, files."""
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
        s = _store_of(base, spec)
        s.dir = d
        held = s.load()
        row = {"key": d.name, "kind": s.kind, "block": spec.get("block"), "study": spec.get("study"),
               "seed": spec.get("seed"), "version": spec.get("version"), "code": spec.get("code"),
               "current": made_by_current_code(spec), "chunks": None, "deals": None, "items": None,
               "files": len(s.files())}
        if s.kind == "items":
            row["items"] = len(held)
        else:
            row.update(chunks=len(held), deals=sum(c for _, c in held))
        out.append(row)
    return out


def spec_of(key: str, base: Path | None = None) -> dict:
    """The spec of stored run ``key``."""
    from analysis.errors import InputError

    base = base or root()
    try:
        if base is None:
            raise OSError("the store is off")
        return json.loads((base / key / "_spec.json").read_text())
    except (OSError, ValueError):
        raise InputError(f"no stored run {key!r}; `salon results list` shows the keys") from None


def run_table(key: str, base: Path | None = None):
    """The stored files of run ``key`` as a pandas DataFrame: one row per chunk (start, count,
    tallies) or per item (item, row as JSON text), with the provenance columns."""
    import pandas as pd
    import pyarrow.parquet as pq

    base = base or root()
    kind = kind_of(spec_of(key, base))
    frames = []
    for path in sorted((base / key).glob(KINDS[kind])):
        try:
            frames.append(pq.read_table(path).to_pandas())
        except Exception as e:  # noqa: BLE001
            _warn(f"skipped {path}: {_why(e)}")
    if kind == "items":
        if not frames:
            return pd.DataFrame(columns=["key", "item", "row"])
        df = pd.concat(frames, ignore_index=True).drop_duplicates("item")
        return df.sort_values("item").reset_index(drop=True)
    if not frames:
        return pd.DataFrame(columns=["key", "start", "count", "tallies"])
    return pd.concat(frames, ignore_index=True).sort_values("start").reset_index(drop=True)


def item_rows(key: str, base: Path | None = None):
    """The stored items of item run ``key`` as a table: item, the row dict expanded into columns,
    then the provenance columns."""
    import pandas as pd

    df = run_table(key, base)
    if "item" not in df:
        from analysis.errors import InputError

        raise InputError(f"stored run {key!r} holds chunks, not items")
    rows = pd.DataFrame([json.loads(r) for r in df["row"]], index=df.index)
    rest = [c for c in df.columns if c not in ("item", "row") and c not in rows.columns]
    return pd.concat([df[["item"]], rows, df[rest]], axis=1)


def prune(base: Path | None = None) -> list[str]:
    """Remove the runs no current key can reach (made by code that has changed since:
    ``made_by_current_code``), temporary files left by killed runs (``.tmp`` in the name, the Écarté
    equilibrium's record files too), files set aside as corrupt and unreadable data files; the
    paths removed."""
    import shutil

    import pyarrow.parquet as pq

    base = base or root()
    removed = []
    if base is None or not base.is_dir():
        return removed
    for spec_file in sorted(base.glob("*/_spec.json")):
        try:
            spec = json.loads(spec_file.read_text())
        except (OSError, ValueError):
            continue
        if not made_by_current_code(spec):
            shutil.rmtree(spec_file.parent, ignore_errors=True)
            removed.append(str(spec_file.parent))
    for path in base.rglob("*"):
        if not path.is_file():
            continue
        bad = ".tmp" in path.name or path.name.endswith(".corrupt")
        if not bad and path.name.startswith(("part-", "items-")):
            try:
                pq.read_metadata(path)
            except Exception:  # noqa: BLE001
                bad = True
        if bad:
            path.unlink()
            removed.append(str(path))
    return removed

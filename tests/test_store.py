"""The result store (analysis/store.py): repeated runs read it, longer runs reuse its chunks, a run
killed with kill -9 resumes with identical numbers, and bad files are reported and skipped. The
same for the item runs of the Piquet discard study (one stored row per hand)."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from analysis import store
from analysis.cli import main
from analysis.piquet.play.tallies import deals_block
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards import study as DS
from analysis.runner import run_tallies

pytestmark = pytest.mark.uses_store
ARGS = (get_rules().to_array(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array())


def _run(n, chunk=1000):
    return run_tallies(deals_block, ARGS, n, 7, chunk=chunk)


def test_repeated_and_longer_runs_reuse_the_stored_chunks(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", "off")
    fresh_short, fresh_long = _run(5500), _run(12000)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    assert np.array_equal(_run(5500), fresh_short)
    [run] = store.runs()
    assert run["deals"] == 5500 and run["chunks"] == 6
    saved = []
    monkeypatch.setattr(store.RunStore, "save", lambda self, s, c, rows: saved.append(len(s)))
    assert np.array_equal(_run(5500), fresh_short)  # read back: nothing computed
    assert saved == []
    assert np.array_equal(_run(12000), fresh_long)  # 5 full chunks reused, 7 computed
    assert saved == [7]
    monkeypatch.undo()
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    assert np.array_equal(_run(12000), fresh_long)
    assert np.array_equal(_run(5500), fresh_short)  # its short last chunk is still there beside the long one
    monkeypatch.setattr(store.RunStore, "save", lambda self, s, c, rows: saved.append(len(s)))
    assert np.array_equal(_run(12000), fresh_long) and np.array_equal(_run(5500), fresh_short)
    assert saved == [7]


def test_a_different_spec_gets_a_different_key(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _run(2000)
    run_tallies(deals_block, ARGS, 2000, 8, chunk=1000)
    other = (get_rules("cavendish").to_array(),) + ARGS[1:]
    run_tallies(deals_block, other, 2000, 7, chunk=1000)
    assert len({r["key"] for r in store.runs()}) == 3


def test_corrupt_and_foreign_files_are_reported_and_skipped(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", "off")
    want = _run(3000)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _run(3000)
    [run] = store.runs()
    d = tmp_path / run["key"]
    (d / "part-00000000000000000000-00000000000000000001.parquet").write_bytes(b"not parquet")
    (d / ".part-x.parquet.tmp123").write_bytes(b"left by a killed run")
    capsys.readouterr()
    assert np.array_equal(_run(3000), want)
    assert "skipped" in capsys.readouterr().err
    removed = store.prune()
    assert len(removed) == 2 and np.array_equal(_run(3000), want)


@pytest.mark.parametrize("kind", ["chunks", "items"])
def test_a_bit_flipped_part_file_is_never_read_as_other_numbers(kind, tmp_path, monkeypatch, capsys):
    """300 single-bit flips of a stored file, each in a fresh copy: the store reads back exactly
    what was written, or sets the file aside (renamed .corrupt, reported) so that its work is done
    again; never different numbers. Without the row checksums, 33 of these 300 flips of the chunks
    file were read back as other numbers."""
    rng = np.random.default_rng(7)
    if kind == "chunks":
        run = store.RunStore(tmp_path / "s", store.run_spec(deals_block, (), 1, 4))
        rows = rng.integers(-10**6, 10**6, size=(3, 40))
        run.save(np.array([0, 4, 8]), np.array([4, 4, 4]), rows)
        want = {(4 * i, 4): list(r) for i, r in enumerate(rows)}
        read = lambda r: {k: list(v) for k, v in r.load().items()}  # noqa: E731
    else:
        run = store.ItemStore(tmp_path / "s", store.items_spec("flips", {"seed": 1}, "analysis.tips"))
        items = [{"hand": int(h), "value": float(v)} for h, v in zip(rng.integers(0, 10**9, 20), rng.random(20), strict=True)]
        run.save(list(range(20)), items)
        want = dict(enumerate(items))
        read = lambda r: r.load()  # noqa: E731
    [path] = run.files()
    data = path.read_bytes()
    outcomes = {"same": 0, "set aside": 0, "skipped": 0}
    for bit in rng.choice(8 * len(data), size=300, replace=False):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        path.write_bytes(bytes(flipped))
        capsys.readouterr()
        got = read(run)
        err = capsys.readouterr().err
        if got == want:
            outcomes["same"] += 1
        else:
            assert got == {}, f"bit {bit}: other numbers read back"
            outcomes["set aside" if "set aside" in err else "skipped"] += 1
            assert ("set aside" in err) == path.with_name(path.name + ".corrupt").exists()
        for p in path.parent.glob("*.corrupt"):
            p.unlink()
    assert outcomes["set aside"] > 0 and sum(outcomes.values()) == 300, outcomes


def test_a_run_killed_with_kill_9_resumes_with_identical_numbers(tmp_path):
    """A real process is killed mid-run (SIGKILL) after writing some chunks, then run again."""
    cmd = [sys.executable, "-m", "analysis.cli", "--results", str(tmp_path), "simulate", "piquet", "--deals",
           "12000000", "--seed", "5", "--json", "--quiet"]
    env = {**os.environ, "SALON_RESULTS": str(tmp_path)}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.time() + 300
    while not list(tmp_path.glob("*/part-*.parquet")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored_before = store.runs(tmp_path)
    assert stored_before and 0 < stored_before[0]["deals"] < 12_000_000, "the run was not cut mid-way"
    resumed = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    clean = subprocess.run(cmd, capture_output=True, text=True, check=True,
                           env={**os.environ, "SALON_RESULTS": "off"})
    assert json.loads(resumed.stdout) == json.loads(clean.stdout)


def test_two_processes_running_the_same_study_at_once_leave_one_consistent_entry(tmp_path):
    """Two real processes start the same run on one store at the same time: both finish with the
    numbers of a run without the store, the store holds one run with each chunk once, and a third
    run reads it all back (it writes nothing)."""
    cmd = [sys.executable, "-m", "analysis.cli", "--results", str(tmp_path), "simulate", "piquet", "--deals",
           "400000", "--seed", "9", "--json", "--quiet"]
    env = {**os.environ, "SALON_RESULTS": str(tmp_path)}
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    clean = subprocess.run(cmd, capture_output=True, text=True, check=True, env={**os.environ, "SALON_RESULTS": "off"})
    assert json.loads(outs[0][0]) == json.loads(outs[1][0]) == json.loads(clean.stdout)
    [run] = store.runs(tmp_path)
    assert run["deals"] == 400_000
    files = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("part-*.parquet")}
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    assert json.loads(again.stdout) == json.loads(clean.stdout)
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("part-*.parquet")} == files  # nothing written again


def test_results_commands(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _run(2500)
    main(["results", "list", "--json"])
    [run] = json.loads(capsys.readouterr().out)["runs"]
    main(["results", "show", run["key"], "--json"])
    shown = json.loads(capsys.readouterr().out)
    assert shown["deals"] == 2500 and shown["tallies"] == _run(2500).tolist()
    for fmt in ("csv", "json", "parquet"):
        out = tmp_path / f"export.{fmt}"
        main(["results", "export", run["key"], "--format", fmt, "--out", str(out)])
        assert out.stat().st_size > 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        main(["results", "show", "nosuchkey"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1


def test_an_unwritable_store_is_reported_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", "off")
    want = _run(2500)
    blocker = tmp_path / "file"
    blocker.write_text("a file where the store's directory should be")
    monkeypatch.setenv("SALON_RESULTS", str(blocker))
    assert np.array_equal(_run(2500), want)
    assert capsys.readouterr().err.count("cannot write") == 1


# ------------------------------------------------------------------ item runs: the discard study
def _study(hands, seat="younger", seed=3):
    return DS.study_hands(hands, seat, samples=300, seed=seed)


def _same(df, want):
    """The same table: values (exactly), column order, dtypes."""
    want = want.reset_index(drop=True)
    assert list(df.columns) == list(want.columns) and list(df.dtypes) == list(want.dtypes)
    pd.testing.assert_frame_equal(df, want, check_exact=True)
    assert df.equals(want)


def test_item_rows_keep_their_types_exactly(tmp_path):
    s = store.ItemStore(tmp_path, store.items_spec("test", {"seed": 1}, "analysis.tips"))
    rows = [{"i": np.int64(7), "x": np.float64(0.1) + 0.2, "b": np.bool_(True), "f": 1e-310, "z": -0.0,
             "n": float("nan"), "big": 2**62 + 1, "s": "7S 8H", "t": False, "whole": 3.0}]
    s.save([4], rows)
    [(item, row)] = s.load().items()
    assert item == 4 and list(row) == list(rows[0])
    want = {"i": 7, "x": 0.1 + 0.2, "b": True, "f": 1e-310, "z": -0.0, "n": float("nan"), "big": 2**62 + 1,
            "s": "7S 8H", "t": False, "whole": 3.0}
    for k, v in want.items():
        assert type(row[k]) is type(v), k
        assert row[k] == v or (v != v and row[k] != row[k]), k
    assert str(row["z"]) == "-0.0"


def test_discard_study_is_identical_with_and_without_the_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", "off")
    fresh = _study(6, "elder")
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    monkeypatch.setattr(DS, "SAVE_HANDS", 4)
    filled = _study(6, "elder")
    [run] = store.runs()
    assert run["kind"] == "items" and run["items"] == 6 and run["files"] == 2  # hands 0-3, then 4-5
    monkeypatch.setattr(DS, "analyse_hand", lambda *a, **k: pytest.fail("a stored hand was recomputed"))
    read = _study(6, "elder")
    for df in (filled, read):
        _same(df, fresh)
        assert df.attrs == fresh.attrs


def test_repeated_and_larger_discard_studies_reuse_the_stored_hands(tmp_path, monkeypatch):
    monkeypatch.setenv("SALON_RESULTS", "off")
    fresh = _study(10)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _same(_study(6), fresh.iloc[:6])
    computed = []
    real = DS.analyse_hand
    monkeypatch.setattr(DS, "analyse_hand", lambda hand, *a, **k: computed.append(hand) or real(hand, *a, **k))
    _same(_study(6), fresh.iloc[:6])
    assert computed == []  # read back: nothing computed
    _same(_study(10), fresh)
    assert computed == [DS.dealt_hand(3, h, "younger") for h in range(6, 10)]  # only the new hands
    computed.clear()
    _same(_study(4), fresh.iloc[:4])
    assert computed == []
    _study(2, seed=4)
    assert sorted(r["items"] for r in store.runs()) == [2, 10]  # another seed is another run


def test_a_corrupt_or_foreign_item_file_is_reported_and_skipped(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", "off")
    want = _study(6)
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _study(6)
    [run] = store.runs()
    d = tmp_path / run["key"]
    (d / "items-00000000000000000000-00000000000000000002.parquet").write_bytes(b"not parquet")
    foreign = store.ItemStore(tmp_path, store.items_spec("another", {"seed": 1}, "analysis.tips"))
    foreign.dir = d
    foreign.save([3], [{"hand": 99}])  # a readable file of another run, in this run's directory
    (d / ".items-x.parquet.tmp99").write_bytes(b"left by a killed run")
    capsys.readouterr()
    monkeypatch.setattr(DS, "analyse_hand", lambda *a, **k: pytest.fail("a stored hand was recomputed"))
    _same(_study(6), want)
    err = capsys.readouterr().err
    assert err.count("skipped") == 2 and "another run" in err
    removed = store.prune()
    assert len(removed) == 2 and all("items-x" in p or "00000000000000000002" in p for p in removed)
    _same(_study(6), want)


def test_an_unwritable_store_is_reported_once_and_the_study_goes_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", "off")
    want = _study(6)
    blocker = tmp_path / "file"
    blocker.write_text("a file where the store's directory should be")
    monkeypatch.setenv("SALON_RESULTS", str(blocker))
    monkeypatch.setattr(DS, "SAVE_HANDS", 2)
    _same(_study(6), want)
    assert capsys.readouterr().err.count("cannot write") == 1


RESUMABLE = """
import signal, sys
from analysis.piquet.studies.discards import study as d
signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, even if started with SIGINT ignored
d.SAVE_HANDS, d.SAVE_SECONDS = int(sys.argv[2]), 1e9
row = d.hand_row
def traced(h, *a):
    r = row(h, *a)
    print(h, flush=True)
    return r
d.hand_row = traced
d.study_hands(int(sys.argv[1]), "elder", samples=300, seed=9).to_pickle(sys.argv[3])
"""


def test_a_discard_study_stopped_by_ctrl_c_or_kill_9_resumes_identically(tmp_path):
    """A real process is stopped by SIGINT (its finished hands are written on the way out), then
    another is killed with SIGKILL mid-study, then the study is run to the end."""
    hands, out = 8, tmp_path / "df.pkl"
    results = tmp_path / "store"
    env = {**os.environ, "SALON_RESULTS": str(results)}

    def start(save_every):
        return subprocess.Popen([sys.executable, "-c", RESUMABLE, str(hands), str(save_every), str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def stored():
        runs = store.runs(results)
        assert len(runs) <= 1, "the package's sources changed during the test (a new key)"
        return runs[0]["items"] if runs else 0

    proc = start(save_every=100)  # writes nothing until stopped
    finished = [proc.stdout.readline() for _ in range(3)]
    assert all(finished), proc.stderr.read()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=120) != 0 and "KeyboardInterrupt" in proc.stderr.read()
    after_ctrl_c = stored()
    assert 2 <= after_ctrl_c < hands  # hands 0 and 1 were finished before hand 2 was printed

    proc = start(save_every=1)
    deadline = time.time() + 120
    while stored() < after_ctrl_c + 2 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    after_kill = stored()
    assert after_ctrl_c < after_kill < hands and not out.exists(), "the run was not cut mid-way"

    proc = start(save_every=1)
    recomputed = proc.communicate(timeout=300)[0].split()
    assert proc.returncode == 0 and len(recomputed) == hands - after_kill
    clean = DS.study_hands(hands, "elder", samples=300, seed=9)  # SALON_RESULTS is off here
    resumed = pd.read_pickle(out)
    _same(resumed, clean)
    assert resumed.attrs == clean.attrs


def test_results_commands_on_an_item_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    df = _study(4)
    _run(1000)
    main(["results", "list", "--json"])
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert sorted(r["kind"] for r in runs) == ["chunks", "items"]
    [run] = [r for r in runs if r["kind"] == "items"]
    assert run["study"] == DS.STUDY and run["items"] == 4 and run["seed"] == 3
    main(["results", "list"])
    assert "piquet.discards  seed 3  4 items" in capsys.readouterr().out
    main(["results", "show", run["key"], "--json"])
    shown = json.loads(capsys.readouterr().out)
    assert shown["kind"] == "items" and shown["spec"]["seat"] == "younger"
    assert [i["item"] for i in shown["items"]] == [0, 1, 2, 3]
    assert pd.DataFrame([i["row"] for i in shown["items"]]).equals(df)
    main(["results", "show", run["key"]])
    text = capsys.readouterr().out
    assert "4 items: 0-3" in text and text.count("hand ") == 4
    for fmt, read in (("csv", pd.read_csv), ("parquet", pd.read_parquet), ("json", pd.read_json)):
        out = tmp_path / f"export.{fmt}"
        main(["results", "export", run["key"], "--format", fmt, "--out", str(out)])
        table = read(out)
        assert list(table["item"]) == [0, 1, 2, 3] and list(table.columns[1:len(df.columns) + 1]) == list(df.columns)
        assert {"key", "seed", "version", "numba", "written", "spec"} <= set(table.columns)
        assert np.allclose(table["best_net"], df["best_net"]) and list(table["cards"]) == list(df["cards"])
    assert "4 items written" in capsys.readouterr().out
    assert store.prune() == []


def test_compiled_kernel_caches_of_other_versions_unused_for_a_week_are_removed(tmp_path):
    """The key itself is tested in tests/test_kernel_cache.py."""
    import os
    import time

    from analysis import numba_cache

    current = tmp_path / "salon-numba" / "2222222222222222"
    old = current.parent / "0000000000000000"
    recent = current.parent / "1111111111111111"
    for d in (old, recent, current):
        d.mkdir(parents=True)
    past = time.time() - (numba_cache.STALE_CACHE_DAYS + 1) * 86400
    os.utime(old, (past, past))
    numba_cache.prune_stale_caches(current)
    assert not old.exists() and recent.exists() and current.exists()


def test_tip_verdicts_are_stored_and_read_back_unchanged(tmp_path, monkeypatch):
    """A tip study runs once per tip, variant, deals and seed: a repeated (or resumed) report reads
    its verdicts back, identical in their JSON form; other deals or another seed run again."""
    from analysis.stats import Estimate
    from analysis.tips import stored_study
    from analysis.verdicts import Verdict

    calls = []

    def study(rules, deals, seed, policy):
        calls.append((rules.name, deals, seed))
        effect = Estimate(0.25 + seed, 0.125, float("nan"), deals)
        return [Verdict("PQ-T8", rules.name, "supported", effect, "net points", "x > 0", deals, seed,
                        {"elder": {"kind": "heuristic", "exchange": "learned"}}, {"rows": [1, 2.5]}, part)
                for part in ("elder", "younger")]

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    rules = get_rules("seed-no")
    first = [v.to_dict() for v in stored_study(study, "PQ-T8", rules, 1000, 3, None)]
    again = [v.to_dict() for v in stored_study(study, "PQ-T8", rules, 1000, 3, None)]
    assert calls == [("seed-no", 1000, 3)]
    assert json.dumps(again) == json.dumps(first) and again[1]["variant"] == "seed-no, younger"
    stored_study(study, "PQ-T8", rules, 2000, 3, None)
    stored_study(study, "PQ-T8", rules, 1000, 4, None)
    assert calls[1:] == [("seed-no", 2000, 3), ("seed-no", 1000, 4)]
    assert [r["study"] for r in store.runs()] == ["tip"] * 3


def test_the_code_fingerprint_covers_sources_and_data_files_only(tmp_path):
    """Refitted weights (a data file) change every key as an edited source does; a template does not."""
    (tmp_path / "game" / "data").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "game" / "kernel.py").write_text("x = 1\n")
    (tmp_path / "game" / "data" / "weights.json").write_text("[1, 2]\n")
    (tmp_path / "templates" / "page.j2").write_text("a\n")
    first = store.fingerprint(tmp_path)
    (tmp_path / "templates" / "page.j2").write_text("b\n")
    assert store.fingerprint(tmp_path) == first
    (tmp_path / "game" / "data" / "weights.json").write_text("[1, 3]\n")
    second = store.fingerprint(tmp_path)
    assert second != first
    (tmp_path / "game" / "kernel.py").write_text("x = 2\n")
    assert store.fingerprint(tmp_path) not in (first, second)


def test_prune_removes_what_killed_runs_and_checksums_left(tmp_path):
    """Temporaries of a killed run (a part file's, the Écarté equilibrium's record phase under its
    temporary name) and files set aside as corrupt go; finished files stay."""
    from analysis.ecarte.studies.equilibrium import study as EQ

    run = store.RunStore(tmp_path, store.run_spec(deals_block, (), 1, 4))
    run.save(np.array([0]), np.array([4]), np.arange(6).reshape(1, 6))
    cache = tmp_path / "equilibrium-records" / "abc"
    cache.mkdir(parents=True)
    left = [cache / EQ.temporary_name("fit.npz"), run.dir / ".part-x.parquet.tmp9", run.dir / "part-1-2.parquet.corrupt"]
    for p in left:
        p.write_bytes(b"x")
    (cache / "fit.npz").write_bytes(b"finished")
    assert sorted(store.prune(tmp_path)) == sorted(str(p) for p in left)
    assert (cache / "fit.npz").exists() and run.files() and run.load()


def test_a_store_key_covers_its_code_import_closure_and_nothing_else(tmp_path):
    """module_fingerprint: an edit outside the study's import closure (the command line, another
    study) leaves its key, and its results readable; an edit inside it (a module it imports inside
    a function, one it names lazily, a data file) changes the key, and prune removes the old run."""
    pkg = tmp_path / "pkg"
    (pkg / "data").mkdir(parents=True)
    files = {"__init__.py": "", "study.py": "from pkg.engine import K\n\ndef f():\n    from pkg import helper\n",
             "engine.py": "K = 1\nLAZY = 'pkg.tables:T'\n", "helper.py": "", "tables.py": "T = 1\n",
             "cli.py": "import pkg.study\n", "other.py": "X = 1\n", "data/w.json": "[1]"}
    for name, text in files.items():
        (pkg / name).write_text(text)

    def key():
        store.module_fingerprint.cache_clear()
        return store.module_fingerprint("pkg.study", pkg)

    first = key()
    for name in ("cli.py", "other.py"):
        (pkg / name).write_text(files[name] + "# edited\n")
        assert key() == first, name
    spec = {"module": "pkg.study", "code": first}
    assert store.made_by_current_code(spec, pkg)
    for name in ("engine.py", "helper.py", "tables.py", "data/w.json", "study.py"):
        (pkg / name).write_text(files[name] + " ")
        assert key() != first, name
        first = key()
    assert not store.made_by_current_code(spec, pkg)
    assert not store.made_by_current_code({"module": "pkg.gone", "code": first}, pkg)
    store.module_fingerprint.cache_clear()


def test_results_list_names_the_code_and_prune_removes_runs_of_older_code(tmp_path, monkeypatch, salon):
    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    _run(3000)
    [run] = store.runs()
    assert run["code"] == store.module_fingerprint("analysis.piquet.play.tallies") and run["current"]
    assert salon(["results", "list"])[1].count(f"code {run['code']}") == 1
    older = tmp_path / "0123456789abcdef0123"
    older.mkdir()
    spec = json.loads((tmp_path / run["key"] / "_spec.json").read_text())
    (older / "_spec.json").write_text(json.dumps({**spec, "code": "0" * 16}))
    assert "(older code: results prune removes it)" in salon(["results", "list"])[1]
    assert store.prune() == [str(older)] and not older.exists()
    assert [r["key"] for r in store.runs()] == [run["key"]]


def test_a_tally_row_checksums_alike_as_an_array_or_a_list_and_a_file_written_as_lists_reads_back(tmp_path):
    """The store hashes chunk rows as int64 arrays: their checksums are those of the rows as lists;
    and a chunk file written with Python lists (as the store once wrote them) reads back."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(3)
    rows = rng.integers(-10**12, 10**12, size=(20, 37))
    starts, counts = [int(s) for s in rng.integers(0, 10**9, 20)], [int(c) for c in rng.integers(1, 10**6, 20)]
    want = [store.row_checksum("k", s, c, r.tolist()) for s, c, r in zip(starts, counts, rows, strict=True)]
    assert [store.row_checksum("k", s, c, r) for s, c, r in zip(starts, counts, rows, strict=True)] == want
    run = store.RunStore(tmp_path / "s", store.run_spec(deals_block, (), 1, 4))
    run.dir.mkdir(parents=True)
    table = {"key": [run.key] * 20, "start": starts, "count": counts, "tallies": [r.tolist() for r in rows],
             "checksum": [store.row_checksum(run.key, s, c, r.tolist()) for s, c, r in zip(starts, counts, rows,
                                                                                         strict=True)]}
    pq.write_table(pa.table(table), run.dir / "part-00000000000000000000-00000000000000000001.parquet")
    got = run.load()
    assert list(got) == list(zip(starts, counts, strict=True))
    assert all(np.array_equal(got[k], r) for k, r in zip(got, rows, strict=True))

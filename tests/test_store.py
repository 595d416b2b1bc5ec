"""The result store (analysis/store.py): repeated runs read it, longer runs reuse its chunks, a run
killed with kill -9 resumes with identical numbers, and bad files are reported and skipped."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from analysis import store
from analysis.cli import main
from analysis.piquet import kernel as K
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules
from analysis.runner import run_tallies

pytestmark = pytest.mark.uses_store
ARGS = (get_rules().to_array(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array())


def _run(n, chunk=1000):
    return run_tallies(K.deals_block, ARGS, n, 7, chunk=chunk)


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
    run_tallies(K.deals_block, ARGS, 2000, 8, chunk=1000)
    other = (get_rules("cavendish").to_array(),) + ARGS[1:]
    run_tallies(K.deals_block, other, 2000, 7, chunk=1000)
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

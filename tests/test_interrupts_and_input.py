"""Issue 43, the first hour of a new user: Ctrl-C stops a real ``salon`` process at once (inside a
kernel too) with one line on what the result store kept and exit code 130; bad input that used
to get a traceback, nothing, or a late error gets one line and exit code 2 before any work starts
(more threads than cores is a warning, and the run goes on)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_cli import run as run_in_process

HAND = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8"
ROOT = Path(__file__).resolve().parents[1]


def run(args, capsys):
    """salon in-process (test_cli's run), timed: (exit code, stdout, stderr, seconds)."""
    t0 = time.perf_counter()
    return (*run_in_process(args, capsys), time.perf_counter() - t0)


def one_error_line(err: str) -> str:
    """The single line of stderr, which is an ``error:`` line."""
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


# ------------------------------------------------------------------------------------------- Ctrl-C
INTERRUPTED = {
    "piquet discard": ["piquet", "discard", HAND, "--no-race", "--samples", "20000"],  # about 15 s
    "tips": ["tips", "--game", "piquet"],
    "report": ["report", "--quick", "--out", "{tmp}/report"],
    "simulate": ["simulate", "ecarte", "--deals", "100000000"],
}


@pytest.mark.parametrize("name", INTERRUPTED)
def test_ctrl_c_stops_at_once_says_what_was_kept_and_exits_130(name, tmp_path):
    store = tmp_path / "store"
    args = ["--results", str(store), *[a.format(tmp=tmp_path) for a in INTERRUPTED[name]], "--quiet"]
    p = subprocess.Popen([sys.executable, "-m", "analysis", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3.5)  # imports done, working (in a kernel, most of the time; or compiling one)
        if name == "simulate":  # until the first batch is stored (its kernel may compile first)
            deadline = time.monotonic() + 300
            while not list(store.glob("*/part-*.parquet")) and time.monotonic() < deadline and p.poll() is None:
                time.sleep(0.1)
        assert p.poll() is None, p.communicate()[1]
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=20)
        took = time.monotonic() - t0
    finally:
        p.kill()
    assert p.returncode == 130, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err
    assert "kept in the result store" in lines[0] or "nothing was stored" in lines[0], err
    assert took < 3, f"{took:.1f} s from Ctrl-C to the exit"
    assert not list(store.rglob("*.tmp*")), "a store file left half-written"
    if name == "simulate":  # 100 million deals: some batches finished, and the line counts them
        from analysis import store as S

        chunks = sum(r["chunks"] or 0 for r in S.runs(store))
        assert chunks > 0 and f"{chunks:,} finished chunk" in lines[0], (chunks, lines[0])
        assert "run the same command again to resume" in lines[0]


STOPPED_MID_WORK = """
import os, signal, sys, threading, time
from analysis import interrupts
interrupts.install()
cut_short = threading.Event()

def worker():  # a thread whose work the exit cuts short (a process pool's manager reading a dead worker)
    cut_short.wait()
    raise EOFError("the worker it was reading from has gone")

threading.Thread(target=worker, daemon=True).start()
interrupts.on_stop(lambda: (cut_short.set(), time.sleep(0.3)))
os.kill(os.getpid(), signal.SIGINT)
time.sleep(30)
"""


def test_what_the_exit_cuts_short_prints_no_traceback():
    """Threads of the process that fail while Ctrl-C ends it print nothing: the one line is all
    (a report stopped mid-run once printed a pool thread's traceback beside it)."""
    p = subprocess.run([sys.executable, "-c", STOPPED_MID_WORK], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr and "EOFError" not in p.stderr, p.stderr
    assert p.stderr.strip().startswith("interrupted: ") and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_the_line_counts_what_worker_processes_wrote(tmp_path, monkeypatch):
    """The report computes the games in processes of their own: the chunks they stored count too."""
    from analysis import interrupts, runner, store

    monkeypatch.setenv("SALON_RESULTS", str(tmp_path))
    since = time.time() - 1
    run = store.RunStore(tmp_path, store.run_spec(test_the_line_counts_what_worker_processes_wrote, (), 1, 8))
    starts, counts = runner.chunk_bounds(0, 24, 8)
    run.save(starts, counts, np.array([[1], [2], [3]], dtype=np.int64))
    assert not list(tmp_path.rglob("*.tmp*"))
    monkeypatch.setattr(store, "_kept", {kind: set() for kind in store.KINDS})  # as if another process
    monkeypatch.setattr(store, "_written", set())  # had written the file
    assert interrupts.kept_line(since, had_children=True).startswith(
        f"interrupted: 3 finished chunks kept in the result store ({tmp_path})")
    monkeypatch.setenv("SALON_RESULTS", "off")
    assert "the result store is off" in interrupts.kept_line(since, had_children=True)


# ---------------------------------------------------------------------------------------- bad input
BAD_BEFORE_WORK = [
    (["simulate", "ecarte", "--deals", "10000000000000"], ["maximum of 10,000,000,000", "days"]),
    (["simulate", "bezique", "--deals", "20000000000"], ["maximum of 10,000,000,000", "deals a second"]),
    (["--workers", "0", "simulate", "ecarte", "--deals", "10"], ["--workers"]),
    (["--scheduler", "not a url", "simulate", "ecarte", "--deals", "10"], ["not a url", "tcp://HOST:PORT"]),
    (["--scheduler", "tcp://127.0.0.1:8786", "--workers", "2", "simulate", "ecarte", "--deals", "10"],
     ["exclude each other"]),
    (["simulate", "ecarte", "--deals", "100000000", "--records", "/nonexistent-dir/x.json"],
     ["--records", "/nonexistent-dir"]),
    (["piquet", "discard", HAND, "--plot", "/nonexistent-dir/top.png"], ["--plot", "/nonexistent-dir"]),
    (["report", "--quick", "--out", "{file}/report"], ["--out", "not a directory"]),
    (["study", "piquet", "overview", "--deals", "100", "--out", "{file}/tables"], ["--out", "not a directory"]),
    (["results", "export", "0123", "--out", "/nonexistent-dir/run.csv"], ["--out", "/nonexistent-dir"]),
    (["simulate", "ecarte", "--deals", "10", "--param", "lead_trump=1"],
     ["unknown policy parameter 'lead_trump'", "valid: ", "lead_trumps"]),
    (["compare", "piquet", "--a", "heuristic", "--b", "heuristic", "--param", "a.nope=1", "--deals", "10"],
     ["unknown policy parameter 'nope'"]),
    (["simulate", "chess"], ["'GAME'", "'chess'"]),
    (["compare", "chess", "--a", "heuristic", "--b", "random"], ["'GAME'"]),
]


@pytest.mark.parametrize("args,needles", BAD_BEFORE_WORK, ids=[" ".join(a) for a, _ in BAD_BEFORE_WORK])
def test_bad_input_is_one_line_exit_2_before_any_work(args, needles, capsys, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    code, out, err, took = run([a.format(file=a_file) for a in args], capsys)
    line = one_error_line(err)
    assert code == 2
    for needle in needles:
        assert needle in line, line
    assert "{" not in line  # click's metavar {ecarte|piquet|bezique} no longer leaks
    assert took < 0.5, f"{took:.2f} s: the check came after some work"


@pytest.mark.parametrize("option", [["--workers", "2"], ["--scheduler", "tcp://127.0.0.1:8786"]])
def test_dask_options_without_the_extra_name_it_and_how_to_install(option, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask.distributed were not installed
    code, out, err, took = run([*option, "simulate", "ecarte", "--deals", "10"], capsys)
    line = one_error_line(err)
    assert code == 2 and option[0] in line and "dask extra" in line
    assert "pip install 'salon-analysis[dask]'" in line


def test_dask_options_without_the_extra_in_a_real_process():
    shim = "import sys; sys.modules['distributed'] = None; from analysis.cli import main; main()"
    p = subprocess.run([sys.executable, "-c", shim, "--workers", "2", "simulate", "ecarte", "--deals", "10"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert one_error_line(p.stderr).endswith("pip install 'salon-analysis[dask]'")


def test_more_threads_than_cores_is_a_warning_and_the_run_uses_the_cores(capsys):
    from analysis.blocks import available_threads

    cores = available_threads()
    asked = max(64, cores + 1)
    code, out, err, _ = run(["simulate", "ecarte", "--deals", "2000", "--threads", str(asked), "--json"], capsys)
    assert code == 0, err
    assert err.strip() == f"warning: --threads {asked} is more than the {cores} core{'' if cores == 1 else 's'} " \
                          f"here; using {cores}"
    assert json.loads(out)["deals"] == 2000


def test_wording_slips_are_fixed(capsys):
    code, out, err, _ = run(["piquet", "discard", "--help"], capsys)
    assert code == 0 and "95% half-width" in out and "%%" not in out


def test_a_writable_output_path_passes_the_check(tmp_path):
    from analysis.clikit import check_output

    assert check_output(str(tmp_path / "new" / "deeper"), directory=True) is None
    assert check_output(str(tmp_path / "x.json"), directory=False) is None
    assert check_output("-", directory=False) is None
    assert "is a directory" in check_output(str(tmp_path), directory=False)
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert "cannot write in" in check_output(str(locked / "x.json"), directory=False)


BAD_FILES = {  # file content -> what the one line says
    "[" * 100_000 + "]" * 100_000: "nested too deeply",
    '[{"rules": ' + "9" * 5000 + "}]": "a number too long to read",
    "[1, 2": "not valid JSON",
}
BAD_CONTEXTS = {
    "[1, 2]": "not a report context (a JSON object) but a list",
    '{"sections": 5}': "'seed' missing",
    '{"version": "0.1.0", "seed": 1, "budget": "quick", "games": ["nope"], "sections": {}, "tips": {}}':
        "not a report context salon wrote",
}


@pytest.mark.parametrize("game", ["ecarte", "piquet", "bezique"])
@pytest.mark.parametrize("content", BAD_FILES, ids=list(BAD_FILES.values()))
def test_a_bad_record_file_is_one_line_exit_2(game, content, tmp_path, capsys):
    path = tmp_path / "records.json"
    path.write_text(content)
    code, out, err, took = run([game, "replay", str(path)], capsys)
    assert code == 2 and BAD_FILES[content] in one_error_line(err)


@pytest.mark.parametrize("content", {**BAD_FILES, **BAD_CONTEXTS}, ids=list({**BAD_FILES, **BAD_CONTEXTS}.values()))
def test_a_bad_saved_report_context_is_one_line_exit_2(content, tmp_path, capsys):
    from analysis.report.build import CONTEXT_FILE

    (tmp_path / CONTEXT_FILE).write_text(content)
    code, out, err, took = run(["report", "--from-saved", "--out", str(tmp_path)], capsys)
    assert code == 2 and {**BAD_FILES, **BAD_CONTEXTS}[content] in one_error_line(err)


def test_a_record_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    from analysis import record_files

    path = tmp_path / "records.json"
    path.write_text("[" + ",".join(['{"rules": "seed-de"}'] * 100) + "]")
    monkeypatch.setattr(record_files, "MAX_JSON_BYTES", 1000)
    monkeypatch.setattr(record_files, "_read_text", lambda p: pytest.fail("read before the size check"))
    code, out, err, took = run(["ecarte", "replay", str(path)], capsys)
    assert code == 2 and "larger than 0 MB" in one_error_line(err)

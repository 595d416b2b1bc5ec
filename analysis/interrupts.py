"""Ctrl-C for the ``salon`` program: stop within about a second, even inside a Numba kernel, say in
one line what the result store kept, and exit with code 130.

Python runs a signal handler only in the main thread and only between bytecodes, so a handler
cannot run while the main thread is inside a kernel. But the C-level handler Python installs for
SIGINT writes the signal's number at once to the file descriptor given to
``signal.set_wakeup_fd``; a daemon thread blocked on reading that pipe wakes up and ends the
process. It needs the GIL for that: Numba's ``parallel=True`` kernels, the ``nogil=True`` kernels
(the chunk functions the blocks run on threads) and LLVM's compiler (called through ctypes) release it while they run, and plain Python gives it
up every few milliseconds, so the exit is prompt wherever salon spends its time. (A plain
``@njit`` kernel holds the GIL: the long ones that commands call directly are ``nogil=True``.)

Finished work is never lost and never half-written: the store writes each file under a temporary
name and renames it (``analysis/store.py``), and the exit first takes the store's write lock, so a
write under way is finished (and no temporary file is left behind).

``install`` is called by ``analysis.cli.main`` when it runs as the program; a process that only
imports salon (pytest, Jupyter) keeps its own Ctrl-C. Worker processes a command starts (the
report's game processes) call ``install_in_worker``: Ctrl-C, which the terminal sends to them too,
or the command's own SIGTERM ends them silently, so the command's one line is the only one.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path

EXIT_CODE = 130
"""128 + SIGINT, what a shell reports for a program stopped by Ctrl-C."""
WRITE_WAIT = 5.0
"""Seconds the exit waits for a store write under way to finish."""
CHILD_WAIT = 1.0
"""Seconds the exit waits for its worker processes to end (and finish a store write)."""

_state: dict = {}
_stopping = threading.Lock()
_on_stop: list = []


def on_stop(callback) -> None:
    """Call ``callback()`` first when Ctrl-C stops the process (quickly: the exit waits for it)."""
    _on_stop.append(callback)


def run_as_program() -> bool:
    """Whether this process is the ``salon`` program (the console script or ``python -m analysis``),
    not a process that imports salon (pytest, Jupyter, a Dask worker)."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name == "analysis.__main__":
        return True
    return os.path.basename(getattr(main, "__file__", None) or "") in ("salon", "salon.exe", "salon-script.py")


def install(*, quiet: bool = False, signals: tuple[int, ...] = (signal.SIGINT,)) -> None:
    """From now on, ``signals`` stop the process promptly with exit code 130 and (unless ``quiet``)
    one line on stderr saying what was kept. Only from the main thread; once per process."""
    if _state or threading.current_thread() is not threading.main_thread():
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous_fd = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # not the main thread of the main interpreter
        os.close(read_end)
        os.close(write_end)
        return
    previous = {s: signal.signal(s, _handler) for s in signals}
    watcher = threading.Thread(target=_watch, args=(read_end, frozenset(signals)), name="salon-interrupts",
                               daemon=True)
    _state.update(read=read_end, write=write_end, fd=previous_fd, handlers=previous, watcher=watcher, quiet=quiet,
                  since=time.time())
    watcher.start()


def install_in_worker() -> None:
    """For a worker process of a salon command (``ProcessPoolExecutor(initializer=...)``): Ctrl-C
    or SIGTERM end it at once and silently, exit code 130 (its parent says what was kept)."""
    install(quiet=True, signals=(signal.SIGINT, signal.SIGTERM))


def uninstall() -> None:
    """The signals handled as before ``install`` (the watcher thread stays, idle)."""
    if not _state:
        return
    for s, handler in _state["handlers"].items():
        signal.signal(s, handler)
    signal.set_wakeup_fd(_state["fd"])
    _state.clear()


def _handler(signum, frame) -> None:
    """The Python-level handler (main thread, between bytecodes). The watcher thread has been woken
    by the same signal and does the exit: the main thread waits here for it, so that it does not
    carry on meanwhile (and, say, report the worker processes the exit ends as an error). It goes
    on only to finish a store write it is making; without a watcher it does the exit itself."""
    watcher = _state.get("watcher")
    if watcher is None or not watcher.is_alive():
        stop()
        return
    lock = getattr(sys.modules.get("analysis.store"), "WRITE_LOCK", None)
    if lock is not None and lock.locked():
        return  # the write finishes, then the watcher (waiting for the lock) exits
    while True:
        time.sleep(1)


def _watch(read_end: int, signals: frozenset) -> None:
    """The watcher thread: wait for a handled signal's byte on the wakeup pipe, then stop the process."""
    while True:
        try:
            data = os.read(read_end, 64)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        if signals.intersection(data):
            stop()


def stop() -> None:
    """Finish a store write under way, end the worker processes, say what was kept (unless quiet),
    exit with code 130. Runs once, in whichever thread comes first."""
    if not _stopping.acquire(blocking=False):
        return  # the other thread is already stopping the process
    err = _silence_stderr()
    quiet = _state.get("quiet", False)
    store = sys.modules.get("analysis.store")
    lock = getattr(store, "WRITE_LOCK", None)
    if lock is not None:
        lock.acquire(timeout=WRITE_WAIT)  # a file being written is finished first
    logging = sys.modules.get("logging")
    if logging is not None:  # a local Dask cluster's scheduler would log the workers' end
        logging.disable(logging.CRITICAL)
    for callback in _on_stop:
        try:
            callback()
        except Exception:  # noqa: BLE001
            pass
    had_children = _end_children()
    _release_semaphores()
    had_children = _end_children() or had_children  # any started meanwhile (a Dask nanny restarts its worker)
    _flush_stdout()
    if not quiet:
        try:
            line = kept_line(_state.get("since", time.time()), had_children)
        except Exception:  # noqa: BLE001 - the exit must not fail on the message
            line = "interrupted"
        try:  # straight to the descriptor: sys.stderr's lock may be held by the parked main thread
            prefix = "\r\x1b[K" if os.isatty(err) else ""  # over a progress bar's line
            os.write(err, (prefix + line + "\n").encode())
        except OSError:
            pass
    os._exit(EXIT_CODE)


def _silence_stderr() -> int:
    """A copy of the standard error for the exit's one line; the standard error itself goes to
    /dev/null from now on, and threads' uncaught errors are not printed: the work the exit cuts
    short (a process pool's manager thread reading from a worker it ends) prints no traceback."""
    threading.excepthook = lambda args: None
    try:
        saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        return saved
    except OSError:
        return 2


def _flush_stdout() -> None:
    """What the command printed so far reaches its reader (os._exit does not flush); given up after
    a moment, in case the main thread is blocked writing to a full pipe."""
    def flush():
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001
            pass

    t = threading.Thread(target=flush, daemon=True)
    t.start()
    t.join(0.2)


def _release_semaphores() -> None:
    """Unlink the named semaphores of this process's multiprocessing queues (a process pool's), as
    a normal exit does; otherwise multiprocessing's resource tracker warns about them on stderr."""
    synchronize = sys.modules.get("multiprocessing.synchronize")
    cleanup = getattr(getattr(synchronize, "SemLock", None), "_cleanup", None)
    if cleanup is None:
        return
    from multiprocessing import util

    for finalizer in list(getattr(util, "_finalizer_registry", {}).values()):
        if getattr(finalizer, "_callback", None) is cleanup:
            try:
                finalizer()
            except Exception:  # noqa: BLE001
                pass


def _end_children() -> bool:
    """SIGTERM to this process's worker processes (a report's game processes, a local Dask cluster)
    and a short wait for them, so their last store writes are finished and counted; whether there
    were any."""
    children = multiprocessing.active_children()
    for child in children:
        try:
            os.kill(child.pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.monotonic() + CHILD_WAIT
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
    return bool(children)


def _where(path: Path) -> str:
    """``path`` with the home directory written ``~``."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def _finished(n: int, word: str) -> str:
    return f"{n:,} finished {word}{'' if n == 1 else 's'}"


def kept_line(since: float, had_children: bool = False) -> str:
    """The one line printed on Ctrl-C: what the result store holds of this run's finished work
    (found there, written by this process, or written since ``since`` by its worker processes)."""
    if "analysis.store" not in sys.modules and not had_children:
        return "interrupted: nothing was stored (no finished chunk to keep)"  # the store was not used
    from analysis import store

    base = store.root()
    if base is None:
        return "interrupted: the result store is off, nothing was kept"
    counts = store.kept_counts()
    for kind, n in store.written_elsewhere(since).items():
        counts[kind] += n
    parts = [_finished(counts[kind], word) for kind, word in (("chunks", "chunk"), ("items", "item"))
             if counts[kind]]
    if not parts:
        return f"interrupted: nothing was stored (no finished chunk to keep in {_where(base)})"
    return (f"interrupted: {' and '.join(parts)} kept in the result store ({_where(base)}); "
            "run the same command again to resume")

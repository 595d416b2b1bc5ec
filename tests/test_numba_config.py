"""``import analysis`` leaves numba's configuration alone: salon's kernels are cached in the
directory keyed by what they read (analysis.numba_cache), other numba code where numba puts it, and
the runner gives back numba's thread count and scheduling after a run."""
import subprocess
import sys
import textwrap
from collections import namedtuple

import numpy as np
from numba import njit, prange


def _run(code: str, home, env_extra=None) -> str:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_import_changes_no_numba_setting_and_caches_only_salons_kernels(tmp_path):
    user_file = tmp_path / "mine.py"
    user_file.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    out = _run(f"""
        import os, sys
        sys.path.insert(0, {str(tmp_path)!r})
        import numba
        before = numba.config.CACHE_DIR
        import analysis
        from analysis.bits import popcount
        import numpy as np
        assert popcount(np.uint32(7)) == 3
        import mine
        assert mine.twice(4) == 8
        print(os.environ.get("NUMBA_CACHE_DIR"), numba.config.CACHE_DIR == before)
        print(analysis.numba_cache.numba_cache_path())
    """, tmp_path)
    env_value, unchanged, salon_dir = out.split("\n")[0].split()[0], out.split("\n")[0].split()[1], out.split("\n")[1]
    assert env_value == "None" and unchanged == "True"
    salon_files = [p.name for p in (tmp_path / ".cache" / "salon-numba").rglob("*.nbi")]
    assert any(name.startswith("bits.popcount") for name in salon_files), salon_files
    assert salon_dir.startswith(str(tmp_path / ".cache" / "salon-numba"))
    # the user's function is cached beside its own source, as numba always does, not in salon's directory
    assert not any(name.startswith("mine.") for name in salon_files)
    assert list((tmp_path / "__pycache__").glob("mine.twice*.nbi"))


def test_with_numba_cache_dir_set_salons_kernels_go_under_it_keyed_by_their_sources(tmp_path):
    """$NUMBA_CACHE_DIR is where the user wants numba's caches: salon's kernels go under it, in
    salon-numba/<key>, so they are still keyed by everything they read (tests/test_kernel_cache.py)."""
    out = _run("""
        from analysis.bits import popcount
        from analysis.numba_cache import numba_cache_path
        import numpy as np
        assert popcount(np.uint32(7)) == 3
        print(numba_cache_path())
    """, tmp_path, {"NUMBA_CACHE_DIR": str(tmp_path / "mine")})
    assert out.strip().startswith(str(tmp_path / "mine" / "salon-numba"))
    assert list((tmp_path / "mine" / "salon-numba").rglob("bits.popcount*.nbi"))
    assert not (tmp_path / ".cache" / "salon-numba").exists()


def test_the_runner_restores_numbas_threads_and_scheduling():
    import numba

    from analysis.games import GAMES

    g = GAMES["ecarte"]
    numba.set_num_threads(1)
    numba.set_parallel_chunksize(0)
    try:
        g.compare(50, 1, g.rules(), g.policy("heuristic"), g.policy("random"), threads=2)
        assert numba.get_num_threads() == 1 and numba.get_parallel_chunksize() == 0
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


# ------------------------------------------------------------------------------------ prange canary
Record = namedtuple("Record", ("out", "scale"))


@njit(parallel=True)
def _write_through_a_field(n):
    r = Record(np.zeros(n), 2.0)
    for i in prange(n):
        r.out[i] = i * r.scale
    return r.out


@njit
def _chunk(out, i, scale):
    r = Record(out, scale)  # the record is built inside the function a prange body calls
    r.out[i] = i * r.scale


@njit(parallel=True)
def _write_by_the_convention(n):
    out = np.zeros(n)
    for i in prange(n):
        _chunk(out, i, 2.0)
    return out


def test_prange_canary_the_convention_keeps_the_writes_numba_loses():
    """numba (0.68) loses writes through a named tuple's array field inside a ``prange`` body (an
    open upstream bug). salon's convention for the few small loops that stay in ``prange`` (the blocks
    run their chunks on threads, docs/architecture.md): a prange body only calls a chunk function,
    which builds its records itself. The convention must keep every write; whether this numba still loses the
    others is said in a warning when it no longer does (then the convention could go)."""
    import warnings

    import numba

    n = 1000
    expected = np.arange(n) * 2.0
    assert np.array_equal(_write_by_the_convention(n), expected)
    if np.array_equal(_write_through_a_field(n), expected):
        warnings.warn(f"numba {numba.__version__} keeps writes through a named tuple's field in prange", stacklevel=1)


def test_no_prange_body_writes_through_an_attribute():
    """The convention, checked in the package: inside a ``for ... in prange(...)`` loop no
    assignment goes to ``something.field[...]``."""
    import ast
    from pathlib import Path

    import analysis

    offenders = []
    for path in Path(analysis.__file__).parent.rglob("*.py"):
        for loop in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
                    and getattr(loop.iter.func, "id", None) == "prange"):
                continue
            for node in ast.walk(loop):
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, ast.AugAssign) else []
                offenders += [f"{path.name}:{node.lineno}" for t in targets
                              if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)]
    assert offenders == []

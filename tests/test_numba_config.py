"""``import analysis`` leaves numba's configuration alone: salon's kernels are cached in the
directory keyed by the sources (analysis.numba_cache), other numba code where numba puts it, and
the runner gives back numba's thread count and scheduling after a run."""
import subprocess
import sys
import textwrap


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


def test_the_users_numba_cache_dir_is_respected(tmp_path):
    _run("""
        from analysis.bits import popcount
        import numpy as np
        assert popcount(np.uint32(7)) == 3
    """, tmp_path, {"NUMBA_CACHE_DIR": str(tmp_path / "mine")})
    assert list((tmp_path / "mine").rglob("bits.popcount*.nbi"))
    assert not (tmp_path / ".cache" / "salon-numba").exists() or not list(
        (tmp_path / ".cache" / "salon-numba").rglob("*.nbi"))


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

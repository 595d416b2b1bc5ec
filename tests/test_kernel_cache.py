"""The compiled-kernel cache cannot go stale (analysis/numba_cache.py): its key covers every file a
kernel can read, so an edit to a module that never mentions numba but whose constants a kernel
freezes (Piquet's sequence scores in rules.py) compiles the kernel again, with or without
$NUMBA_CACHE_DIR."""
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import analysis
from analysis import numba_cache

PACKAGE = Path(analysis.__file__).resolve().parent
QUART = "from analysis.piquet.engine.declarations import sequence_key_and_score; print(sequence_key_and_score(0x0F)[1])"
"""A quart (7 8 9 10 of one suit): 4 points by the rules' sequence scores."""
STORE_KEY = "from analysis import store; print(store.module_fingerprint('analysis.piquet.play.tallies'))"
"""The code part of the store key of a Piquet simulation's chunks."""


def _copy_package(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    shutil.copytree(PACKAGE, root / "analysis", ignore=shutil.ignore_patterns("__pycache__", "*.parquet"))
    return root


def _run(root: Path, home: Path, code: str, env_extra=None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update({"HOME": str(home), "PYTHONPATH": str(root), **(env_extra or {})})
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("own_cache_dir", [False, True])
def test_an_edit_to_a_constant_a_kernel_reads_compiles_it_again(tmp_path, own_cache_dir):
    root = _copy_package(tmp_path)
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")} if own_cache_dir else {}
    assert _run(root, tmp_path, QUART, env) == "4"
    assert _run(root, tmp_path, QUART, env) == "4"  # read back from the cache
    rules = root / "analysis" / "piquet" / "rules.py"
    assert b"numba" not in rules.read_bytes()
    text = rules.read_text(encoding="utf-8")
    assert "SEQUENCE_SCORES = (0, 0, 0, 3, 4, 15," in text
    store_key = _run(root, tmp_path, STORE_KEY, env)
    rules.write_text(text.replace("SEQUENCE_SCORES = (0, 0, 0, 3, 4, 15,", "SEQUENCE_SCORES = (0, 0, 0, 3, 40, 15,"),
                     encoding="utf-8")
    assert _run(root, tmp_path, QUART, env) == "40"
    # Test 2 of issue 45: the results a simulation stored under the old code are not read back
    # under the new one (its store key moved with the kernel's), and the new key's results come
    # from the kernel compiled again (above), never from the stale one.
    assert _run(root, tmp_path, STORE_KEY, env) != store_key
    caches = list((tmp_path / ("numba" if own_cache_dir else ".cache") / "salon-numba").iterdir())
    assert len(caches) == 2  # one per version of the sources


def test_the_key_covers_the_import_closure_the_data_and_the_compiler(tmp_path, monkeypatch):
    """kernel_files: the modules that compile with numba, what they import (also inside functions,
    and the packages' __init__), and the data files; a module no kernel imports is left out."""
    pkg = tmp_path / "pkg"
    (pkg / "game" / "data").mkdir(parents=True)
    for name, text in {"__init__.py": "", "bits.py": "from numba import njit\nfrom pkg.game import rules\n\n@njit\ndef b():\n"
                       "    return 1\n", "game/__init__.py": "", "game/rules.py": "X = 1\n",
                       "game/kernel.py": "import numba\n\n@numba.njit\ndef f():\n    return 1\n\n"
                                         "def g():\n    from pkg.game.table import T\n",
                       "game/table.py": "T = 2\n", "cli.py": "import click\nfrom pkg import bits\n",
                       "game/data/w.json": "[1]"}.items():
        (pkg / name).write_text(text)
    files = {p.relative_to(pkg).as_posix() for p in numba_cache.kernel_files(pkg)}
    assert files == {"__init__.py", "bits.py", "game/__init__.py", "game/rules.py", "game/kernel.py", "game/table.py",
                     "game/data/w.json"}
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = numba_cache.numba_cache_dir(pkg)
    assert first.parent == tmp_path / "cache" / "salon-numba"
    (pkg / "cli.py").write_text("import click  # edited\n")
    assert numba_cache.numba_cache_dir(pkg) == first
    for name in ("game/table.py", "game/data/w.json", "game/rules.py"):
        (pkg / name).write_text((pkg / name).read_text() + " ")
        assert numba_cache.numba_cache_dir(pkg) != first, name
        first = numba_cache.numba_cache_dir(pkg)
    monkeypatch.setattr(numba_cache, "_versions", lambda: "numba 0.0")
    assert numba_cache.numba_cache_dir(pkg) != first
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert numba_cache.numba_cache_dir(pkg).parent == tmp_path / "mine" / "salon-numba"

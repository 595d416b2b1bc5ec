"""The maintainers' scripts (scripts/: the fitting drivers, the table and vector makers, the
benchmark) load with the package as it is: each answers --help (imports and arguments parsed).
What each fit computes is tested with its library (analysis/<game>/fit/)."""
import runpy
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted(p for p in (Path(__file__).resolve().parent.parent / "scripts").iterdir()
                 if p.suffix == ".py" or p.name == "bench")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_script_answers_help(path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [str(path), "--help"])
    monkeypatch.syspath_prepend(str(path.parent))
    with pytest.raises(SystemExit) as e:
        runpy.run_path(str(path), run_name="__main__")
    assert e.value.code == 0
    assert "usage" in capsys.readouterr().out.lower()


def test_the_product_never_imports_the_fitting_code():
    """analysis/<game>/fit/ is how the models were found: nothing outside it imports it."""
    import ast

    root = Path(__file__).resolve().parent.parent / "analysis"
    offenders = []
    for f in root.rglob("*.py"):
        if "fit" in f.relative_to(root).parts[1:2]:
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            offenders += [f"{f.relative_to(root)}: {n}" for n in names if n.split(".")[2:3] == ["fit"]]
    assert offenders == []


@pytest.mark.parametrize("name", ["demo", "test"])
def test_the_shell_scripts_python_lines_import_what_exists(name):
    """scripts/demo and scripts/test run a few lines of Python (``python -c '...'``): each name they
    import from the package exists (a moved function once broke the demo's first step)."""
    import importlib
    import re

    text = (Path(__file__).resolve().parent.parent / "scripts" / name).read_text(encoding="utf-8")
    found = re.findall(r"from (analysis[\w.]*) import ([\w, ]+)", text)
    for module, names in found:
        for n in names.split(","):
            assert hasattr(importlib.import_module(module), n.strip()), f"scripts/{name}: {module}.{n.strip()}"
    if name == "demo":
        assert found  # the demo asks how many kernels are compiled


def test_compiled_kernels_counts_this_versions_cache():
    from analysis.bits import popcount
    from analysis.numba_cache import compiled_kernels, numba_cache_path

    popcount(7)
    assert compiled_kernels() == sum(1 for _ in numba_cache_path().rglob("*.nbi")) >= 1

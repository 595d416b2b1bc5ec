"""Which of the package's files a piece of code can read: its import closure (the package's modules
it imports, transitively, imports inside functions included) and the package's data files. The
compiled-kernel cache (``numba_cache``) and the result store (``store``) key by them, so that an
edit inside the closure recomputes and an edit outside it does not."""
from __future__ import annotations

import fnmatch
import hashlib
import re
from pathlib import Path

_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([\w.]+))", re.M)
"""An import statement anywhere in a file (inside functions too): ``from M import NAMES`` or
``import M``. Read by pattern rather than parsed, which keeps the key cheap at every start; a
match inside a string only adds a file to the key."""


def _named_modules(text: str, name: str) -> list[str]:
    """Dotted module names of the package that ``text`` imports, or names in a string: a lazy
    reference (``"analysis.piquet.rules:VARIANTS"``, ``importlib.import_module(...)``), where a
    part in braces (an f-string's ``{game}``) stands for any name (``*``)."""
    modules = []
    for m in _IMPORT.finditer(text):
        if m.group(1):
            names = re.sub(r"#[^\n]*", "", m.group(2)).strip("() \n").replace("\n", " ")
            modules += [m.group(1)] + [f"{m.group(1)}.{n.split()[0]}" for n in names.split(",") if n.strip()]
        else:
            modules.append(m.group(3))
    for m in re.finditer(r"[\"']" + re.escape(name) + r"((?:\.(?:\w+|\{[^}]*\}))+)", text):
        modules.append(name + re.sub(r"\{[^}]*\}", "*", m.group(1)))
    return [m for m in modules if m == name or m.startswith(name + ".")]


def _files(known: dict[str, Path], pattern: str) -> list[Path]:
    """The package's files at ``pattern`` (relative; a ``*`` stands for one name)."""
    if "*" in pattern:
        return [p for rel, p in known.items() if fnmatch.fnmatch(rel, pattern)]
    return [known[pattern]] if pattern in known else []


def imported_files(path: Path, package: Path, known: dict[str, Path] | None = None) -> tuple[set[Path], set[Path]]:
    """The package's modules (and packages) that ``path`` imports anywhere in its text or names
    in a string; and the ``__init__`` files of the packages they are in, which run first.
    ``known``: the package's Python files by relative path (found when not given)."""
    known = known if known is not None else python_files(package)
    named: set[Path] = set()
    inits: set[Path] = set()
    for module in set(_named_modules(path.read_text(encoding="utf-8"), package.name)):
        parts = module.split(".")[1:]
        base = "/".join(parts)
        for pattern in (f"{base}.py", f"{base}/__init__.py") if base else ("__init__.py",):
            named.update(_files(known, pattern))
        for k in range(len(parts)):
            inits.update(_files(known, "/".join([*parts[:k], "__init__.py"])))
    return named, inits


def python_files(package: Path) -> dict[str, Path]:
    """The package's Python files by their path relative to it (``a/b.py``)."""
    return {p.relative_to(package).as_posix(): p for p in package.rglob("*.py") if "__pycache__" not in p.parts}


def import_closure(package: Path, files) -> set[Path]:
    """``files`` and every module of the package they import or name, transitively; with the
    ``__init__`` files of their packages, whose own imports and names are followed only where a
    module imports the package itself (a package's descriptor names every module of its game
    lazily, but a module that runs after it reads only what it imports)."""
    known = python_files(package)
    todo = list(files)
    seen: set[Path] = set()
    inits: set[Path] = set()
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            named, implicit = imported_files(f, package, known)
            todo.extend(named - seen)
            inits |= implicit
    return seen | inits


STUDY_OUTPUTS = frozenset({"rule_ladders.json"})
"""Data files that are a study's output which no kernel, player or reference reads (the rule
ladders): making them again neither recompiles the kernels nor stales the golden vectors."""


def data_files(package: Path) -> set[Path]:
    """The package's files that are not Python sources or byte code (weights, tables, templates)."""
    return {p for p in package.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
            and "__pycache__" not in p.parts}


def module_file(package: Path, module: str) -> Path:
    """The file of ``package``'s module ``module`` (dotted, starting with the package's name)."""
    base = package.joinpath(*module.split(".")[1:])
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def files_digest(base: Path, files, head: bytes = b"") -> str:
    """A hash of ``head`` and of ``files`` (sorted) by their path relative to ``base`` and their bytes:
    the kernel cache's and the result store's keys."""
    h = hashlib.sha256(head)
    for path in sorted(files):
        h.update(str(path.relative_to(base)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]

"""The house's rules (docs/architecture.md), checked on every import of the package, at module
level or inside a function: inside a game imports run one way (rules and policies, engine,
players, play, studies, then the commands, answers, report, api, bench and review beside the
descriptor); the reference imports only rules, policies, the reference and the shared cards,
streams and record files; no module imports another's private name. The exceptions are listed,
each with its reason."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "analysis"
GAMES = ("ecarte", "piquet", "bezique")
LAYERS = {"rules": 0, "policies": 0, "notation": 0, "engine": 1, "players": 2, "play": 3, "studies": 4}
TOP = 5
"""commands.py, answers.py, report.py, api.py, bench.py, review.py, record_text.py and the descriptor
(``__init__.py``)."""
MODEL_DATA = {"analysis.ecarte.players.learned_weights", "analysis.ecarte.players.reading",
              "analysis.piquet.players.learned", "analysis.piquet.players.learned_features"}
"""The players' model files (weights, reading ratios) and their shapes: a policy's array carries
them, so ``policies.py`` (and Piquet's reference policies) read them from the players' modules
that own them."""
REFERENCE_USES_THE_KERNEL = {("analysis.piquet.reference.search", "analysis.piquet.players.solver")}
"""Piquet's reference search player solves each sampled world with the kernel's double-dummy
solver (``reference/solver.py`` is its plain-Python oracle, compared in tests/test_piquet_solver.py):
the reference's search would otherwise take hours per deal."""


def imports(path: Path):
    """(module imported, names imported from it, line) of every import in the file, relative
    imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(PACKAGE.parent).with_suffix("").parts
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here[:len(here) - node.level + (path.name == "__init__.py")]
                base = ".".join([*parent, *([base] if base else [])])
            names = [a.name for a in node.names]
            yield base, names, node.lineno
            for name in names:  # ``from package import module``
                yield f"{base}.{name}", [], node.lineno


def layer(game: str, module: str) -> int | None:
    """The layer of a module of ``game`` (None: the reference or fit, which have their own rules)."""
    parts = module.split(".")[2:]
    if not parts or parts[0] in ("__init__", "commands", "answers", "report", "api", "bench", "review", "record_text"):
        return TOP
    if parts[0] in ("reference", "fit", "data"):
        return None
    return LAYERS[parts[0]]


def model_data(target: str) -> bool:
    return any(target == m or target.startswith(m + ".") for m in MODEL_DATA)


def game_files(game: str):
    return sorted((PACKAGE / game).rglob("*.py"))


def module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("game", GAMES)
def test_imports_run_one_way_inside_a_game(game):
    prefix = f"analysis.{game}."
    against = []
    for path in game_files(game):
        me = module_of(path)
        mine = layer(game, me if me != f"analysis.{game}" else me + ".__init__")
        if mine is None:
            continue
        for target, _, line in imports(path):
            if not target.startswith(prefix) or (PACKAGE.parent / target.replace(".", "/")).is_dir():
                continue
            theirs = layer(game, target)
            if theirs is not None and theirs > mine and not (path.name == "policies.py" and model_data(target)):
                against.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not against, "\n".join(against)


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_imports_only_rules_policies_and_itself(game):
    allowed = (f"analysis.{game}.rules", f"analysis.{game}.policies", f"analysis.{game}.reference",
               "analysis.cards", "analysis.rng", "analysis.errors", "analysis.record_files")
    wrong = []
    for path in sorted((PACKAGE / game / "reference").rglob("*.py")):
        me = module_of(path)
        for target, _, line in imports(path):
            if target in ("analysis", f"analysis.{game}", f"analysis.{game}.players") or model_data(target):
                continue  # ``from analysis import x`` is checked as analysis.x
            if any(me == a and (target == b or target.startswith(b + ".")) for a, b in REFERENCE_USES_THE_KERNEL):
                continue
            if target.startswith("analysis") and not target.startswith(allowed):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_another_modules_private_name():
    private = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for target, names, line in imports(path):
            if target.startswith("analysis") and target != module_of(path):
                private += [f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}.{n}"
                            for n in names if n.startswith("_") and not n.startswith("__")]
    assert not private, "\n".join(private)


def test_the_checks_see_an_import_against_the_order(tmp_path, monkeypatch):
    """A players module importing play is reported (the check is not vacuous)."""
    game = tmp_path / "analysis" / "ecarte" / "players"
    game.mkdir(parents=True)
    bad = game / "bad.py"
    bad.write_text("def f():\n    from analysis.ecarte.play.hand import play_hand\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "analysis")
    (target, _, line), *_ = list(imports(bad))
    assert target == "analysis.ecarte.play.hand" and line == 2
    assert layer("ecarte", target) > layer("ecarte", module_of(bad))


MANY_PARAMETERS: dict[tuple[str, str], str] = {}
"""The functions allowed more than 12 parameters, each with its reason (docs/architecture.md,
"Named state in the kernels")."""


def test_no_function_takes_more_than_twelve_parameters():
    over = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
                if n > 12 and (rel, node.name) not in MANY_PARAMETERS:
                    over.append(f"{rel}: {node.name} takes {n}")
    assert not over, "\n".join(over)

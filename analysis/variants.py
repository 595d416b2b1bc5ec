"""Choosing a named variant and overriding its switches one by one, for every game."""
from __future__ import annotations

import dataclasses
from typing import TypeVar

from analysis.errors import InputError

T = TypeVar("T")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def pick_variant(variants: dict[str, T], name: str, game: str) -> T:
    """The variant called ``name``; an unknown name is an error listing the valid ones."""
    try:
        return variants[name]
    except KeyError:
        raise InputError(
            f"unknown {game} variant {name!r}; valid: {', '.join(variants)}"
        ) from None


def parse_override(text: str, what: str = "rule") -> tuple[str, str]:
    """``"key=value"`` -> ``(key, value)`` (``what`` names the kind of override in the error)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise InputError(f"{what} override {text!r} is not of the form key=value")
    return key.strip(), value.strip()


def _convert(key: str, raw: str, current, what: str = "switch"):
    if isinstance(current, bool):
        low = raw.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise InputError(f"{what} {key} takes true or false, not {raw!r}")
    if isinstance(current, int):
        try:
            return int(raw)
        except ValueError:
            raise InputError(f"{what} {key} takes a whole number, not {raw!r}") from None
    return raw


def apply_overrides(base: T, overrides: dict[str, str] | list[str] | tuple | None, what: str = "switch") -> T:
    """``base`` with the named switches (or, ``what``, policy parameters) replaced; unknown names
    list the valid ones."""
    if not overrides:
        return base
    if not isinstance(overrides, dict):
        overrides = dict(parse_override(o, "rule" if what == "switch" else what) for o in overrides)
    names = [f.name for f in dataclasses.fields(base) if f.name != "name"]
    changes = {}
    for key, raw in overrides.items():
        if key not in names:
            raise InputError(f"unknown {what} {key!r}; valid: {', '.join(names)}")
        current = getattr(base, key)
        changes[key] = raw if not isinstance(raw, str) else _convert(key, raw, current, what)
    return dataclasses.replace(base, **changes)


RENAMED_POLICIES = {"heuristic-new": "tuned-exact", "learned-fast": "learned-ordering"}
"""Policies' old names (their history) and the names that say what they are; the old ones still
work, with a notice."""


def current_name(name: str, what: str = "policy") -> str:
    """``name``, or its new name (a one-line notice on stderr) if it is an old one."""
    if name in RENAMED_POLICIES:
        import sys

        print(f"salon: the {what} {name!r} is now called {RENAMED_POLICIES[name]!r}; the old name will go",
              file=sys.stderr)
        return RENAMED_POLICIES[name]
    return name


def pick_policy(name: str, overrides, heuristic, random, presets: dict | None = None):
    """A game's policy by name: ``heuristic`` (the default instance ``heuristic`` with parameters
    overridden, ``key=value``), ``random`` (the instance ``random``, which takes none), or one of
    the game's named ``presets`` of the heuristic (Bezique's ``tuned``), parameters overridden.
    An old name (``RENAMED_POLICIES``) still works, with a notice naming the new one."""
    presets = presets or {}
    if name in RENAMED_POLICIES and RENAMED_POLICIES[name] in presets:
        name = current_name(name)
    if name == "heuristic":
        return apply_overrides(heuristic, overrides, "policy parameter")
    if name in presets:
        return apply_overrides(presets[name], overrides, "policy parameter")
    if name == "random":
        if overrides:
            raise InputError("the random policy takes no parameters")
        return random
    raise InputError(f"unknown policy {name!r}; valid: {', '.join(['heuristic', 'random', *presets])}")

"""Deal records shared by every game: JSON files in (one record or a list) and out, one-line errors,
and :class:`RecordSchema`, the checks every game's record shares (keys, cards, rules).

Each ``analysis/<game>/records.py`` holds one ``SCHEMA = RecordSchema(...)`` and reads its records'
top level, cards and rules through it; only the game's own steps (tricks, exchanges, ...) stay
in that module.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.errors import InputError

if TYPE_CHECKING:
    from analysis.cards import CardCodec


def _load_json(path):
    """The JSON in a file: one record object or a list of them, checked to be objects."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a UTF-8 text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno} column {e.colno}"
        raise InputError(f"{path}: not valid JSON ({e.msg} at {where})") from None
    for i, item in enumerate(data if isinstance(data, list) else [data]):
        if not isinstance(item, dict):
            kind = type(item).__name__
            raise InputError(f"{path}: record {i + 1} is a {kind}, not a JSON object")
    return data


def load_records(path) -> list[dict]:
    """The records in a JSON file holding one record object or a list of them, as a list."""
    data = _load_json(path)
    return data if isinstance(data, list) else [data]


def load_record(path) -> dict | list[dict]:
    """What a JSON record file holds: one record (a dict), or several (a list of dicts)."""
    return _load_json(path)


def dump_record(record: dict, indent: str, item_per_line: tuple[str, ...] = ()) -> str:
    """A record with one key per line and each value on its line; the (non-empty) lists under
    ``item_per_line`` keys get a line per item."""
    lines = []
    for k, v in record.items():
        if k in item_per_line and isinstance(v, list) and v:
            inner = ",\n".join(f"{indent}    {json.dumps(t, ensure_ascii=False)}" for t in v)
            lines.append(f"{indent}  {json.dumps(k)}: [\n{inner}\n{indent}  ]")
        else:
            lines.append(f"{indent}  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
    return indent + "{\n" + ",\n".join(lines) + "\n" + indent + "}"


def save_records(records, path, dump: Callable[[dict, str], str] = dump_record) -> None:
    """Write one record (a dict) as a JSON object, or several as a JSON list."""
    if isinstance(records, dict):
        text = dump(records, "")
    else:
        text = "[\n" + ",\n".join(dump(r, "  ") for r in records) + "\n]"
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None


# ------------------------------------------------------------------ reading a record's fields
def fail_step(step: str, message: str, rule: str | None = None) -> None:
    """Raise the one-line error of a record: ``step: message (RULE)``."""
    raise InputError(f"{step}: {message}" + (f" ({rule})" if rule else ""))


@dataclass(frozen=True)
class RecordSchema:
    """What every game's deal record shares: a JSON object with ``"game"`` = ``game``, the
    ``required_keys`` (``"rules"`` may be left out when the caller gives the rules), no keys but
    those and the ``optional_keys``, cards as strings coded by ``codec``, and ``"rules"`` (a
    variant name, ``get_rules(name)``) with optional ``"switches"`` that differ from it.

    ``variants`` are the game's named variants, for writing ``"rules"`` and ``"switches"``; the
    lists under ``item_per_line`` keys are written an item per line.
    """

    game: str
    required_keys: tuple[str, ...]
    optional_keys: tuple[str, ...]
    get_rules: Callable
    codec: CardCodec
    variants: Mapping  # name -> rules
    default_variant: str = "seed-de"
    item_per_line: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key a record may have, the required ones first."""
        return self.required_keys + self.optional_keys

    # ------------------------------------------------------------------ reading
    def check(self, record, rules=None) -> None:
        """The record is an object with the required keys, no unknown ones, and this game's."""
        if not isinstance(record, dict):
            fail_step("record", f"expected a JSON object, got {type(record).__name__}")
        for key in self.required_keys:
            if key not in record and not (key == "rules" and rules is not None):
                fail_step("record", f"missing key {key!r}")
        unknown = [k for k in record if k not in self.keys]
        if unknown:
            fail_step("record", f"unknown key {unknown[0]!r}; valid: {', '.join(self.keys)}")
        if record["game"] != self.game:
            fail_step("game", f"expected {self.game!r}, got {record['game']!r}")

    def card(self, value, where: str) -> int:
        """One card string -> its code (the first copy's, in a doubled pack)."""
        from analysis.cards import parse_card

        if not isinstance(value, str):
            fail_step(where, f"expected a card string, got {type(value).__name__}")
        try:
            return self.codec.code_of(parse_card(value))
        except InputError as e:
            fail_step(where, str(e))

    def cards(self, value, where: str) -> list[int]:
        """A list of card strings -> codes."""
        if not isinstance(value, list):
            fail_step(where, f"expected a list of cards, got {type(value).__name__}")
        return [self.card(v, where) for v in value]

    def rules_of(self, record: dict, rules=None):
        """The explicit ``rules``, else the record's variant with its switches."""
        from analysis.variants import apply_overrides

        if rules is not None:
            return rules
        name = record["rules"]
        if not isinstance(name, str):
            fail_step("rules", f"expected a variant name, got {type(name).__name__}")
        try:
            base = self.get_rules(name)
        except InputError as e:
            fail_step("rules", str(e))
        switches = record.get("switches", {})
        if not isinstance(switches, dict):
            fail_step("switches", f"expected an object of switches, got {type(switches).__name__}")
        as_text = {k: v if isinstance(v, str) else json.dumps(v) for k, v in switches.items()}
        try:
            return apply_overrides(base, as_text)
        except InputError as e:
            fail_step("switches", str(e))

    # ------------------------------------------------------------------ writing
    def rules_entries(self, rules) -> dict:
        """``"rules"`` (the variant's name, the default for unnamed rules) and, when some switch
        differs from that variant, ``"switches"`` with those."""
        name = rules.name if rules.name in self.variants else self.default_variant
        base = self.variants[name].switches()
        changed = {k: v for k, v in rules.switches().items() if base[k] != v}
        return {"rules": name, **({"switches": changed} if changed else {})}

    def dump(self, record: dict, indent: str) -> str:
        """One record as the files hold it (one key per line)."""
        return dump_record(record, indent, self.item_per_line)

    def save(self, records, path) -> None:
        """Write one record (a dict) as a JSON object, or several as a JSON list."""
        save_records(records, path, self.dump)

"""Deal-record files shared by every game: JSON in (one record or a list), JSON out, one-line errors."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from analysis.errors import InputError


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


def dump_record(record: dict, indent: str) -> str:
    """A record with one key per line and each value on its line."""
    lines = [f"{indent}  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
             for k, v in record.items()]
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


def card_code(value, where: str, code_of: Callable) -> int:
    """One card string -> the game's code (``code_of`` of the parsed card)."""
    from analysis.cards import parse_card

    if not isinstance(value, str):
        fail_step(where, f"expected a card string, got {type(value).__name__}")
    try:
        return code_of(parse_card(value))
    except InputError as e:
        fail_step(where, str(e))


def card_codes(value, where: str, code_of: Callable) -> list[int]:
    """A list of card strings -> codes."""
    if not isinstance(value, list):
        fail_step(where, f"expected a list of cards, got {type(value).__name__}")
    return [card_code(v, where, code_of) for v in value]


def record_rules(record: dict, rules, get_rules: Callable):
    """The explicit rules, else the record's variant (``get_rules(name)``) with its switches."""
    from analysis.variants import apply_overrides

    if rules is not None:
        return rules
    name = record["rules"]
    if not isinstance(name, str):
        fail_step("rules", f"expected a variant name, got {type(name).__name__}")
    try:
        base = get_rules(name)
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

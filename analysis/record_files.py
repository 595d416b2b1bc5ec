"""Deal records shared by every game: JSON files in (one record or a list) and out, one-line errors,
and :class:`RecordSchema`, the checks every game's record shares (keys, cards, rules).

Each ``analysis/<game>/records.py`` holds one ``SCHEMA = RecordSchema(...)`` and reads its records'
top level, cards and rules through it; only the game's own steps (tricks, exchanges, ...) stay
in that module.

The path ``-`` is standard input for :func:`load_records` / :func:`load_record` and standard
output for :func:`save_records`.
"""
from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analysis.errors import InputError

if TYPE_CHECKING:
    from analysis.cards import CardCodec


GAMES = ("ecarte", "piquet", "bezique")
"""The games whose records a schema tells apart (``analysis.<game>.records.SCHEMA``)."""

STDIO = "-"
"""The path that means standard input (reading) or standard output (writing)."""

MAX_JSON_BYTES = 256 * 1024 * 1024
"""The largest JSON file salon reads (records, a saved report): about 250,000 deal records. Python
holds a JSON list in about 17 times its size on disk, so this keeps a file within about 4 GB."""


def parse_json(text: str, name: str):
    """The JSON value in ``text`` (from ``name``), or an input error in one line: not JSON, nested
    deeper than Python's parser goes, or a number too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise InputError(f"{name}: nested too deeply to be a salon file") from None
    except ValueError as e:  # an integer of more than sys.get_int_max_str_digits() digits
        raise InputError(f"{name}: a number too long to read ({str(e).split(':')[0]})") from None


def read_json(path, name: str | None = None):
    """The JSON value in a file (``-``: standard input), at most MAX_JSON_BYTES, with one-line errors."""
    name = name or ("standard input" if _is_stdio(path) else str(path))
    return parse_json(read_text(path, name), name)


def _is_stdio(path) -> bool:
    return isinstance(path, str) and path == STDIO


def read_text(path, name: str | None = None) -> str:
    """A file's text (``-``: standard input), at most MAX_JSON_BYTES, with one-line errors."""
    name = name or ("standard input" if _is_stdio(path) else str(path))
    try:
        if not _is_stdio(path) and Path(path).stat().st_size > MAX_JSON_BYTES:
            raise InputError(f"{name}: larger than {MAX_JSON_BYTES >> 20} MB; split it into smaller files")
        text = _read_text(path)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a UTF-8 text file") from None
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{name}: larger than {MAX_JSON_BYTES >> 20} MB; split it into smaller files")
    return text


def _read_text(path) -> str:
    """A file's text, or standard input's for ``-``, as UTF-8."""
    if not _is_stdio(path):
        return Path(path).read_text(encoding="utf-8")
    stream = sys.stdin
    if stream is None:
        raise InputError("cannot read standard input: there is none")
    raw = stream.buffer.read(MAX_JSON_BYTES + 1) if hasattr(stream, "buffer") else stream.read(MAX_JSON_BYTES + 1)
    return raw.decode("utf-8") if isinstance(raw, bytes) else raw


def _load_json(path):
    """The JSON in a file (``-``: standard input): one record object or a non-empty list of them,
    checked to be objects."""
    return checked_records(read_json(path), "standard input" if _is_stdio(path) else path)


def checked_records(data, path: str):
    """JSON data that holds one record object or a non-empty list of them (else an input error)."""
    if isinstance(data, dict) and "deals" in data:
        raise InputError(f"{path} holds a whole partie or game (\"deals\"): salon review and salon record convert "
                         "read it; this command reads deal records")
    for i, item in enumerate(data if isinstance(data, list) else [data]):
        if not isinstance(item, dict):
            kind = type(item).__name__
            raise InputError(f"{path}: record {i + 1} is a {kind}, not a JSON object")
    if data == []:
        raise InputError(f"{path} holds no records (an empty list)")
    return data


def load_records(path) -> list[dict]:
    """The records in a JSON file (``-``: standard input) holding one record object or a list of
    them, as a list; an empty list is an error."""
    data = _load_json(path)
    return data if isinstance(data, list) else [data]


def load_record(path) -> dict | list[dict]:
    """What a JSON record file (``-``: standard input) holds: one record (a dict), or several
    (a non-empty list of dicts)."""
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
    """Write one record (a dict) as a JSON object, or several as a JSON list, to a file or, for
    ``-``, to standard output."""
    if isinstance(records, dict):
        text = dump(records, "")
    else:
        text = "[\n" + ",\n".join(dump(r, "  ") for r in records) + "\n]"
    write_text(path, text + "\n")


def write_text(path, text: str) -> None:
    """Write ``text`` to a file or, for ``-``, to standard output; an input error in one line."""
    try:
        if _is_stdio(path):
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {'standard output' if _is_stdio(path) else path}: {e.strerror or e}") from None


def _a(game: str) -> str:
    """``a piquet``, ``an ecarte``."""
    return ("an " if game[0] in "aeiou" else "a ") + game


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

    A record without ``"game"`` is read as this game's unless its keys are another game's; a
    record of another game is named as such (``this is a piquet record; salon ecarte replay
    reads ecarte records``).

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

    @property
    def command(self) -> str:
        """The command that reads this game's records."""
        return f"salon {self.game} replay"

    # ------------------------------------------------------------------ reading
    def check(self, record, rules=None) -> None:
        """The record is an object of this game (its ``"game"``, or when it has none, keys that
        are not another game's) with the required keys and no unknown ones."""
        if not isinstance(record, dict):
            fail_step("record", f"expected a JSON object, got {type(record).__name__}")
        if "game" in record:
            game = record["game"]
            if game != self.game:
                other = f" ({self._not_ours(game)})" if game in GAMES else ""
                fail_step("game", f"expected {self.game!r}, got {game!r}{other}")
        else:
            other = self.game_of_keys(record)
            if other is not None:
                fail_step("record", f"{self._not_ours(other)} (it has no \"game\"; its keys are "
                                    f"{_a(other)} record's)")
        for key in self.required_keys:
            if key not in record and key != "game" and not (key == "rules" and rules is not None):
                fail_step("record", f"missing key {key!r}")
        unknown = [k for k in record if k not in self.keys]
        if unknown:
            fail_step("record", f"unknown key {unknown[0]!r}; valid: {', '.join(self.keys)}")

    def _not_ours(self, game: str) -> str:
        return f"this is {_a(game)} record; {self.command} reads {self.game} records"

    def game_of_keys(self, record: dict) -> str | None:
        """The other game whose record this is by its keys, if one: every key is that game's,
        and some key is not this game's. None when the keys may be this game's."""
        if all(k in self.keys for k in record):
            return None
        for game in GAMES:
            if game != self.game:
                other = importlib.import_module(f"analysis.{game}.reference.records").SCHEMA
                if all(k in other.keys for k in record):
                    return game
        return None

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

"""The plain text notation of deal records, for every game (docs/records.md): a deal a person can
type from a score sheet, one ``key: value`` line each, read strictly and written back.

Each game's ``analysis/<game>/record_text.py`` (its descriptor's ``notation``) turns its lines into
the JSON record (``from_lines``) and back (``to_text``); this module holds what they share: splitting the text into
deals and lines, the errors that name the line, the token and the rule, and the file's game.
Comments start with ``#``; a blank line or a ``game:`` line starts the next deal.
"""
from __future__ import annotations

from dataclasses import dataclass

from analysis.errors import InputError

GAMES = ("ecarte", "piquet", "bezique")


@dataclass(frozen=True)
class Line:
    """One line of a text record: its number in the file, its key (lower case) and its value."""

    number: int
    key: str
    value: str

    def fail(self, message: str, rule: str | None = None):
        """An input error naming this line (and the rule broken)."""
        raise InputError(f"line {self.number}: {self.key}: {message}" + (f" ({rule})" if rule else ""))

    def tokens(self) -> list[str]:
        return self.value.replace(",", " ").split()


def looks_like_text(text: str) -> bool:
    """Whether a file's text is the notation rather than JSON."""
    head = text.lstrip()
    return bool(head) and head[0] not in "[{"


def deals(text: str) -> list[list[Line]]:
    """The deals of a text file: runs of ``key: value`` lines, split at blank lines and at each
    ``game:`` line after the first of a run."""
    out: list[list[Line]] = []
    current: list[Line] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            if current:
                out.append(current)
                current = []
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise InputError(f"line {n}: expected 'key: value', got {line!r}")
        key = " ".join(key.lower().split())
        if key == "game" and current:
            out.append(current)
            current = []
        current.append(Line(n, key, value.strip()))
    if current:
        out.append(current)
    if not out:
        raise InputError("the file holds no deal")
    return out


def game_of(lines: list[Line], game: str | None) -> str:
    """A text deal's game: its ``game:`` line, else ``game`` (an input error when neither)."""
    named = next((ln for ln in lines if ln.key == "game"), None)
    if named is not None:
        value = named.value.lower().replace("é", "e")
        if value not in GAMES:
            named.fail(f"unknown game {named.value!r}; valid: {', '.join(GAMES)}")
        if game is not None and value != game:
            named.fail(f"this is {value} but --game {game} was given")
        return value
    if game is None:
        raise InputError(f"line {lines[0].number}: the deal names no game: start it with 'game: ecarte|piquet|bezique'")
    return game


def module_of(game: str):
    """The game's notation module (its descriptor's ``notation``)."""
    from analysis.games import GAMES as DESCRIPTORS

    return DESCRIPTORS[game].notation.load()


def load_any(path, game: str | None = None):
    """What a file (``-``: standard input) holds: a list of deal records (JSON records, or deals in
    the notation), or a whole partie or game (``match_records.Match``)."""
    return read_records(path, game)[0]


def read_records(path, game: str | None = None) -> tuple:
    """(records or a Match, whether the file was the notation) of a file (``-``: standard input)."""
    from analysis import match_records
    from analysis.record_files import checked_records, parse_json, read_text

    name = "standard input" if path == "-" else str(path)
    text = read_text(path, name)
    if looks_like_text(text):
        return parse_any_text(text, game), True
    data = parse_json(text, name)
    if match_records.is_match(data):
        return match_records.from_json(data, name, game), False
    data = checked_records(data, name)
    return (data if isinstance(data, list) else [data]), False


MATCH_HEADER = ("game", "rules", "players", "comment")
"""The keys of a partie's or game's first block (docs/records.md, "A partie or a game")."""


def parse_any_text(text: str, game: str | None = None):
    """The deals of a text file as JSON records, or, when its first block names the ``players:``,
    the whole partie or game they make (``match_records.Match``)."""
    from analysis import match_records

    blocks = deals(text)
    head = blocks[0]
    later = next((ln for b in blocks[1:] for ln in b if ln.key == "players"), None)
    if later is not None:
        later.fail("only the first block of a file names the players (the partie's or game's header)")
    if not any(ln.key == "players" for ln in head):
        return [_parse_deal(lines, game) for lines in blocks]
    keys = Keys(head, ("players",), tuple(k for k in MATCH_HEADER if k != "players"))
    name = game_of(head, game)
    if len(blocks) == 1:
        raise InputError(f"line {head[0].number}: the header names the players but no deal follows it")
    players = keys.get("players")
    pair = [p.strip() for p in players.value.split(",")]
    try:
        players_pair = match_records.players_of(pair, "players")
    except InputError:
        players.fail("expected two different names separated by a comma, the first deal's elder first")
    rules = keys.get("rules").value if keys.get("rules") else "seed-de"
    records = []
    for lines in blocks[1:]:
        rules_line = next((ln for ln in lines if ln.key == "rules"), None)
        if rules_line is not None and rules_line.value != rules:
            rules_line.fail(f"{rules_line.value!r}, but the header says {rules!r}")
        records.append(_parse_deal(lines, name, rules))
    comment = keys.get("comment")
    return match_records.Match(name, rules, players_pair, records, comment.value if comment else None)


def parse_text(text: str, game: str | None = None) -> list[dict]:
    """The JSON records of a text file's deals (each game's ``from_lines``), each checked by its
    game's replay: a broken rule is reported on the line of the step that broke it."""
    return [_parse_deal(lines, game) for lines in deals(text)]


def _parse_deal(lines: list[Line], game: str | None, rules: str | None = None) -> dict:
    """One text deal's JSON record (under the variant ``rules`` when given: a partie's header's),
    checked by its game's replay: a broken rule is reported on the line of the step that broke it."""
    from analysis.games import GAMES as DESCRIPTORS

    name = game_of(lines, game)
    module = module_of(name)
    record = module.from_lines(lines)
    if rules is not None:
        record["rules"] = rules
    try:
        DESCRIPTORS[name].replay(record, None)
    except InputError as e:
        raise InputError(f"line {_line_of(str(e), lines, getattr(module, 'STEP_KEYS', {}))}: {e}") from None
    return record


def _line_of(message: str, lines: list[Line], aliases: dict[str, str]) -> int:
    """The line of the step a replay's message names (``trick 3: ...``), else the deal's first."""
    step = message.split(":", 1)[0].strip().lower()
    step = aliases.get(step, step)
    for ln in lines:
        if ln.key == step:
            return ln.number
    return lines[0].number


def to_text(records: list[dict], game: str | None = None) -> str:
    """Records written in the notation, a blank line between deals."""
    from analysis.review import game_of as records_game

    name = records_game(records, game)
    return "\n\n".join(module_of(name).to_text(r) for r in records) + "\n"


def convert_file(path, to: str | None, game: str | None, out: str) -> None:
    """``salon record convert``: the deals of ``path`` written to ``out`` in the other format (or
    ``to``), all of them checked by the replay before anything is written."""
    from analysis import match_records
    from analysis.games import GAMES as DESCRIPTORS
    from analysis.record_files import write_text
    from analysis.review import game_of as records_game

    records, was_text = read_records(path, game)
    if isinstance(records, match_records.Match):
        _convert_match(records, to or ("json" if was_text else "text"), out)
        return
    name = records_game(records, game)
    if (to or ("json" if was_text else "text")) == "text":
        write_text(out, to_text(records, name))
        return
    for i, r in enumerate(records):
        try:
            DESCRIPTORS[name].replay(r, None)
        except InputError as e:
            raise InputError(f"record {i + 1}: {e}" if len(records) > 1 else str(e)) from None
    DESCRIPTORS[name].save_records(records[0] if len(records) == 1 else records, out)


def _convert_match(match, to: str, out: str) -> None:
    """A partie or game written in ``to`` ("text" or "json"), every deal replayed and the score
    checked (a deal after its end is an error) before anything is written."""
    import importlib
    import json

    from analysis import match_records
    from analysis.games import GAMES as DESCRIPTORS
    from analysis.record_files import write_text

    g = DESCRIPTORS[match.game]
    match_records.scores(match, g.seats, g.review.load().match_step, g.replay)
    if to == "json":
        obj = match.to_json()
        schema = importlib.import_module(f"analysis.{match.game}.reference.records").SCHEMA
        head = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in obj.items() if k != "deals"]
        deals = ",\n".join(schema.dump(d, "    ") for d in obj["deals"])
        write_text(out, "{\n" + ",\n".join(head) + ',\n  "deals": [\n' + deals + "\n  ]\n}\n")
        return
    write_text(out, match_text(match))


def match_text(match) -> str:
    """A partie or game in the notation: its header block (game, rules, players), then its deals."""
    head = [f"game: {match.game}", f"rules: {match.rules}", f"players: {match.players[0]}, {match.players[1]}"]
    if match.comment:
        head.append(f"comment: {match.comment}")
    module = module_of(match.game)
    return "\n\n".join(["\n".join(head), *(module.to_text(r) for r in match.records)]) + "\n"


class Keys:
    """A text deal's lines by key: each key at most once unless ``repeated``; unknown keys, repeats
    and (when read) missing required keys are errors naming the line."""

    def __init__(self, lines: list[Line], required: tuple[str, ...], optional: tuple[str, ...],
                 repeated: tuple[str, ...] = (), prefixes: tuple[str, ...] = ()):
        self.lines = lines
        self.one: dict[str, Line] = {}
        self.many: dict[str, list[Line]] = {k: [] for k in repeated + prefixes}
        valid = required + optional + repeated
        for ln in lines:
            prefix = next((p for p in prefixes if ln.key.startswith(p + " ") or ln.key == p), None)
            if prefix is not None:
                self.many[prefix].append(ln)
            elif ln.key in repeated:
                self.many[ln.key].append(ln)
            elif ln.key in valid:
                if ln.key in self.one:
                    ln.fail(f"given twice (first on line {self.one[ln.key].number})")
                self.one[ln.key] = ln
            else:
                ln.fail(f"unknown key; valid: {', '.join(valid + tuple(p + ' N' for p in prefixes))}")
        self.required = required

    def numbered(self, prefix: str) -> list[Line]:
        """The ``prefix N`` lines (``trick 1``, ``trick 2``, ...), checked to be numbered in order."""
        for n, ln in enumerate(self.many[prefix], 1):
            if ln.key != f"{prefix} {n}":
                ln.fail(f"expected '{prefix} {n}' here ({prefix}s numbered in order)")
        return self.many[prefix]

    def finish(self, record: dict) -> dict:
        """The record with the deal's ``comment:`` (kept, not read)."""
        if self.one.get("comment"):
            record["comment"] = self.one["comment"].value
        return record

    def get(self, key: str) -> Line | None:
        """The line of ``key``; a required key's absence is an input error (raised when it is
        read, so the errors of a deal come in the order its lines are read)."""
        if key in self.required and key not in self.one:
            raise InputError(f"line {self.lines[0].number}: the deal has no '{key}:' line")
        return self.one.get(key)


def text_lines(record: dict, game: str, body: list[str]) -> str:
    """A deal in the notation: its ``game:`` and ``rules:`` lines, ``body``, its comment (a record
    with switches overridden stays JSON: an input error)."""
    if record.get("switches"):
        raise InputError("a record with switches cannot be written in the notation yet: keep it as JSON")
    out = [f"game: {game}", f"rules: {record.get('rules', 'seed-de')}", *body]
    if record.get("comment"):
        out.append(f"comment: {record['comment']}")
    return "\n".join(out)


def cards_of(line: Line, codec, count: int | None = None, rule: str | None = None) -> list[str]:
    """The cards of a line, checked one by one and written as records write them (``KH``, ``10S``);
    ``count``: exactly this many."""
    from analysis.cards import format_card, parse_cards

    try:
        cards = parse_cards(line.value, allow_copies=codec.copies if codec.copies > 1 else 0) \
            if line.value.strip() not in ("", "-", "nothing") else []
    except InputError as e:
        line.fail(str(e))
    names = [format_card(c) for c in cards]
    if count is not None and len(names) != count:
        line.fail(f"{len(names)} cards, expected {count}", rule)
    return names

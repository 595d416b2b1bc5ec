"""One record schema for every game (analysis/record_files.py RecordSchema): the shared checks,
rules entries and file format, and bad record files on the command line (one line, exit 2)."""

from __future__ import annotations

import importlib
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.errors import InputError
from analysis.record_files import RecordSchema, dump_record

GAMES = ("ecarte", "piquet", "bezique")
OVERRIDES = {
    "ecarte": [["target=7"], ["penalty_point=2", "must_trump_when_void=false"]],
    "piquet": [["capot=30"], ["younger_min=1", "rubicon=50"]],
    "bezique": [["target=1500"], ["last_trick=0"]],
}


def reference_module(game: str):
    """The reference module that plays a whole deal (a hand in Écarté)."""
    return importlib.import_module(f"analysis.{game}.reference.{'hand' if game == 'ecarte' else 'deal'}")


def records_module(game: str):
    return importlib.import_module(f"analysis.{game}.reference.records")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_reads_through_its_schema(game):
    mod = records_module(game)
    rules_mod = importlib.import_module(f"analysis.{game}.rules")
    schema = mod.SCHEMA
    assert isinstance(schema, RecordSchema) and schema.game == game
    assert schema.codec is rules_mod.CODEC
    assert schema.required_keys == mod.REQUIRED_KEYS and schema.optional_keys == mod.OPTIONAL_KEYS
    for copy in ("_rules_entries", "_rules_of", "_check_keys"):
        assert not hasattr(mod, copy)


@pytest.mark.parametrize("game", GAMES)
def test_rules_entries_name_the_variant_and_the_changed_switches(game):
    """The same entries as before: the variant's name and reference.overridden_switches."""
    schema = records_module(game).SCHEMA
    ref = reference_module(game)
    rules_mod = importlib.import_module(f"analysis.{game}.rules")
    for name in rules_mod.VARIANTS:
        for overrides in [[], *OVERRIDES[game]]:
            rules = rules_mod.get_rules(name, overrides)
            changed = ref.overridden_switches(rules)
            assert schema.rules_entries(rules) == {"rules": name, **({"switches": changed} if changed else {})}
            assert bool(changed) == bool(overrides)
            assert schema.rules_of(schema.rules_entries(rules)) == rules


def test_card_and_cards_name_the_place():
    schema = records_module("ecarte").SCHEMA
    assert schema.card("K♥", "turnup") == schema.codec.code_of(schema.codec.card_of(15))
    assert schema.cards(["7S", "th"], "stock") == [0, 11]
    for value, where, message in [
        (7, "turnup", "turnup: expected a card string, got int"),
        ("XX", "turnup", "turnup: not a card: 'XX'"),
    ]:
        with pytest.raises(InputError, match=message):
            schema.card(value, where)
    with pytest.raises(InputError, match="stock: expected a list of cards, got str"):
        schema.cards("7S 8S", "stock")


def test_dump_writes_a_key_per_line_and_items_per_line_where_asked():
    record = {"game": "bezique", "tricks": [{"lead": "QS"}, {"lead": "7H"}], "stock": ["7S", "♥K"]}
    assert dump_record(record, "") == (
        '{\n  "game": "bezique",\n  "tricks": [{"lead": "QS"}, {"lead": "7H"}],\n'
        '  "stock": ["7S", "♥K"]\n}')
    assert dump_record(record, "  ", ("tricks",)) == (
        '  {\n    "game": "bezique",\n    "tricks": [\n      {"lead": "QS"},\n      {"lead": "7H"}\n'
        '    ],\n    "stock": ["7S", "♥K"]\n  }')
    assert json.loads(dump_record(record, "", ("tricks",))) == record
    assert dump_record({"tricks": []}, "", ("tricks",)) == '{\n  "tricks": []\n}'


# ---------------------------------------------------------------------------------------------
# Records of every game, played by the references (no kernel)
# ---------------------------------------------------------------------------------------------

def game_records(game: str, n: int = 2) -> list[dict]:
    """n records of a game as `salon simulate GAME --records` writes them."""
    rules = importlib.import_module(f"analysis.{game}.rules").get_rules("seed-de")
    policy = importlib.import_module(f"analysis.{game}.policies").get_policy("heuristic", [])
    ref = reference_module(game)
    mod = records_module(game)
    if game == "ecarte":
        return [mod.record_from_hand(ref.play_hand(1, i, rules, policy), rules) for i in range(n)]
    return [mod.record_from_deal(ref.play_deal(1, i, rules, policy, policy), rules) for i in range(n)]


def a_game(game: str) -> str:
    return ("an " if game == "ecarte" else "a ") + game


@pytest.mark.parametrize("game", GAMES)
def test_a_record_without_game_is_read_as_the_commands_game(game):
    mod = records_module(game)
    for record in game_records(game):
        bare = {k: v for k, v in record.items() if k != "game"}
        assert mod.replay(bare) == mod.replay(record)


@pytest.mark.parametrize("ours, theirs", list(itertools.permutations(GAMES, 2)))
def test_a_record_of_another_game_is_named(ours, theirs):
    mod = records_module(ours)
    record = game_records(theirs, 1)[0]
    named = f"this is {a_game(theirs)} record; salon {ours} replay reads {ours} records"
    with pytest.raises(InputError) as e:
        mod.replay(record)
    assert str(e.value) == f"game: expected {ours!r}, got {theirs!r} ({named})"
    bare = {k: v for k, v in record.items() if k != "game"}  # no "game": told by its keys
    with pytest.raises(InputError) as e:
        mod.replay(bare)
    assert str(e.value) == f"record: {named} (it has no \"game\"; its keys are {a_game(theirs)} record's)"
    assert mod.SCHEMA.game_of_keys(bare) == theirs


def test_unknown_games_and_keys_keep_their_messages():
    mod = records_module("ecarte")
    record = game_records("ecarte", 1)[0]
    with pytest.raises(InputError, match=r"^game: expected 'ecarte', got 'whist'$"):
        mod.replay({**record, "game": "whist"})
    bare = {k: v for k, v in record.items() if k != "game"}
    with pytest.raises(InputError, match=r"^record: unknown key 'talon'; valid: game, rules"):
        mod.replay({**bare, "talon": []})  # one Piquet key among Écarté's: a typo, not a piquet record
    assert mod.SCHEMA.game_of_keys({**bare, "talon": []}) is None


# ---------------------------------------------------------------------------------------------
# Files: empty lists, standard input and output
# ---------------------------------------------------------------------------------------------

def test_an_empty_list_holds_no_records(tmp_path):
    from analysis.record_files import load_record, load_records

    path = tmp_path / "empty.json"
    path.write_text("[]\n", encoding="utf-8")
    for load in (load_records, load_record):
        with pytest.raises(InputError, match=r"empty.json holds no records \(an empty list\)$"):
            load(path)


def feed_stdin(monkeypatch, data: bytes) -> None:
    """Standard input holding ``data``, as a real one: text over a byte buffer."""
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_records_go_to_standard_output_and_come_from_standard_input(game, tmp_path, capsys, monkeypatch):
    mod = records_module(game)
    records = game_records(game)
    for recs in (records, records[0]):
        mod.save_records(recs, "-")
        out = capsys.readouterr().out
        mod.save_records(recs, tmp_path / "file.json")
        assert out.encode("utf-8") == (tmp_path / "file.json").read_bytes()  # the same bytes
        feed_stdin(monkeypatch, out.encode("utf-8"))
        assert mod.load_records("-") == (recs if isinstance(recs, list) else [recs])
        feed_stdin(monkeypatch, out.encode("utf-8"))
        assert mod.load_record("-") == recs
    assert [mod.replay(r) for r in mod.load_records(tmp_path / "file.json")] == [mod.replay(records[0])]


@pytest.mark.parametrize("data, message", [
    (b"[]", "standard input holds no records (an empty list)"),
    (b"", "standard input: not valid JSON (Expecting value at line 1 column 1)"),
    (b'{"game": ', "standard input: not valid JSON"),
    (b"[3]", "standard input: record 1 is a int, not a JSON object"),
    (b'"\xff"', "standard input: not a UTF-8 text file"),
])
def test_bad_standard_input_is_one_line(data, message, monkeypatch):
    from analysis.record_files import load_records

    feed_stdin(monkeypatch, data)
    with pytest.raises(InputError) as e:
        load_records("-")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_plain_text_standard_input(monkeypatch):
    """A standard input without a byte buffer (as some test runners give) is read as text."""
    import io

    from analysis.record_files import load_records

    monkeypatch.setattr("sys.stdin", io.StringIO('{"game": "ecarte"}'))
    assert load_records("-") == [{"game": "ecarte"}]


def test_a_file_named_dash_needs_a_path(tmp_path, monkeypatch):
    """Only the string "-" is standard input; Path("-") (./-) is a file."""
    from pathlib import Path

    from analysis.record_files import load_records, save_records

    monkeypatch.chdir(tmp_path)
    save_records([{"game": "piquet"}], Path("-"))
    assert (tmp_path / "-").exists()
    assert load_records(Path("-")) == [{"game": "piquet"}]


# ---------------------------------------------------------------------------------------------
# The console script: bad record files are one line on stderr and exit code 2
# ---------------------------------------------------------------------------------------------

def salon(*args: str) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("salon")
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from analysis.cli import main; main()"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def one_error_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("game", GAMES)
def test_cli_replay_of_an_empty_list(game, tmp_path):
    path = tmp_path / "empty.json"
    path.write_text("[]\n", encoding="utf-8")
    assert one_error_line(salon(game, "replay", str(path))) == f"error: {path} holds no records (an empty list)"


@pytest.mark.parametrize("ours, theirs, keep_game", [
    ("ecarte", "piquet", True), ("piquet", "bezique", True), ("bezique", "ecarte", False)])
def test_cli_replay_of_another_games_record(ours, theirs, keep_game, tmp_path):
    records = game_records(theirs)
    if not keep_game:
        records = [{k: v for k, v in r.items() if k != "game"} for r in records]
    path = tmp_path / f"{theirs}.json"
    records_module(theirs).save_records(records, path)
    line = one_error_line(salon(ours, "replay", str(path)))
    assert f"this is {a_game(theirs)} record; salon {ours} replay reads {ours} records" in line


def test_cli_replay_of_a_record_without_game(tmp_path):
    record = {k: v for k, v in game_records("piquet", 1)[0].items() if k != "game"}
    path = tmp_path / "bare.json"
    records_module("piquet").save_records(record, path)
    proc = salon("piquet", "replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"] == records_module("piquet").replay(record)["scores"]

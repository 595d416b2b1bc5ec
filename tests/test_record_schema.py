"""One record schema for every game (analysis/record_files.py RecordSchema): the shared checks,
rules entries and file format, and bad record files on the command line (one line, exit 2)."""

from __future__ import annotations

import importlib
import json

import pytest

from analysis.errors import InputError
from analysis.record_files import RecordSchema, dump_record

GAMES = ("ecarte", "piquet", "bezique")
OVERRIDES = {
    "ecarte": [["target=7"], ["penalty_point=2", "must_trump_when_void=false"]],
    "piquet": [["capot=30"], ["younger_min=1", "rubicon=50"]],
    "bezique": [["target=1500"], ["last_trick=0"]],
}


def records_module(game: str):
    return importlib.import_module(f"analysis.{game}.records")


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
    ref = importlib.import_module(f"analysis.{game}.reference")
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

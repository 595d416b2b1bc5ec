"""Piquet deal records (analysis/piquet/reference/records.py): round trips, re-scoring of hand-made deals,
and one test per kind of illegal or malformed record, each naming the step and the RULES.md rule."""
from __future__ import annotations

import copy
import json

import pytest

from analysis.errors import InputError
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.reference.cards import ELDER, YOUNGER
from analysis.piquet.reference.deal import play_deal
from analysis.piquet.reference.records import (
    load_record,
    load_records,
    record_from_deal,
    replay,
    save_records,
)
from analysis.piquet.rules import get_rules

VARIANT_NAMES = ("seed-de", "seed-no", "cavendish")


def pique_record(**extra) -> dict:
    """A hand-made seed-de deal (docs: tests/test_piquet_reference.py, PQ-PIQUE).

    Elder discards 7S and takes AS: ♠A K Q J 10 9 ♥A 7 ♦A 7 ♣8 7, point 6 (60), sixième 16,
    trio of aces 3. Younger keeps ♥K Q J 10 9 8 ♦K Q J 10 9 8. Elder leads his spades: 25 + 5
    leads = 30 with younger at 0: pique. Elder leads 11 tricks and wins 10; younger wins trick
    11, leads and wins trick 12.
    """
    record = {
        "game": "piquet", "rules": "seed-de",
        "elder": {"dealt": "KS QS JS 10S 9S 7S AH 7H AD 7D 8C 7C".split(), "discard": ["7S"]},
        "younger": {"dealt": "KH QH JH 10H 9H 8H KD QD JD 10D 9D 8D".split(), "discard": []},
        "talon": "AS 8S 9C 10C JC QC KC AC".split(),
        "tricks": [["AS", "8H"], ["KS", "9H"], ["QS", "10H"], ["JS", "JH"], ["10S", "QH"],
                   ["9S", "KH"], ["8C", "8D"], ["7C", "9D"], ["AD", "10D"], ["AH", "JD"],
                   ["7D", "QD"], ["KD", "7H"]],
    }
    record.update(extra)
    return record


PIQUE_ELDER = {"carte_blanche": 0, "point": 6, "sequences": 16, "sets": 3, "repique": 0,
               "pique": 30, "trick_points": 11, "cards": 10, "capot": 0, "total": 76, "tricks": 10}
PIQUE_YOUNGER = {"carte_blanche": 0, "point": 0, "sequences": 0, "sets": 0, "repique": 0,
                 "pique": 0, "trick_points": 3, "cards": 0, "capot": 0, "total": 3, "tricks": 2}


def error_of(record, rules=None) -> str:
    with pytest.raises(InputError) as info:
        replay(record, rules)
    message = str(info.value)
    assert "\n" not in message
    return message


# ---------------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
@pytest.mark.parametrize("policy", [HeuristicPolicy(), RandomPolicy()], ids=["heuristic", "random"])
def test_round_trip(name, policy):
    """play_deal -> record_from_deal -> JSON -> replay gives play_deal's breakdown."""
    rules = get_rules(name)
    for index in range(120):
        deal = play_deal(13, index, rules, policy, RandomPolicy())
        record = json.loads(json.dumps(record_from_deal(deal, rules)))
        out = replay(record)
        assert out["game"] == "piquet" and out["rules"] == name
        assert out["switches"] == rules.switches()
        assert out["scores"] == {ELDER: deal.scores[ELDER], YOUNGER: deal.scores[YOUNGER]}


def test_round_trip_with_switches():
    """Overridden switches travel in the record's "switches" and are used by replay."""
    rules = get_rules("cavendish", {"capot": "50", "last_trick": "2", "younger_min": "0"})
    for index in range(60):
        deal = play_deal(3, index, rules, RandomPolicy())
        record = record_from_deal(deal, rules)
        assert record["switches"] == {"capot": 50, "last_trick": 2, "younger_min": 0}
        out = replay(json.loads(json.dumps(record)))
        assert out["scores"][ELDER] == deal.scores[ELDER]
        assert out["switches"] == rules.switches()


def test_save_and_load_one_and_many(tmp_path):
    rules = get_rules("seed-no")
    records = [record_from_deal(play_deal(1, i, rules, HeuristicPolicy()), rules) for i in range(3)]
    save_records(records, tmp_path / "many.json")
    assert load_records(tmp_path / "many.json") == records
    save_records(records[0], tmp_path / "one.json")
    assert load_records(tmp_path / "one.json") == [records[0]]
    assert load_record(tmp_path / "one.json") == records[0]
    assert "♠" not in (tmp_path / "one.json").read_text()


def test_load_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"game\": ", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.json: not valid JSON \(Expecting value at line 1"):
        load_records(bad)
    bad.write_text("[1]", encoding="utf-8")
    with pytest.raises(InputError, match="record 1 is a int, not a JSON object"):
        load_records(bad)
    with pytest.raises(InputError, match="cannot read"):
        load_records(tmp_path / "missing.json")


# ---------------------------------------------------------------------------------------------
# Hand-made records
# ---------------------------------------------------------------------------------------------

def test_hand_made_pique_deal():
    """PQ-PIQUE, PQ-TRICK, PQ-CARDS: the hand-made deal scores as worked out in its docstring."""
    out = replay(pique_record())
    assert out["scores"] == {ELDER: PIQUE_ELDER, YOUNGER: PIQUE_YOUNGER}


def test_hand_made_pique_deal_under_seed_no():
    """PQ-TRICK seed-no: elder 1 first lead + 10 tricks won, younger 2 won + 1 last: same sums."""
    out = replay(pique_record(rules="seed-no"))
    assert out["rules"] == "seed-no"
    assert out["scores"][ELDER]["trick_points"] == 11 and out["scores"][ELDER]["pique"] == 30
    assert out["scores"][YOUNGER]["trick_points"] == 3


def test_explicit_rules_win_over_the_record():
    record = pique_record(switches={"pique": 5})
    assert replay(record)["scores"][ELDER]["pique"] == 5
    assert replay(record, get_rules("seed-de"))["scores"][ELDER]["pique"] == 30


def test_card_spellings_accepted():
    """Cards parse in any spelling of analysis.cards: ♦K, K♦, Th, 10h, lower case."""
    record = pique_record()
    record["younger"]["dealt"] = "♥K Q♥ jh Th 9♥ h8 ♦K QD JD 10D 9D 8D".split()
    record["younger"]["dealt"][1] = "Q♥"
    assert replay(record)["scores"][ELDER] == PIQUE_ELDER


def test_sinking_in_a_record():
    """Sinking (RULES.md): elder declares his point as nothing; younger's point of 6 scores."""
    record = pique_record()
    record["elder"]["sink"] = ["point"]
    out = replay(record)
    assert out["scores"][ELDER]["point"] == 0 and out["scores"][YOUNGER]["point"] == 6
    assert out["scores"][ELDER]["pique"] == 0   # younger has scored


def test_replay_does_not_modify_the_record():
    record = pique_record()
    before = copy.deepcopy(record)
    replay(record)
    assert record == before


# ---------------------------------------------------------------------------------------------
# Illegal records
# ---------------------------------------------------------------------------------------------

def test_illegal_revoke():
    record = pique_record()
    record["tricks"][0] = ["AH", "8D"]
    assert error_of(record) == ("trick 1: younger played 8D but must follow suit with a heart "
                                "(holds 6) (PQ-PLAY)")


def test_illegal_card_played_twice():
    record = pique_record()
    record["tricks"][1] = ["AS", "9H"]
    assert error_of(record) == "trick 2: AS was already played in trick 1 (PQ-PLAY)"


def test_illegal_card_not_in_hand():
    record = pique_record()
    record["tricks"][0] = ["AC", "8H"]
    assert error_of(record) == "trick 1: elder led AC, which is not in his hand (PQ-PLAY)"
    record = pique_record()
    record["tricks"][0] = ["AS", "7S"]   # 7S was discarded
    assert error_of(record) == "trick 1: younger played 7S, which is not in his hand (PQ-PLAY)"


def test_illegal_leader():
    record = pique_record()
    record["tricks"][11] = ["7H", "KD"]
    assert error_of(record) == "trick 12: elder led 7H but younger won trick 11 and leads (PQ-PLAY)"
    record = pique_record()
    record["tricks"][0] = ["8H", "AS"]
    assert error_of(record) == "trick 1: younger led 8H but elder leads the first trick (PQ-PLAY)"


def test_illegal_number_of_tricks():
    record = pique_record()
    record["tricks"].pop()
    assert error_of(record) == "tricks: 11 tricks recorded, a deal has 12 (PQ-PLAY)"


@pytest.mark.parametrize("rules, elder, younger, message", [
    ("seed-de", [], [], "elder's exchange: elder exchanges 0 cards, at least 1 required (PQ-EX-E)"),
    ("seed-de", "7S 8C 7C 7D AD 7H".split(), [],
     "elder's exchange: elder exchanges 6 cards, at most 5 allowed (PQ-EX-E)"),
    ("seed-de", ["7S"], "8H 9H 10H 8D".split(),
     "younger's exchange: younger exchanges 4 cards, at most 3 allowed "
     "(seed-de: only the bottom 3 of the talon) (PQ-EX-Y)"),
    ("cavendish", ["7S"], [],
     "younger's exchange: younger exchanges 0 cards, at least 1 required (PQ-EX-Y)"),
    ("seed-no", "7S 8C 7C 7D AD".split(), "8H 9H 10H 8D".split(),
     "younger's exchange: younger exchanges 4 cards, at most 3 allowed "
     "(the talon holds 3 after elder took 5) (PQ-EX-Y)"),
])
def test_illegal_discard_sizes(rules, elder, younger, message):
    """PQ-EX-E, PQ-EX-Y: discards outside each variant's bounds."""
    record = pique_record(rules=rules)
    record["elder"]["discard"] = elder
    record["younger"]["discard"] = younger
    assert error_of(record) == message


def test_illegal_discards_not_from_the_dealt_hand():
    record = pique_record()
    record["elder"]["discard"] = ["AS"]
    assert error_of(record) == ("elder's exchange: elder discards AS, which is not in his dealt "
                                "hand (PQ-EX-E)")
    record = pique_record()
    record["younger"]["discard"] = ["KS"]
    assert error_of(record) == ("younger's exchange: younger discards KS, which is not in his dealt "
                                "hand (PQ-EX-Y)")
    record = pique_record()
    record["elder"]["discard"] = ["7S", "7S"]
    assert error_of(record) == "elder's exchange: elder discards 7S twice (PQ-EX-E)"


def test_illegal_talon():
    record = pique_record()
    record["talon"].pop()
    assert error_of(record) == "talon: 7 cards, the talon has 8 (PQ-DEAL)"
    record = pique_record()
    record["talon"][7] = "KS"
    assert error_of(record) == "talon: KS is also in elder's hand (PQ-DECK)"
    record = pique_record()
    record["talon"][7] = "AS"
    assert error_of(record) == "talon: AS is listed twice (PQ-DECK)"


def test_illegal_overlapping_hands_and_hand_sizes():
    record = pique_record()
    record["younger"]["dealt"][0] = "KS"
    assert error_of(record) == "younger's hand: KS is also in elder's hand (PQ-DECK)"
    record = pique_record()
    record["elder"]["dealt"].pop()
    assert error_of(record) == "elder's hand: 11 cards dealt, a hand has 12 (PQ-DEAL)"


# ---------------------------------------------------------------------------------------------
# Malformed records
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["rules", "elder", "younger", "talon", "tricks"])
def test_missing_key(key):
    record = pique_record()
    del record[key]
    assert error_of(record) == f"record: missing key {key!r}"


def test_a_record_without_game_reads_as_piquet():
    """"game" may be left out when the keys are Piquet's."""
    record = pique_record()
    bare = {k: v for k, v in record.items() if k != "game"}
    assert replay(bare) == replay(record)
    bare.pop("talon")
    assert error_of(bare) == "record: missing key 'talon'"


@pytest.mark.parametrize("change, start", [
    (lambda r: r.__setitem__("game", "ecarte"), "game: expected 'piquet', got 'ecarte'"),
    (lambda r: r["talon"].__setitem__(0, "XX"), "talon: not a card: 'XX'"),
    (lambda r: r["talon"].__setitem__(0, 7), "talon: expected a card string, got int"),
    (lambda r: r["elder"].__setitem__("dealt", "AS KS"), "elder: dealt: expected a list of cards"),
    (lambda r: r["tricks"][2].__setitem__(1, "1Z"), "trick 3: not a card: '1Z'"),
    (lambda r: r["tricks"].__setitem__(2, ["AS"]), "trick 3: expected a pair"),
    (lambda r: r.__setitem__("tricks", {"1": 2}), "tricks: expected a list of [led, played] pairs"),
    (lambda r: r.__setitem__("elder", ["AS"]), "elder: expected an object with dealt and discard"),
    (lambda r: r["younger"].pop("discard"), "younger: missing key 'discard'"),
    (lambda r: r["younger"].__setitem__("took", []), "younger: unknown key 'took'"),
    (lambda r: r["younger"].__setitem__("sink", ["quint"]), "younger: sink: unknown category 'quint'"),
    (lambda r: r["younger"].__setitem__("sink", "point"), "younger: sink: expected a list"),
    (lambda r: r.__setitem__("rules", "modern"), "rules: unknown Piquet variant 'modern'"),
    (lambda r: r.__setitem__("rules", 3), "rules: expected a variant name, got int"),
    (lambda r: r.__setitem__("switches", {"colour": 1}), "switches: unknown switch 'colour'"),
    (lambda r: r.__setitem__("switches", {"younger_min": 2}), "switches: younger_min must be 0 or 1"),
    (lambda r: r.__setitem__("switches", [1]), "switches: expected an object of switches"),
    (lambda r: r.__setitem__("extra", 1), "record: unknown key 'extra'"),
])
def test_malformed_structure(change, start):
    record = pique_record()
    change(record)
    assert error_of(record).startswith(start)


def test_record_not_an_object():
    assert error_of([pique_record()]) == "record: expected a JSON object, got list"

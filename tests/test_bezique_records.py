"""Bezique deal records (analysis/bezique/reference/records.py): round trips through JSON and files, and
one test per kind of illegal or malformed record, each a one-line error naming the step and the
RULES.md rule."""
from __future__ import annotations

import copy
import json

import pytest

from analysis.bezique.policies import HeuristicPolicy, RandomPolicy
from analysis.bezique.reference.cards import DEALER, ELDER
from analysis.bezique.reference.deal import play_deal
from analysis.bezique.reference.records import load_records, record_from_deal, replay, save_records
from analysis.bezique.rules import get_rules
from analysis.errors import InputError

HEURISTIC = HeuristicPolicy()
RANDOM = RandomPolicy()


def error_of(record, rules=None) -> str:
    with pytest.raises(InputError) as info:
        replay(record, rules)
    message = str(info.value)
    assert "\n" not in message
    return message


def a_record(seed=13, index=0, name="seed-de", elder=RANDOM, dealer=HEURISTIC) -> dict:
    rules = get_rules(name)
    return json.loads(json.dumps(record_from_deal(play_deal(seed, index, rules, elder, dealer), rules)))


def find(predicate, name="seed-de", policies=(RANDOM, RANDOM)):
    """The first record (seed 17, deals 0..199) with a trick for which ``predicate(record, n)``
    holds (n 0-based), and that trick's index."""
    for i in range(200):
        rec = a_record(17, i, name, *policies)
        for n in range(len(rec["tricks"])):
            if predicate(rec, n):
                return rec, n
    raise AssertionError("no such deal found")


# ---------------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["seed-de", "classic"])
@pytest.mark.parametrize("dealer", [HEURISTIC, RANDOM], ids=["heuristic", "random"])
def test_round_trip(name, dealer):
    """play_deal -> record_from_deal -> JSON -> replay gives play_deal's breakdown."""
    rules = get_rules(name)
    for index in range(60):
        deal = play_deal(13, index, rules, RANDOM, dealer)
        record = json.loads(json.dumps(record_from_deal(deal, rules)))
        out = replay(record)
        assert out["game"] == "bezique" and out["rules"] == name
        assert out["switches"] == rules.switches()
        assert out["scores"] == {ELDER: deal.scores[ELDER], DEALER: deal.scores[DEALER]}


def test_round_trip_covers_table_plays_melds_and_exchanges():
    """The records written include cards played from the table, melds with table cards and
    exchanges, and they replay."""
    seen = {"table": 0, "meld_table": 0, "exchange": 0}
    for i in range(40):
        rec = a_record(3, i, "classic", RANDOM, RANDOM)
        for t in rec["tricks"]:
            seen["table"] += "table" in t
            seen["meld_table"] += bool(t.get("meld", {}).get("table"))
            seen["exchange"] += "exchange" in t
        replay(rec)
    assert all(seen.values()), seen


def test_round_trip_with_switches():
    """Overridden switches travel in the record's "switches" and are used by replay."""
    rules = get_rules("classic", {"last_trick_at": "24", "target": "500", "bezique": "50"})
    for index in range(20):
        deal = play_deal(3, index, rules, RANDOM)
        record = record_from_deal(deal, rules)
        assert record["switches"] == {"last_trick_at": 24, "target": 500, "bezique": 50}
        out = replay(json.loads(json.dumps(record)))
        assert out["scores"][ELDER] == deal.scores[ELDER]
        assert out["scores"][DEALER] == deal.scores[DEALER]


def test_explicit_rules_override_the_record():
    record = a_record()
    record.pop("rules")
    out = replay(record, get_rules("seed-de", ["last_trick=0"]))
    assert out["scores"][ELDER]["last_trick"] + out["scores"][DEALER]["last_trick"] == 0


def test_files(tmp_path):
    """save_records / load_records: one record or a list; bad files are one-line errors."""
    recs = [a_record(1, i) for i in range(3)]
    path = tmp_path / "deals.json"
    save_records(recs, path)
    assert load_records(path) == recs
    save_records(recs[0], path)
    assert load_records(path) == [recs[0]]
    (tmp_path / "bad.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load_records(tmp_path / "bad.json")
    (tmp_path / "list.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(InputError, match="record 1 is a int"):
        load_records(tmp_path / "list.json")
    with pytest.raises(InputError, match="cannot read"):
        load_records(tmp_path / "missing.json")


def test_hand_written_cards_in_any_spelling():
    """Cards parse in any analysis.cards spelling (symbols, T for ten, lower case)."""
    record = a_record()
    spelled = copy.deepcopy(record)
    spelled["elder"] = [c.replace("10", "T").lower() for c in spelled["elder"]]
    spelled["turn_up"] = spelled["turn_up"][:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[
        spelled["turn_up"][-1]]
    assert replay(spelled)["scores"] == replay(record)["scores"]


# ---------------------------------------------------------------------------------------------
# Malformed and illegal records
# ---------------------------------------------------------------------------------------------

def test_structure_errors():
    record = a_record()
    assert "game: expected 'bezique'" in error_of({**record, "game": "piquet"})
    assert "missing key 'stock'" in error_of({k: v for k, v in record.items() if k != "stock"})
    assert "unknown key 'extra'" in error_of({**record, "extra": 1})
    assert "unknown Bezique variant" in error_of({**record, "rules": "rubicon"})
    assert "switches: unknown switch" in error_of({**record, "switches": {"nope": 1}})
    assert "not a card: 'XX'" in error_of({**record, "turn_up": "XX"})
    bad = copy.deepcopy(record)
    bad["tricks"][3]["oops"] = 1
    assert error_of(bad).startswith("trick 4: unknown key 'oops'")
    assert error_of({**record, "tricks": record["tricks"][:31]}) == \
        "tricks: 31 tricks recorded, a deal has 32 (BZ-END)"


def test_deal_errors():
    """BZ-DECK, BZ-DEAL: two of each card, 8 + 8 + 1 + 47."""
    record = a_record()
    bad = copy.deepcopy(record)
    bad["stock"] = bad["stock"][:-1]
    assert error_of(bad) == "stock: 46 cards, expected 47 (BZ-DEAL)"
    bad = copy.deepcopy(record)
    card = bad["elder"][0]
    bad["dealer"][0] = card
    bad["stock"][0] = card
    assert "appears a third time" in error_of(bad) and "(BZ-DECK)" in error_of(bad)


def test_card_not_held():
    """BZ-STOCK-PLAY: a card the player does not hold."""
    record = a_record()
    bad = copy.deepcopy(record)
    held = set(record["elder"])
    foreign = next(c for c in record["stock"][-10:] if c not in held and c != record["turn_up"])
    bad["tricks"][0]["lead"] = foreign
    assert error_of(bad) == f"trick 1: elder played {foreign}, which he does not hold (BZ-STOCK-PLAY)"


@pytest.mark.parametrize("name, words", [("seed-de", "must follow suit, else trump"),
                                         ("classic", "must follow suit and win if able, else trump")])
def test_end_phase_revoke(name, words):
    """BZ-END: a follower who holds the suit led plays another suit."""
    def revocable(rec, n):
        return n >= 24 and rec["tricks"][n]["lead"][-1] == rec["tricks"][n]["follow"][-1]

    record, n = find(revocable, name)
    # The follower's other cards in the end phase: the cards he plays later.
    t = record["tricks"][n]
    later = [c for u in record["tricks"][n + 1:] for c in (u["lead"], u["follow"])]
    bad = copy.deepcopy(record)
    # Find a later card of his that is off-suit (he holds it now): swap it in.
    for c in later:
        trial = copy.deepcopy(bad)
        trial["tricks"][n]["follow"] = c
        if c[-1] != t["lead"][-1]:
            try:
                replay(trial)
            except InputError as e:
                if "(BZ-END)" in str(e) and str(e).startswith(f"trick {n + 1}: "):
                    assert words in str(e)
                    return
    pytest.skip("no revoke candidate in this deal")


def test_illegal_meld_reuse_and_meld_by_the_loser():
    """BZ-REUSE: a marriage's cards, still on the table, melded again as a marriage after the
    same player's next trick; a meld recorded after a trick lost (a meld is always the winner's)."""
    rules = get_rules("seed-de")
    for i in range(300):
        deal = play_deal(17, i, rules, HEURISTIC, HEURISTIC)
        ts = deal.tricks
        hit = next((n for n in range(22) if ts[n].meld is not None and ts[n].meld.kind == "marriage"
                    and ts[n + 1].winner == ts[n].winner and ts[n + 1].meld is None
                    and not set(ts[n].meld.cards) & {ts[n + 1].led, ts[n + 1].followed}), None)
        if hit is not None:
            break
    else:
        raise AssertionError("no such deal")
    record = json.loads(json.dumps(record_from_deal(deal, rules)))
    names = record["tricks"][hit]["meld"]["hand"]
    bad = copy.deepcopy(record)
    bad["tricks"][hit + 1]["meld"] = {"hand": [], "table": names}
    message = error_of(bad)
    assert message.startswith(f"trick {hit + 2}: ") and message.endswith("(BZ-REUSE)")
    assert "already melded in marriage, of the same class" in message
    loser_trick = next(n for n in range(24) if deal.tricks[n].meld is None
                       and deal.tricks[n].winner != deal.tricks[hit].winner)
    bad = copy.deepcopy(record)
    bad["tricks"][loser_trick]["meld"] = {"hand": names, "table": []}
    assert error_of(bad).startswith(f"trick {loser_trick + 1}: ")


def test_exchange_without_seven():
    """BZ-SEVEN: an exchange by a player without the seven of trumps."""
    record = a_record()
    bad = copy.deepcopy(record)
    trump = record["turn_up"][-1]
    for n in range(24):
        t2 = copy.deepcopy(bad)
        t2["tricks"][n]["exchange"] = True
        try:
            replay(t2)
        except InputError as e:
            if "(BZ-SEVEN)" in str(e):
                assert str(e).startswith(f"trick {n + 1}: ")
                return
    raise AssertionError(f"no refused exchange found (trumps {trump})")


def test_wrong_draws_and_end_phase_meld():
    """BZ-DRAW: recorded draws must be the stock's; BZ-END: no meld in the end phase."""
    record = a_record()
    bad = copy.deepcopy(record)
    bad["tricks"][0]["draws"] = list(reversed(bad["tricks"][0]["draws"]))
    if bad["tricks"][0]["draws"] != record["tricks"][0]["draws"]:
        assert "(BZ-DRAW)" in error_of(bad) and error_of(bad).startswith("trick 1: ")
    bad = copy.deepcopy(record)
    bad["tricks"][26]["meld"] = {"hand": ["KH", "QH"], "table": []}
    assert error_of(bad) == "trick 27: no exchange and no meld in the end phase (BZ-END)"
    bad = copy.deepcopy(record)
    bad["tricks"][0]["meld"] = {"hand": ["7S", "8S"], "table": []}
    assert "which is no meld (BZ-VALUES)" in error_of(bad) or "(BZ-MELD)" in error_of(bad)

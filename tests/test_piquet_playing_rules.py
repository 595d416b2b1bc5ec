"""Piquet's exchange rules (``salon rule piquet``): parsed and printed back, the books' rules coded
in the syntax throw exactly what the discard study's rules of thumb throw, and the cost is the
discard study's held-out measure, paired across the rules costed on the same hands."""
import json
import re

import numpy as np
import pytest

from analysis.errors import InputError
from analysis.piquet.reference.scoring import sets_of
from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.study import dealt_hand, rule_discards
from analysis.piquet.studies.playing_rules import BOOK, card_classes, cost, parse

RULES = get_rules("seed-de")


def test_a_rule_is_read_printed_in_words_and_read_back_the_same():
    r = parse("elder-exchange", "Keep point, Sequences , sets;  throw shortest;\n take 5")
    assert (r.seat, r.keep, r.throw, r.take) == ("elder", ("point", "sequences", "sets"), "shortest", 5)
    assert r.text() == "keep point, sequences, sets; throw shortest; take 5"
    assert parse("elder-exchange", r.text()) == r
    assert r.words().splitlines() == [
        "keep the point suit, then sequences (three or more), then sets (three or four, tens and up); throw the "
        "rest, the shortest suit's cards first, the lowest of them first", "take 5 cards"]
    assert parse("younger-exchange", "take all").text() == "take all"


@pytest.mark.parametrize("decision", ["elder-exchange", "younger-exchange"])
def test_the_books_rules_in_the_syntax_throw_what_the_discard_study_throws(decision):
    seat = decision.split("-")[0]
    study_name = {"PQ-T2": "shortest_weakest", "keep-point": "keep_point"}
    rules = {name: parse(decision, BOOK[name][0]) for name in study_name}
    for h in range(200):
        hand = dealt_hand(11, h, seat)
        thrown = rule_discards(hand, seat, RULES)
        for name, rule in rules.items():
            assert rule.discard(hand, RULES) == thrown[study_name[name]], (name, h)


def test_a_card_of_a_kept_class_goes_only_when_every_card_outside_the_classes_has_gone():
    for h in range(200):
        hand = dealt_hand(3, h, "elder")
        classes = card_classes(hand)
        kept = classes["point"] | classes["aces"]
        thrown = parse("elder-exchange", "keep point, aces; take 5").discard(hand, RULES)
        assert bin(thrown).count("1") == 5 and thrown & ~hand == 0
        outside = hand & ~kept
        assert (thrown & kept == 0) if bin(outside).count("1") >= 5 else (thrown & outside == outside)
        assert classes["sets"] == sum(1 << (8 * s + r) for _, r in sets_of(hand) for s in range(4) if hand >> (8 * s + r) & 1)


@pytest.mark.parametrize("text, says", [
    ("keep point; take 6", "elder may take 1 to 5"),
    ("keep points; take 5", "unknown class of cards 'points': one of point, sequences"),
    ("keep point", "needs 'take N' or 'take all'"),
    ("keep point; take some", "needs a number of cards or 'all'"),
    ("throw highest; take 5", "'throw' is 'lowest'"),
    ("keep point, point; take 5", "kept twice"),
    ("discard 5", "an exchange rule is 'keep CLASS"),
])
def test_bad_rules_are_refused_in_one_line_naming_what_is_valid(text, says):
    with pytest.raises(InputError, match=re.escape(says)):
        cost(parse("elder-exchange", text), RULES, hands=2, samples=200, held_out=100)


def test_the_cost_is_held_out_and_paired_with_the_books_rules_on_the_same_hands():
    res = cost(parse("elder-exchange", BOOK["keep-point"][0]), RULES, hands=4, samples=600, held_out=300)
    # The same rule as the book's keep-point: the same discards on the same deals, the same cost.
    assert res["cost"] == res["book"]["keep-point"]["cost"]
    lo, hi = res["cost"]["ci95"]
    assert lo <= res["cost"]["value"] <= hi
    assert 0 <= res["agreement"]["by_hands"] <= 1 and 0 <= res["agreement"]["by_stake"] <= 1
    assert res["deals"] == {"hands": 4, "race_samples": 600, "held_out_per_hand": 300}
    assert res["players"]["trick_play"] == "heuristic, both players" and "held out" in res["against"]
    other = cost(parse("elder-exchange", "take all"), RULES, hands=4, samples=600, held_out=300, seed=1)
    assert other["book"]["PQ-T2"]["cost"] != res["book"]["PQ-T2"]["cost"]  # another seed, other hands
    json.dumps(res)


def test_under_open_hands_play_every_exchange_is_costed_on_deals_that_did_not_choose_the_best(monkeypatch):
    import analysis.piquet.studies.playing_rules as P

    monkeypatch.setattr(P, "DD_DEALS", 40)
    monkeypatch.setattr(P, "DD_CANDIDATES", 4)
    res = cost(parse("elder-exchange", BOOK["keep-point"][0]), RULES, hands=2, samples=300, play="dd")
    assert res["play"] == "dd" and res["cost"] == res["book"]["keep-point"]["cost"]
    assert res["deals"] == {"hands": 2, "race_samples": 300, "dd_candidates": 4, "dd_choose_per_hand": 40,
                            "dd_report_per_hand": 40}
    assert res["players"]["trick_play"].startswith("dd (open hands") and "open-hands" in res["against"]
    heuristic = cost(parse("elder-exchange", BOOK["keep-point"][0]), RULES, hands=2, samples=300, held_out=40)
    assert heuristic["cost"] != res["cost"]  # other players, other deals
    with pytest.raises(InputError, match="one of heuristic, dd, search"):
        cost(parse("elder-exchange", "take all"), RULES, hands=2, play="perfect")


def test_under_the_searching_player_the_open_hands_leaders_and_the_named_exchanges_are_chosen_and_costed_apart(
        monkeypatch):
    """--player search: the open-hands stage narrows each hand to its leaders, then searching players
    play those and the named exchanges on deals that choose the best and on other deals that cost them."""
    import analysis.piquet.studies.discards.analyser_search as A
    import analysis.piquet.studies.playing_rules as P
    from analysis.piquet.policies import P_KIND, DoubleDummyPolicy, SearchPolicy

    monkeypatch.setattr(P, "DD_DEALS", 40)
    monkeypatch.setattr(P, "DD_CANDIDATES", 4)
    monkeypatch.setattr(P, "SEARCH_DEALS", 6)
    played = []
    real = A.play_options

    def spy(hand, younger, masks, rules, pe, py, seed, n, threads, bar=None):
        played.append((seed, n, [int(m) for m in masks], int(pe[P_KIND])))
        return real(hand, younger, masks, rules, pe, py, seed, n, threads, bar)

    monkeypatch.setattr(A, "play_options", spy)
    rule = parse("elder-exchange", BOOK["keep-point"][0])
    res = cost(rule, RULES, hands=2, samples=300, play="search")
    assert res["play"] == "search" and res["cost"] == res["book"]["keep-point"]["cost"]
    assert res["deals"]["search_candidates"] == P.SEARCH_TOP and res["deals"]["search_report_per_hand"] == 6
    assert res["players"]["trick_play"].startswith("search (") and "searching" in res["against"]
    searched = [p for p in played if p[1] == 6]
    assert len(searched) == 4  # per hand: the choosing deals, then the costing deals
    for choose, report in (searched[:2], searched[2:]):
        assert choose[0] != report[0] and choose[2] == report[2]  # other deals, the same exchanges
        assert len(choose[2]) <= P.SEARCH_TOP + len(P.BOOK) + 1
    assert {p[3] for p in searched} == {int(SearchPolicy().to_array()[P_KIND])} != {int(DoubleDummyPolicy().to_array()[P_KIND])}
    assert "searching player" in P.text(res) and "{" not in P.text(res)


def test_the_command_line_contract(salon):
    code, out, err = salon(["rule", "piquet", "younger-exchange", "keep point, guards; take all", "--deals", "2",
                            "--json"])
    assert code == 0, err
    res = json.loads(out)
    assert {"game", "decision", "rules", "rule", "cost", "exploitability", "agreement", "against", "players", "deals",
            "seed"} <= set(res)
    assert res["decision"] == "younger-exchange" and res["rule"] == "keep point, guards; take all"
    assert np.isfinite(res["cost"]["value"]) and res["exploitability"]["value"] is None
    code, out, err = salon(["rule", "piquet", "younger-exchange", "keep point; take all", "--deals", "2"])
    assert code == 0 and "Piquet, younger's exchange (seed-de):" in out and "gives up" in out.lower()
    assert "{" not in out and "_" not in out.split("\n", 1)[1]
    for args, says in ((["rule", "piquet", "discard", "take 3"], "unknown Piquet decision 'discard'"),
                       (["rule", "piquet", "younger-exchange", "take 4", "--deals", "2"], "younger may take"),
                       (["rule", "piquet", "elder-exchange", "take 5", "--deals", "1"], "at least 2"),
                       (["rule", "ecarte", "elder", "otherwise play", "--player", "dd"], "does not apply"),
                       (["rule", "piquet", "elder-exchange", "take all", "--player", "perfect"], "heuristic, dd, search"),
                       (["rule", "bezique", "lead", "otherwise medium"], "unknown action 'medium'")):
        code, out, err = salon(args)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, (args, err)

"""Écarté deal records (analysis/ecarte/reference/records.py): round trips, re-scoring, and one test per kind
of illegal or malformed record, each naming the step and the RULES.md rule broken."""
from __future__ import annotations

import copy
import json

import pytest

from analysis.cards import parse_card
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    follower_wins,
    legal_follows,
    mask_of_codes,
    suit_of,
)
from analysis.ecarte.reference.hand import play_hand
from analysis.ecarte.reference.records import (
    load_record,
    load_records,
    record_from_hand,
    replay,
    save_records,
)
from analysis.ecarte.rules import code_of, codes_of_mask, get_rules, name_of
from analysis.errors import InputError

SEED_DE = get_rules("seed-de")
CLASSIC = get_rules("classic")


def codes(text: str) -> list[int]:
    return [code_of(parse_card(t)) for t in text.split()]


def autoplay(elder: int, dealer: int, trump: int, rules) -> list[list[str]]:
    """Five legal tricks: each leader leads his lowest card, the follower plays his lowest legal."""
    hands, leader, tricks = {ELDER: elder, DEALER: dealer}, ELDER, []
    for _ in range(5):
        follower = DEALER if leader == ELDER else ELDER
        led = codes_of_mask(hands[leader])[0]
        followed = codes_of_mask(legal_follows(hands[follower], led, trump, rules))[0]
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        tricks.append([name_of(led), name_of(followed)])
        leader = follower if follower_wins(led, followed, trump) else leader
    return tricks


def make(elder: str, dealer: str, turnup: str = "7C", tricks=None, *, exchanges=(), stock="",
         ending="elder_plays", announced=(), rules="seed-de", **extra) -> dict:
    """A hand-made record; ``tricks=None`` plays them automatically from the hands at play."""
    record = {
              "game": "ecarte", "rules": rules, "elder": elder.split(), "dealer": dealer.split(),
              "turnup": turnup, "stock": stock.split(),
              "exchanges": [{"elder_discard": e.split(), "dealer_discard": d.split()}
                      for e, d in exchanges],
        "ending": ending, "announced": list(announced), **extra,
    }
    if tricks is None:
        hands = {ELDER: set(codes(elder)), DEALER: set(codes(dealer))}
        pos = 0
        draws = codes(stock)
        for e, d in exchanges:
            for role, out in ((ELDER, e), (DEALER, d)):
                out = codes(out)
                hands[role] = (hands[role] - set(out)) | set(draws[pos:pos + len(out)])
                pos += len(out)
        m = {r: mask_of_codes(h) for r, h in hands.items()}
        rules_obj = get_rules(rules, extra.get("switches"))
        tricks = autoplay(m[ELDER], m[DEALER], suit_of(codes(turnup)[0]), rules_obj)
    record["tricks"] = [list(t.split()) if isinstance(t, str) else t for t in tricks]
    return record


# Trumps are clubs (turn-up 7C) in all scenarios below; nobody holds a club.
TWO_TRICKS = {"elder": "KH QH 7S 8S 9S", "dealer": "KS QS JS 7H 8D",
              "tricks": ["KH 7H", "QH 8D", "7S JS", "KS 8S", "QS 9S"]}
THREE_TRICKS = {"elder": "KH QH KD 7S 8S", "dealer": "KS QS 7H 8D 9H",
                "tricks": ["KH 7H", "QH 9H", "KD 8D", "7S QS", "KS 8S"]}
ELDER_VOLE = {"elder": "KH QH KD KS QD", "dealer": "7H 9H 8D 7S 9D",
              "tricks": ["KH 7H", "QH 9H", "KD 8D", "KS 7S", "QD 9D"]}
DEALER_VOLE = {"elder": "7H 9H 8D 7S 9D", "dealer": "KH QH KD KS QD",
               "tricks": ["7H QH", "KH 9H", "KD 8D", "KS 7S", "QD 9D"]}
# The same hands at play, reached after one exchange (elder 7D -> KD / 9S, dealer 10x -> 9H / 8D).
THREE_AFTER_EXCHANGE = {"elder": "KH QH 7D 7S 8S", "dealer": "KS QS 7H 8D 10S",
                        "exchanges": [("7D", "10S")], "stock": "KD 9H",
                        "tricks": THREE_TRICKS["tricks"]}
TWO_AFTER_EXCHANGE = {"elder": "KH QH 7S 8S 7D", "dealer": "KS QS JS 7H 10D",
                      "exchanges": [("7D", "10D")], "stock": "9S 8D",
                      "tricks": TWO_TRICKS["tricks"]}


def scores(record, rules=None) -> tuple[int, int]:
    out = replay(record, rules)
    return out["scores"][ELDER], out["scores"][DEALER]


def error_of(record, rules=None) -> str:
    with pytest.raises(InputError) as info:
        replay(record, rules)
    message = str(info.value)
    assert "\n" not in message
    return message


# ---------------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules_name", ["seed-de", "classic"])
def test_round_trip_random_hands(rules_name):
    """play_hand -> record_from_hand -> JSON -> replay gives the same scores and tricks."""
    rules = get_rules(rules_name)
    policy = RandomPolicy()
    for index in range(2000):
        hand = play_hand(99, index, rules, policy)
        record = json.loads(json.dumps(record_from_hand(hand, rules)))
        out = replay(record)
        assert out["scores"] == {ELDER: hand.elder_points, DEALER: hand.dealer_points}
        assert out["tricks"] == {ELDER: hand.elder_tricks, DEALER: 5 - hand.elder_tricks}
        b = out["breakdown"]
        for role in (ELDER, DEALER):
            p = hand.points[role]
            assert b[role] == {"turnup_king": p.turnup_king, "king": p.king, "tricks": p.tricks}
        assert b["penalised"] == hand.penalised and b["rounds"] == hand.rounds


def test_round_trip_heuristic_hands_with_switches():
    """Overridden switches travel in the record's "switches" and are used by replay."""
    rules = get_rules("classic", {"dealer_min_discard": "0", "must_trump_when_void": "false",
                                  "target": "7"})
    for index in range(500):
        hand = play_hand(5, index, rules, HeuristicPolicy(), RandomPolicy())
        record = record_from_hand(hand, rules)
        assert record["rules"] == "classic"
        assert record["switches"] == {"dealer_min_discard": 0, "must_trump_when_void": False,
                                      "target": 7}
        out = replay(json.loads(json.dumps(record)))
        assert out["scores"] == {ELDER: hand.elder_points, DEALER: hand.dealer_points}
        assert out["breakdown"]["switches"] == rules.switches()


def test_save_and_load_one_and_many(tmp_path):
    """save_records writes an object or a list; load_record(s) read both."""
    hands = [play_hand(1, i, SEED_DE, RandomPolicy()) for i in range(5)]
    records = [record_from_hand(h, SEED_DE) for h in hands]
    many, one = tmp_path / "many.json", tmp_path / "one.json"
    save_records(records, many)
    save_records(records[0], one)
    assert load_records(many) == records
    assert load_record(many) == records
    assert load_record(one) == records[0]
    assert load_records(one) == [records[0]]
    assert json.loads(one.read_text(encoding="utf-8")) == records[0]
    for r, h in zip(load_records(many), hands, strict=True):
        assert replay(r)["scores"] == {ELDER: h.elder_points, DEALER: h.dealer_points}


def test_load_errors_are_one_line(tmp_path):
    """File errors, bad JSON and non-objects are InputErrors naming the file."""
    with pytest.raises(InputError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "ecarte",', encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON") as info:
        load_record(bad)
    assert "\n" not in str(info.value)
    numbers = tmp_path / "numbers.json"
    numbers.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(InputError, match="record 1 is a int"):
        load_records(numbers)
    with pytest.raises(InputError, match="record 1 is a str"):
        load_record(numbers.write_text('"KH"', encoding="utf-8") and numbers)


def test_card_spellings_accepted():
    """Cards parse in any spelling analysis.cards accepts: KH, K♥, ♥K, 10h, Th."""
    record = make(**THREE_TRICKS)
    record["elder"] = ["K♥", "♥Q", "kd", "7s", "8S"]
    record["dealer"] = ["KS", "QS", "7H", "8D", "9h"]
    assert scores(record) == (1, 0)


# ---------------------------------------------------------------------------------------------
# Re-scoring by the rules (EC-POINT, EC-PENALTY, EC-KING, EC-TURNKING)
# ---------------------------------------------------------------------------------------------

def test_ec_point_hand_made_scores():
    """EC-POINT: 3 or 4 tricks 1 point, vole 2, after an exchange (no penalty)."""
    assert scores(make(**THREE_AFTER_EXCHANGE)) == (1, 0)
    assert scores(make(**TWO_AFTER_EXCHANGE)) == (0, 1)
    out = replay(make(**THREE_AFTER_EXCHANGE))
    assert out["tricks"] == {ELDER: 3, DEALER: 2}
    assert out["breakdown"]["rounds"] == 1 and out["breakdown"]["penalised"] is None


def test_ec_penalty_seed_de_played_without_proposing():
    """EC-PENALTY seed-de: elder played without proposing, took 2: dealer 2; took 0: dealer 3."""
    assert scores(make(**TWO_TRICKS)) == (0, 2)
    assert scores(make(**DEALER_VOLE)) == (0, 3)
    assert scores(make(**THREE_TRICKS)) == (1, 0)
    assert scores(make(**ELDER_VOLE)) == (2, 0)


def test_ec_penalty_seed_de_refused_first_and_later_proposals():
    """EC-PENALTY seed-de: any refused proposal penalises elder taking < 3."""
    assert scores(make(**TWO_TRICKS, ending="dealer_refuses")) == (0, 2)
    assert scores(make(**DEALER_VOLE, ending="dealer_refuses")) == (0, 3)
    assert scores(make(**TWO_AFTER_EXCHANGE, ending="dealer_refuses")) == (0, 2)


def test_ec_penalty_classic():
    """EC-PENALTY classic: played without proposing: dealer 2 (vole 2); dealer refused the first
    proposal and took < 3: elder 2 (vole 2); a later refusal is not penalised."""
    assert scores(make(**TWO_TRICKS, rules="classic")) == (0, 2)
    assert scores(make(**DEALER_VOLE, rules="classic")) == (0, 2)
    assert scores(make(**THREE_TRICKS, rules="classic", ending="dealer_refuses")) == (2, 0)
    assert scores(make(**ELDER_VOLE, rules="classic", ending="dealer_refuses")) == (2, 0)
    assert scores(make(**TWO_TRICKS, rules="classic", ending="dealer_refuses")) == (0, 1)
    later = {"rules": "classic", "ending": "dealer_refuses"}
    assert scores(make(**THREE_AFTER_EXCHANGE, **later)) == (1, 0)
    assert scores(make(**TWO_AFTER_EXCHANGE, **later)) == (0, 1)


def test_explicit_rules_win_over_the_record():
    """replay(record, rules): the rules argument overrides the record's "rules" and "switches"."""
    record = make(**DEALER_VOLE, switches={"penalty_vole": 4})
    assert scores(record) == (0, 4)
    assert scores(record, CLASSIC) == (0, 2)
    assert scores(record, SEED_DE) == (0, 3)
    del record["rules"]
    assert scores(record, SEED_DE) == (0, 3)


def test_ec_king_announced_dealt_or_drawn():
    """EC-KING: the holder of the trump king scores 1 for announcing it, dealt or drawn."""
    dealt = make("KC 8H 9H 7S 8S", "KS QS 7H 8D 9D", announced=["elder"])
    out = replay(dealt)
    assert out["breakdown"][ELDER]["king"] == 1
    assert out["scores"][ELDER] == 1 + out["breakdown"][ELDER]["tricks"]
    silent = make("KC 8H 9H 7S 8S", "KS QS 7H 8D 9D")
    assert replay(silent)["breakdown"][ELDER]["king"] == 0
    drawn = make("7D 8H 9H 7S 8S", "KS QS 7H 8D 10D", exchanges=[("7D", "10D")],
                 stock="KC 9D", announced=["elder"])
    assert replay(drawn)["breakdown"][ELDER]["king"] == 1
    dealer = make("8H 9H 7S 8S 7D", "KC QS 7H 8D 10D", announced=["dealer"])
    assert replay(dealer)["breakdown"][DEALER]["king"] == 1


def test_ec_turnking_scores_for_the_dealer():
    """EC-TURNKING: a king turned up scores 1 for the dealer."""
    out = replay(make(**THREE_TRICKS, turnup="KC"))
    assert out["breakdown"][DEALER]["turnup_king"] == 1
    assert out["scores"] == {ELDER: 1, DEALER: 1}


def test_ec_dealer_min_zero_allowed_with_the_switch():
    """EC-DEALER-MIN: the dealer may stand pat after accepting only with dealer_min_discard=0."""
    pat = {"elder": "KH QH 7D 7S 8S", "dealer": "KS QS 7H 8D 9H", "exchanges": [("7D", "")],
           "stock": "KD", "tricks": THREE_TRICKS["tricks"]}
    assert scores(make(**pat, switches={"dealer_min_discard": 0})) == (1, 0)
    assert scores(make(**pat, rules="classic", switches={"dealer_min_discard": "0"})) == (1, 0)
    message = error_of(make(**pat))
    assert message == "exchange 1: dealer discarded 0 cards, at least 1 required (EC-DEALER-MIN)"


def test_ec_follow_switch_in_a_record():
    """EC-FOLLOW: a void follower discarding instead of trumping is legal only with the switch."""
    base = {"elder": "KH 8H 9H 7S 8S", "dealer": "7C QS 7D 8D 9D", "turnup": "JC",
            "tricks": ["KH 7D", "8H 8D", "9H 9D", "7S QS", "QS 8S"]}
    # trick 1: dealer is void in hearts but holds the 7C: he must trump
    message = error_of(make(**base))
    assert message == "trick 1: dealer played 7D but is void in hearts and must trump (EC-FOLLOW)"
    relaxed = make(**base, switches={"must_trump_when_void": False})
    relaxed["tricks"][4] = ["QS", "8S"]
    message = error_of(relaxed)  # dealer won trick 4 with QS, then QS is gone: he leads 7C
    assert "trick 5" in message and "EC-FOLLOW" in message
    relaxed["tricks"][4] = ["7C", "8S"]
    assert scores(relaxed) == (1, 0)


# ---------------------------------------------------------------------------------------------
# The end of the stock (EC-STOCK), built from a fixed deck order
# ---------------------------------------------------------------------------------------------

DECK = ["7S", "8S", "9S", "10S", "AS", "7H", "8H", "9H", "10H", "AH", "7D", "8D", "9D", "10D", "AD",
        "JS", "QS", "KS", "JH", "QH", "KH", "JD", "QD", "KD",
        "7C", "8C", "9C", "10C", "AC", "JC", "QC", "KC"]


def stock_record(plan, ending="elder_plays") -> dict:
    """Elder dealt DECK[0:5], dealer DECK[5:10], turn-up DECK[10] (7D), stock DECK[11:]; in each
    exchange (ke, kd) each side discards the ke/kd lowest cards of his current hand."""
    hands = {ELDER: codes(" ".join(DECK[:5])), DEALER: codes(" ".join(DECK[5:10]))}
    stock = codes(" ".join(DECK[11:]))
    exchanges, pos = [], 0
    for ke, kd in plan:
        entry = {}
        for role, k in ((ELDER, ke), (DEALER, kd)):
            out = sorted(hands[role])[:k]
            entry[f"{role}_discard"] = [name_of(c) for c in out]
            hands[role] = [c for c in hands[role] if c not in out] + stock[pos:pos + k]
            pos += k
        exchanges.append(entry)
    m = {r: mask_of_codes(h) if len(h) == 5 else 0 for r, h in hands.items()}
    tricks = autoplay(m[ELDER], m[DEALER], suit_of(codes(DECK[10])[0]), SEED_DE) \
        if m[ELDER] and m[DEALER] else []
    return {"game": "ecarte", "rules": "seed-de", "elder": DECK[:5], "dealer": DECK[5:10],
            "turnup": DECK[10], "stock": DECK[11:], "exchanges": exchanges, "ending": ending,
            "announced": [], "tricks": tricks}


def test_ec_stock_dealer_discards_nothing_when_elder_empties_the_stock():
    """EC-STOCK: elder's draw is served first; the stock empty, the dealer exchanges 0."""
    out = replay(stock_record([(5, 5), (5, 5), (1, 0)]))
    assert out["breakdown"]["rounds"] == 3


def test_ec_stock_elder_discards_more_than_the_stock_holds():
    """EC-STOCK: nobody draws more cards than the stock holds."""
    message = error_of(stock_record([(5, 5), (5, 4), (4, 0)]))
    assert message == "exchange 3: elder discards 4 but the stock holds 2 (EC-STOCK)"
    message = error_of(stock_record([(5, 5), (5, 5), (1, 1)]))
    assert message == "exchange 3: dealer discards 1 but the stock holds 0 (EC-STOCK)"


def test_ec_stock_elder_must_play_with_the_stock_empty():
    """EC-STOCK: with the stock empty there is no further proposal, exchange or refusal."""
    message = error_of(stock_record([(5, 5), (5, 5), (1, 0), (1, 0)]))
    assert message == "exchange 4: the stock is empty, so elder must play (EC-STOCK)"
    message = error_of(stock_record([(5, 5), (5, 5), (1, 0)], ending="dealer_refuses"))
    assert message.startswith("ending: dealer_refuses, but the stock is empty")
    assert message.endswith("(EC-STOCK)")


def test_stock_list_shorter_than_the_exchanges_need():
    """The record's "stock" must list every card drawn; the error names the exchange."""
    record = stock_record([(5, 5), (2, 2)])
    record["stock"] = record["stock"][:10]
    message = error_of(record)
    assert message.startswith("exchange 2: elder draws 2 but the record's stock lists only 0")


# ---------------------------------------------------------------------------------------------
# Illegal records: one per kind, each naming the step and the rule
# ---------------------------------------------------------------------------------------------

def test_illegal_follow_must_overtake():
    record = make(elder="KH QH KD 9S 8S", dealer="KS 7S 7H 8D 9H",
                  tricks=["KH 7H", "QH 9H", "KD 8D", "9S 7S", "8S KS"])
    assert error_of(record) == "trick 4: dealer played 7S but must win with a higher spade (EC-FOLLOW)"


def test_illegal_follow_example_from_the_brief():
    record = make(elder="KH 10H 7S 8S 9S", dealer="QH 9H 7D 8D 9D",
                  tricks=["10H 9H", "KH QH", "7S 7D", "8S 8D", "9S 9D"])
    assert error_of(record) == "trick 1: dealer played 9H but must win with a higher heart (EC-FOLLOW)"


def test_illegal_follow_must_follow_suit():
    record = make(**THREE_TRICKS)
    record["tricks"][1] = ["QH", "8D"]  # dealer still holds 9H
    assert error_of(record) == "trick 2: dealer played 8D but must follow with a heart (EC-FOLLOW)"


def test_illegal_elder_discards_nothing():
    record = make(**THREE_AFTER_EXCHANGE)
    record["exchanges"][0]["elder_discard"] = []
    assert error_of(record) == "exchange 1: elder discarded 0 cards, at least 1 required (EC-PROPOSE)"


def test_illegal_discard_not_in_hand():
    record = make(**THREE_AFTER_EXCHANGE)
    record["exchanges"][0]["elder_discard"] = ["KS"]
    assert error_of(record) == \
        "exchange 1: elder discards KS, which is not in his hand (EC-PROPOSE)"


def test_illegal_discard_twice():
    record = make(**THREE_AFTER_EXCHANGE)
    record["exchanges"][0]["elder_discard"] = ["7D", "7D"]
    assert error_of(record) == "exchange 1: elder discards 7D twice (EC-PROPOSE)"


def test_illegal_announce_without_the_king():
    record = make(**THREE_TRICKS, announced=["dealer"])
    assert error_of(record) == "announced: dealer does not hold the king of trumps (EC-KING)"


def test_illegal_announce_a_discarded_king():
    record = make("KC 8H 9H 7S 8S", "KS QS 7H 8D 10D", exchanges=[("KC", "10D")],
                  stock="7D 9D", announced=["elder"])
    assert error_of(record) == "announced: elder does not hold the king of trumps (EC-KING)"


def test_illegal_announce_twice():
    record = make("KC 8H 9H 7S 8S", "KS QS 7H 8D 9D", announced=["elder", "elder"])
    message = error_of(record)
    assert message.startswith("announced: elder announces the king twice")
    assert message.endswith("(EC-KING)")


def test_illegal_announce_the_turned_up_king():
    record = make(**THREE_TRICKS, turnup="KC", announced=["elder"])
    assert error_of(record) == "announced: elder does not hold the king of trumps (EC-KING)"


@pytest.mark.parametrize("change, expected", [
    (lambda r: r["elder"].__setitem__(4, "KH"), "elder: KH is listed twice (EC-DECK)"),
    (lambda r: r["dealer"].__setitem__(0, "KH"), "dealer: KH is also in elder's hand (EC-DECK)"),
    (lambda r: r.__setitem__("turnup", "KH"), "turnup: KH is also in elder's hand (EC-DECK)"),
    (lambda r: r.__setitem__("stock", ["7C"]), "stock: 7C is also in the turn-up (EC-DECK)"),
    (lambda r: r.__setitem__("stock", ["QS"]), "stock: QS is also in dealer's hand (EC-DECK)"),
])
def test_illegal_duplicate_cards(change, expected):
    record = make(**THREE_TRICKS)
    change(record)
    assert error_of(record) == expected


def test_illegal_hand_sizes():
    record = make(**THREE_TRICKS)
    record["elder"] = record["elder"][:4]
    assert error_of(record) == "elder: 4 cards dealt, a hand has 5 (EC-DEAL)"
    record = make(**THREE_TRICKS)
    record["dealer"].append("10C")
    assert error_of(record) == "dealer: 6 cards dealt, a hand has 5 (EC-DEAL)"


def test_illegal_card_not_in_hand():
    record = make(**THREE_TRICKS)
    record["tricks"][0] = ["KH", "AC"]
    assert error_of(record) == "trick 1: dealer played AC, which is not in his hand (EC-FOLLOW)"
    record = make(**THREE_TRICKS)
    record["tricks"][0] = ["AC", "7H"]
    assert error_of(record) == "trick 1: elder led AC, which is not in his hand (EC-FOLLOW)"


def test_illegal_card_played_twice():
    record = make(**THREE_TRICKS)
    record["tricks"][1] = ["KH", "9H"]
    assert error_of(record) == "trick 2: KH was already played in trick 1 (EC-FOLLOW)"


def test_illegal_trick_led_by_the_wrong_player():
    record = make(**TWO_TRICKS)
    record["tricks"][3] = ["8S", "KS"]  # dealer won trick 3 and must lead
    assert error_of(record) == "trick 4: elder led 8S but dealer won trick 3 and leads (EC-FOLLOW)"
    record = make(**TWO_TRICKS)
    record["tricks"][0] = ["7H", "KH"]
    assert error_of(record) == "trick 1: dealer led 7H but elder leads the first trick (EC-FOLLOW)"


def test_illegal_number_of_tricks():
    record = make(**THREE_TRICKS)
    record["tricks"] = record["tricks"][:4]
    assert error_of(record) == "tricks: 4 tricks recorded, a hand has 5 (EC-FOLLOW)"


def test_illegal_ending():
    record = make(**THREE_TRICKS, ending="dealer_plays")
    message = error_of(record)
    assert message.startswith("ending: expected 'elder_plays' or 'dealer_refuses'")


# ---------------------------------------------------------------------------------------------
# Malformed records
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["rules", "elder", "dealer", "turnup", "stock",
                                 "exchanges", "ending", "announced", "tricks"])
def test_missing_key(key):
    record = make(**THREE_TRICKS)
    del record[key]
    assert error_of(record) == f"record: missing key {key!r}"


def test_a_record_without_game_reads_as_ecarte():
    """"game" may be left out when the keys are Écarté's (a piquet record is named as such)."""
    record = make(**THREE_TRICKS)
    bare = {k: v for k, v in record.items() if k != "game"}
    assert replay(bare) == replay(record)
    bare.pop("tricks")
    assert error_of(bare) == "record: missing key 'tricks'"


@pytest.mark.parametrize("change, start", [
    (lambda r: r.__setitem__("elder", "KH QH KD 7S 8S"), "elder: expected a list of cards, got str"),
    (lambda r: r.__setitem__("turnup", 7), "turnup: expected a card string, got int"),
    (lambda r: r.__setitem__("turnup", "XX"), "turnup: not a card: 'XX'"),
    (lambda r: r.__setitem__("tricks", {"1": 2}), "tricks: expected a list of [led, played] pairs"),
    (lambda r: r["tricks"].__setitem__(2, ["KD"]), "trick 3: expected a pair"),
    (lambda r: r.__setitem__("exchanges", "none"), "exchanges: expected a list, got str"),
    (lambda r: r.__setitem__("exchanges", [{"elder_discard": ["KH"]}]),
     "exchange 1: missing key 'dealer_discard'"),
    (lambda r: r.__setitem__("exchanges", [["KH"]]), "exchange 1: expected an object"),
    (lambda r: r.__setitem__("announced", "elder"), "announced: expected a list"),
    (lambda r: r.__setitem__("announced", ["both"]), "announced: expected 'elder' or 'dealer'"),
    (lambda r: r.__setitem__("game", "piquet"), "game: expected 'ecarte'"),
    (lambda r: r.__setitem__("rules", "modern"), "rules: unknown Écarté variant 'modern'"),
    (lambda r: r.__setitem__("rules", 3), "rules: expected a variant name, got int"),
    (lambda r: r.__setitem__("switches", {"target": 6}), "switches: target must be one of"),
    (lambda r: r.__setitem__("switches", {"colour": 1}), "switches: unknown switch 'colour'"),
    (lambda r: r.__setitem__("switches", [1]), "switches: expected an object of switches"),
    (lambda r: r.__setitem__("extra", 1), "record: unknown key 'extra'"),
])
def test_malformed_structure(change, start):
    record = make(**THREE_TRICKS)
    change(record)
    assert error_of(record).startswith(start)


def test_record_not_an_object():
    assert error_of([make(**THREE_TRICKS)]) == "record: expected a JSON object, got list"


def test_replay_does_not_modify_the_record():
    record = make(**THREE_AFTER_EXCHANGE)
    before = copy.deepcopy(record)
    replay(record)
    assert record == before

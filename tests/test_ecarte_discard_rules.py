"""Écarté's discard rules (analysis/ecarte/studies/discard_rules.py; docs/playing-rules.md, "Écarté:
the discard"): the table the kernel reads against a plain reading of the rule's words, the cost
against the tables' player on the same deals, the ladder shipped, and bad rules."""
import json
import subprocess
import sys

import numpy as np
import pytest

from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies import discard_rules as D
from analysis.errors import InputError

RANK_OF = {"kings": 7, "queens": 6, "jacks": 5, "aces": 4, "tens": 3}


def plain_discard(hand: int, keep: tuple[str, ...]) -> int:
    """The rule's words, card by card: keep the listed classes, throw the rest; with nothing to
    throw, the weakest card (plain by rank, then suit; then trumps) of the last class holding one."""
    cards = [c for c in range(32) if hand >> c & 1]
    suit_len = {s: sum(1 for c in cards if c >> 3 == s) for s in range(4)}

    def classes_of(c: int) -> set[str]:
        s, r = c >> 3, c & 7
        out = set()
        if s == 0:
            out.add("trumps")
        else:
            out |= {name for name, rank in RANK_OF.items() if r == rank}
            if r == 6 and suit_len[s] >= 2:
                out.add("guarded_queens")
            if suit_len[s] >= 3:
                out.add("long_suits")
        return out

    throw = [c for c in cards if not classes_of(c) & set(keep)]
    if throw:
        return sum(1 << c for c in throw)
    first = {c: min(i for i, k in enumerate(keep) if k in classes_of(c)) for c in cards}
    last = max(first.values())
    weakest = min((c for c in cards if first[c] == last), key=lambda c: (c >> 3 == 0, c & 7, c >> 3))
    return 1 << weakest


@pytest.mark.parametrize("text", ["keep trumps, kings", "keep trumps", "keep nothing",
                                  "keep kings, trumps, guarded_queens", "keep long_suits, aces, tens, jacks",
                                  "keep trumps, kings, queens, jacks, aces, tens, guarded_queens, long_suits"])
def test_the_kernels_table_throws_what_the_rules_words_say(text):
    rule = D.parse(text)
    table = rule.table()
    hands = D.every_hand()
    idx = np.random.default_rng(7).choice(len(hands), 3000, replace=False)
    for i in idx.tolist():
        assert int(table[i]) == plain_discard(int(hands[i]), rule.keep), (text, hex(int(hands[i])))
    assert ((table & ~hands) == 0).all() and (table != 0).all()  # only the hand's cards, at least one


def test_the_tables_players_own_discard_as_a_rule_costs_exactly_nothing_and_a_bad_rule_costs():
    rules = get_rules("seed-de")
    base = D.tables_player(rules)
    assert base.keep_plain_min_rank == 7  # seed-de's tables keep trumps and kings: the Britannica's rule
    rule = D.parse("keep trumps, kings")
    assert (rule.table() == D.tables_discards(base.keep_plain_min_rank)).all()
    same = D.measure(rule, rules, deals=20_000, seed=3, exchanging=False)
    assert same["cost"]["value"] == 0 and same["cost"]["ci95"] == [0.0, 0.0]
    assert same["agreement"]["by_hands"] == 1.0
    bad = D.measure(D.parse("keep nothing"), rules, deals=20_000, seed=3)
    assert bad["cost"]["ci95"][0] > 0.3  # throwing the trumps too gives up a third of a point a hand
    # Forced to exchange on every hand, the discard is met more often: it costs more.
    assert bad["when_exchanging"]["ci95"][0] > bad["cost"]["ci95"][1]
    assert bad["agreement"]["by_hands"] < 0.2


@pytest.mark.parametrize("text, says", [
    ("keep trumps, crowns", "unknown class 'crowns'"),
    ("throw lowest", "one line 'keep CLASS"),
    ("keep", "'keep' needs classes"),
    ("keep trumps, trumps", "kept twice"),
    ("keep trumps; keep kings", "one line 'keep CLASS"),
])
def test_bad_discard_rules_say_what_is_wrong(text, says):
    with pytest.raises(InputError, match=says):
        D.parse(text)


def test_the_command_line_contract():
    out = subprocess.run([sys.executable, "-m", "analysis", "rule", "ecarte", "discard", "keep trumps, kings",
                          "--rules", "classic", "--deals", "20000", "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert {"game", "decision", "rules", "rule", "cost", "agreement", "against", "players", "deals", "seed"} <= set(res)
    assert res["decision"] == "discard" and res["rule"] == "keep trumps, kings" and res["deals"] == 20_000
    assert set(res["cost"]) >= {"value", "ci95"} and res["cost"]["ci95"][0] <= res["cost"]["value"] <= res["cost"]["ci95"][1]
    assert res["players"]["tables"]["keep_plain_min_rank"] == 8  # classic's tables keep trumps only
    text = subprocess.run([sys.executable, "-m", "analysis", "rule", "ecarte", "discard", "keep trumps, kings",
                           "--deals", "2000"], capture_output=True, text=True)
    assert text.returncode == 0 and "keep trumps, then plain kings" in text.stdout and "{" not in text.stdout
    bad = subprocess.run([sys.executable, "-m", "analysis", "rule", "ecarte", "discard", "keep trumps, crowns"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "crowns" in bad.stderr


def test_the_shipped_discard_ladders_cost_what_salon_rule_measures():
    from analysis.ecarte.studies.rule_ladder import shipped_ladders

    lads = {lad["rules"]: lad for lad in shipped_ladders()["ladders"] if lad["decision"] == "discard"}
    assert set(lads) == {"seed-de", "classic"}
    for lad in lads.values():
        assert [r["lines"] for r in lad["rungs"]] == sorted(r["lines"] for r in lad["rungs"])
        fits = [r["fit_cost"] for r in lad["rungs"]]
        assert all(b <= a - D.LINE_WORTH for a, b in zip(fits, fits[1:], strict=False))
        assert lad["book"][0]["rule"] == "keep trumps, kings"
    entry = lads["classic"]["book"][0]
    again = D.measure(D.parse(entry["rule"]), get_rules("classic"), D.COST_DEALS, D.COST_SEED)
    assert again["cost"] == entry["cost"] and again["when_exchanging"] == entry["when_exchanging"]

"""The discard analyser: legal options, exact draw odds against the classical tables and brute
force, the kernel against the reference on the same sampled deals, racing, and the CLI."""
import itertools
import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analysis.cards import parse_cards
from analysis.errors import InputError
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference.scoring import best_sequence, point_of, sequences_of, sets_of
from analysis.piquet.rules import get_rules, mask_of
from analysis.piquet.studies.discards.analyser import (
    analyse_hand,
    draw_probability,
    exact_table,
    legal_options,
    parse_hand,
)
from analysis.piquet.studies.discards.kernel import options_block
from analysis.rng import Stream

HAND = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8"


def test_every_legal_exchange_is_listed():
    """PQ-EX-E: 1..5 of 12 cards = 1,585; PQ-EX-Y per variant and elder's exchange."""
    h = parse_hand(HAND)
    assert len(legal_options(h, "elder", get_rules())) == 1585 == sum(comb(12, k) for k in range(1, 6))
    assert len(legal_options(h, "younger", get_rules("seed-de"))) == 299  # 0..3, bottom three only
    assert len(legal_options(h, "younger", get_rules("seed-no"), elder_took=3)) == sum(comb(12, k) for k in range(6))
    assert len(legal_options(h, "younger", get_rules("cavendish"), elder_took=5)) == 298  # at least one
    opts = legal_options(h, "elder", get_rules())
    assert len(set(opts.tolist())) == len(opts) and all(int(o) & ~h == 0 for o in opts)
    with pytest.raises(InputError, match="elder-took"):
        legal_options(h, "younger", get_rules(), elder_took=6)


def test_classical_draw_odds():
    """The odds tables: elder taking 5 gets a named card 1/4, one of four named 232/323; younger
    taking 3 gets a named card 3/20, one of four named 29/57."""
    assert Fraction(draw_probability(5, 1)).limit_denominator(10_000) == Fraction(1, 4)
    assert Fraction(draw_probability(5, 4)).limit_denominator(10_000) == Fraction(232, 323)
    assert Fraction(draw_probability(3, 1)).limit_denominator(10_000) == Fraction(3, 20)
    assert Fraction(draw_probability(3, 4)).limit_denominator(10_000) == Fraction(29, 57)


def test_exact_enumeration_gives_the_named_card_odds():
    """Holding three aces and throwing none of them, the quatorze of aces comes with the fourth ace:
    exactly 1/4 for elder taking five, 3/20 for younger taking three."""
    hand = parse_hand("AS AH AD 7S 8S 9H 7D 8D 9C 7C 8C 10C")
    low5 = mask_of(parse_cards("7S 8S 9H 7D 8D"))
    low3 = mask_of(parse_cards("7S 8S 9H"))
    e, y = exact_table(hand, np.array([low5, low3], dtype=np.int64))
    assert e["draws"] == comb(20, 5) and y["draws"] == comb(20, 3)
    assert e["best_set"]["4A"] == pytest.approx(1 / 4, abs=1e-15)
    assert y["best_set"]["4A"] == pytest.approx(3 / 20, abs=1e-15)
    # Keeping trios of aces and kings: a quatorze of either needs one of two named cards.
    hand2 = parse_hand("AS AH AD KS KH KD 7S 8H 9D 7C 8C 9C")
    d = mask_of(parse_cards("7S 8H 9D 7C 8C"))
    (x,) = exact_table(hand2, np.array([d], dtype=np.int64))
    assert x["best_set"].get("4A", 0) + x["best_set"].get("4K", 0) == pytest.approx(draw_probability(5, 2))


def _brute_force(hand: int, discard: int) -> tuple[dict, dict, dict]:
    unseen = [c for c in range(32) if not (hand >> c) & 1]
    kept = hand & ~discard
    k = bin(discard).count("1")
    point, seq, sets = {}, {}, {}
    for draw in itertools.combinations(unseen, k):
        h = kept | sum(1 << c for c in draw)
        length, _ = point_of(h)
        point[length] = point.get(length, 0) + 1
        s = best_sequence(h)[0] if sequences_of(h) else 0
        seq[s] = seq.get(s, 0) + 1
        best = sets_of(h)
        key = "none" if not best else max(best)
        sets[key] = sets.get(key, 0) + 1
    return point, seq, sets


@pytest.mark.parametrize("discard", ["7S 9D", "8H 10H 7D", "AS KS QS JS 7S", "7D"])
def test_exact_enumeration_matches_brute_force(discard):
    hand = parse_hand(HAND)
    d = mask_of(parse_cards(discard))
    (x,) = exact_table(hand, np.array([d], dtype=np.int64))
    point, seq, sets = _brute_force(hand, d)
    total = comb(20, bin(d).count("1"))
    assert x["point_length"] == pytest.approx({str(k): v / total for k, v in point.items()})
    assert x["best_sequence"] == pytest.approx({str(k): v / total for k, v in seq.items()})
    labels = {(n, r): f"{n}{['7', '8', '9', '10', 'J', 'Q', 'K', 'A'][r]}" for n in (3, 4) for r in range(8)}
    want = {("none" if k == "none" else labels[k]): v / total for k, v in sets.items()}
    assert x["best_set"] == pytest.approx(want)


def _sampled_deck(hand: int, seed: int, i: int, younger: bool) -> list[int]:
    """The discard analyser's sampled deal, as docs/piquet-engine.md writes it."""
    rest = [c for c in range(32) if not (hand >> c) & 1]
    s = Stream(seed, i, 0)
    for p in range(19):
        j = p + s.below32(20 - p)
        rest[p], rest[j] = rest[j], rest[p]
    mine = [c for c in range(32) if (hand >> c) & 1]
    return (rest[:12] + mine if younger else mine + rest[:12]) + rest[12:]


@pytest.mark.parametrize("seat,variant,opponent", [("elder", "seed-de", HeuristicPolicy()),
                                                   ("younger", "seed-no", HeuristicPolicy()),
                                                   ("younger", "cavendish", RandomPolicy()),
                                                   ("elder", "seed-no", RandomPolicy())])
def test_kernel_plays_each_option_as_the_reference_does(seat, variant, opponent):
    rules = get_rules(variant)
    hand = parse_hand(HAND)
    younger = seat == "younger"
    took = 3 if younger else 5
    # Contiguous, like the analyser's own options: a strided view would compile options_block again.
    options = np.ascontiguousarray(legal_options(hand, seat, rules, took)[::37])
    me = HeuristicPolicy()
    pe = opponent.to_array(force_count=took) if younger else me.to_array()
    py = me.to_array() if younger else opponent.to_array()
    codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
    unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
    net, flags = options_block(11, 5, 40, codes, unseen, younger, options, rules.to_array(), pe, py, 7)
    for r in range(40):
        deck = _sampled_deck(hand, 11, 5 + r, younger)
        for j, o in enumerate(options):
            disc = [c for c in range(32) if int(o) >> c & 1]
            kw = {"younger_discard": disc, "elder_count": took} if younger else {"elder_discard": disc}
            res = ref.play_cards(deck, rules, opponent if younger else me, me if younger else opponent,
                                 Stream(11, 5 + r, 1), **kw)
            mine, theirs = ("younger", "elder") if younger else ("elder", "younger")
            assert net[r, j] == res.scores[mine]["total"] - res.scores[theirs]["total"], (r, j)
            assert bool(flags[r, j] & 1) == (res.scores[mine]["point"] > 0)
            assert bool(flags[r, j] & 64) == (res.scores[mine]["cards"] + res.scores[mine]["capot"] > 0)


def test_racing_finds_the_full_tables_best_and_keeps_mine():
    full = analyse_hand(HAND, "elder", samples=2000, seed=3, race=False)
    raced = analyse_hand(HAND, "elder", samples=8000, seed=3, mine="7S 8H 7D 9D 8C")
    assert full.table.iloc[0]["discard"] == raced.table.iloc[0]["discard"]
    left = [r["options_left"] for r in raced.rounds]
    assert left == sorted(left, reverse=True) and left[-1] < 1585
    mine = raced.table[raced.table["mine"]].iloc[0]
    assert mine["n"] == raced.spec["deals_played"]  # never dropped
    assert mine["diff_hi"] < 0 or mine["rank"] == 1
    assert full.table["n"].min() == 2000 and (full.table["diff_to_best"] <= 0).all()
    t = full.table
    assert (t["net_lo"] <= t["net"]).all() and (t["net"] <= t["net_hi"]).all()


def test_analysis_is_reproducible_across_threads():
    a = analyse_hand(HAND, "younger", samples=600, seed=4, race=False, threads=1)
    b = analyse_hand(HAND, "younger", samples=600, seed=4, race=False, threads=2)
    assert a.table.drop(columns=["discard", "keep"]).equals(b.table.drop(columns=["discard", "keep"]))


def test_cli_discard_json_contract(capsys, tmp_path):
    from analysis.cli import main

    plot = tmp_path / "top.png"
    try:
        main(["piquet", "discard", HAND, "--samples", "1500", "--top", "5", "--mine", "7S 8H 7D 9D 8C",
              "--plot", str(plot), "--json", "--play", "heuristic"])
    except SystemExit as e:
        assert e.code in (0, None)
    res = json.loads(capsys.readouterr().out)
    assert len(res["options"]) in (5, 6) and res["options"][0]["rank"] == 1
    o = res["options"][0]
    for key in ("discard", "keep", "net_score", "diff_to_best", "p_point", "p_sequences", "p_sets", "p_repique",
                "p_pique", "p_capot", "p_cards", "exact"):
        assert key in o
    assert set(o["exact"]) >= {"point_length", "best_sequence", "best_set"}
    assert sum(o["exact"]["point_length"].values()) == pytest.approx(1)
    assert res["mine"]["rank"] >= 1 and res["mine"]["gives_up"]["value"] >= 0
    assert plot.stat().st_size > 5000


@pytest.mark.parametrize("args,needle", [
    (["piquet", "discard", "AS KS QS"], "expected 12 cards"),
    (["piquet", "discard", HAND.replace("♣K 8", "♣K K")], "duplicate"),
    (["piquet", "discard", HAND, "--seat", "younger", "--elder-took", "7"], "elder-took"),
    (["piquet", "discard", HAND, "--elder-took", "3"], "--seat younger"),
    (["piquet", "discard", HAND, "--mine", "7S 8H 7D 9D 8C 8S"], "not in the hand"),
    (["piquet", "discard", HAND, "--mine", "7S 8H 7D 9D 8C AS"], "not a legal exchange"),
    (["piquet", "discard", HAND, "--samples", "0"], "--samples"),
])
def test_cli_discard_bad_input(args, needle, capsys):
    from analysis.cli import main

    with pytest.raises(SystemExit) as e:
        main(args)
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1 and needle in err[0]


def test_discard_features_and_rules_of_thumb():
    from analysis.piquet.studies.discards.study import discard_features, rule_discards

    hand = parse_hand("♠A K Q J 10 ♥A K Q ♦7 8 ♣7 9")
    f = discard_features(hand, mask_of(parse_cards("7D 8D 7C 9C")))
    assert f["throws_whole_suit"] and f["throws_only_shortest"] and f["keeps_point_suit"]
    assert f["keeps_sequences"] and f["keeps_sets"]
    g = discard_features(hand, mask_of(parse_cards("10S 7D")))
    assert not g["keeps_sequences"] and not g["keeps_point_suit"] and not g["throws_whole_suit"]
    rules = rule_discards(hand, "elder", get_rules())
    assert rules["shortest_weakest"] == mask_of(parse_cards("7D 8D 7C 9C QH"))
    assert rules["keep_point"] & (0xFF << 0) == 0  # spades (the point suit) kept
    y = rule_discards(hand, "younger", get_rules())
    assert all(bin(m).count("1") == 3 for m in y.values()) and set(y) >= {"keep_guards", "heuristic"}


def test_discard_study_runs_and_summarises():
    from analysis.piquet.studies.discards.study import study_hands, summary

    df = study_hands(3, "younger", get_rules(), samples=400, seed=2)
    s = summary(df)
    assert s["hands"] == 3 and abs(sum(s["best_takes"].values()) - 1) < 1e-12
    assert set(s["rules"]) == {"shortest_weakest", "keep_point", "keep_guards", "heuristic", "learned"}
    assert all(r["cost"]["value"] >= 0 for r in s["rules"].values())  # nothing beats the best on average
    assert s["random_cost"]["value"] > 0 and 0 <= s["best_exchange"]["keeps_point_suit"] <= 1

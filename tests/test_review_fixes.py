"""Fixes of issue #14 ("Found by review", "Bad input"): the Écarté table cells under penalties of 4,
the same card in two table melds of ``salon bezique melds``, the cards a player holds when he
melds."""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from analysis.ecarte.engine.deal import deal_with_elder
from analysis.ecarte.engine.layout import (
    N_OUT,
    O_ANNOUNCED,
    O_DEALER_POINTS,
    O_DEALER_TRICK_POINTS,
    O_ELDER_POINTS,
    O_ELDER_TRICK_POINTS,
    O_TURNUP_KING,
)
from analysis.ecarte.play.hand import play_hand
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies import score
from analysis.ecarte.studies.strategy import kernel as TK
from analysis.ecarte.studies.strategy import tables as S
from analysis.rng import EMPTY_HALF, stream_start


# ------------------------------------------------------------------ Écarté table cells (penalty 4)
def _engine_outcomes(block: str, item: int, n: int, seed: int, table: np.ndarray, rules, pe, pd) -> dict:
    """Per option (a, b): the (king, elder's trick points, the dealer's) of every deal of the
    block's item, played by the hand engine (``kernel.play_hand``) on the block's own streams."""
    fixed = int(S.hands().masks[item])
    codes = np.array([c for c in range(32) if fixed >> c & 1], dtype=np.int64)
    deck, deck2, out = np.empty(32, np.int8), np.empty(32, np.int8), np.empty(N_OUT, np.int64)
    got = {"a": Counter(), "b": Counter(), "net": 0}
    for i in range(n):
        ui = np.uint64((item << TK.ITEM_SHIFT) | i)
        stc = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(0)))
        stu = np.uint64(stream_start(np.uint64(seed), ui, np.uint64(2)))
        while True:
            stu, turnup = TK.turnup_for(fixed, stu)
            stu = np.uint64(stu)
            stc, stb, other = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
            stc, stb = np.uint64(stc), np.uint64(stb)
            if block == "elder" or table[TK.rank_of_mask(other)] == 1:
                break
        elder, dealer = (fixed, other) if block == "elder" else (other, fixed)
        nets = []
        for option, key in ((0, "a"), (1, "b")):
            e, d = pe.copy(), pd.copy()
            if block == "elder":
                e[6] = option
                d[7] = table[TK.rank_of_mask(dealer)] if option else -1
            else:
                e[6], d[7] = 1, option
            deck2[:] = deck
            play_hand(deck2, 11, (stc, stb, np.uint64(0)), elder, dealer, turnup, rules, e, d, out, False)
            ann = int(out[O_ANNOUNCED])
            king = 1 if ann & 1 else 2 if out[O_TURNUP_KING] else 3 if ann >> 1 else 0
            got[key][(king, int(out[O_ELDER_TRICK_POINTS]), int(out[O_DEALER_TRICK_POINTS]))] += 1
            nets.append(int(out[O_ELDER_POINTS] - out[O_DEALER_POINTS]))
        got["net"] += nets[1] - nets[0]
    return got


def _decoded(row: np.ndarray, base: int) -> Counter:
    """A tally row's outcome histogram read back through the cell layout."""
    return Counter({(TK.cell_king.py_func(c), TK.elder_trick_points.py_func(c), TK.dealer_trick_points.py_func(c)):
                    int(row[base + c]) for c in range(TK.N_CELLS) if row[base + c]})


@pytest.mark.parametrize("variant, point, vole", [("seed-de", 4, 4), ("classic", 4, 4), ("seed-de", 3, 4),
                                                  ("classic", 2, 4)])
def test_table_cells_keep_trick_points_of_four(variant, point, vole):
    """EC-PENALTY with penalty_point / penalty_vole up to 4 (the rules' maximum): the elder and
    dealer blocks' outcome histograms, decoded, are the hand engine's (king, elder's trick points,
    the dealer's) deal for deal, and the cells' nets sum to the blocks' paired difference. A 2-bit
    field read a dealer's 4 as elder's 1."""
    rules = get_rules(variant, [f"penalty_point={point}", f"penalty_vole={vole}"]).to_array()
    pol = HeuristicPolicy().to_array()
    rng = np.random.default_rng(7)
    mixed = rng.integers(0, 2, TK.N_HANDS).astype(np.int8)  # an arbitrary table: proposals and refusals of all kinds
    masks = S.hands().masks
    items = [0, 9_000, 21_000, 38_303]
    n = 50
    fours = Counter()
    nets = np.array([TK.elder_net.py_func(c) for c in range(TK.N_CELLS)])
    for block, fn in (("elder", TK.elder_block), ("dealer", TK.dealer_block)):
        starts = np.array([i << TK.ITEM_SHIFT for i in items], dtype=np.int64)
        rows = fn(13, starts, np.full(len(items), n, dtype=np.int64), masks, mixed, rules, pol, pol)
        for k, item in enumerate(items):
            want = _engine_outcomes(block, item, n, 13, mixed, rules, pol, pol)
            for key, base in (("a", TK.R_A), ("b", TK.R_B)):
                assert _decoded(rows[k], base) == want[key], (block, item, key)
                fours.update(("elder" if e == 4 else "dealer") for (_, e, d), m in want[key].items()
                             for _ in range(m) if 4 in (e, d))
            diff = rows[k, TK.R_B:TK.R_B + TK.N_CELLS] @ nets - rows[k, TK.R_A:TK.R_A + TK.N_CELLS] @ nets
            assert diff == rows[k, TK.R_DIFF] == want["net"]
    # The sample holds the 4s the override makes: the dealer's (elder penalised), and elder's where
    # the dealer is penalised (classic: a refused first proposal) with a penalty point of 4.
    assert fours["dealer"] > 0
    if variant == "seed-de":
        assert fours["elder"] == 0  # only elder is penalised
    elif point == 4:
        assert fours["elder"] > 0


def test_score_chain_counts_a_four_as_four():
    """The by-score chain reads a cell of 4 trick points as 4: a fair coin between elder's point
    and the dealer's penalty vole of 4 against a direct recursion; and tallies without 4s keep
    the chain on the 64 cells of points up to 3."""
    T = 5
    rows = np.zeros((1, TK.N_ROW), dtype=np.int64)
    rows[0, TK.R_N] = 10
    for base in (TK.R_A, TK.R_B):
        rows[0, base + TK.make_cell.py_func(TK.KING_NONE, 1, 0)] = 5
        rows[0, base + TK.make_cell.py_func(TK.KING_NONE, 0, 4)] = 5
    assert score.cells_in_use(rows) == TK.N_CELLS
    one = np.ones(1)
    res = score.chain(T, one, rows, np.zeros(1, int), one, rows, np.zeros(1, int))

    def direct(x, y):  # x: elder's score, y: the dealer's; the deal passes after each hand
        win = 1.0 if x + 1 >= T else 1 - direct(y, x + 1)
        lose = 0.0 if y + 4 >= T else 1 - direct(y + 4, x)
        return (win + lose) / 2

    for x in range(T):
        for y in range(T):
            assert res["W_points"][x, y] == pytest.approx(direct(x, y), abs=1e-12)
    assert res["W_points"][4, 4] == 0.5  # elder wins with his point, or the dealer with his 4
    assert res["W_points"][0, 1] < 0.5 < res["W_points"][1, 0]
    # Elder's 4 with his announced king: the king cell's value is the king point's, 4 points either way.
    assert TK.elder_net.py_func(TK.make_cell.py_func(TK.KING_ELDER, 4, 0)) == 5
    assert TK.elder_net.py_func(TK.make_cell.py_func(TK.KING_TURNUP, 0, 4)) == -5
    assert score.WITHOUT_KING[TK.make_cell.py_func(TK.KING_DEALER, 0, 4)] == TK.make_cell.py_func(TK.KING_NONE, 0, 4)
    for base in (TK.R_A, TK.R_B):
        rows[0, base + TK.BASE_CELLS:base + TK.N_CELLS] = 0
    assert score.cells_in_use(rows) == TK.BASE_CELLS


# ------------------------------------------------------------- Bezique: the same card on the table
SALON = str(Path(sys.executable).with_name("salon"))


def _salon(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([SALON, *args], capture_output=True, text=True, timeout=120)


def _codes(text: str) -> list[int]:
    from analysis.bezique.rules import code_of
    from analysis.cards import parse_cards

    return [code_of(c) for c in parse_cards(text)]


def test_marked_table_card_is_the_copy_already_on_the_table():
    """BZ-REUSE: "KH QH; AH 10H =KH =QH JH" is a royal marriage whose king and queen went on into
    the trump sequence: one K♥ and one Q♥ on the table, each used in both melds; the legal melds
    are the reference's for that table. Unmarked, the later group still takes the other copies."""
    from analysis.bezique.reference.melds import legal_melds
    from analysis.bezique.rules import get_rules, name_of
    from analysis.bezique.studies.melds import meld_report, read_position

    hearts = 1
    kh, qh, ah, th, jh = _codes("KH QH AH 10H JH")
    for variant in ("seed-de", "classic"):
        rules = get_rules(variant)
        res = meld_report("QS JD", "H", "KH QH; AH 10H =KH =QH JH", rules)
        table = {t["card"]: t["used_in"] for t in res["table"]}
        assert table == {"KH": ["royal_marriage", "trump_sequence"], "QH": ["royal_marriage", "trump_sequence"],
                         "AH": ["trump_sequence"], "10H": ["trump_sequence"], "JH": ["trump_sequence"]}
        hand, on_table = read_position("QS JD", hearts, "KH QH; AH 10H =KH =QH JH", rules=rules)
        assert on_table == {kh: frozenset({"royal_marriage", "sequence"}), qh: frozenset({"royal_marriage", "sequence"}),
                            ah: frozenset({"sequence"}), th: frozenset({"sequence"}), jh: frozenset({"sequence"})}
        want = legal_melds(hand, on_table, hearts, rules)
        assert [(m["name"], m["cards"], m["points"]) for m in res["melds"]] == [
            ({"marriage": "common_marriage"}.get(m.kind, m.kind), [name_of(c) for c in m.cards], m.points)
            for m in want]
        assert [m["name"] for m in res["melds"]] == ["bezique"]
    # With the second K♥ in hand: a sequence's king and queen may form a royal marriage in seed-de,
    # but these were already in one, so neither variant offers a royal marriage with the hand's K♥.
    for variant in ("seed-de", "classic"):
        res = meld_report("KH", "H", "KH QH; AH 10H =KH =QH JH", get_rules(variant))
        assert res["melds"] == [] and res["hand"] == ["KH"]
    _, default = read_position("", hearts, "KH QH; AH 10H KH QH JH")
    assert sorted(name_of(c) for c in default) == ["10H", "AH", "JH", "KH", "KH", "QH", "QH"]
    assert {c: k for c, k in default.items() if name_of(c) == "KH"} == {
        kh: frozenset({"royal_marriage"}), kh + 32: frozenset({"sequence"})}


def test_marked_table_card_follows_the_variant():
    """A marked reuse must be legal: seed-de lets a sequence's king and queen form a royal marriage
    with no card from the hand, classic does not; the same meld twice is refused; a mark needs a
    card of an earlier group."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.melds import meld_report
    from analysis.errors import InputError

    res = meld_report("JD", "H", "AH 10H KH QH JH; =KH =QH", get_rules("seed-de"))
    assert {t["card"]: t["used_in"] for t in res["table"]}["KH"] == ["royal_marriage", "trump_sequence"]
    with pytest.raises(InputError, match="cannot join a royal marriage"):
        meld_report("JD", "H", "AH 10H KH QH JH; =KH =QH", get_rules("classic"))
    with pytest.raises(InputError, match="cannot join a royal marriage"):
        meld_report("JD", "H", "KH QH; =KH =QH", get_rules("seed-de"))
    with pytest.raises(InputError, match="no KS of an earlier table meld"):
        meld_report("JD", "H", "KH QH; =KS QS", get_rules("seed-de"))
    # Every new meld adds a card from the hand: four kings all from earlier melds is refused.
    with pytest.raises(InputError, match="adds a card from the hand"):
        meld_report("", "H", "KH QH; KS QS; KC QC; KD QD; =KH =KS =KC =KD", get_rules("seed-de"))
    # Four kings with the royal marriage's king: the mark may come after the other K♥.
    res = meld_report("", "H", "KH QH; KH =KH KS KC", get_rules("seed-de"))
    assert sorted((t["card"], tuple(t["used_in"])) for t in res["table"]) == [
        ("KC", ("four_kings",)), ("KH", ("four_kings",)), ("KH", ("four_kings", "royal_marriage")),
        ("KS", ("four_kings",)), ("QH", ("royal_marriage",))]


def test_melds_command_reads_the_mark_and_rejects_bad_marks():
    got = _salon("bezique", "melds", "QS JD", "--trump", "H", "--table", "KH QH; AH 10H =KH =QH JH", "--json")
    assert got.returncode == 0, got.stderr
    table = json.loads(got.stdout)["table"]
    assert [t["card"] for t in table].count("KH") == 1 and [t["card"] for t in table].count("QH") == 1
    for table in ("AH 10H KH QH JH; =KH =QH", "KH QH; = KH QH"):
        bad = _salon("bezique", "melds", "JD", "--trump", "H", "--table", table, "--rules", "classic")
        assert bad.returncode == 2 and bad.stdout == ""
        assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    # A third copy names the mark.
    bad = _salon("bezique", "melds", "KH", "--trump", "H", "--table", "KH QH; AH 10H KH QH JH")
    assert bad.returncode == 2 and "=KH" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------- Bezique: cards held at meld time
def test_melds_take_at_most_the_cards_held_when_melding():
    """BZ-MELD: a player melds after winning a stock trick, before drawing, so he holds 7 cards (8
    less the one in the trick), his table cards among them. A card in two table melds counts once."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.melds import meld_report
    from analysis.errors import InputError

    rules = get_rules()
    assert len(meld_report("QS JD KH QH 10H AH JH", "H", None, rules)["hand"]) == 7
    with pytest.raises(InputError, match="the hand holds 8 cards, but a player who melds holds at most 7"):
        meld_report("QS JD KH QH 10H AH JH KS", "H", None, rules)
    res = meld_report("QS JD", "H", "KH QH; AH 10H =KH =QH JH", rules)  # 2 in hand, 5 on the table
    assert len(res["hand"]) + len(res["table"]) == 7
    with pytest.raises(InputError, match="hand and table together hold 8 cards"):
        meld_report("QS JD KS", "H", "KH QH; AH 10H =KH =QH JH", rules)
    with pytest.raises(InputError, match="hand and table together hold 8 cards.*counts once"):
        meld_report("QS", "H", "KH QH; AH 10H KH QH JH", rules)  # unmarked: two K♥ and two Q♥


def test_melds_command_rejects_a_hand_too_big_in_one_line():
    bad = _salon("bezique", "melds", "QS JD KH QH 10H AH JH KS AS", "--trump", "H")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "error: the hand holds 9 cards, but a player who melds holds at most 7 (8 less the card he played to "
        "the trick he won, BZ-MELD)"]
    ok = _salon("bezique", "melds", "QS JD KH QH 10H AH JH", "--trump", "H", "--json")
    assert ok.returncode == 0, ok.stderr
    assert {m["name"] for m in json.loads(ok.stdout)["melds"]} >= {"bezique", "royal_marriage", "trump_sequence"}


# ------------------------------------------------------------------------- Écarté: the narration
def _took_claims(text: str) -> list[tuple[str, int]]:
    """Every "... took N trick(s)" of a narration with its subject: the nearest "elder" or
    "dealer" before it that is not a possessive ("elder's proposal")."""
    import re

    claims = []
    for line in text.splitlines():
        for m in re.finditer(r"took (\d) trick", line):
            subjects = re.findall(r"\b(elder|dealer)\b(?!')", line[:m.start()])
            claims.append((subjects[-1], int(m.group(1))))
    return claims


def test_explain_says_who_took_the_tricks_after_a_refusal():
    """seed-de, seed 0 hand 21: the dealer refused the first proposal and elder took no trick, so
    the dealer scores the penalty vole. The narration said "dealer refused elder's proposal in
    round 1 and took 0 tricks", as if the dealer had taken none."""
    from analysis.ecarte.reference import hand as R

    pol = HeuristicPolicy()
    r = R.play_hand(0, 21, get_rules("seed-de"), pol, pol)
    assert (r.elder_tricks, r.penalised, r.refused_round) == (0, "elder", 0)
    text = R.explain(0, 21, get_rules("seed-de"), pol)
    assert ("  EC-PENALTY: dealer refused elder's proposal in round 1 and elder took 0 tricks: dealer scores 3 "
            "(the vole)") in text.splitlines()
    got = _salon("ecarte", "explain", "--seed", "0", "--deal", "21")
    assert got.returncode == 0, got.stderr
    assert "and elder took 0 tricks: dealer scores 3 (the vole)" in got.stdout


@pytest.mark.parametrize("variant", ["seed-de", "classic"])
def test_explain_tricks_sentences_agree_with_the_hand(variant):
    """Every "X took N tricks" of the narration is what X took, over 300 hands of each variant
    (which include every ending: a refusal, playing without proposing, both penalised sides in
    classic, voles for either side)."""
    from analysis.ecarte.reference import hand as R
    from analysis.ecarte.reference.cards import N_TRICKS

    rules, pol = get_rules(variant), HeuristicPolicy()
    seen = set()
    for deal in range(300):
        r = R.play_hand(0, deal, rules, pol, pol)
        took = {"elder": r.elder_tricks, "dealer": N_TRICKS - r.elder_tricks}
        claims = _took_claims(R.explain(0, deal, rules, pol))
        assert len(claims) == 2 and all(took[who] == n for who, n in claims), (deal, claims, took)
        seen.add((r.penalised, r.played_without_proposing, r.elder_tricks in (0, 5), r.winner))
    penalised = {"elder", "dealer"} if variant == "classic" else {"elder"}
    for side in penalised:
        assert any(p == side and w != side for p, _, _, w in seen), side  # a penalty scored against it
    assert any(wp for _, wp, _, _ in seen) and any(v and w == "dealer" for _, _, v, w in seen)

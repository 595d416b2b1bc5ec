"""``salon bezique advise`` (analysis/bezique/studies/advise.py): one decision answered for one hand.

Checks: the end game with the opponent's hand forced equals an exhaustive minimax and ``solve``;
the compiled rollouts from a built position equal the plain-Python reference playing the same
layouts; determinism; the command's JSON and text; one-line errors for bad input."""
import json

import pytest

from analysis.bezique.reference.cards import DEALER, ELDER, SEATS, follower_wins, is_brisque, other
from analysis.bezique.reference.deal_state import BREAKDOWN_KEYS, DealState
from analysis.bezique.reference.policies import Player
from analysis.bezique.reference.solver import end_legal_follows
from analysis.bezique.rules import code_of, get_rules, name_of
from analysis.bezique.studies import advise as OH
from analysis.bezique.studies import solve as S
from analysis.cards import parse_cards

SEED_DE, CLASSIC = get_rules("seed-de"), get_rules("classic")


def _faces(text):
    return [code_of(c) for c in parse_cards(text, allow_copies=2)]


def _everything_but(*texts):
    """The cards of the doubled pack not in ``texts``: the --seen that leaves nothing unseen."""
    left = [f for f in range(32) for _ in range(2)]
    for t in texts:
        for f in _faces(t):
            left.remove(f)
    return " ".join(name_of(f) for f in left)


def _minimax(lead_hand, follow_hand, trump, must, pts_last=10):
    """The leader's exact net points from the remaining tricks (brisques, last trick), by brute force."""
    if not lead_hand:
        return 0
    return max(_trick_value(lead_hand, follow_hand, a, trump, must, pts_last) for a in set(lead_hand))


def _trick_value(lead_hand, follow_hand, a, trump, must, pts_last=10):
    """The leader's value of leading ``a``, the follower answering best."""
    values = []
    for b in set(end_legal_follows(follow_hand, a, trump, must)):
        pts = 10 * (is_brisque(a) + is_brisque(b)) + (pts_last if len(lead_hand) == 1 else 0)
        rest_l, rest_f = list(lead_hand), list(follow_hand)
        rest_l.remove(a)
        rest_f.remove(b)
        if follower_wins(a, b, trump):
            values.append(-pts - _minimax(rest_f, rest_l, trump, must, pts_last))
        else:
            values.append(pts + _minimax(rest_l, rest_f, trump, must, pts_last))
    return min(values)


def _by_card(res):
    return {r["card"]: r for r in res["candidates"]}


@pytest.mark.parametrize("rules", [SEED_DE, CLASSIC], ids=["seed-de", "classic"])
def test_forced_end_game_lead_equals_brute_force_and_solve(rules):
    """Stock 0, every other card seen: the opponent's hand is forced, so each lead's value is the
    exact end game (both sides play it in the rollouts): equal to a brute-force minimax, and the
    best leads are those of ``salon bezique solve``."""
    mine, his = "AS 10S KH 9D", "AH 7S JD 10D"
    res = OH.advise(mine, "S", seen=_everything_but(mine, his), stock=0, rules=rules, samples=3, seed=1)
    must = rules.end_must_win
    values = {name_of(a): _trick_value(_faces(mine), _faces(his), a, 0, must) for a in _faces(mine)}
    got = {c: r["net"]["value"] for c, r in _by_card(res).items()}
    assert got == values
    assert all(r["net"]["ci95"] == [r["net"]["value"]] * 2 for r in res["candidates"])  # one layout only
    solved = S.solve(mine, his, "S", "hand", rules)
    assert res["candidates"][0]["net"]["value"] == solved["value"] == _minimax(_faces(mine), _faces(his), 0, must)
    assert {c for c, v in got.items() if v == solved["value"]} == set(solved["best"])
    assert res["unseen"] == 4 and res["trick"] == 29 and res["melds"]["legal_now"] == []


def test_forced_end_game_follow_equals_brute_force():
    """Following a led card in the end game: each legal follow's value is minus the leader's value of
    that (lead, follow) pair; illegal follows (BZ-END) are not offered."""
    mine, his, led = "AS 10S KH 9D 8C", "AH 7S JD 10D", "QS"
    res = OH.advise(mine, "H", seen=_everything_but(mine, his, led), stock=0, led=led, rules=SEED_DE, samples=2)
    a = code_of(parse_cards(led)[0])
    expected = {}
    for b in set(end_legal_follows(_faces(mine), a, 1, False)):
        rest_l, rest_f = _faces(his), _faces(mine)
        rest_f.remove(b)
        pts = 10 * (is_brisque(a) + is_brisque(b))
        v = -pts - _minimax(rest_f, rest_l, 1, False) if follower_wins(a, b, 1) else pts + _minimax(rest_l, rest_f, 1, False)
        expected[name_of(b)] = -v
    assert {c: r["net"]["value"] for c, r in _by_card(res).items()} == expected
    assert set(expected) == {"AS", "10S"}  # follow suit
    top, second = sorted(expected.values(), reverse=True)
    assert res["clear"] == (top != second)


def _reference_rollout(pos, rules, lay, first, monkeypatch_solver):
    """The reference deal (DealState, Player) set at the position with layout ``lay`` and my card
    ``first``, played to the end: my net points."""
    from analysis.bezique.policies import TUNED_EXACT
    from analysis.rng import Stream

    opp_hand, stock, tu, unlisted = lay
    st = DealState(rules, list(range(64)))
    drawn = 47 if pos.stock == 0 else 48 - pos.stock
    st.trump, st.turn_up, st.drawn = pos.trump, tu, drawn
    st.hands = {ELDER: set(pos.hand), DEALER: set(opp_hand)}
    st.tables = {ELDER: dict(pos.table), DEALER: dict(pos.opp_table)}
    st.stock = [-1] * drawn + list(stock)
    st.plays = list(pos.seen) + list(unlisted) + ([pos.led] if pos.led is not None else [])
    st.tricks = [None] * (pos.trick - 1)
    st.points = {s: dict.fromkeys(BREAKDOWN_KEYS, 0) for s in SEATS}
    st.leader = ELDER if pos.led is None else DEALER
    st.led = None if pos.led is None else (pos.led, False)
    players = {s: Player(TUNED_EXACT, s, Stream(0, 0, 1)) for s in SEATS}
    st.play(ELDER, first)
    while not st.finished:
        if st.pending is not None:
            w = st.pending.winner
            if st.can_exchange(w) and players[w].exchange(st):
                st.exchange(w)
            melds = st.melds_for(w)
            chosen = players[w].meld(st, melds) if melds else None
            if chosen is not None:
                st.meld(w, chosen)
            st.draw()
        elif st.led is None:
            st.play(st.leader, players[st.leader].lead(st))
        else:
            f = other(st.leader)
            st.play(f, players[f].follow(st, st.led[0]))
    return st.points[ELDER]["total"] - st.points[DEALER]["total"]


POSITIONS = [  # (hand, trump, seen, stock, led, table, opp_table, rules)
    ("AS 10S KH QH 9D JD QS 7H", "H", "8S 9C AC 10C", 44, None, None, None, SEED_DE),
    ("AS 10S KH 9D JD 7C", "H", "7H 8S 9C AC 10C KC AH", 10, "QD", "KS QS", "KC QC", SEED_DE),
    ("10H 9S AC", "D", "7D 7S", 4, None, "KD QD; AD 10D =KD =QD JD", "QS JD", CLASSIC),
    ("AS 10S KH 9D 8C", "H", "7H 8H", 0, "QS", None, None, CLASSIC),
    ("QS 9H 8H 7D AC 10C", "C", "7S 8S", 30, None, "KS QS", "KH QH", SEED_DE),  # no second marriage of KS
    ("9C 8C 7D", "H", "7S", 20, None, "AH 10H KH QH JH", None, SEED_DE),  # royal marriage from the sequence
]


@pytest.mark.parametrize("position", POSITIONS, ids=["stock-lead", "follow-tables", "sequence", "end", "reuse", "either-order"])
def test_rollouts_equal_the_reference_deal_on_the_same_layouts(position, monkeypatch):
    """The compiled rollouts from the built position play exactly as the plain-Python reference
    deal set at the same position: every candidate, several layouts (the end game's exact player
    taken from the compiled solver in both, as the end-game tests do)."""
    from analysis.bezique.players import solver_play as EP
    from analysis.bezique.players.solver import new_table
    from analysis.bezique.reference import policies as RP

    tt = new_table(15)
    monkeypatch.setattr(RP, "exact_lead", lambda h, o, t, must, b, last: EP.exact_lead(
        S.mask(h), S.mask(o), t, int(must), b, last, tt) & 31)
    monkeypatch.setattr(RP, "exact_follow", lambda lead, h, led, t, must, b, last: EP.exact_follow(
        S.mask([c for c in lead if c != led]), S.mask(h), led, t, int(must), b, last, tt) & 31)
    hand, trump, seen, stock, led, table, opp_table, rules = position
    pos = OH.read_position(hand, trump, seen=seen, stock=stock, led=led, table=table, opp_table=opp_table,
                           turn_up=None, rules=rules)
    ro = OH.Rollouts(pos, rules)
    cands = OH.candidates(pos, rules)
    for i in range(8):
        lay = OH.layout(pos, 5, i)
        ro.deal(*lay)
        for c in cands:
            assert ro.play(c) == _reference_rollout(pos, rules, lay, c, None), (i, name_of(c))


def test_layouts_hold_every_card_once_and_the_turn_up_is_a_trump():
    pos = OH.read_position("AS 10S KH QH 9D JD QS 7H", "C", seen="8S 9C", stock=44, led=None, table=None,
                           opp_table=None, turn_up=None, rules=SEED_DE)
    for i in range(50):
        opp, stock, tu, unlisted = OH.layout(pos, 0, i)
        assert len(opp) == 8 and len(stock) == 43 and len(unlisted) == 4 - 2 and tu >> 3 & 3 == 3
        assert sorted(opp + stock + [tu] + unlisted + pos.hand + pos.seen) == list(range(64))


MID = dict(seen="7H 8S 9C AC 10C KC", stock=40, rules=SEED_DE, samples=40)


def test_same_seed_same_numbers_other_seed_other_numbers():
    hand = "AS 10S KH QH 9D JD QS 7C"
    a, b = OH.advise(hand, "H", seed=3, **MID), OH.advise(hand, "H", seed=3, **MID)
    assert a == b
    c = OH.advise(hand, "H", seed=4, **MID)
    assert [r["net"]["value"] for r in c["candidates"]] != [r["net"]["value"] for r in a["candidates"]]


def test_intervals_clear_flag_and_meld_question_agree():
    """Every interval holds its mean; "clear" is the runner-up's paired interval excluding 0; the
    rows are ranked by mean; the meld question counts its occasions and the melds laid."""
    res = OH.advise("AS 10S KH QH 9D JD QS 7C", "H", seed=0, **MID)
    for r in res["candidates"]:
        for est in (r["net"], r["vs_best"]):
            assert est["ci95"][0] <= est["value"] <= est["ci95"][1]
    assert res["candidates"][0]["vs_best"] == {"value": 0.0, "ci95": [0.0, 0.0], "n": 40}
    lo, hi = res["candidates"][1]["vs_best"]["ci95"]
    assert res["clear"] == (hi < 0 or lo > 0) and res["candidates"][1]["vs_best"]["value"] <= 0
    means = [r["net"]["value"] for r in res["candidates"]]
    assert means == sorted(means, reverse=True)
    m = res["melds"]
    assert {x["name"] for x in m["legal_now"]} == {"royal_marriage", "bezique"}
    assert m["after"] == res["best"] and 0 < m["occasions"] <= 40 and sum(m["laid"].values()) == m["occasions"]


def test_pausing_for_the_meld_and_laying_the_heuristics_meld_replays_the_rollout():
    """The meld question's machinery: stopping at my next decision and resuming with the heuristic's
    own meld (or its own play) gives exactly the uninterrupted rollout, card by card."""
    from analysis.bezique.players.search import heuristic_choice

    pos = OH.read_position("AS 10S KH QH 9D JD QS 7C", "H", seen="7H 8S", stock=30, led=None, table=None,
                           opp_table=None, turn_up=None, rules=SEED_DE)
    ro = OH.Rollouts(pos, SEED_DE)
    TL = ro.TL
    occasions = 0
    for i in range(12):
        ro.deal(*OH.layout(pos, 0, i))
        for c in OH.candidates(pos, SEED_DE):
            full = ro.play(c)
            got = ro.play(c, stop_at_meld=True)
            if got is None and ro.scr.pos[TL.Q_PHASE] == TL.PH_MELD:
                occasions += 1
                got = ro.resume(0, forced=heuristic_choice(ro.scr, 0, ro.rules, ro.policy))
            elif got is None:
                got = ro.resume(0)
            assert got == full, (i, name_of(c))
    assert occasions > 0


def test_meld_at_trick_24_is_worth_exactly_its_points():
    """After trick 24 there is no later meld: holding the bezique loses exactly its 40 points."""
    res = OH.advise("AS 10S KH 9D JD 7C", "H", seen="7H 8S 9C AC 10C KC AH", stock=2, led="QD", table="KS QS",
                    opp_table="KC QC", rules=SEED_DE, samples=20)
    assert res["best"] == "KH" and res["trick"] == 24 and res["you"] == "follow"
    m = res["melds"]
    assert m["occasions"] == 20 and m["laid"] == {"bezique": 20}
    assert m["meld_now_minus_hold"] == {"value": 40.0, "ci95": [40.0, 40.0], "n": 20} and m["clear"]


def test_command_json_and_text(salon):
    args = ["bezique", "advise", "AS 10S KH QH 9D JD QS 7C", "--trump", "H", "--stock", "40", "--seen",
            "7H 8S 9C AC 10C KC", "--samples", "30", "--seed", "2"]
    code, out, _ = salon([*args, "--json"])
    res = json.loads(out)
    assert code == 0
    assert {"rules", "opponent", "rollout", "samples", "seed", "method", "candidates", "best", "clear",
            "melds"} <= set(res)
    assert (res["rules"], res["samples"], res["seed"], res["trick"], res["you"]) == ("seed-de", 30, 2, 5, "lead")
    assert "tuned-exact" in res["opponent"] and "tuned-exact" in res["rollout"]
    assert len(res["candidates"]) == 8 and res["best"] == res["candidates"][0]["card"]
    code, text, _ = salon(args)
    assert code == 0 and "trick 5, stock 40 · you lead" in text and "30 layouts of 50 unseen cards" in text
    runner = res["candidates"][1]
    lo, hi = runner["vs_best"]["ci95"]
    net = res["candidates"][0]["net"]
    first = text.splitlines()[0]
    assert first.startswith(f"Play {res['best']} — " + ("a clear choice" if res["clear"] else "a close call"))
    assert f"worth {net['value']:+.1f} [{net['ci95'][0]:+.1f}, {net['ci95'][1]:+.1f}] points" in first
    if not res["clear"]:
        assert f"{runner['card']}, scores {runner['vs_best']['value']:+.1f} [{lo:+.1f}, {hi:+.1f}]" in first
    assert "meld or hold after" in text and "royal marriage QH KH 40" in text


@pytest.mark.parametrize("args, words", [
    (["AS 10S XX", "--stock", "0"], "hand"),
    (["AS 10S KH", "--stock", "40"], "hold 8 cards"),
    (["AS AS 10S KH QH 9D JD 7C", "--seen", "AS"], "more than two of AS"),
    (["AS 10S KH QH 9D JD QS 7C", "--trump", "X"], "not a suit"),
    (["AS 10S KH QH 9D JD QS 7C", "--stock", "50"], "--stock"),
    (["AS 10S KH QH 9D JD QS 7C", "--stock", "41"], "--stock"),
    (["AS 10S KH QH 9D JD QS 7C", "--stock", "-2"], "--stock"),
    (["AS 10S KH QH 9D JD QS 7C", "--stock", "46", "--seen", "7H 8H 9H"], "only 2 were played"),
    (["AS 10S KH", "--stock", "0", "--table", "KH QH"], "--stock 0"),
    (["AS 10S KH QH 9D JD QS 7C", "--turn-up", "7S"], "not a trump"),
    (["AS 10S KH QH 9D JD", "--table", "KH QH; AS"], "--table"),
    (["AS 10S KH QH 9D JD QS 7C", "--led", "AS AS"], "one card"),
    (["AS 10S KH QH 9D JD QS 7C", "--samples", "1"], "--samples"),
])
def test_bad_input_is_one_line_and_exit_code_2(salon, args, words):
    full = ["bezique", "advise", *args] + ([] if "--trump" in args else ["--trump", "H"])
    code, out, err = salon(full)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err

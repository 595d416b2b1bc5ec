"""A whole partie or game reviewed (analysis/match_records.py, docs/records.md "A partie or a game",
docs/review.md): the records and their notation both ways, the score at each deal by the games' own
rules (PQ-PARTIE, PQ-TIE, PQ-RUBICON, EC-GAME, BZ-GAME), the decisions played for the score rated in
the partie's or game's currency, each player's summary over both seats, and bad input."""
import json

import pytest

from analysis.games import GAMES
from analysis.match_records import DealScore, Match, played_match, scores


@pytest.fixture(scope="module")
def matches():
    return {game: played_match(game, 2, ("Anne", "Bruno")) for game in GAMES}


def test_the_score_follows_the_deals_by_each_games_rules(matches):
    for game, m in matches.items():
        g = GAMES[game]
        rules = g.rules(m.rules)
        sc = scores(m, g.seats, g.review.load().match_step, g.replay)
        totals = {"Anne": 0, "Bruno": 0}
        for s, record in zip(sc, m.records, strict=True):
            # The seats alternate: Anne is elder in the odd deals.
            assert s.seats[g.seats[0]] == ("Anne" if s.number % 2 else "Bruno")
            assert s.before == totals
            result = g.replay(record, None)
            if game != "ecarte":
                for seat, player in s.seats.items():
                    assert s.after[player] == totals[player] + result["scores"][seat]["total"]
            totals = s.after
            assert s.over == (s is sc[-1])
        if game == "piquet":  # six deals, the last deciding; two more when tied (PQ-TIE)
            assert len(sc) == (rules.partie_deals if sc[-1].after["Anne"] != sc[-1].after["Bruno"]
                               else rules.partie_deals + rules.tie_extra_deals)
            assert [s.for_score for s in sc] == [s.number >= rules.partie_deals for s in sc]
        elif game == "ecarte":  # every hand is played for the game, which ends at the target
            assert all(s.for_score for s in sc) and max(sc[-1].after.values()) >= rules.target
            assert all(max(s.after.values()) < rules.target for s in sc[:-1])
        else:
            assert not any(s.for_score for s in sc) and max(sc[-1].after.values()) >= rules.target


def test_ecarte_points_count_in_the_order_they_are_scored():
    """EC-GAME: a point counts the moment it is scored, so a king announced at 4 wins before the
    tricks are counted; the chance of winning after a hand counts them in the same order."""
    import numpy as np

    from analysis.ecarte.review import hand_chance, match_step
    from analysis.ecarte.rules import get_rules

    w = np.full((5, 5), 0.5)
    assert hand_chance(w, {"elder": 4, "dealer": 4}, 1, (1, 0), -2) == 0.0  # the turned-up king first
    assert hand_chance(w, {"elder": 4, "dealer": 3}, 1, (1, 1), -2) == 1.0  # then elder's king
    assert hand_chance(w, {"elder": 3, "dealer": 3}, 0, (0, 1), 2) == 1.0   # the vole: 3 + 2
    assert hand_chance(w, {"elder": 0, "dealer": 0}, 0, (0, 0), 1) == 0.5   # 1-0: the other is elder next

    breakdown = {"elder": {"turnup_king": 0, "king": 1, "tricks": 0},
                 "dealer": {"turnup_king": 1, "king": 0, "tricks": 2}}
    after, for_score, over = match_step({"breakdown": breakdown}, {"elder": 4, "dealer": 2}, get_rules(), 3)
    assert after == {"elder": 5, "dealer": 3} and over and for_score
    after, _, over = match_step({"breakdown": breakdown}, {"elder": 3, "dealer": 2}, get_rules(), 3)
    assert after == {"elder": 4, "dealer": 5} and over


def test_a_partie_converts_both_ways_and_reviews_the_same_from_either(salon, tmp_path, matches):
    from analysis.record_text import match_text, parse_any_text

    for game, m in matches.items():
        text = match_text(m)
        assert text.startswith(f"game: {game}\nrules: seed-de\nplayers: Anne, Bruno\n\n")
        again = parse_any_text(text)
        assert isinstance(again, Match) and again == m
        src, as_json, back = tmp_path / f"{game}.txt", tmp_path / f"{game}.json", tmp_path / f"{game}2.txt"
        src.write_text(text)
        assert salon(["record", "convert", str(src), "--out", str(as_json)])[0] == 0
        obj = json.loads(as_json.read_text())
        assert obj["players"] == ["Anne", "Bruno"] and len(obj["deals"]) == len(m.records)
        assert all("game" not in d and "rules" not in d for d in obj["deals"])
        assert salon(["record", "convert", str(as_json), "--out", str(back)])[0] == 0
        assert back.read_text() == text
    a = salon(["review", str(tmp_path / "ecarte.txt"), "--json", "--quiet", "--player", "dd"])
    b = salon(["review", str(tmp_path / "ecarte.json"), "--json", "--quiet", "--player", "dd"])
    assert a[0] == b[0] == 0 and json.loads(a[1]) == json.loads(b[1])


def test_an_ecarte_game_is_rated_in_the_chance_of_winning_it_and_summed_by_player(salon, tmp_path, matches):
    """Open hands: a card's loss in the game's currency is exact, and as the chance of winning never
    falls with a player's points, a card that loses no point loses no chance, and a card that loses
    some chance loses points. Each player's summary adds his decisions of both seats."""
    from analysis.ecarte.review import _win_chances
    from analysis.ecarte.rules import get_rules

    path = tmp_path / "game.json"
    path.write_text(json.dumps(matches["ecarte"].to_json()))
    code, out, err = salon(["review", str(path), "--json", "--quiet", "--player", "dd"])
    assert code == 0, err
    res = json.loads(out)
    assert res["match"]["players"] == ["Anne", "Bruno"] and res["match"]["over"]
    assert res["match"]["winner"] in ("Anne", "Bruno") and "chance of winning" in res["match"]["score_unit"]
    cards = [d for deal in res["deals"] for d in deal["decisions"] if d["kind"] in ("lead", "follow") and not d["forced"]]
    assert cards and all("score_loss" in d for d in cards)
    for d in cards:
        if d["loss"]["value"] == 0:
            assert d["score_loss"]["value"] == 0
        if d["score_loss"]["value"] > 0:
            assert d["loss"]["value"] > 0
        assert 0 <= d["score_loss"]["value"] <= 1 and d["score_loss"]["ci95"] is None
    # The discards and later answers, rated on layouts, are also rated in the game.
    layouts = [d for deal in res["deals"] for d in deal["decisions"]
               if (d["kind"] == "exchange" or (d["kind"] == "proposal" and d["step"] != "round 1")) and not d["forced"]]
    assert layouts and all(-1 <= d["score_loss"]["value"] <= 1 and d["score_loss"]["ci95"] for d in layouts)
    # Each player's summary is his decisions in both seats.
    for player in ("Anne", "Bruno"):
        mine = [d["loss"]["value"] for deal in res["deals"] for d in deal["decisions"]
                if deal["match"]["players"][d["seat"]] == player and d["loss"] is not None and not d["forced"]]
        assert res["summary"][player]["loss"]["value"] == pytest.approx(sum(mine), abs=1e-3)
        assert res["summary"][player]["choices"] == len(mine)
    # W: the shipped solution by score, monotone in the points.
    w = _win_chances(get_rules())
    assert w.shape == (5, 5) and (w[1:, :] >= w[:-1, :]).all() and (w[:, 1:] <= w[:, :-1]).all()
    html = tmp_path / "game.html"
    code, text, _ = salon(["review", str(path), "--quiet", "--player", "dd", "--html", str(html)])
    assert "A game between Anne and Bruno" in text and "score before: Anne 0, Bruno 0" in text
    assert "Anne: lost" in text and "in the chance of winning the game" in text
    page = html.read_text()
    assert "A game between Anne and Bruno" in page and "score before: Anne 0, Bruno 0" in page
    assert "in the chance of winning the game" in page and "<td>Anne</td>" in page


def test_piquet_deciding_deal_is_rated_in_the_margin_as_the_partie_player_values_it(monkeypatch):
    """PQ-RUBICON: in the partie's last deal each card is also rated in the margin, on the values
    the reference's open-hands player playing for the margin chooses by (reference/partie.py); the
    deals before it in points only."""
    import analysis.piquet.review as R
    from analysis.piquet.policies import DoubleDummyPolicy
    from analysis.piquet.reference.partie import partie_card_values

    monkeypatch.setattr(R, "EXCHANGE_DEALS", 40)
    monkeypatch.setattr(R, "EXCHANGE_RACE", 200)
    seen = []
    real = R._margins

    def spy(table, worlds, options, seat, leader, led, partie):
        """The review's margins beside the reference player's, valued at the same moment."""
        values = real(table, worlds, options, seat, leader, led, partie)
        player = type("P", (), {"table": table, "policy": DoubleDummyPolicy(partie="margin"), "seat": seat})()
        table.partie = (partie["elder"], partie["younger"])
        ref = partie_card_values(player, worlds, sum(1 << c for c in options), leader, led)
        table.partie = None
        seen.append((options, partie, values, ref))
        return values

    monkeypatch.setattr(R, "_margins", spy)
    g = GAMES["piquet"]
    record = g.record(3, 0, g.rules(), g.policy("heuristic"))
    record.pop("source", None)
    near = DealScore(6, {"elder": "A", "younger": "B"}, {"A": 95, "B": 88}, {}, True, True)
    rv = R.review(record, 5, player="dd", score=near)
    rated = [d for d in rv.decisions if d.kind in ("lead", "follow") and not d.forced]
    assert rated and all(d.score_loss is not None and d.score_best for d in rated) and len(seen) == len(rated)
    assert any(d.score_loss > 0 for d in rated)
    for d, (options, partie, values, ref) in zip(rated, seen, strict=True):
        assert partie == {"elder": 95, "younger": 88}
        assert [ref[c] for c in options] == list(values[0])
        assert d.score_loss == max(ref.values()) - ref[[c for c in options if R.name_of(c) == d.chosen][0]]
    early = DealScore(1, {"elder": "A", "younger": "B"}, {"A": 0, "B": 0}, {}, False, False)
    assert all(d.score_loss is None for d in R.review(record, 0, player="dd", score=early).decisions)


BAD_MATCHES = [
    (lambda m: {k: v for k, v in m.items() if k != "players"}, "two different player names"),
    (lambda m: {**m, "players": ["A", "A"]}, "two different player names"),
    (lambda m: {**m, "deals": m["deals"] + m["deals"][:1]}, "the game ended with deal"),
    (lambda m: {**m, "deals": [{**m["deals"][0], "game": "piquet"}] + m["deals"][1:]}, "deal 1: game 'piquet'"),
    (lambda m: {**m, "deals": []}, "non-empty list"),
    (lambda m: {**m, "score": 1}, "unknown key 'score'"),
]


@pytest.mark.parametrize("spoil, message", BAD_MATCHES)
def test_a_bad_partie_or_game_gets_one_line_and_exit_2(salon, tmp_path, matches, spoil, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spoil(matches["ecarte"].to_json())))
    for args in (["review", str(path), "--quiet"], ["record", "convert", str(path), "--out", str(tmp_path / "o.txt")]):
        code, out, err = salon(args)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "o.txt").exists()


BAD_HEADERS = [
    (lambda t: t.replace("players: Anne, Bruno", "players: Anne"), "line 3: players: expected two different names"),
    (lambda t: t.replace("players: Anne, Bruno", "players: Anne, Bruno\nturnup: 8H"), "line 4: turnup: unknown key"),
    (lambda t: t + "\nplayers: X, Y\n", "only the first block of a file names the players"),
    (lambda t: t.split("\n\n")[0] + "\n", "the header names the players but no deal follows it"),
    (lambda t: t.replace("rules: seed-de\nelder", "rules: classic\nelder", 1), "but the header says 'seed-de'"),
]


@pytest.mark.parametrize("spoil, message", BAD_HEADERS)
def test_a_bad_partie_header_names_its_line_exit_2(salon, tmp_path, matches, spoil, message):
    from analysis.record_text import match_text

    path = tmp_path / "bad.txt"
    path.write_text(spoil(match_text(matches["ecarte"])))
    code, out, err = salon(["review", str(path), "--quiet"])
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_replay_reads_deal_records_and_says_so_of_a_partie(salon, tmp_path, matches):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(matches["ecarte"].to_json()))
    code, out, err = salon(["ecarte", "replay", str(path)])
    assert code == 2 and "holds a whole partie or game" in err and err.count("\n") == 1

"""The conformance battery: every game of the registry (analysis.games) must pass it, so a new game
gets these checks by adding its descriptor (in the spirit of OpenSpiel's shared game tests).

Per game: identical statistics for 1 and 2 threads and for different chunk sizes; a run split in
two adds up to the whole; play -> record -> replay gives the reference's score; ``explain`` runs;
malformed input exits 2 with one line; the rule invariants hold under every variant (Bezique's
160 brisque and 10 last-trick points, Écarté's point and vole, Piquet's twelve tricks)."""
import json
import subprocess
import sys

import numpy as np
import pytest

from analysis.games import GAMES

GAME_NAMES = list(GAMES)
SEED = 20261201


def _salon(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "analysis", *args], capture_output=True, text=True, input=stdin,
                          timeout=600)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_same_numbers_for_any_threads_chunks_and_split(name):
    g = GAMES[name]
    rules = g.rules()
    h, r = g.policy("heuristic"), g.policy("random")
    whole = g.compare(600, SEED, rules, h, r, threads=2)
    assert int(whole[0]) == 600
    assert np.array_equal(whole, g.compare(600, SEED, rules, h, r, threads=1))
    assert np.array_equal(whole, g.compare(600, SEED, rules, h, r, chunk=37, threads=2))
    first = g.compare(250, SEED, rules, h, r, chunk=64)
    second = g.compare(350, SEED, rules, h, r, start=250, chunk=64)
    assert np.array_equal(whole, first + second)
    mode = g.modes[0]
    one = mode.run(400, SEED, rules, r, r, threads=1)
    two = mode.run(400, SEED, rules, r, r, threads=2)
    assert one["tallies"] == two["tallies"] and one["stats"] == two["stats"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_play_record_replay_gives_the_reference_score(name):
    g = GAMES[name]
    for variant in g.variants.load():
        rules = g.rules(variant)
        for policy in ("heuristic", "random"):
            p = g.policy(policy)
            for i in range(3):
                rec = json.loads(json.dumps(g.record(SEED, i, rules, p)))  # through JSON, as a file would
                assert rec["game"] == name
                assert g.replay_net(g.replay(rec, None)) == g.net(SEED, i, rules, p, p), (variant, policy, i)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_records_through_the_command_line_replay(name, tmp_path):
    path = tmp_path / "deals.json"
    out = _salon("simulate", name, "--deals", "40", "--records", str(path), "--record-count", "3", "--json",
                 "--quiet")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["records"] == {"path": str(path), "count": 3}
    replayed = _salon(name, "replay", "-", "--json", stdin=path.read_text())
    assert replayed.returncode == 0, replayed.stderr
    assert len(json.loads(replayed.stdout)["records"]) == 3
    # --records -: the records file on standard output (the statistics on standard error), piped to replay -
    piped = _salon("simulate", name, "--deals", "40", "--records", "-", "--record-count", "3", "--json", "--quiet")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == path.read_text()
    assert json.loads(piped.stderr)["records"] == {"path": "-", "count": 3}
    again = _salon(name, "replay", "-", "--json", stdin=piped.stdout)
    assert again.stdout == replayed.stdout


@pytest.mark.parametrize("name", GAME_NAMES)
def test_explain_narrates_a_deal(name):
    g = GAMES[name]
    text = g.explain(SEED, 1, g.rules(), g.policy("heuristic"))
    assert len(text.splitlines()) > 10
    assert all(seat in text.lower() for seat in g.seats)


def _bad_inputs(name):
    other = next(n for n in GAME_NAMES if n != name)
    return [
        (["simulate", name, "--deals", "10", "--rules", "nonsense"], "unknown"),
        (["simulate", name, "--deals", "10", "--rule", "no_such_switch=1"], "unknown switch"),
        (["simulate", name, "--deals", "0"], "positive"),
        (["compare", name, "--a", "heuristic", "--b", "nonsense", "--deals", "10"], "policy"),
        (["compare", name, "--a", "heuristic", "--b", "random", "--param", "c.x=1"], "a.KEY=VALUE"),
        ([name, "explain", "--policy", "heuristic", "--param", "no_such_parameter=1"], "unknown policy parameter"),
        ([name, "replay", "-"], "JSON"),  # standard input: not JSON
        ([name, "replay", "-"], "no records"),  # an empty list
        ([name, "replay", "-"], other),  # another game's record
    ]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_malformed_input_exits_2_with_one_line(name):
    other = GAMES[next(n for n in GAME_NAMES if n != name)]
    foreign = json.dumps(other.record(SEED, 0, other.rules(), other.policy("heuristic")))
    stdins = {"JSON": "{not json", "no records": "[]", other.name: foreign}
    for args, needle in _bad_inputs(name):
        out = _salon(*args, stdin=stdins.get(needle))
        lines = [line for line in out.stderr.splitlines() if line.strip()]
        assert out.returncode == 2, (args, out.stderr)
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, out.stderr)
        assert needle.lower() in lines[0].lower(), (args, lines[0])
        assert out.stdout == "", (args, out.stdout)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_rule_invariants_hold_under_every_variant(name):
    g = GAMES[name]
    for variant in g.variants.load():
        for policy in ("heuristic", "random"):
            bad = g.invariants(300, SEED, g.rules(variant), g.policy(policy))
            assert bad == [], (variant, policy, bad[:3])

"""``salon compare``: two policies on the same deals, both seats (analysis.compare and the games'
compare kernels)."""
import json
import subprocess
import sys

import numpy as np
import pytest

from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS, C_FIRST, C_SECOND
from analysis.games import GAMES

SEED = 7


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_policy_against_itself_is_exactly_zero(name, policy):
    """The random streams belong to the deal and the seat, not to the policy: A against A plays the
    same game in both orders, so A's net points in the two seats cancel on every deal."""
    g = GAMES[name]
    p = g.policy(policy)
    t = g.compare(500, SEED, g.rules(), p, p)
    assert t[C_DEALS] == 500
    assert t[C_BOTH] == 0 and t[C_BOTH_SQ] == 0  # zero on every deal, not only on average
    assert t[C_FIRST] == -t[C_SECOND] != 0  # the seats themselves differ (elder's edge)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_kernel_plays_both_seats_as_the_reference_does(name):
    """Per deal, A's net points with A as elder and with B as elder, from the reference, summed
    exactly as the kernel tallies them."""
    g = GAMES[name]
    rules = g.rules()
    a, b = g.policy("heuristic"), g.policy("random")
    n = 12
    first = np.array([g.net(SEED, i, rules, a, b) for i in range(n)])
    second = np.array([-g.net(SEED, i, rules, b, a) for i in range(n)])
    both = first + second
    want = [n, both.sum(), (both * both).sum(), first.sum(), (first * first).sum(), second.sum(),
            (second * second).sum()]
    assert g.compare(n, SEED, rules, a, b).tolist() == want


def test_the_command_line_contract():
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", "ecarte", "--a", "heuristic", "--b", "random",
                          "--deals", "3000", "--seed", "3", "--rules", "classic", "--param", "a.lead_trumps=false",
                          "--json", "--quiet"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    for key in ("game", "rules", "a", "b", "deals", "seed", "diff", "seats"):
        assert key in res
    assert (res["game"], res["rules"], res["a"], res["b"], res["deals"], res["seed"]) == (
        "ecarte", "classic", "heuristic", "random", 3000, 3)
    assert res["policies"]["a"]["lead_trumps"] is False and res["policies"]["b"]["kind"] == "random"
    lo, hi = res["diff"]["ci95"]
    assert lo < res["diff"]["value"] < hi
    assert lo > 0  # the heuristic beats random play
    seats = res["seats"]
    assert set(seats) == {"a_elder", "a_dealer"}
    assert res["diff"]["value"] == pytest.approx((seats["a_elder"]["value"] + seats["a_dealer"]["value"]) / 2)


def test_same_policy_on_the_command_line_is_zero():
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", "bezique", "--a", "tuned", "--b", "tuned",
                          "--deals", "200", "--quiet"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("No clear difference between A (tuned) and B (tuned): A minus B is +0.0 [+0.0, +0.0] "
                                 "points per deal and seat.")
    assert "{'" not in out.stdout and "A = tuned: heuristic player" in out.stdout

"""Écarté's uniform entry points, as the game registry calls them (analysis.game.Game)."""
from __future__ import annotations

import numpy as np


def simulate_hands(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n single hands, A elder and B dealer (``salon simulate ecarte``)."""
    from analysis.ecarte.studies.simulate import simulate_hands as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def simulate_games(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n games to the target (B deals first)."""
    from analysis.ecarte.studies.simulate import simulate_games as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def record(seed: int, index: int, rules, policy) -> dict:
    """Hand ``index`` played by the reference, as a record."""
    from analysis.ecarte.reference.hand import play_hand
    from analysis.ecarte.reference.records import record_from_hand

    return record_from_hand(play_hand(seed, index, rules, policy), rules)


def explain(seed: int, index: int, rules, policy) -> str:
    """Hand ``index`` narrated by the reference."""
    from analysis.ecarte.reference.hand import explain as narrate

    return narrate(seed, index, rules, policy)


def replay_text(r: dict) -> str:
    """A replayed hand in one line."""
    return (f"elder {r['scores']['elder']} points ({r['tricks']['elder']} tricks), "
            f"dealer {r['scores']['dealer']} points ({r['tricks']['dealer']} tricks)")


def invariants(n: int, seed: int, rules, policy) -> list[str]:
    """EC-POINT: in every hand the side that took 3 or more of the 5 tricks scores the point (1, or
    the penalty point; 2 or the penalty vole for all five), the other side no trick points, and
    neither more than one king point."""
    from analysis.ecarte.engine.layout import (
        O_DEALER_POINTS,
        O_DEALER_TRICK_POINTS,
        O_ELDER_POINTS,
        O_ELDER_TRICK_POINTS,
        O_ELDER_TRICKS,
    )
    from analysis.ecarte.play.hand import hand_outcomes
    from analysis.ecarte.rules import R_PENALTY_POINT, R_PENALTY_VOLE

    arr = rules.to_array()
    p = policy.to_array()
    rows = hand_outcomes(seed, 0, n, arr, p, p)
    bad = []
    for i, o in enumerate(rows):
        et = int(o[O_ELDER_TRICKS])
        ept, dpt = int(o[O_ELDER_TRICK_POINTS]), int(o[O_DEALER_TRICK_POINTS])
        vole = et in (0, 5)
        allowed = {2, int(arr[R_PENALTY_VOLE])} if vole else {1, int(arr[R_PENALTY_POINT])}
        win, lose = (ept, dpt) if et >= 3 else (dpt, ept)
        kings = (int(o[O_ELDER_POINTS]) - ept, int(o[O_DEALER_POINTS]) - dpt)
        if not 0 <= et <= 5 or win not in allowed or lose != 0 or not all(k in (0, 1) for k in kings):
            bad.append(f"hand {i}: elder took {et} tricks, trick points {ept}-{dpt}, king points {kings}")
    return bad


def compare(n, seed, rules, a, b, *, start=0, chunk=None, threads=None, quiet=True) -> np.ndarray:
    """Compare tallies (analysis.compare) of n hands, both seats."""
    from analysis.ecarte.play.compare import compare_tallies

    return compare_tallies(n, seed, rules, a, b, start=start, chunk=chunk, threads=threads, quiet=quiet)


def tip_policy():
    """The policy the Écarté tip studies are run around."""
    from analysis.ecarte.policies import HeuristicPolicy

    return HeuristicPolicy()


def net(seed: int, index: int, rules, elder, dealer) -> int:
    """Elder's points minus the dealer's in hand ``index``, played by the reference."""
    from analysis.ecarte.engine.layout import O_DEALER_POINTS, O_ELDER_POINTS
    from analysis.ecarte.reference.hand import play_hand

    o = play_hand(seed, index, rules, elder, dealer).outcome_vector()
    return int(o[O_ELDER_POINTS] - o[O_DEALER_POINTS])


def replay_net(r: dict) -> int:
    """Elder's points minus the dealer's in a replayed hand."""
    return int(r["scores"]["elder"] - r["scores"]["dealer"])

"""Bezique's uniform entry points, as the game registry calls them (analysis.game.Game)."""
from __future__ import annotations

import numpy as np


def simulate_deals(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n single deals, A elder (non-dealer) and B dealer (``salon simulate bezique``)."""
    from analysis.bezique.studies.simulate import simulate_deals as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def simulate_games(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n games to the target (B deals first)."""
    from analysis.bezique.studies.simulate import simulate_games as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def record(seed: int, index: int, rules, policy) -> dict:
    """Deal ``index`` played by the reference, as a record."""
    from analysis.bezique.reference.deal import play_deal
    from analysis.bezique.reference.records import record_from_deal

    return record_from_deal(play_deal(seed, index, rules, policy, policy), rules)


def explain(seed: int, index: int, rules, policy) -> str:
    """Deal ``index`` narrated by the reference."""
    from analysis.bezique.reference.deal import explain as narrate

    return narrate(seed, index, rules, policy, policy)


def replay_text(r: dict) -> str:
    """A replayed deal in one line."""
    return f"elder {r['scores']['elder']['total']} points, dealer {r['scores']['dealer']['total']} points"


def invariants(n: int, seed: int, rules, policy) -> list[str]:
    """BZ-BRISQUE, BZ-LAST: every deal plays 32 tricks, its aces and tens won score 16 × the brisque
    value (160) between the players, and exactly one player scores the last trick's points (10)."""
    from analysis.bezique.engine.layout import O_BRISQUE, O_LAST, O_TRICKS
    from analysis.bezique.play.deal import deal_outcomes

    p = policy.to_array()
    rows = deal_outcomes(seed, 0, n, rules.to_array(), p, p)
    bad = []
    for i, o in enumerate(rows):
        brisques = int(o[O_BRISQUE] + o[O_BRISQUE + 1])
        last = sorted((int(o[O_LAST]), int(o[O_LAST + 1])))
        tricks = int(o[O_TRICKS] + o[O_TRICKS + 1])
        if brisques != 16 * rules.brisque or last != [0, rules.last_trick] or tricks != 32:
            bad.append(f"deal {i}: brisques {brisques}, last trick {last}, {tricks} tricks")
    return bad


def compare(n, seed, rules, a, b, *, start=0, chunk=None, threads=None, quiet=True) -> np.ndarray:
    """Compare tallies (analysis.compare) of n deals, both seats."""
    from analysis.bezique.play.compare import compare_tallies

    return compare_tallies(n, seed, rules, a, b, start=start, chunk=chunk, threads=threads, quiet=quiet)


def tip_policy():
    """The policy the Bezique tip studies are run around: ``tuned-exact``, the tuned heuristic
    with the exact end game (the strongest player that fits the tips' budgets; BZ-T5 adds a
    study under search play)."""
    from analysis.bezique.policies import TUNED_EXACT

    return TUNED_EXACT


def net(seed: int, index: int, rules, elder, dealer) -> int:
    """Elder's points minus the dealer's in deal ``index``, played by the reference."""
    from analysis.bezique.engine.layout import O_TOTAL
    from analysis.bezique.reference.deal import play_deal

    o = play_deal(seed, index, rules, elder, dealer).outcome_vector()
    return int(o[O_TOTAL] - o[O_TOTAL + 1])


def replay_net(r: dict) -> int:
    """Elder's points minus the dealer's in a replayed deal."""
    return int(r["scores"]["elder"]["total"] - r["scores"]["dealer"]["total"])

"""Piquet's uniform entry points, as the game registry calls them (analysis.game.Game)."""
from __future__ import annotations

import numpy as np


def simulate_deals(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n single deals, A elder and B younger (``salon simulate piquet``)."""
    from analysis.piquet.studies.simulate import simulate_deals as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def simulate_parties(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n parties of six deals (B deals first)."""
    from analysis.piquet.studies.simulate import simulate_parties as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def record(seed: int, index: int, rules, policy) -> dict:
    """Deal ``index`` played by the reference, as a record."""
    from analysis.piquet.reference.deal import play_deal
    from analysis.piquet.reference.records import record_from_deal

    return record_from_deal(play_deal(seed, index, rules, policy, policy), rules)


def explain(seed: int, index: int, rules, policy) -> str:
    """Deal ``index`` narrated by the reference."""
    from analysis.piquet.reference.deal import explain as narrate

    return narrate(seed, index, rules, policy, policy)


def replay_text(r: dict) -> str:
    """A replayed deal's scores as text."""
    from analysis.piquet.studies.declare import scores_text

    return scores_text(r["scores"], r["rules"])


def invariants(n: int, seed: int, rules, policy) -> list[str]:
    """PQ-TRICK: every deal plays twelve tricks of two distinct cards, the 24 cards of the two final
    hands, and elder's trick count is the number of tricks he won (0..12)."""
    from analysis.piquet.engine.layout import O_ELDER_TRICKS, O_FINAL, O_PLAYED
    from analysis.piquet.play.deal import deal_outcomes

    p = policy.to_array()
    rows = deal_outcomes(seed, 0, n, rules.to_array(), p, p)
    bad = []
    for i, o in enumerate(rows):
        played = [int(c) for c in o[O_PLAYED:O_PLAYED + 24]]
        final = int(o[O_FINAL]) | int(o[O_FINAL + 1])
        mask = 0
        for c in played:
            mask |= 1 << c
        et = int(o[O_ELDER_TRICKS])
        if len(set(played)) != 24 or min(played) < 0 or mask != final or not 0 <= et <= 12:
            bad.append(f"deal {i}: {len(set(played))} distinct cards played, elder took {et} tricks")
    return bad


def compare(n, seed, rules, a, b, *, start=0, chunk=None, threads=None, quiet=True) -> np.ndarray:
    """Compare tallies (analysis.compare) of n deals, both seats."""
    from analysis.piquet.play.compare import compare_tallies

    return compare_tallies(n, seed, rules, a, b, start=start, chunk=chunk, threads=threads, quiet=quiet)


def tip_policy():
    """The policy the Piquet tip studies are run around."""
    from analysis.piquet.policies import HeuristicPolicy

    return HeuristicPolicy()


def net(seed: int, index: int, rules, elder, younger) -> int:
    """Elder's points minus younger's in deal ``index``, played by the reference."""
    from analysis.piquet.engine.layout import O_TOTAL
    from analysis.piquet.reference.deal import play_deal

    o = play_deal(seed, index, rules, elder, younger).outcome_vector()
    return int(o[O_TOTAL] - o[O_TOTAL + 1])


def replay_net(r: dict) -> int:
    """Elder's points minus younger's in a replayed deal."""
    return int(r["scores"]["elder"]["total"] - r["scores"]["younger"]["total"])

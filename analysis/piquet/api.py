"""Piquet's uniform entry points, as the game registry calls them (analysis.game.Game)."""
from __future__ import annotations

import numpy as np


def simulate_deals(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n single deals, A elder and B younger (``salon simulate piquet``)."""
    from analysis.piquet.studies import simulate_deals as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def simulate_parties(n, seed, rules, a, b, *, threads=None, quiet=True) -> dict:
    """n parties of six deals (B deals first)."""
    from analysis.piquet.studies import simulate_parties as run

    return run(n, seed, rules, a, b, threads=threads, quiet=quiet)


def record(seed: int, index: int, rules, policy) -> dict:
    """Deal ``index`` played by the reference, as a record."""
    from analysis.piquet.records import record_from_deal
    from analysis.piquet.reference import play_deal

    return record_from_deal(play_deal(seed, index, rules, policy, policy), rules)


def explain(seed: int, index: int, rules, policy) -> str:
    """Deal ``index`` narrated by the reference."""
    from analysis.piquet.reference import explain as narrate

    return narrate(seed, index, rules, policy, policy)


def replay_text(r: dict) -> str:
    """A replayed deal's scores as text."""
    from analysis.piquet.declare import scores_text

    return scores_text(r["scores"], r["rules"])


def invariants(n: int, seed: int, rules, policy) -> list[str]:
    """PQ-TRICK: every deal plays twelve tricks of two distinct cards, the 24 cards of the two final
    hands, and elder's trick count is the number of tricks he won (0..12)."""
    from analysis.piquet import kernel as K

    p = policy.to_array()
    rows = K.deal_outcomes(seed, 0, n, rules.to_array(), p, p)
    bad = []
    for i, o in enumerate(rows):
        played = [int(c) for c in o[K.O_PLAYED:K.O_PLAYED + 24]]
        final = int(o[K.O_FINAL]) | int(o[K.O_FINAL + 1])
        mask = 0
        for c in played:
            mask |= 1 << c
        et = int(o[K.O_ELDER_TRICKS])
        if len(set(played)) != 24 or min(played) < 0 or mask != final or not 0 <= et <= 12:
            bad.append(f"deal {i}: {len(set(played))} distinct cards played, elder took {et} tricks")
    return bad


def bench(deals, reference_deals, repeats) -> dict:
    """``salon bench piquet``: the deal kernel (heuristic, learned and learned-fast exchanges), the discard
    analyser's table, the solver and its players."""
    from analysis.bench import bench_discard_table, bench_piquet, bench_piquet_players

    res = bench_piquet(deals or 2_000_000, reference_deals or 1_000, repeats)
    res["learned"] = bench_piquet(deals or 2_000_000, reference_deals or 1_000, repeats, policy="learned")
    res["learned-fast"] = bench_piquet(deals or 2_000_000, reference_deals or 1_000, repeats, policy="learned-fast")
    res["discard_table"] = bench_discard_table(repeats=min(repeats, 3))
    res["players"] = bench_piquet_players(repeats=min(repeats, 3))
    return res


def compare(n, seed, rules, a, b, *, start=0, chunk=None, threads=None, quiet=True) -> np.ndarray:
    """Compare tallies (analysis.compare) of n deals, both seats."""
    from analysis.piquet.compare import compare_tallies

    return compare_tallies(n, seed, rules, a, b, start=start, chunk=chunk, threads=threads, quiet=quiet)


def tip_policy():
    """The policy the Piquet tip studies are run around."""
    from analysis.piquet.policies import HeuristicPolicy

    return HeuristicPolicy()


def net(seed: int, index: int, rules, elder, younger) -> int:
    """Elder's points minus younger's in deal ``index``, played by the reference."""
    from analysis.piquet import kernel as K
    from analysis.piquet.reference import play_deal

    o = play_deal(seed, index, rules, elder, younger).outcome_vector()
    return int(o[K.O_TOTAL] - o[K.O_TOTAL + 1])


def replay_net(r: dict) -> int:
    """Elder's points minus younger's in a replayed deal."""
    return int(r["scores"]["elder"]["total"] - r["scores"]["younger"]["total"])

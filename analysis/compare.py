"""Two policies on the same deals, both seats: the one measure of play strength (`salon compare`).

Every deal ``i`` is played twice from the same cards and the same choices stream: policy A in the
first seat (elder) against B, then B in the first seat against A. Per deal the kernels tally A's
net points (A's minus B's) in each seat; their sum ``d`` over the two seats has the seat advantage
and the luck of the cards cancelled, and ``d / 2`` is "A minus B per deal and seat". A policy
compared with itself gives exactly 0 on every deal: the random streams belong to the deal and the
seat, not to the policy.

The tally layout is shared by the games' compare kernels (``analysis/<game>/compare.py``):
integer sums and sums of squares, summed over chunks by the runner (identical for any thread
count or chunk size).
"""
from __future__ import annotations

C_DEALS = 0
C_BOTH, C_BOTH_SQ = 1, 2  # A's net points summed over the two seats
C_FIRST, C_FIRST_SQ = 3, 4  # A's net points with A in the first seat (elder)
C_SECOND, C_SECOND_SQ = 5, 6  # A's net points with A in the second seat (younger or dealer)
N_COMPARE = 7
COMPARE_FIELDS = ("deals", "both", "both_sq", "first", "first_sq", "second", "second_sq")


def run_compare(block, n: int, seed: int, rules, a, b, *, start: int, chunk: int, threads: int | None, quiet: bool,
                desc: str):
    """A game's compare ``block`` through the runner (stored, resumable, on Dask): the summed tallies."""
    from analysis.runner import run_tallies

    return run_tallies(block, (rules.to_array(), a.to_array(), b.to_array()), n, seed, start=start, chunk=chunk,
                       threads=threads, quiet=quiet, desc=desc)


def compare_result(game, rules, a_name: str, b_name: str, a, b, n: int, seed: int, tallies) -> dict:
    """The JSON of ``salon compare``: A minus B per deal and seat with its paired 95% interval, and
    A minus B in each of A's seats."""
    from analysis.provenance import provenance
    from analysis.stats import mean_from_sums

    t = [int(x) for x in tallies]
    deals = t[C_DEALS]
    both = mean_from_sums(t[C_BOTH], t[C_BOTH_SQ], deals)
    diff = both.to_dict()
    diff = {"value": _half(diff["value"]), "ci95": [_half(x) for x in diff["ci95"]]}
    seats = {}
    for seat, (s, sq) in zip(game.seats, ((C_FIRST, C_FIRST_SQ), (C_SECOND, C_SECOND_SQ)), strict=True):
        e = mean_from_sums(t[s], t[sq], deals).to_dict()
        seats[f"a_{seat}"] = {"value": e["value"], "ci95": e["ci95"]}
    base = provenance(game.name, rules, {"a": a.describe(), "b": b.describe()}, n, seed)
    return {"game": game.name, "rules": rules.name, "a": a_name, "b": b_name, "deals": deals, "seed": seed,
            "diff": diff, "seats": seats, "unit": f"points per {game.unit} and seat",
            "switches": base["switches"], "policies": base["policies"], "version": base["version"],
            "numba": base["numba"], "tallies": t}


def _half(x):
    return None if x is None else x / 2


def compare_text(res: dict) -> str:
    """``salon compare`` as text."""
    def fmt(e):
        lo, hi = (float("nan") if v is None else v for v in e["ci95"])
        return f"{e['value']:+.4f} [{lo:+.4f}, {hi:+.4f}]"

    lines = [f"{res['game']} · rules {res['rules']} · {res['deals']:,} deals, each played in both seats · "
             f"seed {res['seed']} · salon {res['version']}",
             f"A = {res['a']}  ({res['policies']['a']})", f"B = {res['b']}  ({res['policies']['b']})",
             f"A minus B in {res['unit']}: {fmt(res['diff'])}  (paired 95% interval)"]
    for seat, e in res["seats"].items():
        lines.append(f"  with A as {seat[2:]:<8} {fmt(e)}")
    return "\n".join(lines)

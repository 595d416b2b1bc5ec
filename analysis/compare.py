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
            "numba": base["numba"], "tallies": t,
            "players_in_words": {"a": _words(game, a_name, a), "b": _words(game, b_name, b)}}


def _words(game, name: str, policy) -> str:
    """The player in words, with the parameters changed from the named player's own."""
    from analysis.words import player_words

    try:
        base = game.policy(name).describe()
    except Exception:  # noqa: BLE001 - a player without a named default is described in full
        base = None
    return player_words(policy.describe(), base)


def _half(x):
    return None if x is None else x / 2


def compare_answer(res: dict) -> str:
    """The answer in one plain line: which player is stronger, by how much, and how sure."""
    from analysis.words import estimate_text

    d = res["diff"]
    lo, hi = d["ci95"]
    a, b = f"A ({res['a']})", f"B ({res['b']})"
    if lo is None or hi is None or not (lo > 0 or hi < 0):
        return (f"No clear difference between {a} and {b}: A minus B is {estimate_text(d['value'], lo, hi)} "
                f"{res['unit']}.")
    if lo > 0:
        return f"{a} is stronger than {b}: {estimate_text(d['value'], lo, hi)} {res['unit']} — a clear difference."
    return (f"{b} is stronger than {a}: {estimate_text(-d['value'], -hi, -lo)} {res['unit']} — a clear "
            "difference.")


def compare_text(res: dict, verbose: bool = False) -> str:
    """``salon compare`` as text: the answer first, then the players in words and A minus B in each
    seat with its legend (``verbose``: every parameter of both players)."""
    from analysis.words import estimate_text, legend, parameters, player_words

    def fmt(e):
        return estimate_text(e["value"], *e["ci95"])

    words = res.get("players_in_words") or {k: player_words(p) for k, p in res["policies"].items()}
    unit = res["unit"].removesuffix(" and seat")
    lines = [compare_answer(res), "",
             f"{res['game']} · rules {res['rules']} · {res['deals']:,} deals, each played in both seats · "
             f"seed {res['seed']} · salon {res['version']}",
             f"  A = {res['a']}: {words['a']}", f"  B = {res['b']}: {words['b']}",
             f"  {'A minus B [95%]':<26} seat",
             f"  {fmt(res['diff']):<26} both seats (the answer above)"]
    for seat, e in res["seats"].items():
        lines.append(f"  {fmt(e):<26} A as {seat[2:]}")
    lines += legend([("A minus B", f"A's points minus B's, {unit}, on the same deals: each deal is played twice, "
                                   "A in each seat; 'both seats' halves their sum"),
                     ("[95%]", "the paired 95% interval: intervals made this way hold the true value 19 times "
                               "in 20")])
    if verbose:
        lines += [f"  A's parameters: {parameters(res['policies']['a'])}",
                  f"  B's parameters: {parameters(res['policies']['b'])}"]
    return "\n".join(lines)

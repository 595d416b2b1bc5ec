"""``salon bench bezique``: the deal kernel against the reference; with ``--full`` also the exact
end game (solves, and deals played with it) and the search player."""
from __future__ import annotations

import numpy as np

from analysis.bench import kernel_rates, median_rate


def run(deals: int | None, reference_deals: int | None, repeats: int, full: bool) -> dict:
    """The benchmark's figures (see the module's docstring)."""
    res = kernel(deals or 100_000, reference_deals or 50, repeats)
    if full:
        res["endgame"] = endgame(repeats=repeats)
        res["search"] = search(repeats=min(repeats, 3))
    return res


def text(res: dict) -> str:
    """The lines past the kernel's: the exact end game and the search player."""
    lines = []
    if "endgame" in res:
        e = res["endgame"]
        lines.append(f"bezique exact end game: {e['solves_per_s']:,.0f} 8-card solves/s, 1 thread "
                     f"({e['nodes_per_solve']:,.0f} nodes a solve)")
        lines += [f"bezique deals with the exact end game: {r['exact_deals_per_s']:,.0f} deals/s on {r['threads']} "
                  f"thread(s) · heuristic end phase {r['heuristic_deals_per_s']:,.0f} · ratio {r['ratio']:.2f}"
                  for r in e["results"]]
    if "search" in res:
        rates = ", ".join(f"{v:,.1f} at {k} samples" for k, v in res["search"]["self_play_deals_per_s"].items())
        lines.append(f"bezique search player, both seats searching, 2 threads: {rates} deals/s")
    return "\n".join(lines)


def kernel(deals: int, reference_deals: int, repeats: int) -> dict:
    """Full Bezique deals (32 tricks, melds; heuristic policies, seed-de) per second."""
    from analysis.bezique.play import tallies as bezique_tallies
    from analysis.bezique.policies import HeuristicPolicy
    from analysis.bezique.reference.deal import play_deal
    from analysis.bezique.rules import get_rules

    rules = get_rules()
    pol = HeuristicPolicy()
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = kernel_rates("bezique", bezique_tallies.deals_block, args, lambda i: play_deal(1, i, rules, pol, pol), deals,
                           reference_deals, repeats, 1 << 9)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median", "policies": "heuristic", "rules": rules.name}


def endgame(positions: int = 20_000, deals: int = 100_000, repeats: int = 5) -> dict:
    """The exact end game (seed-de), medians: 8-card solves per second on one thread (random
    positions, the table kept between solves as the players keep it), and full deals per second
    with both players using it against both playing the heuristic's end phase, at 1 and 2
    threads, in the same run."""
    import numba

    from analysis.bezique.play import tallies as bezique_tallies
    from analysis.bezique.players import solver as EG
    from analysis.bezique.players import solver_play as EP
    from analysis.bezique.players.trick_loop import TT_BITS
    from analysis.bezique.policies import HeuristicPolicy
    from analysis.bezique.rules import get_rules
    from analysis.blocks import set_threads
    from analysis.runner import chunk_bounds

    rules = get_rules()
    tt = EG.new_table(TT_BITS)
    pos = EP.random_positions(positions, 1, 8)
    EP.solve_all(pos[:2], 0, 10, 10, tt)  # compile or load
    before = EG.nodes(tt)
    solves = median_rate(lambda: EP.solve_all(pos, 0, 10, 10, tt), positions, repeats)
    nodes = (EG.nodes(tt) - before) / (positions * repeats)
    heur, exact = HeuristicPolicy().to_array(), HeuristicPolicy(exact_endgame=True).to_array()
    starts, counts = chunk_bounds(0, deals, 1 << 9)
    r = rules.to_array()
    bezique_tallies.deals_block(1, starts[:2], np.minimum(counts[:2], 64), r, exact, exact)
    out = {"positions": positions, "cards_per_hand": 8, "solves_per_s": solves, "nodes_per_solve": nodes,
           "table_entries": tt.shape[0] - 1, "deals": deals, "repeats": repeats, "statistic": "median",
           "rules": rules.name, "players": "heuristic stock phase, exact end game (both) vs heuristic", "results": []}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        rates = {name: median_rate(lambda p=p: bezique_tallies.deals_block(1, starts, counts, r, p, p), deals, repeats)
                 for name, p in (("exact", exact), ("heuristic", heur))}
        out["results"].append({"threads": threads, "exact_deals_per_s": rates["exact"],
                               "heuristic_deals_per_s": rates["heuristic"],
                               "ratio": rates["exact"] / rates["heuristic"]})
    set_threads(None)
    return out


def search(deals: int = 64, repeats: int = 3, samples=(32, 128)) -> dict:
    """The Bezique search player's deals per second (seed-de, self-play: both seats search, so a
    deal costs two search players; 2 threads), median of ``repeats``, for each number of samples."""
    from analysis.bezique.play import tallies as bezique_tallies
    from analysis.bezique.policies import get_policy
    from analysis.bezique.rules import get_rules
    from analysis.runner import chunk_bounds

    r = get_rules().to_array()
    starts, counts = chunk_bounds(0, deals, max(1, deals // 8))
    rates = {}
    for n in samples:
        p = get_policy("search", [f"samples={n}"]).to_array()
        bezique_tallies.deals_block(1, starts[:1], np.minimum(counts[:1], 1), r, p, p)
        rates[str(n)] = median_rate(lambda p=p: bezique_tallies.deals_block(1, starts, counts, r, p, p), deals, repeats)
    return {"deals": deals, "repeats": repeats, "threads": 2, "rules": "seed-de", "statistic": "median",
            "self_play_deals_per_s": rates}

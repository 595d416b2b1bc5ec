"""Throughput of the kernels against their reference implementations, measured in the same run."""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np


def _median_rate(fn, n: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates)


def _bench(game: str, block: Callable, args: tuple, reference: Callable, deals: int, reference_deals: int,
           repeats: int, chunk: int) -> list[dict]:
    """Median deals/s of ``block`` at 1 and 2 threads and of ``reference`` (one call per deal)."""
    import numba

    from analysis.blocks import set_threads
    from analysis.runner import chunk_bounds

    starts, counts = chunk_bounds(0, deals, chunk)
    block(1, starts[:2], np.minimum(counts[:2], 64), *args)  # compile (or load from cache)

    def run_reference():
        for i in range(reference_deals):
            reference(i)

    ref_rate = _median_rate(run_reference, reference_deals, repeats)
    results = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        rate = _median_rate(lambda: block(1, starts, counts, *args), deals, repeats)
        results.append({
            "game": game, "threads": threads, "deals_per_s": rate, "reference_deals_per_s": ref_rate,
            "speedup_vs_reference": rate / threads / ref_rate,
        })
    set_threads(None)
    return results


def bench_ecarte(deals: int = 4_000_000, reference_deals: int = 3_000, repeats: int = 5,
                 leads: str = "heuristic") -> dict:
    """Full Écarté hands (heuristic policies with ``leads`` heuristic or learned, seed-de) per second:
    kernel at 1 and 2 threads, reference."""
    from analysis.ecarte import kernel as K
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference import play_hand
    from analysis.ecarte.rules import get_rules

    rules = get_rules()
    pol = HeuristicPolicy(leads=leads)
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = _bench("ecarte", K.hands_block, args, lambda i: play_hand(1, i, rules, pol), deals,
                     reference_deals, repeats, 1 << 14)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median",
            "policies": "heuristic" + (", learned leads" if leads == "learned" else ""), "rules": rules.name}


def bench_solver(positions: int = 20_000, repeats: int = 5) -> dict:
    """Double-dummy solves per second of random 5-card Écarté positions (one thread), median."""
    from analysis.ecarte.solver import bench_solves

    rates = [bench_solves(positions, seed=1 + r) for r in range(repeats)]
    return {"positions": positions, "cards_per_hand": 5, "threads": 1, "solves_per_s": statistics.median(rates),
            "statistic": "median", "repeats": repeats}


def bench_equilibrium(deals_per_set: int = 32, repeats: int = 3, leads: str = "heuristic") -> dict:
    """The Écarté equilibrium's two engines (classic, 2 threads; the players' leads ``leads``),
    medians: branch-record deals per second (three branches: two hands played, the refusal
    re-scored) over every elder information set, and CFR+ iterations per second over those
    records (both sides' updates, the same records serving both)."""
    from analysis.ecarte import equilibrium as E
    from analysis.ecarte import equilibrium_solver as S
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules

    rules = get_rules("classic")
    pol = HeuristicPolicy(leads=leads)
    sets = E.info_sets()
    counts = np.where(sets.valid, deals_per_set, 0)
    first = np.zeros_like(counts)
    E.simulate("elder", first, np.where(sets.valid, 1, 0), 0, rules, (pol, pol), 2)  # compile (or load)
    rates, cfr = [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        got = E.simulate("elder", first, counts, 1 + r, rules, (pol, pol), 2)
        rates.append(counts.sum() / (time.perf_counter() - t0))
        rec = S.Records(got[0], got[1], E.nets_of(got[2]), len(counts))
        S.solve(rec, rec, 2)  # compile (or load)
        t0 = time.perf_counter()
        S.solve(rec, rec, 20)
        cfr.append(20 / (time.perf_counter() - t0))
    return {"deals_per_set": deals_per_set, "records": int(counts.sum()), "threads": 2, "leads": leads,
            "branch_deals_per_s": statistics.median(rates), "cfr_iterations_per_s": statistics.median(cfr),
            "statistic": "median", "repeats": repeats}


def bench_piquet(deals: int = 2_000_000, reference_deals: int = 1_000, repeats: int = 5,
                 policy: str = "heuristic") -> dict:
    """Full Piquet deals (exchanges, declarations, 12 tricks; seed-de) per second, both players
    ``policy`` (heuristic, or learned: the heuristic's play with the learned exchange)."""
    from analysis.piquet import kernel as K
    from analysis.piquet.policies import get_policy
    from analysis.piquet.reference import play_deal
    from analysis.piquet.rules import get_rules

    rules = get_rules()
    pol = get_policy(policy)
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = _bench("piquet" if policy == "heuristic" else f"piquet {policy}", K.deals_block, args,
                     lambda i: play_deal(1, i, rules, pol, pol), deals, reference_deals, repeats, 1 << 13)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median", "policies": policy, "rules": rules.name}


def bench_piquet_players(repeats: int = 3, solves: int = 2_000, dd_deals: int = 4_000, search_deals: int = 400) -> dict:
    """The Piquet solver and its players: full 12-card solves per second on one thread (the table
    kept between solves, as the players use it, and emptied before each), and whole deals per
    second on 2 threads with both players ``dd`` and both ``search`` (20 samples); medians."""
    from analysis.piquet import solver as S
    from analysis.piquet.policies import get_policy
    from analysis.piquet.rules import get_rules
    from analysis.piquet.studies import deal_tallies

    rules = get_rules()
    arr = rules.to_array()
    e, y = S.random_deals(solves, 1)
    S.solve_many(e[:2], y[:2], arr, S.new_memory(4), True)  # compile (or load from cache)
    kept, fresh = [], []
    for _ in range(repeats):
        mem = S.new_memory()
        t0 = time.perf_counter()
        S.solve_many(e, y, arr, mem, False)
        kept.append(solves / (time.perf_counter() - t0))
        mem = S.new_memory(16)
        t0 = time.perf_counter()
        S.solve_many(e[:solves // 4], y[:solves // 4], arr, mem, True)
        fresh.append(solves // 4 / (time.perf_counter() - t0))
    rates = {}
    for name, n in (("dd", dd_deals), ("search", search_deals)):
        p = get_policy(name)
        deal_tallies(8, 0, rules, p, p, threads=2)
        runs = []
        for r in range(repeats):
            t0 = time.perf_counter()
            deal_tallies(n, 1 + r, rules, p, p, threads=2)
            runs.append(n / (time.perf_counter() - t0))
        rates[name] = statistics.median(runs)
    return {"solves_per_s": statistics.median(kept), "solves_per_s_fresh_table": statistics.median(fresh),
            "solve_threads": 1, "dd_deals_per_s": rates["dd"], "search_deals_per_s": rates["search"],
            "search_samples": 20, "deal_threads": 2, "rules": rules.name, "statistic": "median",
            "repeats": repeats}


def bench_discard_table(samples: int = 10_000, repeats: int = 3,
                        hand: str = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8") -> dict:
    """Seconds for elder's full discard table (all 1,585 exchanges on ``samples`` common deals, no
    racing, 2 threads) and for the raced decision on the same hand; medians of ``repeats``."""
    from analysis.piquet.discards import analyse_hand

    analyse_hand(hand, samples=50, race=False, exact=False)  # compile (or load from cache)
    full, raced = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        analyse_hand(hand, samples=samples, race=False, exact=False, threads=2)
        full.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        a = analyse_hand(hand, samples=samples, exact=False, threads=2)
        raced.append(time.perf_counter() - t0)
    return {"hand": hand, "options": 1585, "samples": samples, "full_table_s": statistics.median(full),
            "raced_s": statistics.median(raced), "raced_deals": a.spec["deals_played"],
            "option_deals_per_s": 1585 * samples / statistics.median(full), "threads": 2,
            "statistic": "median", "repeats": repeats}


def bench_bezique(deals: int = 200_000, reference_deals: int = 100, repeats: int = 5) -> dict:
    """Full Bezique deals (32 tricks, melds; heuristic policies, seed-de) per second."""
    from analysis.bezique import kernel as K
    from analysis.bezique.policies import HeuristicPolicy
    from analysis.bezique.reference import play_deal
    from analysis.bezique.rules import get_rules

    rules = get_rules()
    pol = HeuristicPolicy()
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = _bench("bezique", K.deals_block, args, lambda i: play_deal(1, i, rules, pol, pol), deals,
                     reference_deals, repeats, 1 << 9)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median", "policies": "heuristic", "rules": rules.name}


def bench_bezique_endgame(positions: int = 20_000, deals: int = 100_000, repeats: int = 5,
                          search_deals: int = 64) -> dict:
    """The exact end game (seed-de), medians: 8-card solves per second on one thread (random
    positions, the table kept between solves as the players keep it), and full deals per second
    with both players using it against both playing the heuristic's end phase, at 1 and 2
    threads, in the same run; and the search player's deals per second (``bench_bezique_search``)."""
    import numba

    from analysis.bezique import endgame as EG
    from analysis.bezique import endgame_play as EP
    from analysis.bezique import kernel as K
    from analysis.bezique.policies import HeuristicPolicy
    from analysis.bezique.rules import get_rules
    from analysis.blocks import set_threads
    from analysis.runner import chunk_bounds

    rules = get_rules()
    tt = EG.new_table(K.TT_BITS)
    pos = EP.random_positions(positions, 1, 8)
    EP.solve_all(pos[:2], 0, 10, 10, tt)  # compile or load
    before = EG.nodes(tt)
    solves = _median_rate(lambda: EP.solve_all(pos, 0, 10, 10, tt), positions, repeats)
    nodes = (EG.nodes(tt) - before) / (positions * repeats)
    heur, exact = HeuristicPolicy().to_array(), HeuristicPolicy(exact_endgame=True).to_array()
    starts, counts = chunk_bounds(0, deals, 1 << 9)
    r = rules.to_array()
    K.deals_block(1, starts[:2], np.minimum(counts[:2], 64), r, exact, exact)
    out = {"positions": positions, "cards_per_hand": 8, "solves_per_s": solves, "nodes_per_solve": nodes,
           "table_entries": tt.shape[0] - 1, "deals": deals, "repeats": repeats, "statistic": "median",
           "rules": rules.name, "players": "heuristic stock phase, exact end game (both) vs heuristic", "results": []}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        rates = {name: _median_rate(lambda p=p: K.deals_block(1, starts, counts, r, p, p), deals, repeats)
                 for name, p in (("exact", exact), ("heuristic", heur))}
        out["results"].append({"threads": threads, "exact_deals_per_s": rates["exact"],
                               "heuristic_deals_per_s": rates["heuristic"],
                               "ratio": rates["exact"] / rates["heuristic"]})
    set_threads(None)
    out["search"] = bench_bezique_search(deals=search_deals, repeats=min(repeats, 3))
    return out


def bench_bezique_search(deals: int = 64, repeats: int = 3, samples=(32, 128)) -> dict:
    """The Bezique search player's deals per second (seed-de, self-play: both seats search, so a
    deal costs two search players; 2 threads), median of ``repeats``, for each number of samples."""
    from analysis.bezique import kernel as K
    from analysis.bezique.policies import get_policy
    from analysis.bezique.rules import get_rules
    from analysis.runner import chunk_bounds

    r = get_rules().to_array()
    starts, counts = chunk_bounds(0, deals, max(1, deals // 8))
    rates = {}
    for n in samples:
        p = get_policy("search", [f"samples={n}"]).to_array()
        K.deals_block(1, starts[:1], np.minimum(counts[:1], 1), r, p, p)
        rates[str(n)] = _median_rate(lambda p=p: K.deals_block(1, starts, counts, r, p, p), deals, repeats)
    return {"deals": deals, "repeats": repeats, "threads": 2, "rules": "seed-de", "statistic": "median",
            "self_play_deals_per_s": rates}


def bench_text(res: dict) -> str:
    """``salon bench`` as text: rates at 1 and 2 threads beside the reference's, measured in the same run."""
    text = "\n".join(
        f"{r['game']}: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
        f"{r['reference_deals_per_s']:,.0f} deals/s · speedup per thread {r['speedup_vs_reference']:,.0f}×"
        for r in res["results"] + res.get("learned", {}).get("results", []) + res.get("learned-fast", {}).get("results", []))
    for name in ("learned", "learned-fast"):
        if name in res:
            ratios = [f"{lr['deals_per_s'] / r['deals_per_s']:.2f} at {r['threads']} thread(s)"
                      for r, lr in zip(res["results"], res[name]["results"], strict=True)]
            text += f"\npiquet {name} exchange / heuristic exchange, same run: " + ", ".join(ratios)
    if "solver" in res:
        text += (f"\necarte double-dummy solver: {res['solver']['solves_per_s']:,.0f} solves/s (random 5-card "
                 "positions, 1 thread)")
    if "learned_leads" in res:
        ratios = [f"{lr['deals_per_s'] / r['deals_per_s']:.2f} at {r['threads']} thread(s)"
                  for r, lr in zip(res["results"], res["learned_leads"]["results"], strict=True)]
        text += "".join(f"\necarte learned leads: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
                        f"{r['reference_deals_per_s']:,.0f} deals/s" for r in res["learned_leads"]["results"])
        text += "\necarte learned leads / heuristic leads, same run: " + ", ".join(ratios)
    for key, what in (("equilibrium", ""), ("equilibrium_learned", " with the learned leads")):
        if key in res:
            q = res[key]
            text += (f"\necarte equilibrium{what}: {q['branch_deals_per_s']:,.0f} branch-record deals/s on "
                     f"{q['threads']} threads (two hands played, the refusal re-scored); CFR+ "
                     f"{q['cfr_iterations_per_s']:,.1f} iterations/s over {q['records']:,} records per side")
    if "endgame" in res:
        e = res["endgame"]
        text += (f"\nbezique exact end game: {e['solves_per_s']:,.0f} 8-card solves/s, 1 thread "
                 f"({e['nodes_per_solve']:,.0f} nodes a solve)")
        for r in e["results"]:
            text += (f"\nbezique deals with the exact end game: {r['exact_deals_per_s']:,.0f} deals/s on {r['threads']} "
                     f"thread(s) · heuristic end phase {r['heuristic_deals_per_s']:,.0f} · ratio {r['ratio']:.2f}")
        if "search" in e:
            rates = ", ".join(f"{v:,.1f} at {k} samples" for k, v in e["search"]["self_play_deals_per_s"].items())
            text += f"\nbezique search player, both seats searching, 2 threads: {rates} deals/s"
    if "players" in res:
        p = res["players"]
        text += (f"\npiquet double-dummy solver: {p['solves_per_s']:,.0f} full 12-card solves/s, 1 thread (table "
                 f"kept between solves; {p['solves_per_s_fresh_table']:,.0f}/s emptied before each)"
                 f"\npiquet dd players: {p['dd_deals_per_s']:,.0f} deals/s · search players ({p['search_samples']} "
                 f"samples): {p['search_deals_per_s']:,.0f} deals/s (2 threads)")
    if "discard_table" in res:
        d = res["discard_table"]
        text += (f"\npiquet discard analyser: full elder table {d['options']:,} exchanges × {d['samples']:,} deals in "
                 f"{d['full_table_s']:.1f} s ({d['option_deals_per_s']:,.0f} option-deals/s, 2 threads); raced to a "
                 f"decision in {d['raced_s']:.1f} s ({d['raced_deals']:,} deals)")
    return text

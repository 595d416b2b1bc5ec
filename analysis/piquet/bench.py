"""``salon bench piquet``: the deal kernel with the heuristic's, the learned and the learned-ordering
exchanges against the reference; with ``--full`` also the discard analyser's table, the
double-dummy solver and its players."""
from __future__ import annotations

import statistics
import time

from analysis.bench import kernel_rates, ratios_text


def run(deals: int | None, reference_deals: int | None, repeats: int, full: bool) -> dict:
    """The benchmark's figures (see the module's docstring)."""
    deals, reference_deals = deals or 500_000, reference_deals or 300
    res = kernel(deals, reference_deals, repeats)
    for policy in ("learned", "learned-ordering"):
        res[policy] = kernel(deals, reference_deals, repeats, policy=policy)
    if full:
        res["discard_table"] = discard_table(repeats=min(repeats, 3))
        res["players"] = players(repeats=min(repeats, 3))
    return res


def text(res: dict) -> str:
    """The lines past the kernel's: the learned exchanges, the analyser, the solver and its players."""
    lines = []
    for name in ("learned", "learned-ordering"):
        lines += [f"piquet {name}: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
                  f"{r['reference_deals_per_s']:,.0f} deals/s" for r in res[name]["results"]]
        lines.append(f"piquet {name} exchange / heuristic exchange, same run: "
                     + ratios_text(res["results"], res[name]["results"]))
    if "players" in res:
        p = res["players"]
        lines.append(f"piquet double-dummy solver: {p['solves_per_s']:,.0f} full 12-card solves/s, 1 thread (table "
                     f"kept between solves; {p['solves_per_s_fresh_table']:,.0f}/s emptied before each)")
        lines.append(f"piquet dd players: {p['dd_deals_per_s']:,.0f} deals/s · search players ({p['search_samples']} "
                     f"samples): {p['search_deals_per_s']:,.0f} deals/s (2 threads)")
    if "discard_table" in res:
        d = res["discard_table"]
        lines.append(f"piquet discard analyser: full elder table {d['options']:,} exchanges × {d['samples']:,} deals "
                     f"in {d['full_table_s']:.1f} s ({d['option_deals_per_s']:,.0f} option-deals/s, 2 threads); "
                     f"raced to a decision in {d['raced_s']:.1f} s ({d['raced_deals']:,} deals)")
    return "\n".join(lines)


def kernel(deals: int, reference_deals: int, repeats: int, policy: str = "heuristic") -> dict:
    """Full Piquet deals (exchanges, declarations, 12 tricks; seed-de) per second, both players
    ``policy`` (heuristic, or learned: the heuristic's play with the learned exchange)."""
    from analysis.piquet.play.tallies import deals_block
    from analysis.piquet.policies import get_policy
    from analysis.piquet.reference.deal import play_deal
    from analysis.piquet.rules import get_rules

    rules = get_rules()
    pol = get_policy(policy)
    args = (rules.to_array(), pol.to_array(), pol.to_array())
    results = kernel_rates("piquet" if policy == "heuristic" else f"piquet {policy}", deals_block, args,
                           lambda i: play_deal(1, i, rules, pol, pol), deals, reference_deals, repeats, 1 << 13)
    return {"results": results, "deals": deals, "reference_deals": reference_deals, "repeats": repeats,
            "statistic": "median", "policies": policy, "rules": rules.name}


def players(repeats: int = 3, solves: int = 2_000, dd_deals: int = 4_000, search_deals: int = 400) -> dict:
    """The Piquet solver and its players: full 12-card solves per second on one thread (the table
    kept between solves, as the players use it, and emptied before each), and whole deals per
    second on 2 threads with both players ``dd`` and both ``search`` (20 samples); medians."""
    from analysis.piquet.players import solver as S
    from analysis.piquet.policies import get_policy
    from analysis.piquet.rules import get_rules
    from analysis.piquet.studies.simulate import deal_tallies

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


def discard_table(samples: int = 10_000, repeats: int = 3,
                        hand: str = "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8") -> dict:
    """Seconds for elder's full discard table (all 1,585 exchanges on ``samples`` common deals, no
    racing, 2 threads) and for the raced decision on the same hand; medians of ``repeats``."""
    from analysis.piquet.studies.discards.analyser import analyse_hand

    analyse_hand(hand, samples=50, race=False)  # compile (or load from cache)
    full, raced = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        analyse_hand(hand, samples=samples, race=False, threads=2)
        full.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        a = analyse_hand(hand, samples=samples, threads=2)
        raced.append(time.perf_counter() - t0)
    return {"hand": hand, "options": 1585, "samples": samples, "full_table_s": statistics.median(full),
            "raced_s": statistics.median(raced), "raced_deals": a.spec["deals_played"],
            "option_deals_per_s": 1585 * samples / statistics.median(full), "threads": 2,
            "statistic": "median", "repeats": repeats}

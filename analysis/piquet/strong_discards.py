"""The discard analyser under strong play (``salon piquet discard --play dd|search``).

The heuristic race (discards.analyse_hand) ranks every legal exchange cheaply; its leading
``candidates`` are then played with both players ``dd`` (the open-hands solver's play) on fresh
common deals, twice: once to rank them (choose) and once, on other deals, to report them (so the
best exchange's figures are not flattered by the deals that picked it). Each best's cost under the
other player's ranking is measured on deals neither ranking saw. With ``search``, the
``search_top`` leaders of the dd ranking are played again by search players, again choosing on one
set of deals and reporting on another. Every stage's deals come from its own seed offset.
"""
from __future__ import annotations

import numpy as np

from analysis.results import Result, options_frame
from analysis.stats import mean_from_sums, paired_difference, proportion

SEED_OFFSETS = {"dd_choose": 1_000_003, "dd_report": 2_000_003, "search_choose": 3_000_003,
                "search_report": 4_000_003, "heuristic_report": 5_000_003}
FLAGS = (("p_point", 1), ("p_cards", 64), ("p_pique_or_repique", 8 | 16), ("p_capot", 32))
"""discard_kernel's flag bits behind each reported probability (pique 16, repique 8)."""


def auto_play(samples: int) -> str:
    """The strongest player that fits the budget (``--samples``): search from 10,000 deals, dd from
    2,000, else the heuristic."""
    return "search" if samples >= 10_000 else ("dd" if samples >= 2_000 else "heuristic")


def play_options(hand: int, younger: bool, masks: np.ndarray, rules, pe: np.ndarray, py: np.ndarray, seed: int,
                 n: int, threads: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Net score (mine minus the opponent's) and flags of each exchange in ``masks`` on n common
    sampled deals of ``seed``."""
    import numba

    from analysis.blocks import kernel_threads
    from analysis.piquet.discard_kernel import options_block

    codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
    unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
    with kernel_threads(threads), numba.parallel_chunksize(0):
        net, flags = options_block(seed, 0, n, codes, unseen, younger, masks.astype(np.int64), rules.to_array(), pe,
                                   py, max(1, min(16, n // 8)))
    return net.astype(np.int64), flags


def _stats(net: np.ndarray, flags: np.ndarray, j: int, best: int) -> dict:
    """One exchange's reported figures: net, difference to ``best`` (paired), the probabilities."""
    x = net[:, j]
    n = len(x)
    out = {"net": mean_from_sums(int(x.sum()), int((x * x).sum()), n).to_dict()}
    d = x - net[:, best]
    out["diff_to_best"] = paired_difference(int(d.sum()), int((d * d).sum()), n).to_dict() if j != best else \
        {"value": 0.0, "ci95": [0.0, 0.0], "n": n}
    for name, bits in FLAGS:
        out[name] = proportion(int(((flags[:, j] & bits) != 0).sum()), n).to_dict()
    return out


def _stage(hand, younger, masks, rules, pe, py, seed, deals, choose_key, report_key, threads):
    """Choose on one set of deals, report on another: (order best first, reported rows)."""
    chosen, _ = play_options(hand, younger, masks, rules, pe, py, seed + SEED_OFFSETS[choose_key], deals, threads)
    order = np.argsort(-chosen.mean(axis=0), kind="stable")
    net, flags = play_options(hand, younger, masks, rules, pe, py, seed + SEED_OFFSETS[report_key], deals, threads)
    return order, [_stats(net, flags, int(j), int(order[0])) for j in range(len(masks))], net


def _policy_arrays(player, younger: bool, elder_took: int):
    if younger:
        return player.to_array(force_count=elder_took), player.to_array()
    return player.to_array(), player.to_array()


def strong_analysis(a, rules, play: str, *, candidates: int = 20, deals: int = 1_000, search_top: int = 4,
                    search_deals: int = 200, seed: int = 0, threads: int | None = None) -> Result:
    """The heuristic analysis ``a``'s leading exchanges under ``play`` (dd or search): rankings,
    held-out figures, Kendall's tau against the heuristic ranking and each best's cost under the
    other's ranking."""
    from scipy.stats import kendalltau

    from analysis.piquet.discards import _names
    from analysis.piquet.strong_policies import DoubleDummyPolicy, SearchPolicy

    younger = a.spec["seat"] == "younger"
    elder_took = a.spec["elder_took"] or 5
    table = a.table
    cand = table["option"].to_numpy()[:candidates]
    masks = a.options[cand]
    dd = DoubleDummyPolicy()
    order, rows, net = _stage(a.hand, younger, masks, rules, *_policy_arrays(dd, younger, elder_took), seed, deals,
                              "dd_choose", "dd_report", threads)
    heuristic_net = table["net"].to_numpy()[:candidates]
    strong_net = np.array([r["net"]["value"] for r in rows])
    tau = kendalltau(heuristic_net, strong_net)
    best_h, best_s = 0, int(order[0])  # the heuristic's best is its table's first row
    d = net[:, best_s] - net[:, best_h]
    # The dd best's cost under heuristic play, on deals neither ranking saw (the race's own
    # differences would flatter the heuristic's best, which they chose).
    from analysis.piquet.policies import HeuristicPolicy

    h_net, _ = play_options(a.hand, younger, masks[[best_h, best_s]], rules,
                            *_policy_arrays(HeuristicPolicy(), younger, elder_took),
                            seed + SEED_OFFSETS["heuristic_report"], deals, threads)
    dh = h_net[:, 0] - h_net[:, 1]
    out = {
        "play": play, "candidates": len(cand), "deals_per_stage": deals,
        "players": {"dd": dd.describe()},
        "method": "the heuristic race's leading exchanges, played by dd players on fresh deals: ranked on one "
                  "set of deals, reported on another",
        "exchanges": [{"discard": _names(int(masks[j])), "heuristic_rank": int(j) + 1, "rank": int(k) + 1, **rows[j]}
                      for k, j in enumerate(order)],
        "kendall_tau": {"value": float(tau.statistic), "p": float(tau.pvalue), "over": len(cand)},
        "heuristic_best_cost_under_strong": paired_difference(int(d.sum()), int((d * d).sum()), len(d)).to_dict(),
        "strong_best_cost_under_heuristic": paired_difference(int(dh.sum()), int((dh * dh).sum()), len(dh)).to_dict(),
    }
    if play == "search":
        sp = SearchPolicy()
        top = order[:search_top]
        s_order, s_rows, _ = _stage(a.hand, younger, masks[top], rules, *_policy_arrays(sp, younger, elder_took), seed,
                                    search_deals, "search_choose", "search_report", threads)
        out["players"]["search"] = sp.describe()
        out["search"] = {"deals_per_stage": search_deals,
                         "exchanges": [{"discard": _names(int(masks[top[j]])), "dd_rank": int(j) + 1, "rank": int(k) + 1,
                                        **s_rows[j]} for k, j in enumerate(s_order)]}
        out["method"] += f"; the {len(top)} dd leaders played again by search players, chosen and reported likewise"
    best = out["search"]["exchanges"][0] if play == "search" else out["exchanges"][0]
    out["best"] = best["discard"]
    shown = out["search"]["exchanges"] if play == "search" else out["exchanges"]
    return Result(out, options_frame(shown), title=f"Piquet: the leading exchanges under {play} play")


def strong_text(s: dict) -> str:
    """The strong stage as text."""
    lines = [f"under {s['play']} play ({s['method']}; {s['deals_per_stage']:,} deals per stage):"]

    def row(e, extra):
        n, d = e["net"], e["diff_to_best"]
        return (f"  {e['rank']:>3} {' '.join(e['discard']):<22} {n['value']:+7.2f} [{n['ci95'][0]:+.2f}, "
                f"{n['ci95'][1]:+.2f}]  {d['value']:+6.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]  "
                f"{e['p_point']['value']:.2f} {e['p_cards']['value']:.2f} {e['p_pique_or_repique']['value']:.3f} "
                f"{e['p_capot']['value']:.3f}  {extra}")

    header = f"  {'#':>3} {'throw':<22} {'net [95%]':<24} {'vs best [95%]':<22} point cards piq/rep capot"
    lines.append(header + "  heuristic #")
    lines += [row(e, e["heuristic_rank"]) for e in s["exchanges"]]
    t, c = s["kendall_tau"], s["heuristic_best_cost_under_strong"]
    h = s["strong_best_cost_under_heuristic"]
    lines.append(f"ranking vs the heuristic's: Kendall tau {t['value']:+.2f} over the top {t['over']}; the heuristic's "
                 f"best costs {c['value']:+.2f} [{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}] under dd play, dd's best "
                 f"{h['value']:+.2f} [{h['ci95'][0]:+.2f}, {h['ci95'][1]:+.2f}] under heuristic play (fresh deals)")
    if "search" in s:
        lines.append(f"under search play ({s['search']['deals_per_stage']:,} deals per stage):")
        lines.append(header + "  dd #")
        lines += [row(e, e["dd_rank"]) for e in s["search"]["exchanges"]]
    lines.append(f"best exchange under {s['play']} play: throw {' '.join(s['best'])}")
    return "\n".join(lines)

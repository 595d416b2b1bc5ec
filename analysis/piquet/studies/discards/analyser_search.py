"""The discard analyser under strong play (``salon piquet discard --play dd|search``).

The heuristic race (discards.analyse_hand) ranks every legal exchange cheaply; its leading
``candidates`` are then played with both players ``dd`` (the open-hands solver's play) on fresh
common deals, twice: once to rank them (choose) and once, on other deals, to report them (so the
best exchange's figures are not flattered by the deals that picked it). Each best's cost under the
other player's ranking is measured on deals neither ranking saw. With ``search``, the
``search_top`` leaders of the dd ranking are played again by search players, again choosing on one
set of deals and reporting on another. Every stage's deals come from its own seed offset.

``salon piquet discard --budget`` picks the sizes (analysis.piquet.answers.BUDGETS): how many
deals the race plays, how many leaders the strong players take and on how many deals.
"""
from __future__ import annotations

import time

import numpy as np

from analysis.results import Result, options_frame
from analysis.stats import mean_from_sums, paired_difference, proportion

SEED_OFFSETS = {"dd_choose": 1_000_003, "dd_report": 2_000_003, "search_choose": 3_000_003,
                "search_report": 4_000_003, "heuristic_report": 5_000_003}
FLAGS = (("p_point", 1), ("p_cards", 64), ("p_pique_or_repique", 8 | 16), ("p_capot", 32))
"""studies/discards/kernel's flag bits behind each reported probability (pique 16, repique 8)."""


def play_options(hand: int, younger: bool, masks: np.ndarray, rules, pe: np.ndarray, py: np.ndarray, seed: int,
                 n: int, threads: int | None, bar=None) -> tuple[np.ndarray, np.ndarray]:
    """Net score (mine minus the opponent's) and flags of each exchange in ``masks`` on n common
    sampled deals of ``seed``. With a progress ``bar`` (tqdm, counting exchanges x deals) the deals
    are played in about eight blocks, the bar moving after each; the numbers are the same (deal i
    is a function of the seed and i alone)."""
    import numba

    from analysis.blocks import kernel_threads
    from analysis.piquet.studies.discards.kernel import options_block

    codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
    unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
    live = bar is not None and not bar.disable
    block = max(8, -(-n // 8)) if live else n
    nets, flag_parts = [], []
    with kernel_threads(threads), numba.parallel_chunksize(0):
        for start in range(0, n, block):
            m = min(block, n - start)
            net, flags = options_block(seed, start, m, codes, unseen, younger, masks.astype(np.int64),
                                       rules.to_array(), pe, py, max(1, min(16, m // 8)))
            nets.append(net)
            flag_parts.append(flags)
            if live:
                bar.update(m * len(masks))
    return np.concatenate(nets).astype(np.int64), np.concatenate(flag_parts)


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


def _stage(hand, younger, masks, rules, pe, py, seed, deals, choose_key, report_key, threads, bar=None):
    """Choose on one set of deals, report on another: (order best first, reported rows)."""
    chosen, _ = play_options(hand, younger, masks, rules, pe, py, seed + SEED_OFFSETS[choose_key], deals, threads, bar)
    order = np.argsort(-chosen.mean(axis=0), kind="stable")
    net, flags = play_options(hand, younger, masks, rules, pe, py, seed + SEED_OFFSETS[report_key], deals, threads,
                              bar)
    return order, [_stats(net, flags, int(j), int(order[0])) for j in range(len(masks))], net


def _bar(total: int, desc: str, progress: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=" games", unit_scale=True, leave=False, disable=not progress)


def policy_arrays(player, younger: bool, elder_took: int):
    if younger:
        return player.to_array(force_count=elder_took), player.to_array()
    return player.to_array(), player.to_array()


def strong_analysis(a, rules, play: str, *, candidates: int = 20, deals: int = 1_000, search_top: int = 4,
                    search_deals: int = 200, seed: int = 0, threads: int | None = None,
                    progress: bool = False) -> Result:
    """The heuristic analysis ``a``'s leading exchanges under ``play`` (dd or search): rankings,
    held-out figures, Kendall's tau against the heuristic ranking and each best's cost under the
    other's ranking. ``progress``: a bar per player (exchanges x deals played); ``seconds`` in the
    result: each player's wall time."""
    from scipy.stats import kendalltau

    from analysis.piquet.policies import DoubleDummyPolicy, SearchPolicy
    from analysis.piquet.studies.discards.analyser import card_names

    younger = a.spec["seat"] == "younger"
    elder_took = a.spec["elder_took"] or 5
    table = a.table
    cand = table["option"].to_numpy()[:candidates]
    masks = a.options[cand]
    dd = DoubleDummyPolicy()
    t0 = time.perf_counter()
    bar = _bar(2 * len(masks) * deals + 2 * deals, f"open-hands play, {len(masks)} exchanges", progress)
    order, rows, net = _stage(a.hand, younger, masks, rules, *policy_arrays(dd, younger, elder_took), seed, deals,
                              "dd_choose", "dd_report", threads, bar)
    heuristic_net = table["net"].to_numpy()[:candidates]
    strong_net = np.array([r["net"]["value"] for r in rows])
    tau = kendalltau(heuristic_net, strong_net) if len(cand) > 1 else None
    best_h, best_s = 0, int(order[0])  # the heuristic's best is its table's first row
    d = net[:, best_s] - net[:, best_h]
    # The dd best's cost under heuristic play, on deals neither ranking saw (the race's own
    # differences would flatter the heuristic's best, which they chose).
    from analysis.piquet.policies import HeuristicPolicy

    h_net, _ = play_options(a.hand, younger, masks[[best_h, best_s]], rules,
                            *policy_arrays(HeuristicPolicy(), younger, elder_took),
                            seed + SEED_OFFSETS["heuristic_report"], deals, threads, bar)
    bar.close()
    dh = h_net[:, 0] - h_net[:, 1]
    seconds = {"dd": round(time.perf_counter() - t0, 3)}
    out = {
        "play": play, "candidates": len(cand), "deals_per_stage": deals,
        "players": {"dd": dd.describe()},
        "method": "the heuristic race's leading exchanges, played by dd players on fresh deals: ranked on one "
                  "set of deals, reported on another",
        "exchanges": [{"discard": card_names(int(masks[j])), "heuristic_rank": int(j) + 1, "rank": int(k) + 1, **rows[j]}
                      for k, j in enumerate(order)],
        "kendall_tau": {"value": float(tau.statistic) if tau is not None else None,
                        "p": float(tau.pvalue) if tau is not None else None, "over": len(cand)},
        "heuristic_best_cost_under_strong": paired_difference(int(d.sum()), int((d * d).sum()), len(d)).to_dict(),
        "strong_best_cost_under_heuristic": paired_difference(int(dh.sum()), int((dh * dh).sum()), len(dh)).to_dict(),
    }
    if play == "search":
        sp = SearchPolicy()
        top = order[:search_top]
        t0 = time.perf_counter()
        bar = _bar(2 * len(top) * search_deals, f"search play, {len(top)} exchanges", progress)
        s_order, s_rows, _ = _stage(a.hand, younger, masks[top], rules, *policy_arrays(sp, younger, elder_took), seed,
                                    search_deals, "search_choose", "search_report", threads, bar)
        bar.close()
        seconds["search"] = round(time.perf_counter() - t0, 3)
        out["players"]["search"] = sp.describe()
        out["search"] = {"deals_per_stage": search_deals,
                         "exchanges": [{"discard": card_names(int(masks[top[j]])), "dd_rank": int(j) + 1, "rank": int(k) + 1,
                                        **s_rows[j]} for k, j in enumerate(s_order)]}
        out["method"] += f"; the {len(top)} dd leaders played again by search players, chosen and reported likewise"
    best = out["search"]["exchanges"][0] if play == "search" else out["exchanges"][0]
    out["best"] = best["discard"]
    out["seconds"] = seconds
    shown = out["search"]["exchanges"] if play == "search" else out["exchanges"]
    return Result(out, options_frame(shown), title=f"Piquet: the leading exchanges under {play} play")


def _figures(e: dict) -> str:
    n, d = e["net"], e["diff_to_best"]
    return (f"{n['value']:+7.2f} [{n['ci95'][0]:+.2f}, {n['ci95'][1]:+.2f}]  {d['value']:+6.2f} [{d['ci95'][0]:+.2f}, "
            f"{d['ci95'][1]:+.2f}]  {e['p_point']['value']:.2f}  {e['p_cards']['value']:.2f}  "
            f"{e['p_pique_or_repique']['value']:.3f}  {e['p_capot']['value']:.3f}")


def strong_text(s: dict, notation=None) -> str:
    """The strong stage as text: a table per player, headed by who played and on how many deals,
    the cards in ``notation`` (analysis.piquet.notation; codes by default)."""
    from analysis.piquet.notation import Notation

    notation = notation or Notation()
    shown = s["exchanges"] + s.get("search", {}).get("exchanges", [])
    width = max(len("throw"), *(len(notation.names(e["discard"])) for e in shown))

    def table(rows, extra_name, extra_key):
        out = [f"  {'#':>3}  {'throw':<{width}}  {'net [95%]':<24} {'vs best [95%]':<23} point  cards  piq/rep  capot  "
               f"{extra_name}"]
        out += [f"  {e['rank']:>3}  {notation.names(e['discard']):<{width}}  {_figures(e)}  {e[extra_key]:>5}"
                for e in rows]
        return out

    n = s["deals_per_stage"]
    lines = [f"The race's {s['candidates']} leaders played out with open hands (the double-dummy player: both sides "
             f"see every card), ranked on {n:,} deals and reported on {n:,} others:"]
    lines += table(s["exchanges"], "heuristic #", "heuristic_rank")
    t, c = s["kendall_tau"], s["heuristic_best_cost_under_strong"]
    h = s["strong_best_cost_under_heuristic"]
    best_h = next(e for e in s["exchanges"] if e["heuristic_rank"] == 1)
    if s["exchanges"][0]["heuristic_rank"] == 1:
        lines.append("The open-hands player's best is the heuristic race's best too.")
    else:
        lines.append(f"The race's best (throw {notation.names(best_h['discard'])}) against the open-hands best: "
                     f"{-c['value']:+.2f} a deal [{-c['ci95'][1]:+.2f}, {-c['ci95'][0]:+.2f}] with open hands, "
                     f"{h['value']:+.2f} [{h['ci95'][0]:+.2f}, {h['ci95'][1]:+.2f}] in the heuristic's play (on deals "
                     "neither order was chosen on).")
    if t["value"] is not None:
        lines.append(f"The two orders agree with Kendall's tau {t['value']:+.2f} over these {t['over']} (1: the same "
                     "order).")
    if "search" in s:
        m = s["search"]["deals_per_stage"]
        k = len(s["search"]["exchanges"])
        samples = s["players"]["search"].get("samples")
        lines.append("")
        lines.append(f"The open-hands player's {k} best played out by the search player (each side guesses the hidden "
                     f"cards from what it has seen, {samples} guesses a card), ranked on {m:,} deals and reported on "
                     f"{m:,} others:")
        lines += table(s["search"]["exchanges"], "open-hands #", "dd_rank")
    return "\n".join(lines)

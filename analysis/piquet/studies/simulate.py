"""Named Piquet studies: a spec in, a dict or pandas DataFrame (and figures) out.

Every study plays the numba kernel through ``analysis.runner`` and turns its integer tallies into
estimates with ``analysis.stats``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.piquet.engine.layout import (
    G_DRAWN,
    G_EXTRA,
    G_FIRST_DEALER_MARGIN,
    G_FIRST_DEALER_MARGIN_SQ,
    G_FIRST_DEALER_WINS,
    G_MARGIN,
    G_MARGIN_SQ,
    G_PARTIES,
    G_RUBICON,
    N_BINS,
    T_BINS,
    T_CAPOT_ELDER,
    T_CAPOT_YOUNGER,
    T_CARDS_DIVIDED,
    T_CARDS_ELDER,
    T_CARDS_YOUNGER,
    T_CB_ELDER,
    T_CB_YOUNGER,
    T_DEALS,
    T_DECL_NET,
    T_DECL_NET_SQ,
    T_ELDER_SCORE,
    T_ELDER_SCORE_SQ,
    T_NET,
    T_NET_BY_CARDS,
    T_NET_SQ,
    T_NET_SQ_BY_CARDS,
    T_PIQUE,
    T_PLAY_NET,
    T_PLAY_NET_SQ,
    T_POINT_ELDER,
    T_POINT_YOUNGER,
    T_REPIQUE_ELDER,
    T_REPIQUE_YOUNGER,
    T_SEQ_ELDER,
    T_SEQ_YOUNGER,
    T_SET_ELDER,
    T_SET_YOUNGER,
    T_YOUNGER_SCORE,
    T_YOUNGER_SCORE_SQ,
)
from analysis.piquet.play.paired import paired_block
from analysis.piquet.play.partie import parties_block
from analysis.piquet.play.tallies import deals_block
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.rules import VARIANTS, PiquetRules, get_rules
from analysis.provenance import provenance
from analysis.results import Result, simulation
from analysis.runner import run_tallies
from analysis.stats import Estimate, mean_from_sums, proportion

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Policy = HeuristicPolicy | RandomPolicy

SCORE_BINS = tuple(f"{10 * i}-{10 * i + 9}" if i else "under 10" for i in range(N_BINS - 1)) + ("150 or more",)
"""The classical 10,000-hand table's bins of a player's score in one deal."""


def deal_tallies(n: int, seed: int = 0, rules: PiquetRules | None = None, elder: Policy | None = None,
                 younger: Policy | None = None, *, threads: int | None = None, chunk: int | None = None,
                 quiet: bool = True) -> np.ndarray:
    """The summed T_* tally vector of n independent deals."""
    from analysis.piquet.policies import deals_per_chunk

    rules = rules or get_rules()
    elder = elder or HeuristicPolicy()
    younger = younger or elder
    return run_tallies(deals_block, (rules.to_array(), elder.to_array(), younger.to_array()), n, seed,
                       chunk=chunk or deals_per_chunk(1 << 13, elder, younger), threads=threads, quiet=quiet)


def simulate_deals(n: int, seed: int = 0, rules: PiquetRules | None = None, elder: Policy | None = None,
                   younger: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> Result:
    """Play n independent deals; summary statistics (the JSON contract of ``salon simulate``)."""
    rules = rules or get_rules()
    elder = elder or HeuristicPolicy()
    younger = younger or elder
    t = deal_tallies(n, seed, rules, elder, younger, threads=threads, quiet=quiet)
    return simulation(provenance("piquet", rules, {"elder": elder.describe(), "younger": younger.describe()}, n,
                                 seed, mode="deals"), deal_stats(t), t, score_bins=score_bins(t))


def deal_stats(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from a deals_block tally vector."""
    n = int(t[T_DEALS])

    def p(k):
        return proportion(int(t[k]), n)

    def mean(k, k_sq):
        return mean_from_sums(int(t[k]), int(t[k_sq]), n)

    cards = [int(t[T_CARDS_ELDER]), int(t[T_CARDS_YOUNGER]), int(t[T_CARDS_DIVIDED])]
    stats = {
        "carte_blanche_elder": p(T_CB_ELDER),
        "carte_blanche_younger": p(T_CB_YOUNGER),
        "elder_score": mean(T_ELDER_SCORE, T_ELDER_SCORE_SQ),
        "younger_score": mean(T_YOUNGER_SCORE, T_YOUNGER_SCORE_SQ),
        "elder_minus_younger": mean(T_NET, T_NET_SQ),
        "elder_edge_declarations": mean(T_DECL_NET, T_DECL_NET_SQ),
        "elder_edge_play": mean(T_PLAY_NET, T_PLAY_NET_SQ),
        "repique_elder": p(T_REPIQUE_ELDER),
        "repique_younger": p(T_REPIQUE_YOUNGER),
        "pique": p(T_PIQUE),
        "capot": proportion(int(t[T_CAPOT_ELDER] + t[T_CAPOT_YOUNGER]), n),
        "capot_elder": p(T_CAPOT_ELDER),
        "capot_younger": p(T_CAPOT_YOUNGER),
        "cards_elder": p(T_CARDS_ELDER),
        "cards_younger": p(T_CARDS_YOUNGER),
        "cards_divided": p(T_CARDS_DIVIDED),
        "point_elder": p(T_POINT_ELDER),
        "point_younger": p(T_POINT_YOUNGER),
        "sequences_elder": p(T_SEQ_ELDER),
        "sequences_younger": p(T_SEQ_YOUNGER),
        "sets_elder": p(T_SET_ELDER),
        "sets_younger": p(T_SET_YOUNGER),
    }
    for i, name in enumerate(("elder_wins_cards", "younger_wins_cards", "cards_divided")):
        stats[f"net_when_{name}"] = mean_from_sums(int(t[T_NET_BY_CARDS + i]), int(t[T_NET_SQ_BY_CARDS + i]),
                                                   cards[i])
    return stats


def score_bins(t: np.ndarray) -> dict[str, dict[str, int]]:
    """Deals per score bin (the classical table's bins), for elder and younger."""
    return {seat: {label: int(t[T_BINS + off + i]) for i, label in enumerate(SCORE_BINS)}
            for seat, off in (("elder", 0), ("younger", N_BINS))}


def simulate_parties(n: int, seed: int = 0, rules: PiquetRules | None = None, player_a: Policy | None = None,
                     player_b: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> Result:
    """Play n parties of six deals (the first dealer drawn per partie, PQ-FIRST); partie statistics."""
    rules = rules or get_rules()
    player_a = player_a or HeuristicPolicy()
    player_b = player_b or player_a
    from analysis.piquet.policies import deals_per_chunk

    chunk = max(1, deals_per_chunk(6 << 10, player_a, player_b) // 6)  # parties of six deals
    t = run_tallies(parties_block, (rules.to_array(), player_a.to_array(), player_b.to_array()), n, seed,
                    chunk=chunk, threads=threads, quiet=quiet, desc="parties")
    return simulation(provenance("piquet", rules, {"a": player_a.describe(), "b": player_b.describe()}, n, seed,
                                 mode="parties"), partie_stats(t), t)


def partie_stats(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from a parties_block tally vector."""
    n = int(t[G_PARTIES])
    return {
        "first_dealer_wins": proportion(int(t[G_FIRST_DEALER_WINS]), n),
        "drawn": proportion(int(t[G_DRAWN]), n),
        "rubicon": proportion(int(t[G_RUBICON]), n),
        "partie_margin": mean_from_sums(int(t[G_MARGIN]), int(t[G_MARGIN_SQ]), n),
        "first_dealer_margin": mean_from_sums(int(t[G_FIRST_DEALER_MARGIN]), int(t[G_FIRST_DEALER_MARGIN_SQ]),
                                              n),
        "extra_deals_played": proportion(int(t[G_EXTRA]), n),
    }


def paired_policies(n: int, seed: int, rules: PiquetRules, elder_a: Policy, elder_b: Policy, younger: Policy, *,
                    threads: int | None = None, quiet: bool = True) -> Estimate:
    """Elder's net score (elder minus younger) per deal with policy a minus with policy b, the
    same deals and the same younger policy (common random numbers), with a paired interval.
    Through the runner: parallel, stored and resumable like every simulation."""
    from analysis.piquet.policies import deals_per_chunk
    from analysis.stats import paired_difference

    t = run_tallies(paired_block, (rules.to_array(), elder_a.to_array(), elder_b.to_array(), younger.to_array()),
                    n, seed, chunk=deals_per_chunk(1 << 12, elder_a, elder_b, younger), threads=threads, quiet=quiet,
                    desc="paired deals")
    return paired_difference(int(t[1]), int(t[2]), int(t[0]))


# ------------------------------------------------------------------------------ overview
OVERVIEW_STATS = (
    "elder_score", "younger_score", "elder_minus_younger", "elder_edge_declarations", "elder_edge_play",
    "carte_blanche_elder", "carte_blanche_younger", "repique_elder", "repique_younger", "pique", "capot",
    "cards_elder", "cards_younger", "cards_divided", "point_elder", "sequences_elder", "sets_elder",
)


def overview(n: int, seed: int = 0, variants: tuple[str, ...] = tuple(VARIANTS), policy: Policy | None = None, *,
             threads: int | None = None, quiet: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-deal statistics and score distributions, the variants side by side.

    Returns (stats table: one row per statistic, value and interval columns per variant;
    distribution table: one row per score bin, the share of deals per variant and seat)."""
    import pandas as pd

    policy = policy or HeuristicPolicy()
    stat_rows = {name: {"statistic": name} for name in OVERVIEW_STATS}
    dist = {"bin": list(SCORE_BINS)}
    for v in variants:
        rules = get_rules(v)
        t = deal_tallies(n, seed, rules, policy, policy, threads=threads, quiet=quiet)
        stats = deal_stats(t)
        for name in OVERVIEW_STATS:
            e = stats[name]
            lo, hi = e.ci95
            stat_rows[name].update({v: e.value, f"{v}_lo": lo, f"{v}_hi": hi})
        bins = score_bins(t)
        for seat in ("elder", "younger"):
            dist[f"{v}_{seat}"] = [bins[seat][b] / n for b in SCORE_BINS]
    table = pd.DataFrame(list(stat_rows.values()))
    distribution = pd.DataFrame(dist)
    attrs = {"deals": n, "seed": seed, "variants": list(variants), "policy": policy.describe(),
             "caption": "Piquet per-deal statistics by variant (heuristic players, 95% intervals)."}
    table.attrs.update(attrs)
    distribution.attrs.update(attrs)
    return table, distribution


def plot_score_distribution(distribution: pd.DataFrame, variants: list[str] | None = None) -> Figure:
    """Each seat's score per deal, binned, by variant (``overview``'s distribution; ``variants``
    defaults to its ``attrs``): a new figure of two panels (elder, younger), returned."""
    import matplotlib.pyplot as plt

    variants = list(variants or distribution.attrs["variants"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    x = np.arange(len(distribution))
    w = 0.8 / len(variants)
    for ax, seat in zip(axes, ("elder", "younger"), strict=True):
        for i, v in enumerate(variants):
            ax.bar(x + i * w - 0.4 + w / 2, distribution[f"{v}_{seat}"], w, label=v)
        ax.set_xticks(x, distribution["bin"], rotation=60, ha="right", fontsize=7)
        ax.set_title(f"{seat}'s score per deal")
        ax.set_xlabel("points in the deal")
    axes[0].set_ylabel("share of deals")
    axes[0].legend()
    fig.tight_layout()
    return fig


def plot_elder_edge(table: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Elder's edge per deal, in total and split into declarations and play, by variant with 95%
    intervals (``overview``'s table); draws into ``ax`` if given, else a new figure; returns the
    figure."""
    from analysis.plots import axes_for

    variants = table.attrs["variants"]
    w = 0.8 / len(variants)
    fig, ax, new = axes_for(ax, (7, 4))
    parts = ("elder_minus_younger", "elder_edge_declarations", "elder_edge_play")
    rows = table.set_index("statistic").loc[list(parts)]
    xs = np.arange(len(parts))
    for i, v in enumerate(variants):
        err = np.vstack([rows[v] - rows[f"{v}_lo"], rows[f"{v}_hi"] - rows[v]])
        ax.bar(xs + i * w - 0.4 + w / 2, rows[v], w, yerr=err, capsize=3, label=v)
    ax.set_xticks(xs, ["total", "declarations", "play"])
    ax.set_ylabel("elder minus younger, points per deal")
    ax.set_title("Elder's edge per deal, split (95% intervals)")
    ax.axhline(0, color="black", lw=0.5)
    ax.legend()
    if new:
        fig.tight_layout()
    return fig


def overview_figures(table: pd.DataFrame, distribution: pd.DataFrame, stem: str) -> list[str]:
    """Score distribution and elder's edge by variant, as PNG and SVG; returns the paths
    (``stem_scores.*``, ``stem_edge.*``). The figures are ``plot_score_distribution`` and
    ``plot_elder_edge``."""
    from analysis.plots import headless, save_figure

    headless()
    return (save_figure(plot_score_distribution(distribution, table.attrs["variants"]), f"{stem}_scores")
            + save_figure(plot_elder_edge(table), f"{stem}_edge"))

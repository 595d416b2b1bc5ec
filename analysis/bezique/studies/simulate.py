"""Named Bezique studies: a spec in, a dict out (``salon simulate bezique``).

Every study plays the numba kernel through ``analysis.runner`` and turns its integer tallies into
estimates with ``analysis.stats``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.bezique.engine.layout import (
    G_DEALS,
    G_DEALS_SQ,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_IN_STOCK,
    G_UNDECIDED,
    T_BRISQUE,
    T_BRISQUE_SQ,
    T_DEALER,
    T_DEALER_SQ,
    T_DEALS,
    T_ELDER,
    T_ELDER_SQ,
    T_EXCHANGES,
    T_LAST,
    T_LAST_SQ,
    T_MELD_DEALS,
    T_NET,
    T_NET_SQ,
    T_SEVEN,
    T_SEVEN_SQ,
    T_TURN_UP_SEVEN,
)
from analysis.bezique.play.game import games_block
from analysis.bezique.play.tallies import deals_block
from analysis.bezique.policies import HeuristicPolicy, RandomPolicy
from analysis.bezique.reference.melds import KINDS
from analysis.bezique.rules import VARIANTS, BeziqueRules, get_rules
from analysis.provenance import provenance
from analysis.results import Result, simulation
from analysis.runner import run_tallies
from analysis.stats import Estimate, mean_from_sums, proportion

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Policy = HeuristicPolicy | RandomPolicy

MELD_NAMES = {"marriage": "common_marriage", "sequence": "trump_sequence"}
"""Public names of meld kinds where they differ from the reference's."""


def simulate_deals(n: int, seed: int = 0, rules: BeziqueRules | None = None, elder: Policy | None = None,
                   dealer: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> Result:
    """Play n independent deals; summary statistics (the JSON contract of ``salon simulate``)."""
    rules = rules or get_rules()
    elder = elder or HeuristicPolicy()
    dealer = dealer or elder
    t = run_tallies(deals_block, (rules.to_array(), elder.to_array(), dealer.to_array()), n, seed,
                    chunk=1 << 9, threads=threads, quiet=quiet)
    return simulation(provenance("bezique", rules, {"elder": elder.describe(), "dealer": dealer.describe()}, n, seed,
                                 mode="deals"), deal_stats(t), t)


def deal_stats(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from a deals_block tally vector."""
    n = int(t[T_DEALS])

    def both(slot):
        return int(t[slot] + t[slot + 1])

    stats = {
        "points_per_deal_elder": mean_from_sums(int(t[T_ELDER]), int(t[T_ELDER_SQ]), n),
        "points_per_deal_dealer": mean_from_sums(int(t[T_DEALER]), int(t[T_DEALER_SQ]), n),
        "elder_minus_dealer": mean_from_sums(int(t[T_NET]), int(t[T_NET_SQ]), n),
        "brisque_points": mean_from_sums(both(T_BRISQUE), int(t[T_BRISQUE_SQ]), n),
        "last_trick_points": mean_from_sums(both(T_LAST), int(t[T_LAST_SQ]), n),
        "seven_points": mean_from_sums(both(T_SEVEN), int(t[T_SEVEN_SQ]), n),
        "turnup_seven": proportion(int(t[T_TURN_UP_SEVEN]), n),
        "seven_exchanged": proportion(int(t[T_EXCHANGES]), n),
    }
    for k, kind in enumerate(KINDS):
        stats[MELD_NAMES.get(kind, kind)] = proportion(int(t[T_MELD_DEALS + k]), n)
    return stats


def simulate_games(n: int, seed: int = 0, rules: BeziqueRules | None = None, player_a: Policy | None = None,
                   player_b: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> Result:
    """Play n games to the target (player B deals first); game statistics."""
    rules = rules or get_rules()
    player_a = player_a or HeuristicPolicy()
    player_b = player_b or player_a
    t = run_tallies(games_block, (rules.to_array(), player_a.to_array(), player_b.to_array()), n, seed,
                    chunk=1 << 5, threads=threads, quiet=quiet, desc="games")
    games = int(t[G_GAMES])
    stats = {
        "deals_per_game": mean_from_sums(int(t[G_DEALS]), int(t[G_DEALS_SQ]), games),
        "dealer_first_wins": proportion(int(t[G_FIRST_DEALER_WINS]), games),
        "undecided": proportion(int(t[G_UNDECIDED]), games),
        "ended_in_stock_phase": proportion(int(t[G_IN_STOCK]), games),
    }
    return simulation(provenance("bezique", rules, {"a": player_a.describe(), "b": player_b.describe()}, n, seed,
                                 mode="games"), stats, t)


OVERVIEW_STATS = {
    "points": ("points_per_deal_elder", "points_per_deal_dealer", "elder_minus_dealer"),
    "sevens": ("seven_points", "turnup_seven", "seven_exchanged"),
    "invariant": ("brisque_points", "last_trick_points"),
    "meld": tuple(MELD_NAMES.get(k, k) for k in KINDS),
}
"""The per-deal statistics of the overview, by group (``meld``: share of deals the kind was laid in)."""

GAME_STATS = ("deals_per_game", "dealer_first_wins", "ended_in_stock_phase", "undecided")

INVARIANTS = {"brisque_points": 160, "last_trick_points": 10}
"""Points every deal must score exactly (docs/rules.md invariants): four aces and four tens per pack, two
packs, 10 each; and the last trick's 10."""


def overview(n: int, seed: int = 0, variants: tuple[str, ...] = tuple(VARIANTS), policy: Policy | None = None, *,
             games: int = 0, threads: int | None = None, quiet: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-deal statistics and meld rates, and whole games to the target, the variants side by side.

    The same seed deals the same cards under every variant. Returns (deal table: one row per
    statistic with its ``group`` (OVERVIEW_STATS), value and interval columns per variant; game
    table: one row per GAME_STATS entry, empty columns when ``games`` is 0)."""
    import pandas as pd

    policy = policy or HeuristicPolicy()
    rows = {name: {"group": group, "statistic": name} for group, names in OVERVIEW_STATS.items() for name in names}
    game_rows = {name: {"statistic": name} for name in GAME_STATS}
    for v in variants:
        rules = get_rules(v)
        stats = simulate_deals(n, seed, rules, policy, threads=threads, quiet=quiet)["stats"]
        for name, row in rows.items():
            row.update(_cells(v, stats[name]))
        if games:
            gstats = simulate_games(games, seed, rules, policy, threads=threads, quiet=quiet)["stats"]
            for name, row in game_rows.items():
                row.update(_cells(v, gstats[name]))
    table = pd.DataFrame(list(rows.values()))
    game_table = pd.DataFrame(list(game_rows.values()))
    attrs = {"deals": n, "games": games, "seed": seed, "variants": list(variants), "policy": policy.describe(),
             "target": {v: get_rules(v).target for v in variants},
             "caption": "Bezique per-deal statistics by variant (heuristic players, 95% intervals)."}
    table.attrs.update(attrs)
    game_table.attrs.update({**attrs, "caption": "Bezique games to the target by variant (player B deals "
                                                 "first; heuristic players, 95% intervals)."})
    return table, game_table


def _cells(variant: str, est: dict) -> dict:
    lo, hi = est["ci95"]
    return {variant: est["value"], f"{variant}_lo": lo, f"{variant}_hi": hi}


def invariant_checks(table: pd.DataFrame) -> list[dict]:
    """Per variant and INVARIANTS entry: the mean, the interval and whether every deal scored
    exactly the required points (mean equal to it and zero spread: a zero-width interval)."""
    by_name = table.set_index("statistic")
    out = []
    for name, required in INVARIANTS.items():
        for v in table.attrs["variants"]:
            r = by_name.loc[name]
            value, lo, hi = float(r[v]), float(r[f"{v}_lo"]), float(r[f"{v}_hi"])
            out.append({"name": name, "variant": v, "required": required, "value": value, "lo": lo, "hi": hi,
                        "holds": bool(value == lo == hi == required)})
    return out


def _interval_bars(ax: Axes, table: pd.DataFrame, names, horizontal: bool = False) -> np.ndarray:
    """One bar per variant for each statistic in ``names``, with its 95% interval; the positions."""
    variants = table.attrs["variants"]
    w = 0.8 / len(variants)
    xs = np.arange(len(names))
    rows = table.set_index("statistic").loc[list(names)]
    for i, v in enumerate(variants):
        err = np.vstack([rows[v] - rows[f"{v}_lo"], rows[f"{v}_hi"] - rows[v]])
        pos = xs + i * w - 0.4 + w / 2
        if horizontal:
            ax.barh(pos, rows[v], w, xerr=err, capsize=2, label=v)
        else:
            ax.bar(pos, rows[v], w, yerr=err, capsize=3, label=v)
    return xs


def plot_meld_rates(table: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """The share of deals in which each meld is laid, by variant with 95% intervals (``overview``'s
    table); draws into ``ax`` if given, else a new figure; returns the figure."""
    from analysis.plots import axes_for

    fig, ax, new = axes_for(ax, (8, 4.5))
    melds = OVERVIEW_STATS["meld"]
    ys = _interval_bars(ax, table, melds, horizontal=True)
    ax.set_yticks(ys, [m.replace("_", " ") for m in melds])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of deals in which the meld is laid (either player)")
    ax.set_title(f"Bezique melds per deal, {table.attrs['deals']:,} deals per variant (95% intervals)")
    ax.legend(loc="center right")
    if new:
        fig.tight_layout()
    return fig


def plot_points(table: pd.DataFrame) -> Figure:
    """Points per deal (elder, dealer, sevens) and elder's edge, by variant with 95% intervals
    (``overview``'s table): a new figure of two panels, returned."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [3, 1]})
    xs = _interval_bars(axes[0], table, ("points_per_deal_elder", "points_per_deal_dealer", "seven_points"))
    axes[0].set_xticks(xs, ["elder", "dealer", "sevens (both)"])
    axes[0].set_ylabel("points per deal")
    axes[0].set_title("Points per deal (95% intervals)")
    axes[0].legend()
    xs = _interval_bars(axes[1], table, ("elder_minus_dealer",))
    axes[1].set_xticks(xs, ["elder − dealer"])
    axes[1].set_ylabel("points per deal")
    axes[1].axhline(0, color="black", lw=0.5)
    axes[1].set_title("Elder's edge")
    fig.tight_layout()
    return fig


def overview_figures(table: pd.DataFrame, stem: str) -> list[str]:
    """Meld rates per kind and points per deal by variant with 95% interval bars, as PNG and SVG;
    returns the paths (``stem_melds.*``, ``stem_points.*``). The figures are ``plot_meld_rates``
    and ``plot_points``."""
    from analysis.plots import headless, save_figure

    headless()
    return (save_figure(plot_meld_rates(table), f"{stem}_melds")
            + save_figure(plot_points(table), f"{stem}_points"))

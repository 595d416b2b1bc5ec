"""Named Écarté studies: a spec in, a dict or pandas DataFrame (and figure) out.

Every study plays the numba kernel through ``analysis.runner`` and turns its integer tallies
into estimates with ``analysis.stats``. Options compared inside a study are played on the same
deals with the same random streams (common random numbers), so differences are paired.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis import __version__
from analysis.cards import parse_card, parse_cards
from analysis.ecarte.engine.layout import (
    C_A_NET,
    C_A_NET_SQ,
    C_A_WINS,
    C_B_NET,
    C_B_NET_SQ,
    C_B_REFUSED,
    C_B_WINS,
    C_DIFF,
    C_DIFF_SQ,
    C_N,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_HANDS,
    G_HANDS_SQ,
    T_DEALER_POINTS,
    T_DEALER_POINTS_SQ,
    T_DEALER_REFUSES,
    T_DEALER_VOLE,
    T_ELDER_DEALT_TRUMP_KING,
    T_ELDER_POINTS,
    T_ELDER_POINTS_SQ,
    T_ELDER_PROPOSES,
    T_ELDER_TRUMPS,
    T_ELDER_VOLE,
    T_ELDER_WINS_POINT,
    T_HANDS,
    T_NET,
    T_NET_SQ,
    T_ONE_TRUMP,
    T_ONE_TRUMP_DEALER_TWO_PLUS,
    T_PLAYED_WITHOUT_PROPOSING,
    T_TURNUP_KING,
    T_VOLE,
)
from analysis.ecarte.play.game import games_block
from analysis.ecarte.play.paired import CLASS_SHIFT, cells_block, class_block, fixed_hand_block, pair_block
from analysis.ecarte.play.tallies import hand_tallies, hands_block
from analysis.ecarte.policies import HeuristicPolicy, RandomPolicy
from analysis.ecarte.rules import EcarteRules, code_of, get_rules
from analysis.errors import InputError
from analysis.provenance import provenance as _provenance
from analysis.results import Result, estimates_frame, simulation
from analysis.runner import run_tallies
from analysis.stats import Estimate, mean_from_sums, paired_difference, proportion

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Policy = HeuristicPolicy | RandomPolicy


# ---------------------------------------------------------------- hand classes (the table's rows)
def _feasible_classes() -> list[tuple[int, int, int]]:
    out = []
    for trumps in range(6):
        for king in (0, 1):
            for plain_kings in range(4):
                if king and not trumps:
                    continue
                if trumps + plain_kings > 5:
                    continue
                out.append((trumps, king, plain_kings))
    return out


CLASSES: list[tuple[int, int, int]] = _feasible_classes()
"""Hand classes: (trumps held, trump king held, non-trump kings held)."""

CLASS_IDS = np.full((6, 2, 4), -1, dtype=np.int64)
for _i, (_t, _k, _p) in enumerate(CLASSES):
    CLASS_IDS[_t, _k, _p] = _i


def class_label(c: int) -> str:
    """A class printed as e.g. ``2T+K, 1 plain K``."""
    trumps, king, plain = CLASSES[c]
    return f"{trumps}T{'+K' if king else ''}, {plain} plain K"


def _need_positive(n: int, what: str) -> None:
    if n < 1:
        raise InputError(f"{what} must be positive, not {n}")


# ---------------------------------------------------------------------------- simulate
def provenance(rules: EcarteRules, policies: dict, n: int, seed: int, **extra) -> dict:
    """What every Écarté result records (analysis.provenance)."""
    return _provenance("ecarte", rules, policies, n, seed, **extra)


def simulate_hands(n: int, seed: int = 0, rules: EcarteRules | None = None, elder: Policy | None = None,
                   dealer: Policy | None = None, *, threads: int | None = None, chunk: int = 1 << 14,
                   quiet: bool = True) -> Result:
    """Play n independent hands; summary statistics (JSON contract of ``salon simulate``)."""
    rules = rules or get_rules()
    elder = elder or HeuristicPolicy()
    dealer = dealer or elder
    t = hand_tallies(run_tallies(hands_block, (rules.to_array(), elder.to_array(), dealer.to_array()), n,
                                   seed, chunk=chunk, threads=threads, quiet=quiet, desc="hands"))
    return simulation(provenance(rules, {"elder": elder.describe(), "dealer": dealer.describe()}, n, seed),
                      hand_stats(t), t)


def hand_stats(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from a hands_block tally vector."""
    n = int(t[T_HANDS])
    p = lambda k: proportion(int(t[k]), n)  # noqa: E731
    one = int(t[T_ONE_TRUMP])
    stats = {
        "turnup_king": p(T_TURNUP_KING),
        "elder_dealt_trump_king": p(T_ELDER_DEALT_TRUMP_KING),
        "elder_wins_point": p(T_ELDER_WINS_POINT),
        "vole": p(T_VOLE),
        "elder_vole": p(T_ELDER_VOLE),
        "dealer_vole": p(T_DEALER_VOLE),
        "elder_proposes": p(T_ELDER_PROPOSES),
        "dealer_refuses": p(T_DEALER_REFUSES),
        "played_without_proposing": p(T_PLAYED_WITHOUT_PROPOSING),
        "elder_points_per_hand": mean_from_sums(int(t[T_ELDER_POINTS]), int(t[T_ELDER_POINTS_SQ]), n),
        "dealer_points_per_hand": mean_from_sums(int(t[T_DEALER_POINTS]), int(t[T_DEALER_POINTS_SQ]), n),
        "net_points_per_hand": mean_from_sums(int(t[T_NET]), int(t[T_NET_SQ]), n),
        "dealer_two_plus_trumps_given_elder_one": proportion(int(t[T_ONE_TRUMP_DEALER_TWO_PLUS]), one),
    }
    for k in range(6):
        stats[f"elder_dealt_{k}_trumps"] = p(T_ELDER_TRUMPS + k)
    return stats


def simulate_games(n: int, seed: int = 0, rules: EcarteRules | None = None, player_a: Policy | None = None,
                   player_b: Policy | None = None, *, threads: int | None = None, chunk: int = 1 << 12,
                   quiet: bool = True) -> Result:
    """Play n games to the target (player B deals first); game statistics."""
    rules = rules or get_rules()
    player_a = player_a or HeuristicPolicy()
    player_b = player_b or player_a
    t = run_tallies(games_block, (rules.to_array(), player_a.to_array(), player_b.to_array()), n, seed,
                    chunk=chunk, threads=threads, quiet=quiet, desc="games")
    games = int(t[G_GAMES])
    stats = {
        "first_dealer_wins": proportion(int(t[G_FIRST_DEALER_WINS]), games),
        "hands_per_game": mean_from_sums(int(t[G_HANDS]), int(t[G_HANDS_SQ]), games),
    }
    return simulation(provenance(rules, {"a": player_a.describe(), "b": player_b.describe()}, n, seed, mode="games"),
                      stats, t)


# ------------------------------------------------------------------ paired comparisons
def compare_rows(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from one comparison row (configuration a against b on the same deals)."""
    n = int(t[C_N])
    return {
        "a": mean_from_sums(int(t[C_A_NET]), int(t[C_A_NET_SQ]), n),
        "b": mean_from_sums(int(t[C_B_NET]), int(t[C_B_NET_SQ]), n),
        "difference": paired_difference(int(t[C_DIFF]), int(t[C_DIFF_SQ]), n),
        "a_point": proportion(int(t[C_A_WINS]), n),
        "b_point": proportion(int(t[C_B_WINS]), n),
    }


def configurations(a: tuple, b: tuple) -> np.ndarray:
    """The kernels' (4, slots) array of two configurations ``(elder array, dealer array)``."""
    return np.stack([a[0], a[1], b[0], b[1]])


def play_or_propose(policy: Policy) -> np.ndarray:
    """Configurations a = elder plays without proposing, b = elder proposes; the rest by ``policy``."""
    return configurations((policy.to_array(force_first=0), policy.to_array()),
                          (policy.to_array(force_first=1), policy.to_array()))


def compare_configurations(n: int, seed: int, rules: EcarteRules, cfg: np.ndarray, *,
                           threads: int | None = None, quiet: bool = True) -> dict[str, Estimate]:
    """Elder's net points per hand under the two configurations of ``cfg`` (see ``configurations``),
    paired."""
    t = run_tallies(pair_block, (rules.to_array(), cfg), n, seed, threads=threads,
                    quiet=quiet, desc="pairs")
    return compare_rows(t)


def parse_elder_hand(hand: str, turnup: str) -> tuple[np.ndarray, int]:
    """Elder's five cards and the turn-up as Écarté codes; the turn-up may not be in the hand."""
    cards = parse_cards(hand, count=5)
    up = parse_card(turnup)
    if up in cards:
        raise InputError(f"the turn-up {turnup!r} is in the hand")
    return np.array([code_of(c) for c in cards], dtype=np.int64), code_of(up)


def propose_hand(hand: str, turnup: str, samples: int = 20_000, seed: int = 0,
                 rules: EcarteRules | None = None, policy: Policy | None = None, *,
                 threads: int | None = None, quiet: bool = True) -> Result:
    """Play without proposing against proposing, for one elder hand, on the same sampled deals.

    The unseen 26 cards are dealt at random (dealer's five, then the stock); the dealer answers by
    ``policy`` and both exchange by it. Net = elder's points minus the dealer's, per hand.
    """
    _need_positive(samples, "--samples")
    rules = rules or get_rules()
    policy = policy or HeuristicPolicy()
    codes, up = parse_elder_hand(hand, turnup)
    args = (codes, up, rules.to_array(), play_or_propose(policy))
    t = run_tallies(fixed_hand_block, args, samples, seed, chunk=1 << 12, threads=threads, quiet=quiet,
                    desc="samples")
    est = compare_rows(t)
    diff = est["difference"]
    recommendation = "propose" if diff.value > 0 else "play"
    n = int(t[C_N])
    res = {
        **provenance(rules, {"elder": policy.describe(), "dealer": policy.describe()}, samples, seed,
                     hand=hand, turnup=turnup),
        "play": est["a"].to_dict(), "propose": est["b"].to_dict(), "difference": diff.to_dict(),
        "play_point": est["a_point"].to_dict(), "propose_point": est["b_point"].to_dict(),
        "dealer_refuses": proportion(int(t[C_B_REFUSED]), n).to_dict(),
        "recommendation": recommendation,
        "clear": bool(diff.lo > 0 or diff.hi < 0),
        "source": "simulation",
        "opponent": "the heuristic dealer (refuses from hand strength "
                    f"{getattr(policy, 'dealer_refuse_threshold', '?')}); play: the heuristic's",
    }
    table = estimates_frame({"play without proposing": est["a"], "propose": est["b"], "propose minus play": diff},
                            index="option")
    table["p_point"] = [est["a_point"].value, est["b_point"].value, float("nan")]
    return Result(res, table, title=f"Écarté: elder holds {hand}, turn-up {turnup}: play or propose?")


# ------------------------------------------------------------------ the propose table
def propose_table(deals_per_class: int = 20_000, seed: int = 0, rules: EcarteRules | None = None,
                  policy: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> pd.DataFrame:
    """For every hand class: P(point) and net points playing and proposing, and the better choice.

    Each class gets ``deals_per_class`` deals drawn from the uniform deal conditioned on elder's
    hand falling in the class (rejection sampling). Play behind it: ``policy`` for both players.
    """
    _need_positive(deals_per_class, "--deals-per-class")
    rules = rules or get_rules()
    policy = policy or HeuristicPolicy()
    from analysis.runner import run_ranges

    ranges = [(c << CLASS_SHIFT, deals_per_class) for c in range(len(CLASSES))]
    per_class = run_ranges(class_block, (CLASS_IDS, rules.to_array(), play_or_propose(policy)), ranges, seed,
                           chunk=2048, threads=threads, quiet=quiet, desc="deals")
    return _table_frame(per_class, rules, policy, seed)


def _table_frame(per_class: np.ndarray, rules: EcarteRules, policy: Policy, seed: int) -> pd.DataFrame:
    records = []
    for c, (trumps, king, plain) in enumerate(CLASSES):
        est = compare_rows(per_class[c])
        diff = est["difference"]
        records.append({
            "class": class_label(c), "trumps": trumps, "trump_king": bool(king), "plain_kings": plain,
            "n": int(per_class[c, C_N]),
            "p_point_play": est["a_point"].value, "p_point_play_lo": est["a_point"].lo,
            "p_point_play_hi": est["a_point"].hi,
            "p_point_propose": est["b_point"].value,
            "net_play": est["a"].value, "net_play_lo": est["a"].lo, "net_play_hi": est["a"].hi,
            "net_propose": est["b"].value, "net_propose_lo": est["b"].lo, "net_propose_hi": est["b"].hi,
            "propose_minus_play": diff.value, "diff_lo": diff.lo, "diff_hi": diff.hi,
            "better": "propose" if diff.value > 0 else "play",
            "clear": bool(diff.lo > 0 or diff.hi < 0),
        })
    import pandas as pd

    df = pd.DataFrame.from_records(records)
    df.attrs.update({"rules": rules.name, "switches": rules.switches(), "policy": policy.describe(),
                     "seed": seed, "version": __version__,
                     "caption": "Heuristic play (docs/ecarte-engine.md) for both players; not search play."})
    return df


def plot_propose_table(df: pd.DataFrame, ax: Axes | None = None) -> Figure:
    """Net points of proposing minus playing by hand class, with 95% intervals (``propose_table``'s
    table); draws into ``ax`` if given, else a new figure; returns the figure."""
    from analysis.plots import axes_for

    d = df.sort_values(["trumps", "trump_king", "plain_kings"])
    fig, ax, new = axes_for(ax, (8, 9))
    y = np.arange(len(d))
    colors = ["tab:blue" if b == "propose" else "tab:red" for b in d["better"]]
    ax.errorbar(d["propose_minus_play"], y, xerr=[d["propose_minus_play"] - d["diff_lo"],
                d["diff_hi"] - d["propose_minus_play"]], fmt="none", ecolor="grey")
    ax.scatter(d["propose_minus_play"], y, c=colors, zorder=3)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, d["class"])
    ax.set_xlabel("net points per hand: propose minus play (blue: propose better, red: play better)")
    ax.set_title(f"Écarté elder: propose or play, by hand class ({df.attrs.get('rules', '')})\n"
                 f"{df.attrs.get('caption', '')}", fontsize=9)
    if new:
        fig.tight_layout()
    return fig


def propose_table_figure(df: pd.DataFrame, path_stem: str) -> list[str]:
    """Figure of the table: net points of proposing minus playing by class, with 95% intervals, as
    PNG and SVG; returns the paths. The figure is ``plot_propose_table``."""
    from analysis.plots import headless, save_figure

    headless()
    return save_figure(plot_propose_table(df), path_stem, dpi=110)


# ------------------------------------------------------------------ cells (tips)
def cell_tallies(n: int, seed: int, rules: EcarteRules, cfg: np.ndarray, *, by_dealer: bool = False,
                 threads: int | None = None, quiet: bool = True) -> pd.DataFrame:
    """Paired a/b tallies per cell (class, sure winners, holds 10-9-8) over n random deals."""
    args = (CLASS_IDS, len(CLASSES), by_dealer, rules.to_array(), cfg)
    t = run_tallies(cells_block, args, n, seed, chunk=1 << 14, threads=threads, quiet=quiet, desc="deals")
    cells = []
    for c in range(len(CLASSES)):
        for sw in range(6):
            for t98 in (0, 1):
                row = t[(c * 6 + sw) * 2 + t98]
                cells.append({"class": c, "sure_winners": sw, "ten_nine_eight": bool(t98),
                              **{name: int(row[i]) for i, name in enumerate(COMPARE_FIELDS)}})
    import pandas as pd

    return pd.DataFrame.from_records(cells)


COMPARE_FIELDS = ["n", "a_wins", "a_net", "a_net_sq", "b_wins", "b_net", "b_net_sq", "diff", "diff_sq",
                  "a_vole", "b_vole", "b_refused", "b_proposed"]

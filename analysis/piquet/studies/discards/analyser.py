"""The discard analyser: every legal exchange of one Piquet hand, played on the same sampled
deals (common random numbers), raced to a decision, with the exact declaration odds of each.

``analyse_hand`` is the Python API (a DataFrame of all options); ``salon piquet discard`` prints
it. The sampling, the racing rule and the exact enumeration are written down in
docs/piquet-engine.md ("Discard analyser").
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from analysis.cards import parse_cards
from analysis.errors import InputError
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import RANK_NAMES, PiquetRules, get_rules, mask_of, name_of
from analysis.stats import confidence_sequence_halfwidth

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SEATS = ("elder", "younger")
FLAG_COLUMNS = (("p_point", 1), ("p_sequences", 2), ("p_sets", 4), ("p_repique", 8), ("p_pique", 16),
                ("p_capot", 32), ("p_cards", 64))


def parse_hand(text: str, lang: str | None = None) -> int:
    """A 12-card hand (any spelling of analysis.cards) as a mask; errors name the bad token."""
    return mask_of(parse_cards(text, count=12, lang=lang))


def exchange_bounds(seat: str, rules: PiquetRules, elder_took: int = 5) -> tuple[int, int]:
    """Least and most cards the seat may exchange (PQ-EX-E, PQ-EX-Y)."""
    if seat not in SEATS:
        raise InputError(f"seat must be elder or younger, not {seat!r}")
    if seat == "elder":
        return 1, 5
    if not 1 <= elder_took <= 5:
        raise InputError(f"--elder-took must be between 1 and 5 (PQ-EX-E), not {elder_took}")
    return rules.younger_bounds(elder_took)


def legal_options(hand: int, seat: str, rules: PiquetRules, elder_took: int = 5) -> np.ndarray:
    """Every legal discard of the hand as masks: by number of cards, then lexicographically by code."""
    lo, hi = exchange_bounds(seat, rules, elder_took)
    codes = [c for c in range(32) if hand >> c & 1]
    out = [sum(1 << c for c in combo) for k in range(lo, hi + 1) for combo in itertools.combinations(codes, k)]
    return np.array(out, dtype=np.int64)


def card_names(mask: int) -> list[str]:
    return [name_of(c) for c in range(32) if mask >> c & 1]


# --------------------------------------------------------------------------------- sampling
@dataclass
class Round:
    """One racing round: the deals it played and the options still in the race."""

    start: int
    n: int
    options: np.ndarray  # option indices played in this round, ascending
    net: np.ndarray  # (n, len(options)) int16: my score minus the opponent's
    flags: np.ndarray  # (n, len(options)) int8: the F_* bits of studies/discards/kernel


@dataclass
class Sums:
    """Per option, over the deals it played: n, Σx, Σx² of the net score, Σd and Σd² of the paired
    difference d = x - x_ref to a reference option (which played every deal), and flag counts."""

    n: np.ndarray
    s: np.ndarray
    q: np.ndarray
    d: np.ndarray
    dd: np.ndarray
    flags: np.ndarray  # (options, len(FLAG_COLUMNS))

    def means(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.s / self.n


@dataclass
class Race:
    """All rounds of an analysis; an option's deals are the first ``n`` sampled deals, for the n it
    played (options only ever leave the race)."""

    n_options: int
    rounds: list[Round] = field(default_factory=list)

    def column(self, o: int, what: str = "net") -> np.ndarray:
        """An option's per-deal values (``net`` or ``flags``) over the rounds it played, in deal order."""
        parts = []
        for r in self.rounds:
            pos = np.searchsorted(r.options, o)
            if pos < len(r.options) and r.options[pos] == o:
                parts.append(getattr(r, what)[:, pos])
        return np.concatenate(parts)

    def sums(self, ref: int | None = None, block: int = 2_000) -> Sums:
        """Sums of every option, differences against option ``ref`` (vectorised over options)."""
        k = self.n_options
        out = Sums(np.zeros(k, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64),
                   np.zeros(k, np.int64), np.zeros((k, len(FLAG_COLUMNS)), np.int64))
        for r in self.rounds:
            cols = r.options
            out.n[cols] += r.n
            pos = np.searchsorted(cols, ref) if ref is not None else 0
            for a in range(0, r.n, block):
                x = r.net[a:a + block].astype(np.int64)
                out.s[cols] += x.sum(axis=0)
                out.q[cols] += (x * x).sum(axis=0)
                if ref is not None:
                    dx = x - x[:, pos:pos + 1]
                    out.d[cols] += dx.sum(axis=0)
                    out.dd[cols] += (dx * dx).sum(axis=0)
                f = r.flags[a:a + block]
                for j, (_, bit) in enumerate(FLAG_COLUMNS):
                    out.flags[cols, j] += ((f & bit) != 0).sum(axis=0)
        return out


def _play_round(race: Race, alive: np.ndarray, start: int, n: int, hand: int, younger: bool,
                options: np.ndarray, rules: PiquetRules, pe: np.ndarray, py: np.ndarray, seed: int, bar=None) -> None:
    """Play the options ``alive`` on deals start..start+n-1 and add the round to ``race``. A big
    round with a live progress ``bar`` (counting deals) is played in blocks, the bar moving after
    each (the same numbers: deal i depends on the seed and i alone)."""
    from analysis.piquet.studies.discards.kernel import options_block

    codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
    unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
    import numba

    live = bar is not None and not bar.disable and n * len(alive) >= 200_000
    block = max(16, -(-n // 8)) if live else n
    nets, flag_parts = [], []
    # Static scheduling here: with numba's dynamic chunk size of 1 (analysis.runner) this kernel
    # runs two to three times slower under the OpenMP layer (measured; the results are the same).
    with numba.parallel_chunksize(0):
        for a in range(start, start + n, block):
            m = min(block, start + n - a)
            net, flags = options_block(seed, a, m, codes, unseen, younger, options[alive], rules.to_array(), pe,
                                       py, max(1, min(64, m // 16)))
            nets.append(net)
            flag_parts.append(flags)
            if bar is not None:
                bar.update(m)
    net = nets[0] if len(nets) == 1 else np.concatenate(nets)
    flags = flag_parts[0] if len(flag_parts) == 1 else np.concatenate(flag_parts)
    race.rounds.append(Round(start, n, alive.copy(), net, flags))


def _mean_intervals(total: np.ndarray, total_sq: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Means and 95% t half-widths from integer sums, for many options at once (as
    analysis.stats.mean_from_sums; exact integer variance numerators)."""
    from scipy import stats

    n = n.astype(np.float64)
    num = n * total_sq.astype(np.float64) - total.astype(np.float64) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        half = stats.t.ppf(0.975, np.maximum(n - 1, 1)) * np.sqrt(np.maximum(num, 0) / (n * n * (n - 1)))
    return mean, np.where(n > 1, half, np.nan)


# ---------------------------------------------------------------------------------- analysis
@dataclass
class DiscardAnalysis:
    """The result: ``table`` (one row per option, best first), the racing rounds and the spec;
    ``options`` are the discard masks (the table's ``option`` column indexes them)."""

    table: object  # pandas DataFrame
    rounds: list[dict]
    spec: dict
    hand: int
    options: np.ndarray
    race: Race

    def row(self, mask: int):
        """The table row of the option throwing ``mask``."""
        o = int(np.flatnonzero(self.options == mask)[0])
        return self.table[self.table["option"] == o].iloc[0]

    def with_exact(self, rows):
        """``rows`` of the table with their exact declaration odds (column ``exact``)."""
        return rows.assign(exact=exact_table(self.hand, self.options[rows["option"].to_numpy()]))


@dataclass(frozen=True)
class Racing:
    """How ``analyse_hand`` races the options: ``on`` (else every option plays every deal), the
    first round's deals, the race's error rate, the half-width of every survivor's 95% interval
    that stops it early (None: play to the samples), and the options (discard masks) never dropped."""

    on: bool = True
    first_batch: int = 1_000
    alpha: float = 0.05
    target_halfwidth: float | None = None
    keep: tuple[int, ...] = ()


def analyse_hand(hand: str | int, seat: str = "elder", rules: PiquetRules | None = None, *,
                 samples: int = 10_000, race: bool | Racing = True, elder_took: int = 5, seed: int = 0,
                 opponent=None, mine: str | None = None, threads: int | None = None,
                 lang: str | None = None, progress: bool = False) -> DiscardAnalysis:
    """Rank every legal exchange of ``hand`` for ``seat`` on common sampled deals.

    Racing (``race``, a :class:`Racing` or on/off): a first batch of ``first_batch`` deals, then
    rounds that double the deals played; after each round an option is dropped when its paired
    difference to the current leader is below zero by an anytime-valid confidence sequence
    (analysis.stats, at alpha / options², so the best option survives every look with probability
    at least 1 - alpha). The race stops at ``samples`` deals, when one option is left, or when every
    survivor's 95% interval of the net score has half-width at most ``target_halfwidth``. ``mine``
    (a discard) and the race's ``keep`` options are never dropped. ``progress``: a progress bar of
    the deals played. The exact declaration odds are not in the table: ``with_exact(rows)`` adds
    them to the rows shown (they enumerate every draw of each option)."""
    from tqdm.auto import tqdm

    from analysis.blocks import kernel_threads
    from analysis.runner import check_seed

    rules = rules or get_rules()
    racing = race if isinstance(race, Racing) else Racing(bool(race))
    race, first_batch, alpha, target_halfwidth = racing.on, racing.first_batch, racing.alpha, racing.target_halfwidth
    keep = racing.keep
    if samples < 1:
        raise InputError(f"--samples must be positive, not {samples}")
    if target_halfwidth is not None and target_halfwidth <= 0:
        raise InputError(f"--target-halfwidth must be positive, not {target_halfwidth}")
    check_seed(seed)
    hand_mask = parse_hand(hand, lang) if isinstance(hand, str) else int(hand)
    options = legal_options(hand_mask, seat, rules, elder_took)
    younger = seat == "younger"
    mine_index = None
    if mine is not None:
        mine_mask = mask_of(parse_cards(mine, lang=lang))
        if mine_mask & ~hand_mask:
            raise InputError(f"--mine throws cards not in the hand: {' '.join(card_names(mine_mask & ~hand_mask))}")
        hits = np.flatnonzero(options == mine_mask)
        if not len(hits):
            lo, hi = exchange_bounds(seat, rules, elder_took)
            raise InputError(f"--mine is not a legal exchange for {seat}: {lo} to {hi} cards may be thrown")
        mine_index = int(hits[0])
    kept = {int(np.flatnonzero(options == m)[0]) for m in (keep or []) if (options == m).any()}
    if mine_index is not None:
        kept.add(mine_index)
    opponent = opponent or HeuristicPolicy()
    me_policy = HeuristicPolicy()
    if younger:
        pe = opponent.to_array(force_count=elder_took)
        py = me_policy.to_array()
    else:
        pe = me_policy.to_array()
        py = opponent.to_array()
    with kernel_threads(threads):
        state = Race(len(options))
        alive = np.arange(len(options))
        rounds_info = []
        played = 0
        k = len(options)
        bar = tqdm(total=samples, desc=f"heuristic {'race' if race else 'play'}, {len(options):,} exchanges",
                   unit=" deals", unit_scale=True, leave=False, disable=not progress)
        while played < samples:
            n = min(first_batch, samples) if (race and played == 0) else samples - played
            if race and played:
                n = min(played, n)  # rounds double the deals played
            _play_round(state, alive, played, n, hand_mask, younger, options, rules, pe, py, seed, bar)
            played += n
            info = {"round": len(rounds_info) + 1, "deals": played, "options_played": int(len(alive))}
            if race:
                alive = _survivors(state, alive, kept, alpha / (k * k), first_batch * 4)
            info["options_left"] = int(len(alive))
            rounds_info.append(info)
            contenders = [o for o in alive if o not in kept]
            if race and len(contenders) <= 1:
                break
            if target_halfwidth is not None and _max_halfwidth(state, alive) <= target_halfwidth:
                break
        bar.close()

    table = _table(state, options, alive, hand_mask, mine_index, kept)
    spec = {"game": "piquet", "hand": " ".join(card_names(hand_mask)), "seat": seat, "rules": rules.name,
            "switches": rules.switches(), "elder_took": elder_took if younger else None, "samples": samples,
            "deals_played": played, "target_halfwidth": target_halfwidth, "seed": seed, "race": race,
            "alpha": alpha, "legal_exchanges": len(options), "opponent": opponent.describe(),
            "policy": me_policy.describe()}
    table.attrs.update(spec)
    return DiscardAnalysis(table, rounds_info, spec, hand_mask, options, state)


def _survivors(state: Race, alive: np.ndarray, keep_always: set[int], alpha: float, tuned_n: int) -> np.ndarray:
    """The options whose paired difference to the leader is not below zero by the confidence
    sequence (the leader and the options in ``keep_always`` stay)."""
    means = state.sums().means()
    leader = int(alive[np.argmax(means[alive])])
    sm = state.sums(leader)
    n = sm.n[alive].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sm.d[alive] / n
        sd = np.sqrt(np.maximum(n * sm.dd[alive] - sm.d[alive].astype(np.float64) ** 2, 0) / (n * (n - 1)))
    half = confidence_sequence_halfwidth(sd, n, alpha, tuned_n)
    keep = (mean + half >= 0) | (alive == leader) | np.isin(alive, list(keep_always))
    return alive[keep]


def _max_halfwidth(state: Race, alive: np.ndarray) -> float:
    sm = state.sums()
    _, half = _mean_intervals(sm.s[alive], sm.q[alive], sm.n[alive])
    return float(np.nanmax(half))


def _table(state: Race, options: np.ndarray, alive: np.ndarray, hand: int, mine_index: int | None, kept: set[int]):
    """One row per option, best first: survivors by mean net score, then the dropped ones."""
    import pandas as pd

    means = state.sums().means()
    best = int(alive[np.argmax(means[alive])])
    sm = state.sums(best)
    net, net_half = _mean_intervals(sm.s, sm.q, sm.n)
    diff, diff_half = _mean_intervals(sm.d, sm.dd, sm.n)
    diff_half[best] = 0.0
    survived = np.zeros(len(options), dtype=bool)
    survived[alive] = True
    df = pd.DataFrame({
        "discard": [card_names(int(o)) for o in options], "keep": [card_names(hand & ~int(o)) for o in options],
        "cards": [bin(int(o)).count("1") for o in options], "n": sm.n, "net": net, "net_lo": net - net_half,
        "net_hi": net + net_half, "diff_to_best": diff, "diff_lo": diff - diff_half, "diff_hi": diff + diff_half,
        "survived": survived, "mine": np.arange(len(options)) == (-1 if mine_index is None else mine_index),
        "option": np.arange(len(options)),
    })
    for j, (name, _) in enumerate(FLAG_COLUMNS):
        df[name] = sm.flags[:, j] / sm.n
    # Contenders first (options still in the race on their own merit), then the rest by mean net
    # score; options kept in the race only to be graded (--mine, a study's rules) rank among the rest.
    df["contender"] = df["survived"] & ~df["option"].isin(list(kept)) | (df["option"] == best)
    df = df.sort_values(["contender", "net", "option"], ascending=[False, False, True], ignore_index=True)
    df = df.drop(columns="contender")
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


# ------------------------------------------------------------------------------------- exact
def _set_label(key: int) -> str:
    if key == 0:
        return "none"
    return f"{4 if key >= 16 else 3}{RANK_NAMES[key & 7]}"


def exact_table(hand: int, options: np.ndarray) -> list[dict]:
    """The exact declaration odds of each option over every possible draw from the 20 unseen
    cards: point length, best sequence length (0 = none) and best set (e.g. "4A", "3K", "none")."""
    from analysis.piquet.studies.discards.kernel import exact_block

    unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
    m = len(options)
    point = np.zeros((m, 13), dtype=np.int64)
    seq = np.zeros((m, 9), dtype=np.int64)
    sets = np.zeros((m, 24), dtype=np.int64)
    exact_block(np.int64(hand), np.asarray(options, dtype=np.int64), unseen, point, seq, sets)
    out = []
    for o in range(m):
        total = point[o].sum()
        out.append({
            "draws": int(total),
            "point_length": {str(n): float(point[o, n] / total) for n in range(13) if point[o, n]},
            "best_sequence": {str(n): float(seq[o, n] / total) for n in range(9) if seq[o, n]},
            "best_set": {_set_label(key): float(sets[o, key] / total) for key in range(24) if sets[o, key]},
        })
    return out


def option_json(row) -> dict:
    """One table row in the JSON contract of ``salon piquet discard``."""
    out = {"rank": int(row["rank"]), "discard": row["discard"], "keep": row["keep"], "cards": int(row["cards"]),
           "samples": int(row["n"]), "net_score": {"value": row["net"], "ci95": [row["net_lo"], row["net_hi"]]},
           "diff_to_best": {"value": row["diff_to_best"], "ci95": [row["diff_lo"], row["diff_hi"]]},
           "survived": bool(row["survived"])}
    out.update({name: float(row[name]) for name, _ in FLAG_COLUMNS})
    if "exact" in row:
        out["exact"] = row["exact"]
    return out


def grade(table, mine_row) -> dict:
    """How the user's discard compares: its rank and the points it gives up against the best."""
    return {"rank": int(mine_row["rank"]), "of": len(table), "discard": mine_row["discard"],
            "gives_up": {"value": -mine_row["diff_to_best"], "ci95": [-mine_row["diff_hi"], -mine_row["diff_lo"]]},
            "net_score": {"value": mine_row["net"], "ci95": [mine_row["net_lo"], mine_row["net_hi"]]}}


def plot_top_options(table, top: int = 15, ax: Axes | None = None) -> Figure:
    """Expected net score with 95% intervals of the ``top`` best options (``analyse_hand``'s
    table); draws into ``ax`` if given, else a new figure sized to the rows; returns the figure."""
    from analysis.plots import axes_for

    rows = table.head(top)[::-1]
    fig, ax, new = axes_for(ax, (8, 0.35 * len(rows) + 1.5))
    y = np.arange(len(rows))
    ax.errorbar(rows["net"], y, xerr=[rows["net"] - rows["net_lo"], rows["net_hi"] - rows["net"]], fmt="o",
                capsize=3)
    ax.set_yticks(y, [" ".join(d) for d in rows["discard"]], fontsize=8)
    ax.set_xlabel("expected net score per deal (mine minus the opponent's), 95% interval")
    ax.set_title(f"Throw what? {table.attrs.get('seat', '')}, {table.attrs.get('hand', '')}", fontsize=9)
    if new:
        fig.tight_layout()
    return fig


def plot_top(table, path: str, top: int = 15) -> list[str]:
    """Expected net score with 95% intervals of the top options (PNG or SVG by the file's name;
    without a suffix both); returns the paths. The figure is ``plot_top_options``."""
    import os

    from analysis.plots import headless, save_figure

    headless()
    stem, ext = os.path.splitext(path)
    exts = (ext[1:],) if ext in (".png", ".svg") else ("png", "svg")
    return save_figure(plot_top_options(table, top), stem, exts)


def draw_probability(taken: int, named: int, unseen: int = 20, at_least: int = 1) -> float:
    """P(at least ``at_least`` of ``named`` given cards among ``taken`` drawn from ``unseen``):
    the classical odds tables' figure, for checking the enumeration."""
    total = math.comb(unseen, taken)
    hit = sum(math.comb(named, j) * math.comb(unseen - named, taken - j) for j in range(at_least, taken + 1))
    return hit / total


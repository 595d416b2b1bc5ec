"""The report's view of the shipped Écarté equilibrium (analysis/ecarte/studies/equilibrium/study.py): its
certificate, the decisions by trumps, kings and turn-up bucket as a figure and a table, the checks
(search play, second round, discard rule) and, for the classic rules, the Britannica's rules
against it. Reads the shipped tables; computes nothing heavy."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _grid(df, masks, weights, bucket: int, sets) -> np.ndarray:
    """Weighted share of 'yes' (probability) by trumps (rows 0-5) and kings held (columns 0-4)."""
    grid = np.full((6, 5), np.nan)
    sel = sets.bucket[df["info_set"].to_numpy()] == bucket
    m = masks[sel]
    p = df["probability"].to_numpy()[sel]
    w = weights[sel]
    trumps = np.array([bin(int(x) & 0xFF).count("1") for x in m])
    kings = np.array([bin(int(x) & 0x80808080).count("1") for x in m])
    for t in range(6):
        for k in range(5):
            c = (trumps == t) & (kings == k)
            if c.any() and w[c].sum() > 0:
                grid[t, k] = (w[c] * p[c]).sum() / w[c].sum()
    return grid


def plot_equilibrium(df, rules_name: str, summary: dict) -> Figure:
    """Elder's share of hands proposed and the dealer's share of proposals refused, by trumps and
    kings held, one panel per turn-up bucket, on one colour scale (the shipped tables and their
    summary, ``studies.equilibrium.tables.shipped``): a new figure of 2 x 3 panels and a colour bar,
    returned."""
    import matplotlib.pyplot as plt

    from analysis.ecarte.engine import buckets as TB
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands

    sets = info_sets()
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), sharex=True, sharey=True)
    im = None
    for row, (side, title) in enumerate((("elder", "elder proposes"), ("dealer", "dealer refuses a proposal"))):
        t = df[df["side"] == side]
        idx = t["info_set"].to_numpy()
        masks = hands().masks[sets.cls[idx]]
        w = sets.weight[idx] * (t["p_proposal"].to_numpy() if side == "dealer" else 1.0)
        for b in range(TB.N_BUCKETS):
            ax = axes[row, b]
            grid = _grid(t, masks, w, b, sets)
            im = ax.imshow(grid, origin="lower", cmap="coolwarm", vmin=0, vmax=1, aspect="auto")
            for i in range(6):
                for k in range(5):
                    if not np.isnan(grid[i, k]):
                        ax.text(k, i, f"{grid[i, k]:.2f}", ha="center", va="center", fontsize=7)
            ax.set_title(f"{title}\n{TB.BUCKET_NAMES[b]}", fontsize=9)
            if row == 1:
                ax.set_xlabel("kings held (trump king included)")
            if b == 0:
                ax.set_ylabel("trumps held")
    fig.colorbar(im, ax=axes, shrink=0.7, label="share of hands (weighted by how often they occur)")
    fig.suptitle(f"Écarté equilibrium of the first proposal, rules {rules_name} ({summary['budget']} budget, "
                 f"{summary['play_policy']})", fontsize=10)
    return fig


def figure(df, stem: str, rules_name: str, summary: dict) -> list[str]:
    """Elder's share of hands proposed and the dealer's share of proposals refused, by trumps and
    kings held, one panel per turn-up bucket, on one colour scale, as PNG and SVG; returns the
    paths. The figure is ``plot_equilibrium``."""
    from analysis.plots import headless, save_figure

    headless()
    return save_figure(plot_equilibrium(df, rules_name, summary), stem, dpi=100)


def section(out_dir: str, fig_dir: str, rules) -> dict | None:
    """The equilibrium's part of the report for these rules, or None when no tables are shipped."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies import classical
    from analysis.ecarte.studies.equilibrium import tables as T

    got = T.shipped(rules, HeuristicPolicy())
    if got is None:
        return None
    df, summary = got
    stem = os.path.join(fig_dir, f"ecarte_equilibrium_{rules.name}")
    figs = figure(df, stem, rules.name, summary)
    res = {"summary": summary, "figure": os.path.relpath(figs[0], out_dir), "words": words(summary),
           "classical": classical.compare(rules) if rules.name == "classic" else None}
    return res


def words(summary: dict) -> dict:
    """The summary's discards, certificate by score, king's value (EC-T5) and search check with
    reading searchers as sentences for the report's table (None where the summary lacks them)."""
    out = {"discards": None, "by_score_certificate": None, "king": None, "search_reading": None}
    reading = summary.get("search_check_reading")
    if reading:
        out["search_reading"] = "; ".join(
            f"{side}'s sets: value {r['value_reading_minus_plain']['value']:+.4f} "
            f"[{r['value_reading_minus_plain']['ci95'][0]:+.4f}, {r['value_reading_minus_plain']['ci95'][1]:+.4f}] "
            f"against searchers who do not read, decisions' sign agrees with theirs on "
            f"{100 * r['decision_sign_agreement_with_plain']:.1f}% of sets, the solution's extra loss under reading "
            f"search against the tables' own play {r['loss_search_minus_heuristic_plugin']['value']:+.4f} "
            f"[{r['loss_search_minus_heuristic_plugin']['ci95'][0]:+.4f}, "
            f"{r['loss_search_minus_heuristic_plugin']['ci95'][1]:+.4f}]"
            for side, r in ((s, reading[s]) for s in ("elder", "dealer")))
    rule = summary.get("discard_rule")
    if rule:
        check = rule["check_on_other_deals"]
        if rule.get("used_in_tables"):
            out["discards"] = (f"the fitted rule (keep trumps and {rule['chosen_words']}), which gains "
                               f"{check['value']:+.4f} [{check['ci95'][0]:+.4f}, {check['ci95'][1]:+.4f}] points per "
                               "hand and seat over the heuristic's on deals it was not chosen on")
        else:
            out["discards"] = (f"the heuristic's (keep trumps and kings): no pooled rule beat it at 95% (best: keep "
                               f"{rule['chosen_words']})")
    by_score = summary.get("by_score")
    if by_score:
        rows, target = by_score["scores"], summary["target"]
        under = sum(all(r[f"exploitability_{s}_upper"] < target for s in ("elder", "dealer")) for r in rows)
        worst = {s: max(rows, key=lambda r, s=s: r[f"exploitability_{s}_upper"]) for s in ("elder", "dealer")}
        race = by_score.get("race") or []
        out["by_score_certificate"] = (
            f"both sides' held-out exploitability under {target} (95% upper bound) at {under} of {len(rows)} scores; "
            + "; ".join(f"{s}'s largest {worst[s][f'exploitability_{s}_upper']:.5f} at "
                        f"{worst[s]['elder_score']}-{worst[s]['dealer_score']}" for s in ("elder", "dealer"))
            + (f" (every score solved {len(race)} times by the race by score, {by_score['deals']['fit']:,} deals fitted)"
               if len(race) > 1 else ""))
        king = by_score.get("king")
        if king:
            out["king"] = ("announcing the trump king adds at least " + " and ".join(
                f"{king[s]['smallest']:+.4f} [{king[s]['ci95'][0]:+.4f}, {king[s]['ci95'][1]:+.4f}] ({s}, at {king[s]['at']})"
                for s in ("elder", "dealer")) + " to the announcing side's chance of winning the game, per hand "
                "announced, at every score (the players inside the records do not read the announcement)")
    return out

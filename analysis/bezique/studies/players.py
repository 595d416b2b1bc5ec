"""Bezique's players side by side (``salon study bezique players``): the rulebook heuristic,
``tuned``, ``tuned-exact`` (tuned with the exact end game) and the search player, each in
self-play: points per deal, meld rates, games to the target; and each against ``tuned`` on the
same deals in both seats. The search player plays fewer deals (it is about a thousand times
slower); every row says how many."""
from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.bezique.policies import TUNED, get_policy
from analysis.bezique.rules import get_rules
from analysis.bezique.studies.simulate import simulate_deals, simulate_games

if TYPE_CHECKING:
    import pandas as pd

PLAYERS = ("heuristic", "tuned", "tuned-exact", "search")
MELDS = ("trump_sequence", "double_bezique", "bezique", "four_aces", "four_kings", "four_queens", "four_jacks")
EXPERT_DEAL_TOTAL = 1320
"""The one fully annotated expert deal in the literature (docs/classical.md): 730 to 590."""


def players(deals: int, games: int, seed: int = 0, rules: str = "seed-de", *, search_deals: int | None = None,
            search_games: int | None = None, samples: int = 32, threads: int | None = None) -> pd.DataFrame:
    """One row per player: self-play statistics (both seats the same player) with 95% intervals,
    and the net points per deal and seat against ``tuned`` (paired, both seats)."""
    import pandas as pd

    from analysis.bezique.play.compare import compare_tallies
    from analysis.compare import C_BOTH, C_BOTH_SQ
    from analysis.stats import mean_from_sums

    r = get_rules(rules)
    rows = []
    for name in PLAYERS:
        p = get_policy(name, [f"samples={samples}"] if name == "search" else None)
        n = (search_deals or max(2, deals // 1000)) if name == "search" else deals
        g = (search_games or max(1, games // 100)) if name == "search" else games
        st = simulate_deals(n, seed, r, p, threads=threads)["stats"]
        gs = simulate_games(g, seed, r, p, threads=threads)["stats"] if g else {}
        t = compare_tallies(n, seed, r, p, TUNED, threads=threads)
        both = mean_from_sums(int(t[C_BOTH]), int(t[C_BOTH_SQ]), n).to_dict()
        vs = {"value": both["value"] / 2, "ci95": [x / 2 for x in both["ci95"]]}  # per deal and seat
        row = {"player": name, "deals": n, "games": g, "policy": p.describe()}
        for key, est in (("points_per_deal", _mean_of_seats(st)), *((m, st[m]) for m in MELDS),
                         *((k, gs[k]) for k in ("deals_per_game", "ended_in_stock_phase") if gs),
                         ("net_vs_tuned", vs)):
            row[key] = est["value"]
            row[f"{key}_lo"], row[f"{key}_hi"] = est["ci95"]
        rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs.update({"rules": rules, "seed": seed, "samples": samples, "caption": (
        f"Bezique's players in self-play ({rules}; search: {samples} samples a decision, heuristic rollouts, "
        "exact end game), 95% intervals; net points against the tuned heuristic: on the same deals, both seats.")})
    return table


def _mean_of_seats(st: dict) -> dict:
    """Points per deal and player: the mean of elder's and the dealer's (their intervals averaged)."""
    e, d = st["points_per_deal_elder"], st["points_per_deal_dealer"]
    return {"value": (e["value"] + d["value"]) / 2,
            "ci95": [(e["ci95"][0] + d["ci95"][0]) / 2, (e["ci95"][1] + d["ci95"][1]) / 2]}


def players_text(table: pd.DataFrame) -> str:
    """The table in lines: one per player."""
    lines = [table.attrs["caption"]]
    for r in table.to_dict(orient="records"):
        games = (f"; {r['deals_per_game']:.2f} deals a game, {r['ended_in_stock_phase']:.0%} ended in the stock"
                 if "deals_per_game" in r and r["games"] else "")
        lines.append(f"  {r['player']:<14} {r['deals']:>9,} deals: {r['points_per_deal']:6.1f} points a deal; "
                     f"sequence {r['trump_sequence']:.1%}, double bezique {r['double_bezique']:.2%}, four aces "
                     f"{r['four_aces']:.1%}{games}; against tuned {r['net_vs_tuned']:+.1f} "
                     f"[{r['net_vs_tuned_lo']:+.1f}, {r['net_vs_tuned_hi']:+.1f}]")
    return "\n".join(lines)

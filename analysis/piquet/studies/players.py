"""Piquet's players side by side with Cavendish's record of 10,000 expert hands (docs/classical.md):
each player (heuristic, search, dd) plays both seats of the same deals under the ``cavendish``
rules, and the table gives elder's and younger's mean deal score, who wins the cards, pique and
repique, capot, with 95% intervals, and one sentence per row on why it differs
(``salon study piquet players``, the report's Piquet section)."""
from __future__ import annotations

import json

import pandas as pd

from analysis.piquet.engine.layout import T_DEALS, T_PIQUE, T_REPIQUE_ELDER
from analysis.stats import Estimate, proportion

PLAYERS = {
    "heuristic": ("heuristic", []),
    "learned": ("learned", []),
    "search": ("search", []),
    "search (learned exchange)": ("search", ["exchange=learned"]),
    "dd": ("dd", []),
}
"""Each row's player: a policy name and parameters (get_policy). In the parties behind the Rubicon
column the search and dd players play the deciding deal for the partie's margin (``partie=margin``)."""
STATISTICS = (
    ("elder_score", "elder's mean deal score"),
    ("younger_score", "younger's mean deal score"),
    ("cards_elder", "elder wins the cards"),
    ("cards_younger", "younger wins the cards"),
    ("cards_divided", "cards divided"),
    ("pique_elder", "pique or repique, elder (Cavendish's pique)"),
    ("repique_elder", "repique, elder"),
    ("repique_younger", "repique, younger"),
    ("capot", "capot (either player)"),
    ("rubicon", "parties with a rubicon (loser under 100)"),
)
CAVENDISH = {
    "elder_score": 33.6, "younger_score": 18.4, "cards_elder": 0.625, "cards_younger": 0.25,
    "cards_divided": 0.12, "pique_elder": 0.122, "repique_elder": 0.035, "repique_younger": 0.013,
    "rubicon": 0.22,
}
"""Cavendish's figures (docs/classical.md): the means at bin midpoints (rough), the rest from his odds
(elder wins the cards 5 to 3 on, younger nearly 3 to 1 against, divided a little over 7 to 1
against, elder's pique about 12.2% counting his repiques, repique elder 27.5 and younger 75 to 1
against, a partie ending in a rubicon about 7 to 2 against)."""

WHY = {
    "heuristic": "Rulebook heuristics: leads its longest master suit, wins cheaply, plans nothing.",
    "learned": "The heuristic's card play with the learned exchange (fitted to the discard analyser).",
    "search (learned exchange)": "The search player's cards with the learned exchange.",
    "search": "Samples the opponent's hidden cards consistently with all he has seen and declared and solves "
              "each sample exactly: a legal player.",
    "dd": "Sees both hands: not a legal player but the ceiling of trick play with these exchanges.",
    "Cavendish": "10,000 hands of expert human play (Portland Club laws); his exchanges were experts' and he "
                 "left out hopeless hands played only to divide the cards.",
}
"""What each row's player is; ``players_table`` adds what its numbers say against Cavendish's."""


def _against_cavendish(stats: dict[str, Estimate]) -> str:
    """The row's cards split against Cavendish's, from its own intervals."""
    e = stats["cards_elder"]
    gap = CAVENDISH["cards_elder"]
    where = "below" if e.hi < gap else ("above" if e.lo > gap else "not distinguishable from")
    return (f" Elder wins the cards {100 * e.value:.1f}% [{100 * e.lo:.1f}, {100 * e.hi:.1f}], {where} "
            f"Cavendish's {100 * gap:.1f}%.")


def player_stats(t) -> dict[str, Estimate]:
    """The table's statistics from a deal tally vector (``studies.simulate.deal_tallies``)."""
    from analysis.piquet.studies.simulate import deal_stats

    s = deal_stats(t)
    n = int(t[T_DEALS])
    out = {k: s[k] for k, _ in STATISTICS if k in s}
    # Only elder can pique, and a pique and a repique never share a deal (PQ-PIQUE, PQ-REPIQUE): the
    # counts add up to Cavendish's pique, which counts elder's repiques and not younger's.
    out["pique_elder"] = proportion(int(t[T_PIQUE] + t[T_REPIQUE_ELDER]), n)
    return out


def player_deals(search_deals: int) -> dict[str, int]:
    """Deals per row at a search budget: the search rows that many, the others ten times as many."""
    return {name: search_deals if policy == "search" else 10 * search_deals for name, (policy, _) in PLAYERS.items()}


def players_table(deals: dict[str, int], seed: int = 0, rules=None, *, threads: int | None = None,
                  quiet: bool = True) -> pd.DataFrame:
    """One row per player (``deals``: deals each, by player name) and one for Cavendish: value, lo
    and hi per statistic, the deals, the player's description and why it differs."""
    from analysis.piquet.policies import get_policy
    from analysis.piquet.rules import get_rules
    from analysis.piquet.studies.simulate import deal_tallies, partie_stats, simulate_parties

    rules = rules or get_rules("cavendish")
    rows = []
    for name, n in deals.items():
        policy, params = PLAYERS[name]
        p = get_policy(policy, params)
        stats = player_stats(deal_tallies(n, seed, rules, p, p, threads=threads, quiet=quiet))
        in_parties = get_policy(policy, params + (["partie=margin"] if policy in ("search", "dd") else []))
        parties = max(16, n // rules.partie_deals)
        stats["rubicon"] = partie_stats(simulate_parties(parties, seed, rules, in_parties, in_parties,
                                                         threads=threads)["tallies"])["rubicon"]
        row = {"player": name, "deals": n, "parties": parties, "policy": json.dumps(p.describe()),
               "why": WHY[name] + _against_cavendish(stats)}
        for k, _ in STATISTICS:
            row[k], row[f"{k}_lo"], row[f"{k}_hi"] = stats[k].value, stats[k].lo, stats[k].hi
        rows.append(row)
    cav = {"player": "Cavendish", "deals": 10_000, "parties": None, "policy": "expert human play",
           "why": WHY["Cavendish"]}
    for k, _ in STATISTICS:
        v = CAVENDISH.get(k)
        cav[k], cav[f"{k}_lo"], cav[f"{k}_hi"] = v, None, None
    rows.append(cav)
    df = pd.DataFrame(rows)
    df.attrs.update({"rules": rules.name, "seed": seed,
                     "caption": f"Piquet players against Cavendish's 10,000 hands ({rules.name} rules; each "
                                "player in both seats; exchanges the heuristic's unless the row says learned; "
                                "rubicons from parties of the same players, search and dd playing the sixth deal "
                                "for the partie's margin; 95% intervals)"})
    return df


def players_text(df: pd.DataFrame) -> str:
    """The table as text: one line per statistic, one column per player."""
    names = list(df["player"])
    width = 24
    lines = [df.attrs["caption"], f"{'':<34}" + "".join(f"{n:>{width}}" for n in names)]
    for k, label in STATISTICS:
        cells = []
        for r in df.to_dict(orient="records"):
            v, lo, hi = r[k], r[f"{k}_lo"], r[f"{k}_hi"]
            pct = k not in ("elder_score", "younger_score")
            if v is None or v != v:
                cells.append("—")
            elif lo is None or lo != lo:
                cells.append(f"{100 * v:.1f}%" if pct else f"{v:.1f}")
            else:
                cells.append(f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" if pct else f"{v:.1f} [{lo:.1f}, {hi:.1f}]")
        lines.append(f"{label:<34}" + "".join(f"{c:>{width}}" for c in cells))
    lines.append("")
    lines += [f"{r['player']} ({r['deals']:,} deals): {r['why']}" for r in df.to_dict(orient="records")]
    return "\n".join(lines)


def players_json(df: pd.DataFrame) -> dict:
    """The table as JSON: per player, each statistic's value and interval."""
    out = {"rules": df.attrs["rules"], "seed": df.attrs["seed"], "players": {}}
    for r in df.to_dict(orient="records"):
        stats = {}
        for k, _ in STATISTICS:
            v, lo, hi = r[k], r[f"{k}_lo"], r[f"{k}_hi"]
            stats[k] = None if v is None or v != v else {
                "value": v, "ci95": None if lo is None or lo != lo else [lo, hi]}
        policy = r["policy"] if r["player"] == "Cavendish" else json.loads(r["policy"])
        out["players"][r["player"]] = {"deals": r["deals"], "policy": policy, "why": r["why"], "stats": stats}
    return out

#!/usr/bin/env python3
"""Make the Écarté equilibrium tables shipped with the package (analysis/ecarte/data/equilibrium_*).

For each variant: the standard-budget study (``salon study ecarte strategy --budget standard``,
resumable through the result store) writes its full tables to --out, and the columns a one-hand
answer needs are copied into the package (``equilibrium_tables.ship``). With --ship-only the tables
already in --out are copied without computing. With --reading-check the search check is run again
on the tables in --out with searchers who read the other's first proposal or answer (by the
solution's chances) and his discards, paired with the plain check on the same sets and deals, and
written into the summary as ``search_check_reading`` before shipping (with --shipped: on the
package's tables and summary, when the study's full tables are no longer at hand).
With --leads learned the players inside lead by the learned leads (learned_lead.py); use another
--out than the heuristic tables'. With --reads V as well, those leads read the other's first
decision by variant V's ratios ("Reading leads", docs/ecarte-engine.md).
Usage: .venv/bin/python scripts/make_equilibrium_tables.py [--rules classic seed-de] [--out DIR] [--ship-only]
       [--reading-check [--shipped]] [--leads learned [--reads V]]
"""
from __future__ import annotations

import argparse


def reading_check(out: str, name: str, sets: int, shipped: tuple[str, str] | None = None) -> dict:
    """The search check of the tables in ``out`` with reading searchers, beside the plain one on the
    same sets and deals (paired: the value's difference and how often the decisions' signs agree).
    With ``shipped`` (the leads and reads), the package's tables of that play instead, their summary updated
    in place (the study's full tables no longer at hand)."""
    import json
    import os
    from types import SimpleNamespace

    import numpy as np
    import pandas as pd

    from analysis.ecarte.answers import SEARCH_DEALS, SEARCH_SAMPLES
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.equilibrium.search_check import check, reading_against_plain

    n = len(info_sets().weight)
    eq = SimpleNamespace(x=np.zeros(n), y=np.zeros(n))
    if shipped is None:
        path = os.path.join(out, f"ecarte_equilibrium_{name}_summary.json")
        for side, column, strategy in (("elder", "propose_probability", eq.x), ("dealer", "refuse_probability", eq.y)):
            t = pd.read_parquet(os.path.join(out, f"ecarte_equilibrium_{name}_{side}.parquet"))
            strategy[t["info_set"].to_numpy()] = t[column].to_numpy()
    else:
        path = os.path.join(T.DATA_DIR, T.shipped_name(name, *shipped) + ".json")
        t = pd.read_parquet(path.replace(".json", ".parquet"), columns=["side", "info_set", "probability"])
        for side, strategy in (("elder", eq.x), ("dealer", eq.y)):
            rows = t[t["side"] == side]
            strategy[rows["info_set"].to_numpy()] = rows["probability"].to_numpy() / T.PROBABILITY_UNIT
    with open(path) as f:
        summary = json.load(f)
    play = HeuristicPolicy(**{k: v for k, v in summary["policy"].items() if k != "kind" and not k.endswith("_sha256")})
    args = (sets, SEARCH_DEALS, SEARCH_SAMPLES, summary["seed"], get_rules(name), play)
    plain, reading = check(eq, *args, read=False), check(eq, *args, read=True)
    reading_against_plain(plain, reading)
    for side in ("elder", "dealer"):
        study = summary.get("search_check", {}).get(side, {}).get("value_search", {}).get("value", np.nan)
        # The shipped probabilities are rounded to 1/65535, so a drawn decision may differ there.
        print(f"{name} {side}: plain check's search value {plain[side]['value_search']['value']:+.6f}, the "
              f"study's {study:+.6f}", flush=True)
    reading.pop("per_set")
    summary["search_check_reading"] = reading
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
    return reading


def main() -> None:
    from analysis.ecarte.answers import equilibrium_study
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.equilibrium import tables as equilibrium_tables

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="*", default=["classic", "seed-de"])
    ap.add_argument("--out", default="data/equilibrium")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ship-only", action="store_true")
    ap.add_argument("--search-sets", type=int, default=200, help="information sets per side for the search check")
    ap.add_argument("--leads", choices=("heuristic", "learned"), default="heuristic",
                    help="the players' leads inside the tables (shipped as equilibrium_<rules>_learned.*)")
    ap.add_argument("--reads", default="none",
                    help="with --leads learned: the leads read the other's first decision by this variant's "
                         "ratios (policies.HeuristicPolicy.reads; shipped as equilibrium_<rules>_reading.*)")
    ap.add_argument("--reading-check", action="store_true",
                    help="the search check again with reading searchers, into the summary in --out, then ship")
    ap.add_argument("--shipped", action="store_true",
                    help="with --reading-check: on the package's tables (of --leads), their summary updated")
    a = ap.parse_args()
    for name in a.rules:
        if a.reading_check and a.shipped:
            print(reading_check(a.out, name, a.search_sets, (a.leads, a.reads)), flush=True)
            continue
        if a.reading_check:
            print(reading_check(a.out, name, a.search_sets), flush=True)
        elif not a.ship_only:
            _, text = equilibrium_study("standard", a.seed, get_rules(name), HeuristicPolicy(leads=a.leads, reads=a.reads), a.out, None, False,
                                        a.search_sets)
            print(text, flush=True)
        print("shipped", equilibrium_tables.ship(a.out, name), flush=True)


if __name__ == "__main__":
    main()

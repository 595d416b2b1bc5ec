#!/usr/bin/env python3
"""Make the Écarté equilibrium tables shipped with the package (analysis/ecarte/data/equilibrium_*).

For each variant: the standard-budget study (``salon study ecarte strategy --budget standard``,
resumable through the result store) writes its full tables to --out, and the columns a one-hand
answer needs are copied into the package (``equilibrium_tables.ship``). With --ship-only the tables
already in --out are copied without computing.
Usage: .venv/bin/python scripts/make_equilibrium_tables.py [--rules classic seed-de] [--out DIR] [--ship-only]
"""
from __future__ import annotations

import argparse


def main() -> None:
    from analysis.ecarte import equilibrium_tables
    from analysis.ecarte.answers import equilibrium_study
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="*", default=["classic", "seed-de"])
    ap.add_argument("--out", default="data/equilibrium")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ship-only", action="store_true")
    ap.add_argument("--search-sets", type=int, default=200, help="information sets per side for the search check")
    a = ap.parse_args()
    for name in a.rules:
        if not a.ship_only:
            _, text = equilibrium_study("standard", a.seed, get_rules(name), HeuristicPolicy(), a.out, None, False,
                                        a.search_sets)
            print(text, flush=True)
        print("shipped", equilibrium_tables.ship(a.out, name), flush=True)


if __name__ == "__main__":
    main()

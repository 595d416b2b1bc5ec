#!/usr/bin/env python3
"""Write a game's rule_ladders.json (analysis/GAME/data/): the ladder of playing rules of each
decision under each variant. Écarté's first decisions (elder, dealer), searched on the shipped
equilibrium's fitted deals and costed on its held-out ones (analysis/ecarte/studies/rule_ladder.py),
about a minute a decision; Piquet's exchanges (elder, younger), chosen on 200 raced hands and costed
on 200 others (analysis/piquet/studies/rule_ladder.py), about ten minutes; Bezique's single bezique
and trick-winning rules, chosen on one seed's deals and costed on another's
(analysis/bezique/studies/rule_ladder.py), about forty minutes. Deterministic: the same package
gives the same file.
With --strong (Piquet): the shipped ladders' rungs and book rules costed again with the trick play by
open-hands and by searching players (rule_ladder.add_strong_costs: 60 and 30 of the test hands), added
to the shipped file; about forty minutes on two cores.
Écarté's discard (--decisions discard): every set of kept classes played on a million deals that choose,
the best of each size and the book's rule on two million others that cost them, about six minutes a variant.
Usage: .venv/bin/python scripts/make_rule_ladders.py [--game ecarte|piquet|bezique] [--rules V ...] [--out FILE]
       .venv/bin/python scripts/make_rule_ladders.py --game ecarte --decisions discard
       .venv/bin/python scripts/make_rule_ladders.py --game piquet --strong [--plays dd search]
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("ecarte", "piquet", "bezique"), default="ecarte")
    ap.add_argument("--rules", nargs="+", default=None, help="the variants (default: the game's shipped ones)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--strong", action="store_true", help="Piquet: add the rungs' costs under strong trick play")
    ap.add_argument("--plays", nargs="+", default=["dd", "search"], choices=("dd", "search"))
    ap.add_argument("--decisions", nargs="+", default=None,
                    help="Écarté and Bezique: only these decisions' ladders (Écarté: elder, dealer, discard; Bezique: "
                         "single-bezique, win, lead, meld), the others kept")
    args = ap.parse_args()
    ladders = importlib.import_module(f"analysis.{args.game}.studies.rule_ladder")
    args.out = args.out or ladders.LADDERS_FILE
    t0 = time.perf_counter()
    if args.strong:
        if args.game != "piquet":
            ap.error("--strong is for Piquet's ladders")
        res = ladders.add_strong_costs(ladders.shipped_ladders(), tuple(args.plays))
    elif args.decisions:
        if args.game == "piquet":
            ap.error("--decisions is for Écarté's and Bezique's ladders")
        res = ladders.make_ladders(args.rules or ladders.VARIANTS, tuple(args.decisions))
    else:
        res = ladders.make_ladders(args.rules or ladders.VARIANTS)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    for lad in res["ladders"]:
        costs = ", ".join(f"{r['lines']}: {r['cost']['value']:.4f}" for r in lad["rungs"])
        books = ", ".join(f"{b['cost']['value']:.4f}" for b in lad["book"])
        print(f"{lad['rules']:8} {lad['decision']:6} {costs} · books {books} · moonshot met at "
              f"{lad.get('moonshot', {}).get('met_at_lines')}")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()

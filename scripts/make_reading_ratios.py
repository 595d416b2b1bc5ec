#!/usr/bin/env python3
"""Write analysis/ecarte/data/reading_ratios.json: what each first decision says of the dealt
hand under a variant's shipped equilibrium tables (analysis/ecarte/fit/reading_ratios.py), for the
reading leads (policy parameter ``reads``).

The tables are those shipped for the heuristic policy with the learned leads (``--reads none``,
the default) or with reading leads (``--reads V``: a step of the fixed point, tables played while
reading by V's ratios). The script prints how far the new ratios are from those already in the
file (the fixed point's gap) and replaces them only with ``--write``.
With ``--measure N`` it then measures what reading is worth to each side at the shipped
solution's decisions, on N deals (``reading_ratios.reading_gain``), and prints it as JSON; with
``--powers`` also with the ratios raised to other powers (a diagnostic of how the score uses them).
Usage: .venv/bin/python scripts/make_reading_ratios.py [--rules seed-de classic] [--reads none] [--write]
       [--measure 1000000] [--powers 1 0.5 -0.5 2]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from analysis.ecarte.fit.reading_ratios import ratios_of_shipped  # noqa: E402
from analysis.ecarte.players.reading import RATIO_UNIT, RATIOS_FILE, READ_ROWS, _file  # noqa: E402
from analysis.ecarte.policies import HeuristicPolicy  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["seed-de", "classic"])
    ap.add_argument("--reads", default="none", help="the tables' own reading (none: the learned-lead tables)")
    ap.add_argument("--write", action="store_true", help="replace the file's ratios of these variants")
    ap.add_argument("--measure", type=int, default=0, help="deals on which to measure what reading is worth")
    ap.add_argument("--powers", type=float, nargs="+", default=[1.0],
                    help="measure with the ratios raised to these powers (1: as they are; -1: their opposite)")
    args = ap.parse_args()
    data = json.loads(json.dumps(_file(RATIOS_FILE)))
    for rules in args.rules:
        policy = HeuristicPolicy(leads="learned", reads=args.reads)
        ratios, provenance = ratios_of_shipped(rules, policy)
        old = data["variants"].get(rules, {}).get("ratios")
        gap = float(abs(ratios - np.asarray(old)).max() / RATIO_UNIT) if old else None
        print(f"{rules}: from {provenance['tables']}; largest change from the file's ratios: {gap}")
        for name, row in zip(READ_ROWS, ratios.tolist(), strict=True):
            print(f"  {name:32s}", " ".join(f"{x / RATIO_UNIT:.2f}" for x in row))
        data["variants"][rules] = {"ratios": ratios.tolist(), "unit": RATIO_UNIT, "rows": list(READ_ROWS),
                                   "groups": "trump of rank index 0..7 (7 = king), then plain card of rank index 0..7",
                                   "from": provenance}
    if args.write:
        with open(RATIOS_FILE, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        print(f"wrote {RATIOS_FILE}")
    if args.measure:
        from analysis.ecarte.fit.reading_ratios import reading_gain

        for rules in args.rules:
            for power in args.powers:
                print(json.dumps(reading_gain(rules, args.measure, power=power)))


if __name__ == "__main__":
    main()

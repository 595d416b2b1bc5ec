#!/usr/bin/env python3
"""Fit Écarté's reading leads' weights (analysis/ecarte/data/reading_lead.json) and measure them.

For each row of ratios read, one model pooled over both variants, as the learned leads
(scripts/fit_lead.py), but fitted to a
searcher who reads the opponent's first decision (fit/reading_lead.collect: deals whose first
decisions are drawn by the tables played with the reading leads, the fixed point's last step; the
first step drew them from tables played with the learned leads, no longer shipped), leads by the search player with
--samples draws from the posterior, values of every card by the same search), on the reading
leads' features (the odds read through the variant's ratios). Then, on other deals: the held-out
regret of the learned leads, of stop 39's reading (the read odds scored by the learned weights)
and of the reading leads against fresh reading-search values (seed + 1, paired per deal), and
``reading_gain`` (seed + 2) for each reader with the new weights. Everything measured is written
into the file's "fit".
Usage: .venv/bin/python scripts/fit_reading_lead.py [--deals 1000000] [--held-out 200000]
       [--gain 2000000] [--samples 30] [--seed 201] [--solution reading]
"""
from __future__ import annotations

import argparse
import json
import time

VARIANTS = ("classic", "seed-de")


def interval(d) -> dict:
    """Mean and 95% interval of per-deal values."""
    import numpy as np

    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    return {"value": round(float(d.mean()), 5), "ci95": [round(float(d.mean() - half), 5),
                                                         round(float(d.mean() + half), 5)]}


def per_lead(choice, val):
    """Each lead's regret: the best card's search value minus the chosen card's."""
    import numpy as np

    return np.nanmax(val, 1) - val[np.arange(len(val)), choice]


def main() -> None:
    from analysis.ecarte.fit.reading_ratios import SOLUTIONS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--held-out", type=int, default=200_000)
    ap.add_argument("--gain", type=int, default=2_000_000)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=201)
    ap.add_argument("--solution", default="reading", choices=SOLUTIONS,
                    help="the shipped tables whose first decisions are drawn and read")
    args = ap.parse_args()

    import numpy as np

    from analysis import __version__
    from analysis.ecarte.fit import lead as L
    from analysis.ecarte.fit import reading_lead as R
    from analysis.ecarte.fit.reading_ratios import reading_gain, with_learned_weights
    from analysis.ecarte.players.learned_weights import (
        LEAD_FEATURES,
        N_LEAD_FEATURES,
        N_LEAD_MODELS,
        READING_WEIGHTS_FILE,
    )
    from analysis.ecarte.players.reading import load_ratios
    from analysis.ecarte.policies import (
        N_READ_GROUPS,
        P_LEAD_WEIGHTS,
        P_READ_RATIOS,
        HeuristicPolicy,
    )

    t0 = time.time()
    parts, train = [], {}
    for v in VARIANTS:
        rec, val = R.collect(v, args.deals, args.seed, args.samples, solution=args.solution)
        idx, card, model, f = R.reading_features_of(rec, load_ratios(v).ravel())
        parts.append((idx, card, model, f, val, rec[:, R.F_READ]))
        train[v] = {"seed": args.seed, "deals": args.deals, "decisions": len(rec),
                    "decisions_by_row": np.bincount(rec[:, R.F_READ], minlength=3).tolist()}
        print(f"{v}: {len(rec):,} reading leads collected ({time.time() - t0:.0f} s)", flush=True)
    # One fit per row read (the dealer after elder played, after refusing; elder after a refusal),
    # both variants pooled.
    offset = np.cumsum([0] + [len(p[4]) for p in parts[:-1]])
    idx = np.concatenate([p[0] + o for p, o in zip(parts, offset, strict=True)])
    card, model, f, val, read_rows = (np.concatenate([p[q] for p in parts]) for q in (1, 2, 3, 4, 5))
    row_of = read_rows[idx]
    weights = np.zeros((3, N_LEAD_MODELS, N_LEAD_FEATURES), dtype=np.int64)
    for row in range(3):
        s = row_of == row
        weights[row] = L.fit_features(idx[s], card[s], model[s], f[s], val, args.ridge)
    out = READING_WEIGHTS_FILE
    data = {"features": list(LEAD_FEATURES), "scale": L.SCALE, "weights": weights.tolist()}
    out.write_text(json.dumps(data) + "\n")  # the policy arrays below load the new weights

    held_out, gains = {}, {}
    for v in VARIANTS:
        rec, val = R.collect(v, args.held_out, args.seed + 1, args.samples, solution=args.solution)
        reading = HeuristicPolicy(leads="learned", reads=v).to_array()
        old = with_learned_weights(reading)
        row = rec[:, R.F_READ]
        every_row = P_READ_RATIOS + N_READ_GROUPS * row  # row 1 too, which the policy does not read
        r0 = np.where(row == 1, -1, every_row)
        plain = np.full(len(rec), -1)

        def per_deal(choice, rec=rec, val=val):
            """Each deal's regret: the best card's search value minus the chosen card's, summed."""
            return np.bincount(rec[:, L.F_DEAL], per_lead(choice, val), minlength=args.held_out)

        h = per_deal(rec[:, L.F_HEUR])
        learned_choice = L.learned_choices(rec, reading, P_LEAD_WEIGHTS, plain)
        learned = per_deal(learned_choice)
        stop39 = per_deal(L.learned_choices(rec, old, P_LEAD_WEIGHTS, every_row))  # stop 39 read row 1
        new = per_deal(L.learned_choices(rec, reading, P_LEAD_WEIGHTS, r0))
        by_row = per_lead(L.learned_choices(rec, reading, P_LEAD_WEIGHTS, every_row), val) - per_lead(
            learned_choice, val)
        held_out[v] = {"seed": args.seed + 1, "deals": args.held_out, "decisions": len(rec),
                       "regret_per_deal": {"heuristic": interval(h), "learned": interval(learned),
                                           "read_odds_learned_weights": interval(stop39),
                                           "reading": interval(new)},
                       "reading_minus_learned": interval(new - learned),
                       "reading_minus_read_odds_learned_weights": interval(new - stop39),
                       "reading_minus_learned_per_lead_by_row": [interval(by_row[row == k]) for k in range(3)]}
        print(f"{v}: held-out regret per deal {held_out[v]['regret_per_deal']}; reading - learned "
              f"{held_out[v]['reading_minus_learned']} ({time.time() - t0:.0f} s)", flush=True)
        g = reading_gain(v, args.gain, seed=args.seed + 2, solution=args.solution)
        gains[v] = {"seed": args.seed + 2, "deals": args.gain,
                    **{r: {**g["readers"][r]["elder_value_change"],
                           "by_branch": g["readers"][r]["elder_value_change_by_branch"]} for r in ("dealer", "elder")}}
        print(f"{v}: reading gain {gains[v]} ({time.time() - t0:.0f} s)", flush=True)
    data["fit"] = {
        "method": "ridge least squares per model of the decision-centred search values (lead_fit.py) on the "
                  "reading features (lead_fit_reading.py)",
        "player": f"leads by the search player ({args.samples} samples; the reader draws the hidden hand from the "
                  f"posterior of the opponent's first decision under the shipped {args.solution}-lead solution, "
                  "search_inference.COND_TABLE), follows by the heuristic; first decisions by the solution's "
                  "chances, kings by the heuristic policy",
        "first_decisions": args.solution, "samples": args.samples, "ridge": args.ridge, "train": train, "held_out": held_out,
        "reading_gain": {"measure": "change in elder's value per hand when the side reads (reading_ratios."
                                    "reading_gain; dealer reading: negative is his gain)", **gains},
        "seconds": round(time.time() - t0, 1), "salon": __version__,
    }
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

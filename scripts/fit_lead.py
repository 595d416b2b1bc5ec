#!/usr/bin/env python3
"""Fit Écarté's learned leads (analysis/ecarte/data/learned_lead.json) and measure them.

One pooled model for both variants: leads of --deals deals per variant (seed --seed) played by the
search player (--samples draws), values of every card by the same search; the weights fitted by
``lead_fit.fit``. Then, on other deals: the per-deal regret of the heuristic's and the learned
leads against fresh search values (seed + 1), the learned leads against the heuristic's
(``salon compare``, both seats, and each seat's gain on the same deals, seed + 2), and the
search player against the learned leads (each side searching in turn, seed + 3). Everything measured is written into the file's "fit".
Usage: .venv/bin/python scripts/fit_lead.py [--deals 400000] [--held-out 50000] [--compare 400000]
       [--search 20000] [--samples 30] [--seed 101]
(The measurements play the policy "leads=learned", which loads the package's file: the fit is
written there first.)
"""
from __future__ import annotations

import argparse
import json
import time

VARIANTS = ("classic", "seed-de")


def interval(mean: float, half: float) -> dict:
    return {"value": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def estimate(e) -> dict:
    d = e.to_dict()
    return {"value": round(d["value"], 4), "ci95": [round(x, 4) for x in d["ci95"]]}


def seat_gains(rules, learned, heuristic, n: int, seed: int) -> dict:
    """Per seat, the learned leads' gain on the same deals: elder's net with elder learned minus
    with both heuristic, and the dealer's net with the dealer learned minus with both heuristic
    (paired 95% intervals)."""
    from analysis.ecarte.engine.layout import O_DEALER_POINTS, O_ELDER_POINTS
    from analysis.ecarte.play.hand import hand_outcomes
    from analysis.stats import paired_difference

    r, h, lp = rules.to_array(), heuristic.to_array(), learned.to_array()

    def net(pe, pd):
        rows = hand_outcomes(seed, 0, n, r, pe, pd)
        return rows[:, O_ELDER_POINTS] - rows[:, O_DEALER_POINTS]

    base = net(h, h)
    out = {}
    for seat, d in (("elder_gain", net(lp, h) - base), ("dealer_gain", base - net(h, lp))):
        out[seat] = estimate(paired_difference(int(d.sum()), int((d * d).sum()), n))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400_000)
    ap.add_argument("--held-out", type=int, default=50_000)
    ap.add_argument("--compare", type=int, default=400_000)
    ap.add_argument("--search", type=int, default=20_000)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=101)
    args = ap.parse_args()

    import numpy as np

    from analysis import __version__
    from analysis.compare import C_BOTH, C_BOTH_SQ, C_DEALS
    from analysis.ecarte.fit import lead as L
    from analysis.ecarte.play.compare import compare_tallies
    from analysis.ecarte.players.learned_weights import LEAD_FEATURES, WEIGHTS_FILE
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.ecarte.studies.search_strength import search_strength
    from analysis.stats import mean_from_sums

    t0 = time.time()
    heuristic = HeuristicPolicy()
    recs, vals, train = [], [], {}
    for v in VARIANTS:
        rec, val = L.collect(get_rules(v), heuristic, args.deals, args.seed, args.samples)
        recs.append(rec)
        vals.append(val)
        train[v] = {"seed": args.seed, "deals": args.deals, "decisions": len(rec)}
        print(f"{v}: {len(rec):,} leads collected ({time.time() - t0:.0f} s)", flush=True)
    weights = L.fit(np.concatenate(recs), np.concatenate(vals), args.ridge)
    out = WEIGHTS_FILE
    data = {"features": list(LEAD_FEATURES), "scale": L.SCALE, "weights": weights.tolist()}
    out.write_text(json.dumps(data) + "\n")  # the policy arrays below load the new weights
    learned = HeuristicPolicy(leads="learned")

    held_out, strength = {}, {}
    for v in VARIANTS:
        r = get_rules(v)
        rec, val = L.collect(r, heuristic, args.held_out, args.seed + 1, args.samples)
        h = L.regret(rec, val, rec[:, L.F_HEUR], 0, args.held_out)
        lr = L.regret(rec, val, L.learned_choices(rec, weights.ravel(), 0, np.full(len(rec), -1)), 0, args.held_out)
        held_out[v] = {"seed": args.seed + 1, "deals": args.held_out, "regret_heuristic": interval(*h),
                       "regret_learned": interval(*lr)}
        t = [int(x) for x in compare_tallies(args.compare, args.seed + 2, r, learned, heuristic)]
        both = mean_from_sums(t[C_BOTH], t[C_BOTH_SQ], t[C_DEALS]).to_dict()
        both = {"value": round(both["value"] / 2, 4), "ci95": [round(x / 2, 4) for x in both["ci95"]]}
        gains = seat_gains(r, learned, heuristic, args.compare, args.seed + 2)
        s = search_strength(args.search, args.seed + 3, r, samples=20, elder_policy=learned, dealer_policy=learned)
        strength[v] = {
            "learned_minus_heuristic": {"seed": args.seed + 2, "deals": args.compare, "per_hand_and_seat": both,
                                        **gains},
            "search_minus_learned": {"seed": args.seed + 3, "deals": args.search, "samples": 20,
                                     "elder": estimate(s["elder_gain"]), "dealer": estimate(s["dealer_gain"])},
        }
        print(f"{v}: held-out regret heuristic {held_out[v]['regret_heuristic']}, learned "
              f"{held_out[v]['regret_learned']}; learned - heuristic {both}; search - learned elder "
              f"{strength[v]['search_minus_learned']['elder']} dealer {strength[v]['search_minus_learned']['dealer']}"
              f" ({time.time() - t0:.0f} s)", flush=True)
    data["fit"] = {
        "method": "ridge least squares per model of the decision-centred search values (lead_fit.py)",
        "player": f"leads by the search player ({args.samples} samples, reading nothing), follows by the "
                  "heuristic; exchanges and kings by the heuristic policy",
        "samples": args.samples, "ridge": args.ridge, "train": train, "held_out": held_out,
        "strength": strength, "seconds": round(time.time() - t0, 1), "salon": __version__,
    }
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

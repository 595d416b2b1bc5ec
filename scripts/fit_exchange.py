#!/usr/bin/env python3
"""Fit the learned Piquet exchange (analysis.piquet.learned_exchange) to the discard analyser.

Step 1, ``sample``: for many dealt hands of each seat and variant, every legal exchange is played
on the same sampled deals (the analyser's kernel, heuristic trick play and a heuristic opponent)
and each exchange's mean net score is stored (one .npz per variant and seat, in --data).
Step 2, ``fit``: the ordering (per-card features summed over the thrown cards, plus one bias per
number of cards taken) is fitted to those values: least squares within each hand, then refined by
maximising the value of a softmax choice whose temperature is lowered to a greedy choice. The scorer
(the same form with features of the kept hand added) is fitted by least squares within each hand.
80% of the hands fit, 20% (held out) report the kernel's choice's cost against the best exchange
measured on other deals. The weights go to analysis/piquet/data/learned_exchange.json.
Step 3 (optional), ``check``: the shipped weights' held-out figures measured again.
Usage: .venv/bin/python scripts/fit_exchange.py sample|fit|check [--hands N] [--deals D] [--rules V ...]
       [--scorer-only]  (fit: keep the shipped ordering, fit the scorer)
       [--refine]  (fit: the scorer by least squares or by its softmax choice's value, whichever costs
                   least on validation hands: analysis/piquet/learned_refine.py)
"""
from __future__ import annotations

import argparse
import pathlib
import time

import numpy as np

from analysis.piquet.discard_study import dealt_hand
from analysis.piquet.discards import legal_options
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules
from analysis.piquet.strong_discards import play_options

VARIANTS = ("seed-de", "seed-no", "cavendish")
HAND_SEED = 20261201
"""Training hands are the dealt hands of this seed; their deals use HAND_SEED + 1 + h (values)
and HAND_SEED + 5_000_003 + h (the held-out check of the fit); the discard study uses others."""


def younger_took(h: int) -> int:
    """How many cards elder took before younger's hand h exchanges: 5, or 1-4 for one hand in five
    (so that younger's biases for taking more than three cards are fitted in the leftovers variants)."""
    return 5 if h % 5 else 1 + (h // 5) % 4


def sample(variant: str, seat: str, hands: int, deals: int, data: pathlib.Path, threads: int) -> None:
    """Store the mean net of every legal exchange of ``hands`` dealt hands (two independent halves of
    ``deals`` deals each: one to fit, one to check)."""
    rules = get_rules(variant)
    me = HeuristicPolicy()
    younger = seat == "younger"
    out = {"hand": np.zeros(hands, np.int64), "took": np.zeros(hands, np.int8)}
    values: dict[int, list] = {}
    checks: dict[int, list] = {}
    t0 = time.time()
    for h in range(hands):
        hand = dealt_hand(HAND_SEED, h, seat)
        took = younger_took(h) if younger else 5
        opts = legal_options(hand, seat, rules, took)
        pe = me.to_array(force_count=took) if younger else me.to_array()
        net, _ = play_options(hand, younger, opts, rules, pe, me.to_array(), HAND_SEED + 1 + h, deals, threads)
        chk, _ = play_options(hand, younger, opts, rules, pe, me.to_array(), HAND_SEED + 5_000_003 + h, deals,
                              threads)
        out["hand"][h] = hand
        out["took"][h] = took
        values.setdefault(took, []).append(net.mean(axis=0).astype(np.float32))
        checks.setdefault(took, []).append(chk.mean(axis=0).astype(np.float32))
        if h % 1000 == 999:
            print(f"{variant} {seat}: {h + 1} hands, {time.time() - t0:.0f} s", flush=True)
    arrays = {f"values_{k}": np.array(v) for k, v in values.items()}
    arrays.update({f"checks_{k}": np.array(v) for k, v in checks.items()})
    np.savez(data / f"{variant}-{seat}.npz", deals=deals, **out, **arrays)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("sample", "fit", "check"))
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--deals", type=int, default=48)
    ap.add_argument("--rules", nargs="*", default=list(VARIANTS))
    ap.add_argument("--seats", nargs="*", default=["elder", "younger"])
    ap.add_argument("--data", default="data/exchange")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--scorer-only", action="store_true", help="fit: keep the shipped ordering")
    ap.add_argument("--refine", action="store_true",
                    help="fit: choose the scorer's fit on validation hands among least squares and the softmax stages")
    a = ap.parse_args()
    data = pathlib.Path(a.data)
    data.mkdir(parents=True, exist_ok=True)
    if a.step == "sample":
        for variant in a.rules:
            for seat in a.seats:
                sample(variant, seat, a.hands, a.deals, data, a.threads)
    else:
        from analysis.piquet.learned_fit import fit_all

        fit_all(data, a.rules, a.seats, a.scorer_only, check_only=a.step == "check", refine=a.refine)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fit the learned Piquet exchange (analysis.piquet.players.learned_features) to the discard analyser.

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
``cost``: the shipped weights' cost against the discard study's raced best (reports/ CSV for
seed-de, ``salon study piquet discards``' piquet_discards_<seat>_<variant>.csv in --study for the
others), on the study's own held-out deals, beside the figure the study recorded.
Usage: .venv/bin/python scripts/fit_exchange.py sample|fit|check [--hands N] [--deals D] [--rules V ...]
       [--scorer-only]  (fit: keep the shipped ordering, fit the scorer)
       [--refine]  (fit: the scorer by least squares or by its softmax choice's value, whichever costs
                   least on validation hands: analysis/piquet/fit/refine.py)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import time

import numpy as np

from analysis.piquet.fit.exchange import (
    Samples,
    feature_names,
    fit,
    fit_scorer,
    held_out_figures,
)
from analysis.piquet.fit.refine import ANCHOR, MOST, refined_scorer
from analysis.piquet.players.learned import WEIGHTS_FILE
from analysis.piquet.players.learned_features import ORDER_SIZE, SCALE
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import get_rules
from analysis.piquet.studies.discards.analyser import legal_options
from analysis.piquet.studies.discards.analyser_search import play_options
from analysis.piquet.studies.discards.study import dealt_hand

VARIANTS = ("seed-de", "seed-no", "cavendish")
HAND_SEED = 20261201
"""Training hands are the dealt hands of this seed; their deals use HAND_SEED + 1 + h (values)
and HAND_SEED + 5_000_003 + h (the held-out check of the fit); the discard study uses others."""


def _weights_doc() -> dict:
    """The weights file as written (no models if there is none yet)."""
    return json.loads(WEIGHTS_FILE.read_text()) if WEIGHTS_FILE.exists() else {"models": {}}


def fit_all(data: pathlib.Path, variants: list[str], seats: list[str], scorer_only: bool = False,
            check_only: bool = False, refine: bool = False, softmax_hands: int | None = None,
            anchor: float | None = None) -> None:
    """Fit every listed model from data/<variant>-<seat>.npz and write them into WEIGHTS_FILE
    (keeping the models not refitted), with their held-out figures. ``scorer_only``: keep the
    shipped ordering (its first ORDER_SIZE weights) and fit the scorer; ``refine``: the scorer's fit
    chosen on validation hands among least squares and the softmax stages (``learned_refine``; these
    on up to ``softmax_hands`` hands a group, default ``fit.refine.MOST``, with the cross-entropy
    weight ``anchor``, default ``fit.refine.ANCHOR``);
    ``check_only``: keep the shipped weights and measure their held-out figures again."""
    from analysis.piquet.rules import get_rules

    doc = _weights_doc()
    fitted_models = {}
    for variant in variants:
        rules = get_rules(variant)
        for seat in seats:
            samples = Samples(data / f"{variant}-{seat}.npz", rules)
            train, test = samples.part(False), samples.part(True)
            record = doc["models"].get(variant, {}).get(seat, {})
            if check_only:
                w_int = np.array(record["weights"], dtype=np.int64)
            else:
                if scorer_only:
                    order = np.array(record["weights"][:ORDER_SIZE], dtype=np.int64)
                else:
                    order = np.round(fit(train) * SCALE).astype(np.int64)
                fitted = {}
                if refine:
                    scorer, fitted = refined_scorer(order, train, softmax_hands or MOST,
                                                    ANCHOR if anchor is None else anchor)
                else:
                    scorer = np.round(fit_scorer(train) * SCALE).astype(np.int64)
                w_int = np.concatenate([order, scorer])
                record = {"weights": w_int.tolist(), "hands": int(sum(len(g["idx"]) for g in train)),
                          "scorer_hands": int(sum(min(4_000, len(g["idx"])) for g in train)),
                          "deals_per_hand": samples.deals}
                if fitted:
                    record["scorer_fit"] = fitted
                    record["scorer_hands"] = fitted["fitting_hands"]  # least squares on up to 4,000 of
                    # each group of them, the softmax on fitted["softmax_hands"]
            record.update(held_out_figures(w_int, test))
            fitted_models[(variant, seat)] = record
            print(variant, seat, {k: v for k, v in record.items() if k != "weights"}, flush=True)
    # Read again before writing: a fit of other models that ended meanwhile keeps its weights.
    doc = _weights_doc()
    doc["features"] = feature_names()
    doc["scale"] = SCALE
    for (variant, seat), record in fitted_models.items():
        doc["models"].setdefault(variant, {})[seat] = record
    WEIGHTS_FILE.parent.mkdir(exist_ok=True)
    WEIGHTS_FILE.write_text(json.dumps(doc, indent=1) + "\n")


def younger_took(h: int) -> int:
    """How many cards elder took before younger's hand h exchanges: 5, or 1-4 for one hand in five
    (so that younger's biases for taking more than three cards are fitted in the leftovers variants)."""
    return 5 if h % 5 else 1 + (h // 5) % 4


CHUNK = 500
"""Hands per stored chunk: a sampling run stopped or killed resumes from its finished chunks."""


def sample(variant: str, seat: str, hands: int, deals: int, data: pathlib.Path, threads: int) -> None:
    """Store the mean net of every legal exchange of ``hands`` dealt hands (two independent halves of
    ``deals`` deals each: one to fit, one to check), CHUNK hands per file under data/<variant>-<seat>/,
    then all of them in data/<variant>-<seat>.npz (its held-out fifth chosen by ``split``)."""
    parts = data / f"{variant}-{seat}"
    parts.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    for start in range(0, hands, CHUNK):
        path = parts / f"hands-{start:06d}-{min(hands, start + CHUNK):06d}-deals-{deals}.npz"
        if not path.exists():
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **sample_hands(variant, seat, range(start, min(hands, start + CHUNK)), deals, threads))
            tmp.replace(path)
            print(f"{variant} {seat}: {min(hands, start + CHUNK)} hands, {time.time() - t0:.0f} s", flush=True)
    merge(parts, data / f"{variant}-{seat}.npz", hands, deals)


def sample_hands(variant: str, seat: str, hands: range, deals: int, threads: int) -> dict:
    """The hands' sampled values (``values_<took>``, ``checks_<took>``: one row per hand, in order)."""
    rules = get_rules(variant)
    me = HeuristicPolicy()
    younger = seat == "younger"
    out = {"hand": np.zeros(len(hands), np.int64), "took": np.zeros(len(hands), np.int8)}
    values: dict[int, list] = {}
    checks: dict[int, list] = {}
    for i, h in enumerate(hands):
        hand = dealt_hand(HAND_SEED, h, seat)
        took = younger_took(h) if younger else 5
        opts = legal_options(hand, seat, rules, took)
        pe = me.to_array(force_count=took) if younger else me.to_array()
        net, _ = play_options(hand, younger, opts, rules, pe, me.to_array(), HAND_SEED + 1 + h, deals, threads)
        chk, _ = play_options(hand, younger, opts, rules, pe, me.to_array(), HAND_SEED + 5_000_003 + h, deals,
                              threads)
        out["hand"][i] = hand
        out["took"][i] = took
        values.setdefault(took, []).append(net.mean(axis=0).astype(np.float32))
        checks.setdefault(took, []).append(chk.mean(axis=0).astype(np.float32))
    out.update({f"values_{k}": np.array(v) for k, v in values.items()})
    out.update({f"checks_{k}": np.array(v) for k, v in checks.items()})
    return out


def merge(parts: pathlib.Path, target: pathlib.Path, hands: int, deals: int) -> None:
    """Join the chunks of hands 0 .. hands - 1 (in order) into one file for ``fit``."""
    chunks = [np.load(parts / f"hands-{s:06d}-{min(hands, s + CHUNK):06d}-deals-{deals}.npz")
              for s in range(0, hands, CHUNK)]
    out = {"deals": deals, "split": "mix64", "hand": np.concatenate([c["hand"] for c in chunks]),
           "took": np.concatenate([c["took"] for c in chunks])}
    for key in sorted({k for c in chunks for k in c.files if k.startswith(("values_", "checks_"))}):
        out[key] = np.concatenate([c[key] for c in chunks if key in c.files])
    np.savez(target, **out)


def study_cost(study_csv: str, seat: str, seed: int = 0, samples: int = 4_000, threads: int = 2,
               variant: str = "seed-de"):
    """The shipped learned exchange's cost against each hand's raced best in a discard study of
    ``variant`` (``study_hands``' CSV, e.g. reports/piquet_discards_elder.csv), on the study's own held-out deals:
    per hand the same deals and seeds as the study's ``learned_cost`` column, so weights fitted since
    are measured exactly as the study measured the ones it ran with. (new estimate, the study's)."""
    import pandas as pd

    from analysis.cards import parse_cards
    from analysis.piquet.rules import mask_of
    from analysis.piquet.studies.discards.study import HELD_OUT_OFFSET, mean_over_hands, rule_discards

    df = pd.read_csv(study_csv)
    rules = get_rules(variant)
    me = HeuristicPolicy()
    younger = seat == "younger"
    pe = me.to_array(force_count=5) if younger else me.to_array()
    costs = []
    for h, best_names in zip(df["hand"], df["best_discard"], strict=True):
        hand = dealt_hand(seed, int(h), seat)
        best = mask_of(parse_cards(best_names))
        learned = rule_discards(hand, seat, rules)["learned"]
        if learned == best:
            costs.append(0.0)
            continue
        net, _ = play_options(hand, younger, np.array([best, learned], dtype=np.int64), rules, pe, me.to_array(),
                              seed + HELD_OUT_OFFSET + int(h), max(100, samples // 2), threads)
        costs.append(float((net[:, 0] - net[:, 1]).mean()))
    return mean_over_hands(costs), mean_over_hands(df["learned_cost"]), np.array(costs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("sample", "fit", "check", "cost"))
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--deals", type=int, default=48)
    ap.add_argument("--rules", nargs="*", default=list(VARIANTS))
    ap.add_argument("--seats", nargs="*", default=["elder", "younger"])
    ap.add_argument("--data", default="data/exchange")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--study", default="reports", help="cost: the folder of the discard study's CSV files")
    ap.add_argument("--scorer-only", action="store_true", help="fit: keep the shipped ordering")
    ap.add_argument("--softmax-hands", type=int, default=None,
                    help="fit --refine: hands of each group in the softmax fit (memory: ~1.4 MB each for elder)")
    ap.add_argument("--anchor", type=float, default=None,
                    help="fit --refine: the cross-entropy's weight beside the value (default learned_refine.ANCHOR; 0: none)")
    ap.add_argument("--refine", action="store_true",
                    help="fit: choose the scorer's fit on validation hands among least squares and the softmax stages")
    a = ap.parse_args()
    data = pathlib.Path(a.data)
    data.mkdir(parents=True, exist_ok=True)
    if a.step == "cost":  # seed-de: the report's CSV; other variants: the study command's (_<variant>.csv)
        for variant in a.rules:
            for seat in a.seats:
                name = f"piquet_discards_{seat}" + ("" if variant == "seed-de" else f"_{variant}")
                new, study, _ = study_cost(f"{a.study}/{name}.csv", seat, threads=a.threads, variant=variant)
                print(f"{variant} {seat}: the shipped learned exchange costs {new}; the study measured {study}",
                      flush=True)
        return
    if a.step == "sample":
        for variant in a.rules:
            for seat in a.seats:
                sample(variant, seat, a.hands, a.deals, data, a.threads)
    else:
        fit_all(data, a.rules, a.seats, a.scorer_only, check_only=a.step == "check", refine=a.refine,
                softmax_hands=a.softmax_hands, anchor=a.anchor)


if __name__ == "__main__":
    main()

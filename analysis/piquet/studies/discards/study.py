"""The discard strategy study: the analyser run over many random dealt hands, turned into tables
of what the best exchange does and what simple rules cost against it (``salon study piquet
discards``, the PQ-T2/T4/T5/T7/T13/T14 verdicts).

Hand ``h`` of a study with seed ``s`` is the dealt hand of the seat in deal ``h`` of
``reference.deal_cards(s, h)``; its analysis samples with seed ``s + 1 + h`` so hands do not
share sampled deals. Finished rows go to the result store (an item run of ``analysis/store.py``)
and are read back instead of recomputed, so a study interrupted by Ctrl-C or ``kill -9`` resumes
and a larger study reuses the hands it has; ``hand_rows`` is also the Dask task.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.reference import deal as ref
from analysis.piquet.reference.cards import deal_cards
from analysis.piquet.reference.policies import Player, point_suit
from analysis.piquet.reference.policies import guards as guarded_cards
from analysis.piquet.reference.scoring import category_points, sequences_of, sets_of
from analysis.piquet.rules import PiquetRules, get_rules
from analysis.piquet.studies.discards.analyser import Racing, analyse_hand, exchange_bounds
from analysis.stats import Estimate, mean_from_sums

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RULES_OF_THUMB = {
    "shortest_weakest": "throw the shortest suits' weakest cards first (PQ-T2)",
    "keep_point": "keep the point suit, throw the weakest other cards",
    "keep_guards": "younger: shortest and weakest first, but keep guards of kings and queens",
    "heuristic": "the engine's heuristic exchange (a 'typical' player)",
    "learned": "the learned exchange (the scorer fitted to the analyser, `--policy learned`)",
}


def dealt_hand(seed: int, h: int, seat: str) -> int:
    """The seat's dealt hand in deal h of the study."""
    deck = deal_cards(seed, h)
    cards = deck[:12] if seat == "elder" else deck[12:24]
    return sum(1 << c for c in cards)


def _by_key(hand: int, key) -> list[int]:
    return sorted((c for c in range(32) if hand >> c & 1), key=key)


def rule_discards(hand: int, seat: str, rules: PiquetRules, elder_took: int = 5) -> dict[str, int]:
    """The discard (mask) each rule of thumb makes, taking as many cards as the seat may."""
    lo, hi = exchange_bounds(seat, rules, elder_took)
    n = max(hi, lo)
    length = {s: bin(hand >> (8 * s) & 0xFF).count("1") for s in range(4)}
    shortest = _by_key(hand, lambda c: (length[c >> 3], c & 7, c >> 3))
    point = point_suit(hand)
    outside = _by_key(hand & ~(0xFF << (8 * point)), lambda c: (c & 7, length[c >> 3], c >> 3))
    guards = guarded_cards(hand)
    unguarded = [c for c in shortest if not guards >> c & 1]
    player = Player(HeuristicPolicy(), seat, None)
    learned = Player(HeuristicPolicy(exchange="learned"), seat, None)
    out = {
        "shortest_weakest": sum(1 << c for c in shortest[:n]),
        "keep_point": sum(1 << c for c in outside[:n]) if len(outside) >= lo else sum(1 << c for c in shortest[:n]),
        "heuristic": sum(1 << c for c in player.discard(hand, lo, hi)),
        "learned": sum(1 << c for c in learned.discard(hand, lo, hi, model=ref.exchange_model(rules))),
    }
    if seat == "younger":
        out["keep_guards"] = sum(1 << c for c in unguarded[:n])
    return out


def discard_features(hand: int, discard: int) -> dict[str, bool]:
    """What an exchange does with the dealt hand: throws a whole suit, throws only from the two
    shortest suits, keeps the point suit, its sequences, its sets (10s and up) and its guards."""
    lanes = [(hand >> (8 * s)) & 0xFF for s in range(4)]
    thrown = [(discard >> (8 * s)) & 0xFF for s in range(4)]
    held = [s for s in range(4) if lanes[s]]
    shortest = sorted(held, key=lambda s: (bin(lanes[s]).count("1"), s))[:2]
    in_sequences = sum(1 << code for length, top in sequences_of(hand)
                       for code in range(top - length + 1, top + 1))
    in_sets = sum(1 << (8 * s + rank) for _, rank in sets_of(hand) for s in range(4)
                  if hand >> (8 * s + rank) & 1)
    return {
        "throws_whole_suit": any(lanes[s] and thrown[s] == lanes[s] for s in range(4)),
        "throws_only_shortest": all(not thrown[s] or s in shortest for s in range(4)),
        "keeps_point_suit": not thrown[point_suit(hand)],
        "keeps_sequences": not discard & in_sequences,
        "keeps_sets": not discard & in_sets,
        "keeps_guards": not discard & guarded_cards(hand),
    }


FEATURES = ("throws_whole_suit", "throws_only_shortest", "keeps_point_suit", "keeps_sequences", "keeps_sets",
            "keeps_guards")


def declaration_value(hand: int) -> int:
    """The dealt hand's own declarations, scored as if it won every category (a strength measure)."""
    return sum(category_points(cat, hand) for cat in ("point", "sequences", "sets"))


HELD_OUT_OFFSET = 7_000_003
"""The held-out deals of hand h are sampled with seed + HELD_OUT_OFFSET + h: never the race's."""
RANDOM_OPTIONS = 32
"""A random legal exchange's cost is averaged over this many options drawn (independently of the
deals) from the hand's legal exchanges."""


def hand_row(h: int, seat: str, rules: PiquetRules, samples: int, seed: int, elder_took: int,
             threads: int | None = None) -> dict:
    """The study's row of hand ``h``: the best exchange and what each rule of thumb and a random
    exchange cost (plain Python ints, floats, bools and strings).

    The race (discards.analyse_hand, ``samples`` deals) chooses the best exchange and the extreme
    exchanges (most declaring, most tricks...); every cost and the best's net are then measured on
    ``samples // 2`` other deals (held out), so that the best is not flattered by the deals that
    picked it."""
    hand = dealt_hand(seed, h, seat)
    rule_masks = rule_discards(hand, seat, rules, elder_took)
    a = analyse_hand(hand, seat, rules, samples=samples, seed=seed + 1 + h, elder_took=elder_took, threads=threads, race=Racing(keep=tuple(rule_masks.values())))
    t = a.table
    best = t.iloc[0]
    _, hi = exchange_bounds(seat, rules, elder_took)
    best_o = int(best["option"])
    take_all_o = int(t[t["cards"] == hi].iloc[0]["option"])
    # Trade-offs among the options every deal of round 1 played (all of them): the extremes.
    first = a.race.rounds[0]
    f = first.flags
    share = {name: ((f & bit) != 0).mean(axis=0) for name, bit in (("point", 1), ("seq", 2), ("sets", 4),
                                                                     ("repique", 8), ("cards", 64))}
    extremes = {label: int(first.options[int(np.argmax(score))])
                for label, score in (("repique", share["repique"]), ("declaring", share["point"] + share["seq"]
                                                                       + share["sets"]),
                                     ("tricks", share["cards"]), ("point", share["point"]),
                                     ("sequence", share["seq"]))}
    rng = np.random.default_rng([seed, h, 17])
    randoms = [int(o) for o in rng.choice(len(a.options), size=min(RANDOM_OPTIONS, len(a.options)), replace=False)]
    rule_os = {name: int(np.flatnonzero(a.options == mask)[0]) for name, mask in rule_masks.items()}
    chosen = [best_o, take_all_o, *rule_os.values(), *extremes.values(), *randoms]
    net = held_out_nets(a, seat, rules, chosen, seed + HELD_OUT_OFFSET + h, max(100, samples // 2), elder_took, threads)
    col = {o: net[:, i] for i, o in enumerate(chosen)}  # (duplicates map to equal columns)

    def cost(o):
        return float((col[best_o] - col[o]).mean())

    row = {"hand": h, "cards": " ".join(best["keep"] + best["discard"]), "best_discard": " ".join(best["discard"]),
           "best_takes": int(best["cards"]), "best_net": float(col[best_o].mean()), "deals": int(best["n"]),
           "held_out_deals": int(net.shape[0]), "dealt_declarations": declaration_value(hand)}
    best_mask = int(a.options[best_o])
    row.update({f"best_{k}": v for k, v in discard_features(hand, best_mask).items()})
    row["random_cost"] = float(np.mean([cost(o) for o in randoms]))
    row["take_all_cost"] = cost(take_all_o)
    for name, o in rule_os.items():
        row[f"{name}_cost"] = cost(o)
        row[f"{name}_cost_sq_n"] = int(net.shape[0])
        row[f"{name}_is_best"] = bool(t[t["option"] == o].iloc[0]["rank"] == 1)
    for label, o in extremes.items():
        row[f"max_{label}_differs"] = o != best_o
        row[f"max_{label}_cost"] = cost(o)
        row[f"max_{label}_option"] = o
    row["declaring_minus_tricks"] = float((col[extremes["declaring"]] - col[extremes["tricks"]]).mean())
    row["sequence_minus_point"] = float((col[extremes["sequence"]] - col[extremes["point"]]).mean())
    return row


def held_out_nets(a, seat: str, rules: PiquetRules, options: list[int], seed: int, n: int, elder_took: int,
              threads: int | None) -> np.ndarray:
    """Net scores (n, options) of the listed options (indexes into a.options) on n deals of
    ``seed``, heuristic players as in the race."""
    from analysis.piquet.studies.discards.analyser_search import play_options

    younger = seat == "younger"
    me = HeuristicPolicy()
    pe, py = (me.to_array(force_count=elder_took), me.to_array()) if younger else (me.to_array(), me.to_array())
    return play_options(a.hand, younger, a.options[np.array(options)], rules, pe, py, seed, n, threads)[0]


def hand_rows(hands: list[int], seat: str, rules: PiquetRules, samples: int, seed: int, elder_took: int,
              threads: int | None = None) -> list[dict]:
    """The rows of the listed hands, in order (one Dask task of the study)."""
    return [hand_row(int(h), seat, rules, samples, seed, elder_took, threads) for h in hands]


STUDY = "piquet.discards"
SAVE_HANDS = 8
"""Locally, finished rows go to the result store every SAVE_HANDS hands or SAVE_SECONDS seconds."""
SAVE_SECONDS = 5.0
DASK_HANDS = 4
"""Hands per Dask task (seconds of work each at the default samples)."""


def study_spec(seat: str, rules: PiquetRules, samples: int, seed: int, elder_took: int) -> dict:
    """What decides the study's rows (the result store's key; the number of hands is left out so a
    larger study reuses the hands it has). Elder's rows do not depend on ``elder_took``."""
    younger = seat == "younger"
    opponent = HeuristicPolicy().to_array(force_count=elder_took) if younger else HeuristicPolicy().to_array()
    return {"seat": seat, "rules": rules.name, "switches": rules.to_array().tolist(),
            "policies": {"me": HeuristicPolicy().to_array().tolist(), "opponent": opponent.tolist()},
            "samples": int(samples), "seed": int(seed), "elder_took": int(elder_took) if younger else None,
            "held_out": {"offset": HELD_OUT_OFFSET, "random_options": RANDOM_OPTIONS}}


def _consecutive(items: list[int], most: int) -> list[list[int]]:
    """The items cut into runs of consecutive numbers of at most ``most`` (a stored file holds one)."""
    out: list[list[int]] = []
    for i in items:
        if out and i == out[-1][-1] + 1 and len(out[-1]) < most:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def study_hands(hands: int, seat: str = "elder", rules: PiquetRules | None = None, *, samples: int = 4_000,
                seed: int = 0, elder_took: int = 5, threads: int | None = None, progress: bool = False):
    """One row per hand: the best exchange and what each rule of thumb and a random exchange cost.

    Rows already in the result store (analysis/store.py, an item run keyed by ``study_spec``) are
    read, not computed; finished rows are written to it as the study goes, so an interrupted study
    resumes. With a Dask backend (``runner.use_backend``) the missing hands go to the workers,
    DASK_HANDS per task. The table is the same, value for value and dtype for dtype, either way."""
    import pandas as pd

    from analysis import runner, store

    rules = rules or get_rules()
    exchange_bounds(seat, rules, elder_took)
    runner.check_seed(seed)
    stored = store.open_items(STUDY, study_spec(seat, rules, samples, seed, elder_took), __name__)
    have = stored.load() if stored is not None else {}
    rows = {h: have[h] for h in range(hands) if h in have}
    missing = [h for h in range(hands) if h not in rows]
    from tqdm.auto import tqdm

    with tqdm(total=hands, initial=len(rows), desc="hands", leave=False, disable=not progress) as bar:
        if missing and runner._backend is not None:
            backend = runner._backend
            batches = _consecutive(missing, DASK_HANDS)
            calls = [(b, seat, rules, samples, seed, elder_took, backend.threads) for b in batches]
            for i, done in backend.map_calls(hand_rows, calls):
                rows.update(zip(batches[i], done, strict=True))
                if stored is not None:
                    stored.save(batches[i], done)
                bar.update(len(done))
        elif missing:
            run_locally(missing, rows, stored, bar, (seat, rules, samples, seed, elder_took, threads))
    df = pd.DataFrame([rows[h] for h in range(hands)])
    df.attrs.update({"seat": seat, "rules": rules.name, "hands": hands, "samples": samples, "seed": seed,
                     "elder_took": elder_took if seat == "younger" else None})
    return df


def run_locally(missing: list[int], rows: dict, stored, bar, args: tuple, row=None) -> None:
    """Compute the missing hands one by one (``row(h, *args)``, by default ``hand_row``); write the
    finished rows to the store every SAVE_HANDS hands or SAVE_SECONDS seconds, and what is finished
    when stopped (Ctrl-C)."""
    row = row or hand_row
    import time

    pending: list[int] = []
    last = time.monotonic()

    def flush() -> None:
        nonlocal last
        if stored is not None and pending:
            stored.save(pending, [rows[h] for h in pending])
        pending.clear()
        last = time.monotonic()

    try:
        for h in missing:
            if pending and h != pending[-1] + 1:
                flush()  # a stored file holds consecutive hands
            rows[h] = row(h, *args)
            pending.append(h)
            bar.update(1)
            if len(pending) >= SAVE_HANDS or time.monotonic() - last >= SAVE_SECONDS:
                flush()
    finally:
        flush()


def mean_over_hands(values) -> Estimate:
    """The mean of per-hand values with a t interval across hands (hand-to-hand and sampling noise)."""
    x = np.asarray(values, dtype=np.float64)
    # Work in hundredths so the integer sums of analysis.stats apply.
    k = np.round(x * 100).astype(np.int64)
    e = mean_from_sums(int(k.sum()), int((k * k).sum()), len(k))
    return Estimate(e.value / 100, e.lo / 100, e.hi / 100, e.n)


def summary(df) -> dict:
    """The study's tables: cards the best exchange takes, what each rule costs, trade-offs."""
    n = len(df)
    takes = df["best_takes"].value_counts().sort_index()
    out = {
        "hands": n,
        "best_takes": {int(k): float(v / n) for k, v in takes.items()},
        "random_cost": mean_over_hands(df["random_cost"]).to_dict(),
        "take_all_cost": mean_over_hands(df["take_all_cost"]).to_dict(),
        "rules": {},
        "declarations_by_cards_taken": {int(k): float(v) for k, v in
                                        df.groupby("best_takes")["dealt_declarations"].mean().items()},
    }
    out["best_exchange"] = {k: float(df[f"best_{k}"].mean()) for k in FEATURES}
    for name in RULES_OF_THUMB:
        if f"{name}_cost" in df:
            out["rules"][name] = {"cost": mean_over_hands(df[f"{name}_cost"]).to_dict(),
                                  "is_best": float(df[f"{name}_is_best"].mean()), "rule": RULES_OF_THUMB[name]}
    for label in ("repique", "declaring", "tricks", "point", "sequence"):
        out[f"max_{label}"] = {"differs": float(df[f"max_{label}_differs"].mean()),
                               "cost": mean_over_hands(df[f"max_{label}_cost"]).to_dict()}
    out["declaring_minus_tricks"] = mean_over_hands(df["declaring_minus_tricks"]).to_dict()
    out["sequence_minus_point"] = mean_over_hands(df["sequence_minus_point"]).to_dict()
    return out


def plot_discard_study(df) -> Figure:
    """Cards taken by the best exchange, and the cost of each rule of thumb with 95% intervals
    (``study_hands``' table): a new figure of two panels, returned."""
    import matplotlib.pyplot as plt

    s = summary(df)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ks = sorted(s["best_takes"])
    axes[0].bar(ks, [s["best_takes"][k] for k in ks])
    axes[0].set_xlabel("cards the best exchange takes")
    axes[0].set_ylabel("share of hands")
    axes[0].set_title(f"{df.attrs['seat']}, {df.attrs['rules']}: {len(df)} hands")
    names = list(s["rules"]) + ["take_all", "random"]
    costs = [s["rules"][k]["cost"] for k in s["rules"]] + [s["take_all_cost"], s["random_cost"]]
    y = np.arange(len(names))
    vals = np.array([c["value"] for c in costs])
    err = np.array([[c["value"] - c["ci95"][0] for c in costs], [c["ci95"][1] - c["value"] for c in costs]])
    axes[1].barh(y, vals, xerr=err, capsize=3)
    axes[1].set_yticks(y, names)
    axes[1].set_xlabel("points per deal given up against the best exchange (95%)")
    fig.tight_layout()
    return fig


def study_figures(df, stem: str) -> list[str]:
    """Cards taken by the best exchange, and the cost of each rule of thumb (PNG and SVG); returns
    the paths (``stem.png``, ``stem.svg``). The figure is ``plot_discard_study``."""
    from analysis.plots import headless, save_figure

    headless()
    return save_figure(plot_discard_study(df), stem)

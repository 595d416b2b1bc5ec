"""The discard study under double-dummy play: what to throw when the cards are played well.

The study's hands are the heuristic discard study's (``studies.discards.study.dealt_hand``). For each hand
the heuristic race (``studies.discards.analyser.analyse_hand``, ``race_samples`` deals, the rules of thumb kept in
it) names the leading ``candidates`` exchanges; they, every rule of thumb's exchange and the
take-all exchange are then played by open-hands players (``DoubleDummyPolicy``) on ``deals``
common deals that choose the best, and on ``deals`` other deals that measure everything reported:
the best's net score and each exchange's cost against it. So the best is not flattered by the
deals that chose it, and the heuristic race's own best is judged by strong play on deals neither
ranking saw. Hand ``h`` chooses on seed ``seed + CHOOSE_OFFSET + h`` and reports on
``seed + REPORT_OFFSET + h``. The open-hands player is a bound on good play, not a legal player:
each player sees both hands in the trick play (the exchange and declarations are the heuristic's).

Rows go to the result store as they finish (an item run), so the study resumes when stopped.
"""
from __future__ import annotations

import numpy as np

from analysis.piquet.rules import PiquetRules, get_rules
from analysis.piquet.studies.discards.analyser import Racing, analyse_hand, exchange_bounds
from analysis.piquet.studies.discards.study import (
    FEATURES,
    dealt_hand,
    discard_features,
    mean_over_hands,
    rule_discards,
)

STUDY = "piquet.discards.dd"
CHOOSE_OFFSET = 11_000_003
REPORT_OFFSET = 12_000_003
COSTS = ("race_best", "take_all", "shortest_weakest", "keep_point", "keep_guards", "heuristic", "learned")
"""The exchanges whose cost against the double-dummy best each row reports: the heuristic race's
best, taking every card, and each rule of thumb (studies/discards/study.RULES_OF_THUMB)."""


def dd_choose_and_report(hand: int, younger: bool, masks: np.ndarray, rules: PiquetRules, seed: int, h: int,
                         deals: int, elder_took: int, threads: int | None = None) -> tuple:
    """Hand ``h``'s exchanges ``masks`` played by open-hands players on ``deals`` deals that choose
    the best (seed + CHOOSE_OFFSET + h) and ``deals`` others that report (seed + REPORT_OFFSET + h):
    (choosing nets, reporting nets, reporting flags)."""
    from analysis.piquet.policies import DoubleDummyPolicy
    from analysis.piquet.studies.discards.analyser_search import play_options, policy_arrays

    pe, py = policy_arrays(DoubleDummyPolicy(), younger, elder_took)
    chose, _ = play_options(hand, younger, masks, rules, pe, py, seed + CHOOSE_OFFSET + h, deals, threads)
    net, flags = play_options(hand, younger, masks, rules, pe, py, seed + REPORT_OFFSET + h, deals, threads)
    return chose, net, flags


def strong_hand_row(h: int, seat: str, rules: PiquetRules, race_samples: int, candidates: int, deals: int,
                    seed: int, elder_took: int, threads: int | None = None) -> dict:
    """Hand ``h``'s row: the double-dummy best exchange, its net score and each COSTS exchange's
    cost against it (points per deal, on the report deals), and where the race's best ranks."""
    from analysis.piquet.studies.discards.analyser import card_names

    hand = dealt_hand(seed, h, seat)
    rule_masks = rule_discards(hand, seat, rules, elder_took)
    a = analyse_hand(hand, seat, rules, samples=race_samples, seed=seed + 1 + h, elder_took=elder_took, threads=threads, race=Racing(keep=tuple(rule_masks.values())))
    t = a.table
    _, most = exchange_bounds(seat, rules, elder_took)
    named = {"race_best": int(a.options[int(t.iloc[0]["option"])]),
             "take_all": int(a.options[int(t[t["cards"] == most].iloc[0]["option"])]), **rule_masks}
    masks = list(dict.fromkeys([int(m) for m in a.options[t["option"].to_numpy()[:candidates]]] + list(named.values())))
    arr = np.array(masks, dtype=np.int64)
    younger = seat == "younger"
    chose, net, flags = dd_choose_and_report(hand, younger, arr, rules, seed, h, deals, elder_took, threads)
    best = int(np.argmax(chose.mean(axis=0)))
    best_mask = masks[best]
    row = {"hand": h, "cards": " ".join(card_names(hand)), "dd_best_discard": " ".join(card_names(best_mask)),
           "dd_best_takes": bin(best_mask).count("1"), "dd_best_net": float(net[:, best].mean()),
           "exchanges_played": len(masks), "deals": int(deals),
           "race_best_dd_rank": int(np.flatnonzero(np.argsort(-chose.mean(axis=0), kind="stable")
                                                   == masks.index(named["race_best"]))[0]) + 1,
           "agrees_with_race": best_mask == named["race_best"]}
    row.update({f"dd_best_{k}": v for k, v in discard_features(hand, best_mask).items()})
    for name in COSTS:
        if name in named:
            row[f"{name}_cost"] = float((net[:, best] - net[:, masks.index(named[name])]).mean())
    return row


def study_spec(seat: str, rules: PiquetRules, race_samples: int, candidates: int, deals: int, seed: int,
               elder_took: int) -> dict:
    """What decides the rows (the store's key; the number of hands is left out)."""
    from analysis.piquet.policies import DoubleDummyPolicy, HeuristicPolicy

    return {"seat": seat, "rules": rules.name, "switches": rules.to_array().tolist(),
            "players": {"race": HeuristicPolicy().to_array().tolist(), "play": DoubleDummyPolicy().to_array().tolist()},
            "race_samples": int(race_samples), "candidates": int(candidates), "deals": int(deals), "seed": int(seed),
            "elder_took": int(elder_took) if seat == "younger" else None,
            "offsets": [CHOOSE_OFFSET, REPORT_OFFSET]}


def strong_study(hands: int, seat: str = "elder", rules: PiquetRules | None = None, *, race_samples: int = 1_000,
                 candidates: int = 10, deals: int = 400, seed: int = 0, elder_took: int = 5,
                 threads: int | None = None, progress: bool = False):
    """One row per hand (``strong_hand_row``), read from the result store where it is already there."""
    import pandas as pd
    from tqdm.auto import tqdm

    from analysis import runner, store
    from analysis.piquet.studies.discards.study import run_locally

    rules = rules or get_rules()
    exchange_bounds(seat, rules, elder_took)
    runner.check_seed(seed)
    for name, value in (("hands", hands), ("race samples", race_samples), ("candidates", candidates),
                        ("deals", deals)):
        if value < 1:
            from analysis.errors import InputError

            raise InputError(f"{name} must be positive, not {value}")
    stored = store.open_items(STUDY, study_spec(seat, rules, race_samples, candidates, deals, seed, elder_took),
                             __name__)
    have = stored.load() if stored is not None else {}
    rows = {h: have[h] for h in range(hands) if h in have}
    missing = [h for h in range(hands) if h not in rows]
    with tqdm(total=hands, initial=len(rows), desc="hands (dd)", leave=False, disable=not progress) as bar:
        if missing:
            run_locally(missing, rows, stored, bar,
                         (seat, rules, race_samples, candidates, deals, seed, elder_took, threads), row=strong_hand_row)
    df = pd.DataFrame([rows[h] for h in range(hands)])
    df.attrs.update({"seat": seat, "rules": rules.name, "hands": hands, "race_samples": race_samples,
                     "candidates": candidates, "deals": deals, "seed": seed, "players": "dd (open hands)",
                     "elder_took": elder_took if seat == "younger" else None})
    return df


def strong_summary(df) -> dict:
    """Across hands: the cards the dd best takes, its patterns, each exchange's cost against it
    (mean over hands with a t interval), and how often the heuristic race's best is the dd best."""
    n = len(df)
    out = {"hands": n, "deals_per_stage": int(df.attrs.get("deals", 0)), "players": "dd (open hands) trick play",
           "best_takes": {int(k): float(v / n) for k, v in df["dd_best_takes"].value_counts().sort_index().items()},
           "best_exchange": {k: float(df[f"dd_best_{k}"].mean()) for k in FEATURES},
           "agrees_with_race": float(df["agrees_with_race"].mean()),
           "race_best_dd_rank_median": float(df["race_best_dd_rank"].median()),
           "costs": {name: mean_over_hands(df[f"{name}_cost"]).to_dict() for name in COSTS if f"{name}_cost" in df}}
    return out

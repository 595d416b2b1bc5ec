"""The Écarté equilibrium tables shipped with the package (analysis/ecarte/data): written from a
study's tables (``ship``, by scripts/make_equilibrium_tables.py), read back (``shipped``) and
used to answer one hand (``answer``: ``salon ecarte propose``)."""
from __future__ import annotations

import dataclasses
import functools
import json
import os

import numpy as np

from analysis.ecarte.engine import buckets as TB
from analysis.ecarte.rules import EcarteRules, get_rules
from analysis.ecarte.studies.equilibrium.measures import decision_words
from analysis.ecarte.studies.equilibrium.study import SIDES, table_stem

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")
POINT_UNIT = 1e-4
PROBABILITY_UNIT = 65535
SHIPPED_COLUMNS = {"elder": ("info_set", "propose_probability", "propose_minus_play", "half_width",
                             "propose_minus_play_held_out", "held_out_half_width", "clear", "fit_deals"),
                   "dealer": ("info_set", "refuse_probability", "refuse_minus_accept", "half_width",
                              "refuse_minus_accept_held_out", "held_out_half_width", "clear", "fit_deals",
                              "p_proposal")}


def shipped_name(rules_name: str, leads: str, reads: str = "none") -> str:
    """The shipped tables' file stem: ``equilibrium_<rules>``, with ``_learned`` when played with
    the learned leads (policies.HeuristicPolicy.leads), ``_reading`` when those leads read the
    first decision (``reads``)."""
    if reads != "none":
        return f"equilibrium_{rules_name}_reading"
    return f"equilibrium_{rules_name}" + ("_learned" if leads == "learned" else "")


def ship(out_dir: str, rules_name: str, data_dir: str = DATA_DIR) -> list[str]:
    """The package's copy of a study's tables (written by ``write_tables`` and the summary JSON in
    ``out_dir``): the columns a one-hand answer needs, as float32, and the summary."""
    import pandas as pd

    stem = table_stem(out_dir, rules_name)
    with open(f"{stem}_summary.json") as f:
        summary_ = json.load(f)
    os.makedirs(data_dir, exist_ok=True)
    frames = []
    for side in SIDES:
        df = pd.read_parquet(f"{stem}_{side}.parquet", columns=list(SHIPPED_COLUMNS[side]))
        df = df.rename(columns={SHIPPED_COLUMNS[side][1]: "probability", SHIPPED_COLUMNS[side][2]: "value",
                                SHIPPED_COLUMNS[side][4]: "held_out"})
        df.insert(0, "side", side)
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    # Small integers keep the package small: points in units of POINT_UNIT, probabilities in 1/65535.
    for c in ("value", "half_width", "held_out", "held_out_half_width"):
        df[c] = np.round(np.clip(df[c].fillna(0), -3.2767, 3.2767) / POINT_UNIT).astype(np.int16)
    for c in ("probability", "p_proposal"):
        df[c] = np.round(df[c].fillna(0) * PROBABILITY_UNIT).astype(np.uint16)
    df["info_set"] = df["info_set"].astype(np.int32)
    df["fit_deals"] = df["fit_deals"].astype(np.int32)
    target = os.path.join(data_dir, shipped_name(rules_name, summary_["policy"].get("leads", "heuristic"),
                                                   summary_["policy"].get("reads", "none")))
    df.to_parquet(target + ".parquet", index=False, compression="zstd")
    if os.path.exists(f"{stem}_score_changes.parquet"):
        ch = pd.read_parquet(f"{stem}_score_changes.parquet",
                             columns=["side", "elder_score", "dealer_score", "info_set", "probability"])
        ch["elder_score"] = ch["elder_score"].astype(np.int8)
        ch["dealer_score"] = ch["dealer_score"].astype(np.int8)
        ch["info_set"] = ch["info_set"].astype(np.int32)
        ch["probability"] = np.round(ch["probability"] * PROBABILITY_UNIT).astype(np.uint16)
        ch.to_parquet(target + "_score.parquet", index=False, compression="zstd")
    summary_.pop("files", None)
    summary_.setdefault("switches", get_rules(rules_name).switches())
    with open(target + ".json", "w") as f:
        json.dump(summary_, f, indent=1)
    return [target + ".parquet", target + ".json"] + ([target + "_score.parquet"]
                                                        if os.path.exists(target + "_score.parquet") else [])


def tables_play(rules: EcarteRules, policy):
    """The play whose tables answer for ``policy``: the one model shipped per variant is played with
    the learned leads reading the other's first decision (``reads`` = these rules), so a heuristic
    policy that does not read is answered by those tables played with its other parameters; a
    policy that reads is answered only by tables played with the same reading."""
    if getattr(policy, "reads", "none") != "none" or getattr(policy, "leads", None) is None:
        return policy
    from analysis.ecarte.players.reading import read_variants

    if rules.name not in read_variants():
        return policy
    return dataclasses.replace(policy, leads="learned", reads=rules.name)


def shipped(rules: EcarteRules, policy, exact: bool = False) -> tuple | None:
    """(tables, summary) shipped for these rules (switches included) and policy, or None: the
    tables of ``tables_play`` (the summary's ``play_policy`` names who plays inside them), or with
    ``exact`` only tables played with ``policy`` itself."""
    pol = policy if exact else tables_play(rules, policy)
    got = shipped_file(rules, pol.leads, pol.reads)
    # Tables answer for the policy they were played with, and for the policy whose discards were
    # replaced by the fitted rule inside them (``base_policy``).
    if got is not None and pol.describe() in (got[1].get("policy"), got[1].get("base_policy")):
        return got
    return None


def shipped_file(rules: EcarteRules, leads: str, reads: str = "none") -> tuple | None:
    """(tables, summary) of the shipped file for these rules (switches included) and play, in points
    and probabilities, whatever the weights and ratios it was played with, or None."""
    import pandas as pd

    target = os.path.join(DATA_DIR, shipped_name(rules.name, leads, reads))
    if not os.path.exists(target + ".json"):
        return None
    with open(target + ".json") as f:
        summary_ = json.load(f)
    if summary_.get("switches") != json.loads(json.dumps(rules.switches())):
        return None
    df = pd.read_parquet(target + ".parquet")
    for c in ("value", "half_width", "held_out", "held_out_half_width"):
        df[c] = df[c] * POINT_UNIT
    for c in ("probability", "p_proposal"):
        df[c] = df[c] / PROBABILITY_UNIT
    summary_["tables"] = f"analysis/ecarte/data/{os.path.basename(target)}.parquet"
    return df, summary_


@functools.lru_cache(maxsize=4)
def _score_changes(path: str):
    """A shipped table of the decisions by score, read once per process (a game's review asks it per hand)."""
    import pandas as pd

    return pd.read_parquet(path)


def answer(codes, turnup: int, rules: EcarteRules, policy, score: tuple[int, int] | None = None) -> dict | None:
    """Elder's decision for a hand (Écarté codes) and turn-up from the shipped equilibrium, or None
    when none is shipped for these rules and policy (or, with ``score``, none by score)."""
    from analysis.ecarte.studies.strategy.tables import canonical_mask, hand_label, hands

    got = shipped(rules, policy)
    if got is None:
        return None
    df, summary_ = got
    mask = canonical_mask(codes, turnup)
    cls = int(np.searchsorted(hands().masks, mask))
    bucket = TB.turnup_bucket(mask, turnup & 7)
    info = TB.N_BUCKETS * cls + bucket
    row = df[(df["side"] == "elder") & (df["info_set"] == info)].iloc[0]
    p = float(row["probability"])
    decision = str(decision_words(np.array([p]), "propose", "play")[0])
    out = {"source": "tables", "tables": summary_["tables"],
            "method": summary_["method"], "rules": rules.name, "budget": summary_["budget"],
            "opponent": "the dealer's equilibrium answers (refusing by the solved table)",
            "play_policy": summary_["play_policy"], "class": hand_label(mask), "bucket": TB.BUCKET_NAMES[bucket],
            "propose_probability": p, "recommendation": decision,
            "difference": {"value": float(row["value"]), "halfwidth": float(row["half_width"]),
                           "deals": int(row["fit_deals"]), "what": "propose minus play, points per hand, on the "
                                                                   "deals the equilibrium was solved on"},
            "held_out": {"value": float(row["held_out"]), "halfwidth": float(row["held_out_half_width"]),
                         "clear": bool(row["clear"])},
            "exploitability": summary_["exploitability"]}
    if score is not None:
        path = os.path.join(DATA_DIR, os.path.basename(summary_["tables"]).replace(".parquet", "_score.parquet"))
        if not os.path.exists(path):
            return None
        ch = _score_changes(path)
        hit = ch[(ch["side"] == "elder") & (ch["info_set"] == info) & (ch["elder_score"] == score[0])
                 & (ch["dealer_score"] == score[1])]
        out["score"] = list(score)
        out["points_recommendation"] = decision
        if len(hit):
            p_score = float(hit["probability"].iloc[0]) / PROBABILITY_UNIT
            out["recommendation"] = str(decision_words(np.array([p_score]), "propose", "play")[0])
            out["propose_probability"] = p_score
        out["score_note"] = ("decisions by score change only where the change is clear on held-out deals "
                             "(FDR 5% at that score); elsewhere the points decision stands")
    return out

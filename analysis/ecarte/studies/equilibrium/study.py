"""Écarté's first proposal as a solved game: every branch of it simulated once per deal, the
equilibrium solved over the records with CFR+, and both sides' exploitability measured on
held-out deals (``salon study ecarte strategy --budget``; docs/ecarte-engine.md, "Equilibrium").

Information sets are hand classes (``studies.strategy.tables.hands``) times the turn-up's bucket
(``engine/buckets.py``). Deals are spent where decisions are close: every set of both sides starts
with ``Budget.first`` deals; after each solve, the sets whose decision is not clear (the value of
proposing, or refusing, within ``RACE_Z`` standard errors of zero, or a mixed strategy) get as many
again, up to ``Budget.cap``, until the weighted stake of the undecided sets is under half the
exploitability target. The solution is then measured on deals of other seeds, with as many deals
per set as the fit used.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from analysis import __version__
from analysis.ecarte.engine import buckets as TB
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import EcarteRules, get_rules
from analysis.ecarte.studies.equilibrium import branches as BK
from analysis.ecarte.studies.equilibrium import solver as S
from analysis.ecarte.studies.equilibrium.by_score import race_by_score
from analysis.ecarte.studies.equilibrium.measures import (
    FDR,
    RACE_Z,
    TARGET,
    decision_words,
    info_sets,
    measure,
    phase_records,
)
from analysis.errors import InputError

SIDES = ("elder", "dealer")
TASK_DEALS = 512
HELD_OUT_SEED = 1_000_003
"""The held-out records use seed + HELD_OUT_SEED (elder's) and + HELD_OUT_SEED + 1 (the dealer's);
the fit uses seed and seed + 1."""


@dataclass(frozen=True)
class Budget:
    """Deals per information set at the start and at most, race rounds, CFR+ iterations per solve
    (of the points game; at each score the most, ``studies.equilibrium.by_score.solve_until``), the deals per
    set the game at each score starts from (the race's first ones, at most ``score_cap``), and the
    rounds of the race by score and the deals each may add, as a share of those it has (the open
    sets of highest stake get as many deals again, up to ``cap``, and every score is solved again)."""

    name: str
    first: int
    cap: int
    rounds: int
    iterations: int
    score_iterations: int
    score_cap: int
    score_rounds: int
    score_growth: float


BUDGETS = {"quick": Budget("quick", 4, 16, 1, 100, 100, 16, 0, 0.0),
           "standard": Budget("standard", 256, 8192, 5, 400, 800, 2048, 2, 0.25)}

PEAK_GB = {"quick": 0.8, "standard": 5.8}
"""The study's measured peak memory by budget (``/usr/bin/time -v``; docs/ecarte-engine.md,
"Memory"): the quick budget about 710 MB, the standard one 5.8 GB (its 300 million fitted records
and as many held out, 7 bytes each in ``solver.Records``)."""


def available_gb() -> float | None:
    """The memory this machine can give a new process now (Linux MemAvailable), in GB; None when
    it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024 ** 2
    except (OSError, ValueError):
        pass
    return None


def check_memory(budget: str) -> None:
    """Refuse, in one line, a budget whose measured peak does not fit the memory available now
    (before any work: the standard study is otherwise killed about 30 minutes in)."""
    free = available_gb()
    need = PEAK_GB[budget]
    if free is not None and need > free:
        cheaper = [b for b, gb in PEAK_GB.items() if gb <= free]
        raise InputError(f"the Écarté equilibrium at --budget {budget} needs about {need:g} GB of memory at its peak "
                         f"and this machine has {free:.1f} GB available"
                         + (f": use --budget {cheaper[0]} (about {PEAK_GB[cheaper[0]]:g} GB)" if cheaper else ""))


def play_words(policy: HeuristicPolicy) -> str:
    """Who plays inside the records after the first proposal and answer."""
    from analysis.ecarte.studies.equilibrium.discard_rule import rank_words

    tricks = "trick play with the learned leads" if policy.leads == "learned" else "trick play"
    if policy.reads != "none":
        tricks += f" reading the other's first decision (reads={policy.reads})"
    if policy.keep_plain_min_rank == HeuristicPolicy().keep_plain_min_rank:
        return f"heuristic (discards, later proposals and {tricks})"
    return (f"heuristic (later proposals and {tricks}); discards by the fitted rule: keep trumps and "
            f"{rank_words(policy.keep_plain_min_rank)}")


# ------------------------------------------------------------------------------ records
ENGINE_SOURCES = ("ecarte/engine/*.py", "ecarte/play/hand.py", "ecarte/play/exchange.py", "ecarte/play/tricks.py",
                  "ecarte/play/paired.py", "ecarte/players/heuristic.py",
                  "ecarte/studies/equilibrium/branches.py", "ecarte/studies/strategy/kernel.py",
                  "ecarte/players/learned.py", "ecarte/policies.py", "ecarte/rules.py", "rng.py", "bits.py")
"""The sources the records depend on (the hand engine and the branch kernel; the learned leads'
weights are in the policy's description): the cache's key
hashes them rather than the whole package, so that work on the solver, the measures or the
outputs reuses the simulated records."""


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]  # analysis/
    h = hashlib.sha256()
    for pattern in ENGINE_SOURCES:
        for path in sorted(root.glob(pattern)):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:20]


def temporary_name(name: str) -> str:
    """The name a file of the cache is written under before it is renamed to ``name`` (``.tmp`` in
    it: ``salon results prune`` removes one a killed run left)."""
    return f".{name}.tmp{os.getpid()}"


class RecordCache:
    """Finished simulation phases as .npz files under the result store (resumable runs), and the
    finished solution (a rerun of the same study is read back, not solved again); off when the
    store is off."""

    def __init__(self, spec: dict):
        from analysis import store

        base = store.root()
        key = hashlib.sha256(json.dumps({**spec, "code": engine_fingerprint()}, sort_keys=True,
                                        default=str).encode()).hexdigest()[:20]
        self.dir = None if base is None else base / "ecarte-equilibrium" / key

    def _read(self, name: str, read):
        """``read(path)`` of the file ``name``, or None when the store is off, the file is missing or
        it cannot be read (a damaged file is computed again)."""
        if self.dir is None or not (self.dir / name).exists():
            return None
        try:
            return read(self.dir / name)
        except Exception:  # noqa: BLE001
            return None

    def _write(self, name: str, write) -> None:
        """``write(path)`` to a temporary file renamed to ``name`` (results prune removes it if killed)."""
        if self.dir is None:
            return
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = self.dir / temporary_name(name)
            write(tmp)
            os.replace(tmp, self.dir / name)
        except OSError:
            pass

    def load(self, phase: str):
        def read(path):
            z = np.load(path)
            return z["fixed"], z["other"], z["cells"]
        return self._read(f"{phase}.npz", read)

    def save(self, phase: str, arrays) -> None:
        def write(path):
            with open(path, "wb") as f:  # a file object: np.savez would add ".npz" to a name
                np.savez(f, fixed=arrays[0], other=arrays[1], cells=arrays[2])
        self._write(f"{phase}.npz", write)

    def load_solution(self, key: str):
        """The Equilibrium saved under ``key`` (solution_key), or None."""
        def read(path):
            with open(path, "rb") as f:
                return pickle.load(f)
        return self._read(f"solution-{key}.pickle", read)

    def save_solution(self, key: str, eq) -> None:
        def write(path):
            with open(path, "wb") as f:
                pickle.dump(eq, f, protocol=pickle.HIGHEST_PROTOCOL)
        self._write(f"solution-{key}.pickle", write)


def solution_key(spec: dict) -> str:
    """The key of a finished solution: the study's whole spec and the code that solves and measures
    it (the import closure of this module, ``store.module_fingerprint``)."""
    from analysis import store

    code = store.module_fingerprint(__name__)
    return hashlib.sha256(json.dumps({**spec, "code": code}, sort_keys=True, default=str).encode()).hexdigest()[:20]


def simulate(side: str, first: np.ndarray, counts: np.ndarray, seed: int, rules: EcarteRules, policies: tuple,
             threads: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals first[s] .. first[s] + counts[s] - 1 of every information set s of ``side`` (the hand
    fixed): (fixed set, other side's set * 2 + half, cells (n, 3))."""
    from analysis.blocks import kernel_threads
    from analysis.ecarte.studies.strategy.tables import hands

    sets = np.flatnonzero(counts > 0)
    rows = []
    offset = 0
    for s in sets.tolist():
        for k in range(0, int(counts[s]), TASK_DEALS):
            n = min(TASK_DEALS, int(counts[s]) - k)
            rows.append((s, int(first[s]) + k, n, offset))
            offset += n
    tasks = np.array(rows, dtype=np.int64).reshape(-1, 4)
    other = np.zeros(offset, dtype=np.int32)
    cells = np.zeros((offset, BK.N_BRANCHES), dtype=np.uint8)
    h = hands()
    pe, pd = policies
    with kernel_threads(threads):
        BK.branch_records(seed, tasks, h.masks, h.class_of_rank, side == "dealer", rules.to_array(), pe.to_array(),
                          pd.to_array(), other, cells)
    fixed = np.repeat(tasks[:, 0].astype(np.int32), tasks[:, 2])
    return fixed, other, cells


# ------------------------------------------------------------------------------ the result
@dataclass
class Equilibrium:
    """The solution (x: elder's probability of proposing, y: the dealer's of refusing, per
    information set), how it was reached, and its measures on held-out records."""

    x: np.ndarray
    y: np.ndarray
    spec: dict
    rounds: list[dict]
    measures: dict
    elder: object = field(repr=False, default=None)  # pandas DataFrame, one row per information set
    dealer: object = field(repr=False, default=None)
    by_score: dict = field(repr=False, default_factory=dict)  # studies/equilibrium/by_score.solve_scores, with target


def compute(rules: EcarteRules | None = None, budget: str = "standard", seed: int = 0,
            policy: HeuristicPolicy | None = None, *, threads: int | None = None, quiet: bool = True,
            log=None) -> Equilibrium:
    """Race, solve and measure (see the module's docstring); unless ``quiet``, each round's line
    goes to ``log`` (default: stderr, so that JSON on stdout stays clean)."""
    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    if budget not in BUDGETS:
        raise InputError(f"--budget must be one of {', '.join(BUDGETS)}, not {budget!r}")
    check_memory(budget)
    b = BUDGETS[budget]
    rules = rules or get_rules()
    policy = policy or HeuristicPolicy()
    policies = (policy, policy)
    sets = info_sets()
    w = sets.weight
    spec = {"game": "ecarte", "study": "strategy", "method": "CFR+ over every branch of the first proposal, "
            "raced deals, held-out measures", "rules": rules.name, "switches": rules.switches(),
            "policy": policy.describe(), "play": play_words(policy),
            "budget": b.__dict__, "seed": seed, "version": __version__, "information_sets": int(sets.valid.sum()),
            "buckets": list(TB.BUCKET_NAMES)}
    # The records depend on the race (its first deals, cap, rounds and the solves that steer it), not
    # on what is done with them afterwards.
    race = {k: spec["budget"][k] for k in ("name", "first", "cap", "rounds", "iterations")}
    cache = RecordCache({**{k: spec[k] for k in ("switches", "policy", "seed", "version")}, "budget": race})
    key = solution_key(spec)
    kept = cache.load_solution(key)
    if kept is not None:
        if not quiet:
            log("the solution of this study is in the result store: read back, not solved again")
        return kept
    seeds = {"elder": seed, "dealer": seed + 1}
    counts = {s: np.zeros(len(w), dtype=np.int64) for s in SIDES}
    fit: dict[str, S.Records] = {}
    add = {s: np.where(sets.valid, b.first, 0) for s in SIDES}
    x = y = None
    rounds = []
    t0 = time.time()

    def simulated(phase: str, side: str, first: np.ndarray, add: np.ndarray, seed_: int) -> S.Records:
        got = cache.load(phase)
        if got is None:
            got = simulate(side, first, add, seed_, rules, policies, threads)
            cache.save(phase, got)
        return phase_records(got)

    for r in range(b.rounds + 1):
        for side in SIDES:
            more = simulated(f"fit-{side}-{r}", side, counts[side], add[side], seeds[side])
            fit[side] = fit[side].joined(more) if side in fit else more  # each set's deals in order
            del more
            counts[side] += add[side]
        x, y = S.solve(fit["elder"], fit["dealer"], b.iterations, x, y)
        ex = S.exploitability_in_sample(fit["elder"], fit["dealer"], x, y, w, w)
        gains, opened, stake = S.open_decisions(fit["elder"], fit["dealer"], x, y, w, sets.valid, RACE_Z)
        for side in SIDES:
            add[side] = np.where(opened[side] & (counts[side] < b.cap), counts[side], 0)
        rounds.append({"round": r, "deals": int(sum(c.sum() for c in counts.values())),
                       "undecided_stake": stake, "in_sample_exploitability": {"elder": ex[0], "dealer": ex[1]},
                       "seconds": round(time.time() - t0, 1)})
        if not quiet:
            log(f"round {r}: {rounds[-1]['deals']:,} deals, undecided stake {stake:.5f}, in-sample exploitability "
                f"{ex[0]:.6f} / {ex[1]:.6f}, {rounds[-1]['seconds']} s")
        if stake < TARGET / 2 or not any(a.any() for a in add.values()):
            break
    # The game at each score: every set's first deals of the race, up to score_cap.
    score_fit = {side: fit[side].first(b.score_cap) for side in SIDES}
    del fit  # the fitted records: memory for the held-out ones
    held, held_first = {}, {}
    held_seeds = {"elder": seed + HELD_OUT_SEED, "dealer": seed + HELD_OUT_SEED + 1}
    for side in SIDES:
        held[side] = simulated(f"held-{side}", side, np.zeros_like(counts[side]), counts[side], held_seeds[side])
        held_first[side] = held[side].first(b.score_cap)
    measures = measure(held["elder"], held["dealer"], x, y)
    measures["fit"] = {side: {"q": g["q"], "se": g["se"]} for side, g in gains.items()}
    held_deals = int(len(held["elder"]) + len(held["dealer"]))
    del held
    target = int(rules.switches().get("target", 5))
    t_score = time.time()

    def extend(kind: str, side: str, first: np.ndarray, more: np.ndarray) -> S.Records:
        key = hashlib.sha256(first.tobytes() + more.tobytes()).hexdigest()[:16]
        return simulated(f"score-{kind}-{side}-{key}", side, first, more,
                         seeds[side] if kind == "fit" else held_seeds[side])

    solution, score_race = race_by_score(score_fit, held_first, x, y, target, b, extend,
                                         log=None if quiet else log)
    if not quiet:
        log(f"by score: {len(solution.rows)} scores solved, {len(score_race)} round(s), {time.time() - t_score:.0f} s")
    spec["deals"] = {"fit": int(sum(c.sum() for c in counts.values())),
                     "held_out": held_deals}
    spec["seconds"] = round(time.time() - t0, 1)
    eq = Equilibrium(x, y, spec, rounds, measures)
    eq.elder, eq.dealer = tables(eq, counts)
    eq.by_score = {"target": target, "rows": solution.rows, "changes": solution.changes,
                   "deals_per_set_cap": b.score_cap, "deals": score_race[-1]["deals"], "race": score_race,
                   "iterations": sum(r["iterations"] for r in solution.rows),
                   "seconds": round(time.time() - t_score, 1)}
    cache.save_solution(key, eq)
    return eq


def tables(eq: Equilibrium, fit_counts: dict) -> tuple:
    """One row per information set and side: the hand, the bucket, the weight, the solution's
    probability and decision, the decision's value on the fitted deals against the other side's
    solution (what the decision answers to: for the dealer, his gain per dealt hand), and on the
    held-out deals with its p-value and whether it is clear under the FDR control."""
    import pandas as pd

    from analysis.ecarte.studies.strategy.tables import hand_label, hands

    sets = info_sets()
    ok = sets.valid
    h = hands()
    masks = h.masks[sets.cls]
    frames = []
    for side, strat, yes, no in (("elder", eq.x, "propose", "play"), ("dealer", eq.y, "refuse", "accept")):
        ps = eq.measures["per_set"][side]
        fit = eq.measures["fit"][side]
        df = pd.DataFrame({
            "info_set": np.arange(len(ok)), "hand": [hand_label(int(m)) for m in masks], "mask": masks,
            "bucket": np.array(TB.BUCKET_NAMES)[sets.bucket], "weight": sets.weight,
            f"{yes}_probability": strat, "decision": decision_words(strat, yes, no),
            "fit_deals": fit_counts[side], f"{yes}_minus_{no}": fit["q"], "half_width": 1.96 * fit["se"],
            "held_out_deals": ps["n"].astype(np.int64), f"{yes}_minus_{no}_held_out": ps["q"],
            "held_out_half_width": 1.96 * ps["se"], "p_value": ps["p"], "clear": ps["clear"],
            "held_out_contradicts": ps["contradicted"]})
        if side == "dealer":
            # The dealer's values are per dealt hand (a proposal is met only so often): per proposal too.
            p = eq.measures["p_propose_given_dealer_set"]
            df["p_proposal"] = p
            with np.errstate(invalid="ignore", divide="ignore"):
                df["refuse_minus_accept_per_proposal"] = np.where(p > 0, fit["q"] / p, np.nan)
        frames.append(df[ok].reset_index(drop=True))
    return frames[0], frames[1]


def summary(eq: Equilibrium) -> dict:
    """The JSON of ``salon study ecarte strategy --budget``."""
    m = eq.measures
    e, d = eq.elder, eq.dealer
    return {"method": eq.spec["method"], "rules": eq.spec["rules"], "switches": eq.spec["switches"],
            "seed": eq.spec["seed"], "budget": eq.spec["budget"]["name"],
            "rounds": len(eq.rounds), "iterations_per_solve": eq.spec["budget"]["iterations"],
            "deals": eq.spec["deals"], "seconds": eq.spec["seconds"],
            "play_policy": eq.spec["play"], "policy": eq.spec["policy"],
            "value": m["value"],
            "exploitability": {s: {k: m[s][k] for k in ("value", "ci95", "crossfit", "plugin")} for s in SIDES},
            "target": m["target"], "certified": m["certified"],
            "exploitability_note": ("points per hand each side gains by its best response to the other's solution, "
                                    "on held-out deals. value (plugin): the best response chosen and measured on the "
                                    "same held-out deals, biased high; crossfit: chosen on one half of each set's "
                                    "deals and measured on the other, biased low; ci95: from 0 or the crossfit's "
                                    "lower bound to the plug-in's upper bound"),
            "elder_propose_share": float((e["weight"] * e["propose_probability"]).sum()),
            "dealer_refuse_share": float((d["weight"] * d["p_proposal"] * d["refuse_probability"]).sum()
                                         / max((d["weight"] * d["p_proposal"]).sum(), 1e-12)),
            "mixed_sets": {"elder": int((e["decision"] == "mix").sum()), "dealer": int((d["decision"] == "mix").sum())},
            "clear": {"elder": int(e["clear"].sum()), "dealer": int(d["clear"].sum()), "fdr": FDR,
                      "how": "Benjamini–Hochberg over every information set's held-out two-sided z-test of the "
                             "decision's value, and the solution on the significant side"},
            "sets_per_bucket": {name: int((e["bucket"] == name).sum()) for name in TB.BUCKET_NAMES},
            "race": eq.rounds, "by_score": score_summary(eq.by_score)}


def score_summary(by_score: dict) -> dict | None:
    """The by-score part of the summary: the game from 0-0, the worst exploitability over the
    scores, how many clear decisions change, and the race by score's rounds."""
    if not by_score:
        return None
    rows = by_score["rows"]
    at0 = next(r for r in rows if r["elder_score"] == 0 and r["dealer_score"] == 0)
    return {"target": by_score["target"], "deals_per_set_cap": by_score["deals_per_set_cap"],
            "deals": by_score["deals"], "iterations": by_score["iterations"], "seconds": by_score["seconds"],
            "race": by_score.get("race", []),
            "win_from_0_0": {"value": at0["win"], "ci95": at0["win_ci95"]},
            "win_from_0_0_points_solution": at0["win_points_solution"],
            "largest_exploitability_upper": {s: max(r[f"exploitability_{s}_upper"] for r in rows) for s in SIDES},
            "largest_in_sample_exploitability": {s: max(r[f"in_sample_exploitability_{s}"] for r in rows)
                                                 for s in SIDES},
            "clear_changes": {s: sum(1 for c in by_score["changes"] if c["side"] == s) for s in SIDES},
            "king": king_summary(rows),
            "scores": rows}


def king_summary(rows: list[dict]) -> dict:
    """EC-T5 over the scores: per side, the score where announcing the king adds least to the
    announcing side's chance of winning (per hand where it is announced), with its interval."""
    out = {}
    for side in SIDES:
        ok = [r for r in rows if np.isfinite(r[f"king_value_{side}"])]
        low = min(ok, key=lambda r: r[f"king_value_{side}"])
        out[side] = {"smallest": low[f"king_value_{side}"], "ci95": low[f"king_value_{side}_ci95"],
                     "at": f"{low['elder_score']}-{low['dealer_score']}",
                     "largest": max(r[f"king_value_{side}"] for r in ok)}
    out["what"] = ("the announcing side's chance of winning the game with the king point scored against withheld, "
                   "per hand where it is announced, under each score's equilibrium, held-out deals; the players "
                   "inside the records do not read the announcement")
    return out


def table_stem(out_dir: str, rules_name: str) -> str:
    return os.path.join(out_dir, f"ecarte_equilibrium_{rules_name}")


def write_tables(eq: Equilibrium, out_dir: str) -> list[str]:
    """Both sides' tables as Parquet and CSV; returns the paths written."""
    os.makedirs(out_dir, exist_ok=True)
    stem = table_stem(out_dir, eq.spec["rules"])
    written = []
    import pandas as pd

    frames = [("elder", eq.elder), ("dealer", eq.dealer)]
    if eq.by_score:
        score_rows = pd.DataFrame.from_records(eq.by_score["rows"])
        score_rows["win_ci95"] = score_rows["win_ci95"].map(list)
        changes = pd.DataFrame.from_records(eq.by_score["changes"], columns=[
            "side", "elder_score", "dealer_score", "info_set", "points_decision", "score_decision", "probability",
            "value"])
        frames += [("score", score_rows), ("score_changes", changes)]
    for name, df in frames:
        df.to_parquet(f"{stem}_{name}.parquet", index=False)
        df.to_csv(f"{stem}_{name}.csv", index=False)
        written += [f"{stem}_{name}.parquet", f"{stem}_{name}.csv"]
    return written

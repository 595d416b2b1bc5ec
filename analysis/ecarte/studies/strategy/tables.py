"""The Écarté strategy tables: elder's propose / play and the dealer's accept / refuse decision for
every hand, iterated to best responses (``salon study ecarte strategy``; docs/ecarte-engine.md,
"Strategy tables").

Hands are taken up to suit symmetry: the trump suit is distinguished and the three plain suits are
interchangeable, which leaves 38,304 hands. The turn-up's rank is marginalised: each hand is played
with a turn-up drawn uniformly from the trumps it does not hold. A hand's decision covers every
hand in its symmetry class; the tables are indexed by ``bits.rank_of_mask`` of the hand with
trumps as suit 0.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from analysis import __version__
from analysis.ecarte.policies import HeuristicPolicy
from analysis.ecarte.rules import ECARTE_RANKS, EcarteRules, get_rules
from analysis.ecarte.studies.strategy import kernel as TK
from analysis.errors import InputError
from analysis.runner import run_ranges

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLAY, PROPOSE = 0, 1
ACCEPT, REFUSE = 0, 1


@dataclass(frozen=True)
class Hands:
    """The hands up to suit symmetry: ``masks`` (trumps in suit 0, plain suits in decreasing lane
    order), the number of five-card hands each stands for, and every hand's class (by rank)."""

    masks: np.ndarray
    multiplicity: np.ndarray
    class_of_rank: np.ndarray

    @property
    def trumps(self) -> np.ndarray:
        return np.array([bin(int(m) & 0xFF).count("1") for m in self.masks])

    def weights(self) -> np.ndarray:
        """Probability of each class as elder's (or the dealer's) dealt hand: multiplicity times
        the turn-ups the hand leaves (8 minus its trumps)."""
        w = self.multiplicity * (8 - self.trumps)
        return w / w.sum()

    def expand(self, decisions: np.ndarray) -> np.ndarray:
        """A decision per class as a table over every hand rank (int8)."""
        return np.asarray(decisions, dtype=np.int8)[self.class_of_rank]


@functools.lru_cache(maxsize=1)
def hands() -> Hands:
    """The 38,304 hands up to suit symmetry."""
    every = TK.all_hands()
    lanes = np.stack([(every >> (8 * s)) & 0xFF for s in range(4)], axis=1)
    plain = np.sort(lanes[:, 1:], axis=1)[:, ::-1]
    canon = lanes[:, 0] | (plain[:, 0] << 8) | (plain[:, 1] << 16) | (plain[:, 2] << 24)
    masks, class_of_rank, multiplicity = np.unique(canon, return_inverse=True, return_counts=True)
    return Hands(masks.astype(np.int64), multiplicity, class_of_rank.astype(np.int32))


def hand_label(mask: int) -> str:
    """A hand as ``T: K Q 7 | A 10 | 8`` (trumps first, then the plain suits, longest first)."""
    parts = []
    for s in range(4):
        lane = (int(mask) >> (8 * s)) & 0xFF
        if s and not lane:
            continue
        ranks = [ECARTE_RANKS[r] for r in range(7, -1, -1) if lane >> r & 1]
        parts.append(" ".join(ranks) if ranks else "-")
    return "T: " + " | ".join(parts)


# ------------------------------------------------------------------------------ evaluation
Policies = tuple  # (elder's policy, the dealer's): HeuristicPolicy or ChosenDiscards


def _pair(policy) -> Policies:
    return policy if isinstance(policy, tuple) else (policy, policy)


def _run_items(block, extra: tuple, deals: int, seed: int, rules: EcarteRules, policies: Policies,
               threads: int | None, quiet: bool, desc: str) -> np.ndarray:
    """One range of ``deals`` deals per hand class through ``block`` (the runner and its store)."""
    h = hands()
    pe, pd = _pair(policies)
    ranges = [(i << TK.ITEM_SHIFT, deals) for i in range(len(h.masks))]
    args = (h.masks, *extra, rules.to_array(), pe.to_array(), pd.to_array())
    return run_ranges(block, args, ranges, seed, chunk=min(deals, 2048), threads=threads, quiet=quiet, desc=desc)


def evaluate_elder(dealer_table: np.ndarray, deals: int, seed: int, rules: EcarteRules, policy,
                   *, threads: int | None = None, quiet: bool = True) -> np.ndarray:
    """Per elder hand class: tallies (studies/strategy/kernel R_* layout) of playing (a) and proposing (b)
    over ``deals`` deals, the dealer answering the first proposal by ``dealer_table``.
    ``policy``: both players' policy, or (elder's, the dealer's)."""
    return _run_items(TK.elder_block, (dealer_table.astype(np.int8),), deals, seed, rules, policy, threads, quiet,
                      "elder hands")


def evaluate_dealer(elder_table: np.ndarray, deals: int, seed: int, rules: EcarteRules, policy,
                    *, threads: int | None = None, quiet: bool = True) -> np.ndarray:
    """Per dealer hand class: tallies of accepting (a) and refusing (b) elder's first proposal,
    over ``deals`` deals in which elder proposed by ``elder_table``."""
    return _run_items(TK.dealer_block, (elder_table.astype(np.int8),), deals, seed + 1, rules, policy, threads,
                      quiet, "dealer hands")


# --------------------------------------------------------------------------- chosen discards
def option_masks() -> np.ndarray:
    """Per hand class and option 0..31: the discard mask (option bit b takes the hand's b-th card)."""
    h = hands()
    out = np.zeros((len(h.masks), 32), dtype=np.int64)
    for c, m in enumerate(h.masks.tolist()):
        codes = [b for b in range(32) if m >> b & 1]
        for o in range(32):
            out[c, o] = sum(1 << codes[b] for b in range(5) if o >> b & 1)
    return out


def expand_discards(per_class: np.ndarray) -> np.ndarray:
    """A discard per hand class (a mask of the class's canonical hand) as a table over every hand
    relative to trumps: the canonical plain suits are mapped back onto the hand's own."""
    h = hands()
    every = TK.all_hands()
    lanes = np.stack([(every >> (8 * s)) & 0xFF for s in range(4)], axis=1)
    order = np.argsort(-lanes[:, 1:], axis=1, kind="stable")  # canonical plain lane k is lane order[k] + 1
    d = np.asarray(per_class, dtype=np.int64)[h.class_of_rank]
    table = d & 0xFF
    for k in range(3):
        table |= ((d >> (8 * (k + 1))) & 0xFF) << (8 * (order[:, k] + 1))
    return np.where(d < 0, -1, table)


SWITCH_Z = 3.0
"""A chosen discard replaces the heuristic's only when its paired gain is this many standard errors
above zero (about 5% over 31 options, Bonferroni), so the table changes only clear cases."""


def choose_discards(side: str, other_table: np.ndarray, deals: int, seed: int, rules: EcarteRules, policies,
                    *, threads: int | None = None, quiet: bool = True) -> dict:
    """Every discard of every hand class played on the same deals after a proposal and an
    acceptance (elder's: deals the dealer accepts by ``other_table``; the dealer's: deals elder
    proposes in). Per class, the best discard replaces the heuristic's where it is clearly better
    (paired, ``SWITCH_Z``), as a table for ``ChosenDiscards`` (-1: the heuristic decides). What
    the table gains over the heuristic's discards (points per exchange, weighted over classes) is
    measured on fresh deals (a quarter as many), since the best of 31 means flatters itself."""
    from analysis.ecarte.players.heuristic import heuristic_discard

    as_dealer = side == "dealer"
    first = 0 if as_dealer and rules.dealer_min_discard == 0 else 1
    sign = -1 if as_dealer else 1  # the dealer minimises elder's net
    lane = 3 if as_dealer else 2
    masks = option_masks()
    idx = np.arange(len(masks))
    policy = _pair(policies)[1 if as_dealer else 0]
    keep = getattr(policy, "keep_plain_min_rank", 7)
    heur = [heuristic_discard(int(m), 0, first, 5, keep) for m in hands().masks.tolist()]
    h_opt = np.array([int(np.flatnonzero(masks[c] == heur[c])[0]) for c in idx])

    def gains(n_deals: int, at_seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per class and option: n, and the mean and standard error of the paired gain over the
        heuristic's discard (for the deciding side)."""
        rows = _run_items(TK.discard_block, (other_table.astype(np.int8), as_dealer, first), n_deals, at_seed,
                          rules, policies, threads, quiet, f"{side} discards")
        n = np.maximum(rows[:, TK.D_N], 1).astype(np.float64)[:, None]
        s = rows[:, TK.D_SUM:TK.D_SUM + 32].astype(np.float64)
        d = sign * (s - s[idx, h_opt][:, None]) / n
        var = np.maximum(rows[:, TK.D_DIFF_SQ:TK.D_DIFF_SQ + 32] / n - d * d, 0) / np.maximum(n - 1, 1)
        d[:, :first] = -np.inf
        return rows, d, np.sqrt(var)

    rows, gain, se = gains(deals, seed + lane)
    best = np.argmax(gain, axis=1)
    clear = (rows[:, TK.D_N] > 1) & (gain[idx, best] - SWITCH_Z * se[idx, best] > 0)
    choice = np.where(clear, best, h_opt)
    per_class = np.where(clear, masks[idx, best], -1)
    check_rows, check, _ = gains(max(2, deals // 4), seed + lane + 1_000_003)
    w = hands().weights() * check_rows[:, TK.D_N] / np.maximum(check_rows[:, TK.D_TRIES], 1)
    w = w / w.sum()
    return {"table": expand_discards(per_class), "per_class": per_class, "rows": rows,
            "gain_over_heuristic": float((w * check[idx, choice]).sum()),
            "classes_changed": int(clear.sum()), "changed_weight": float(w[clear].sum())}


def cell_nets() -> np.ndarray:
    return np.array([TK.elder_net.py_func(c) for c in range(TK.N_CELLS)], dtype=np.int64)


def summarise(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per item: n, mean elder net and its 95% half-width under a and b, the paired difference
    b - a with its half-width, P(point) and P(vole) under a and b (vectorised over items)."""
    from scipy import stats

    from analysis.ecarte.studies import score

    k = score.cells_in_use(rows)
    nets = cell_nets()[:k]
    n = rows[:, TK.R_N].astype(np.float64)
    ept = score.ELDER_TRICK_POINTS[:k]
    out = {"n": rows[:, TK.R_N]}
    t = stats.t.ppf(0.975, np.maximum(n - 1, 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        for side, base in (("a", TK.R_A), ("b", TK.R_B)):
            cells = rows[:, base:base + k].astype(np.float64)
            s, q = cells @ nets, cells @ (nets * nets)
            out[f"net_{side}"] = s / n
            out[f"half_{side}"] = t * np.sqrt(np.maximum(n * q - s * s, 0) / (n * n * (n - 1)))
            out[f"point_{side}"] = cells[:, ept > 0].sum(axis=1) / n
        out["vole_a"] = rows[:, TK.R_A_VOLE] / n
        out["vole_b"] = rows[:, TK.R_B_VOLE] / n
        s, q = rows[:, TK.R_DIFF].astype(np.float64), rows[:, TK.R_DIFF_SQ].astype(np.float64)
        out["diff"] = s / n
        out["half_diff"] = t * np.sqrt(np.maximum(n * q - s * s, 0) / (n * n * (n - 1)))
    return out


# --------------------------------------------------------------------------- best responses
@dataclass
class Strategy:
    """The result of ``compute``: the final tables (one row per hand class), the best-response
    rounds and the end's exploitability, with the spec."""

    elder: object  # pandas DataFrame
    dealer: object
    rounds: list[dict]
    exploitability: dict
    spec: dict
    elder_rows: np.ndarray = field(repr=False)
    dealer_rows: np.ndarray = field(repr=False)
    policies: tuple = field(repr=False, default=())


def _gain(best_minus_chosen: np.ndarray, weights: np.ndarray) -> float:
    """Expected points per hand gained by switching to the better decision where it differs."""
    return float((weights * np.maximum(best_minus_chosen, 0)).sum())


def compute(deals: int = 2_000, seed: int = 0, rules: EcarteRules | None = None,
            policy: HeuristicPolicy | None = None, *, max_rounds: int = 4, discard_deals: int = 0,
            threads: int | None = None, quiet: bool = True) -> Strategy:
    """Iterate best responses from the heuristic policy's decisions: elder's best table against
    the dealer's, then the dealer's against elder's, until a round changes no decision or after
    ``max_rounds`` rounds; every evaluation plays ``deals`` deals per hand class.

    With ``discard_deals`` > 0 the discards are chosen first (``choose_discards``: elder's against
    the heuristic's answers, then the dealer's against elder's chosen discards, ``discard_deals``
    deals per hand class and option) and both players discard by them throughout."""
    if deals < 2:
        raise InputError(f"--deals-per-hand must be at least 2, not {deals}")
    if max_rounds < 1:
        raise InputError(f"--rounds must be at least 1, not {max_rounds}")
    rules = rules or get_rules()
    policy = policy or HeuristicPolicy()
    h = hands()
    w = h.weights()
    # The heuristic's decisions per class (on its first hand; the heuristic is suit-symmetric).
    first_rank = np.unique(h.class_of_rank, return_index=True)[1]
    e_tab, d_tab = TK.heuristic_tables(policy.elder_play_threshold, policy.dealer_refuse_threshold)
    heuristic_elder, heuristic_dealer = e_tab[first_rank], d_tab[first_rank]
    elder_dec, dealer_dec = heuristic_elder.copy(), heuristic_dealer.copy()
    rounds = []
    kw = {"threads": threads, "quiet": quiet}
    discards = {}
    policies = (policy, policy)
    if discard_deals > 0:
        from analysis.ecarte.policies import ChosenDiscards

        got = choose_discards("elder", d_tab, discard_deals, seed, rules, policies, **kw)
        policies = (ChosenDiscards(policy, got["table"]), policy)
        discards["elder"] = got
        got = choose_discards("dealer", e_tab, discard_deals, seed, rules, policies, **kw)
        policies = (policies[0], ChosenDiscards(policy, got["table"]))
        discards["dealer"] = got
    for r in range(1, max_rounds + 1):
        e_rows = evaluate_elder(h.expand(dealer_dec), deals, seed, rules, policies, **kw)
        e_sum = summarise(e_rows)
        new_elder = (e_sum["diff"] > 0).astype(np.int8)
        d_rows = evaluate_dealer(h.expand(new_elder), deals, seed, rules, policies, **kw)
        d_sum = summarise(d_rows)
        has = d_rows[:, TK.R_N] > 0
        new_dealer = np.where(has, (d_sum["diff"] < 0).astype(np.int8), dealer_dec)
        rounds.append({"round": r, "elder_changes": int((new_elder != elder_dec).sum()),
                       "elder_changed_weight": float(w[new_elder != elder_dec].sum()),
                       "dealer_changes": int((new_dealer != dealer_dec).sum()),
                       "dealer_changed_weight": float(w[new_dealer != dealer_dec].sum())})
        stable = rounds[-1]["elder_changes"] == 0 and rounds[-1]["dealer_changes"] == 0
        elder_dec, dealer_dec = new_elder, new_dealer
        if stable:
            break
    # At the end: elder's gain from a best response to the final dealer table (the dealer table
    # is already the best response to the final elder table, so his gain is zero by construction).
    if not stable:
        e_rows = evaluate_elder(h.expand(dealer_dec), deals, seed, rules, policies, **kw)
        e_sum = summarise(e_rows)
    chosen = np.where(elder_dec == PROPOSE, e_sum["diff"], -e_sum["diff"])
    exploit = {"elder": _gain(-chosen, w), "dealer": 0.0, "converged": bool(stable)}
    spec = {"game": "ecarte", "study": "strategy", "rules": rules.name, "switches": rules.switches(),
            "policy": policy.describe(), "deals_per_hand": deals, "seed": seed, "max_rounds": max_rounds,
            "hands": len(h.masks), "version": __version__,
            "discards": ({"deals_per_option": discard_deals,
                          **{side: {k: got[k] for k in ("gain_over_heuristic", "classes_changed", "changed_weight")}
                             for side, got in discards.items()}} if discards else "heuristic")}
    elder_df = _frame(e_rows, elder_dec, heuristic_elder, "play", "propose", spec)
    # The numbers are from the last evaluation against the final dealer table: where they favour
    # the other decision, elder's table is not yet a best response (the exploitability above).
    elder_df["best_response"] = np.where(e_sum["diff"] > 0, "propose", "play")
    dealer_df = _frame(d_rows, dealer_dec, heuristic_dealer, "accept", "refuse", spec)
    return Strategy(elder_df, dealer_df, rounds, exploit, spec, e_rows, d_rows, policies)


def _frame(rows: np.ndarray, decision: np.ndarray, heuristic: np.ndarray, a: str, b: str, spec: dict):
    import pandas as pd

    h = hands()
    s = summarise(rows)
    masks = h.masks
    lane0 = masks & 0xFF
    df = pd.DataFrame({
        "hand": [hand_label(m) for m in masks], "mask": masks, "trumps": h.trumps,
        "trump_king": (lane0 >> 7) & 1 == 1,
        "plain_kings": [bin(int(m) & 0x80808000).count("1") for m in masks],
        "weight": h.weights(), "n": s["n"],
        f"net_{a}": s["net_a"], f"net_{a}_half": s["half_a"], f"net_{b}": s["net_b"], f"net_{b}_half": s["half_b"],
        f"point_{a}": s["point_a"], f"point_{b}": s["point_b"], f"vole_{a}": s["vole_a"], f"vole_{b}": s["vole_b"],
        f"{b}_minus_{a}": s["diff"], "diff_half": s["half_diff"],
        "decision": np.where(decision == 1, b, a), "heuristic": np.where(heuristic == 1, b, a),
    })
    df["clear"] = (df[f"{b}_minus_{a}"].abs() > df["diff_half"])
    if rows[:, TK.R_TIP_N].any():
        df["tip_share"] = rows[:, TK.R_TIP_N] / np.maximum(rows[:, TK.R_N], 1)
    if rows[:, TK.R_TRIES].any():
        # The dealer's hands as they meet a proposal: dealt weight times elder's proposal rate.
        df["proposal_rate"] = rows[:, TK.R_N] / np.maximum(rows[:, TK.R_TRIES], 1)
        df["weight"] = df["weight"] * df["proposal_rate"] / (df["weight"] * df["proposal_rate"]).sum()
    df.attrs.update(spec)
    return df


# ----------------------------------------------------------------------------------- by score
KING_DRAWS = 400
"""Outcome distributions drawn for the king value's intervals (score.king_value_draws)."""


def by_score(result: Strategy, target: int | None = None):
    """(table, changes). Per score (elder's, dealer's): the chance that elder wins the game under the points tables
    and when elder (or the dealer) decides by score, the weighted share of hands whose decision
    changes, and what the king point is worth there (analysis/ecarte/studies/score.py), with 95%
    intervals from a parametric bootstrap of the outcome distribution."""
    import pandas as pd

    from analysis.ecarte.studies import score

    target = target or int(result.spec["switches"].get("target", 5))
    e, d = result.elder, result.dealer
    elder_table = (e["decision"] == "propose").to_numpy(int)
    res = score.chain(target, e["weight"].to_numpy(), result.elder_rows, elder_table,
                      d["weight"].to_numpy(), result.dealer_rows, (d["decision"] == "refuse").to_numpy(int))
    king_draws = score.king_value_draws(target, e["weight"].to_numpy(), result.elder_rows, elder_table,
                                        draws=KING_DRAWS)
    king_ci = {side: np.percentile(v, [2.5, 97.5], axis=0) for side, v in king_draws.items()}
    records = []
    for x in range(target):
        for y in range(target):
            ec, dc = res["elder_changes"][x, y], res["dealer_changes"][x, y]
            records.append({
                "elder_score": x, "dealer_score": y, "win_points_tables": res["W_points"][x, y],
                "win_elder_by_score": res["W_elder"][x, y], "win_dealer_by_score": 1 - res["W_dealer"][x, y],
                "dealer_win_points_tables": 1 - res["W_points"][x, y],
                "elder_hands_changed": float(e["weight"].to_numpy()[ec].sum()),
                "elder_clear_changed": float(e["weight"].to_numpy()[ec & e["clear"].to_numpy()].sum()),
                "elder_to_propose": int((ec & (e["decision"] == "play").to_numpy()).sum()),
                "elder_to_play": int((ec & (e["decision"] == "propose").to_numpy()).sum()),
                "dealer_hands_changed": float(d["weight"].to_numpy()[dc].sum()),
                "dealer_clear_changed": float(d["weight"].to_numpy()[dc & d["clear"].to_numpy()].sum()),
                "dealer_to_refuse": int((dc & (d["decision"] == "accept").to_numpy()).sum()),
                "dealer_to_accept": int((dc & (d["decision"] == "refuse").to_numpy()).sum()),
                "king_value_elder": res["king_value"]["elder"][x, y],
                "king_value_elder_lo": king_ci["elder"][0, x, y], "king_value_elder_hi": king_ci["elder"][1, x, y],
                "king_value_dealer": res["king_value"]["dealer"][x, y],
                "king_value_dealer_lo": king_ci["dealer"][0, x, y], "king_value_dealer_hi": king_ci["dealer"][1, x, y],
            })
    df = pd.DataFrame.from_records(records)
    # The smallest king value over all scores, per draw: its interval is EC-T5's.
    smallest = {side: np.percentile(v.min(axis=(1, 2)), [2.5, 97.5]).tolist() for side, v in king_draws.items()}
    df.attrs.update({**result.spec, "target": target, "king_value_draws": KING_DRAWS,
                     "smallest_king_value_ci95": smallest})
    # The changed decisions themselves (long format): hand class, score, side, decision there.
    changes = []
    for side, frame, flips, names in (("elder", e, res["elder_changes"], ("play", "propose")),
                                      ("dealer", d, res["dealer_changes"], ("accept", "refuse"))):
        xs, ys, hs = np.nonzero(flips)
        points = frame["decision"].to_numpy()[hs]
        changes.append(pd.DataFrame({"side": side, "elder_score": xs, "dealer_score": ys, "mask": frame["mask"].to_numpy()[hs],
                                     "hand": frame["hand"].to_numpy()[hs], "points_decision": points,
                                     "score_decision": np.where(points == names[0], names[1], names[0])}))
    return df, pd.concat(changes, ignore_index=True)


# ------------------------------------------------------------------------------ outputs
def table_paths(out_dir: str, rules_name: str) -> dict[str, str]:
    """Where ``salon study ecarte strategy`` writes its tables (stems, without extension)."""
    import os

    stem = os.path.join(out_dir, f"ecarte_strategy_{rules_name}")
    return {"elder": stem + "_elder", "dealer": stem + "_dealer", "score": stem + "_score",
            "changes": stem + "_score_changes", "rounds": stem + "_rounds.json", "figures": stem}


def write_tables(result: Strategy, score_df, changes, out_dir: str) -> list[str]:
    """The tables as Parquet and CSV, the rounds as JSON; returns the paths written."""
    import json
    import os

    os.makedirs(out_dir, exist_ok=True)
    paths = table_paths(out_dir, result.spec["rules"])
    written = []
    for key, df in (("elder", result.elder), ("dealer", result.dealer), ("score", score_df), ("changes", changes)):
        df.attrs = {}  # Parquet metadata keeps JSON-able attrs only; the spec is in the rounds file
        df.to_parquet(paths[key] + ".parquet", index=False)
        df.to_csv(paths[key] + ".csv", index=False)
        written += [paths[key] + ".parquet", paths[key] + ".csv"]
    with open(paths["rounds"], "w") as f:
        json.dump({"spec": result.spec, "rounds": result.rounds, "exploitability": result.exploitability}, f, indent=1)
    return written + [paths["rounds"]]


def canonical_mask(codes, turnup: int) -> int:
    """The symmetry class (as ``Hands.masks``) of a hand of Écarté codes under the turn-up's trumps."""
    t = turnup >> 3
    lanes = [0, 0, 0, 0]
    for c in codes:
        lanes[((c >> 3) - t) % 4] |= 1 << (c & 7)
    plain = sorted(lanes[1:], reverse=True)
    return lanes[0] | plain[0] << 8 | plain[1] << 16 | plain[2] << 24


def lookup(codes, turnup: int, rules: EcarteRules, policy, out_dir: str,
           score: tuple[int, int] | None = None) -> dict | None:
    """Elder's decision for a hand from stored strategy tables of these rules (switches included)
    and policy; None when there are none."""
    import json
    import os

    import pandas as pd

    paths = table_paths(out_dir, rules.name)
    if not os.path.exists(paths["elder"] + ".parquet") or not os.path.exists(paths["rounds"]):
        return None
    with open(paths["rounds"]) as f:
        spec = json.load(f)["spec"]
    if spec["switches"] != json.loads(json.dumps(rules.switches())) or spec["policy"] != policy.describe():
        return None
    mask = canonical_mask(codes, turnup)
    elder = pd.read_parquet(paths["elder"] + ".parquet")
    row = elder[elder["mask"] == mask].iloc[0]
    answer = {"source": "tables", "tables": paths["elder"] + ".parquet",
              "opponent": "the dealer's best-response table (the older method)", "class": row["hand"],
              "play": {"value": float(row["net_play"]), "halfwidth": float(row["net_play_half"])},
              "propose": {"value": float(row["net_propose"]), "halfwidth": float(row["net_propose_half"])},
              "difference": {"value": float(row["propose_minus_play"]), "halfwidth": float(row["diff_half"])},
              "recommendation": row["decision"], "deals": int(row["n"])}
    if score is not None:
        changes = pd.read_parquet(paths["changes"] + ".parquet")
        hit = changes[(changes["side"] == "elder") & (changes["mask"] == mask) & (changes["elder_score"] == score[0])
                      & (changes["dealer_score"] == score[1])]
        answer["score"] = list(score)
        answer["points_recommendation"] = row["decision"]
        answer["recommendation"] = hit["score_decision"].iloc[0] if len(hit) else row["decision"]
    return answer


# ------------------------------------------------------------------------------ figures
def plot_frontiers(result: Strategy) -> Figure:
    """The play/propose and refusal frontiers: the weighted share of hands whose best decision is
    to propose (elder) or to refuse (the dealer), by trumps and kings held (``compute``'s result):
    a new figure of two panels on one colour scale, returned."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, df, b, title in ((axes[0], result.elder, "propose", "elder: share of hands best proposed"),
                             (axes[1], result.dealer, "refuse", "dealer: share of proposals best refused")):
        kings = df["plain_kings"] + df["trump_king"].astype(int)
        grid = np.full((6, 5), np.nan)
        for t in range(6):
            for k in range(5):
                m = (df["trumps"] == t) & (kings == k)
                if m.any() and df.loc[m, "weight"].sum() > 0:
                    grid[t, k] = (df.loc[m, "weight"] * (df.loc[m, "decision"] == b)).sum() / df.loc[m, "weight"].sum()
        im = ax.imshow(grid, origin="lower", cmap="coolwarm", vmin=0, vmax=1, aspect="auto")
        for t in range(6):
            for k in range(5):
                if not np.isnan(grid[t, k]):
                    ax.text(k, t, f"{grid[t, k]:.2f}", ha="center", va="center", fontsize=8)
        ax.set_xlabel("kings held (trump king included)")
        ax.set_ylabel("trumps held")
        ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=axes, shrink=0.8, label="share of hands (weighted by how often they occur)")
    discards = "chosen discards" if isinstance(result.spec.get("discards"), dict) else "heuristic discards"
    fig.suptitle(f"Écarté strategy tables ({result.spec['rules']}, {result.spec['deals_per_hand']:,} deals per "
                 f"hand class, {discards}, heuristic trick play)", fontsize=9)
    return fig


def plot_by_score(score_df) -> Figure:
    """Where playing to win the game changes the points tables' clear decisions: the share of
    elder's hands and of the dealer's answers that change, by the score (``by_score``'s table): a
    new figure of two panels, each with its colour bar, returned."""
    import matplotlib.pyplot as plt

    T = int(score_df["elder_score"].max()) + 1
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), gridspec_kw={"wspace": 0.45})
    for ax, col, title in ((axes[0], "elder_clear_changed", "elder: share of hands whose decision changes"),
                           (axes[1], "dealer_clear_changed", "dealer: share of proposals whose answer changes")):
        grid = score_df.pivot(index="elder_score", columns="dealer_score", values=col).to_numpy()
        im = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=max(0.05, np.nanmax(grid)))
        for x in range(T):
            for y in range(T):
                ax.text(y, x, f"{grid[x, y]:.2f}", ha="center", va="center", fontsize=8, color="white")
        ax.set_xlabel("dealer's score")
        ax.set_ylabel("elder's score")
        ax.set_title(title, fontsize=10)
        fig.colorbar(im, ax=ax, shrink=0.8, label="share that changes")
    fig.suptitle("Decisions that maximise the chance of winning the game and differ from the points tables' "
                 "(only where the points decision is clear at 95%)", fontsize=9)
    return fig


def figures(result: Strategy, score_df, stem: str) -> list[str]:
    """The play/propose and refusal frontiers by trumps and kings, and the changes by score, as PNG
    and SVG; returns the paths (``stem_frontiers.*``, ``stem_by_score.*``). The figures are
    ``plot_frontiers`` and ``plot_by_score``."""
    from analysis.plots import headless, save_figure

    headless()
    return (save_figure(plot_frontiers(result), f"{stem}_frontiers", dpi=110)
            + save_figure(plot_by_score(score_df), f"{stem}_by_score", dpi=110))


def summary(result: Strategy, score_df) -> dict:
    """Headline numbers: how often each side takes each decision, elder's net, the game from 0-0."""
    e, d = result.elder, result.dealer
    propose = (e["decision"] == "propose").to_numpy()
    net = np.where(propose, e["net_propose"], e["net_play"])
    at0 = score_df[(score_df["elder_score"] == 0) & (score_df["dealer_score"] == 0)].iloc[0]
    return {"elder_propose_share": float(e["weight"][propose].sum()),
            "heuristic_propose_share": float(e["weight"][e["heuristic"] == "propose"].sum()),
            "dealer_refuse_share": float(d["weight"][d["decision"] == "refuse"].sum()),
            "heuristic_refuse_share": float(d["weight"][d["heuristic"] == "refuse"].sum()),
            "elder_net": float((e["weight"] * net).sum()),
            "win_from_0_0": float(at0["win_points_tables"]),
            "win_from_0_0_elder_by_score": float(at0["win_elder_by_score"]),
            "win_from_0_0_dealer_by_score": float(at0["win_dealer_by_score"])}

"""Écarté's first decisions as playing rules (``analysis.playing_rules``; docs/playing-rules.md):
elder's propose or play and the dealer's refuse or accept, over features of the hand (trumps as
suit 0) and the turn-up's bucket, costed against the shipped equilibrium.

The cost of a rule is what its side gives up per dealt hand against the solution when the other
side plays the solution: the sum over information sets of weight x (solution's probability -
rule's) x the decision's held-out value, with its 95% interval. The rule depends on the hand and
bucket only, so it decides each information set once; its choice never saw the held-out deals
(``studies/classical.py`` costs the Britannica's rules the same way).

Its exploitability is what the other side gains by answering the rule best instead of playing the
solution (``exploitability``): the other side's decision values against the rule are the tables'
values against the solution plus the change the rule makes, read from new deals; the answer is
chosen on the fitted values and measured on the held-out ones."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.ecarte.engine.buckets import ABOVE, KING_TURNED
from analysis.ecarte.reference.cards import JACK, QUEEN
from analysis.ecarte.rules import KING
from analysis.playing_rules import Decision, Feature, Rule, parse

ACE = 4


def _plain(mask: int, rank: int) -> int:
    return sum((mask >> (8 * s + rank)) & 1 for s in range(1, 4))


def _longest_plain(mask: int) -> int:
    return max(bin((mask >> (8 * s)) & 0xFF).count("1") for s in range(1, 4))


def _features() -> dict[str, Feature]:
    from analysis.ecarte.studies.classical import guarded_suits

    return {f.name: f for f in (
        Feature("trumps", "trumps held", lambda h, b: bin(h & 0xFF).count("1")),
        Feature("trump_king", "the trump king held", lambda h, b: (h >> KING) & 1),
        Feature("plain_kings", "kings in plain suits", lambda h, b: _plain(h, KING)),
        Feature("plain_queens", "queens in plain suits", lambda h, b: _plain(h, QUEEN)),
        Feature("plain_jacks", "jacks in plain suits", lambda h, b: _plain(h, JACK)),
        Feature("plain_aces", "aces in plain suits", lambda h, b: _plain(h, ACE)),
        Feature("longest_plain", "cards in my longest plain suit", lambda h, b: _longest_plain(h)),
        Feature("top_trump", "my highest trump's rank (1 the seven ... 8 the king, 0 none)",
                lambda h, b: (h & 0xFF).bit_length()),
        Feature("guarded_suits", "guarded plain suits",
                lambda h, b: guarded_suits(h)),
        Feature("king_turned", "the king turned up (1, else 0)", lambda h, b: int(b == KING_TURNED)),
        Feature("turnup_above", "the turn-up above my top trump (1, else 0)", lambda h, b: int(b == ABOVE)),
    )}


SIDES = {"elder": ("propose", "play"), "dealer": ("refuse", "accept")}
"""Each decision's actions: the first is the one the tables' probability is of."""


def decision(name: str) -> Decision:
    from analysis.errors import InputError

    if name not in SIDES:
        raise InputError(f"unknown Écarté decision {name!r}: one of {', '.join(SIDES)}, discard")
    return Decision("ecarte", name, SIDES[name], _features())


@dataclass(frozen=True)
class SetTable:
    """One decision's information sets (hand class and turn-up bucket) in the shipped equilibrium:
    their weight among dealt hands, the solution's probability of the first action, that action's
    value over the other on the fitted deals (``fit``) and on the held-out ones (``held``, with its
    standard error), the weight of the hands that meet the decision, and the hands."""

    side: str
    info_set: np.ndarray
    weight: np.ndarray
    probability: np.ndarray
    fit: np.ndarray
    fit_se: np.ndarray
    held: np.ndarray
    held_se: np.ndarray
    meet: np.ndarray
    masks: np.ndarray
    buckets: np.ndarray
    summary: dict

    def features(self, decision_: Decision) -> np.ndarray:
        """The sets' feature values (sets x the decision's features, in its order)."""
        return np.array([[f.value(m, b) for f in decision_.features.values()]
                         for m, b in zip(self.masks.tolist(), self.buckets.tolist(), strict=True)], dtype=np.int64)


def set_table(side: str, rules, policy=None) -> SetTable:
    """The shipped equilibrium's sets for ``side`` under ``rules`` (an InputError when none ships)."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hands
    from analysis.errors import InputError

    got = T.shipped(rules, policy or HeuristicPolicy())
    if got is None:
        raise InputError(f"no shipped equilibrium tables for rules {rules.name}: run scripts/make_equilibrium_tables.py")
    df, summary = got
    sets = info_sets()
    t = df[df["side"] == side]
    idx = t["info_set"].to_numpy()
    w = sets.weight[idx]
    return SetTable(side, idx, w, t["probability"].to_numpy().astype(float), t["value"].to_numpy().astype(float),
                    t["half_width"].to_numpy().astype(float) / 1.96,
                    t["held_out"].to_numpy().astype(float), t["held_out_half_width"].to_numpy().astype(float) / 1.96,
                    w * t["p_proposal"].to_numpy() if side == "dealer" else w,  # the hands the decision is met with
                    hands().masks[sets.cls[idx]], sets.bucket[idx], summary)


def choice_cost(t: SetTable, d: np.ndarray) -> dict:
    """What taking the first action with probability ``d`` per set gives up against the solution,
    per dealt hand, on the held-out deals (``cost``, with its 95% interval) and on the fitted ones
    (``fit_cost``); the agreement with the solution by hand weight and by stake; each one's share of
    the first action."""
    gap = t.probability - d
    value = float((t.weight * gap * t.held).sum())
    half = 1.96 * float(np.sqrt((t.weight ** 2 * gap ** 2 * t.held_se ** 2).sum()))
    agree = 1 - np.abs(gap)
    stake = t.meet * np.abs(t.held)
    return {"cost": {"value": value, "ci95": [value - half, value + half],
                     "unit": "points per dealt hand given up against the solution"},
            "fit_cost": float((t.weight * gap * t.fit).sum()),
            "agreement": {"by_hands": float((t.meet * agree).sum() / t.meet.sum()),
                          "by_stake": float((stake * agree).sum() / max(stake.sum(), 1e-300))},
            "share": {"rule": float((t.meet * d).sum() / t.meet.sum()),
                      "solution": float((t.meet * t.probability).sum() / t.meet.sum()), "of": SIDES[t.side][0]}}


OTHER = {"elder": "dealer", "dealer": "elder"}
EXPLOIT_DEALS = 32
"""Deals per information set of the answering side in the sample that measures the answer; the
sample that chooses it has CHOOSE_FACTOR times as many."""
CHOOSE_FACTOR = 4
EXPLOIT_SEED = 2_000_003
"""The exploitability's samples use seeds EXPLOIT_SEED + 2 * seed and the next (never the tables')."""
CLEAR_Z = 1.0
"""The answer leaves the solution's play only where its fitted value is this many standard errors
from zero: a response chosen on noise only loses on the measuring deals. Chosen among 0, 0.5, 1,
1.5, 2 and 3 by the gains of six rules on the samples of seeds 0 and 5 (1 gained most or nearly
most on both); one number chosen among six flatters the reported gains little."""


@dataclass(frozen=True)
class Answers:
    """What the answering side's decisions are worth: its sets in the shipped tables, and two
    samples of new deals with its hand fixed and the rule's side dealt at random, one beside the
    fitted values (to choose the answer), one beside the held-out values (to measure it)."""

    table: SetTable
    choose: object  # studies/equilibrium/solver.Records
    measure: object
    deals: int
    seeds: tuple[int, int]
    policy: dict


def tables_policy(rules, summary: dict, policy=None):
    """The heuristic that played inside the shipped tables (their ``policy``): ``tables_play``'s,
    with the discard rule the tables were played with."""
    import dataclasses

    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium.tables import tables_play
    from analysis.errors import InputError

    pol = tables_play(rules, policy or HeuristicPolicy())
    discard = summary.get("discard_rule") or {}
    if discard.get("used_in_tables"):
        pol = dataclasses.replace(pol, keep_plain_min_rank=discard["chosen"])
    if pol.describe() != summary["policy"]:
        raise InputError(f"the shipped tables of {rules.name} were played by another policy than this one: "
                         "their exploitability cannot be measured with it")
    return pol


def answers(side: str, rules, deals: int = EXPLOIT_DEALS, seed: int = 0, policy=None,
            threads: int | None = None) -> Answers:
    """The other side's answers to a rule for ``side``: its tables, a sample of CHOOSE_FACTOR x
    ``deals`` deals per information set to choose the answer and one of ``deals`` to measure it
    (seeds EXPLOIT_SEED + 2 * seed and the next)."""
    from analysis.ecarte.studies.equilibrium import measures as M
    from analysis.ecarte.studies.equilibrium import study

    t = set_table(OTHER[side], rules, policy)
    pol = tables_policy(rules, t.summary, policy)
    sets = M.info_sets()
    first = np.zeros(len(sets.weight), dtype=np.int64)
    seeds = (EXPLOIT_SEED + 2 * seed, EXPLOIT_SEED + 2 * seed + 1)
    samples = [M.phase_records(study.simulate(t.side, first, np.where(sets.valid, n, 0).astype(np.int64), s, rules,
                                              (pol, pol), threads))
               for s, n in zip(seeds, (CHOOSE_FACTOR * deals, deals), strict=True)]
    return Answers(t, samples[0], samples[1], deals, seeds, pol.describe())


def _full(t: SetTable, values: np.ndarray) -> np.ndarray:
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    out = np.zeros(len(info_sets().weight))
    out[t.info_set] = values
    return out


def exploitability(t: SetTable, d: np.ndarray, ans: Answers) -> dict:
    """What the other side gains per dealt hand, with its 95% interval, by answering the rule that
    takes the first action with probability ``d`` per set of ``t`` instead of playing the solution.
    Its decision values against the rule are the tables' values against the solution plus the
    rule's change (the mean over a sample of (rule - solution) x the refusal's payoff, where the
    rule's side holds the other hand); the answer is chosen on the fitted values with one sample
    (only where clear, ``CLEAR_Z``) and measured on the held-out values with the other. A response
    chosen on other deals measures without bias what it gains, and the best response gains at
    least as much: the value is a lower bound of the exploitability, tight where the samples are
    large; it is reported at least 0, the measured gain beside it."""
    from analysis.ecarte.studies.equilibrium import solver as S
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    o = ans.table
    w = info_sets().weight
    change = _full(t, d) - _full(t, t.probability)
    sign = -1.0 if o.side == "dealer" else 1.0  # the dealer's value of refusing is minus elder's gain

    def values(rec, base: np.ndarray, base_se: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = rec.side_means(S.DEALER, change)  # per answering set: mean (rule - solution)[other] x refusal
        n = np.maximum(rec.counts, 1)
        var = np.maximum(m[:, 1] - m[:, 0] ** 2, 0) / np.maximum(n - 1, 1)
        return base + sign * m[:, 0], np.sqrt(base_se ** 2 + var)

    q_fit, se_fit = values(ans.choose, _full(o, o.fit), _full(o, o.fit_se))
    q_held, se_held = values(ans.measure, _full(o, o.held), _full(o, o.held_se))
    y = _full(o, o.probability)
    answer = np.where(q_fit > CLEAR_Z * se_fit, 1.0, np.where(q_fit < -CLEAR_Z * se_fit, 0.0, y))
    gain = float((w * (answer - y) * q_held).sum())
    half = 1.96 * float(np.sqrt((w ** 2 * (answer - y) ** 2 * se_held ** 2).sum()))
    changed = float((w * np.abs(answer - y)).sum() / w[o.info_set].sum())
    return {"value": max(gain, 0.0), "ci95": [max(gain - half, 0.0), max(gain + half, 0.0)],
            "unit": f"points per dealt hand the {o.side} gains by answering the rule instead of playing the solution",
            "answer_gain": {"value": gain, "ci95": [gain - half, gain + half]}, "answer_changes": changed,
            "reading": exploit_reading(ans), "deals": len(ans.choose) + len(ans.measure),
            "answering_policy": ans.policy}


def exploit_reading(ans: Answers) -> str:
    """How ``exploitability`` measures with these samples, in a sentence."""
    return (f"the {ans.table.side}'s answer chosen on the tables' fitted values and {CHOOSE_FACTOR * ans.deals} new "
            f"deals per information set (seed {ans.seeds[0]}), measured on their held-out values and "
            f"{ans.deals} other deals per set (seed {ans.seeds[1]}): what that answer gains "
            "(answer_gain, negative when the answer chosen was worse than the solution's play) is a lower "
            "bound of the best answer's gain, and the exploitability (at least 0) is at least that")


def rule_choices(rule: Rule, t: SetTable) -> np.ndarray:
    """1.0 where the rule takes the decision's first action, per set of ``t``."""
    names = list(rule.decision.features)
    yes = SIDES[t.side][0]
    return np.array([1.0 if rule.action(dict(zip(names, row, strict=True))) == yes else 0.0
                     for row in t.features(rule.decision).tolist()])


def players(t: SetTable, rules) -> dict:
    return {"against": f"the shipped equilibrium of {rules.name} (the other side plays its solution)",
            "players": {"tables": t.summary["method"], "play_inside": t.summary["play_policy"]},
            "deals": {"held_out": t.summary["deals"]["held_out"]}, "seed": t.summary["seed"]}


def cost(rule: Rule, rules, policy=None, deals: int = EXPLOIT_DEALS, seed: int = 0,
         threads: int | None = None) -> dict:
    """The rule against the shipped equilibrium of ``rules``: its cost per dealt hand with its 95%
    interval, its exploitability (``deals`` new deals per information set of the other side, in
    each of two samples of ``seed``), its agreement with the solution by hand weight and by stake,
    and who plays."""
    t = set_table(rule.decision.name, rules, policy)
    d = rule_choices(rule, t)
    measured = choice_cost(t, d)
    exploit = exploitability(t, d, answers(t.side, rules, deals, seed, policy, threads))
    return {"game": "ecarte", "decision": t.side, "rules": rules.name, "rule": rule.text(), "words": rule.words(),
            "lines": rule.length, "cost": measured["cost"], "exploitability": exploit,
            "agreement": measured["agreement"], "share": measured["share"], **players(t, rules),
            "deals": {"held_out": t.summary["deals"]["held_out"], "exploitability": exploit["deals"]}, "seed": seed,
            "tables_seed": t.summary["seed"]}


def text(res: dict) -> str:
    """The answer in a player's words, first the rule, then what it costs."""
    c = res["cost"]
    a = res["agreement"]
    lines = [f"Écarté, {res['decision']}'s rule ({res['rules']}):"] + ["  " + ln for ln in res["words"].splitlines()]
    lines += [f"Gives up {c['value']:+.4f} points per hand [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] against "
              "perfect play (the other side plays the solved strategy).",
              f"Agrees with the solution on {a['by_hands']:.0%} of hands ({a['by_stake']:.0%} by the points at stake); "
              f"{res['share']['of']}s with {res['share']['rule']:.0%} of hands (the solution "
              f"{res['share']['solution']:.0%}).",
              exploit_words(res["exploitability"], OTHER[res["decision"]])]
    return "\n".join(lines)


def exploit_words(e: dict, other: str) -> str:
    """What an opponent who knew the rule gains, in a sentence."""
    lo, hi = e["ci95"]
    if lo <= 0:
        return (f"An opponent who knew the rule gains nothing measurable by answering it (at most {hi:.4f} points "
                f"per hand for the {other}, as far as the answer found shows).")
    return (f"An opponent who knew the rule gains {e['value']:+.4f} [{lo:+.4f}, {hi:+.4f}] more points per hand by "
            f"answering it as the {other} best (at least this much).")


def rule_answer(name: str, text_: str, rules, deals: int | None = None, seed: int = 0,
                player: str | None = None) -> tuple[dict, str]:
    """``salon rule ecarte DECISION RULE``: (JSON, text). The first decisions' cost is read from the
    shipped tables (their own held-out deals); ``deals`` (per information set) and ``seed`` are the
    exploitability's samples. A discard rule plays ``deals`` dealt hands of ``seed``
    (``discard_rules``)."""
    from analysis.errors import InputError

    if deals is not None and deals < 1:
        raise InputError(f"--deals must be at least 1, not {deals}")
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if player is not None:
        raise InputError("Écarté's rules are costed against the solved game: --player does not apply")
    if name == "discard":
        from analysis.ecarte.studies import discard_rules as D

        res = D.cost(D.parse(text_), rules, D.DEALS if deals is None else deals, seed)
        return res, D.text(res)
    res = cost(parse(decision(name), text_), rules, deals=EXPLOIT_DEALS if deals is None else deals, seed=seed)
    return res, text(res)

"""What the Écarté commands answer: the studies and queries run, their files written, and the
result as a JSON object with its text form (the command line only parses arguments)."""
from __future__ import annotations

from dataclasses import dataclass


def parse_score(text: str, rules) -> tuple[int, int]:
    """``A-B`` (elder's score, the dealer's), each from 0 to the target minus one."""
    from analysis.errors import InputError

    target = int(rules.switches().get("target", 5))
    try:
        a, b = (int(v) for v in text.split("-"))
    except ValueError:
        raise InputError(f"--score must look like 3-4 (elder's score, the dealer's), not {text!r}") from None
    if not (0 <= a < target and 0 <= b < target):
        raise InputError(f"--score: each score must be from 0 to {target - 1} (the game is to {target}), not {text}")
    return a, b


@dataclass(frozen=True)
class ProposeQuestion:
    """What ``salon ecarte propose`` asks: elder's hand and the turn-up, the rules and the players'
    policy, the game's score (None: the points game), where the strategy tables are (the only
    source when ``tables_given``), ``simulate`` to simulate this hand instead (``samples`` deals
    from ``seed``), and how to run and say it."""

    hand: str
    turnup: str
    rules: object
    policy: object
    samples: int = 20_000
    seed: int = 0
    score: str | None = None
    tables: str = "reports/tables"
    tables_given: bool = False
    simulate: bool = False
    threads: int | None = None
    quiet: bool = True
    verbose: bool = False


def propose_answer(q: ProposeQuestion) -> tuple[dict, str]:
    """Should elder play or propose, and what does he throw if the dealer accepts: from the shipped
    equilibrium tables when they match the rules and policy, from the strategy tables in
    ``q.tables``, otherwise simulated (``q.score``: the decision by game score). The text answers
    first in the hand's own notation; ``q.verbose`` adds the players and the statistics behind it."""
    hand, turnup, r, pol, score, tables, verbose = q.hand, q.turnup, q.rules, q.policy, q.score, q.tables, q.verbose
    from analysis.ecarte.studies.simulate import parse_elder_hand
    from analysis.ecarte.studies.strategy import tables as strategy
    from analysis.errors import InputError

    codes, up = parse_elder_hand(hand, turnup)
    at = parse_score(score, r) if score else None
    if q.tables_given and not q.simulate:
        stored = strategy.lookup(codes, up, r, pol, tables, at)
        if stored is None:
            raise InputError(f"--tables {tables}: no strategy tables for rules {r.name} and this policy there "
                             f"(write them with `salon study ecarte strategy --method best-response --out {tables}`)")
        stored = with_discard(stored, codes, up, pol, chosen_note=True)
        return stored, tables_text(hand, turnup, r, stored, at, verbose)
    if not q.simulate:
        from analysis.ecarte.studies.equilibrium import tables as equilibrium_tables

        solved = equilibrium_tables.answer(codes, up, r, pol, at)
        if solved is not None:
            solved = with_discard(solved, codes, up, _tables_policy(solved, pol))
            return solved, equilibrium_text(hand, turnup, solved, verbose)
        stored = strategy.lookup(codes, up, r, pol, tables, at)
        if stored is not None:
            stored = with_discard(stored, codes, up, pol, chosen_note=True)
            return stored, tables_text(hand, turnup, r, stored, at, verbose)
    if at is not None:
        raise InputError(f"--score needs the best-response strategy tables for rules {r.name} in {tables}; "
                         "run `salon study ecarte strategy --method best-response` first")
    from analysis.ecarte.studies.simulate import propose_hand

    res = propose_hand(hand, turnup, q.samples, q.seed, r, pol, threads=q.threads, quiet=q.quiet)
    res = with_discard(res, codes, up, pol)
    return res, simulated_text(hand, turnup, q.samples, q.seed, res, verbose)


def discard_if_accepted(codes, turnup: int, keep_from: int) -> tuple[list[int], list[int]]:
    """Elder's first exchange after an accepted proposal as salon's heuristic makes it (the
    reference's ``Decisions.discard``): throw the plain cards below rank index ``keep_from``
    (7 = kings kept; 8 = no plain card kept), at least one card, weakest first. (thrown, kept) codes."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference.cards import STOCK_SIZE, elder_discard_bounds, mask_of_codes, suit_of
    from analysis.ecarte.reference.policies import Decisions

    codes = [int(c) for c in codes]
    lo, hi = elder_discard_bounds(STOCK_SIZE)
    player = Decisions(HeuristicPolicy(keep_plain_min_rank=keep_from), None, suit_of(int(turnup)))
    thrown = set(player.discard(mask_of_codes(codes), lo, hi))
    return [c for c in codes if c in thrown], [c for c in codes if c not in thrown]


def _tables_policy(answer: dict, pol):
    """The policy the shipped tables were played with (their discards may be the fitted rule's)."""
    import json
    import os

    from analysis.ecarte.studies.equilibrium.tables import DATA_DIR

    path = os.path.join(DATA_DIR, os.path.basename(answer["tables"]).replace(".parquet", ".json"))
    try:
        with open(path) as f:
            keep = json.load(f)["policy"]["keep_plain_min_rank"]
    except (OSError, KeyError, TypeError):
        return pol
    import dataclasses

    return dataclasses.replace(pol, keep_plain_min_rank=int(keep)) if hasattr(pol, "keep_plain_min_rank") else pol


def with_discard(answer: dict, codes, turnup: int, pol, chosen_note: bool = False) -> dict:
    """The answer with ``discard_if_accepted``: the cards elder throws (and keeps) if the dealer
    accepts the proposal, by ``pol``'s discards (JSON codes; None for the random player)."""
    from analysis.ecarte.rules import name_of
    from analysis.ecarte.studies.equilibrium.discard_rule import rank_words

    keep_from = getattr(pol, "keep_plain_min_rank", None)
    if getattr(pol, "kind", "heuristic") == "random" or keep_from is None:
        answer["discard_if_accepted"] = None
        return answer
    thrown, kept = discard_if_accepted(codes, turnup, keep_from)
    answer["discard_if_accepted"] = {
        "throw": [name_of(c) for c in thrown], "keep": [name_of(c) for c in kept],
        "rule": f"keep the trumps and {rank_words(keep_from)}, throw the rest (at least one card)",
        "keep_plain_min_rank": int(keep_from),
        **({"note": "the tables' own chosen discards are not stored: this is the heuristic's"}
           if chosen_note else {})}
    return answer


def _cards(names: list[str], typed: str) -> str:
    from analysis.cards import parse_card
    from analysis.ecarte.rules import CODEC
    from analysis.words import cards_as_typed

    return cards_as_typed([parse_card(n) for n in names], typed, CODEC.book_order)


def discard_line(answer: dict, hand: str, proposing: bool) -> list[str]:
    """The answer's second line: what to throw if the dealer accepts, in the hand's notation."""
    d = answer.get("discard_if_accepted")
    if not d:
        return ["If the dealer accepts, the random player throws cards at random."] \
            if "discard_if_accepted" in answer else []
    keep = f" and keep {_cards(d['keep'], hand)}" if d["keep"] else " (all five)"
    head = "If the dealer accepts" if proposing else "If you propose anyway and the dealer accepts"
    return [f"{head}, throw {_cards(d['throw'], hand)}{keep}."]


PROPOSE_WORDS = {"propose": "Propose", "play": "Play without proposing"}
OTHER = {"propose": "playing without proposing", "play": "proposing"}


def decision_line(decision: str, diff: tuple[float, float, float], clear: bool) -> str:
    """``Propose — a clear choice: it gains +0.13 [+0.07, +0.20] points per hand over playing
    without proposing.`` from propose minus play (value, lo, hi)."""
    from analysis.words import confidence, estimate_text

    v, lo, hi = diff
    if decision == "play":
        v, lo, hi = -v, -hi, -lo
    if clear:
        return (f"{PROPOSE_WORDS[decision]} — {confidence(True)}: it gains {estimate_text(v, lo, hi)} points per "
                f"hand over {OTHER[decision]}.")
    return (f"{PROPOSE_WORDS[decision]} — {confidence(False)}: it is worth {estimate_text(v, lo, hi)} points per "
            f"hand against {OTHER[decision]}.")


def score_line(at, decision: str, points_decision: str, points_line: str, probability: float = 0.5) -> str:
    """The decision at a game score (``probability``: of proposing, when it mixes), with the
    points decision beside it."""
    head = f"At {at[0]}-{at[1]} (your score first), "
    if decision == points_decision:
        return head + points_line[0].lower() + points_line[1:-1] + "; at this score it is also the better " \
                                                                   "chance of winning the game."
    what = (f"propose with probability {probability:.2f}, otherwise play without proposing" if decision == "mix"
            else PROPOSE_WORDS[decision].lower())
    return (head + f"{what}: it gives the better chance of winning the game (by points alone: "
            f"{points_line[0].lower()}{points_line[1:-1]}).")


LEGEND_CLASS = ("hand class", "your trumps (T), then each plain suit, highest card first, | between suits")
LEGEND_DIFF = ("propose minus play", "elder's points per hand (his minus the dealer's) when he proposes, minus when "
                                     "he plays without proposing")
LEGEND_CI = ("[95%]", "the 95% interval: intervals made this way hold the true value 19 times in 20")


def equilibrium_text(hand: str, turnup: str, a: dict, verbose: bool = False) -> str:
    """The text of a one-hand answer from the shipped equilibrium: the decision and its worth on
    held-out deals, what to throw if the dealer accepts, then the detail (``verbose``: the players
    and the tables behind it)."""
    from analysis.words import estimate_text, legend

    d, h = a["difference"], a["held_out"]
    held = (h["value"], h["value"] - h["halfwidth"], h["value"] + h["halfwidth"])
    decision = a.get("points_recommendation", a["recommendation"]) if "score" in a else a["recommendation"]
    if decision == "mix" and a["recommendation"] == "mix":
        first = (f"Mix: propose with probability {a['propose_probability']:.2f}, otherwise play without proposing "
                 f"— a close call: proposing is worth {estimate_text(*held)} points per hand against playing.")
    elif decision == "mix":  # by points a mix; at this score a pure decision (the probability is the score's)
        first = f"A near tie: proposing is worth {estimate_text(*held)} points per hand against playing."
    else:
        first = decision_line(decision, held, h["clear"])
    if "score" in a:
        first = score_line(a["score"], a["recommendation"], decision, first, a["propose_probability"])
    proposing = a["recommendation"] != "play"
    bucket = a["bucket"].replace(" my ", " your ")
    lines = [first, *discard_line(a, hand, proposing), "",
             f"Elder holds {hand}, turn-up {turnup} · rules {a['rules']} · from the shipped equilibrium tables",
             f"  hand class {a['class']}, {bucket}",
             f"  {'propose minus play [95%]':<28} deals",
             f"  {estimate_text(d['value'], d['value'] - d['halfwidth'], d['value'] + d['halfwidth']):<28} "
             f"{d['deals']:<9,} on the deals the tables were solved on",
             f"  {estimate_text(*held):<28} {'':<9} on held-out deals (the figure quoted above)",
             *legend([LEGEND_CLASS, LEGEND_DIFF, LEGEND_CI,
                      ("deals", "the deals the tables were solved on; held-out deals are others, not used to "
                                "solve them")])]
    if verbose:
        lines += [f"  decision: {a['recommendation']}, propose probability {a['propose_probability']:.2f}; "
                  + ("clear at a 5% false-discovery rate" if h["clear"] else "not clear at a 5% false-discovery rate")
                  + " (Benjamini–Hochberg over every information set's held-out test)",
                  *([f"  at {a['score'][0]}-{a['score'][1]}: {a['score_note']}"] if "score" in a else []),
                  f"  opponent: {a['opponent']}",
                  f"  play: {a['play_policy']}",
                  *_discard_rule(a),
                  f"  tables: {a['tables']} ({a['budget']} budget; {a['method']})"]
    return "\n".join(lines)


def _discard_rule(a: dict) -> list[str]:
    d = a.get("discard_if_accepted")
    return [f"  discard if accepted: {d['rule']}" + (f" ({d['note']})" if d.get("note") else "")] if d else []


def tables_text(hand: str, turnup: str, r, stored: dict, at, verbose: bool = False) -> str:
    """The text of a one-hand answer from the best-response strategy tables (``--tables``)."""
    from analysis.words import estimate_text, legend

    def ci(d):
        return d["value"], d["value"] - d["halfwidth"], d["value"] + d["halfwidth"]

    diff = stored["difference"]
    decision = stored.get("points_recommendation", stored["recommendation"])
    first = decision_line(decision, ci(diff), abs(diff["value"]) > diff["halfwidth"])
    if at is not None:
        first = score_line(at, stored["recommendation"], decision, first)
    lines = [first, *discard_line(stored, hand, stored["recommendation"] == "propose"), "",
             f"Elder holds {hand}, turn-up {turnup} · rules {r.name} · from the strategy tables {stored['tables']}",
             f"  hand class {stored['class']} (any turn-up rank), {stored['deals']:,} deals",
             f"  {'':<24} net points [95%]",
             f"  {'play without proposing':<24} {estimate_text(*ci(stored['play']))}",
             f"  {'propose':<24} {estimate_text(*ci(stored['propose']))}",
             f"  {'propose minus play':<24} {estimate_text(*ci(diff))}",
             *legend([LEGEND_CLASS, ("net points", "elder's points minus the dealer's, per hand"), LEGEND_DIFF,
                      LEGEND_CI])]
    if verbose:
        lines += [f"  opponent: {stored['opponent']}", *_discard_rule(stored)]
    return "\n".join(lines)


def simulated_text(hand: str, turnup: str, samples: int, seed: int, res: dict, verbose: bool = False) -> str:
    """The text of a one-hand answer simulated for this hand and turn-up."""
    from analysis.words import estimate_text, legend, parameters, player_words

    def ci(d):
        return d["value"], d["ci95"][0], d["ci95"][1]

    first = decision_line(res["recommendation"], ci(res["difference"]), res["clear"])
    if not res["clear"]:
        first = first[:-1] + "; more --samples may tell."
    lines = [first, *discard_line(res, hand, res["recommendation"] == "propose"), "",
             f"Elder holds {hand}, turn-up {turnup} · rules {res['rules']} · {samples:,} simulated deals (seed {seed})",
             f"  {'':<24} {'net points [95%]':<26} P(point)",
             f"  {'play without proposing':<24} {estimate_text(*ci(res['play'])):<26} {res['play_point']['value']:.3f}",
             f"  {'propose':<24} {estimate_text(*ci(res['propose'])):<26} {res['propose_point']['value']:.3f}"
             f"   (the dealer refuses {res['dealer_refuses']['value']:.1%})",
             f"  {'propose minus play':<24} {estimate_text(*ci(res['difference']))}",
             *legend([("net points", "elder's points minus the dealer's per hand, the unseen cards dealt at random"),
                      ("P(point)", "the chance elder wins the point (three tricks or more)"), LEGEND_DIFF, LEGEND_CI])]
    if verbose:
        pols = res.get("policies") or {}
        lines += [f"  {role}: {player_words(p)} ({parameters(p)})" for role, p in pols.items()]
        lines += [f"  opponent: {res['opponent']}", *_discard_rule(res),
                  "  decision: " + ("clear" if res["clear"] else "not clear") + " at 95% (the paired interval of "
                  "propose minus play " + ("excludes" if res["clear"] else "includes") + " 0)"]
    return "\n".join(lines)


def propose_table_study(deals_per_class: int, seed: int, r, pol, out: str, threads: int | None) -> tuple[dict, str]:
    """Elder's propose/play table by hand class, written to ``out`` (CSV, Parquet, figures)."""
    import os

    from analysis.ecarte.studies.simulate import propose_table, propose_table_figure

    df = propose_table(deals_per_class, seed, r, pol, threads=threads)
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"ecarte_propose_table_{r.name}")
    df.to_csv(stem + ".csv", index=False)
    try:
        df.to_parquet(stem + ".parquet", index=False)
    except Exception:  # noqa: BLE001 - CSV is written; Parquet is a convenience copy
        pass
    figs = propose_table_figure(df, stem)
    cols = ["class", "n", "p_point_play", "net_play", "net_propose", "propose_minus_play", "diff_lo", "diff_hi",
            "better", "clear"]
    text = (f"{df.attrs['caption']} Rules {r.name}, {deals_per_class:,} deals per class, seed {seed}.\n"
            + df[cols].to_string(index=False, float_format=lambda x: f"{x:+.3f}")
            + f"\nwrote {stem}.csv, {stem}.parquet, " + ", ".join(figs))
    return {"rows": df.to_dict(orient="records"), "files": [stem + ".csv"] + figs, **df.attrs}, text


def strategy_study(deals_per_hand: int, max_rounds: int, discard_deals: int, search_check: int, seed: int, r, pol,
                   out: str, threads: int | None, quiet: bool) -> tuple[dict, str]:
    """The Écarté strategy tables for every hand class, by points and by score, written to ``out``."""
    from analysis.ecarte.studies.strategy import tables as strategy

    res = strategy.compute(deals_per_hand, seed, r, pol, max_rounds=max_rounds,
                           discard_deals=discard_deals, threads=threads, quiet=quiet)
    score_df, changes = strategy.by_score(res)
    paths = strategy.table_paths(out, r.name)
    files = strategy.write_tables(res, score_df, changes, out)
    files += strategy.figures(res, score_df, paths["figures"])
    summary = strategy.summary(res, score_df)
    lines = [f"Écarté strategy tables · rules {r.name} · {deals_per_hand:,} deals per hand class and evaluation "
             f"· seed {seed} · heuristic trick play"]
    for rd in res.rounds:
        lines.append(f"  round {rd['round']}: elder changed {rd['elder_changes']:,} classes "
                     f"({rd['elder_changed_weight']:.1%} of hands), dealer {rd['dealer_changes']:,} "
                     f"({rd['dealer_changed_weight']:.1%})")
    ex = res.exploitability
    disc = res.spec["discards"]
    if isinstance(disc, dict):
        lines.append(f"  discards chosen ({disc['deals_per_option']:,} deals per hand class and option): on fresh "
                     f"deals they gain {disc['elder']['gain_over_heuristic']:+.4f} (elder) and "
                     f"{disc['dealer']['gain_over_heuristic']:+.4f} (dealer) points per exchange over the heuristic")
    else:
        lines.append("  discards by the heuristic (--discard-deals 0)")
    lines += [f"  {'converged' if ex['converged'] else 'not converged'}; elder could gain {ex['elder']:.4f} "
              "points per hand by deviating at the end (the dealer's table is his best response)",
              f"elder proposes with {summary['elder_propose_share']:.1%} of hands "
              f"(heuristic {summary['heuristic_propose_share']:.1%}); the dealer refuses "
              f"{summary['dealer_refuse_share']:.1%} of proposals (heuristic {summary['heuristic_refuse_share']:.1%})",
              f"elder's net points per hand: tables {summary['elder_net']:+.4f}",
              f"game from 0-0 (first elder wins): points tables {summary['win_from_0_0']:.4f}, elder by score "
              f"{summary['win_from_0_0_elder_by_score']:.4f}",
              "wrote " + ", ".join(files)]
    check = None
    if search_check:
        from analysis.ecarte.studies.search_check import search_check as run_check

        per_class, check = run_check(res, search_check, 1_000, 10, seed + 1, r, threads, quiet=quiet)
        per_class.to_csv(paths["figures"] + "_search_check.csv", index=False)
        files.append(paths["figures"] + "_search_check.csv")
        lines.insert(-1, f"search check ({search_check} hand classes by weight, 1,000 fresh deals each, both players "
                         f"searching with 10 samples): the table's decision agrees with search play on "
                         f"{check['agreement_search'].value:.1%} of hands (heuristic play on the same deals: "
                         f"{check['agreement_heuristic'].value:.1%}); it loses between "
                         f"{check['loss_search_crossfit'].value:+.4f} and {check['loss_search'].value:+.4f} points "
                         "per hand under search play")
        check = {k: (v.to_dict() if hasattr(v, "to_dict") else v) for k, v in check.items()}
    return ({"spec": res.spec, "rounds": res.rounds, "exploitability": ex, "summary": summary, "search_check": check,
             "files": files}, "\n".join(lines))



SEARCH_DEALS = 200
"""Deals per information set of the equilibrium's search check."""
SEARCH_SAMPLES = 10
SECOND_ROUND = {"quick": (100, 20), "standard": (2_000, 200)}
DISCARD_DEALS = {"quick": 20_000, "standard": 2_000_000}
"""Hands (each played in both seats) per candidate of the pooled discard rule."""
"""Elder's information sets (drawn by weight) and deals each for the second round's measure."""


def equilibrium_study(budget: str, seed: int, r, pol, out: str, threads: int | None, quiet: bool,
                      search_sets: int = 0) -> tuple[dict, str]:
    """The equilibrium of Écarté's first proposal (analysis/ecarte/studies/equilibrium/study.py), its tables
    written to ``out`` (Parquet and CSV) with the summary as JSON."""
    import json
    import os

    from analysis.ecarte.studies.equilibrium import discard_rule
    from analysis.ecarte.studies.equilibrium import study as E

    E.check_memory(budget)  # before the discard rule's fit: one line now, not a kill later
    # The discards inside the tables: the rule fitted on pooled exchanges when its gain is confirmed
    # on other deals, else the policy's own.
    rule = discard_rule.fit(r, DISCARD_DEALS[budget], seed + 11, pol, threads)
    play = discard_rule.play_policy(pol, rule)
    rule["used_in_tables"] = play != pol
    eq = E.compute(r, budget, seed, play, threads=threads, quiet=quiet)
    files = E.write_tables(eq, out)
    obj = {**E.summary(eq), "files": files}
    if play != pol:
        obj["base_policy"] = pol.describe()
    from analysis.ecarte.studies.equilibrium.search_check import second_round

    sets, deals = SECOND_ROUND[budget]
    obj["second_round"] = second_round(eq, sets, deals, seed + 7, r, play, threads)
    obj["discard_rule"] = rule
    if search_sets:
        from analysis.ecarte.studies.equilibrium.search_check import check

        obj["search_check"] = check(eq, search_sets, SEARCH_DEALS, SEARCH_SAMPLES, seed, r, play, threads)
        obj["search_check"].pop("per_set")  # per-set arrays, for paired comparisons in Python
    with open(os.path.join(out, f"ecarte_equilibrium_{r.name}_summary.json"), "w") as f:
        json.dump(obj, f, indent=1)
    ex = obj["exploitability"]

    def exploit(side):
        lo, hi = ex[side]["ci95"]
        return f"{ex[side]['value']:.5f} (95% [{lo:.5f}, {hi:.5f}]; cross-fitted {ex[side]['crossfit']:+.5f})"

    lines = [f"Écarté equilibrium of the first proposal · rules {r.name} · budget {budget} · seed {seed} · "
             f"play: {obj['play_policy']}",
             f"  {obj['deals']['fit']:,} deals fitted ({obj['rounds']} race rounds, CFR+ {obj['iterations_per_solve']} "
             f"iterations per solve), {obj['deals']['held_out']:,} held out · {obj['seconds']:.0f} s",
             f"  value of the game for elder: {obj['value']['value']:+.4f} points per hand "
             f"(95% [{obj['value']['ci95'][0]:+.4f}, {obj['value']['ci95'][1]:+.4f}], held out)",
             f"  exploitability, held out, points per hand: elder {exploit('elder')}",
             f"                                            dealer {exploit('dealer')}",
             f"  target {obj['target']} per side (95% upper bound): "
             + ("met" if obj["certified"] else "not met at this budget"),
             f"  elder proposes with {obj['elder_propose_share']:.1%} of hands; the dealer refuses "
             f"{obj['dealer_refuse_share']:.1%} of proposals; mixed sets: elder {obj['mixed_sets']['elder']:,}, "
             f"dealer {obj['mixed_sets']['dealer']:,}",
             f"  clear decisions (Benjamini–Hochberg, FDR {obj['clear']['fdr']:.0%}): elder {obj['clear']['elder']:,}, "
             f"dealer {obj['clear']['dealer']:,} of {sum(obj['sets_per_bucket'].values()):,} sets per side",
             "  information sets per turn-up bucket: " + ", ".join(f"{k} {v:,}" for k, v in obj["sets_per_bucket"].items())]
    bs = obj["by_score"]
    if bs:
        w0 = bs["win_from_0_0"]
        lines.append(f"  by score (game to {bs['target']}, equilibrium at every score, up to {bs['deals_per_set_cap']:,} "
                     f"deals per set and side, {bs['deals']['fit']:,} records fitted, {bs['iterations']:,} predictive CFR+ "
                     f"iterations over the scores, "
                     f"{bs['seconds']:.0f} s): the first elder wins from 0-0 with {w0['value']:.4f} "
                     f"[{w0['ci95'][0]:.4f}, {w0['ci95'][1]:.4f}] (deciding by points at 0-0 only: "
                     f"{bs['win_from_0_0_points_solution']:.4f}); clear changes from the points solution: elder "
                     f"{bs['clear_changes']['elder']:,}, dealer {bs['clear_changes']['dealer']:,} (set x score); "
                     f"largest exploitability over the scores (95% upper, chance of winning): elder "
                     f"{bs['largest_exploitability_upper']['elder']:.4f}, dealer "
                     f"{bs['largest_exploitability_upper']['dealer']:.4f}")
        k = bs["king"]
        lines.append("  the king's announcement by score (EC-T5), chance of winning it adds per announcing hand, "
                     "smallest over the scores: " + "; ".join(
                         f"{side} {k[side]['smallest']:+.4f} [{k[side]['ci95'][0]:+.4f}, {k[side]['ci95'][1]:+.4f}] at "
                         f"{k[side]['at']}" for side in E.SIDES))
    sr = obj["second_round"]

    def ci4(d):
        return f"{d['value']:+.4f} [{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}]"

    lines.append(f"  second proposal round (left to the heuristic): reached in {sr['reached']['value']:.1%} of hands; "
                 f"elder's gain per hand from always playing there {ci4(sr['always_play'])}, always proposing "
                 f"{ci4(sr['always_propose'])}, the better known in advance (a bound) "
                 f"{ci4(sr['better_known_in_advance'])}")
    dr = obj["discard_rule"]
    cands = "; ".join(f"{k} {ci4(d)}" for k, d in dr["candidates"].items())
    lines.append(f"  discard rule on pooled exchanges ({dr['deals']:,} hands, both seats, against keeping plain "
                 f"kings): {cands}; chosen: keep {dr['chosen_words']}"
                 + (f", on other deals {ci4(dr['check_on_other_deals'])}" if dr["check_on_other_deals"] else "")
                 + ("; the tables discard by it" if dr["used_in_tables"] else "; the tables keep the policy's discards"))
    if search_sets:
        sc = obj["search_check"]

        def ci(d):
            return f"{d['value']:+.4f} [{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}]"

        lines.append(f"  search check ({search_sets} sets per side by weight, {SEARCH_DEALS} deals each, both players "
                     f"searching the tricks with {SEARCH_SAMPLES} samples):")
        for side in ("elder", "dealer"):
            c = sc[side]
            lines.append(f"    {side}'s sets: value search minus heuristic {ci(c['value_search_minus_heuristic'])}; "
                         f"decisions' sign agrees on {c['decision_sign_agreement']:.1%} of sets; the solution loses "
                         f"{ci(c['loss_under_search_crossfit'])} (cross-fitted) to "
                         f"{ci(c['loss_under_search_plugin'])} (plug-in) per hand under search play, "
                         f"{ci(c['loss_search_minus_heuristic_plugin'])} more than under heuristic play (paired)")
    lines.append("wrote " + ", ".join(files))
    return obj, "\n".join(lines)

"""What the Piquet commands answer: the studies and queries run, their files written, and the
result as a JSON object with its text form (the command line only parses arguments)."""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Budget:
    """What one answer of ``salon piquet discard`` spends: the heuristic race's most deals
    (``samples``) and its first round's (``first_batch``), the strongest player it uses (``play``),
    the race leaders that player takes (``candidates``, dd) and its deals to rank them (as many more
    report them), the dd leaders the search player takes again and its deals per stage;
    ``seconds``: the answer's wall time, about, on a quiet 2-core machine with the compiled
    kernels already cached (measured on the README's hand, median of three)."""

    name: str
    samples: int
    first_batch: int
    play: str
    candidates: int
    deals: int
    search_top: int
    search_deals: int
    seconds: float

    def words(self) -> str:
        """The budget in a few words, for ``--help``."""
        out = (f"{self.name}, about {self.seconds:g} s: the race on up to {self.samples:,} deals, then its "
               f"{self.candidates} leaders with open hands ({self.deals:,} deals to choose, {self.deals:,} to report)")
        if self.play == "search":
            out += f", then the {self.search_top} best by the search player ({self.search_deals} + {self.search_deals})"
        return out


BUDGETS = {
    "quick": Budget("quick", 2_000, 500, "dd", 4, 200, 2, 30, 2.5),
    "standard": Budget("standard", 10_000, 500, "dd", 8, 300, 2, 50, 3),
    "thorough": Budget("thorough", 10_000, 1_000, "search", 20, 1_000, 4, 200, 11),
}
"""The answer's budgets (``--budget``); ``thorough`` is the analysis the command ran before budgets
(the same deals and numbers). Measured on the README's hand, 2 threads, median of three, in two
sessions: quick 2.2 and 2.5 s, standard 2.6 and 3.4 s, thorough 9.9 and 12.7 s (the command before
budgets: 10.4 s); of it about 2 s is starting Python, importing pandas and scipy and loading the
compiled kernels."""
DEFAULT_BUDGET = "standard"


def budget_json(b: Budget) -> dict:
    """A budget in the JSON answer."""
    return asdict(b)


@dataclass(frozen=True)
class DiscardQuestion:
    """What ``salon piquet discard`` asks (its options): the hand and seat, the rules, the budget
    (``play`` other than auto and ``samples`` override it), the race's stop (``target_halfwidth``,
    ``race`` off plays every option on every deal), what to show (``top`` options or ``show_all``,
    the player's own discard ``mine`` graded, a ``plot``), and how to run and say it."""

    hand: str
    seat: str
    rules: object
    samples: int | None = None
    target_halfwidth: float | None = None
    top: int = 10
    show_all: bool = False
    mine: str | None = None
    elder_took: int = 5
    race: bool = True
    plot: str | None = None
    seed: int = 0
    lang: str = "en"
    threads: int | None = None
    quiet: bool = True
    play: str = "auto"
    budget: str = DEFAULT_BUDGET
    verbose: bool = False


def discard_answer(q: DiscardQuestion) -> tuple[dict, str]:
    """Which cards should the hand throw: every legal exchange on the same deals under heuristic
    play, then the race's leaders under the budget's strong player (BUDGETS). The text answers
    first, in the hand's own notation (what to throw and keep, what it is worth), then the detail
    and its legend; with ``verbose``, how the numbers were made."""
    import time

    t0 = time.perf_counter()
    import pandas as pd

    from analysis.piquet.notation import notation_of
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand, grade, option_json, plot_top
    from analysis.piquet.studies.discards.analyser_search import strong_analysis
    from analysis.runner import show_progress

    b = BUDGETS[q.budget]
    chosen = b.play if q.play == "auto" else q.play
    progress = show_progress(q.quiet)
    lang = None if q.lang == "en" else q.lang
    a = analyse_hand(q.hand, q.seat, q.rules, samples=q.samples or b.samples, elder_took=q.elder_took, seed=q.seed,
                     race=Racing(q.race, b.first_batch, target_halfwidth=q.target_halfwidth), mine=q.mine,
                     threads=q.threads, lang=lang, progress=progress)
    seconds = {"race": round(time.perf_counter() - t0, 3)}
    df = a.table
    shown = df if q.show_all else df.head(q.top)
    if q.mine is not None and not shown["mine"].any():
        shown = pd.concat([shown, df[df["mine"]]])
    shown = a.with_exact(shown)
    res = {**a.spec, "rounds": a.rounds, "options": [option_json(r) for _, r in shown.iterrows()],
           "budget": budget_json(b), "play": {"asked": q.play, "used": chosen}}
    if q.mine is not None:
        res["mine"] = grade(df, df[df["mine"]].iloc[0])
    if q.plot:
        res["figures"] = plot_top(df, q.plot)
    res["players"] = {"race": {"me": a.spec["policy"], "opponent": a.spec["opponent"]}}
    if chosen != "heuristic":
        res["strong"] = strong_analysis(a, q.rules, chosen, candidates=b.candidates, deals=b.deals,
                                        search_top=b.search_top, search_deals=b.search_deals, seed=q.seed,
                                        threads=q.threads, progress=progress)
        res["players"].update(res["strong"]["players"])
        seconds.update(res["strong"]["seconds"])
    res["answer"] = best_exchange(res, a)
    res["throw"], res["keep"] = res["answer"]["throw"], res["answer"]["keep"]
    seconds["total"] = round(time.perf_counter() - t0, 3)
    res["seconds"] = seconds
    res["threads"] = q.threads
    return res, discard_text(res, notation_of(q.hand, lang), q.verbose)


def _minus(e: dict) -> dict:
    """An estimate's opposite (a difference read the other way round)."""
    lo, hi = e["ci95"]
    return {**e, "value": -e["value"], "ci95": [-hi, -lo]}


def best_exchange(res: dict, a) -> dict:
    """The answer: the exchange to make (the last stage's best), what it keeps, its net score and
    what the next best gives up against it, and who played the deals these figures come from."""
    if "strong" in res:
        s = res["strong"]
        stage = s.get("search", s)
        rows = stage["exchanges"]
        player, deals, held_out = ("search" if "search" in s else "dd"), stage["deals_per_stage"], True
        best, nets = rows[0], [(e["discard"], e["net"], e["diff_to_best"]) for e in rows]
    else:
        from analysis.piquet.studies.discards.analyser import option_json

        rows = [option_json(row) for _, row in a.table.head(2).iterrows()]
        player, deals, held_out = "heuristic", rows[0]["samples"], False
        best, nets = rows[0], [(e["discard"], e["net_score"], e["diff_to_best"]) for e in rows]
    throw = best["discard"]
    keep = [c for c in res["hand"].split() if c not in throw]
    out = {"throw": throw, "keep": keep, "net": nets[0][1], "player": player, "deals": deals, "held_out": held_out,
           "next_best": None}
    if len(nets) > 1:
        out["next_best"] = {"throw": nets[1][0], "gives_up": _minus(nets[1][2])}
    return out


_PLAYED = {"dd": "played out with both hands open", "search": "played out by the search player",
           "heuristic": "played out by the heuristic player"}


def answer_lines(res: dict, notation) -> list[str]:
    """The answer in two plain lines: what to throw and keep, its worth, the next best's cost."""
    ans = res["answer"]
    opponent = "younger" if res["seat"] == "elder" else "elder"
    n = ans["net"]
    what = (f"Throw {notation.names(ans['throw'])} and keep {notation.names(ans['keep'])}" if ans["throw"]
            else f"Take no card: keep {notation.names(ans['keep'])}")
    lines = [f"{what}: worth {n['value']:+.1f} points a deal over {opponent} [{n['ci95'][0]:+.1f}, "
             f"{n['ci95'][1]:+.1f}]."]
    deals = (f"on {ans['deals']:,} deals other than those that chose it" if ans["held_out"]
             else f"on the {ans['deals']:,} deals that chose it, which flatter it a little")
    nb = ans["next_best"]
    if nb is None:
        lines.append(f"No other exchange was in the running; {_PLAYED[ans['player']]} {deals}.")
    else:
        g = nb["gives_up"]
        lo, hi = g["ci95"]
        if lo > 0:
            worth = f"is worth {g['value']:.1f} less [{lo:.1f}, {hi:.1f}]"
        else:
            worth = f"is as good within the noise ({-g['value']:+.1f} a deal [{-hi:+.1f}, {-lo:+.1f}])"
        lines.append(f"The next best, throwing {notation.names(nb['throw'])}, {worth}; {_PLAYED[ans['player']]} "
                     f"{deals}.")
    return lines


RACE_COLUMNS = (
    ("net [95%]", "your points minus the opponent's, a deal, with its 95% interval"),
    ("vs best [95%]", "the difference to the first row, on the same deals"),
    ("point, seq, sets, repiq, cards", "how often you win the point, the sequences, the sets, a repique, the cards"),
    ("exact P(point 6+)", "the chance of a point of six cards or more, counted over every draw from the talon"),
)


STRONG_COLUMNS = (
    ("piq/rep", "how often you make a pique or a repique"),
    ("capot", "how often you win every trick"),
    ("heuristic #", "the row's place in the heuristic race's order"),
)
SEARCH_COLUMNS = (("open-hands #", "the row's place in the open-hands player's order"),)
"""The strong tables' columns not in the race's table, in words (the answer's legend)."""


def _params(p: dict) -> str:
    words = {True: "yes", False: "no"}
    return ", ".join(f"{k}={words.get(v, v) if isinstance(v, bool) else v}" for k, v in p.items() if k != "kind")


def verbose_lines(res: dict) -> list[str]:
    """How the numbers were made: the players' parameters, the race's rounds, the seeds, the times."""
    from analysis.piquet.studies.discards.analyser_search import SEED_OFFSETS

    lines = ["How the numbers were made (--verbose):",
             "  players (every one exchanges and declares as the heuristic; they differ in trick play):",
             f"    race, you: {res['players']['race']['me']['kind']} ({_params(res['players']['race']['me'])})",
             f"    race, the opponent: {res['players']['race']['opponent']['kind']} "
             f"({_params(res['players']['race']['opponent'])})"]
    for kind in ("dd", "search"):
        if kind in res["players"]:
            lines.append(f"    {kind}, both sides: {_params(res['players'][kind])}")
    lines.append(f"  race: every legal exchange on the same deals of seed {res['seed']}; after each round an exchange "
                 f"leaves when an anytime-valid confidence sequence (alpha {res['alpha']} / exchanges squared) puts it "
                 "below the leader" if res["race"] else "  race: off (--no-race: every exchange on every deal)")
    for r in res["rounds"]:
        lines.append(f"    round {r['round']}: {r['options_played']:,} played, {r['options_left']:,} left after "
                     f"{r['deals']:,} deals")
    if "strong" in res:
        s = res["strong"]
        lines.append(f"  {s['method']}")
        seeds = ", ".join(f"{k} seed {res['seed'] + v:,}" for k, v in SEED_OFFSETS.items()
                          if (k.startswith("search") and "search" in s) or not k.startswith("search"))
        lines.append(f"  deals: {seeds}")
        t = s["kendall_tau"]
        if t["value"] is not None:
            lines.append(f"  Kendall's tau {t['value']:+.3f} (p {t['p']:.3g}) over {t['over']} exchanges")
    b = res["budget"]
    lines.append(f"  budget {b['name']}: race up to {b['samples']:,} deals; dd {b['candidates']} leaders x "
                 f"{b['deals']:,} deals per stage; search {b['search_top']} x {b['search_deals']:,} (when played); "
                 f"--play {res['play']['asked']} used {res['play']['used']}")
    sec = res["seconds"]
    parts = ", ".join(f"{k} {v:.1f} s" for k, v in sec.items() if k != "total")
    threads = res.get("threads") or "all"
    lines.append(f"  time in this process: {parts}; total {sec['total']:.1f} s ({threads} threads)")
    return lines


def discard_text(res: dict, notation=None, verbose: bool = False) -> str:
    """The discard analyser's answer as text: two plain lines (what to throw and keep, its worth),
    then the race's top exchanges, the strong players' tables, the legend; ``verbose`` adds how."""
    from analysis.piquet.notation import Notation
    from analysis.piquet.studies.discards.analyser_search import strong_text

    notation = notation or Notation()
    hand = notation.names(res["hand"].split())
    lines = answer_lines(res, notation) + [""]
    lines.append(f"{res['seat'].capitalize()} holds {hand} · rules {res['rules']} · budget "
                 f"{res['budget']['name']} · seed {res['seed']}")
    lines.append("")
    n_opts = res["legal_exchanges"]
    raced = (", the clearly worse dropped as the race went on" if res["race"] else "")
    lines.append(f"Every legal exchange ({n_opts:,}) played out by the heuristic player (the books' rules of thumb) on "
                 f"the same deals{raced}: {res['deals_played']:,} deals.")
    width = max(len("throw"), *(len(notation.names(o["discard"])) for o in res["options"]))
    lines.append(f"  {'#':>4}  {'throw':<{width}}  {'net [95%]':<24} {'vs best [95%]':<23} point  seq   sets  repiq "
                 "cards  exact P(point 6+)")
    for o in res["options"]:
        n, d = o["net_score"], o["diff_to_best"]
        big = sum(p for length, p in o["exact"]["point_length"].items() if int(length) >= 6) if "exact" in o else 0
        lines.append(f"  {o['rank']:>4}  {notation.names(o['discard']):<{width}}  {n['value']:+7.2f} "
                     f"[{n['ci95'][0]:+.2f}, {n['ci95'][1]:+.2f}]  {d['value']:+6.2f} [{d['ci95'][0]:+.2f}, "
                     f"{d['ci95'][1]:+.2f}]  {o['p_point']:.2f}  {o['p_sequences']:.2f}  {o['p_sets']:.2f}  "
                     f"{o['p_repique']:.3f} {o['p_cards']:.2f}  {big:.3f}")
    if "mine" in res:
        m = res["mine"]
        g = m["gives_up"]
        lines.append(f"Your exchange, throwing {notation.names(m['discard'])}: rank {m['rank']} of {m['of']:,} in the "
                     f"race, giving up {g['value']:.2f} points a deal [{g['ci95'][0]:.2f}, {g['ci95'][1]:.2f}] "
                     "against its best.")
    for f in res.get("figures", []):
        lines.append(f"wrote {f}")
    if "strong" in res:
        lines += ["", strong_text(res["strong"], notation)]
    else:
        why = "--play heuristic" if res["play"]["asked"] == "heuristic" else f"the {res['budget']['name']} budget"
        lines += ["", f"(heuristic play only: {why})"]
    columns = (RACE_COLUMNS + (STRONG_COLUMNS if "strong" in res else ())
               + (SEARCH_COLUMNS if "search" in res.get("strong", {}) else ()))
    lines += ["", "Columns:"] + [f"  {name}: {words}" for name, words in columns]
    if verbose:
        lines += [""] + verbose_lines(res)
    return "\n".join(lines)


def overview_study(deals: int, seed: int, pol, out: str, threads: int | None, quiet: bool) -> tuple[dict, str]:
    """The three variants side by side (tables and figures written to ``out``)."""
    from analysis.piquet.studies.simulate import overview, overview_figures

    table, dist = overview(deals, seed, policy=pol, threads=threads, quiet=quiet)
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, "piquet_overview")
    table.to_csv(stem + ".csv", index=False)
    dist.to_csv(stem + "_scores.csv", index=False)
    figs = overview_figures(table, dist, stem)
    variants = table.attrs["variants"]
    text = (f"{table.attrs['caption']} {deals:,} deals per variant, seed {seed}.\n"
            + table[["statistic", *variants]].to_string(index=False, float_format=lambda x: f"{x:.4f}")
            + f"\nwrote {stem}.csv, {stem}_scores.csv, " + ", ".join(figs))
    return ({"rows": table.to_dict(orient="records"), "scores": dist.to_dict(orient="records"),
             "files": [stem + ".csv", stem + "_scores.csv"] + figs, **table.attrs}, text)


def discards_study(hands: int, seat: str, samples: int, elder_took: int, seed: int, r, out: str, threads: int | None,
                   quiet: bool) -> tuple[dict, str]:
    """The best exchange of many random hands and what the rules of thumb cost (written to ``out``)."""
    from analysis.piquet.studies.discards.study import study_figures, study_hands, summary
    from analysis.runner import show_progress

    df = study_hands(hands, seat, r, samples=samples, seed=seed, elder_took=elder_took, threads=threads,
                     progress=show_progress(quiet))
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"piquet_discards_{seat}_{r.name}")
    df.to_csv(stem + ".csv", index=False)
    figs = study_figures(df, stem)
    s = summary(df)
    lines = [f"Piquet discard study · {seat} · rules {r.name} · {hands} hands · up to {samples:,} deals each · seed {seed}",
             "best exchange takes: " + ", ".join(f"{k} cards {v:.0%}" for k, v in s["best_takes"].items()),
             "best exchange: " + ", ".join(f"{k.replace('_', ' ')} {v:.0%}" for k, v in s["best_exchange"].items())]
    for name, v in s["rules"].items():
        c = v["cost"]
        lines.append(f"  {name:<17} costs {c['value']:6.2f} points/deal [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}], "
                     f"is the best exchange in {v['is_best']:.0%} of hands ({v['rule']})")
    for name in ("take_all_cost", "random_cost"):
        c = s[name]
        lines.append(f"  {name[:-5]:<17} costs {c['value']:6.2f} points/deal [{c['ci95'][0]:.2f}, {c['ci95'][1]:.2f}]")
    lines.append(f"wrote {stem}.csv, " + ", ".join(figs))
    return {**df.attrs, "summary": s, "files": [stem + ".csv"] + figs}, "\n".join(lines)

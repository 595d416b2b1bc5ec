"""Reviewing played deals, for every game: each decision of a record beside the reviewer's best
choice and the expected points it lost (``salon review``; docs/review.md).

A game's review (``analysis/<game>/review.py``) walks its record and yields :class:`Decision`
rows; this module holds what the games share: the loss of a decision measured on sampled worlds
(chosen on one set of worlds, measured on another), the summaries per player, the JSON and the
text. The reviewer only uses what the deciding player knew; ``dd`` (open hands) is a bound, not a
legal player, and says so.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

PLAYER_WORDS = {"search": "the searching player (the hidden cards drawn from what the player knew, each drawn "
                          "deal played out by the game's strongest method)",
                "dd": "the open-hands player (every card seen: a bound, not a legal player)"}

MARGIN = 2.0
"""Standard errors by which an option must beat the choice made on the choosing sample to be named
the best (else the choice made is the best): among many options of close value the one that wins
a small sample is often lucky, and measured on the other sample it would look worse than the
choice made (the search players keep their default on the same rule)."""

KINDS = ("proposal", "exchange", "declarations", "lead", "follow", "meld")
"""The kinds of decision, in the order the summaries list them."""


@dataclass
class Decision:
    """One decision of a deal: who (``seat``), what kind, where (``step``: "trick 3"), what was
    chosen and the reviewer's best, the expected loss of the choice (None: not rated, ``note``
    says why) with its 95% interval (None where it is not sampled), and whether it was forced."""

    seat: str
    kind: str
    step: str
    chosen: str
    best: str | None = None
    loss: float | None = None
    ci95: tuple[float, float] | None = None
    forced: bool = False
    note: str | None = None
    score_loss: float | None = None
    score_ci95: tuple[float, float] | None = None
    score_best: str | None = None

    @property
    def rated(self) -> bool:
        return self.forced or self.loss is not None

    def to_json(self) -> dict:
        d = {"seat": self.seat, "kind": self.kind, "step": self.step, "chosen": self.chosen,
             "best": self.best if not self.forced else self.chosen,
             "loss": None if self.loss is None and not self.forced else
             {"value": round(float(self.loss or 0.0), 4),
              "ci95": None if self.ci95 is None else [round(float(x), 4) for x in self.ci95]},
             "forced": self.forced}
        if self.note:
            d["note"] = self.note
        if self.score_loss is not None:
            d["score_loss"] = {"value": round(float(self.score_loss), 4),
                               "ci95": None if self.score_ci95 is None else [round(float(x), 4) for x in self.score_ci95]}
        if self.score_best is not None:
            d["score_best"] = self.score_best
        return d


@dataclass
class DealReview:
    """A reviewed deal: its decisions in order, its result line, its seats and the game's own
    figures (``extra``: the open-hands value at the first lead and the play's result)."""

    decisions: list[Decision]
    result: str
    seats: tuple[str, str]
    extra: dict = field(default_factory=dict)


def sampled_loss(values_choose: np.ndarray, values_report: np.ndarray, chosen: int) -> tuple[int, float, tuple]:
    """(best, loss, ci95) of option ``chosen`` among the columns of two independent samples of
    worlds (rows: worlds, columns: options, values from the deciding player's side): the best is
    the option of highest mean on ``values_choose`` when it beats the chosen one there by MARGIN
    standard errors of their paired difference (else the chosen one), and its gain over the chosen
    option is measured on ``values_report``, paired world by world, with a normal 95% interval.
    Choosing and measuring on the same worlds would flatter the best."""
    best = choose_best(values_choose - values_choose[:, [chosen]], chosen)
    if best == chosen:
        return best, 0.0, (0.0, 0.0)
    d = values_report[:, best] - values_report[:, chosen]
    m = float(d.mean())
    return best, m, normal_interval(m, float(d.std(ddof=1)) if len(d) > 1 else float("inf"), len(d))


def choose_best(diffs: np.ndarray, chosen: int) -> int:
    """The best option on a sample of paired differences to the chosen one (rows: worlds): the one
    of highest mean if that mean exceeds MARGIN standard errors, else ``chosen``."""
    n = diffs.shape[0]
    if n < 2:
        return int(chosen)
    return best_of_means(diffs.mean(axis=0), diffs.std(axis=0, ddof=1) / np.sqrt(n), chosen)


def best_of_means(means: np.ndarray, se: np.ndarray, chosen: int) -> int:
    """MARGIN's rule on the mean differences to the chosen option and their standard errors: the
    option of highest mean when that mean is positive and exceeds MARGIN standard errors, else
    ``chosen`` (``choose_best`` on worlds; Bezique's review on the kernel's sums)."""
    k = int(np.argmax(means))
    return k if means[k] > 1e-12 and means[k] > MARGIN * se[k] else int(chosen)


def sums_moments(sums: np.ndarray, sums_sq: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(means, sample standard deviations) of ``n`` draws from their sums and sums of squares."""
    means = sums / n
    return means, np.sqrt(np.maximum(sums_sq / n - means ** 2, 0.0) * n / max(n - 1, 1))


def normal_interval(mean: float, sd: float, n: int) -> tuple[float, float]:
    """The normal 95% interval of a mean of ``n`` draws of standard deviation ``sd``."""
    half = 1.96 * sd / np.sqrt(n)
    return (mean - half, mean + half)


def exact_loss(values: np.ndarray, chosen: int) -> tuple[int, float]:
    """(best, loss) of option ``chosen`` among exact values (one world: the open hands)."""
    best = int(chosen) if values[chosen] >= values.max() - 1e-12 else int(np.argmax(values))
    return best, float(values[best] - values[chosen])


def seat_summary(decisions: Sequence[Decision], seat: str, deal_of: Sequence[int] | None = None) -> dict:
    """One player's summary: the total expected loss (95% interval from the sampled decisions'
    intervals, added as independent), the loss by kind, the three largest errors, the decisions
    that had a real choice and the mean loss per such decision, the forced and unrated ones."""
    mine = [d for d in decisions if d.seat == seat]
    rated = [d for d in mine if d.loss is not None and not d.forced]
    total = float(sum(d.loss for d in rated))
    var = float(sum(((d.ci95[1] - d.ci95[0]) / 3.92) ** 2 for d in rated if d.ci95 is not None))
    half = 1.96 * var ** 0.5
    by_kind = {k: round(float(sum(d.loss for d in rated if d.kind == k)), 4) for k in KINDS
               if any(d.kind == k for d in rated)}
    where = dict(zip(map(id, decisions), deal_of, strict=True)) if deal_of is not None else {}
    largest = sorted((d for d in rated if d.loss > 0), key=lambda d: -d.loss)[:3]
    in_score = [d for d in mine if d.score_loss is not None and not d.forced]
    score = {}
    if in_score:
        total_s = float(sum(d.score_loss for d in in_score))
        half_s = 1.96 * float(sum(((d.score_ci95[1] - d.score_ci95[0]) / 3.92) ** 2
                                  for d in in_score if d.score_ci95 is not None)) ** 0.5
        score = {"score_loss": {"value": round(total_s, 4), "ci95": [round(total_s - half_s, 4),
                                                                     round(total_s + half_s, 4)],
                                "decisions": len(in_score)}}
    return {"seat": seat, "loss": {"value": round(total, 4), "ci95": [round(total - half, 4), round(total + half, 4)]},
            "by_kind": by_kind,
            "largest": [{**d.to_json(), **({"deal": where[id(d)]} if where else {})} for d in largest],
            "choices": len(rated), "forced": sum(d.forced for d in mine),
            "unrated": sum(1 for d in mine if not d.rated),
            "error_rate": round(total / len(rated), 4) if rated else None, **score}


def deal_json(review: DealReview) -> dict:
    return {"result": review.result, "decisions": [d.to_json() for d in review.decisions],
            "summary": {s: seat_summary(review.decisions, s) for s in review.seats}, **review.extra}


def file_json(game: str, rules: str, player: str, samples: int | None, seed: int, reviews: Sequence[DealReview],
              seats: tuple[str, str], rated: str = "") -> dict:
    """The review of a file as ``salon review --json`` prints it (``rated``: which decisions the
    game's review rates, and how)."""
    every = [d for r in reviews for d in r.decisions]
    deal_of = [i for i, r in enumerate(reviews, 1) for _ in r.decisions]
    return {"game": game, "rules": rules,
            "reviewer": {"player": player, "samples": samples if player == "search" else None, "seed": seed,
                         "words": PLAYER_WORDS[player], "rated": rated},
            "loss_unit": "expected points lost against the reviewer's best choice, from the deciding player's side",
            "deals": [deal_json(r) for r in reviews],
            "summary": {s: seat_summary(every, s, deal_of) for s in seats}}


def _loss_words(d: Decision | dict) -> str:
    d = d if isinstance(d, dict) else d.to_json()
    if d["forced"]:
        return "forced"
    if d["loss"] is None:
        return "not rated"
    v = d["loss"]["value"]
    if v == 0 and (d["loss"]["ci95"] in (None, [0.0, 0.0])):
        return "best"
    ci = d["loss"]["ci95"]
    return f"lost {v:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def text(res: dict, unit: str, verbose: bool = False) -> str:
    """The review as a player reads it: each deal's decisions (the best beside a choice that lost),
    then each player's summary."""
    lines = [f"{res['game'].capitalize() if res['game'] != 'ecarte' else 'Écarté'} review, rules {res['rules']}: "
             f"points lost against {_reviewer_short(res['reviewer'])}."]
    match = res.get("match")
    if match:
        lines.append(match_words(res["game"], match))
    notes: dict[str, int] = {}
    for i, deal in enumerate(res["deals"], 1):
        lines.append("")
        lines.append(f"{unit.capitalize()} {i}: {deal_where(deal)}{deal['result']}")
        for d in deal["decisions"]:
            best = "" if d["forced"] or d["best"] in (None, d["chosen"]) else f"   best: {d['best']}"
            mark = ""
            if d.get("note") and d["loss"] is None:
                notes.setdefault(d["note"], len(notes) + 1)
                mark = f" ({notes[d['note']]})"
            in_score = score_words(res["game"], d)
            lines.append(f"  {d['seat']:<8}{d['step']:<14}{d['chosen']:<28}{_loss_words(d)}{mark}{best}{in_score}")
        for seat, s in deal["summary"].items():
            lines.append("  " + _summary_words(seat, s))
    if len(res["deals"]) > 1:
        lines.append("")
        lines.append(f"All {len(res['deals'])} {unit}s" + (" (each player in both seats)" if match else "") + ":")
        for seat, s in res["summary"].items():
            lines.append("  " + _summary_words(seat, s) + _score_total_words(res["game"], s))
            for d in s["largest"]:
                lines.append(f"    largest: {unit} {d['deal']}, {d['step']}, {d['chosen']} instead of {d['best']}: "
                             f"{_loss_words(d)}")
    for note, k in notes.items():
        lines.append(f"({k}) {note}")
    if verbose:
        r = res["reviewer"]
        lines.append(f"Reviewer: {r['words']}" + (f"; {r['samples']} sampled deals to choose each best and as many "
                                                    "to measure its loss" if r["samples"] else "")
                     + f", seed {r['seed']}. {r['rated']}")
    return "\n".join(lines)


_SCORE_WORDS = {"piquet": ("the partie's margin", "{:.1f}"), "ecarte": ("the chance of winning the game", "{:.1%}")}
"""How each game's decisions in a partie or game are rated beside points: the currency, its format."""


def deal_where(deal: dict) -> str:
    """Who sat where in a deal of a partie or game and the score before it ("" for a lone deal)."""
    m = deal.get("match")
    if not m:
        return ""
    return (", ".join(f"{p} {seat}" for seat, p in m["players"].items()) + "; score before: "
            + ", ".join(f"{p} {t}" for p, t in m["before"].items()) + ". ")


def match_words(game: str, match: dict) -> str:
    """The match's line: the players, the final score and its outcome, the currency beside points."""
    a, b = match["players"]
    kind = "partie" if game == "piquet" else "game"
    totals = ", ".join(f"{p} {t}" for p, t in match["totals"].items())
    if not match["over"]:
        outcome = f"not over after these deals ({totals})"
    elif match.get("winner") is None:
        outcome = f"drawn ({totals})"
    else:
        outcome = f"won by {match['winner']} ({totals}" + (
            f"; margin {match['margin']}" + (", rubicon" if match.get("rubiconed") else "") if "margin" in match
            else "") + ")"
    currency = (f"; the decisions played for the score are also rated in {_SCORE_WORDS[game][0]}"
                if match["score_unit"] else "")
    return f"A {kind} between {a} and {b} ({a} elder in the first {'deal' if game != 'ecarte' else 'hand'}): {outcome}{currency}."


def score_words(game: str, d: dict) -> str:
    """A decision's loss in the match's currency, where rated."""
    if d["forced"]:
        return ""
    if "score_loss" not in d:
        return f"   (at this score: {d['score_best']})" if d.get("score_best") else ""
    what, fmt = _SCORE_WORDS[game]
    v, ci = d["score_loss"]["value"], d["score_loss"]["ci95"]
    best = f", best {d['score_best']}" if d.get("score_best") not in (None, d["chosen"]) else ""
    if v == 0 and ci in (None, [0.0, 0.0]):
        return f"   (in {what}: best)" if not best else f"   (in {what}{best})"
    return (f"   (in {what}: lost {fmt.format(v)}" + (f" [{fmt.format(ci[0])}, {fmt.format(ci[1])}]" if ci else "")
            + f"{best})")


def _score_total_words(game: str, s: dict) -> str:
    if "score_loss" not in s:
        return ""
    what, fmt = _SCORE_WORDS[game]
    v, (lo, hi) = s["score_loss"]["value"], s["score_loss"]["ci95"]
    return f"; in {what}: lost {fmt.format(v)} [{fmt.format(lo)}, {fmt.format(hi)}] in {s['score_loss']['decisions']} decisions"


def _reviewer_short(r: dict) -> str:
    if r["player"] == "dd":
        return "the open-hands player (a bound: it sees every card)"
    if not r["samples"]:
        return "the exact end-game solver"
    return f"the searching player ({r['samples']} hidden deals a decision)"


def _summary_words(seat: str, s: dict) -> str:
    lo, hi = s["loss"]["ci95"]
    rate = "" if s["error_rate"] is None else f", {s['error_rate']:.2f} a decision"
    kinds = ", ".join(f"{k} {v:.2f}" for k, v in s["by_kind"].items() if v)
    return (f"{seat}: lost {s['loss']['value']:.2f} [{lo:.2f}, {hi:.2f}] in {s['choices']} decisions with a choice"
            f"{rate}" + (f" ({kinds})" if kinds else "") + (f"; {s['unrated']} not rated" if s["unrated"] else ""))


def game_of(records: Sequence[dict], game: str | None) -> str:
    """The records' game: ``game`` when given, else the first record's ``"game"``, else the one
    game whose keys the record has (an input error when none or several)."""
    import importlib

    from analysis.errors import InputError
    from analysis.record_files import GAMES

    if game is not None:
        return game
    first = records[0]
    named = first.get("game")
    if named is not None:
        if named not in GAMES:
            raise InputError(f"record 1: unknown game {named!r}; salon reviews {', '.join(GAMES)} records")
        return named
    fits = [g for g in GAMES if set(first) <= set(importlib.import_module(f"analysis.{g}.reference.records").SCHEMA.keys)]
    if len(fits) != 1:
        raise InputError("record 1 names no \"game\" and its keys are no game's record: give --game")
    return fits[0]


def review_records(records: Sequence[dict], review_one: Callable, progress=None) -> list[DealReview]:
    """Each record reviewed by ``review_one(record, index)``, with an input error naming the record
    when a file holds several; ``progress`` (a tqdm bar or None) moves after each."""
    from analysis.errors import InputError

    out = []
    for i, rec in enumerate(records):
        try:
            out.append(review_one(rec, i))
        except InputError as e:
            raise InputError(f"record {i + 1}: {e}" if len(records) > 1 else str(e)) from None
        if progress is not None:
            progress.update(1)
    return out


@dataclass(frozen=True)
class ReviewQuestion:
    """What ``salon review`` asks: the file, its game (None: read from the records), the reviewer
    and its samples (None: the game's default), the seed of the sampled worlds, the rules (None:
    each record's own), the threads and whether to show progress."""

    path: str
    game: str | None = None
    player: str = "search"
    samples: int | None = None
    seed: int = 0
    rules: str | None = None
    rule: tuple = ()
    threads: int | None = None
    quiet: bool = True


def review_file(q: ReviewQuestion, verbose: bool = False) -> tuple[dict, str]:
    """The review of every record in ``q.path`` as JSON and as text."""
    from tqdm.auto import tqdm

    from analysis.games import GAMES
    from analysis.match_records import Match
    from analysis.record_text import load_any

    got = load_any(q.path, q.game)
    match = got if isinstance(got, Match) else None
    records = match.records if match else got
    name = match.game if match else game_of(records, q.game)
    g = GAMES[name]
    rules = g.rules(q.rules, q.rule) if (q.rules or q.rule) else None
    bar = tqdm(total=len(records), desc=f"reviewing {g.unit}s", unit=f" {g.unit}", leave=False, disable=q.quiet)
    try:
        res = review_any(got, name, q.player, q.samples, q.seed, rules, q.rules, q.threads, bar)
    finally:
        bar.close()
    return res, text(res, g.unit, verbose)


def review_json(records: Sequence[dict], game: str, player: str, samples: int | None, seed: int, rules=None,
                rules_name: str | None = None, threads: int | None = None, progress=None) -> dict:
    """The review of ``records`` of ``game`` (``salon review --json``'s object) by ``player`` at
    ``samples`` (None: the game's default), under ``rules`` named ``rules_name`` (None: each
    record's own, named by the first)."""
    from analysis.games import GAMES

    g = GAMES[game]
    module = g.review.load()
    samples = samples or module.DEFAULT_SAMPLES
    reviews = review_records(records, lambda rec, i: module.review(rec, i, rules, player, samples, seed, threads),
                             progress)
    return file_json(game, rules_name or records[0].get("rules") or "seed-de", player, samples, seed, reviews, g.seats, module.RATED)


def review_any(got, game: str, player: str, samples: int | None, seed: int, rules=None, rules_name: str | None = None,
               threads: int | None = None, progress=None) -> dict:
    """The review of what a file holds (``record_text.load_any``): deal records of ``game``, or a
    whole partie or game."""
    from analysis.match_records import Match

    if isinstance(got, Match):
        return review_match(got, player, samples, seed, rules, rules_name, threads, progress)
    return review_json(got, game, player, samples, seed, rules, rules_name, threads, progress)


def review_match(match, player: str, samples: int | None, seed: int, rules=None, rules_name: str | None = None,
                 threads: int | None = None, progress=None) -> dict:
    """The review of a whole partie or game (``match_records.Match``): every deal as
    :func:`review_json` reviews one, each told its place in the match (the score before it, and
    whether it was played for the score, where the game rates decisions in the match's currency too),
    then each player's summary over every deal, whichever seat he held."""
    from analysis import match_records
    from analysis.games import GAMES

    g = GAMES[match.game]
    module = g.review.load()
    samples = samples or module.DEFAULT_SAMPLES
    scores = match_records.scores(match, g.seats, module.match_step, g.replay, rules)
    reviews = review_records(match.records, lambda rec, i: module.review(rec, i, rules, player, samples, seed,
                                                                         threads, score=scores[i]), progress)
    res = file_json(match.game, rules_name or match.rules, player, samples, seed, reviews, g.seats,
                    f"{module.RATED} {module.SCORE_RATED}")
    for deal, sc in zip(res["deals"], scores, strict=True):
        deal["match"] = {"players": sc.seats, "before": sc.before, "after": sc.after, "for_score": sc.for_score}
    rules_used = rules or g.rules(match.rules)
    res["match"] = {"players": list(match.players), "score_unit": module.SCORE_UNIT,
                    "totals": scores[-1].after, "over": scores[-1].over,
                    **(module.match_result(scores[-1].after, rules_used) if scores[-1].over else {})}
    res["summary"] = match_records.summary_by_player(match, reviews, scores, seat_summary)
    return res


def guide_example(game: str, seed: int, share: float = 1.0) -> dict:
    """The guide's example of ``game`` (its "Reviewing your own deals"): deal 0 of ``seed`` played
    by salon's heuristic player on both sides, in the text notation, reviewed by the searching
    reviewer at ``share`` of the game's default samples (the quick guide's budget takes fewer):
    the JSON review and the command that reviews it again."""
    from analysis.games import GAMES

    g = GAMES[game]
    record = g.record(seed, 0, g.rules(), g.policy("heuristic"))
    record.pop("source", None)
    default = g.review.load().DEFAULT_SAMPLES
    samples = max(1, round(default * share))
    again = "" if samples == default else f" --samples {samples}"
    return {"notation": g.notation.load().to_text(record), "review": review_json([record], game, "search", samples, seed),
            "played_by": "salon's heuristic player", "command": f"salon review deal.txt --seed {seed}{again}"}


def guide_part(game: str) -> Callable:
    """``game``'s report part of the guide's reviewed example (its ``PARTS["review"]``): at the
    budget's ``review_share`` of the reviewer's samples."""
    def part(out_dir, fig_dir, budget, seed, threads, tips, section) -> dict:
        return {"review_example": guide_example(game, seed, budget.get("review_share", 1.0))}

    return part


def review_text(text_: str, game: str | None = None, player: str = "search", samples: int | None = None,
                seed: int = 0) -> dict:
    """The review (``salon review --json``'s object) of deals typed in the text notation, or of a
    whole partie or game: the notebooks' entry point."""
    from analysis.match_records import Match
    from analysis.record_text import parse_any_text

    got = parse_any_text(text_, game)
    return review_any(got, got.game if isinstance(got, Match) else game_of(got, game), player, samples, seed)


def decisions_frame(res: dict):
    """A review's decisions as a pandas DataFrame: deal, seat, kind, step, chosen, best, loss and its
    interval, forced, note."""
    import pandas as pd

    rows = []
    for i, deal in enumerate(res["deals"], 1):
        for d in deal["decisions"]:
            loss = d["loss"] or {}
            ci = loss.get("ci95") or [None, None]
            rows.append({"deal": i, "seat": d["seat"], "kind": d["kind"], "step": d["step"], "chosen": d["chosen"],
                         "best": d["best"], "loss": loss.get("value"), "lo": ci[0], "hi": ci[1],
                         "forced": d["forced"], "note": d.get("note")})
    return pd.DataFrame(rows)


def loss_figure(res: dict, deal: int = 1):
    """The points lost at each rated decision of one deal, per player, with the 95% intervals."""
    import matplotlib.pyplot as plt

    df = decisions_frame(res)
    df = df[(df["deal"] == deal) & df["loss"].notna() & ~df["forced"]].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(df)), 3.5))
    for seat, colour in zip(df["seat"].unique(), ("#1f77b4", "#d62728"), strict=False):
        part = df[df["seat"] == seat]
        err = [(part["loss"] - part["lo"].fillna(part["loss"])).clip(lower=0),
               (part["hi"].fillna(part["loss"]) - part["loss"]).clip(lower=0)]
        ax.bar(part.index, part["loss"], yerr=err, color=colour, label=seat, capsize=2)
    ax.set_xticks(df.index, [f"{s} {c}" for s, c in zip(df["step"], df["chosen"], strict=True)], rotation=70,
                  fontsize=7)
    ax.axhline(0, color="#555", lw=0.8)
    ax.set_ylabel("points lost")
    ax.set_title(f"{res['game']}: the points each decision lost against the reviewer's best ({res['reviewer']['player']})")
    ax.legend()
    fig.tight_layout()
    return fig

"""The ``salon`` command line (click). Heavy modules are imported inside commands so that
``salon --help`` and ``salon --version`` answer without compiling anything."""
from __future__ import annotations

import json
import os
import sys

import click

from analysis import __version__

GAMES = ("ecarte", "piquet", "bezique")
class UserError(click.ClickException):
    """Bad input: printed as one line, exit code 2."""

    exit_code = 2


def fail(message: str) -> None:
    """Stop with a one-line error and exit code 2."""
    raise UserError(message)


def emit(obj, as_json: bool, text: str) -> None:
    """Print one JSON object, or the text form."""
    if as_json:
        click.echo(json.dumps(obj, ensure_ascii=False, default=_json_default))
    else:
        click.echo(text)


def _json_default(o):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def ecarte_rules(rules: str, rule: tuple[str, ...]):
    """The Écarté variant named on the command line, with --rule overrides."""
    from analysis.ecarte.rules import get_rules

    return get_rules(rules, list(rule))


def ecarte_policy(policy: str, param: tuple[str, ...]):
    """The Écarté policy named on the command line, with --param overrides."""
    from analysis.ecarte.policies import get_policy

    return get_policy(policy, list(param))


def piquet_rules(rules: str, rule: tuple[str, ...]):
    """The Piquet variant named on the command line, with --rule overrides."""
    from analysis.piquet.rules import get_rules

    return get_rules(rules, list(rule))


def piquet_policy(policy: str, param: tuple[str, ...]):
    """The Piquet policy named on the command line, with --param overrides."""
    from analysis.piquet.policies import get_policy

    return get_policy(policy, list(param))


def replay_file(file: str, rules: str | None, rule: tuple[str, ...], rescore, rules_of) -> tuple[list[dict], dict]:
    """Re-score every record of a file: --rules / --rule override each record's own variant
    (``rules_of(name, rule)`` builds them); returns (results, the JSON to print)."""
    from analysis.errors import InputError
    from analysis.record_files import load_records

    recs = load_records(file)
    results = []
    for i, rec in enumerate(recs):
        named = rules or rec.get("rules") or "seed-de"
        r = rules_of(named, rule) if (rules or rule) else None
        try:
            results.append(rescore(rec, r))
        except InputError as e:
            raise InputError(f"record {i + 1}: {e}" if len(recs) > 1 else str(e)) from None
    return results, results[0] if len(results) == 1 else {"records": results}


def rules_options(f):
    """--rules and --rule, shared by every command that plays."""
    f = click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one switch of the variant.")(f)
    f = click.option("--rules", "rules", default="seed-de", show_default=True, help="Rules variant.")(f)
    return f


def policy_options(f):
    """--policy and --param."""
    f = click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one policy parameter.")(f)
    f = click.option("--policy", default="heuristic", show_default=True,
                     type=click.Choice(["heuristic", "random"]), help="Policy of both players.")(f)
    return f


def positive(ctx, param, value):
    """click callback: the value must be a positive integer."""
    if value is not None and value < 1:
        raise click.BadParameter(f"must be positive, not {value}")
    return value


def non_negative(ctx, param, value):
    """click callback: the value must be zero or more."""
    if value is not None and value < 0:
        raise click.BadParameter(f"must not be negative, not {value}")
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="salon")
@click.option("--results", metavar="DIR", default=None,
              help="Result store directory [$SALON_RESULTS or ~/.cache/salon; 'off' for none].")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the batches on this Dask scheduler (tcp://HOST:PORT).")
@click.option("--workers", type=int, default=None, help="Start a local Dask cluster of N worker processes.")
@click.pass_context
def cli(ctx, results, scheduler, workers):
    """salon: Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""
    if results is not None:
        os.environ["SALON_RESULTS"] = results
    if scheduler or workers is not None:
        from analysis.dask_backend import DaskBackend
        from analysis.runner import use_backend

        backend = DaskBackend(scheduler, workers)
        use_backend(backend)

        def close():
            use_backend(None)
            backend.close()

        ctx.call_on_close(close)


# --------------------------------------------------------------------------- simulate
@cli.command()
@click.argument("game", type=click.Choice(GAMES))
@click.option("--deals", default=1_000_000, show_default=True, callback=positive, help="Hands (or games) to play.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options
@click.option("--threads", type=int, default=None, callback=positive, help="Threads (default: all cores).")
@click.option("--game", "games", is_flag=True, help="Écarté, Bezique: play whole games to the target.")
@click.option("--partie", "parties", is_flag=True, help="Piquet: play whole parties of six deals.")
@click.option("--records", type=click.Path(dir_okay=False), help="Also write the first deals as JSON records here.")
@click.option("--record-count", default=10, show_default=True, callback=positive, help="How many records.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(game, deals, seed, rules, rule, policy, param, threads, games, parties, records, record_count,
             as_json, quiet):
    """Play GAME many times and print summary statistics with 95% intervals."""
    if game == "bezique":
        if parties:
            fail("--partie is for piquet; Bezique plays games to the target with --game")
        from analysis.bezique import studies as bz
        from analysis.bezique.policies import get_policy as bz_policy

        r = bezique_rules(rules, rule)
        pol = bz_policy(policy, list(param))
        run = bz.simulate_games if games else bz.simulate_deals
        res = run(deals, seed, r, pol, threads=threads, quiet=quiet)
        res.pop("tallies", None)
        if records:
            from analysis.bezique.records import record_from_deal, save_records
            from analysis.bezique.reference import play_deal

            recs = [record_from_deal(play_deal(seed, i, r, pol, pol), r) for i in range(min(record_count, deals))]
            save_records(recs, records)
            res["records"] = {"path": records, "count": len(recs)}
        emit(res, as_json, _stats_text(res))
        return
    if game == "ecarte":
        if parties:
            fail("--partie is for piquet; Écarté plays games to the target with --game")
        res = _simulate_ecarte(deals, seed, rules, rule, policy, param, threads, games, records, record_count,
                               quiet)
    else:
        if games:
            fail("--game is for ecarte; Piquet plays parties with --partie")
        res = _simulate_piquet(deals, seed, rules, rule, policy, param, threads, parties, records, record_count,
                               quiet)
    emit(res, as_json, _stats_text(res))


def _simulate_ecarte(deals, seed, rules, rule, policy, param, threads, games, records, record_count, quiet):
    from analysis.ecarte import studies

    r = ecarte_rules(rules, rule)
    pol = ecarte_policy(policy, param)
    if games:
        res = studies.simulate_games(deals, seed, r, pol, threads=threads, quiet=quiet)
    else:
        res = studies.simulate_hands(deals, seed, r, pol, threads=threads, quiet=quiet)
    res.pop("tallies", None)
    if records:
        from analysis.ecarte.records import record_from_hand, save_records
        from analysis.ecarte.reference import play_hand

        recs = [record_from_hand(play_hand(seed, i, r, pol), r) for i in range(min(record_count, deals))]
        save_records(recs, records)
        res["records"] = {"path": records, "count": len(recs)}
    return res


def _simulate_piquet(deals, seed, rules, rule, policy, param, threads, parties, records, record_count, quiet):
    from analysis.piquet import studies

    r = piquet_rules(rules, rule)
    pol = piquet_policy(policy, param)
    if parties:
        res = studies.simulate_parties(deals, seed, r, pol, threads=threads, quiet=quiet)
    else:
        res = studies.simulate_deals(deals, seed, r, pol, threads=threads, quiet=quiet)
    res.pop("tallies", None)
    if records:
        from analysis.piquet.records import record_from_deal, save_records
        from analysis.piquet.reference import play_deal

        recs = [record_from_deal(play_deal(seed, i, r, pol, pol), r) for i in range(min(record_count, deals))]
        save_records(recs, records)
        res["records"] = {"path": records, "count": len(recs)}
    return res


def _stats_text(res: dict) -> str:
    lines = [f"{res['game']} · rules {res['rules']} · {res['deals']:,} {res.get('mode', 'hands')} · seed {res['seed']}"
             f" · salon {res['version']}"]
    width = max(len(k) for k in res["stats"])
    for name, s in res["stats"].items():
        lo, hi = s["ci95"] if s["ci95"] else (float("nan"), float("nan"))
        value = s["value"] if s["value"] is not None else float("nan")
        lo = float("nan") if lo is None else lo
        hi = float("nan") if hi is None else hi
        lines.append(f"  {name:<{width}}  {value:9.5f}  [{lo:.5f}, {hi:.5f}]  n={s['n']:,}")
    for seat, bins in res.get("score_bins", {}).items():
        total = sum(bins.values())
        lines.append(f"  {seat}'s score per deal: " + ", ".join(f"{k} {v / total:.1%}" for k, v in bins.items()))
    if "records" in res:
        lines.append(f"  wrote {res['records']['count']} records to {res['records']['path']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- ecarte
@cli.group()
def ecarte():
    """Écarté: one hand explained, a record replayed, a hand's propose/play decision."""


def _parse_score(text: str, rules) -> tuple[int, int]:
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


@ecarte.command()
@click.argument("hand")
@click.option("--turnup", required=True, help="The turned-up card (fixes trumps).")
@click.option("--samples", default=20_000, show_default=True, callback=positive)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options
@click.option("--score", default=None, metavar="A-B", help="Elder's and the dealer's game score (needs the tables).")
@click.option("--tables", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              help="Where `salon study ecarte strategy` wrote its tables.")
@click.option("--simulate", is_flag=True, help="Simulate even when strategy tables are present.")
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def propose(hand, turnup, samples, seed, rules, rule, policy, param, score, tables, simulate, threads, as_json,
            quiet):
    """Should elder holding HAND (five cards) play without proposing, or propose?

    With strategy tables for these rules and policy (``salon study ecarte strategy``) the answer
    is read from them (and ``--score A-B`` gives the decision that maximises the chance of winning
    the game); otherwise it is simulated for this hand and turn-up."""
    from analysis.ecarte.studies import parse_elder_hand, propose_hand

    r, pol = ecarte_rules(rules, rule), ecarte_policy(policy, param)
    codes, up = parse_elder_hand(hand, turnup)
    at = _parse_score(score, r) if score else None
    from analysis.ecarte import strategy

    stored = None if simulate else strategy.lookup(codes, up, r, pol, tables, at)
    if stored is not None:
        def fmt_h(d):
            return f"{d['value']:+.4f} ± {d['halfwidth']:.4f}"

        lines = [f"Elder holds {hand}, turn-up {turnup} · rules {r.name} · from {stored['source']}",
                 f"hand class {stored['class']} (turn-up rank marginalised), {stored['deals']:,} deals:",
                 f"  play without proposing  {fmt_h(stored['play'])}",
                 f"  propose                 {fmt_h(stored['propose'])}",
                 f"  propose minus play      {fmt_h(stored['difference'])}"]
        if at is not None:
            lines.append(f"points decision: {stored['points_recommendation']}; at {at[0]}-{at[1]} the decision that "
                         f"maximises the chance of winning the game: {stored['recommendation']}")
        else:
            lines.append(f"recommendation: {stored['recommendation']}")
        emit(stored, as_json, "\n".join(lines))
        return
    if at is not None:
        from analysis.errors import InputError

        raise InputError(f"--score needs the strategy tables for rules {r.name} in {tables}; "
                         "run `salon study ecarte strategy` first")
    res = propose_hand(hand, turnup, samples, seed, r, pol, threads=threads, quiet=quiet)

    def fmt(d):
        return f"{d['value']:+.4f} [{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}]"

    text = "\n".join([
        f"Elder holds {hand}, turn-up {turnup} · rules {res['rules']} · {samples:,} sampled deals (seed {seed})",
        "net points per hand (elder minus dealer), 95% intervals:",
        f"  play without proposing  {fmt(res['play'])}   P(point) {res['play_point']['value']:.3f}",
        f"  propose                 {fmt(res['propose'])}   P(point) {res['propose_point']['value']:.3f}"
        f"   (dealer refuses {res['dealer_refuses']['value']:.1%})",
        f"  propose minus play      {fmt(res['difference'])}",
        f"recommendation: {res['recommendation']}" + ("" if res["clear"] else " (not clear at 95%: more --samples)"),
    ])
    emit(res, as_json, text)


@ecarte.command()
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--deal", "deal_index", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options
def explain(seed, deal_index, rules, rule, policy, param):
    """Narrate one hand step by step (reference implementation)."""
    from analysis.ecarte.reference import explain as narrate

    click.echo(narrate(seed, deal_index, ecarte_rules(rules, rule), ecarte_policy(policy, param)))


@ecarte.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--rules", default=None, help="Variant (default: the record's own).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE")
@click.option("--json", "as_json", is_flag=True)
def replay(file, rules, rule, as_json):
    """Re-score a JSON deal record (a list of records is replayed one by one)."""
    from analysis.ecarte.records import replay as rescore

    results, out = replay_file(file, rules, rule, rescore, ecarte_rules)
    text = "\n".join(
        f"elder {r['scores']['elder']} points ({r['tricks']['elder']} tricks), "
        f"dealer {r['scores']['dealer']} points ({r['tricks']['dealer']} tricks)" for r in results)
    emit(out, as_json, text)


# --------------------------------------------------------------------------- piquet
@cli.group()
def piquet():
    """Piquet: declarations scored, which cards to throw, a deal explained, a record replayed."""


@piquet.command()
@click.argument("hand")
@click.option("--vs", "younger", default=None, help="Younger's twelve cards: score the declarations.")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              help="de: also read B (Bube) and D (Dame) as ranks.")
@rules_options
@click.option("--json", "as_json", is_flag=True)
def declare(hand, younger, lang, rules, rule, as_json):
    """Elder's combinations in HAND (twelve cards); with --vs, the declarations as scored."""
    from analysis.piquet.declare import declaration_report, declare_text

    res = declaration_report(hand, younger, piquet_rules(rules, rule), lang)
    emit(res, as_json, declare_text(res))


@piquet.command()
@click.argument("hand")
@click.option("--seat", type=click.Choice(["elder", "younger"]), default="elder", show_default=True)
@rules_options
@click.option("--samples", default=10_000, show_default=True, callback=positive, help="Most sampled deals.")
@click.option("--target-halfwidth", type=float, default=None, help="Stop when every survivor's 95%% half-width is this.")
@click.option("--top", default=10, show_default=True, callback=positive, help="Options to list.")
@click.option("--all", "show_all", is_flag=True, help="List every option.")
@click.option("--mine", default=None, help="Grade this discard: its rank and what it gives up.")
@click.option("--elder-took", default=5, show_default=True, type=int, help="Younger: cards elder exchanged.")
@click.option("--no-race", is_flag=True, help="Play every option on every deal (no early dropping).")
@click.option("--plot", default=None, type=click.Path(dir_okay=False), help="Figure of the top options.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
def discard(hand, seat, rules, rule, samples, target_halfwidth, top, show_all, mine, elder_took, no_race, plot, seed,
            lang, threads, as_json):
    """Which cards should HAND (twelve cards) throw? Every legal exchange on the same deals."""
    import pandas as pd

    from analysis.piquet.discards import analyse_hand, grade, option_json, plot_top

    if seat == "elder" and elder_took != 5:
        fail("--elder-took is for --seat younger")
    a = analyse_hand(hand, seat, piquet_rules(rules, rule), samples=samples, target_halfwidth=target_halfwidth,
                     elder_took=elder_took, seed=seed, race=not no_race, mine=mine, threads=threads,
                     lang=None if lang == "en" else lang, exact=False)
    df = a.table
    shown = df if show_all else df.head(top)
    if mine is not None and not shown["mine"].any():
        shown = pd.concat([shown, df[df["mine"]]])
    shown = a.with_exact(shown)
    res = {**a.spec, "rounds": a.rounds, "options": [option_json(r) for _, r in shown.iterrows()]}
    if mine is not None:
        res["mine"] = grade(df, df[df["mine"]].iloc[0])
    if plot:
        res["figures"] = plot_top(df, plot)
    emit(res, as_json, _discard_text(res))


def _discard_text(res: dict) -> str:
    lines = [f"{res['seat']} holds {res['hand']} · rules {res['rules']} · {res['legal_exchanges']} legal exchanges · "
             f"{res['deals_played']:,} sampled deals (seed {res['seed']})"]
    lines.append("racing: " + "; ".join(f"round {r['round']}: {r['options_played']} played, {r['options_left']} left"
                                        f" after {r['deals']:,} deals" for r in res["rounds"]))
    lines.append(f"  {'#':>4}  {'throw':<22} {'net [95%]':<24} {'vs best [95%]':<24} point  seq   sets  repiq "
                 "cards  exact P(point 6+)")
    for o in res["options"]:
        n, d = o["net_score"], o["diff_to_best"]
        big = sum(p for length, p in o["exact"]["point_length"].items() if int(length) >= 6) if "exact" in o else 0
        lines.append(f"  {o['rank']:>4}  {' '.join(o['discard']):<22} {n['value']:+7.2f} [{n['ci95'][0]:+.2f}, "
                     f"{n['ci95'][1]:+.2f}]  {d['value']:+6.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}]  "
                     f"{o['p_point']:.2f}  {o['p_sequences']:.2f}  {o['p_sets']:.2f}  {o['p_repique']:.3f} "
                     f"{o['p_cards']:.2f}  {big:.3f}")
    if "mine" in res:
        m = res["mine"]
        g = m["gives_up"]
        lines.append(f"your discard {' '.join(m['discard'])}: rank {m['rank']} of {m['of']}, gives up "
                     f"{g['value']:.2f} points per deal [{g['ci95'][0]:.2f}, {g['ci95'][1]:.2f}] against the best")
    for f in res.get("figures", []):
        lines.append(f"wrote {f}")
    return "\n".join(lines)


@piquet.command("explain")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--deal", "deal_index", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options
def piquet_explain(seed, deal_index, rules, rule, policy, param):
    """Narrate one deal step by step (reference implementation)."""
    from analysis.piquet.reference import explain as narrate

    pol = piquet_policy(policy, param)
    click.echo(narrate(seed, deal_index, piquet_rules(rules, rule), pol, pol))


@piquet.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--rules", default=None, help="Variant (default: the record's own).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE")
@click.option("--json", "as_json", is_flag=True)
def piquet_replay(file, rules, rule, as_json):
    """Re-score a JSON deal record (a list of records is replayed one by one)."""
    from analysis.piquet.records import replay as rescore

    results, out = replay_file(file, rules, rule, rescore, piquet_rules)
    from analysis.piquet.declare import scores_text

    emit(out, as_json, "\n\n".join(scores_text(r["scores"], r["rules"]) for r in results))


# --------------------------------------------------------------------------- bezique
def bezique_rules(rules: str, rule: tuple[str, ...]):
    """The Bezique variant named on the command line, with --rule overrides."""
    from analysis.bezique.rules import get_rules

    return get_rules(rules, list(rule))


@cli.group()
def bezique():
    """Bezique: legal melds, a deal explained, a record replayed."""


@bezique.command()
@click.argument("hand")
@click.option("--trump", required=True, help="Trump suit: S H D C or ♠ ♥ ♦ ♣.")
@click.option("--table", default=None, help='Melds already on the table, one group per meld: "QS JD; KH QH".')
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@rules_options
@click.option("--json", "as_json", is_flag=True)
def melds(hand, trump, table, lang, rules, rule, as_json):
    """The legal melds (and their points) for a player holding HAND with --table on the table."""
    from analysis.bezique.melds import meld_report, melds_text

    res = meld_report(hand, trump, table, bezique_rules(rules, rule), None if lang == "en" else lang)
    emit(res, as_json, melds_text(res))


@bezique.command("explain")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--deal", "deal_index", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--policy", default="heuristic", show_default=True, type=click.Choice(["heuristic", "random"]))
@click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one policy parameter.")
def bezique_explain(seed, deal_index, rules, rule, policy, param):
    """Narrate one deal step by step (reference implementation)."""
    from analysis.bezique.policies import get_policy
    from analysis.bezique.reference import explain as narrate

    pol = get_policy(policy, list(param))
    click.echo(narrate(seed, deal_index, bezique_rules(rules, rule), pol, pol))


@bezique.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--rules", default=None, help="Variant (default: the record's own).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE")
@click.option("--json", "as_json", is_flag=True)
def bezique_replay(file, rules, rule, as_json):
    """Re-score a JSON deal record (a list of records is replayed one by one)."""
    from analysis.bezique.records import replay as rescore

    results, out = replay_file(file, rules, rule, rescore, bezique_rules)
    text = "\n".join(f"elder {r['scores']['elder']['total']} points, dealer {r['scores']['dealer']['total']} points"
                     for r in results)
    emit(out, as_json, text)


# --------------------------------------------------------------------------- study
@cli.group()
def study():
    """Named studies that produce strategy tables and figures."""


@study.group("ecarte")
def study_ecarte():
    """Écarté studies."""


@study_ecarte.command("propose-table")
@click.option("--deals-per-class", default=20_000, show_default=True, callback=positive)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False))
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
def propose_table_cmd(deals_per_class, seed, rules, rule, policy, param, out, threads, as_json):
    """Elder's propose/play table by hand class (trumps × trump king × plain kings), with a figure."""
    import os

    from analysis.ecarte.studies import propose_table, propose_table_figure

    r = ecarte_rules(rules, rule)
    df = propose_table(deals_per_class, seed, r, ecarte_policy(policy, param), threads=threads)
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
    emit({"rows": df.to_dict(orient="records"), "files": [stem + ".csv"] + figs, **df.attrs}, as_json, text)


@study_ecarte.command("strategy")
@click.option("--deals-per-hand", default=2_000, show_default=True, callback=positive,
              help="Deals per hand class and evaluation (38,304 classes).")
@click.option("--rounds", "max_rounds", default=4, show_default=True, callback=positive,
              help="Best-response rounds at most (elder, then dealer, per round).")
@click.option("--discard-deals", default=100, show_default=True, callback=non_negative,
              help="Deals per hand class and discard option when choosing the discards (0: heuristic discards).")
@click.option("--search-check", default=0, show_default=True, callback=non_negative, metavar="N",
              help="Check elder's table against search play on N hand classes drawn by weight (1,000 deals, S=10).")
@click.option("--quick", is_flag=True, help="20 deals per hand class, 2 rounds, 4 per discard option: about a minute.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one heuristic policy parameter.")
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False))
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def strategy_cmd(deals_per_hand, max_rounds, discard_deals, search_check, quick, seed, rules, rule, param, out, threads,
                 as_json, quiet):
    """Elder's propose/play and the dealer's accept/refuse decision for every hand (up to suit
    symmetry), iterated to best responses, and the decisions by game score; tables and figures."""
    from analysis.ecarte import strategy

    if search_check == 1:  # checked before hours of tables are computed, not after
        raise click.BadParameter("must be 0 (no check) or at least 2 hand classes", param_hint="--search-check")
    if quick:
        deals_per_hand, max_rounds, discard_deals = 20, 2, 4
    r = ecarte_rules(rules, rule)
    res = strategy.compute(deals_per_hand, seed, r, ecarte_policy("heuristic", param), max_rounds=max_rounds,
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
        from analysis.ecarte.search import search_check as run_check

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
    emit({"spec": res.spec, "rounds": res.rounds, "exploitability": ex, "summary": summary, "search_check": check,
          "files": files}, as_json, "\n".join(lines))


@study.group("piquet")
def study_piquet():
    """Piquet studies."""


@study_piquet.command("overview")
@click.option("--deals", default=2_000_000, show_default=True, callback=positive, help="Deals per variant.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@policy_options
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False))
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def piquet_overview_cmd(deals, seed, policy, param, out, threads, as_json, quiet):
    """Per-deal score distribution, frequencies and elder's edge, the variants side by side."""
    import os

    from analysis.piquet.studies import overview, overview_figures

    table, dist = overview(deals, seed, policy=piquet_policy(policy, param), threads=threads, quiet=quiet)
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, "piquet_overview")
    table.to_csv(stem + ".csv", index=False)
    dist.to_csv(stem + "_scores.csv", index=False)
    figs = overview_figures(table, dist, stem)
    variants = table.attrs["variants"]
    text = (f"{table.attrs['caption']} {deals:,} deals per variant, seed {seed}.\n"
            + table[["statistic", *variants]].to_string(index=False, float_format=lambda x: f"{x:.4f}")
            + f"\nwrote {stem}.csv, {stem}_scores.csv, " + ", ".join(figs))
    emit({"rows": table.to_dict(orient="records"), "scores": dist.to_dict(orient="records"),
          "files": [stem + ".csv", stem + "_scores.csv"] + figs, **table.attrs}, as_json, text)


@study_piquet.command("discards")
@click.option("--hands", default=None, type=int, callback=positive, help="Random dealt hands [400; 40 with --quick].")
@click.option("--seat", type=click.Choice(["elder", "younger"]), default="elder", show_default=True)
@click.option("--samples", default=None, type=int, callback=positive,
              help="Most sampled deals per hand (racing) [4,000; 2,000 with --quick].")
@click.option("--quick", is_flag=True, help="A small study: minutes, not an hour.")
@click.option("--elder-took", default=5, show_default=True, type=int, help="Younger: cards elder exchanged.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False))
@click.option("--threads", type=int, default=None, callback=positive)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def piquet_discards_cmd(hands, seat, samples, quick, elder_took, seed, rules, rule, out, threads, as_json, quiet):
    """The best exchange of many random hands: cards taken, what it keeps, what rules of thumb cost."""
    import os

    from analysis.piquet.discard_study import study_figures, study_hands, summary
    from analysis.runner import show_progress

    hands = hands or (40 if quick else 400)
    samples = samples or (2_000 if quick else 4_000)
    r = piquet_rules(rules, rule)
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
    emit({**df.attrs, "summary": s, "files": [stem + ".csv"] + figs}, as_json, "\n".join(lines))


# --------------------------------------------------------------------------- bench, tips, report
@cli.command()
@click.argument("game", required=False, type=click.Choice(GAMES))
@click.option("--deals", default=None, type=int, callback=positive,
              help="Kernel deals per run [Écarté 4,000,000; Piquet 2,000,000].")
@click.option("--reference-deals", default=None, type=int, callback=positive,
              help="Reference deals per run [Écarté 3,000; Piquet 1,000].")
@click.option("--repeats", default=5, show_default=True, callback=positive, help="Runs; the median is quoted.")
@click.option("--json", "as_json", is_flag=True)
def bench(game, deals, reference_deals, repeats, as_json):
    """Deals per second of the kernel (1 and 2 threads) and of the reference, in the same run."""
    game = game or "ecarte"
    from analysis.bench import bench_ecarte, bench_piquet

    if game == "ecarte":
        from analysis.bench import bench_solver

        res = bench_ecarte(deals or 4_000_000, reference_deals or 3_000, repeats)
        res["solver"] = bench_solver(repeats=repeats)
    elif game == "bezique":
        from analysis.bench import bench_bezique

        res = bench_bezique(deals or 200_000, reference_deals or 100, repeats)
    else:
        from analysis.bench import bench_discard_table

        res = bench_piquet(deals or 2_000_000, reference_deals or 1_000, repeats)
        res["discard_table"] = bench_discard_table(repeats=min(repeats, 3))
    text = "\n".join(
        f"{r['game']}: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
        f"{r['reference_deals_per_s']:,.0f} deals/s · speedup per thread {r['speedup_vs_reference']:,.0f}×"
        for r in res["results"])
    if "solver" in res:
        text += (f"\necarte double-dummy solver: {res['solver']['solves_per_s']:,.0f} solves/s (random 5-card "
                 "positions, 1 thread)")
    if "discard_table" in res:
        d = res["discard_table"]
        text += (f"\npiquet discard analyser: full elder table {d['options']:,} exchanges × {d['samples']:,} deals in "
                 f"{d['full_table_s']:.1f} s ({d['option_deals_per_s']:,.0f} option-deals/s, 2 threads); raced to a "
                 f"decision in {d['raced_s']:.1f} s ({d['raced_deals']:,} deals)")
    emit(res, as_json, text)


@cli.command()
@click.option("--game", type=click.Choice(GAMES), default=None, help="Only this game's tips.")
@click.option("--budget", type=click.Choice(["quick", "full"]), default="quick", show_default=True)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--json", "as_json", is_flag=True)
def tips(game, budget, seed, as_json):
    """The rulebooks' tips (TIPS.md) with verdicts from simulation, or 'not yet studied'."""
    from analysis.tips import evaluate_tips, tips_text

    res = evaluate_tips(game, budget, seed)
    emit(res, as_json, tips_text(res))


@cli.command()
@click.option("--quick", is_flag=True, help="Small budgets: a few minutes.")
@click.option("--out", default="reports", show_default=True, type=click.Path(file_okay=False))
@click.option("--seed", default=0, show_default=True, callback=non_negative)
def report(quick, out, seed):
    """Write the strategy report (index.html, README.md and figures) into OUT."""
    from analysis.report.build import build_report

    paths = build_report(out, quick=quick, seed=seed)
    click.echo(f"report written: {paths['html']} and {paths['markdown']}")


# --------------------------------------------------------------------------- results
@cli.group()
def results():
    """The result store: finished chunks of every run and finished items of item studies (the Piquet
    discard study's hands), reused by repeated and resumed runs."""


def _ranges(items) -> str:
    """Item numbers as ranges: 0-11, 15, 20-23."""
    out: list[list[int]] = []
    for i in sorted(int(x) for x in items):
        if out and i == out[-1][1] + 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out)


@results.command("list")
@click.option("--json", "as_json", is_flag=True)
def results_list(as_json):
    """Every stored run: key, kind, kernel block or study, seed, chunks and deals or items stored."""
    from analysis import store

    base = store.root()
    rows = store.runs()
    lines = [f"result store: {base if base else 'off (SALON_RESULTS=off)'}"]
    lines += [f"{r['key']}  {r['study']}  seed {r['seed']}  {r['items']:,} items" if r["kind"] == "items" else
              f"{r['key']}  {r['block']}  seed {r['seed']}  {r['deals']:,} deals in {r['chunks']} chunks"
              for r in rows]
    emit({"store": str(base) if base else None, "runs": rows}, as_json, "\n".join(lines))


@results.command("show")
@click.argument("key")
@click.option("--json", "as_json", is_flag=True)
def results_show(key, as_json):
    """A stored run's spec and the deals its chunks cover, or the items it holds."""
    import numpy as np

    from analysis import store

    spec = store.spec_of(key)
    df = store.run_table(key)
    if store.kind_of(spec) == "items":
        items = [{"item": int(i), "row": json.loads(r)} for i, r in zip(df["item"], df["row"], strict=True)]
        res = {"key": key, "kind": "items", "spec": spec, "count": len(items), "items": items}
        lines = [f"{key}: {spec['study']}, seed {spec.get('seed')}, salon {spec['version']}",
                 f"{len(items):,} items: {_ranges(df['item']) or 'none'}"]
        for it in items:
            fields = ", ".join(f"{k} {v}" for k, v in list(it["row"].items())[:6])
            lines.append(f"  {it['item']:>6}  {fields}")
        emit(res, as_json, "\n".join(lines))
        return
    res = {"key": key, "kind": "chunks", "spec": spec, "chunks": int(len(df)), "deals": int(df["count"].sum()),
           "tallies": np.sum(np.stack(df["tallies"].map(np.asarray)), axis=0).tolist() if len(df) else []}
    text = (f"{key}: {spec['block']}, seed {spec['seed']}, chunk {spec['chunk']}, salon {spec['version']}\n"
            f"{res['deals']:,} deals in {res['chunks']} chunks")
    emit(res, as_json, text)


@results.command("export")
@click.argument("key")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet", "json"]), default="csv", show_default=True)
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False))
def results_export(key, fmt, out):
    """Write a stored run to OUT: one row per chunk, or per item with its row's fields as columns
    (with provenance)."""
    from analysis import store

    items = store.kind_of(store.spec_of(key)) == "items"
    df = store.item_rows(key) if items else store.run_table(key)
    if fmt == "parquet":
        df.to_parquet(out, index=False)
    elif fmt == "json":
        df.to_json(out, orient="records")
    elif items:
        df.to_csv(out, index=False)
    else:
        df.assign(tallies=df["tallies"].map(lambda t: " ".join(str(int(x)) for x in t))).to_csv(out, index=False)
    click.echo(f"{len(df)} {'items' if items else 'chunks'} written to {out}")


@results.command("prune")
def results_prune():
    """Remove files left by killed runs and unreadable chunk and item files."""
    from analysis import store

    removed = store.prune()
    click.echo(f"removed {len(removed)} file(s)" + "".join(f"\n  {p}" for p in removed))


def main(argv=None) -> None:
    """Entry point: run the CLI; bad input becomes one line on stderr and exit code 2."""
    from analysis.errors import InputError

    try:
        cli.main(args=argv, prog_name="salon", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        msg = e.format_message().replace("\n", " ")
        click.echo(f"error: {msg}", err=True)
        sys.exit(2 if isinstance(e, (click.UsageError, UserError)) else e.exit_code)
    except InputError as e:
        click.echo(f"error: {str(e).splitlines()[0] if str(e) else 'bad input'}", err=True)
        sys.exit(2)
    except OSError as e:
        click.echo(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": "), err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()

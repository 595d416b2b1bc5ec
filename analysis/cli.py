"""The ``salon`` command line (click): argument parsing only.

The commands every game has (``simulate``, ``compare``, ``explain``, ``replay``, ``bench``, ``tips``)
are built once from the game registry (analysis.games); each game adds its own commands
(``analysis/<game>/commands.py``). Heavy modules are imported inside commands, so ``salon --help``
and ``salon --version`` answer without compiling anything."""
from __future__ import annotations

import json
import os
import sys

import click

from analysis import __version__, interrupts
from analysis.variants import RENAMED_POLICIES, current_name

if interrupts.run_as_program():  # Ctrl-C from the start: the imports below take a moment (see main)
    interrupts.install()

from analysis.clikit import (  # noqa: E402
    UserError,
    check_output,
    deal_count,
    emit,
    fail,
    json_default,
    non_negative,
    output_file,
    positive,
    replay_file,
    rules_options,
    thread_count,
)
from analysis.games import GAMES  # noqa: E402
from analysis.results_commands import results  # noqa: E402

ALL_POLICIES = sorted({p for g in GAMES.values() for p in g.policies} | set(RENAMED_POLICIES))  # old names: a notice


def _variants_help() -> str:
    """The games' rule variants, for ``salon --help``."""
    lines = []
    for g in GAMES.values():
        names = ", ".join(g.variants.load())
        lines.append(f"  {g.title}: {names} (default seed-de)")
    return "\n".join(lines)


def _policy(game, name: str, params) -> object:
    """The game's policy ``name`` with --param overrides; a policy the game has not is bad input."""
    if RENAMED_POLICIES.get(name) in game.policies:
        name = current_name(name)
    if name not in game.policies:
        fail(f"{game.title} has no policy {name!r}; valid: {', '.join(game.policies)}")
    return game.policy(name, params)


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="\b\nRule variants (--rules NAME, each switch overridable with --rule KEY=VALUE):\n"
                    + _variants_help()
                    + "\n\n\b\nExamples:\n  salon simulate ecarte --deals 1000000 --seed 1\n"
                      "  salon compare piquet --a heuristic --b random --deals 100000")
@click.version_option(__version__, prog_name="salon")
@click.option("--results", metavar="DIR", default=None,
              help="Result store directory [$SALON_RESULTS or ~/.cache/salon; 'off' for none].")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the batches on this Dask scheduler (tcp://HOST:PORT).")
@click.option("--workers", type=int, default=None, callback=positive,
              help="Start a local Dask cluster of N worker processes.")
@click.pass_context
def cli(ctx, results, scheduler, workers):
    """salon: Monte Carlo strategy analyser for Piquet, Écarté and Bezique."""
    if results is not None:
        os.environ["SALON_RESULTS"] = results
    if scheduler is not None and workers is not None:
        fail("--scheduler and --workers exclude each other: use a scheduler's workers or start a local cluster")
    if scheduler is not None or workers is not None:
        from analysis.dask_backend import DaskBackend, check_address, require_distributed

        if scheduler is not None:  # checked before the cluster is reached or started, without a traceback
            check_address(scheduler)
        require_distributed("--scheduler" if scheduler is not None else "--workers")
        from analysis.runner import use_backend

        backend = DaskBackend(scheduler, workers)
        use_backend(backend)

        def close():
            use_backend(None)
            backend.close()

        ctx.call_on_close(close)


# --------------------------------------------------------------------------- every game's commands
@cli.command(epilog="""Examples:\n
\b
  salon simulate ecarte --deals 10000000 --seed 1 --rules classic
  salon simulate piquet --deals 100000 --partie --json
  salon simulate bezique --deals 1000 --records deals.json""")
@click.argument("game", type=click.Choice(list(GAMES)), metavar="GAME", is_eager=True)  # --deals reads it
@click.option("--deals", default=1_000_000, show_default=True, callback=deal_count, help="Hands (or games) to play.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--policy", default="heuristic", show_default=True, type=click.Choice(ALL_POLICIES),
              help="Policy of both players.")
@click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one policy parameter.")
@click.option("--threads", type=int, default=None, callback=thread_count, help="Threads (default: all cores).")
@click.option("--game", "games", is_flag=True, help="Écarté, Bezique: play whole games to the target.")
@click.option("--partie", "parties", is_flag=True, help="Piquet: play whole parties of six deals.")
@click.option("--records", type=click.Path(dir_okay=False, allow_dash=True), callback=output_file,
              help="Also write the first deals as JSON records here ('-': standard output, the statistics then go to "
                   "standard error).")
@click.option("--record-count", default=10, show_default=True, callback=positive, help="How many records.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(game, deals, seed, rules, rule, policy, param, as_json, **options):
    """Play GAME many times and print summary statistics with 95% intervals."""
    from analysis.stats import result_text

    g = GAMES[game]
    records = options["records"]
    wanted = [flag for flag, on in (("--game", options["games"]), ("--partie", options["parties"])) if on]
    mode = g.modes[0]
    for flag in wanted:
        found = [m for m in g.modes if m.flag == flag]
        if not found:
            owners = ", ".join(o.name for o in GAMES.values() if any(m.flag == flag for m in o.modes))
            alt = "".join(f"; {g.title} plays {m.name} with {m.flag}" for m in g.modes if m.flag)
            fail(f"{flag} is for {owners}{alt}")
        mode = found[0]
    r = g.rules(rules, rule)
    pol = _policy(g, policy, param)
    res = mode.run(deals, seed, r, pol, pol, threads=options["threads"], quiet=options["quiet"]).to_dict()
    res.pop("tallies", None)
    if records:
        recs = [g.record(seed, i, r, pol) for i in range(min(options["record_count"], deals))]
        g.save_records(recs, records)
        res["records"] = {"path": records, "count": len(recs)}
    if records == "-":  # standard output holds the records file: the statistics go to standard error
        click.echo(json.dumps(res, ensure_ascii=False, default=json_default) if as_json else result_text(res), err=True)
        return
    emit(res, as_json, result_text(res))


@cli.command(epilog="""Examples:\n
\b
  salon compare ecarte --a heuristic --b random --deals 200000
  salon compare piquet --a heuristic --b heuristic --param b.ace_bonus=0 --json""")
@click.argument("game", type=click.Choice(list(GAMES)), metavar="GAME", is_eager=True)  # --deals reads it
@click.option("--a", "a_name", required=True, metavar="POLICY", help="Policy A.")
@click.option("--b", "b_name", required=True, metavar="POLICY", help="Policy B.")
@click.option("--deals", default=100_000, show_default=True, callback=deal_count,
              help="Deals, each played in both seats.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--param", multiple=True, metavar="a.KEY=V | b.KEY=V", help="Override one parameter of A or B.")
@click.option("--threads", type=int, default=None, callback=thread_count, help="Threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--verbose", is_flag=True, help="Also each player's parameters and the method in detail.")
def compare(game, a_name, b_name, deals, seed, rules, rule, param, threads, as_json, quiet, verbose):
    """Policies A and B on the same deals, both seats: A minus B per deal and seat, paired 95% interval."""
    from analysis.compare import compare_result, compare_text

    g = GAMES[game]
    params = {"a": [], "b": []}
    for p in param:
        side, dot, rest = p.partition(".")
        if side not in params or not dot or not rest:
            fail(f"--param {p!r}: write a.KEY=VALUE or b.KEY=VALUE")
        params[side].append(rest)
    r = g.rules(rules, rule)
    a, b = _policy(g, a_name, params["a"]), _policy(g, b_name, params["b"])
    tallies = g.compare(deals, seed, r, a, b, threads=threads, quiet=quiet)
    res = compare_result(g, r, a_name, b_name, a, b, deals, seed, tallies)
    emit(res, as_json, compare_text(res, verbose))


def _explain_command(g):
    """``salon GAME explain``: one deal narrated by the reference."""
    @click.command("explain", epilog=f"Example:\n\n\b\n  salon {g.name} explain --seed 1 --deal 0")
    @click.option("--seed", default=0, show_default=True, callback=non_negative)
    @click.option("--deal", "deal_index", default=0, show_default=True, callback=non_negative)
    @rules_options
    @click.option("--policy", default="heuristic", show_default=True, type=click.Choice(list(g.policies)),
                  help="Policy of both players.")
    @click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one policy parameter.")
    def explain(seed, deal_index, rules, rule, policy, param):
        click.echo(g.explain(seed, deal_index, g.rules(rules, rule), g.policy(policy, param)))

    explain.help = f"Narrate one {g.unit} step by step (reference implementation)."
    return explain


def _replay_command(g):
    """``salon GAME replay``: records re-scored by the reference."""
    @click.command("replay", epilog=f"Examples:\n\n\b\n  salon {g.name} replay deals.json\n"
                                    f"  salon simulate {g.name} --deals 5 --records - --quiet | salon {g.name} replay -")
    @click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
    @click.option("--rules", default=None, help="Variant (default: the record's own).")
    @click.option("--rule", multiple=True, metavar="KEY=VALUE")
    @click.option("--json", "as_json", is_flag=True)
    def replay(file, rules, rule, as_json):
        results, out = replay_file(file, rules, rule, g.replay, g.rules)
        emit(out, as_json, "\n".join(g.replay_text(r) for r in results))

    replay.help = f"Re-score a JSON {g.unit} record, or a list of them ('-': standard input)."
    return replay


@cli.group(epilog="Examples:\n\n\b\n  salon study ecarte strategy --quick\n  salon study piquet discards --quick")
def study():
    """Named studies that produce strategy tables and figures."""


for _g in GAMES.values():
    _group = _g.commands.load()
    _group.add_command(_explain_command(_g))
    _group.add_command(_replay_command(_g))
    cli.add_command(_group, _g.name)
    if _g.studies is not None:
        study.add_command(_g.studies.load(), _g.name)


# --------------------------------------------------------------------------- bench, tips, report, results
@cli.command(epilog="Examples:\n\n\b\n  salon bench\n  salon bench piquet --full --repeats 3 --json")
@click.argument("game", required=False, type=click.Choice(list(GAMES)), metavar="[GAME]")
@click.option("--full", is_flag=True, help="Also the players' and solvers' figures (search, double dummy, "
              "the end game, the equilibrium's engines): several minutes.")
@click.option("--deals", default=None, type=int, callback=deal_count,
              help="Kernel deals per run [Écarté 1,000,000; Piquet 500,000; Bezique 100,000].")
@click.option("--reference-deals", default=None, type=int, callback=positive,
              help="Reference deals per run [Écarté 1,000; Piquet 300; Bezique 50].")
@click.option("--repeats", default=3, show_default=True, callback=positive, help="Runs; the median is quoted.")
@click.option("--json", "as_json", is_flag=True)
def bench(game, full, deals, reference_deals, repeats, as_json):
    """Deals per second of the kernel (1 and 2 threads) and of the reference, in the same run, with the
    result store off: about a minute a game."""
    from analysis.bench import bench_text, run

    g = GAMES[game or "ecarte"]
    res = run(g, deals, reference_deals, repeats, full)
    emit(res, as_json, bench_text(g, res))


@cli.command("rule", epilog="""Examples:\n
\b
  salon rule ecarte elder "play if trumps + plain_kings >= 3; otherwise propose"
  salon rule ecarte dealer "refuse if trumps >= 3 or guarded_suits >= 3; otherwise accept" --rules classic --json
  salon rule ecarte discard "keep trumps, kings"
  salon rule piquet elder-exchange "keep point, sequences, sets, aces; take all" --deals 100
  salon rule bezique single-bezique "hold if stock >= 10; otherwise lay" --deals 300
  salon rule bezique lead "otherwise low" --deals 100""")
@click.argument("game", type=click.Choice(list(GAMES)), metavar="GAME")
@click.argument("decision")
@click.argument("text", metavar="RULE")
@rules_options
@click.option("--deals", type=int, default=None,
              help="Écarté: deals per information set for the exploitability [32], dealt hands for a discard rule "
                   "[1,000,000]; Piquet: the dealt hands the "
                   "exchange rule is costed on [60]; Bezique: deals in both seats [single-bezique, lead, meld 300; win 100,000].")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the deals the rule is costed on.")
@click.option("--player", default=None,
              help="Piquet: who plays the tricks, heuristic (default), search (the strong searching player: 30 hands "
                   "by default, a few minutes) or dd (open hands, a bound on good play).")
@click.option("--json", "as_json", is_flag=True)
def rule_cmd(game, decision, text, rules, rule, deals, seed, player, as_json):
    """What a playing RULE for one DECISION gives up against the best play salon knows: Écarté's
    and Bezique's lines 'ACTION if CONDITION', then 'otherwise ACTION'; Écarté's discard 'keep CLASS,
    ...'; Piquet's 'keep CLASS, ...; take N|all' (docs/playing-rules.md names each decision's features
    and classes)."""
    g = GAMES[game]
    if g.playing_rules is None:
        fail(f"{g.title}'s playing rules are not built yet; Écarté's, Piquet's and Bezique's are: "
             "salon rule ecarte elder|dealer|discard RULE, salon rule piquet elder-exchange|younger-exchange RULE, "
             "salon rule bezique single-bezique|win|lead|meld RULE")
    res, words = g.playing_rules(decision, text, g.rules(rules, rule), deals, seed, player)
    emit(res, as_json, words)


@cli.command("rules", epilog="""Examples:\n
\b
  salon rules ecarte
  salon rules ecarte --decision dealer --rules classic --json
  salon rules piquet --decision younger-exchange
  salon rules bezique --rules classic""")
@click.argument("game", type=click.Choice(list(GAMES)), metavar="GAME")
@click.option("--decision", default=None,
              help="Only this decision's ladder (Écarté: elder, dealer, discard; Piquet: elder-exchange, younger-exchange; "
                   "Bezique: single-bezique, win, lead, meld).")
@rules_options
@click.option("--refit", is_flag=True,
              help="Search the ladder again (Écarté: from the shipped tables, about a minute a decision, the discard "
                   "on new deals, about four minutes; Piquet: "
                   "racing 400 hands, several minutes a seat; Bezique: playing every rule again, minutes, about half "
                   "an hour for seed-de's single bezique).")
@click.option("--json", "as_json", is_flag=True)
def rules_cmd(game, decision, rules, rule, refit, as_json):
    """The ladder of playing rules: for each decision, the best rule of each length (1 to 8 lines)
    with what it gives up against perfect play, and the books' rules on the same scale."""
    g = GAMES[game]
    if g.rule_ladders is None:
        fail(f"{g.title}'s rule ladders are not built yet; these games' are: salon rules ecarte|piquet|bezique")
    res, words = g.rule_ladders(decision, g.rules(rules, rule), refit)
    emit(res, as_json, words)


@cli.command(epilog="Examples:\n\n\b\n  salon tips --game bezique\n  salon tips --budget full --json")
@click.option("--game", type=click.Choice(list(GAMES)), default=None, help="Only this game's tips.")
@click.option("--budget", type=click.Choice(["quick", "full"]), default="quick", show_default=True)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--verbose", is_flag=True, help="Also each verdict's players and the study's provenance in detail.")
def tips(game, budget, seed, as_json, quiet, verbose):
    """The rulebooks' tips (docs/tips.md): what each verdict means for a player, then the verdict with its
    number, or 'not yet studied'."""
    from analysis.runner import show_progress
    from analysis.tips import evaluate_tips, tips_text

    res = evaluate_tips(game, budget, seed, progress=show_progress(quiet))
    emit(res, as_json, tips_text(res, verbose))


@cli.command(epilog="Examples:\n\n\b\n  salon report --quick --out reports/quick\n  salon report\n"
                     "  salon report --from-saved --out reports")
@click.option("--quick", is_flag=True, help="Small budgets, no search player: a few minutes.")
@click.option("--jobs", type=int, default=None, callback=positive,
              help="Games computed at once, each in a process of its own [--quick: one per game when there are "
                   "two cores or more; else 1]. The numbers are the same for any value.")
@click.option("--out", default="reports", show_default=True, type=click.Path(file_okay=False))
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--from-saved", is_flag=True, help="Render again from the numbers a run saved in OUT "
              "(report_context.json), running no study.")
@click.option("--refresh", "refresh", multiple=True, metavar="GAME.PART",
              help="With --from-saved: compute this part again with the current code first "
              "(piquet.strong_discards, piquet.players, ecarte.equilibrium, or tips.ID for one tip's verdicts).")
def report(quick, jobs, out, seed, quiet, from_saved, refresh):
    """Write the strategy guide (index.html, README.md and figures) into OUT."""
    if refresh and not from_saved:
        fail("--refresh needs --from-saved: it computes one part of a saved report again")
    why = None if from_saved else check_output(out, directory=True)  # before any study runs
    if why:
        fail(f"--out {out}: {why}")
    from analysis.report.build import CONTEXT_FILE, build_report, load_context, refresh_part, write_report
    from analysis.runner import show_progress

    if from_saved:
        context = load_context(out)  # an input error in one line when the file is not one salon wrote
        why = check_output(out, directory=True)  # a saved report's folder may still be read-only
        if why:
            fail(f"--out {out}: {why}")
        for name in refresh:
            context = refresh_part(context, out, name)
        try:
            paths = write_report(context, out)
        except (KeyError, TypeError, IndexError, AttributeError) as e:  # the file's inside is not salon's
            fail(f"cannot render again from {os.path.join(out, CONTEXT_FILE)}: not a report context salon wrote "
                 f"({type(e).__name__}: {e})")
    else:
        if jobs is None:
            jobs = len(GAMES) if quick and (os.cpu_count() or 1) > 1 else 1
        paths = build_report(out, quick=quick, seed=seed, progress=show_progress(quiet), jobs=jobs)
    click.echo(f"report written: {paths['html']} and {paths['markdown']}")


@cli.command(epilog="""Examples:\n
\b
  salon simulate ecarte --deals 5 --records hands.json --quiet
  salon review hands.json
  salon review deals.json --game piquet --player dd --json
  salon review deal.txt --html review.html
  salon review partie.txt              # a whole partie or game: the score at each deal""")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", type=click.Choice(list(GAMES)), default=None, help="The records' game [read from them].")
@click.option("--player", type=click.Choice(["search", "dd"]), default="search", show_default=True,
              help="The reviewer: search samples the hidden cards from what the player knew; dd sees every card "
                   "(a bound, not a legal player).")
@click.option("--samples", type=int, default=None, callback=positive,
              help="Hidden deals a decision's best is chosen on, as many again measure its loss [Écarté 200, "
                   "Piquet 96, Bezique 200].")
@click.option("--seed", default=0, show_default=True, callback=non_negative, help="The seed of the sampled deals.")
@click.option("--rules", default=None, help="Variant (default: the record's own).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE")
@click.option("--threads", type=int, default=None, callback=thread_count, help="Threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--html", type=click.Path(dir_okay=False), callback=output_file, default=None,
              help="Also write the review as an annotated page here.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--verbose", is_flag=True, help="Also the reviewer and how the losses are measured.")
def review(file, game, player, samples, seed, rules, rule, threads, as_json, html, quiet, verbose):
    """Review every decision of the recorded deals in FILE (JSON records, or the text notation of
    docs/records.md; '-': standard input), for both players: what was chosen, the reviewer's best
    choice and the expected points it lost, then each player's summary. A whole partie or game is
    reviewed with the score at each deal, the decisions played for the score also rated in its own
    currency (Piquet's margin, Écarté's chance of winning the game), each player summed over both seats."""
    from analysis.review import ReviewQuestion, review_file

    res, words = review_file(ReviewQuestion(file, game, player, samples, seed, rules, rule, threads, quiet),
                             verbose=verbose)
    if html:
        from analysis.review_page import write_page

        write_page(res, html)
        res["html"] = html
    emit(res, as_json, words)


@cli.group("record", epilog="Examples:\n\n\b\n  salon record convert deal.txt --out deal.json\n"
                            "  salon simulate piquet --deals 1 --records - --quiet | salon record convert -")
def record_group():
    """Deal records: the JSON that simulate writes and replay reads, and the text notation a person
    types from a score sheet (docs/records.md)."""


@record_group.command("convert")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--to", "to", type=click.Choice(["json", "text"]), default=None,
              help="The format to write [the other one than FILE's].")
@click.option("--game", type=click.Choice(list(GAMES)), default=None, help="The records' game [read from them].")
@click.option("--out", default="-", show_default=True, type=click.Path(dir_okay=False, allow_dash=True),
              callback=output_file, help="Where to write ('-': standard output).")
def convert(file, to, game, out):
    """Convert the deals in FILE between JSON records and the text notation; every deal is checked
    by the replay first, and nothing is written when one is illegal."""
    from analysis.record_text import convert_file

    convert_file(file, to, game, out)


cli.add_command(results)


def main(argv=None) -> None:
    """Entry point: run the CLI; bad input becomes one line on stderr and exit code 2. Run as the
    program (no ``argv``), Ctrl-C stops it at once with one line on what was kept, exit code 130
    (analysis/interrupts.py); called with ``argv`` (tests), the caller's Ctrl-C is left alone."""
    from analysis.errors import InputError

    if argv is None:
        interrupts.install()
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

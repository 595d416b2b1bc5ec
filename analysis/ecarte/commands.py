"""``salon ecarte ...`` and ``salon study ecarte ...``: Écarté's own commands (argument parsing only;
the answers are in analysis.ecarte.answers). ``explain`` and ``replay`` are added to the group from
the game registry, like every game's."""
from __future__ import annotations

import click

from analysis.clikit import (
    emit,
    non_negative,
    output_dir,
    policy_options,
    positive,
    rules_options,
    thread_count,
)


def _rules(rules, rule):
    from analysis.ecarte.rules import get_rules

    return get_rules(rules, list(rule))


def _policy(policy, param):
    from analysis.ecarte.policies import get_policy

    return get_policy(policy, list(param))


@click.group("ecarte", epilog="Examples:\n\n\b\n  salon ecarte propose \"KS QS 7H 8D 9C\" --turnup 10S\n  salon ecarte explain --seed 1 --deal 0")
def group():
    """Écarté: a hand's propose/play decision, one hand explained, a record replayed."""


@group.command(epilog="""Examples:\n
\b
  salon ecarte propose "♠K Q ♥7 ♦8 ♣9" --turnup 10S
  salon ecarte propose "KS QS 7H 8D 9C" --turnup 10S --score 3-4 --json""")
@click.argument("hand")
@click.option("--turnup", required=True, help="The turned-up card (fixes trumps).")
@click.option("--samples", default=20_000, show_default=True, callback=positive)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options()
@click.option("--score", default=None, metavar="A-B", help="Elder's and the dealer's game score (needs the tables).")
@click.option("--tables", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              help="Answer from the strategy tables in this directory (written by salon study ecarte strategy).")
@click.option("--simulate", is_flag=True, help="Simulate this hand even when tables are present.")
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
@click.option("--verbose", is_flag=True, help="Also name the players and the statistics behind the answer.")
def propose(rules, rule, policy, param, as_json, **question):
    """Should elder holding HAND (five cards) play without proposing, or propose, and what
    does he throw if the dealer accepts?

    The answer comes from the equilibrium tables shipped with salon for these rules and policy
    (with --score A-B: the decision that gives the better chance of winning the game at that
    score), from the tables in --tables when you name a directory (salon study ecarte strategy
    writes them with its best-response method), or else from simulating this hand and turn-up."""
    import os

    from analysis.clikit import fail
    from analysis.ecarte.answers import ProposeQuestion, propose_answer

    given = click.get_current_context().get_parameter_source("tables") == click.core.ParameterSource.COMMANDLINE
    q = ProposeQuestion(rules=_rules(rules, rule), policy=_policy(policy, param), tables_given=given, **question)
    if given and not q.simulate and not os.path.isdir(q.tables):
        fail(f"--tables {q.tables}: no such directory")
    obj, text = propose_answer(q)
    emit(obj, as_json, text)


@click.group("ecarte", epilog="Example:\n\n\b\n  salon study ecarte strategy --quick")
def study():
    """Écarté studies."""


@study.command("propose-table", epilog="Example:\n\n\b\n  salon study ecarte propose-table --deals-per-class 5000 --rules classic")
@click.option("--deals-per-class", default=20_000, show_default=True, callback=positive)
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@policy_options()
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              callback=output_dir)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
def propose_table_cmd(deals_per_class, seed, rules, rule, policy, param, out, threads, as_json):
    """Elder's propose/play table by hand class (trumps × trump king × plain kings), with a figure."""
    from analysis.ecarte.answers import propose_table_study

    obj, text = propose_table_study(deals_per_class, seed, _rules(rules, rule), _policy(policy, param), out, threads)
    emit(obj, as_json, text)


@study.command("strategy", epilog="""Examples:\n
\b
  salon study ecarte strategy --quick
  salon study ecarte strategy --rules classic --search-check 200""")
@click.option("--deals-per-hand", default=2_000, show_default=True, callback=positive,
              help="Deals per hand class and evaluation (38,304 classes).")
@click.option("--rounds", "max_rounds", default=4, show_default=True, callback=positive,
              help="Best-response rounds at most (elder, then dealer, per round).")
@click.option("--discard-deals", default=100, show_default=True, callback=non_negative,
              help="Deals per hand class and discard option when choosing the discards (0: heuristic discards).")
@click.option("--search-check", default=0, show_default=True, callback=non_negative, metavar="N",
              help="Check elder's table against search play on N hand classes drawn by weight (1,000 deals, S=10).")
@click.option("--method", type=click.Choice(["equilibrium", "best-response"]), default="equilibrium", show_default=True,
              help="equilibrium: every branch simulated once, CFR+, held-out exploitability (--budget); best-response: "
                   "the older iterated best responses (--deals-per-hand, --rounds, --discard-deals, --search-check).")
@click.option("--budget", type=click.Choice(["quick", "standard"]), default="standard", show_default=True,
              help="The equilibrium's deals: quick (4 to 16 per information set, a minute) or standard (256 to 8,192).")
@click.option("--search-sets", default=0, show_default=True, callback=non_negative, metavar="N",
              help="Equilibrium: play N information sets per side (drawn by weight, 200 deals each) with both "
                   "players searching the tricks (S=10) and measure what heuristic play inside costs.")
@click.option("--quick", is_flag=True, help="--budget quick (equilibrium); best-response: 20 deals per hand class, "
                                            "2 rounds, 4 per discard option.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one heuristic policy parameter.")
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              callback=output_dir)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def strategy_cmd(method, quick, rules, rule, param, as_json, **options):
    """Elder's propose/play and the dealer's accept/refuse decision for every hand (up to suit
    symmetry) and turn-up bucket: the equilibrium of the first proposal with its held-out
    exploitability (default), or iterated best responses with the decisions by game score."""
    from analysis.ecarte.answers import equilibrium_study, strategy_study

    o = options
    run = (o["out"], o["threads"], o["quiet"])
    if method == "equilibrium":
        ctx = click.get_current_context()
        for name, flag in (("search_check", "--search-check"), ("deals_per_hand", "--deals-per-hand"),
                           ("max_rounds", "--rounds"), ("discard_deals", "--discard-deals")):
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                raise click.BadParameter("applies to --method best-response only", param_hint=flag)
        if o["search_sets"] == 1:
            raise click.BadParameter("must be 0 (no check) or at least 2 information sets", param_hint="--search-sets")
        obj, text = equilibrium_study("quick" if quick else o["budget"], o["seed"], _rules(rules, rule),
                                      _policy("heuristic", param), *run, o["search_sets"])
        emit(obj, as_json, text)
        return

    if o["search_sets"]:
        raise click.BadParameter("applies to --method equilibrium only", param_hint="--search-sets")
    if o["search_check"] == 1:  # checked before hours of tables are computed, not after
        raise click.BadParameter("must be 0 (no check) or at least 2 hand classes", param_hint="--search-check")
    sizes = (20, 2, 4) if quick else (o["deals_per_hand"], o["max_rounds"], o["discard_deals"])
    obj, text = strategy_study(*sizes, o["search_check"], o["seed"], _rules(rules, rule), _policy("heuristic", param),
                               *run)
    emit(obj, as_json, text)


@study.command("classical", epilog="Example:\n\n\b\n  salon study ecarte classical --rules classic --json")
@rules_options
@click.option("--json", "as_json", is_flag=True)
def classical_cmd(rules, rule, as_json):
    """The Britannica's elder and dealer rules against the shipped equilibrium tables, hand by hand:
    agreement, what following each rule costs (held-out deals), and where they differ most."""
    from analysis.ecarte.studies import classical

    res = classical.compare(_rules(rules, rule))
    emit(res, as_json, classical.text(res))


@study.command("watching", epilog="Examples:\n\n\b\n  salon study ecarte watching --deals 4000\n"
                                  "  salon study ecarte watching --read all --rules classic --json")
@click.option("--deals", default=4_000, show_default=True, callback=positive)
@click.option("--read", type=click.Choice(["discards", "decisions", "all"]), default="discards", show_default=True,
              help="What the reading searcher reads: the opponent's discards (EC-T7), his proposals, answers and "
                   "kings, or all of it.")
@click.option("--samples", default=20, show_default=True, callback=positive, help="Search samples per decision.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def watching_cmd(deals, read, samples, seed, rules, rule, threads, as_json, quiet):
    """EC-T7: what a searching player gains by reading the opponent's exchanges (against the plain
    searcher, the same deals, each side against the heuristic), and the hand behind each discard count."""
    from analysis.ecarte.studies.watching import as_json as to_json
    from analysis.ecarte.studies.watching import text, watching

    res = watching(deals, seed, _rules(rules, rule), samples=samples, read=read, threads=threads, quiet=quiet)
    emit(to_json(res), as_json, text(res))

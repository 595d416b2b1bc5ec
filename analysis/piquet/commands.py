"""``salon piquet ...`` and ``salon study piquet ...``: Piquet's own commands (argument parsing
only; the answers are in analysis.piquet.answers). ``explain`` and ``replay`` are added to the group
from the game registry, like every game's."""
from __future__ import annotations

import click

from analysis.clikit import (
    emit,
    fail,
    non_negative,
    output_dir,
    output_file,
    policy_options,
    positive,
    rules_options,
    thread_count,
)
from analysis.piquet.answers import BUDGETS as _BUDGETS
from analysis.piquet.answers import DEFAULT_BUDGET as _DEFAULT_BUDGET


def _rules(rules, rule):
    from analysis.piquet.rules import get_rules

    return get_rules(rules, list(rule))


def _policy(policy, param):
    from analysis.piquet.policies import get_policy

    return get_policy(policy, list(param))


@click.group("piquet", epilog="Examples:\n\n\b\n  salon piquet discard \"♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8\"\n  salon piquet explain --seed 1 --deal 0")
def group():
    """Piquet: declarations scored, which cards to throw, a deal explained, a record replayed."""


@group.command(epilog="""Examples:\n
\b
  salon piquet declare "♠A K Q J 10 ♥A 9 ♦A 8 ♣A 8 7"
  salon piquet declare "♠A K Q J 10 ♥A 9 ♦A 8 ♣A 8 7" --vs "♠9 8 7 ♥K Q J 10 ♦K Q J ♣K Q" --json""")
@click.argument("hand")
@click.option("--vs", "younger", default=None, help="Younger's twelve cards: score the declarations.")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
              help="de: also read B (Bube) and D (Dame) as ranks.")
@rules_options
@click.option("--json", "as_json", is_flag=True)
def declare(hand, younger, lang, rules, rule, as_json):
    """Elder's combinations in HAND (twelve cards); with --vs, the declarations as scored."""
    from analysis.piquet.notation import notation_of
    from analysis.piquet.studies.declare import declaration_report, declare_text

    res = declaration_report(hand, younger, _rules(rules, rule), lang)
    emit(res, as_json, declare_text(res, notation_of(f"{hand} {younger or ''}", None if lang == "en" else lang)))


@group.command(epilog="""Examples:\n
\b
  salon piquet discard "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8" --mine "7S 8H 7D 9D 8C"
  salon piquet discard "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8" --budget thorough --verbose
  salon piquet discard "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8" --seat younger --elder-took 3 --top 5 --play dd""")
@click.argument("hand")
@click.option("--seat", type=click.Choice(["elder", "younger"]), default="elder", show_default=True)
@rules_options
@click.option("--budget", type=click.Choice(list(_BUDGETS)), default=_DEFAULT_BUDGET, show_default=True,
              help="How much play the answer buys (times on a quiet 2-core machine, kernels compiled): "
                   + "; ".join(b.words() for b in _BUDGETS.values()) + ".")
@click.option("--samples", default=None, type=int, callback=positive,
              help="Most deals of the heuristic race [the budget's: "
                   + ", ".join(f"{b.name} {b.samples:,}" for b in _BUDGETS.values()) + "].")
@click.option("--target-halfwidth", type=float, default=None, help="Stop when every survivor's 95% half-width is this.")
@click.option("--top", default=10, show_default=True, callback=positive, help="Options to list.")
@click.option("--all", "show_all", is_flag=True, help="List every option.")
@click.option("--mine", default=None, help="Grade this discard: its rank and what it gives up.")
@click.option("--elder-took", default=5, show_default=True, type=int, help="Younger: cards elder exchanged.")
@click.option("--no-race", is_flag=True, help="Play every option on every deal (no early dropping).")
@click.option("--plot", default=None, type=click.Path(dir_okay=False), callback=output_file, help="Figure of the top options.")
@click.option("--play", type=click.Choice(["auto", "heuristic", "dd", "search"]), default="auto", show_default=True,
              help="Trick play the leading exchanges are valued with; auto: the budget's (dd: open hands; "
                   "thorough adds search).")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--verbose", is_flag=True, help="Also how the numbers were made: the players' parameters, the race's "
                                              "rounds, the seeds, the times.")
def discard(rules, rule, no_race, as_json, **question):
    """Which cards should HAND (twelve cards) throw, and what is it worth? The first lines answer in
    the hand's own notation; the detail under them: every legal exchange on the same deals (heuristic
    play), then the leaders under strong play, chosen on some deals and reported on others."""
    from analysis.piquet.answers import DiscardQuestion, discard_answer

    q = DiscardQuestion(rules=_rules(rules, rule), race=not no_race, **question)
    if q.seat == "elder" and q.elder_took != 5:
        fail("--elder-took is for --seat younger")
    obj, text = discard_answer(q)
    emit(obj, as_json, text)


@group.command(epilog="""Examples:\n
\b
  salon piquet solve --elder "AS KS QS 7H" --younger "JS 10S AH KH" --won 5-3
  salon piquet solve --elder "♠A K Q J 7 ♥A 10 8 ♦9 7 ♣K 8" --younger "♠10 9 8 ♥K Q J 9 ♦A K Q ♣A Q" --json""")
@click.option("--elder", required=True, help="Elder's cards (1 to 12).")
@click.option("--younger", required=True, help="Younger's cards (as many as elder's).")
@click.option("--leader", type=click.Choice(["elder", "younger"]), default="elder", show_default=True,
              help="Who leads the next trick.")
@click.option("--won", default=None, metavar="E-Y", help="Tricks each has won so far (E + Y + cards = 12) [0-0 with 12 cards].")
@click.option("--scores", default=None, metavar="E-Y", help="Points each has scored in this deal so far (for the pique) [0-0].")
@click.option("--pique-done", is_flag=True, help="Elder already made a pique in this deal.")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@rules_options
@click.option("--json", "as_json", is_flag=True)
@click.option("--verbose", is_flag=True, help="Also the solver's description and the positions it searched.")
def solve(elder, younger, leader, won, scores, pique_done, lang, rules, rule, as_json, verbose):
    """The exact value of the rest of the play with both hands known (double dummy): the card to
    lead (in the hands' own notation), elder's points from here on minus younger's, and the line both
    then play."""
    from analysis.piquet.notation import notation_of
    from analysis.piquet.studies.solve import parse_position, solve_answer, solve_text

    r = _rules(rules, rule)
    de = None if lang == "en" else lang
    pos = parse_position(elder, younger, leader, won, scores, pique_done, de)
    res = solve_answer(pos, r)
    emit(res, as_json, solve_text(res, notation_of(f"{elder} {younger}", de), verbose))


@click.group("piquet", epilog="Example:\n\n\b\n  salon study piquet overview --deals 500000")
def study():
    """Piquet studies."""


@study.command("overview", epilog="Example:\n\n\b\n  salon study piquet overview --deals 500000")
@click.option("--deals", default=2_000_000, show_default=True, callback=positive, help="Deals per variant.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@policy_options()
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              callback=output_dir)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def piquet_overview_cmd(deals, seed, policy, param, out, threads, as_json, quiet):
    """Per-deal score distribution, frequencies and elder's edge, the variants side by side."""
    from analysis.piquet.answers import overview_study

    obj, text = overview_study(deals, seed, _policy(policy, param), out, threads, quiet)
    emit(obj, as_json, text)


@study.command("discards", epilog="Examples:\n\n\b\n  salon study piquet discards --quick\n"
                                  "  salon study piquet discards --seat younger --hands 100")
@click.option("--hands", default=None, type=int, callback=positive, help="Random dealt hands [400; 40 with --quick].")
@click.option("--seat", type=click.Choice(["elder", "younger"]), default="elder", show_default=True)
@click.option("--samples", default=None, type=int, callback=positive,
              help="Most sampled deals per hand (racing) [4,000; 2,000 with --quick].")
@click.option("--quick", is_flag=True, help="A small study: minutes, not an hour.")
@click.option("--elder-took", default=5, show_default=True, type=int, help="Younger: cards elder exchanged.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@rules_options
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              callback=output_dir)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def piquet_discards_cmd(hands, seat, samples, quick, elder_took, seed, rules, rule, out, threads, as_json, quiet):
    """The best exchange of many random hands: cards taken, what it keeps, what rules of thumb cost."""
    from analysis.piquet.answers import discards_study

    hands = hands or (40 if quick else 400)
    samples = samples or (2_000 if quick else 4_000)
    obj, text = discards_study(hands, seat, samples, elder_took, seed, _rules(rules, rule), out, threads, quiet)
    emit(obj, as_json, text)


@study.command("players", epilog="Examples:\n\n\b\n  salon study piquet players --search-deals 2000\n"
                                "  salon study piquet players --search-deals 500 --rules seed-de --json")
@click.option("--search-deals", default=4_000, show_default=True, callback=positive,
              help="Deals played by the search player (dd and the heuristic play ten times as many).")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--rules", "rules", default="cavendish", show_default=True, help="Rules variant (Cavendish's table: cavendish).")
@click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one switch of the variant.")
@click.option("--out", default="reports/tables", show_default=True, type=click.Path(file_okay=False),
              callback=output_dir)
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True)
def piquet_players_cmd(search_deals, seed, rules, rule, out, threads, as_json, quiet):
    """The heuristic, learned, search and dd players beside Cavendish's 10,000 expert hands: scores, who wins
    the cards, pique and repique, capot, rubicons in parties, with intervals."""
    import os

    from analysis.piquet.studies.players import player_deals, players_json, players_table, players_text

    r = _rules(rules, rule)
    df = players_table(player_deals(search_deals), seed, r, threads=threads, quiet=quiet)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"piquet_players_{r.name}.csv")
    df.to_csv(path, index=False)
    emit({**players_json(df), "csv": path}, as_json, players_text(df) + f"\n\nTable: {path}")

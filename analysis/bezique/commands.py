"""``salon bezique ...``: Bezique's own commands (argument parsing only). ``explain`` and ``replay``
are added to the group from the game registry, like every game's."""
from __future__ import annotations

import click

from analysis.clikit import emit, non_negative, positive, rules_options, thread_count
from analysis.variants import current_name


@click.group("bezique", epilog="Examples:\n\n\b\n  salon bezique melds \"QS JD KH QH\" --trump H\n  salon bezique explain --seed 1 --deal 0")
def group():
    """Bezique: legal melds, one hand advised, the end game solved, a deal explained, a record replayed."""


@group.command(epilog="""Examples:\n
\b
  salon bezique melds "QS JD KH QH 10H AH JH" --trump H
  salon bezique melds "QS JD KS" --trump H --table "QS JD" --rules classic --json""")
@click.argument("hand")
@click.option("--trump", required=True, help="Trump suit: S H D C or ♠ ♥ ♦ ♣.")
@click.option("--table", default=None, help='Melds already on the table, one group per meld: "QS JD; KH QH"; =KH is the K♥ already on '
                   'the table in an earlier group: "KH QH; AH 10H =KH =QH JH".')
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
@rules_options
@click.option("--json", "as_json", is_flag=True)
def melds(hand, trump, table, lang, rules, rule, as_json):
    """The legal melds (and their points) for a player holding HAND with --table on the table."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.melds import meld_report, melds_text

    res = meld_report(hand, trump, table, get_rules(rules, list(rule)), None if lang == "en" else lang)
    emit(res, as_json, melds_text(res))


@group.command(epilog="""Examples:\n
\b
  salon bezique solve --hand "AS 10S KH QH 9D" --opponent "AH 7S JD 8C AC" --trump S
  salon bezique solve --hand "AS AS" --opponent "10S 7H" --trump H --leader opponent --rules classic --json""")
@click.option("--hand", required=True, help="Your cards (1..8; a card may appear twice: the pack is doubled).")
@click.option("--opponent", required=True, help="The opponent's cards, as many as yours.")
@click.option("--trump", required=True, help="Trump suit: S H D C or ♠ ♥ ♦ ♣.")
@click.option("--leader", type=click.Choice(["hand", "opponent"]), default="hand", show_default=True,
              help="Who leads the next trick.")
@rules_options
@click.option("--json", "as_json", is_flag=True)
@click.option("--verbose", is_flag=True, help="Also say how the answer was found.")
def solve(hand, opponent, trump, leader, rules, rule, as_json, verbose):
    """The end game solved exactly: what to lead, your points minus the opponent's from the
    remaining tricks (brisques and the last trick), and a line of best play."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies import solve as S

    res = S.solve(hand, opponent, trump, leader, get_rules(rules, list(rule)))
    emit(res, as_json, S.text(res, verbose))


@group.command(epilog="""Examples:\n
\b
  salon bezique advise "AS 10S KH QH 9D JD QS 7C" --trump H --stock 40 --seen "7H 8S 9C AC 10C KC"
  salon bezique advise "AS 10S KH 9D JD 7C" --trump H --stock 2 --led QD --table "KS QS" --opp-table "KC QC"
  salon bezique advise "AS 10S KH 9D" --trump H --stock 0 --led QD --rules classic --json""")
@click.argument("hand")
@click.option("--trump", required=True, help="Trump suit: S H D C or ♠ ♥ ♦ ♣.")
@click.option("--seen", default=None, help="Cards played in earlier tricks (those not listed are drawn among the unseen).")
@click.option("--stock", default=48, show_default=True, type=int,
              help="Cards left in the stock, the turn-up counted: 48 at trick 1, 2 at trick 24, 0 in the end phase.")
@click.option("--led", default=None, help="The card the opponent led: you follow (otherwise you lead).")
@click.option("--table", default=None, help='Your melds on the table, one group per meld: "KH QH; QS JD" (as in melds).')
@click.option("--opp-table", default=None, help="The opponent's melds on the table, written the same way.")
@click.option("--turn-up", default=None, help="The turn-up, if you want it fixed (otherwise drawn among the unseen trumps).")
@click.option("--samples", default=500, show_default=True, type=int, help="Layouts of the unseen cards.")
@click.option("--seed", default=0, show_default=True, type=int)
@rules_options
@click.option("--json", "as_json", is_flag=True)
@click.option("--verbose", is_flag=True, help="Also name the players and the method behind the answer.")
def advise(hand, trump, rules, rule, as_json, verbose, **position):
    """What to play from HAND (and whether to meld or hold after it): each card's expected net points
    to the end of the deal over layouts of the unseen cards, both players rolled out by the heuristic."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies import advise as one_hand

    res = one_hand.advise(hand, trump, rules=get_rules(rules, list(rule)), **position)
    emit(res, as_json, one_hand.advise_text(res, verbose))


@click.group("bezique", epilog="Example:\n\n\b\n  salon study bezique players --search-deals 200")
def study():
    """Bezique studies."""


@study.command("players", epilog="Examples:\n\n\b\n  salon study bezique players --search-deals 200\n"
                                 "  salon study bezique players --deals 100000 --rules classic --json")
@click.option("--deals", default=100_000, show_default=True, callback=positive,
              help="Deals for the heuristic players (self-play, and against tuned).")
@click.option("--games", default=1_000, show_default=True, type=int, callback=non_negative,
              help="Games to the target for the heuristic players.")
@click.option("--search-deals", default=200, show_default=True, callback=positive, help="Deals for the search player.")
@click.option("--search-games", default=10, show_default=True, type=int, callback=non_negative,
              help="Games for the search player.")
@click.option("--samples", default=32, show_default=True, callback=positive, help="The search player's samples.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--rules", "rules", default="seed-de", show_default=True, help="Rules variant.")
@click.option("--threads", type=int, default=None, callback=thread_count)
@click.option("--json", "as_json", is_flag=True)
def players_cmd(deals, games, search_deals, search_games, samples, seed, rules, threads, as_json):
    """The rulebook heuristic, tuned, tuned-exact and the search player side by side: points per
    deal, meld rates, games, and each against tuned on the same deals, with intervals."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.players import players, players_text

    get_rules(rules)  # a bad name fails here, before any play
    df = players(deals, games, seed, rules, search_deals=search_deals, search_games=search_games, samples=samples,
                 threads=threads)
    emit({"rules": rules, "seed": seed, "samples": samples, "caption": df.attrs["caption"],
          "players": df.to_dict(orient="records")}, as_json, players_text(df))


@study.command("advice", epilog="Examples:\n\n\b\n  salon study bezique advice --deals 1000\n"
                                "  salon study bezique advice --player tuned-exact --rules classic --json")
@click.option("--deals", default=1_000, show_default=True, callback=positive, help="Deals, each in both seats.")
@click.option("--player", default="search", show_default=True,
              type=click.Choice(["search", "tuned-exact", "tuned", "heuristic", "heuristic-new"]),
              callback=lambda ctx, param, value: current_name(value))
@click.option("--baseline", default="tuned", show_default=True,
              type=click.Choice(["search", "tuned-exact", "tuned", "heuristic", "heuristic-new"]),
              callback=lambda ctx, param, value: current_name(value))
@click.option("--samples", default=32, show_default=True, callback=positive, help="The search player's samples.")
@click.option("--seed", default=0, show_default=True, callback=non_negative)
@click.option("--rules", "rules", default="seed-de", show_default=True, help="Rules variant.")
@click.option("--json", "as_json", is_flag=True)
def advice_cmd(deals, player, baseline, samples, seed, rules, as_json):
    """The period advice (docs/classical.md) against a player's own play: how often he wins a stock
    trick without purpose, takes a led brisque, leads a low trump, leads trumps late in the stock,
    wins the last trick but one; beside the baseline on the same deals, against tuned."""
    from analysis.bezique.rules import get_rules
    from analysis.bezique.studies.advice import advice_check, advice_text

    get_rules(rules)  # a bad name fails here, before any play
    res = advice_check(deals, seed, rules, player, baseline, samples=samples)
    emit(res, as_json, advice_text(res))

"""``salon bezique ...``: Bezique's own commands (argument parsing only). ``explain`` and ``replay``
are added to the group from the game registry, like every game's."""
from __future__ import annotations

import click

from analysis.clikit import emit, rules_options


@click.group("bezique", epilog="Examples:\n\n\b\n  salon bezique melds \"QS JD KH QH\" --trump H\n  salon bezique explain --seed 1 --deal 0")
def group():
    """Bezique: legal melds, a deal explained, a record replayed."""


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
    from analysis.bezique.melds import meld_report, melds_text
    from analysis.bezique.rules import get_rules

    res = meld_report(hand, trump, table, get_rules(rules, list(rule)), None if lang == "en" else lang)
    emit(res, as_json, melds_text(res))

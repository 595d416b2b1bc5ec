"""What every ``salon`` command shares: one-line errors, JSON or text output, the common options.

Game commands (``analysis/<game>/commands.py``) and the generic commands of ``analysis/cli.py`` are
built from these, so an option means the same thing everywhere."""
from __future__ import annotations

import json

import click


class UserError(click.ClickException):
    """Bad input: printed as one line, exit code 2."""

    exit_code = 2


def fail(message: str) -> None:
    """Stop with a one-line error and exit code 2."""
    raise UserError(message)


def emit(obj, as_json: bool, text: str) -> None:
    """Print one JSON object, or the text form."""
    if as_json:
        click.echo(json.dumps(obj, ensure_ascii=False, default=json_default))
    else:
        click.echo(text)


def json_default(o):
    """JSON for numpy scalars and arrays."""
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def positive(ctx, param, value):
    """click callback: the value must be a positive integer."""
    if value is not None and value < 1:
        raise click.BadParameter(f"must be positive, not {value}")
    return value


MAX_DEALS = 10**10
"""The most deals (hands, games) one command plays: hours on a few cores for the slowest game."""
DEALS_PER_CORE_SECOND = {"ecarte": 2_500_000, "piquet": 600_000, "bezique": 80_000}
"""Rough speed of each game's heuristic simulation per core, for telling how long a count would run."""


def _game_of(ctx) -> str | None:
    """The game a command is about: its GAME argument, or the group it sits in (``salon piquet ...``)."""
    while ctx is not None:
        for name in (ctx.params.get("game"), ctx.info_name):
            if name in DEALS_PER_CORE_SECOND:
                return name
        ctx = ctx.parent
    return None


def _duration(seconds: float) -> str:
    """``about 23 days``, ``about 5 hours``, ``about 40 minutes``."""
    for unit, size in (("year", 365 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = round(seconds / size)
            return f"about {n:,} {unit}{'' if n == 1 else 's'}"
    return "under a minute"


def deal_count(ctx, param, value):
    """click callback: a positive number of deals, at most MAX_DEALS (the message says about how
    long the count asked for would run)."""
    value = positive(ctx, param, value)
    if value is not None and value > MAX_DEALS:
        from analysis.blocks import available_threads

        game = _game_of(ctx)
        cores = available_threads()
        rate = DEALS_PER_CORE_SECOND.get(game, max(DEALS_PER_CORE_SECOND.values())) * cores
        raise click.BadParameter(f"{value:,} is beyond the maximum of {MAX_DEALS:,}: it would run "
                                 f"{_duration(value / rate)} on {cores} core{'' if cores == 1 else 's'} "
                                 f"(about {rate:,} deals a second)")
    return value


def thread_count(ctx, param, value):
    """click callback: a positive number of threads; more than the machine has is a warning on
    stderr and the number it has is used."""
    value = positive(ctx, param, value)
    if value is not None:
        from analysis.blocks import available_threads

        cores = available_threads()
        if value > cores:
            click.echo(f"warning: --threads {value} is more than the {cores} core{'' if cores == 1 else 's'} "
                       f"here; using {cores}", err=True)
            value = cores
    return value


def _probe(directory: str) -> str | None:
    """Why nothing can be written in the existing ``directory``, or None when a file can."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=directory):
            return None
    except OSError as e:
        return e.strerror or str(e)


def check_output(path: str, directory: bool) -> str | None:
    """Why the output ``path`` (a file, or a directory created if missing) cannot be written, or None.
    Checked before any work, so a bad path does not cost the computation."""
    import os

    if path == "-" and not directory:
        return None
    target = os.path.abspath(os.path.expanduser(path))
    if directory:
        probe = target
        while not os.path.exists(probe):
            probe = os.path.dirname(probe)
        if not os.path.isdir(probe):
            return f"{probe} is a file, not a directory"
    else:
        if os.path.isdir(target):
            return f"{path} is a directory"
        probe = os.path.dirname(target)
        if not os.path.isdir(probe):
            return f"no directory {os.path.dirname(path) or probe}"
        if os.path.exists(target) and not os.access(target, os.W_OK):
            return f"cannot write {path}: permission denied"
    why = _probe(probe)
    return f"cannot write in {probe}: {why}" if why else None


def output_file(ctx, param, value):
    """click callback: an output file ('-': standard output) that can be written, checked first."""
    why = value is not None and check_output(value, directory=False)
    if why:
        raise click.BadParameter(why)
    return value


def output_dir(ctx, param, value):
    """click callback: an output directory (made if missing) that can be written, checked first."""
    why = value is not None and check_output(value, directory=True)
    if why:
        raise click.BadParameter(why)
    return value


def non_negative(ctx, param, value):
    """click callback: the value must be zero or more."""
    if value is not None and value < 0:
        raise click.BadParameter(f"must not be negative, not {value}")
    return value


def rules_options(f):
    """--rules and --rule, shared by every command that plays."""
    f = click.option("--rule", multiple=True, metavar="KEY=VALUE", help="Override one switch of the variant.")(f)
    f = click.option("--rules", "rules", default="seed-de", show_default=True, help="Rules variant.")(f)
    return f


def policy_options(names=("heuristic", "random")):
    """--policy (one of ``names``) and --param."""
    def wrap(f):
        f = click.option("--param", multiple=True, metavar="KEY=VALUE", help="Override one policy parameter.")(f)
        f = click.option("--policy", default="heuristic", show_default=True, type=click.Choice(list(names)),
                         help="Policy of both players.")(f)
        return f
    return wrap


def replay_file(file: str, rules: str | None, rule, rescore, rules_of) -> tuple[list[dict], dict]:
    """Re-score every record of a file ('-': standard input): --rules / --rule override each
    record's own variant (``rules_of(name, rule)`` builds them); returns (results, the JSON to print)."""
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

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

"""``salon results ...``: the result store's runs listed, shown, exported and pruned."""
from __future__ import annotations

import json

import click

from analysis.clikit import emit, output_file


@click.group("results", epilog="Examples:\n\n\b\n  salon results list\n  salon results export KEY --format csv --out run.csv")
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


@results.command("list", epilog="Example:\n\n\b\n  salon --results /tmp/store results list --json")
@click.option("--json", "as_json", is_flag=True)
def results_list(as_json):
    """Every stored run: key, kind, kernel block or study, seed, chunks and deals or items stored,
    and the code it was made with (a fingerprint of what its kernel or study reads)."""
    from analysis import store

    base = store.root()
    rows = store.runs()
    lines = [f"result store: {base if base else 'off (SALON_RESULTS=off)'}"]
    lines += [(f"{r['key']}  {r['study']}  seed {r['seed']}  {r['items']:,} items" if r["kind"] == "items" else
               f"{r['key']}  {r['block']}  seed {r['seed']}  {r['deals']:,} deals in {r['chunks']} chunks")
              + f"  code {r['code']}" + ("" if r["current"] else " (older code: results prune removes it)")
              for r in rows]
    emit({"store": str(base) if base else None, "runs": rows}, as_json, "\n".join(lines))


@results.command("show", epilog="Example:\n\n\b\n  salon results show 3f2a9c0d1e2b4a5c")
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


@results.command("export", epilog="Examples:\n\n\b\n  salon results export KEY --out run.csv\n  salon results export KEY --format parquet --out run.parquet")
@click.argument("key")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet", "json"]), default="csv", show_default=True)
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), callback=output_file)
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


@results.command("prune", epilog="Example:\n\n\b\n  salon results prune")
def results_prune():
    """Remove runs made by code that has changed since (no current key reaches them), files left by
    killed runs, files set aside as corrupt, and unreadable chunk and item files."""
    from analysis import store

    removed = store.prune()
    click.echo(f"removed {len(removed)} file(s)" + "".join(f"\n  {p}" for p in removed))

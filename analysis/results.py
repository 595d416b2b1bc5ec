"""Study results as objects: a table to read, what produced it, and the JSON contract.

A ``Result`` wraps what a study's ``--json`` prints (``to_dict()``) and adds ``table``, a pandas
DataFrame with one row per statistic or option (``value``, ``lo``, ``hi``, ``n`` and the study's own
columns), ``estimate(name)`` as an ``analysis.stats.Estimate``, ``about`` (game, rules, players,
deals, seed) and a notebook view that names the players and rules above the table. It is
the JSON dict (``res["stats"]``), so code written against the contract keeps working.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from analysis.stats import Estimate, policy_words

if TYPE_CHECKING:
    import pandas as pd

ABOUT_KEYS = ("game", "rules", "policies", "players", "opponent", "rollout", "deals", "samples", "seed", "version")
"""The keys of a result that say what produced it, in the order ``about`` shows them."""


def estimate_of(d: Mapping | None) -> Estimate | None:
    """An ``Estimate`` from its JSON form ``{"value", "ci95": [lo, hi], "n"}`` (None stays None)."""
    if d is None:
        return None
    lo, hi = d.get("ci95") or d.get("ci") or (None, None)
    nan = float("nan")
    return Estimate(nan if d.get("value") is None else float(d["value"]), nan if lo is None else float(lo),
                    nan if hi is None else float(hi), int(d.get("n", 0)), float(d.get("confidence", 0.95)))


def estimates_frame(estimates: Mapping[str, Mapping | Estimate], index: str = "statistic") -> pd.DataFrame:
    """One row per named estimate: ``value``, ``lo``, ``hi``, ``n`` (a study's ``stats`` as a table)."""
    import pandas as pd

    rows = []
    for name, e in estimates.items():
        e = e if isinstance(e, Estimate) else estimate_of(e)
        rows.append({index: name, "value": e.value, "lo": e.lo, "hi": e.hi, "n": e.n})
    return pd.DataFrame(rows, columns=[index, "value", "lo", "hi", "n"])


def flat_row(row: Mapping) -> dict:
    """One option of a result as a table row: an estimate ``k`` becomes columns ``k``, ``k_lo`` and
    ``k_hi``; a list of card names becomes one string; other nested values are left out."""
    out: dict = {}
    for k, v in row.items():
        if isinstance(v, Mapping) and "value" in v:
            e = estimate_of(v)
            out.update({k: e.value, f"{k}_lo": e.lo, f"{k}_hi": e.hi})
        elif isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
            out[k] = " ".join(v)
        elif not isinstance(v, (Mapping, list, tuple)):
            out[k] = v
    return out


def options_frame(rows: list[Mapping]) -> pd.DataFrame:
    """A result's options (one dict per option, estimates inside) as a DataFrame of flat rows."""
    import pandas as pd

    return pd.DataFrame([flat_row(r) for r in rows])


class Result(dict):
    """A study's result: the JSON contract as a dict, with ``table`` (DataFrame), ``about`` (what
    produced it), ``estimate(name)`` and a notebook view."""

    def __init__(self, data: dict, table: pd.DataFrame, title: str = "") -> None:
        super().__init__(data)
        self.table = table
        self.title = title

    def to_dict(self) -> dict:
        """The JSON contract as a plain dict (a shallow copy: the caller may add or drop keys)."""
        return dict(self)

    @property
    def about(self) -> dict:
        """Game, rules, players, budget and seed: what produced the numbers."""
        return {k: self[k] for k in ABOUT_KEYS if k in self}

    @property
    def recommendation(self) -> str | None:
        """The advice, where the study gives one (the option to take)."""
        return self.get("recommendation", self.get("best"))

    def estimate(self, name: str) -> Estimate:
        """The named estimate: a statistic of ``stats`` or a top-level estimate of the result."""
        stats = self.get("stats", {})
        found = stats.get(name, self.get(name))
        if not isinstance(found, Mapping) or "value" not in found:
            raise KeyError(f"no estimate named {name!r} in this result")
        return estimate_of(found)

    def about_text(self) -> str:
        """The ``about`` line in words."""
        parts = []
        for k, v in self.about.items():
            if isinstance(v, Mapping):
                v = "; ".join(f"{role} {policy_words(p)}" for role, p in v.items())
            name = "players" if k == "policies" else k
            parts.append(f"{name} {v:,}" if isinstance(v, int) else f"{name} {v}")
        return " · ".join(parts)

    def __repr__(self) -> str:
        head = f"{self.title}\n" if self.title else ""
        return f"{head}{self.about_text()}\n{self.table.to_string(index=False)}"

    def _repr_html_(self) -> str:
        import html

        head = f"<b>{html.escape(self.title)}</b><br>" if self.title else ""
        return f"{head}<small>{html.escape(self.about_text())}</small>{self.table.to_html(index=False)}"



def simulation(about: dict, stats: Mapping[str, Estimate], tallies, **extra) -> Result:
    """A ``salon simulate`` result: provenance, the statistics, extra fields and the summed tallies."""
    data = {**about, "stats": {k: v.to_dict() for k, v in stats.items()}, **extra, "tallies": tallies.tolist()}
    return Result(data, estimates_frame(stats), title=f"{about['game']}: {about['deals']:,} {about.get('mode', 'hands')}")

"""What every game offers the rest of salon: one descriptor per game (``analysis.<game>.GAME``).

The command line, the tips, the benchmarks, the report and the conformance tests loop over the
descriptors of ``analysis.games`` instead of branching on game names, so a fourth game is one new
package with a descriptor. Entries that need the game's heavy modules (numba kernels, pandas) are
:class:`Lazy` references, imported on first use: ``salon --help`` compiles nothing.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable


class Lazy:
    """A ``"module:attribute"`` (or ``"module"``) reference, imported when first used; calling it
    calls the target."""

    def __init__(self, path: str):
        self.path = path

    def load(self) -> Any:
        """The referenced object (imports its module)."""
        module, _, attr = self.path.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.path!r})"


@dataclass(frozen=True)
class Mode:
    """A way ``salon simulate`` plays a game: single deals, or whole games (parties) to the end."""

    name: str  # "hands", "deals", "games", "parties": the unit counted by --deals
    flag: str | None  # the simulate option that selects it ("--game", "--partie"); None for the default
    run: Callable  # (n, seed, rules, policy_a, policy_b, *, threads, quiet) -> result dict


@dataclass(frozen=True)
class Game:
    """A game's uniform entry points (see ``analysis/<game>/api.py`` for each game's)."""

    name: str  # the CLI's name: "ecarte"
    title: str  # for people: "Écarté"
    seats: tuple[str, str]  # the two seats, elder (who leads first) first: ("elder", "dealer")
    unit: str  # what one deal is called in outputs: "hand" or "deal"
    variants: Lazy  # the named rule variants, a dict name -> rules
    get_rules: Callable  # (name, overrides) -> rules (frozen dataclass); unknown names are InputError
    policies: tuple[str, ...]  # names get_policy takes
    get_policy: Callable  # (name, overrides) -> policy
    modes: tuple[Mode, ...]  # the first one is the default of `salon simulate`
    record: Callable  # (seed, index, rules, policy) -> one deal played by the reference, as a record dict
    save_records: Callable  # (records, path) -> None; path "-" is standard output
    replay: Callable  # (record, rules or None) -> result dict (InputError naming the broken rule)
    replay_text: Callable  # (result dict) -> one line of text
    replay_net: Callable  # (result dict) -> elder's points minus the other seat's
    net: Callable  # (seed, index, rules, elder policy, other policy) -> elder's points minus the other's (reference)
    explain: Callable  # (seed, index, rules, policy) -> the deal narrated by the reference
    compare: Callable  # (n, seed, rules, a, b, *, start, chunk, threads, quiet) -> compare tallies (analysis.compare)
    invariants: Callable  # (n, seed, rules, policy) -> list of violated rule invariants (empty: all hold)
    tips: Lazy  # the game's studies/tips module (STUDIES: tip id -> study, VARIANTS: tip id -> variants)
    tip_policy: Callable  # () -> the policy the tip studies are run around
    bench: Callable  # (deals, reference_deals, repeats, full) -> bench result dict (analysis/<game>/bench.py)
    bench_text: Callable  # (bench result dict) -> the lines past the kernel's rates
    commands: Lazy  # the game's click group of its own commands (`salon GAME ...`)
    studies: Lazy | None = None  # the game's click group of studies (`salon study GAME ...`), if any
    report: Lazy | None = None  # the game's report module: section(out_dir, fig_dir, budget, seed, threads, tips)
    # -> its section's context; optional PARTS (refreshable parts), guide_advice(section), guide_chart(...)
    playing_rules: Lazy | None = None  # (decision, rule text, rules, deals, seed, player) -> (result, text): `salon rule`
    rule_ladders: Lazy | None = None  # (decision or None, rules, refit) -> (result dict, text): `salon rules`
    notation: Lazy | None = None  # the game's text notation module: from_lines, to_text, replay (docs/records.md)
    review: Lazy | None = None  # the game's review module: review(record, index, rules, player, samples, seed,
    # threads) -> analysis.review.DealReview, DEFAULT_SAMPLES: `salon review`

    def mode(self, name: str | None) -> Mode:
        """The simulate mode called ``name`` (None: the default)."""
        if name is None:
            return self.modes[0]
        for m in self.modes:
            if m.name == name:
                return m
        from analysis.errors import InputError

        raise InputError(f"{self.title} has no mode {name!r}; valid: {', '.join(m.name for m in self.modes)}")

    def rules(self, name: str | None = None, overrides=None):
        """The variant ``name`` (default: the game's default) with switches overridden."""
        return self.get_rules(name or "seed-de", list(overrides or ()))

    def policy(self, name: str = "heuristic", overrides=None):
        """The policy ``name`` with parameters overridden."""
        return self.get_policy(name, list(overrides or ()))

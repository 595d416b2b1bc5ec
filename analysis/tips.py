"""The rulebook tips of docs/tips.md: each tip -> study -> verdict, or plainly 'not yet studied'.

The studies come from the game registry (``analysis.games``): a game's ``tips`` is its tip-study
module (``STUDIES``: tip id -> study, ``VARIANTS``: tip id -> the variants it is run under), its
``rules`` the variants and its ``tip_policy`` the policy the studies are run around. A study
returns a :class:`analysis.verdicts.Verdict`, or a list of them (per seat or clause). Each study's
verdicts under a variant are kept in the result store (``analysis.store``, an item study "tip" keyed
by the tip, variant, deals, seed and the code), so a report interrupted in its tip studies resumes
with the studies it finished.
"""
from __future__ import annotations

from analysis import __version__
from analysis.tips_registry import TIPS
from analysis.verdicts import Verdict

BUDGETS = {"quick": 300_000, "full": 5_000_000}
"""Deals per study run (each deal is played under both options compared)."""


def tip_verdicts(game: str | None = None, budget: str = "quick", seed: int = 0, deals: int | None = None,
                 progress: bool = False, ids: set[str] | None = None) -> dict:
    """Every tip of the registry (of ``game``; only ``ids`` when given), with its verdicts
    (:class:`Verdict` objects) where a study exists. ``deals`` overrides the budget's deals per
    study (for tests and notebooks); ``progress``: a progress bar of the studies run."""
    from tqdm.auto import tqdm

    from analysis.games import GAMES

    if budget not in BUDGETS:
        from analysis.errors import InputError

        raise InputError(f"unknown budget {budget!r}; valid: {', '.join(BUDGETS)}")
    n = deals or BUDGETS[budget]
    studies, policies = {}, {}
    for g in GAMES.values():
        if game is None or g.name == game:
            studies[g.name] = g.tips.load()
            policies[g.name] = g.tip_policy()
    out = []
    chosen = [tip for tip in TIPS if (not game or tip["game"] == game) and (ids is None or tip["id"] in ids)]
    runs = sum(len(studies[t["game"]].VARIANTS.get(t["id"], ())) for t in chosen if t["game"] in studies
               and t["id"] in studies[t["game"]].STUDIES)
    bar = tqdm(total=runs, desc="tip studies", unit=" studies", leave=False, disable=not progress)
    for tip in chosen:
        entry = dict(tip)
        tips_module = studies.get(tip["game"])
        study = tips_module.STUDIES.get(tip["id"]) if tips_module else None
        entry["status"] = "not yet studied" if study is None else "studied"
        entry["verdicts"] = []
        if study is not None:
            g = GAMES[tip["game"]]
            for v in tips_module.VARIANTS[tip["id"]]:
                bar.set_postfix_str(f"{tip['id']} {v}")
                entry["verdicts"] += stored_study(study, tip["id"], g.rules(v), n, seed, policies[g.name])
                bar.update(1)
        out.append(entry)
    bar.close()
    return {"budget": budget, "deals_per_study": n, "seed": seed, "version": __version__, "tips": out}


def stored_study(study, tip: str, rules, deals: int, seed: int, policy) -> list[Verdict]:
    """The study's verdicts under ``rules``, from the result store when it holds them, else run and
    stored (the policy is the game's tip policy, fixed by the code, which the key holds)."""
    from analysis import store

    items = store.open_items("tip", {"tip": tip, "variant": rules.name, "deals": deals, "seed": seed},
                             study.__module__)
    if items is not None:
        got = items.load().get(0)
        if got is not None:
            return [Verdict.from_dict(d) for d in got["verdicts"]]
    got = study(rules, deals, seed, policy)  # a verdict, or a list of them
    verdicts = got if isinstance(got, list) else [got]
    if items is not None:
        items.save([0], [{"verdicts": [v.to_dict() for v in verdicts]}])
    return verdicts


def as_json(res: dict) -> dict:
    """A :func:`tip_verdicts` result with every verdict in its JSON form (:meth:`Verdict.to_dict`)."""
    return {**res, "tips": [{**t, "verdicts": [v.to_dict() for v in t["verdicts"]]} for t in res["tips"]]}


def evaluate_tips(game: str | None = None, budget: str = "quick", seed: int = 0, deals: int | None = None,
                  progress: bool = False) -> dict:
    """Every tip of the registry (of ``game``), with its verdicts where a study exists, as JSON
    (what ``salon tips --json`` prints and the report reads).

    ``deals`` overrides the budget's deals per study (for tests and notebooks)."""
    return as_json(tip_verdicts(game, budget, seed, deals, progress))


def tips_text(res: dict, verbose: bool = False) -> str:
    """The verdicts (objects or their JSON form) as text, one tip per paragraph: each verdict's
    sentence for a player first (the strategy guide's), then its evidence (``verbose``: the sharp
    reading tested and the players' full descriptions)."""
    lines = [f"Tips (budget {res['budget']}: {res['deals_per_study']:,} deals per study, seed {res['seed']})"]
    for t in res["tips"]:
        if not t["verdicts"]:
            lines.append(f"{t['id']:<6} not yet studied — {t['tip']}")
            continue
        lines.append(f"{t['id']:<6} {t['tip']}")
        for v in t["verdicts"]:
            v = v if isinstance(v, Verdict) else Verdict.from_dict(v)
            lines.append(f"       [{v.label}] {v.for_a_player}")
            lines += ["         " + line for line in v.text(verbose).splitlines()]
    return "\n".join(lines)

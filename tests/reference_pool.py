"""The reference side of the differential tests: golden vectors, a live sample, and a process pool.

The plain-Python references play a few hundred (Bezique) to a few thousand (Écarté) deals per
second; the differential tests check hundreds of thousands of deals. So the reference's outcomes
are recorded once, by ``scripts/make_vectors.py``, as golden vectors (``tests/vectors/GAME.json``):
for every case below (game, variant and switches, policy pairing, seed, deal count), a sha256 of the
reference's int64 outcome rows per block of ``BLOCK`` deals (or games). A test then plays the same
deals through the kernel and compares its rows' digests with them, every deal of every case, in
seconds; where a block differs, the block is replayed through the reference to name the first
differing deal and field (or to say that the vectors are stale, when the reference agrees with the
kernel). Each run also replays a few blocks (of a case whose reference is slow, ``live_deals`` of
the block), chosen at random per run (``run_seed``, printed in the report header;
``SALON_VECTOR_SEED=N`` repeats a run's choice), through the live reference, so a digest that no
longer matches the reference is caught even when no source hash changed.

The vectors record a sha256 of the sources the reference's outcomes depend on (``source_files``:
the game's reference.py and its sibling modules reference_*.py, rules.py, policies.py, whatever
the reference imports from the game package, and analysis/rng.py, the deal streams) and of each case's inputs (rules and policy
arrays); ``stale_message`` names what changed: "golden vectors stale: run scripts/make_vectors.py".

Setting a test's deal count (``SALON_DIFF_BEZIQUE``, ``SALON_DIFF_DEALS``, ``SALON_DIFF_HANDS``)
to anything but the recorded one compares that many deals live, through a pool of the cores the
test workers leave free, as the differential tests did before there were vectors.
"""
from __future__ import annotations

import ast
import hashlib
import json
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

import analysis
from analysis.sources import STUDY_OUTPUTS

BATCH = 1000  # deals per job sent to a pool worker
BLOCK = 1000  # deals (or games) per digest
DIGEST_HEX = 32  # 128 bits of each block's sha256
VECTORS = Path(__file__).resolve().parent / "vectors"
GAMES = ("bezique", "ecarte", "piquet")
# Blocks replayed through the live reference per game and run (SALON_LIVE_BLOCKS overrides): about
# 5-10 s of reference play each (Bezique plays ~150 heuristic deals/s, Piquet ~1,300, Écarté ~4,000).
LIVE_BLOCKS = {"bezique": 2, "ecarte": 8, "piquet": 6}
STALE = "golden vectors stale: run scripts/make_vectors.py"
# The environment variables that set the differential tests' deal counts, per game.
COUNT_VARIABLES = {"bezique": "SALON_DIFF_BEZIQUE", "ecarte": "SALON_DIFF_HANDS", "piquet": "SALON_DIFF_DEALS"}


# ---------------------------------------------------------------------------------------------
# Cases: every comparison the differential tests make, by name
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One comparison: ``n`` deals (kind "deals") or games ("games") of ``game`` under ``variant``
    with ``switches``, policies ``a`` and ``b`` (names in ``policy``), from ``seed``. ``group``
    names the test that checks it."""

    game: str
    group: str
    kind: str
    variant: str
    switches: tuple[str, ...]
    a: str
    b: str
    seed: int
    n: int
    force_first: int = -1
    live_deals: int = 0
    """Deals of a block the live sample replays (0: the whole block); for cases whose reference is
    slow (the learned Piquet exchange: about 30 s a block against 1 s for any other)."""

    @property
    def id(self) -> str:
        """A stable key for the vectors file."""
        rules = self.variant + (f"[{','.join(self.switches)}]" if self.switches else "")
        force = f" force_first={self.force_first}" if self.force_first >= 0 else ""
        return f"{self.kind} {rules} {self.a}/{self.b} seed {self.seed}{force}"

    def describe(self) -> str:
        """How a failure message names the case."""
        return f"{self.game} {self.id}"


def deal_count(game: str, default: int) -> int:
    """The deal count the game's differential test uses (its environment variable, else the default)."""
    return int(os.environ.get(COUNT_VARIABLES[game], str(default)))


def _bezique_cases() -> list[Case]:
    deals, seed = deal_count("bezique", 17000), 20261129
    out = []
    for v in ("seed-de", "classic"):
        half = deals // 2
        out += [Case("bezique", f"deals/{v}/heuristic", "deals", v, (), "heuristic", "heuristic", seed, deals),
                Case("bezique", f"deals/{v}/random", "deals", v, (), "random", "random", seed + 1, deals),
                Case("bezique", f"deals/{v}/mixed", "deals", v, (), "random", "heuristic", seed + 2, half),
                Case("bezique", f"deals/{v}/mixed", "deals", v, (), "heuristic", "random", seed + 3, deals - half)]
    for k, (v, switches) in enumerate(BEZIQUE_SWITCHES):
        for a, b in (("random", "tuned"), ("tuned", "random"), ("cautious", "tuned"), ("tuned", "cautious")):
            out.append(Case("bezique", f"switches/{k}", "deals", v, switches, a, b, 3, 250))
        out.append(Case("bezique", f"switches/{k}", "games", v, switches, "tuned", "cautious", 3, 15))
    for v in ("seed-de", "classic"):
        for a, b in (("heuristic", "heuristic"), ("random", "heuristic"), ("heuristic", "random")):
            out.append(Case("bezique", f"games/{v}", "games", v, (), a, b, 5, 40))
    # The exact end game (endgame.py against reference_endgame.py's brute force).
    for v in ("seed-de", "classic"):
        out += [Case("bezique", f"exact/{v}", "deals", v, (), "heuristic", "exact", 31, 500),
                Case("bezique", f"exact/{v}", "deals", v, (), "exact", "random", 32, 500)]
    for k, (v, switches) in enumerate(BEZIQUE_SWITCHES):
        out.append(Case("bezique", f"exact/switches/{k}", "deals", v, switches, "cautious", "exact", 33, 200))
    # The meld-aware keep value (meld_chance.py against reference_policies.expected_meld_points).
    for v in ("seed-de", "classic"):
        out += [Case("bezique", f"meldaware/{v}", "deals", v, (), "tuned", "meldaware", 41, 1000),
                Case("bezique", f"meldaware/{v}", "deals", v, (), "meldaware", "heuristic", 42, 1000)]
    return out


BEZIQUE_SWITCHES = (("seed-de", ("last_trick_at=24", "target=500")),
                    ("classic", ("last_trick_at=24", "seven_points=0", "four_jacks=0")),
                    ("classic", ("reuse=either_order", "brisque=0", "target=1500")),
                    ("seed-de", ("double_bezique_after_single=true", "end_must_win=true", "last_trick=0")))
PIQUET_SWITCHES = ("younger_min=1", "younger_takes_leftovers=true", "repique=45", "pique=25", "last_trick=2",
                   "cards_bonus=15", "capot=50", "carte_blanche=20")
ECARTE_SWITCHES = ("dealer_min_discard=0", "must_trump_when_void=false", "target=3")


def _piquet_cases() -> list[Case]:
    # >= 100,000 deals per variant, split between the policies (SALON_DIFF_DEALS is per variant).
    deals = deal_count("piquet", 100000)
    third = deals // 3
    out = []
    for v in ("seed-de", "seed-no", "cavendish"):
        g = f"deals/{v}"
        out += [Case("piquet", g, "deals", v, (), "heuristic", "heuristic", 20261129, deals - 2 * third),
                Case("piquet", g, "deals", v, (), "random", "random", 20261130, third),
                Case("piquet", g, "deals", v, (), "tuned", "random", 3, third // 2),
                Case("piquet", g, "deals", v, (), "random", "tuned", 4, third - third // 2)]
        out += [Case("piquet", g, "deals", v, (), "learned", "heuristic", 11, 3000, live_deals=100),
                Case("piquet", g, "deals", v, (), "heuristic", "learned", 12, 3000, live_deals=100)]
    out += [Case("piquet", "switches", "deals", "seed-de", PIQUET_SWITCHES, "heuristic", "random", 9, 5000),
            Case("piquet", "switches", "deals", "seed-de", PIQUET_SWITCHES, "random", "heuristic", 10, 5000)]
    for v in ("seed-de", "seed-no", "cavendish"):
        for a, b in (("heuristic", "heuristic"), ("random", "heuristic")):
            out.append(Case("piquet", f"parties/{v}", "games", v, (), a, b, 5, 300))
    return out


def _ecarte_cases() -> list[Case]:
    # >= 100,000 hands per variant (with both policies): split over the policy x variant grid.
    hands = deal_count("ecarte", 50000)
    variants = {"seed-de": ("seed-de", ()), "classic": ("classic", ()), "classic-switches": ("classic", ECARTE_SWITCHES)}
    out = []
    for name in ("seed-de", "classic"):
        for p in ("random", "heuristic"):
            out.append(Case("ecarte", f"hands/{name}/{p}", "deals", name, (), p, p, 20261129, hands))
    for name in ("classic-switches", "seed-de"):
        v, sw = variants[name]
        out += [Case("ecarte", f"tuned/{name}", "deals", v, sw, "tuned", "tuned", 7, hands // 5),
                Case("ecarte", f"tuned/{name}", "deals", v, sw, "random", "random", 8, hands // 5)]
    for force in (0, 1):
        out += [Case("ecarte", f"forced/{force}", "deals", "seed-de", (), "random", "random", 11, 5000, force),
                Case("ecarte", f"forced/{force}", "deals", "classic", (), "heuristic", "heuristic", 12, 5000, force)]
    for name in ("seed-de", "classic-switches"):
        v, sw = variants[name]
        out.append(Case("ecarte", f"tables/{name}", "deals", v, sw, "table-elder", "table-dealer", 21, 6000))
    for name in ("seed-de", "classic-switches"):
        v, sw = variants[name]
        for p in ("random", "heuristic"):
            out.append(Case("ecarte", f"games/{name}", "games", v, sw, p, p, 5, 2000))
    # Learned leads (each player's knowledge tracked through the tricks), against every other player.
    for name, (a, b) in {"classic": ("learned", "heuristic"), "seed-de": ("learned", "heuristic"),
                         "classic-switches": ("learned-tuned", "random")}.items():
        v, sw = variants[name]
        out += [Case("ecarte", f"learned/{name}", "deals", v, sw, a, b, 31, 4000),
                Case("ecarte", f"learned/{name}", "deals", v, sw, b, a, 32, 4000),
                Case("ecarte", f"learned/{name}", "deals", v, sw, a, a, 33, 4000)]
    out.append(Case("ecarte", "learned-games/seed-de", "games", "seed-de", (), "learned", "heuristic", 34, 1000))
    # Reading leads (the first decisions read through a variant's ratios), for each side and both.
    for name in ("classic", "seed-de"):
        r = f"reading-{name}"
        out += [Case("ecarte", f"reading/{name}", "deals", name, (), r, "learned", 41, 4000),
                Case("ecarte", f"reading/{name}", "deals", name, (), "learned", r, 42, 4000),
                Case("ecarte", f"reading/{name}", "deals", name, (), r, r, 43, 4000)]
    return out


def cases(game: str, group: str | None = None) -> list[Case]:
    """The game's cases (those of one test group if given), in a fixed order."""
    every = {"bezique": _bezique_cases, "piquet": _piquet_cases, "ecarte": _ecarte_cases}[game]()
    return [c for c in every if group is None or c.group == group]


# ---------------------------------------------------------------------------------------------
# Rules, policies, and the two sides' rows
# ---------------------------------------------------------------------------------------------

def _random_discard_table(seed: int) -> np.ndarray:
    """An Écarté discard table with an arbitrary entry for every hand: a random non-empty subset of
    the hand (relative to trumps), or -1 (the heuristic decides) for about a third of the hands."""
    from analysis.ecarte.studies.strategy.kernel import all_hands

    hands = all_hands()
    rng = np.random.default_rng(seed)
    table = np.full(len(hands), -1, dtype=np.int64)
    for r, h in enumerate(hands.tolist()):
        if rng.random() < 0.67:
            bits = [b for b in range(32) if h >> b & 1]
            pick = rng.random(5) < 0.5
            pick[rng.integers(5)] = True
            table[r] = sum(1 << b for b, p in zip(bits, pick, strict=True) if p)
    return table


@cache
def policy(game: str, name: str):
    """A policy object by the name the cases use."""
    if game == "bezique":
        from analysis.bezique.policies import HeuristicPolicy, RandomPolicy

        return {"heuristic": HeuristicPolicy, "random": RandomPolicy,
                "tuned": lambda: HeuristicPolicy(lead_low=False, greedy_win=True, trump_win=False, meld_keep=0,
                                                 four_keep_min=2, hold_bezique_stock=0, exchange_seven=False,
                                                 meld_win_min=100, brisque_keep=1, trump_keep=9),
                "cautious": lambda: HeuristicPolicy(meld_win=False, brisque_win=False, hold_bezique=False,
                                                    lead_low=False),
                "exact": lambda: HeuristicPolicy(exact_endgame=True),
                "meldaware": lambda: HeuristicPolicy(meld_chance=50, meld_keep=2, lead_low=True)}[name]()
    if game == "piquet":
        from analysis.piquet.policies import HeuristicPolicy, RandomPolicy

        return {"heuristic": HeuristicPolicy, "random": RandomPolicy,
                "learned": lambda: HeuristicPolicy(exchange="learned"),
                "tuned": lambda: HeuristicPolicy(len_weight=2, point_bonus=3, sequence_bonus=10, set_bonus=4,
                                                 ace_bonus=0, guard_bonus=9, elder_keep=9, younger_keep=14,
                                                 track_cards=False)}[name]()
    from analysis.ecarte.policies import ChosenDiscards, HeuristicPolicy, RandomPolicy

    return {"heuristic": HeuristicPolicy, "random": RandomPolicy,
            "tuned": lambda: HeuristicPolicy(elder_play_threshold=7, dealer_refuse_threshold=12,
                                             keep_plain_min_rank=5, announce_king=False, lead_trumps=False),
            "table-elder": lambda: ChosenDiscards(HeuristicPolicy(elder_play_threshold=12), _random_discard_table(1)),
            "table-dealer": lambda: ChosenDiscards(HeuristicPolicy(dealer_refuse_threshold=14),
                                                   _random_discard_table(2)),
            "learned": lambda: HeuristicPolicy(leads="learned"),
            "reading-classic": lambda: HeuristicPolicy(leads="learned", reads="classic"),
            "reading-seed-de": lambda: HeuristicPolicy(leads="learned", reads="seed-de"),
            "learned-tuned": lambda: HeuristicPolicy(elder_play_threshold=7, dealer_refuse_threshold=12,
                                                     keep_plain_min_rank=5, announce_king=False, lead_trumps=False,
                                                     leads="learned")}[name]()


@cache
def rules_of(game: str, variant: str, switches: tuple[str, ...]):
    """The game's rules object."""
    from importlib import import_module

    return import_module(f"analysis.{game}.rules").get_rules(variant, list(switches) if switches else None)


def _arrays(case: Case):
    rules = rules_of(case.game, case.variant, case.switches)
    a, b = policy(case.game, case.a), policy(case.game, case.b)
    pa = a.to_array(force_first=case.force_first) if case.force_first >= 0 else a.to_array()
    return rules.to_array(), pa, b.to_array()


def kernel_rows(case: Case, start: int = 0, n: int | None = None) -> np.ndarray:
    """The kernel's int64 rows for the case's deals (games) start..start+n-1."""
    from importlib import import_module

    n = case.n - start if n is None else n
    args = (case.seed, start, n, *_arrays(case))
    if case.game == "ecarte" and case.kind == "deals":
        from analysis.ecarte.engine.layout import N_COMPARED
        from analysis.ecarte.play.hand import hand_outcomes

        return np.ascontiguousarray(hand_outcomes(*args)[:, :N_COMPARED])
    if case.kind == "deals":
        return import_module(f"analysis.{case.game}.play.deal").deal_outcomes(*args)
    if case.game == "piquet":
        return import_module("analysis.piquet.play.partie").partie_results(*args)
    return import_module(f"analysis.{case.game}.play.game").game_results(*args)


def reference_row(case: Case, i: int) -> list[int]:
    """The reference's outcome row of deal (game) i of the case."""
    rules = rules_of(case.game, case.variant, case.switches)
    a, b = policy(case.game, case.a), policy(case.game, case.b)
    if case.game == "ecarte":
        from analysis.ecarte.reference import hand as ref

        if case.kind == "games":
            res = ref.play_game(case.seed, i, rules, a, b)
            return [res.scores["A"], res.scores["B"], res.hands_played]
        return list(ref.play_hand(case.seed, i, rules, a, b, force_first=case.force_first).outcome_vector())
    if case.game == "piquet":
        from analysis.piquet.reference import deal as ref

        play = ref.play_deal if case.kind == "deals" else ref.play_partie
    else:
        from analysis.bezique.reference import deal as ref

        play = ref.play_deal if case.kind == "deals" else ref.play_game
    return list(play(case.seed, i, rules, a, b).outcome_vector())


def case_reference_rows(case: Case, start: int, n: int) -> np.ndarray:
    """The reference's int64 rows for the case's deals (games) start..start+n-1 (in this process)."""
    return np.array([reference_row(case, i) for i in range(start, start + n)], dtype=np.int64)


def field_names(case: Case) -> tuple[str, ...] | None:
    """The names of the outcome row's fields, where the kernel's layout names them."""
    from importlib import import_module

    layout = import_module(f"analysis.{case.game}.engine.layout")
    if case.kind == "deals":
        names = getattr(layout, "OUTCOME_FIELDS", None)
    else:
        names = getattr(layout, "PARTIE_OUTCOME_FIELDS", None) or getattr(layout, "GAME_OUTCOME_FIELDS", None)
    return tuple(names) if names is not None else None


# ---------------------------------------------------------------------------------------------
# Digests, sources, vectors
# ---------------------------------------------------------------------------------------------

def blocks(n: int) -> list[tuple[int, int]]:
    """(start, count) of each block of n deals."""
    return [(s, min(BLOCK, n - s)) for s in range(0, n, BLOCK)]


def digest(rows: np.ndarray) -> str:
    """The sha256 (first DIGEST_HEX hex digits) of a block's rows as little-endian int64, with its shape."""
    rows = np.ascontiguousarray(rows, dtype="<i8")
    h = hashlib.sha256(f"{rows.shape[0]}x{rows.shape[1]}:".encode())
    h.update(rows.tobytes())
    return h.hexdigest()[:DIGEST_HEX]


def inputs_digest(case: Case) -> str:
    """A sha256 of what the kernel is given for the case (rules and policy arrays)."""
    h = hashlib.sha256()
    for arr in _arrays(case):
        h.update(np.ascontiguousarray(arr, dtype="<i8").tobytes())
        h.update(b"|")
    return h.hexdigest()[:DIGEST_HEX]


def _module_file(root: Path, module: str) -> Path | None:
    rel = Path(*module.split("."))
    for f in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if f.exists():
            return f
    return None


def source_files(game: str) -> list[Path]:
    """The files the reference's outcomes depend on: the modules of the game's reference/ package
    (cards, the deal, scoring, policies, checks, ...), rules.py and
    policies.py, every module of the game package the reference imports (transitively), the
    game's shipped parameters (data/*.json but the rule ladders) and analysis/rng.py (the deal streams). Paths relative to the directory holding ``analysis``."""
    root = Path(analysis.__file__).resolve().parent.parent
    package = f"analysis.{game}"
    seen: set[Path] = set()
    todo = sorted(p for p in (root / "analysis" / game / "reference").glob("*.py") if p.name != "__init__.py")
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            modules = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            for m in modules:
                if m == package or m.startswith(package + "."):
                    target = _module_file(root, m)
                    if target is not None and target.name != "__init__.py":
                        todo.append(target)
    seen |= {root / "analysis" / game / "rules.py", root / "analysis" / game / "policies.py",
             root / "analysis" / "rng.py"}
    # The shipped parameters (the learned exchange's, the leads', the equilibrium's); not the rule
    # ladders, a study's output that no player reads.
    seen |= {p for p in (root / "analysis" / game).glob("data/*.json") if p.name not in STUDY_OUTPUTS}
    return sorted(p.relative_to(root) for p in seen)


def source_hashes(game: str) -> dict[str, str]:
    """sha256 of each source file the reference depends on (``source_files``)."""
    root = Path(analysis.__file__).resolve().parent.parent
    return {p.as_posix(): hashlib.sha256((root / p).read_bytes()).hexdigest() for p in source_files(game)}


def vectors_path(game: str) -> Path:
    return VECTORS / f"{game}.json"


@cache
def load_vectors(game: str) -> dict:
    """The game's golden vectors ({} when there are none)."""
    path = vectors_path(game)
    return json.loads(path.read_text()) if path.exists() else {}


def stale_message(game: str) -> str | None:
    """Why the game's vectors no longer describe the reference (None when they do)."""
    vec = load_vectors(game)
    if not vec:
        return f"{STALE} (no {vectors_path(game).name})"
    recorded, now = vec.get("sources", {}), source_hashes(game)
    changed = sorted(p for p in recorded.keys() | now.keys() if recorded.get(p) != now.get(p))
    if changed:
        return f"{STALE} (the reference's sources changed: {', '.join(changed)})"
    if vec.get("block") != BLOCK:
        return f"{STALE} (blocks of {vec.get('block')} deals recorded, {BLOCK} expected)"
    missing = [c.id for c in cases(game) if c.id not in vec["cases"] and not count_overridden(game)]
    if missing:
        return f"{STALE} (no vectors for {missing[0]}" + (f" and {len(missing) - 1} more)" if len(missing) > 1 else ")")
    changed = [c.id for c in cases(game) if c.id in vec["cases"] and vec["cases"][c.id]["inputs"] != inputs_digest(c)]
    if changed:
        return f"{STALE} (the kernel's inputs (rules or policy arrays) changed for {', '.join(changed)})"
    return None


def count_overridden(game: str) -> bool:
    """Whether the game's deal count is set by its environment variable."""
    return COUNT_VARIABLES[game] in os.environ


def vector_record(case: Case, digests: list[str]) -> dict:
    return {"n": case.n, "inputs": inputs_digest(case), "digests": digests}


# ---------------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------------

def first_difference(got: np.ndarray, want: np.ndarray, start: int, what: str,
                     fields: tuple[str, ...] | None = None) -> str | None:
    """A message naming the first deal whose rows differ and where, by field name when ``fields``
    names the row's columns, else by index (None when all agree)."""
    if got.shape != want.shape:
        return f"{what}: kernel rows {got.shape} != reference rows {want.shape}"
    for k in np.flatnonzero((got != want).any(axis=1))[:1]:
        row, ref = got[k].tolist(), want[k].tolist()
        at = [j for j in range(len(row)) if row[j] != ref[j]]
        where = [fields[j] if fields is not None and j < len(fields) else j for j in at]
        detail = ", ".join(f"{w}: kernel {row[j]} != reference {ref[j]}" for w, j in zip(where, at, strict=True))
        return f"deal {start + k} ({what}): differs at {where} ({detail}); kernel {row} != reference {ref}"
    return None


def check_case(case: Case, pool=None) -> np.ndarray:
    """Play every deal of the case through the kernel and compare it with the golden vectors (or,
    when the deal count is not the recorded one, with the live reference); returns the kernel's rows."""
    got = kernel_rows(case)
    rec = load_vectors(case.game).get("cases", {}).get(case.id)
    if rec is None or rec["n"] != case.n:
        assert count_overridden(case.game), f"{STALE} (no vectors for {case.describe()}, {case.n} deals)"
        want = reference_rows(pool, case, 0, case.n)
        message = first_difference(got, want, 0, case.describe(), field_names(case))
        assert message is None, message
        return got
    assert len(rec["digests"]) == len(blocks(case.n)), f"{STALE} (block count of {case.describe()})"
    for b, (start, n) in enumerate(blocks(case.n)):
        if digest(got[start:start + n]) != rec["digests"][b]:
            want = case_reference_rows(case, start, n)
            message = first_difference(got[start:start + n], want, start, case.describe(), field_names(case))
            assert message is not None, (f"{STALE} (block {b} of {case.describe()}: the live reference agrees "
                                         "with the kernel, not with the recorded digest)")
            raise AssertionError(message)
    return got


def run_seed() -> int:
    """The seed choosing this run's live sample (SALON_VECTOR_SEED, set per run by conftest.py)."""
    value = os.environ.get("SALON_VECTOR_SEED")
    return int(value) if value else int(time.time()) % 1_000_000


def live_sample(game: str, seed: int, k: int | None = None) -> list[tuple[Case, int]]:
    """k (case, block index) pairs of the game's vectors, drawn with ``seed``."""
    if k is None:
        k = int(os.environ.get("SALON_LIVE_BLOCKS", LIVE_BLOCKS[game]))
    every = [(c, b) for c in cases(game) for b in range(len(blocks(c.n)))]
    rng = random.Random(f"{game}:{seed}")
    return sorted(rng.sample(every, min(k, len(every))), key=lambda cb: (cb[0].id, cb[1]))


def check_live_block(case: Case, b: int, seed: int) -> None:
    """Replay block b of the case through the reference: its digest must be the recorded one, and
    the kernel's rows must equal its rows. A case with ``live_deals`` replays that many deals of the
    block, from an offset drawn with the seed: the reference must equal the kernel on them, and the
    kernel's whole block the recorded digest (so the reference equals the vectors on those deals)."""
    start, n = blocks(case.n)[b]
    rec = load_vectors(case.game)["cases"][case.id]
    repeat = f"SALON_VECTOR_SEED={seed} repeats this sample"
    got = kernel_rows(case, start, n)
    whole = not 0 < case.live_deals < n
    if not whole:
        assert digest(got) == rec["digests"][b], (
            f"the kernel differs from block {b} of {case.describe()} (the differential test names the deal)")
        offset = random.Random(f"{case.id}:{b}:{seed}").randrange(n - case.live_deals + 1)
        start, n, got = start + offset, case.live_deals, got[offset:offset + case.live_deals]
    want = case_reference_rows(case, start, n)
    message = first_difference(got, want, start, case.describe(), field_names(case))
    assert message is None, f"{message} ({repeat})"
    if whole:
        assert digest(want) == rec["digests"][b], (f"{STALE} (block {b} of {case.describe()}: the live reference's "
                                                   f"digest is not the recorded one; {repeat})")


# ---------------------------------------------------------------------------------------------
# The pool (live comparisons of deal counts that have no vectors, and scripts/make_vectors.py)
# ---------------------------------------------------------------------------------------------

def free_cores() -> int:
    """The cores the pytest-xdist workers leave free (at least one)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, (os.cpu_count() or 1) - workers)


def open_pool(processes: int | None = None) -> ProcessPoolExecutor:
    """Spawned worker processes (spawned, so they inherit no numba threads), by default one per free core."""
    return ProcessPoolExecutor(processes or free_cores(), mp_context=multiprocessing.get_context("spawn"))


def reference_rows(pool, case: Case, start: int, n: int) -> np.ndarray:
    """The reference's rows for deals start..start+n-1, in batches by the pool's workers (in order),
    or in this process when there is no pool."""
    if pool is None:
        return case_reference_rows(case, start, n)
    jobs = [pool.submit(case_reference_rows, case, s, min(BATCH, start + n - s)) for s in range(start, start + n, BATCH)]
    return np.concatenate([j.result() for j in jobs])

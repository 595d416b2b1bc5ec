"""Bezique decision rules: a parameterised heuristic and a uniformly random legal policy.

The dataclasses are the policies' parameters (validated, printable, hashable); ``to_array`` is what
a numba kernel will read. The reference implements both in plain Python
(docs/bezique-engine.md, "Policies"); the heuristic's parameters express the tips BZ-T1..T5.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.errors import InputError

# Slots of the policy array.
P_KIND = 0  # 0 heuristic, 1 random
P_MELD_WIN = 1
P_MELD_WIN_MIN = 2
P_BRISQUE_WIN = 3
P_GREEDY_WIN = 4
P_TRUMP_WIN = 5
P_TRUMP_KEEP = 6
P_BRISQUE_KEEP = 7
P_MELD_KEEP = 8
P_FOUR_KEEP_MIN = 9
P_LEAD_LOW = 10
P_HOLD_BEZIQUE = 11
P_HOLD_BEZIQUE_STOCK = 12
P_EXCHANGE_SEVEN = 13
P_EXACT_ENDGAME = 14
P_MELD_CHANCE = 15
N_POLICY_SLOTS = 16

KIND_HEURISTIC = 0
KIND_RANDOM = 1
KIND_SEARCH = 2
# Slots of the search player, after the heuristic's (its rollout policy).
P_SAMPLES = N_POLICY_SLOTS
P_ROLLOUT_EXACT = N_POLICY_SLOTS + 1
P_MARGIN = N_POLICY_SLOTS + 2
P_BEZIQUE_RULE = N_POLICY_SLOTS + 3
P_LEAD_RULE = N_POLICY_SLOTS + 4
P_MELD_RULE = N_POLICY_SLOTS + 5
N_SEARCH_SLOTS = N_POLICY_SLOTS + 6
BEZIQUE_RULES = ("search", "hold", "declare")
LEAD_RULES = ("search", "low", "high")
MELD_RULES = ("search", "at-once")

_FLAGS = ("meld_win", "brisque_win", "greedy_win", "trump_win", "lead_low", "hold_bezique",
          "exchange_seven", "exact_endgame")
_LIMITS = {"meld_win_min": (0, 1000), "trump_keep": (0, 100), "brisque_keep": (0, 100),
           "meld_keep": (0, 100), "four_keep_min": (2, 5), "hold_bezique_stock": (0, 47), "meld_chance": (0, 1000)}


@dataclass(frozen=True)
class HeuristicPolicy:
    """The rulebook-style player (docs/bezique-engine.md, "Heuristic policy").

    Winning a stock trick (BZ-T1): the follower tries to win when a meld worth at least
    ``meld_win_min`` is waiting (``meld_win``), when the card led is an ace or ten
    (``brisque_win``), or always (``greedy_win``); ``trump_win`` lets him trump for any of these
    reasons (0: trumps are spent only for a waiting meld, BZ-T4). Keeping cards: every card's keep
    value is its rank plus ``brisque_keep`` for aces and tens (BZ-T3), ``trump_keep`` for trumps
    (BZ-T4) and ``meld_keep`` for cards with a meld in view (BZ-T2: a marriage or bezique partner
    held, three of the five sequence cards held, or ``four_keep_min`` cards of a rank for fours);
    he leads (``lead_low``: BZ-T3, lure the brisques out) and throws the lowest-valued card.
    Melding: the most valuable legal meld, except that a single bezique is held while the double
    is still possible and the stock holds at least ``hold_bezique_stock`` cards
    (``hold_bezique``, BZ-T5). ``exchange_seven``: exchange the trump seven at the first chance.
    ``exact_endgame``: in the last eight tricks play the solved line (``players/solver.py``: the lowest of
    the optimal cards) instead of the end-phase rules of thumb. ``meld_chance``: in the stock phase
    add ``meld_chance`` / 100 times the points of the melds a card could still join, weighted by
    the chance of drawing what they lack (``players/meld_chance.py``), to its keep value.
    """

    meld_win: bool = True
    meld_win_min: int = 20
    brisque_win: bool = True
    greedy_win: bool = False
    trump_win: bool = True
    trump_keep: int = 4
    brisque_keep: int = 6
    meld_keep: int = 4
    four_keep_min: int = 3
    lead_low: bool = True
    hold_bezique: bool = True
    hold_bezique_stock: int = 10
    exchange_seven: bool = True
    exact_endgame: bool = False
    meld_chance: int = 0

    kind = "heuristic"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in _FLAGS:
                if value not in (True, False, 0, 1):
                    raise InputError(f"{f.name} must be true or false, not {value!r}")
                continue
            lo, hi = _LIMITS[f.name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise InputError(f"{f.name} must be a whole number from {lo} to {hi}, not {value!r}")

    def to_array(self) -> np.ndarray:
        """The parameters as the kernel's int64 array (slots P_*)."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_HEURISTIC
        a[P_MELD_WIN] = int(self.meld_win)
        a[P_MELD_WIN_MIN] = self.meld_win_min
        a[P_BRISQUE_WIN] = int(self.brisque_win)
        a[P_GREEDY_WIN] = int(self.greedy_win)
        a[P_TRUMP_WIN] = int(self.trump_win)
        a[P_TRUMP_KEEP] = self.trump_keep
        a[P_BRISQUE_KEEP] = self.brisque_keep
        a[P_MELD_KEEP] = self.meld_keep
        a[P_FOUR_KEEP_MIN] = self.four_keep_min
        a[P_LEAD_LOW] = int(self.lead_low)
        a[P_HOLD_BEZIQUE] = int(self.hold_bezique)
        a[P_HOLD_BEZIQUE_STOCK] = self.hold_bezique_stock
        a[P_EXCHANGE_SEVEN] = int(self.exchange_seven)
        a[P_EXACT_ENDGAME] = int(self.exact_endgame)
        a[P_MELD_CHANCE] = self.meld_chance
        return a

    def describe(self) -> dict:
        """Name and parameters, for outputs and provenance."""
        return {"kind": self.kind, **{k: (int(v) if isinstance(v, bool) else v)
                                      for k, v in dataclasses.asdict(self).items()}}


@dataclass(frozen=True)
class RandomPolicy:
    """Every decision uniformly at random among the legal ones (for tests and baselines)."""

    kind = "random"

    def to_array(self) -> np.ndarray:
        """The kernel's int64 array."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_RANDOM
        return a

    def describe(self) -> dict:
        """Name, for outputs and provenance."""
        return {"kind": self.kind}


TUNED = HeuristicPolicy(greedy_win=True, trump_win=False, trump_keep=2, brisque_keep=0, meld_keep=6,
                        four_keep_min=2, hold_bezique=False)
"""The heuristic tuned by ``scripts/tune_bezique.py`` (paired coordinate search under ``seed-de``,
60,000 deals per step, three rounds): it wins every trick it can with a card of the suit led,
trumps only for a waiting meld, keeps meld partners and declares a single bezique at once. It
beats the default rulebook-style settings by about 27.5 net points per deal and seat under both
variants (200,000 paired deals each). The Bezique tip studies vary it."""


@dataclass(frozen=True)
class SearchPolicy(HeuristicPolicy):
    """The search player of the stock phase (players/search.py): at each of its stock-phase
    decisions (a lead, a follow, a meld after a won trick) it draws ``samples`` layouts of the
    cards it cannot see (the opponent's hidden hand and the stock's order, uniformly among those
    consistent with what it has seen: its cards, both tables, the cards played, the turn-up and a
    seven exchanged for it), plays every candidate on each layout to the end of the deal with its
    heuristic parameters for both players (the exact end game in the rollouts when
    ``rollout_exact``: about 20 times slower per rollout, and at 8 samples worth only +3 points a
    deal, so the default spends the time on samples instead) and takes the candidate with the best total (its points minus the
    opponent's), but only where that candidate beats the heuristic's own choice by more than
    ``margin`` / 100 standard errors of their paired difference over the samples (otherwise it
    keeps the heuristic's choice: a few noisy rollouts must not overrule it). In the end phase it
    plays the exact end game. The heuristic parameters are ``tuned``'s unless overridden.
    ``bezique_rule`` (BZ-T5): ``search`` lets the search choose whether to lay a single bezique;
    ``hold`` never lays it while the double is possible and the stock holds at least
    ``hold_bezique_stock`` cards; ``declare`` lays it whenever it is legal (unless the double is).
    ``lead_rule`` (a playing rule for its stock leads): ``search`` leads by search; ``low`` leads
    as the heuristic with ``lead_low`` (the lowest card it can spare by its keep values), ``high``
    the highest plain card (a trump only with no plain card). ``meld_rule``: ``search`` melds by
    search; ``at-once`` lays the heuristic's best meld whenever it may. Either rule changes the
    player's own decisions only: its rollouts play on as before."""

    samples: int = 128
    rollout_exact: bool = False
    margin: int = 100
    bezique_rule: str = "search"
    lead_rule: str = "search"
    meld_rule: str = "search"
    exact_endgame: bool = True
    greedy_win: bool = True
    trump_win: bool = False
    trump_keep: int = 2
    brisque_keep: int = 0
    meld_keep: int = 6
    four_keep_min: int = 2
    hold_bezique: bool = False

    kind = "search"

    def __post_init__(self) -> None:
        _heuristic_part(self)  # validates the heuristic's parameters
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or not 1 <= self.samples <= 1000:
            raise InputError(f"samples must be a whole number from 1 to 1000, not {self.samples!r}")
        if self.rollout_exact not in (True, False, 0, 1):
            raise InputError(f"rollout_exact must be true or false, not {self.rollout_exact!r}")
        if isinstance(self.margin, bool) or not isinstance(self.margin, int) or not 0 <= self.margin <= 1000:
            raise InputError(f"margin must be a whole number from 0 to 1000, not {self.margin!r}")
        if self.bezique_rule not in BEZIQUE_RULES:
            raise InputError(f"bezique_rule must be one of {', '.join(BEZIQUE_RULES)}, not {self.bezique_rule!r}")
        if self.lead_rule not in LEAD_RULES:
            raise InputError(f"lead_rule must be one of {', '.join(LEAD_RULES)}, not {self.lead_rule!r}")
        if self.meld_rule not in MELD_RULES:
            raise InputError(f"meld_rule must be one of {', '.join(MELD_RULES)}, not {self.meld_rule!r}")

    def to_array(self) -> np.ndarray:
        """The heuristic's slots (its rollout policy), then the search's."""
        a = np.zeros(N_SEARCH_SLOTS, dtype=np.int64)
        a[:N_POLICY_SLOTS] = _heuristic_part(self).to_array()
        a[P_KIND] = KIND_SEARCH
        a[P_SAMPLES] = self.samples
        a[P_ROLLOUT_EXACT] = int(self.rollout_exact)
        a[P_MARGIN] = self.margin
        a[P_BEZIQUE_RULE] = BEZIQUE_RULES.index(self.bezique_rule)
        a[P_LEAD_RULE] = LEAD_RULES.index(self.lead_rule)
        a[P_MELD_RULE] = MELD_RULES.index(self.meld_rule)
        return a

    def describe(self) -> dict:
        """Name and parameters; the lead and meld rules only when set (the search's own choice
        otherwise), so the player's description is what it was before they existed."""
        d = super().describe()
        for k in ("lead_rule", "meld_rule"):
            if d[k] == "search":
                del d[k]
        return d


def _heuristic_part(p: HeuristicPolicy) -> HeuristicPolicy:
    """The heuristic parameters of a policy (a search player's rollout policy)."""
    return HeuristicPolicy(**{f.name: getattr(p, f.name) for f in dataclasses.fields(HeuristicPolicy)})


SEARCH = SearchPolicy()
TUNED_EXACT = dataclasses.replace(TUNED, exact_endgame=True, meld_chance=5)
"""``tuned-exact``: ``tuned`` with the exact end game (+10.0 points per deal and seat against
tuned) and a small meld-aware keep value (``meld_chance`` 5, chosen with meld_keep on one seed by
scripts/check_meld_chance.py and checked on others: +0.17 [-0.38, +0.72] under seed-de, +1.10
[+0.54, +1.66] under classic; larger weights lose, the record is scripts/records/)."""


def get_policy(name: str = "heuristic", overrides: dict[str, str] | list[str] | None = None):
    """A policy by name (``heuristic``, ``random``, ``tuned``, the heuristic found by
    scripts/tune_bezique.py, ``tuned-exact`` or ``search``) with parameters overridden
    (``key=value``)."""
    from analysis.variants import pick_policy

    return pick_policy(name, overrides, HeuristicPolicy(), RandomPolicy(),
                       {"tuned": TUNED, "tuned-exact": TUNED_EXACT, "search": SEARCH})

"""Piquet decision rules: parameterised heuristic and uniformly random policies.

The dataclasses are the policies' parameters (validated, printable, hashable); ``to_array`` is what
the numba kernel reads. The numba decision functions live in ``kernel.py`` beside the engine they
serve; the reference implements the same rules in plain Python (docs/piquet-engine.md, "Policies").
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.errors import InputError
from analysis.piquet.learned_choice import MODEL_SIZE
from analysis.piquet.learned_exchange import N_MODELS

# Slots of the policy array.
P_KIND = 0  # 0 heuristic, 1 random
P_LEN_WEIGHT = 1
P_POINT_BONUS = 2
P_SEQUENCE_BONUS = 3
P_SET_BONUS = 4
P_ACE_BONUS = 5
P_GUARD_BONUS = 6
P_ELDER_KEEP = 7
P_YOUNGER_KEEP = 8
P_TRACK_CARDS = 9
# A forced discard, used by studies that compare exchanges on the same deals: P_FORCE_DISCARD is
# 1 when the mask in P_FORCE_MASK is this player's discard (it must be legal), 0 when the policy
# decides.
P_FORCE_DISCARD = 10
P_FORCE_MASK = 11
# A forced number of cards to exchange (the policy still chooses which): -1 when the policy decides.
P_FORCE_COUNT = 12
# The exchange: 0 the keep values above, 1 the learned exchange (analysis.piquet.learned_choice), 2 its
# ordering alone (learned-fast); their integer weights follow in P_LEARNED: seat (elder, younger),
# then model, MODEL_SIZE each.
P_EXCHANGE = 13
P_LEARNED = 14
N_POLICY_SLOTS = P_LEARNED + 2 * N_MODELS * MODEL_SIZE

EXCHANGES = ("keep", "learned", "learned-fast")

KIND_HEURISTIC = 0
KIND_RANDOM = 1


@dataclass(frozen=True)
class HeuristicPolicy:
    """The rulebook-style player (docs/piquet-engine.md, "Heuristic policy").

    Exchange: each card gets a keep value (its rank, plus ``len_weight`` per card of its suit,
    plus bonuses when it is in the point suit, a sequence, a set, an ace, or, for younger, a guard
    of a king or queen); the cards valued below ``elder_keep`` / ``younger_keep`` are thrown,
    as many as the rules allow, lowest value first. Declarations are made in full. Play: lead the
    master card of the longest suit holding one, else the lowest card of the longest suit; follow
    by winning as cheaply as possible, else play low; void, throw the lowest card (shortest suit on ties).
    ``track_cards`` remembers the cards seen (own discards, seen talon cards, cards played, the
    opponent's voids) when judging what is master. ``exchange="learned"`` replaces the keep values
    by the exchange fitted to the discard analyser (analysis.piquet.learned_choice; the ``learned``
    policy), ``exchange="learned-fast"`` by its ordering alone (the ``learned-fast`` policy); the other
    exchange parameters are then unused.
    """

    len_weight: int = 1
    point_bonus: int = 6
    sequence_bonus: int = 8
    set_bonus: int = 8
    ace_bonus: int = 4
    guard_bonus: int = 4
    elder_keep: int = 12
    younger_keep: int = 9
    track_cards: bool = True
    exchange: str = "keep"

    kind = "heuristic"

    def __post_init__(self) -> None:
        if self.exchange not in EXCHANGES:
            raise InputError(f"exchange must be one of {', '.join(EXCHANGES)}, not {self.exchange!r}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name not in ("track_cards", "exchange", "partie") and not 0 <= value <= 100:
                raise InputError(f"{f.name} must be between 0 and 100, not {value}")

    def to_array(self, force_discard: int | None = None, force_count: int | None = None) -> np.ndarray:
        """The parameters as the kernel's int64 array (``force_discard``: a discard mask;
        ``force_count``: the number of cards to exchange)."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_HEURISTIC
        a[P_LEN_WEIGHT] = self.len_weight
        a[P_POINT_BONUS] = self.point_bonus
        a[P_SEQUENCE_BONUS] = self.sequence_bonus
        a[P_SET_BONUS] = self.set_bonus
        a[P_ACE_BONUS] = self.ace_bonus
        a[P_GUARD_BONUS] = self.guard_bonus
        a[P_ELDER_KEEP] = self.elder_keep
        a[P_YOUNGER_KEEP] = self.younger_keep
        a[P_TRACK_CARDS] = int(self.track_cards)
        if self.exchange != "keep":
            from analysis.piquet.learned_fit import load_weights

            a[P_EXCHANGE] = EXCHANGES.index(self.exchange)
            a[P_LEARNED:N_POLICY_SLOTS] = load_weights().ravel()
        _force(a, force_discard, force_count)
        return a

    def describe(self) -> dict:
        """Name and parameters, for outputs and provenance."""
        return {"kind": self.kind, **dataclasses.asdict(self)}


@dataclass(frozen=True)
class RandomPolicy:
    """Every decision uniformly at random among the legal ones (for tests)."""

    kind = "random"

    def to_array(self, force_discard: int | None = None, force_count: int | None = None) -> np.ndarray:
        """The kernel's int64 array."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_RANDOM
        _force(a, force_discard, force_count)
        return a

    def describe(self) -> dict:
        """Name, for outputs and provenance."""
        return {"kind": self.kind}


def _force(a: np.ndarray, force_discard: int | None, force_count: int | None) -> None:
    a[P_FORCE_COUNT] = -1 if force_count is None else force_count
    if force_discard is not None:
        a[P_FORCE_DISCARD] = 1
        a[P_FORCE_MASK] = force_discard


def get_policy(name: str = "heuristic", overrides: dict[str, str] | list[str] | None = None):
    """A policy by name (``heuristic``, ``random``, ``learned`` (the heuristic with the learned
    exchange), or the solver's players ``dd`` and ``search``, analysis.piquet.strong_policies) with
    parameters overridden (``key=value``; ``exchange=learned`` gives dd or search the learned exchange)."""
    from analysis.piquet.strong_policies import DoubleDummyPolicy, SearchPolicy
    from analysis.variants import pick_policy

    return pick_policy(name, overrides, HeuristicPolicy(), RandomPolicy(),
                       {"dd": DoubleDummyPolicy(), "search": SearchPolicy(),
                        "learned": HeuristicPolicy(exchange="learned"),
                        "learned-fast": HeuristicPolicy(exchange="learned-fast")})

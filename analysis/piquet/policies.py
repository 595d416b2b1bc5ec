"""Piquet decision rules: the parameterised heuristic, the uniformly random policy, and the solver's
players ``dd`` (who sees every card: a bound on trick play, not a legal player) and ``search`` (who
samples the hidden hand consistently with what he knows and plays the card with the best total
over the samples). ``dd`` and ``search`` exchange and declare as the heuristic does, so a
comparison with the heuristic measures trick play alone.

The dataclasses are the policies' parameters (validated, printable, hashable); ``to_array`` is what
the numba kernels read (players/heuristic.py, players/search.py); the reference implements the same
rules in plain Python (docs/piquet-engine.md, "Policies").
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.errors import InputError
from analysis.piquet.players.learned import MODEL_SIZE
from analysis.piquet.players.learned_features import N_MODELS

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
# The exchange: 0 the keep values above, 1 the learned exchange (analysis.piquet.players.learned), 2 its
# ordering alone (learned-ordering); their integer weights follow in P_LEARNED: seat (elder, younger),
# then model, MODEL_SIZE each.
P_EXCHANGE = 13
P_LEARNED = 14
N_POLICY_SLOTS = P_LEARNED + 2 * N_MODELS * MODEL_SIZE

EXCHANGES = ("keep", "learned", "learned-ordering")

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
    by the exchange fitted to the discard analyser (analysis.piquet.players.learned; the ``learned``
    policy), ``exchange="learned-ordering"`` by its ordering alone (the ``learned-ordering`` policy); the other
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
        check_exchange(self)
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
            from analysis.piquet.players.learned import load_weights

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
    exchange), or the solver's players ``dd`` and ``search``) with
    parameters overridden (``key=value``; ``exchange=learned`` gives dd or search the learned exchange)."""
    from analysis.variants import pick_policy

    return pick_policy(name, overrides, HeuristicPolicy(), RandomPolicy(),
                       {"dd": DoubleDummyPolicy(), "search": SearchPolicy(),
                        "learned": HeuristicPolicy(exchange="learned"),
                        "learned-ordering": HeuristicPolicy(exchange="learned-ordering")})


# ------------------------------------------------------------------- the solver's players
KIND_DD = 2
KIND_SEARCH = 3
P_SAMPLES = N_POLICY_SLOTS
P_PLAY_FOR_PIQUE = N_POLICY_SLOTS + 1
"""1: the solver's values include a pique still to be made (PQ-PIQUE); 0: the player ignores it
when choosing (it is still scored). PQ-T6 compares the two."""
P_PARTIE = N_POLICY_SLOTS + 2
"""In the deciding deals of a partie (the last planned deal and any tie deal): 0 the player still
plays for the deal's points; 1 for the partie's margin (PQ-RUBICON); 2 for winning the partie
(players/search.partie_values; docs/piquet-engine.md, "Playing for the partie")."""
N_STRONG_SLOTS = N_POLICY_SLOTS + 3
PARTIE_OBJECTIVES = ("deal", "margin", "win")
MAX_SAMPLES = 10_000


@dataclass(frozen=True)
class DoubleDummyPolicy(HeuristicPolicy):
    """Open hands: plays the solver's best card with both hands known (ties: the lowest card);
    exchanges and declares as the heuristic with these parameters. ``play_for_pique``: count a
    pique still to be made when choosing."""

    play_for_pique: bool = True
    partie: str = "deal"

    kind = "dd"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_partie(self.partie)

    def to_array(self, force_discard: int | None = None, force_count: int | None = None) -> np.ndarray:
        """The heuristic's array, kind KIND_DD."""
        a = np.zeros(N_STRONG_SLOTS, dtype=np.int64)
        a[:N_POLICY_SLOTS] = super().to_array(force_discard, force_count)
        a[P_KIND] = KIND_DD
        a[P_PLAY_FOR_PIQUE] = int(self.play_for_pique)
        a[P_PARTIE] = PARTIE_OBJECTIVES.index(self.partie)
        return a


@dataclass(frozen=True)
class SearchPolicy(HeuristicPolicy):
    """Perfect-information Monte Carlo: at each card, ``samples`` hidden hands drawn uniformly among
    those consistent with what this player knows (by rejection), each solved double dummy; plays
    the card with the best total (ties: the lowest card). Exchanges and declares as the heuristic.
    ``play_for_pique``: count a pique still to be made when choosing."""

    samples: int = 20
    play_for_pique: bool = True
    partie: str = "deal"

    kind = "search"

    def __post_init__(self) -> None:
        check_exchange(self)
        check_partie(self.partie)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "samples":
                if not 1 <= value <= MAX_SAMPLES:
                    raise InputError(f"samples must be between 1 and {MAX_SAMPLES}, not {value}")
            elif f.name not in ("track_cards", "play_for_pique", "exchange", "partie") and not 0 <= value <= 100:
                raise InputError(f"{f.name} must be between 0 and 100, not {value}")

    def to_array(self, force_discard: int | None = None, force_count: int | None = None) -> np.ndarray:
        """The heuristic's array, kind KIND_SEARCH, samples in P_SAMPLES."""
        a = np.zeros(N_STRONG_SLOTS, dtype=np.int64)
        a[:N_POLICY_SLOTS] = super().to_array(force_discard, force_count)
        a[P_KIND] = KIND_SEARCH
        a[P_SAMPLES] = self.samples
        a[P_PLAY_FOR_PIQUE] = int(self.play_for_pique)
        a[P_PARTIE] = PARTIE_OBJECTIVES.index(self.partie)
        return a


def check_exchange(policy: HeuristicPolicy) -> None:
    """The policy's ``exchange`` under its current name (an old name is renamed, with a one-line
    notice), or an input error naming the valid ones."""
    if policy.exchange == "learned-fast":  # the old name of learned-ordering
        from analysis.variants import current_name

        object.__setattr__(policy, "exchange", current_name(policy.exchange, "exchange"))
    if policy.exchange not in EXCHANGES:
        raise InputError(f"exchange must be one of {', '.join(EXCHANGES)}, not {policy.exchange!r}")


def check_partie(partie: str) -> None:
    """``partie`` must name an objective of PARTIE_OBJECTIVES."""
    if partie not in PARTIE_OBJECTIVES:
        raise InputError(f"partie must be one of {', '.join(PARTIE_OBJECTIVES)}, not {partie!r}")


def deals_per_chunk(default: int, *policies) -> int:
    """Deals per chunk of a run: small for the solver's players (a chunk is one thread's unit of
    work and of progress; ``search`` plays about 100 deals a second), else ``default``."""
    kinds = {p.kind for p in policies}
    if "search" in kinds:
        return 32
    return 512 if "dd" in kinds else default

"""Piquet players built on the double-dummy solver (analysis.piquet.solver): ``dd``, who sees every
card (a bound on trick play, not a legal player), and ``search``, who samples the hidden hand
consistently with what he knows and plays the card with the best total over the samples (PIMC).

Both exchange and declare as the heuristic does (their parameters are the heuristic's, the
learned exchange with ``exchange=learned``), so a comparison with the heuristic measures trick play alone. Their arrays extend the heuristic's: the
kind in P_KIND and, for ``search``, the number of samples in P_SAMPLES. They live apart from
policies.py because the reference's heuristic and random outcomes (the golden vectors) do not
depend on them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.errors import InputError
from analysis.piquet.policies import EXCHANGES, N_POLICY_SLOTS, P_KIND, HeuristicPolicy

KIND_DD = 2
KIND_SEARCH = 3
P_SAMPLES = N_POLICY_SLOTS
P_PLAY_FOR_PIQUE = N_POLICY_SLOTS + 1
"""1: the solver's values include a pique still to be made (PQ-PIQUE); 0: the player ignores it
when choosing (it is still scored). PQ-T6 compares the two."""
P_PARTIE = N_POLICY_SLOTS + 2
"""In the deciding deals of a partie (the last planned deal and any tie deal): 0 the player still
plays for the deal's points; 1 for the partie's margin (PQ-RUBICON); 2 for winning the partie
(strong_play.partie_values; docs/piquet-engine.md, "Playing for the partie")."""
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
        if self.exchange not in EXCHANGES:
            raise InputError(f"exchange must be one of {', '.join(EXCHANGES)}, not {self.exchange!r}")
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

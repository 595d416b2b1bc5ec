"""The Écarté variants of RULES.md as frozen, validated dataclasses, and their int-array form."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.cards import CardCodec
from analysis.errors import InputError

# Positions of the switches in the int64 array handed to kernels.
R_DEALER_MIN_DISCARD = 0
R_MUST_TRUMP_WHEN_VOID = 1
R_TARGET = 2
R_PENALTY_POINT = 3
R_PENALTY_VOLE = 4
R_REFUSAL_PENALISES_DEALER = 5
R_REFUSAL_PENALTY_FIRST_ONLY = 6
N_RULE_SLOTS = 7

TARGETS = (3, 5, 7, 11)


@dataclass(frozen=True)
class EcarteRules:
    """One complete bundle of Écarté switches (RULES.md, Écarté section).

    - ``dealer_min_discard`` (EC-DEALER-MIN): least number of cards the dealer must exchange after
      accepting (1, or 0 where the switch allows standing pat).
    - ``must_trump_when_void`` (EC-FOLLOW): a player void in the suit led must trump if able.
    - ``target`` (EC-GAME): points to win a game.
    - ``penalty_point`` / ``penalty_vole`` (EC-PENALTY): what the penalised side's opponent scores
      for the point / the vole instead of 1 / 2.
    - ``refusal_penalises`` (EC-PENALTY): after a refusal, ``"elder"`` is penalised for taking
      fewer than 3 tricks (seed-de), or ``"dealer"`` is (classic).
    - ``refusal_penalty_first_only``: the refusal penalty applies only to a refusal of the first
      proposal of the hand (classic) or to any refusal (seed-de).

    Playing without proposing (penalised in both variants) means elder plays his dealt hand without
    ever proposing; ending the exchanges after one or more rounds is not penalised.
    """

    name: str = "seed-de"
    dealer_min_discard: int = 1
    must_trump_when_void: bool = True
    target: int = 5
    penalty_point: int = 2
    penalty_vole: int = 3
    refusal_penalises: str = "elder"
    refusal_penalty_first_only: bool = False

    def __post_init__(self) -> None:
        if self.dealer_min_discard not in (0, 1):
            raise InputError(f"dealer_min_discard must be 0 or 1, not {self.dealer_min_discard}")
        if self.target not in TARGETS:
            raise InputError(f"target must be one of {', '.join(map(str, TARGETS))}, not {self.target}")
        for key in ("penalty_point", "penalty_vole"):
            value = getattr(self, key)
            if not 1 <= value <= 4:
                raise InputError(f"{key} must be between 1 and 4, not {value}")
        if self.refusal_penalises not in ("elder", "dealer"):
            raise InputError(f"refusal_penalises must be 'elder' or 'dealer', not {self.refusal_penalises!r}")

    def to_array(self) -> np.ndarray:
        """The switches as the int64 array the kernels read (slots R_*)."""
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_DEALER_MIN_DISCARD] = self.dealer_min_discard
        a[R_MUST_TRUMP_WHEN_VOID] = int(self.must_trump_when_void)
        a[R_TARGET] = self.target
        a[R_PENALTY_POINT] = self.penalty_point
        a[R_PENALTY_VOLE] = self.penalty_vole
        a[R_REFUSAL_PENALISES_DEALER] = int(self.refusal_penalises == "dealer")
        a[R_REFUSAL_PENALTY_FIRST_ONLY] = int(self.refusal_penalty_first_only)
        return a

    def switches(self) -> dict:
        """Every switch and its value (the name excluded), for outputs and provenance."""
        d = dataclasses.asdict(self)
        d.pop("name")
        return d


VARIANTS: dict[str, EcarteRules] = {
    "seed-de": EcarteRules(name="seed-de"),
    "classic": EcarteRules(
        name="classic", penalty_point=2, penalty_vole=2,
        refusal_penalises="dealer", refusal_penalty_first_only=True,
    ),
}


def get_rules(name: str = "seed-de", overrides: dict[str, str] | list[str] | None = None) -> EcarteRules:
    """The variant ``name`` with switches overridden (``{"key": "value"}`` or ``["key=value"]``)."""
    from analysis.variants import apply_overrides, pick_variant

    base = pick_variant(VARIANTS, name, "Écarté")
    return apply_overrides(base, overrides)


# Card codes (EC-DECK): code = 8 * suit + rank index in Écarté order, low to high.
ECARTE_RANKS = ("7", "8", "9", "10", "A", "J", "Q", "K")
KING = 7
CODEC = CardCodec(ECARTE_RANKS)
"""The Écarté codes (0..31) of :class:`analysis.cards.Card`; the names below are its methods."""

code_of = CODEC.code_of  # Card -> code
card_of = CODEC.card_of  # code -> Card
mask_of = CODEC.mask_of  # cards -> 32-bit hand mask
codes_of_mask = CODEC.codes_of_mask  # mask -> codes, ascending
name_of = CODEC.name_of  # code -> "KH" (or "K♥" with symbols=True)

"""The Piquet variants of docs/rules.md as frozen, validated dataclasses, and their int-array form."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.cards import CardCodec
from analysis.errors import InputError

# Positions of the switches in the int64 array handed to kernels.
R_YOUNGER_MIN = 0
R_YOUNGER_TAKES_LEFTOVERS = 1
R_LEAD_POINTS_EVERY_TRICK = 2
R_CARTE_BLANCHE = 3
R_REPIQUE = 4
R_PIQUE = 5
R_LAST_TRICK = 6
R_CARDS_BONUS = 7
R_CAPOT = 8
R_PARTIE_DEALS = 9
R_TIE_EXTRA_DEALS = 10
R_RUBICON = 11
R_RUBICON_BONUS = 12
N_RULE_SLOTS = 13

FIRST_DEALER = ("lower_cut", "higher_cut", "random")
TRICK_SCORING = ("lead_and_win_against", "first_lead_and_wins")


@dataclass(frozen=True)
class PiquetRules:
    """One complete bundle of Piquet switches (docs/rules.md, Piquet section).

    - ``first_dealer`` (PQ-FIRST): who deals first in a partie. Simulations treat the cut as a
      fair coin, drawn per partie from its own stream (``reference.deal.first_dealer``), so this switch
      is recorded but does not change numbers.
    - ``younger_carte_blanche_after_elder_exchange`` (PQ-CB): younger announces carte blanche after
      elder's exchange (seed-no, cavendish) or at once (seed-de). Both are judged on the dealt
      hands and scored first; the timing is information only.
    - ``younger_min`` (PQ-EX-Y): least number of cards younger must take (cavendish: 1).
    - ``younger_takes_leftovers`` (PQ-EX-Y): younger may take the cards elder left, which come
      first (seed-no, cavendish), or only the bottom three (seed-de).
    - ``trick_scoring`` (PQ-TRICK): ``lead_and_win_against`` (+1 to the leader for every lead and
      +1 to the winner of a trick the opponent led: seed-de, cavendish) or
      ``first_lead_and_wins`` (elder +1 for the first lead only, +1 for every trick won: seed-no).
    - ``carte_blanche``, ``repique``, ``pique``, ``last_trick``, ``cards_bonus``, ``capot``: points.
    - ``partie_deals``, ``tie_extra_deals`` (PQ-PARTIE, PQ-TIE): deals in a partie, and extra deals
      played when the scores are equal after them (then the partie is drawn).
    - ``rubicon``, ``rubicon_bonus`` (PQ-RUBICON): the loser's threshold and the winner's bonus.
    """

    name: str = "seed-de"
    first_dealer: str = "lower_cut"
    younger_carte_blanche_after_elder_exchange: bool = False
    younger_min: int = 0
    younger_takes_leftovers: bool = False
    trick_scoring: str = "lead_and_win_against"
    carte_blanche: int = 10
    repique: int = 60
    pique: int = 30
    last_trick: int = 1
    cards_bonus: int = 10
    capot: int = 40
    partie_deals: int = 6
    tie_extra_deals: int = 2
    rubicon: int = 100
    rubicon_bonus: int = 100

    def __post_init__(self) -> None:
        if self.first_dealer not in FIRST_DEALER:
            raise InputError(f"first_dealer must be one of {', '.join(FIRST_DEALER)}, not {self.first_dealer!r}")
        if self.trick_scoring not in TRICK_SCORING:
            raise InputError(
                f"trick_scoring must be one of {', '.join(TRICK_SCORING)}, not {self.trick_scoring!r}")
        if self.younger_min not in (0, 1):
            raise InputError(f"younger_min must be 0 or 1, not {self.younger_min}")
        for key in ("carte_blanche", "repique", "pique", "last_trick", "cards_bonus", "capot",
                    "rubicon", "rubicon_bonus"):
            least = 1 if key in ("repique", "pique") else 0
            if not least <= getattr(self, key) <= 1000:
                raise InputError(f"{key} must be between {least} and 1000, not {getattr(self, key)}")
        if self.partie_deals < 2 or self.partie_deals % 2 or self.partie_deals > 20:
            raise InputError(f"partie_deals must be an even number from 2 to 20, not {self.partie_deals}")
        if self.tie_extra_deals < 0 or self.tie_extra_deals % 2 or self.tie_extra_deals > 4:
            raise InputError(f"tie_extra_deals must be 0, 2 or 4, not {self.tie_extra_deals}")

    def younger_bounds(self, elder_took: int) -> tuple[int, int]:
        """Least and most cards younger may take after elder took ``elder_took`` (PQ-EX-Y)."""
        most = 8 - elder_took if self.younger_takes_leftovers else 3
        return self.younger_min, most

    def to_array(self) -> np.ndarray:
        """The switches as the int64 array the kernels read (slots R_*)."""
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_YOUNGER_MIN] = self.younger_min
        a[R_YOUNGER_TAKES_LEFTOVERS] = int(self.younger_takes_leftovers)
        a[R_LEAD_POINTS_EVERY_TRICK] = int(self.trick_scoring == "lead_and_win_against")
        a[R_CARTE_BLANCHE] = self.carte_blanche
        a[R_REPIQUE] = self.repique
        a[R_PIQUE] = self.pique
        a[R_LAST_TRICK] = self.last_trick
        a[R_CARDS_BONUS] = self.cards_bonus
        a[R_CAPOT] = self.capot
        a[R_PARTIE_DEALS] = self.partie_deals
        a[R_TIE_EXTRA_DEALS] = self.tie_extra_deals
        a[R_RUBICON] = self.rubicon
        a[R_RUBICON_BONUS] = self.rubicon_bonus
        return a

    def switches(self) -> dict:
        """Every switch and its value (the name excluded), for outputs and provenance."""
        d = dataclasses.asdict(self)
        d.pop("name")
        return d


VARIANTS: dict[str, PiquetRules] = {
    "seed-de": PiquetRules(name="seed-de"),
    "seed-no": PiquetRules(
        name="seed-no", first_dealer="higher_cut", younger_carte_blanche_after_elder_exchange=True,
        younger_takes_leftovers=True, trick_scoring="first_lead_and_wins",
    ),
    "cavendish": PiquetRules(
        name="cavendish", first_dealer="random", younger_carte_blanche_after_elder_exchange=True,
        younger_min=1, younger_takes_leftovers=True,
    ),
}


def get_rules(name: str = "seed-de", overrides: dict[str, str] | list[str] | None = None) -> PiquetRules:
    """The variant ``name`` with switches overridden (``{"key": "value"}`` or ``["key=value"]``)."""
    from analysis.variants import apply_overrides, pick_variant

    base = pick_variant(VARIANTS, name, "Piquet")
    return apply_overrides(base, overrides)


# Card codes (PQ-DECK): code = 8 * suit + rank index, ranks 7 8 9 10 J Q K A = 0..7, so a higher
# card of a suit is a higher bit; this is the natural order of analysis.cards.
RANK_NAMES = ("7", "8", "9", "10", "J", "Q", "K", "A")
POINT_VALUES = (7, 8, 9, 10, 10, 10, 10, 11)
SEQUENCE_SCORES = (0, 0, 0, 3, 4, 15, 16, 17, 18)
TEN = 3  # lowest rank index that forms sets (PQ-SET)


CODEC = CardCodec(RANK_NAMES)
"""The Piquet codes (0..31) of :class:`analysis.cards.Card`; the names below are its methods."""

code_of = CODEC.code_of  # Card -> code
card_of = CODEC.card_of  # code -> Card
mask_of = CODEC.mask_of  # cards -> 32-bit hand mask
codes_of_mask = CODEC.codes_of_mask  # mask -> codes, ascending
name_of = CODEC.name_of  # code -> "KH" (or "K♥" with symbols=True)

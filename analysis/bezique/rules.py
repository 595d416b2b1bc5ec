"""The Bezique variants of RULES.md as frozen, validated dataclasses, their int-array form, and
the card codes of the 64-card pack."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.cards import CardCodec
from analysis.errors import InputError

# Positions of the switches in the int64 array handed to kernels.
R_REUSE_EITHER_ORDER = 0
R_DOUBLE_AFTER_SINGLE = 1
R_END_MUST_WIN = 2
R_LAST_TRICK = 3
R_LAST_TRICK_AT = 4
R_TARGET = 5
R_SEVEN_POINTS = 6
R_BRISQUE = 7
R_MARRIAGE = 8
R_ROYAL_MARRIAGE = 9
R_SEQUENCE = 10
R_BEZIQUE = 11
R_DOUBLE_BEZIQUE = 12
R_FOUR_ACES = 13
R_FOUR_KINGS = 14
R_FOUR_QUEENS = 15
R_FOUR_JACKS = 16
N_RULE_SLOTS = 17

REUSE = ("either_order", "marriage_first")
TARGETS = (500, 1000, 1500)
LAST_TRICK_AT = (32, 24)
VALUE_KEYS = ("marriage", "royal_marriage", "sequence", "bezique", "double_bezique",
              "four_aces", "four_kings", "four_queens", "four_jacks")


@dataclass(frozen=True)
class BeziqueRules:
    """One complete bundle of Bezique switches (RULES.md, Bezique section).

    - ``reuse`` (BZ-REUSE): ``"either_order"`` (seed-de: royal marriage and trump sequence both
      score, in either order, in separate turns; a royal marriage may be formed from the K and Q
      of a sequence already on the table) or ``"marriage_first"`` (classic: royal marriage then
      sequence only).
    - ``double_bezique_after_single`` (BZ-DOUBLE): a double bezique may use the two cards of a
      single bezique still on the table (classic, 40 + 500), or all four cards must be new to the
      bezique class (seed-de).
    - ``end_must_win`` (BZ-END): in the end phase the follower must also win the trick if able
      (classic) or only follow suit, else trump (seed-de).
    - ``last_trick`` (BZ-LAST): points for the last trick (10); ``last_trick_at``: which trick
      carries them, 32 (the last of the deal) or 24 (the last of the stock phase).
    - ``target`` (BZ-GAME): points to win a game (1000; 500 or 1500).
    - ``seven_points`` (BZ-DEAL, BZ-SEVEN): each trump seven's score (10).
    - ``brisque`` (BZ-BRISQUE): each ace and ten won in tricks (10).
    - meld values (BZ-VALUES): ``marriage`` 20, ``royal_marriage`` 40, ``sequence`` 250,
      ``bezique`` 40, ``double_bezique`` 500, ``four_aces`` 100, ``four_kings`` 80,
      ``four_queens`` 60, ``four_jacks`` 40.
    """

    name: str = "seed-de"
    reuse: str = "either_order"
    double_bezique_after_single: bool = False
    end_must_win: bool = False
    last_trick: int = 10
    last_trick_at: int = 32
    target: int = 1000
    seven_points: int = 10
    brisque: int = 10
    marriage: int = 20
    royal_marriage: int = 40
    sequence: int = 250
    bezique: int = 40
    double_bezique: int = 500
    four_aces: int = 100
    four_kings: int = 80
    four_queens: int = 60
    four_jacks: int = 40

    def __post_init__(self) -> None:
        if self.reuse not in REUSE:
            raise InputError(f"reuse must be one of {', '.join(REUSE)}, not {self.reuse!r}")
        if self.target not in TARGETS:
            raise InputError(f"target must be one of {', '.join(map(str, TARGETS))}, not {self.target}")
        if self.last_trick_at not in LAST_TRICK_AT:
            raise InputError(f"last_trick_at must be 32 or 24, not {self.last_trick_at}")
        for key in ("last_trick", "seven_points", "brisque", *VALUE_KEYS):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10000:
                raise InputError(f"{key} must be a whole number from 0 to 10000, not {value!r}")

    @property
    def reuse_either_order(self) -> bool:
        """BZ-REUSE: True when a royal marriage may follow a sequence (seed-de)."""
        return self.reuse == "either_order"

    def meld_value(self, kind: str) -> int:
        """BZ-VALUES: the points of a meld kind (``"marriage"``, ..., ``"four_jacks"``)."""
        return getattr(self, kind)

    def to_array(self) -> np.ndarray:
        """The switches as the int64 array the kernels read (slots R_*)."""
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_REUSE_EITHER_ORDER] = int(self.reuse_either_order)
        a[R_DOUBLE_AFTER_SINGLE] = int(self.double_bezique_after_single)
        a[R_END_MUST_WIN] = int(self.end_must_win)
        a[R_LAST_TRICK] = self.last_trick
        a[R_LAST_TRICK_AT] = self.last_trick_at
        a[R_TARGET] = self.target
        a[R_SEVEN_POINTS] = self.seven_points
        a[R_BRISQUE] = self.brisque
        for slot, key in enumerate(VALUE_KEYS, R_MARRIAGE):
            a[slot] = getattr(self, key)
        return a

    def switches(self) -> dict:
        """Every switch and its value (the name excluded), for outputs and provenance."""
        d = dataclasses.asdict(self)
        d.pop("name")
        return d


VARIANTS: dict[str, BeziqueRules] = {
    "seed-de": BeziqueRules(name="seed-de"),
    "classic": BeziqueRules(name="classic", reuse="marriage_first", double_bezique_after_single=True,
                            end_must_win=True),
}


def get_rules(name: str = "seed-de", overrides: dict[str, str] | list[str] | None = None) -> BeziqueRules:
    """The variant ``name`` with switches overridden (``{"key": "value"}`` or ``["key=value"]``)."""
    from analysis.variants import apply_overrides, pick_variant

    base = pick_variant(VARIANTS, name, "Bezique")
    return apply_overrides(base, overrides)


# ---------------------------------------------------------------------------------------------
# Card codes (BZ-DECK): code = 32 * copy + 8 * suit + rank index in Bezique order, low to high,
# 7 8 9 J Q K 10 A = 0..7; so within a suit (and a copy) a higher card is a higher bit. The face
# of a card (what a player sees) is ``code & 31``; the copy bit only tells the two physical cards
# of a face apart.
# ---------------------------------------------------------------------------------------------

BEZIQUE_RANKS = ("7", "8", "9", "J", "Q", "K", "10", "A")
SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(8)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
CODEC = CardCodec(BEZIQUE_RANKS, copies=2)
"""The Bezique codes (0..63) of :class:`analysis.cards.Card`; the names below are its methods."""

code_of = CODEC.code_of  # (Card, copy 0 or 1) -> code
face_of = CODEC.face_of  # code -> face (0..31, the code of the first copy)
card_of = CODEC.card_of  # code -> Card (both copies give the same card)
mask_of = CODEC.mask_of  # cards -> 64-bit mask (a card given again takes its second copy)
codes_of_mask = CODEC.codes_of_mask  # mask -> codes, ascending
name_of = CODEC.name_of  # code -> "KH" (or "K♥" with symbols=True); both copies print alike


BOOK_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")
"""Bezique's rank order high to low, for :func:`analysis.cards.format_book`."""

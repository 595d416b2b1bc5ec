"""The Bezique kernel's array layouts, each declared once: the index constants and, beside them,
the names of the fields in index order (``*_FIELDS``), so a test can say "``elder_total``
differs at deal 812" rather than "index 0".

- ``OUTCOME_FIELDS`` (``OUTCOME_LENGTH`` = 120): one deal's outcome vector, the rows of
  ``deal_outcomes``, entry for entry ``reference.DealResult.outcome_vector()``;
  ``OUT_FIELDS`` (``N_OUT``) adds the kernel's internal slots after it (melds laid per kind);
- ``TALLY_FIELDS`` (``N_TALLY``): the tally row of single deals (``deals_block``);
- ``GAME_OUTCOME_FIELDS`` (``N_GAME_OUT``): one game's outcome (``game_results``,
  ``reference.GameResult.outcome_vector()``); ``GAME_TALLY_FIELDS`` (``N_GAME_TALLY``): the tally
  row of games (``games_block``);
- ``STATE_FIELDS`` (``N_STATE``): the state array of a deal in play (``S_*`` slots).

Pairs are elder then dealer (``seats``). ``check_layout`` runs at import: every ``O_*``, ``T_*``,
``G_*`` and ``S_*`` constant must start a run of fields named after it (``O_MELD_AT`` = 96 and
field 96 is ``meld_at_trick1``), and every field must lie in the run of the constant before it.
"""
from __future__ import annotations

from analysis.layouts import LayoutError, check_layout

# Meld kinds (reference.KINDS order) and their classes.
KIND_NAMES = ("marriage", "royal_marriage", "sequence", "bezique", "double_bezique",
              "four_jacks", "four_queens", "four_kings", "four_aces")
K_MARRIAGE, K_ROYAL, K_SEQUENCE, K_BEZIQUE, K_DOUBLE = 0, 1, 2, 3, 4
K_FOUR_JACKS, K_FOUR_QUEENS, K_FOUR_KINGS, K_FOUR_ACES = 5, 6, 7, 8
N_KINDS = 9

SEATS = ("elder", "dealer")
N_TRICKS = 32
N_STOCK_TRICKS = 24


def seats(stem: str) -> tuple[str, ...]:
    """The two fields of a pair: ``stem_elder``, ``stem_dealer``."""
    return tuple(f"{stem}_{s}" for s in SEATS)


# ---------------------------------------------------------------------------------------------
# Outcome vector of one deal (docs/bezique-engine.md, "Outcome vector")
# ---------------------------------------------------------------------------------------------

O_TOTAL = 0  # 2: elder, dealer
O_MELD = 2  # 18 entries: per kind (KINDS order) elder, dealer
O_SEVEN = 20
O_BRISQUE = 22
O_LAST = 24
O_TRICKS = 26
O_ELDER_STOCK = 28  # stock tricks (1..24) elder won
O_TRICKS_PLAYED = 29
O_TURN_UP = 30  # the turn-up as dealt
O_EXCHANGE = 31  # the trick after which the seven was exchanged, 0 none
O_PLAYED = 32  # 64 entries: lead, follow for tricks 1..32, -1 unplayed
O_MELD_AT = 96  # 24 entries: per stock trick the kind laid, -1 none
OUTCOME_LENGTH = 120
# Internal slots after the public vector: number of melds laid per kind, elder then dealer.
O_MELD_COUNT = 120  # 18 entries
N_OUT = 138

OUTCOME_FIELDS = (
    *seats("total"),
    *(f for k in KIND_NAMES for f in seats(f"meld_{k}")),
    *seats("seven"),
    *seats("brisque"),
    *seats("last"),
    *seats("tricks"),
    "elder_stock_tricks",
    "tricks_played",
    "turn_up",
    "exchange_trick",
    *(f"played_{r}{n}" for n in range(1, N_TRICKS + 1) for r in ("lead", "follow")),
    *(f"meld_at_trick{n}" for n in range(1, N_STOCK_TRICKS + 1)),
)
"""Names of the outcome vector's entries (``deal_outcomes`` rows), in index order."""
OUT_FIELDS = OUTCOME_FIELDS + tuple(f for k in KIND_NAMES for f in seats(f"meld_count_{k}"))
"""Names of the kernel's ``out`` array (``N_OUT``): the outcome vector, then the internal slots."""
check_layout(OUT_FIELDS, N_OUT, "O_", globals())

# ---------------------------------------------------------------------------------------------
# Tallies of single deals (T_*), integers per chunk
# ---------------------------------------------------------------------------------------------

T_DEALS = 0
T_ELDER, T_ELDER_SQ, T_DEALER, T_DEALER_SQ, T_NET, T_NET_SQ = 1, 2, 3, 4, 5, 6
T_BRISQUE = 7  # 2: elder, dealer
T_LAST = 9  # 2
T_SEVEN = 11  # 2
T_TURN_UP_SEVEN = 13  # deals whose turn-up is a seven
T_EXCHANGES = 14  # deals with a seven exchanged
T_ELDER_TRICKS = 15  # sum of elder's tricks
T_ELDER_STOCK_TRICKS = 16  # sum of elder's stock tricks
T_MELD_COUNT = 17  # 18: melds laid, 2 * kind (KINDS order) + side (0 elder, 1 dealer)
T_MELD_POINTS = 35  # 18: meld points, the same layout
# Squares of the per-deal totals (both sides) of brisque, last-trick and seven points, for intervals.
T_BRISQUE_SQ, T_LAST_SQ, T_SEVEN_SQ = 53, 54, 55
T_MELD_DEALS = 56  # 9: deals in which the kind was laid (by either side)
N_TALLY = 65

TALLY_FIELDS = (
    "deals",
    "elder", "elder_sq", "dealer", "dealer_sq", "net", "net_sq",
    *seats("brisque"),
    *seats("last"),
    *seats("seven"),
    "turn_up_seven",
    "exchanges",
    "elder_tricks",
    "elder_stock_tricks",
    *(f for k in KIND_NAMES for f in seats(f"meld_count_{k}")),
    *(f for k in KIND_NAMES for f in seats(f"meld_points_{k}")),
    "brisque_sq", "last_sq", "seven_sq",
    *(f"meld_deals_{k}" for k in KIND_NAMES),
)
"""Names of a single-deal tally row's entries (``deals_block``), in index order."""
check_layout(TALLY_FIELDS, N_TALLY, "T_", globals())

# ---------------------------------------------------------------------------------------------
# Games (BZ-GAME): one game's outcome and the tallies of games
# ---------------------------------------------------------------------------------------------

MAX_GAME_DEALS = 128
N_GAME_OUT = 5
GAME_OUTCOME_FIELDS = ("total_a", "total_b", "deals", "winner", "in_stock_phase")
"""Names of a game's outcome (``game_results`` rows): winner 0 A, 1 B, -1 undecided."""
if len(GAME_OUTCOME_FIELDS) != N_GAME_OUT:
    raise LayoutError("GAME_OUTCOME_FIELDS")

G_GAMES, G_DEALS, G_DEALS_SQ, G_FIRST_DEALER_WINS, G_UNDECIDED, G_IN_STOCK = 0, 1, 2, 3, 4, 5
N_GAME_TALLY = 6
GAME_TALLY_FIELDS = ("games", "deals", "deals_sq", "first_dealer_wins", "undecided", "in_stock")
"""Names of a game tally row's entries (``games_block``), in index order."""
check_layout(GAME_TALLY_FIELDS, N_GAME_TALLY, "G_", globals())

# ---------------------------------------------------------------------------------------------
# The state of a deal in play (S_* slots of one int64 array)
# ---------------------------------------------------------------------------------------------

S_HAND = 0  # 2: elder, dealer
S_TABLE = 2  # 2
S_PLAYED = 4  # the cards played to tricks
S_WON = 5  # 2: the cards in the tricks each side won
S_KINDS = 8  # 64: per card code, the mask of meld kinds it was used in on a table
S_KEEP = 72  # 2 x 32: per seat and face, the keep value before the meld-in-view bonus
S_USED = 136  # 9: per meld kind, the mask of the table cards used in it (S_KINDS by kind)
N_STATE = 145

STATE_FIELDS = (
    *seats("hand"),
    *seats("table"),
    "played",
    *seats("won"),
    "unused",
    *(f"kinds_card{c}" for c in range(64)),
    *(f"keep_{s}_face{f}" for s in SEATS for f in range(32)),
    *(f"used_{k}" for k in KIND_NAMES),
)
"""Names of the state array's slots, in index order (slot 7 is unused)."""
check_layout(STATE_FIELDS, N_STATE, "S_", globals())

"""The Écarté kernel's array layouts, each declared once: the index constants and, beside them,
the names of the fields in index order (``*_FIELDS``), so a test can say "``elder_points``
differs at hand 812" rather than "index 0".

- ``OUTCOME_FIELDS`` (``N_OUT`` = 27): one hand's outcome vector, the rows of ``hand_outcomes``;
  its first ``N_COMPARED`` (22) entries are ``reference.HandResult.outcome_vector()``, entry for
  entry (``COMPARED_FIELDS``), the rest are the kernel's own;
- ``HIST_FIELDS`` (``N_HIST``): the compact histogram ``hands_block`` tallies per chunk;
  ``TALLY_FIELDS`` (``N_TALLY``): the named tallies ``hand_tallies`` derives from it;
- ``GAME_OUTCOME_FIELDS``: a game's outcome (``game_results`` rows); ``GAME_TALLY_FIELDS``
  (``N_GAME_TALLY``): the tally row of games (``games_block``);
- ``COMPARE_FIELDS`` (``N_COMPARE``): a paired comparison row (``pair_block``, ``class_block``...).

``check_layout`` runs at import: every ``O_*``, ``H_*``, ``T_*``, ``G_*`` and ``C_*`` constant
must start a run of fields named after it (``O_TRICKS`` = 11 and field 11 is ``tricks_lead1``),
and every field must lie in the run of the constant before it.
"""
from __future__ import annotations

from analysis.layouts import check_layout

# ---------------------------------------------------------------------------------------------
# Outcome vector of one hand (docs/ecarte-engine.md, "Outcome vector")
# ---------------------------------------------------------------------------------------------

# Outcome vector of one hand (the first N_COMPARED entries are what the reference also gives).
O_ELDER_POINTS, O_DEALER_POINTS, O_ELDER_TRICKS, O_ENDING, O_ROUNDS, O_ANNOUNCED = 0, 1, 2, 3, 4, 5
O_TURNUP, O_ELDER_DEALT, O_DEALER_DEALT, O_ELDER_FINAL, O_DEALER_FINAL = 6, 7, 8, 9, 10
O_TRICKS = 11  # 10 entries: lead, follow for tricks 1..5
O_STOCK_DRAWN = 21
N_COMPARED = 22
O_PROPOSED_FIRST, O_PLAYED_WITHOUT_PROPOSING = 22, 23
O_ELDER_TRICK_POINTS, O_DEALER_TRICK_POINTS, O_TURNUP_KING = 24, 25, 26
N_OUT = 27

OUTCOME_FIELDS = (
    "elder_points", "dealer_points", "elder_tricks",
    "ending",  # 0 elder plays, 1 the dealer refused
    "rounds",
    "announced",  # 1 elder | 2 dealer
    "turnup", "elder_dealt", "dealer_dealt", "elder_final", "dealer_final",  # card code, masks
    *(f"tricks_{r}{n}" for n in range(1, 6) for r in ("lead", "follow")),
    "stock_drawn",
    # The kernel's own entries (not in the reference's vector):
    "proposed_first", "played_without_proposing",
    "elder_trick_points", "dealer_trick_points", "turnup_king",
)
"""Names of the outcome vector's entries (``hand_outcomes`` rows, ``N_OUT``), in index order."""
COMPARED_FIELDS = OUTCOME_FIELDS[:N_COMPARED]
"""The entries the reference's ``outcome_vector()`` also gives, in its order."""
check_layout(OUTCOME_FIELDS, N_OUT, "O_", globals())

# ---------------------------------------------------------------------------------------------
# Tallies of single hands
# ---------------------------------------------------------------------------------------------

# Tallies of single hands (salon simulate ecarte). The kernel keeps a compact histogram per chunk
# (five increments per hand); ``hand_tallies`` turns it into the named tallies T_*.
H_POINTS = 0  # 36 cells: elder's points * 6 + dealer's points (0..5 each)
H_TRICKS = 36  # 6 cells: tricks elder took
H_FLAGS = 42  # 64 cells: turn-up king | elder dealt trump king <<1 | proposed <<2 | refused <<3 | announced <<4
H_TRUMPS = 106  # 12 cells: trumps elder was dealt * 2 + (dealer dealt 2+ trumps)
H_ROUNDS, H_STOCK_DRAWN = 118, 119
N_HIST = 120

HIST_FIELDS = (
    *(f"points_{e}_{d}" for e in range(6) for d in range(6)),  # elder's points, the dealer's
    *(f"tricks_{k}" for k in range(6)),
    *(f"flags_{f}" for f in range(64)),
    *(f"trumps_{n}_dealer_{two}" for n in range(6) for two in ("under_2", "2_plus")),
    "rounds", "stock_drawn",
)
"""Names of a histogram row's cells (``hands_block``), in index order."""
check_layout(HIST_FIELDS, N_HIST, "H_", globals())

T_HANDS, T_TURNUP_KING, T_ELDER_DEALT_TRUMP_KING, T_ELDER_WINS_POINT, T_VOLE = 0, 1, 2, 3, 4
T_ELDER_PROPOSES, T_DEALER_REFUSES, T_PLAYED_WITHOUT_PROPOSING = 5, 6, 7
T_ELDER_POINTS, T_ELDER_POINTS_SQ, T_DEALER_POINTS, T_DEALER_POINTS_SQ = 8, 9, 10, 11
T_NET, T_NET_SQ = 12, 13
T_ELDER_TRUMPS = 14  # 6 entries: elder dealt 0..5 trumps
T_ONE_TRUMP, T_ONE_TRUMP_DEALER_TWO_PLUS = 20, 21
T_ELDER_TRICKS, T_ROUNDS, T_ELDER_ANNOUNCES, T_DEALER_ANNOUNCES, T_STOCK_DRAWN = 22, 23, 24, 25, 26
T_ELDER_VOLE, T_DEALER_VOLE = 27, 28
N_TALLY = 29

TALLY_FIELDS = (
    "hands", "turnup_king", "elder_dealt_trump_king", "elder_wins_point", "vole",
    "elder_proposes", "dealer_refuses", "played_without_proposing",
    "elder_points", "elder_points_sq", "dealer_points", "dealer_points_sq",
    "net", "net_sq",
    *(f"elder_trumps_{k}" for k in range(6)),
    "one_trump", "one_trump_dealer_two_plus",
    "elder_tricks", "rounds", "elder_announces", "dealer_announces", "stock_drawn",
    "elder_vole", "dealer_vole",
)
"""Names of the named tallies (``hand_tallies``), in index order."""
check_layout(TALLY_FIELDS, N_TALLY, "T_", globals())

# ---------------------------------------------------------------------------------------------
# Games to the target
# ---------------------------------------------------------------------------------------------

# Tallies of games to the target (salon simulate ecarte --game).
G_GAMES, G_FIRST_DEALER_WINS, G_HANDS, G_HANDS_SQ, G_WINNER_MARGIN = 0, 1, 2, 3, 4
N_GAME_TALLY = 5
GAME_TALLY_FIELDS = ("games", "first_dealer_wins", "hands", "hands_sq", "winner_margin")
"""Names of a game tally row's entries (``games_block``), in index order."""
check_layout(GAME_TALLY_FIELDS, N_GAME_TALLY, "G_", globals())

GAME_OUTCOME_FIELDS = ("score_a", "score_b", "hands")
"""Names of a game's outcome (``game_results`` rows; A is elder in hand 0, B the first dealer)."""

# ---------------------------------------------------------------------------------------------
# Paired comparisons
# ---------------------------------------------------------------------------------------------

# Paired comparisons: two configurations (policies and forced first decisions) played on the same
# deal with the same streams. Layout of a comparison row ("a" and "b" are the two configurations).
C_N, C_A_WINS, C_A_NET, C_A_NET_SQ = 0, 1, 2, 3
C_B_WINS, C_B_NET, C_B_NET_SQ, C_DIFF, C_DIFF_SQ = 4, 5, 6, 7, 8
C_A_VOLE, C_B_VOLE, C_B_REFUSED, C_B_PROPOSED = 9, 10, 11, 12
N_COMPARE = 13
COMPARE_FIELDS = ("n", "a_wins", "a_net", "a_net_sq", "b_wins", "b_net", "b_net_sq", "diff", "diff_sq",
                  "a_vole", "b_vole", "b_refused", "b_proposed")
"""Names of a paired comparison row's entries (``pair_block`` and the other paired kernels)."""
check_layout(COMPARE_FIELDS, N_COMPARE, "C_", globals())


# ---------------------------------------------------------------------------------------------
# The public history of the proposal rounds
# ---------------------------------------------------------------------------------------------

# Written by ``exchanges`` (play/exchange.py) into ``hist`` when given: the rounds accepted, how the
# last began (FINAL_*), and per accepted round each player's discard count with the bounds he chose
# it within. The search player conditions on it (players/search_inference.py).
EH_ROUNDS, EH_FINAL, EH_ROUND0 = 0, 1, 2
EHR_EK, EHR_EHI, EHR_DK, EHR_DLO, EHR_DHI = 0, 1, 2, 3, 4
EHR_SIZE = 5
MAX_ROUNDS = 11  # each round takes at least elder's one card of the 21 in the stock
N_EXCHANGE_HIST = EH_ROUND0 + EHR_SIZE * MAX_ROUNDS
FINAL_NONE, FINAL_PLAYED, FINAL_REFUSED = 0, 1, 2  # stock empty; elder played; the dealer refused

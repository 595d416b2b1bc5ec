"""The Piquet kernel's array layouts, each declared once: the index constants and, beside them,
the names of the fields in index order (``*_FIELDS``), so a test can say "``total_elder``
differs at deal 812" rather than "index 0".

- ``OUTCOME_FIELDS`` (``N_OUT`` = 50): one deal's outcome vector, the rows of ``deal_outcomes``,
  entry for entry ``reference.DealResult.outcome_vector()``;
- ``TALLY_FIELDS`` (``N_TALLY``): the tally row of single deals (``deals_block``);
- ``PAIRED_FIELDS`` (``N_PAIRED``): a paired row (``paired_block``);
- ``PARTIE_OUTCOME_FIELDS`` (``N_PARTIE_OUT``): one partie's outcome (``partie_results``,
  ``reference.PartieResult.outcome_vector()``); ``PARTIE_TALLY_FIELDS`` (``N_PARTIE_TALLY``): the
  tally row of parties (``parties_block``).

Pairs are elder then younger (``seats``). ``check_layout`` runs at import: every ``O_*``, ``T_*``
and ``G_*`` constant must start a run of fields named after it (``O_PLAYED`` = 26 and field 26 is
``played_lead1``), and every field must lie in the run of the constant before it.
"""
from __future__ import annotations

from analysis.layouts import LayoutError, check_layout

SEATS = ("elder", "younger")


def seats(stem: str) -> tuple[str, ...]:
    """The two fields of a pair: ``stem_elder``, ``stem_younger``."""
    return tuple(f"{stem}_{s}" for s in SEATS)


# ---------------------------------------------------------------------------------------------
# Outcome vector of one deal (docs/piquet-engine.md, "Outcome vector")
# ---------------------------------------------------------------------------------------------

O_TOTAL = 0  # 2 entries: elder, younger (the same pairing for every O_* pair below)
O_CARTE_BLANCHE, O_POINT, O_SEQUENCES, O_SETS, O_REPIQUE = 2, 4, 6, 8, 10
O_PIQUE = 12
O_TRICK_POINTS = 13
O_ELDER_TRICKS = 15
O_CARDS, O_CAPOT = 16, 18
O_TOOK = 20
O_DEALT = 22
O_FINAL = 24
O_PLAYED = 26  # 24 entries: lead, follow for tricks 1..12
N_OUT = 50

OUTCOME_FIELDS = (
    *seats("total"),
    *seats("carte_blanche"),
    *seats("point"),
    *seats("sequences"),
    *seats("sets"),
    *seats("repique"),
    "pique",  # elder's
    *seats("trick_points"),  # the last trick included
    "elder_tricks",
    *seats("cards"),
    *seats("capot"),
    *seats("took"),  # cards taken from the talon
    *seats("dealt"),  # masks
    *seats("final"),  # masks after the exchange
    *(f"played_{r}{n}" for n in range(1, 13) for r in ("lead", "follow")),
)
"""Names of the outcome vector's entries (``deal_outcomes`` rows), in index order."""
check_layout(OUTCOME_FIELDS, N_OUT, "O_", globals())

# ---------------------------------------------------------------------------------------------
# Tallies of single deals
# ---------------------------------------------------------------------------------------------

# Tallies of single deals (salon simulate piquet). T_BINS: the classical table's score bins
# (under 10, 10-19, ..., 140-149, 150 or more) for elder then younger.
T_DEALS, T_CB_ELDER, T_CB_YOUNGER = 0, 1, 2
T_ELDER_SCORE, T_ELDER_SCORE_SQ, T_YOUNGER_SCORE, T_YOUNGER_SCORE_SQ, T_NET, T_NET_SQ = 3, 4, 5, 6, 7, 8
T_REPIQUE_ELDER, T_REPIQUE_YOUNGER, T_PIQUE, T_CAPOT_ELDER, T_CAPOT_YOUNGER = 9, 10, 11, 12, 13
T_CARDS_ELDER, T_CARDS_YOUNGER, T_CARDS_DIVIDED = 14, 15, 16
T_DECL_NET, T_DECL_NET_SQ, T_PLAY_NET, T_PLAY_NET_SQ = 17, 18, 19, 20
T_ELDER_DECL, T_YOUNGER_DECL, T_ELDER_PLAY, T_YOUNGER_PLAY = 21, 22, 23, 24
# Net score (elder minus younger) by who won the cards (elder incl. capot, younger incl. capot,
# divided): sums and sums of squares.
T_NET_BY_CARDS, T_NET_SQ_BY_CARDS = 25, 28
T_ELDER_TOOK, T_YOUNGER_TOOK, T_ELDER_TRICKS = 31, 32, 33
T_POINT_ELDER, T_POINT_YOUNGER, T_SEQ_ELDER, T_SEQ_YOUNGER, T_SET_ELDER, T_SET_YOUNGER = 34, 35, 36, 37, 38, 39
# Elder's play score minus younger's (everything but carte blanche, declarations and repique) by
# who won the cards, as above.
T_PLAY_NET_BY_CARDS, T_PLAY_NET_SQ_BY_CARDS = 40, 43
T_BINS = 46  # 32 entries: 16 bins elder, 16 bins younger
N_BINS = 16
N_TALLY = T_BINS + 2 * N_BINS

_BY_CARDS = ("elder", "younger", "divided")
TALLY_FIELDS = (
    "deals", "cb_elder", "cb_younger",
    "elder_score", "elder_score_sq", "younger_score", "younger_score_sq", "net", "net_sq",
    "repique_elder", "repique_younger", "pique", "capot_elder", "capot_younger",
    "cards_elder", "cards_younger", "cards_divided",
    "decl_net", "decl_net_sq", "play_net", "play_net_sq",
    "elder_decl", "younger_decl", "elder_play", "younger_play",
    *(f"net_by_cards_{c}" for c in _BY_CARDS),
    *(f"net_sq_by_cards_{c}" for c in _BY_CARDS),
    "elder_took", "younger_took", "elder_tricks",
    "point_elder", "point_younger", "seq_elder", "seq_younger", "set_elder", "set_younger",
    *(f"play_net_by_cards_{c}" for c in _BY_CARDS),
    *(f"play_net_sq_by_cards_{c}" for c in _BY_CARDS),
    # bin b: a score of 10b..10b+9 (the last: 150 or more)
    *(f"bins_{s}_{b}" for s in SEATS for b in range(N_BINS)),
)
"""Names of a single-deal tally row's entries (``deals_block``), in index order."""
check_layout(TALLY_FIELDS, N_TALLY, "T_", globals())

# Paired comparisons: elder's net score under two policies on the same deals, the same younger.
N_PAIRED = 3  # deals, sum of the per-deal differences, sum of their squares
PAIRED_FIELDS = ("deals", "diff", "diff_sq")
"""Names of a paired row's entries (``paired_block``)."""
if len(PAIRED_FIELDS) != N_PAIRED:
    raise LayoutError("PAIRED_FIELDS")

# ---------------------------------------------------------------------------------------------
# Parties (PQ-PARTIE, PQ-TIE, PQ-RUBICON)
# ---------------------------------------------------------------------------------------------

# Parties (PQ-PARTIE, PQ-TIE, PQ-RUBICON, PQ-FIRST): the first dealer is drawn per partie (lane
# FIRST_DEALER_LANE of the partie's stream); the other player is elder in deal 0.
G_PARTIES, G_FIRST_DEALER_WINS, G_DRAWN, G_RUBICON = 0, 1, 2, 3
G_MARGIN, G_MARGIN_SQ = 4, 5  # the winner's margin
G_FIRST_DEALER_MARGIN, G_FIRST_DEALER_MARGIN_SQ = 6, 7  # the first dealer's margin, negative when he loses
G_DEALS, G_EXTRA = 8, 9
N_PARTIE_TALLY = 10
PARTIE_TALLY_FIELDS = ("parties", "first_dealer_wins", "drawn", "rubicon", "margin", "margin_sq",
                       "first_dealer_margin", "first_dealer_margin_sq", "deals", "extra")
"""Names of a partie tally row's entries (``parties_block``), in index order."""
check_layout(PARTIE_TALLY_FIELDS, N_PARTIE_TALLY, "G_", globals())

N_PARTIE_OUT = 7
PARTIE_OUTCOME_FIELDS = ("total_a", "total_b", "deals", "winner", "margin", "rubiconed", "first_dealer")
"""Names of a partie's outcome (``partie_results`` rows): winner 0 A, 1 B, -1 drawn; first dealer
0 A, 1 B."""
FIRST_DEALER_LANE = 255
"""The lane of a partie's stream whose first draw decides who deals first (PQ-FIRST: the cut)."""
if len(PARTIE_OUTCOME_FIELDS) != N_PARTIE_OUT:
    raise LayoutError("PARTIE_OUTCOME_FIELDS")

"""The Piquet deal engine in numba: deal, exchanges, declarations, repique, twelve tricks, pique,
the cards; and the partie of six deals with the Rubicon.

Same rules and policies as ``reference.py``, step for step as written in docs/piquet-engine.md, on
32-bit card masks (code = 8 * suit + rank, 7 8 9 10 J Q K A = 0..7). Kernels tally integers per
chunk; the block functions are what ``analysis.runner`` drives.

This module is the engine's front door: it defines nothing and re-exports every name of the
modules that hold the code, so ``from analysis.piquet import kernel as K`` reaches all of it.

- ``layout``: the outcome vector (``O_*``, ``OUTCOME_FIELDS``), the tallies of deals (``T_*``,
  ``TALLY_FIELDS``), paired rows (``PAIRED_FIELDS``) and parties (``G_*``,
  ``PARTIE_TALLY_FIELDS``, ``PARTIE_OUTCOME_FIELDS``), names checked at import;
- ``card_masks``: lane tables (point value, sequences, guards) and per-lane bit tricks;
- ``declaration_kernel``: point, sequence and set keys and scores, repique;
- ``play_kernel``: the players' choices: discards, leads and follows;
- ``deal_kernel``: one deal (``play_deal``, ``play_dealt``) and ``deal_outcomes``;
- ``tallies``: ``tally_deal``, ``deals_chunk``, ``deals_block``;
- ``paired_kernel``: two elder policies on the same deals; ``partie_kernel``: parties.
"""
from analysis.bits import (  # noqa: F401  (re-exported)
    highest_bit,
    lowest_bit,
    nth_bit,
    popcount,
)
from analysis.piquet.card_masks import (  # noqa: F401  (re-exported)
    ALL,
    COLUMN,
    COURTS,
    LANE_GUARDS,
    LANE_SEQ_BEST,
    LANE_SEQ_MEMBERS,
    LANE_SEQ_SCORE,
    LANE_VALUE,
    _lane_tables,
    lane_counts,
    smear_down,
)
from analysis.piquet.deal_kernel import (  # noqa: F401  (re-exported)
    deal_outcomes,
    play_deal,
    play_dealt,
    shuffle,
    talon_cards,
)
from analysis.piquet.declaration_kernel import (  # noqa: F401  (re-exported)
    declaration_event,
    point_key,
    sequence_key_and_score,
    set_key_and_score,
)
from analysis.piquet.layout import (  # noqa: F401  (re-exported)
    G_DEALS,
    G_DRAWN,
    G_EXTRA,
    G_FIRST_DEALER_MARGIN,
    G_FIRST_DEALER_MARGIN_SQ,
    G_FIRST_DEALER_WINS,
    G_MARGIN,
    G_MARGIN_SQ,
    G_PARTIES,
    G_RUBICON,
    N_BINS,
    N_OUT,
    N_PAIRED,
    N_PARTIE_OUT,
    N_PARTIE_TALLY,
    N_TALLY,
    O_CAPOT,
    O_CARDS,
    O_CARTE_BLANCHE,
    O_DEALT,
    O_ELDER_TRICKS,
    O_FINAL,
    O_PIQUE,
    O_PLAYED,
    O_POINT,
    O_REPIQUE,
    O_SEQUENCES,
    O_SETS,
    O_TOOK,
    O_TOTAL,
    O_TRICK_POINTS,
    OUTCOME_FIELDS,
    PAIRED_FIELDS,
    PARTIE_OUTCOME_FIELDS,
    PARTIE_TALLY_FIELDS,
    T_BINS,
    T_CAPOT_ELDER,
    T_CAPOT_YOUNGER,
    T_CARDS_DIVIDED,
    T_CARDS_ELDER,
    T_CARDS_YOUNGER,
    T_CB_ELDER,
    T_CB_YOUNGER,
    T_DEALS,
    T_DECL_NET,
    T_DECL_NET_SQ,
    T_ELDER_DECL,
    T_ELDER_PLAY,
    T_ELDER_SCORE,
    T_ELDER_SCORE_SQ,
    T_ELDER_TOOK,
    T_ELDER_TRICKS,
    T_NET,
    T_NET_BY_CARDS,
    T_NET_SQ,
    T_NET_SQ_BY_CARDS,
    T_PIQUE,
    T_PLAY_NET,
    T_PLAY_NET_BY_CARDS,
    T_PLAY_NET_SQ,
    T_PLAY_NET_SQ_BY_CARDS,
    T_POINT_ELDER,
    T_POINT_YOUNGER,
    T_REPIQUE_ELDER,
    T_REPIQUE_YOUNGER,
    T_SEQ_ELDER,
    T_SEQ_YOUNGER,
    T_SET_ELDER,
    T_SET_YOUNGER,
    T_YOUNGER_DECL,
    T_YOUNGER_PLAY,
    T_YOUNGER_SCORE,
    T_YOUNGER_SCORE_SQ,
    T_YOUNGER_TOOK,
    TALLY_FIELDS,
)
from analysis.piquet.paired_kernel import (  # noqa: F401  (re-exported)
    paired_block,
    paired_chunk,
)
from analysis.piquet.partie_kernel import (  # noqa: F401  (re-exported)
    partie_results,
    partie_values,
    parties_block,
    play_partie,
)
from analysis.piquet.play_kernel import (  # noqa: F401  (re-exported)
    card_values,
    choose_discard,
    heuristic_discard,
    heuristic_follow,
    heuristic_lead,
    random_card,
    random_discard,
)
from analysis.piquet.policies import (  # noqa: F401  (re-exported)
    KIND_RANDOM,
    P_ACE_BONUS,
    P_ELDER_KEEP,
    P_FORCE_COUNT,
    P_FORCE_DISCARD,
    P_FORCE_MASK,
    P_GUARD_BONUS,
    P_KIND,
    P_LEN_WEIGHT,
    P_POINT_BONUS,
    P_SEQUENCE_BONUS,
    P_SET_BONUS,
    P_TRACK_CARDS,
    P_YOUNGER_KEEP,
)
from analysis.piquet.rules import (  # noqa: F401  (re-exported)
    POINT_VALUES,
    R_CAPOT,
    R_CARDS_BONUS,
    R_CARTE_BLANCHE,
    R_LAST_TRICK,
    R_LEAD_POINTS_EVERY_TRICK,
    R_PARTIE_DEALS,
    R_PIQUE,
    R_REPIQUE,
    R_RUBICON,
    R_RUBICON_BONUS,
    R_TIE_EXTRA_DEALS,
    R_YOUNGER_MIN,
    R_YOUNGER_TAKES_LEFTOVERS,
    SEQUENCE_SCORES,
)
from analysis.piquet.tallies import (  # noqa: F401  (re-exported)
    deals_block,
    deals_chunk,
    tally_deal,
)
from analysis.rng import (  # noqa: F401  (re-exported)
    EMPTY_HALF,
    below,
    below32,
    stream_start,
)

"""The Bezique deal engine in numba: the shuffle, the 24 stock tricks with announced sevens, the seven
exchange, melds and draws, the 8 end-phase tricks and the brisques; and the game to the target.

Same rules and policies as ``reference.py``, step for step as written in docs/bezique-engine.md.
This module is the engine's front door: it defines nothing and re-exports every name of the
modules that hold the code, so ``from analysis.bezique import kernel as K`` reaches all of it.

- ``layout``: the outcome vector (``O_*``, ``OUTCOME_FIELDS``), the tallies (``T_*``,
  ``TALLY_FIELDS``; games ``G_*``, ``GAME_TALLY_FIELDS``, ``GAME_OUTCOME_FIELDS``), the state
  array (``S_*``, ``STATE_FIELDS``) and the meld kinds (``K_*``), names checked at import;
- ``card_masks``: card codes and masks (``32 * copy + 8 * suit + rank``), who wins a trick;
- ``meld_kernel``: the legal melds of a position and the heuristic's meld;
- ``play_kernel``: options, legal follows, the heuristic's lead and follow, keep values;
- ``deal_kernel``: one deal (``play_deal``) and ``deal_outcomes``;
- ``tallies``: ``tally_deal``, ``deals_chunk``, ``deals_block``;
- ``game_kernel``: games to the target (``play_game``, ``game_results``, ``games_block``).

Entry points (argument order: seed, first index, count, rules array, then the policy arrays):

- ``deal_outcomes(seed, start, n, rules, dealer, elder)``: the outcome vectors (OUTCOME_LENGTH
  ints) of single deals start..start+n-1, equal to
  ``reference.play_deal(seed, i, rules, dealer_policy, elder_policy).outcome_vector()``;
- ``game_results(seed, start, n, rules, a, b)``: ``reference.play_game(...).outcome_vector()``;
- ``deals_block`` / ``games_block``: integer tallies (``T_*`` / ``G_*``) per chunk, in parallel.
"""
from analysis.bezique.card_masks import (  # noqa: F401  (re-exported)
    ACE,
    BRISQUES32,
    COL32,
    JACK,
    JD,
    KING,
    LOW32,
    NO_TARGET,
    QS,
    QUEEN,
    SEVEN,
    TEN,
    beaters,
    bit,
    both_copies,
    count32,
    faces_of,
    follower_wins,
    suit_mask,
)
from analysis.bezique.deal_kernel import (  # noqa: F401  (re-exported)
    TT_BITS,
    DealScratch,
    _scratch,
    deal_outcomes,
    play_deal,
    run_deal,
    score,
    shuffle,
    take,
)
from analysis.bezique.game_kernel import (  # noqa: F401  (re-exported)
    game_results,
    games_block,
    play_game,
)
from analysis.bezique.layout import (  # noqa: F401  (re-exported)
    G_DEALS,
    G_DEALS_SQ,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_IN_STOCK,
    G_UNDECIDED,
    GAME_OUTCOME_FIELDS,
    GAME_TALLY_FIELDS,
    K_BEZIQUE,
    K_DOUBLE,
    K_FOUR_ACES,
    K_FOUR_JACKS,
    K_FOUR_KINGS,
    K_FOUR_QUEENS,
    K_MARRIAGE,
    K_ROYAL,
    K_SEQUENCE,
    KIND_NAMES,
    MAX_GAME_DEALS,
    N_GAME_OUT,
    N_GAME_TALLY,
    N_KINDS,
    N_OUT,
    N_STATE,
    N_STOCK_TRICKS,
    N_TALLY,
    N_TRICKS,
    O_BRISQUE,
    O_ELDER_STOCK,
    O_EXCHANGE,
    O_LAST,
    O_MELD,
    O_MELD_AT,
    O_MELD_COUNT,
    O_PLAYED,
    O_SEVEN,
    O_TOTAL,
    O_TRICKS,
    O_TRICKS_PLAYED,
    O_TURN_UP,
    OUT_FIELDS,
    OUTCOME_FIELDS,
    OUTCOME_LENGTH,
    S_HAND,
    S_KEEP,
    S_KINDS,
    S_PLAYED,
    S_TABLE,
    S_USED,
    S_WON,
    STATE_FIELDS,
    T_BRISQUE,
    T_BRISQUE_SQ,
    T_DEALER,
    T_DEALER_SQ,
    T_DEALS,
    T_ELDER,
    T_ELDER_SQ,
    T_ELDER_STOCK_TRICKS,
    T_ELDER_TRICKS,
    T_EXCHANGES,
    T_LAST,
    T_LAST_SQ,
    T_MELD_COUNT,
    T_MELD_DEALS,
    T_MELD_POINTS,
    T_NET,
    T_NET_SQ,
    T_SEVEN,
    T_SEVEN_SQ,
    T_TURN_UP_SEVEN,
    TALLY_FIELDS,
)
from analysis.bezique.meld_kernel import (  # noqa: F401  (re-exported)
    MAX_MELDS,
    add_kind,
    best_meld,
    cards_before,
    class_mask,
    double_possible,
    eligible,
    face_options,
    legal_melds,
    meld_value,
    sort_melds,
)
from analysis.bezique.play_kernel import (  # noqa: F401  (re-exported)
    end_legal,
    heuristic_follow,
    heuristic_lead,
    max_rank,
    meld_view,
    min_keep,
    min_rank,
    min_rank_keep,
    options_of,
    set_keep_values,
)
from analysis.bezique.policies import (  # noqa: F401  (re-exported)
    KIND_RANDOM,
    P_BRISQUE_KEEP,
    P_BRISQUE_WIN,
    P_EXCHANGE_SEVEN,
    P_FOUR_KEEP_MIN,
    P_GREEDY_WIN,
    P_HOLD_BEZIQUE,
    P_HOLD_BEZIQUE_STOCK,
    P_KIND,
    P_LEAD_LOW,
    P_MELD_KEEP,
    P_MELD_WIN,
    P_MELD_WIN_MIN,
    P_TRUMP_KEEP,
    P_TRUMP_WIN,
)
from analysis.bezique.rules import (  # noqa: F401  (re-exported)
    R_BRISQUE,
    R_DOUBLE_AFTER_SINGLE,
    R_END_MUST_WIN,
    R_LAST_TRICK,
    R_LAST_TRICK_AT,
    R_MARRIAGE,
    R_REUSE_EITHER_ORDER,
    R_SEVEN_POINTS,
    R_TARGET,
)
from analysis.bezique.tallies import (  # noqa: F401  (re-exported)
    deals_block,
    deals_chunk,
    tally_deal,
)
from analysis.bits import (  # noqa: F401  (re-exported)
    lowest_bit,
    nth_bit,
    popcount,
)
from analysis.rng import (  # noqa: F401  (re-exported)
    EMPTY_HALF,
    below,
    below32,
    stream_start,
)

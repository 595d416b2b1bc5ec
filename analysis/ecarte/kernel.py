"""The Écarté hand engine in numba: deal, proposals and exchanges, king, five tricks, scoring.

Same rules and policies as ``reference.py``, step for step as written in docs/ecarte-engine.md, on
32-bit card masks (code = 8 * suit + Écarté rank index). Kernels tally integers per chunk; the
block functions are what ``analysis.runner`` drives.

This module is the engine's front door: it defines nothing and re-exports every name of the
modules that hold the code, so ``from analysis.ecarte import kernel as K`` reaches all of it.

- ``layout``: the outcome vector (``O_*``, ``OUTCOME_FIELDS``), the histogram and tallies of
  hands (``H_*``, ``HIST_FIELDS``; ``T_*``, ``TALLY_FIELDS``), of games (``G_*``,
  ``GAME_TALLY_FIELDS``, ``GAME_OUTCOME_FIELDS``) and paired rows (``C_*``, ``COMPARE_FIELDS``),
  names checked at import;
- ``deal_kernel``: the deal, the weakest card, the heuristic's hand strength;
- ``exchange_kernel``: discards, the proposal rounds and exchanges, the kings;
- ``trick_kernel``: legal follows, the trick's winner, the heuristic's lead and follow, five tricks;
- ``learned_lead``: the learned leads and the five tricks when a player leads by them;
- ``hand_kernel``: scoring, ``policy_tricks``, ``play_hand`` and ``hand_outcomes``;
- ``tallies``: the histogram of hands, ``hands_chunk`` / ``hands_block``, ``hand_tallies``;
- ``game_kernel``: games to the target; ``paired_kernel``: two configurations on the same deals.
"""
from analysis.bits import (  # noqa: F401  (re-exported)
    highest_bit,
    lowest_bit,
    nth_bit,
    popcount,
    rank_of_mask,
)
from analysis.ecarte.deal_kernel import (  # noqa: F401  (re-exported)
    COLUMN,
    KINGS,
    QUEENS,
    deal,
    deal_with_elder,
    draw,
    strength,
    weakest,
)
from analysis.ecarte.exchange_kernel import (  # noqa: F401  (re-exported)
    Exchanged,
    announce_kings,
    chosen_discard,
    exchanges,
    heuristic_discard,
    random_discard,
    table_discard,
)
from analysis.ecarte.game_kernel import (  # noqa: F401  (re-exported)
    game_results,
    games_block,
    play_game,
)
from analysis.ecarte.hand_kernel import (  # noqa: F401  (re-exported)
    hand_outcomes,
    hand_points,
    penalties,
    play_hand,
    play_hand_inline,
    policy_tricks,
    trick_points,
    uses_choices,
    write_result,
)
from analysis.ecarte.layout import (  # noqa: F401  (re-exported)
    C_A_NET,
    C_A_NET_SQ,
    C_A_VOLE,
    C_A_WINS,
    C_B_NET,
    C_B_NET_SQ,
    C_B_PROPOSED,
    C_B_REFUSED,
    C_B_VOLE,
    C_B_WINS,
    C_DIFF,
    C_DIFF_SQ,
    C_N,
    COMPARE_FIELDS,
    COMPARED_FIELDS,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_HANDS,
    G_HANDS_SQ,
    G_WINNER_MARGIN,
    GAME_OUTCOME_FIELDS,
    GAME_TALLY_FIELDS,
    H_FLAGS,
    H_POINTS,
    H_ROUNDS,
    H_STOCK_DRAWN,
    H_TRICKS,
    H_TRUMPS,
    HIST_FIELDS,
    N_COMPARE,
    N_COMPARED,
    N_GAME_TALLY,
    N_HIST,
    N_OUT,
    N_TALLY,
    O_ANNOUNCED,
    O_DEALER_DEALT,
    O_DEALER_FINAL,
    O_DEALER_POINTS,
    O_DEALER_TRICK_POINTS,
    O_ELDER_DEALT,
    O_ELDER_FINAL,
    O_ELDER_POINTS,
    O_ELDER_TRICK_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_PLAYED_WITHOUT_PROPOSING,
    O_PROPOSED_FIRST,
    O_ROUNDS,
    O_STOCK_DRAWN,
    O_TRICKS,
    O_TURNUP,
    O_TURNUP_KING,
    OUTCOME_FIELDS,
    T_DEALER_ANNOUNCES,
    T_DEALER_POINTS,
    T_DEALER_POINTS_SQ,
    T_DEALER_REFUSES,
    T_DEALER_VOLE,
    T_ELDER_ANNOUNCES,
    T_ELDER_DEALT_TRUMP_KING,
    T_ELDER_POINTS,
    T_ELDER_POINTS_SQ,
    T_ELDER_PROPOSES,
    T_ELDER_TRICKS,
    T_ELDER_TRUMPS,
    T_ELDER_VOLE,
    T_ELDER_WINS_POINT,
    T_HANDS,
    T_NET,
    T_NET_SQ,
    T_ONE_TRUMP,
    T_ONE_TRUMP_DEALER_TWO_PLUS,
    T_PLAYED_WITHOUT_PROPOSING,
    T_ROUNDS,
    T_STOCK_DRAWN,
    T_TURNUP_KING,
    T_VOLE,
    TALLY_FIELDS,
)
from analysis.ecarte.paired_kernel import (  # noqa: F401  (re-exported)
    CLASS_SHIFT,
    cells_block,
    class_block,
    compare_both,
    fixed_hand_block,
    hand_class,
    has_ten_nine_eight,
    pair_block,
    paired_scratch,
    sure_winners,
)
from analysis.ecarte.policies import (  # noqa: F401  (re-exported)
    KIND_RANDOM,
    N_POLICY_SLOTS,
    P_ANNOUNCE_KING,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_DISCARD,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_KEEP_PLAIN_MIN_RANK,
    P_KIND,
    P_LEAD_TRUMPS,
)
from analysis.ecarte.rules import (  # noqa: F401  (re-exported)
    R_DEALER_MIN_DISCARD,
    R_MUST_TRUMP_WHEN_VOID,
    R_PENALTY_POINT,
    R_PENALTY_VOLE,
    R_REFUSAL_PENALISES_DEALER,
    R_REFUSAL_PENALTY_FIRST_ONLY,
    R_TARGET,
)
from analysis.ecarte.tallies import (  # noqa: F401  (re-exported)
    ReadyHand,
    exchange_phase,
    hand_tallies,
    hands_block,
    hands_chunk,
    tally_fields,
    tally_hand,
    tally_scored,
)
from analysis.ecarte.trick_kernel import (  # noqa: F401  (re-exported)
    LEAD_KEY,
    beats,
    heuristic_follow,
    heuristic_lead,
    heuristic_trick,
    heuristic_tricks_pair,
    legal_follows,
    play_tricks,
)
from analysis.rng import (  # noqa: F401  (re-exported)
    EMPTY_HALF,
    below,
    below32,
    stream_start,
)

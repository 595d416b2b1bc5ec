"""A search policy for Écarté's trick play: sample the hidden hand, solve double-dummy, average.

The search is split by job into sibling modules, and every name of theirs is importable from here:

- ``search_player.py``: the player: what the searcher knows of the hidden hand, the consistent
  draws, the card chosen at each decision, and the five tricks played with either or both players
  searching (``play_tricks_search``);
- ``search_strength.py``: ``search_vs_heuristic_block`` and ``search_strength``, what searching
  gains each side over the heuristic;
- ``search_check.py``: ``search_decision_block`` and ``search_check``, the strategy tables
  (strategy.py, computed with the heuristic's trick play) checked against search play.
"""
from __future__ import annotations

from analysis.ecarte.search_check import (  # noqa: F401
    DC_DIFF_CHANGED,
    DC_H_DIFF,
    DC_H_DIFF_SQ,
    DC_H_PLAY,
    DC_H_PROPOSE,
    DC_HS_CROSS,
    DC_N,
    DC_NET_CHANGED,
    DC_REFUSED,
    DC_S_DIFF,
    DC_S_DIFF_SQ,
    DC_S_PLAY,
    DC_S_PROPOSE,
    DC_VIOLATIONS,
    LANE_CHECK_DEALER,
    LANE_CHECK_ELDER,
    N_DECISION_TALLY,
    play_two_ways,
    search_check,
    search_decision_block,
)
from analysis.ecarte.search_player import (  # noqa: F401
    ALL_CARDS,
    LANE_DEALER_SEARCH,
    LANE_ELDER_SEARCH,
    N_RECORD,
    REC_VIOLATIONS,
    choose_card,
    follow_inference,
    hidden_constraints,
    play_tricks_search,
    sample_hidden,
)
from analysis.ecarte.search_strength import (  # noqa: F401
    N_SEARCH_TALLY,
    ST_A_NET,
    ST_A_NET_SQ,
    ST_A_TRICKS,
    ST_B_CHANGED,
    ST_B_GAIN,
    ST_B_GAIN_SQ,
    ST_B_NET,
    ST_B_NET_SQ,
    ST_B_TRICKS,
    ST_C_CHANGED,
    ST_C_GAIN,
    ST_C_GAIN_SQ,
    ST_C_NET,
    ST_C_NET_SQ,
    ST_C_TRICKS,
    ST_N,
    ST_VIOLATIONS,
    search_chunk,
    search_strength,
    search_vs_heuristic_block,
)

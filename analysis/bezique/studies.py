"""Named Bezique studies: a spec in, a dict out (``salon simulate bezique``).

Every study plays the numba kernel through ``analysis.runner`` and turns its integer tallies into
estimates with ``analysis.stats``.
"""
from __future__ import annotations

import numpy as np

from analysis.bezique import kernel as K
from analysis.bezique.policies import HeuristicPolicy, RandomPolicy
from analysis.bezique.reference import KINDS
from analysis.bezique.rules import BeziqueRules, get_rules
from analysis.provenance import provenance
from analysis.runner import run_tallies
from analysis.stats import Estimate, mean_from_sums, proportion

Policy = HeuristicPolicy | RandomPolicy

MELD_NAMES = {"marriage": "common_marriage", "sequence": "trump_sequence"}
"""Public names of meld kinds where they differ from the reference's."""


def simulate_deals(n: int, seed: int = 0, rules: BeziqueRules | None = None, dealer: Policy | None = None,
                   elder: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> dict:
    """Play n independent deals; summary statistics (the JSON contract of ``salon simulate``)."""
    rules = rules or get_rules()
    dealer = dealer or HeuristicPolicy()
    elder = elder or dealer
    t = run_tallies(K.deals_block, (rules.to_array(), dealer.to_array(), elder.to_array()), n, seed,
                    chunk=1 << 9, threads=threads, quiet=quiet)
    return {**provenance("bezique", rules, {"dealer": dealer.describe(), "elder": elder.describe()}, n, seed,
                         mode="deals"),
            "stats": {k: v.to_dict() for k, v in deal_stats(t).items()}, "tallies": t.tolist()}


def deal_stats(t: np.ndarray) -> dict[str, Estimate]:
    """Estimates from a deals_block tally vector."""
    n = int(t[K.T_DEALS])

    def both(slot):
        return int(t[slot] + t[slot + 1])

    stats = {
        "points_per_deal_elder": mean_from_sums(int(t[K.T_ELDER]), int(t[K.T_ELDER_SQ]), n),
        "points_per_deal_dealer": mean_from_sums(int(t[K.T_DEALER]), int(t[K.T_DEALER_SQ]), n),
        "elder_minus_dealer": mean_from_sums(int(t[K.T_NET]), int(t[K.T_NET_SQ]), n),
        "brisque_points": mean_from_sums(both(K.T_BRISQUE), int(t[K.T_BRISQUE_SQ]), n),
        "last_trick_points": mean_from_sums(both(K.T_LAST), int(t[K.T_LAST_SQ]), n),
        "seven_points": mean_from_sums(both(K.T_SEVEN), int(t[K.T_SEVEN_SQ]), n),
        "turnup_seven": proportion(int(t[K.T_TURN_UP_SEVEN]), n),
        "seven_exchanged": proportion(int(t[K.T_EXCHANGES]), n),
    }
    for k, kind in enumerate(KINDS):
        stats[MELD_NAMES.get(kind, kind)] = proportion(int(t[K.T_MELD_DEALS + k]), n)
    return stats


def simulate_games(n: int, seed: int = 0, rules: BeziqueRules | None = None, player_a: Policy | None = None,
                   player_b: Policy | None = None, *, threads: int | None = None, quiet: bool = True) -> dict:
    """Play n games to the target (player B deals first); game statistics."""
    rules = rules or get_rules()
    player_a = player_a or HeuristicPolicy()
    player_b = player_b or player_a
    t = run_tallies(K.games_block, (rules.to_array(), player_a.to_array(), player_b.to_array()), n, seed,
                    chunk=1 << 5, threads=threads, quiet=quiet, desc="games")
    games = int(t[K.G_GAMES])
    stats = {
        "deals_per_game": mean_from_sums(int(t[K.G_DEALS]), int(t[K.G_DEALS_SQ]), games),
        "dealer_first_wins": proportion(int(t[K.G_FIRST_DEALER_WINS]), games),
        "undecided": proportion(int(t[K.G_UNDECIDED]), games),
        "ended_in_stock_phase": proportion(int(t[K.G_IN_STOCK]), games),
    }
    return {**provenance("bezique", rules, {"a": player_a.describe(), "b": player_b.describe()}, n, seed,
                         mode="games"),
            "stats": {k: v.to_dict() for k, v in stats.items()}, "tallies": t.tolist()}

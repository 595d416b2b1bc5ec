"""The Piquet tips whose test plays tricks, measured with the search player (strong_policies): the
value of counting the cards (PQ-T3), the swing of winning the cards (PQ-T11) and declarations
against trick control in the exchange (PQ-T14). A weak player's trick play would make these
numbers about the heuristic, not the game; the search player is the strongest legal one."""
from __future__ import annotations

import dataclasses

import numpy as np

from analysis.piquet.rules import PiquetRules
from analysis.stats import Estimate

SEED_OFFSET = 1_000_003
"""PQ-T14 replays the chosen exchanges on deals of another seed than the race that chose them."""


def search_deals(n: int) -> int:
    """Deals for a search-player study at a tip budget of n heuristic deals (search plays about a
    hundredth as fast)."""
    return int(max(300, min(n // 100, 10_000)))


def search_player():
    """The search player (default samples) the tips are measured with."""
    from analysis.piquet.strong_policies import SearchPolicy

    return SearchPolicy()


def tracking_value(rules: PiquetRules, n: int, seed: int) -> Estimate:
    """PQ-T3 (a): elder's net per deal as a search player who counts the cards (his discards, the
    talon cards he saw, voids shown, the declarations) minus one who only knows his hand and the
    cards played; younger a counting search player; the same deals."""
    from analysis.piquet.studies import paired_policies

    s = search_player()
    return paired_policies(search_deals(n), seed, rules, s, dataclasses.replace(s, track_cards=False), s)


def deal_tallies_search(rules: PiquetRules, n: int, seed: int) -> np.ndarray:
    """The deal tally vector (studies.deal_tallies) with search players in both seats."""
    from analysis.piquet.studies import deal_tallies

    s = search_player()
    return deal_tallies(search_deals(n), seed, rules, s, s)


def exchange_replay(df, rules: PiquetRules, seed: int, deals_per_hand: int) -> dict[str, np.ndarray]:
    """PQ-T14 under search play: for every hand of the elder discard study ``df``, the exchange the
    race found best, the most declaring and the most trick-taking one are played again on
    ``deals_per_hand`` fresh deals (another seed: chosen on one sample, measured on another) with
    search players in both seats. Per hand: mean paired differences best - declaring,
    best - tricks, declaring - tricks."""
    import numba

    from analysis.cards import parse_cards
    from analysis.piquet.discard_kernel import options_block
    from analysis.piquet.discard_study import dealt_hand
    from analysis.piquet.discards import legal_options
    from analysis.piquet.rules import mask_of

    s = search_player().to_array()
    out = {"best_minus_declaring": [], "best_minus_tricks": [], "declaring_minus_tricks": []}
    for _, r in df.iterrows():
        hand = dealt_hand(df.attrs["seed"], int(r["hand"]), "elder")
        options = legal_options(hand, "elder", rules)
        best = mask_of(parse_cards(r["best_discard"]))
        chosen = np.array([best, options[int(r["max_declaring_option"])], options[int(r["max_tricks_option"])]],
                          dtype=np.int64)
        codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
        unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
        with numba.parallel_chunksize(0):
            net, _ = options_block(seed + SEED_OFFSET + int(r["hand"]), 0, deals_per_hand, codes, unseen, False,
                                   chosen, rules.to_array(), s, s, max(1, deals_per_hand // 8))
        x = net.astype(np.int64)
        out["best_minus_declaring"].append(float((x[:, 0] - x[:, 1]).mean()))
        out["best_minus_tricks"].append(float((x[:, 0] - x[:, 2]).mean()))
        out["declaring_minus_tricks"].append(float((x[:, 1] - x[:, 2]).mean()))
    return {k: np.array(v) for k, v in out.items()}

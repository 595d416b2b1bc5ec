"""The Piquet tips whose test plays tricks, measured with the search player (players/search_policy): the
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
    """Deals for a search-player study at a tip budget of n heuristic deals (search plays about
    10,000 times slower than the heuristic): n / 300, at least 100 and at most 10,000 (quick
    budget 1,000, full 10,000)."""
    return int(max(100, min(n // 300, 10_000)))


def search_player():
    """The search player (default samples) the tips are measured with."""
    from analysis.piquet.policies import SearchPolicy

    return SearchPolicy()


def tracking_value(rules: PiquetRules, n: int, seed: int) -> Estimate:
    """PQ-T3 (a): elder's net per deal as a search player who counts the cards (his discards, the
    talon cards he saw, voids shown, the declarations) minus one who only knows his hand and the
    cards played; younger a counting search player; the same deals."""
    from analysis.piquet.studies.simulate import paired_policies

    s = search_player()
    return paired_policies(search_deals(n), seed, rules, s, dataclasses.replace(s, track_cards=False), s)


def deal_tallies_search(rules: PiquetRules, n: int, seed: int) -> np.ndarray:
    """The deal tally vector (studies.deal_tallies) with search players in both seats."""
    from analysis.piquet.studies.simulate import deal_tallies

    s = search_player()
    return deal_tallies(search_deals(n), seed, rules, s, s)


def replay_exchanges(df, rules: PiquetRules, seed: int, deals_per_hand: int, pick) -> list[np.ndarray]:
    """For every hand of the elder discard study ``df``, the exchanges ``pick(row, hand, options)``
    (discard masks) played by search players in both seats on ``deals_per_hand`` fresh deals
    (another seed than the race that chose them: chosen on one sample, measured on another).
    Per hand: the (deals, exchanges) net scores."""
    import numba

    from analysis.piquet.studies.discards.analyser import legal_options
    from analysis.piquet.studies.discards.kernel import options_block
    from analysis.piquet.studies.discards.study import dealt_hand

    s = search_player().to_array()
    out = []
    for _, r in df.iterrows():
        hand = dealt_hand(df.attrs["seed"], int(r["hand"]), "elder")
        chosen = np.array(pick(r, hand, legal_options(hand, "elder", rules)), dtype=np.int64)
        codes = np.array([c for c in range(32) if hand >> c & 1], dtype=np.int8)
        unseen = np.array([c for c in range(32) if not hand >> c & 1], dtype=np.int8)
        with numba.parallel_chunksize(0):
            net, _ = options_block(seed + SEED_OFFSET + int(r["hand"]), 0, deals_per_hand, codes, unseen, False,
                                   chosen, rules.to_array(), s, s, max(1, deals_per_hand // 8))
        out.append(net.astype(np.int64))
    return out


def _best_mask(r) -> int:
    from analysis.cards import parse_cards
    from analysis.piquet.rules import mask_of

    return mask_of(parse_cards(r["best_discard"]))


def exchange_replay(df, rules: PiquetRules, seed: int, deals_per_hand: int) -> dict[str, np.ndarray]:
    """PQ-T14 under search play: the exchange the race found best, the most declaring and the most
    trick-taking one (replay_exchanges). Per hand: mean paired differences best - declaring,
    best - tricks, declaring - tricks."""
    nets = replay_exchanges(df, rules, seed, deals_per_hand, lambda r, hand, options: [
        _best_mask(r), options[int(r["max_declaring_option"])], options[int(r["max_tricks_option"])]])
    return {"best_minus_declaring": np.array([float((x[:, 0] - x[:, 1]).mean()) for x in nets]),
            "best_minus_tricks": np.array([float((x[:, 0] - x[:, 2]).mean()) for x in nets]),
            "declaring_minus_tricks": np.array([float((x[:, 1] - x[:, 2]).mean()) for x in nets])}


def exchange_spread(df, rules: PiquetRules, seed: int, deals_per_hand: int) -> np.ndarray:
    """PQ-T1 under search play: per hand, the best exchange minus the heuristic's (the typical one),
    both played by search players on fresh deals."""
    from analysis.piquet.studies.discards.study import rule_discards

    nets = replay_exchanges(df, rules, seed, deals_per_hand, lambda r, hand, options: [
        _best_mask(r), rule_discards(hand, "elder", rules)["heuristic"]])
    return np.array([float((x[:, 0] - x[:, 1]).mean()) for x in nets])


def play_spread(rules: PiquetRules, n: int, seed: int) -> Estimate:
    """PQ-T1 under search play: elder's net per deal playing his tricks as the search player minus
    as the heuristic (both exchanging as the heuristic), younger a search player; the same deals."""
    from analysis.piquet.policies import HeuristicPolicy
    from analysis.piquet.studies.simulate import paired_policies

    s = search_player()
    return paired_policies(search_deals(n), seed, rules, s, HeuristicPolicy(), s)


def pique_value(rules: PiquetRules, n: int, seed: int) -> Estimate:
    """PQ-T6 under search play: elder's net per deal as a search player who counts a pique still to
    be made when choosing his cards, minus one who ignores it (both exchange as the heuristic),
    younger a search player; the same deals."""
    from analysis.piquet.studies.simulate import paired_policies

    s = search_player()
    return paired_policies(search_deals(n), seed, rules, s, dataclasses.replace(s, play_for_pique=False), s)

"""Plain-Python brute force of the Bezique end game (BZ-END, BZ-BRISQUE, BZ-LAST).

The last tricks after the stock is exhausted are a perfect-information zero-sum game. This
module solves it by exhaustive minimax (memoised on the exact state, no pruning) so that faster
solvers can be tested against it. Card codes are those of :mod:`analysis.bezique.reference.cards`.
"""
from __future__ import annotations

import random
from functools import lru_cache

from analysis.bezique.reference.cards import face, follower_wins, is_brisque, rank_of, suit_of


def end_legal_follows(hand: list[int], led: int, trump: int, must_win: bool) -> list[int]:
    """BZ-END: the cards of ``hand`` (in hand order) the follower may play to ``led``.

    Follow suit (classic, ``must_win``: with a strictly higher card of the suit if able);
    if void in the suit led, trump if able; else any card.
    """
    suited = [c for c in hand if suit_of(c) == suit_of(led)]
    if suited:
        if must_win:
            higher = [c for c in suited if rank_of(c) > rank_of(led)]
            if higher:
                return higher
        return suited
    trumps = [c for c in hand if suit_of(c) == trump]
    return trumps if trumps else list(hand)


def _one_per_face(cards) -> list[int]:
    """The lowest code of each distinct face among ``cards`` (copies are interchangeable)."""
    out: dict[int, int] = {}
    for c in sorted(cards):
        out.setdefault(face(c), c)
    return list(out.values())


def _drop(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` without ``card`` (sorted tuple in, sorted tuple out)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _solver(trump: int, must_win: bool, brisque: int, last_trick: int):
    """The memoised leader-perspective value and the value of one (lead, follow) pair."""

    def trick(leader, follower, lead, follow):
        """Leader's value when ``lead`` and ``follow`` are played and the rest is optimal."""
        pts = brisque * (is_brisque(lead) + is_brisque(follow))
        rest_l, rest_f = _drop(leader, lead), _drop(follower, follow)
        if not rest_l:
            pts += last_trick
        if follower_wins(lead, follow, trump):
            return -(pts + (value(rest_f, rest_l) if rest_f else 0))
        return pts + (value(rest_l, rest_f) if rest_l else 0)

    def lead_value(leader, follower, lead):
        """Leader's value of ``lead``: the follower picks the legal reply that minimises it."""
        follows = _one_per_face(end_legal_follows(list(follower), lead, trump, must_win))
        return min(trick(leader, follower, lead, f) for f in follows)

    @lru_cache(maxsize=None)
    def value(leader, follower):
        """Leader's optimal value (its points minus the follower's) with both hands sorted."""
        return max(lead_value(leader, follower, c) for c in _one_per_face(leader))

    return value, lead_value, trick


def _check(hand, opponent) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Validate a position and return both hands as sorted tuples."""
    h, o = tuple(sorted(hand)), tuple(sorted(opponent))
    if len(h) != len(o) or not 1 <= len(h) <= 8:
        raise ValueError("both hands must hold the same number (1..8) of cards")
    if len(set(h + o)) != 2 * len(h) or not all(0 <= c < 64 for c in h + o):
        raise ValueError("cards must be distinct codes 0..63")
    return h, o


def solve(hand, opponent, trump, hand_leads=True, must_win=False, brisque=10, last_trick=10):
    """Exact minimax: (V, best). V = hand's points minus opponent's in the remaining tricks;
    ``best`` = sorted distinct faces of the leader's leads that achieve V."""
    h, o = _check(hand, opponent)
    value, lead_value, _ = _solver(trump, must_win, brisque, last_trick)
    leader, follower = (h, o) if hand_leads else (o, h)
    v = value(leader, follower)
    best = sorted(face(c) for c in _one_per_face(leader) if lead_value(leader, follower, c) == v)
    return (v if hand_leads else -v), best


def random_position(rng: random.Random, n: int) -> tuple[list[int], list[int], int]:
    """n cards each (2n distinct codes of the 64) and a trump suit 0..3."""
    if not 1 <= n <= 8:
        raise ValueError("n must be 1..8")
    cards = rng.sample(range(64), 2 * n)
    return sorted(cards[:n]), sorted(cards[n:]), rng.randrange(4)


def play_line(hand, opponent, trump, hand_leads, must_win, brisque=10, last_trick=10) -> int:
    """Play out a principal line (each side plays its first optimal card, by code) and return
    the realised V for ``hand``; it equals ``solve``'s V."""
    h, o = _check(hand, opponent)
    value, lead_value, trick = _solver(trump, must_win, brisque, last_trick)
    leader, follower, hand_is_leader = (h, o, True) if hand_leads else (o, h, False)
    realised = 0
    while leader:
        v = value(leader, follower)
        lead = next(c for c in _one_per_face(leader) if lead_value(leader, follower, c) == v)
        follows = _one_per_face(end_legal_follows(list(follower), lead, trump, must_win))
        follow = next(f for f in follows if trick(leader, follower, lead, f) == v)
        pts = brisque * (is_brisque(lead) + is_brisque(follow))
        leader, follower = _drop(leader, lead), _drop(follower, follow)
        if not leader:
            pts += last_trick
        if follower_wins(lead, follow, trump):
            leader, follower, hand_is_leader = follower, leader, not hand_is_leader
        realised += pts if hand_is_leader else -pts
    return realised


_SOLVERS: dict = {}


def _cached_solver(trump: int, must_win: bool, brisque: int, last_trick: int):
    """One memoised solver per rules and trump, kept across calls (its memo is keyed by the exact
    hands, so it stays valid): a deal's successive end-game decisions reuse the earlier search."""
    key = (trump, bool(must_win), brisque, last_trick)
    if key not in _SOLVERS or _SOLVERS[key][0].cache_info().currsize > 100_000:
        if len(_SOLVERS) > 16:
            _SOLVERS.clear()
        _SOLVERS[key] = _solver(*key)  # a fresh memo: the old one is dropped, not grown for ever
    return _SOLVERS[key]


def exact_lead(hand, opponent, trump, must_win, brisque=10, last_trick=10) -> int:
    """The end-game player's lead: the lowest face among the optimal leads of ``hand``."""
    h, o = _check(hand, opponent)
    value, lead_value, _ = _cached_solver(trump, must_win, brisque, last_trick)
    v = value(h, o)
    return min(face(c) for c in _one_per_face(h) if lead_value(h, o, c) == v)


def option_values(leader, follower, led, trump, must_win, brisque=10, last_trick=10) -> dict[int, int]:
    """The exact value of each distinct option of the player to move, by face, from his side: each
    lead of ``leader`` when ``led`` is None, else each legal reply of ``follower`` to ``led`` (still
    in ``leader``). ``salon review`` rates an end-game card with them."""
    lh, fh = _check(leader, follower)
    value, lead_value, trick = _cached_solver(trump, must_win, brisque, last_trick)
    if led is None:
        return {face(c): lead_value(lh, fh, c) for c in _one_per_face(lh)}
    follows = _one_per_face(end_legal_follows(list(fh), led, trump, must_win))
    return {face(f): -trick(lh, fh, led, f) for f in follows}


def exact_follow(leader, follower, led, trump, must_win, brisque=10, last_trick=10) -> int:
    """The end-game player's reply to ``led`` (still in ``leader``): the lowest face among the
    legal replies that minimise the leader's value."""
    lh, fh = _check(leader, follower)
    _, _, trick = _cached_solver(trump, must_win, brisque, last_trick)
    follows = _one_per_face(end_legal_follows(list(fh), led, trump, must_win))
    values = {face(f): trick(lh, fh, led, f) for f in follows}
    low = min(values.values())
    return min(f for f, v in values.items() if v == low)

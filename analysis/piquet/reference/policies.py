"""Piquet reference: the policies' decisions, as docs/piquet-engine.md ("Policies") states them.

The heuristic's keep values, point suit and guards for the exchanges, its leads and follows with
or without card tracking, and the random policy's draws from the deal's choices stream: one
:class:`Player` per seat.
"""
from __future__ import annotations

from analysis.errors import InputError
from analysis.piquet.reference.cards import (
    ACE,
    ALL_CARDS,
    ELDER,
    KING,
    QUEEN,
    YOUNGER,
    count,
    highest,
    legal_follows,
    lowest,
    mask_of_codes,
    rank_of,
    ranks_in,
    runs_of,
    suit_mask,
    suit_of,
)
from analysis.piquet.rules import POINT_VALUES, TEN, codes_of_mask
from analysis.rng import Stream

# ---------------------------------------------------------------------------------------------
# Policies (docs/piquet-engine.md, "Policies")
# ---------------------------------------------------------------------------------------------

def point_suit(hand: int) -> int:
    """The heuristic's point suit: most cards, ties by higher point value, then lower suit."""
    def key(s):
        ranks = ranks_in(hand, s)
        return (count(ranks), sum(POINT_VALUES[r] for r in range(8) if ranks >> r & 1), -s)
    return max(range(4), key=key)


def guards(hand: int) -> int:
    """The heuristic's guards (younger): the lowest card under a king with >= 2 cards in the suit,
    the two lowest under a queen with >= 3, when that is the suit's highest card."""
    out = 0
    for s in range(4):
        cards = hand & suit_mask(s)
        n = count(cards)
        if not cards:
            continue
        top = rank_of(highest(cards))
        if top == KING and n >= 2:
            out |= 1 << lowest(cards)
        elif top == QUEEN and n >= 3:
            first = lowest(cards)
            out |= 1 << first | 1 << lowest(cards & ~(1 << first))
    return out


def learned_features(hand: int, c: int) -> list[int]:
    """phi(c) of the learned exchange (docs/piquet-engine.md, "Learned exchange"), in the order of
    learned_exchange.FEATURES, computed from the card's suit and the hand as the docs state it."""
    s, r = suit_of(c), rank_of(c)
    ranks = ranks_in(hand, s)
    n = count(hand & suit_mask(s))
    run = next(length for length, top in runs_of(ranks) if top - length < r <= top)
    above = sum(1 for q in range(r + 1, 8) if not ranks >> q & 1)
    near = sum(1 for q in range(r - 2, r + 3) if q != r and 0 <= q < 8 and ranks >> q & 1)
    guard_mask = guards(hand)
    top = rank_of(highest(hand & suit_mask(s)))
    held = sum(hand >> (8 * t + r) & 1 for t in range(4))
    in_point = s == point_suit(hand)
    return ([int(n == length and r == q) for length in range(1, 9) for q in range(8)]
            + [int(run == 2), int(run == 3), int(run == 4), int(run >= 5)]
            + [int(above == 0), int(above == 1), int(above == 2), int(above >= 3)]
            + [near, guard_mask >> c & 1,
               int(r == top and r in (QUEEN, KING) and bool(guard_mask & suit_mask(s)))]
            + [int(in_point and r == q) for q in range(8)] + [int(in_point and n >= 5)]
            + [int(held == k and r == q) for k in (2, 3, 4) for q in range(TEN, 8)])


def learned_count_terms(hand: int) -> list[int]:
    """g(hand) of the learned exchange's count biases: aces, kings, the point suit's length, the
    longest run of consecutive ranks in a suit, the 7s, 8s and 9s."""
    runs = [length for s in range(4) for length, _ in runs_of(ranks_in(hand, s))]
    return [sum(hand >> (8 * s + ACE) & 1 for s in range(4)), sum(hand >> (8 * s + KING) & 1 for s in range(4)),
            count(hand & suit_mask(point_suit(hand))), max(runs), sum(count(hand & (0x07 << 8 * s)) for s in range(4))]


def learned_kept_features(kept: int, thrown: int) -> list[int]:
    """psi(K, D) of the learned exchange's scorer (docs/piquet-engine.md, "Learned exchange"), in the
    order of players/learned.KEPT_FEATURES: the kept hand's point length (one-hot 0..8) and its value
    minus 40 at that length, the longest run kept (one-hot), for 10 to A whether 2, 3 or 4 are kept,
    the second-longest suit's length (one-hot), the suits emptied, the suits thrown from (one-hot),
    and per pattern of ranks (its 8-bit lane value) how many suits are kept exactly so."""
    lengths = [count(kept & suit_mask(s)) for s in range(4)]
    p = point_suit(kept)
    point_value = sum(POINT_VALUES[r] for r in range(8) if ranks_in(kept, p) >> r & 1)
    longest = max([length for s in range(4) for length, _ in runs_of(ranks_in(kept, s))], default=0)
    second = sorted(lengths)[2]
    sets = [int(sum(kept >> (8 * t + r) & 1 for t in range(4)) == k) for r in range(TEN, 8) for k in (2, 3, 4)]
    touched = sum(1 for s in range(4) if thrown & suit_mask(s))
    return ([int(lengths[p] == n) for n in range(9)] + [(point_value - 40) * int(lengths[p] == n) for n in range(9)]
            + [int(longest == n) for n in range(9)] + sets + [int(second == n) for n in range(9)]
            + [lengths.count(0)] + [int(touched == n) for n in range(5)]
            + [sum(int(ranks_in(kept, s) == lane) for s in range(4)) for lane in range(256)])


def learned_ordering_discard(hand: int, lo: int, hi: int, weights) -> list[int]:
    """The learned exchange's ordering alone (``exchange=learned-ordering``), with one model's integer
    ``weights`` (the ordering is their first part: the card features, the biases of taking 0..7
    cards, then their hand terms, 5 per count): for each size k the k cards with the highest
    u = w . phi (ties: the lower code first), then the size with the best total plus bias (ties: the
    fewer cards)."""
    takes, terms = 8, 5
    nf = len(learned_features(hand, codes_of_mask(hand)[0]))
    u = {c: sum(w * f for w, f in zip(weights[:nf], learned_features(hand, c), strict=True))
         for c in codes_of_mask(hand)}
    g = learned_count_terms(hand)

    def bias(k):
        v = weights[nf + takes + terms * k:nf + takes + terms * (k + 1)]
        return weights[nf + k] + sum(a * b for a, b in zip(v, g, strict=True))

    order = sorted(u, key=lambda c: (-u[c], c))
    best = max(range(lo, hi + 1), key=lambda k: (sum(u[c] for c in order[:k]) + bias(k), -k))
    return sorted(order[:best])


def learned_discard(hand: int, lo: int, hi: int, weights) -> list[int]:
    """The learned exchange with one model's integer ``weights``: the ordering (the card features,
    the biases of taking 0..7 cards, then their hand terms, 5 per count), then the scorer (the same,
    then the kept-hand features). Candidates: for each size k, the k cards of highest ordering value
    (ties: the lower code first), also with one suit, or one rank 10..A held three or more times,
    kept whole; the scorer's best of them (the first on ties), then, when five or more cards may be
    taken, while a move raises the score (at most 16 moves) the first such move: for each thrown card (ascending) a swap with each kept
    card (ascending), then throwing it no more; then throwing one more kept card (ascending)."""
    takes, terms = 8, 5  # biases for taking 0..7 cards, each with the 5 terms of learned_count_terms
    cards = codes_of_mask(hand)
    phi = {c: learned_features(hand, c) for c in cards}
    nf = len(phi[cards[0]])
    order_size = nf + takes * (1 + terms)
    g = learned_count_terms(hand)

    def additive(w):
        u = {c: sum(a * b for a, b in zip(w[:nf], phi[c], strict=True)) for c in cards}

        def bias(k):
            v = w[nf + takes + terms * k:nf + takes + terms * (k + 1)]
            return w[nf + k] + sum(a * b for a, b in zip(v, g, strict=True))
        return u, bias

    u0, _ = additive(weights[:order_size])
    u1, bias1 = additive(weights[order_size:2 * order_size])
    w2 = weights[2 * order_size:]

    def value(thrown: frozenset) -> int:
        mask = sum(1 << c for c in thrown)
        return (sum(u1[c] for c in thrown) + bias1(len(thrown))
                + sum(a * b for a, b in zip(w2, learned_kept_features(hand & ~mask, mask), strict=True)))

    order = sorted(cards, key=lambda c: (-u0[c], c))
    avoids = [0] + [suit_mask(s) for s in range(4)]
    avoids += [m for m in (sum(1 << (8 * t + r) for t in range(4)) for r in range(TEN, 8)) if count(hand & m) >= 3]
    best, best_value = None, None
    for k in range(lo, hi + 1):
        for avoid in avoids:
            pick = [c for c in order if not avoid >> c & 1][:k]
            if len(pick) == k and (best is None or value(frozenset(pick)) > best_value):
                best, best_value = frozenset(pick), value(frozenset(pick))
    for _ in range(16 if hi >= 5 else 0):
        kept = [c for c in cards if c not in best]
        moves = [best - {i} | {j} for i in sorted(best) for j in ([*kept, None] if len(best) > lo else kept)]
        moves = [m - {None} for m in moves] + ([best | {j} for j in kept] if len(best) < hi else [])
        better = next((m for m in moves if value(m) > best_value), None)
        if better is None:
            break
        best, best_value = better, value(better)
    return sorted(best)


def keep_values(hand: int, policy, seat: str) -> dict[int, int]:
    """The heuristic's keep value of each card of a 12-card hand (higher: rather kept)."""
    psuit = point_suit(hand)
    guarded = guards(hand) if seat == YOUNGER else 0
    in_runs = 0
    for s in range(4):
        for length, top in runs_of(ranks_in(hand, s)):
            if length >= 3:
                for r in range(top - length + 1, top + 1):
                    in_runs |= 1 << (8 * s + r)
    values = {}
    for c in codes_of_mask(hand):
        s, r = suit_of(c), rank_of(c)
        v = r + policy.len_weight * count(hand & suit_mask(s))
        if s == psuit:
            v += policy.point_bonus
        if in_runs >> c & 1:
            v += policy.sequence_bonus
        if r >= TEN and sum(hand >> (8 * t + r) & 1 for t in range(4)) >= 3:
            v += policy.set_bonus
        if r == ACE:
            v += policy.ace_bonus
        if guarded >> c & 1:
            v += policy.guard_bonus
        values[c] = v
    return values


class Player:
    """One player's decisions: his policy (heuristic or random; the ``dd`` and ``search`` players
    are its subclass reference/search.StrongPlayer) and the deal's choices stream.

    Both players share one choices stream, consumed in the order the decisions occur; the
    heuristic consumes no randomness. ``unseen`` is the heuristic's U: the cards that may be in
    the opponent's hand (kept only with ``track_cards``).
    """

    KINDS = ("heuristic", "random")
    """The policy kinds this class plays (reference/search.StrongPlayer plays dd and search)."""

    def __init__(self, policy, seat: str, choices: Stream) -> None:
        kind = getattr(policy, "kind", None)
        if kind not in self.KINDS:
            raise InputError(f"unknown Piquet policy {policy!r}; use HeuristicPolicy, RandomPolicy, "
                             "DoubleDummyPolicy or SearchPolicy")
        self.policy = policy
        self.seat = seat
        self.random = kind == "random"
        self.choices = choices
        self.track = not self.random and bool(policy.track_cards)
        self.unseen = ALL_CARDS

    def _pick(self, codes: list[int]) -> int:
        """The below(n)-th lowest of n codes (ascending)."""
        return codes[self.choices.below(len(codes))]

    def discard(self, hand: int, lo: int, hi: int, model: int = 0) -> list[int]:
        """PQ-EX-E / PQ-EX-Y: between lo and hi cards of the 12-card hand, ascending codes
        (``model``: the learned exchange's model of the rule set, learned_exchange.exchange_model)."""
        if self.random:
            n = lo + self.choices.below(hi - lo + 1)
            left, chosen = codes_of_mask(hand), []
            for _ in range(n):
                chosen.append(left.pop(self.choices.below(len(left))))
            return sorted(chosen)
        exchange = getattr(self.policy, "exchange", "keep")
        if exchange != "keep":
            from analysis.piquet.players.learned import load_weights

            weights = load_weights()[int(self.seat != ELDER), model].tolist()
            return (learned_discard if exchange == "learned" else learned_ordering_discard)(hand, lo, hi, weights)
        values = keep_values(hand, self.policy, self.seat)
        keep = self.policy.elder_keep if self.seat == ELDER else self.policy.younger_keep
        n = min(hi, max(lo, sum(v < keep for v in values.values())))
        return sorted(sorted(values, key=lambda c: (values[c], c))[:n])

    def start_play(self, hand: int, discards: list[int], seen: list[int]) -> None:
        """Card tracking: U is every card but his hand, his discards and the seen talon cards."""
        self.unseen = ALL_CARDS & ~hand & ~mask_of_codes(discards) & ~mask_of_codes(seen)

    def observe(self, led: int, followed: int, i_led: bool) -> None:
        """Card tracking after a trick: both cards leave U; a void opponent shows his suit empty."""
        self.unseen &= ~(1 << led | 1 << followed)
        if i_led and suit_of(followed) != suit_of(led):
            self.unseen &= ~suit_mask(suit_of(led))

    def lead(self, hand: int) -> int:
        """The card to lead: a master suit's highest card, else the longest suit's lowest."""
        if self.random:
            return self._pick(codes_of_mask(hand))
        unseen = self.unseen if self.track else ALL_CARDS & ~hand
        held = [s for s in range(4) if hand & suit_mask(s)]
        masters = [s for s in held
                   if highest(hand & suit_mask(s)) > highest(unseen & suit_mask(s))]
        if masters:
            s = max(masters, key=lambda s: (count(hand & suit_mask(s)), -s))
            return highest(hand & suit_mask(s))
        s = max(held, key=lambda s: (count(hand & suit_mask(s)),
                                     rank_of(highest(hand & suit_mask(s))), -s))
        return lowest(hand & suit_mask(s))

    def follow(self, hand: int, led: int) -> int:
        """The card to play to ``led``: win as cheaply as possible, else play low; void: his
        lowest-ranked card, ties by the suit with fewer cards, then lower suit index."""
        legal = legal_follows(hand, led)
        if self.random:
            return self._pick(codes_of_mask(legal))
        suited = hand & suit_mask(suit_of(led))
        if suited:
            higher = suited & ~((2 << led) - 1)
            return lowest(higher or suited)
        held = [s for s in range(4) if hand & suit_mask(s)]
        s = min(held, key=lambda s: (rank_of(lowest(hand & suit_mask(s))),
                                     count(hand & suit_mask(s)), s))
        return lowest(hand & suit_mask(s))

"""The meld-aware part of the heuristic's keep value (``meld_chance``): in the stock phase a card
is worth keeping by the points of the melds it could still join, weighted by the chance of
drawing the cards they lack (docs/bezique-engine.md, "Keep value"). Integer arithmetic only, so
the reference (``reference.policies.expected_meld_points``) gives the same numbers.

The melds valued are the marriage, the bezique and the double bezique, the trump sequence and
the fours of jacks, queens, kings and aces, at their usual values (250, 500, 40, 40/20, 100, 80,
60, 40): the heuristic's own valuation, not the rules' (a variant's switches do not change it).
A card the player lacks can be drawn while a copy of it is unseen (not in his hand or table, not
played, not on the opponent's table); his draws are half of the stock left, turn-up included;
the chance of at least one of u wanted cards among d draws from U unseen cards is
1 - C(U - u, d) / C(U, d), in thousandths, rounded down at every step.
"""
from __future__ import annotations

from numba import njit

from analysis.bezique.engine.cards import ACE, JACK, JD, KING, QS, QUEEN
from analysis.bezique.engine.layout import S_HAND, S_PLAYED, S_TABLE
from analysis.bits import popcount

SEQUENCE, DOUBLE, BEZIQUE, ROYAL, MARRIAGE = 250, 500, 40, 40, 20
FOURS = (0, 0, 0, 40, 60, 80, 0, 100)  # by rank: jacks, queens, kings, aces


@njit(cache=True, inline="always")
def chance(u, unseen, draws):
    """Per mille: at least one of ``u`` wanted cards among ``draws`` from ``unseen`` cards."""
    if u <= 0:
        return 0
    q = 1000
    for i in range(draws):
        if unseen - u - i <= 0:
            return 1000
        q = q * (unseen - u - i) // (unseen - i)
    return 1000 - q


@njit(cache=True, inline="always")
def copies(m, f):
    """Copies of face ``f`` in a 64-bit card mask."""
    return ((m >> f) & 1) + ((m >> (f + 32)) & 1)


@njit(cache=True)
def expected_meld_points(f, hold, gone, unseen, draws, trump):
    """The points of the melds face ``f`` could still join, times the chance of completing each."""
    r = f & 7
    s = (f >> 3) & 3
    total = 0
    if r == KING or r == QUEEN:
        g = (f & ~7) | (KING + QUEEN - r)
        if copies(hold, g) == 0:
            total += (ROYAL if s == trump else MARRIAGE) * chance(2 - copies(gone, g), unseen, draws)
    if f == QS or f == JD:
        g = JD if f == QS else QS
        if copies(hold, g) == 0:
            total += BEZIQUE * chance(2 - copies(gone, g), unseen, draws)
        p = 1000
        for h in (QS, JD):
            need = 2 - copies(hold, h)
            avail = 2 - copies(hold, h) - copies(gone, h)
            if need > avail:
                p = 0
            for j in range(need):
                p = p * chance(avail - j, unseen, draws) // 1000
        total += DOUBLE * p
    if s == trump and r >= JACK:
        p = 1000
        missing = 0
        for rr in range(JACK, ACE + 1):
            g = 8 * trump + rr
            if copies(hold, g) == 0:
                missing += 1
                p = p * chance(2 - copies(gone, g), unseen, draws) // 1000
        if missing > 0:
            total += SEQUENCE * p
    if FOURS[r] > 0:
        held = 0
        out = 0
        for ss in range(4):
            held += copies(hold, 8 * ss + r)
            out += copies(gone, 8 * ss + r)
        need = 4 - held
        avail = 8 - held - out
        if 0 < need <= avail:
            p = 1000
            for j in range(need):
                p = p * chance(avail - j, unseen, draws) // 1000
            total += FOURS[r] * p
    return total // 1000


@njit(cache=True, inline="always")
def meld_outlook(S, seat):
    """(his cards, the cards gone to him, unseen cards, his draws left) for the stock phase."""
    hold = S[S_HAND + seat] | S[S_TABLE + seat]
    gone = S[S_PLAYED] | S[S_TABLE + 1 - seat]
    known = popcount(S[S_HAND]) + popcount(S[S_HAND + 1]) + popcount(S[S_TABLE]) + popcount(S[S_TABLE + 1])
    drawn = known + popcount(S[S_PLAYED]) - 16
    unseen = 64 - popcount(hold) - popcount(gone)
    return hold, gone, unseen, (48 - drawn) // 2

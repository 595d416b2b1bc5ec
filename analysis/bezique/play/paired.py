"""Paired (common-random-number) comparisons of Bezique policies, in parallel numba.

Every deal ``i`` of a study with seed ``s`` is played once per tested policy (the *options*) and
per seat, on the same cards: the cards come from ``Stream(s, i, 0)`` and the choices from
``Stream(s, i, 1)`` exactly as in ``kernel.deals_chunk``. The tested player plays **both seats
on every deal**: once as elder against the fixed opponent as dealer, once as dealer against the
opponent as elder. The seat advantage therefore cancels exactly, not only on average, and the
luck of the two hands cancels too (the tested player holds each of them once per option).

Per play the kernel measures a few quantities from the tested player's side (``Q_*``: net score,
meld points, brisques, end-phase tricks, ...). Per deal and per *view* (both seats summed, the
elder seat alone, the dealer seat alone) it adds to integer tallies, for every quantity, the sum
of each option's value and the matrix of sums of products between options. From those, the sums
``Σd`` and ``Σd²`` of the per-deal difference ``d = x_a - x_b`` of any two options follow exactly
in integer arithmetic (``Σd² = G[a,a] - 2 G[a,b] + G[b,b]``), hence a paired interval
(``stats.paired_difference``). Tallies are integers summed over chunks by ``runner.run_tallies``:
bit-identical for any thread count and chunk size.

In the *both seats* view a deal's value is the sum over the two seats; :class:`Paired` halves it,
so every effect reads "per deal, per seat" (the mean over the tested player's two seats).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import NO_TARGET
from analysis.bezique.engine.layout import (
    O_BRISQUE,
    O_LAST,
    O_MELD,
    O_MELD_COUNT,
    O_PLAYED,
    O_SEVEN,
    O_TOTAL,
    O_TURN_UP,
)
from analysis.bezique.play.deal import run_deal
from analysis.bezique.players.trick_loop import new_scratch
from analysis.bezique.reference.melds import KINDS
from analysis.bezique.rules import R_BRISQUE, BeziqueRules
from analysis.blocks import chunk_rows, runs
from analysis.errors import InputError
from analysis.rng import stream_start
from analysis.runner import run_tallies
from analysis.stats import Estimate, mean_from_sums, paired_difference, proportion

# Per-play quantities, from the tested player's side.
Q_NET = 0  # his deal total minus the opponent's
Q_TOTAL = 1  # his deal total
Q_MELD = 2  # his meld points
Q_BRISQUE = 3  # his brisque points (aces and tens won)
Q_LAST = 4  # his last-trick points
Q_SEVEN = 5  # his trump-seven points
Q_STOCK_TRICKS = 6  # stock tricks (1..24) he won
Q_END_TRICKS = 7  # end-phase tricks (25..32) he won
Q_END_BRISQUE = 8  # brisque points in the end-phase tricks he won
Q_STOCK_TRUMPS = 9  # trumps he played in the stock phase
Q_END_TRUMPS = 10  # trumps he played in the end phase (the trumps he saved)
NQ = 11
QUANTITIES = ("net", "total", "meld_points", "brisque_points", "last_trick_points", "seven_points",
              "stock_tricks", "end_tricks", "end_brisque_points", "stock_trumps_played", "end_trumps_played")

# Views: both seats summed per deal, the elder seat alone, the dealer seat alone.
V_BOTH, V_ELDER, V_DEALER = 0, 1, 2
VIEWS = ("both", "elder", "dealer")
N_VIEWS = 3

N_KINDS = len(KINDS)
MAX_OPTIONS = 16
_BRISQUE_RANK = 6  # ranks 10 and A are 6 and 7 (7 8 9 J Q K 10 A = 0..7)


@njit(cache=True, inline="always")
def row_length(m):
    """Tally row length for m options: deals; per view and quantity, m sums and an m x m matrix of
    sums of products; per option and meld kind, the plays in which he laid that kind."""
    return 1 + N_VIEWS * NQ * (m + m * m) + m * N_KINDS


@njit(cache=True, inline="always")
def _block_at(v, q, m):
    """Offset of the (view, quantity) block: m sums, then the m x m products (row major)."""
    return 1 + (v * NQ + q) * (m + m * m)


@njit(cache=True, inline="always")
def _kinds_at(m):
    return 1 + N_VIEWS * NQ * (m + m * m)


@njit(cache=True)
def side_quantities(out, side, brisque, q):
    """The Q_* quantities of a played deal (``out``, O_* layout) for the player in seat ``side``
    (0 elder, 1 dealer); tricks are replayed from the cards played (elder leads trick 1)."""
    o = 1 - side
    q[Q_NET] = out[O_TOTAL + side] - out[O_TOTAL + o]
    q[Q_TOTAL] = out[O_TOTAL + side]
    meld = 0
    for k in range(N_KINDS):
        meld += out[O_MELD + 2 * k + side]
    q[Q_MELD] = meld
    q[Q_BRISQUE] = out[O_BRISQUE + side]
    q[Q_LAST] = out[O_LAST + side]
    q[Q_SEVEN] = out[O_SEVEN + side]
    trump = (out[O_TURN_UP] >> 3) & 3
    leader = 0
    stock_tricks = 0
    end_tricks = 0
    end_bq = 0
    stock_trumps = 0
    end_trumps = 0
    for t in range(32):
        led = out[O_PLAYED + 2 * t]
        fol = out[O_PLAYED + 2 * t + 1]
        if fol < 0:
            break
        ls = (led >> 3) & 3
        fs = (fol >> 3) & 3
        if fs == ls:
            fw = (fol & 7) > (led & 7)
        else:
            fw = fs == trump
        w = 1 - leader if fw else leader
        mine = led if leader == side else fol
        if (mine >> 3) & 3 == trump:
            if t < 24:
                stock_trumps += 1
            else:
                end_trumps += 1
        if w == side:
            if t < 24:
                stock_tricks += 1
            else:
                end_tricks += 1
                end_bq += ((led & 7) >= _BRISQUE_RANK) + ((fol & 7) >= _BRISQUE_RANK)
        leader = w
    q[Q_STOCK_TRICKS] = stock_tricks
    q[Q_END_TRICKS] = end_tricks
    q[Q_END_BRISQUE] = end_bq * brisque
    q[Q_STOCK_TRUMPS] = stock_trumps
    q[Q_END_TRUMPS] = end_trumps


@njit(cache=True, nogil=True)
def paired_chunk(useed, start, count, rules, tested, opponent):
    """The tally row of deals start..start+count-1: each deal under every tested policy (rows of
    ``tested``), in both seats, against ``opponent``."""
    m = tested.shape[0]
    scr = new_scratch()
    out = scr.out
    zero, no_target = np.int64(0), np.int64(NO_TARGET)  # typed: literals would compile run_deal again
    row = np.zeros(row_length(m), dtype=np.int64)
    x = np.zeros((N_VIEWS, NQ, m), dtype=np.int64)
    q = np.zeros(NQ, dtype=np.int64)
    brisque = rules[R_BRISQUE]
    kinds = _kinds_at(m)
    for i in range(start, start + count):
        ui = np.uint64(i)
        for j in range(m):
            pj = tested[j]
            for seat in range(2):
                stc = stream_start(useed, ui, np.uint64(0))
                sto = stream_start(useed, ui, np.uint64(1))
                if seat == 0:
                    run_deal(scr, stc, sto, rules, pj, opponent, zero, zero, no_target)
                else:
                    run_deal(scr, stc, sto, rules, opponent, pj, zero, zero, no_target)
                side_quantities(out, seat, brisque, q)
                for k in range(NQ):
                    x[1 + seat, k, j] = q[k]
                for k in range(N_KINDS):
                    row[kinds + j * N_KINDS + k] += out[O_MELD_COUNT + 2 * k + seat] > 0
            for k in range(NQ):
                x[V_BOTH, k, j] = x[V_ELDER, k, j] + x[V_DEALER, k, j]
        row[0] += 1
        for v in range(N_VIEWS):
            for k in range(NQ):
                b = _block_at(v, k, m)
                for a in range(m):
                    xa = x[v, k, a]
                    row[b + a] += xa
                    for c in range(m):
                        row[b + m + a * m + c] += xa * x[v, k, c]
    return row


@runs(paired_chunk)
def paired_block(seed, starts, counts, rules, tested, opponent):
    """Tally rows (one per chunk [starts[c], starts[c] + counts[c])), in parallel."""
    return chunk_rows(paired_chunk, seed, starts, counts, rules, tested, opponent)


def _halve(e: Estimate) -> Estimate:
    return Estimate(e.value / 2, e.lo / 2, e.hi / 2, e.n, e.confidence)


@dataclass(frozen=True)
class Paired:
    """The tallies of a paired run over ``m`` options, and the estimates they give."""

    tallies: np.ndarray
    m: int

    @property
    def deals(self) -> int:
        """Distinct deals played (each under every option, in both seats)."""
        return int(self.tallies[0])

    def _sums(self, view: int, q: int) -> tuple[np.ndarray, np.ndarray]:
        b = _block_at(view, q, self.m)
        sums = self.tallies[b:b + self.m]
        gram = self.tallies[b + self.m:b + self.m + self.m * self.m].reshape(self.m, self.m)
        return sums, gram

    def level_sums(self, a: int, q: int = Q_NET, view: int = V_BOTH) -> tuple[int, int, int]:
        """(Σx, Σx², deals) of a quantity's per-deal value under option a (exact integers)."""
        sums, g = self._sums(view, q)
        return int(sums[a]), int(g[a, a]), self.deals

    def diff_sums(self, a: int, b: int, q: int = Q_NET, view: int = V_BOTH) -> tuple[int, int, int]:
        """(Σd, Σd², deals) of the per-deal difference option a minus option b (exact integers)."""
        sums, g = self._sums(view, q)
        s = int(sums[a]) - int(sums[b])
        s2 = int(g[a, a]) - 2 * int(g[a, b]) + int(g[b, b])
        return s, s2, self.deals

    def diff(self, a: int, b: int, q: int = Q_NET, view: int = V_BOTH) -> Estimate:
        """Mean per deal and seat of option a minus option b, with its paired 95% interval."""
        e = paired_difference(*self.diff_sums(a, b, q, view))
        return _halve(e) if view == V_BOTH else e

    def level(self, a: int, q: int = Q_NET, view: int = V_BOTH) -> Estimate:
        """Mean per deal and seat of a quantity under option a, with its interval."""
        e = mean_from_sums(*self.level_sums(a, q, view))
        return _halve(e) if view == V_BOTH else e

    def differs(self, a: int, b: int, q: int = Q_NET) -> bool:
        """Whether the two options gave a different value on any deal (either seat)."""
        return any(self.diff_sums(a, b, q, v)[1] != 0 for v in (V_ELDER, V_DEALER))

    def meld_rate(self, a: int, kind: int) -> Estimate:
        """Share of plays (deals x 2 seats) in which the tested player under option a laid the
        meld kind (KINDS index) at least once."""
        k = _kinds_at(self.m) + a * N_KINDS + kind
        return proportion(int(self.tallies[k]), 2 * self.deals)


def paired_tallies(n: int, seed: int, rules: BeziqueRules, options: Sequence, opponent, *, start: int = 0,
                   threads: int | None = None, chunk: int = 1 << 9, quiet: bool = True) -> np.ndarray:
    """The summed tally row of deals start..start+n-1, each played under every policy of
    ``options`` in both seats against ``opponent``."""
    if not 1 <= len(options) <= MAX_OPTIONS:
        raise InputError(f"a paired run compares 1 to {MAX_OPTIONS} policies, not {len(options)}")
    tested = np.stack([p.to_array() for p in options])
    return run_tallies(paired_block, (rules.to_array(), tested, opponent.to_array()), n, seed, start=start,
                       chunk=chunk, threads=threads, quiet=quiet, desc="paired deals")


def compare(n: int, seed: int, rules: BeziqueRules, options: Sequence, opponent, **kw) -> Paired:
    """Play n deals under every option (both seats, against ``opponent``); a :class:`Paired`."""
    return Paired(paired_tallies(n, seed, rules, options, opponent, **kw), len(options))

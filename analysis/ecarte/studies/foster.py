"""Foster's *jeu de règle* (docs/classical.md, "Écarté: the jeux de règle and the dealer's
rules") decided exactly for every elder hand and turn-up, and Foster's elder rule compared with
the shipped equilibrium tables (``compare_foster``; printed by ``salon study ecarte classical``).

The definition, as computed. Elder holds a hand and sees the turn-up; he plays without an
exchange and leads. The hand is a **jeu de règle** when elder has a way of playing that wins three
tricks against *every* dealer hand with at most one trump (from the 26 cards elder does not see)
and every way the dealer plays it, elder choosing each card from what he has seen only: his own
cards, the turn-up and the cards played so far. The dealer is taken as an adversary who may pick
his hand and his play together, so no probabilities enter: the question is a two-player game of
perfect information in which the dealer's hand is chosen lazily. A state is (elder's cards, the
cards the dealer may still hold, the trumps he may still hold, the tricks, who leads): everything
elder knows, and nothing else. A dealer card is allowed when some full hand with at most one trump
is consistent with the whole play so far: playing under the card led means holding nothing higher
in that suit, showing out means a void in it, and with ``must_trump_when_void`` showing out
without trumping means holding no trump; each removes cards from what he may hold, and the rest of
his hand must still be fillable from it (EC-FOLLOW exactly, ``engine.tricks.legal_follows``).
Elder wins the game when some card of his wins it against every allowed reply (an AND-OR search,
cut off as soon as either side has three tricks; cards that no possible dealer card separates are
tried once). This is the true guarantee for a player who does not peek: it is neither the
double-dummy minimum over the dealer's hands (which lets elder see them, and is optimistic) nor a
fixed line of play (which may miss a line that works, and is pessimistic); it lies between them
and ``tests/test_ecarte_foster.py`` checks it against the double-dummy bound (``double_dummy_sure``:
on 3,000 dealt hands and turn-ups drawn by weight, 9.0% were jeux de règle and 9.9% passed it).
Every hand class and turn-up rank takes under a second (``jeu_table``).

The same search with no limit on the dealer's trumps decides whether **the point is certain**.

The rule, per hand and turn-up (elder knows the turn-up): the point certain, propose (Britannica);
a jeu de règle holding the trump king, propose in the hope of the vole (Foster, the Britannica); a
jeu de règle without it, play without proposing (Foster); any other hand, Foster says nothing.
The tables' information sets merge the turn-ups of a bucket (``engine.buckets.turnup_bucket``), so
a set carries the share of its turn-ups on which Foster speaks, and the rule is compared (as
``studies.equilibrium.tips.tip_propose_share`` does) on those shares only: coverage is the weight of dealt
hands and turn-ups on which he speaks. A king turned changes the score, not the tricks.
"""
from __future__ import annotations

import functools
from math import comb

import numpy as np
from numba import njit, prange

from analysis.bits import highest_bit, popcount
from analysis.ecarte.engine.tricks import beats, legal_follows
from analysis.ecarte.players.solver import MONOTONE, run_tops, solve

TRUMPS = 0xFF
"""Trumps are lane 0 (strategy.hands)."""
NEED = 3
TRUMP_KING = 1 << 7
NO_LIMIT = 8


@njit(cache=True, inline="always")
def _fillable(a, tl, n):
    """The dealer can still hold n cards taken from ``a`` with at most ``tl`` trumps."""
    return popcount(a & ~TRUMPS) + min(popcount(a & TRUMPS), tl) >= n


@njit(cache=True, inline="always")
def _next_card(x):
    """The card tried first: the highest trump, else the highest plain card (by rank, then suit)."""
    if x & TRUMPS:
        return highest_bit(x & TRUMPS)
    best, key = -1, -1
    for s in range(1, 4):
        lane = (x >> (8 * s)) & 0xFF
        if lane and highest_bit(lane) * 4 + s > key:
            key = highest_bit(lane) * 4 + s
            best = 8 * s + highest_bit(lane)
    return best


@njit(cache=True)
def _sure(e, a, tl, et, dt, el, must):
    """1 when elder, to move at the start of a trick with cards ``e``, can make sure of NEED tricks
    against a dealer who may hold any ``popcount(e)`` cards of ``a`` with at most ``tl`` trumps;
    ``el`` 1 when elder leads. Arguments are int64 so the recursion stays one specialisation."""
    if et >= NEED:
        return 1
    if dt > 5 - NEED:
        return 0
    if tl == 0:
        a &= ~TRUMPS
    n = popcount(e) - 1  # the cards each side keeps after this trick
    if el == 1:
        leads = run_tops(e, e | a)
        while leads:
            led = _next_card(leads)
            leads &= ~(1 << led)
            e2 = e & ~(1 << led)
            suit = 0xFF << (led & 24)
            higher = a & suit & -(2 << led)
            replies = run_tops(a, e2 | (1 << led) | a)
            ok = True
            while replies and ok:
                c = _next_card(replies)
                replies &= ~(1 << c)
                bit = 1 << c
                tl2 = tl - (1 if (c >> 3) == 0 else 0)
                if bit & suit:
                    # Under the card led: nothing higher in the suit.
                    a2 = a & ~bit if bit & higher else a & ~bit & ~higher
                    dealer_wins = (bit & higher) != 0
                else:
                    # Shown out: void in the suit; no trump either unless trumping (EC-FOLLOW).
                    a2 = a & ~bit & ~suit
                    dealer_wins = (c >> 3) == 0
                    if not dealer_wins and must != 0:
                        a2 &= ~TRUMPS
                if not _fillable(a2, tl2, n):
                    continue
                if dealer_wins:
                    ok = _sure(e2, a2, tl2, et, dt + 1, np.int64(0), must) == 1
                else:
                    ok = _sure(e2, a2, tl2, et + 1, dt, np.int64(1), must) == 1
            if ok:
                return 1
        return 0
    leads = run_tops(a, e | a)
    while leads:
        c = _next_card(leads)
        leads &= ~(1 << c)
        tl2 = tl - (1 if (c >> 3) == 0 else 0)
        a2 = a & ~(1 << c)
        if not _fillable(a2, tl2, n):
            continue
        fols = run_tops(legal_follows(e, c, 0, must), e | a2 | (1 << c))
        ok = False
        while fols and not ok:
            f = _next_card(fols)
            fols &= ~(1 << f)
            if beats(f, c, 0):
                ok = _sure(e & ~(1 << f), a2, tl2, et + 1, dt, np.int64(1), must) == 1
            else:
                ok = _sure(e & ~(1 << f), a2, tl2, et, dt + 1, np.int64(0), must) == 1
        if not ok:
            return 0
    return 1


@njit(cache=True)
def sure_point(hand, turnup_rank, limit, must):
    """1 when elder (leading, no exchange) makes sure of three tricks with ``hand`` (trumps lane 0)
    and a turn-up of ``turnup_rank``, against every dealer hand with at most ``limit`` trumps."""
    unseen = np.int64(0xFFFFFFFF) & ~np.int64(hand) & ~(np.int64(1) << turnup_rank)
    tl = np.int64(min(limit, popcount(unseen & TRUMPS)))
    return _sure(np.int64(hand), unseen, tl, np.int64(0), np.int64(0), np.int64(1), np.int64(must))


@njit(cache=True)
def double_dummy_sure(hand, turnup_rank, limit, must):
    """The optimistic bound: 1 when elder, seeing the dealer's cards, takes three tricks double
    dummy against every dealer hand with at most ``limit`` trumps (each of them solved exactly by
    ``players.solver.solve``). A jeu de règle always passes it; some hands pass it only."""
    table = np.int64(MONOTONE)
    for k in range(6):
        table |= np.int64((1 if k >= NEED else 0) + 128) << (8 * k)
    unseen = np.int64(0xFFFFFFFF) & ~np.int64(hand) & ~(np.int64(1) << turnup_rank)
    cards = np.empty(26, dtype=np.int64)
    n = 0
    for c in range(32):
        if (unseen >> c) & 1:
            cards[n] = c
            n += 1
    for i0 in range(n):
        for i1 in range(i0 + 1, n):
            for i2 in range(i1 + 1, n):
                for i3 in range(i2 + 1, n):
                    for i4 in range(i3 + 1, n):
                        d = ((np.int64(1) << cards[i0]) | (np.int64(1) << cards[i1]) | (np.int64(1) << cards[i2])
                             | (np.int64(1) << cards[i3]) | (np.int64(1) << cards[i4]))
                        if popcount(d & TRUMPS) <= limit and solve(np.int64(hand), d, np.int64(0), np.bool_(True), np.int64(0), must, table) < 1:
                            return 0
    return 1


@njit(cache=True, parallel=True)
def _table(masks, must):
    """Per hand class and turn-up rank: 0 not a jeu de règle (or the rank is in the hand), 1 a jeu
    de règle, 2 the point certain as well."""
    out = np.zeros((masks.shape[0], 8), dtype=np.int8)
    for i in prange(masks.shape[0]):
        for r in range(8):
            if (masks[i] >> r) & 1:
                continue
            if sure_point(masks[i], r, np.int64(1), must):
                out[i, r] = 1 + sure_point(masks[i], r, np.int64(NO_LIMIT), must)
    return out


@functools.lru_cache(maxsize=4)
def jeu_table(must_trump: bool = True) -> np.ndarray:
    """``_table`` for every hand class of ``studies.strategy.tables.hands`` (38,304 x 8; under a second)."""
    from analysis.ecarte.studies.strategy.tables import hands

    return _table(hands().masks, int(must_trump))


def is_jeu_de_regle(hand: int, turnup_rank: int, must_trump: bool = True) -> bool:
    return bool(sure_point(hand, turnup_rank, 1, int(must_trump)))


def is_point_certain(hand: int, turnup_rank: int, must_trump: bool = True) -> bool:
    return bool(sure_point(hand, turnup_rank, NO_LIMIT, int(must_trump)))


def p_dealer_at_most_one_trump(elder_trumps: int) -> float:
    """P(the dealer's five cards hold at most one trump), elder holding ``elder_trumps`` and the
    turn-up a trump seen by both: 26 unseen cards, 7 - elder_trumps of them trumps."""
    u = 7 - elder_trumps
    return (comb(26 - u, 5) + u * comb(26 - u, 4)) / comb(26, 5)


def set_shares(must_trump: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Per information set (equilibrium.info_sets order): the share of its bucket's turn-ups on
    which the hand is a jeu de règle, and on which the point is certain."""
    from analysis.ecarte.studies.equilibrium.measures import info_sets

    sets = info_sets()
    tab = jeu_table(must_trump)[sets.cls]
    ups = ((sets.turnups[:, None] >> np.arange(8)) & 1).astype(float)
    n = np.maximum(ups.sum(axis=1), 1)
    return (ups * (tab >= 1)).sum(axis=1) / n, (ups * (tab == 2)).sum(axis=1) / n


def compare_foster(rules, policy=None) -> dict:
    """Foster's elder rule against the shipped tables of these rules, on the hands where it speaks:
    coverage (weight of dealt hands and turn-ups), agreement by weight on them, the cost with its
    95% interval (weight x share x (solution's probability - rule's) x held-out value, summed, as
    ``studies.classical.compare``), and the patterns where they differ most."""
    import pandas as pd

    from analysis.ecarte.engine import buckets as TB
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium import tables as T
    from analysis.ecarte.studies.equilibrium.measures import info_sets
    from analysis.ecarte.studies.strategy.tables import hand_label, hands
    from analysis.errors import InputError

    got = T.shipped(rules, policy or HeuristicPolicy())
    if got is None:
        raise InputError(f"no shipped equilibrium tables for rules {rules.name} (and these policy parameters): "
                         "run scripts/make_equilibrium_tables.py")
    df, summary = got
    sets = info_sets()
    jeu, certain = set_shares(rules.must_trump_when_void)
    t = df[df["side"] == "elder"].set_index("info_set")
    t = t[jeu[t.index.to_numpy()] > 0]  # the sets where the rule speaks on some turn-up
    idx = t.index.to_numpy()
    cov = float((sets.weight * jeu).sum())
    m = hands().masks[sets.cls[idx]]
    king = (m & TRUMP_KING) != 0
    s, sc = jeu[idx], certain[idx]
    # The rule's probability of proposing on the turn-ups where it speaks.
    decision = np.where(king, 1.0, sc / np.maximum(s, 1e-300))
    w = sets.weight[idx]
    p = t["probability"].to_numpy()
    q = t["held_out"].to_numpy()
    se = t["held_out_half_width"].to_numpy() / 1.96
    loss = w * s * (p - decision) * q
    cost = float(loss.sum())
    cost_se = float(np.sqrt(((w * s) ** 2 * (p - decision) ** 2 * se ** 2).sum()))
    trumps = np.array([bin(int(x) & 0xFF).count("1") for x in m])
    ws = w * s
    frame = pd.DataFrame({"hand": [hand_label(int(x)) for x in m],
                          "bucket": [TB.BUCKET_NAMES[b] for b in sets.bucket[idx]], "trumps": trumps, "trump_king": king,
                          "weight": ws / cov, "rule": decision, "solution": p, "loss": loss})
    by = (frame.assign(differs=frame["weight"] * np.abs(frame["solution"] - frame["rule"]))
          .groupby(["trumps", "trump_king"])
          .agg(weight=("weight", "sum"), differs=("differs", "sum"), rule=("rule", "mean"),
               solution=("solution", "mean"), loss=("loss", "sum")).reset_index())
    by = by[by["differs"] > 0].sort_values("loss", ascending=False)
    hands_ = frame.assign(differs=lambda f: np.abs(f["solution"] - f["rule"]))
    hands_ = hands_[hands_["differs"] > 0.5].sort_values("loss", ascending=False)
    lower = np.array([p_dealer_at_most_one_trump(k) for k in trumps])
    parts = {}
    for name, sel in (("play (no trump king)", ~king), ("propose (trump king)", king)):
        v = float(loss[sel].sum())
        h = 1.96 * float(np.sqrt(((w * s) ** 2 * (p - decision) ** 2 * se ** 2)[sel].sum()))
        parts[name] = {"share": float(ws[sel].sum() / cov), "rule_propose_share": float((ws * decision)[sel].sum()
                                                                                         / ws[sel].sum()),
                       "solution_propose_share": float((ws * p)[sel].sum() / ws[sel].sum()),
                       "agreement": float((ws * (1 - np.abs(p - decision)))[sel].sum() / ws[sel].sum()),
                       "cost": {"value": v, "ci95": [v - h, v + h]}}
    by_trumps = {int(k): float(ws[trumps == k].sum() / cov) for k in range(6) if ws[trumps == k].sum() > 0}
    return {
        "rule": FOSTER_WORDS, "definition": DEFINITION_WORDS,
        "coverage": cov, "covered_sets": int(len(idx)), "partial_sets_weight": float(w[s < 1].sum()),
        "agreement": float((ws * (1 - np.abs(p - decision))).sum() / cov),
        "cost": {"value": cost, "ci95": [cost - 1.96 * cost_se, cost + 1.96 * cost_se],
                 "unit": "points per dealt hand lost by following the rule (where it speaks) instead of the solution"},
        "rule_propose_share": float((ws * decision).sum() / cov), "solution_propose_share": float((ws * p).sum() / cov),
        "trump_king_share": float(ws[king].sum() / cov), "point_certain_share": float((w * sc).sum() / cov),
        "jeux_by_trumps": by_trumps, "parts": parts,
        "win_lower_bound": {"value": float((ws * lower).sum() / cov),
                            "what": "P(dealer holds <= 1 trump) averaged over the jeux de règle: a lower bound of "
                                    "their chance of the point when played (docs/classical.md: 'about 2 to 1')"},
        "patterns": by.head(8).to_dict(orient="records"),
        "hands": hands_.head(8)[["hand", "bucket", "weight", "rule", "solution", "loss"]].to_dict(orient="records")}


FOSTER_WORDS = ("Foster: a jeu de règle without the trump king, play without proposing; with it, propose; "
                "the point certain, propose (Britannica); other hands: no rule")
DEFINITION_WORDS = ("jeu de règle: elder, not seeing the dealer's cards, can make sure of three tricks against every "
                    "dealer hand with at most one trump (exact search)")


def foster_lines(r: dict) -> list[str]:
    """``compare_foster``'s result in lines, for ``studies.classical.text``."""
    c = r["cost"]
    lines = [f"  elder (Foster): {r['rule']}",
             f"    speaks on {r['coverage']:.1%} of hands (weighted; {DEFINITION_WORDS}); there it agrees on "
             f"{r['agreement']:.1%}; proposes with {r['rule_propose_share']:.1%} (solution "
             f"{r['solution_propose_share']:.1%}); costs {c['value']:+.4f} [{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] "
             "points per dealt hand",
             *[f"    {k}: {v['share']:.1%} of them; agrees on {v['agreement']:.1%}; rule proposes "
               f"{v['rule_propose_share']:.1%}, solution {v['solution_propose_share']:.1%}; costs "
               f"{v['cost']['value']:+.4f} [{v['cost']['ci95'][0]:+.4f}, {v['cost']['ci95'][1]:+.4f}]"
               for k, v in r["parts"].items()],
             f"    jeux de règle win at least {r['win_lower_bound']['value']:.1%} of the time (dealer holds <= 1 trump)"]
    for p in r["patterns"][:4]:
        lines.append(f"    differs most at {p['trumps']} trumps, trump king {'held' if p['trump_king'] else 'not held'}: "
                     f"rule {p['rule']:.0%} propose, solution {p['solution']:.0%} (weight {p['weight']:.1%}, "
                     f"loss {p['loss']:+.4f})")
    return lines

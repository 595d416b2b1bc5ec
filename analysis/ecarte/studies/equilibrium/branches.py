"""Every branch of Écarté's first proposal game played on the same deal: the records the
equilibrium is solved over (analysis/ecarte/studies/equilibrium/study.py; docs/ecarte-engine.md, "Equilibrium").

An information set of the proposal game is a hand up to suit symmetry (``studies.strategy.tables.hands``, trumps
as suit 0) and the turn-up's bucket relative to that hand: the king turned (``KING_TURNED``), a
turn-up above the hand's highest trump (``ABOVE``; every turn-up but the king when the hand holds no
trump) or below it (``BELOW``). Its index is ``3 * class + bucket``.

A task plays deals ``first .. first + n - 1`` of one information set of one side (elder's or the
dealer's hand fixed): deal k has stream index ``info << 32 | k`` (lane 0 cards, lane 1 choices,
lane 2 the turn-up, drawn uniformly among the trumps of the bucket that the fixed hand leaves), the
other hand dealt at random around it. Each deal is played three times on the same streams: elder
plays without proposing (``PLAYED``), proposes and is accepted (``ACCEPTED``), proposes and is
refused (``REFUSED``); the rest of the hand (later proposals, discards, tricks) by the policies.
Written per deal: the other side's information set times two plus the deal's half (k & 1, for
cross-fitting) and the three outcome cells (studies/strategy/kernel.N_CELLS).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import nth_bit, popcount, rank_of_mask
from analysis.blocks import on_threads, runs
from analysis.ecarte.engine.buckets import N_BUCKETS, bucket_turnups, turnup_bucket
from analysis.ecarte.engine.deal import deal_with_elder
from analysis.ecarte.engine.layout import N_OUT, O_ANNOUNCED, O_ELDER_TRICKS
from analysis.ecarte.play.hand import play_hand, uses_choices, write_result
from analysis.ecarte.policies import P_FORCE_FIRST, P_FORCE_RESPONSE, P_READS
from analysis.ecarte.studies.strategy.kernel import GROUPS, ITEM_SHIFT, codes_of, item_streams, outcome_cell
from analysis.rng import EMPTY_HALF, below

PLAYED, ACCEPTED, REFUSED = 0, 1, 2
N_BRANCHES = 3


@njit(cache=True, inline="always")
def branch_deal(useed, info, deal_index, fixed, turnups, codes, deck, choices, class_of_rank, fixed_is_dealer):
    """Deal ``deal_index`` of information set ``info`` (hand ``fixed``, ``turnups`` its bucket's
    turn-up ranks, ``codes`` its cards): (cards stream, its half, choices stream, elder, dealer,
    turn-up, the other side's set * 2 + the deal's half), the deck laid out for play_hand."""
    stc, sto, stu = item_streams(useed, (info << ITEM_SHIFT) | deal_index, choices)
    stu, j = below(stu, popcount(turnups))
    turnup = nth_bit(turnups, j)
    stc, stb, drawn = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
    elder, dealer = (drawn, fixed) if fixed_is_dealer else (fixed, drawn)
    info2 = class_of_rank[rank_of_mask(drawn)] * N_BUCKETS + turnup_bucket(drawn, turnup & 7)
    return stc, stb, sto, elder, dealer, turnup, info2 * 2 + (deal_index & 1)


@njit(cache=True)
def branch_scratch(rules, pe, pd):
    """A group's private arrays (see studies/strategy/kernel.GROUPS): two decks, an outcome vector,
    the fixed hand's codes, a copy of the rules, and the policies with elder's first decision and
    the dealer's first answer forced: elder plays, elder proposes, the dealer accepts, refuses."""
    e_play = pe.copy()
    e_propose = pe.copy()
    d_accept = pd.copy()
    d_refuse = pd.copy()
    e_play[P_FORCE_FIRST] = 0
    e_propose[P_FORCE_FIRST] = 1
    d_accept[P_FORCE_RESPONSE] = 0
    d_refuse[P_FORCE_RESPONSE] = 1
    return (np.empty(32, dtype=np.int8), np.empty(32, dtype=np.int8), np.empty(N_OUT, dtype=np.int64),
            np.empty(5, dtype=np.int64), rules.copy(), e_play, e_propose, d_accept, d_refuse)


@njit(cache=True, nogil=True)
def branch_group(g, useed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd, other, cells):
    """Group g of ``branch_records``: its tasks g, g + groups, ... (GROUPS at most)."""
    nt = tasks.shape[0]
    choices = uses_choices(pe, pd)
    groups = min(nt, GROUPS)
    deck, deck2, out, codes, my_rules, e_play, e_propose, d_accept, d_refuse = branch_scratch(rules, pe, pd)
    # A reading leader plays a refused hand differently from a played one (he reads another
    # first decision), so the refused branch is then played; otherwise it is re-scored.
    reading = pe[P_READS] != 0 or pd[P_READS] != 0
    for t in range(g, nt, groups):
        info = tasks[t, 0]
        fixed = masks[info // N_BUCKETS]
        turnups = bucket_turnups(fixed, info % N_BUCKETS)
        codes_of(fixed, codes)
        for k in range(tasks[t, 2]):
            at = tasks[t, 3] + k
            stc, stb, sto, elder, dealer, turnup, other[at] = branch_deal(
                useed, info, tasks[t, 1] + k, fixed, turnups, codes, deck, choices, class_of_rank, fixed_is_dealer)
            for i in range(32):
                deck2[i] = deck[i]
            # Typed arguments (np.int64, np.bool_): numba compiles a callee once per literal value.
            play_hand(deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, e_play, d_accept, out,
                      np.bool_(False))
            cells[at, PLAYED] = outcome_cell(out)
            if reading:
                for i in range(32):
                    deck2[i] = deck[i]
                play_hand(deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, e_propose,
                          d_refuse, out, np.bool_(False))
            else:
                # Refused, elder keeps the hand he would have played: the same kings and tricks
                # (forced decisions draw nothing), scored under the refusal's penalty.
                write_result(out, turnup, out[O_ELDER_TRICKS], 1, 0, out[O_ANNOUNCED], 0, 1, 0, 0, my_rules)
            cells[at, REFUSED] = outcome_cell(out)
            for i in range(32):
                deck2[i] = deck[i]
            play_hand(deck2, np.int64(11), (stc, stb, sto), elder, dealer, turnup, my_rules, e_propose, d_accept,
                      out, np.bool_(False))
            cells[at, ACCEPTED] = outcome_cell(out)


@runs(branch_group)
def branch_records(seed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd, other, cells):
    """Play every task's deals (``tasks`` rows: information set, first deal, deals, offset into
    the outputs) and write, per deal at its offset, ``other`` (int32: the other side's
    information set * 2 + the deal's half) and ``cells`` (uint8, one per branch)."""
    useed = np.uint64(seed)
    on_threads(lambda g: branch_group(g, useed, tasks, masks, class_of_rank, fixed_is_dealer, rules, pe, pd, other,
                                      cells), min(len(tasks), GROUPS))
    return 0

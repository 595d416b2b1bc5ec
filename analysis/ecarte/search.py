"""A search policy for Écarté's trick play: sample the hidden hand, solve double-dummy, average.

At each of his decisions (a lead, or a reply with more than one legal card) the searching player
draws ``samples`` hands for the opponent, uniformly among the hands consistent with what he knows,
solves each of them exactly (``solver.py``) for every card he may play, and plays the card with
the best total value (elder's net trick points: elder maximises, the dealer minimises). Ties go to
the card the heuristic would play if it is among the best, else to the weakest (weakest-first
order).

What the searcher knows about the opponent's hand:

- it is drawn from the *unseen* cards: 32 minus his own hand, the turn-up, his own discards (all
  rounds) and the cards already played; its size is public;
- the trump king the opponent announced is in it until played (EC-KING);
- under the strict follow rules (EC-FOLLOW), from each trick the opponent followed: a card of
  another suit shows a void in the suit led, and, under ``must_trump_when_void``, a card that is
  not a trump shows no trumps either; a card of the suit led that did not beat the card led shows
  he holds no higher card of that suit.

Each of these is "card c is not held" or "card c is held", so the consistent hands are exactly
the required cards plus any subset of the right size of the allowed cards, and a uniform draw
among them needs no rejection. Draws come from counter-based streams (``analysis/rng.py``) of
the deal, one per searching player, so results do not depend on threads or chunking.

The exchanges and kings are the kernel's own (``kernel.exchanges``, which also returns each
player's discards: what he knows to be out of play), so the search plays after any exchange policy
the kernel has: heuristic, random, forced discards, discard tables.

``search_vs_heuristic_block`` plays every deal's post-exchange position three ways on the same
cards (heuristic against heuristic, elder searching, the dealer searching; lane 2 for elder's
draws, lane 3 for the dealer's; lane 0 is the cards, 1 a random policy's choices) and
``search_strength`` turns its tallies into paired estimates of what searching gains each side.

``search_decision_block`` and ``search_check`` check the strategy tables (strategy.py), which are
computed with the heuristic's trick play, against search play on a sample of hand classes.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import lowest_bit, nth_bit, popcount, rank_of_mask
from analysis.ecarte.kernel import (
    O_DEALER_POINTS,
    O_ELDER_POINTS,
    announce_kings,
    beats,
    deal,
    deal_with_elder,
    exchanges,
    heuristic_follow,
    heuristic_lead,
    legal_follows,
    penalties,
    play_tricks,
    uses_choices,
    weakest,
    write_result,
)
from analysis.ecarte.policies import (
    KIND_HEURISTIC,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_KIND,
    P_LEAD_TRUMPS,
)
from analysis.ecarte.rules import R_MUST_TRUMP_WHEN_VOID
from analysis.ecarte.solver import (
    INF,
    lead_value,
    run_top,
    run_tops,
    table_value,
    value_after,
    value_table,
)
from analysis.ecarte.table_kernel import GROUPS, ITEM_SHIFT, codes_of, item_streams, scratch, turnup_for
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, below, stream_start

ALL_CARDS = (1 << 32) - 1
LANE_ELDER_SEARCH = 2
LANE_DEALER_SEARCH = 3
N_RECORD = 11
"""Record of one play: lead, follow for tricks 1..5, then the count of constraint violations."""
REC_VIOLATIONS = 10


@njit(cache=True, inline="always")
def sample_hidden(st, allowed, required, size):
    """A hand of ``size`` cards drawn uniformly among those holding every card of ``required``
    and otherwise only cards of ``allowed`` (disjoint masks); returns (stream state, hand).

    If ``allowed`` holds too few cards (inconsistent constraints) the hand is short."""
    hand = required
    m = allowed
    left = popcount(m)
    for _ in range(size - popcount(required)):
        if left == 0:
            break
        st, i = below(st, left)
        c = nth_bit(m, i)
        hand |= 1 << c
        m &= ~(1 << c)
        left -= 1
    return st, hand


@njit(cache=True, inline="always")
def hidden_constraints(own, known, played, excluded, required):
    """(allowed, required) for the opponent's hand as the mover sees it: his own hand, the cards he
    knows out of play (turn-up, own discards), the cards played, the cards shown not held, and the
    announced king (required until played)."""
    req = required & ~played
    allowed = ALL_CARDS & ~own & ~known & ~played & ~excluded & ~req
    return allowed, req


@njit(cache=True, inline="always")
def follow_inference(excluded, led, fol, t, must):
    """Cards the follower shows he does not hold by playing ``fol`` to ``led`` (EC-FOLLOW)."""
    ls = led >> 3
    if (fol >> 3) != ls:
        excluded |= 0xFF << (8 * ls)  # void in the suit led
        if must and (fol >> 3) != t:
            excluded |= 0xFF << (8 * t)  # ... and, having to trump, no trumps
    elif (fol & 7) < (led & 7):
        # Followed without heading the trick: no higher card of the suit led.
        excluded |= ((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * ls)
    return excluded


@njit(cache=True)
def choose_card(st, own, led, opp_size, allowed, required, mover_is_elder, et, t, must, table, samples,
                default, sums, vals):
    """The searching player's card: the best total double-dummy value over sampled opponent hands.

    ``led`` < 0: the mover leads from ``own``; else he replies to ``led`` (the opponent, who led
    it, then holds ``opp_size`` cards besides). The opponent's hand is drawn by ``sample_hidden``
    from ``allowed``/``required``. ``default`` (the heuristic's card) wins ties, else the weakest
    of the best. ``sums``/``vals`` are 32-entry scratch arrays. Returns (stream state, card)."""
    leading = led < 0
    cands = own if leading else legal_follows(own, led, t, must)
    if popcount(cands) == 1:
        return st, lowest_bit(cands)
    elder_leads = mover_is_elder if leading else not mover_is_elder
    # One draw suffices when the constraints leave a single hand.
    n = samples if popcount(allowed) > opp_size - popcount(required) else 1
    x = cands
    while x:
        sums[lowest_bit(x)] = 0
        x &= x - 1
    for _ in range(n):
        st, opp = sample_hidden(st, allowed, required, opp_size)
        inplay = own | opp
        if not leading:
            inplay |= 1 << led
        reps = run_tops(cands, inplay)
        while reps:
            c = lowest_bit(reps)
            reps &= reps - 1
            if leading:
                vals[c] = lead_value(own, opp, c, t, elder_leads, et, must, table)
            else:
                vals[c] = value_after(opp, own, led, c, t, elder_leads, et, must, table, -INF, INF)
        x = cands
        while x:
            c = lowest_bit(x)
            x &= x - 1
            sums[c] += vals[run_top(c, cands, inplay)]
    # The best total: the most for elder, the least for the dealer.
    best = sums[default]
    x = cands
    while x:
        c = lowest_bit(x)
        x &= x - 1
        best = max(best, sums[c]) if mover_is_elder else min(best, sums[c])
    if sums[default] == best:
        return st, default
    ties = 0
    x = cands
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if sums[c] == best:
            ties |= 1 << c
    return st, weakest(ties, t)


@njit(cache=True)
def play_tricks_search(elder, dealer, turnup, e_out, d_out, announced, must, table, e_samples, d_samples,
                       e_lead_trumps, d_lead_trumps, st_e, st_d, sums, vals, rec):
    """The five tricks of a post-exchange position, each player searching (samples > 0) or playing
    the kernel's heuristic (samples 0); returns (elder's stream state, the dealer's, elder's tricks).

    ``st_e``/``st_d``: the streams elder's and the dealer's searches draw from (each player his own,
    so that one player's draws do not depend on how many the other made).

    ``e_out``/``d_out``: the cards elder / the dealer knows to be out of play besides the turn-up
    (his own discards); ``announced``: 1 elder | 2 dealer announced the trump king. Writes the cards
    played into ``rec`` (lead, follow per trick) and in rec[REC_VIOLATIONS] how many times a
    player's constraints on the opponent excluded the opponent's actual hand (always 0)."""
    t = turnup >> 3
    king = 8 * t + 7
    known_e = e_out | (1 << turnup)
    known_d = d_out | (1 << turnup)
    req_e = (1 << king) if announced & 1 else 0  # what the dealer knows elder holds
    req_d = (1 << king) if announced & 2 else 0
    ex_e = 0  # cards the dealer knows elder does not hold
    ex_d = 0
    played = 0
    violations = 0
    hand_l = elder
    hand_f = dealer
    elder_leads = True
    etricks = 0
    for k in range(5):
        l_samples = e_samples if elder_leads else d_samples
        f_samples = d_samples if elder_leads else e_samples
        if k == 4:
            led = lowest_bit(hand_l)
            fol = lowest_bit(hand_f)
        else:
            led = heuristic_lead(hand_l, t, e_lead_trumps if elder_leads else d_lead_trumps)
            if l_samples > 0:
                if elder_leads:
                    allowed, req = hidden_constraints(hand_l, known_e, played, ex_d, req_d)
                else:
                    allowed, req = hidden_constraints(hand_l, known_d, played, ex_e, req_e)
                violations += 0 if ((hand_f & ~(allowed | req)) == 0 and (hand_f & req) == req) else 1
                if elder_leads:
                    st_e, led = choose_card(st_e, hand_l, -1, popcount(hand_f), allowed, req, True, etricks, t,
                                            must, table, l_samples, led, sums, vals)
                else:
                    st_d, led = choose_card(st_d, hand_l, -1, popcount(hand_f), allowed, req, False, etricks, t,
                                            must, table, l_samples, led, sums, vals)
            played |= 1 << led
            legal = legal_follows(hand_f, led, t, must)
            fol = heuristic_follow(legal, led, t)
            if f_samples > 0 and popcount(legal) > 1:
                opp = hand_l & ~(1 << led)
                if elder_leads:
                    allowed, req = hidden_constraints(hand_f, known_d, played, ex_e, req_e)
                else:
                    allowed, req = hidden_constraints(hand_f, known_e, played, ex_d, req_d)
                violations += 0 if ((opp & ~(allowed | req)) == 0 and (opp & req) == req) else 1
                if elder_leads:
                    st_d, fol = choose_card(st_d, hand_f, led, popcount(opp), allowed, req, False, etricks,
                                            t, must, table, f_samples, fol, sums, vals)
                else:
                    st_e, fol = choose_card(st_e, hand_f, led, popcount(opp), allowed, req, True, etricks,
                                            t, must, table, f_samples, fol, sums, vals)
            if elder_leads:
                ex_d = follow_inference(ex_d, led, fol, t, must)
            else:
                ex_e = follow_inference(ex_e, led, fol, t, must)
        played |= (1 << led) | (1 << fol)
        rec[2 * k] = led
        rec[2 * k + 1] = fol
        hand_l &= ~(1 << led)
        hand_f &= ~(1 << fol)
        if beats(fol, led, t):
            hand_l, hand_f = hand_f, hand_l
            elder_leads = not elder_leads
        etricks += 1 if elder_leads else 0
    rec[REC_VIOLATIONS] = violations
    return st_e, st_d, etricks


# Tally row of search_vs_heuristic_block. Nets are elder's points of the hand (tricks and kings)
# minus the dealer's. a: both heuristic; b: elder searches; c: the dealer searches.
ST_N, ST_A_NET, ST_A_NET_SQ = 0, 1, 2
ST_B_NET, ST_B_NET_SQ, ST_B_GAIN, ST_B_GAIN_SQ = 3, 4, 5, 6  # gain = b - a (elder's gain)
ST_C_NET, ST_C_NET_SQ, ST_C_GAIN, ST_C_GAIN_SQ = 7, 8, 9, 10  # gain = a - c (the dealer's gain)
ST_A_TRICKS, ST_B_TRICKS, ST_C_TRICKS = 11, 12, 13
ST_B_CHANGED, ST_C_CHANGED = 14, 15  # deals where searching changed elder's tricks
ST_VIOLATIONS = 16
N_SEARCH_TALLY = 17


@njit(cache=True)
def search_chunk(useed, start, count, rules, pe, pd, samples):
    """The tally row (ST_*) of deals start..start+count-1 (the body of the block's loop)."""
    deck = np.empty(32, dtype=np.int8)
    sums = np.zeros(32, dtype=np.int64)
    vals = np.zeros(32, dtype=np.int64)
    rec = np.zeros(N_RECORD, dtype=np.int64)
    row = np.zeros(N_SEARCH_TALLY, dtype=np.int64)
    choices = uses_choices(pe, pd)
    must = rules[R_MUST_TRUMP_WHEN_VOID]
    e_lead = pe[P_LEAD_TRUMPS]
    d_lead = pd[P_LEAD_TRUMPS]
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1)) if choices else np.uint64(0)
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        t = turnup >> 3
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges(deck, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd)
        sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        kings = (announced & 1) - (announced >> 1) - (1 if (turnup & 7) == 7 else 0)
        none = np.uint64(0)
        _, _, ta = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, 0, 0,
                                      e_lead, d_lead, none, none, sums, vals, rec)
        st = stream_start(useed, ui, np.uint64(LANE_ELDER_SEARCH))
        _, _, tb = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, samples, 0,
                                      e_lead, d_lead, st, none, sums, vals, rec)
        row[ST_VIOLATIONS] += rec[REC_VIOLATIONS]
        st = stream_start(useed, ui, np.uint64(LANE_DEALER_SEARCH))
        _, _, tc = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, 0, samples,
                                      e_lead, d_lead, none, st, sums, vals, rec)
        row[ST_VIOLATIONS] += rec[REC_VIOLATIONS]
        a = table_value(table, ta) + kings
        b = table_value(table, tb) + kings
        c = table_value(table, tc) + kings
        row[ST_N] += 1
        row[ST_A_NET] += a
        row[ST_A_NET_SQ] += a * a
        row[ST_B_NET] += b
        row[ST_B_NET_SQ] += b * b
        row[ST_B_GAIN] += b - a
        row[ST_B_GAIN_SQ] += (b - a) * (b - a)
        row[ST_C_NET] += c
        row[ST_C_NET_SQ] += c * c
        row[ST_C_GAIN] += a - c
        row[ST_C_GAIN_SQ] += (a - c) * (a - c)
        row[ST_A_TRICKS] += ta
        row[ST_B_TRICKS] += tb
        row[ST_C_TRICKS] += tc
        row[ST_B_CHANGED] += 1 if tb != ta else 0
        row[ST_C_CHANGED] += 1 if tc != ta else 0
    return row


@njit(cache=True, parallel=True)
def search_vs_heuristic_block(seed, starts, counts, rules, pe, pd, samples):
    """Tally rows (N_SEARCH_TALLY per chunk) of deals played three ways on the same cards.

    Deal i is dealt, exchanged and its kings announced as in the kernel (heuristic or random
    policies ``pe``/``pd``, the kernel's streams); its post-exchange position is then played (a)
    elder heuristic vs dealer heuristic, (b) elder searching with ``samples`` draws vs dealer
    heuristic, (c) elder heuristic vs dealer searching; (a) is the baseline of both comparisons
    (elder's gain b - a, the dealer's gain a - c). The heuristic's trick play is the kernel's
    heuristic_lead / heuristic_follow; nets count the kings as ``kernel.write_result`` does.
    """
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_SEARCH_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    for ci in prange(nc):
        # Private copies of the parameter arrays (see kernel.hands_block).
        tallies[ci, :] = search_chunk(useed, starts[ci], counts[ci], rules.copy(), pe.copy(), pd.copy(), samples)
    return tallies


def search_strength(n: int, seed: int, rules="seed-de", samples: int = 20, threads: int | None = None, *,
                    elder_policy=None, dealer_policy=None, chunk: int = 512, quiet: bool = True) -> dict:
    """How much the search policy gains over the heuristic in trick play, per hand, on n deals.

    ``rules``: a variant name or an EcarteRules; the policies (heuristic, default parameters unless
    given) decide the exchanges and kings and play the heuristic side. Returns Estimates (95%):
    ``elder_gain`` (elder's net with elder searching minus with the heuristic, paired on the same
    deals), ``dealer_gain`` (the same for the dealer, in the dealer's net), the mean nets
    ``net_heuristic``, ``net_elder_search``, ``net_dealer_search``, and the raw ``tallies``.
    """
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.rules import get_rules
    from analysis.runner import run_tallies
    from analysis.stats import mean_from_sums, paired_difference

    if samples < 1:
        raise InputError(f"samples must be at least 1, not {samples}")
    r = get_rules(rules) if isinstance(rules, str) else rules
    pe = (elder_policy or HeuristicPolicy()).to_array()
    pd = (dealer_policy or HeuristicPolicy()).to_array()
    if pe[P_KIND] != KIND_HEURISTIC or pd[P_KIND] != KIND_HEURISTIC:
        raise InputError("search_strength compares against the heuristic: both policies must be heuristic")
    tot = run_tallies(search_vs_heuristic_block, (r.to_array(), pe, pd, np.int64(samples)), n, seed,
                      chunk=chunk, threads=threads, quiet=quiet, desc="search")
    if tot[ST_VIOLATIONS]:
        raise RuntimeError(f"the searchers' inferences excluded the actual hand {int(tot[ST_VIOLATIONS])} times")
    m = int(tot[ST_N])
    return {
        "elder_gain": paired_difference(int(tot[ST_B_GAIN]), int(tot[ST_B_GAIN_SQ]), m),
        "dealer_gain": paired_difference(int(tot[ST_C_GAIN]), int(tot[ST_C_GAIN_SQ]), m),
        "net_heuristic": mean_from_sums(int(tot[ST_A_NET]), int(tot[ST_A_NET_SQ]), m),
        "net_elder_search": mean_from_sums(int(tot[ST_B_NET]), int(tot[ST_B_NET_SQ]), m),
        "net_dealer_search": mean_from_sums(int(tot[ST_C_NET]), int(tot[ST_C_NET_SQ]), m),
        "tallies": tot,
    }


# ------------------------------------------------------------------ the strategy tables checked
# search_decision_block follows table_kernel.elder_block deal for deal (stream index
# ``item << ITEM_SHIFT | i``, lane 0 the cards, 1 the choices, 2 the turn-up) and plays every
# deal's two configurations, a = elder plays without proposing and b = elder proposes (the dealer
# answering by his table), each with the five tricks by the heuristic and by both players
# searching. The searches draw from lanes 3 (elder's) and 4 (the dealer's), the same in a and b:
# where the positions coincide (a proposal refused), both configurations see the same samples.
LANE_CHECK_ELDER = 3
LANE_CHECK_DEALER = 4
# Tally row: DIFF is b's elder net minus a's, H under heuristic play, S under search play.
DC_N = 0
DC_H_DIFF, DC_H_DIFF_SQ, DC_S_DIFF, DC_S_DIFF_SQ = 1, 2, 3, 4
DC_HS_CROSS = 5  # Σ of (heuristic diff) * (search diff), for the paired change search - heuristic
DC_H_PLAY, DC_H_PROPOSE, DC_S_PLAY, DC_S_PROPOSE = 6, 7, 8, 9  # Σ elder's net per configuration
DC_REFUSED = 10  # deals where the dealer refused the proposal
DC_DIFF_CHANGED = 11  # deals where search play changed the difference
DC_VIOLATIONS = 12  # the searchers' inferences excluding the actual hand (always 0)
DC_NET_CHANGED = 13  # hands (two per deal) where search play changed elder's net
N_DECISION_TALLY = 14


@njit(cache=True)
def play_two_ways(deck, stc, stb, sto, elder, dealer, turnup, rules, pe, pd, samples, st_e, st_d, out, sums,
                  vals, rec):
    """A dealt hand (``deck[11:]`` the stock) exchanged and its kings announced by the kernel (the
    steps of ``kernel.play_hand``), then its tricks played by the heuristic (``kernel.play_tricks``)
    and by both players searching with ``samples`` draws; returns (elder's net with heuristic play,
    with search play, the searchers' violations, the dealer refused)."""
    t = turnup >> 3
    (p, stc, stb, sto, e, d, rnd, ending, pwp, refused, proposed,
     e_disc, d_disc) = exchanges(deck, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd)
    sto, announced = announce_kings(e, d, t, sto, pe, pd)
    sto, tricks = play_tricks(e, d, t, sto, rules, pe, pd, out, False)
    write_result(out, turnup, tricks, ending, rnd, announced, p - 11, proposed, pwp, refused, rules)
    net_h = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    pen_e, pen_d = penalties(ending, pwp, refused, rules)
    table = value_table(pen_e, pen_d, rules)
    _, _, tricks = play_tricks_search(e, d, turnup, e_disc, d_disc, announced, rules[R_MUST_TRUMP_WHEN_VOID], table,
                                      samples, samples, pe[P_LEAD_TRUMPS], pd[P_LEAD_TRUMPS], st_e, st_d, sums, vals,
                                      rec)
    write_result(out, turnup, tricks, ending, rnd, announced, p - 11, proposed, pwp, refused, rules)
    net_s = out[O_ELDER_POINTS] - out[O_DEALER_POINTS]
    return net_h, net_s, rec[REC_VIOLATIONS], ending


@njit(cache=True, parallel=True)
def search_decision_block(seed, starts, counts, hands, dealer_table, rules, pe, pd, samples):
    """Per chunk of deals of elder hand ``hands[start >> ITEM_SHIFT]`` (DC_* row): playing (a)
    against proposing (b), the dealer answering the first proposal by ``dealer_table``, on the
    deals of ``table_kernel.elder_block`` (same streams, same turn-ups, same exchanges), with the
    tricks played by the heuristic (which reproduces elder_block's differences exactly) and by
    both players searching with ``samples`` draws per decision."""
    nc = starts.shape[0]
    tallies = np.zeros((nc, N_DECISION_TALLY), dtype=np.int64)
    useed = np.uint64(seed)
    choices = uses_choices(pe, pd)
    groups = min(nc, GROUPS)
    for g in prange(groups):
        # Private arrays per group (see table_kernel.GROUPS and kernel.hands_block).
        deck, deck2, out, row, my_rules = scratch(rules, N_DECISION_TALLY)
        sums = np.zeros(32, dtype=np.int64)
        vals = np.zeros(32, dtype=np.int64)
        rec = np.zeros(N_RECORD, dtype=np.int64)
        codes = np.empty(5, dtype=np.int64)
        pe_a = pe.copy()
        pe_b = pe.copy()
        pd_a = pd.copy()
        pd_b = pd.copy()
        pe_a[P_FORCE_FIRST] = 0
        pe_b[P_FORCE_FIRST] = 1
        for ci in range(g, nc, groups):
            row[:] = 0
            elder = hands[starts[ci] >> ITEM_SHIFT]
            codes_of(elder, codes)
            for i in range(starts[ci], starts[ci] + counts[ci]):
                ui = np.uint64(i)
                stc, sto, stu = item_streams(useed, i, choices)
                stu, turnup = turnup_for(elder, stu)
                stc, stb, dealer = deal_with_elder(deck, stc, EMPTY_HALF, codes, turnup)
                pd_b[P_FORCE_RESPONSE] = dealer_table[rank_of_mask(dealer)]
                st_e = stream_start(useed, ui, np.uint64(LANE_CHECK_ELDER))
                st_d = stream_start(useed, ui, np.uint64(LANE_CHECK_DEALER))
                for k in range(32):
                    deck2[k] = deck[k]
                ha, sa, va, _ = play_two_ways(deck2, stc, stb, sto, elder, dealer, turnup, my_rules, pe_a, pd_a,
                                              samples, st_e, st_d, out, sums, vals, rec)
                hb, sb, vb, refused = play_two_ways(deck, stc, stb, sto, elder, dealer, turnup, my_rules, pe_b, pd_b,
                                                    samples, st_e, st_d, out, sums, vals, rec)
                dh = hb - ha
                ds = sb - sa
                row[DC_N] += 1
                row[DC_H_DIFF] += dh
                row[DC_H_DIFF_SQ] += dh * dh
                row[DC_S_DIFF] += ds
                row[DC_S_DIFF_SQ] += ds * ds
                row[DC_HS_CROSS] += dh * ds
                row[DC_H_PLAY] += ha
                row[DC_H_PROPOSE] += hb
                row[DC_S_PLAY] += sa
                row[DC_S_PROPOSE] += sb
                row[DC_REFUSED] += refused
                row[DC_DIFF_CHANGED] += 1 if ds != dh else 0
                row[DC_NET_CHANGED] += (1 if sa != ha else 0) + (1 if sb != hb else 0)
                row[DC_VIOLATIONS] += va + vb
            tallies[ci, :] = row
    return tallies


def _t_half(n, s, q):
    """95% t half-width of a mean from n values with sum s and sum of squares q (vectorised)."""
    from scipy import stats

    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return stats.t.ppf(0.975, np.maximum(n - 1, 1)) * np.sqrt(np.maximum(n * q - s * s, 0) / (n * n * (n - 1)))


def _draw_mean(values: np.ndarray, draws: np.ndarray):
    """Mean over the sampled draws (a class drawn k times counts k times) with a 95% t interval."""
    from analysis.stats import Estimate

    x = np.repeat(np.asarray(values, dtype=np.float64), draws)
    n = len(x)
    m = float(x.mean())
    half = float(_t_half(n, x.sum(), (x * x).sum())) if n > 1 else float("nan")
    return Estimate(m, m - half, m + half, n)


def search_check(strategy_result, n_hands: int = 200, deals: int = 200, samples: int = 10, seed: int = 1,
                 rules=None, threads: int | None = None, *, chunk: int = 25, quiet: bool = True):
    """Check elder's propose / play table (computed with the heuristic's trick play) against search
    play on ``n_hands`` hand classes drawn at random by weight (with replacement, a seeded numpy
    Generator; a class drawn twice is played once and counted twice).

    Each chosen class is played on ``deals`` deals by ``search_decision_block``: playing and
    proposing, exchanges and kings by the policies the tables used (``strategy_result.policies``,
    discard tables included) and the dealer answering by the final dealer table, the tricks by the
    heuristic and by both players searching (``samples`` draws per decision). Use a seed other
    than the tables' for fresh deals (with the tables' seed the heuristic's part replays their deals).

    Returns (per-class DataFrame, summary dict). The summary's means are over the draws, so they
    estimate weighted means over all hands:

    - ``agreement_search``: the share of hands where the decision under search play (proposing's
      mean difference > 0 on these deals) is the table's; ``agreement_heuristic`` the same under
      heuristic play on these fresh deals, i.e. what noise alone leaves;
    - ``loss_search``: the points per hand the table's decision loses under search play, where
      search play prefers the other decision (max(0, other - table's) per class). Noise biases
      this upwards; ``loss_search_crossfit`` decides on one half of the deals and measures on the
      other (both ways), which is unbiased for the gain of switching by such a noisy check and
      at most the true loss in expectation: the two bracket it. ``loss_heuristic`` and
      ``loss_heuristic_crossfit`` are the same under heuristic play (the noise floor);
    - ``search_minus_heuristic``: how much search play changes proposing's advantage (paired);
    - ``search_changed_share``: the share of deals whose difference search play changed,
      ``search_changed_net_share`` the share of hands whose net it changed;
    - ``net_table_search`` / ``net_table_heuristic``: elder's net under the table's decisions.
    """
    import pandas as pd

    from analysis.ecarte import strategy as ST
    from analysis.ecarte.rules import get_rules
    from analysis.runner import run_ranges
    from analysis.stats import proportion

    if n_hands < 2:
        raise InputError(f"n_hands must be at least 2, not {n_hands}")
    if deals < 4:
        raise InputError(f"deals must be at least 4, not {deals}")
    if samples < 1:
        raise InputError(f"samples must be at least 1, not {samples}")
    spec = getattr(strategy_result, "spec", {}) or {}
    if rules is None:
        if "rules" not in spec:
            raise InputError("the strategy result names no rules: pass rules")
        r = get_rules(spec["rules"], spec.get("switches"))
    else:
        r = get_rules(rules) if isinstance(rules, str) else rules
    if "switches" in spec:
        import json

        if json.loads(json.dumps(r.switches())) != json.loads(json.dumps(spec["switches"])):
            raise InputError(f"the tables were computed under other rules ({spec['rules']}, {spec['switches']})")
    if len(getattr(strategy_result, "policies", ())) != 2:
        raise InputError("the strategy result carries no policies (elder's, the dealer's)")
    pe_pol, pd_pol = strategy_result.policies
    h = ST.hands()
    e = strategy_result.elder
    w = e["weight"].to_numpy(dtype=np.float64)
    gen = np.random.default_rng(seed)
    picks = gen.choice(len(w), size=n_hands, replace=True, p=w / w.sum())
    classes, draws = np.unique(picks, return_counts=True)
    dealer_table = h.expand((strategy_result.dealer["decision"] == "refuse").to_numpy(np.int8))
    half = deals // 2
    ranges = ([(int(c) << ITEM_SHIFT, half) for c in classes]
              + [((int(c) << ITEM_SHIFT) + half, deals - half) for c in classes])
    args = (h.masks, dealer_table, r.to_array(), pe_pol.to_array(), pd_pol.to_array(), np.int64(samples))
    rows = run_ranges(search_decision_block, args, ranges, seed, chunk=chunk, threads=threads, quiet=quiet,
                      desc="search check")
    k = len(classes)
    first, second = rows[:k], rows[k:]
    tot = first + second
    if tot[:, DC_VIOLATIONS].any():
        bad = int(tot[:, DC_VIOLATIONS].sum())
        raise RuntimeError(f"the searchers' inferences excluded the actual hand {bad} times")
    n = tot[:, DC_N].astype(np.float64)
    table_propose = (e["decision"].to_numpy()[classes] == "propose")
    sign = np.where(table_propose, 1.0, -1.0)  # the table's decision's value minus the other's = sign * diff
    df = pd.DataFrame({"class": classes, "hand": e["hand"].to_numpy()[classes], "mask": h.masks[classes],
                       "weight": w[classes], "draws": draws, "n": tot[:, DC_N],
                       "table_decision": np.where(table_propose, "propose", "play")})
    per = {}
    for key, d, q, play, prop in (("heuristic", DC_H_DIFF, DC_H_DIFF_SQ, DC_H_PLAY, DC_H_PROPOSE),
                                  ("search", DC_S_DIFF, DC_S_DIFF_SQ, DC_S_PLAY, DC_S_PROPOSE)):
        diff = tot[:, d] / n
        df[f"diff_{key}"] = diff
        df[f"diff_{key}_half"] = _t_half(n, tot[:, d], tot[:, q])
        df[f"net_play_{key}"] = tot[:, play] / n
        df[f"net_propose_{key}"] = tot[:, prop] / n
        df[f"decision_{key}"] = np.where(diff > 0, "propose", "play")
        df[f"agree_{key}"] = (diff > 0) == table_propose
        df[f"loss_{key}"] = np.maximum(-sign * diff, 0)  # points the table's decision loses here
        g1 = -sign * first[:, d] / first[:, DC_N]
        g2 = -sign * second[:, d] / second[:, DC_N]
        per[key] = 0.5 * (g2 * (g1 > 0) + g1 * (g2 > 0))
        per[f"net_table_{key}"] = np.where(table_propose, tot[:, prop], tot[:, play]) / n
    df["agree"] = df["agree_search"]
    df["search_minus_heuristic"] = df["diff_search"] - df["diff_heuristic"]
    df["search_minus_heuristic_half"] = _t_half(n, tot[:, DC_S_DIFF] - tot[:, DC_H_DIFF],
                                                tot[:, DC_S_DIFF_SQ] + tot[:, DC_H_DIFF_SQ] - 2 * tot[:, DC_HS_CROSS])
    df["refused_share"] = tot[:, DC_REFUSED] / n
    df["search_changed_share"] = tot[:, DC_DIFF_CHANGED] / n
    df["search_changed_net_share"] = tot[:, DC_NET_CHANGED] / (2 * n)
    summary = {"classes": int(k), "draws": int(n_hands), "deals": int(deals), "samples": int(samples),
               "seed": int(seed), "rules": r.name, "hands_played": int(tot[:, DC_N].sum()) * 2}
    for key in ("search", "heuristic"):
        agree = int((draws * df[f"agree_{key}"].to_numpy()).sum())
        summary[f"agreement_{key}"] = proportion(agree, int(n_hands))
        summary[f"loss_{key}"] = _draw_mean(df[f"loss_{key}"].to_numpy(), draws)
        summary[f"loss_{key}_crossfit"] = _draw_mean(per[key], draws)
        summary[f"net_table_{key}"] = _draw_mean(per[f"net_table_{key}"], draws)
    summary["search_minus_heuristic"] = _draw_mean(df["search_minus_heuristic"].to_numpy(), draws)
    for key in ("search_changed_share", "search_changed_net_share"):
        summary[key] = float((draws * df[key].to_numpy()).sum() / n_hands)
    return df, summary

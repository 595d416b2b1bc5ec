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
among them needs no rejection. Draws come from a counter-based stream (``analysis/rng.py``) of
the deal: lane 2 when elder searches, lane 3 when the dealer does (lane 0 is the cards, 1 a random
policy's choices), so results do not depend on threads or chunking.

``search_vs_heuristic_block`` plays every deal's post-exchange position three ways on the same
cards (heuristic against heuristic, elder searching, the dealer searching) and ``search_strength``
turns its tallies into paired estimates of what searching gains each side.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.ecarte.kernel import (
    announce_kings,
    beats,
    deal,
    draw,
    exchanges,
    heuristic_discard,
    heuristic_follow,
    heuristic_lead,
    legal_follows,
    random_discard,
    strength,
    uses_choices,
    weakest,
)
from analysis.ecarte.policies import (
    KIND_HEURISTIC,
    KIND_RANDOM,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_KEEP_PLAIN_MIN_RANK,
    P_KIND,
    P_LEAD_TRUMPS,
)
from analysis.ecarte.rules import R_DEALER_MIN_DISCARD, R_MUST_TRUMP_WHEN_VOID
from analysis.ecarte.solver import (
    INF,
    lead_value,
    penalties,
    run_top,
    run_tops,
    table_value,
    value_after,
    value_table,
)
from analysis.errors import InputError
from analysis.rng import EMPTY_HALF, below, stream_start

ALL_CARDS = (1 << 32) - 1
LANE_ELDER_SEARCH = 2
LANE_DEALER_SEARCH = 3
N_RECORD = 11
"""Record of one play: lead, follow for tricks 1..5, then the count of constraint violations."""
REC_VIOLATIONS = 10


@njit(cache=True)
def exchanges_tracked(deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd):
    """``kernel.exchanges`` step for step (same decisions, same draws from the same streams), also
    returning the cards each player discarded: what he knows to be out of play.

    Returns (p, stc, stb, sto, elder, dealer, rounds, ending, played without proposing, refused
    round, proposed first, elder's discards, dealer's discards). Tested equal to the kernel's."""
    force = pe[P_FORCE_FIRST]
    stock_left = 32 - p
    rnd = 0
    ending = 0
    pwp = 0
    refused_round = -1
    proposed_first = 0
    e_disc = 0
    d_disc = 0
    while True:
        if stock_left == 0:
            break
        if rnd == 0 and force >= 0:
            propose = force >= 1
        elif pe[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            propose = r == 1
        else:
            propose = strength(elder, t) < pe[P_ELDER_PLAY_THRESHOLD]
        if rnd == 0:
            proposed_first = 1 if propose else 0
        if not propose:
            if rnd == 0:
                pwp = 1
            break
        if rnd == 0 and pd[P_FORCE_RESPONSE] >= 0:
            refuse = pd[P_FORCE_RESPONSE] == 1
        elif pd[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            refuse = r != 0
        else:
            refuse = strength(dealer, t) >= pd[P_DEALER_REFUSE_THRESHOLD]
        if refuse:
            ending = 1
            refused_round = rnd
            break
        hi = min(5, stock_left)
        if pe[P_KIND] == KIND_RANDOM:
            sto, disc = random_discard(elder, 1, hi, sto)
        else:
            disc = heuristic_discard(elder, t, 1, hi, pe[P_KEEP_PLAIN_MIN_RANK])
        k = popcount(disc)
        elder &= ~disc
        e_disc |= disc
        for _ in range(k):
            stc, stb, c = draw(deck, p, stc, stb)
            p += 1
            elder |= 1 << c
        stock_left -= k
        hi = min(5, stock_left)
        if hi > 0:
            lo = min(rules[R_DEALER_MIN_DISCARD], stock_left)
            if pd[P_KIND] == KIND_RANDOM:
                sto, disc = random_discard(dealer, lo, hi, sto)
            else:
                disc = heuristic_discard(dealer, t, lo, hi, pd[P_KEEP_PLAIN_MIN_RANK])
            k = popcount(disc)
            dealer &= ~disc
            d_disc |= disc
            for _ in range(k):
                stc, stb, c = draw(deck, p, stc, stb)
                p += 1
                dealer |= 1 << c
            stock_left -= k
        rnd += 1
    return p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused_round, proposed_first, e_disc, d_disc


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
                       e_lead_trumps, d_lead_trumps, st, sums, vals, rec):
    """The five tricks of a post-exchange position, each player searching (samples > 0) or playing
    the kernel's heuristic (samples 0); returns (stream state, elder's tricks).

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
                st, led = choose_card(st, hand_l, -1, popcount(hand_f), allowed, req, elder_leads, etricks, t,
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
                st, fol = choose_card(st, hand_f, led, popcount(opp), allowed, req, not elder_leads, etricks,
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
    return st, etricks


# Tally row of search_vs_heuristic_block. Nets are elder's points of the hand (tricks and kings)
# minus the dealer's. a: both heuristic; b: elder searches; c: the dealer searches.
ST_N, ST_A_NET, ST_A_NET_SQ = 0, 1, 2
ST_B_NET, ST_B_NET_SQ, ST_B_GAIN, ST_B_GAIN_SQ = 3, 4, 5, 6  # gain = b - a (elder's gain)
ST_C_NET, ST_C_NET_SQ, ST_C_GAIN, ST_C_GAIN_SQ = 7, 8, 9, 10  # gain = a - c (the dealer's gain)
ST_A_TRICKS, ST_B_TRICKS, ST_C_TRICKS = 11, 12, 13
ST_B_CHANGED, ST_C_CHANGED = 14, 15  # deals where searching changed elder's tricks
ST_VIOLATIONS = 16
ST_EXCHANGE_MISMATCH = 17  # deals where exchanges_tracked and kernel.exchanges disagreed (always 0)
N_SEARCH_TALLY = 18


@njit(cache=True)
def search_chunk(useed, start, count, rules, pe, pd, samples):
    """The tally row (ST_*) of deals start..start+count-1 (the body of the block's loop)."""
    deck = np.empty(32, dtype=np.int8)
    deck2 = np.empty(32, dtype=np.int8)
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
        deck2[:] = deck
        # The kernel's exchanges as well: a guard against the copy in exchanges_tracked drifting
        # from it (a policy feature added to the kernel only).
        check = exchanges(deck2, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd)
        (p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused, proposed,
         e_disc, d_disc) = exchanges_tracked(deck, 11, stc, stb, sto, elder, dealer, t, rules, pe, pd)
        same = (check[0] == p) & (check[4] == elder) & (check[5] == dealer) & (check[6] == rnd)
        same &= (check[7] == ending) & (check[8] == pwp) & (check[9] == refused) & (check[3] == sto)
        row[ST_EXCHANGE_MISMATCH] += 0 if same else 1
        sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
        pen_e, pen_d = penalties(ending, pwp, refused, rules)
        table = value_table(pen_e, pen_d, rules)
        kings = (announced & 1) - (announced >> 1) - (1 if (turnup & 7) == 7 else 0)
        _, ta = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, 0, 0,
                                   e_lead, d_lead, np.uint64(0), sums, vals, rec)
        st = stream_start(useed, ui, np.uint64(LANE_ELDER_SEARCH))
        _, tb = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, samples, 0,
                                   e_lead, d_lead, st, sums, vals, rec)
        row[ST_VIOLATIONS] += rec[REC_VIOLATIONS]
        st = stream_start(useed, ui, np.uint64(LANE_DEALER_SEARCH))
        _, tc = play_tricks_search(elder, dealer, turnup, e_disc, d_disc, announced, must, table, 0, samples,
                                   e_lead, d_lead, st, sums, vals, rec)
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
    if tot[ST_EXCHANGE_MISMATCH]:
        raise RuntimeError("search.exchanges_tracked no longer matches kernel.exchanges "
                           f"({int(tot[ST_EXCHANGE_MISMATCH])} deals): bring it up to date")
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

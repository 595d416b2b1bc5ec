"""A Piquet deal reviewed decision by decision (``salon review``; analysis.review, docs/review.md).

- Each exchange: the legal exchanges are raced on deals sampled from what the player knew (his
  twelve cards; younger also how many elder took) under heuristic play (``salon piquet discard``'s
  race); its leaders and the exchange made are then played out with both hands open on fresh
  deals, the best chosen on one set and its gain over the exchange made measured on another. The
  play after the exchange is the open-hands player's with either reviewer (the review says so).
- Each card: the reference's searching player (``reference.search.StrongPlayer``) draws the other's
  hidden hand from what the player knew (his hand, his discard and the talon cards he saw, the
  cards played, the suits the other showed out of, the declarations made or conceded), each world
  is solved exactly (``players.solver``), the best card is chosen on half the worlds and its gain
  over the card played measured on the other half. The open-hands reviewer (``dd``) sees both
  hands: the loss is exact, and along the play the losses add up to the open-hands value at the
  first lead minus the play's result.
- Sinking a declaration (where the record sank one): with open hands (``dd``) hiding a combination
  tells the other nothing, so sinking changes only the score; it is rated exactly, against the
  record re-scored with that category shown (its points, or the other's, pique and repique
  included; the tricks as played). The searching reviewer rates it on the hands the player could
  think the other held (drawn as for his first card): in each, both choices scored, the play after
  it valued with open hands. What hiding gained against a player who reads declarations is not
  counted (it needs both players' play after each choice), so that loss is at most the one shown.
"""
from __future__ import annotations

import copy

import numpy as np

from analysis.piquet.reference.cards import (
    ELDER,
    YOUNGER,
    Trick,
    follower_wins,
    legal_follows,
    mask_of_codes,
    other,
    seen_talon_indices,
    younger_talon_indices,
)
from analysis.piquet.reference.records import SCHEMA, replay
from analysis.piquet.rules import name_of
from analysis.review import DealReview, Decision, exact_loss, sampled_loss

SEATS = (ELDER, YOUNGER)
DEFAULT_SAMPLES = 96
"""Hidden hands a card is chosen on, and as many again it is measured on."""
EXCHANGE_CANDIDATES = 6
"""The race's leaders played out with open hands beside the exchange made."""
EXCHANGE_DEALS = 1_000
"""Deals each of those is played on to choose the best, and as many again to measure it, at the
default samples (in proportion to other samples)."""
EXCHANGE_RACE = 2_000
"""The heuristic race's most deals (``salon piquet discard --budget quick``)."""
RATED = ("Each exchange among the heuristic race's leaders played out with open hands after it, on deals drawn "
         "from what the player knew; each card by the reviewer (the search player's hidden hands, consistent with "
         "the declarations and the play, each solved exactly, or open hands); sinking by the points it gave up, on "
         "the reviewer's worlds with the play after it by open hands.")
SINK_NOTE = ("the points sinking gave up on the hands the other might hold, the play after it with open hands: what "
             "hiding gained against a player who reads declarations is not counted, so the loss is at most this")
SINK_DD_NOTE = "with open hands hiding is worth nothing: the points sinking gave up, against showing it"
EXCHANGE_NOTE = "exchanges valued with open-hands play after the exchange, on deals drawn from what the player knew"
SCORE_UNIT = ("the partie's margin (PQ-RUBICON: the winner's total less the loser's, or plus it when the loser is "
              "rubiconed, and the bonus), from the deciding player's side")
SCORE_RATED = ("In the partie's deciding deals (the last, and any tie deal) each card is also rated in the partie's "
               "margin: each world completed along the open-hands line after the card and the partie scored as "
               "ending with the deal, as salon's searching player playing for the margin does; the other deals and "
               "decisions in points only.")
MARGIN_WORLDS = 24
"""Worlds (of the card's own, from each half) a card's margin is chosen and measured on: completing
a world along the open-hands line takes about a millisecond, the points' solve a few microseconds."""


def match_step(result: dict, before: dict[str, int], rules, number: int) -> tuple[dict[str, int], bool, bool]:
    """A partie's deal ``number`` (1-based, PQ-PARTIE, PQ-TIE): the totals after it by seat, whether
    it is a deciding deal (the last of the partie, or a tie deal) and whether the partie is over."""
    after = {s: before[s] + result["scores"][s]["total"] for s in SEATS}
    last = rules.partie_deals
    over = (number == last and after[ELDER] != after[YOUNGER]) or number == last + rules.tie_extra_deals
    return after, number >= last, over


def match_result(totals: dict[str, int], rules) -> dict:
    """The partie's outcome from the players' totals (PQ-RUBICON)."""
    from analysis.piquet.reference.deal import partie_outcome

    (a, ta), (b, tb) = totals.items()
    winner, margin, rubiconed = partie_outcome(ta, tb, rules)
    return {"winner": {"A": a, "B": b}.get(winner), "margin": margin, "rubiconed": rubiconed}


def _cards(codes) -> str:
    return " ".join(name_of(c) for c in codes) or "nothing"


class _Choices:
    """The ``below(n)`` stream the reference players draw from, from numpy's generator."""

    def __init__(self, rng):
        self.rng = rng

    def below(self, n: int) -> int:
        return int(self.rng.integers(n))


def review_exchange(seat: str, dealt: int, discard: list[int], rules, elder_took: int, seed: int,
                    threads: int | None = None, deals: int = EXCHANGE_DEALS) -> Decision:
    """The exchange ``discard`` from ``dealt`` rated among the race's leaders (module docstring)."""
    from analysis.piquet.policies import DoubleDummyPolicy
    from analysis.piquet.studies.discards.analyser import Racing, analyse_hand
    from analysis.piquet.studies.discards.analyser_search import play_options, policy_arrays

    younger = seat == YOUNGER
    chosen_words = f"throw {_cards(sorted(discard))}" if discard else "take nothing"
    if not discard:
        return Decision(seat, "exchange", "exchange", chosen_words, note="an exchange of no card is not rated")
    mine = " ".join(name_of(c) for c in discard)
    a = analyse_hand(dealt, seat, rules, samples=EXCHANGE_RACE, race=Racing(True, 500), elder_took=elder_took,
                     seed=seed, mine=mine, threads=threads)
    options = a.table["option"].to_numpy()[:EXCHANGE_CANDIDATES]
    masks = [int(m) for m in a.options[options]]
    mask = mask_of_codes(discard)
    if mask not in masks:
        masks.append(mask)
    if len(masks) == 1:
        return Decision(seat, "exchange", "exchange", chosen_words, forced=True)
    arr = np.array(masks, dtype=np.int64)
    pe, py = policy_arrays(DoubleDummyPolicy(), younger, elder_took)
    choose, _ = play_options(dealt, younger, arr, rules, pe, py, seed + 7_000_003, deals, threads)
    report, _ = play_options(dealt, younger, arr, rules, pe, py, seed + 8_000_003, deals, threads)
    col = masks.index(mask)
    best, loss, ci = sampled_loss(choose.astype(float), report.astype(float), col)
    best_codes = [c for c in range(32) if masks[best] >> c & 1]
    return Decision(seat, "exchange", "exchange", chosen_words, f"throw {_cards(best_codes)}", loss, ci,
                    note=EXCHANGE_NOTE)


def review_sink_sampled(table, worlds: list[tuple[int, int]], seat: str, category: str, sink: dict,
                        samples: int) -> Decision:
    """The sinking of ``category`` by ``seat`` against showing it, by the searching reviewer: in each
    world (the hands the player could think the other held, after the exchanges) both choices are
    scored, the declarations re-scored and the play valued with open hands from the first lead (its
    pique state from the declarations'); best chosen on the first ``samples`` worlds, measured on the
    rest. Hiding has no value in open-hands play, so what it gained in the play is not counted."""
    from analysis.piquet.reference.scoring import Scoresheet, score_carte_blanche, score_categories

    words = (f"sink the {category}", f"show the {category}")
    base = table.sheet
    cb = {s: any(e.category == "carte_blanche" and e.seat == s for e in base.events) for s in SEATS}
    values = np.empty((len(worlds), 2))
    for i, (e, y) in enumerate(worlds):
        for j, shown in enumerate((False, True)):
            line = copy.copy(table)
            line.sheet = Scoresheet(table.rules)
            score_carte_blanche(line.sheet, cb[ELDER], cb[YOUNGER])
            score_categories(line.sheet, e, y, {**sink, seat: sink[seat] - {category}} if shown else sink)
            lead = max(int(v) for c, v in enumerate(line.solve(e, y, ELDER, None)) if e >> c & 1)
            net = line.sheet.running[ELDER] - line.sheet.running[YOUNGER] + lead
            values[i, j] = net if seat == ELDER else -net
    best, loss, ci = sampled_loss(values[:samples], values[samples:], 0)
    return Decision(seat, "declarations", "declarations", words[0], words[best], loss, ci, note=SINK_NOTE)


def review_sink(record: dict, result: dict, seat: str, category: str, rules) -> Decision:
    """The record's sinking of ``category`` by ``seat`` against showing it with open hands (module
    docstring); ``result``: the record's replay."""
    words = f"sink the {category}"
    shown = {**record, seat: {**record[seat], "sink": [c for c in record[seat]["sink"] if c != category]}}

    def net(res: dict) -> float:
        return res["scores"][seat]["total"] - res["scores"][other(seat)]["total"]

    best, loss = exact_loss(np.array([net(result), net(replay(shown, rules))], dtype=float), 0)
    return Decision(seat, "declarations", "declarations", words, (words, f"show the {category}")[best], loss, None,
                    note=SINK_DD_NOTE)


def review(record: dict, index: int, rules=None, player: str = "search", samples: int = DEFAULT_SAMPLES,
           seed: int = 0, threads: int | None = None, score=None) -> DealReview:
    """Every decision of a Piquet deal record (checked by ``replay`` first); ``score``: the deal's
    place in a partie (``match_records.DealScore``), its cards also rated in the partie's margin
    when it is a deciding deal."""
    from analysis.piquet.policies import DoubleDummyPolicy, SearchPolicy
    from analysis.piquet.reference.deal import sunk_categories
    from analysis.piquet.reference.search import StrongPlayer, open_table

    result = replay(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    dealt = {s: SCHEMA.cards(record[s]["dealt"], s) for s in SEATS}
    disc = {s: SCHEMA.cards(record[s]["discard"], s) for s in SEATS}
    talon = SCHEMA.cards(record["talon"], "talon")
    k, m = len(disc[ELDER]), len(disc[YOUNGER])
    took = {ELDER: talon[:k], YOUNGER: [talon[t] for t in younger_talon_indices(rules, k, m)]}
    hands = {s: mask_of_codes(dealt[s]) & ~mask_of_codes(disc[s]) | mask_of_codes(took[s]) for s in SEATS}
    decisions: list[Decision] = []
    for s in SEATS:
        decisions.append(review_exchange(s, mask_of_codes(dealt[s]), disc[s], rules, k,
                                         seed + 1_000 * index + (s == YOUNGER), threads,
                                         max(1, EXCHANGE_DEALS * samples // DEFAULT_SAMPLES)))
    sink = {s: frozenset(record[s].get("sink", ())) for s in SEATS}

    policy = DoubleDummyPolicy() if player == "dd" else SearchPolicy(samples=2 * samples)
    rng = np.random.default_rng([seed, index, 11])
    players = {s: StrongPlayer(policy, s, _Choices(rng)) for s in SEATS}
    for s in SEATS:
        seen = [talon[t] for t in seen_talon_indices(s, rules, k, m)]
        players[s].start_play(hands[s], disc[s], seen)
    table = open_table(players, rules, dict(hands), dealt[ELDER], dealt[YOUNGER], None,
                       sunk_categories({s: (lambda h, r, c=sink[s]: c) for s in SEATS}, hands, rules))
    for s in SEATS:
        for category in sorted(sink[s]):
            decisions.append(review_sink(record, result, s, category, rules) if player == "dd" else
                             review_sink_sampled(table, players[s].worlds(table.hands[s], None), s, category, sink,
                                                 samples))
    partie = score.seat_totals() if score is not None and score.for_score else None
    start_value = None
    leader = ELDER
    for n, pair in enumerate(record["tricks"], 1):
        led, fol = SCHEMA.card(pair[0], "trick"), SCHEMA.card(pair[1], "trick")
        follower = other(leader)
        if start_value is None:
            v = table.solve(table.hands[ELDER], table.hands[YOUNGER], ELDER, None)
            start_value = int(max(v[c] for c in range(32) if table.hands[ELDER] >> c & 1))
        decisions.append(_rate(players[leader], table, f"trick {n}", "lead", table.hands[leader], led, None,
                               player, samples, partie))
        decisions.append(_rate(players[follower], table, f"trick {n}", "follow",
                               legal_follows(table.hands[follower], led), fol, led, player, samples, partie))
        winner = follower if follower_wins(led, fol) else leader
        players[leader].observe(led, fol, True)
        players[follower].observe(led, fol, False)
        table.hands[leader] &= ~(1 << led)
        table.hands[follower] &= ~(1 << fol)
        table.trick_done(Trick(leader, led, fol, winner))
        leader = winner
    sc = result["scores"]
    words = (f"elder {sc[ELDER]['total']}, younger {sc[YOUNGER]['total']} "
             f"({sc[ELDER]['tricks']} tricks to {sc[YOUNGER]['tricks']})")
    play_points = {s: sc[s]["trick_points"] + sc[s]["cards"] + sc[s]["capot"] + sc[s]["pique"] for s in SEATS}
    return DealReview(decisions, words, SEATS,
                      extra={"net": sc[ELDER]["total"] - sc[YOUNGER]["total"],
                             "open_hands_value_at_first_lead": start_value,
                             "play_net": play_points[ELDER] - play_points[YOUNGER]})


def _rate(p, table, step: str, kind: str, legal: int, chosen: int, led: int | None, player: str,
          samples: int, partie: dict[str, int] | None = None) -> Decision:
    """One card of player ``p`` rated among its ``legal`` cards (module docstring); ``partie``: the
    partie's totals by seat before a deciding deal (the card then also rated in the margin)."""
    seat = p.seat
    words = name_of(chosen)
    options = [c for c in range(32) if legal >> c & 1]
    if len(options) == 1:
        return Decision(seat, kind, step, words, forced=True)
    sign = 1 if seat == ELDER else -1
    col = options.index(chosen)
    hand = table.hands[seat]
    leader = seat if led is None else other(seat)
    worlds = p.worlds(hand, led)
    values = np.array([[sign * int(v[c]) for c in options]
                       for v in (table.solve(e, y, leader, led) for e, y in worlds)], dtype=float)
    if player == "dd":
        best, loss = exact_loss(values[0], col)
        d = Decision(seat, kind, step, words, name_of(options[best]), loss, None)
    else:
        best, loss, ci = sampled_loss(values[:samples], values[samples:], col)
        d = Decision(seat, kind, step, words, name_of(options[best]), loss, ci)
    if partie is None:
        return d
    if player == "dd":
        best, d.score_loss = exact_loss(_margins(table, worlds, options, seat, leader, led, partie)[0], col)
    else:
        k = min(MARGIN_WORLDS, samples)
        m = _margins(table, worlds[:k] + worlds[samples:samples + k], options, seat, leader, led, partie)
        best, d.score_loss, d.score_ci95 = sampled_loss(m[:k], m[k:], col)
    d.score_best = name_of(options[best])
    return d


def _margins(table, worlds, options: list[int], seat: str, leader: str, led: int | None,
             partie: dict[str, int]) -> np.ndarray:
    """The partie's margin to ``seat`` (rows: worlds, columns: options) when he plays each option
    and the deal is completed along the open-hands line, the partie ending with it."""
    from analysis.piquet.reference.partie import complete_line, partie_value

    out = np.empty((len(worlds), len(options)))
    for i, (e, y) in enumerate(worlds):
        for j, c in enumerate(options):
            fe, fy = complete_line(table, e, y, leader, led, c, True)
            mine, his = (partie[ELDER] + fe, partie[YOUNGER] + fy)[:: 1 if seat == ELDER else -1]
            out[i, j] = partie_value("margin", mine, his, table.rules)
    return out

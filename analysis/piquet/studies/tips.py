"""Piquet tip studies: each turns a tip of docs/tips.md into simulations and a verdict.

A verdict is ``supported`` or ``refuted`` only when the 95% interval of the effect lies wholly on
one side of the tip's sharp reading (PQ-T10: see its margin); otherwise ``inconclusive``.
"""
from __future__ import annotations

import functools

import numpy as np

from analysis.piquet.engine.layout import (
    N_BINS,
    T_BINS,
    T_CARDS_ELDER,
    T_CARDS_YOUNGER,
    T_DEALS,
    T_NET_BY_CARDS,
    T_NET_SQ_BY_CARDS,
    T_PLAY_NET_BY_CARDS,
    T_PLAY_NET_SQ_BY_CARDS,
)
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import PiquetRules
from analysis.piquet.studies.discards.study import mean_over_hands, study_hands, summary
from analysis.piquet.studies.simulate import (
    deal_stats,
    deal_tallies,
    paired_policies,
    partie_stats,
    simulate_parties,
)
from analysis.stats import Estimate, independent_difference, proportion
from analysis.verdicts import Verdict


def _verdict(tip_id: str, rules: PiquetRules, verdict: str, effect: Estimate, effect_name: str, reading: str,
             n: int, seed: int, policy: HeuristicPolicy, details: dict, **more) -> Verdict:
    """A verdict under ``rules`` with ``policy`` for both players (``more``: part, extra)."""
    return Verdict(tip_id, rules.name, verdict, effect, effect_name, reading, n, seed,
                   {"both": policy.describe()}, details, **more)  # the player behind the effect


def _against(effect: Estimate, threshold: float) -> str:
    """supported when the interval is above the threshold, refuted when below, else inconclusive."""
    if effect.lo > threshold:
        return "supported"
    if effect.hi < threshold:
        return "refuted"
    return "inconclusive"


def pq_t8(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> list[Verdict]:
    """PQ-T8: typical deal totals are 20-50 points per side; repique or capot deals exceed 100.
    One verdict per seat (elder's and younger's scores are distributed very differently)."""
    t = deal_tallies(n, seed, rules, policy, policy)
    out = []
    for seat, off in (("elder", 0), ("younger", N_BINS)):
        bins = t[T_BINS + off:T_BINS + off + N_BINS]
        typical = proportion(int(bins[2:5].sum()), n)
        over_100 = proportion(int(bins[10:].sum()), n)
        verdict = _against(typical, 0.5)
        if verdict == "supported" and over_100.hi <= 0:
            verdict = "inconclusive"
        out.append(_verdict("PQ-T8", rules, verdict, typical, f"share of {seat}'s deal scores in 20-49",
                            "a majority of the seat's deal scores lie in 20-49, and some exceed 100", n, seed, policy,
                            {"share_100_or_more": over_100.to_dict()}, part=seat))
    return out


def pq_t9(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """PQ-T9: elder has considerable advantages in the exchange and declarations."""
    stats = deal_stats(deal_tallies(n, seed, rules, policy, policy))
    decl = stats["elder_edge_declarations"]
    verdict = _against(decl, 0.0)
    details = {k: stats[k].to_dict() for k in ("elder_minus_younger", "elder_edge_declarations", "elder_edge_play",
                                                "point_elder", "point_younger", "sequences_elder",
                                                "sequences_younger", "sets_elder", "sets_younger")}
    return _verdict("PQ-T9", rules, verdict, decl, "elder's edge in declarations, points per deal",
                    "elder outscores younger in carte blanche, declarations and repique (exchange included)", n,
                    seed, policy, details)


def pq_t10(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """PQ-T10: dealing first is an advantage (the first dealer is elder in the last deal). Judged
    with players who look at the score: search players who play the deciding deals for the
    partie's margin (players/search, "Playing for the partie"); open-hands (dd) players of the same
    kind on more parties, and the score-blind heuristic, in the details."""
    from analysis.piquet.policies import DoubleDummyPolicy, SearchPolicy
    from analysis.piquet.studies.search_tips import search_deals

    player = SearchPolicy(partie="margin")
    parties = max(16, search_deals(n) // rules.partie_deals)
    stats = partie_stats(simulate_parties(parties, seed, rules, player, player)["tallies"])
    wins = stats["first_dealer_wins"]
    # Supported: the first dealer wins more than half. Refuted: any advantage is ruled out down to
    # one percentage point (the interval lies below 0.51). Otherwise inconclusive.
    verdict = "supported" if wins.lo > 0.5 else ("refuted" if wins.hi < 0.51 else "inconclusive")
    dd = DoubleDummyPolicy(partie="margin")
    dd_parties = max(16, min(n // 60, 20_000))
    dd_stats = partie_stats(simulate_parties(dd_parties, seed, rules, dd, dd)["tallies"])
    blind = partie_stats(simulate_parties(max(1, n // rules.partie_deals), seed, rules, policy, policy)["tallies"])
    details = {k: stats[k].to_dict() for k in ("first_dealer_margin", "drawn", "rubicon")}
    details.update({"dd_first_dealer_wins": dd_stats["first_dealer_wins"].to_dict(), "dd_parties": dd_parties,
                    "dd_first_dealer_margin": dd_stats["first_dealer_margin"].to_dict(),
                    "heuristic_first_dealer_wins": blind["first_dealer_wins"].to_dict(),
                    "heuristic_rubicon": blind["rubicon"].to_dict(),
                    "score_aware": "search and dd players play the sixth deal (and tie deals) for the partie's margin "
                                   "(PQ-RUBICON); the exchanges stay score-blind; the heuristic is score-blind, so "
                                   "its first dealer wins as often as the other by symmetry"})
    return _verdict("PQ-T10", rules, verdict, wins, "P(first dealer wins the partie), score-aware search players",
                    "the first dealer wins more than half of the parties (refuted when an advantage of "
                    "1 percentage point or more is ruled out)", parties * rules.partie_deals, seed,
                    player, details, extra={"parties": parties})


def pq_t11(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """PQ-T11: taking most tricks is a swing of at least 22 points. Causal (cards_swing): on the
    same deal and position, the best line that wins the cards against the best that loses them,
    at the first lead that decides them (dd players, learned exchanges). The conditional
    differences between deals won and lost (search and heuristic play) are in the details."""
    from analysis.piquet.policies import get_policy
    from analysis.piquet.studies.cards_swing import causal_swing
    from analysis.piquet.studies.search_tips import deal_tallies_search, search_deals

    def swings(t):
        n_win = int(t[T_CARDS_ELDER])
        n_lose = int(t[T_CARDS_YOUNGER])

        def swing(base, base_sq):
            return independent_difference(int(t[base]), int(t[base_sq]), n_win, int(t[base + 1]),
                                          int(t[base_sq + 1]), n_lose)

        return swing(T_PLAY_NET_BY_CARDS, T_PLAY_NET_SQ_BY_CARDS), swing(T_NET_BY_CARDS, T_NET_SQ_BY_CARDS)

    deals = max(200, min(n // 100, 20_000))
    causal = causal_swing(rules, deals, seed)
    effect = causal["swing"]
    t = deal_tallies_search(rules, search_deals(n), seed)
    play, total = swings(t)
    h_play, h_total = swings(deal_tallies(n, seed, rules, policy, policy))
    verdict = _against(effect, 22.0)
    return _verdict("PQ-T11", rules, verdict, effect,
                    "net points between the best line winning the cards and the best line losing them, same deal "
                    "and position (the first lead that decides the cards; double-dummy lines)",
                    "winning rather than losing the cards, by a play decision, is worth 22 points or more",
                    deals, seed, get_policy("dd", ["exchange=learned"]),
                    {"deals_with_a_deciding_lead": causal["deals_with_a_deciding_lead"].to_dict(),
                     "median_trick_of_the_decision": causal["median_trick"], "players": causal["players"],
                     "conditional_play_swing_search": play.to_dict(), "conditional_total_swing_search": total.to_dict(),
                     "search_deals": int(t[T_DEALS]), "conditional_play_swing_heuristic": h_play.to_dict(),
                     "conditional_total_swing_heuristic": h_total.to_dict(), "heuristic_deals": n})


# ------------------------------------------------------------------ discard-analyser tips
@functools.lru_cache(maxsize=8)
def dealt_hands(rules: PiquetRules, seat: str, n: int, seed: int):
    """The discard study behind PQ-T2/T4/T5/T7/T13/T14, shared by them: hands scale with the budget."""
    hands = max(8, n // 12_500)
    samples = 4_000 if n >= 1_000_000 else 2_000
    return study_hands(hands, seat, rules, samples=samples, seed=seed)


def _discard_verdict(tip_id, rules, seat, verdict, effect, name, reading, df, policy, details) -> Verdict:
    return _verdict(tip_id, rules, verdict, effect, name, reading, int(df["deals"].sum()), df.attrs["seed"], policy,
                    {**details, "hands": len(df), "samples_per_hand": df.attrs["samples"], "seat": seat}, part=seat)


def _pq_t2(seat):
    def study(rules, n, seed, policy):
        df = dealt_hands(rules, seat, n, seed)
        cost = mean_over_hands(df["shortest_weakest_cost"])
        verdict = "supported" if cost.hi < 2 else ("refuted" if cost.lo > 2 else "inconclusive")
        return _discard_verdict("PQ-T2", rules, seat, verdict, cost,
                                "points per deal the rule gives up against the best exchange",
                                "throwing the shortest suits' weakest cards costs under 2 points per deal", df,
                                policy, {"rule_is_best": float(df["shortest_weakest_is_best"].mean()),
                                         **{k: v for k, v in summary(df)["rules"].items()}})
    return study


def pq_t4(rules, n, seed, policy):
    """PQ-T4: sequences before the point."""
    df = dealt_hands(rules, "elder", n, seed)
    trade = df[df["max_sequence_option"] != df["max_point_option"]]
    effect = mean_over_hands(trade["sequence_minus_point"]) if len(trade) > 1 else mean_over_hands([0, 0])
    verdict = _against(effect, 0.0) if len(trade) > 1 else "inconclusive"
    return _discard_verdict("PQ-T4", rules, "elder", verdict, effect,
                            "expected score: sequence-seeking exchange minus point-seeking exchange",
                            "on hands where the two differ, the exchange most likely to win sequences scores more "
                            "than the one most likely to win the point", df, policy, {"hands_that_trade": len(trade)})


def pq_t5(rules, n, seed, policy):
    """PQ-T5: play for repique when the dealt hand is rich in declarations."""
    df = dealt_hands(rules, "elder", n, seed)
    rich = df[df["dealt_declarations"] >= df["dealt_declarations"].median()]
    cost = mean_over_hands(rich["max_repique_cost"])
    verdict = "supported" if cost.hi < 1 else ("refuted" if cost.lo > 1 else "inconclusive")
    return _discard_verdict("PQ-T5", rules, "elder", verdict, cost,
                            "points per deal the repique-maximising exchange gives up (declaration-rich hands)",
                            "on declaration-rich hands, playing for repique costs under 1 point per deal", df, policy,
                            {"rich_hands": len(rich), "differs": float(rich["max_repique_differs"].mean())})


def _learned_deals(n: int) -> int:
    """Deals for the learned-exchange measures at a tip budget of n: n / 4, at most 2,000,000."""
    return int(max(20_000, min(n // 4, 2_000_000)))


def pq_t7(rules, n, seed, policy):
    """PQ-T7: the number of cards exchanged reveals the hand's shape. Judged on younger with the
    learned exchange on both sides (learned_tips); the discard study's best exchanges in the details."""
    from analysis.piquet.policies import get_policy
    from analysis.piquet.studies.learned_tips import exchange_counts

    deals = _learned_deals(n)
    c = exchange_counts(rules, deals, seed)
    takes_all = c["younger_takes_all"]
    verdict = "refuted" if takes_all.lo > 0.9 else ("supported" if takes_all.hi < 0.5 else "inconclusive")
    df = dealt_hands(rules, "younger", n, seed)
    _, hi = rules.younger_bounds(5)
    by = df.groupby("best_takes")["dealt_declarations"].mean()
    return _verdict("PQ-T7", rules, verdict, takes_all,
                    "share of deals on which younger takes every card allowed (learned exchange, both players)",
                    "the count reveals little when younger almost always takes all (refuted above 90%); it carries "
                    "shape information when counts vary", deals, seed, get_policy("learned"),
                    {**{k: v.to_dict() if isinstance(v, Estimate) else v for k, v in c.items()
                        if k != "younger_takes_all"},
                     "study_best_takes_all": proportion(int((df["best_takes"] == hi).sum()), len(df)).to_dict(),
                     "study_dealt_declarations_by_cards_taken": {int(k): float(v) for k, v in by.items()},
                     "study_hands": len(df)}, part="younger")


def pq_t13(rules, n, seed, policy):
    """PQ-T13: as younger, be careful with the exchange (taking all is not always best). Judged as
    the cost of always taking every card against the learned exchange (learned_tips, paired deals);
    the discard study's cost against each hand's best exchange (held out) in the details."""
    from analysis.piquet.policies import get_policy
    from analysis.piquet.studies.learned_tips import take_all_cost

    deals = _learned_deals(n)
    cost = take_all_cost(rules, deals, seed)
    verdict = "supported" if cost.lo > 0.25 else ("refuted" if cost.hi < 0.25 else "inconclusive")
    df = dealt_hands(rules, "younger", n, seed)
    return _verdict("PQ-T13", rules, verdict, cost,
                    "points per deal younger loses by always taking every card, against the learned exchange",
                    "always taking all costs younger more than a quarter point per deal", deals, seed,
                    get_policy("learned"),
                    {"study_take_all_cost": mean_over_hands(df["take_all_cost"]).to_dict(),
                     "study_best_takes": summary(df)["best_takes"], "study_hands": len(df),
                     "study_samples_per_hand": df.attrs["samples"]}, part="younger")


def pq_t14(rules, n, seed, policy):
    """PQ-T14: balance declarations against control of the trick play. The heuristic's discard
    study finds each hand's best, most declaring and most trick-taking exchanges; search players
    then play the three on fresh deals (search_tips.exchange_replay), which decides the verdict."""
    from analysis.piquet.studies.search_tips import exchange_replay, search_deals, search_player

    df = dealt_hands(rules, "elder", n, seed)
    per_hand = max(50, search_deals(n) // max(1, len(df)))
    r = exchange_replay(df, rules, seed, per_hand)
    cost = mean_over_hands(np.minimum(r["best_minus_declaring"], r["best_minus_tricks"]))
    verdict = "supported" if cost.lo > 0 else ("refuted" if cost.hi < 0.2 else "inconclusive")
    heuristic_cost = mean_over_hands(np.minimum(df["max_declaring_cost"], df["max_tricks_cost"]))
    return _verdict("PQ-T14", rules, verdict, cost,
                    "points per deal the better of the two extremes gives up against the best exchange (search play, "
                    "fresh deals)",
                    "the best exchange beats both the declaration-maximising and the trick-maximising one",
                    len(df) * per_hand * 3, seed, search_player(),
                    {"declaring_minus_tricks": mean_over_hands(r["declaring_minus_tricks"]).to_dict(),
                     "differ": float((df["max_declaring_option"] != df["max_tricks_option"]).mean()),
                     "hands": len(df), "deals_per_hand_and_exchange": per_hand, "seat": "elder",
                     "exchanges_chosen_by": "the heuristic-play discard study (racing, its own deals)",
                     "heuristic_play_cost": heuristic_cost.to_dict(), "samples_per_hand": df.attrs["samples"]},
                    part="elder")


def pq_t12(rules, n, seed, policy):
    """PQ-T12: consider sinking combinations to hide information. Younger sinks his small
    combinations (studies/sinking, in the reference: the kernel does not sink) against an elder
    search player who reads declarations at face value, and against one who reads nothing."""
    from analysis.piquet.studies.search_tips import search_deals, search_player
    from analysis.piquet.studies.sinking import sinking_value

    deals = max(4, min(search_deals(n) // 30, 400))
    r = sinking_value(rules, deals, seed)
    effect = r["against_reader"]
    verdict = _against(effect, 0.0)
    details = {k: v.to_dict() if isinstance(v, Estimate) else v for k, v in r.items()
               if k not in ("against_reader", "seconds", "search_deals_per_second")}
    return _verdict("PQ-T12", rules, verdict, effect,
                    "younger's points per deal sinking his small combinations minus declaring them in full, "
                    "against a search player who reads declarations",
                    "sinking small combinations gains against a player who reads declarations (the information "
                    "value against one who reads nothing in the details)", deals, seed, search_player(), details,
                    part="younger")


def pq_t2_both(rules, n, seed, policy):
    """PQ-T2, one verdict for elder and one for younger."""
    return [_pq_t2("elder")(rules, n, seed, policy), _pq_t2("younger")(rules, n, seed, policy)]


def _tracking_value(rules, n, seed, policy) -> Estimate:
    """The heuristic's gain from remembering the cards seen (PQ-T1's trick-play spread)."""
    import dataclasses

    return paired_policies(min(n, 2_000_000), seed, rules, policy, dataclasses.replace(policy, track_cards=False),
                           policy)


def pq_t1(rules, n, seed, policy):
    """PQ-T1: the exchange is the most important decision of the deal. Like with like: both spreads
    are the best minus the typical (heuristic) choice under the same strong player (search): the
    exchange's on the study's hands replayed on fresh deals, the trick play's as search play minus
    heuristic play with the same exchanges (search_tips). The heuristic-play figures in the details."""
    from analysis.piquet.studies.search_tips import exchange_spread, play_spread, search_deals, search_player

    df = dealt_hands(rules, "elder", n, seed)
    per_hand = max(50, search_deals(n) // max(1, len(df)))
    exchange = mean_over_hands(exchange_spread(df, rules, seed, per_hand))
    play = play_spread(rules, n, seed)
    verdict = "supported" if exchange.lo > play.hi else ("refuted" if exchange.hi < play.lo else "inconclusive")
    return _verdict("PQ-T1", rules, verdict, exchange,
                    "points per deal between the best and a typical (heuristic) exchange, search play, fresh deals",
                    "the exchange's best-vs-typical spread exceeds the trick play's best-vs-typical spread (search "
                    "minus heuristic play, same exchanges) and the declaring spread (sinking is not modelled, so 0)",
                    len(df) * per_hand * 2, seed, search_player(),
                    {"play_spread_search_minus_heuristic": play.to_dict(), "declaring_spread": 0.0,
                     "hands": len(df), "deals_per_hand_and_exchange": per_hand, "seat": "elder",
                     "heuristic_play_exchange_spread": mean_over_hands(df["heuristic_cost"]).to_dict(),
                     "heuristic_play_card_tracking_spread": _tracking_value(rules, n, seed, policy).to_dict()},
                    part="elder")


def pq_t6(rules, n, seed, policy):
    """PQ-T6: as elder, strive for pique. The trick play's part: a search player who plays for the
    pique against one who ignores it (search_tips.pique_value); a pique-seeking exchange is not
    modelled (the exchange is the heuristic's)."""
    from analysis.piquet.studies.search_tips import pique_value, search_deals, search_player

    value = pique_value(rules, n, seed)
    verdict = _against(value, 0.0)
    return _verdict("PQ-T6", rules, verdict, value,
                    "elder's points per deal from playing for the pique (search player) against ignoring it",
                    "elder scores more when his trick play strives for the pique than when it ignores it (the "
                    "exchange is the heuristic's in both: the pique-seeking exchange is not tested)",
                    search_deals(n), seed, search_player(), {"exchange": "heuristic in both"})


def pq_t3(rules, n, seed, policy):
    """PQ-T3: count every card. (a) The value of card tracking, for a search player (search_tips;
    the heuristic's in the details); (b) the printed arithmetic."""
    from analysis.piquet.studies.search_tips import search_deals, search_player, tracking_value

    value = tracking_value(rules, n, seed)
    heuristic_value = _tracking_value(rules, n, seed, policy)
    verdict = _against(value, 0.0)
    # (b) After elder takes 5 (seed-de), he has seen his 12 and the 5 he took (17 cards); younger
    # holds 12 of the other 15. Younger taking 3 has seen 15 cards; elder holds 12 of the other 17.
    _, y_hi = rules.younger_bounds(5)
    counts = {"elder_seen": 17, "elder_unseen": 15, "younger_seen": 12 + y_hi, "younger_unseen": 20 - y_hi,
              "printed": "the opponent holds 12 of the 19 cards you have seen (wrong: he holds 12 of the cards "
                         "you have NOT seen, 15 for elder taking five, 17 for younger taking three)"}
    return _verdict("PQ-T3", rules, verdict, value, "elder's points per deal from counting the cards (search player)",
                    "a player who tracks the cards seen (discards, seen talon cards, voids, declarations) "
                    "scores more than one who knows only his hand and the cards played", search_deals(n), seed,
                    search_player(), {"arithmetic": counts, "heuristic_tracking_value": heuristic_value.to_dict(),
                                      "heuristic_deals": min(n, 2_000_000)})


STUDIES = {"PQ-T1": pq_t1, "PQ-T2": pq_t2_both, "PQ-T3": pq_t3, "PQ-T6": pq_t6, "PQ-T4": pq_t4, "PQ-T5": pq_t5, "PQ-T7": pq_t7, "PQ-T8": pq_t8,
           "PQ-T9": pq_t9, "PQ-T10": pq_t10, "PQ-T11": pq_t11, "PQ-T12": pq_t12, "PQ-T13": pq_t13, "PQ-T14": pq_t14}
"""Tips with a study, and the variants each is run under."""
VARIANTS = {"PQ-T1": ("seed-de",), "PQ-T2": ("seed-de",), "PQ-T3": ("seed-de",), "PQ-T6": ("seed-de",), "PQ-T4": ("seed-de",), "PQ-T5": ("seed-de",), "PQ-T7": ("seed-de",),
            "PQ-T8": ("seed-de",), "PQ-T9": ("seed-de", "cavendish"), "PQ-T10": ("seed-no", "cavendish"),
            "PQ-T11": ("seed-no", "seed-de"), "PQ-T12": ("seed-de",), "PQ-T13": ("seed-de", "seed-no"), "PQ-T14": ("seed-de",)}

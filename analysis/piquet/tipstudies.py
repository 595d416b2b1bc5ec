"""Piquet tip studies: each turns a tip of TIPS.md into simulations and a verdict.

A verdict is ``supported`` or ``refuted`` only when the 95% interval of the effect lies wholly on
one side of the tip's sharp reading (PQ-T10: see its margin); otherwise ``inconclusive``.
"""
from __future__ import annotations

from analysis.piquet import kernel as K
from analysis.piquet.policies import HeuristicPolicy
from analysis.piquet.rules import PiquetRules
from analysis.piquet.studies import deal_stats, deal_tallies, partie_stats, simulate_parties
from analysis.stats import Estimate, independent_difference, proportion


def _verdict(tip_id: str, rules: PiquetRules, verdict: str, effect: Estimate, effect_name: str, reading: str,
             n: int, seed: int, policy: HeuristicPolicy, details: dict) -> dict:
    return {"id": tip_id, "variant": rules.name, "verdict": verdict, "effect_name": effect_name,
            "effect": effect.to_dict(), "sharp_reading": reading, "deals": n, "seed": seed,
            "policies": {"both": policy.describe()}, "details": details}


def _against(effect: Estimate, threshold: float) -> str:
    """supported when the interval is above the threshold, refuted when below, else inconclusive."""
    if effect.lo > threshold:
        return "supported"
    if effect.hi < threshold:
        return "refuted"
    return "inconclusive"


def pq_t8(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """PQ-T8: typical deal totals are 20-50 points per side; repique or capot deals exceed 100."""
    t = deal_tallies(n, seed, rules, policy, policy)
    elder = t[K.T_BINS:K.T_BINS + K.N_BINS]
    younger = t[K.T_BINS + K.N_BINS:K.T_BINS + 2 * K.N_BINS]
    typical = proportion(int(elder[2:5].sum() + younger[2:5].sum()), 2 * n)
    over_100 = proportion(int(elder[10:].sum() + younger[10:].sum()), 2 * n)
    shares = {seat: {"20_to_49": proportion(int(b[2:5].sum()), n).to_dict(),
                     "100_or_more": proportion(int(b[10:].sum()), n).to_dict()}
              for seat, b in (("elder", elder), ("younger", younger))}
    verdict = _against(typical, 0.5)
    if verdict == "supported" and over_100.hi <= 0:
        verdict = "inconclusive"
    return _verdict("PQ-T8", rules, verdict, typical, "share of players' deal scores in 20-49",
                    "a majority of deal scores (each side) lie in 20-49, and some exceed 100", n, seed, policy,
                    {"by_seat": shares, "share_100_or_more": over_100.to_dict()})


def pq_t9(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
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


def pq_t10(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """PQ-T10: dealing first is an advantage (the first dealer is elder in the last deal)."""
    parties = max(1, n // rules.partie_deals)
    res = simulate_parties(parties, seed, rules, policy, policy)
    stats = partie_stats(res["tallies"])
    wins = stats["first_dealer_wins"]
    # Supported: the first dealer wins more than half. Refuted: any advantage is ruled out down to
    # one percentage point (the interval lies below 0.51). Otherwise inconclusive.
    verdict = "supported" if wins.lo > 0.5 else ("refuted" if wins.hi < 0.51 else "inconclusive")
    details = {k: stats[k].to_dict() for k in ("first_dealer_margin", "drawn", "rubicon")}
    details["note"] = ("the policies do not look at the score, so the tip's mechanism (the last deal's elder "
                       "knowing the score) is not modelled; the study measures the seating alone")
    return {**_verdict("PQ-T10", rules, verdict, wins, "P(first dealer wins the partie)",
                       "the first dealer wins more than half of the parties (refuted when an advantage of "
                       "1 percentage point or more is ruled out)", parties * rules.partie_deals, seed,
                       policy, details),
            "parties": parties}


def pq_t11(rules: PiquetRules, n: int, seed: int, policy: HeuristicPolicy) -> dict:
    """PQ-T11: taking most tricks is a swing of at least 22 points."""
    t = deal_tallies(n, seed, rules, policy, policy)
    n_win = int(t[K.T_CARDS_ELDER])
    n_lose = int(t[K.T_CARDS_YOUNGER])

    def swing(base, base_sq):
        return independent_difference(int(t[base]), int(t[base_sq]), n_win, int(t[base + 1]),
                                      int(t[base_sq + 1]), n_lose)

    play = swing(K.T_PLAY_NET_BY_CARDS, K.T_PLAY_NET_SQ_BY_CARDS)
    total = swing(K.T_NET_BY_CARDS, K.T_NET_SQ_BY_CARDS)
    verdict = _against(play, 22.0)
    return _verdict("PQ-T11", rules, verdict, play,
                    "elder's play score minus younger's: deals he wins the cards minus deals he loses them",
                    "the play swing between winning and losing the cards is 22 points or more", n, seed, policy,
                    {"total_score_swing": total.to_dict(), "deals_elder_wins_cards": n_win,
                     "deals_elder_loses_cards": n_lose, "mean_tricks_elder": float(t[K.T_ELDER_TRICKS] / n)})


STUDIES = {"PQ-T8": pq_t8, "PQ-T9": pq_t9, "PQ-T10": pq_t10, "PQ-T11": pq_t11}
"""Tips with a study, and the variants each is run under."""
VARIANTS = {"PQ-T8": ("seed-de",), "PQ-T9": ("seed-de", "cavendish"), "PQ-T10": ("seed-no", "cavendish"),
            "PQ-T11": ("seed-no", "seed-de")}

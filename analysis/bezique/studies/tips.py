"""Bezique tip studies: each turns a tip of docs/tips.md (BZ-T1..T5) into paired simulations and verdicts.

Design shared by every study (see docs/bezique-engine.md, "Tip studies"): the tip is expressed by
parameters of the heuristic policy; a handful of *options* (variations of the given policy) play
the **same deals** (common random numbers, ``analysis.bezique.play.paired``), each in **both seats** on
every deal against the unchanged policy as the opponent, so the seat advantage and the luck of
the two hands cancel. The effect is the tested player's net score (his points minus the
opponent's) per deal and seat, option minus option, with a paired 95% interval.

Budget: a study given ``n`` deals does the work of n / DEAL_SHARE deals played under two options in
both seats (its player's exact end game makes each deal dearer). With m options it plays
``2n / (m DEAL_SHARE)`` distinct deals, every one under all m options, so every comparison inside
a study uses the same deals; the verdicts and details say how many.

Verdicts: ``supported`` when the interval of the effect (oriented so that positive is the tip's
side) lies wholly above 0, ``refuted`` when wholly below 0, else ``inconclusive``. No practical
margin is used: a refutation means the tip's side is worse, by however little.
"""
from __future__ import annotations

import dataclasses

from analysis.bezique.play.paired import (
    Q_BRISQUE,
    Q_END_BRISQUE,
    Q_END_TRICKS,
    Q_END_TRUMPS,
    Q_LAST,
    Q_MELD,
    Q_NET,
    Q_STOCK_TRICKS,
    Q_STOCK_TRUMPS,
    QUANTITIES,
    V_DEALER,
    V_ELDER,
    Paired,
    compare,
)
from analysis.bezique.policies import HeuristicPolicy
from analysis.bezique.reference.melds import KINDS
from analysis.bezique.rules import BeziqueRules
from analysis.stats import Estimate
from analysis.verdicts import Verdict

Option = tuple[str, dict]
"""An option: its name and the parameters it changes in the given policy."""

_SEATS = ("Each deal is played under every option in both seats (as elder, then as dealer) against "
          "the unchanged policy; effects are per deal and seat.")


def _against(effect: Estimate, threshold: float = 0.0) -> str:
    """supported when the interval is above the threshold, refuted when below, else inconclusive."""
    if effect.lo > threshold:
        return "supported"
    if effect.hi < threshold:
        return "refuted"
    return "inconclusive"


DEAL_SHARE = 4
"""The studies play a quarter of the budget's deals: their player's exact end game makes a deal
about ten times as dear as the heuristic's end phase did."""


def study_deals(n: int, options: int) -> int:
    """Distinct deals for a study of ``options`` options on a budget of n (4n / DEAL_SHARE plays)."""
    return max(2, (2 * n) // (options * DEAL_SHARE))


def _run(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy, options: list[Option]) -> Paired:
    policies = [dataclasses.replace(policy, **changes) for _, changes in options]
    return compare(study_deals(n, len(options)), seed, rules, policies, policy)


def _comparison(p: Paired, names: list[str], a: str, b: str, quantities: tuple[int, ...], note: str = "") -> dict:
    """One row of a study's breakdown: option a minus option b on the listed quantities."""
    ia, ib = names.index(a), names.index(b)
    row = {"a": a, "b": b, "deals": p.deals}
    if note:
        row["reading"] = note
    for q in quantities:
        row[QUANTITIES[q]] = p.diff(ia, ib, q).to_dict()
    row["net_as_elder"] = p.diff(ia, ib, Q_NET, V_ELDER).to_dict()
    row["net_as_dealer"] = p.diff(ia, ib, Q_NET, V_DEALER).to_dict()
    row["outcomes_differ"] = p.differs(ia, ib)
    return row


def _levels(p: Paired, options: list[Option], quantities: tuple[int, ...], kinds: tuple[str, ...] = ()) -> dict:
    """Per option: its parameter changes, the mean of each quantity and the meld rates."""
    out = {}
    for i, (name, changes) in enumerate(options):
        d = {"changes": {k: int(v) for k, v in changes.items()}}
        for q in quantities:
            d[QUANTITIES[q]] = p.level(i, q).to_dict()
        if kinds:
            d["meld_rate"] = {k: p.meld_rate(i, KINDS.index(k)).to_dict() for k in kinds}
        out[name] = d
    return out


def _policies(policy: HeuristicPolicy, options: list[Option]) -> dict:
    player = "heuristic" + (", exact end game" if policy.exact_endgame else ", heuristic end phase")
    return {"player": player, "opponent": policy.describe(),
            "options": {name: {k: int(v) for k, v in changes.items()} for name, changes in options}}


def _budget(p: Paired, options: list[Option]) -> dict:
    return {"deals": p.deals, "option_count": len(options), "plays_per_deal": 2 * len(options),
            "plays": 2 * len(options) * p.deals, "design": _SEATS}


# ------------------------------------------------------------------------------------------ BZ-T1
def bz_t1(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """BZ-T1: win tricks for the right to meld, not for their face value."""
    options = [("for_melds", {"meld_win": True, "brisque_win": False, "greedy_win": False}),
               ("for_brisques", {"meld_win": False, "brisque_win": True, "greedy_win": False}),
               ("for_both", {"meld_win": True, "brisque_win": True, "greedy_win": False}),
               ("for_neither", {"meld_win": False, "brisque_win": False, "greedy_win": False})]
    names = [o[0] for o in options]
    p = _run(rules, n, seed, policy, options)
    qs = (Q_NET, Q_MELD, Q_BRISQUE, Q_STOCK_TRICKS)
    effect = p.diff(0, 1)
    reading = ("On a stock trick the follower tries to win (trumping if need be) only when a meld worth "
               f"{policy.meld_win_min} or more is waiting (meld_win on, brisque_win off), against trying to win "
               "only when an ace or ten is led (meld_win off, brisque_win on); greedy_win off, everything else as "
               "the given heuristic. Supported when the first player's net score per deal and seat is higher "
               "(95% interval above 0), refuted when lower.")
    details = {
        **_budget(p, options),
        "comparisons": [
            _comparison(p, names, "for_melds", "for_brisques", qs, "the tip: for melds rather than for brisques"),
            _comparison(p, names, "for_both", "for_melds", qs, "adding brisque-winning to meld-winning"),
            _comparison(p, names, "for_both", "for_brisques", qs, "adding meld-winning to brisque-winning"),
            _comparison(p, names, "for_melds", "for_neither", qs, "meld-winning against never contesting"),
            _comparison(p, names, "for_brisques", "for_neither", qs, "brisque-winning against never contesting"),
        ],
        "options": _levels(p, options, (Q_MELD, Q_BRISQUE, Q_STOCK_TRICKS)),
    }
    return Verdict("BZ-T1", rules.name, _against(effect), effect,
                   "net points per deal and seat: winning for melds minus winning for brisques", reading, p.deals,
                   seed, _policies(policy, options), details)


# ------------------------------------------------------------------------------------------ BZ-T2
def bz_t2(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy) -> list[Verdict]:
    """BZ-T2: hold the second card of a meld; four of a kind with the fourth still out is risky."""
    keep = policy.meld_keep or 4
    options = [("hold_partners", {"meld_keep": keep, "four_keep_min": 3}),
               ("no_partners", {"meld_keep": 0}),
               ("hold_partners_strongly", {"meld_keep": 2 * keep, "four_keep_min": 3}),
               ("fours_from_two", {"meld_keep": keep, "four_keep_min": 2}),
               ("fours_only_when_held", {"meld_keep": keep, "four_keep_min": 4})]
    names = [o[0] for o in options]
    p = _run(rules, n, seed, policy, options)
    qs = (Q_NET, Q_MELD, Q_BRISQUE)
    partners = p.diff(0, 1)
    fours = p.diff(4, 0)
    reading = (f"(a) Meld partners: cards with a meld in view get meld_keep = {keep} added to their keep value, so "
               "they are led and thrown last (a K or Q whose partner is held, Q♠/J♦ with the other held, trump "
               "sequence cards when three of the five are held, and cards of a rank held three times), against "
               "meld_keep = 0; supported when holding partners gives a higher net score per deal and seat (95% "
               "interval above 0), refuted when lower. (b) Fours: keeping three of a rank for the missing fourth "
               "(four_keep_min 3) against keeping only a four already held (four_keep_min 4); the tip ('risky') "
               "is supported when not waiting for the fourth scores more, refuted when it scores less.")
    comparisons = [
        _comparison(p, names, "hold_partners", "no_partners", qs, "(a) the tip"),
        _comparison(p, names, "hold_partners_strongly", "no_partners", qs, "a stronger hold"),
        _comparison(p, names, "hold_partners_strongly", "hold_partners", qs, "stronger against default hold"),
        _comparison(p, names, "fours_only_when_held", "hold_partners", qs,
                    "(b) the tip: do not wait for the fourth"),
        _comparison(p, names, "fours_from_two", "hold_partners", qs, "keep pairs for fours too"),
    ]
    details = {**_budget(p, options), "comparisons": comparisons,
               "options": _levels(p, options, (Q_MELD, Q_BRISQUE), tuple(KINDS))}
    pol = _policies(policy, options)
    return [
        Verdict("BZ-T2", rules.name, _against(partners), partners,
                "net points per deal and seat: holding meld partners minus not", reading, p.deals, seed, pol,
                details, part="partners"),
        Verdict("BZ-T2", rules.name, _against(fours), fours,
                "net points per deal and seat: keeping only held fours minus waiting for the fourth", reading,
                p.deals, seed, pol, {"see": "the partners verdict's details (same deals)",
                                     "comparison": comparisons[3]}, part="fours"),
    ]


# ------------------------------------------------------------------------------------------ BZ-T3
def bz_t3(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy) -> list[Verdict]:
    """BZ-T3: lure out aces and tens; keep your own brisques back."""
    bk = policy.brisque_keep or 6
    options = [("tip", {"lead_low": True, "brisque_keep": bk}),
               ("lead_high", {"lead_low": False, "brisque_keep": bk}),
               ("no_brisque_keep", {"lead_low": True, "brisque_keep": 0}),
               ("high_brisque_keep", {"lead_low": True, "brisque_keep": 2 * bk}),
               ("anti_tip", {"lead_low": False, "brisque_keep": 0})]
    names = [o[0] for o in options]
    p = _run(rules, n, seed, policy, options)
    qs = (Q_NET, Q_BRISQUE, Q_END_BRISQUE, Q_MELD, Q_STOCK_TRICKS)
    lead = p.diff(0, 1)
    keep = p.diff(0, 2)
    reading = ("(a) Lure: in the stock phase lead the card of lowest keep value (lead_low) against leading the "
               f"highest-ranked non-trump (which leads his own aces and tens), brisque_keep {bk} in both. (b) Keep "
               f"back: aces and tens get brisque_keep = {bk} added to their keep value against 0, lead_low in both. "
               "With 0 they still outrank every other plain card by rank, so (b) measures keeping brisques back "
               "in preference to meld cards and trumps (whose keep values get meld_keep and trump_keep); in the "
               "end phase the order is the same either way. Supported when the tip's side has the higher net "
               "score per deal and seat (95% interval above 0), refuted when lower; brisque and meld points are "
               "shown beside it.")
    comparisons = [
        _comparison(p, names, "tip", "lead_high", qs, "(a) lead low rather than high"),
        _comparison(p, names, "tip", "no_brisque_keep", qs, "(b) keep brisques back rather than not"),
        _comparison(p, names, "high_brisque_keep", "tip", qs, "a stronger keep against the default"),
        _comparison(p, names, "tip", "anti_tip", qs, "both clauses against neither"),
    ]
    details = {**_budget(p, options), "comparisons": comparisons,
               "options": _levels(p, options, (Q_BRISQUE, Q_END_BRISQUE, Q_MELD))}
    pol = _policies(policy, options)
    return [
        Verdict("BZ-T3", rules.name, _against(lead), lead,
                "net points per deal and seat: leading low minus leading high", reading, p.deals, seed, pol,
                details, part="lead"),
        Verdict("BZ-T3", rules.name, _against(keep), keep,
                "net points per deal and seat: keeping brisques back minus not", reading, p.deals, seed, pol,
                {"see": "the lead verdict's details (same deals)", "comparison": comparisons[1]}, part="keep"),
    ]


# ------------------------------------------------------------------------------------------ BZ-T4
def bz_t4(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """BZ-T4: save trumps for the end phase."""
    tk = policy.trump_keep or 4
    options = [("save", {"trump_keep": tk, "trump_win": False}),
               ("spend", {"trump_keep": 0, "trump_win": True}),
               ("little_keep", {"trump_keep": tk, "trump_win": True}),
               ("hoard", {"trump_keep": 10, "trump_win": False}),
               ("keep_only", {"trump_keep": 10, "trump_win": True})]
    names = [o[0] for o in options]
    p = _run(rules, n, seed, policy, options)
    qs = (Q_NET, Q_END_TRICKS, Q_LAST, Q_END_BRISQUE, Q_BRISQUE, Q_MELD, Q_STOCK_TRUMPS, Q_END_TRUMPS)
    effect = p.diff(0, 1)
    reading = (f"Save: no trick of the stock phase is won with a trump except for a waiting meld (trump_win off) "
               f"and trumps get trump_keep = {tk} added to their keep value; spend: trump_win on and trump_keep 0. "
               "Supported when saving gives the higher net score per deal and seat (95% interval above 0), "
               "refuted when lower; end-phase tricks, last-trick points and end-phase brisques are shown beside "
               "it, and the details show each half of saving alone and hoarding (trump_keep 10).")
    details = {
        **_budget(p, options),
        "comparisons": [
            _comparison(p, names, "save", "spend", qs, "the tip"),
            _comparison(p, names, "little_keep", "spend", qs, f"trump_keep {tk} alone"),
            _comparison(p, names, "save", "little_keep", qs, "trump_win off alone"),
            _comparison(p, names, "hoard", "save", qs, f"hoarding: trump_keep 10 rather than {tk}"),
            _comparison(p, names, "keep_only", "little_keep", qs, f"trump_keep 10 rather than {tk}, trumping on"),
        ],
        "options": _levels(p, options, (Q_END_TRICKS, Q_LAST, Q_END_BRISQUE, Q_STOCK_TRUMPS, Q_END_TRUMPS)),
    }
    return Verdict("BZ-T4", rules.name, _against(effect), effect,
                   "net points per deal and seat: saving trumps minus spending them", reading, p.deals, seed,
                   _policies(policy, options), details)


# ------------------------------------------------------------------------------------------ BZ-T5
BZ_T5_THRESHOLDS = (0, 10, 20, 30, 40)
"""Cards left in the stock (before the trick's draws) from which a single bezique is held."""


def bz_t5(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy) -> Verdict:
    """BZ-T5: hold a single bezique when there is a real chance of drawing the second pair."""
    default = policy.hold_bezique_stock
    thresholds = sorted(set(BZ_T5_THRESHOLDS) | {default})
    options = [("declare_now", {"hold_bezique": False})] + [
        (f"hold_stock_{t}", {"hold_bezique": True, "hold_bezique_stock": t}) for t in thresholds]
    names = [o[0] for o in options]
    p = _run(rules, n, seed, policy, options)
    head = names.index(f"hold_stock_{default}")
    effect = p.diff(head, 0)
    bz, dbz = KINDS.index("bezique"), KINDS.index("double_bezique")
    rows = []
    for t in thresholds:
        i = names.index(f"hold_stock_{t}")
        e = p.diff(i, 0)
        rows.append({"hold_while_stock_at_least": t, "verdict": _against(e), "net": e.to_dict(),
                     "meld_points": p.diff(i, 0, Q_MELD).to_dict(),
                     "net_as_elder": p.diff(i, 0, Q_NET, V_ELDER).to_dict(),
                     "net_as_dealer": p.diff(i, 0, Q_NET, V_DEALER).to_dict(),
                     "single_bezique_rate": p.meld_rate(i, bz).to_dict(),
                     "double_bezique_rate": p.meld_rate(i, dbz).to_dict(), "deals": p.deals})
    double_rule = ("classic: a double bezique may follow a single one still on the table (40 + 500)"
                   if rules.double_bezique_after_single else
                   "seed-de: a double bezique only when all four cards are laid in one turn, so declaring the "
                   "single gives the 500 up while its cards are on the table")
    reading = ("A single bezique is held (not declared; the next-best meld or none is laid instead) while the "
               "double is still possible and the stock holds at least T cards, against declaring it at once. The "
               "tip's 'cards seen' is modelled by the double being possible: no Q♠ or J♦ played to a trick or on "
               "the opponent's table (and, without double_bezique_after_single, none of his own used in a single "
               f"bezique); 'cards left' by T = {', '.join(map(str, thresholds))}. Headline: the given policy's "
               f"T = {default}. Supported when holding gives the higher net score per deal and seat (95% interval "
               f"above 0), refuted when lower. Rule: {double_rule}.")
    details = {**_budget(p, options), "by_threshold": rows,
               "declare_now": {"single_bezique_rate": p.meld_rate(0, bz).to_dict(),
                               "double_bezique_rate": p.meld_rate(0, dbz).to_dict(),
                               "meld_points": p.level(0, Q_MELD).to_dict()},
               "cards_seen_model": "double_possible: no Q♠/J♦ played or on the opponent's table",
               "search_play": bz_t5_search(rules, n, seed, policy, thresholds)}
    return Verdict("BZ-T5", rules.name, _against(effect), effect,
                   f"net points per deal and seat: holding a single bezique (stock >= {default}) minus declaring it",
                   reading, p.deals, seed, _policies(policy, options), details)


BZ_T5_SEARCH_SAMPLES = 32


BZ_T5_SEARCH_MOST = 1_000
"""At most this many distinct deals for BZ-T5's search study. Each is played by the 32-sample search
player in both seats under seven options (about 14 deals a second on 2 threads): a thousandth of the
full budget (5,000 deals) took more than an hour per variant and kept the full report from finishing
in a session; 1,000 deals take about 17 minutes per variant. The study is a check beside the verdict,
which the heuristic's paired deals decide."""


def bz_t5_search_deals(n: int) -> int:
    """Distinct deals of BZ-T5's search study on a budget of n: a five-thousandth, at least 4 and at
    most BZ_T5_SEARCH_MOST (the quick budget's 300,000 deals give 60, the full budget 1,000)."""
    return min(BZ_T5_SEARCH_MOST, max(4, n // 5000))


def bz_t5_search(rules: BeziqueRules, n: int, seed: int, policy: HeuristicPolicy, thresholds) -> dict:
    """BZ-T5 under search play (players/search.py, 32 samples, the policy's heuristic in its
    rollouts): the search player declares every single bezique at once, or holds it while the
    double is possible and the stock holds at least T cards, or chooses by search; each option
    in both seats on the same deals against the policy. Holding minus declaring by T, and what
    the free search gains over each."""
    from analysis.bezique.policies import SearchPolicy

    base = SearchPolicy(**{f.name: getattr(policy, f.name) for f in dataclasses.fields(HeuristicPolicy)},
                        samples=BZ_T5_SEARCH_SAMPLES)
    options = ([("declare_now", {"bezique_rule": "declare"})]
               + [(f"hold_stock_{t}", {"bezique_rule": "hold", "hold_bezique_stock": t}) for t in thresholds]
               + [("search_chooses", {"bezique_rule": "search"})])
    policies = [dataclasses.replace(base, **changes) for _, changes in options]
    deals = bz_t5_search_deals(n)
    p = compare(deals, seed + 1, rules, policies, policy)
    bz, dbz = KINDS.index("bezique"), KINDS.index("double_bezique")
    rows = [{"hold_while_stock_at_least": t, "net": p.diff(i + 1, 0).to_dict(),
             "single_bezique_rate": p.meld_rate(i + 1, bz).to_dict(),
             "double_bezique_rate": p.meld_rate(i + 1, dbz).to_dict()} for i, t in enumerate(thresholds)]
    free = len(options) - 1
    return {"player": f"search ({BZ_T5_SEARCH_SAMPLES} samples, rollouts: the policy's heuristic), exact end game",
            "opponent": policy.describe(), "deals": deals, "seed": seed + 1, "by_threshold": rows,
            "declare_now": {"single_bezique_rate": p.meld_rate(0, bz).to_dict(),
                            "double_bezique_rate": p.meld_rate(0, dbz).to_dict()},
            "search_chooses_minus_declare": p.diff(free, 0).to_dict(),
            "search_chooses_double_bezique_rate": p.meld_rate(free, dbz).to_dict()}


STUDIES = {"BZ-T1": bz_t1, "BZ-T2": bz_t2, "BZ-T3": bz_t3, "BZ-T4": bz_t4, "BZ-T5": bz_t5}
"""Tips with a study, and the variants each is run under."""
VARIANTS = {"BZ-T1": ("seed-de",), "BZ-T2": ("seed-de",), "BZ-T3": ("seed-de",), "BZ-T4": ("seed-de",),
            "BZ-T5": ("seed-de", "classic")}

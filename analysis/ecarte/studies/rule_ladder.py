"""The ladder of Écarté's first decisions (docs/playing-rules.md, "The ladder"): per variant and
decision, the best playing rule of each length, searched on the shipped equilibrium's **fitted**
deals (``analysis.rule_ladder``) and costed on its **held-out** deals, with the books' rules on the
same scale. ``salon rules ecarte`` reads the shipped ladders (``data/rule_ladders.json``, made by
``scripts/make_rule_ladders.py``); ``--refit`` searches again."""
from __future__ import annotations

import os
import re

import numpy as np

from analysis.ecarte.rules import get_rules
from analysis.ecarte.studies.equilibrium.tips import ec_t2_choices
from analysis.ecarte.studies.foster import TRUMP_KING, set_shares
from analysis.ecarte.studies.playing_rules import (
    EXPLOIT_DEALS,
    SIDES,
    Answers,
    SetTable,
    answers,
    choice_cost,
    decision,
    exploit_reading,
    exploitability,
    players,
    rule_choices,
    set_table,
)
from analysis.errors import InputError
from analysis.playing_rules import Rule, parse
from analysis.rule_ladder import (
    Groups,
    atoms,
    decide,
    merge_ladders,
    pick_ladders,
    read_ladders,
    rule_text,
    search,
    simplify,
)

LADDERS_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "rule_ladders.json")
VARIANTS = ("seed-de", "classic")
MOST_LINES = 8
BEAM = 64
MOST_SUMMED = 3
LINE_WORTH = 1e-4
"""Points per dealt hand a longer rung must save on the fitted deals to be shown: a line that
saves less is not worth learning."""
ALONE = {"trump_king", "king_turned", "turnup_above", "top_trump"}
"""Features compared alone, never summed (0/1 ones and the top trump's rank)."""
SEARCH_WORDS = (f"beam search ({BEAM} partial lists) over decision lists whose lines compare a feature or a sum "
                f"of up to {MOST_SUMMED} features with a number, or two such comparisons joined by 'and'")

BOOK = {
    "elder": (("Britannica: play with three or more trumps and kings", "play if trumps + plain_kings >= 3; otherwise propose"),),
    "dealer": (("Britannica: refuse with 3 trumps, or guarded in 3 plain suits, in 2 with a trump, in 1 with two",
                "refuse if trumps >= 3 or guarded_suits >= 3 or (guarded_suits >= 2 and trumps >= 1) or "
                "(guarded_suits >= 1 and trumps >= 2); otherwise accept"),),
}
"""The books' rules that the features state exactly (docs/classical.md)."""


def _groups(t: SetTable, names: tuple[str, ...], values: np.ndarray) -> tuple[Groups, np.ndarray]:
    """The distinct feature vectors with their fit gain, and each set's group."""
    unique, inverse = np.unique(values, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    gain = np.bincount(inverse, weights=t.weight * t.fit, minlength=len(unique))
    return Groups(names, unique, gain), inverse


def _rung(t: SetTable, d: np.ndarray, ans: Answers, source: str, lines: int, rule: Rule | None = None) -> dict:
    """A rung or a book rule: what choosing ``d`` costs, what the other side gains by answering it
    (``exploitability``), and the rule in its syntax and in words (None for a book rule the
    features cannot state)."""
    e = exploitability(t, d, ans)
    return {"source": source, "lines": lines, "rule": rule and rule.text(), "words": rule and rule.words(),
            **choice_cost(t, d), "exploitability": {k: e[k] for k in ("value", "ci95", "answer_gain", "answer_changes")}}


def book_rules(t: SetTable, rules, ans: Answers) -> list[dict]:
    """The books' rules for this decision, costed like the rungs: the Britannica's (the features
    state them), and for elder EC-T2's sure winners and Foster's jeu de règle (exact per hand and
    turn-up; where Foster says nothing the solution is followed, and the entry says so)."""
    out = []
    for name, text in BOOK[t.side]:
        rule = parse(decision(t.side), text)
        out.append(_rung(t, rule_choices(rule, t), ans, name, rule.length, rule))
    if t.side == "elder":
        out.append(_rung(t, ec_t2_choices(t.masks, t.buckets), ans,
                         "EC-T2: propose with fewer than 3 sure winners (master trumps and plain kings)", 2))
        # Foster: a jeu de règle is played, or proposed holding the trump king; the point certain, propose.
        jeu, certain = set_shares(rules.must_trump_when_void)
        s, sc = jeu[t.info_set], certain[t.info_set]
        says = np.where((t.masks & TRUMP_KING) != 0, 1.0, sc / np.maximum(s, 1e-300))
        entry = _rung(t, s * says + (1 - s) * t.probability, ans,
                      "Foster: play a jeu de règle, propose one holding the trump king or with the point certain", 2)
        entry["speaks_on"] = float((t.weight * s).sum() / t.weight.sum())
        entry["reading"] = "Foster's rule where it speaks (a jeu de règle), the solution on every other hand"
        out.append(entry)
    return out


def ladder(side: str, rules, most_lines: int = MOST_LINES, exploit_deals: int = EXPLOIT_DEALS) -> dict:
    """The ladder of ``side``'s decision under ``rules``: the best rule found of each length (chosen
    on the fitted deals, costed on the held-out ones), what the other side gains by answering each
    (``exploit_deals`` new deals per information set), the books' rules, and the moonshot's target.
    The rungs up to ``most_lines`` lines are the same whatever the longest searched."""
    dec = decision(side)
    t = set_table(side, rules)
    ans = answers(side, rules, exploit_deals)
    names = tuple(dec.features)
    groups, inverse = _groups(t, names, t.features(dec))
    candidates = atoms(groups, ALONE, MOST_SUMMED)
    rungs, seen = [], set()
    for lines, first, _ in search(groups, candidates, most_lines, BEAM):
        lines = simplify(lines, first, candidates)
        text = rule_text(lines, first, candidates, SIDES[side])
        if text in seen:
            continue
        seen.add(text)
        d = decide(lines, first, candidates)[inverse].astype(float)
        if rungs and choice_cost(t, d)["fit_cost"] > rungs[-1]["fit_cost"] - LINE_WORTH:
            continue  # not worth its lines on the deals that chose it
        rungs.append(_rung(t, d, ans, "searched", len(lines) + 1, parse(dec, text)))
    book = book_rules(t, rules, ans)
    best_book = min((r for r in book if "speaks_on" not in r), key=lambda r: r["cost"]["value"])
    target = min(best_book["cost"]["value"] / 3, 0.01)
    met = [r["lines"] for r in rungs if r["lines"] <= 5 and r["cost"]["ci95"][1] <= target]
    return {"game": "ecarte", "decision": side, "rules": rules.name, "switches": rules.switches(), "rungs": rungs,
            "book": book,
            "moonshot": {"target": target, "best_book": best_book["source"], "met_at_lines": min(met) if met else None,
                         "reading": "a rule of at most 5 lines whose cost's 95% upper bound is at most a third of the "
                                    "best book rule's cost (of those that speak on every hand) and at most 0.01 "
                                    "points per hand"},
            "chosen_on": "the equilibrium's fitted deals", "costed_on": "its held-out deals",
            "search": SEARCH_WORDS, "exploitability_reading": exploit_reading(ans),
            **players(t, rules)}


DECISIONS = (*SIDES, "discard")
"""The decisions with a ladder: the first decisions (from the tables) and the discard
(``discard_rules``: played on new deals)."""


def _ladder(name: str, rules) -> dict:
    if name == "discard":
        from analysis.ecarte.studies import discard_rules

        return discard_rules.ladder(rules)
    return ladder(name, rules)


def make_ladders(variants=VARIANTS, decisions=DECISIONS) -> dict:
    """The ladders of ``decisions`` under each variant (what ``scripts/make_rule_ladders.py``
    ships), the shipped ladders of the other decisions and variants kept as they are."""
    found = [_ladder(d, get_rules(v)) for v in variants for d in decisions]
    return merge_ladders(shipped_ladders(), found, variants, decisions, VARIANTS, DECISIONS)


def shipped_ladders() -> dict | None:
    """The shipped ladders, or None when the package has none."""
    return read_ladders(LADDERS_FILE)


def ladders_answer(side: str | None, rules, refit: bool = False) -> tuple[dict, str]:
    """``salon rules ecarte``: the ladders of ``side`` (every decision when None) under ``rules``,
    read from the package (``refit``: searched again from the shipped tables), as (JSON, text)."""
    if side is not None and side != "discard":
        decision(side)  # an unknown decision: one line naming the valid ones
    sides = [side] if side else list(DECISIONS)
    if refit:
        found = [_ladder(s, rules) for s in sides]
    else:
        found = pick_ladders(shipped_ladders(), rules.name, sides, rules.switches())
        if len(found) < len(sides):
            changed = _changed_switches(rules)
            if changed:
                raise InputError(f"no shipped ladder for rules {rules.name} with {changed}: the ladders ship for the "
                                 f"variants as they are ({', '.join(VARIANTS)})")
            raise InputError(f"no shipped ladder for rules {rules.name}; shipped: {', '.join(VARIANTS)} "
                             "(--refit searches one from the variant's shipped tables)")
    res = {"game": "ecarte", "rules": rules.name, "ladders": found}
    return res, ladders_text(res)


def _changed_switches(rules) -> str:
    """The switches of ``rules`` that differ from its named variant's, as KEY=VALUE words ('' none)."""
    try:
        base = get_rules(rules.name).switches()
    except InputError:  # a variant unknown by name: nothing to compare with
        return ""
    return ", ".join(f"{k}={v}" for k, v in rules.switches().items() if base.get(k) != v)


def ladders_text(res: dict) -> str:
    """The ladders in a player's words: each rung's rule, then what it gives up."""
    from analysis.ecarte.studies.discard_rules import ladder_text

    out = []
    for lad in res["ladders"]:
        if lad["decision"] == "discard":
            out += [ladder_text(lad), ""]
            continue
        actions = " or ".join(SIDES[lad["decision"]])
        out.append(f"Écarté, {lad['decision']}: {actions} ({lad['rules']}). Points per hand given up against "
                   "perfect play, the other side playing perfectly:")
        for r in lad["rungs"]:
            c = r["cost"]
            out.append(f"  {r['lines']} line{'s' if r['lines'] > 1 else ''}: gives up {c['value']:.4f} "
                       f"[{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}], agrees on {r['agreement']['by_hands']:.0%} of hands, "
                       + answered_words(r))
            out += ["      " + ln.strip() for ln in r["rule"].split(";")]
        out.append("  The books:")
        for r in lad["book"]:
            c = r["cost"]
            out.append(f"    {r['source']}: gives up {c['value']:.4f} [{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}]"
                       + (" (where it speaks)" if "speaks_on" in r else "") + ", " + answered_words(r))
        m = lad["moonshot"]
        out.append(f"  A rule of at most 5 lines within {m['target']:.4f} (a third of the best book rule, at most "
                   "0.01): " + (f"met with {m['met_at_lines']} lines." if m["met_at_lines"] else "not met."))
        out.append("")
    if any(lad["decision"] != "discard" for lad in res["ladders"]):
        out.append("The first decisions' rules chosen on the solved game's fitted deals and costed on its held-out "
                   "deals; 'answered' is what the other side gains more by answering the rule best (at least this "
                   "much, on new deals).")
    return "\n".join(out).rstrip("\n")


def answered_words(r: dict) -> str:
    """What the other side gains by answering a rung, in a few words."""
    e = r["exploitability"]
    if e["ci95"][0] <= 0:
        return f"answered: nothing measurable (at most {e['ci95'][1]:.4f})"
    return f"answered: {e['value']:.4f} [{e['ci95'][0]:.4f}, {e['ci95'][1]:.4f}] more"


SHORT_WORDS = {"trump_king": "the trump king", "plain_kings": "plain kings",
               "plain_queens": "plain queens", "plain_jacks": "plain jacks", "plain_aces": "plain aces",
               "longest_plain": "cards in the longest plain suit", "guarded_suits": "guarded plain suits",
               "top_trump": "the top trump's rank (7 = 1 ... K = 8)", "king_turned": "the king turned (1)",
               "turnup_above": "the turn-up above my trumps (1)"}
"""Each feature in a line of the guide."""


def rule_words(text: str) -> str:
    """A rule in the guide's words: features by name, comparisons as signs, lines joined by '; '."""
    def feature(m: re.Match) -> str:
        return SHORT_WORDS.get(m.group(0), m.group(0))

    if text.startswith("otherwise "):
        return "always " + text.split()[1]
    out = text.replace("top_trump >= 1", "holding a trump")
    out = re.sub(r"[a-z]+(?:_[a-z]+)+", feature, out)  # the features with an underscore; 'trumps' reads as it is
    return out.replace(">=", "≥").replace("<=", "≤")

#!/usr/bin/env python3
"""Check ``salon review`` on deals its own player played, and time it (docs/review.md).

A deal played by the reviewer's own player should review with no decision losing more than the
sampling noise: the share of rated card decisions whose 95% interval lies above zero is printed
per game (about 2.5% is the noise's own rate; a reviewer that disagreed with its player would show
far more):
- Piquet: deals played by the reference's searching player (its own draws), reviewed by the
  searching reviewer (other draws);
- Écarté: hands whose cards were played by the searching reviewer's choice on one seed, reviewed
  on another;
- Bezique: end games played by the exact end-game player, reviewed exactly (every loss must be 0;
  the stock phase's own player, the kernel's search player, writes no records).

Then the time of ``salon review`` on one record per game (median of three runs, in-process, the
kernels cached). Prints one JSON object; ``--deals`` per game.

    .venv/bin/python scripts/review_check.py --deals 200
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def clear_share(reviews) -> dict:
    rated = [d for rv in reviews for d in rv.decisions
             if d.kind in ("lead", "follow") and not d.forced and d.loss is not None]
    clear = [d for d in rated if d.ci95 is not None and d.ci95[0] > 0]
    return {"rated_cards": len(rated), "clear_losses": len(clear),
            "share": round(len(clear) / max(len(rated), 1), 4),
            "largest": round(max((d.loss for d in rated), default=0.0), 3)}


def piquet(deals: int, seed: int) -> dict:
    from analysis.piquet.policies import get_policy
    from analysis.piquet.reference.deal import play_deal
    from analysis.piquet.reference.records import record_from_deal
    from analysis.piquet.review import review
    from analysis.piquet.rules import get_rules

    r, pol = get_rules(), get_policy("search")
    out = []
    for i in range(deals):
        out.append(review(record_from_deal(play_deal(seed, i, r, pol, pol), r), i, seed=seed + 1))
        print(f"piquet {i + 1}/{deals}", file=sys.stderr, end="\r")
    return {"player": "the reference searching player (20 draws a card)", **clear_share(out)}


def ecarte(deals: int, seed: int) -> dict:
    from analysis.ecarte.api import record
    from analysis.ecarte.policies import get_policy
    from analysis.ecarte.review import review
    from analysis.ecarte.rules import get_rules

    out = []
    for i in range(deals):
        rec = record(seed, i, get_rules(), get_policy())
        for _ in range(10):  # each card the reviewer's best on seed + 7, one change at a time
            rv = review(rec, i, seed=seed + 7)
            best = {(d.step, d.kind): d.best for d in rv.decisions if d.kind in ("lead", "follow") and d.best}
            first = next(((n, k) for n, pair in enumerate(rec["tricks"], 1) for k, c in zip(("lead", "follow"), pair, strict=True)
                          if best.get((f"trick {n}", k), c) != c), None)
            if first is None:
                break
            rec = replay_from(rec, first, best)
        out.append(review(rec, i, seed=seed + 11))
        print(f"ecarte {i + 1}/{deals}", file=sys.stderr, end="\r")
    return {"player": "the searching reviewer's own choices (seed + 7), reviewed on other draws (seed + 11)",
            **clear_share(out)}


def replay_from(rec: dict, first: tuple[int, str], best: dict) -> dict:
    """The record with the card at ``first`` (trick number, lead or follow) replaced by the
    reviewer's best, and the later cards played by open hands (a legal continuation; the caller
    reviews it again)."""
    from analysis.cards import parse_card
    from analysis.ecarte.players.solver import best_card, best_follow, value_table
    from analysis.ecarte.reference.cards import follower_wins, mask_of_codes, penalised_side, suit_of
    from analysis.ecarte.rules import CODEC, get_rules, name_of

    r = get_rules(rec["rules"])

    def code(name):
        return CODEC.code_of(parse_card(name))

    hands = {s: mask_of_codes([code(c) for c in rec[s]]) for s in ("elder", "dealer")}
    stock, drawn = [code(c) for c in rec["stock"]], 0
    for ex in rec["exchanges"]:
        for s in ("elder", "dealer"):
            thrown = [code(c) for c in ex[f"{s}_discard"]]
            hands[s] = hands[s] & ~mask_of_codes(thrown) | mask_of_codes(stock[drawn:drawn + len(thrown)])
            drawn += len(thrown)
    pen = penalised_side(rec["ending"] == "elder_plays" and not rec["exchanges"],
                         len(rec["exchanges"]) if rec["ending"] == "dealer_refuses" else None, r)
    table = value_table(int(pen == "elder"), int(pen == "dealer"), r.to_array())
    trump, must = suit_of(code(rec["turnup"])), bool(r.must_trump_when_void)
    leader, et, tricks = "elder", 0, []
    for n in range(1, 6):
        follower = "dealer" if leader == "elder" else "elder"
        el = leader == "elder"
        if n < first[0]:
            led, fol = (code(c) for c in rec["tricks"][n - 1])
        else:
            led = code(best[(f"trick {n}", "lead")]) if (n, "lead") == first else \
                code(rec["tricks"][n - 1][0]) if n == first[0] else \
                best_card(hands[leader], hands[follower], trump, el, et, must, table)[1]
            rest = hands[leader] & ~(1 << led)
            fol = code(best[(f"trick {n}", "follow")]) if (n, "follow") == first else \
                best_follow(rest, hands[follower], led, trump, el, et, must, table)[1]
        tricks.append([name_of(led), name_of(fol)])
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << fol)
        leader = follower if follower_wins(led, fol, trump) else leader
        et += leader == "elder"
    return {**rec, "tricks": tricks}


def bezique(deals: int, seed: int) -> dict:
    from analysis.bezique.api import record
    from analysis.bezique.policies import get_policy
    from analysis.bezique.review import review
    from analysis.bezique.rules import get_rules

    pol = get_policy("heuristic", ["exact_endgame=true"])
    losses = []
    for i in range(deals):
        rv = review(record(seed, i, get_rules(), pol), i, player="dd")  # the end game only, exactly
        losses += [d.loss for d in rv.decisions if d.loss is not None and not d.forced]
    return {"player": "the exact end-game player, reviewed exactly", "rated_cards": len(losses),
            "nonzero_losses": sum(x != 0 for x in losses)}


def timing(repeats: int = 3) -> dict:
    """Seconds of ``salon review`` on one record per game, as a user runs it (a new process: Python's
    start, the imports and the cached kernels' loading included), median of ``repeats``."""
    import os
    import subprocess
    import tempfile

    salon = os.path.join(os.path.dirname(sys.executable), "salon")
    out = {}
    for game in ("ecarte", "piquet", "bezique"):
        path = os.path.join(tempfile.mkdtemp(), "r.json")
        subprocess.run([salon, "simulate", game, "--deals", "2", "--records", path, "--record-count", "1", "--quiet"],
                       check=True, capture_output=True)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run([salon, "review", path, "--quiet", "--json"], check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        out[game] = round(statistics.median(times), 2)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--games", default="piquet,ecarte,bezique")
    a = p.parse_args()
    res = {}
    for g in a.games.split(","):
        t0 = time.perf_counter()
        res[g] = {**{"piquet": piquet, "ecarte": ecarte, "bezique": bezique}[g](a.deals, a.seed),
                  "deals": a.deals, "seconds": round(time.perf_counter() - t0, 1)}
    res["seconds_per_record"] = timing()
    print(json.dumps(res))


if __name__ == "__main__":
    main()

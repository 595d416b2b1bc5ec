"""The brute-force double-dummy evaluator of Piquet's trick play (analysis/piquet/reference/solver.py).

Hand-made endings with their values worked out by hand (PQ-TRICK under both trick scorings,
PQ-LAST, PQ-CARDS with the capot and a 6-6 split, PQ-PIQUE on the lead, win and last-trick points,
and when it cannot come), then the two readings against each other: ``brute_force`` (its own
reading of the rules, exhaustive minimax) equals the minimax over ``line_value`` (the reference
module's scoring) of every line of random small positions under every variant, with ``best``
exactly the leads whose optimal continuation reaches the value; and ``line_value`` of the real
rest of reference-played deals equals what the reference scored for it.
"""
from __future__ import annotations

import random

import pytest

from analysis.cards import parse_cards
from analysis.piquet.policies import HeuristicPolicy, RandomPolicy
from analysis.piquet.reference.cards import ELDER, follower_wins, legal_follows
from analysis.piquet.reference.deal import play_deal
from analysis.piquet.reference.solver import _trick_events, brute_force, line_value
from analysis.piquet.rules import code_of, codes_of_mask, get_rules

SEED_DE = get_rules("seed-de")
SEED_NO = get_rules("seed-no")
CAVENDISH = get_rules("cavendish")
VARIANTS = {
    "seed-de": SEED_DE,
    "seed-no": SEED_NO,
    "cavendish": CAVENDISH,
    # Other point values, so that the last trick and the bonuses weigh differently.
    "seed-de last=3": get_rules("seed-de", ["last_trick=3", "cards_bonus=7", "capot=25", "pique=20"]),
    "seed-no last=0": get_rules("seed-no", ["last_trick=0", "pique=50"]),
}


def codes(text: str) -> list[int]:
    return [code_of(c) for c in parse_cards(text)]


def code(text: str) -> int:
    return codes(text)[0]


def mask(text: str) -> int:
    m = 0
    for c in codes(text):
        m |= 1 << c
    return m


def position(elder: str, younger: str, *, elder_leads=True, e_won, y_won, e_score=10, y_score=5,
             pique_done=False, rules=SEED_DE) -> dict:
    return dict(elder=mask(elder), younger=mask(younger), elder_leads=elder_leads, e_won=e_won,
                y_won=y_won, e_score=e_score, y_score=y_score, pique_done=pique_done, rules=rules)


def line(pos: dict, text: str) -> int:
    """line_value of the line ``text``: the cards in play order (led, followed, led, ...)."""
    cs = codes(text)
    return line_value(**pos, tricks=list(zip(cs[::2], cs[1::2], strict=True)))


def solve(pos: dict) -> tuple[int, list[int]]:
    return brute_force(**pos)


# ---------------------------------------------------------------------------------------------
# Hand-made endings
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [SEED_DE, CAVENDISH])
def test_one_card_endings_lead_and_win_against(rules):
    # Trick 12, elder 6 tricks and younger 5 so far. Elder leads AS, younger follows 7S: elder +1
    # for the lead, nothing for winning his own lead, +1 for the last trick; 7 tricks: +10. V = 12.
    pos = position("AS", "7S", e_won=6, y_won=5, rules=rules)
    assert solve(pos) == (12, [code("AS")])
    assert line(pos, "AS 7S") == 12
    # Younger void in spades plays his AH, elder's 7S holds the trick: the same 12.
    assert solve(position("7S", "AH", e_won=6, y_won=5, rules=rules)) == (12, [code("7S")])
    # Elder leads 7S, younger wins with AS: elder +1 (lead); younger +1 (won against the lead)
    # +1 (last trick); 6-6: nobody has the cards. V = 1 - 2 = -1.
    assert solve(position("7S", "AS", e_won=6, y_won=5, rules=rules)) == (-1, [code("7S")])
    # Younger leads 7S (he won trick 11), elder wins with AS: younger +1; elder +1 +1; 6-6. V = 1.
    pos = position("AS", "7S", elder_leads=False, e_won=5, y_won=6, rules=rules)
    assert solve(pos) == (1, [code("7S")])
    assert line(pos, "7S AS") == 1


def test_one_card_endings_first_lead_and_wins():
    # seed-no: no lead points after trick 1; the winner +1, the last trick +1.
    # Elder leads AS over 7S: +1 +1, 7 tricks +10: V = 12.
    assert solve(position("AS", "7S", e_won=6, y_won=5, rules=SEED_NO)) == (12, [code("AS")])
    # Elder leads 7S, younger wins: younger +1 +1; 6-6. V = -2.
    assert solve(position("7S", "AS", e_won=6, y_won=5, rules=SEED_NO)) == (-2, [code("7S")])
    # Younger leads 7S, elder wins: elder +1 +1, 6-6. V = 2.
    pos = position("AS", "7S", elder_leads=False, e_won=5, y_won=6, rules=SEED_NO)
    assert solve(pos) == (2, [code("7S")])


def test_trick_one_events():
    # Trick 1 under seed-no: elder's first lead point, then the winner's point; under seed-de the
    # leader's point, then the winner's against the lead. (Trick 1 has 12 cards in each hand, too
    # many for the brute force: its events are checked here and through line_value below.)
    assert _trick_events(1, True, False, SEED_NO) == [(True, 1), (False, 1)]
    assert _trick_events(1, True, True, SEED_NO) == [(True, 1), (True, 1)]
    assert _trick_events(2, True, True, SEED_NO) == [(True, 1)]
    assert _trick_events(1, True, False, SEED_DE) == [(True, 1), (False, 1)]
    assert _trick_events(1, True, True, SEED_DE) == [(True, 1)]
    assert _trick_events(12, False, True, SEED_DE) == [(False, 1), (True, 1), (True, 1)]


def test_capot():
    # Elder AS KS against 7S 8S, elder has won all 10 tricks. Either lead takes both tricks.
    # seed-de: trick 11 lead +1; trick 12 lead +1, last +1; capot 40 instead of the cards: 43.
    # seed-no: trick 11 won +1; trick 12 won +1, last +1; capot 40: 43.
    for rules in (SEED_DE, SEED_NO):
        pos = position("AS KS", "7S 8S", e_won=10, y_won=0, rules=rules)
        assert solve(pos) == (43, sorted(codes("AS KS")))
        assert line(pos, "KS 7S AS 8S") == 43


def test_lose_the_loser_first_and_the_cards():
    # Elder AS 7H, younger KS AH, 5 tricks each so far, seed-de, younger has scored (no pique).
    # AS first: trick 11 elder +1 (lead); trick 12 elder leads 7H +1, younger AH +1 +1 (last):
    #   2 - 2 = 0, 6-6.
    # 7H first: elder +1 (lead), younger AH +1; younger leads KS +1, elder AS +1 +1 (last):
    #   3 - 2 = +1, 6-6.
    pos = position("AS 7H", "KS AH", e_won=5, y_won=5)
    assert line(pos, "AS KS 7H AH") == 0
    assert line(pos, "7H AH KS AS") == 1
    assert solve(pos) == (1, [code("7H")])
    # The same with elder 6 tricks to younger 4: both lines give elder 7 tricks, +10 each.
    assert solve(position("AS 7H", "KS AH", e_won=6, y_won=4)) == (11, [code("7H")])
    # And with elder 10 to 0: 11 tricks either way (cards +10; younger's one trick spoils the capot).
    assert solve(position("AS 7H", "KS AH", e_won=10, y_won=0)) == (11, [code("7H")])


def test_a_six_six_split_scores_no_cards():
    # Elder wins trick 12 for 6 tricks to 6 (seed-de): lead +1, last +1, no cards: V = 2.
    pos = position("AS", "7S", e_won=5, y_won=6, elder_leads=True)
    assert solve(pos) == (2, [code("AS")])
    # Same trick with elder at 6 before it: 7-5 gives the cards, V = 12.
    assert solve(position("AS", "7S", e_won=6, y_won=5)) == (12, [code("AS")])


def test_younger_ducks():
    # Elder KS QS, younger AS 7S, 5 tricks each, seed-de. Elder leads KS:
    #   younger wins with AS (+1), leads 7S (+1), elder QS wins (+1, last +1): elder 1+2 = 3,
    #   younger 2: V = +1;
    #   younger ducks with 7S: elder leads QS (+1 +1), younger AS wins (+1, last +1): 2 - 2 = 0.
    # So younger ducks; the same after QS first. V = 0, either lead.
    pos = position("KS QS", "AS 7S", e_won=5, y_won=5)
    assert line(pos, "KS AS 7S QS") == 1
    assert line(pos, "KS 7S QS AS") == 0
    assert solve(pos) == (0, sorted(codes("KS QS")))
    # seed-no: winning with AS gives younger 1, elder 2 (+1); ducking: elder 1, younger 2 (-1).
    pos = position("KS QS", "AS 7S", e_won=5, y_won=5, rules=SEED_NO)
    assert line(pos, "KS AS 7S QS") == 1
    assert line(pos, "KS 7S QS AS") == -1
    assert solve(pos) == (-1, sorted(codes("KS QS")))


def test_pique_on_the_lead_point():
    # seed-de, trick 12, elder at 29, younger at 0. Elder leads 7S (+1: 30 with younger at 0:
    # pique +30), younger wins with AS (+1, last +1); younger 7 tricks: +10. V = 31 - 12 = 19.
    kw = dict(e_won=5, y_won=6, e_score=29, y_score=0)
    assert solve(position("7S", "AS", **kw)) == (19, [code("7S")])
    assert line(position("7S", "AS", **kw), "7S AS") == 19
    # No pique: already given, younger has scored, elder short of 30, or elder at 30 already
    # (a repique or a pique given before). V = 1 - 12 = -11.
    for changed in (dict(pique_done=True), dict(y_score=1), dict(e_score=28), dict(e_score=31),
                    dict(e_score=90)):
        pos = position("7S", "AS", **{**kw, **changed})
        assert solve(pos) == (-11, [code("7S")]), changed
        assert line(pos, "7S AS") == -11, changed


def test_pique_on_the_win_point_and_the_last_trick_point():
    # seed-no, trick 12, elder leads AS over 7S, 5 tricks to 6 before it (6-6 after).
    # Elder at 29: the trick won +1 -> 30, pique +30, then the last trick +1: V = 32.
    for e_score in (29, 28):
        # At 28: the trick +1 -> 29, the last trick +1 -> 30: pique on the last-trick point.
        pos = position("AS", "7S", e_won=5, y_won=6, e_score=e_score, y_score=0, rules=SEED_NO)
        assert solve(pos) == (32, [code("AS")])
        assert line(pos, "AS 7S") == 32
    # At 27 he reaches only 29: V = 2. Younger at 1: no pique, V = 2.
    assert solve(position("AS", "7S", e_won=5, y_won=6, e_score=27, y_score=0, rules=SEED_NO))[0] == 2
    assert solve(position("AS", "7S", e_won=5, y_won=6, e_score=29, y_score=1, rules=SEED_NO))[0] == 2
    # seed-no, elder leads and loses: no lead point, so no pique: younger +1 +1, 7 tricks +10.
    assert solve(position("7S", "AS", e_won=5, y_won=6, e_score=29, y_score=0, rules=SEED_NO))[0] == -12
    # seed-de, younger leads 7S (+1: he has scored), elder wins with AS (+1 +1 -> 31): no pique.
    # V = 2 - 1 = 1 (6-6).
    pos = position("AS", "7S", elder_leads=False, e_won=5, y_won=6, e_score=29, y_score=0)
    assert solve(pos) == (1, [code("7S")])


def test_the_pique_changes_the_best_lead():
    # The ending of test_lose_the_loser_first, elder at 28 and younger at 0 (seed-de).
    # AS first: trick 11 lead +1 (29); trick 12 lead 7H +1 (30, younger 0): pique +30; younger
    #   AH +1 +1. 32 - 2 = 30.
    # 7H first: lead +1 (29), younger wins +1 (now 1); younger leads KS +1, elder AS +1 +1: no
    #   pique (younger has scored). 3 - 2 = 1.
    pos = position("AS 7H", "KS AH", e_won=5, y_won=5, e_score=28, y_score=0)
    assert line(pos, "AS KS 7H AH") == 30
    assert line(pos, "7H AH KS AS") == 1
    assert solve(pos) == (30, [code("AS")])


def test_line_value_trick_one_and_the_whole_deal():
    # Elder holds the 8 spades and the 4 high hearts, younger the 8 diamonds and the 4 low hearts.
    # Elder leads his spades from the ace down, then his hearts: he wins all 12.
    # seed-de: 12 leads + last trick + capot = 12 + 1 + 40 = 53. seed-no: first lead 1 + 12 tricks
    # + last 1 + capot 40 = 54. From 0 he never reaches 30 in play (the capot does not count).
    elder = "AS KS QS JS 10S 9S 8S 7S AH KH QH JH"
    younger = "AD KD QD JD 10D 9D 8D 7D 10H 9H 8H 7H"
    order = codes(elder)
    follows = codes("7D 8D 9D 10D JD QD KD AD 7H 8H 9H 10H")
    tricks = list(zip(order, follows, strict=True))
    base = dict(elder=mask(elder), younger=mask(younger), elder_leads=True, e_won=0, y_won=0,
                e_score=0, y_score=0, pique_done=False)
    assert line_value(**base, rules=SEED_DE, tricks=tricks) == 53
    assert line_value(**base, rules=SEED_NO, tricks=tricks) == 54
    # Elder from 18 (younger 0): seed-de, the 12th lead takes him to 30: pique +30 before the last
    # trick point: 53 + 30 = 83. seed-no: 18 + 1 (first lead) + 11 tricks = 30 at trick 11: 84.
    base["e_score"] = 18
    assert line_value(**base, rules=SEED_DE, tricks=tricks) == 83
    assert line_value(**base, rules=SEED_NO, tricks=tricks) == 84


def test_illegal_lines_and_positions_are_refused():
    pos = position("KS 7H", "AS 8S", e_won=5, y_won=5)
    with pytest.raises(ValueError, match="must follow"):
        line(position("7H KS", "AS 8D", e_won=5, y_won=5), "KS 8D 7H AS")
    with pytest.raises(ValueError, match="does not hold"):
        line(pos, "AS KS 7H 8S")                      # elder leads younger's card
    with pytest.raises(ValueError, match="does not hold"):
        line(pos, "KS AS 7H 8S")                      # younger won trick 11, so he leads
    with pytest.raises(ValueError, match="tricks given"):
        line(pos, "KS AS")
    with pytest.raises(ValueError, match="elder leads the first trick"):
        solve(position("AS KS QS JS 10S 9S 8S 7S AH KH QH JH", "AD KD QD JD 10D 9D 8D 7D 10H 9H 8H 7H",
                       elder_leads=False, e_won=0, y_won=0))
    with pytest.raises(ValueError, match="not 12"):
        solve(position("AS", "7S", e_won=5, y_won=5))
    with pytest.raises(ValueError, match="won no trick"):
        solve(position("AS", "7S", elder_leads=False, e_won=11, y_won=0))
    with pytest.raises(ValueError, match="both hands"):
        solve(position("AS", "AS", e_won=6, y_won=5))
    with pytest.raises(ValueError, match="younger 2"):
        solve(position("AS", "7S 8S", e_won=6, y_won=5))


# ---------------------------------------------------------------------------------------------
# brute_force against the minimax over line_value of every line
# ---------------------------------------------------------------------------------------------

def every_line_minimax(pos: dict) -> dict[int, int]:
    """For each lead of the leader: the minimax over line_value of every line starting with it
    (every legal card of each player at every trick, generated with the reference's
    legal_follows and follower_wins)."""
    def value(e_hand: int, y_hand: int, elder_leads: bool, prefix: list) -> int:
        if not e_hand:
            return line_value(**pos, tricks=prefix)
        return pick(elder_leads, [after(e_hand, y_hand, elder_leads, prefix, led)
                                  for led in codes_of_mask(e_hand if elder_leads else y_hand)])

    def after(e_hand, y_hand, elder_leads, prefix, led) -> int:
        follower = y_hand if elder_leads else e_hand
        out = []
        for f in codes_of_mask(legal_follows(follower, led)):
            e_card, y_card = (led, f) if elder_leads else (f, led)
            out.append(value(e_hand & ~(1 << e_card), y_hand & ~(1 << y_card),
                             elder_leads != follower_wins(led, f), prefix + [(led, f)]))
        return pick(not elder_leads, out)

    def pick(elder_moves: bool, values: list[int]) -> int:
        return max(values) if elder_moves else min(values)

    e, y, el = pos["elder"], pos["younger"], pos["elder_leads"]
    return {led: after(e, y, el, [], led) for led in codes_of_mask(e if el else y)}


def random_position(rng: random.Random, rules) -> dict:
    n = rng.choice((1, 2, 3, 3, 4, 4))
    deck = rng.sample(range(32), 2 * n)
    # Often the same suits in both hands, so that following and ducking matter.
    if rng.random() < 0.5:
        suits = rng.sample(range(4), 2)
        pool = [8 * s + r for s in suits for r in range(8)]
        deck = rng.sample(pool, 2 * n)
    done = 12 - n
    e_won = rng.randint(0, done)
    y_won = done - e_won
    if done == 0:
        elder_leads = True
    elif e_won == 0 or y_won == 0:
        elder_leads = y_won == 0
    else:
        elder_leads = rng.random() < 0.5
    y_score = rng.choice((0, 0, 0, 1, rng.randint(2, 40)))
    e_score = rng.choice((rng.randint(24, 29), rng.randint(24, 29), rng.randint(0, 40)))
    return dict(elder=sum(1 << c for c in deck[:n]), younger=sum(1 << c for c in deck[n:]),
                elder_leads=elder_leads, e_won=e_won, y_won=y_won, e_score=e_score, y_score=y_score,
                pique_done=rng.random() < 0.15, rules=rules)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_brute_force_equals_the_minimax_over_every_line(variant):
    rng = random.Random(f"solve-reference {variant}")
    piqued = strict = 0
    for _ in range(150):
        pos = random_position(rng, VARIANTS[variant])
        by_lead = every_line_minimax(pos)
        best_value = (max if pos["elder_leads"] else min)(by_lead.values())
        v, best = brute_force(**pos)
        assert v == best_value, pos
        assert best == sorted(c for c, x in by_lead.items() if x == v), pos
        piqued += v >= VARIANTS[variant].pique
        strict += len(best) < len(by_lead)
    # The sample is not degenerate: some positions turn on a pique, some have a wrong lead.
    assert piqued and strict


# ---------------------------------------------------------------------------------------------
# line_value against the reference's own scoring of played deals
# ---------------------------------------------------------------------------------------------

def after_trick(result, k: int) -> dict:
    """The position of a reference-played deal after its first k tricks, and its running scores."""
    def before(step: str) -> bool:
        if step == "the cards":
            return False
        if step.startswith("trick "):
            return int(step.split()[1]) <= k
        return True

    running = {"elder": 0, "younger": 0}
    for e in result.events:
        if before(e.step):
            running[e.seat] += e.points
    e_hand, y_hand = result.elder_hand, result.younger_hand
    for t in result.tricks[:k]:
        e_card, y_card = (t.led, t.followed) if t.leader == ELDER else (t.followed, t.led)
        e_hand &= ~(1 << e_card)
        y_hand &= ~(1 << y_card)
    e_won = sum(t.winner == ELDER for t in result.tricks[:k])
    return dict(elder=e_hand, younger=y_hand, elder_leads=k == 0 or result.tricks[k - 1].winner == ELDER,
                e_won=e_won, y_won=k - e_won, e_score=running["elder"], y_score=running["younger"],
                pique_done=any(e.category == "pique" and before(e.step) for e in result.events),
                rules=result.rules)


@pytest.mark.parametrize("variant", ["seed-de", "seed-no", "cavendish"])
def test_line_value_of_played_deals_is_what_the_reference_scored(variant):
    rules = VARIANTS[variant]
    piques = 0
    for index in range(60):
        policy = HeuristicPolicy() if index % 2 else RandomPolicy()
        r = play_deal(2024, index, rules, policy)
        total = r.elder_total - r.younger_total
        piques += r.scores["elder"]["pique"] > 0
        for k in (0, 5, 9, 11):
            pos = after_trick(r, k)
            rest = [(t.led, t.followed) for t in r.tricks[k:]]
            diff = pos["e_score"] - pos["y_score"]
            assert line_value(**pos, tricks=rest) == total - diff, (index, k)
            if k == 9:
                # Real positions (real running scores, piques given or not): the brute force
                # against every line here as well.
                by_lead = every_line_minimax(pos)
                assert brute_force(**pos)[0] == (max if pos["elder_leads"] else min)(by_lead.values())
    assert piques  # some of these deals have a pique, so seeding the sheet is tested with one

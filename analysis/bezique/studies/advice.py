"""The period advice of docs/classical.md ("Bezique") checked against a player's own play:
rates read from the cards each deal played (the outcome vectors), for the player and, on the same
deals in the same seats, for the baseline he is compared with (``salon study bezique advice``).

- purposeless wins: of the stock tricks he won as follower, the share with no ace or ten in the
  trick and no meld laid after it ("win a trick only to declare or to take a brisque");
- brisques taken: of the stock tricks the opponent led with an ace or ten, the share he won;
- low trump leads: of his stock leads, the share that are the seven, eight or nine of trumps
  ("low trumps are kept to win the lead later");
- late trump leads: of his leads in tricks 19 to 24, the share of trumps ("near the end of the
  stock, lead trumps");
- trick 23: the share of deals in which he won the last trick but one of the stock ("make sure of
  it, to stop the opponent's last declaration");
- tens that counted: of the tens he played in the stock, the share that fell in his own tricks
  ("keep tens until they count");
- aces spent: of his stock plays while he held all of four aces (hand and table) and had not yet
  declared four aces, the share that were aces ("holding three aces, keep the fourth for the four
  aces rather than spend it on a brisque"). It needs what he held, rebuilt from the dealt cards
  (``holdings``).
"""
from __future__ import annotations

import numpy as np

from analysis.bezique.engine.layout import K_FOUR_ACES, O_EXCHANGE, O_MELD_AT, O_PLAYED, O_TURN_UP
from analysis.bezique.policies import get_policy
from analysis.bezique.reference.cards import deal_cards, follower_wins, is_trump_seven
from analysis.bezique.rules import get_rules
from analysis.stats import proportion

RATES = ("purposeless_wins", "brisques_taken", "low_trump_leads", "late_trump_leads", "trick_23_won",
         "tens_counted", "aces_spent")
TEN, ACE = 6, 7


def holdings(o: np.ndarray, deck: list[int]) -> list[tuple[set, set]]:
    """Per stock trick played, the cards (hand and table) elder and the dealer held before it, and
    after the last one the hands they start the end phase with; rebuilt from the dealt cards (``deck``, reference/cards.deal_cards), the cards played, the
    seven's exchange and the draws (BZ-DRAW: the winner draws first; after trick 24 the loser takes
    the turn-up). A card played that was not held raises KeyError."""
    held = (set(deck[0:8]), set(deck[8:16]))
    turn_up, stock, drawn = deck[16], deck[17:], 0
    trump = (turn_up >> 3) & 3
    leader, out = 0, []
    for n in range(1, 25):
        led, fol = int(o[O_PLAYED + 2 * n - 2]), int(o[O_PLAYED + 2 * n - 1])
        if led < 0 or fol < 0:
            break
        out.append((set(held[0]), set(held[1])))
        held[leader].remove(led)
        held[1 - leader].remove(fol)
        w = 1 - leader if follower_wins(led, fol, trump) else leader
        if int(o[O_EXCHANGE]) == n:
            seven = min(c for c in held[w] if is_trump_seven(c, trump))
            held[w].remove(seven)
            held[w].add(turn_up)
            turn_up = seven
        held[w].add(stock[drawn])
        held[1 - w].add(stock[drawn + 1] if drawn + 1 < len(stock) else turn_up)
        drawn += 2
        leader = w
    out.append((set(held[0]), set(held[1])))
    return out


def count(rows: np.ndarray, seat: int, decks: list[list[int]] | None = None) -> dict[str, list[int]]:
    """Per rate, [hits, cases] for ``seat`` (0 elder, 1 dealer) over the deals' outcome rows;
    ``decks`` (each row's dealt cards) for the rates that need what he held, else they stay [0, 0]."""
    c = {k: [0, 0] for k in RATES}
    for i, o in enumerate(rows):
        trump = (int(o[O_TURN_UP]) >> 3) & 3
        held = holdings(o, decks[i]) if decks is not None else None
        four_aces_laid = False
        leader = 0
        for n in range(1, 25):
            led, fol = int(o[O_PLAYED + 2 * n - 2]), int(o[O_PLAYED + 2 * n - 1])
            if led < 0 or fol < 0:
                break
            w = 1 - leader if follower_wins(led, fol, trump) else leader
            brisque = (led & 7) >= 6 or (fol & 7) >= 6
            mine = led if leader == seat else fol
            if mine & 7 == TEN:
                c["tens_counted"][0] += w == seat
                c["tens_counted"][1] += 1
            if held is not None and not four_aces_laid and sum((x & 7) == ACE for x in held[n - 1][seat]) >= 4:
                c["aces_spent"][0] += mine & 7 == ACE
                c["aces_spent"][1] += 1
            four_aces_laid |= w == seat and int(o[O_MELD_AT + n - 1]) == K_FOUR_ACES
            if leader == seat:
                low = (led >> 3) & 3 == trump and (led & 7) <= 2
                c["low_trump_leads"][0] += low
                c["low_trump_leads"][1] += 1
                if n >= 19:
                    c["late_trump_leads"][0] += (led >> 3) & 3 == trump
                    c["late_trump_leads"][1] += 1
            else:
                if w == seat:
                    c["purposeless_wins"][0] += not brisque and o[O_MELD_AT + n - 1] < 0
                    c["purposeless_wins"][1] += 1
                if (led & 7) >= 6:
                    c["brisques_taken"][0] += w == seat
                    c["brisques_taken"][1] += 1
            if n == 23:
                c["trick_23_won"][0] += w == seat
                c["trick_23_won"][1] += 1
            leader = w
    return c


def advice_check(n: int, seed: int = 0, rules: str = "seed-de", player: str = "search", baseline: str = "tuned",
                 opponent: str = "tuned", samples: int = 32) -> dict:
    """The rates of ``player`` and of ``baseline``, each against ``opponent`` on the same n deals
    in both seats, with 95% intervals."""
    from analysis.bezique.play.deal import deal_outcomes

    r = get_rules(rules).to_array()

    def pol(name):
        return get_policy(name, [f"samples={samples}"] if name == "search" else None).to_array()

    opp = pol(opponent)
    decks = [deal_cards(seed, i) for i in range(n)]
    out = {"rules": rules, "deals": n, "seed": seed, "opponent": opponent, "players": {}}
    for name in (player, baseline):
        p = pol(name)
        totals = {k: [0, 0] for k in RATES}
        for seat, (elder, dealer) in enumerate(((p, opp), (opp, p))):
            c = count(deal_outcomes(seed, 0, n, r, elder, dealer), seat, decks)
            for k in RATES:
                totals[k][0] += c[k][0]
                totals[k][1] += c[k][1]
        out["players"][name] = {k: proportion(h, m).to_dict() for k, (h, m) in totals.items()}
    return out


ADVICE = {"purposeless_wins": "win a stock trick only to declare or to take a brisque (lower is closer)",
          "brisques_taken": "take an ace or ten that was led (higher is closer)",
          "low_trump_leads": "keep low trumps to win the lead later (lower is closer)",
          "late_trump_leads": "near the end of the stock, lead trumps (higher is closer)",
          "trick_23_won": "make sure of the last trick but one (higher is closer)",
          "tens_counted": "keep tens until they count: tens played in the stock that fell in his tricks (higher is closer)",
          "aces_spent": "holding four aces undeclared, keep them: share of his plays that are aces (lower is closer)"}


def advice_text(res: dict) -> str:
    """One line per piece of advice: each player's rate with its interval."""
    names = list(res["players"])
    lines = [f"Period advice against the play ({res['rules']}, {res['deals']:,} deals in both seats against "
             f"{res['opponent']}, seed {res['seed']})"]
    for k in RATES:
        cells = "; ".join(f"{n} {res['players'][n][k]['value']:.1%} [{res['players'][n][k]['ci95'][0]:.1%}, "
                          f"{res['players'][n][k]['ci95'][1]:.1%}]" for n in names)
        lines.append(f"  {ADVICE[k]}: {cells}")
    return "\n".join(lines)

"""An Écarté hand reviewed decision by decision (``salon review``; analysis.review, docs/review.md).

- Elder's first propose-or-play and the dealer's first accept-or-refuse are read from the shipped
  equilibrium tables: the solution's choice and the held-out value of the other action, per hand
  for elder and per proposal met for the dealer.
- Later rounds' propose-or-play and accept-or-refuse (the tables solve the first round only): on
  layouts of the hidden cards as a discard is (below), both answers played out the same way.
- The king of trumps: keeping it quiet gives up its point.
- Each card: the deciding player's hidden cards are drawn uniformly among those the public play
  allows (the cards he has not seen; the other's announced king; every card the other played
  legal for the hand he then held, EC-FOLLOW), each world is solved exactly for every legal card
  (``players.solver``), the best card is chosen on one set of worlds and its gain over the card
  played measured on another. The open-hands reviewer (``dd``) sees the other's hand: the loss is
  exact, and along the play the losses add up to the open-hands value at the first lead minus the
  result.
- Each discard: the cards the player could not see (the other's hand, his earlier discards, the
  stock's order) are drawn uniformly from the rest; every legal discard is drawn to and played on
  the same layouts: the rest of the exchanges by salon's heuristic for both players, then the
  tricks with both hands open (the open hands after the exchange, as Piquet's exchange review
  does), the king announced; the best is chosen on one set of layouts and its gain over the discard
  made measured on another (``DISCARD_SAMPLES`` each). With ``dd`` the other's hand and the
  stock's recorded cards are the record's own (the cards it never drew are still shuffled).
"""
from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

from analysis.ecarte.reference.cards import (
    DEALER,
    ELDER,
    STOCK_SIZE,
    can_announce_king,
    dealer_discard_bounds,
    elder_discard_bounds,
    follower_wins,
    legal_follows,
    mask_of_codes,
    penalised_side,
    suit_of,
    trump_king,
    turnup_king_points,
)
from analysis.ecarte.reference.records import SCHEMA, replay
from analysis.ecarte.rules import name_of
from analysis.review import DealReview, Decision, exact_loss, sampled_loss

SEATS = (ELDER, DEALER)
DEFAULT_SAMPLES = 200
"""Worlds a card is chosen on, and as many again it is measured on."""
MAX_TRIES = 200_000
"""Draws of the hidden cards before a decision is left unrated (a record whose play no hand fits
cannot pass the replay, so this only bounds the time)."""
RATED = ("Elder's first propose-or-play and the dealer's first accept-or-refuse are read from the shipped "
         "equilibrium tables (held-out values); each discard on layouts of the hidden cards, the rest of the exchanges "
         "by salon's heuristic and the tricks with open hands after it; each card by the reviewer (sampled hidden "
         "hands, each solved exactly, or open hands); the king's point exactly; later rounds' proposals and answers "
         "on the discards' layouts, the rest by salon's heuristic and the tricks with open hands.")
DISCARD_SAMPLES = 64
"""Layouts a discard is chosen on, and as many again it is measured on."""
SCORE_UNIT = "the deciding player's chance of winning the game (EC-GAME), from the solved game by score"
SCORE_RATED = ("In a game, each card, discard and later proposal or answer is also rated in the chance of winning "
               "the game: each world's or layout's points added to the score in the order they are scored, and the "
               "chance read from the shipped equilibrium by score (the next hand dealt by the other); elder's first "
               "proposal names the decision at the score where the solution by score changes it.")


def match_step(result: dict, before: dict[str, int], rules, number: int) -> tuple[dict[str, int], bool, bool]:
    """A game's hand (EC-GAME): the scores after it by seat, each point counted in the order it is
    scored (the dealer's turned-up king, the kings announced, elder's first, then the tricks) and the
    game over the moment one reaches the target; every hand is played for the score."""
    after = dict(before)
    b = result["breakdown"]
    for seat, part in ((DEALER, "turnup_king"), (ELDER, "king"), (DEALER, "king"), (ELDER, "tricks"),
                       (DEALER, "tricks")):
        after[seat] += b[seat][part]
        if after[seat] >= rules.target:
            return after, True, True
    return after, True, False


def match_result(totals: dict[str, int], rules) -> dict:
    """The game's outcome from the players' scores: the first to the target wins."""
    won = [p for p, t in totals.items() if t >= rules.target]
    return {"winner": won[0] if won else None, "target": rules.target}


@functools.lru_cache(maxsize=4)
def _win_chances(rules) -> np.ndarray | None:
    """W[e, d]: elder's chance of winning the game from elder e, dealer d (below the target), under
    the shipped equilibrium by score; None when none ships for these rules."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium.tables import shipped

    got = shipped(rules, HeuristicPolicy())
    if got is None or not got[1].get("by_score") or got[1]["by_score"]["target"] != rules.target:
        return None
    w = np.full((rules.target, rules.target), np.nan)
    for r in got[1]["by_score"]["scores"]:
        w[r["elder_score"], r["dealer_score"]] = r["win"]
    return w


def hand_chance(w: np.ndarray, before: dict[str, int], turnup_king: int, kings: tuple[int, int], net: int) -> float:
    """Elder's chance of winning the game after a hand from the scores ``before`` it by seat: the
    dealer's turned-up king, the kings announced (elder's, the dealer's) and elder's net trick points
    ``net`` (the side ahead scores them) counted in the order they are scored (EC-GAME)."""
    target = w.shape[0]
    e, d = before[ELDER], before[DEALER] + turnup_king
    if d >= target:
        return 0.0
    e += kings[0]
    if e >= target:
        return 1.0
    d += kings[1]
    return elder_chance(w, e + max(int(net), 0), d + max(-int(net), 0))


def elder_chance(w: np.ndarray, elder: int, dealer: int) -> float:
    """Elder's chance of winning the game when the hand ends at these scores: the next hand is dealt
    by him, so the dealer is then elder (W read from the other side)."""
    target = w.shape[0]
    if elder >= target:
        return 1.0
    if dealer >= target:
        return 0.0
    return 1.0 - float(w[dealer, elder])


def _cards(mask: int) -> str:
    return " ".join(name_of(c) for c in range(32) if mask >> c & 1) or "nothing"


class _Tables:
    """The shipped equilibrium's first decisions, looked up by hand (None when none ships)."""

    def __init__(self, rules):
        from analysis.ecarte.studies.playing_rules import set_table
        from analysis.errors import InputError

        try:
            self.sides = {s: set_table(s, rules) for s in SEATS}
        except InputError:
            self.sides = None

    def decision(self, side: str, codes, turnup: int):
        """(probability of the first action, its value over the other, standard error), from
        ``side``'s point of view, per hand met; None without tables."""
        if self.sides is None:
            return None
        from analysis.ecarte.engine import buckets as TB
        from analysis.ecarte.studies.strategy.tables import canonical_mask, hands

        t = self.sides[side]
        mask = canonical_mask(codes, turnup)
        info = TB.N_BUCKETS * int(np.searchsorted(hands().masks, mask)) + TB.turnup_bucket(mask, turnup & 7)
        hit = np.flatnonzero(t.info_set == info)
        if not len(hit):
            return None
        i = int(hit[0])
        # The dealer's values are per dealt hand: per proposal met, divide by the chance of one.
        per = t.meet[i] / t.weight[i] if side == DEALER and t.weight[i] > 0 else 1.0
        per = per if per > 0 else 1.0
        return float(t.probability[i]), float(t.held[i] / per), float(t.held_se[i] / per)


_TABLES: dict = {}


def _tables(rules) -> _Tables:
    """The shipped tables of ``rules``, read once per process."""
    key = (rules.name, tuple(sorted(rules.switches().items())))
    if key not in _TABLES:
        _TABLES[key] = _Tables(rules)
    return _TABLES[key]


def _first_decision(tables: _Tables, side: str, codes, turnup: int, took_first: bool, step: str) -> Decision:
    first, second = ("propose", "play") if side == ELDER else ("refuse", "accept")
    chosen = first if took_first else second
    got = tables.decision(side, codes, turnup)
    if got is None:
        return Decision(side, "proposal", step, chosen, note="no shipped equilibrium tables for these rules")
    p, value, se = got
    best_first = p >= 0.5
    best = first if best_first else second
    if best == chosen:
        return Decision(side, "proposal", step, chosen, best, 0.0, (0.0, 0.0))
    loss = value if best_first else -value
    return Decision(side, "proposal", step, chosen, best, loss, (loss - 1.96 * se, loss + 1.96 * se))


class _Play:
    """The trick play as each player saw it: the hands, the cards each knows are out of the other's
    hand, and the other's plays to check a drawn hand against."""

    def __init__(self, hands, discards, turnup, announced, rules):
        self.hands = dict(hands)
        self.trump = suit_of(turnup)
        self.rules = rules
        self.seen = {s: discards[s] | (1 << turnup) for s in SEATS}  # out of the other's hand, for s
        self.king_with = dict(announced)
        self.plays: dict[str, list[tuple[int, int | None]]] = {s: [] for s in SEATS}  # (card, card it followed)
        self.played = {s: 0 for s in SEATS}
        self.all_played = 0

    @staticmethod
    def other(seat):
        return DEALER if seat == ELDER else ELDER

    def play(self, seat: str, card: int, led: int | None = None) -> None:
        """``seat`` plays ``card`` (``led``: the card he followed, None for a lead)."""
        self.hands[seat] &= ~(1 << card)
        self.played[seat] |= 1 << card
        self.all_played |= 1 << card
        self.plays[seat].append((card, led))

    def fits(self, seat: str, hand: int) -> bool:
        """Whether ``hand`` (the other's cards now) fits everything ``seat`` saw him do: the king he
        announced, and each card he played to a lead legal for the hand he then held."""
        o = self.other(seat)
        if self.king_with[o] and not (hand | self.played[o]) >> trump_king(self.trump) & 1:
            return False
        held = hand | self.played[o]  # his hand at the first trick; the cards leave it in order
        for card, led in self.plays[o]:
            if led is not None and not legal_follows(held, led, self.trump, self.rules) >> card & 1:
                return False
            held &= ~(1 << card)
        return True

    def draw(self, seat: str, size: int, rng, n: int) -> np.ndarray | None:
        """``n`` hands of ``size`` cards for the other, uniform among those that fit, or None."""
        o = self.other(seat)
        pool = ((1 << 32) - 1) & ~(self.hands[seat] | self.seen[seat] | self.all_played)
        known = 0
        if self.king_with[o] and not self.played[o] >> trump_king(self.trump) & 1:
            known = 1 << trump_king(self.trump)
            pool &= ~known
        cards = [c for c in range(32) if pool >> c & 1]
        need = size - bin(known).count("1")
        out = np.empty(n, dtype=np.int64)
        got = tries = 0
        while got < n:
            if tries >= MAX_TRIES:
                return None
            tries += 1
            h = known
            for i in rng.choice(len(cards), need, replace=False):
                h |= 1 << cards[i]
            if self.fits(seat, h):
                out[got] = h
                got += 1
        return out


def review(record: dict, index: int, rules=None, player: str = "search", samples: int = DEFAULT_SAMPLES,
           seed: int = 0, threads: int | None = None, score=None) -> DealReview:
    """Every decision of an Écarté hand record (checked by ``replay`` first); the worlds of record
    ``index`` are drawn from ``seed`` (``threads`` is not used: a hand takes a fraction of a second).
    ``score``: the hand's place in a game (``match_records.DealScore``): its cards also rated in the
    chance of winning the game, elder's first proposal at the score."""
    from analysis.ecarte.players.solver import solve, value_table

    result = replay(record, rules)
    rules = SCHEMA.rules_of(record, rules)
    tables = _tables(rules)
    arr = rules.to_array()
    hands = {ELDER: mask_of_codes(SCHEMA.cards(record["elder"], "elder")),
             DEALER: mask_of_codes(SCHEMA.cards(record["dealer"], "dealer"))}
    turnup = SCHEMA.card(record["turnup"], "turnup")
    stock = SCHEMA.cards(record["stock"], "stock")
    trump = suit_of(turnup)
    decisions: list[Decision] = []
    discards = {ELDER: 0, DEALER: 0}
    w = None if score is None else _win_chances(rules)
    exchange_chances = None if w is None else functools.partial(hand_chance, w, score.seat_totals(),
                                                                 turnup_king_points(turnup))
    exchanges, ending = record["exchanges"], record["ending"]
    drawn = 0
    for rnd in range(len(exchanges) + 1):
        step = f"round {rnd + 1}"
        proposed = rnd < len(exchanges) or ending == "dealer_refuses"
        codes = {s: [c for c in range(32) if hands[s] >> c & 1] for s in SEATS}
        if drawn == STOCK_SIZE:
            decisions.append(Decision(ELDER, "proposal", step, "play", forced=True))
        elif rnd == 0:
            decisions.append(_first_decision(tables, ELDER, codes[ELDER], turnup, proposed, step))
            if score is not None:
                decisions[-1].score_best = _at_score(codes[ELDER], turnup, rules, score.seat_totals())
            if proposed:
                decisions.append(_first_decision(tables, DEALER, codes[DEALER], turnup, rnd == len(exchanges), step))
        else:
            spot = _Exchange(hands, discards, stock, drawn, turnup, rules, rnd, exchange_chances)
            rng = np.random.default_rng([seed, index, 17, rnd])
            decisions.append(spot.rate_answer(ELDER, proposed, step, player, rng))
            if proposed:
                decisions.append(spot.rate_answer(DEALER, rnd < len(exchanges), step, player, rng))
        if rnd == len(exchanges):
            break
        for s in SEATS:
            thrown = mask_of_codes(SCHEMA.cards(exchanges[rnd][f"{s}_discard"], "discard"))
            k = bin(thrown).count("1")
            spot = _Exchange(hands, discards, stock, drawn, turnup, rules, rnd, exchange_chances)
            decisions.append(spot.rate(s, thrown, step, player, np.random.default_rng([seed, index, 13, rnd, s == DEALER])))
            hands[s] = hands[s] & ~thrown | mask_of_codes(stock[drawn:drawn + k])
            discards[s] |= thrown
            drawn += k

    announced = {s: s in record["announced"] for s in SEATS}
    for s in SEATS:
        if can_announce_king(hands[s], trump):
            decisions.append(Decision(s, "declarations", "before play", "announce the king" if announced[s]
                                      else "keep the king quiet", "announce the king",
                                      0.0 if announced[s] else 1.0, None))

    penalised = penalised_side(ending == "elder_plays" and not exchanges,
                               len(exchanges) if ending == "dealer_refuses" else None, rules)
    table = value_table(int(penalised == ELDER), int(penalised == DEALER), arr)
    must = bool(rules.must_trump_when_void)
    chances = None if score is None else _play_chances(rules, score.seat_totals(), result["breakdown"])
    play = _Play(hands, discards, turnup, announced, rules)
    rng = np.random.default_rng([seed, index, 7])
    leader, et = ELDER, 0
    start_value = None
    for n, pair in enumerate(record["tricks"], 1):
        led, fol = SCHEMA.card(pair[0], "trick"), SCHEMA.card(pair[1], "trick")
        follower = play.other(leader)
        elder_leads = leader == ELDER
        hl, hf = play.hands[leader], play.hands[follower]
        if start_value is None:
            start_value = int(solve(hl, hf, trump, elder_leads, 0, must, table))
        options = [c for c in range(32) if hl >> c & 1]
        decisions.append(_rate(play, leader, f"trick {n}", "lead", options, led, rng, player, samples,
                               _lead(hl, trump, elder_leads, et, must, table), hf, chances))
        play.play(leader, led)
        legal = legal_follows(hf, led, trump, rules)
        options = [c for c in range(32) if legal >> c & 1]
        rest = play.hands[leader]
        decisions.append(_rate(play, follower, f"trick {n}", "follow", options, fol, rng, player, samples,
                               _follow(hf, led, trump, elder_leads, et, must, table), rest, chances))
        play.play(follower, fol, led)
        leader = follower if follower_wins(led, fol, trump) else leader
        et += leader == ELDER
    net = result["scores"][ELDER] - result["scores"][DEALER]
    words = (f"elder {result['scores'][ELDER]}, dealer {result['scores'][DEALER]} "
             f"({result['tricks'][ELDER]} tricks to {result['tricks'][DEALER]})")
    return DealReview(decisions, words, SEATS,
                      extra={"net": net, "open_hands_value_at_first_lead": start_value,
                             "trick_net": int(_table_net(table, result["tricks"][ELDER]))})


class _Exchange:
    """A discard, or a later round's proposal or answer, rated: the position before it (both hands,
    the discards so far, the stock drawn from, the round) and the continuation that values a choice
    on a layout of the hidden cards."""

    def __init__(self, hands, discards, stock, drawn, turnup, rules, rnd, chances=None):
        self.hands, self.discards, self.stock, self.drawn = dict(hands), dict(discards), stock, drawn
        self.turnup, self.rules, self.rnd = turnup, rules, rnd
        self.chances = chances  # (kings, elder's net trick points) -> elder's chance of winning the game
        self.trump = suit_of(turnup)
        self.player = _continuation(self.trump)  # both seats'
        self.tables = {}

    def options(self, seat: str) -> list[int]:
        """The legal discards of ``seat`` now, as masks (EC-PROPOSE, EC-DEALER-MIN, EC-STOCK)."""
        left = STOCK_SIZE - self.drawn
        lo, hi = elder_discard_bounds(left) if seat == ELDER else dealer_discard_bounds(left, self.rules)
        codes = [c for c in range(32) if self.hands[seat] >> c & 1]
        return [sum(1 << codes[i] for i in range(5) if m >> i & 1) for m in range(32) if lo <= bin(m).count("1") <= hi]

    def layout(self, seat: str, rng, open_hands: bool = False) -> tuple[int, list[int]]:
        """The other's hand and the stock from here (in order) as ``seat`` may imagine them: the
        cards he cannot see dealt uniformly to the other's hand, the other's discards and the stock.
        With ``open_hands``: the other's hand and discards as they were, the stock's recorded cards
        in their order, the cards the record never drew after them in a random order."""
        o = DEALER if seat == ELDER else ELDER
        if open_hands:
            known = self.stock[self.drawn:]
            rest = [c for c in range(32) if not (self.hands[ELDER] | self.hands[DEALER] | self.discards[ELDER]
                                                 | self.discards[DEALER] | 1 << self.turnup) >> c & 1
                    and c not in self.stock]
            return self.hands[o], known + [rest[i] for i in rng.permutation(len(rest))]
        unseen = [c for c in range(32) if not (self.hands[seat] | self.discards[seat] | 1 << self.turnup) >> c & 1]
        order = [unseen[i] for i in rng.permutation(len(unseen))]
        out_of_play = bin(self.discards[o]).count("1")
        return sum(1 << c for c in order[:5]), order[5 + out_of_play:]

    def value(self, seat: str, thrown: int, other: int, stock: list[int]) -> int:
        """Elder's net points of the hand after ``seat`` throws ``thrown`` and draws from ``stock``:
        the rest of the exchanges by salon's heuristic, the kings announced, the tricks with open hands."""
        o = DEALER if seat == ELDER else ELDER
        hands = {seat: self.hands[seat], o: other}
        k = bin(thrown).count("1")
        hands[seat] = hands[seat] & ~thrown | mask_of_codes(stock[:k])
        pos = k
        left = STOCK_SIZE - self.drawn - k
        if seat == ELDER and left > 0:  # the dealer's discard of this round
            lo, hi = dealer_discard_bounds(left, self.rules)
            d = self.player.discard(hands[DEALER], lo, hi)
            n = bin(d).count("1")
            hands[DEALER] = hands[DEALER] & ~d | mask_of_codes(stock[pos:pos + n])
            pos, left = pos + n, left - n
        return self._rounds(hands, stock, pos, left, self.rnd + 1)

    def answer_value(self, seat: str, yes: bool, other: int, stock: list[int]) -> int:
        """Elder's net points of the hand when round ``rnd`` opens and ``seat`` answers ``yes``
        (elder: propose; the dealer, after a proposal: accept) or no (play; refuse), the other's hand
        and the stock as given: the rest by salon's heuristic, the tricks with open hands."""
        o = DEALER if seat == ELDER else ELDER
        hands = {seat: self.hands[seat], o: other}
        if not yes:
            return self._net(hands, None if seat == ELDER else self.rnd)
        if seat == ELDER and not self.player.accept(hands[DEALER]):
            return self._net(hands, self.rnd)
        pos, left = self._exchange_both(hands, stock, 0, STOCK_SIZE - self.drawn)
        return self._rounds(hands, stock, pos, left, self.rnd + 1)

    def _exchange_both(self, hands, stock, pos: int, left: int) -> tuple[int, int]:
        """One round's discards by salon's heuristic, elder first, each drawn from ``stock[pos:]``."""
        for s in SEATS:
            lo, hi = elder_discard_bounds(left) if s == ELDER else dealer_discard_bounds(left, self.rules)
            d = self.player.discard(hands[s], lo, hi) if hi > 0 else 0
            n = bin(d).count("1")
            hands[s] = hands[s] & ~d | mask_of_codes(stock[pos:pos + n])
            pos, left = pos + n, left - n
        return pos, left

    def _rounds(self, hands, stock, pos: int, left: int, rnd: int) -> int:
        """Elder's net points from the opening of round ``rnd`` (that many exchanges made): every
        proposal, answer and discard by salon's heuristic, then the tricks with open hands."""
        refused = None
        while left > 0 and self.player.propose(hands[ELDER]):
            if not self.player.accept(hands[DEALER]):
                refused = rnd
                break
            pos, left = self._exchange_both(hands, stock, pos, left)
            rnd += 1
        return self._net(hands, refused)

    def _net(self, hands, refused: int | None) -> tuple[int, float]:
        """Elder's net points of the tricks played with open hands (after a refusal in round
        ``refused``, EC-PENALTY), the kings announced, less the dealer's turned-up king; and elder's
        chance of winning the game after them (nan outside a game)."""
        from analysis.ecarte.players.solver import solve, value_table

        if refused not in self.tables:
            pen = penalised_side(False, refused, self.rules)
            self.tables[refused] = value_table(int(pen == ELDER), int(pen == DEALER), self.rules.to_array())
        table = self.tables[refused]
        net = solve(hands[ELDER], hands[DEALER], self.trump, True, 0, bool(self.rules.must_trump_when_void), table)
        kings = (int(can_announce_king(hands[ELDER], self.trump)), int(can_announce_king(hands[DEALER], self.trump)))
        chance = self.chances(kings, int(net)) if self.chances else np.nan
        return int(net) + kings[0] - kings[1] - turnup_king_points(self.turnup), chance

    def rate(self, seat: str, thrown: int, step: str, player: str, rng) -> Decision:
        """The discard ``thrown`` of ``seat`` rated among the legal ones (the class docstring)."""
        words = f"throw {_cards(thrown)}" if thrown else "stand pat"
        options = self.options(seat)
        if len(options) == 1:
            return Decision(seat, "exchange", step, words, forced=True)
        sign = 1 if seat == ELDER else -1
        col = options.index(thrown)
        layouts = [self.layout(seat, rng, player == "dd") for _ in range(2 * DISCARD_SAMPLES)]
        v = np.array([[self.value(seat, d, other, stock) for d in options] for other, stock in layouts], dtype=float)
        best, loss, ci = sampled_loss(sign * v[:DISCARD_SAMPLES, :, 0], sign * v[DISCARD_SAMPLES:, :, 0], col)
        name = [f"throw {_cards(d)}" if d else "stand pat" for d in options]
        return self._in_game(Decision(seat, "exchange", step, words, name[best], loss, ci), v[:, :, 1], col, name)

    def rate_answer(self, seat: str, yes: bool, step: str, player: str, rng) -> Decision:
        """A later round's propose-or-play (elder) or accept-or-refuse (the dealer) rated on the
        layouts a discard is (the class docstring)."""
        words = (("propose", "play") if seat == ELDER else ("accept", "refuse"))
        sign = 1 if seat == ELDER else -1
        layouts = [self.layout(seat, rng, player == "dd") for _ in range(2 * DISCARD_SAMPLES)]
        v = np.array([[self.answer_value(seat, a, other, stock) for a in (True, False)]
                      for other, stock in layouts], dtype=float)
        col = 0 if yes else 1
        best, loss, ci = sampled_loss(sign * v[:DISCARD_SAMPLES, :, 0], sign * v[DISCARD_SAMPLES:, :, 0], col)
        return self._in_game(Decision(seat, "proposal", step, words[col], words[best], loss, ci), v[:, :, 1], col,
                             list(words))

    def _in_game(self, d: Decision, chances: np.ndarray, col: int, names: list[str]) -> Decision:
        """``d`` also rated in the chance of winning the game when the hand is part of a game."""
        return d if self.chances is None else rated_in_game(d, chances, col, names, DISCARD_SAMPLES)


def rated_in_game(d: Decision, chances: np.ndarray, col: int, names: list, samples: int,
                  exact: bool = False) -> Decision:
    """``d`` also rated in the chance of winning the game, from elder's chances on the worlds or
    layouts (rows: ``samples`` that choose, then as many that measure, or one exact row; columns:
    the options, ``col`` the one chosen)."""
    mine = chances if d.seat == ELDER else 1.0 - chances
    if exact:
        best, d.score_loss = exact_loss(mine[0], col)
    else:
        best, d.score_loss, d.score_ci95 = sampled_loss(mine[:samples], mine[samples:], col)
    d.score_best = names[best]
    return d


@functools.lru_cache(maxsize=4)
def _continuation(trump: int) -> SimpleNamespace:
    """salon's heuristic for both seats after a rated choice, its answers remembered: it is
    deterministic and the layouts put the same hands to it again and again. ``discard`` gives a mask."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.reference.policies import Decisions

    player = Decisions(HeuristicPolicy(), None, trump)
    return SimpleNamespace(propose=functools.cache(player.propose), accept=functools.cache(player.accept),
                           discard=functools.cache(lambda hand, lo, hi: mask_of_codes(player.discard(hand, lo, hi))))


def _lead(hl, trump, elder_leads, et, must, table):
    """Elder's net after leading card c from ``hl`` against the other's hand (both then open)."""
    from analysis.ecarte.players.solver import lead_value

    return lambda c, other: lead_value(hl, other, c, trump, elder_leads, et, must, table)


def _follow(hf, led, trump, elder_leads, et, must, table):
    """Elder's net after ``hf`` plays card c to ``led``, the leader holding the other hand."""
    from analysis.ecarte.players.solver import follow_value

    return lambda c, other: follow_value(other, hf, led, c, trump, elder_leads, et, must, table)


def _table_net(table, etricks):
    from analysis.ecarte.players.solver import unpack_table

    return unpack_table(table)[etricks]


def _rate(play: _Play, seat: str, step: str, kind: str, options: list[int], chosen: int, rng, player: str,
          samples: int, value, other_now: int, chances=None) -> Decision:
    """One card decision of ``seat`` rated: ``value(card, other hand)`` is elder's net after it, the
    other's hand now ``other_now`` (its size all a sampled world keeps); ``chances`` (elder's net ->
    elder's chance of winning the game) also rates it in the game."""
    words = name_of(chosen)
    if len(options) == 1:
        return Decision(seat, kind, step, words, forced=True)
    sign = 1 if seat == ELDER else -1
    col = options.index(chosen)
    if player == "dd":
        nets = np.array([[value(c, other_now) for c in options]], dtype=float)
        best, loss = exact_loss(sign * nets[0], col)
        d = Decision(seat, kind, step, words, name_of(options[best]), loss, None)
    else:
        worlds = play.draw(seat, bin(other_now).count("1"), rng, 2 * samples)
        if worlds is None:
            return Decision(seat, kind, step, words, note="no hidden hand fits the play so far within the draws allowed")
        nets = np.array([[value(c, int(h)) for c in options] for h in worlds], dtype=float)
        best, loss, ci = sampled_loss(sign * nets[:samples], sign * nets[samples:], col)
        d = Decision(seat, kind, step, words, name_of(options[best]), loss, ci)
    if chances is not None:
        d = rated_in_game(d, np.vectorize(chances)(nets), col, [name_of(o) for o in options], samples, player == "dd")
    return d


def _play_chances(rules, before: dict[str, int], breakdown: dict):
    """Elder's net trick points -> elder's chance of winning the game, from the scores before the
    hand by seat and the kings scored before the tricks; None when no table by score ships for these
    rules or the game was over before the tricks."""
    w = _win_chances(rules)
    if w is None:
        return None
    e = before[ELDER] + breakdown[ELDER]["king"]
    d = before[DEALER] + breakdown[DEALER]["turnup_king"] + breakdown[DEALER]["king"]
    if max(e, d) >= rules.target:
        return None
    return functools.partial(hand_chance, w, before, breakdown[DEALER]["turnup_king"],
                             (breakdown[ELDER]["king"], breakdown[DEALER]["king"]))


def _at_score(codes, turnup: int, rules, before: dict[str, int]) -> str | None:
    """Elder's first decision at this score by the solution by score where it differs from the
    points solution, else None."""
    from analysis.ecarte.policies import HeuristicPolicy
    from analysis.ecarte.studies.equilibrium.tables import answer

    if max(before.values()) >= rules.target:
        return None
    got = answer(codes, turnup, rules, HeuristicPolicy(), (before[ELDER], before[DEALER]))
    if got is None or got.get("recommendation") == got.get("points_recommendation"):
        return None
    return got["recommendation"]

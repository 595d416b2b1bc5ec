"""Piquet in plain Python: the rules of docs/rules.md as a person reads them, and the test oracle.

This module follows docs/piquet-engine.md to the letter (random streams, the deal, the order of
decisions and of scoring events, the two policies, the outcome vector), so that the numba kernel
can be compared with it deal by deal. Each rule is one small function citing its docs/rules.md ID;
:func:`score_deal` checks a fully specified deal and scores it, :func:`play_deal` plays one (and
scores it through the same code), :func:`play_partie` plays a partie and :func:`explain`
narrates a deal.

The rules live in sibling modules split by job (import each name from the module that holds it):
``reference/cards`` (cards, hands, the deal, the laws of the exchanges and of play),
``reference/scoring`` (declarations and the scoresheet), ``reference/policies`` (the policies'
decisions), ``reference/search`` (the solver's players ``dd`` and ``search``) and
``reference/checks`` (a fully specified deal checked and scored). This module plays deals and
parties and narrates them.

Cards are Piquet codes ``8 * suit + rank`` (rank 0..7 = 7 8 9 10 J Q K A, PQ-DECK); a hand is an
int bitmask with bit ``code`` set for each card held.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from analysis.cards import format_book
from analysis.errors import InputError
from analysis.piquet.reference.cards import (
    ELDER,
    ELDER_SHARE,
    HAND_SIZE,
    N_TRICKS,
    SEATS,
    YOUNGER,
    Trick,
    deal_cards,
    elder_bounds,
    follower_wins,
    mask_of_codes,
    other,
    rank_of,
    seen_talon_indices,
    suit_of,
    younger_bounds,
    younger_talon_indices,
)
from analysis.piquet.reference.checks import (
    check_and_score,
    plural,
)
from analysis.piquet.reference.policies import (
    Player,
)
from analysis.piquet.reference.scoring import (
    CATEGORIES,
    Event,
    compare,
    declared_key,
    point_of,
    sequences_of,
    sets_of,
)
from analysis.piquet.reference.search import STRONG_KINDS, StrongPlayer, open_table
from analysis.piquet.rules import (
    VARIANTS,
    PiquetRules,
    card_of,
    codes_of_mask,
    name_of,
)
from analysis.rng import Stream

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}


# ---------------------------------------------------------------------------------------------
# One deal played
# ---------------------------------------------------------------------------------------------

@dataclass
class DealResult:
    """Everything that happened in one deal, in card codes and masks."""

    seed: int
    index: int
    lane_base: int
    rules: PiquetRules
    elder_dealt: list[int]
    younger_dealt: list[int]
    talon: list[int]                 # top first
    elder_discard: list[int]         # ascending codes
    younger_discard: list[int]
    elder_took: list[int]            # talon cards, in talon order
    younger_took: list[int]
    elder_hand: int                  # masks after the exchanges
    younger_hand: int
    tricks: list[Trick]
    scores: dict[str, dict[str, int]]
    events: list[Event] = field(default_factory=list)
    sink: dict[str, frozenset] = field(default_factory=lambda: {ELDER: frozenset(), YOUNGER: frozenset()})
    """The categories each seat declared as nothing (none unless a sink rule was given)."""

    @property
    def elder_total(self) -> int:
        """Elder's points in this deal."""
        return self.scores[ELDER]["total"]

    @property
    def younger_total(self) -> int:
        """Younger's points in this deal."""
        return self.scores[YOUNGER]["total"]

    def outcome_vector(self) -> list[int]:
        """The 50 ints the differential test compares (docs/piquet-engine.md, "Outcome vector")."""
        e, y = self.scores[ELDER], self.scores[YOUNGER]
        plays = []
        for t in self.tricks:
            plays += [t.led, t.followed]
        return [
            e["total"], y["total"],
            e["carte_blanche"], y["carte_blanche"],
            e["point"], y["point"],
            e["sequences"], y["sequences"],
            e["sets"], y["sets"],
            e["repique"], y["repique"],
            e["pique"],
            e["trick_points"], y["trick_points"],
            e["tricks"],
            e["cards"], y["cards"],
            e["capot"], y["capot"],
            len(self.elder_took), len(self.younger_took),
            mask_of_codes(self.elder_dealt), mask_of_codes(self.younger_dealt),
            self.elder_hand, self.younger_hand,
            *plays,
        ]


def play_deal(seed: int, index: int, rules: PiquetRules, elder_policy, younger_policy=None,
              lane_base: int = 0, *, partie: tuple[int, int] | None = None,
              sink: dict | None = None) -> DealResult:
    """Play one deal (docs/piquet-engine.md, "One deal"): cards from Stream(seed, index,
    lane_base), the random policy's choices from Stream(seed, index, lane_base + 1). ``partie``:
    elder's and younger's partie totals before a deciding deal of a partie; ``sink``: the seats'
    sinking rules (see :func:`play_cards`)."""
    if younger_policy is None:
        younger_policy = elder_policy
    return play_cards(deal_cards(seed, index, lane_base), rules, elder_policy, younger_policy,
                      Stream(seed, index, lane_base + 1), origin=(seed, index, lane_base), partie=partie, sink=sink)


def exchange_model(rules: PiquetRules) -> int:
    """The learned exchange's model for a rule set: 0 seed-de's (younger takes the bottom three
    only), else 1 seed-no's (points for the first lead only) or 2 cavendish's (for every lead)."""
    if not rules.younger_takes_leftovers:
        return 0
    return 2 if rules.trick_scoring == "lead_and_win_against" else 1


def player_for(policy, seat: str, choices: Stream) -> Player:
    """The player of a policy: :class:`StrongPlayer` for ``dd`` and ``search``, else :class:`Player`
    (heuristic, random; anything else is an InputError)."""
    if getattr(policy, "kind", None) in STRONG_KINDS:
        return StrongPlayer(policy, seat, choices)
    return Player(policy, seat, choices)


def sunk_categories(sink: dict | None, hands: dict[str, int], rules: PiquetRules) -> dict[str, frozenset]:
    """Each seat's categories declared as nothing: its rule ``rule(own hand after the exchanges,
    rules)`` (a seat without a rule, or ``sink`` None, declares in full)."""
    sink = sink or {}
    for seat in sink:
        if seat not in SEATS:
            raise InputError(f"sink: unknown player {seat!r}; valid: elder, younger")
    out = {}
    for seat in SEATS:
        rule = sink.get(seat)
        out[seat] = frozenset() if rule is None else frozenset(rule(hands[seat], rules))
        for category in out[seat]:
            if category not in CATEGORIES:
                raise InputError(f"sink: unknown category {category!r}; valid: {', '.join(CATEGORIES)}")
    return out


def play_cards(deck: list[int], rules: PiquetRules, elder_policy, younger_policy, choices: Stream, *,
               elder_discard: list[int] | None = None, younger_discard: list[int] | None = None,
               elder_count: int | None = None, origin: tuple[int, int, int] = (0, 0, 0),
               partie: tuple[int, int] | None = None, sink: dict | None = None) -> DealResult:
    """Play a deal whose 32 cards are given (elder's 12, younger's 12, the talon top first).

    The discard analyser's entry: ``elder_discard`` / ``younger_discard`` force a player's
    discard; ``elder_count`` forces how many cards elder exchanges (his policy picks which).
    ``origin``: the (seed, index, lane_base) the cards were dealt from, kept in the result.
    ``partie``: (E0, Y0), elder's and younger's partie totals before a deciding deal of a partie
    (a ``dd`` or ``search`` player with ``partie=margin|win`` then plays for the partie,
    docs/piquet-engine.md, "Playing for the partie"); None for any other deal.
    ``sink``: {seat: rule} (None: everyone declares in full), ``rule(hand, rules)`` the set of
    categories ("point", "sequences", "sets") the seat declares as nothing, from his own hand
    after the exchanges; the deal is scored with them, and a search opponent reads what was
    declared (:func:`sunk_categories`, reference/search.StrongPlayer)."""
    elder_dealt, younger_dealt, talon = deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE], deck[24:]
    players = {ELDER: player_for(elder_policy, ELDER, choices),
               YOUNGER: player_for(younger_policy, YOUNGER, choices)}
    hands = {ELDER: mask_of_codes(elder_dealt), YOUNGER: mask_of_codes(younger_dealt)}

    # Exchanges (PQ-EX-E, PQ-EX-Y): elder first, then younger.
    if elder_discard is not None:
        e_disc = sorted(elder_discard)
    else:
        bounds = (elder_count, elder_count) if elder_count is not None else elder_bounds()
        e_disc = players[ELDER].discard(hands[ELDER], *bounds, model=exchange_model(rules))
    k = len(e_disc)
    hands[ELDER] = hands[ELDER] & ~mask_of_codes(e_disc) | mask_of_codes(talon[:k])
    if younger_discard is not None:
        y_disc = sorted(younger_discard)
    else:
        y_disc = players[YOUNGER].discard(hands[YOUNGER], *younger_bounds(rules, k), model=exchange_model(rules))
    m = len(y_disc)
    y_took = [talon[t] for t in younger_talon_indices(rules, k, m)]
    hands[YOUNGER] = hands[YOUNGER] & ~mask_of_codes(y_disc) | mask_of_codes(y_took)
    for seat, disc in ((ELDER, e_disc), (YOUNGER, y_disc)):
        seen = [talon[t] for t in seen_talon_indices(seat, rules, k, m)]
        players[seat].start_play(hands[seat], disc, seen)
    # Declarations (PQ-POINT, PQ-SEQ, PQ-SET): each seat's sunk categories, from his own hand.
    sunk = sunk_categories(sink, hands, rules)
    # The dd and search players are shown the table (None when neither sits at it).
    table = open_table(players, rules, hands, elder_dealt, younger_dealt, partie, sunk)

    # Play (PQ-PLAY).
    pairs = []
    leader = ELDER
    for _ in range(N_TRICKS):
        follower = other(leader)
        led = players[leader].lead(hands[leader])
        followed = players[follower].follow(hands[follower], led)
        hands[leader] &= ~(1 << led)
        hands[follower] &= ~(1 << followed)
        players[leader].observe(led, followed, True)
        players[follower].observe(led, followed, False)
        pairs.append((led, followed))
        winner = follower if follower_wins(led, followed) else leader
        if table is not None:
            table.trick_done(Trick(leader, led, followed, winner))
        leader = winner

    # Scores: the same code that checks and scores a recorded deal.
    d = check_and_score(rules, elder_dealt, younger_dealt, talon, e_disc, y_disc, pairs, sunk)
    seed, index, lane_base = origin
    return DealResult(
        seed=seed, index=index, lane_base=lane_base, rules=rules,
        elder_dealt=elder_dealt, younger_dealt=younger_dealt, talon=talon,
        elder_discard=d.elder_discard, younger_discard=d.younger_discard,
        elder_took=d.elder_took, younger_took=d.younger_took,
        elder_hand=d.elder_hand, younger_hand=d.younger_hand,
        tricks=d.tricks, scores=d.sheet.points, events=d.sheet.events, sink=sunk,
    )


# ---------------------------------------------------------------------------------------------
# A partie (PQ-PARTIE, PQ-TIE, PQ-RUBICON)
# ---------------------------------------------------------------------------------------------

def partie_outcome(total_a: int, total_b: int, rules: PiquetRules) -> tuple[str | None, int, bool]:
    """PQ-RUBICON: (winner "A"/"B" or None when drawn, margin, rubiconed).

    Loser's L below ``rubicon``: margin W + L + bonus (rubiconed); else W - L + bonus.
    """
    if total_a == total_b:
        return None, 0, False
    winner = "A" if total_a > total_b else "B"
    w, loser = max(total_a, total_b), min(total_a, total_b)
    if loser < rules.rubicon:
        return winner, w + loser + rules.rubicon_bonus, True
    return winner, w - loser + rules.rubicon_bonus, False


FIRST_DEALER_LANE = 255
"""PQ-FIRST: the first draw of this lane of a partie's stream (below(2): 1 B, 0 A) decides who
deals first, the cut being a fair coin in simulation."""


def first_dealer(seed: int, index: int) -> str:
    """PQ-FIRST: who ("A" or "B") deals the first deal of partie ``index``."""
    return "B" if Stream(seed, index, FIRST_DEALER_LANE).below(2) == 1 else "A"


@dataclass
class PartieResult:
    """A partie: totals of A and B, the deals played, the winner (None: drawn), margin, rubicon,
    and who dealt first (the other player is elder in deals 0, 2, 4, ...)."""

    totals: dict[str, int]
    deals: list[DealResult]
    winner: str | None
    margin: int
    rubiconed: bool
    first_dealer: str = "B"

    def elder_of(self, deal: int) -> str:
        """Who ("A" or "B") was elder in deal ``deal`` (0-based)."""
        return elder_in(deal, self.first_dealer)

    @property
    def deals_played(self) -> int:
        """Deals played, extra deals included."""
        return len(self.deals)

    def outcome_vector(self) -> list[int]:
        """[total A, total B, deals played, winner (0 A, 1 B, -1 drawn), margin, rubiconed,
        first dealer (0 A, 1 B)]."""
        code = {"A": 0, "B": 1, None: -1}[self.winner]
        return [self.totals["A"], self.totals["B"], self.deals_played, code, self.margin,
                int(self.rubiconed), {"A": 0, "B": 1}[self.first_dealer]]


def elder_in(deal: int, dealer_first: str) -> str:
    """PQ-PARTIE: the elder of deal ``deal`` (0-based) when ``dealer_first`` dealt the first."""
    other_player = "A" if dealer_first == "B" else "B"
    return other_player if deal % 2 == 0 else dealer_first


def plays_for_partie(policy) -> bool:
    """Whether a policy chooses its cards for the partie in deciding deals (``dd`` or ``search``
    with ``partie=margin|win``)."""
    return getattr(policy, "partie", "deal") != "deal"


def play_partie(seed: int, index: int, rules: PiquetRules, policy_a, policy_b=None) -> PartieResult:
    """PQ-PARTIE, PQ-TIE, PQ-FIRST: the first dealer drawn (``first_dealer``), ``partie_deals``
    deals, dealer alternating, then ``tie_extra_deals`` more when the totals are equal. Deal d uses
    lanes 2d and 2d+1. The deciding deals (d >= partie_deals - 1) are told the totals before them,
    (elder's, younger's), when a player plays for the partie (the only players it changes)."""
    policies = {"A": policy_a, "B": policy_a if policy_b is None else policy_b}
    dealer_first = first_dealer(seed, index)
    totals = {"A": 0, "B": 0}
    deals: list[DealResult] = []
    planned = rules.partie_deals
    while len(deals) < planned:
        d = len(deals)
        elder = elder_in(d, dealer_first)
        younger = "B" if elder == "A" else "A"
        told = {}  # nothing for score-blind players: their deals are called as before
        if d >= rules.partie_deals - 1 and any(plays_for_partie(p) for p in policies.values()):
            told["partie"] = (totals[elder], totals[younger])
        r = play_deal(seed, index, rules, policies[elder], policies[younger], lane_base=2 * d, **told)
        deals.append(r)
        totals[elder] += r.elder_total
        totals[younger] += r.younger_total
        if len(deals) == planned == rules.partie_deals and totals["A"] == totals["B"]:
            planned += rules.tie_extra_deals
    winner, margin, rubiconed = partie_outcome(totals["A"], totals["B"], rules)
    return PartieResult(totals, deals, winner, margin, rubiconed, dealer_first)


# ---------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------

def overridden_switches(rules: PiquetRules) -> dict:
    """The switches of ``rules`` that differ from its named variant (all of seed-de's if unnamed)."""
    base = VARIANTS.get(rules.name, VARIANTS["seed-de"])
    return {k: v for k, v in rules.switches().items() if base.switches()[k] != v}


def _book(codes) -> str:
    return format_book(card_of(c) for c in codes) or "—"


def _cards(codes) -> str:
    return " ".join(name_of(c, symbols=True) for c in codes) or "no card"


def _describe(category: str, mask: int) -> str:
    """A player's declaration in words (his best, and in full what he holds)."""
    if category == "point":
        length, value = point_of(mask)
        return f"point of {length} ({value})"
    if category == "sequences":
        seqs = sequences_of(mask)
        if not seqs:
            return "no sequence"
        return ", ".join(f"{SEQUENCE_NAMES[n]} to the {RANK_WORDS[rank_of(top)]} of "
                         f"{SUIT_NAMES[suit_of(top)]}" for n, top in sorted(seqs, reverse=True))
    found = sets_of(mask)
    if not found:
        return "no set"
    return ", ".join(f"{'quatorze' if n == 4 else 'trio'} of {RANK_WORDS[r]}s"
                     for n, r in sorted(found, reverse=True))


def _declaration_line(category: str, rule: str, r: DealResult) -> str:
    """Elder declares, younger answers good / not good / equal, and who scores."""
    e_key = declared_key(category, r.elder_hand)
    y_key = declared_key(category, r.younger_hand)
    winner = compare(e_key, y_key)
    title = {"point": "Point", "sequences": "Sequences", "sets": "Sets"}[category]
    line = (f"{title} ({rule}): elder declares {_describe(category, r.elder_hand)}; younger, "
            f"with {_describe(category, r.younger_hand)}, says ")
    if winner == ELDER:
        answer = "good" if y_key[0] > 0 or category == "point" else "good (he has none)"
        return line + f"{answer}: elder scores {r.scores[ELDER][category]}."
    if winner == YOUNGER:
        return line + f"not good: younger scores {r.scores[YOUNGER][category]}."
    if category == "point" or e_key[0] > 0:
        return line + "equal: nobody scores."
    return f"{title} ({rule}): neither player holds any: nobody scores."


def explain(seed: int, index: int, rules: PiquetRules, elder_policy, younger_policy=None,
            lane_base: int = 0) -> str:
    """A step-by-step narration of one deal (the same deal :func:`play_deal` plays)."""
    if younger_policy is None:
        younger_policy = elder_policy
    r = play_deal(seed, index, rules, elder_policy, younger_policy, lane_base)
    changed = "".join(f", {k}={v}" for k, v in overridden_switches(rules).items())
    out = [f"Piquet deal {index} of seed {seed} under rules {rules.name}{changed} "
           f"(elder {elder_policy.kind}, younger {younger_policy.kind})"]
    out.append(f"Deal (PQ-DEAL): elder {_book(r.elder_dealt)} | younger {_book(r.younger_dealt)}")
    out.append(f"Talon, top first: {_cards(r.talon)} (top 5 elder's, bottom 3 younger's)")

    by_step: dict[str, list[Event]] = {}
    for e in r.events:
        by_step.setdefault(e.step, []).append(e)

    def repique_note(step: str) -> list[str]:
        return [f"  Repique (PQ-REPIQUE): {e.seat} reaches 30 before {other(e.seat)} has scored: "
                f"{e.seat} scores {e.points}." for e in by_step.get(step, []) if e.category == "repique"]

    cb = [e for e in by_step.get("carte blanche", []) if e.category == "carte_blanche"]
    if cb:
        for e in cb:
            out.append(f"Carte blanche (PQ-CB): {e.seat} holds no king, queen or jack: "
                       f"{e.seat} scores {e.points}.")
    else:
        out.append("Carte blanche (PQ-CB): neither player has carte blanche.")
    out += repique_note("carte blanche")

    k, m = len(r.elder_took), len(r.younger_took)
    out.append(f"Elder's exchange (PQ-EX-E): discards {_cards(r.elder_discard)}, takes "
               f"{_cards(r.elder_took)}" + (f", leaves {_cards(r.talon[k:ELDER_SHARE])}"
                                            if k < ELDER_SHARE else "") + ".")
    lo, hi = younger_bounds(rules, k)
    out.append(f"Younger's exchange (PQ-EX-Y, {lo} to {hi} cards): "
               + (f"discards {_cards(r.younger_discard)}, takes {_cards(r.younger_took)}."
                  if m else "exchanges no card."))
    out.append(f"Hands at play: elder {_book(codes_of_mask(r.elder_hand))} | "
               f"younger {_book(codes_of_mask(r.younger_hand))}")
    for category, rule in (("point", "PQ-POINT"), ("sequences", "PQ-SEQ"), ("sets", "PQ-SET")):
        out.append(_declaration_line(category, rule, r))
        out += repique_note(category)

    running = {ELDER: 0, YOUNGER: 0}
    for e in r.events:
        if e.step in ("carte blanche", *CATEGORIES):
            running[e.seat] += e.points
    out.append(f"Before play: elder {running[ELDER]}, younger {running[YOUNGER]}.")
    for n, t in enumerate(r.tricks, 1):
        step = f"trick {n}"
        follower = other(t.leader)
        scored = []
        for e in by_step.get(step, []):
            running[e.seat] += e.points
            if e.category == "pique":
                scored.append(f"PIQUE (PQ-PIQUE): elder reaches 30 before younger has scored, "
                              f"elder +{e.points}")
            else:
                scored.append(f"{e.seat} +{e.points} ({e.why})")
        out.append(f"Trick {n}: {t.leader} leads {name_of(t.led, True)}, {follower} plays "
                   f"{name_of(t.followed, True)}: {t.winner} wins; " + "; ".join(scored)
                   + f" [elder {running[ELDER]}, younger {running[YOUNGER]}]")

    e_tricks = r.scores[ELDER]["tricks"]
    y_tricks = N_TRICKS - e_tricks
    line = f"The cards (PQ-CARDS): elder took {plural(e_tricks, 'trick')}, younger {y_tricks}"
    bonus = [e for e in by_step.get("the cards", [])]
    if bonus:
        e = bonus[0]
        what = "capot" if e.category == "capot" else "the cards"
        line += f": {e.seat} scores {e.points} for {what}."
    elif e_tricks * 2 == N_TRICKS:
        line += ": cards divided, nobody scores."
    else:
        line += "."
    out.append(line)
    out.append(f"Totals: elder {r.elder_total}, younger {r.younger_total}.")
    return "\n".join(out)

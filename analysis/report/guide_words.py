"""What each tip verdict means for a player, in plain words (the strategy guide's tip table and
advice). Keys: a tip id, or ``"id:part"`` for a tip judged per seat or clause; values: one sentence
per verdict word. A verdict without a sentence here is shown by its number alone."""
from __future__ import annotations

READINGS: dict[str, dict[str, str]] = {
    "PQ-T1": {"supported": "The exchange decides more than the play of the cards: think hardest there.",
              "refuted": "A good exchange helps, but the play of the cards moves more points than the exchange does."},
    "PQ-T2": {"supported": "Throw your short suits and low cards.",
              "refuted": "Do not throw by the book's rule (short suits, low cards): it gives up many points against the "
                         "best exchange. Keep what scores (point, sequences, sets), and usually take every card you may."},
    "PQ-T3": {"supported": "Count the cards: after the exchange you know where most of them are, and it is worth "
                           "points in the play.",
              "refuted": "Counting the cards gains little here."},
    "PQ-T4": {"supported": "Keep sequences before the point.",
              "refuted": "Keep the point before sequences: an exchange that chases sequences scores less."},
    "PQ-T5": {"supported": "With a hand rich in declarations, exchange for the repique.",
              "refuted": "Do not chase the repique in the exchange: the exchange that maximises it gives up points."},
    "PQ-T6": {"supported": "As elder, play for the pique: it is worth points over ignoring it.",
              "refuted": "Chasing the pique as elder does not pay."},
    "PQ-T7": {"supported": "Read the opponent's exchange: the number of cards he takes tells his hand.",
              "refuted": "The number of cards the opponent takes tells little: strong players nearly always take "
                         "every card allowed."},
    "PQ-T8": {"supported": "Expect 20 to 50 points per side in a deal.",
              "refuted": "Deal scores spread more widely than 20 to 50 points per side: expect bigger swings."},
    "PQ-T9": {"supported": "Elder holds a real edge in the exchange and the declarations: as younger, defend "
                           "and fight for the cards.",
              "refuted": "Elder's edge is small."},
    "PQ-T10": {"supported": "Deal first when you may choose.",
               "refuted": "Dealing first is no advantage.",
               "inconclusive": "No measurable advantage from dealing first.",
               "not testable": "This model cannot say whether dealing first helps."},
    "PQ-T11": {"supported": "Fight for the cards: winning most tricks swings more than 22 points.",
               "refuted": "Winning the cards swings less than the book's 22 points."},
    "PQ-T12": {"supported": "Sink small combinations to hide your hand.",
               "refuted": "Declare in full: sinking small combinations costs more than the secret is worth."},
    "PQ-T13": {"supported": "As younger, take fewer cards when your hand is good.",
               "refuted": "As younger, care in the exchange is worth little: taking every card you may costs only "
                          "a fraction of a point."},
    "PQ-T14": {"supported": "Weigh the declarations against control of the play: neither extreme is best.",
               "refuted": "One of the two extremes (all declarations, or all control of the play) is as good as "
                          "any balance.",
               "inconclusive": "Neither extreme (all declarations, all control of the play) measurably loses to the "
                               "best exchange."},
    "EC-T1": {"supported": "The proposal is Écarté's big decision: learn the chart.",
              "refuted": "The proposal matters, but other decisions (the play, the discards) lose as much."},
    "EC-T2": {"supported": "Propose with fewer than three sure winners; play with three or more.",
              "refuted": "The three-winners rule loses points to the solved chart: use the chart.",
              "partly": "The three-winners rule is near the solved chart but loses points to it: use the chart."},
    "EC-T3": {"supported": "A 10-9-8 in one suit is a losing hand: propose.",
              "refuted": "A 10-9-8 in one suit is no worse than comparable hands.",
              "partly": "A 10-9-8 in one suit is somewhat weaker than comparable hands, not hopeless."},
    "EC-T4": {"supported": "Lead high trumps early.", "refuted": "Do not lead trumps early."},
    "EC-T5": {"supported": "Always announce the trump king, at every score.",
              "refuted": "Announcing the trump king is not always right."},
    "EC-T6": {"supported": "As dealer, accept proposals generously; refuse only when very strong.",
              "refuted": "As dealer, refuse far more often than the book says: follow the chart.",
              "partly": "As dealer, refuse more often than the book says: follow the chart."},
    "EC-T7:watching": {"supported": "Watch the opponent's discards: a searching player gains by reading them.",
                       "refuted": "Reading the opponent's discards gains little.",
                       "inconclusive": "Reading the opponent's discards gains nothing measurable."},
    "EC-T7:weak hand": {"supported": "A player who throws three cards admits a weak hand.",
                        "refuted": "Three cards thrown do not mean a weak hand: such hands are not weaker than "
                                   "the average dealt hand."},
    "EC-T7:middle cards": {"supported": "After throwing three, his new hand likely holds middle cards (8, 9, 10).",
                           "refuted": "After throwing three, his new hand holds no more middle cards than usual."},
    "EC-T8": {"supported": "For elder, playing and a refused proposal carry the same risk.",
              "refuted": "For elder, a refused proposal and playing without proposing do not score alike."},
    "BZ-T1": {"supported": "Win tricks for the right to meld, not for the cards in them.",
              "refuted": "Win tricks for their aces and tens: chasing only the right to meld scores less."},
    "BZ-T2:partners": {"supported": "Keep the partner card of a meld you may still declare.",
                       "refuted": "Keeping meld partners does not pay."},
    "BZ-T2:fours": {"supported": "Do not wait for a four of a kind while the fourth card is still out.",
                    "refuted": "Waiting for the fourth card of a four of a kind pays: keep the three."},
    "BZ-T3:lead": {"supported": "Lead low cards and make the opponent spend his aces and tens.",
                   "refuted": "Leading low does not lure out the brisques."},
    "BZ-T3:keep": {"supported": "Keep your own aces and tens back.",
                   "refuted": "Do not hoard your aces and tens: play them when they win."},
    "BZ-T4": {"supported": "Save trumps for the end of the stock.",
              "refuted": "Saving trumps for the end does not pay."},
    "BZ-T5": {"supported": "Hold a single bezique while the stock is large.",
              "refuted": "Declare a single bezique: holding it for the double bezique costs points."},
}

ADVICE_ORDER: dict[str, tuple[str, ...]] = {
    "piquet": ("PQ-T2", "PQ-T11", "PQ-T3", "PQ-T4", "PQ-T12", "PQ-T6", "PQ-T13", "PQ-T5"),
    "ecarte": ("EC-T6", "EC-T2", "EC-T5", "EC-T7:watching", "EC-T3", "EC-T4"),
    "bezique": ("BZ-T2:partners", "BZ-T3:keep", "BZ-T4", "BZ-T2:fours"),
}
"""The tips whose verdicts become each game's advice, most valuable to a player first. A tip enters
when one of its verdicts is clear (supported or refuted) and none points the other way (supported
beside refuted or partly); its verdicts under every variant are its margins. Bezique's BZ-T1 (when
to win a trick) and BZ-T5 (the single bezique) are advised by the rules of its ladder instead,
measured against the strongest player that can follow them; BZ-T3's "lead low" is left out of the
advice while its only measure is against always leading the highest card, which no player does
(its verdict stays in the tip table)."""


PLAIN_PLAYERS = {
    "heuristic": "salon's rule-of-thumb player",
    "search": "a strong searching player",
    "heuristic, search": "salon's rule-of-thumb player and a strong searching player",
    "heuristic trick play, every exchange raced per hand": "rule-of-thumb card play, every exchange tried per hand",
    "dd (open hands) trick play, the heuristic race's leaders":
        "open-hands play (a bound, not a legal player), the exchanges a rule-of-thumb race chose",
    "dd with the learned exchange": "open-hands play (a bound, not a legal player) after the learned exchange",
    "search trick play (the searching player), the best of the open-hands leaders per hand":
        "a strong searching player's card play, the best exchanges open-hands play found per hand",
    "dd trick play (open hands, a bound, not a legal player), the race's leaders per hand":
        "open-hands play (a bound, not a legal player), the exchanges a rule-of-thumb race chose",
    "heuristic, exact end game, heuristic": "salon's rule-of-thumb player with an exact end game, against the same",
}
"""The players behind the advice's numbers, in a player's words (the evidence and the tip table keep
their technical names). Tables of the solved game are 'perfect play'; a name not listed is kept."""


def plain_players(players: str) -> str:
    """``players`` in a player's words (PLAIN_PLAYERS)."""
    if players.startswith("equilibrium tables"):
        return "perfect play: the solved game"
    return PLAIN_PLAYERS.get(players, players)

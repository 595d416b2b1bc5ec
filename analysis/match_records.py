"""Records of a whole partie or game: several deals between the same two players, in the order they
were played (docs/records.md, "A partie or a game").

JSON: ``{"game", "rules", "players": [first elder, first dealer], "deals": [deal records]}``; the
deal records are the game's own (``analysis/<game>/reference/records.py``), their ``"game"`` and
``"rules"`` taken from the match when they leave them out. The players change seats every deal
(PQ-PARTIE, EC-GAME, BZ-GAME: the deal alternates), so the first player is elder in deals 1, 3, 5...

The score before each deal follows from the deals themselves: each game's review module says what
a deal adds to the score, whether the partie or game is over after it, and which deals are played
for the score (``match_step``).
"""
from __future__ import annotations

from dataclasses import dataclass

from analysis.errors import InputError

KEYS = ("game", "rules", "players", "deals", "comment")


@dataclass(frozen=True)
class Match:
    """A partie or game: its card game, rules' name, the two players (the first deal's elder first),
    the deal records (each with its game and rules) and a comment."""

    game: str
    rules: str
    players: tuple[str, str]
    records: list[dict]
    comment: str | None = None

    def seats(self, number: int, seats: tuple[str, str]) -> dict[str, str]:
        """Who sits where in deal ``number`` (1-based): seat -> player."""
        first, second = self.players if number % 2 == 1 else self.players[::-1]
        return {seats[0]: first, seats[1]: second}

    def to_json(self) -> dict:
        """The JSON object of the match; its deals without the ``game`` and ``rules`` they share."""
        deals = [{k: v for k, v in r.items() if k not in ("game", "rules")} for r in self.records]
        return {"game": self.game, "rules": self.rules, "players": list(self.players), "deals": deals,
                **({"comment": self.comment} if self.comment else {})}


def is_match(data) -> bool:
    """Whether JSON data is a match (an object with ``"deals"``) rather than deal records."""
    return isinstance(data, dict) and "deals" in data


def players_of(value, where: str) -> tuple[str, str]:
    """Two different non-empty player names."""
    if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(p, str) and p.strip() for p in value)
            or value[0].strip() == value[1].strip()):
        raise InputError(f"{where}: expected two different player names (the first deal's elder first)")
    return value[0].strip(), value[1].strip()


def from_json(data: dict, name: str, game: str | None = None) -> Match:
    """The match in a JSON object (checked: its keys, players and deals; each deal's game and rules
    the match's)."""
    from analysis.record_files import GAMES

    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise InputError(f"{name}: unknown key {unknown[0]!r} of a partie or game; valid: {', '.join(KEYS)}")
    g = data.get("game", game)
    if g not in GAMES:
        raise InputError(f"{name}: a partie or game names its game: \"game\" one of {', '.join(GAMES)}")
    if game is not None and g != game:
        raise InputError(f"{name}: this is {g} but --game {game} was given")
    rules = data.get("rules", "seed-de")
    if not isinstance(rules, str):
        raise InputError(f"{name}: \"rules\" must be a variant's name")
    players = players_of(data.get("players"), f"{name}: \"players\"")
    deals = data["deals"]
    if not isinstance(deals, list) or not deals or not all(isinstance(d, dict) for d in deals):
        raise InputError(f"{name}: \"deals\" must be a non-empty list of deal records")
    records = []
    for i, d in enumerate(deals, 1):
        for key, value in (("game", g), ("rules", rules)):
            if key in d and d[key] != value:
                raise InputError(f"{name}: deal {i}: {key} {d[key]!r}, but the partie or game's is {value!r}")
        records.append({"game": g, "rules": rules, **{k: v for k, v in d.items() if k not in ("game", "rules")}})
    comment = data.get("comment")
    return Match(g, rules, players, records, comment if isinstance(comment, str) else None)


@dataclass(frozen=True)
class DealScore:
    """A deal of a match: who sat where (seat -> player), the players' totals before and after it,
    whether it was played for the score (the partie's deciding deals in Piquet, every hand of an
    Écarté game) and whether the partie or game ended with it."""

    number: int
    seats: dict[str, str]
    before: dict[str, int]
    after: dict[str, int]
    for_score: bool
    over: bool

    def seat_totals(self, when: str = "before") -> dict[str, int]:
        """The totals ``before`` or ``after`` the deal by seat."""
        totals = self.before if when == "before" else self.after
        return {seat: totals[p] for seat, p in self.seats.items()}


def scores(match: Match, seats: tuple[str, str], step, replay, rules=None) -> list[DealScore]:
    """Each deal's :class:`DealScore`: the deals replayed in order (``replay(record, rules)``) and
    added up by the game's ``step(result, before by seat, rules, number) -> (after by seat, for_score,
    over)``; a deal after the end of the partie or game is an input error."""
    totals = dict.fromkeys(match.players, 0)
    out = []
    for n, record in enumerate(match.records, 1):
        if out and out[-1].over:
            raise InputError(f"deal {n}: the {'partie' if match.game == 'piquet' else 'game'} ended with deal {n - 1}")
        try:
            result = replay(record, rules)
        except InputError as e:
            raise InputError(f"deal {n}: {e}") from None
        where = match.seats(n, seats)
        before = {s: totals[p] for s, p in where.items()}
        after, for_score, over = step(result, before, rules or _rules(record), n)
        seat_of = {p: s for s, p in where.items()}
        new = {p: after[seat_of[p]] for p in match.players}
        out.append(DealScore(n, where, dict(totals), new, for_score, over))
        totals = new
    return out


def _rules(record: dict):
    from analysis.games import GAMES

    return GAMES[record["game"]].rules(record["rules"])


def summary_by_player(match: Match, reviews, deal_scores, seat_summary) -> dict:
    """Each player's summary over the whole match (``seat_summary`` of his decisions in every deal,
    whichever seat he held), keyed by his name."""
    from dataclasses import replace

    renamed: list = []
    deal_of: list[int] = []
    for review, score in zip(reviews, deal_scores, strict=True):
        for d in review.decisions:
            renamed.append(replace(d, seat=score.seats[d.seat]))
            deal_of.append(score.number)
    return {p: seat_summary(renamed, p, deal_of) for p in match.players}


MAX_DEALS = 64
"""The most deals ``played_match`` plays (a Bezique game to 1000 takes about five)."""


def played_match(game: str, seed: int, players: tuple[str, str] = ("A", "B"), policy: str = "heuristic",
                 rules_name: str | None = None) -> Match:
    """A partie or game of salon's ``policy`` player on both sides, deal ``i`` dealt from ``seed``
    as ``salon simulate --records`` deals it, until the partie or game is over (the examples of
    docs/records.md and the tests)."""
    from analysis.games import GAMES

    g = GAMES[game]
    rules = g.rules(rules_name)
    step = g.review.load().match_step
    records: list[dict] = []
    totals = dict.fromkeys(players, 0)
    for i in range(MAX_DEALS):
        record = g.record(seed, i, rules, g.policy(policy))
        record.pop("source", None)
        records.append(record)
        seats = Match(game, rules.name, players, records).seats(i + 1, g.seats)
        after, _, over = step(g.replay(record, None), {s: totals[p] for s, p in seats.items()}, rules, i + 1)
        totals = {p: after[s] for s, p in seats.items()}
        if over:
            break
    return Match(game, rules.name, players, records)

"""The registry of games: the CLI, the tips, the benchmarks, the report and the conformance tests
loop over it. Adding a game is adding its package (with a ``GAME`` descriptor) to this list."""
from __future__ import annotations

from analysis.bezique import GAME as BEZIQUE
from analysis.ecarte import GAME as ECARTE
from analysis.game import Game
from analysis.piquet import GAME as PIQUET

GAMES: dict[str, Game] = {g.name: g for g in (ECARTE, PIQUET, BEZIQUE)}
"""Every game by its CLI name, in the order the CLI and the report show them."""


def get_game(name: str) -> Game:
    """The game called ``name``; an unknown name is an error listing the valid ones."""
    try:
        return GAMES[name]
    except KeyError:
        from analysis.errors import InputError

        raise InputError(f"unknown game {name!r}; valid: {', '.join(GAMES)}") from None

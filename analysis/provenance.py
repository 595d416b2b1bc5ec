"""What every result records about how it was made."""
from __future__ import annotations

from analysis import __version__


def provenance(game: str, rules, policies: dict, n: int, seed: int, **extra) -> dict:
    """Game, variant, switches, policies, counts, seed and versions of a result."""
    import numba

    return {
        "game": game, "rules": rules.name, "switches": rules.switches(), "policies": policies,
        "deals": n, "seed": seed, "version": __version__, "numba": numba.__version__, **extra,
    }

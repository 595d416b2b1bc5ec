"""Kernel array layouts declared once, with names: the check every game's ``layout.py`` runs at
import, that its index constants (``O_*``, ``T_*``, ...) and the field names beside them agree."""
from __future__ import annotations


class LayoutError(AssertionError):
    """The field names of a layout and its index constants disagree."""


def pair_fields(stem: str, seats: tuple[str, str]) -> tuple[str, ...]:
    """The two fields of a pair, one per seat: ``stem_elder``, ``stem_dealer``."""
    return tuple(f"{stem}_{s}" for s in seats)


def check_layout(fields: tuple[str, ...], length: int, prefix: str, namespace: dict) -> None:
    """Raise LayoutError unless the index constants ``prefix*`` of ``namespace`` and the field
    names agree: ``length`` unique names; the constants' values distinct, the first 0; each
    constant starts a run of fields named after its stem (``O_PLAYED`` -> ``played``,
    ``played_lead1``, ...; a spare slot is ``unused``) that ends where the next one starts."""
    if len(fields) != length or len(set(fields)) != length:
        raise LayoutError(f"{prefix}*: {len(set(fields))} distinct names of {len(fields)}, want {length}")
    starts = sorted((v, k) for k, v in namespace.items() if k.startswith(prefix) and isinstance(v, int))
    if not starts or starts[0][0] != 0 or len({v for v, _ in starts}) != len(starts):
        raise LayoutError(f"{prefix}*: the constants must start at 0 and differ: {starts}")
    for j, (v, k) in enumerate(starts):
        end = starts[j + 1][0] if j + 1 < len(starts) else length
        stem = k[len(prefix):].lower()
        for i in range(v, end):
            if not (fields[i] in (stem, "unused") or fields[i].startswith(stem + "_")):
                raise LayoutError(f"{k} = {v}: field {i} is {fields[i]!r}, not {stem}[_...]")

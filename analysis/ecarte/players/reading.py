"""The reading leads' ratios file (``data/reading_ratios.json``), read without the kernel: the
policy array needs it, and so does the reference (fit/reading_ratios.py computes the ratios)."""
from __future__ import annotations

import hashlib
import json
import os
from functools import cache

import numpy as np

from analysis.errors import InputError

N_READ_GROUPS = 16  # a trump of rank index 0..7, then a plain card of rank index 0..7
RATIOS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "reading_ratios.json")
READ_ROWS = ("elder played without proposing", "elder proposed", "the dealer refused")
RATIO_UNIT = 4096


@cache
def _file(path: str = RATIOS_FILE) -> dict:
    if not os.path.exists(path):
        return {"variants": {}}
    with open(path) as f:
        return json.load(f)


def read_variants(path: str = RATIOS_FILE) -> tuple[str, ...]:
    """The variants whose reading ratios are in the file."""
    return tuple(sorted(_file(path)["variants"]))


@cache
def ratios_sha256(variant: str, path: str = RATIOS_FILE) -> str:
    """A variant's ratios' digest (16 hex digits of the SHA-256 of the int64 array), computed once."""
    return hashlib.sha256(load_ratios(variant, path).tobytes()).hexdigest()[:16]


def load_ratios(variant: str, path: str = RATIOS_FILE) -> np.ndarray:
    """The (3, 16) int64 ratios of a variant (rows READ_ROWS), in units of RATIO_UNIT."""
    entry = _file(path)["variants"].get(variant)
    if entry is None:
        raise InputError(f"no reading ratios for {variant!r} in {path}")
    r = np.asarray(entry["ratios"], dtype=np.int64)
    if r.shape != (len(READ_ROWS), N_READ_GROUPS) or (r <= 0).any():
        raise ValueError(f"{path}: {variant}: expected {len(READ_ROWS)} rows of {N_READ_GROUPS} positive integers")
    return r

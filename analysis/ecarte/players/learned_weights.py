"""The learned leads' features and shipped weights (``data/learned_lead.json``), in plain Python:
read by the policy (``policies.HeuristicPolicy``, which puts them in its array) without the kernel,
so that the reference's sources (tests/reference_pool.py) hold no kernel module."""
from __future__ import annotations

import hashlib
import json
import pathlib
from functools import lru_cache

import numpy as np

WEIGHTS_FILE = pathlib.Path(__file__).resolve().parents[1] / "data" / "learned_lead.json"
READING_WEIGHTS_FILE = WEIGHTS_FILE.with_name("reading_lead.json")
"""The reading leads' weights: for each row of ratios read, the 20 models' weights (same features),
fitted to a reading searcher."""
N_READ_ROWS = 3
LEAD_FEATURES = (
    "is_trump", "rank", "p_no_higher", "e_higher", "p_void_plain", "e_suit_plain", "trump_x_own_trumps",
    "trump_x_e_trumps", "plain_x_p_no_trump", "plain_x_own_suit", "plain_x_own_higher", "p_win",
    "p_win_x_needs_one", "p_win_x_opponent_needs_one", "trump_x_two_trumps", "plain_x_no_trumps",
    "plain_x_own_trumps", "plain_x_p_void_x_own_trumps", "plain_x_own_lower", "trump_x_own_lower",
    "p_win_x_trump", "plain_singleton", "plain_singleton_x_own_trumps", "plain_singleton_x_p_no_higher",
    "heuristic_card",
)
N_LEAD_FEATURES = len(LEAD_FEATURES)
N_LEAD_MODELS = 20
"""One model per trick 0..3, tricks won so far by the leader and seat: ``lead_model``."""
LEAD_WEIGHTS_SIZE = N_LEAD_MODELS * N_LEAD_FEATURES


def load_weights(path: pathlib.Path = WEIGHTS_FILE) -> np.ndarray:
    """The shipped integer weights, (N_LEAD_MODELS, N_LEAD_FEATURES) int64 (a copy)."""
    return _weights(str(path), path.stat().st_mtime_ns).copy()


def load_reading_weights(path: pathlib.Path = READING_WEIGHTS_FILE) -> np.ndarray:
    """The reading leads' integer weights, (N_READ_ROWS, N_LEAD_MODELS, N_LEAD_FEATURES) int64."""
    return _weights(str(path), path.stat().st_mtime_ns, (N_READ_ROWS, N_LEAD_MODELS, N_LEAD_FEATURES)).copy()


def weights_sha256(path: pathlib.Path = WEIGHTS_FILE) -> str:
    """The shipped weights' digest (16 hex digits of the SHA-256 of the int64 array), computed once
    per version of the file: policies' descriptions name it without reading the file again."""
    return _digest(str(path), path.stat().st_mtime_ns, (N_LEAD_MODELS, N_LEAD_FEATURES))


def reading_weights_sha256(path: pathlib.Path = READING_WEIGHTS_FILE) -> str:
    """The reading leads' weights' digest, as ``weights_sha256``."""
    return _digest(str(path), path.stat().st_mtime_ns, (N_READ_ROWS, N_LEAD_MODELS, N_LEAD_FEATURES))


@lru_cache(maxsize=8)
def _digest(path: str, mtime: int, shape: tuple) -> str:
    return hashlib.sha256(_weights(path, mtime, shape).tobytes()).hexdigest()[:16]


@lru_cache(maxsize=4)
def _weights(path: str, mtime: int, shape=(N_LEAD_MODELS, N_LEAD_FEATURES)) -> np.ndarray:
    data = json.loads(pathlib.Path(path).read_text())
    if data["features"] != list(LEAD_FEATURES):
        raise ValueError(f"{path}: its features are not this version's")
    w = np.array(data["weights"], dtype=np.int64)
    if w.shape != shape:
        raise ValueError(f"{path}: weights of shape {w.shape}, not {shape}")
    return w

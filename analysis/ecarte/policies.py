"""Écarté decision rules: parameterised heuristic and uniformly random policies.

The dataclasses are the policies' parameters (validated, printable, hashable); ``to_array`` is what
the numba kernel reads. The numba decision functions live in ``engine/`` and ``players/`` beside the rules they
serve; the reference implements the same rules in plain Python (docs/ecarte-engine.md).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.ecarte.players.reading import N_READ_GROUPS
from analysis.errors import InputError

# Slots of the policy array.
P_KIND = 0  # 0 heuristic, 1 random
P_ELDER_PLAY_THRESHOLD = 1
P_DEALER_REFUSE_THRESHOLD = 2
P_KEEP_PLAIN_MIN_RANK = 3
P_ANNOUNCE_KING = 4
P_LEAD_TRUMPS = 5
# Forced first decisions, used by studies that compare options on the same deals:
# -1 the policy decides, 0 elder plays without proposing, 1 elder proposes.
P_FORCE_FIRST = 6
# The dealer's forced response to the first proposal: -1 the policy decides, 0 accept, 1 refuse.
P_FORCE_RESPONSE = 7
# A forced first discard (mask of cards, 0 = none where the rules allow it), used by studies that
# compare discards on the same deals: -1 the policy decides.
P_FORCE_DISCARD = 8
# Elder's forced second proposal decision (after a first exchange), used by the equilibrium's
# measure of the second round: -1 the policy decides, 0 he plays, 1 he proposes again.
P_FORCE_SECOND = 9
# Leads: 0 the heuristic's, 1 learned (players/learned.py), whose integer weights follow.
P_LEADS = 10
P_LEAD_WEIGHTS = 11
# Reading leads (docs/ecarte-engine.md, "Reading leads"): 1 when the learned leads weight the
# opponent's cards by what his first decision says (``reads``), the three rows of 16 ratios, and
# the reading leads' own integer weights, 500 for each row (data/reading_lead.json, fitted to a
# reading searcher).
P_READS = P_LEAD_WEIGHTS + 500  # players/learned.LEAD_WEIGHTS_SIZE
P_READ_RATIOS = P_READS + 1
P_READ_WEIGHTS = P_READ_RATIOS + 3 * N_READ_GROUPS
N_POLICY_SLOTS = P_READ_WEIGHTS + 3 * 500
# A policy array longer than N_POLICY_SLOTS carries a discard table after the slots: for every
# five-card hand taken relative to trumps (trumps as suit 0; index bits.rank_of_mask), the
# discard (a mask of the same relative cards), or -1 where the heuristic decides.

KIND_HEURISTIC = 0
KIND_RANDOM = 1
LEADS = ("heuristic", "learned")


@dataclass(frozen=True)
class HeuristicPolicy:
    """The rulebook-style player (docs/ecarte-engine.md, "Heuristic policy").

    Elder plays without proposing when his hand strength reaches ``elder_play_threshold``; the
    dealer refuses when his reaches ``dealer_refuse_threshold``; discards keep trumps and the
    non-trumps of rank index ``keep_plain_min_rank`` and above (7 = kings); ``announce_king``
    announces the trump king; ``lead_trumps`` leads the highest trump when holding two or more;
    ``leads`` = ``learned`` leads tricks 1 to 4 by the learned score instead (players/learned.py);
    ``reads`` = a variant's name weights the opponent's cards in those leads by what his first
    decision says of his hand under that variant's shipped equilibrium (fit/reading_ratios.py).
    """

    elder_play_threshold: int = 9
    dealer_refuse_threshold: int = 10
    keep_plain_min_rank: int = 7
    announce_king: bool = True
    lead_trumps: bool = True
    leads: str = "heuristic"
    reads: str = "none"

    def __post_init__(self) -> None:
        if self.leads not in LEADS:
            raise InputError(f"leads must be one of {', '.join(LEADS)}, not {self.leads!r}")
        if self.reads != "none":
            from analysis.ecarte.players.reading import read_variants

            if self.leads != "learned":
                raise InputError("reads needs leads=learned (the reading weights the learned leads' odds)")
            if self.reads not in read_variants():
                raise InputError(f"reads must be none or one of {', '.join(read_variants())}, not {self.reads!r}")
        for key in ("elder_play_threshold", "dealer_refuse_threshold"):
            if not 0 <= getattr(self, key) <= 100:
                raise InputError(f"{key} must be between 0 and 100")
        if not 0 <= self.keep_plain_min_rank <= 8:
            raise InputError("keep_plain_min_rank must be between 0 and 8")

    kind = "heuristic"

    def to_array(self, force_first: int = -1, force_response: int = -1, force_discard: int = -1) -> np.ndarray:
        """The parameters as the kernel's int64 array."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_HEURISTIC
        a[P_ELDER_PLAY_THRESHOLD] = self.elder_play_threshold
        a[P_DEALER_REFUSE_THRESHOLD] = self.dealer_refuse_threshold
        a[P_KEEP_PLAIN_MIN_RANK] = self.keep_plain_min_rank
        a[P_ANNOUNCE_KING] = int(self.announce_king)
        a[P_LEAD_TRUMPS] = int(self.lead_trumps)
        a[P_FORCE_FIRST] = force_first
        a[P_FORCE_RESPONSE] = force_response
        a[P_FORCE_DISCARD] = force_discard
        a[P_FORCE_SECOND] = -1
        if self.leads == "learned":
            from analysis.ecarte.players.learned_weights import load_weights

            a[P_LEADS] = 1
            a[P_LEAD_WEIGHTS:P_READS] = load_weights().ravel()
        if self.reads != "none":
            from analysis.ecarte.players.learned_weights import load_reading_weights
            from analysis.ecarte.players.reading import load_ratios

            a[P_READS] = 1
            a[P_READ_RATIOS:P_READ_WEIGHTS] = load_ratios(self.reads).ravel()
            a[P_READ_WEIGHTS:N_POLICY_SLOTS] = load_reading_weights().ravel()
        return a

    def describe(self) -> dict:
        """Name and parameters, for outputs and provenance (``leads`` only when learned, with a hash
        of the weights, and ``reads`` only when reading, with a hash of the ratios, so that older
        descriptions stay what they were before the options existed)."""
        d = {"kind": self.kind, **dataclasses.asdict(self)}
        if self.reads == "none":
            del d["reads"]
        else:
            from analysis.ecarte.players.learned_weights import reading_weights_sha256
            from analysis.ecarte.players.reading import ratios_sha256

            d["read_ratios_sha256"] = ratios_sha256(self.reads)
            d["read_weights_sha256"] = reading_weights_sha256()
        if self.leads == "heuristic":
            del d["leads"]
        else:
            from analysis.ecarte.players.learned_weights import weights_sha256

            d["lead_weights_sha256"] = weights_sha256()
        return d


@dataclass(frozen=True)
class RandomPolicy:
    """Every decision uniformly at random among the legal ones (for tests)."""

    kind = "random"

    def to_array(self, force_first: int = -1, force_response: int = -1, force_discard: int = -1) -> np.ndarray:
        """The kernel's int64 array."""
        a = np.zeros(N_POLICY_SLOTS, dtype=np.int64)
        a[P_KIND] = KIND_RANDOM
        a[P_FORCE_FIRST] = force_first
        a[P_FORCE_RESPONSE] = force_response
        a[P_FORCE_DISCARD] = force_discard
        a[P_FORCE_SECOND] = -1
        return a

    def describe(self) -> dict:
        """Name, for outputs and provenance."""
        return {"kind": self.kind}


class ChosenDiscards:
    """The heuristic policy with its discards read from a table (``N_POLICY_SLOTS``): ``table``
    holds, for every hand relative to trumps, the discard chosen for it, or -1 where the
    heuristic decides (analysis/ecarte/studies/strategy/tables.py builds it from evaluated discards)."""

    kind = "heuristic"

    def __init__(self, base: HeuristicPolicy, table: np.ndarray) -> None:
        self.base = base
        self.discard_table = np.asarray(table, dtype=np.int64)

    def __getattr__(self, name: str):
        return getattr(self.base, name)

    def to_array(self, force_first: int = -1, force_response: int = -1, force_discard: int = -1) -> np.ndarray:
        """The base policy's array with the discard table after it."""
        return np.concatenate([self.base.to_array(force_first, force_response, force_discard), self.discard_table])

    def describe(self) -> dict:
        """The base policy's parameters, and how many hands' discards the table decides."""
        import hashlib

        return {**self.base.describe(), "discards": "table",
                "table_hands": int((self.discard_table >= 0).sum()),
                "table_sha256": hashlib.sha256(self.discard_table.tobytes()).hexdigest()[:16]}


def get_policy(name: str = "heuristic", overrides: dict[str, str] | list[str] | None = None):
    """A policy by name (``heuristic`` or ``random``) with parameters overridden (``key=value``)."""
    from analysis.variants import pick_policy

    return pick_policy(name, overrides, HeuristicPolicy(), RandomPolicy())

"""One tip verdict: what a tip study concludes about a rulebook tip under one rule variant.

Every game's tip studies (``analysis/<game>/studies/tips.py``) return :class:`Verdict` objects;
``salon tips`` prints their text form (:meth:`Verdict.text`), ``salon tips --json`` and the
report read their JSON form (:meth:`Verdict.to_dict`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from analysis.stats import Estimate

WORDS = ("supported", "refuted", "partly", "inconclusive", "not testable")
"""The verdict words: the tip's sharp reading holds, fails, holds in part, the deals cannot tell, or
the model cannot test it (its details say why; the effect is then shown for information only)."""

PLAIN = {"supported": "The tip holds.", "refuted": "The tip does not hold.", "partly": "The tip holds in part.",
         "inconclusive": "The deals cannot tell whether the tip holds.",
         "not testable": "This model cannot test the tip."}
"""What a verdict says to a player when the guide has no sentence of its own for it."""


@dataclass(frozen=True)
class Verdict:
    """A tip's verdict under one variant (and, for tips judged per seat or clause, one part)."""

    tip: str  # the tip's id in docs/tips.md: "EC-T2"
    variant: str  # the rule variant the study ran under: "seed-de"
    verdict: str  # one of WORDS
    effect: Estimate  # the effect the verdict is read from, with its 95% interval
    effect_name: str  # what the effect measures, in words
    reading: str  # the sharp reading tested: how the effect decides the verdict
    deals: int  # the deals the effect rests on
    seed: int  # the study's seed
    policies: dict  # the players behind it: role -> the policy's description
    details: dict = field(default_factory=dict)  # the study's further numbers (JSON-ready)
    part: str | None = None  # the seat or clause of the tip this verdict is about: "younger", "fours"
    extra: dict = field(default_factory=dict)  # top-level numbers beside the details (PQ-T10: "parties")

    def __post_init__(self):
        if self.verdict not in WORDS:
            raise ValueError(f"{self.tip}: unknown verdict {self.verdict!r}; valid: {', '.join(WORDS)}")

    @property
    def label(self) -> str:
        """The variant, with the part when there is one: "seed-de, younger"."""
        return self.variant if self.part is None else f"{self.variant}, {self.part}"

    @property
    def players(self) -> str:
        """The kinds of player behind the effect, in words: "search", "heuristic"."""
        kinds = []
        for p in self.policies.values():
            if isinstance(p, dict) and "kind" not in p:
                continue  # not a player: e.g. the options a study varies (Bezique's "options")
            k = p.get("kind", "?") if isinstance(p, dict) else str(p)
            if isinstance(p, dict) and p.get("exchange") in ("learned", "learned-ordering"):
                k += f" with the {p['exchange']} exchange"
            if isinstance(p, dict) and p.get("leads") == "learned":
                k += " with the learned leads"
                if p.get("reads", "none") != "none":
                    k += f" reading the first decision (reads={p['reads']})"
            if k not in kinds:
                kinds.append(k)
        return ", ".join(kinds)

    @property
    def for_a_player(self) -> str:
        """What the verdict means for a player: the strategy guide's sentence (guide_words.READINGS,
        the same the report prints), or the verdict word's plain meaning when it has none."""
        from analysis.report.guide import reading

        return reading(self.tip, self.part, self.verdict) or PLAIN[self.verdict]

    @property
    def players_in_words(self) -> str:
        """The players behind the effect by name, in words: "heuristic player (learned leads)"."""
        from analysis.words import player_words

        out = []
        for p in self.policies.values():
            w = player_words(p)
            if w and w not in out:
                out.append(w)
        return ", ".join(out)

    def to_dict(self) -> dict:
        """The JSON form (``salon tips --json``, the report): id, variant (the label), verdict,
        effect_name, effect ({"value", "ci95", "n"}), sharp_reading, deals, seed, policies, players
        (their kinds in words), details, then the extra numbers."""
        return {"id": self.tip, "variant": self.label, "verdict": self.verdict, "effect_name": self.effect_name,
                "effect": self.effect.to_dict(), "sharp_reading": self.reading, "deals": self.deals,
                "seed": self.seed, "policies": self.policies, "players": self.players, "details": self.details,
                **self.extra}

    @classmethod
    def from_dict(cls, d: dict) -> Verdict:
        """The verdict of a JSON form: ``Verdict.from_dict(v.to_dict()).to_dict() == v.to_dict()``."""
        known = {"id", "variant", "verdict", "effect_name", "effect", "sharp_reading", "deals", "seed", "policies",
                 "players", "details"}
        variant, _, part = d["variant"].partition(", ")
        e = d["effect"]
        lo, hi = e["ci95"] if "ci95" in e else e["ci"]
        effect = Estimate(_float(e["value"]), _float(lo), _float(hi), e["n"], e.get("confidence", 0.95))
        return cls(d["id"], variant, d["verdict"], effect, d["effect_name"], d["sharp_reading"], d["deals"],
                   d["seed"], d["policies"], d["details"], part or None,
                   {k: v for k, v in d.items() if k not in known})

    def text(self, verbose: bool = False) -> str:
        """The evidence in one line: ``REFUTED · effect name: +x [lo, hi] · n deals · players``, the
        interval to as many decimals as its width warrants (``verbose``: the sharp reading tested and
        the players' full descriptions on further lines)."""
        from analysis.words import estimate_text

        e = self.effect
        number = "n/a" if math.isnan(e.value) else estimate_text(
            e.value, None if math.isnan(e.lo) else e.lo, None if math.isnan(e.hi) else e.hi)
        players = self.players_in_words
        line = f"{self.verdict.upper()} · {self.effect_name}: {number} · {self.deals:,} deals" + (
            f" · {players}" if players else "")
        if verbose:
            line += f"\ntested: {self.reading}" + (f"\nplayers: {self.players}" if self.players else "")
        return line


def _float(x) -> float:
    """A JSON number back as a float: None (nan or infinite when written) is nan."""
    return math.nan if x is None else float(x)

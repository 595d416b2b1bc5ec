"""Rules a player can carry to the table (docs/playing-rules.md): short decision lists for one
decision of one seat, parsed safely (a tokenizer and a recursive-descent parser, never ``eval``)
and printed back in words.

A rule is lines ``ACTION if CONDITION`` read top to bottom, the first that holds deciding, and a
last line ``otherwise ACTION``. Lines are separated by new lines or ``;``. A condition compares a
feature, or a sum of features, with a number (``>=``, ``<=``, ``>``, ``<``, ``=``, ``!=``), and
joins comparisons with ``and`` / ``or`` (``and`` binds first; brackets group). Each game names
its decisions, their actions and the hand features a condition may use (``Decision``)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from analysis.errors import InputError

OPERATORS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
             "<": lambda a, b: a < b, "=": lambda a, b: a == b, "==": lambda a, b: a == b,
             "!=": lambda a, b: a != b}
OPERATOR_WORDS = {">=": "at least", "<=": "at most", ">": "more than", "<": "fewer than", "=": "exactly",
                  "==": "exactly", "!=": "not"}
_TOKEN = re.compile(r"\s*(>=|<=|==|!=|[<>=+()]|-?\d+|[A-Za-z_][A-Za-z_0-9]*)")


@dataclass(frozen=True)
class Feature:
    """A named hand feature: its words and its value on a hand (the game's own hand object)."""

    name: str
    words: str
    value: Callable


@dataclass(frozen=True)
class Decision:
    """One decision of one seat: its name, its two or more actions, and its features."""

    game: str
    name: str
    actions: tuple[str, ...]
    features: dict[str, Feature]


@dataclass(frozen=True)
class Comparison:
    features: tuple[str, ...]
    op: str
    number: int

    def holds(self, values: dict) -> bool:
        return OPERATORS[self.op](sum(values[f] for f in self.features), self.number)

    def words(self, decision: Decision) -> str:
        what = " plus ".join(decision.features[f].words for f in self.features)
        return f"{what} {OPERATOR_WORDS[self.op]} {self.number}"


@dataclass(frozen=True)
class Join:
    kind: str  # "and" | "or"
    parts: tuple

    def holds(self, values: dict) -> bool:
        return all(p.holds(values) for p in self.parts) if self.kind == "and" else any(
            p.holds(values) for p in self.parts)

    def words(self, decision: Decision) -> str:
        inner = [f"({p.words(decision)})" if isinstance(p, Join) else p.words(decision) for p in self.parts]
        return f" {self.kind} ".join(inner)


@dataclass(frozen=True)
class Rule:
    """A parsed rule: (action, condition) lines and the action otherwise."""

    decision: Decision
    lines: tuple[tuple[str, object], ...]
    otherwise: str

    def action(self, values: dict) -> str:
        """The action for a hand whose feature values are ``values``."""
        for action, condition in self.lines:
            if condition.holds(values):
                return action
        return self.otherwise

    def words(self) -> str:
        """The rule in plain words, one line each."""
        out = [f"{a} if {c.words(self.decision)}" for a, c in self.lines]
        return "\n".join(out + [f"otherwise {self.otherwise}"])

    def text(self) -> str:
        """The rule in its own syntax, normalised (the form ``parse`` reads back)."""
        def form(c) -> str:
            if isinstance(c, Join):
                return f" {c.kind} ".join(f"({form(p)})" if isinstance(p, Join) else form(p) for p in c.parts)
            return f"{' + '.join(c.features)} {c.op} {c.number}"

        return "; ".join([f"{a} if {form(c)}" for a, c in self.lines] + [f"otherwise {self.otherwise}"])

    @property
    def length(self) -> int:
        """Lines, the last (otherwise) included."""
        return len(self.lines) + 1


def parse(decision: Decision, text: str) -> Rule:
    """The rule ``text`` for ``decision``; an InputError (one line) names what is wrong and what
    is valid."""
    lines = [ln.strip() for ln in re.split(r"[;\n]", text) if ln.strip()]
    if not lines:
        raise InputError("a rule needs at least one line: 'otherwise ACTION'")
    body, last = lines[:-1], lines[-1]
    words = last.split()
    if len(words) != 2 or words[0].lower() != "otherwise":
        raise InputError(f"a rule's last line must be 'otherwise ACTION', not {last!r}")
    otherwise = _action(decision, words[1])
    parsed = []
    for ln in body:
        head, _, cond = ln.partition(" if ")
        if not cond:
            raise InputError(f"each line but the last must be 'ACTION if CONDITION', not {ln!r}")
        parsed.append((_action(decision, head.strip()), _Parser(decision, cond).condition()))
    return Rule(decision, tuple(parsed), otherwise)


def _action(decision: Decision, word: str) -> str:
    if word.lower() not in decision.actions:
        raise InputError(f"unknown action {word!r} for {decision.game} {decision.name}: "
                         f"one of {', '.join(decision.actions)}")
    return word.lower()


class _Parser:
    """Recursive descent over one condition's tokens."""

    def __init__(self, decision: Decision, text: str):
        self.decision = decision
        self.text = text
        self.tokens = self._tokens(text)
        self.at = 0

    def _tokens(self, text: str) -> list[str]:
        out, pos = [], 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None:
                raise InputError(f"cannot read {text[pos:].strip()!r} in the condition {text.strip()!r}")
            out.append(m.group(1))
            pos = m.end()
        return out

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> str:
        tok = self._peek()
        if tok is None:
            raise InputError(f"the condition {self.text.strip()!r} ends too soon")
        self.at += 1
        return tok

    def condition(self):
        c = self._or()
        if self._peek() is not None:
            raise InputError(f"unexpected {self._peek()!r} in the condition {self.text.strip()!r}")
        return c

    def _or(self):
        return self._joined("or", self._and)

    def _and(self):
        return self._joined("and", self._atom)

    def _joined(self, kind: str, part):
        """``part`` once, or several joined by ``kind``."""
        parts = [part()]
        while (self._peek() or "").lower() == kind:
            self._take()
            parts.append(part())
        return parts[0] if len(parts) == 1 else Join(kind, tuple(parts))

    def _atom(self):
        if self._peek() == "(":
            self._take()
            c = self._or()
            if self._take() != ")":
                raise InputError(f"a bracket is not closed in the condition {self.text.strip()!r}")
            return c
        features = [self._feature()]
        while self._peek() == "+":
            self._take()
            features.append(self._feature())
        op = self._take()
        if op not in OPERATORS:
            raise InputError(f"expected a comparison (>=, <=, >, <, =, !=) after {' + '.join(features)}, "
                             f"not {op!r}")
        number = self._take()
        if not re.fullmatch(r"-?\d+", number):
            raise InputError(f"expected a number after {op!r}, not {number!r}")
        return Comparison(tuple(features), op, int(number))

    def _feature(self) -> str:
        tok = self._take()
        if not self.decision.features:
            d = self.decision
            raise InputError(f"{d.game} {d.name} rules take no condition: write 'otherwise ACTION' with one of "
                             f"{', '.join(d.actions)}")
        if tok.lower() not in self.decision.features:
            raise InputError(f"unknown feature {tok!r} for {self.decision.game} {self.decision.name}: "
                             f"one of {', '.join(self.decision.features)}")
        return tok.lower()

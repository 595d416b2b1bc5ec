"""How a player wrote his cards, and Piquet cards written back the same way: an answer names the
cards to throw, keep or lead in the hand's own notation.

Three styles (analysis.cards reads them all): book style ``♠A K Q ♥10 8`` (a suit symbol opens
a group of ranks), symbol codes ``A♠ K♠`` and letter codes ``AS KS``. Book style is written suit
by suit (S H D C), high to low, as Cavendish prints hands; the codes keep the order the cards were
typed in (cards that were not typed, such as the other hand's in a line of play, in book order).
With ``lang="de"`` and a German court letter in the hand (B, D), the court cards are written B, D.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from analysis.cards import RANKS, SUIT_SYMBOLS, SUITS, Card, parse_cards
from analysis.errors import InputError
from analysis.piquet.rules import card_of, code_of
from analysis.words import SUIT_SYMBOLS as TYPED_SYMBOLS
from analysis.words import notation

_SYMBOLS = "".join(TYPED_SYMBOLS)
_SPLIT = re.compile(r"[\s,]+")
_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
_GERMAN = {4: "B", 5: "D"}  # RANKS indices of J and Q


def _german_token(token: str) -> bool:
    """Whether a token reads a German court letter as a rank (``B``, ``D``, ``DH``, ``HD``, ``♠D``)."""
    key = "".join(ch for ch in token.upper() if ch not in _SYMBOLS)
    if "B" in key:
        return True
    if key == "D":
        return True
    return len(key) == 2 and "D" in key and key.replace("D", "", 1) in SUITS


@dataclass(frozen=True)
class Notation:
    """A way of writing cards: ``style`` is ``book``, ``symbols`` (``A♠``) or ``codes`` (``AS``);
    ``order`` the codes in the order they were typed; ``german`` writes J and Q as B and D."""

    style: str = "codes"
    order: tuple[int, ...] = ()
    german: bool = False

    def _rank(self, card: Card) -> str:
        return _GERMAN.get(card.rank, RANKS[card.rank]) if self.german else RANKS[card.rank]

    def card(self, code: int) -> str:
        """One card: ``♠A`` (book), ``A♠`` or ``AS``."""
        c = card_of(code)
        if self.style == "book":
            return SUIT_SYMBOLS[c.suit] + self._rank(c)
        return self._rank(c) + (SUIT_SYMBOLS if self.style == "symbols" else SUITS)[c.suit]

    def cards(self, mask: int) -> str:
        """The cards of a mask (``nothing`` when empty)."""
        codes = [c for c in range(32) if mask >> c & 1]
        if not codes:
            return "nothing"
        book = sorted(codes, key=lambda c: (c >> 3, -(c & 7)))
        if self.style == "book":
            groups: list[str] = []
            for suit in range(4):
                ranks = [self._rank(card_of(c)) for c in book if c >> 3 == suit]
                if ranks:
                    groups.append(SUIT_SYMBOLS[suit] + " ".join(ranks))
            return " ".join(groups)
        place = {c: i for i, c in enumerate(self.order)}
        typed = sorted((c for c in codes if c in place), key=place.__getitem__)
        return " ".join(self.card(c) for c in typed + [c for c in book if c not in place])

    def names(self, codes_or_names) -> str:
        """Cards given as codes or as names (``KH``), written in this notation."""
        mask = 0
        for c in codes_or_names:
            mask |= 1 << (c if isinstance(c, int) else code_of(parse_cards(c)[0]))
        return self.cards(mask)


def notation_of(text: str, lang: str | None = None) -> Notation:
    """The notation a hand was typed in (book style when a token starts with a suit symbol)."""
    tokens = [t.translate(_SELECTORS) for t in _SPLIT.split(text.strip()) if t]
    style = notation(text)
    try:
        order = tuple(code_of(c) for c in parse_cards(text, lang=lang))
    except InputError:  # the caller parses the hand itself and reports what is wrong
        order = ()
    german = lang is not None and lang.lower() == "de" and any(_german_token(t) for t in tokens)
    return Notation(style, order, german)


__all__ = ["Notation", "notation_of"]

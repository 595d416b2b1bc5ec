"""Card codes, parsing and printing for the 32-card pack (room for Bezique's 64).

A card is ``Card(rank, suit)`` with ``rank`` an index into RANKS (7 8 9 10 J Q K A, the natural
Piquet order) and ``suit`` an index into SUITS (S H D C). Each game maps cards to its own bit codes.
Cards are NamedTuples: hashable, and they compare by (rank, suit).

Input grammar (docs/rules.md, "Cards:")
----------------------------------

A list is tokens separated by whitespace and/or commas. Case never matters, and emoji
variation selectors (U+FE0E, U+FE0F, as in ``♥️``) are ignored.

    rank    7 8 9 10 T J Q K A          (lang="de": also B = Bube = J, D = Dame = Q)
    letter  S H D C
    symbol  ♠ ♥ ♦ ♣                     (outline ♤ ♡ ♢ ♧ are read as the same suits)

    token   := rank letter | letter rank     a card: KH, hk, 10h, Th, HK, DT
             | rank symbol                   a card: K♥, 10♣, t♣
             | symbol rank                   a card that also OPENS a group: ♥K, ♠A
             | symbol                        a lone symbol: opens a group, no card
             | rank                          a card of the open group: the K in ``♠A K``
             | - or – or —                   right after a lone symbol: that suit is void

Book style (as Cavendish prints hands) is the group rule: ``♠A K J ♥A Q J 8`` and
``♠ A K J ♥ A Q 10`` are AS KS JS AH QH JH 8H and AS KS JS AH QH 10H. A group runs from its
symbol to the next symbol-led token; a card spelled any other way (``KH``, ``K♥``, ``HK``) is
read on its own and CLOSES the group, so ``♠A K KH`` is AS KS KH, while in ``♠A K KH Q`` the
``Q`` is an error (it has no suit). A bare rank with no open group is an error. Only the symbols
open groups: a letter suit followed by ranks (``S A K J``) is rejected, since ``D`` alone could
be a suit or (in German) a rank; write ``♠A K J`` or ``AS KS JS``. Ranks are not run together
(``♠AKJ`` is not read; write ``♠A K J``).

German court letters (``lang="de"``; the default ``lang=None`` or ``"en"`` rejects B and D as
ranks, as docs/rules.md asks, since ``D`` is also diamonds). Every two-part token is tried both ways,
rank-suit and suit-rank, and it is a card when exactly one card results. In de mode the only
letter that is both a rank and a suit is ``D``, so: ``DH`` = ``HD`` = Dame of hearts (QH), ``BD``
= ``DB`` = Bube of diamonds (JD), ``KD`` = king of diamonds, ``D10`` = ten of diamonds, and ``DD``
(read either way) is the Dame of diamonds (QD). A bare ``D`` or ``B`` is a rank, so in book style
``♥A K D B`` is AH KH QH JH. Suits stay the letters S H D C or the symbols in both modes.

Errors are :class:`analysis.errors.InputError` with a one-line message that quotes the token as
given: ``not a card: 'KX'``, ``rank without a suit: 'Q' ...``, ``duplicate card: 'KH' (given
twice)``, ``expected 5 cards, got 4: '...'``.

Game codes
----------

Each game numbers its cards for the kernels' bit masks: ``code = 32 * copy + 8 * suit + rank``,
``rank`` the card's place in that game's rank order, low to high. One :class:`CardCodec` does it
for every game, the rank order being data (``CardCodec(("7", "8", "9", "10", "A", "J", "Q",
"K"))`` for Écarté, ``copies=2`` for Bezique's doubled pack); each ``rules.py`` holds its
``CODEC`` and exports the methods under the old names (``code_of = CODEC.code_of``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from analysis.errors import InputError

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")


class Card(NamedTuple):
    """A card of the 32-card pack: rank and suit indices."""

    rank: int
    suit: int

    def __str__(self) -> str:
        return format_card(self)


PACK: tuple[Card, ...] = tuple(Card(r, s) for s in range(4) for r in range(8))
"""The 32 distinct cards, suit by suit (S H D C), ranks 7 to A within a suit."""

# Spellings (upper case) -> index.
_RANKS_EN = {"7": 0, "8": 1, "9": 2, "10": 3, "T": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
_RANKS_DE = {**_RANKS_EN, "B": 4, "D": 5}
_SUIT_LETTERS = {"S": 0, "H": 1, "D": 2, "C": 3}
_SUIT_SYMS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_VOID = frozenset({"-", "–", "—"})
_SEPARATORS = re.compile(r"[\s,]+")
_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


def _card_table(ranks: dict[str, int]) -> dict[str, tuple[Card, bool]]:
    """Every full-card spelling -> (card, opens a book-style group), checked to be unambiguous."""
    table: dict[str, tuple[Card, bool]] = {}
    for r, ri in ranks.items():
        for s, si in (_SUIT_LETTERS | _SUIT_SYMS).items():
            card = Card(ri, si)
            for spelling, opens in ((r + s, False), (s + r, s in _SUIT_SYMS)):
                seen = table.setdefault(spelling, (card, opens))
                if seen != (card, opens):  # pragma: no cover - a grammar bug, caught at import
                    raise AssertionError(f"ambiguous spelling {spelling!r}: {seen} or {card}")
    return table


_LANGS = {
    "en": (_RANKS_EN, _card_table(_RANKS_EN)),
    "de": (_RANKS_DE, _card_table(_RANKS_DE)),
}


def _lang(lang: str | None) -> tuple[dict[str, int], dict[str, tuple[Card, bool]]]:
    """The rank spellings and card table of a language (None means English)."""
    try:
        return _LANGS["en" if lang is None else lang.lower()]
    except (KeyError, AttributeError):
        raise InputError(f"unknown card language: {lang!r} (use 'en' or 'de')") from None


def _norm(token: str) -> str:
    """The lookup key of a token: trimmed, without variation selectors, upper case."""
    return token.strip().translate(_SELECTORS).upper()


def _not_a_card(token: str, key: str, lang: str | None) -> InputError:
    """The error for a token that is no card, with a hint where one helps."""
    tok = token.strip()
    if key in _SUIT_LETTERS:
        hint = " (a suit letter alone; book style groups ranks under a symbol: ♠A K J)"
    elif key in _SUIT_SYMS:
        hint = " (a suit symbol alone)"
    elif _lang(lang)[0] is _RANKS_EN and (key in _RANKS_DE or key in _LANGS["de"][1]):
        hint = " (German court letters B and D need lang='de')"
    else:
        hint = ""
    return InputError(f"not a card: {tok!r}{hint}")


def parse_card(token: str, *, lang: str | None = None) -> Card:
    """One card, rank then suit or suit then rank: ``KH``, ``K♥``, ``HK``, ``♥K``, ``10h``, ``Th``."""
    ranks, table = _lang(lang)
    key = _norm(token)
    hit = table.get(key)
    if hit is not None:
        return hit[0]
    if key in ranks:
        raise InputError(f"not a card: {token.strip()!r} (a rank without a suit)")
    raise _not_a_card(token, key, lang)


def parse_cards(
    text: str, count: int | None = None, allow_copies: int = 0, *, lang: str | None = None
) -> list[Card]:
    """A list of cards in any spelling of the module grammar, in the order given.

    ``count`` checks the number of cards; ``allow_copies`` is how many times one card may appear
    (0 or 1: distinct cards, the default; 2: Bezique's doubled pack). ``lang="de"`` adds the
    German court letters B and D.
    """
    if allow_copies < 0:
        raise ValueError(f"allow_copies must be >= 0, got {allow_copies}")
    most = max(1, allow_copies)
    ranks, table = _lang(lang)
    cards: list[Card] = []
    copies: dict[Card, int] = {}
    group: int | None = None  # suit of the open book-style group
    after_symbol = False  # the previous token was a lone suit symbol
    for tok in _SEPARATORS.split(text.strip()):
        if not tok:
            continue
        key = _norm(tok)
        hit = table.get(key)
        if hit is not None:
            card, opens = hit
            group = card.suit if opens else None
        elif key in _SUIT_SYMS:
            group, after_symbol = _SUIT_SYMS[key], True
            continue
        elif key in ranks:
            if group is None:
                raise InputError(
                    f"rank without a suit: {tok!r} (write it as in KH or K♥, "
                    "or after a suit symbol as in ♥A K)"
                )
            card = Card(ranks[key], group)
        elif key in _VOID and after_symbol:
            group, after_symbol = None, False  # "♠ —": no spades
            continue
        else:
            raise _not_a_card(tok, key, lang)
        after_symbol = False
        n = copies[card] = copies.get(card, 0) + 1
        if n > most:
            name = format_card(card)
            what = "" if _norm(name) == key else f"{name}, "
            times = "twice" if n == 2 else f"{n} times"
            limit = "" if most == 1 else f"; at most {most} allowed"
            raise InputError(f"duplicate card: {tok!r} ({what}given {times}{limit})")
        cards.append(card)
    if count is not None and len(cards) != count:
        raise InputError(f"expected {count} cards, got {len(cards)}: {text.strip()!r}")
    return cards


def format_card(card: Card, symbols: bool = False) -> str:
    """``KH`` (or ``K♥`` with ``symbols``); tens are ``10H``."""
    return RANKS[card.rank] + (SUIT_SYMBOLS if symbols else SUITS)[card.suit]


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Cards joined by spaces, in the order given."""
    return " ".join(format_card(c, symbols) for c in cards)


_NATURAL_HIGH_FIRST = (7, 6, 5, 4, 3, 2, 1, 0)  # A K Q J 10 9 8 7


def format_book(cards: Iterable[Card], rank_order: Sequence[int | str] | None = None) -> str:
    """Cards in book style, ``♠A K J ♥A Q J 8``: suits S H D C, void suits left out.

    Within a suit ranks go high to low, A K Q J 10 9 8 7, unless ``rank_order`` gives another
    order: all eight ranks, highest first, as RANKS indices or names (for Écarté:
    ``("K", "Q", "J", "A", "10", "9", "8", "7")``). Copies (Bezique) are printed each time.
    The result parses back with :func:`parse_cards`.
    """
    if rank_order is None:
        order = _NATURAL_HIGH_FIRST
    else:
        order = tuple(
            r if isinstance(r, int) else _RANKS_EN.get(str(r).upper(), -1) for r in rank_order
        )
        if sorted(order) != list(range(8)):
            raise ValueError(f"rank_order must list each of the 8 ranks once, got {rank_order!r}")
    place = {r: i for i, r in enumerate(order)}
    by_suit: list[list[int]] = [[], [], [], []]
    for c in cards:
        by_suit[c.suit].append(c.rank)
    groups = []
    for s, ranks in enumerate(by_suit):
        if ranks:
            ranks.sort(key=place.__getitem__)
            groups.append(SUIT_SYMBOLS[s] + " ".join(RANKS[r] for r in ranks))
    return " ".join(groups)


@dataclass(frozen=True)
class CardCodec:
    """A game's card codes: ``code = 32 * copy + 8 * suit + rank``, ``rank`` the card's index in
    ``ranks`` (the game's rank order, low to high, as RANKS names); ``copies`` is 1, or 2 for a
    doubled pack (Bezique), whose second copy of a card is the first's code + 32.

    Masks set bit ``code`` for each card. The face of a code is ``code & 31``: both copies of a
    card share it, and they print alike.
    """

    ranks: tuple[str, ...]
    copies: int = 1
    _to_code: tuple[int, ...] = field(init=False, repr=False, compare=False)  # RANKS index -> rank
    _to_card: tuple[int, ...] = field(init=False, repr=False, compare=False)  # rank -> RANKS index

    def __post_init__(self) -> None:
        ranks = tuple(self.ranks)
        if len(ranks) != len(RANKS) or set(ranks) != set(RANKS):
            raise ValueError(f"ranks must list each of {' '.join(RANKS)} once, got {self.ranks!r}")
        if self.copies not in (1, 2):
            raise ValueError(f"copies must be 1 or 2, got {self.copies!r}")
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "_to_code", tuple(ranks.index(r) for r in RANKS))
        object.__setattr__(self, "_to_card", tuple(RANKS.index(r) for r in ranks))

    @property
    def size(self) -> int:
        """How many codes there are: 32 per copy."""
        return 32 * self.copies

    @property
    def book_order(self) -> tuple[str, ...]:
        """The ranks high to low, for :func:`format_book`'s ``rank_order``."""
        return self.ranks[::-1]

    def code_of(self, card: Card, copy: int = 0) -> int:
        """The code of a :class:`Card`, of its first copy (0) or, in a doubled pack, its second (1)."""
        if copy not in range(self.copies):
            allowed = " or ".join(str(c) for c in range(self.copies))
            raise ValueError(f"copy must be {allowed}, got {copy}")
        return 32 * copy + 8 * card.suit + self._to_code[card.rank]

    def card_of(self, code: int) -> Card:
        """The :class:`Card` of a code (both copies give the same card)."""
        if not 0 <= code < 32 * self.copies:
            raise ValueError(f"not a card code: {code} (codes are 0..{32 * self.copies - 1})")
        return Card(self._to_card[code & 7], (code >> 3) & 3)

    def face_of(self, code: int) -> int:
        """The face of a code: the code of its first copy (0..31)."""
        return code & 31

    def name_of(self, code: int, symbols: bool = False) -> str:
        """A code printed as ``KH`` (or ``K♥`` with ``symbols``); both copies print alike."""
        return format_card(self.card_of(code), symbols)

    def mask_of(self, cards: Iterable[Card]) -> int:
        """The bit mask of some cards. In a doubled pack a card given again takes its next copy;
        a card given more often than the pack holds it sets no new bit."""
        m = 0
        for c in cards:
            code = self.code_of(c)
            for _ in range(self.copies - 1):
                if not m >> code & 1:
                    break
                code += 32
            m |= 1 << code
        return m

    def codes_of_mask(self, mask: int) -> list[int]:
        """The codes in a mask, ascending."""
        return [c for c in range(32 * self.copies) if mask >> c & 1]

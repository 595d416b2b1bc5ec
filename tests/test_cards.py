"""Card parsing and printing (analysis/cards.py): every spelling, book style, de mode, errors."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cards import (
    PACK,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardCodec,
    format_book,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from analysis.errors import InputError

OUTLINE = ("♤", "♡", "♢", "♧")


def rank_spellings(rank: int, lang: str = "en") -> list[str]:
    """Every accepted way to write a rank (upper case)."""
    out = [RANKS[rank]] + (["T"] if rank == 3 else [])
    if lang == "de":
        out += {4: ["B"], 5: ["D"]}.get(rank, [])
    return out


def suit_spellings(suit: int) -> list[str]:
    return [SUITS[suit], SUIT_SYMBOLS[suit], OUTLINE[suit], SUIT_SYMBOLS[suit] + "\ufe0f"]


def all_spellings(card: Card, lang: str = "en") -> list[str]:
    """Every accepted single-token spelling of a card, in both orders and three cases."""
    out = []
    for r in rank_spellings(card.rank, lang):
        for s in suit_spellings(card.suit):
            for tok in (r + s, s + r):
                out += [tok, tok.lower(), tok[0].lower() + tok[1:]]
    return out


# --- single cards -------------------------------------------------------------------------------


def test_pack_is_32_distinct_hashable_comparable_cards():
    assert len(set(PACK)) == 32
    assert max(PACK) == Card(7, 3)  # compares by (rank, suit)
    assert Card(7, 0) > Card(6, 3)
    assert {Card(6, 1): "KH"}[parse_card("KH")] == "KH"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_spelling_of_every_card_parses(lang):
    for card in PACK:
        for tok in all_spellings(card, lang):
            assert parse_card(tok, lang=lang) == card, tok
            assert parse_cards(tok, lang=lang) == [card], tok


@pytest.mark.parametrize("symbols", [False, True])
def test_format_then_parse_round_trips(symbols):
    for card in PACK:
        text = format_card(card, symbols)
        assert parse_card(text) == card
        assert parse_card(text, lang="de") == card
    assert parse_cards(format_cards(PACK, symbols), count=32) == list(PACK)


def test_format_card_examples():
    kh, th = Card(6, 1), Card(3, 1)
    assert format_card(kh) == "KH" and str(kh) == "KH"
    assert format_card(kh, symbols=True) == "K♥"
    assert format_card(th) == "10H" and format_card(th, True) == "10♥"
    assert format_cards([kh, th], symbols=True) == "K♥ 10♥"


@pytest.mark.parametrize(
    "tok, want",
    [
        ("KH", "KH"),
        ("K♥", "KH"),
        ("HK", "KH"),
        ("♥K", "KH"),
        ("10h", "10H"),
        ("Th", "10H"),
        ("t♣", "10C"),
        ("h10", "10H"),
        ("as", "AS"),
        ("SA", "AS"),
        ("7d", "7D"),
        ("♦7", "7D"),
        ("♥️K", "KH"),
        ("♡q", "QH"),
        (" jc ", "JC"),
    ],
)
def test_spelling_examples(tok, want):
    assert format_card(parse_card(tok)) == want


# --- lists --------------------------------------------------------------------------------------

separators = st.sampled_from([" ", ",", ", ", " , ", "  ", "\t", "\n", ",,", " ,\n"])


@st.composite
def spelled_list(draw, lang="en", copies=1):
    """(cards, text): a random hand in random order, each card spelled at random."""
    pool = [c for c in PACK for _ in range(copies)]
    cards = draw(st.lists(st.sampled_from(range(len(pool))), unique=True, max_size=len(pool)))
    cards = [pool[i] for i in cards]
    parts = []
    for i, card in enumerate(cards):
        if i:
            parts.append(draw(separators))
        parts.append(draw(st.sampled_from(all_spellings(card, lang))))
    lead, trail = draw(st.sampled_from(["", " ", ", "])), draw(st.sampled_from(["", " ", ","]))
    return cards, lead + "".join(parts) + trail


@settings(max_examples=150, deadline=None)
@given(spelled_list())
def test_lists_in_random_order_and_separators(case):
    cards, text = case
    assert parse_cards(text, count=len(cards)) == cards
    assert parse_cards(text, lang="de") == cards


@settings(max_examples=75, deadline=None)
@given(spelled_list(lang="de"))
def test_lists_in_de_mode(case):
    cards, text = case
    assert parse_cards(text, lang="de") == cards


@settings(max_examples=75, deadline=None)
@given(spelled_list(copies=2))
def test_bezique_copies(case):
    cards, text = case
    assert parse_cards(text, allow_copies=2) == cards
    if any(n == 2 for n in Counter(cards).values()):
        with pytest.raises(InputError, match="duplicate card"):
            parse_cards(text)


# --- book style ---------------------------------------------------------------------------------


def test_cavendish_book_style():
    want = parse_cards("AS KS JS AH QH JH 8H")
    assert parse_cards("♠A K J ♥A Q J 8") == want
    assert parse_cards("♠ A K J ♥ A Q J 8", count=7) == want
    assert parse_cards("♠A, K, J, ♥A, Q, J, 8") == want
    assert parse_cards("♠ A K J ♥ A Q 10") == parse_cards("AS KS JS AH QH 10H")
    assert format_book(want) == "♠A K J ♥A Q J 8"


def test_book_style_mixed_with_card_tokens():
    assert parse_cards("♠A K KH") == parse_cards("AS KS KH")
    assert parse_cards("♠A K K♥ ♦Q") == parse_cards("AS KS KH QD")
    assert parse_cards("7C ♠A K") == parse_cards("7C AS KS")
    # a card spelled any other way closes the group
    with pytest.raises(InputError, match=r"rank without a suit: 'Q'"):
        parse_cards("♠A K KH Q")
    with pytest.raises(InputError, match=r"rank without a suit: 'J'"):
        parse_cards("A♠ J")


def test_book_style_void_suit():
    assert parse_cards("♠ — ♥A K") == parse_cards("AH KH")
    assert parse_cards("♠ - ♥ A") == parse_cards("AH")
    with pytest.raises(InputError, match="rank without a suit: '8'"):
        parse_cards("♠ — 8")
    with pytest.raises(InputError, match="not a card: '-'"):
        parse_cards("♠A -")


@st.composite
def book_text(draw):
    """(cards, text): a random hand written in book style, suits in any order, loose spacing."""
    cards = draw(st.lists(st.sampled_from(PACK), unique=True))
    by_suit = {s: [c for c in cards if c.suit == s] for s in range(4)}
    suits = draw(st.permutations(range(4)))
    parts = []
    for s in suits:
        group = draw(st.permutations(by_suit[s]))
        if not group:
            continue
        symbol = draw(st.sampled_from([SUIT_SYMBOLS[s], OUTLINE[s]]))
        ranks = [draw(st.sampled_from(rank_spellings(c.rank))) for c in group]
        ranks = [draw(st.sampled_from([r, r.lower()])) for r in ranks]
        attach = draw(st.booleans())
        head = [symbol + ranks[0]] + ranks[1:] if attach else [symbol] + ranks
        parts.append(draw(separators).join(head))
    return cards, " ".join(parts)


@settings(max_examples=150, deadline=None)
@given(book_text())
def test_book_style_random(case):
    cards, text = case
    assert Counter(parse_cards(text)) == Counter(cards)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(PACK), unique=True))
def test_format_book_round_trips(cards):
    text = format_book(cards)
    parsed = parse_cards(text)
    assert Counter(parsed) == Counter(cards)
    # suits S H D C, ranks high to low
    assert parsed == sorted(cards, key=lambda c: (c.suit, -c.rank))


def test_format_book_rank_order_and_copies():
    hand = parse_cards("AH KH 10H 7S JS")
    assert format_book(hand) == "♠J 7 ♥A K 10"
    ecarte = ("K", "Q", "J", "A", "10", "9", "8", "7")
    assert format_book(hand, rank_order=ecarte) == "♠J 7 ♥K A 10"
    assert format_book(hand, rank_order=[6, 5, 4, 7, 3, 2, 1, 0]) == "♠J 7 ♥K A 10"
    assert format_book([]) == ""
    assert format_book(parse_cards("AS AS KS", allow_copies=2)) == "♠A A K"
    with pytest.raises(ValueError):
        format_book(hand, rank_order=("K", "Q"))


# --- German court letters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tok, want",
    [
        ("DH", "QH"),
        ("HD", "QH"),
        ("DD", "QD"),
        ("BD", "JD"),
        ("DB", "JD"),
        ("KD", "KD"),
        ("D10", "10D"),
        ("dt", "10D"),
        ("B♠", "JS"),
        ("♠B", "JS"),
        ("D♦", "QD"),
        ("♦D", "QD"),
        ("QH", "QH"),
        ("JD", "JD"),
        ("bc", "JC"),
    ],
)
def test_de_tokens(tok, want):
    assert format_card(parse_card(tok, lang="de")) == want


def test_de_book_style_and_bare_letters():
    assert parse_cards("♥A K D B", lang="de") == parse_cards("AH KH QH JH")
    assert parse_cards("♦ D B 10", lang="de") == parse_cards("QD JD 10D")
    assert parse_cards("DD BD", lang="DE") == parse_cards("QD JD")
    with pytest.raises(InputError, match="rank without a suit: 'D'"):
        parse_cards("D", lang="de")


def test_de_letters_need_de_mode():
    for tok in ("BH", "DH", "DD", "HB"):
        with pytest.raises(InputError, match=f"not a card: '{tok}'.*lang='de'"):
            parse_card(tok)
    with pytest.raises(InputError, match="not a card: 'B'"):
        parse_cards("♥A B")
    assert parse_card("KD") == Card(6, 2)  # D is diamonds in both modes


def test_unknown_language():
    with pytest.raises(InputError, match="unknown card language: 'fr'"):
        parse_cards("KH", lang="fr")


# --- errors name the token ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("KX", "not a card: 'KX'"),
        ("AS KX 7D", "not a card: 'KX'"),
        ("11H", "not a card: '11H'"),
        ("KHH", "not a card: 'KHH'"),
        ("♠AKJ", "not a card: '♠AKJ'"),
        ("S A K J", "not a card: 'S' (a suit letter alone"),
        ("K", "rank without a suit: 'K'"),
        ("AS, 10", "rank without a suit: '10'"),
        ("KH kh", "duplicate card: 'kh' (given twice)"),
        ("KH K♥", "duplicate card: 'K♥' (KH, given twice)"),
        ("♥A K KH", "duplicate card: 'KH' (given twice)"),
    ],
)
def test_errors_name_the_token(text, message):
    with pytest.raises(InputError) as err:
        parse_cards(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_too_many_copies():
    assert parse_cards("KH KH", allow_copies=2) == [Card(6, 1)] * 2
    with pytest.raises(InputError, match=r"duplicate card: 'hk' \(KH, given 3 times; at most 2"):
        parse_cards("KH ♥K hk", allow_copies=2)
    with pytest.raises(ValueError):
        parse_cards("KH", allow_copies=-1)
    assert parse_cards("KH QH", allow_copies=1) == parse_cards("KH QH")
    with pytest.raises(InputError, match="duplicate card"):
        parse_cards("KH KH", allow_copies=1)


def test_wrong_hand_size():
    with pytest.raises(InputError, match="expected 5 cards, got 4"):
        parse_cards("AS KS QS JS", count=5)
    with pytest.raises(InputError, match="expected 5 cards, got 6"):
        parse_cards("♠A K Q J 10 9", count=5)
    with pytest.raises(InputError, match="expected 5 cards, got 0"):
        parse_cards(" , ", count=5)
    assert parse_cards("") == []


def test_parse_card_errors():
    with pytest.raises(InputError, match=r"not a card: 'K' \(a rank without a suit\)"):
        parse_card("K")
    with pytest.raises(InputError, match="not a card: '♠'"):
        parse_card("♠")
    with pytest.raises(InputError, match="not a card: ''"):
        parse_card("")
    with pytest.raises(InputError, match="not a card: 'KH QH'"):
        parse_card("KH QH")


def test_every_bad_two_char_token_is_rejected():
    """Exhaustive: a two-character token is a card exactly when it is one of the spellings."""
    alphabet = "".join(RANKS) + "TBXSHDC♠♥♦♣"
    good = {tok for card in PACK for tok in all_spellings(card)}
    for a, b in itertools.product(alphabet, repeat=2):
        tok = a + b
        if tok in good:
            continue
        with pytest.raises(InputError, match="not a card"):
            parse_card(tok)


# --- each game's card codes (analysis/*/rules.py, one CardCodec) ---------------------------------

# Each game's codes in code order: suits S H D C, and within a suit the ranks low to high in that
# game's trick order (RULES.md PQ-DECK, EC-DECK, BZ-DECK read from the low end). Bezique's second
# copy of a card is its first copy's code + 32. These tables pin what the per-game functions gave
# before they became one codec (the refactor of issue #14).
CODE_ORDER = {
    "piquet": ("7 8 9 10 J Q K A", 1),
    "ecarte": ("7 8 9 10 A J Q K", 1),
    "bezique": ("7 8 9 J Q K 10 A", 2),
}
GAMES = tuple(CODE_ORDER)


def game_rules(game: str):
    import importlib

    return importlib.import_module(f"analysis.{game}.rules")


def code_names(game: str) -> list[str]:
    """The card names of a game's codes 0, 1, 2, ... (both copies for Bezique)."""
    ranks, copies = CODE_ORDER[game]
    return [r + s for s in SUITS for r in ranks.split()] * copies


@pytest.mark.parametrize("game", GAMES)
def test_game_codes_of_every_card(game):
    rules = game_rules(game)
    copies = CODE_ORDER[game][1]
    for code, name in enumerate(code_names(game)):
        card, copy = parse_card(name), code // 32
        assert rules.name_of(code) == name
        assert rules.name_of(code, True) == rules.name_of(code, symbols=True) == format_card(card, True)
        assert rules.card_of(code) == card
        assert (rules.code_of(card, copy) if copies > 1 else rules.code_of(card)) == code
    assert sorted(rules.code_of(c) for c in PACK) == list(range(32))


@pytest.mark.parametrize("game", ["piquet", "ecarte"])
def test_game_masks(game):
    rules = game_rules(game)
    names = code_names(game)
    for code, name in enumerate(names):
        assert rules.mask_of([parse_card(name)]) == 1 << code
    assert rules.mask_of(PACK) == (1 << 32) - 1
    assert rules.mask_of([]) == 0
    hand = parse_cards("KH 7S AD 10C QH")
    mask = rules.mask_of(hand)
    assert rules.codes_of_mask(mask) == sorted(rules.code_of(c) for c in hand)
    assert [names[c] for c in rules.codes_of_mask(mask)] == sorted(
        (format_card(c) for c in hand), key=names.index)
    assert rules.mask_of(hand + hand[:2]) == mask  # a card given twice is one bit
    assert rules.codes_of_mask(0) == []
    assert rules.codes_of_mask((1 << 32) - 1) == list(range(32))


def test_bezique_copies_and_faces():
    rules = game_rules("bezique")
    for code in range(64):
        assert rules.face_of(code) == code & 31
        assert rules.card_of(code) == rules.card_of(code & 31)
    queen = parse_card("QS")
    assert (rules.code_of(queen), rules.code_of(queen, 1)) == (4, 36)
    for bad in (2, -1):
        with pytest.raises(ValueError, match=f"copy must be 0 or 1, got {bad}"):
            rules.code_of(queen, bad)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_one_codec(game):
    """Every rules.py card function is its CODEC's method, the rank order data of the codec."""
    rules = game_rules(game)
    ranks, copies = CODE_ORDER[game]
    assert rules.CODEC == CardCodec(tuple(ranks.split()), copies)
    assert rules.CODEC.size == 32 * copies
    assert rules.CODEC.book_order == tuple(reversed(ranks.split()))
    for name in ("code_of", "card_of", "mask_of", "codes_of_mask", "name_of", "face_of"):
        assert getattr(rules, name, None) in (None, getattr(rules.CODEC, name))
    with pytest.raises(ValueError, match="not a card code"):
        rules.card_of(32 * copies)
    with pytest.raises(ValueError, match="not a card code"):
        rules.card_of(-1)


def test_bezique_masks_take_the_next_copy():
    codec = game_rules("bezique").CODEC
    qs, jd = parse_card("QS"), parse_card("JD")
    assert codec.mask_of([qs]) == 1 << 4
    assert codec.mask_of([qs, jd, qs]) == 1 << 4 | 1 << 36 | 1 << codec.code_of(jd)
    assert codec.mask_of([qs, qs, qs]) == codec.mask_of([qs, qs])
    hand = parse_cards("QS QS JD 10H AH AH", allow_copies=2)
    codes = codec.codes_of_mask(codec.mask_of(hand))
    assert len(codes) == 6 and max(codes) >= 32
    assert sorted(codec.name_of(c) for c in codes) == sorted(format_card(c) for c in hand)
    assert codec.codes_of_mask((1 << 64) - 1) == list(range(64))
    assert format_book(hand, codec.book_order) == "♠Q Q ♥A A 10 ♦J"


def test_codec_checks_its_ranks_and_copies():
    natural = CardCodec(RANKS)
    assert [natural.code_of(c) for c in PACK] == list(range(32))  # PACK is in natural code order
    assert [natural.card_of(i) for i in range(32)] == list(PACK)
    with pytest.raises(ValueError, match="copy must be 0, got 1"):
        natural.code_of(PACK[0], 1)
    for bad in (RANKS[:7], RANKS[:7] + ("7",), ("T",) + RANKS[1:]):
        with pytest.raises(ValueError, match="ranks must list each"):
            CardCodec(bad)
    with pytest.raises(ValueError, match="copies must be 1 or 2"):
        CardCodec(RANKS, copies=3)

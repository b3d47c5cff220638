"""The grammar compiles in Lark's strict mode, the parser is built once, card codes read."""

from __future__ import annotations

import pytest
from lark import Lark

from tarotnotation.cards import Card
from tarotnotation.notation import code_table, loads, parse_card, parser
from tarotnotation.notation.cardcodes import CardCodeError, card_code
from tarotnotation.notation.reader import grammar_text


def test_grammar_compiles_in_strict_mode() -> None:
    # strict=True refuses shift/reduce conflicts and terminals that collide in a state.
    lark = Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)
    assert lark.options.parser == "lalr"


def test_strict_mode_would_refuse_a_collision() -> None:
    # The check above is not vacuous: the same grammar with a colliding terminal fails.
    broken = grammar_text().replace(
        "EMPTY: \"-\"", "EMPTY: \"-\"\nBADSEAT: /[A-Z]+:/"
    ).replace("hand: HAND_KW SEATLABEL cards", "hand: HAND_KW (SEATLABEL | BADSEAT) cards")
    with pytest.raises(Exception, match=r"[Cc]ollision"):
        Lark(broken, parser="lalr", lexer="contextual", strict=True)


def test_parser_is_built_once() -> None:
    assert parser() is parser()


def test_every_canonical_code_reads_back() -> None:
    for card in Card:
        assert parse_card(card.code) is card
        assert parse_card(card.code.lower()) is card


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("RH", "KH"), ("rh", "KH"), ("DS", "QS"), ("C♣", "NC"), ("VD", "JD"),
        ("K♥", "KH"), ("10♠", "10S"), ("D♣", "QC"), ("7♦", "7D"), ("1♡", "1H"),
        ("t21", "T21"), ("T1", "T1"), ("ex", "EX"), ("Ex", "EX"),
    ],
)
def test_aliases(word: str, code: str) -> None:
    card = parse_card(word)
    assert card is not None
    assert card.code == code


@pytest.mark.parametrize("word", ["T22", "T0", "0H", "11S", "KX", "E", "AS", "ZZ", ""])
def test_not_cards(word: str) -> None:
    assert parse_card(word) is None
    with pytest.raises(CardCodeError, match="is not a card: expected a card such as 7H"):
        card_code(word)


def test_code_table_lists_every_plain_card_once() -> None:
    table = code_table()
    for card in Card:
        if card.suit.is_plain:
            assert f" {card.code} |" in table


def test_aliases_in_text() -> None:
    rec = loads('[Players "4"]\ncall: R♥\n')
    assert rec.call is not None
    assert rec.call.card is Card.HK


def test_seat_ids_that_look_like_keywords_or_cards() -> None:
    # Seat ids may be any model seat id, even a card code or a keyword.
    text = (
        '[Players "4"]\n[Seats "EX, result, T1, play"]\n'
        "auction: EX:pass result:garde T1:pass play:pass\n"
        "play:\n 1. (result) result:7H T1:8H play:9H EX:10H\n"
        "result: garde taker result scores EX-64 result+192 T1-64 play-64\n"
    )
    rec = loads(text)
    assert rec.seat_ids == ("EX", "result", "T1", "play")
    assert rec.play[0].leader == "result"
    assert [pc.seat for pc in rec.play[0].cards] == ["result", "T1", "play", "EX"]
    assert rec.result is not None
    assert rec.result.taker == "result"

"""The notation's words live in tarotnotation/lexicon.py: the grammar, filled in from it,
the fast scanner and the card table read every spelling it lists, and the same record.
"""

from __future__ import annotations

import re

import pytest

from tarotnotation import lexicon
from tarotnotation.notation import parse_record
from tarotnotation.notation.cardcodes import WORDS

HEAD = '[Players "4"]\n'


def _both(text: str) -> tuple[object, object]:
    grammar = parse_record(text, fast=False)
    fast = parse_record(text)
    assert grammar.ok, [str(d) for d in grammar.diagnostics]
    assert fast.record == grammar.record
    return grammar.record, fast.record


def test_the_grammar_has_every_place_filled() -> None:
    text = lexicon.grammar_text()
    assert re.findall(r"@[A-Z_]+@", text) == []
    for name in lexicon.KEYWORDS:
        assert re.search(rf"^{name}: ", text, re.MULTILINE), name


@pytest.mark.parametrize("word", sorted(lexicon.BIDS))
def test_every_bid_word_is_read(word: str) -> None:
    for spelt in (word, word.upper()):
        rec, _ = _both(HEAD + f"auction: pass {spelt} pass pass\n")
        bid = rec.auction[1].contract  # type: ignore[attr-defined]
        assert (bid.keyword if bid is not None else "pass") == lexicon.BIDS[word]


@pytest.mark.parametrize("word", sorted(lexicon.CAMPS))
def test_every_camp_word_is_read(word: str) -> None:
    rec, _ = _both(HEAD + f"result: garde taker E points 48 bouts 2 petit_au_bout {word}\n")
    assert rec.result.petit_au_bout.value == lexicon.CAMPS[word]  # type: ignore[attr-defined]


@pytest.mark.parametrize("word", sorted(lexicon.MISERES))
def test_every_misere_word_is_read(word: str) -> None:
    rec, _ = _both('[Players "4"] [Ruleset "fft misere=on"]\n'
                   f"misère E {word}\nresult: garde taker S points 48 bouts 2\n")
    assert rec.declarations[0].misere.value == lexicon.MISERES[word]  # type: ignore[attr-defined]


#: A record that reads each keyword spelling where it is expected ({kw} stands for it).
USES: dict[str, str] = {
    "hand": "{kw} S: -\n", "hands:": "{kw} -\n", "chien:": "{kw} -\n",
    "auction:": "{kw} garde\n", "call:": "{kw} KH\n", "ecart:": "{kw} -\n",
    "écart:": "{kw} -\n", "shown:": "ecart: - {kw} -\n",
    "poignee": "{kw} E simple\n", "poignée": "{kw} E simple\n", "chelem": "{kw} S\n",
    "misere": "{kw} E atout\n", "misère": "{kw} E atout\n", "play:": "{kw}\n",
    "result:": "{kw} garde\n", "taker": "result: {kw} S\n",
    "partner": "result: {kw} S\n", "points": "result: {kw} 40\n",
    "bouts": "result: {kw} 1\n", "petit_au_bout": "result: {kw} taker\n",
    "annulled": "result: {kw}\n", "scores": "result: {kw} S+0 E+0 N+0 W+0\n",
}


@pytest.mark.parametrize("keyword", sorted({w for ws in lexicon.KEYWORDS.values() for w in ws}))
def test_every_keyword_spelling_is_read_in_any_case(keyword: str) -> None:
    for spelt in (keyword, keyword.upper()):
        parsed = parse_record(HEAD + USES[keyword].format(kw=spelt), fast=False)
        syntax = [str(d) for d in parsed.diagnostics if d.code.value.startswith("S")]
        assert syntax == [], (spelt, syntax)


def test_a_word_the_lexicon_does_not_list_is_not_read() -> None:
    for text in ("auction: pass gardez\n", "result: garde taker S petit_au_bout attack\n",
                 "poignee E quadruple\n", "chein: -\n"):
        parsed = parse_record(HEAD + text, fast=False)
        assert parsed.record is None, text
        assert parsed.diagnostics[0].code.value in ("S001", "S006"), text  # syntax, value


def test_every_card_word_matches_the_grammars_card() -> None:
    card = re.compile(lexicon.CARD_PATTERN, re.IGNORECASE)
    for word in WORDS:
        assert card.fullmatch(word), word
        assert card.fullmatch(word.lower()), word
    for word in ("T0", "T22", "11H", "0S", "KX", "EXX", "XH"):
        assert not card.fullmatch(word), word


def test_every_section_keyword_opens_its_section() -> None:
    for word, place in lexicon.SECTIONS.items():
        name = lexicon.SECTION_ORDER[place - 1][0]
        assert any(word in lexicon.KEYWORDS[t] for t in lexicon.SECTION_ORDER[place - 1][1])
        assert name

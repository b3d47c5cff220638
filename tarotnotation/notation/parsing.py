"""The Lark parser of one record of the notation (``grammar/tarot.lark``, its words from
:mod:`tarotnotation.lexicon`), built once a process, with the transformer applied while
parsing (no parse tree is built). :mod:`tarotnotation.notation.reader` reads with it."""

from __future__ import annotations

import _thread
from typing import TYPE_CHECKING, Any

from .. import lexicon
from ..lexicon import uncomment

if TYPE_CHECKING:
    # The grammar (lark) and the model (pydantic) are imported by the functions that use
    # them: a plain record the fast scanner reads and the quick check judges needs neither.
    from lark import Lark, Token


__all__ = ["grammar_text", "parser"]

# --- the parser, built once per process ---------------------------------------------------


def grammar_text() -> str:
    """The grammar of one record: ``grammar/tarot.lark`` (installed as
    ``tarotnotation.grammar``) with its words filled in from :mod:`tarotnotation.lexicon`."""
    return lexicon.grammar_text()


_Child = Any


class _Build:
    """Applied while parsing: packs each rule's children, keeping tokens for positions
    (a lark ``Transformer`` once the parser is built: :func:`parser`)."""

    def start(self, c: list[_Child]) -> list[_Child]:
        return c

    def annotation(self, c: list[Token]) -> tuple[str | None, tuple[str, ...]]:
        glyph = None
        if c and c[0].type == "GLYPH":
            glyph = str(c[0])
            c = c[1:]
        return glyph, tuple(_uncomment(t) for t in c)

    def hands(self, c: list[_Child]) -> tuple[str, Any]:
        return "hands", c

    def no_hands(self, c: list[Token]) -> tuple[str, Any]:
        return "hands", c[0]

    def hand(self, c: list[_Child]) -> tuple[Token, Token, Any]:
        return c[0], c[1], c[2]

    def cards(self, c: list[Token]) -> list[Token]:
        return c  # one CARDS token: the whole run

    def no_cards(self, c: list[Token]) -> list[Token]:
        return []

    def chien(self, c: list[_Child]) -> tuple[str, Any]:
        return "chien", c

    def auction(self, c: list[_Child]) -> tuple[str, Any]:
        return "auction", c

    def bid(self, c: list[_Child]) -> tuple[Token, Any]:
        return c[0], c[1]

    def call(self, c: list[_Child]) -> tuple[str, Any]:
        return "call", c

    def ecart(self, c: list[_Child]) -> tuple[str, Any]:
        return "ecart", c

    def shown(self, c: list[_Child]) -> tuple[str, Any]:
        return "shown", c[0]

    def poignee_cards(self, c: list[_Child]) -> tuple[str, Any]:
        return "declaration", ("poignee", c[0], c[1], None, c[2], c[3])

    def poignee_size(self, c: list[_Child]) -> tuple[str, Any]:
        cards = c[3] if len(c) == 5 else None
        return "declaration", ("poignee", c[0], c[1], c[2], cards, c[-1])

    def chelem(self, c: list[_Child]) -> tuple[str, Any]:
        return "declaration", ("chelem", c[0], c[1], None, None, c[2])

    def misere(self, c: list[_Child]) -> tuple[str, Any]:
        return "declaration", ("misere", c[0], c[1], c[2], None, c[3])

    def play(self, c: list[_Child]) -> tuple[str, Any]:
        return "play", c

    def trick(self, c: list[_Child]) -> tuple[Token, Token | None, Any, list[Any]]:
        if not isinstance(c[1], tuple):  # the leader's token, else the trick's note
            return c[0], c[1], c[2], c[3:]
        return c[0], None, c[1], c[2:]

    def played(self, c: list[_Child]) -> tuple[Token, Any]:
        return c[0], c[1]

    def result(self, c: list[_Child]) -> tuple[str, Any]:
        return "result", c

    def r_contract(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "contract", c

    def r_taker(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "taker", c

    def r_partner(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "partner", c

    def r_points(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "taker_points", c

    def r_bouts(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "bouts", c

    def r_petit(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "petit_au_bout", c

    def r_chelem(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "chelem", c[1:]

    def r_annulled(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "annulled", c

    def r_scores(self, c: list[Token]) -> tuple[str, list[Token]]:
        return "scores", c


_PARSER: Lark | None = None
_LOCK = _thread.allocate_lock()  # (threading.Lock, without importing threading)


def parser() -> Lark:
    """The LALR parser of one record, built on first use and kept for the process.

    >>> parser() is parser()
    True
    """
    global _PARSER
    if _PARSER is None:
        from lark import Lark, Transformer

        class Build(_Build, Transformer[Any, Any]):
            pass

        with _LOCK:
            if _PARSER is None:
                _PARSER = Lark(
                    grammar_text(),
                    parser="lalr",
                    lexer="contextual",
                    transformer=Build(),
                    start=["start", "result"],
                    cache=True,
                    maybe_placeholders=False,
                )
    return _PARSER


def _uncomment(token: Token) -> str:
    return uncomment(token[1:-1])


"""A record's faults at their place (:mod:`tarotnotation.notation.reader`):
:class:`RecordContext` collects what one record's build finds, each fault with its line,
column and the line shown with a caret (:func:`caret`); :func:`syntax_fault` says Lark's
syntax errors in Tarot words (what was found, what was expected there)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from ..diagnostics import Code, Diagnostic, Severity, quote
from ..i18n import Msg, Quoted, or_list
from ..lexicon import KEYWORDS
from ..limits import MAX_FAULTS, exceeded
from .cardcodes import misreading

if TYPE_CHECKING:
    # The grammar (lark) and the model (pydantic) are imported by the functions that use
    # them: a plain record the fast scanner reads and the quick check judges needs neither.
    from lark import Token
    from lark.exceptions import UnexpectedInput


__all__ = ["RecordContext", "caret", "syntax_fault"]

_WORD: Final = re.compile(r"[^\s{}\[\]()]+|\S")


class RecordContext:
    """What one record's build collects: positions and diagnostics."""

    __slots__ = ("deal", "diags", "line0", "name", "positions", "result_tag", "text",
                 "text_lines")
    name: str | None
    deal: int
    line0: int
    positions: dict[str, tuple[int, int]]
    diags: list[Diagnostic]
    text: str
    result_tag: tuple[Token, str] | None
    """A ``[Result "…"]`` tag, read as the result section (see :func:`_result_tag`)."""
    text_lines: list[str] | None
    """``text`` split into lines, on the first fault that shows its line."""

    def __init__(self, name: str | None, deal: int, line0: int,
                 positions: dict[str, tuple[int, int]], diags: list[Diagnostic],
                 text: str = "", result_tag: tuple[Token, str] | None = None,
                 text_lines: list[str] | None = None) -> None:
        self.name = name
        self.deal = deal
        self.line0 = line0
        self.positions = positions
        self.diags = diags
        self.text = text
        self.result_tag = result_tag
        self.text_lines = text_lines

    def pos(self, path: str, token: Token) -> None:
        self.positions[path] = (self.line0 + (token.line or 1), token.column or 1)

    def error(self, code: Code, message: str, token: Token | None, *,
              severity: Severity | None = None) -> None:
        line = self.line0 + (token.line or 1) if token is not None else self.line0 + 1
        col = token.column if token is not None else None
        if len(self.diags) >= MAX_FAULTS:  # a record with a fault on every word
            if len(self.diags) == MAX_FAULTS:
                self.diags.append(Diagnostic.make(
                    Code.LIMIT_EXCEEDED, exceeded(Msg("this record has more faults than"),
                                                  "MAX_FAULTS", Msg("; the rest are not listed")),
                    file=self.name, line=line, col=col, deal=self.deal))
            return
        context = None
        if token is not None and col is not None and token.line is not None:
            if self.text_lines is None:
                self.text_lines = self.text.split("\n")
            context = caret(self.text_lines[token.line - 1], col)
        self.diags.append(Diagnostic.make(
            code, message, severity=severity, context=context,
            file=self.name, line=line, col=col, deal=self.deal,
        ))


def caret(line: str, col: int) -> str:
    """The line, shown safely (control characters as ``�``), and a caret under ``col``.

    >>> print(caret("1. 7H\x0bZZ", 7))
    1. 7H�ZZ
          ^
    >>> shown, caret = caret("x" * 150 + "ZZ", 151).split("\\n")  # a long line: a window
    >>> len(shown), shown[caret.index("^")]
    (101, 'Z')
    """
    head = tail = ""
    if len(line) > _CONTEXT_WIDTH:  # a window around the column (cut before it is shown)
        start = max(0, min(col - 1 - _CONTEXT_WIDTH // 2, len(line) - _CONTEXT_WIDTH))
        head = "…" if start else ""
        tail = "…" if start + _CONTEXT_WIDTH < len(line) else ""
        line = line[start:start + _CONTEXT_WIDTH]
        col = col - start + len(head)
    shown = head + "".join(
        ch if ch == "\t" or ch.isprintable() else "\ufffd" for ch in line) + tail
    pad = "".join("\t" if ch == "\t" else " " for ch in shown[: col - 1])
    return f"{shown}\n{pad}^"


_CONTEXT_WIDTH: Final = 100


# --- syntax errors in Tarot words ------------------------------------------------------------

_WORDS: Final[dict[str, str]] = {
    "TAG": Msg('a tag such as [Event "Club de Lyon"]'),
    "CARD": Msg("a card such as 7H or T21"),
    "CARDS": Msg("a card such as 7H or T21"),
    "PLAYS": Msg("a card such as 7H or T21"),
    "BID": Msg("a bid: pass, prise, garde, garde_sans or garde_contre"),
    "CONTRACT": Msg("a contract: prise, garde, garde_sans or garde_contre"),
    "SEAT": Msg("a seat such as E"),
    "SEATLABEL": Msg("a seat and a colon such as E:"),
    "EMPTY": Msg("- (none)"),
    "TRICKNO": Msg("a trick number such as 5."),
    "LEADER": Msg("the trick's leader in parentheses such as (E)"),
    "SCORE": Msg("a score such as E+192 or S-64"),
    "NUMBER": Msg("a number of points such as 48 or 40.5"),
    "INT": Msg("a number of bouts, 0 to 3"),
    "SIZE": Msg("a poignée size: simple, double or triple"),
    "MISERE_KIND": Msg("a misère: atout or tete"),
    "CAMP": Msg("a camp: taker or defence"),
    "GLYPH": Msg("a glyph such as ! or ?!"),
    "COMMENT": Msg("a {comment}"),
}
_KEYWORDS: Final[dict[str, str]] = {
    **{name: words[0] for name, words in KEYWORDS.items()}, "_COLON": ":"}
_ORDER: Final = tuple(_WORDS) + tuple(_KEYWORDS)
_CARDISH: Final = re.compile(r"[\w\u2660-\u2667]{1,4}")
_BIDISH: Final = re.compile(r"(?:\w+:)?[A-Za-z_-]+")


def _join_or(items: list[str]) -> str:
    return or_list(items)


def _expected(names: Iterable[str]) -> str:
    """What the parser could take, in Tarot words (never terminal names)."""
    names = set(names) - {"$END"}
    if names - {"GLYPH", "COMMENT"}:
        names -= {"GLYPH", "COMMENT"}
    phrases: list[str] = []
    words: list[str] = []
    for name in _ORDER:
        if name not in names:
            continue
        if name in _WORDS:
            if _WORDS[name] not in phrases:
                phrases.append(_WORDS[name])
        else:
            words.append(_KEYWORDS[name])
    listed = words[0] if len(words) == 1 else Msg("one of: {words}", words=", ".join(words))
    if phrases and words:
        return Msg("{phrases}, or {listed}", phrases=_join_or(phrases), listed=listed)
    if phrases:
        return _join_or(phrases)
    return listed if words else Msg("the end of the record")


def _accepts(state: Any) -> set[str] | None:
    """The terminals the parser can take in ``state`` (exact, unlike merged LALR sets)."""
    from copy import copy

    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        conf = copy(state.parse_conf)
        conf.callbacks = {}  # (without callbacks a reduction keeps the values as they are)
        # A trial keeps the parser's states but not the values built so far: without
        # callbacks only the value stack's length counts, and copying the values (the
        # parser's own copy, deep) cost a copy of the record's tree a terminal.
        blank = [None] * len(state.value_stack)
        out: set[str] = set()
        for name in state.parse_conf.states[state.position]:
            if not name.isupper() or name == "$END":
                continue
            trial = type(state)(conf, state.lexer, list(state.state_stack), list(blank))
            try:
                trial.feed_token(Token(name, ""))
            except UnexpectedInput:
                continue
            out.add(name)
        return out
    except Exception:  # the parser's internals changed: fall back on Lark's own set
        return None


def syntax_fault(ctx: RecordContext, text: str, err: UnexpectedInput) -> None:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    expected: set[str]
    if isinstance(err, UnexpectedToken):
        expected = set(err.expected)
        at_end = err.token.type == "$END"
    elif isinstance(err, UnexpectedCharacters):
        expected = set(err.allowed or ())
        at_end = False
    else:
        assert isinstance(err, UnexpectedEOF)
        expected = set(err.expected)
        at_end = True
    state = getattr(err, "state", None)
    if state is not None and hasattr(state, "parse_conf"):
        exact = _accepts(state)
        if exact:
            expected = exact
    if at_end:
        end = len(text.rstrip())
        line = text.count("\n", 0, end) + 1
        col = end - (text.rfind("\n", 0, end) + 1) + 1
        pos = end
    else:
        line, col = err.line, err.column
        found_at: int | None = getattr(err, "pos_in_stream", None)
        if found_at is None and isinstance(err, UnexpectedToken):
            found_at = err.token.start_pos
        pos = found_at or 0
    start = text.rfind("\n", 0, pos) + 1
    stop = text.find("\n", pos)
    line_text = text[start: stop if stop >= 0 else len(text)]
    want = _expected(expected)
    m = _WORD.match(text, pos)
    found = m.group(0) if m and not at_end else ""
    msg: str
    if at_end:
        code, msg = Code.UNEXPECTED_END, Msg("the record ends too soon: expected {want}",
                                             want=want)
    elif found == "{" and "}" not in text[pos:]:
        code, msg = Code.UNTERMINATED_COMMENT, Msg("this { comment is never closed with }")
    elif found == "{":
        code = Code.SYNTAX_ERROR
        msg = Msg("a comment cannot come here: expected {want}", want=want)
        if "TAG" in expected:
            msg = Msg('a comment cannot come before the tags: expected a tag such as'
                      ' [Event "Club de Lyon"]')
    elif found.startswith("["):
        if "TAG" in expected or line_text.lstrip().startswith("["):
            code = Code.BAD_TAG
            msg = Msg('malformed tag: expected a tag such as [Event "Club de Lyon"], found'
                      " {found}", found=quote(found))
            fault = _tag_fault(line_text, col)
            if fault is not None:
                col, msg = fault
            if "TAG" not in expected:
                msg = Msg("a tag cannot follow a comment on the deal: the tags come first")
        else:
            code, msg = Code.SYNTAX_ERROR, Msg("unexpected {found}: expected {want}",
                                               found=quote(found), want=want)
    elif expected & {"CARD", "CARDS", "PLAYS"} and _CARDISH.fullmatch(found):
        code, msg = Code.BAD_CARD_CODE, (misreading(found) or Msg(
            "{found} is not a card: expected {want}", found=quote(found), want=want))
    elif "BID" in expected and _BIDISH.fullmatch(found):
        code, msg = Code.BAD_VALUE, Msg("{found} is not a bid: expected {want}",
                                        found=quote(found), want=want)
    else:
        code, msg = Code.SYNTAX_ERROR, Msg("unexpected {found}: expected {want}",
                                           found=quote(found), want=want)
    ctx.diags.append(Diagnostic.make(
        code, msg, context=caret(line_text, col), file=ctx.name,
        line=ctx.line0 + line, col=col, deal=ctx.deal,
    ))


_TAG_NAME: Final = re.compile(r"[ \t]*(\w+)")
_TAG_VALUE: Final = re.compile(r'"((?:[^"\\]|\\.)*)("?)')


def _tag_fault(line: str, col: int) -> tuple[int, str] | None:
    """What is wrong with the tag at ``col`` (1-based) of ``line``, where it is (its
    column), and the tag as it should be written; None when it cannot be said better.

    >>> _tag_fault('[Event "Club]', 1)
    (13, 'the value of the tag has no closing quote: write [Event "Club"]')
    >>> _tag_fault('[Players 4]', 1)
    (10, 'the value of the tag is not in quotes: write [Players "4"]')
    >>> print(*_tag_fault('[Event "Le "Roi" club"]', 1))
    12 a quote inside a tag's value is written \\": write [Event "Le \\"Roi\\" club"]
    """
    start = col - 1
    text = line[start:]
    m = _TAG_NAME.match(text, 1)
    if m is None:
        if text[1:].lstrip(" \t").startswith('"'):
            return col + 1, Msg('the tag has no name: expected a name before its value, as in'
                                ' [Event "Club de Lyon"]')
        return None
    name = m.group(1)
    i = m.end()
    j = len(text) - len(text[i:].lstrip(" \t"))
    rest = text[j:]
    if not rest.startswith('"'):
        if rest[:1].isalnum() and j > i and '"' in rest:
            return col + j, Msg("a tag's name is one word (letters, digits and _): {name} is"
                                " followed by {word}", name=Quoted(name),
                                word=quote(rest.split()[0]))
        value = rest.rstrip().removesuffix("]").strip()
        if not value:
            return col + j, Msg('the tag has no value: write [{name} "…"]', name=name)
        return col + j, Msg('the value of the tag is not in quotes: write [{name} "{value}"]',
                            name=name, value=value)
    v = _TAG_VALUE.match(rest)
    assert v is not None
    if not v.group(2):  # no closing quote on the line
        value = v.group(1).rstrip()
        close = value.endswith("]")
        value = value.removesuffix("]").rstrip()
        at = col + j + len(rest.rstrip()) - (1 if close else 0)
        return at, Msg('the value of the tag has no closing quote: write [{name} "{value}"]',
                       name=name, value=value)
    after = rest[v.end():]
    if after.lstrip(" \t").startswith("]"):
        return None
    if after.strip() and "]" in after and '"' in after:  # a quote inside the value
        inner = rest[1:rest.rstrip().rindex("]")].rstrip().removesuffix('"')
        fixed = re.sub(r'(?<!\\)"', r'\\"', inner)
        return col + j + v.end() - 1, Msg("a quote inside a tag's value is written \\\": write"
                                          ' [{name} "{fixed}"]', name=name, fixed=fixed)
    return col + j + v.end(), Msg('the tag is never closed with ]: write [{name} "{value}"]',
                                  name=name, value=v.group(1))

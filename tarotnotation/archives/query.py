"""The query language of ``tarot query --where EXPR`` (docs/query.md): compile, then match.

An expression is comparisons and tests joined by ``and``, ``or``, ``not`` and
parentheses. Its syntax is a Lark grammar of its own (``query.lark``, package data); the
names it holds are resolved here, by the type of the field they stand beside, into a
function of a :class:`~tarotnotation.archives.summary.DealSummary`.

>>> q = compile_query("contract >= garde and not made")
>>> q.fields
('contract', 'made')
>>> compile_query("player = 'Alice' and taker = player").per_player
True

A mistake is a :class:`QueryError` that knows where it is, to show with a caret:

>>> try:
...     compile_query("contract >= gard")
... except QueryError as err:
...     print(err.message); print(err.show())
'gard' is not a contract: expected prise, garde, garde_sans or garde_contre
contract >= gard
            ^^^^

Matching uses three-valued logic: a field the deal does not have (no contract in an
annulled deal, a tag not written) is unknown, a comparison with it is unknown, ``not``
of unknown is unknown, and a deal matches only when the whole expression is true.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Code
from ..i18n import Msg, Quoted, or_list
from ..records import SEAT_ID_RE
from ..replay import Status
from ..rules import Camp, Contract, PoigneeSize
from .safety import for_terminal
from .summary import DealSummary

__all__ = [
    "FIELDS",
    "MAX_DEPTH",
    "Field",
    "Query",
    "QueryError",
    "compile_query",
    "grammar_text",
]

# Three-valued logic: True, False, or None (unknown).
Truth = bool | None
#: A compiled expression: the deal, and the seat ``player`` stands for (or -1).
_Fn = Callable[[DealSummary, int], Truth]
_Get = Callable[[DealSummary, int], Any]


class QueryError(ValueError):
    """A mistake in an expression, and where it is (0-based columns, end exclusive)."""

    def __init__(self, message: str, text: str, start: int, end: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.start = max(0, min(start, len(text)))
        self.end = max(self.start + 1, end if end is not None else self.start + 1)

    def show(self) -> str:
        """The expression on one line and a caret under the fault (control characters
        in the expression shown escaped, the caret still under the fault)."""
        before = for_terminal(self.text[:self.start])
        fault = for_terminal(self.text[self.start:self.end])
        after = for_terminal(self.text[self.end:])
        return f"{before}{fault}{after}\n{' ' * len(before)}{'^' * max(1, len(fault))}"


def grammar_text() -> str:
    """The text of ``query.lark``."""
    return (resources.files("tarotnotation.archives") / "query.lark").read_text("utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # cache=True: built once, then loaded (as the notation's parser is), not rebuilt at
    # every start (a third of a second, more with interegular's collision checks)
    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=False,
                cache=True)


# --- fields ------------------------------------------------------------------------------

#: Kinds of field, and the operators each takes.
_ORDERED: Final = frozenset({"=", "!=", "<", "<=", ">", ">="})
_EQUALITY: Final = frozenset({"=", "!="})
_OPS: Final[dict[str, frozenset[str]]] = {
    "int": _ORDERED,
    "points": _ORDERED,
    "bool": _EQUALITY,
    "contract": _ORDERED,
    "seat": _EQUALITY | {"~"},
    "camp": _EQUALITY,
    "sizes": _EQUALITY,
    "status": _EQUALITY,
    "text": _ORDERED | {"~"},
    "names": _EQUALITY | {"~"},
    "tag": _ORDERED | {"~"},
}
_KIND_WORDS: Final = {
    "int": Msg("a whole number"), "points": Msg("a number of points"),
    "bool": Msg("true or false"), "contract": Msg("a contract"), "seat": Msg("a seat"),
    "camp": Msg("a camp (taker or defence)"), "sizes": Msg("a poignée size"),
    "status": Msg("a status"), "text": Msg("a text"), "names": Msg("a name"),
    "tag": Msg("a tag"),
}


@dataclass(frozen=True, slots=True)
class Field:
    """A field of the query language."""

    name: str
    kind: str
    doc: str
    get: _Get
    per_player: bool = False
    """True for the fields of the player ``player`` stands for."""
    bare: bool = False
    """True when the field alone is a test (``made``, ``poignee``, ``chelem``)."""


def _scores_of_taker(s: DealSummary, _: int) -> int | None:
    if s.scores_in_order is None or s.taker_index is None:
        return None
    return s.scores_in_order[s.taker_index]


def _score_of(s: DealSummary, p: int) -> int | None:
    return None if s.scores_in_order is None else s.scores_in_order[p]


def _camp_of(s: DealSummary, p: int) -> Camp | None:
    camps = s.camps
    return None if camps is None else camps[p]


def _called_self(s: DealSummary, _: int) -> bool | None:
    return s.called_self


def _poignee_sizes(s: DealSummary, _: int) -> tuple[PoigneeSize, ...] | None:
    return None if s.status is None else tuple(size for _, size in s.poignees)


def _f(name: str, kind: str, doc: str, get: _Get, **more: bool) -> tuple[str, Field]:
    return name, Field(name, kind, doc, get, **more)


#: Every field, by name (tags are any name with a capital: ``Event``, ``Date``).
FIELDS: Final[dict[str, Field]] = dict([
    _f("players", "int", "3, 4 or 5", lambda s, _: s.players),
    _f("contract", "contract", "prise < garde < garde_sans < garde_contre",
       lambda s, _: s.contract),
    _f("taker", "seat", "the taker's seat (a seat id, a name in quotes, or a seat field)",
       lambda s, _: s.taker_index),
    _f("partner", "seat", "at five players, the taker's partner", lambda s, _: s.partner_index),
    _f("dealer", "seat", "the dealer", lambda s, _: s.dealer_index),
    _f("called_self", "bool", "at five players, the taker plays alone", _called_self,
       bare=True),
    _f("made", "bool", "the contract is made", lambda s, _: s.made, bare=True),
    _f("margin", "int", "points over the threshold: + made, - lost", lambda s, _: s.margin_points),
    _f("points", "points", "the taker's camp's card points (may end in .5)",
       lambda s, _: None if s.taker_half is None else s.taker_half / 2),
    _f("bouts", "int", "bouts won by the taker's camp", lambda s, _: s.bouts),
    _f("petit_au_bout", "camp", "the camp that scored the petit au bout",
       lambda s, _: s.petit_au_bout, bare=True),
    _f("chelem", "camp", "the camp that won every trick", lambda s, _: s.chelem, bare=True),
    _f("chelem_announced", "bool", "a chelem was announced",
       lambda s, _: s.chelem_announced, bare=True),
    _f("poignee", "sizes", "a poignée was shown (= simple, double or triple: of that size)",
       _poignee_sizes, bare=True),
    _f("poignees", "int", "how many poignées were shown", lambda s, _: len(s.poignees)),
    _f("taker_score", "int", "the taker's score", _scores_of_taker),
    _f("status", "status", "scored, annulled, incomplete or unscored",
       lambda s, _: s.status),
    _f("tricks", "int", "tricks recorded", lambda s, _: s.tricks),
    _f("errors", "int", "errors found by the replay", lambda s, _: s.errors),
    _f("warnings", "int", "warnings found by the replay", lambda s, _: s.warnings),
    _f("valid", "bool", "no error was found", lambda s, _: s.errors == 0, bare=True),
    _f("names", "names", "the players' names (= some player has that name)",
       lambda s, _: s.names),
    _f("file", "text", "the file the deal is in", lambda s, _: s.file),
    _f("deal", "int", "the deal's number in its file", lambda s, _: s.index),
    _f("ruleset", "text", "the ruleset spec (fft, pagat, ...)", lambda s, _: s.ruleset),
    _f("player", "seat", "a player of the deal: the same one throughout (see docs)",
       lambda s, p: p, per_player=True),
    _f("score", "int", "the score of the player `player` stands for", _score_of,
       per_player=True),
    _f("camp", "camp", "the camp of the player `player` stands for", _camp_of,
       per_player=True),
])

#: The fields known from the record alone, without a replay (tags too).
READ_FIELDS: Final = frozenset({"players", "dealer", "names", "file", "deal", "ruleset",
                                "tricks", "player"})

_CONTRACT_WORDS: Final = {c.keyword: c for c in Contract} | {"petite": Contract.PRISE}
_CAMP_WORDS: Final = {"taker": Camp.TAKER, "attack": Camp.TAKER, "defence": Camp.DEFENCE,
                      "defense": Camp.DEFENCE}
_SIZE_WORDS: Final = {s.value: s for s in PoigneeSize}
_STATUS_WORDS: Final = {s.value: s for s in Status}
_BOOL_WORDS: Final = {"true": True, "yes": True, "false": False, "no": False}
_VALUE_WORDS: Final = {
    "contract": Msg("prise, garde, garde_sans or garde_contre"),
    "camp": Msg("taker or defence"), "sizes": Msg("simple, double or triple"),
    "status": Msg("scored, annulled, incomplete or unscored"), "bool": Msg("true or false")}
_WORDS: Final[dict[str, dict[str, Any]]] = {
    "contract": _CONTRACT_WORDS, "camp": _CAMP_WORDS, "sizes": _SIZE_WORDS,
    "status": _STATUS_WORDS, "bool": _BOOL_WORDS}
_KEYWORDS: Final = frozenset({"and", "or", "not", "has"})
_DATE_RE: Final = re.compile(r"^\s*(\d{4}|\?{4})[.\-/](\d\d|\?\?)[.\-/](\d\d|\?\?)\s*$")
_FLIP: Final = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=", "~": "~"}


def _is_tag(name: str) -> bool:
    return name[:1].isupper()


# --- the compiled query ------------------------------------------------------------------


class Query:
    """A compiled expression: call it with a summary to know whether the deal matches.

    Picklable (by its text), so that worker processes can match deals.
    """

    def __init__(self, text: str, fn: _Fn, fields: tuple[str, ...], per_player: bool) -> None:
        self.text = text
        self._fn = fn
        self.fields = fields
        """The fields and tags it names, in the order written."""
        self.per_player = per_player
        """True when it names ``player`` (or a field of the player)."""

    @property
    def needs_replay(self) -> bool:
        """True when it names a field that only the replay knows (the contract, the
        score, the diagnostics...): tags, players, names, seats and files are read from
        the record alone, much faster.

        >>> compile_query('Event ~ "Lyon" and players = 4').needs_replay
        False
        >>> compile_query('Event ~ "Lyon" and made').needs_replay
        True
        """
        return any(not (name[:1].isupper() or name in READ_FIELDS) for name in self.fields)

    def __call__(self, summary: DealSummary) -> bool:
        return self._fn(summary, -1) is True

    def __reduce__(self) -> tuple[Callable[[str], Query], tuple[str]]:
        return (compile_query, (self.text,))

    def __repr__(self) -> str:
        return f"Query({self.text!r})"


def _everything(s: DealSummary, p: int) -> Truth:
    return True


def compile_query(text: str | None) -> Query:
    """Compile an expression (None or blank: every deal matches); :class:`QueryError`
    on a mistake."""
    if text is None or not text.strip():
        return Query(text or "", _everything, (), False)
    return _compiled(text)


@lru_cache(maxsize=64)
def _compiled(text: str) -> Query:
    if "\n" in text or "\r" in text:
        at = min(i for i in (text.find("\n"), text.find("\r")) if i >= 0)
        raise QueryError(Msg("an expression is one line"), text.replace("\r", " ")
                         .replace("\n", " "), at)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax(text, err) from None
    _bounded(text, tree)
    comp = _Compiler(text)
    node = tree.children[0]
    assert isinstance(node, Tree)
    fn, uses = comp.expr(node)
    if uses:
        fn = _bind_player(fn)
    return Query(text, fn, tuple(dict.fromkeys(comp.names)), comp.per_player)


#: How deep ``not`` and parentheses may nest: far past any real question, and well
#: inside what compiling and running an expression can recurse through.
MAX_DEPTH: Final = 100


def _bounded(text: str, tree: Tree[Token]) -> None:
    """:class:`QueryError` for an expression nested deeper than :data:`MAX_DEPTH`, or a
    number of more digits than a record may hold (``limits.MAX_DIGITS``), found without
    recursion (986 ``not`` once ended in a RecursionError, 309 nines in an OverflowError).

    >>> deep = "not " * 101 + "made"
    >>> try:
    ...     _bounded(deep, _parser().parse(deep))
    ... except QueryError as err:
    ...     print(err.message.split(" (")[0], err.start)
    the expression is nested more than 100 deep 404
    """
    from ..limits import MAX_DIGITS

    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "NUMBER" and sum(c.isdigit() for c in node) > MAX_DIGITS:
                start = node.start_pos or 0
                raise QueryError(Msg("a number has at most {limit} digits (the limit"
                                     " MAX_DIGITS of tarotnotation.limits)",
                                     limit=MAX_DIGITS), text, start, start + len(node))
            continue
        if depth > MAX_DEPTH:
            first: Tree[Token] | Token = node
            while isinstance(first, Tree) and first.children:
                first = first.children[0]
            start = first.start_pos or 0 if isinstance(first, Token) else 0
            raise QueryError(Msg("the expression is nested more than {limit} deep (not and"
                                 " parentheses)", limit=MAX_DEPTH), text, start)
        stack.extend((child, depth + 1) for child in reversed(node.children))


_TOKEN_WORDS: Final[dict[str, str]] = {
    "NAME": Msg("a field or a value"), "STRING": Msg("a text in quotes"),
    "NUMBER": Msg("a number"), "DATE": Msg("a date"),
    "OP": Msg("an operator (=, !=, <, <=, >, >=, ~)"), "RPAR": "')'",
    "LPAR": "'('", "_AND": "'and'", "_OR": "'or'", "_NOT": "'not'", "_HAS": "'has'",
    "$END": Msg("the end"),
}


def _expected(names: set[str]) -> str:
    """What the parser expected, as a person reads it: ``a, b or c`` (each word a
    :class:`Msg` where it is one, so that the list is translated with its words)."""
    words = sorted({_TOKEN_WORDS.get(n, n) for n in names})
    if {"a field or a value", "a number", "a date", "a text in quotes"} <= set(words):
        words = [w for w in words if w not in ("a number", "a date", "a text in quotes")]
        words = [Msg("a value") if w == "a field or a value" else w for w in words]
    return or_list(words)


def _syntax(text: str, err: UnexpectedInput) -> QueryError:
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        char = text[at]
        if char in "\"'":
            return QueryError(Msg("this text is never closed: add the closing {char}", char=char),
                              text, at,
                              len(text))
        return QueryError(Msg("unexpected {found}: expected {want}", found=Quoted(char),
                              want=_expected(set(err.allowed))), text, at)
    if isinstance(err, UnexpectedToken):
        token = err.token
        expected = _expected(set(err.expected) - {"$END"} or {"$END"})
        if token.type == "$END":
            return QueryError(Msg("the expression ends too soon: expected {want}", want=expected),
                              text,
                              len(text.rstrip()))
        at = token.start_pos or 0
        return QueryError(Msg("unexpected {found}: expected {want}", found=Quoted(str(token)),
                              want=expected), text, at,
                          at + len(str(token)))
    if isinstance(err, UnexpectedEOF):
        return QueryError(Msg("the expression ends too soon"), text, len(text.rstrip()))
    return QueryError(str(err), text, 0)  # pragma: no cover (lark raises only the above)


# Kleene's three-valued logic.
def _and(fns: list[_Fn]) -> _Fn:
    def fn(s: DealSummary, p: int) -> Truth:
        out: Truth = True
        for f in fns:
            v = f(s, p)
            if v is False:
                return False
            if v is None:
                out = None
        return out

    return fn


def _or(fns: list[_Fn]) -> _Fn:
    def fn(s: DealSummary, p: int) -> Truth:
        out: Truth = False
        for f in fns:
            v = f(s, p)
            if v is True:
                return True
            if v is None:
                out = None
        return out

    return fn


def _not(f: _Fn) -> _Fn:
    def fn(s: DealSummary, p: int) -> Truth:
        v = f(s, p)
        return None if v is None else not v

    return fn


def _bind_player(f: _Fn) -> _Fn:
    """``player`` stands for some player: true when one makes it true."""

    def fn(s: DealSummary, _: int) -> Truth:
        out: Truth = False
        for seat in range(s.players):
            v = f(s, seat)
            if v is True:
                return True
            if v is None:
                out = None
        return out

    return fn


def _cmp(op: str, a: Any, b: Any) -> Truth:
    if a is None or b is None:
        return None
    if op == "=":
        return bool(a == b)
    if op == "!=":
        return bool(a != b)
    if op == "<":
        return bool(a < b)
    if op == "<=":
        return bool(a <= b)
    if op == ">":
        return bool(a > b)
    return bool(a >= b)


def _date_parts(text: str) -> tuple[int | None, ...] | None:
    m = _DATE_RE.match(text)
    if m is None:
        return None
    return tuple(None if "?" in part else int(part) for part in m.groups())


def _cmp_dates(op: str, a: tuple[int | None, ...], b: tuple[int | None, ...]) -> Truth:
    """Compare dates part by part; an unknown part (``??``) that decides is unknown."""
    for x, y in zip(a, b, strict=True):
        if x is None or y is None:
            return None
        if x != y:
            return _cmp(op, x, y)
    return _cmp(op, 0, 0)


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


class _Compiler:
    """Turns the parse tree into a function, resolving names by the field beside them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.names: list[str] = []
        self.per_player = False

    def fail(self, message: str, token: Token) -> QueryError:
        start = token.start_pos or 0
        return QueryError(message, self.text, start, start + len(str(token)))

    def expr(self, node: Tree[Token] | Token) -> tuple[_Fn, bool]:
        """The function of a node, and whether it still names ``player``."""
        if isinstance(node, Token):  # pragma: no cover (the grammar wraps every token)
            raise self.fail("unexpected", node)
        kind = node.data
        if kind in ("and_", "or_"):
            parts = [self.expr(child) for child in node.children]
            fns = [f for f, _ in parts]
            return (_and if kind == "and_" else _or)(fns), any(u for _, u in parts)
        if kind == "neg":
            inner, uses = self.expr(node.children[0])
            if uses:  # `not` applies to "some player": the player is bound inside it
                inner = _bind_player(inner)
            return _not(inner), False
        if kind == "has":
            return self.has(node.children[0]), False  # type: ignore[arg-type]
        if kind == "bare":
            return self.bare(node.children[0])  # type: ignore[arg-type]
        if kind == "compare":
            left, op, right = node.children
            assert isinstance(op, Token)
            return self.compare(left, str(op), right, op)  # type: ignore[arg-type]
        raise AssertionError(kind)  # pragma: no cover

    # --- names ---

    def field(self, token: Token) -> Field | None:
        """The field a name stands for; None for a tag; an error for an unknown name."""
        name = str(token)
        if _is_tag(name):
            self.names.append(name)
            return None
        found = FIELDS.get(name)
        if found is None:
            raise self.fail(_unknown(name), token)
        self.names.append(name)
        self.per_player |= found.per_player
        return found

    def has(self, token: Token) -> _Fn:
        prefix = str(token).upper()
        if not any(code.value.startswith(prefix) for code in Code):
            raise self.fail(Msg("no diagnostic code starts with {prefix}: expected a code such"
                                " as P105 or a family such as P1 (see `tarot codes`)",
                                prefix=prefix), token)
        self.names.append("has")

        def fn(s: DealSummary, _: int) -> Truth:
            return any(code.startswith(prefix) for code in s.codes)

        return fn

    def bare(self, token: Token) -> tuple[_Fn, bool]:
        name = str(token)
        if name.lower() in _KEYWORDS:
            raise self.fail(Msg("'{name}' needs something to work on", name=name), token)
        field = self.field(token)
        if field is None:  # a tag alone: written and not blank
            key = name

            def tag_present(s: DealSummary, _: int) -> Truth:
                value = s.tag(key)
                return value is not None and bool(value.strip())

            return tag_present, False
        if not field.bare:
            raise self.fail(Msg("{name} is {kind}: compare it, e.g. {example}", name=name,
                                kind=_KIND_WORDS[field.kind], example=_example(field)),
                            token)
        get = field.get
        if field.kind == "bool":
            def test_bool(s: DealSummary, p: int) -> Truth:
                v = get(s, p)
                return None if v is None else bool(v)

            return test_bool, field.per_player

        def test_present(s: DealSummary, p: int) -> Truth:
            if s.status is not Status.SCORED and field.kind == "camp":
                return None
            v = get(s, p)
            return None if v is None and field.kind != "camp" else bool(v)

        return test_present, field.per_player

    # --- comparisons ---

    def compare(self, left: Tree[Token], op: str, right: Tree[Token],
                op_token: Token) -> tuple[_Fn, bool]:
        if op == "==":
            op = "="
        if left.data == "name" and right.data == "name" and _word_of(left) not in FIELDS \
                and not _is_tag(_word_of(left)) and _word_of(right) in FIELDS:
            left, right, op = right, left, _FLIP[op]  # `garde <= contract`
        if left.data != "name":
            if right.data != "name":
                raise self.fail(Msg("compare a field or a tag with a value, e.g. bouts >= 2"),
                                op_token)
            left, right, op = right, left, _FLIP[op]
        name_token = left.children[0]
        assert isinstance(name_token, Token)
        if str(name_token).lower() in _KEYWORDS:
            raise self.fail(Msg("expected a field before {op}, not '{found}'", op=op,
                                found=str(name_token)), name_token)
        field = self.field(name_token)
        if field is None:
            return self.compare_tag(str(name_token), op, right, op_token), False
        if op not in _OPS[field.kind]:
            allowed = ", ".join(sorted(_OPS[field.kind]))
            raise self.fail(Msg("{name} takes {allowed}, not {op}", name=field.name,
                                allowed=allowed, op=op), op_token)
        value_token = right.children[0]
        assert isinstance(value_token, Token)
        get = field.get
        if right.data == "name" and str(value_token).lower() in _KEYWORDS:
            raise self.fail(Msg("expected a value after {op}, not '{found}'", op=op,
                                found=str(value_token)), value_token)
        other = self.other_field(field, right)
        if other is not None:
            oget = other.get

            def both(s: DealSummary, p: int) -> Truth:
                return _cmp(op, get(s, p), oget(s, p))

            return both, field.per_player or other.per_player
        fn = self.against_value(field, op, right.data, value_token)
        return fn, field.per_player

    def other_field(self, field: Field, right: Tree[Token]) -> Field | None:
        """The field on the right of a comparison, when the name there is one
        (``taker = player``, ``taker = dealer``, ``score > taker_score``)."""
        if right.data != "name":
            return None
        token = right.children[0]
        assert isinstance(token, Token)
        name = str(token)
        other = FIELDS.get(name)
        if other is None:
            return None
        if field.kind == "camp" and name in _CAMP_WORDS:
            return None  # `petit_au_bout = taker`: the camp
        if other.kind != field.kind and {other.kind, field.kind} != {"int", "points"}:
            raise self.fail(Msg("{name} is {kind}, and {other} is {other_kind}: they cannot be"
                                " compared", name=name, kind=_KIND_WORDS[other.kind],
                                other=field.name, other_kind=_KIND_WORDS[field.kind]),
                            token)
        self.names.append(name)
        self.per_player |= other.per_player
        return other

    def against_value(self, field: Field, op: str, kind: str, token: Token) -> _Fn:
        text = str(token)
        get = field.get
        fk = field.kind
        if fk in ("int", "points"):
            if kind != "number":
                raise self.fail(Msg("{name} is compared with a number, e.g. {example}",
                                    name=field.name, example=_example(field)), token)
            number = float(text)
            if fk == "int" and number != int(number):
                raise self.fail(Msg("{name} is a whole number", name=field.name), token)

            def num(s: DealSummary, p: int) -> Truth:
                return _cmp(op, get(s, p), number)

            return num
        if (fk in ("seat", "names") and kind == "string") or fk == "text":
            if kind not in ("string", "name") and fk != "text":
                raise self.fail(Msg("expected a name in quotes after {op}", op=op), token)
            value = _unquote(text) if kind == "string" else text
            if op == "~":
                pattern = self.regex(value, token)
                if fk == "seat":
                    def seat_like(s: DealSummary, p: int) -> Truth:
                        seat = get(s, p)
                        return None if seat is None else bool(pattern.search(s.player(seat)))

                    return seat_like
                if fk == "names":
                    def names_like(s: DealSummary, p: int) -> Truth:
                        return any(n is not None and pattern.search(n) for n in s.names)

                    return names_like

                def text_like(s: DealSummary, p: int) -> Truth:
                    v = get(s, p)
                    return None if v is None else bool(pattern.search(v))

                return text_like
            if fk == "seat":
                def seat_named(s: DealSummary, p: int) -> Truth:
                    seat = get(s, p)
                    return None if seat is None else _cmp(op, s.names[seat], value)

                return seat_named
            if fk == "names":
                def has_name(s: DealSummary, p: int) -> Truth:
                    found = value in s.names
                    return found if op == "=" else not found

                return has_name

            def text_cmp(s: DealSummary, p: int) -> Truth:
                return _cmp(op, get(s, p), value)

            return text_cmp
        if fk == "seat":
            if op == "~":
                raise self.fail(Msg("~ takes a pattern in quotes, e.g. {example}",
                                    example=f"{field.name} ~ \"Martin\""), token)
            if kind != "name" or not SEAT_ID_RE.fullmatch(text):
                raise self.fail(Msg("expected a seat id (S, E, N, W, F...), a name in quotes or"
                                    " a seat field after {op}, not {found}", op=op,
                                    found=text), token)

            def seat_id(s: DealSummary, p: int) -> Truth:
                seat = get(s, p)
                return None if seat is None else _cmp(op, s.seats[seat], text)

            return seat_id
        if fk == "names":
            raise self.fail(Msg("expected a name in quotes, e.g. {example}",
                                example="names = \"Alice Martin\""), token)
        words: dict[str, Any] = _WORDS[fk]
        if kind not in ("name", "string") or _unquote(text).lower() not in words:
            if fk == "bool":
                raise self.fail(Msg("{name} is true or false, not {found}", name=field.name,
                                    found=Quoted(_unquote(text))), token)
            raise self.fail(Msg("{found} is not {kind}: expected {want}",
                                found=Quoted(_unquote(text)), kind=_KIND_WORDS[fk],
                                want=_VALUE_WORDS[fk]), token)
        wanted = words[_unquote(text).lower()]
        if fk == "sizes":
            def has_size(s: DealSummary, p: int) -> Truth:
                sizes = get(s, p)
                if sizes is None:
                    return None
                return bool(wanted in sizes) == (op == "=")

            return has_size
        if fk == "camp" and field.bare:
            def camp_is(s: DealSummary, p: int) -> Truth:
                if s.status is not Status.SCORED:
                    return None
                return bool(get(s, p) == wanted) == (op == "=")

            return camp_is

        def word(s: DealSummary, p: int) -> Truth:
            return _cmp(op, get(s, p), wanted)

        return word

    def compare_tag(self, name: str, op: str, right: Tree[Token], op_token: Token) -> _Fn:
        token = right.children[0]
        assert isinstance(token, Token)
        text = str(token)
        kind = right.data
        if kind == "name" and text.lower() in _KEYWORDS:
            raise self.fail(Msg("expected a value after {op}, not '{found}'", op=op, found=text),
                            token)
        if kind == "name" and not _is_tag(text) and text in FIELDS:
            raise self.fail(Msg("a tag is compared with a value, not with the field {name}",
                                name=text), token)
        if op == "~":
            pattern = self.regex(_unquote(text) if kind == "string" else text, token)

            def like(s: DealSummary, _: int) -> Truth:
                value = s.tag(name)
                return None if value is None else bool(pattern.search(value))

            return like
        if kind == "date":
            wanted = _date_parts(text)
            assert wanted is not None

            def date(s: DealSummary, _: int) -> Truth:
                value = s.tag(name)
                parts = None if value is None else _date_parts(value)
                return None if parts is None else _cmp_dates(op, parts, wanted)

            return date
        if kind == "number":
            number = float(text)

            def num(s: DealSummary, _: int) -> Truth:
                value = s.tag(name)
                return _cmp(op, None if value is None else _number(value), number)

            return num
        if kind == "name" and _is_tag(text):
            raise self.fail(Msg("{name} looks like a tag: put a value in quotes", name=text),
                            token)
        value = _unquote(text) if kind == "string" else text

        def string(s: DealSummary, _: int) -> Truth:
            return _cmp(op, s.tag(name), value)

        return string

    def regex(self, pattern: str, token: Token) -> re.Pattern[str]:
        try:
            return re.compile(pattern, re.IGNORECASE)
        except re.error as err:
            raise self.fail(Msg("not a valid pattern: {why}", why=err.msg), token) from None


def _word_of(node: Tree[Token]) -> str:
    return str(node.children[0])


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        body = text[1:-1]
        return re.sub(r"\\(.)", r"\1", body)
    return text


def _example(field: Field) -> str:
    return {
        "int": f"{field.name} >= 2", "points": f"{field.name} > 40.5",
        "contract": "contract >= garde", "seat": f"{field.name} = S",
        "camp": f"{field.name} = defence", "status": "status = annulled",
        "text": f"{field.name} ~ \"2026\"", "names": "names = \"Alice Martin\"",
        "bool": field.name, "sizes": "poignee = double",
    }.get(field.kind, field.name)


def field_names() -> list[str]:
    """The names of the fields, sorted."""
    return sorted(FIELDS)


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, FIELDS, n=1)
    fields = ", ".join(field_names())
    if close:
        return Msg("unknown field '{name}': did you mean {close}? the fields are {fields};"
                   " a tag is written with a capital (Event, Date, Round...)",
                   name=name, close=close[0], fields=fields)
    return Msg("unknown field '{name}': the fields are {fields}; a tag is written with a"
               " capital (Event, Date, Round...)", name=name, fields=fields)

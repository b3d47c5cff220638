"""The reader: Tarot notation text -> :class:`~tarotnotation.records.DealRecord` values.

A file is cut into records line by line (a record starts at a tag line that follows any
other text), so the reader holds one record in memory at a time and a broken record never
spoils the next. Each record is parsed with the Lark grammar ``grammar/tarot.lark`` (LALR,
contextual lexer, a transformer applied while parsing: no parse tree is built), then
checked and turned into a record; plain records are first offered to a faster scanner,
:mod:`tarotnotation.notation.scanner`, which builds the same data and leaves anything else to
the grammar (``TAROT_READER=grammar`` turns it off). Every record yields one
:class:`ReadDeal`: the record (or None when it cannot be read), its diagnostics with file,
line and column, and a :class:`SourceMap` of the positions of its parts for the replay
engine.

>>> text = '''[Event "Club"]
... [Players "4"]
...
... auction: pass garde! pass pass
... result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64
... '''
>>> [deal] = reads(text)
>>> deal.ok, deal.record.auction[1].contract.keyword, deal.record.auction[1].glyph
(True, 'garde', '!')
>>> deal.source.positions["auction[1]"]
(4, 15)
>>> [bad] = reads('[Players "4"]\\nplay: 1. 7H 8H ZZ\\n', name="club.tarot")
>>> fault = bad.diagnostics[0]
>>> fault.location.text_position(), fault.code.value
('club.tarot:2:16', 'S003')
>>> fault.message
"'ZZ' is not a card: expected a card such as 7H or T21 or a trick number such as 5., or result:"
>>> print(fault.context)
play: 1. 7H 8H ZZ
               ^
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar

from ..cards import CardSet
from ..diagnostics import Code, Diagnostic, Severity, TarotError, quote
from ..fields import FIELD_TAGS, Points
from ..i18n import Msg, message_of
from ..lexicon import BIDS, DATE_RE, TAG_RE, untag
from ..limits import MAX_DIGITS, MAX_FAULTS, exceeded
from ..rules import RulesetError
from ..source import ReadDeal, SourceMap, read_deal
from ..values import replace
from . import scanner
from .cardcodes import parse_card
from .chunks import Chunk, record_chunks
from .parsing import grammar_text, parser
from .skim import SkimmedDeal, skim_tags
from .syntax import RecordContext, caret, syntax_fault
from .tagvalues import players_of, ruleset_spec, seats_entries

if TYPE_CHECKING:
    # The grammar (lark) and the model (pydantic) are imported by the functions that use
    # them: a plain record the fast scanner reads and the quick check judges needs neither.
    from lark import Token
    from pydantic import ValidationError

    from ..records import DealRecord

__all__ = [
    "FIELD_TAGS",
    "LazyPositions",
    "SkimmedDeal",
    "grammar_text",
    "load",
    "loads",
    "parse_record",
    "parser",
    "read",
    "read_file",
    "reads",
    "record_chunks",
    "skim_tags",
]

#: The tags read into record fields (never kept in ``DealRecord.tags``), in written order.

# --- small helpers ---------------------------------------------------------------------

_NONSPACE: Final = re.compile(r"\S+")



def _split_seated(text: str) -> tuple[str | None, str]:
    cut = text.find(":")
    if cut < 0:
        return None, text
    return text[:cut], text[cut + 1:]



# --- from the parsed pieces to a record ---------------------------------------------------


def _inner(tok: Token, index: int, word: str) -> Token:
    """A token for the word at ``index`` inside a run token, with its own line and column."""
    from lark import Token

    lines = tok.count("\n", 0, index)
    line = (tok.line or 1) + lines
    col = (tok.column or 1) + index if not lines else index - tok.rfind("\n", 0, index)
    return Token("CARD", word, line=line, column=col)


def _card_list(ctx: RecordContext, tokens: list[Token], where: str) -> CardSet:
    bits = 0
    for tok in tokens:
        starts: list[int] | None = None
        for k, word in enumerate(tok.split()):
            card = parse_card(word)
            assert card is not None  # the grammar only lets card codes through
            if bits >> card & 1 and len(ctx.diags) <= MAX_FAULTS:
                if starts is None:  # where each word starts, found once per run
                    starts = [m.start() for m in _NONSPACE.finditer(tok)]
                ctx.error(Code.BAD_VALUE, Msg("{card} is written twice in {where}",
                                              card=card.code, where=where),
                          _inner(tok, starts[k], word))
            bits |= 1 << card
    return CardSet(bits)


def _seats_value(ctx: RecordContext, value: str, tok: Token) -> list[dict[str, Any]] | None:
    seats = seats_entries(value)
    if isinstance(seats, str):
        ctx.error(Code.BAD_TAG, seats, tok)
        return None
    return seats


def _tags(ctx: RecordContext, tokens: list[Token], data: dict[str, Any]) -> None:
    other: list[tuple[str, str]] = []
    seen: set[str] = set()
    for tok in tokens:
        m = TAG_RE.fullmatch(tok)
        assert m is not None
        name, value = m.group(1), untag(m.group(2))
        if name in FIELD_TAGS:
            if name in seen:
                ctx.error(Code.BAD_TAG, Msg("the {name} tag is given twice", name=name), tok)
                continue
            seen.add(name)
            ctx.pos(name.lower(), tok)
            if name == "Players":
                if value.strip() not in ("3", "4", "5"):
                    ctx.error(Code.BAD_TAG, Msg("Players must be 3, 4 or 5, not {value}",
                                                value=quote(value)),
                              tok)
                else:
                    data["players"] = int(value)
            elif name == "Seats":
                seats = _seats_value(ctx, value, tok)
                if seats is not None:
                    data["seats"] = seats
            elif name == "Dealer":
                data["dealer"] = value.strip()
            else:
                try:
                    data["ruleset"] = ruleset_spec(value)
                except RulesetError as err:
                    ctx.error(Code.UNKNOWN_RULESET, message_of(err), tok)
            continue
        if name == "Result":
            if ctx.result_tag is not None:
                ctx.error(Code.BAD_TAG, Msg("the Result tag is given twice"), tok)
            ctx.result_tag = (tok, value)
            continue
        if name == "Date" and not DATE_RE.fullmatch(value):
            ctx.error(Code.BAD_TAG, Msg("Date {value} is not written YYYY.MM.DD (with ?? for an"
                                        " unknown part); kept as written",
                                        value=quote(value)), tok, severity=Severity.WARNING)
        other.append((name, value))
    data["tags"] = tuple(other)


def _annotated(out: dict[str, Any], note: tuple[str | None, tuple[str, ...]]) -> dict[str, Any]:
    if note[0] is not None:
        out["glyph"] = note[0]
    if note[1]:
        out["comments"] = note[1]
    return out


def _result(ctx: RecordContext, kw: Token, parts: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ctx.pos("result", kw)
    for part in parts[:-1]:
        name, toks = part
        first = toks[0] if toks else None
        if name in out:
            ctx.error(Code.BAD_VALUE, Msg("the result gives {replace} twice",
                                          replace=name.replace('_', ' ')), first)
            continue
        if name == "annulled":
            out["annulled"] = True
            ctx.pos("result.annulled", toks[0])
            continue
        ctx.pos(f"result.{name}", first)  # type: ignore[arg-type]
        if name == "contract" or name in ("taker", "partner"):
            out[name] = str(first)
        elif name == "taker_points":
            try:
                out[name] = Points.parse(str(first))
            except ValueError as err:
                ctx.error(Code.BAD_VALUE, Msg("points: {err}", err=err), first)
        elif name == "bouts":  # any number but 0 to 3 is kept: the replay says why not
            if len(first) > MAX_DIGITS:  # type: ignore[arg-type]
                ctx.error(Code.BAD_VALUE, Msg("bouts must be 0 to 3, not {first}",
                                              first=quote(str(first))),
                          first)
            else:
                out[name] = int(first)  # type: ignore[arg-type]
        elif name in ("petit_au_bout", "chelem"):
            out[name] = "taker" if str(first).lower() == "taker" else "defence"
        else:  # scores
            scores: dict[str, int] = {}
            for tok in toks[1:]:
                cut = max(tok.rfind("+"), tok.rfind("-"))
                seat = tok[:cut]
                if seat in scores:
                    ctx.error(Code.BAD_VALUE, Msg("the result gives {seat}'s score twice",
                                                  seat=seat), tok)
                if len(tok) - cut - 1 > MAX_DIGITS:
                    ctx.error(Code.LIMIT_EXCEEDED, exceeded(
                        Msg("{seat}'s score has more than", seat=seat), "MAX_DIGITS",
                        Msg("digits")), tok)
                    continue
                scores[seat] = int(tok[cut:])
                ctx.pos(f"result.scores.{seat}", tok)
            out["scores"] = scores
    return _annotated(out, parts[-1])


def _result_tag(ctx: RecordContext, tok: Token, value: str) -> dict[str, Any] | None:
    """The result of a ``[Result "garde taker E points 48 …"]`` tag: its value is read as
    the body of a result section; positions and faults point at the tag."""
    from lark.exceptions import UnexpectedInput

    inner = RecordContext(ctx.name, ctx.deal, 0, {}, [], f"result: {value}")
    try:
        body: Any = parser().parse(inner.text, start="result")
    except UnexpectedInput as err:
        syntax_fault(inner, inner.text, err)
        out = None
    else:
        out = _result(inner, body[1][0], body[1][1:])
    for d in inner.diags:
        ctx.error(d.code, Msg("in the Result tag: {message}", message=d.message), tok,
                  severity=d.severity)
    for path in inner.positions:
        ctx.pos(path, tok)
    return out


def _build(ctx: RecordContext, parts: list[Any]) -> dict[str, Any]:
    """The record's data from the parsed pieces; positions and faults go into ``ctx``."""
    from lark import Token

    data: dict[str, Any] = {}
    tags = [p for p in parts if isinstance(p, Token)]
    ctx.pos("", tags[0])
    _tags(ctx, tags, data)
    note = parts[len(tags)]
    if note[0] is not None:
        data["glyph"] = note[0]
    if note[1]:
        data["comments"] = note[1]
    declarations: list[dict[str, Any]] = []
    for kind, body in parts[len(tags) + 1:]:
        if kind == "hands":
            hands: dict[str, CardSet] = {}
            if isinstance(body, Token):
                ctx.pos("hands", body)
            for kw, label, cards in body if not isinstance(body, Token) else ():
                seat = label[:-1]
                if not hands:
                    ctx.pos("hands", kw)
                if seat in hands:
                    ctx.error(Code.BAD_VALUE, Msg("the hand of {seat} is given twice",
                                                  seat=seat), label)
                ctx.pos(f"hands.{seat}", label)
                hands[seat] = _card_list(ctx, cards, Msg("the hand of {seat}", seat=seat))
            data["hands"] = hands
        elif kind == "chien":
            ctx.pos("chien", body[0])
            data["chien"] = _card_list(ctx, body[1], Msg("the chien"))
        elif kind == "auction":
            ctx.pos("auction", body[0])
            bids = []
            for i, (tok, bnote) in enumerate(body[1:]):
                ctx.pos(f"auction[{i}]", tok)
                seat, word = _split_seated(tok)
                bid: dict[str, Any] = {"contract": BIDS[word.lower()]}
                if seat is not None:
                    bid["seat"] = seat
                bids.append(_annotated(bid, bnote))
            data["auction"] = bids
        elif kind == "call":
            ctx.pos("call", body[0])
            data["call"] = _annotated({"card": parse_card(body[1])}, body[2])
        elif kind == "ecart":
            ctx.pos("ecart", body[0])
            ecart: dict[str, Any] = {}
            for piece in body[1:-1]:
                if isinstance(piece, tuple):  # shown: ...
                    ecart["shown"] = _card_list(ctx, piece[1], Msg("the cards shown"))
                else:
                    ecart["cards"] = _card_list(ctx, piece, Msg("the écart"))
            data["ecart"] = _annotated(ecart, body[-1])
        elif kind == "declaration":
            what, kw, seat_tok, extra, cards, dnote = body
            ctx.pos(f"declarations[{len(declarations)}]", kw)
            decl: dict[str, Any] = {"kind": what, "seat": str(seat_tok).rstrip(":")}
            if what == "poignee":
                if extra is not None:
                    decl["size"] = str(extra).lower()
                if cards is not None:
                    decl["cards"] = _card_list(ctx, cards, Msg("the poignée"))
            elif what == "misere":
                decl["misere"] = "atout" if str(extra).lower() == "atout" else "tete"
            declarations.append(_annotated(decl, dnote))
        elif kind == "play":
            ctx.pos("play", body[0])
            _numbering(ctx, [trick[0] for trick in body[1:]])
            tricks = []
            for t, (num, leader, tnote, played) in enumerate(body[1:]):
                path = f"play[{t}]"
                ctx.pos(path, num)
                cards_out: list[dict[str, Any]] = []
                for run, cnote in played:
                    simple = "\n" not in run
                    for m in _NONSPACE.finditer(run):
                        c = len(cards_out)
                        if simple:
                            ctx.positions[f"{path}.cards[{c}]"] = (
                                ctx.line0 + run.line, run.column + m.start())
                        else:
                            ctx.pos(f"{path}.cards[{c}]", _inner(run, m.start(), m.group()))
                        seat, word = _split_seated(m.group())
                        pc: dict[str, Any] = {"card": parse_card(word)}
                        if seat is not None:
                            pc["seat"] = seat
                        cards_out.append(pc)
                    _annotated(cards_out[-1], cnote)
                trick: dict[str, Any] = {"cards": cards_out}
                if leader is not None:
                    trick["leader"] = leader[1:-1].strip()
                tricks.append(_annotated(trick, tnote))
            data["play"] = tricks
        else:  # result
            data["result"] = _result(ctx, body[0], body[1:])
    if declarations:
        data["declarations"] = declarations
    if ctx.result_tag is not None:
        tok, value = ctx.result_tag
        if "result" in data:
            ctx.error(Code.BAD_TAG, Msg("the result is given twice: by the Result tag and by the"
                                        " result section"), tok)
        else:
            result = _result_tag(ctx, tok, value)
            if result is not None:
                data["result"] = result
    if "players" not in data:
        data["players"] = players_of(data)
    return data


def _numbering(ctx: RecordContext, numbers: list[Token]) -> None:
    """The trick numbers, each fault said once: a trick missing where the numbering jumps
    (once, the later tricks read as numbered on from there), tricks written out of order
    (once), a number given twice."""
    written = [int(tok[:-1]) for tok in numbers]
    if written == list(range(1, len(written) + 1)):
        return
    if sorted(written) == list(range(1, len(written) + 1)):
        t = next(t for t, n in enumerate(written) if n != t + 1)
        ctx.error(Code.BAD_VALUE, Msg("trick {t} is numbered {written}: the tricks are written"
                                      " out of order; write them in the order they were played,"
                                      " numbered from 1", t=t + 1, written=written[t]), numbers[t])
        return
    before = 0
    for t, n in enumerate(written):
        if n == before + 1:
            pass
        elif t == 0:
            missing = Msg("") if n == 0 else (Msg(" (or trick 1 is missing)") if n == 2 else
                                              Msg(" (or tricks 1 to {last} are missing)",
                                                  last=n - 1))
            ctx.error(Code.BAD_VALUE, Msg("trick 1 is numbered {n}: the tricks are numbered from"
                                          " 1{missing}", n=n, missing=missing), numbers[t])
        elif n > before + 1:
            gap = (Msg("trick {first} is missing", first=before + 1) if n == before + 2 else
                   Msg("tricks {first} to {last} are missing", first=before + 1, last=n - 1))
            ctx.error(Code.BAD_VALUE, Msg("trick {t} is numbered {n}: {gap} (the numbering jumps"
                                          " from {before} to {n}), or the tricks are numbered"
                                          " wrongly", t=t + 1, n=n, gap=gap, before=before),
                      numbers[t])
        elif n == before:
            ctx.error(Code.BAD_VALUE, Msg("trick {t} is numbered {n} again: each trick has its"
                                          " own number, in the order played",
                                          t=t + 1, n=n), numbers[t])
        else:
            ctx.error(Code.BAD_VALUE, Msg("trick {t} is numbered {n}, after trick {before}: the"
                                          " tricks are written in the order played, numbered from"
                                          " 1", t=t + 1, n=n, before=before),
                      numbers[t])
        before = n


def _model_faults(ctx: RecordContext, err: ValidationError, source: SourceMap) -> None:
    """The model's faults (:func:`tarotnotation.faults.model_faults`), at the part each
    names when known."""
    from ..faults import model_faults

    for diag in model_faults(err):
        ctx.diags.append(source.locate(diag.at(deal=ctx.deal)))


def parse_record(text: str, *, name: str | None = None, deal: int = 1,
                 line: int = 1, offset: int | None = None,
                 diagnostics: Iterable[Diagnostic] = (), fast: bool | None = None) -> ReadDeal:
    """Read the text of exactly one record (``line`` is the line where it starts).

    The record is first offered to the fast scanner (:mod:`tarotnotation.notation.scanner`),
    which reads plain records and leaves anything else to the grammar; ``fast=False``, or
    ``TAROT_READER=grammar`` in the environment when ``fast`` is None, reads every record
    with the grammar. Both ways give the same record, diagnostics and positions.
    """
    return _read_record(text, _scanned(text, fast), name=name, deal=deal, line=line,
                        offset=offset, diagnostics=diagnostics)


def _scanned(text: str, fast: bool | None = None) -> dict[str, Any] | None:
    """The fast scanner's data of a record's text (the one scan of the record, which the
    judge and the record builder both take), or None: the scanner left it to the grammar,
    or the scanner is off (``fast=False``; when None, ``TAROT_READER=grammar``)."""
    if fast is None:
        fast = os.environ.get(READER_ENV) != "grammar"
    return scanner.scan(text) if fast else None


def _read_record(text: str, data: dict[str, Any] | None, *, name: str | None, deal: int,
                 line: int, offset: int | None, diagnostics: Iterable[Diagnostic] = ()
                 ) -> ReadDeal:
    """:func:`parse_record` of a record already scanned: ``data`` the scanner's (built
    into a record by :func:`~tarotnotation.builder.build_record`), else None (the
    grammar reads the record)."""
    ctx = RecordContext(name, deal, line - 1, {}, list(diagnostics), text)
    if data is not None:  # positions: the grammar path's, worked out when first asked
        from ..builder import build_record

        return _finish(ctx, data, LazyPositions(text, line - 1), line, offset,
                       build_record(data))
    from lark.exceptions import UnexpectedInput  # (the grammar's: not for a plain record)

    try:
        parts: list[Any] = parser().parse(text, start="start")  # type: ignore[assignment]
    except UnexpectedInput as err:
        syntax_fault(ctx, text, err)
        return read_deal(deal, None, tuple(ctx.diags), None, line, offset)
    return _finish(ctx, _build(ctx, parts), ctx.positions, line, offset)


class LazyPositions(Mapping[str, tuple[int, int]]):
    """The positions of a record's parts, worked out by the grammar path on first use.

    >>> positions = LazyPositions('[Players "4"]\\nauction: pass garde', 10)
    >>> positions["auction[1]"], len(positions) > 0
    ((12, 15), True)
    """

    __slots__ = ("_line0", "_map", "_text")

    def __init__(self, text: str, line0: int) -> None:
        self._text = text
        self._line0 = line0
        self._map: dict[str, tuple[int, int]] | None = None

    def _positions(self) -> dict[str, tuple[int, int]]:
        if self._map is None:
            self._map = _grammar_positions(self._text, self._line0)
        return self._map

    def __getitem__(self, path: str) -> tuple[int, int]:
        return self._positions()[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())

    def __repr__(self) -> str:
        return f"LazyPositions({self._positions()!r})"


def _grammar_positions(text: str, line0: int) -> dict[str, tuple[int, int]]:
    """The positions of a record's parts as the grammar path finds them (``line0``: the
    lines before the record); empty if the grammar cannot read the record."""
    from lark.exceptions import UnexpectedInput

    ctx = RecordContext(None, 1, line0, {}, [], text)
    try:
        parts: list[Any] = parser().parse(text, start="start")  # type: ignore[assignment]
    except UnexpectedInput:
        return {}
    _build(ctx, parts)
    return ctx.positions


#: The environment variable that chooses the reading path: ``grammar`` turns the fast
#: scanner off (for debugging, and for the differential tests).
READER_ENV: Final = "TAROT_READER"
_T = TypeVar("_T")


def _finish(ctx: RecordContext, data: dict[str, Any], positions: Mapping[str, tuple[int, int]],
            line: int, offset: int | None, record: DealRecord | None = None) -> ReadDeal:
    """The record from the built data (either path): the model and its faults.

    ``record`` is the record already built from ``data`` without pydantic, if it could be
    (:func:`~tarotnotation.builder.build_record`, for the fast path's data in the JSON
    layout); else the model validates ``data`` and words its faults.
    """
    deal = ctx.deal
    source = SourceMap(ctx.name, positions)
    if any(d.is_error for d in ctx.diags):
        return read_deal(deal, None, tuple(ctx.diags), source, line, offset)
    if record is not None:
        return read_deal(deal, record, tuple(ctx.diags), source, line, offset)
    try:
        from pydantic import ValidationError

        from ..records import DealRecord

        record = DealRecord.model_validate(data)
    except ValidationError as err:
        _model_faults(ctx, err, source)
        return read_deal(deal, None, tuple(ctx.diags), source, line, offset)
    return read_deal(deal, record, tuple(ctx.diags), source, line, offset)


def _read_stream(source: IO[str] | IO[bytes], name: str | None, line: int = 0,
                 offset: int = 0, judge: Callable[[dict[str, Any]], _T | None] | None = None,
                 index: int = 0) -> Iterator[Any]:
    """The deals of a stream, each yielded as soon as its record is read; the next record
    is read first only to judge a record of tags only or a comment never closed.
    ``line`` and ``offset``: the lines and bytes of the file before the stream; ``judge``:
    see :func:`read_at`; ``index``: the deals of the file before the stream."""
    chunks = record_chunks(source, line=line, at=offset)
    ahead: Chunk | None = None  # the next record, when it had to be read already
    before: Chunk | None = None
    while True:
        chunk, ahead = (ahead, None) if ahead is not None else (next(chunks, None), None)
        if chunk is None:
            return
        index += 1
        if chunk.fault is not None:  # not UTF-8, or too long: one error, and go on
            code, msg, line, col = chunk.fault
            yield read_deal(index, None, (Diagnostic.make(
                code, msg, file=name, line=line, col=col, deal=index),),
                None, chunk.line, chunk.offset)
            before = None
            continue
        while chunk.lines and not chunk.lines[-1].strip():
            chunk.lines.pop()
        names = _tag_names(chunk)
        if names is not None:
            ahead = next(chunks, None)
            split = _split_tags(chunk, names, before, ahead)
            if split is not None:
                before = chunk
                line, col, msg = split
                yield read_deal(index, None, (Diagnostic.make(
                    Code.BAD_TAG, msg, file=name, line=line, col=col, deal=index,
                    context=caret(_line_of(chunk, ahead, line), col)),),
                    None, chunk.line, chunk.offset)
                continue
        text = "\n".join(chunk.lines)
        data = _scanned(text)  # scanned once: offered to the judge, then to the builder
        if judge is not None and data is not None:
            value = judge(data)
            if value is not None:  # a plain record the judge takes: no record built
                before = chunk
                yield index, chunk.line, chunk.offset, value
                continue
        deal = _read_record(text, data, name=name, deal=index, line=chunk.line,
                            offset=chunk.offset)
        if chunk.follows and before is not None and deal.record is None:
            deal = _not_a_tag_line(deal, chunk)
        before = chunk
        if any(d.code is Code.UNTERMINATED_COMMENT for d in deal.diagnostics):
            if ahead is None:
                ahead = next(chunks, None)
            cut = None if ahead is None or ahead.fault is not None else _comment_cut(
                chunk, ahead, name, index)
            if cut is not None:  # the next "record" is the rest of this one's comment
                deal = replace(deal, diagnostics=tuple(
                    cut if d.code is Code.UNTERMINATED_COMMENT else d
                    for d in deal.diagnostics))
                before, ahead = ahead, None
        yield deal


def _not_a_tag_line(deal: ReadDeal, chunk: Chunk) -> ReadDeal:
    """A record cut off the one before by a line that starts with ``[`` but is not a line
    of tags: its fault there says so (not "malformed tag" with a made-up value)."""
    first = chunk.lines[0] if chunk.lines else ""
    if '"' in first or first.rstrip().endswith("]"):
        return deal  # tags, well written or not: a record of its own
    col = len(first) - len(first.lstrip(" \t")) + 1
    message = ("this line starts with [, so it begins a new record, but it is not a line of"
               " tags: a line of a deal cannot start with [ (a trick's leader is written"
               " (S); in a comment, write \\[)")
    return replace(deal, diagnostics=tuple(
        replace(d, message=message, location=replace(d.location, col=col),
                context=caret(first, col))
        if d.code is Code.BAD_TAG and d.location.line == chunk.line else d
        for d in deal.diagnostics))


def _tag_names(chunk: Chunk) -> set[str] | None:
    """The names of a record's tags (lowercase) when it holds nothing but tags (no
    section, no comment, no Result tag); None otherwise."""
    names: set[str] = set()
    for line in chunk.lines:
        rest = TAG_RE.sub("", line)
        if rest.strip():
            return None
        names.update(m.group(1).lower() for m in TAG_RE.finditer(line))
    return None if "result" in names else names


def _all_tags(chunk: Chunk) -> set[str]:
    return {m.group(1).lower() for line in chunk.lines for m in TAG_RE.finditer(line)}


def _split_tags(chunk: Chunk, names: set[str], before: Chunk | None,
                ahead: Chunk | None) -> tuple[int, int, str] | None:
    """Where a record of tags only (their ``names``) is one record's tags cut in two, and
    why: a blank line inside the tags, or a tag written after the sections. Two records
    are told apart by their tags: the parts of one record's tags do not repeat a tag."""
    if chunk.follows and before is not None and not names & _all_tags(before):
        col = len(chunk.lines[0]) - len(chunk.lines[0].lstrip(" \t")) + 1
        return (chunk.line, col, "a tag after the sections starts a new record, here of tags"
                " only: the tags come first; move it up among the tags of the deal above"
                f" (line {before.line})")
    if (ahead is not None and ahead.blank is not None and ahead.fault is None
            and ahead.lines and ahead.lines[0].lstrip(" \t").startswith("[")
            and not names & _all_tags(ahead)):
        return (ahead.blank, 1, "a blank line inside the tags cuts this deal in two: the tags"
                f" above it make a record of tags only, those of line {ahead.line} another;"
                f" remove the blank line (line {ahead.blank})")
    return None


def _line_of(chunk: Chunk, ahead: Chunk | None, line: int) -> str:
    """The text of line ``line`` of a record (or of the next one), or ``""``."""
    for part in (chunk, ahead):
        if part is not None and part.line <= line < part.line + len(part.lines):
            return part.lines[line - part.line]
    return ""


def _comment_cut(chunk: Chunk, ahead: Chunk, name: str | None, index: int
                 ) -> Diagnostic | None:
    """The fault when a comment of ``chunk`` goes on in ``ahead``, cut there by a comment
    line that starts with ``[`` (read as a tag line): the two read as one close the
    comment. None when they do not (the comment is just never closed)."""
    first = ahead.lines[0] if ahead.lines else ""
    if not first.lstrip(" \t").startswith("[") or TAG_RE.sub("", first).strip() == "":
        return None  # a line of tags: a record of its own
    joined = "\n".join(chunk.lines + [""] * (ahead.line - chunk.line - len(chunk.lines))
                       + ahead.lines)
    again = parse_record(joined, name=name, deal=index, line=chunk.line, fast=False)
    if any(d.code is Code.UNTERMINATED_COMMENT for d in again.diagnostics):
        return None
    col = len(first) - len(first.lstrip(" \t")) + 1
    return Diagnostic.make(
        Code.UNTERMINATED_COMMENT, Msg("this line of a { comment starts with [, so it starts a"
                                       " new record and cuts the comment off: write \\[ at the"
                                       " start of a comment's line (the writer does)"),
                                   file=name, line=ahead.line, col=col, deal=index,
        context=caret(first, col))


def read(source: str | os.PathLike[str] | IO[str] | IO[bytes], *,
         name: str | None = None) -> Iterator[ReadDeal]:
    """Each record of a file (a path) or of an open text or binary stream, one at a time.

    Memory stays constant whatever the input's size: one record is held at a time.
    ``name`` is the file name put in diagnostics (a path's own name by default). Offsets
    are in bytes for files and binary streams (so they can be given to ``seek``), in
    characters for text streams. To read notation held in a string, use :func:`reads`.
    """
    if isinstance(source, (str, os.PathLike)):
        return read_file(source, name=name)
    return _read_stream(source, name)


def read_file(path: str | os.PathLike[str], *, name: str | None = None) -> Iterator[ReadDeal]:
    """Each record of a ``.tarot`` file (UTF-8; a record with other bytes gets an S007 error)."""
    file = os.fspath(path)
    with open(file, "rb") as fp:
        yield from _read_stream(fp, name or file)


def read_at(source: IO[bytes], *, name: str | None = None, line: int = 0,
            offset: int = 0, judge: Callable[[dict[str, Any]], _T | None] | None = None,
            index: int = 0) -> Iterator[ReadDeal | tuple[int, int, int, _T]]:
    """The records of a binary stream that starts after ``line`` lines and ``offset``
    bytes of a file, at the start of a record (its start, or after a blank line: a part
    of the file, as a worker reads it): each as reading the whole file gives it, with its
    lines and offsets in the file, but numbered from ``index`` + 1.

    ``judge``, when given, is offered the data of each record the fast scanner reads (in
    the JSON layout, no record built); when it returns a value, ``(index, line, offset,
    value)`` stands for the deal. That is where the quick check of a plain clean deal
    plugs in (:mod:`tarotnotation.archive`); ``TAROT_READER=grammar`` turns it off with
    the scanner.
    """
    return _read_stream(source, name, line, offset, judge, index)


def reads(text: str, *, name: str | None = None) -> Iterator[ReadDeal]:
    """Each record of a string of notation text."""
    return _read_stream(io.StringIO(text), name)


def loads(text: str) -> DealRecord:
    """The one record of ``text``; raises :class:`TarotError` if it cannot be read.

    >>> rec = loads('[Players "3"]\\nresult: prise taker S points 51 bouts 1')
    >>> rec.players, rec.result.taker_points
    (3, Points(102))
    >>> try:
    ...     loads('[Players "4"]\\nauction: pass gardez')
    ... except TarotError as err:
    ...     print(err.diagnostics[0].location.text_position(), err.diagnostics[0].code.value)
    <input>:2:15 S006
    """
    return _one(reads(text))


def load(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> DealRecord:
    """The one record of a file (path) or stream; raises :class:`TarotError` if unreadable."""
    if isinstance(source, (str, os.PathLike)):
        return _one(read_file(source))
    return _one(read(source))


def _one(deals: Iterator[ReadDeal]) -> DealRecord:
    found = list(deals)
    if len(found) != 1:
        raise TarotError(Diagnostic.make(
            Code.SYNTAX_ERROR, Msg("expected one record, found {count}", count=len(found)),
        ))
    deal = found[0]
    if deal.record is None or not deal.ok:
        raise TarotError([d for d in deal.diagnostics if d.is_error])
    return deal.record

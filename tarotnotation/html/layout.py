"""The pages: a deal page, an archive's index, and one file holding every deal.

The page's script and stylesheet (``tarot.js`` and ``tarot.css``, package data) are put
inline in a self-contained page, or shared as two files by the pages of a site. Either way
the page carries a Content Security Policy that allows no network access, no inline event
handler and no script or style but its own: inline ones by their SHA-256 hash, a site's
by ``'self'``; Trusted Types are required, so no string can reach ``innerHTML`` or
``eval`` even by mistake. The deal's data is embedded as JSON (:mod:`.escape`).

>>> page = deal_page({"n": 1, "title": "</title><script>alert(1)</script>"})
>>> "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" in page
True
>>> "default-src 'none'" in page and "'unsafe-inline'" not in page
True
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import IO, Any, Final

from .. import __version__
from ..i18n import Msg, language, nmsg, pmsg, render
from .escape import json_bytes, text
from .words import words_json

__all__ = [
    "SCRIPT_NAME",
    "STYLE_NAME",
    "asset",
    "book_deal",
    "book_end",
    "book_start",
    "compact",
    "compact_css",
    "compact_js",
    "csp",
    "deal_page",
    "deal_page_bytes",
    "index_data",
    "index_page",
    "play_csp",
    "play_page",
]

SCRIPT_NAME: Final = "tarot.js"
STYLE_NAME: Final = "tarot.css"

#: The suit pips and the Excuse's star, drawn once and used by every card (``<use>``).
SYMBOLS: Final = (
    '<svg class="symbols" width="0" height="0" aria-hidden="true" focusable="false">'
    '<symbol id="pip-S" viewBox="0 0 100 100"><path d="M50 4C36 28 6 40 6 62c0 16 15 24 28'
    ' 20 6-2 10-6 12-10-2 12-6 20-14 24h36c-8-4-12-12-14-24 2 4 6 8 12 10 13 4 28-4 28-20'
    ' 0-22-30-34-44-58z"/></symbol>'
    '<symbol id="pip-H" viewBox="0 0 100 100"><path d="M50 93C35 76 5 59 5 33 5 17 17 7 30'
    ' 7c10 0 17 6 20 15 3-9 10-15 20-15 13 0 25 10 25 26 0 26-30 43-45 60z"/></symbol>'
    '<symbol id="pip-D" viewBox="0 0 100 100"><path d="M50 3l38 47-38 47-38-47z"/></symbol>'
    '<symbol id="pip-C" viewBox="0 0 100 100"><circle cx="50" cy="28" r="20"/>'
    '<circle cx="26" cy="58" r="20"/><circle cx="74" cy="58" r="20"/>'
    '<path d="M45 50c0 22-4 34-13 46h36c-9-12-13-24-13-46z"/></symbol>'
    '<symbol id="pip-X" viewBox="0 0 100 100"><path d="M50 4l12 34h36L69 59l11 35-30-21-30'
    ' 21 11-35L2 38h36z"/></symbol>'
    '<symbol id="ic-1" viewBox="0 0 100 100"><path d="M30 15l50 35-50 35z"/></symbol>'
    '<symbol id="ic-2" viewBox="0 0 100 100"><path d="M8 15l42 35-42 35zM50 15l42 35-42'
    ' 35z"/></symbol>'
    '<symbol id="ic-3" viewBox="0 0 100 100"><path d="M15 15l50 35-50 35zM70 15h14v70H70z"/>'
    "</symbol></svg>"
)


def compact(source: str) -> str:
    """Script or stylesheet source without its indentation, blank lines, comment lines
    (a comment that starts a line and ends one, as the sources write them) and the
    comments that end a line (without a quote in them, after code with none open).

    >>> print(compact("/* a\\n   b */\\nvar x = 1;  \\n\\n    /* c */\\n  f(x); /* d */\\n"))
    var x = 1;
    f(x);
    <BLANKLINE>
    >>> print(compact('s = "/* x */";\\n'), end="")
    s = "/* x */";
    """
    out: list[str] = []
    in_comment = False
    for line in source.splitlines():
        stripped = line.strip()
        if in_comment:
            in_comment = not stripped.endswith("*/")
            continue
        if stripped.startswith("/*"):
            if stripped.endswith("*/") and len(stripped) > 3:
                continue
            if "*/" not in stripped:
                in_comment = True
                continue
        tail = _TAIL_COMMENT.search(stripped)
        if tail and stripped[:tail.start()].count('"') % 2 == 0 and "'" not in stripped:
            stripped = stripped[:tail.start()]
        if stripped:
            out.append(stripped)
    return "\n".join(out) + "\n"


#: A comment that ends a line, after code (see :func:`compact`).
_TAIL_COMMENT: Final = re.compile(r"\s*/\*[^\"'*]*\*/$")


def compact_js(source: str) -> str:
    """A script :func:`compact`, without the line break after a line that ends with
    ``{``, ``;`` or ``,`` (where no statement can end by the break alone; the script has
    no template literal and no ``//`` comment), and without the spaces and comments
    that separate nothing (:func:`_js_spaces`).

    >>> compact_js("if (a) {\\n  f(1,\\n    2);\\n}\\nx = y\\n")
    'if(a){f(1,2);}\\nx=y\\n'
    """
    return _js_spaces("".join(line + ("" if line.endswith(("{", ";", ",")) else "\n")
                              for line in compact(source).splitlines()))


#: A script's tokens as :func:`_js_spaces` needs them: a comment, a string, a regular
#: expression's body (told from a division by what comes before it), a word, white space,
#: any other character.
_JS_TOKEN: Final = re.compile(r"""
    (?P<comment>/\*[\s\S]*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<slash>/)
  | (?P<word>[\w$]+)
  | (?P<space>\s+)
  | (?P<other>.)""", re.X | re.S)
_JS_REGEX: Final = re.compile(r"(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")
#: The words after which a slash starts a regular expression, not a division.
_JS_BEFORE_REGEX: Final = frozenset({"return", "typeof", "case", "in", "of", "new", "delete",
                                     "void", "throw", "instanceof", "else", "do"})


def _js_spaces(script: str) -> str:
    """A script without its comments and the spaces that separate nothing: a space is
    kept only between two words (``var x``, ``return a``), between ``+ +`` or ``- -``
    and before a dot after a number; a line break is kept as one (a statement may end
    there). Strings and regular expressions are kept whole.

    >>> print(_js_spaces('var a = b / 2 + f( "x  y" ) ; /* c */ return  /  +/g.test(a - -1)'))
    var a=b/2+f("x  y");return/  +/g.test(a- -1)
    """
    out: list[str] = []
    last = ""  # the last token kept ("" at the start)
    pending = ""  # the white space since it: "", " " or "\n"
    pos = 0
    while pos < len(script):
        m = _JS_TOKEN.match(script, pos)
        assert m is not None  # (every character matches "other" at least)
        kind, token = m.lastgroup, m.group()
        pos = m.end()
        if kind in ("space", "comment"):
            if "\n" in token:
                pending = "\n"
            elif not pending:
                pending = " "
            continue
        if kind == "slash" and (not last or last in _JS_BEFORE_REGEX
                                or not (last[-1].isalnum() or last[-1] in "_$)]")):
            body = _JS_REGEX.match(script, pos)
            if body is not None:
                token += body.group()
                pos = body.end()
        if pending == "\n":
            out.append("\n")
        elif pending and last and (
                (_js_word(last[-1]) and _js_word(token[0]))
                or (last[-1] in "+-/" and token[0] == last[-1])
                or (last[0] == "/" and len(last) > 1 and _js_word(token[0]))
                or (token[0] == "." and last.isdigit())):
            out.append(" ")
        out.append(token)
        last, pending = token, ""
    if pending == "\n":
        out.append("\n")
    return "".join(out)


def _js_word(char: str) -> bool:
    return char.isalnum() or char in "_$\\"


_CSS_SPACE: Final = re.compile(r"\s*([{};,>])\s*|(:)\s+")


def compact_css(source: str) -> str:
    """A stylesheet :func:`compact`, without the spaces around ``{ } ; , >`` and after
    ``:`` (on lines without a string).

    >>> compact_css(".a > b, .c { color: red; margin: 0 1px; }\\n.d::after { content: ' x'; }")
    ".a>b,.c{color:red;margin:0 1px}.d::after { content: ' x'; }\\n"
    """
    lines = [line if "'" in line or '"' in line else
             _CSS_SPACE.sub(lambda m: m.group(1) or m.group(2), line).replace(";}", "}")
             for line in compact(source).splitlines()]
    # a line that ends a rule or a declaration needs no line break after it
    return "".join(line + ("" if line.endswith(("{", "}", ";")) else "\n")
                   for line in lines) + "\n"


_INDEX_PART: Final = re.compile(r"^ */\* index: begin.*?^ */\* index: end \*/\n", re.S | re.M)
_PLAY_PART: Final = re.compile(r"^ */\* play: begin.*?^ */\* play: end \*/\n", re.S | re.M)


@functools.cache
def asset(name: str, index: bool = True, play: bool = False) -> str:
    """The script or the stylesheet (package data), compacted (:func:`compact`,
    :func:`compact_css`); either without the index's part unless ``index``, and without
    the game's (``tarot play``) unless ``play``."""
    source = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    if not index:
        source, cut = _INDEX_PART.subn("", source)
        assert cut == 1, f"{name}'s index part is marked once"
    if not play:
        source, cut = _PLAY_PART.subn("", source)
        assert cut == 1, f"{name}'s play part is marked once"
    return compact_css(source) if name.endswith(".css") else compact_js(source)


def _sha256(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


@functools.cache
def csp(inline: bool, index: bool = True, play: bool = False) -> str:
    """The Content Security Policy of a page: nothing from the network, no inline event
    handler, no script or style but the page's own (by hash when inline, else the
    site's files), Trusted Types required (no string reaches an HTML or script sink)."""
    if inline:
        script = _sha256(asset(SCRIPT_NAME, index, play))
        style = _sha256(asset(STYLE_NAME, index, play))
    else:
        script = style = "'self'"
    return (f"default-src 'none'; script-src {script}; style-src {style}; img-src 'none';"
            " base-uri 'none'; form-action 'none';"
            " require-trusted-types-for 'script'; trusted-types 'none'")


def _head(title: str, inline: bool, page: str, extra: str = "", index: bool = True,
          play: bool = False) -> str:
    """The start of a page, in the run's language (``<html lang>``), the words of its
    script (:mod:`.words`) embedded as JSON at the start of its body."""
    style = (f"<style>{asset(STYLE_NAME, index, play)}</style>" if inline
             else f'<link rel="stylesheet" href="{STYLE_NAME}">')
    lang = language()
    policy = play_csp() if play else csp(inline, index)
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f'<meta name="generator" content="tarotnotation {text(__version__)}">\n'
        f"<title>{text(title)}</title>\n{style}\n</head>\n"
        f'<body data-page="{page}"{extra}>\n{SYMBOLS}\n'
        f'<script type="application/json" id="tarot-words">{words_json(lang, index, play)}'
        "</script>\n"
    )


def _script(inline: bool, index: bool = True, play: bool = False) -> str:
    return (f"<script>{asset(SCRIPT_NAME, index, play)}</script>" if inline
            else f'<script src="{SCRIPT_NAME}"></script>')


def _noscript() -> str:
    return "<noscript><p>" + text(render(Msg(
        "This page steps through the deal with JavaScript, which is turned off. The record's"
        " text is in the page's source."))) + "</p></noscript>"


def deal_page(data: Mapping[str, Any], *, inline: bool = True) -> str:
    """The page of one deal from its data (:func:`~.data.deal_data`): self-contained when
    ``inline``, else using the site's shared script and stylesheet."""
    title = str(data.get("title") or render(Msg("Deal")))
    return (
        _head(title, inline, "deal", index=False)
        + f'<main id="tarot"><h1>{text(title)}</h1>{_noscript()}</main>\n'
        + '<script type="application/json" id="tarot-data">'
        + json_bytes(data).decode("utf-8") + "</script>\n"
        + _script(inline, index=False) + "\n</body>\n</html>\n"
    )


def play_csp() -> str:
    """The Content Security Policy of the game page (``tarot play``): a deal page's, and
    its own server the one place it may connect to (its actions and its state)."""
    return csp(True, False, True) + "; connect-src 'self'"


def play_page(data: Mapping[str, Any]) -> bytes:
    """The game page of ``tarot play``: the viewer's page in play mode, its script and
    stylesheet inline with the game's part, ``data`` (the session's id) embedded; the
    page asks its server for the rest.

    >>> page = play_page({"session": "abc"}).decode()
    >>> 'data-page="play"' in page and "connect-src 'self'" in page
    True
    """
    title = render(Msg("Tarot: a game against the bots"))
    return (
        _head(title, True, "play", index=False, play=True)
        + f'<main id="tarot" class="play"><h1>{text(title)}</h1>{_noscript_play()}</main>\n'
        + '<script type="application/json" id="tarot-play">'
        + json_bytes(data).decode("utf-8") + "</script>\n"
        + _script(True, index=False, play=True) + "\n</body>\n</html>\n"
    ).encode("utf-8")


def _noscript_play() -> str:
    return "<noscript><p>" + text(render(Msg(
        "The game is played with JavaScript, which is turned off."))) + "</p></noscript>"


_MARK: Final = "\ue000title\ue000"


@functools.cache
def _deal_template(lang: str, inline: bool) -> tuple[bytes, bytes, bytes, bytes]:
    """:func:`deal_page` in its four constant parts, around the title (twice) and the
    data, in the run's language ``lang``."""
    opening = '<script type="application/json" id="tarot-data">'
    page = deal_page({"title": _MARK, "n": 0}, inline=inline)
    head, rest = page.split(opening, 1)
    before, middle, after = head.split(_MARK)
    return (before.encode("utf-8"), middle.encode("utf-8"),
            (after + opening).encode("utf-8"), rest[rest.index("</script>\n"):].encode("utf-8"))


def deal_page_bytes(data: Mapping[str, Any], *, inline: bool = True) -> bytes:
    """:func:`deal_page` encoded, its constant parts made once a run.

    >>> data = {"n": 1, "title": "Club <1>", "cards": []}
    >>> deal_page_bytes(data, inline=False) == deal_page(data, inline=False).encode()
    True
    """
    before, middle, opening, end = _deal_template(language(), inline)
    title = text(str(data.get("title") or render(Msg("Deal")))).encode("utf-8")
    return b"".join((before, title, middle, title, opening, json_bytes(data), end))


#: The index's columns: (heading, numeric, class). ``wide`` ones are left out on phones.
_COLUMNS: Final = (
    ("#", True, "c-n"), (pmsg("index", "Date"), False, "c-date wide"),
    (pmsg("index", "File"), False, "c-file wide"),
    (pmsg("index", "Event"), False, "c-event wide"),
    (pmsg("index", "Round"), True, "c-round wide"), (pmsg("index", "Table"), True, "c-table wide"),
    (pmsg("index", "Contract"), False, "c-contract"), (pmsg("index", "Taker"), False, "c-taker"),
    (pmsg("index", "Result"), True, "c-result"), (pmsg("index", "Score"), True, "c-score"),
    (pmsg("index", "Faults"), True, "c-faults"),
)


def index_data(rows: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """The rows of an index (:func:`~.data.index_row` dicts) as the page's script takes
    them, one list a deal: number, file:deal, event, round, table, contract, taker,
    outcome, signed margin, the taker's score, errors, warnings, date, the text searched
    besides (the players' names, every tag's value), the flags (``deal_flags``)."""
    return [[r["n"], f"{r['file']}:{r['index']}", r.get("event") or "", r.get("round") or "",
             r.get("table") or "", r.get("contract") or "", r.get("taker") or "",
             r.get("outcome") or "", r.get("margin"), r.get("score"),
             int(r.get("errors") or 0), int(r.get("warnings") or 0), r.get("date") or "",
             r.get("find") or "", list(r.get("flags") or ())] for r in rows]


def _index_table(title: str, rows: list[list[Any]]) -> str:
    num = ' data-type="num"'
    heads = "".join(
        f'<th scope="col" class="{cls}"{num if numeric else ""}>'
        f'<button type="button">{text(render(label))}</button></th>'
        for label, numeric, cls in _COLUMNS)
    count = len(rows)
    deals = render(nmsg("{n} deal", "{n} deals", count, n=count))
    filter_word = render(Msg("Filter"))
    placeholder = render(Msg("event, player, contract…"))
    filter_label = render(Msg("Filter the deals by any text"))
    caption = render(Msg("The deals; choose a column heading to sort them"))
    noscript = render(Msg("The index lists the deals with JavaScript, which is turned off."))
    return (
        f"<h1>{text(title)}</h1>\n"
        f'<div class="index-head"><label>{text(filter_word)} <input class="filter"'
        f' type="search" placeholder="{text(placeholder)}" aria-label="{text(filter_label)}"'
        ' autocomplete="off"></label>'
        f'<p class="count" role="status" aria-live="polite">{text(deals)}</p></div>\n'
        f'<table class="deals" aria-rowcount="{count + 1}"><caption class="sr-only">'
        f"{text(caption)}</caption>\n"
        f"<thead><tr>{heads}</tr></thead>\n<tbody></tbody></table>\n"
        f"<noscript><p>{text(noscript)}</p></noscript>\n"
        '<script type="application/json" id="tarot-index">'
        + json_bytes(rows).decode("utf-8") + "</script>\n"
    )


def index_page(title: str, rows: list[list[Any]], *, pages: str = "deal-{n}.html") -> str:
    """A site's index: the table of the deals (:func:`index_data`; sortable, filtered
    as you type, only the rows in view drawn), linking to each deal's page (``pages``
    names them); the site's script and stylesheet."""
    return (
        _head(title, False, "index", f' data-pages="{text(pages)}"')
        + f'<main id="index">\n{_index_table(title, rows)}</main>\n'
        + _script(False) + "\n</body>\n</html>\n"
    )


def book_start(fh: IO[bytes], title: str, rows: list[list[Any]]) -> None:
    """The start of one file holding every deal: the index, then the deals' data
    (:func:`book_deal`), then :func:`book_end`."""
    fh.write((
        _head(title, True, "book", ' data-pages="#deal={n}"')
        + f'<main>\n<section id="index">\n{_index_table(title, rows)}</section>\n'
        + '<div id="tarot" class="is-hidden"></div>\n</main>\n'
    ).encode("utf-8"))


def book_deal(fh: IO[bytes], data: Mapping[str, Any]) -> None:
    """One deal's data in a file holding every deal."""
    fh.write(b'<script type="application/json" id="deal-%d">' % int(data["n"]))
    fh.write(json_bytes(data))
    fh.write(b"</script>\n")


def book_end(fh: IO[bytes]) -> None:
    """The end of a file holding every deal: the script."""
    fh.write((_script(True) + "\n</body>\n</html>\n").encode("utf-8"))

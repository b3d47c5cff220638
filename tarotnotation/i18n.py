"""The languages people read: English (the default) and French.

Everything a person reads (a diagnostic's message, a summary, a table, ``--help``) is
written in English in the code and translated through the standard :mod:`gettext`
machinery, from the catalogue ``tarotnotation/locale/fr/LC_MESSAGES/tarotnotation.po``
(shipped with the package and read as it is: no compiled ``.mo``, no ``msgfmt``).
What machines read (JSON, JSON Lines, JUnit, codes, exit statuses, the notation's own
words) never changes with the language.

A message with values is a :class:`Msg`: a whole English sentence with named
placeholders, and its values. It *is* the English string (a :class:`str`), so every
program that reads ``diagnostic.message`` keeps reading English; :meth:`Msg.render`
gives it in another language, the sentence translated as a whole (so French word order
and agreement can be right) and the values that are themselves messages (a suit's
name, a list of cards) translated too.

>>> m = Msg("{suit} led and the player holds {suit}", suit=Msg("Clubs"))
>>> m
'Clubs led and the player holds Clubs'
>>> m.render("fr")
'renonce\xa0: Trèfle demandé, le joueur doit fournir'
>>> m.template, sorted(m.params)
('{suit} led and the player holds {suit}', ['suit'])

The language is chosen once per run (:func:`set_language`): ``--lang``, else the
``TAROT_LANG`` variable, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else
English.

>>> language_from_env({"LANG": "fr_FR.UTF-8"}), language_from_env({"LANG": "de_DE"})
('fr', 'en')
>>> language_from_env({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"})
'en'
>>> language_from_env({"LANG": "en_GB.UTF-8", "TAROT_LANG": "fr"})
'fr'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from functools import cache
from typing import Any, Final, cast

from .lexicon import CONTRACTS, FRENCH_SEATS, french_card

__all__ = [
    "AT",
    "DEFAULT",
    "LANGUAGES",
    "Msg",
    "PoTranslations",
    "Quoted",
    "Translations",
    "Written",
    "and_list",
    "at",
    "comma_list",
    "gettext_",
    "language",
    "language_from_env",
    "message_of",
    "ngettext",
    "nmsg",
    "normalize",
    "or_list",
    "pgettext",
    "plural_forms",
    "pmsg",
    "read_po",
    "render",
    "said",
    "set_language",
    "translations",
    "written",
]

LANGUAGES: Final = ("en", "fr")
"""The languages of the messages; English is the one the code is written in."""
DEFAULT: Final = "en"
DOMAIN: Final = "tarotnotation"
CONTEXT_SEP: Final = "\x04"
"""Between a message's context and its msgid in a catalogue's keys (as GNU ``.mo`` files
have it): ``"camp\x04taker"`` is "taker" said of a camp."""

_CURRENT: ContextVar[str | None] = ContextVar("tarot_language", default=None)


def normalize(value: str | None) -> str | None:
    """The language a locale or ``--lang`` value names (``fr_FR.UTF-8`` -> ``fr``), or
    None when it names none we have (``C``, ``POSIX``, ``de``).

    >>> normalize("fr_CA.utf8"), normalize("FR"), normalize("en_US"), normalize("C")
    ('fr', 'fr', 'en', None)
    """
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment: ``TAROT_LANG``, else the locale's messages
    category (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, the first one set, as
    POSIX reads them), else English."""
    env = os.environ if environ is None else environ
    forced = normalize(env.get("TAROT_LANG"))
    if forced:
        return forced
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:  # the first one set decides, even when it names no language of ours
            return normalize(value) or DEFAULT
    return DEFAULT


def set_language(lang: str | None) -> str:
    """Choose the language of this run (None: the environment's, read from now on at each
    use); returns it. A value that is not a language we have is a :class:`ValueError`.
    """
    if lang is None:
        _CURRENT.set(None)
        return language_from_env()
    chosen = normalize(lang)
    if chosen is None:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    _CURRENT.set(chosen)
    return chosen


def language() -> str:
    """The language of this run (set by :func:`set_language`, else the environment's)."""
    return _CURRENT.get() or language_from_env()


# --- catalogues ---------------------------------------------------------------------


def _unquote(text: str) -> str:
    import ast  # (only a run in another language than English reads a catalogue)

    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(f"not a string: {text}")
    return value


def read_po(text: str) -> Iterator[tuple[str, str | list[str], str | None, bool]]:
    """The entries of a ``.po`` catalogue, each (msgid, msgstr or the plural msgstrs,
    msgid_plural, fuzzy); entries are separated by blank lines. The header (empty
    msgid) is included. An entry with a ``msgctxt`` has the key ``context\\x04msgid``.

    >>> po = 'msgid "deal {n}"\\nmsgstr ""\\n"donne {n}"\\n'
    >>> list(read_po(po))
    [('deal {n}', 'donne {n}', None, False)]
    >>> list(read_po('msgctxt "camp"\\nmsgid "taker"\\nmsgstr "l\\'attaque"\\n'))
    [('camp\\x04taker', "l'attaque", None, False)]
    """
    for block in re.split(r"\n[ \t]*\n", text):
        fields: dict[str, str] = {}
        key: str | None = None
        fuzzy = False
        for raw in block.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
                continue
            if line.startswith('"'):
                if key is None:
                    raise ValueError(f"a string outside an entry: {raw}")
                fields[key] += _unquote(line)
                continue
            key, _, rest = line.partition(" ")
            fields[key] = _unquote(rest.strip())
        if "msgid" not in fields:
            continue
        plurals = sorted(k for k in fields if k.startswith("msgstr["))
        strs: str | list[str] = ([fields[k] for k in plurals] if plurals
                                 else fields.get("msgstr", ""))
        msgid = fields["msgid"]
        if "msgctxt" in fields:
            msgid = fields["msgctxt"] + CONTEXT_SEP + msgid
        yield msgid, strs, fields.get("msgid_plural"), fuzzy


class Translations:
    """No translation: English, as :class:`gettext.NullTranslations` gives it (its four
    lookups, without importing :mod:`gettext`, which a run in English never needs)."""

    def gettext(self, message: str) -> str:
        """``message``."""
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """The singular for 1, else the plural."""
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        """``message``."""
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        """The singular for 1, else the plural."""
        return msgid1 if n == 1 else msgid2


class PoTranslations(Translations):
    """The translations of a ``.po`` catalogue (fuzzy and empty entries left out: their
    English is used). French plurals: ``n > 1``."""

    def __init__(self, po_text: str) -> None:
        self.catalog: dict[str, str] = {}
        self.plurals: dict[str, list[str]] = {}
        for msgid, msgstr, plural, fuzzy in read_po(po_text):
            if not msgid or fuzzy:
                continue
            if plural is not None and isinstance(msgstr, list):
                if all(msgstr):
                    self.plurals[msgid] = msgstr
            elif isinstance(msgstr, str) and msgstr:
                self.catalog[msgid] = msgstr

    def gettext(self, message: str) -> str:
        """The translation of ``message``, or ``message``."""
        return self.catalog.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """The translation of the singular or plural form for ``n`` (French: 0 and 1
        take the singular)."""
        forms = self.plurals.get(msgid1)
        if forms is None:
            return msgid1 if n == 1 else msgid2
        return forms[min(int(n > 1), len(forms) - 1)]

    def pgettext(self, context: str, message: str) -> str:
        """The translation of ``message`` said in ``context``, or ``message``."""
        return self.catalog.get(context + CONTEXT_SEP + message, message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        """:meth:`ngettext` of a message said in ``context``."""
        forms = self.plurals.get(context + CONTEXT_SEP + msgid1)
        if forms is None:
            return msgid1 if n == 1 else msgid2
        return forms[min(int(n > 1), len(forms) - 1)]


def catalog_path(lang: str) -> Any:
    """The ``.po`` catalogue of ``lang`` inside the package (a Traversable)."""
    from importlib import resources  # (only a run in another language than English reads one)

    return resources.files("tarotnotation").joinpath(
        "locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")


@cache
def translations(lang: str) -> Translations:
    """The translations into ``lang`` (English: none)."""
    if lang == DEFAULT:
        return Translations()
    try:
        text = catalog_path(lang).read_text(encoding="utf-8")
    except OSError:  # a catalogue left out of an install: English rather than a failure
        return Translations()
    return PoTranslations(text)


def gettext_(message: str, lang: str | None = None) -> str:
    """``message`` in ``lang`` (default: this run's language)."""
    return translations(lang or language()).gettext(message)


def ngettext(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """The form of ``singular``/``plural`` for ``n``, in ``lang``.

    >>> [ngettext("{n} bout", "{n} bouts", n, "fr").format(n=n) for n in (0, 1, 2)]
    ['0 bout', '1 bout', '2 bouts']
    >>> [ngettext("{n} bout", "{n} bouts", n, "en").format(n=n) for n in (0, 1, 2)]
    ['0 bouts', '1 bout', '2 bouts']
    """
    return translations(lang or language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str, lang: str | None = None) -> str:
    """``message`` said in ``context`` (``msgctxt``), in ``lang``: the same English word
    can take different French forms ("taker": a camp, "l'attaque"; a column, "preneur").

    >>> pgettext("camp", "taker", "fr"), pgettext("column", "taker", "fr")
    ("l'attaque", 'preneur')
    """
    t = translations(lang or language())
    if isinstance(t, PoTranslations):
        return t.pgettext(context, message)
    return message


def plural_forms(singular: str, plural: str, lang: str | None = None) -> list[str]:
    """Both forms of a message, as a page's script takes them: ``[one, other]`` (the
    script picks one by the page's language: in French 0 and 1 take the first)."""
    return [ngettext(singular, plural, 1, lang), ngettext(singular, plural, 2, lang)]


# --- messages with values -----------------------------------------------------------


class Msg(str):
    """An English sentence with named placeholders and its values; the string is the
    English text. ``Msg("Hearts")``, without values, is a word to translate. A message
    may also have a context (:func:`pmsg`) or a plural and its count (:func:`nmsg`)."""

    template: str
    params: dict[str, object]
    context: str | None = None
    plural: str | None = None
    plural_n: int | None = None

    def __new__(cls, template: str, /, **params: object) -> Msg:
        text = template.format(**params) if params else template
        self = super().__new__(cls, text)
        self.template = template
        self.params = params
        return self

    def __getnewargs__(self) -> tuple[str]:
        return (str(self),)

    def render(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: this run's language)."""
        lang = lang or language()
        if lang == DEFAULT:
            return str(self)
        t = translations(lang)
        if self.plural is not None and self.plural_n is not None:
            template = (t.npgettext(self.context, self.template, self.plural, self.plural_n)
                        if self.context is not None and isinstance(t, PoTranslations)
                        else t.ngettext(self.template, self.plural, self.plural_n))
        elif self.context is not None:
            template = pgettext(self.context, self.template, lang)
        else:
            template = t.gettext(self.template)
        if not self.params:
            return template
        values = {k: v.render(lang) if isinstance(v, Msg) else
                  str(v) if isinstance(v, Written) else said(str(v), lang)
                  for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English
            return str(self)


def pmsg(context: str, template: str, /, **params: object) -> Msg:
    """A :class:`Msg` said in ``context`` (translated with ``msgctxt``): the English is
    the same, the French may differ by context.

    >>> pmsg("camp", "taker").render("fr"), pmsg("column", "taker").render("fr")
    ("l'attaque", 'preneur')
    """
    m = Msg(template, **params)
    m.context = context
    return m


def nmsg(singular: str, plural: str, count: int, /, **params: object) -> Msg:
    """A :class:`Msg` with a singular and a plural, the form chosen by ``count`` in each
    language (English: 1 takes the singular; French: 0 and 1 do).

    >>> [nmsg("{n} bout", "{n} bouts", n, n=n).render("fr") for n in (0, 1, 3)]
    ['0 bout', '1 bout', '3 bouts']
    >>> [str(nmsg("{n} bout", "{n} bouts", n, n=n)) for n in (0, 1, 3)]
    ['0 bouts', '1 bout', '3 bouts']
    """
    english = singular if count == 1 else plural
    m = Msg(english, **params)
    m.template, m.plural, m.plural_n = singular, plural, count
    return m


def render(value: object, lang: str | None = None) -> str:
    """A value as a person reads it in ``lang``: a :class:`Msg` translated, a plain
    string looked up whole in the catalogue (a fixed sentence), else as :func:`said`."""
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, str) and value:
        translated = gettext_(value, lang)
        return translated if translated != value else said(value, lang)
    return said(str(value), lang)


class Quoted(Msg):
    """A person's text quoted in a message: ``'ZZ'`` in English (as Python writes a
    string, its control characters escaped), « ZZ » in French. A long text is quoted cut,
    with its ``length``: ``'999…' (5,000 characters)``, « 999… » (5 000 caractères).

    >>> q = Quoted("ZZ")
    >>> q, q.render("fr"), Msg("{code} is not a card code", code=q).render("en")
    ("'ZZ'", '«\xa0ZZ\xa0»', "'ZZ' is not a card code")
    >>> cut = Quoted("999", length=5000)
    >>> cut, cut.render("fr")
    ("'999…' (5,000 characters)", '«\xa0999…\xa0» (5\u202f000 caractères)')
    """

    text: str
    length: int | None

    def __new__(cls, text: str, /, length: int | None = None) -> Quoted:
        english = repr(text) if length is None else (
            repr(text)[:-1] + f"…' ({length:,} characters)")
        self = cast(Quoted, super().__new__(cls, english))
        self.text, self.length = text, length
        return self

    def __reduce__(self) -> tuple[type[Quoted], tuple[str, int | None]]:
        return (Quoted, (self.text, self.length))

    def render(self, lang: str | None = None) -> str:
        """The quoted text in ``lang``."""
        lang = lang or language()
        if lang != "fr":
            return str(self)
        if self.length is None:
            return f"«\u00a0{repr(self.text)[1:-1]}\u00a0»"
        size = nmsg("{n} character", "{n} characters", self.length, n=f"{self.length:,}")
        return f"«\u00a0{repr(self.text)[1:-1]}…\u00a0» ({size.render(lang)})"


class Written(str):
    """Words of the notation that a message tells a person to write into a record (the
    cards of a trick, the card to put in another's place, a seat): said in every
    language as the notation writes them, so that they can be typed as they are.

    >>> typed, said_ = Msg("after {card}", card=written("T4")), Msg("after {card}", card="T4")
    >>> typed.render("fr"), said_.render("fr")
    ('après T4', 'après atout\xa04')
    """


def written(text: str) -> Written:
    """``text`` as :class:`Written`: a message's value that :func:`said` leaves alone."""
    return Written(text)


_DECIMAL: Final = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(%?)")
#: The contracts' keywords that are two words (``garde_sans``).
_TWO_WORDS: Final = frozenset(k for k in CONTRACTS.values() if "_" in k)


def said(value: str, lang: str | None = None) -> str:
    """A value of a record (no sentence: a card, a list of cards, a seat, a number) as
    a person reads it in ``lang``. In French: a card as a French player writes it (``KC``
    reads « Roi de Cœur » to him: it is ``R♣``), the seat W as O (Ouest), a number with a
    decimal comma and thin spaces between thousands (« 43,5 points », « 28,6 % »,
    « 3 474 »), a contract in words (« garde sans »).
    Anything else, and every value in English, as it is: machines read the notation's
    words, whatever the language.

    >>> said("KC", "fr"), said("7S T21 EX", "fr"), said("W", "fr"), said("43.5", "fr")
    ('R♣', '7♠ atout\xa021 Excuse', 'O', '43,5')
    >>> said("28.6%", "fr"), said("0%", "fr"), said("garde_sans", "fr"), said("12", "fr")
    ('28,6\xa0%', '0\xa0%', 'garde sans', '12')
    >>> said("KC", "en"), said("Alice", "fr"), said("2026.11.14", "fr"), said("+64", "fr")
    ('KC', 'Alice', '2026.11.14', '+64')
    >>> said("+3,474", "fr"), said("-1,204.35", "fr"), said("1,2", "fr")
    ('+3\u202f474', '-1\u202f204,35', '1,2')
    """
    if (lang or language()) != "fr" or not value:
        return value
    card = french_card(value)
    if card is not None:
        return card
    if value in FRENCH_SEATS:
        return FRENCH_SEATS[value]
    if value in _TWO_WORDS:
        return value.replace("_", " ")
    number = _DECIMAL.fullmatch(value)
    if number is not None:
        sign, whole, part, pct = number.groups()
        return (sign + whole.replace(",", "\u202f") + ("," + part if part else "")
                + ("\u00a0%" if pct else ""))
    if " " in value:
        cards = [french_card(word) for word in value.split(" ")]
        if all(cards):
            return " ".join(c for c in cards if c)
    return value


#: The template of :func:`at`: a message that names the place of a record it is about.
AT: Final = "{where}: {message}"


def at(where: str, message: str) -> Msg:
    """``message`` about a place of a record (``hands.S``, ``play[2]``), that place first:
    the English is ``where: message``; a reader that gives the place on its own takes the
    message from :attr:`Msg.params` (``params["message"]``), still to be translated.

    >>> m = at("play[2]", Msg("a trick needs at least one card"))
    >>> m, m.params["message"].render("fr")
    ('play[2]: a trick needs at least one card', 'un pli doit avoir au moins une carte')
    """
    return Msg("{where}: {message}", where=where, message=message)  # AT, for the catalogue


def message_of(err: BaseException) -> str:
    """The message an exception was raised with: the :class:`Msg` itself when it was one
    (so that it can still be read in another language), else the exception's text.

    >>> message_of(ValueError(Msg("Hearts"))).render("fr"), message_of(KeyError("x"))
    ('Cœur', "'x'")
    """
    if len(err.args) == 1 and isinstance(err.args[0], Msg):
        return err.args[0]
    return str(err)


def _listed(items: Sequence[str], conjunction: str) -> str:
    if len(items) <= 1:
        return items[0] if items else ""
    head = items[0]
    for item in items[1:-1]:
        head = Msg("{items}, {item}", items=head, item=item)
    if conjunction == "and":
        return Msg("{items} and {item}", items=head, item=items[-1])
    return Msg("{items} or {item}", items=head, item=items[-1])


def comma_list(items: Sequence[str]) -> str:
    """``a, b, c``, each item said in the run's language (a seat, a card, a number, or a
    message): a list of seats built as one string would keep its W in French.

    >>> seats = comma_list(["S", "E", "N", "W"])
    >>> m = Msg("{seat} is not a seat of this deal (seats: {seats})", seat="X", seats=seats)
    >>> print(m); print(m.render("fr"))
    X is not a seat of this deal (seats: S, E, N, W)
    X n'est pas un siège de cette donne (sièges\xa0: S, E, N, O)
    >>> comma_list([Msg("{seat} {score}", seat="W", score="+64")]).render("fr")
    'O +64'
    """
    head: str = items[0] if items else ""  # (one item: a message's value, said as it is)
    for item in items[1:]:
        head = Msg("{items}, {item}", items=head, item=item)
    return head


def and_list(items: Sequence[str]) -> str:
    """``a, b and c``, each item translated with the list.

    >>> and_list([Msg("the bouts"), Msg("the partner")]).render("fr")
    'les bouts et le partenaire'
    """
    return _listed(items, "and")


def or_list(items: Sequence[str]) -> str:
    """``a, b or c``, each item translated with the list.

    >>> or_list(["2C", "5C", "8C"]).render("fr")
    '2♣, 5♣ ou 8♣'
    """
    return _listed(items, "or")

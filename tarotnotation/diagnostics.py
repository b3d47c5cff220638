"""Diagnostics: every fault the library reports, with a stable code and where it is.

A :class:`Diagnostic` is a value: a :class:`Code` (stable across releases, documented in
``docs/diagnostics.md``), a severity, a message that says what was expected, and a
:class:`Location` (the deal, trick, seat and card where they apply; the file, line and
column where the record came from text; the record path such as ``play[3][1]``).

>>> d = Diagnostic.make(Code.MUST_FOLLOW_SUIT, "expected a Heart", trick=3, seat="E", card="7C")
>>> d.code.value, d.severity.value
('P105', 'error')
>>> str(d)
'P105 error: trick 3, seat E, card 7C: expected a Heart'
>>> str(d.at(file="club.tarot", line=12, col=7, deal=2))
'club.tarot:12:7: P105 error: deal 2, trick 3, seat E, card 7C: expected a Heart'

The one-line form is ``file:line:col: CODE severity: deal, trick, seat, card: message``,
the parts that are unknown left out; ``code.slug`` names the code in words.

When one slip explains many faults (a trick written from the wrong seat, a wrong dealer…),
:mod:`tarotnotation.causes` adds one *cause* (a ``Y`` code) and marks the faults that
follow from it with ``cause``: they are kept, but not counted.

>>> follows = d.follows(Code.TRICK_FROM_WRONG_SEAT)
>>> follows.counts, follows.to_dict()["cause"]
(False, 'Y001')
>>> str(follows)
'P105 error: trick 3, seat E, card 7C: expected a Heart [follows from Y001]'
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

from .i18n import Msg, Quoted, language, render
from .values import Value, fields, replace

__all__ = [
    "IO_CODES",
    "Code",
    "Diagnostic",
    "Location",
    "Severity",
    "TarotError",
    "codes_markdown",
    "quote",
]


class Severity(StrEnum):
    """How bad a diagnostic is: an error breaks a rule; a warning is suspect but legal."""

    ERROR = "error"
    WARNING = "warning"


_SEVERITY_WORDS: Final = {Severity.ERROR: Msg("error"), Severity.WARNING: Msg("warning")}


class Code(StrEnum):
    """Stable diagnostic codes. The letter names the stage, the number never changes.

    ``S`` what is written (the notation's syntax, a value that cannot be read, in any
    format), ``J`` JSON import, ``M`` malformed record,
    ``L`` input past a size limit, ``F`` files (a path that names nothing, a file or a
    folder that cannot be read, a file with no deal), ``X`` ruleset, ``D`` deal,
    ``A`` auction, ``K`` called card, ``E`` chien and écart, ``H`` declarations,
    ``P`` play, ``R`` recorded result (``R1xx`` the result against the play, ``R2xx``
    facts no deal can produce, ``R3xx`` faults across the records of a file), ``Y`` the
    one slip that explains many faults (:mod:`tarotnotation.causes`), ``C`` score sheets
    and score apps' files, ``Q`` card-play analysis (positions written by hand, and what
    stops an analysis).
    """

    # syntax (text notation)
    SYNTAX_ERROR = "S001"
    UNEXPECTED_END = "S002"
    BAD_CARD_CODE = "S003"
    BAD_TAG = "S004"
    UNTERMINATED_COMMENT = "S005"
    BAD_VALUE = "S006"
    ENCODING = "S007"
    # JSON import
    JSON_SYNTAX = "J001"
    JSON_SCHEMA = "J002"
    JSON_VERSION = "J003"
    # record model
    MALFORMED_RECORD = "M001"
    # limits (tarotnotation.limits)
    LIMIT_EXCEEDED = "L001"
    # files: what a path names, and whether it can be read
    NO_SUCH_PATH = "F001"
    UNREADABLE_FILE = "F002"
    UNREADABLE_FOLDER = "F003"
    DANGLING_LINK = "F004"
    NO_DEAL = "F005"
    # rules
    UNKNOWN_RULESET = "X001"
    # deal
    PETIT_SEC = "D103"
    PETIT_IN_CHIEN = "D105"
    # auction
    BID_OUT_OF_TURN = "A101"
    BID_NOT_HIGHER = "A102"
    AUCTION_TOO_LONG = "A103"
    AUCTION_INCOMPLETE = "A104"
    ALL_PASSED = "A105"
    PLAY_AFTER_ANNULMENT = "A106"
    # call
    CALL_MISSING = "K101"
    CALL_NOT_ALLOWED = "K102"
    CALL_WRONG_RANK = "K103"
    # chien and écart
    ECART_SIZE = "E101"
    ECART_KING_OR_BOUT = "E102"
    ECART_TRUMP_AVOIDABLE = "E103"
    ECART_TRUMP_NOT_SHOWN = "E104"
    ECART_NOT_IN_HAND = "E105"
    ECART_NOT_ALLOWED = "E106"
    ECART_SHOWN_WRONG = "E107"
    # declarations
    POIGNEE_SIZE = "H101"
    POIGNEE_NOT_IN_HAND = "H102"
    POIGNEE_NOT_TRUMP = "H103"
    POIGNEE_EXCUSE = "H104"
    POIGNEE_DECLARED_SIZE = "H105"
    DECLARATION_TWICE = "H106"
    CHELEM_NOT_TAKER = "H107"
    MISERE_NOT_ALLOWED = "H108"
    MISERE_FALSE = "H109"
    # play
    WRONG_LEADER = "P101"
    OUT_OF_TURN = "P102"
    NOT_IN_HAND = "P103"
    PLAYED_TWICE = "P104"
    MUST_FOLLOW_SUIT = "P105"
    MUST_TRUMP = "P106"
    MUST_OVERTRUMP = "P107"
    CALLED_SUIT_LED = "P108"
    TRICK_INCOMPLETE = "P109"
    PLAY_INCOMPLETE = "P110"
    CARDS_LEFT = "P111"
    MOVE_OUT_OF_ORDER = "P112"
    # recorded result
    SCORE_MISMATCH = "R101"
    SCORES_NOT_ZERO_SUM = "R102"
    POINTS_MISMATCH = "R103"
    BOUTS_MISMATCH = "R104"
    CONTRACT_MISMATCH = "R105"
    TAKER_MISMATCH = "R106"
    PARTNER_MISMATCH = "R107"
    PETIT_AU_BOUT_MISMATCH = "R108"
    CHELEM_MISMATCH = "R109"
    NOT_SCORABLE = "R110"
    ANNULMENT_MISMATCH = "R111"
    # recorded facts that no deal can produce (tarotnotation.plausibility)
    POINTS_OUT_OF_RANGE = "R201"
    POINTS_NOT_HALF = "R202"
    BOUTS_OUT_OF_RANGE = "R203"
    POINTS_BELOW_BOUTS = "R204"
    POINTS_ABOVE_BOUTS = "R205"
    POINTS_UNREACHABLE = "R206"
    CHELEM_ATTACK_IMPOSSIBLE = "R207"
    CHELEM_DEFENCE_IMPOSSIBLE = "R208"
    PETIT_AU_BOUT_AGAINST_CHELEM = "R209"
    PETIT_AU_BOUT_WITHOUT_PETIT = "R210"
    POIGNEES_TOO_MANY_TRUMPS = "R211"
    POIGNEE_WITH_MISERE = "R212"
    PARTNER_AT_FEWER_THAN_FIVE = "R213"
    SCORES_NOT_SHARED = "R214"
    SCORE_AGAINST_RESULT = "R215"
    ANNULLED_WITH_FACTS = "R216"
    # across the records of a file
    DEAL_NUMBER_REPEATED = "R301"
    # causes: one slip that explains many faults (tarotnotation.causes)
    TRICK_FROM_WRONG_SEAT = "Y001"
    WRONG_DEALER = "Y002"
    CARD_MISSING = "Y003"
    TRICK_MISSING = "Y004"
    TRICKS_IN_SEAT_ORDER = "Y005"
    TRICKS_SWAPPED = "Y006"
    SEATS_CLOCKWISE = "Y007"
    CARD_MISWRITTEN = "Y008"
    AUCTION_FROM_WRONG_SEAT = "Y009"
    # score sheets and score apps' files (CSV, spreadsheets, ScoreIt, Matocolotoe)
    SHEET_UNKNOWN_COLUMN = "C101"
    SHEET_BAD_CELL = "C102"
    SHEET_TOTALS_MISMATCH = "C103"
    SHEET_ENCODING = "C104"
    SHEET_NOT_A_SHEET = "C105"
    SHEET_ROW_NOT_A_DEAL = "C106"
    SHEET_FACT_UNKNOWN = "C107"
    SHEET_NOT_HELD = "C108"
    # card-play analysis (tarotnotation.analysis)
    POSITION_SYNTAX = "Q101"
    POSITION_CARD = "Q102"
    POSITION_CARD_TWICE = "Q103"
    POSITION_HAND_SIZES = "Q104"
    POSITION_MISSING = "Q105"
    POSITION_ILLEGAL_TRICK = "Q106"
    POSITION_WON = "Q107"
    POSITION_SEAT = "Q108"
    ANALYSIS_IMPOSSIBLE = "Q110"
    ANALYSIS_STOPPED = "Q111"
    ANALYSIS_INEXACT = "Q112"
    ANALYSIS_FAILED = "Q113"

    @property
    def slug(self) -> str:
        """The readable name: ``must-follow-suit``."""
        return self.name.lower().replace("_", "-")

    @property
    def default_severity(self) -> Severity:
        """Errors unless the code is listed as a warning in ``_WARNINGS``."""
        return Severity.WARNING if self in _WARNINGS else Severity.ERROR

    @property
    def summary(self) -> str:
        """One line on what the code means (used in docs/diagnostics.md)."""
        return _SUMMARIES[self]


_WARNINGS: Final = frozenset(
    {
        Code.PETIT_SEC,
        Code.AUCTION_INCOMPLETE,
        Code.ALL_PASSED,
        Code.PLAY_INCOMPLETE,
        Code.NOT_SCORABLE,
        Code.PETIT_IN_CHIEN,
        Code.NO_DEAL,
        Code.SHEET_UNKNOWN_COLUMN,
        Code.SHEET_ENCODING,
        Code.SHEET_ROW_NOT_A_DEAL,
        Code.SHEET_FACT_UNKNOWN,
        Code.SHEET_NOT_HELD,
        Code.ANALYSIS_INEXACT,
    }
)
#: The codes of input and output failures: the files could not be read (``tarot`` exits 2).
IO_CODES: Final = frozenset({
    Code.NO_SUCH_PATH, Code.UNREADABLE_FILE, Code.UNREADABLE_FOLDER, Code.DANGLING_LINK,
})

_SUMMARIES: Final[dict[Code, str]] = {
    Code.SYNTAX_ERROR: "the text does not follow the notation's grammar",
    Code.UNEXPECTED_END: "the text ends in the middle of a record",
    Code.BAD_CARD_CODE: "a word (or JSON value) where a card was expected is not a card code",
    Code.BAD_TAG: "a tag is malformed or has a value it cannot have (in JSON: the players,"
                  " seats, dealer or tags field)",
    Code.UNTERMINATED_COMMENT: "a { comment } is never closed",
    Code.BAD_VALUE: "a value (a card twice in a list, a seat, a number, a bid, a camp…)"
                    " cannot be read, in the notation or in JSON",
    Code.ENCODING: "the bytes are not valid UTF-8: the record is not read (the message gives"
                   " the byte offset, and how to convert a Latin-1 or cp1252 file)",
    Code.JSON_SYNTAX: "the JSON text cannot be parsed",
    Code.JSON_SCHEMA: "the JSON does not have the record's shape (a list or an object where"
                      " another was expected, a field missing or unknown); the path names"
                      " the field",
    Code.JSON_VERSION: "the JSON names a format version this library does not know",
    Code.MALFORMED_RECORD: "the record is malformed (a card twice, a seat that does not exist, …)",
    Code.LIMIT_EXCEEDED: "the input passes a size limit of tarotnotation.limits (a line, a"
                         " record, a list, a number): that record is not read",
    Code.NO_SUCH_PATH: "a path named on the command line names no file or folder (or a"
                       " pattern matches none): the others are still checked",
    Code.UNREADABLE_FILE: "a file cannot be opened or read (permissions, an I/O error):"
                          " its deals are not checked",
    Code.UNREADABLE_FOLDER: "a folder cannot be listed (permissions): the files in it are"
                            " not checked",
    Code.DANGLING_LINK: "a symbolic link (named, or found in a folder) points to nothing",
    Code.NO_DEAL: "a file holds no deal (it is empty or blank): an error with --strict, and a"
                  " run that reads no deal at all fails",
    Code.UNKNOWN_RULESET: "the ruleset names an unknown preset, switch or value",
    Code.PETIT_SEC: "a hand was petit sec: the deal should have been annulled",
    Code.PETIT_IN_CHIEN: "the Petit was turned up in the chien and the ruleset annuls the deal",
    Code.BID_OUT_OF_TURN: "a bid is made by a seat whose turn it is not",
    Code.BID_NOT_HIGHER: "a bid is not higher than an earlier bid",
    Code.AUCTION_TOO_LONG: "a seat speaks twice in the auction",
    Code.AUCTION_INCOMPLETE: "fewer bids than players",
    Code.ALL_PASSED: "every player passed: the deal is annulled",
    Code.PLAY_AFTER_ANNULMENT: "cards were played in an annulled deal",
    Code.CALL_MISSING: "at five players the taker must call a card",
    Code.CALL_NOT_ALLOWED: "a card is called at three or four players",
    Code.CALL_WRONG_RANK: "the called card is not a King (or the next rank the taker may call)",
    Code.ECART_SIZE: "the écart does not have as many cards as the chien",
    Code.ECART_KING_OR_BOUT: "the écart holds a King or a bout",
    Code.ECART_TRUMP_AVOIDABLE: "the écart holds trumps though it could be made without them",
    Code.ECART_TRUMP_NOT_SHOWN: "a trump in the écart was not shown",
    Code.ECART_NOT_IN_HAND: "a card of the écart was not in the taker's hand and the chien",
    Code.ECART_NOT_ALLOWED: "an écart is recorded for a Garde sans or Garde contre",
    Code.ECART_SHOWN_WRONG: "a card shown with the écart is not a trump of the écart",
    Code.POIGNEE_SIZE: "a poignée does not show exactly 10, 13 or 15 trumps (for 4 players)",
    Code.POIGNEE_NOT_IN_HAND: "a card shown in a poignée is not in the player's hand",
    Code.POIGNEE_NOT_TRUMP: "a card shown in a poignée is not a trump or the Excuse",
    Code.POIGNEE_EXCUSE: "the Excuse stands in for a trump while the player has other trumps",
    Code.POIGNEE_DECLARED_SIZE: "the poignée's declared size does not match the cards shown",
    Code.DECLARATION_TWICE: "a player declares the same thing twice",
    Code.CHELEM_NOT_TAKER: "a chelem is announced by a player who is not the taker",
    Code.MISERE_NOT_ALLOWED: "a misère is declared but the ruleset has misere=off",
    Code.MISERE_FALSE: "a misère is declared by a hand that does not qualify",
    Code.WRONG_LEADER: "a trick is led by a seat that did not win the previous trick",
    Code.OUT_OF_TURN: "a card is attributed to a seat whose turn it is not",
    Code.NOT_IN_HAND: "a card is played that is not in the player's hand",
    Code.PLAYED_TWICE: "a card is played a second time",
    Code.MUST_FOLLOW_SUIT: "the player could follow the suit led and did not (renonce)",
    Code.MUST_TRUMP: "the player could not follow, held a trump and did not trump",
    Code.MUST_OVERTRUMP: "the player held a higher trump than the trick's highest and played under",
    Code.CALLED_SUIT_LED: "the called suit is led to the first trick at five players",
    Code.TRICK_INCOMPLETE: "a trick before the last one recorded lacks cards",
    Code.PLAY_INCOMPLETE: "the play stops before the end of the deal: no score",
    Code.CARDS_LEFT: "a player still holds cards after the last trick",
    Code.MOVE_OUT_OF_ORDER: "a game's move made where the deal is not at its stage (a card"
                            " before the écart, a bid once the auction is over, a poignée"
                            " after the player's first card)",
    Code.SCORE_MISMATCH: "a recorded score differs from the recomputed one",
    Code.SCORES_NOT_ZERO_SUM: "the recorded scores do not sum to zero",
    Code.POINTS_MISMATCH: "the recorded taker's points differ from the recomputed ones",
    Code.BOUTS_MISMATCH: "the recorded number of bouts differs from the recomputed one",
    Code.CONTRACT_MISMATCH: "the recorded contract differs from the auction",
    Code.TAKER_MISMATCH: "the recorded taker differs from the auction",
    Code.PARTNER_MISMATCH: "the recorded partner differs from the holder of the called card",
    Code.PETIT_AU_BOUT_MISMATCH: "the recorded petit au bout differs from the play",
    Code.CHELEM_MISMATCH: "the recorded chelem differs from the play",
    Code.NOT_SCORABLE: "the record holds too little to compute a score",
    Code.ANNULMENT_MISMATCH: "the result says the deal was annulled, but nothing annuls it",
    Code.POINTS_OUT_OF_RANGE: "the recorded points are below 0 or above 91, the whole pack",
    Code.POINTS_NOT_HALF: "the recorded points are not a whole or half number",
    Code.BOUTS_OUT_OF_RANGE: "the recorded bouts are not 0 to 3",
    Code.POINTS_BELOW_BOUTS: "the recorded points are fewer than the taker's camp's bouts and"
                             " cards can give in that contract",
    Code.POINTS_ABOVE_BOUTS: "the recorded points are more than the defence's bouts and cards"
                             " leave the taker's camp in that contract",
    Code.POINTS_UNREACHABLE: "no deal counts the recorded points (a half point where none can"
                             " arise, a count between what whole tricks give)",
    Code.CHELEM_ATTACK_IMPOSSIBLE: "a chelem by the taker's camp with points or bouts that such"
                                   " a chelem cannot leave in that contract",
    Code.CHELEM_DEFENCE_IMPOSSIBLE: "a chelem by the defence with the taker's camp holding more"
                                    " than the écart (or chien) and a kept Excuse can give",
    Code.PETIT_AU_BOUT_AGAINST_CHELEM: "the petit au bout goes to a camp while the other camp"
                                       " won every trick",
    Code.PETIT_AU_BOUT_WITHOUT_PETIT: "the petit au bout goes to a camp the recorded bouts"
                                      " leave without the Petit",
    Code.POIGNEES_TOO_MANY_TRUMPS: "the poignées shown need more trumps than the 21 and the"
                                   " Excuse",
    Code.POIGNEE_WITH_MISERE: "a seat shows a poignée and declares a misère d'atout",
    Code.PARTNER_AT_FEWER_THAN_FIVE: "a partner is recorded at three or four players",
    Code.SCORES_NOT_SHARED: "the recorded scores are not shared as the rules share a deal"
                            " (defenders alike, the taker's and partner's multiples)",
    Code.SCORE_AGAINST_RESULT: "the taker's recorded score does not match a contract made or"
                               " lost (its sign, or less than the least a deal scores)",
    Code.ANNULLED_WITH_FACTS: "an annulled deal is recorded with points, bouts, a petit au bout"
                              " or a chelem",
    Code.DEAL_NUMBER_REPEATED: "the same deal number twice in one session of a file (Event,"
                               " Site, Date, Round, Table)",
    Code.TRICK_FROM_WRONG_SEAT: "a trick's cards are listed from another seat than its leader;"
                                " the faults that follow are marked as its consequences",
    Code.WRONG_DEALER: "the dealer written is not the one the cards fit: every seat speaks and"
                       " plays one place off",
    Code.CARD_MISSING: "a trick lacks one card (the one never played), so every later trick"
                       " is led by the wrong seat",
    Code.TRICK_MISSING: "a whole trick is left out (its cards are never played), so every"
                        " later trick is led by the wrong seat",
    Code.TRICKS_IN_SEAT_ORDER: "every trick is listed in seat order from one seat, not from"
                               " its leader",
    Code.TRICKS_SWAPPED: "two tricks are written in each other's place",
    Code.SEATS_CLOCKWISE: "the seats are listed clockwise; the order of play is"
                          " counter-clockwise",
    Code.CARD_MISWRITTEN: "one card is written as another (the one never played)",
    Code.AUCTION_FROM_WRONG_SEAT: "the auction's bids are listed from another seat than the"
                                  " dealer's right: it makes another seat the taker than the"
                                  " result, the écart and the play do",
    Code.SHEET_UNKNOWN_COLUMN: "a score sheet's column header is not one the reader knows (or"
                               " is given twice): its cells are left out; the message lists"
                               " the known headers (map it with --columns)",
    Code.SHEET_BAD_CELL: "a cell of a score sheet (or a value of a score app's file) cannot"
                         " be read: that fact is left out, the message says what was expected",
    Code.SHEET_TOTALS_MISMATCH: "a running total, a totals row or a row's sum does not add up"
                                " to the scores above it",
    Code.SHEET_ENCODING: "a CSV sheet is not UTF-8: it is read as cp1252 (as spreadsheets"
                         " export it) from the line named",
    Code.SHEET_NOT_A_SHEET: "the file (or worksheet) is not a score sheet or a score app's"
                            " game: no header a sheet has, too few player columns, no deal;"
                            " not a record file",
    Code.SHEET_ROW_NOT_A_DEAL: "a row of a score sheet is neither the header, a deal nor a"
                               " totals row (a title, a note): left out, shown in the message",
    Code.SHEET_FACT_UNKNOWN: "a fact the score needs is only half on the sheet (a petit au bout"
                             " without its camp): the score leaves it out",
    Code.SHEET_NOT_HELD: "a fact of a score app's file that the notation cannot hold (a"
                         " double misère, a chelem announced by the defence): left out",
    Code.POSITION_SYNTAX: "a word of a written position cannot be read (expected field=value:"
                          " a seat's hand, taker, lead, trick, won, tricks, …)",
    Code.POSITION_CARD: "a card of a written position is not a card code",
    Code.POSITION_CARD_TWICE: "a card of a written position is given twice (in two hands, or in"
                              " a hand and the trick)",
    Code.POSITION_HAND_SIZES: "the hands of a written position do not fit one deal in play"
                              " (each holds the cards left, one fewer once it played to the"
                              " trick)",
    Code.POSITION_MISSING: "a written position lacks a field it needs (the taker, who leads,"
                           " the partner at five players, …)",
    Code.POSITION_ILLEGAL_TRICK: "a card of the trick in progress could not have been played"
                                 " from that hand",
    Code.POSITION_WON: "the points, bouts or tricks said won cannot be (more than the cards"
                       " no longer in the hands, …)",
    Code.POSITION_SEAT: "a seat of a written position is unknown, repeated, or the number of"
                        " hands is not 3, 4 or 5",
    Code.ANALYSIS_IMPOSSIBLE: "the deal cannot be analysed: the hands, the taker, the contract"
                              " or (at five players) the partner are not known",
    Code.ANALYSIS_STOPPED: "the analysis stops before a card that is not legal (or not in the"
                           " player's hand)",
    Code.ANALYSIS_INEXACT: "a time or node limit was reached: the values given are bounds",
    Code.ANALYSIS_FAILED: "the solver failed on this deal (a bug, please report it): the deal"
                          " is kept without its analysis and the other deals go on",
}
assert set(_SUMMARIES) == set(Code)


class Location(Value):
    """Where a diagnostic applies. Every field is optional; ``str`` prints those present.

    ``trick`` is 1-based; ``deal`` is the 1-based index of the record in its file or
    archive; ``path`` is the record path (``auction[2]``, ``play[3][1]``, ``$.hands.S``).
    """

    __slots__ = ("card", "col", "deal", "file", "line", "path", "seat", "trick")
    file: str | None
    line: int | None
    col: int | None
    deal: int | None
    trick: int | None
    seat: str | None
    card: str | None
    path: str | None

    def __init__(self, file: str | None = None, line: int | None = None,
                 col: int | None = None, deal: int | None = None, trick: int | None = None,
                 seat: str | None = None, card: str | None = None,
                 path: str | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "file", file)
        setfield(self, "line", line)
        setfield(self, "col", col)
        setfield(self, "deal", deal)
        setfield(self, "trick", trick)
        setfield(self, "seat", seat)
        setfield(self, "card", card)
        setfield(self, "path", path)

    def text_position(self) -> str:
        """``file:line:col`` with the parts that are known, or ``""``."""
        parts: list[str] = []
        if self.file is not None:
            parts.append(self.file)
        elif self.line is not None:
            parts.append("<input>")
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def where(self, lang: str = "en") -> str:
        """The deal, trick, seat and card (or the record path), e.g. ``deal 1, trick 3``,
        in ``lang`` (``pli 3, siège E``)."""
        where = []
        if self.deal is not None:
            where.append(render(Msg("deal {deal}", deal=self.deal), lang))
        if self.trick is not None:
            where.append(render(Msg("trick {trick}", trick=self.trick), lang))
        if self.seat is not None:
            where.append(render(Msg("seat {seat}", seat=self.seat), lang))
        if self.card is not None:
            where.append(render(Msg("card {card}", card=self.card), lang))
        if self.path is not None and self.trick is None and self.seat is None and (
                self.card is None):
            where.append(self.path)
        return ", ".join(where)

    def __str__(self) -> str:
        pos = self.text_position()
        text = self.where()
        if pos:
            return f"{pos}: {text}" if text else pos
        return text


class Diagnostic(Value):
    """One fault: a stable code, a severity, what was expected, and where."""

    __slots__ = ("cause", "code", "context", "location", "message", "severity")
    code: Code
    severity: Severity
    message: str
    location: Location
    context: str | None
    """For text input, the offending line with a caret under the column."""
    cause: Code | None
    """Set when this fault follows from a cause (a ``Y`` diagnostic of the same deal,
    :mod:`tarotnotation.causes`): the cause's code. Such a consequence is kept (shown with
    ``tarot validate -v``) but not counted: fix the cause and it goes away."""

    def __init__(self, code: Code, severity: Severity, message: str,
                 location: Location | None = None, context: str | None = None,
                 cause: Code | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "code", code)
        setfield(self, "severity", severity)
        setfield(self, "message", message)
        setfield(self, "location", Location() if location is None else location)
        setfield(self, "context", context)
        setfield(self, "cause", cause)

    @classmethod
    def make(
        cls,
        code: Code,
        message: str,
        *,
        severity: Severity | None = None,
        context: str | None = None,
        **where: Any,
    ) -> Diagnostic:
        """A diagnostic with the code's default severity and a location from keywords."""
        return cls(code, severity or code.default_severity, message, Location(**where), context)

    @property
    def is_error(self) -> bool:
        """True for errors, False for warnings."""
        return self.severity is Severity.ERROR

    @property
    def counts(self) -> bool:
        """False for a consequence of a cause (see :attr:`cause`): not counted."""
        return self.cause is None

    def follows(self, cause: Code) -> Diagnostic:
        """A copy marked as a consequence of ``cause``."""
        return replace(self, cause=cause)

    def at(self, **where: Any) -> Diagnostic:
        """A copy with location fields set (e.g. the file, line and column of its text)."""
        return replace(self, location=replace(self.location, **where))

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str | None = None) -> str:
        """The one-line form in ``lang`` (default: the run's language, see
        :mod:`tarotnotation.i18n`); ``str(d)`` is the English one. The code, the file,
        line and column never change; the card and the seat are said as the language
        writes them (in French ``atout 19``, ``R♣``, West as ``O``: i18n.said), their
        codes unchanged in every machine output.

        >>> from tarotnotation.i18n import Msg
        >>> d = Diagnostic.make(Code.MUST_FOLLOW_SUIT,
        ...                     Msg("{suit} led and the player holds {suit}", suit=Msg("Clubs")),
        ...                     trick=3, seat="S", card="T19")
        >>> print(d.text("fr"))
        P105 erreur : pli 3, siège S, carte atout 19 : renonce : Trèfle demandé, le joueur doit
        fournir
        """
        lang = lang or language()
        pos = self.location.text_position()
        where = self.location.where(lang)
        english = lang == "en"
        message = str(self.message) if english else render(self.message, lang)
        severity = render(_SEVERITY_WORDS[self.severity], lang)
        sep = ": " if english else render(Msg(": "), lang)
        text = f"{self.code.value} {severity}{sep}"
        text += f"{where}{sep}{message}" if where else message
        if self.cause is not None:
            text += (f" [follows from {self.cause.value}]" if english else
                     " " + render(Msg("[follows from {cause}]", cause=self.cause.value), lang))
        return f"{pos}: {text}" if pos else text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: code, slug, severity, message and every known location field."""
        out: dict[str, Any] = {
            "code": self.code.value,
            "name": self.code.slug,
            "severity": self.severity.value,
            "message": str(self.message),
        }
        for name in fields(Location):
            value = getattr(self.location, name)
            if value is not None:
                out[name] = value
        if self.context is not None:
            out["context"] = self.context
        if self.cause is not None:
            out["cause"] = self.cause.value
        return out


class TarotError(ValueError):
    """Raised when input cannot be read at all; carries the diagnostics that say why."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


_QUOTED_CHARS: Final = 40


def quote(value: object) -> str:  # (a Msg, said in the run's language, or a number)
    """A user's value as a message quotes it: a short text in quotes (a long one cut, with
    its length, so a 5,000-digit number is never printed whole), a number, or what JSON
    calls the value (``a list``, ``an object``, ``null``), never a Python type's name.

    >>> quote("ZZ"), quote(12), quote([1, 2]), quote(None), quote(2 ** 300)
    ("'ZZ'", '12', 'a list', 'null', 'a 91-digit number')
    >>> quote("ZZ").render("fr"), quote([1, 2]).render("fr")
    ('«\xa0ZZ\xa0»', 'une liste')
    >>> quote("9" * 5000)
    "'9999999999999999999999999999999999999999…' (5,000 characters)"
    >>> quote("9" * 5000).render("fr")[-26:]
    '9999…\\xa0» (5\\u202f000 caractères)'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if len(value) > _QUOTED_CHARS:
            return Quoted(value[:_QUOTED_CHARS], length=len(value))
        return Quoted(value)
    if isinstance(value, int):
        return (str(value) if value.bit_length() < 64 else
                Msg("a {n}-digit number", n=len(str(value))))
    if isinstance(value, float):
        return repr(value)
    return {dict: Msg("an object"), list: Msg("a list"), tuple: Msg("a list"),
            type(None): "null"}.get(type(value), Msg("a value"))


def codes_markdown() -> str:
    """The table of every code, as written in ``docs/diagnostics.md``."""
    rows = ["| code | name | severity | meaning |", "|---|---|---|---|"]
    rows.extend(
        f"| {c.value} | `{c.slug}` | {c.default_severity.value} | {c.summary} |" for c in Code
    )
    return "\n".join(rows) + "\n"

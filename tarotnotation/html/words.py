"""The words of the pages (``tarot html``, ``tarot replay --html``) in the run's language.

The page's script holds no sentence of its own: every label, heading, button, aria label,
live-region announcement and the index's words come from the table :func:`page_words`
gives, translated through the catalogue (:mod:`tarotnotation.i18n`), embedded in each page
as JSON (``<script type="application/json" id="tarot-words">``). A word is a string with
named placeholders (``{seat}``), or the two forms of a plural, ``[one, other]``; the
script picks the form by ``_zeroOne`` (in French 0 takes the singular, as 1 does).

>>> words = page_words("fr")
>>> words["nextCard"], words["cards"]
('Carte suivante (flèche droite)', ['{n} carte', '{n} cartes'])
>>> page_words("en")["nextCard"]
'Next card (Right arrow)'
>>> sorted(page_words("fr")) == sorted(page_words("en"))
True
"""

from __future__ import annotations

import functools
from typing import Final

from ..i18n import gettext_, pgettext, plural_forms, said
from ..rules import Contract
from .escape import json_bytes

__all__ = ["OUTCOMES", "page_words", "words_json"]

#: The outcomes an index row may have (its ``outcome`` key, also the cell's CSS class).
OUTCOMES: Final = ("made", "lost", "annulled", "unreadable", "incomplete", "unscored",
                   "scored")


def page_words(lang: str) -> dict[str, str | list[str] | bool | dict[str, str] | None]:
    """Every word of the pages, by the key the script uses, in ``lang``."""
    return {
        "_zeroOne": lang == "fr",
        # cards
        "suit.S": gettext_("Spades", lang), "suit.H": gettext_("Hearts", lang),
        "suit.D": gettext_("Diamonds", lang), "suit.C": gettext_("Clubs", lang),
        "rank.J": pgettext("card", "Jack", lang), "rank.N": pgettext("card", "Knight", lang),
        "rank.Q": pgettext("card", "Queen", lang), "rank.K": pgettext("card", "King", lang),
        "cardName": gettext_("{rank} of {suit}", lang),
        # what a card's face, a seat and a number show, as the language writes them (a
        # French King is R, West is O, 43.5 is 43,5)
        "letter.J": pgettext("card letter", "J", lang),
        "letter.N": pgettext("card letter", "N", lang),
        "letter.Q": pgettext("card letter", "Q", lang),
        "letter.K": pgettext("card letter", "K", lang),
        "seat.W": pgettext("seat letter", "W", lang),
        # a card in a sentence as i18n.said writes it in a language that does not write
        # the notation's codes (French: R♥, atout 21, Excuse; the suits' symbols in the
        # order S H D C); None: the codes, as English does, and the codes' slugs (English
        # identifiers) shown beside the diagnostics
        "_said": None if said("KH", lang) == "KH" else {
            "T": said("T21", lang).replace("21", "{n}"), "EX": said("EX", lang),
            "suits": "".join(said("2" + suit, lang)[1:] for suit in "SHDC")},
        "decimal": pgettext("number", ".", lang),
        "trumpName": gettext_("trump {n}", lang),
        "excuseName": pgettext("page", "the Excuse", lang),
        "excuseShort": gettext_("Exc", lang),
        # the heading of a deal
        "navDeals": gettext_("Deals", lang),
        "navIndex": gettext_("Index", lang),
        "navPrev": gettext_("← Previous deal", lang),
        "navNext": gettext_("Next deal →", lang),
        "players": gettext_("{n} players", lang),
        "ruleset": gettext_("ruleset {name}", lang),
        "dealer": gettext_("dealer {seat}", lang),
        "stdin": gettext_("standard input", lang),
        "fileDeal": gettext_("{file}, deal {n}", lang),
        "errors": plural_forms("{n} error", "{n} errors", lang),
        "warnings": plural_forms("{n} warning", "{n} warnings", lang),
        "noError": gettext_("no error", lang),
        "verdict": gettext_("{errors}, {warnings}", lang),
        "dealAnalysis": gettext_("Double-dummy analysis from trick {from}: {note}. Each card's"
                                 " cost is marked in the play; the best card shows on hover"
                                 " or focus.", lang),
        # the controls
        "controls": gettext_("Play controls", lang),
        "steps": gettext_("Step through the play", lang),
        "first": gettext_("First: before the first card (Home)", lang),
        "prevTrick": gettext_("Previous trick (Up arrow)", lang),
        "prevCard": gettext_("Previous card (Left arrow)", lang),
        "nextCard": gettext_("Next card (Right arrow)", lang),
        "nextTrick": gettext_("Next trick (Down arrow)", lang),
        "last": gettext_("Last: the end and the score (End)", lang),
        "views": gettext_("Whose cards to show", lang),
        "allHands": gettext_("All hands", lang),
        "showAll": gettext_("Show all hands", lang),
        "showOnly": gettext_("Show only what {seat} sees", lang),
        "permalink": gettext_("Link to this point", lang),
        "picture": gettext_("Picture", lang),
        "pictureLabel": gettext_("Download the table at this point as a PNG picture (and copy"
                                 " it where the browser allows)", lang),
        # the table
        "table": gettext_("The table", lang),
        "seenInPlay": gettext_("cards seen in the play", lang),
        "trickBeing": gettext_("The trick being played", lang),
        "notesHere": gettext_("Notes at this card", lang),
        "badge.taker": pgettext("badge", "taker", lang),
        "badge.partner": pgettext("badge", "partner", lang),
        "badge.dealer": pgettext("badge", "dealer", lang),
        "cards": plural_forms("{n} card", "{n} cards", lang),
        "runningPoints": gettext_("Taker {taker} · Defence {defence}", lang),
        "runningRest.taker": gettext_("Taker {taker} + {heap} {points} = {total} · Defence"
                                      " {defence}", lang),
        "runningRest.defence": gettext_("Taker {taker} · Defence {defence} + {heap} {points}"
                                        " = {total}", lang),
        "beforeFirst": gettext_("Before the first card", lang),
        "noCardPlayed": gettext_("No card played", lang),
        "cardOf": gettext_("Card {k} of {total}", lang),
        "noPlayRecorded": gettext_("No card play recorded", lang),
        "trickOf": gettext_("Trick {n} of {total}", lang),
        "trickAhead": gettext_("Trick {n} of {total}: {leader} led, {seat} is winning it",
                               lang),
        "trickWon": gettext_("Trick {n} of {total}: {seat} wins, {points} points", lang),
        "trickWonExcuse": gettext_("Trick {n} of {total}: {seat} wins, {points} points, the"
                                   " Excuse to the {camp}", lang),
        "camp.taker": pgettext("camp", "taker", lang),
        "camp.defence": pgettext("camp", "defence", lang),
        "analysis": gettext_("Analysis: {note}", lang),
        "best": gettext_("best {cards}", lang),
        # the auction and the facts
        "auction": gettext_("Auction and announcements", lang),
        "noAuction": gettext_("No auction recorded.", lang),
        "pass": pgettext("bid", "pass", lang),
        "contract": gettext_("Contract", lang),
        "contractBy": gettext_("{contract} by {taker}", lang),
        "calledCard": gettext_("Called card", lang),
        "chien": gettext_("Chien", lang),
        "ecart": gettext_("Écart", lang),
        "hands": gettext_("Hands", lang),
        "faceDown": gettext_("face down", lang),
        "notRecorded": gettext_("not recorded", lang),
        "trumpsShown": gettext_(", trumps shown: ", lang),
        "chienFaceDown": plural_forms("face down ({n} card)", "face down ({n} cards)", lang),
        "alone": gettext_(" the taker plays alone", lang),
        "partnerIs": gettext_(" partner {seat}", lang),
        "partnerUnknown": gettext_(" partner not yet known", lang),
        # the play
        "play": gettext_("Play", lang),
        "noPlay": gettext_("No card play recorded.", lang),
        "hint": gettext_("Choose a card to go there. Keys: ← → card, ↑ ↓ trick, Home, End.",
                         lang),
        "plays": gettext_("Trick {n}: {seat} plays {card}", lang),
        "cardToCome": gettext_("Trick {n}: a card to come", lang),
        "legend": gettext_("After each trick: its winner and points; the taker's and the"
                           " defence's running points.", lang),
        # the score, the faults, the record
        "score": gettext_("Score", lang),
        "scoreWait": gettext_("The score appears at the end of the play (End).", lang),
        "recorded": gettext_("Recorded: {scores}", lang),
        "faults": gettext_("Faults", lang),
        "sev.error": gettext_("error", lang),
        "sev.warning": gettext_("warning", lang),
        "followsFrom": gettext_("follows from {code}", lang),
        "goTo": gettext_("go to the card", lang),
        "goToLabel": gettext_("Go to the card of {code}", lang),
        "record": gettext_("The record", lang),
        "download": gettext_("Download {name}", lang),
        "downloadLabel": gettext_("Download the record's text as {name}", lang),
        "showText": gettext_("Show the record's text", lang),
        # what a screen reader is told at each step
        "liveBefore": gettext_("Before the first card.", lang),
        "livePlay": gettext_("Trick {n}, card {k}: {seat} plays {card}.", lang),
        "liveWins": gettext_("{seat} wins the trick, {points} points.", lang),
        "liveComment": gettext_("Comment: {text}.", lang),
        "liveDiag": gettext_("{sev} {code}: {msg}.", lang),
        "liveEnd": gettext_("End of the play. {score}", lang),
        # the index
        "deals": plural_forms("{n} deal", "{n} deals", lang),
        "shownOf": gettext_("{shown} of {deals}", lang),
        "resultBy": gettext_("{outcome} by {margin}", lang),
        "outcome.made": pgettext("outcome", "made", lang),
        "outcome.lost": pgettext("outcome", "lost", lang),
        "outcome.annulled": pgettext("outcome", "annulled", lang),
        "outcome.unreadable": pgettext("outcome", "unreadable", lang),
        "outcome.incomplete": pgettext("outcome", "incomplete", lang),
        "outcome.unscored": pgettext("outcome", "unscored", lang),
        "outcome.scored": pgettext("outcome", "scored", lang),
        # the index's flags and column filters (issue 32)
        "flag.chelem": gettext_("chelem made", lang),
        "flag.chelemFailed": gettext_("chelem failed", lang),
        "flag.chelemDefence": gettext_("chelem by the defence", lang),
        "flag.poignee": gettext_("poignée shown", lang),
        "flag.petitTaker": gettext_("petit au bout (taker)", lang),
        "flag.petitDefence": gettext_("petit au bout (defence)", lang),
        "column.contract": pgettext("index", "Contract", lang),
        "column.taker": pgettext("index", "Taker", lang),
        "column.result": pgettext("index", "Result", lang),
        "column.faults": pgettext("index", "Faults", lang),
        "any": gettext_("all", lang),
        "faults.errors": gettext_("with errors", lang),
        "faults.warnings": gettext_("with warnings only", lang),
        "faults.none": gettext_("without fault", lang),
        # the analysis' values and graph (issue 32)
        "valueBest": gettext_("a best card, {outcome} with best play", lang),
        "graphLabel": gettext_("The taker's margin with best play, card by card, from {first}"
                               " to {last}", lang),
        "graphCaption": gettext_("The taker's margin with best play after each card (above"
                                 " the line: made); a click goes there.", lang),
        # the quiz (issue 32)
        "quiz": gettext_("Quiz", lang),
        "quizLabel": gettext_("What would you play? One seat's view, the play to come hidden",
                              lang),
        "quizChoices": gettext_("The cards you may choose", lang),
        "quizTurn": gettext_("{seat} to play: what would you play?", lang),
        "quizWait": gettext_("Step on to the next card of {seat}.", lang),
        "quizEnd": gettext_("The end of the play.", lang),
        "quizRight": gettext_("Right: {card} was played.", lang),
        "quizWrong": gettext_("{card} was played, not {chosen}.", lang),
        "quizWorth": gettext_("Your card: {value}.", lang),
        # the game page (tarot play, issue 34)
        "play.table": gettext_("The table", lang),
        "play.question": gettext_("Your turn", lang),
        "play.trick": gettext_("The trick", lang),
        "play.hand": gettext_("Your hand", lang),
        "play.handHelp": gettext_("Your cards: the arrow keys move between them, Enter chooses "
                                  "one", lang),
        "play.lost": gettext_("The server does not answer: is tarot play still running?", lang),
        "play.refused": gettext_("Refused: {why}", lang),
        "play.you": gettext_("You", lang),
        "play.allPass": gettext_("Everyone passed: the deal is annulled and a new one is"
                                 " dealt.", lang),
        "play.bidSaid": gettext_("{seat}: {bid}", lang),
        "play.called": gettext_("{seat} calls {card}", lang),
        "play.ecartMade": gettext_("{seat} made the écart", lang),
        "play.chelemAnnounced": gettext_("{seat} announces a chelem", lang),
        "play.poigneeShown": gettext_("{seat} shows a poignée: {cards}", lang),
        "play.playedBy": gettext_("{seat} plays {card}", lang),
        "play.wait": gettext_("The others are playing…", lang),
        "play.askBid": gettext_("Your bid", lang),
        "play.askCall": gettext_("Call a card: its holder plays with you", lang),
        "play.askEcart": gettext_("Choose the {n} cards of your écart, then make it", lang),
        "play.ecartChosen": gettext_("{k} of {n} cards chosen", lang),
        "play.makeEcart": gettext_("Make the écart", lang),
        "play.askChelem": gettext_("Announce a chelem? You would lead the first trick.", lang),
        "play.no": gettext_("No chelem", lang),
        "play.yes": gettext_("Announce a chelem", lang),
        "play.askDeclare": gettext_("Show a poignée before your first card?", lang),
        "play.noPoignee": gettext_("No poignée", lang),
        "play.poignee": gettext_("Show {n} trumps", lang),
        "play.misereAtout": gettext_("Declare a misère d'atout (no trump, no Excuse)", lang),
        "play.misereTete": gettext_("Declare a misère de tête (no face card)", lang),
        "play.and": gettext_("{a}, and {b}", lang),
        "play.misereShownAtout": gettext_("{seat} declares a misère d'atout", lang),
        "play.misereShownTete": gettext_("{seat} declares a misère de tête", lang),
        "play.askPlay": gettext_("Your turn: play a card", lang),
        "play.notInEcart": gettext_("{card} may not go to the écart", lang),
        "play.cannot": gettext_("{card} may not be played: {why}", lang),
        "play.scores": gettext_("Each player's score", lang),
        "play.analysis": gettext_("Your cards, all hands open", lang),
        "play.analysisWait": gettext_("The analysis of your cards is on its way…", lang),
        "play.analysisFailed": gettext_("Your cards could not be analysed.", lang),
        "play.noCost": gettext_("Every card you played was one of the best.", lang),
        "play.cost": gettext_("Trick {trick}: {card} cost {cost} points", lang),
        "play.costBest": gettext_("Trick {trick}: {card} cost {cost} points; best {best}", lang),
        "play.downloadRecord": gettext_("Download the record", lang),
        "play.next": gettext_("Next deal", lang),
        "play.over": gettext_("The deal is over.", lang),
        # the contracts by their keywords, as a bid is said (French names in both)
        **{f"bid.{c.keyword}": c.french for c in Contract},
    }


#: The words only an index says (a page of one deal is written without them).
_INDEX_ONLY: Final = ("deals", "shownOf", "resultBy", "any", "outcome.", "flag.", "column.",
                      "faults.")


#: The words only the game page says (``tarot play``).
_PLAY_ONLY: Final = ("play.", "bid.")


@functools.cache
def words_json(lang: str, index: bool = True, play: bool = False) -> str:
    """:func:`page_words` as the JSON a page embeds (safe inside ``<script>``); without
    the index's words unless ``index``, nor the game's unless ``play``.

    >>> '"shownOf"' in words_json("en"), '"shownOf"' in words_json("en", index=False)
    (True, False)
    """
    words = page_words(lang)
    if not index:
        words = {k: v for k, v in words.items() if not k.startswith(_INDEX_ONLY)}
    if not play:
        words = {k: v for k, v in words.items() if not k.startswith(_PLAY_ONLY)}
    return json_bytes(words).decode("utf-8")

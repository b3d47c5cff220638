"""The replay's phases on the chien, the écart and the declarations (docs/rules.md §2, §4,
§5): the Petit sec, the écart's size and cards, the cards shown, each hand at the first
card, the poignées and the misères. :class:`tarotnotation.replay` runs them."""

from __future__ import annotations

from . import kernel
from .cards import ALL_MASK, BOUTS_MASK, TRUMP_MASK
from .diagnostics import Code
from .i18n import Msg, nmsg
from .records import Misere, Poignee
from .replaystate import ReplayState, cards_text, union_of
from .rules import (
    EcartTrumps,
    MisereKind,
)

__all__ = ["DeclarationChecks"]


class DeclarationChecks(ReplayState):
    """The phases of a replay on what is set aside and declared before the play."""

    def check_petit_sec(self, seat: int, hand: int, path: str | None) -> None:
        """Report a hand held petit sec (§2)."""
        if kernel.petit_sec(hand):
            self.report(Code.PETIT_SEC, Msg("{seat} held the Petit sec (the Petit as only trump,"
                                            " no Excuse): the deal should have been annulled",
                                            seat=self.ids[seat]),
                        path=path, seat=seat)

    # --- chien and écart ---------------------------------------------------------------

    def check_chien_and_ecart(self) -> None:
        """The écart (§4): only in a Prise or Garde; its size; cards of the taker's hand
        and the chien; no King nor bout; trumps only when unavoidable, and shown."""
        if self.contract is None or self.taker is None or self.annulled:
            return
        contract, taker = self.contract, self.taker
        rec = self.rec
        size = self.tab.chien
        recorded = rec.ecart
        if not contract.takes_chien:
            if recorded is not None and recorded.cards:
                self.report(Code.ECART_NOT_ALLOWED, Msg("in a {contract} the chien is not taken:"
                                                        " expected no écart",
                                                        contract=contract.french),
                                                    path="ecart", seat=taker)
            return
        ecart = recorded.cards.bits if recorded is not None and recorded.cards is not None else None
        if ecart is None and self.complete:
            ecart = ALL_MASK & ~union_of(self.att.played_by)
        if ecart is None:
            if recorded is not None and recorded.shown:
                self.check_shown(recorded.shown.bits, None, taker)
            return
        dealt = self.given[taker]
        pool = None if dealt is None or self.chien is None else dealt | self.chien
        if recorded is not None and recorded.cards is not None:
            if len(recorded.cards) != size:
                self.report(Code.ECART_SIZE, Msg("the écart has {size} cards at {n} players,"
                                                 " found {count}",
                                                 size=size, n=self.n, count=len(recorded.cards)),
                                             path="ecart", seat=taker)
            if pool is not None and ecart & ~pool:
                self.report(Code.ECART_NOT_IN_HAND, Msg("{cards} not in the taker's hand and the"
                                                        " chien",
                                                        cards=cards_text(ecart & ~pool)),
                                                    path="ecart", seat=taker)
        bad = kernel.ecart_forbidden(ecart)
        if bad:
            self.report(Code.ECART_KING_OR_BOUT, Msg("{cards} in the écart: expected no King and"
                                                     " no bout",
                                                     cards=cards_text(bad)),
                                                 path="ecart", seat=taker)
        trumps = ecart & TRUMP_MASK & ~BOUTS_MASK
        if trumps:
            if pool is not None:
                allowed = kernel.ecart_trumps_allowed(pool, size)
                if trumps.bit_count() > allowed:
                    spare = kernel.ecart_plain(pool) & ~ecart
                    self.report(Code.ECART_TRUMP_AVOIDABLE,
                                nmsg("{cards} in the écart, but the taker could discard {cards2}:"
                                     " expected at most {allowed} trump",
                                     "{cards} in the écart, but the taker could discard {cards2}:"
                                     " expected at most {allowed} trumps", allowed,
                                     cards=cards_text(trumps), cards2=cards_text(spare),
                                     allowed=allowed), path="ecart", seat=taker)
            elif self.rules.ecart_trumps is EcartTrumps.NEVER:
                self.report(Code.ECART_TRUMP_AVOIDABLE,
                            Msg("{cards} in the écart: ecart_trumps=never allows trumps only when"
                                " no other écart exists, and the hands are not recorded to show"
                                " it", cards=cards_text(trumps)), path="ecart", seat=taker)
            shown = recorded.shown.bits if recorded is not None else 0
            if (recorded is not None and recorded.cards is not None) or shown:
                missing = trumps & ~shown
                if missing:
                    self.report(Code.ECART_TRUMP_NOT_SHOWN, nmsg("{cards} discarded but not shown:"
                                                                 " expected every trump of the"
                                                                 " écart shown",
                                                                 "{cards} discarded but not shown:"
                                                                 " expected every trump of the"
                                                                 " écart shown",
                                                                 missing.bit_count(),
                                                                 cards=cards_text(missing)),
                                path="ecart", seat=taker)
        if recorded is not None and recorded.shown:
            self.check_shown(recorded.shown.bits, ecart, taker)
        self.ecart = ecart

    def check_shown(self, shown: int, ecart: int | None, taker: int) -> None:
        """The cards shown with the écart are its trumps, and only them (§4)."""
        wrong = shown & ~TRUMP_MASK
        if ecart is not None:
            wrong |= shown & ~ecart
        if wrong:
            self.report(Code.ECART_SHOWN_WRONG, nmsg("{cards} shown with the écart: expected only"
                                                     " the trumps of the écart",
                                                     "{cards} shown with the écart: expected"
                                                     " only the trumps of the écart",
                                                     wrong.bit_count(), cards=cards_text(wrong)),
                                                path="ecart", seat=taker)

    def find_hands_at_first_card(self) -> None:
        """Each seat's hand at the first card: recorded (the taker's with the chien taken
        and the écart made), or the cards it went on to play, which are the hand exactly
        when the play is complete; a derived hand is then checked for the Petit sec."""
        taker, contract, chien, ecart = self.taker, self.contract, self.chien, self.ecart
        takes_chien = contract is not None and contract.takes_chien
        for s in range(self.n):
            at_start = self.given[s]
            if at_start is not None and s == taker and takes_chien:
                at_start = None if chien is None or ecart is None else (at_start | chien) & ~ecart
            if at_start is not None:
                self.start[s], self.exact[s] = at_start, True
            else:
                self.start[s] = self.att.played_by[s]
                self.exact[s] = self.complete
        if self.complete and self.rec.hands is None:
            for s in range(self.n):
                as_dealt: int | None = self.start[s]
                if s == taker and takes_chien:
                    # He took the chien and discarded the écart: undo both.
                    as_dealt = (None if chien is None or ecart is None
                                else (self.start[s] | ecart) & ~chien)
                if as_dealt is not None:
                    self.check_petit_sec(s, as_dealt, None)

    # --- declarations -------------------------------------------------------------------

    def check_declarations(self) -> None:
        """Poignées (§5: size, trumps from the hand, the Excuse only when no trump is
        left hidden) and misères (§12); one of each kind a seat."""
        seen: set[tuple[int, str]] = set()
        for i, decl in enumerate(self.rec.declarations):
            path = f"declarations[{i}]"
            s = self.index[decl.seat]
            key = (s, decl.kind)
            if key in seen:
                self.report(Code.DECLARATION_TWICE, Msg("{seat} declares a {kind} twice: expected"
                                                        " one",
                                                        seat=decl.seat, kind=decl.kind),
                                                    path=path, seat=s)
                continue
            seen.add(key)
            if isinstance(decl, Poignee):
                self.check_poignee(decl, s, path)
            elif isinstance(decl, Misere):
                self.check_misere(decl, s, path)

    def check_poignee(self, decl: Poignee, s: int, path: str) -> None:
        """One poignée: its size at this table, its cards, and the Excuse rule (§5)."""
        counts = self.tab.poignee
        size = decl.size
        if decl.cards is not None:
            shown = decl.cards.bits
            derived = self.tab.poignee_size(len(decl.cards))
            if derived is None:
                self.report(Code.POIGNEE_SIZE, Msg("{count} cards shown: a poignée shows exactly"
                                                   " {counts}, {counts2} or {counts3} trumps at"
                                                   " {n} players",
                                                   count=len(decl.cards), counts=counts[0],
                                                   counts2=counts[1], counts3=counts[2], n=self.n),
                                               path=path, seat=s)
            elif size is not None and size is not derived:
                self.report(Code.POIGNEE_DECLARED_SIZE, Msg("a {size} poignée shows"
                                                            " {poignee_count} trumps; these"
                                                            " {count} make a {derived}",
                                                            size=size.value,
                                                            poignee_count=self.tab.poignee_count(size),
                                                            count=len(decl.cards),
                                                            derived=derived.value),
                                                        path=path, seat=s)
            size = size or derived
            not_trump = kernel.poignee_wrong_cards(shown)
            if not_trump:
                self.report(Code.POIGNEE_NOT_TRUMP, nmsg("{cards} shown: expected only trumps (and"
                                                         " the Excuse)",
                                                         "{cards} shown: expected only trumps"
                                                         " (and the Excuse)",
                                                         not_trump.bit_count(),
                                                         cards=cards_text(not_trump)),
                                                    path=path, seat=s)
            elsewhere = 0
            for other in range(self.n):
                if other != s:
                    elsewhere |= self.att.played_by[other] | (
                        self.start[other] if self.exact[other] else 0)
            if s != self.taker and self.ecart is not None:
                elsewhere |= self.ecart
            missing = shown & (~self.start[s] if self.exact[s] else elsewhere)
            if missing:
                self.report(Code.POIGNEE_NOT_IN_HAND, nmsg("{cards} shown but not in {seat}'s hand",
                                                           "{cards} shown but not in {seat}'s"
                                                           " hand", missing.bit_count(),
                                                           cards=cards_text(missing),
                                                           seat=decl.seat), path=path, seat=s)
            hidden = kernel.poignee_hidden_trumps(self.start[s], shown)
            if hidden:
                self.report(Code.POIGNEE_EXCUSE, Msg("the Excuse stands in for a trump while"
                                                     " {cards} stay hidden: expected those trumps"
                                                     " shown instead",
                                                     cards=cards_text(hidden)), path=path, seat=s)
        if size is not None:
            self.poignees.append((s, size))

    def check_misere(self, decl: Misere, s: int, path: str) -> None:
        """A misère (``misere = on``, §12): no trump nor Excuse, or no face card."""
        if not self.rules.misere:
            self.report(Code.MISERE_NOT_ALLOWED, Msg("misère is declared but the ruleset has"
                                                     " misere=off"), path=path, seat=s)
            return
        bad = kernel.misere_faults(self.start[s], decl.misere)
        if bad:
            what = (Msg("no trump and no Excuse") if decl.misere is MisereKind.ATOUT
                    else Msg("no King, Queen, Knight or Jack"))
            self.report(Code.MISERE_FALSE, Msg("{seat} holds {cards}: a misère {misere} needs"
                                               " {what}",
                                               seat=decl.seat, cards=cards_text(bad),
                                               misere=decl.misere.value, what=what),
                                           path=path, seat=s)
        else:
            self.miseres.append(s)


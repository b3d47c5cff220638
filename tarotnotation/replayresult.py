"""The replay's phases on the count and the result (docs/rules.md §7-§10): each trick's
count, the facts of the play and of the recorded result, the :class:`Replay` concluded,
the recorded result checked (:mod:`tarotnotation.plausibility`) and compared with the
play's. :class:`tarotnotation.replay` runs them."""

from __future__ import annotations

from typing import Final

from . import kernel
from .cards import ALL_MASK, BOUTS_MASK, CardSet, card_points
from .diagnostics import Code
from .i18n import Msg, and_list, nmsg, pmsg
from .kernel import TAKER
from .plausibility import Facts, check
from .records import Misere, Poignee
from .replayed import Replay, TrickCount
from .replaystate import ReplayState, union_of
from .rules import (
    Camp,
    MisereKind,
)
from .scoring import DealFacts, Score, score
from .status import Status

__all__ = ["ResultChecks"]

#: The camps as the messages name them (the words of ``Camp``'s values, translated).
_CAMP_WORDS: Final = {Camp.TAKER: pmsg("camp", "taker"), Camp.DEFENCE: pmsg("camp", "defence")}
_CAMPS: Final = (Camp.TAKER, Camp.DEFENCE)


class ResultChecks(ReplayState):
    """The phases of a replay that count the deal and judge its recorded result."""

    # --- counting -------------------------------------------------------------------------

    def count_tricks(self, counting: kernel.Counting) -> list[TrickCount]:
        """Each whole trick's count (§7), as the kernel counted it (:meth:`count_play`):
        the winner and both camps' running points. A card played twice counts once, in
        the trick it was first in."""
        ids, camps = self.ids, _CAMPS
        out: list[TrickCount] = []
        taker_half = total = 0  # (the half-points of the tricks counted so far)
        for end, tr, bits in zip(counting.tricks, self.tricks, self.trick_bits, strict=False):
            live = end.taker | end.defence
            points = tr.points if live == bits else card_points(live)
            total += points
            # (the points of the whole trick are known; only a split one is counted again)
            taker_half += (points if not end.defence else card_points(end.taker) if end.taker
                           else 0) + end.moved
            excuse = camps[end.excuse] if end.excuse >= 0 and end.excuse != end.camp else None
            assert tr.winner is not None
            out.append(TrickCount(tr.number, ids[tr.winner], camps[end.camp], tr.points,
                                  taker_half, total - taker_half, excuse))
        return out

    def facts_from_play(self, counting: kernel.Counting) -> DealFacts:
        """The deal's facts from a complete play (§7-§10): each camp's points with the
        cards never played, the bouts, petit au bout and chelem."""
        assert self.contract is not None
        assert self.taker is not None
        taker_cards = counting.taker
        unplayed = ALL_MASK & ~union_of(self.att.played_by)
        if kernel.unplayed_camp(self.contract) == TAKER:
            taker_cards |= unplayed
        taker_half = card_points(taker_cards) + counting.moved
        bouts = (taker_cards & BOUTS_MASK).bit_count()
        pab, chelem = counting.petit, counting.chelem
        return DealFacts(
            players=self.n, taker=self.taker, contract=self.contract, taker_half=taker_half,
            bouts=bouts, partner=self.partner,
            petit_au_bout=None if pab < 0 else _CAMPS[pab],
            poignees=tuple(size for _, size in self.poignees),
            chelem_announced=self.announcer is not None,
            chelem=None if chelem < 0 else _CAMPS[chelem], miseres=tuple(self.miseres),
        )

    def facts_from_result(self) -> DealFacts | None:
        """The deal's facts from the recorded result (a score sheet, or a play that stops
        early), or None when it lacks what the score needs."""
        assert self.contract is not None
        assert self.taker is not None
        res = self.rec.result
        if res is not None and (
                (res.taker_points is not None and res.taker_points.exact_half is None)
                or (res.bouts is not None and not 0 <= res.bouts <= 3)):
            return None  # no score from facts that cannot be counted (check_facts said why)
        missing: list[str] = []
        if res is None or res.taker_points is None:
            missing.append(Msg("the taker's points"))
        if res is None or res.bouts is None:
            missing.append(Msg("the bouts"))
        if not self.partner_known:
            if not missing and self.rec.unrecorded("call"):
                # Only the partner is missing, and the format cannot hold it (K101 said so):
                # the taker's camp's points and bouts are known, the seats' scores are not.
                assert res is not None
                assert res.taker_points is not None
                assert res.bouts is not None
                self.uncalled = (res.taker_points.half, res.bouts)
                return None
            missing.append(Msg("the partner"))
        if missing:
            if res is not None and (res.scores or res.taker_points is not None):
                self.report(Code.NOT_SCORABLE, Msg("the score cannot be recomputed: the record"
                                                   " lacks {join}",
                                                   join=and_list(missing)), path="result")
            return None
        assert res is not None
        assert res.taker_points is not None
        assert res.bouts is not None
        return DealFacts(
            players=self.n, taker=self.taker, contract=self.contract,
            taker_half=res.taker_points.half, bouts=res.bouts, partner=self.partner,
            petit_au_bout=res.petit_au_bout,
            poignees=tuple(size for _, size in self.poignees),
            chelem_announced=self.announcer is not None, chelem=res.chelem,
            miseres=tuple(self.miseres),
        )

    # --- the conclusion -------------------------------------------------------------------

    def conclude(self) -> Replay:
        """The camps, the running counts, the deal's facts and score, and the
        comparison with the recorded result."""
        n, rec = self.n, self.rec
        camps: dict[str, Camp] = {}
        counts: list[TrickCount] | None = None
        if self.taker is not None and self.partner_known:
            for s in range(n):
                camps[self.ids[s]] = _CAMPS[self.camp_of(s)]
            counts = self.count_tricks(self.counting) if self.counting is not None else []
        taker_id = None if self.taker is None else self.ids[self.taker]
        partner_id = None if self.partner is None else self.ids[self.partner]
        declared = tuple((None if s is None else self.ids[s], size) for s, size in self.poignees)
        known = {self.ids[s]: CardSet(self.start[s]) for s in range(n) if self.exact[s]}

        def done(status: Status, facts: DealFacts | None = None, sc: Score | None = None,
                 scores: dict[str, int] | None = None) -> Replay:
            taker_half, bouts = ((facts.taker_half, facts.bouts) if facts is not None
                                 else self.uncalled or (None, None))
            return Replay(
                record=rec, rules=self.rules, status=status, diagnostics=tuple(self.diags),
                contract=self.contract, taker=taker_id, partner=partner_id,
                called=self.called, camps=camps, tricks=self.tricks,
                counts=() if counts is None else tuple(counts),
                chelem_announced=self.announcer is not None, poignees=declared,
                hands=known, facts=facts, score=sc, scores=scores,
                taker_half=taker_half, defence_half=None if taker_half is None
                else 182 - taker_half, bouts=bouts,
                petit_au_bout=None if facts is None else facts.petit_au_bout,
                chelem=None if facts is None else facts.chelem,
            )

        res = rec.result
        self.check_facts()
        if self.annulled:
            self.check_annulled_result()
            return done(Status.ANNULLED)
        if res is not None and res.annulled:
            self.report(Code.ANNULMENT_MISMATCH, Msg("the result says the deal was annulled, but"
                                                     " nobody held the Petit sec, not every"
                                                     " player passed and the ruleset does not"
                                                     " annul it: expected a score"),
                        path="result.annulled")
        if self.contract is None or self.taker is None:
            if rec.play or rec.result is not None:
                self.report(Code.NOT_SCORABLE, Msg("no contract and taker can be found (no"
                                                   " auction, and the result names none): the"
                                                   " deal is not scored"))
            return done(Status.UNSCORED)
        if self.complete and self.counting is not None:
            facts = self.facts_from_play(self.counting)
            self.compare_result(facts)
        else:
            maybe = self.facts_from_result()
            if maybe is None:
                # (a whole play not scored lacks the partner: unscored, not incomplete)
                return done(Status.INCOMPLETE if rec.play and not self.complete
                            else Status.UNSCORED)
            facts = maybe
        sc = score(facts)
        scores = dict(zip(self.ids, sc.seats, strict=True))
        self.compare_scores(scores)
        return done(Status.SCORED, facts, sc, scores)

    def check_facts(self) -> None:
        """The recorded facts against what a deal can produce
        (:func:`tarotnotation.plausibility.check`), for score sheets and played deals
        alike."""
        res = self.rec.result
        if res is None:
            return
        poignees: list[tuple[int, int, int]] = []
        declared: list[tuple[int, int, MisereKind]] = []
        for i, decl in enumerate(self.rec.declarations):
            s = self.index[decl.seat]
            if isinstance(decl, Poignee) and all(p[1] != s for p in poignees):  # H106 else
                count = (len(decl.cards) if decl.cards is not None
                         else self.tab.poignee_count(decl.size) if decl.size is not None else 0)
                poignees.append((i, s, count))
            elif isinstance(decl, Misere):
                declared.append((i, s, decl.misere))
        scores = res.scores or {}
        facts = Facts(
            players=self.n, rules=self.rules, seat_ids=self.ids, contract=self.contract,
            taker=self.taker, partner=self.partner, partner_known=self.partner_known,
            points=None if res.taker_points is None else res.taker_points.value,
            points_written=None if res.taker_points is None else str(res.taker_points),
            bouts=res.bouts, petit_au_bout=res.petit_au_bout, chelem=res.chelem,
            chelem_announced=self.announcer is not None,
            annulled=self.annulled or res.annulled,
            recorded_partner=None if res.partner is None else self.index[res.partner],
            poignees=tuple(poignees), miseres=tuple(declared),
            misere_seats=tuple(self.miseres), scores=tuple(scores.get(sid) for sid in self.ids),
        )
        for finding in check(facts):
            self.report(finding.code, finding.message, path=finding.path, seat=finding.seat)

    def compare_result(self, facts: DealFacts) -> None:
        """The recorded points, bouts, partner, petit au bout and chelem against the
        play's."""
        res = self.rec.result
        if res is None:
            return
        if res.taker_points is not None and res.taker_points.exact_half != facts.taker_half:
            self.report(Code.POINTS_MISMATCH, Msg("the result gives the taker {taker_points}"
                                                  " points; the play gives {points}",
                                                  taker_points=res.taker_points,
                                                  points=_pts(facts.taker_half)),
                        path="result.taker_points")
        if res.bouts is not None and res.bouts != facts.bouts:
            self.report(Code.BOUTS_MISMATCH, nmsg("the result gives the taker {bouts} bout; the"
                                                  " play gives {bouts2}",
                                                  "the result gives the taker {bouts} bouts; the"
                                                  " play gives {bouts2}", res.bouts,
                                                  bouts=res.bouts, bouts2=facts.bouts),
                                             path="result.bouts")
        if self.n == 5 and res.partner is not None:
            rp = self.index[res.partner]
            actual = facts.taker if self.partner is None else self.partner
            if rp != actual:
                self.report(Code.PARTNER_MISMATCH, Msg("the result names {partner} as partner;"
                                                       " the called card was held by {seat}",
                                                       partner=res.partner, seat=self.ids[actual]),
                            path="result.partner")
        if res.petit_au_bout is not None and res.petit_au_bout is not facts.petit_au_bout:
            actual_pab = (Msg("nobody") if facts.petit_au_bout is None
                          else _CAMP_WORDS[facts.petit_au_bout])
            self.report(Code.PETIT_AU_BOUT_MISMATCH, Msg("the result gives the petit au bout to"
                                                         " the {petit_au_bout}; the play gives it"
                                                         " to {actual_pab}",
                                                         petit_au_bout=_CAMP_WORDS[res.petit_au_bout],
                                                         actual_pab=actual_pab),
                        path="result.petit_au_bout")
        if res.chelem is not None and res.chelem is not facts.chelem:
            actual_ch = (Msg("no camp") if facts.chelem is None
                         else Msg("the {camp}", camp=_CAMP_WORDS[facts.chelem]))
            self.report(Code.CHELEM_MISMATCH, Msg("the result gives a chelem to the {chelem}; in"
                                                  " the play {actual_ch} won every trick",
                                                  chelem=_CAMP_WORDS[res.chelem],
                                                  actual_ch=actual_ch),
                        path="result.chelem")

    def compare_scores(self, scores: dict[str, int]) -> None:
        """Each recorded score against the rules' (their sum: :meth:`check_facts`)."""
        res = self.rec.result
        if res is None or res.scores is None:
            return
        for sid, recorded in res.scores.items():
            if scores[sid] != recorded:
                self.report(Code.SCORE_MISMATCH, Msg("{sid} is recorded with {recorded}; the"
                                                     " rules give {scores}",
                                                     sid=sid, recorded=format(recorded, '+d'),
                                                     scores=format(scores[sid], '+d')),
                                                 path=f"result.scores.{sid}",
                            seat=self.index[sid])

    def check_annulled_result(self) -> None:
        """An annulled deal scores nothing: every recorded score is 0."""
        res = self.rec.result
        if res is None or res.scores is None:
            return
        self.compare_scores(dict.fromkeys(self.ids, 0))



def _pts(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2}"



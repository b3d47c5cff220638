"""The analysis as computed comments: written, read back, idempotent, people's kept."""

from __future__ import annotations

import random

from tarotnotation.analysis import analyse_record, parse_comment, strip_analysis
from tarotnotation.analysis.analyse import CardAnalysis, PlayAnalysis, analyse_play
from tarotnotation.analysis.comments import annotate_analysis, card_comment, deal_comment
from tarotnotation.cards import Card
from tarotnotation.narrator import PREFIX, annotate
from tarotnotation.records import PlayedCard, Trick
from tarotnotation.rules import Camp
from tarotnotation.simulate import random_deal


def _item(before: tuple[int, int], after: tuple[int, int], camp: Camp = Camp.TAKER,
          best: Card | None = Card.T12) -> CardAnalysis:
    return CardAnalysis(3, 1, "E", Card.HK, camp, before, after, best, 4)


def test_card_comments_read_back() -> None:
    cases = [
        (_item((4, 4), (4, 4)), None, (0, 0), (), True, 2),
        (_item((4, 4), (1, 1)), "?", (3, 3), (Card.T12,), True, 1),
        (_item((3, 3), (-3, -3)), "??", (6, 6), (Card.T12,), False, 2),
        (_item((-6, -6), (-2, -2), Camp.DEFENCE), "?", (4, 4), (Card.T12,), False, 1),
        (_item((0, 10), (-4, 6)), None, (0, 14), (Card.T12,), None, None),
    ]
    for item, glyph, cost, best, made, by in cases:
        text = card_comment(item, glyph)
        assert text.startswith(PREFIX)
        note = parse_comment(text)
        assert note is not None, text
        assert (note.cost, note.best, note.made, note.by, note.glyph) == (
            cost, best, made, by, glyph), text
        assert note.changed == item.changed


def test_the_examples_of_the_docs_read_back() -> None:
    note = parse_comment("tarot: dd -6, best T12; made by 3 with best play")
    assert note is not None
    assert note.cost == (12, 12)
    assert note.best == (Card.T12,)
    assert parse_comment("tarot: dd 0; made by 2 with best play") is not None
    assert parse_comment("tarot: dd -3..0; made with best play") is not None
    deal = parse_comment("tarot: dd from trick 4; lost by 3 with best play")
    assert deal is not None
    assert deal.from_trick == 4
    assert deal.cost is None
    for other in ("tarot: S wins (taker), 4 points; taker 4, defence 0", "dd -3",
                  "tarot: dd -3, best ZZ; made with best play", "tarot: dd -x; made"):
        assert parse_comment(other) is None, other


def _analysed(seed: int) -> tuple[object, PlayAnalysis]:
    rec = random_deal(random.Random(seed), 4)
    return rec, analyse_play(rec, from_trick=14)


def test_analysing_twice_gives_the_same_record_and_keeps_peoples_comments() -> None:
    rec = random_deal(random.Random(21), 4)
    # A person's glyph and comment on a card, and a comment on the deal.
    play = list(rec.play)
    cards = list(play[15].cards)
    cards[1] = PlayedCard(card=cards[1].card, glyph="!?", comments=("my own note",))
    play[15] = Trick(cards=tuple(cards))
    rec = rec.model_copy(update={"play": tuple(play), "comments": ("a deal to study",)})
    once, analysis, diags = analyse_record(rec, from_trick=14)
    assert analysis is not None
    assert not diags
    twice, _, _ = analyse_record(once, from_trick=14)
    assert twice == once
    kept = once.play[15].cards[1]
    assert kept.glyph == "!?"
    assert kept.comments[0] == "my own note"
    assert once.comments[0] == "a deal to study"
    assert deal_comment(analysis) in once.comments
    assert strip_analysis(once) == rec
    noted = [parse_comment(c) for t in once.play for pc in t.cards for c in pc.comments]
    assert sum(n is not None for n in noted) == len(analysis.cards)


def test_glyphs_mark_costly_cards_and_a_changed_outcome() -> None:
    for seed in range(30):
        rec = random_deal(random.Random(seed), 4)
        analysis = analyse_play(rec, from_trick=15)
        if not analysis.costly:
            continue
        out = annotate_analysis(rec, analysis, mistake=1)
        for item in analysis.cards:
            pc = out.play[item.trick - 1].cards[item.index]
            if item.changed:
                assert pc.glyph == "??"
            elif item.cost_bounds[0] > 0:
                assert pc.glyph == "?"
            else:
                assert pc.glyph is None
        strict = annotate_analysis(rec, analysis, mistake=1000)
        assert all(pc.glyph in (None, "??") for t in strict.play for pc in t.cards)
        return
    raise AssertionError("no deal with a costly card in 30 seeds")


def test_annotate_and_analyze_comments_live_together() -> None:
    rec = random_deal(random.Random(4), 4)
    analysed, _, _ = analyse_record(rec, from_trick=16)
    both = annotate(analysed)
    # tarot annotate replaces every computed comment (the analysis's too): the analysis
    # is then written again on top of its notes.
    again, _, _ = analyse_record(both, from_trick=16)
    assert any(parse_comment(c) for t in again.play for pc in t.cards for c in pc.comments)
    assert any(c.startswith(PREFIX) and parse_comment(c) is None
               for t in again.play for pc in t.cards for c in pc.comments)

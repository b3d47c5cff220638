"""Records built in code (issue 37): a record updated with plain Python lists and dicts is
validated as a new one would be, so it writes without pydantic's serializer warnings and
reads back equal from the notation and from JSON."""

from __future__ import annotations

import warnings

import pytest
from pydantic import ValidationError

from tarotnotation import notation
from tarotnotation.cards import Card, CardSet
from tarotnotation.formats import json as tjson
from tarotnotation.records import DealRecord, Trick


def test_a_record_updated_with_plain_lists_round_trips_without_warnings() -> None:
    rec = notation.load("examples/prise.tarot")
    plain = [{"cards": [{"card": pc.card.code} for pc in t.cards]} for t in rec.play[:3]]
    new = rec.model_copy(update={"play": plain, "hands": {s: [c.code for c in h]
                                                          for s, h in (rec.hands or {}).items()}})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tjson.loads(tjson.dumps(new)) == new
        assert notation.loads(str(new)) == new
    assert isinstance(new.play, tuple)
    assert isinstance(new.play[0], Trick)
    assert new.play == rec.play[:3]
    assert new.hands == rec.hands


def test_a_record_update_is_validated_as_the_constructor_validates() -> None:
    rec = DealRecord(players=4)
    with pytest.raises(ValidationError, match="dealer: 'X' is not a seat"):
        rec.model_copy(update={"dealer": "X"})
    with pytest.raises(ValidationError, match="7X"):
        rec.model_copy(update={"chien": ["7H", "7X"]})


def test_a_part_updated_with_plain_values_is_the_models() -> None:
    trick = Trick(cards=[{"card": "7H"}])
    again = trick.model_copy(update={"cards": [{"card": "KH"}], "comments": ["well played"]})
    assert again.cards[0].card is Card.HK
    assert again.comments == ("well played",)
    assert CardSet.parse("KH") == CardSet.of(again.cards[0].card)


def test_a_copy_without_update_is_the_same_record() -> None:
    rec = notation.load("examples/prise.tarot")
    assert rec.model_copy() == rec
    assert rec.model_copy(deep=True) == rec


def test_a_copy_keeps_the_fields_set_of_the_original_and_the_update() -> None:
    rec = DealRecord(players=4, dealer="S")
    assert "ruleset" not in rec.model_fields_set
    again = rec.model_copy(update={"tags": [("Event", "Club")]})
    assert again.model_fields_set == rec.model_fields_set | {"tags"}

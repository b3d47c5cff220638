"""Names, tokens and limits (server/tokens.py, server/quotas.py)."""

from __future__ import annotations

import pytest

from tarotnotation.server.quotas import Buckets, Limits, client_address, trusted_proxies
from tarotnotation.server.store import NameTakenError, Store, name_key
from tarotnotation.server.tokens import (
    BadNameError,
    address_key,
    authenticate,
    bearer,
    new_token,
    register,
    token_hash,
    valid_name,
)


@pytest.mark.parametrize("name", ["A", "Zoé", "Jean-Pierre", "anne_marie 2", "x" * 24,
                                  "Ἀθηνᾶ", "李小龍", "Ça va"])
def test_a_name_is_1_to_24_letters_digits_spaces_dashes_or_underscores(name: str) -> None:
    assert valid_name(name) == name


@pytest.mark.parametrize("name", ["", " ", "x" * 25, "a.b", "a\u200bb", "<script>", "a\nb",
                                  "a  b", "😀", "x²", "a'b", "a\u0301\u0301"])
def test_a_name_that_breaks_the_rules_is_refused(name: str) -> None:
    with pytest.raises(BadNameError):
        valid_name(name)


def test_a_name_is_kept_in_nfc() -> None:
    decomposed = "Zoe\u0301"
    assert valid_name(decomposed) == "Zoé"
    assert len(valid_name("e\u0301" * 24)) == 24  # 48 code points, 24 letters in NFC


def test_names_equal_without_regard_to_case_share_a_key() -> None:
    assert name_key("ÉLODIE") == name_key("élodie") == name_key("E\u0301lodie")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Ana") != name_key("Anna")


def test_a_token_is_random_and_only_its_hash_is_kept() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    t = tokens.pop()
    assert t not in token_hash(t)
    assert token_hash(t) != token_hash(new_token())


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer abc", "Basic " + "a" * 43,
                                    "Bearer " + "a" * 42 + "!", "Bearer " + "a" * 44,
                                    "Bearer " + "a" * 300])
def test_a_header_that_is_not_a_bearer_token_gives_none(header: str | None) -> None:
    assert bearer(header) is None


def test_a_bearer_token_is_read_from_the_header() -> None:
    t = new_token()
    assert bearer(f"Bearer {t}") == t
    assert bearer(f"bearer  {t} ") == t


def test_an_address_is_kept_as_a_keyed_hash() -> None:
    k = address_key("203.0.113.9", "secret")
    assert "203" not in k
    assert k == address_key("203.0.113.9", "secret")
    assert k != address_key("203.0.113.9", "other")


def test_a_bucket_refills_at_its_rate_and_holds_its_burst() -> None:
    b = Buckets(rate=2.0, burst=3)
    assert [b.take("k", 0.0) for _ in range(4)] == [True, True, True, False]
    assert b.retry_after("k", 0.0) == pytest.approx(0.5)
    assert b.take("k", 0.5)
    assert not b.take("k", 0.5)
    assert [b.take("k", 100.0) for _ in range(4)] == [True, True, True, False]


def test_a_refused_request_takes_nothing_from_the_bucket() -> None:
    b = Buckets(rate=1.0, burst=1)
    assert b.take("k", 0.0)
    for _ in range(1000):
        assert not b.take("k", 0.0)
    assert b.take("k", 1.0)


def test_buckets_are_kept_in_bounded_memory() -> None:
    b = Buckets(rate=1.0, burst=1, max_keys=10)
    for i in range(1000):
        b.take(f"k{i}", 0.0)
    assert len(b) == 10


def test_limits_below_one_are_refused() -> None:
    with pytest.raises(ValueError, match="max_body"):
        Limits(max_body=0)
    with pytest.raises(ValueError, match="token_rate"):
        Limits(token_rate=0.0)


def test_a_forwarded_address_is_trusted_only_from_a_trusted_proxy() -> None:
    proxies = trusted_proxies(["127.0.0.1", "10.0.0.0/8", "::1"])
    assert client_address("127.0.0.1", "203.0.113.9", proxies) == "203.0.113.9"
    assert client_address("::1", "2001:db8::1", proxies) == "2001:db8::1"
    # the client's own header, to the left of what the proxies added, is not believed
    assert client_address("127.0.0.1", "1.2.3.4, 203.0.113.9, 10.0.0.2",
                          proxies) == "203.0.113.9"
    # not from a proxy: the header is ignored
    assert client_address("203.0.113.9", "1.2.3.4", proxies) == "203.0.113.9"
    assert client_address("203.0.113.9", None, ()) == "203.0.113.9"
    assert client_address("127.0.0.1", "1.2.3.4", ()) == "127.0.0.1"
    # every hop a proxy: the first one; a hop that is no address: the peer
    assert client_address("10.0.0.1", "10.0.0.2, 10.0.0.3", proxies) == "10.0.0.2"
    assert client_address("10.0.0.1", "1.2.3.4, junk", proxies) == "10.0.0.1"
    assert client_address(None, None, proxies) == "unknown"


def test_a_trusted_proxy_that_is_no_address_is_refused() -> None:
    with pytest.raises(ValueError, match="not an address or a network"):
        trusted_proxies(["proxy.example"])


def test_a_registered_player_is_found_by_their_token_only(database: str) -> None:
    store = Store.open(database)
    try:
        store.migrate()
        player, token = register(store, "  Zoé ", now=5)
        assert player.name == "Zoé"
        assert authenticate(store, f"Bearer {token}") == player
        assert authenticate(store, f"Bearer {new_token()}") is None  # forged
        assert authenticate(store, token) is None  # not a bearer header
        assert authenticate(store, None) is None
        with pytest.raises(NameTakenError):
            register(store, "ZOÉ", now=6)
        with pytest.raises(BadNameError):
            register(store, "Zoé!", now=6)
        assert store.player_by_name("zoé") == player
    finally:
        store.close()

"""The serve tests' databases (a plugin of tests/conftest.py): every store test runs on
SQLite (a file in a temporary folder) and on PostgreSQL (a server the run starts on
127.0.0.1: tests/support/pg_server.py; skipped, saying why, where it cannot start, unless
TAROT_REQUIRE_POSTGRES=1)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pg_server
import pytest

_count = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str | None]:
    with pg_server.postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.process)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's address, SQLite's or PostgreSQL's."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'serve.db'}"
    url = request.getfixturevalue("postgres_server")
    if url is None:
        why = "; ".join(pg_server.WHY_NOT) or "PostgreSQL did not start"
        if pg_server.required():
            pytest.fail(f"TAROT_REQUIRE_POSTGRES=1 and {why}")
        pytest.skip(f"PostgreSQL cannot start here: {why}")
    return pg_server.fresh_database(str(url), f"tarot_test_{next(_count)}")

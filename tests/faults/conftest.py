"""The fault tests' own PostgreSQL and Redis servers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.faults.servers import OwnPostgres, OwnRedis


@pytest.fixture
def servers() -> Iterator[tuple[OwnPostgres, OwnRedis]]:
    try:
        postgres, broker = OwnPostgres(), OwnRedis()
        postgres.start()
    except Exception as error:
        message = f"cannot start a PostgreSQL and Redis of the test's own ({type(error).__name__}: {error})"
        if REQUIRE_SERVICES:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    broker.start()
    yield postgres, broker
    broker.stop()
    postgres.stop()

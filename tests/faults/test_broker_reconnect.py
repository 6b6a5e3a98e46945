"""A worker that lost Redis is connected again within about a second of Redis being back, however
long it was away (kombu's own schedule, 2, 4, 6... s between tries, left a 6.5-second restart
unnoticed for another 5.5 s): the moves made meanwhile are dispatched that much sooner."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from service.db import migrate
from tests.conftest import app_config
from tests.faults.servers import OwnPostgres, OwnRedis
from tests.worker_process import worker_process

pytestmark = [pytest.mark.postgres, pytest.mark.redis]
DOWN_SECONDS = 6.5
RECONNECT_LIMIT_SECONDS = 2.5  # a second's schedule and a busy CI machine's margin


def test_a_worker_reconnects_within_a_second_or_so_of_redis_coming_back(
    servers: tuple[OwnPostgres, OwnRedis], tmp_path: Path
) -> None:
    postgres, broker = servers
    migrate(postgres.url)
    settings = app_config(tmp_path, postgres.url, REDIS_URL=broker.url, RUN_MIGRATIONS=False)
    log = tmp_path / "worker.log"
    with worker_process(settings, log, queues="moves"):
        broker.restart(pause=DOWN_SECONDS)
        back = time.monotonic()
        while log.read_text().count("Connected to redis") < 2:
            assert time.monotonic() - back < RECONNECT_LIMIT_SECONDS, log.read_text()[-2000:]
            time.sleep(0.05)

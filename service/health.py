"""Whether the service can work: the database answers, the broker answers, and the beat ticked
lately (each sweep records its tick in Redis). Read by `pbem health` and `/healthz`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import redis
from sqlalchemy import text

from service.runtime import Runtime

BEAT_KEY = "pbem:beat"
OK = "ok"
BROKER_TIMEOUT_SECONDS = 3.0


@dataclass(frozen=True)
class Health:
    """Each check's answer: "ok", or what is wrong."""

    checks: dict[str, str]

    @property
    def ok(self) -> bool:
        return all(answer == OK for answer in self.checks.values())


def beat_stale_seconds(rt: Runtime) -> float:
    """How old the last tick may be: a few sweep periods, and never under a minute."""
    return max(60.0, 4 * float(rt.settings["SWEEP_INTERVAL_SECONDS"]))


def _broker(rt: Runtime) -> redis.Redis:
    url = rt.settings["REDIS_URL"]
    return redis.Redis.from_url(
        url, socket_connect_timeout=BROKER_TIMEOUT_SECONDS, socket_timeout=BROKER_TIMEOUT_SECONDS
    )


def record_beat(rt: Runtime) -> None:
    """Note that the periodic sweep ran now (a beat and a worker are alive); nothing in embedded mode,
    where the sweep is a thread of the web process."""
    if not rt.settings["REDIS_URL"]:
        return
    with _broker(rt) as broker:
        broker.set(BEAT_KEY, rt.clock.now().isoformat(), ex=int(beat_stale_seconds(rt)) * 10)


def check_health(rt: Runtime) -> Health:
    """The database, the broker and the beat's last tick, each checked."""
    checks = {"database": _check_database(rt)}
    if rt.settings["REDIS_URL"]:
        checks.update(_check_broker_and_beat(rt))
    return Health(checks)


def _check_database(rt: Runtime) -> str:
    try:
        with rt.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:  # any failure is the answer
        return f"unreachable: {type(error).__name__}"
    return OK


def _check_broker_and_beat(rt: Runtime) -> dict[str, str]:
    try:
        with _broker(rt) as broker:
            broker.ping()
            tick = broker.get(BEAT_KEY)
    except redis.RedisError as error:
        return {
            "broker": f"unreachable: {type(error).__name__}",
            "beat": "unknown: the broker is unreachable",
        }
    if tick is None:
        return {"broker": OK, "beat": "no tick recorded lately"}
    age = (rt.clock.now() - datetime.fromisoformat(tick.decode())).total_seconds()
    if age > beat_stale_seconds(rt):
        return {"broker": OK, "beat": f"last tick {age:.0f} s ago"}
    return {"broker": OK, "beat": OK}

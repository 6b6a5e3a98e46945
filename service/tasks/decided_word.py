"""Word that a command was decided, by Redis pub/sub: the web waiting on a move hears it the moment
the worker commits, instead of reading the database again and again. The word is only a hint: the
outcome is always read from the database, which a waiter still reads now and then, so a lost
message (or Redis away) costs a little latency and never a wrong answer."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis

log = logging.getLogger(__name__)
CONNECT_TIMEOUT_SECONDS = 0.25  # Redis away: the waiter falls back to reading the database at once
READ_TIMEOUT_SECONDS = 1


def channel(command_id: int) -> str:
    return f"pbem:decided:{command_id}"


class RedisListener:
    """One command's channel, subscribed."""

    def __init__(self, pubsub: redis.client.PubSub) -> None:
        self._pubsub = pubsub

    def wait(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self._pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
            except redis.RedisError:
                time.sleep(max(left, 0))  # the database read that follows still answers
                return False
            if message is not None:
                return True
        return False


class Decisions:
    """Publishes and listens for decided commands on a Redis server."""

    def __init__(self, url: str) -> None:
        self._redis = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT_SECONDS, socket_timeout=READ_TIMEOUT_SECONDS
        )

    @contextmanager
    def listen(self, command_id: int) -> Iterator[RedisListener | None]:
        pubsub = self._redis.pubsub()  # type: ignore[no-untyped-call]  # redis types leave it untyped
        try:
            pubsub.subscribe(channel(command_id))
        except redis.RedisError as error:
            log.warning("no word of decisions from Redis, reading the database: %s", error)
            pubsub.close()
            yield None
            return
        try:
            yield RedisListener(pubsub)
        finally:
            pubsub.close()

    def decided(self, command_ids: list[int]) -> None:
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                for command_id in command_ids:
                    pipe.publish(channel(command_id), b"1")
                pipe.execute()
        except redis.RedisError as error:
            log.warning("could not tell of decided commands %s: %s", command_ids, error)

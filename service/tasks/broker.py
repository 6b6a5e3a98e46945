"""The connection to the broker every process makes (workers, beat, the web's publishing), with
kombu's reconnect schedule shortened: a worker that lost Redis tries again within a second of it
being back, and so dispatches the moves made meanwhile, instead of sleeping 2, 4, 6... s between
tries (kombu's default, which cost a 4-second Redis restart another 2 s, a longer one up to 30 s)."""

from __future__ import annotations

from typing import Any

from celery.app.amqp import AMQP
from kombu import Connection

# A try every second at most (a refused connection on a local network is cheap).
RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 1.0


class PromptConnection(Connection):
    """A kombu connection whose reconnect schedule is 0.5, 1, 1, ... s unless a caller gives one."""

    def ensure_connection(self, *args: Any, **kwargs: Any) -> Connection:
        kwargs.setdefault("interval_start", RECONNECT_FIRST_SECONDS)
        kwargs.setdefault("interval_step", RECONNECT_FIRST_SECONDS)
        # kombu's longest pause is interval_max plus interval_start
        kwargs.setdefault("interval_max", RECONNECT_MAX_SECONDS - RECONNECT_FIRST_SECONDS)
        return super().ensure_connection(*args, **kwargs)


class PromptAMQP(AMQP):
    """Celery's messaging with PromptConnection."""

    Connection = PromptConnection

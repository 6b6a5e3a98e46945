"""A Celery app with one task that does nothing, on Redis as the service's: the floor of one task's
round trip (bench/floor.py). Its broker and result store are REDIS_URL."""

from __future__ import annotations

import os

from celery import Celery

app = Celery("floor", broker=os.environ["REDIS_URL"], backend=os.environ["REDIS_URL"])


@app.task
def nothing() -> None:
    return None

"""A real Celery worker process on the real Redis and PostgreSQL, with a real SMTP sink."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from service import create_app
from tests.conftest import app_config
from tests.smtp_sink import SmtpSink
from tests.worker_process import WorkerDidNotStart, worker_process


@pytest.fixture
def worker_settings(clean_pg: str, redis_url: str, smtp_sink: SmtpSink, tmp_path: Path) -> dict:
    return app_config(
        tmp_path,
        clean_pg,
        REDIS_URL=redis_url,
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=smtp_sink.port,
        RUN_MIGRATIONS=False,
        MOVE_WAIT_SECONDS=15.0,
    )


@pytest.fixture
def celery_worker(worker_settings: dict, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """`celery -A worker.main worker` as a separate process, configured by environment variables."""
    try:
        with worker_process(worker_settings, tmp_path / "worker.log") as process:
            yield process
    except WorkerDidNotStart as error:
        pytest.fail(str(error))


@pytest.fixture
def worker_app(worker_settings: dict, celery_worker: subprocess.Popen) -> Iterator[Flask]:
    """The web side: dispatches to Redis, where the worker process picks the tasks up."""
    app = create_app(worker_settings)
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()

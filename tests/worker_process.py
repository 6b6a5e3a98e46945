"""A Celery worker as a child process, configured by settings (for tests and benchmarks)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class WorkerDidNotStart(RuntimeError):
    """The worker exited or stayed silent; the message ends with its log."""


@contextmanager
def worker_process(
    settings: dict[str, Any], log: Path, threads: int = 4, queues: str | None = None
) -> Iterator[subprocess.Popen]:
    """`celery -A worker.main worker` with `settings` as environment variables, once it is ready;
    it takes the tasks of `queues` (comma-separated), or of every queue."""
    with celery_process(settings, log, worker_arguments(threads, queues), WORKER_READY) as process:
        yield process


WORKER_READY = "ready."


def worker_arguments(threads: int, queues: str | None, pool: str = "threads") -> list[str]:
    """The command line's arguments after `celery -A worker.main` for a worker of `threads` threads
    (or, with pool "prefork", as many child processes, as the Procfile's workers run)."""
    arguments = ["worker", "--pool", pool, "--concurrency", str(threads), "--loglevel", "INFO"]
    if queues:
        arguments += ["--queues", queues, "--hostname", f"{queues.replace(',', '-')}@%h"]
    return [*arguments, "--without-gossip", "--without-mingle"]


@contextmanager
def beat_process(settings: dict[str, Any], log: Path, schedule: Path) -> Iterator[subprocess.Popen]:
    """`celery -A worker.main beat` (the periodic sweep, digests and clocks), once it has started."""
    arguments = ["beat", "--loglevel", "INFO", "--schedule", str(schedule)]
    with celery_process(settings, log, arguments, "beat: Starting") as process:
        yield process


@contextmanager
def celery_process(
    settings: dict[str, Any], log: Path, arguments: list[str], ready: str
) -> Iterator[subprocess.Popen]:
    """`celery -A worker.main ARGUMENTS...` as a child process, once `ready` shows in its log."""
    process = start_celery(settings, log, arguments, ready)
    try:
        yield process
    finally:
        stop(process)


def start_celery(
    settings: dict[str, Any], log: Path, arguments: list[str], ready: str, own_group: bool = False
) -> subprocess.Popen:
    """`celery -A worker.main ARGUMENTS...` started, once `ready` shows in its log (written afresh);
    with `own_group`, in a process group of its own (which a test may kill whole, pool children too)."""
    env = {**os.environ, **{key: str(value) for key, value in settings.items() if value is not None}}
    command = [sys.executable, "-m", "celery", "-A", "worker.main", *arguments]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=own_group
        )
    deadline = time.monotonic() + 60
    while ready not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise WorkerDidNotStart(f"celery {arguments[0]} did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.1)
    return process


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()

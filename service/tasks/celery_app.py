"""The Celery app, built inside the Flask app factory so every task runs in the app's context."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import redis
from celery import Celery, Task, bootsteps
from flask import Flask
from kombu import Queue
from kombu.exceptions import OperationalError

from service.runtime import Runtime, runtime
from service.tasks.broker import PromptAMQP
from service.tasks.decided_word import Decisions, RedisListener
from service.tasks.recovery import dispatch_pending

log = logging.getLogger(__name__)


# Queues by kind of work, each with its own worker processes (the Procfile): a move never waits behind
# a mail (a mail outage's retries) or a periodic run (clocks, digests, the sweep).
MOVES, MAIL, PERIODIC = "moves", "mail", "periodic"
ROUTES = {
    "pbem.apply_move": MOVES,
    "pbem.play_bots": MOVES,
    "pbem.table_ended": MOVES,  # a club season's next tables start as one ends
    "pbem.send_mails": MAIL,
    "pbem.sweep": PERIODIC,
    "pbem.send_digests": PERIODIC,
    "pbem.run_clocks": PERIODIC,
    "pbem.send_club_digests": PERIODIC,
}
# The web gives up on an unreachable broker this fast: the command stays pending in the database and
# the first worker that reaches the broker again dispatches it (DispatchPending).
PUBLISH_CONNECT_SECONDS = 0.25
TASK_ROWS = 10  # outbox rows per mail task at most


def init_celery(app: Flask) -> Celery:
    """A Celery app bound to `app`: Redis when REDIS_URL is set, otherwise tasks run in-process."""

    class FlaskTask(Task):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context(), Runtime.shared_reads():
                return self.run(*args, **kwargs)

    redis_url = app.config["PBEM"]["REDIS_URL"]
    celery = Celery(app.import_name, task_cls=FlaskTask, amqp=PromptAMQP)
    celery.conf.update(
        broker_url=redis_url or "memory://",
        result_backend=None,
        task_ignore_result=True,
        task_always_eager=not redis_url,
        task_eager_propagates=True,
        # Reliability lives in the database, not the broker: a move is a pending command row and a mail
        # an unsent outbox row until done; every task is idempotent. The broker keeps no
        # acknowledgement bookkeeping: kombu's restoring of unacknowledged Redis messages made workers
        # exit when Redis restarted (AttributeError in restore_unacked_once), so there is no ack
        # emulation. A move's task is acknowledged late all the same, so that a pool child killed
        # under it has it put back on its queue at once (reject on worker lost); a move lost with a
        # whole worker, or sent while the broker was away, is dispatched again by the next worker
        # that connects (DispatchPending), and the sweep remains the last resort. Prefetch 1 keeps
        # one slow task from holding others hostage. We never schedule countdowns or ETAs on Redis:
        # retries, reminders and timeouts are due times in the database, found by the periodic tasks.
        task_acks_late=False,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_transport_options={
            "ack_emulation": False,
            "socket_connect_timeout": PUBLISH_CONNECT_SECONDS,
        },
        # Workers and beat wait for the broker to come back, however long it is away, rather than exit,
        # trying again every second at most (PromptAMQP).
        broker_connection_retry_on_startup=True,
        broker_connection_retry=True,
        broker_connection_max_retries=None,
        # A move running when the broker went away finishes (its outcome is in the database), rather
        # than being cancelled and played again.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        # Publishing from a web request: one quick try again, then the command waits in the database.
        task_publish_retry_policy={
            "max_retries": 1,
            "interval_start": 0,
            "interval_step": 0.1,
            "interval_max": 0.1,
        },
        task_queues=[Queue(name) for name in (MOVES, MAIL, PERIODIC)],
        task_default_queue=MOVES,
        task_routes=ROUTES,
        beat_schedule=beat_schedule(app.config["PBEM"]),
    )
    celery.set_default()
    celery.steps["consumer"].add(dispatch_pending_step(app))
    app.extensions["celery"] = celery
    import service.tasks.jobs  # noqa: F401  (registers the tasks)

    return celery


def beat_schedule(settings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The periodic tasks. Runs never overlap: each expires when its next one is due (a run still
    queued by then is dropped, not run late on top of the next), and the one periodic worker takes
    them one at a time."""
    every = {
        "sweep": ("pbem.sweep", settings["SWEEP_INTERVAL_SECONDS"]),
        "digests": ("pbem.send_digests", settings["CLOCK_INTERVAL_SECONDS"]),
        "clocks": ("pbem.run_clocks", settings["CLOCK_INTERVAL_SECONDS"]),
        "club-digests": ("pbem.send_club_digests", settings["CLOCK_INTERVAL_SECONDS"]),
    }
    return {
        name: {"task": task, "schedule": seconds, "options": {"expires": seconds}}
        for name, (task, seconds) in every.items()
    }


def dispatch_pending_step(app: Flask) -> type[bootsteps.StartStopStep]:
    """A worker's step run each time it (re)connects to the broker: every pending move dispatched at
    once, so that a move made while the broker was away, or lost with a worker, waits for no tick."""

    class DispatchPending(bootsteps.StartStopStep):
        requires = ("celery.worker.consumer.tasks:Tasks",)

        def start(self, parent: object) -> None:
            try:
                with app.app_context():
                    rt = runtime()
                    dispatched = dispatch_pending(rt)
                    rt.engine.dispose()  # no connection of this process is inherited by a forked pool child
            except Exception:  # a hint only: the sweep finds them all the same
                log.exception("could not dispatch the pending moves on connecting")
                return
            if dispatched:
                log.info("dispatched %s pending moves on connecting to the broker", dispatched)

    return DispatchPending


class CeleryDispatcher:
    """Sends work to Celery; if the broker is unreachable the work stays in the database, where
    the periodic sweep finds it again (pending commands, unsent mail)."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        redis_url = app.config["PBEM"]["REDIS_URL"]
        self._decisions = Decisions(redis_url) if redis_url else None
        self._broker = (
            redis.Redis.from_url(redis_url, socket_connect_timeout=PUBLISH_CONNECT_SECONDS, socket_timeout=1)
            if redis_url
            else None
        )

    def listen(self, command_id: int) -> AbstractContextManager[RedisListener | None]:
        # In-process tasks decide before `apply_move` returns: nothing to wait for.
        return self._decisions.listen(command_id) if self._decisions else nullcontext()

    def decided(self, command_ids: list[int]) -> None:
        if self._decisions and command_ids:
            self._decisions.decided(command_ids)

    def apply_move(self, command_id: int, game_id: str) -> None:
        from service.tasks.jobs import apply_move

        self._send(apply_move, command_id, game_id)

    def play_bots(self, game_id: str) -> None:
        from service.tasks.jobs import play_bots

        self._send(play_bots, game_id)

    def table_ended(self, game_id: str) -> None:
        from service.tasks.jobs import table_ended

        self._send(table_ended, game_id)

    def send_mails(self, mail_ids: list[int]) -> None:
        from service.tasks.jobs import send_mails

        # A step's rows go in a few tasks, not one each: a task's cost is paid once per batch, and a
        # batch small enough that two mail workers share a burst.
        for start in range(0, len(mail_ids), TASK_ROWS):
            batch = mail_ids[start : start + TASK_ROWS]
            try:
                self._send(send_mails, batch)
            except Exception:  # in-process: the caller's work is committed, the rows stay for the sweep
                log.exception("mails %s could not be sent now; the sweep tries again", batch)

    def mail_backlog(self) -> int:
        if self._broker is None:
            return 0
        try:
            length = self._broker.llen(MAIL)
        except redis.RedisError as error:  # the sweep's sends would wait in the database all the same
            log.warning("could not read the mail queue's length: %s", error)
            return 0
        assert isinstance(length, int)  # a synchronous client's answer
        return length

    @staticmethod
    def _send(task: Task, *args: object) -> None:
        try:
            task.delay(*args)
        except OperationalError as error:
            log.warning(
                "broker unreachable, %s%s kept for the next worker to connect: %s", task.name, args, error
            )

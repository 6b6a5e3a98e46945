"""The Celery app, built inside the Flask app factory so every task runs in the app's context."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager, nullcontext

from celery import Celery, Task
from flask import Flask
from kombu.exceptions import OperationalError

from service.runtime import Runtime
from service.tasks.decisions import Decisions, RedisListener

log = logging.getLogger(__name__)


def init_celery(app: Flask) -> Celery:
    """A Celery app bound to `app`: Redis when REDIS_URL is set, otherwise tasks run in-process."""

    class FlaskTask(Task):
        def __call__(self, *args: object, **kwargs: object) -> object:
            with app.app_context(), Runtime.shared_reads():
                return self.run(*args, **kwargs)

    redis_url = app.config["PBEM"]["REDIS_URL"]
    celery = Celery(app.import_name, task_cls=FlaskTask)
    celery.conf.update(
        broker_url=redis_url or "memory://",
        result_backend=None,
        task_ignore_result=True,
        task_always_eager=not redis_url,
        task_eager_propagates=True,
        # Reliability lives in the database, not the broker: a move is a pending command row and a mail
        # an unsent outbox row until done, and the sweep re-queues either after
        # COMMAND_REQUEUE_SECONDS; every task is idempotent. So a message lost with a worker costs a
        # few seconds, and the broker needs no acknowledgement bookkeeping: kombu's restoring of
        # unacknowledged Redis messages made workers exit when Redis restarted (AttributeError in
        # restore_unacked_once), so there is none (no late acks, no ack emulation). Prefetch 1 keeps
        # one slow task from holding others hostage. We never schedule countdowns or ETAs on Redis:
        # retries, reminders and timeouts are due times in the database, found by the periodic tasks.
        # A short connect timeout keeps a web request from hanging on a broker that is away (the
        # command then waits in the database for the sweep).
        task_acks_late=False,
        worker_prefetch_multiplier=1,
        broker_transport_options={"ack_emulation": False, "socket_connect_timeout": 5},
        # Workers and beat wait for the broker to come back, however long it is away, rather than exit.
        broker_connection_retry_on_startup=True,
        broker_connection_retry=True,
        broker_connection_max_retries=None,
        worker_cancel_long_running_tasks_on_connection_loss=True,  # idempotent: the sweep runs it again
        # Publishing from a web request: a few quick tries, then the sweep's turn.
        task_publish_retry_policy={
            "max_retries": 2,
            "interval_start": 0,
            "interval_step": 0.5,
            "interval_max": 1,
        },
        task_default_queue="pbem",
        beat_schedule={
            "sweep": {
                "task": "pbem.sweep",
                "schedule": app.config["PBEM"]["SWEEP_INTERVAL_SECONDS"],
            },
            "digests": {
                "task": "pbem.send_digests",
                "schedule": app.config["PBEM"]["CLOCK_INTERVAL_SECONDS"],
            },
            "clocks": {
                "task": "pbem.run_clocks",
                "schedule": app.config["PBEM"]["CLOCK_INTERVAL_SECONDS"],
            },
        },
    )
    celery.set_default()
    app.extensions["celery"] = celery
    import service.tasks.jobs  # noqa: F401  (registers the tasks)

    return celery


class CeleryDispatcher:
    """Sends work to Celery; if the broker is unreachable the work stays in the database, where
    the periodic sweep finds it again (pending commands, unsent mail)."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        redis_url = app.config["PBEM"]["REDIS_URL"]
        self._decisions = Decisions(redis_url) if redis_url else None

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

    def send_mails(self, mail_ids: list[int]) -> None:
        from service.tasks.jobs import send_mail

        if not self._app.extensions["pbem"].mail_configured:
            return
        for mail_id in mail_ids:
            try:
                self._send(send_mail, mail_id)
            except Exception:  # in-process: the caller's work is committed, the mail stays for the sweep
                log.exception("mail %s could not be sent now; the sweep tries again", mail_id)

    @staticmethod
    def _send(task: Task, *args: object) -> None:
        try:
            task.delay(*args)
        except OperationalError as error:
            log.warning("broker unreachable, %s%s left for the sweep: %s", task.name, args, error)

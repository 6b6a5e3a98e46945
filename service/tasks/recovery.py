"""Recovery: re-queue what a broker outage or a lost task left behind (run by the periodic sweep)."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from service.db import retry_on_disconnect
from service.eventlog.models import CommandRecord, CommandStatus
from service.eventlog.stamps import fold_picture_changes
from service.mail.delivery import queue_due_mails
from service.runtime import Runtime

MAIL_BATCH = 100  # mails re-queued at most per sweep
MAIL_QUEUE_FULL = 10  # ...and none while this many mail tasks still wait: they would only pile up


def stuck_commands(rt: Runtime, age: timedelta | None = None, limit: int = 500) -> list[tuple[int, str]]:
    """Pending commands (id, game) at least `age` old (COMMAND_REQUEUE_SECONDS unless given): their
    task was lost on the way."""
    if age is None:
        age = timedelta(seconds=rt.settings["COMMAND_REQUEUE_SECONDS"])
    cutoff = rt.clock.now() - age
    with Session(rt.engine) as session:
        return [
            (row_id, game_id)
            for row_id, game_id in session.exec(
                select(CommandRecord.id, CommandRecord.game_id)
                .where(CommandRecord.status == CommandStatus.PENDING, CommandRecord.created_at <= cutoff)
                .order_by(col(CommandRecord.id))
                .limit(limit)
            ).all()
            if row_id is not None
        ]


def sweep(rt: Runtime) -> tuple[int, int]:
    """Re-queue what a broker outage or a lost task left behind, and the mails due again after a
    failure, and fold the picture changes noted; (mails, commands) re-queued. The mails go in
    bounded batches, each marked queued first (its own task records a failure's backoff after that),
    and none while the mail queue still holds a backlog, so a mail outage never floods its queue."""
    # Kept mails (no SMTP) are not pending: without SMTP, the channels' notices still go.
    mails: list[int] = []
    if rt.dispatch.mail_backlog() < MAIL_QUEUE_FULL:
        mails = retry_on_disconnect(lambda: queue_due_mails(rt, MAIL_BATCH))
    commands = stuck_commands(rt)
    for command_id, game_id in commands:
        rt.dispatch.apply_move(command_id, game_id)
    rt.dispatch.send_mails(mails)
    retry_on_disconnect(lambda: fold_changes(rt))
    return len(mails), len(commands)


def fold_changes(rt: Runtime) -> int:
    """Fold busy games' noted picture changes (their stamps stay as they are); games folded."""
    with Session(rt.engine) as session:
        folded = fold_picture_changes(session)
        session.commit()
    return folded


def dispatch_pending(rt: Runtime) -> int:
    """Dispatch every pending command at once, however new (a worker that has just reached the
    broker: the moves made while it was away, or lost with a worker); how many."""
    commands = retry_on_disconnect(lambda: stuck_commands(rt, age=timedelta(0)))
    for command_id, game_id in commands:
        rt.dispatch.apply_move(command_id, game_id)
    return len(commands)

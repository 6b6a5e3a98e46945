"""Recovery: re-queue what a broker outage or a lost task left behind (run by the periodic sweep)."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from service.eventlog.models import CommandRecord, CommandStatus
from service.mail.delivery import due_mail_ids
from service.runtime import Runtime


def stuck_commands(rt: Runtime, limit: int = 500) -> list[tuple[int, str]]:
    """Pending commands (id, game) older than COMMAND_REQUEUE_SECONDS: their task was lost on the
    way."""
    cutoff = rt.clock.now() - timedelta(seconds=rt.settings["COMMAND_REQUEUE_SECONDS"])
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
    """Re-queue what a broker outage or a lost task left behind; (mails, commands) re-queued."""
    mails = due_mail_ids(rt)  # kept mails (no SMTP) are not pending: channels' notices still go
    commands = stuck_commands(rt)
    for command_id, game_id in commands:
        rt.dispatch.apply_move(command_id, game_id)
    rt.dispatch.send_mails(mails)
    return len(mails), len(commands)

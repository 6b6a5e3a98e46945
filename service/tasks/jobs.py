"""Celery tasks: thin wrappers that take ids and call the service's plain functions."""

from __future__ import annotations

from celery import shared_task

from service.channels.delivery import deliver_rows
from service.clubs.digest import send_club_digests
from service.clubs.seasons import table_ended as club_table_ended
from service.db import retry_on_disconnect
from service.health import record_beat
from service.mail.digest import send_due_digests
from service.play.moves import apply_command
from service.play.timeouts import play_bot_moves, run_due_clocks
from service.runtime import runtime, searching
from service.tasks.recovery import sweep as sweep_all


# A move's tasks are acknowledged late (commands are idempotent): one whose pool child died is run again.
@shared_task(name="pbem.apply_move", acks_late=True)
def apply_move(command_id: int, game_id: str) -> str:
    """Decide and apply one submitted move (idempotent), and the bots' moves that follow it."""
    with searching():
        return apply_command(runtime(), command_id, game_id)


@shared_task(name="pbem.play_bots", acks_late=True)
def play_bots(game_id: str) -> int:
    """Play the bots' moves a game waits on (idempotent: none owed, nothing done)."""
    with searching():
        return retry_on_disconnect(lambda: play_bot_moves(runtime(), game_id))


@shared_task(name="pbem.table_ended")
def table_ended(game_id: str) -> list[str]:
    """A game ended: if it is a club season's table, the season's next tables start (idempotent)."""
    return club_table_ended(runtime(), game_id)


@shared_task(name="pbem.send_club_digests")
def club_digests() -> int:
    """Draft and send each club's weekly digest now due (each at most once a week)."""
    return send_club_digests(runtime())


@shared_task(name="pbem.send_mails")
def send_mails(mail_ids: list[int]) -> int:
    """Deliver a batch of outbox rows (mails, and channels' notices) once each; how many were sent. A
    failed row's next try is its own due time, which the sweep reads: the one retry path, with its
    backoff."""
    return deliver_rows(runtime(), mail_ids)


@shared_task(name="pbem.sweep")
def sweep() -> tuple[int, int]:
    """Note the beat's tick, then re-queue unsent mail and lost moves."""
    rt = runtime()
    record_beat(rt)
    return sweep_all(rt)


@shared_task(name="pbem.send_digests")
def send_digests() -> int:
    """Draft and send the daily digests now due (each at most once per address and day)."""
    return send_due_digests(runtime())


@shared_task(name="pbem.run_clocks")
def run_clocks() -> tuple[int, int, int]:
    """Send the due reminders and act on the due timeouts (each exactly once), play the automatic
    moves left over; what was done."""
    with searching():
        run = run_due_clocks(runtime())
    return run.reminders, run.timeouts, run.automatic

"""The beat task's work: the reminders and timeouts of turn clocks that fell due, and the host's
decision when a game asks the host about a player out of time.

`run_due_clocks` finds the due clocks with one query, then handles each game in its own transaction
under the game's lock, taken with SKIP LOCKED on PostgreSQL: two runs at once share the games
instead of handling one twice, and a game busy with a move is simply looked at again next run.
What was done is marked on the clock row in the same transaction as the mails and moves it caused,
so each reminder and each timeout happens exactly once, however often the task runs.

Catching up after the beat was down: a reminder is sent only while its deadline is still ahead; a
clock already past its deadline goes straight to the timeout.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement
from sqlmodel import Session, and_, col, or_, select

from service.eventlog.models import EventOrigin, OutboxMail, TimeoutPolicy, TurnClock
from service.eventlog.store import Table
from service.mail.drafting import draft_mail, drafted, host_url, player_url
from service.mail.kinds import MailKind
from service.play.automatic import bot_move
from service.play.decisions_told import extend_deadline, forfeit
from service.play.master import Master, step, step_if_free
from service.play.time_control import MOVE_DAYS
from service.runtime import Runtime


class HostDecision(StrEnum):
    """What the host may decide for a player out of time (timeout policy "host")."""

    KEEPER = "keeper"  # the seat-keeper plays this move
    FORFEIT = "forfeit"  # the player forfeits
    MORE_TIME = "more_time"  # a fresh clock of some days for this move


@dataclass
class ClockRun:
    """What one run of the beat task did."""

    reminders: int = 0
    timeouts: int = 0
    automatic: int = 0  # games whose left-over automatic moves were played


def remind_due(now: datetime) -> ColumnElement[bool]:
    """A clock whose reminder is due and still useful (its deadline is ahead)."""
    return and_(
        col(TurnClock.remind_at) <= now, col(TurnClock.reminded_at).is_(None), col(TurnClock.due_at) > now
    )


def timeout_due(now: datetime) -> ColumnElement[bool]:
    """A clock past its deadline that has not timed out yet."""
    return and_(col(TurnClock.due_at) <= now, col(TurnClock.timed_out_at).is_(None))


def due_clocks(
    session: Session, now: datetime, game_id: str | None = None, limit: int = 500
) -> list[TurnClock]:
    """Open clocks with something to do now: a reminder, a timeout, or an automatic move left over."""
    query = select(TurnClock).where(
        col(TurnClock.settled_at).is_(None), or_(remind_due(now), timeout_due(now), col(TurnClock.automatic))
    )
    if game_id is not None:
        query = query.where(TurnClock.game_id == game_id)
    return list(session.exec(query.order_by(col(TurnClock.id)).limit(limit)).all())


def run_due_clocks(rt: Runtime) -> ClockRun:
    """Send the due reminders and act on the due timeouts, each exactly once."""
    now = rt.clock.now()
    with Session(rt.engine) as session:
        game_ids = list(dict.fromkeys(clock.game_id for clock in due_clocks(session, now)))
    run = ClockRun()
    for game_id in game_ids:
        _run_game(rt, game_id, now, run)
    return run


def play_bot_moves(rt: Runtime, game_id: str) -> int:
    """Play the automatic moves a game waits on now (a search bot's, left by a web request), with
    what follows them, in one unit of work; the moves made (0 if another writer holds the game: it
    plays them, or the beat does)."""

    def work(master: Master) -> int:
        before = master.table.version
        return master.follow().version - before

    done = step_if_free(rt, game_id, work)
    return done[0] if done else 0


def _run_game(rt: Runtime, game_id: str, now: datetime, run: ClockRun) -> None:
    """One game's due clocks, in one unit of work (skipped if another writer holds the game: the
    next run looks again)."""

    def work(master: Master) -> None:
        session = master.session
        for clock in due_clocks(session, now, game_id):
            if clock.settled_at is not None or not master.table.active:
                continue  # an earlier action of this run settled it, or ended the game
            if clock.automatic:
                master.follow()
                run.automatic += 1
            elif clock.due_at is not None and clock.due_at <= now:
                clock.timed_out_at = now
                session.add(clock)
                _time_out(master, clock.seat)
                run.timeouts += 1
            else:
                clock.reminded_at = now
                session.add(clock)
                master.tell(drafted(_reminder(rt, master.table, clock)))
                run.reminders += 1

    step_if_free(rt, game_id, work)


def _reminder(rt: Runtime, table: Table, clock: TurnClock) -> OutboxMail | None:
    assert clock.due_at is not None
    context = {
        "link": player_url(rt, table, clock.seat),
    }
    return draft_mail(rt, table, MailKind.REMINDER, clock.seat, context, clock.due_at)


def _time_out(master: Master, seat: int) -> None:
    """The game's timeout policy for a seat out of time; for a seat whose address is unreachable,
    the host is asked first whatever the policy: the player never heard that the move was theirs, so
    a forfeit or the seat-keeper would punish a mail server's fault."""
    rt, table = master.rt, master.table
    policy = TimeoutPolicy.HOST if table.seats[seat].unreachable_at else table.record.timeout
    if policy == TimeoutPolicy.FORFEIT:
        forfeit(master, seat, EventOrigin.GAME)
    elif policy == TimeoutPolicy.HOST:
        asked = {"link": host_url(rt, table), "name": table.names[seat]}
        master.tell(drafted(draft_mail(rt, table, MailKind.HOST_ASKED, None, asked)))
    else:
        master.stand_in(seat)
        after = master.follow(table)
        context: dict[str, Any] = {
            "link": player_url(rt, after, seat),
        }
        master.tell(drafted(draft_mail(rt, after, MailKind.SEAT_KEEPER, seat, context)))


def timed_out_clocks(session: Session, game_id: str) -> list[TurnClock]:
    """The game's players out of time who wait for the host's decision."""
    query = select(TurnClock).where(
        TurnClock.game_id == game_id,
        col(TurnClock.settled_at).is_(None),
        col(TurnClock.timed_out_at).is_not(None),
    )
    return list(session.exec(query.order_by(col(TurnClock.seat))).all())


def decide_timeout(rt: Runtime, game_id: str, clock_id: int, decision: HostDecision, days: int = 0) -> bool:
    """Carry out the host's decision for a player out of time; False if that clock no longer waits
    for one (the player moved meanwhile, or the game ended)."""

    def work(master: Master) -> bool:
        clock = master.session.get(TurnClock, clock_id)
        if clock is None or clock.game_id != game_id or clock.timed_out_at is None or clock.settled_at:
            return False
        if decision == HostDecision.FORFEIT:
            forfeit(master, clock.seat, EventOrigin.HOST)
        elif decision == HostDecision.KEEPER:
            before = master.table
            move = bot_move(before, clock.seat)
            master.append(move.seat, move.action, move.events, move.origin)
            master.follow(before)
        else:
            extend_deadline(master, clock.seat, days)
        return True

    if decision not in tuple(HostDecision):
        raise ValueError(f"unknown decision {decision!r}")
    if decision == HostDecision.MORE_TIME and days not in MOVE_DAYS:
        raise ValueError(f"more time is {', '.join(map(str, MOVE_DAYS))} days")
    return step(rt, game_id, work)

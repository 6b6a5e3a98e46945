"""What follows moves, whoever made them: the automatic moves they lead to, the game's end, the turn
clocks and the mails, all in the caller's transaction. Also the seat's own turn settings (taking the
seat back from the seat-keeper, auto-play) and a forfeit.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from sqlmodel import Session

from service.eventlog.models import GameStatus, OutboxMail, SeatKeeper
from service.eventlog.store import Table, load_table, lock_game
from service.mail.drafting import draft_mail, mailed_seats, mails_after_move, player_url
from service.play.automatic import play_automatic
from service.play.clocks import sync_clocks
from service.runtime import Runtime

T = TypeVar("T")


def settle(session: Session, table: Table, now: datetime) -> Table:
    """Play the automatic moves the game now waits on, end it if the rules say it is over, and bring
    its clocks in line; the table after."""
    table = play_automatic(session, table, now)
    if table.active and table.rules.result(table.state) is not None:
        table.record.status = GameStatus.FINISHED
        table.record.finished_at = now
        session.add(table.record)
    sync_clocks(session, table, now)
    return table


def finish_moves(
    rt: Runtime, session: Session, before: Table, after: Table, now: datetime
) -> tuple[Table, list[OutboxMail]]:
    """After moves appended in this transaction (from `before` to `after`): settle the game and write
    the mails everything since `before` causes. Returns the settled table and the mails (added to
    the session)."""
    after = settle(session, after, now)
    mails = mails_after_move(rt, before, after)
    session.add_all(mails)
    return after, mails


def in_game(rt: Runtime, game_id: str, change: Callable[[Session, Table], tuple[T, list[OutboxMail]]]) -> T:
    """Run `change` on the locked game in one transaction, then send the mails it wrote; returns
    what `change` returned first."""
    with Session(rt.engine, expire_on_commit=False) as session:
        lock_game(session, game_id)
        value, mails = change(session, load_table(session, game_id, rt.cache))
        session.commit()
        mail_ids = [mail.id for mail in mails if mail.id is not None]
    rt.dispatch.send_mails(mail_ids)
    return value


def take_seat_back(rt: Runtime, game_id: str, seat: int) -> bool:
    """The player takes their seat back from the seat-keeper; False if it was not kept for them."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        record = table.seats[seat]
        if record.keeper != SeatKeeper.STAND_IN:
            return False, []
        record.keeper = SeatKeeper.PLAYER
        session.add(record)
        sync_clocks(session, table, rt.clock.now())
        return True, []

    return in_game(rt, game_id, change)


def set_auto_play(rt: Runtime, game_id: str, seat: int, on: bool) -> None:
    """Turn auto-play of the seat's forced moves on or off; a forced move owed now is played at once."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        record = table.seats[seat]
        record.auto_play = on
        session.add(record)
        if not table.active:
            return None, []
        return None, finish_moves(rt, session, table, table, rt.clock.now())[1]

    in_game(rt, game_id, change)


def forfeit(rt: Runtime, session: Session, table: Table, seat: int) -> list[OutboxMail]:
    """The seat forfeits: the game ends at once, the other side wins; everyone is told."""
    now = rt.clock.now()
    table.record.status = GameStatus.FINISHED
    table.record.finished_at = now
    table.record.forfeit_seat = seat
    session.add(table.record)
    sync_clocks(session, table, now)
    result = table.result
    assert result is not None
    winners = [table.names[w] for w in result["winners"]]
    mails = [
        draft_mail(
            rt,
            table,
            "forfeit",
            other.seat,
            {"link": player_url(rt, table, other.seat), "name": table.names[seat], "winners": winners},
        )
        for other in mailed_seats(table)
    ]
    session.add_all(mails)
    return mails

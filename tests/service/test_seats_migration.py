"""Migration 0020 on the real PostgreSQL: a running game whose seat rows say what its log does not
(the seat-keeper standing in after a timeout, a player back in a seat, as the service kept them
before) gets the missing SeatKept events appended, made by the rules, so the log alone says who
plays each seat and a rebuild keeps the rows as they were."""

from __future__ import annotations

from alembic import command
from flask import Flask
from sqlalchemy import text
from sqlmodel import Session

from rules.table import SEAT_KEPT, keep_decision
from service.db import alembic_config
from service.eventlog.models import EventOrigin, SeatKeeper
from service.play.hosting import keep_seat
from service.play.rebuild import rebuild_games
from tests.service.turns import new_game, people, stepping


def test_stand_ins_kept_only_on_rows_get_their_events(pg_app: Flask) -> None:
    rt, _ = stepping(pg_app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    keep_seat(rt, game_id, 0, True)  # logged; the row is then set back behind the log's back
    version = rt.read_table(game_id).version
    url = pg_app.config["PBEM"]["DATABASE_URL"]
    command.downgrade(alembic_config(url), "0019")
    with Session(rt.engine) as session:  # as the service before 0020 left them
        session.execute(
            text("UPDATE seats SET keeper = 'player' WHERE game_id = :id AND seat = 0"), {"id": game_id}
        )
        session.execute(
            text("UPDATE seats SET keeper = 'stand_in' WHERE game_id = :id AND seat = 1"), {"id": game_id}
        )
        session.commit()
    command.upgrade(alembic_config(url), "head")
    rt.cache = type(rt.cache)()  # another process: nothing folded yet
    table = rt.read_table(game_id)
    added = list(zip(table.events[version:], table.origins[version:], table.actions[version:], strict=True))
    assert [(event["type"], event["seat"], event["by_keeper"], origin) for event, origin, _ in added] == [
        (SEAT_KEPT, 0, False, EventOrigin.PLAYER),
        (SEAT_KEPT, 1, True, EventOrigin.GAME),
    ]
    assert [action for _, _, action in added] == [keep_decision(0, False), keep_decision(1, True)]
    assert table.record.version == table.version == version + 2
    rebuild_games(rt, [game_id])
    seats = rt.read_table(game_id).seats
    assert (seats[0].keeper, seats[1].keeper) == (SeatKeeper.PLAYER, SeatKeeper.STAND_IN)

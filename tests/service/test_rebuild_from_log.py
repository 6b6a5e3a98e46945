"""`pbem rebuild` from the logs alone: every row that repeats a game's log (the game row's status,
finished_at and version, who plays each seat, the turn clocks) is written again as it was, for
games played through timeouts, a player taking the seat back (by the button and by a move), a
vacation and the host's takeovers, after those rows were damaged behind the service's back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text
from sqlmodel import Session, col, select

from service.cli import main as pbem
from service.eventlog.models import GameRecord, SeatKeeper, SeatRecord, TurnClock
from service.play.hosting import Player, give_more_time, keep_seat, replace_player
from service.play.seat_settings import take_seat_back
from service.play.vacations import declare_vacation, local_today
from service.runtime import Runtime
from tests.service.turns import beat, new_game, people, play, stepping

Rows = tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def projected(rt: Runtime, game_id: str) -> Rows:
    """The game's rows that only repeat its log: the game row, its seats, its open clocks."""
    with Session(rt.engine) as session:
        game = session.get(GameRecord, game_id)
        assert game is not None
        seats = session.exec(
            select(SeatRecord).where(SeatRecord.game_id == game_id).order_by(col(SeatRecord.seat))
        )
        clocks = session.exec(
            select(TurnClock)
            .where(TurnClock.game_id == game_id, col(TurnClock.settled_at).is_(None))
            .order_by(col(TurnClock.seat))
        )
        return (
            (game.status, _utc(game.finished_at), game.version),
            [(seat.seat, seat.keeper, seat.bot_level) for seat in seats],
            [
                (
                    c.seat,
                    c.owed_since_seq,
                    c.owed_since,
                    c.remind_at,
                    c.due_at,
                    c.granted_at,
                    c.granted_days,
                    c.automatic,
                )
                for c in clocks
            ],
        )


def _utc(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def played_through_timeouts(rt: Runtime, clock: Any) -> str:
    """Bo runs out of time and takes the seat back by the button; Ann runs out of time and takes it
    back by a move; Bo declares a vacation that stops his clock."""
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), vacation_days=10)
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=25).timeouts == 1
    assert take_seat_back(rt, game_id, 1)
    assert beat(rt, clock, hours=25).timeouts == 1  # Ann's turn, then Ann's timeout
    play(rt, game_id, 0, {"fold": True})  # a move of Ann's own takes her seat back
    table = rt.read_table(game_id)
    declare_vacation(rt, game_id, 1, local_today(table, clock.now()), 2)
    beat(rt, clock, hours=1)
    return game_id


def kept_after_a_timeout(rt: Runtime, clock: Any) -> str:
    """Bo runs out of time: the seat-keeper stands in for him from then on."""
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), seed=5)
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=25).timeouts >= 1  # (the other games' seats may time out too)
    return game_id


def taken_over_by_the_host(rt: Runtime) -> str:
    """A bot put in a seat and taken out, a seat given to a new player, more time, a bot kept in."""
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), seed=3)
    keep_seat(rt, game_id, 1, True)
    keep_seat(rt, game_id, 1, False)
    replace_player(rt, game_id, 1, Player("Cy", "cy@example.org"))
    table = rt.read_table(game_id)
    owing = min(table.rules.to_act(table.state))
    give_more_time(rt, game_id, owing, 3)
    keep_seat(rt, game_id, 1 - owing, True)
    return game_id


def test_pbem_rebuild_writes_every_projected_row_again_from_the_logs(
    pg_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt, clock = stepping(pg_app)
    games = [played_through_timeouts(rt, clock), kept_after_a_timeout(rt, clock), taken_over_by_the_host(rt)]
    bot_game = new_game(rt, "red_black", [Player("Ann", "ann@example.org"), Player("Bot", "", bot=True)])
    games.append(bot_game)
    before = {game_id: projected(rt, game_id) for game_id in games}
    kept = [seat for rows in before.values() for seat in rows[1] if seat[1] == SeatKeeper.STAND_IN]
    assert len(kept) >= 2 and all(rows[2] for rows in before.values())
    with Session(rt.engine) as session:  # damage every projected row behind the service's back
        session.execute(text("UPDATE games SET status = 'cancelled', finished_at = now(), version = 1"))
        session.execute(
            text(
                "UPDATE seats SET bot_level = CASE WHEN keeper = 'bot' THEN bot_level ELSE 'strong' END,"
                " keeper = CASE keeper WHEN 'player' THEN 'stand_in'"
                " WHEN 'stand_in' THEN 'player' ELSE keeper END"
            )
        )
        session.execute(text("DELETE FROM turn_clocks"))
        session.commit()
    monkeypatch.setenv("DATABASE_URL", pg_app.config["PBEM"]["DATABASE_URL"])
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")  # a deployment as its operator sets it up (no mail sent)
    monkeypatch.setenv("BASE_URL", "https://cards.example.org")
    assert pbem(["rebuild"]) == 0
    assert {game_id: projected(rt, game_id) for game_id in games} == before

"""Forfeits and cancellations are events of the log: for every game, the status, the result, the
history page, the replay and the fairness check agree with a fold of the log alone, and `pbem
rebuild` repairs a damaged game row from its log."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlmodel import Session

from rules import GAMES
from service.cli import main as pbem
from service.eventlog.models import EventOrigin, GameStatus
from service.eventlog.store import status_of
from service.play.hosting import cancel_game, set_public_replay
from service.play.timeouts import HostDecision, decide_timeout, timed_out_clocks
from service.runtime import Runtime
from tests.service.replay_games import add_moves
from tests.service.turns import beat, new_game, people, stepping

SEATS = {"dualis": 4, "double_side": 3, "dupli": 4, "red_black": 2}
NAMES = ("Ann", "Bo", "Cy", "Di")


def assert_row_and_pages_follow_the_log(rt: Runtime, client: FlaskClient, game_id: str) -> None:
    """The row's status, the result, the history and the replay agree with the log folded afresh."""
    table = rt.read_table(game_id)
    folded = table.rules.fold(table.events)  # the log alone, folded from nothing
    assert table.record.status == status_of(table.rules, folded) == table.status
    assert table.result == table.rules.result(folded)
    history = client.get(f"/api/game/{game_id}/history").get_json()
    assert history["status"] == table.status and history["result"] == table.rules.result(folded)
    page = client.get(f"/game/{game_id}/history").get_data(as_text=True)
    assert "still being played" not in page


def last_line(client: FlaskClient, path: str, step: int) -> str:
    return client.get(f"{path}/{step}").get_json()["line"]


def host_forfeit(rt: Runtime, game_id: str, seat: int) -> None:
    """The host declares `seat` forfeit after it ran out of time (the HOST timeout policy)."""
    with Session(rt.engine) as session:
        clock = next(clock for clock in timed_out_clocks(session, game_id) if clock.seat == seat)
    assert clock.id is not None
    assert decide_timeout(rt, game_id, clock.id, HostDecision.FORFEIT)


@pytest.mark.parametrize("game", GAMES)
def test_a_forfeit_on_timeout_is_in_the_log_and_every_page_follows_it(
    app: Flask, client: FlaskClient, game: str
) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, game, people(*NAMES[: SEATS[game]]), timeout="forfeit")
    table = rt.read_table(game_id)
    late = min(table.rules.to_act(table.state))
    assert beat(rt, clock, hours=25).timeouts >= 1
    table = rt.read_table(game_id)
    assert table.events[-1]["type"] == "GameForfeited" and table.origins[-1] == EventOrigin.GAME
    assert table.actions[-1] == {"decision": "forfeit", "seat": late}
    assert table.status == GameStatus.FINISHED and table.result["forfeit"] == late
    assert_row_and_pages_follow_the_log(rt, client, game_id)
    set_public_replay(rt, game_id, True)
    step = client.get(f"/api/game/{game_id}/replay/{table.version}").get_json()
    assert f"{NAMES[late]} forfeited" in step["line"]
    assert step["fairness"]["rerun_ok"] and step["fairness"]["hash_ok"]


@pytest.mark.parametrize("game", GAMES)
def test_a_host_forfeit_and_a_cancellation_are_in_the_log(app: Flask, client: FlaskClient, game: str) -> None:
    rt, clock = stepping(app)
    players = people(*NAMES[: SEATS[game]])
    forfeited = new_game(rt, game, players, timeout="host")
    table = rt.read_table(forfeited)
    late = min(table.rules.to_act(table.state))
    beat(rt, clock, hours=25)
    host_forfeit(rt, forfeited, late)
    table = rt.read_table(forfeited)
    assert (table.events[-1]["type"], table.origins[-1]) == ("GameForfeited", EventOrigin.HOST)
    assert_row_and_pages_follow_the_log(rt, client, forfeited)

    cancelled = new_game(rt, game, players, seed=2)
    add_moves(rt, cancelled, random.Random(3), 5)
    assert cancel_game(rt, cancelled) and not cancel_game(rt, cancelled)
    table = rt.read_table(cancelled)
    assert (table.events[-1]["type"], table.origins[-1]) == ("GameCancelled", EventOrigin.HOST)
    assert table.status == GameStatus.CANCELLED and table.result is None
    assert_row_and_pages_follow_the_log(rt, client, cancelled)
    history = client.get(f"/game/{cancelled}/history").get_data(as_text=True)
    assert "This game was cancelled by its host." in history


def test_a_damaged_game_row_is_repaired_from_its_log(
    pg_app: Flask, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = pg_app.extensions["pbem"]
    players = people("Ann", "Bo")
    running = new_game(rt, "red_black", players)
    over = new_game(rt, "red_black", players, seed=2)
    add_moves(rt, over, random.Random(1))
    assert rt.read_table(over).status == GameStatus.FINISHED
    with Session(rt.engine) as session:  # damage both rows behind the service's back
        session.execute(text("UPDATE games SET status = 'cancelled' WHERE id = :id"), {"id": running})
        session.execute(
            text("UPDATE games SET status = 'active', finished_at = NULL WHERE id = :id"), {"id": over}
        )
        session.commit()
    monkeypatch.setenv("DATABASE_URL", pg_app.config["PBEM"]["DATABASE_URL"])
    monkeypatch.setenv("SECRET_KEY", "test-secret")
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")  # a deployment as its operator sets it up (no mail sent)
    monkeypatch.setenv("BASE_URL", "https://cards.example.org")
    assert pbem(["rebuild"]) == 0
    printed = capsys.readouterr().out
    assert f"{running}: cancelled -> active" in printed and f"{over}: active -> finished" in printed
    assert "2 game(s) repaired" in printed
    assert rt.read_table(running).record.status == GameStatus.ACTIVE
    assert rt.read_table(over).record.finished_at is not None
    assert pbem(["rebuild", running]) == 0 and "0 game(s) repaired" in capsys.readouterr().out

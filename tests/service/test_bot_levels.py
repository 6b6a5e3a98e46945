"""Bots of a chosen level at the table: seats given to a steady or strong bot when the game is
created (the form, `pbem new`, a confirmed request) or by the host mid-game, and back; the level in
the log (SeatKept) and on every page in words; search bots moving only where searches may run (the
worker's tasks), at once when due; bad levels refused where they are chosen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from rules.table import SEAT_KEPT
from service import create_app
from service.eventlog.models import EventOrigin, SeatKeeper
from service.play.automatic import next_automatic
from service.play.hosting import GameSetup, Player, SetupRefused, seat_keeper, start_game
from service.play.timeouts import play_bot_moves
from service.runtime import Runtime, search_bot_owed, searching
from tests.helpers import confirmed, forms, mails, play_path, post_form
from tests.service.turns import HOST, new_game, people, play, stepping, to_act

ANN, HAL = "ann@example.org", "hal@example.org"


def host_link(app: Flask, game_id: str) -> str:
    return "/host/" + app.extensions["pbem"].signer.host_token(game_id, 1)


def one_person_and_bots(level: str) -> list[Player]:
    """Ann in seat 0 and three bots of `level` (a Duālis table)."""
    return [people("Ann")[0], *(seat_keeper("", n, 3, level) for n in (1, 2, 3))]


def test_a_table_of_one_person_and_three_bots_plays_at_the_persons_pace(app: Flask) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "dualis", one_person_and_bots("steady"), options={"first_leader": 1})
    table = rt.read_table(game_id)
    assert [seat.bot_level for seat in table.seats] == [None, "steady", "steady", "steady"]
    assert to_act(rt, game_id) == {0}  # the bots of seats 1 to 3 led and followed at once
    assert list(table.origins[-3:]) == [EventOrigin.BOT] * 3
    before = table.version
    play(rt, game_id, 0)
    after = rt.read_table(game_id)
    assert to_act(rt, game_id) == {0} or after.result is not None
    assert set(after.origins[before:]) == {EventOrigin.PLAYER, EventOrigin.BOT}


def test_a_search_bot_moves_only_in_the_workers_tasks(app: Flask) -> None:
    rt, _ = stepping(app)
    setup = GameSetup("red_black", (people("Ann")[0], seat_keeper("", 1, 1, "strong")), HOST, seed=4)
    with Session(rt.engine) as session:  # as a web request does, but without sending for the worker
        game_id, _mails = start_game(rt, session, setup)
        session.commit()
    table = rt.read_table(game_id)
    assert to_act(rt, game_id) == {0, 1}  # both owe a camp card; the search bot's waits
    assert next_automatic(table) is None and automatic_owed_now(rt, game_id)
    with searching():
        assert next_automatic(table) == (1, EventOrigin.BOT)
        assert play_bot_moves(rt, game_id) == 1
    assert to_act(rt, game_id) == {0} and rt.read_table(game_id).origins[-1] == EventOrigin.BOT
    assert not automatic_owed_now(rt, game_id)


def automatic_owed_now(rt: Runtime, game_id: str) -> bool:
    with Session(rt.engine) as session:
        return search_bot_owed(session, game_id)


def test_the_host_gives_a_seat_to_a_strong_bot_and_back(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    page = client.get(host).get_data(as_text=True)
    assert "Bot level" in page and "Strong: plays to win" in page
    assert post_form(client, host, "/seats/1/keeper", keeper="in", level="grandmaster").status_code == 400
    assert post_form(client, host, "/seats/1/keeper", keeper="in", level="strong").status_code == 303
    table = rt.read_table(game_id)
    assert (table.seats[1].keeper, table.seats[1].bot_level) == (SeatKeeper.STAND_IN, "strong")
    kept = [e for e in table.events if e["type"] == SEAT_KEPT]
    assert kept == [table.rules.event(SEAT_KEPT, seat=1, by_keeper=True, level="strong")]
    assert 1 not in to_act(rt, game_id)  # its camp card was played at once, by the search bot
    assert EventOrigin.BOT in table.origins
    ann = play_path(mails(app, to=ANN, kind="invitation")[-1])
    assert "played by a bot (strong) until they return" in client.get(ann).get_data(as_text=True)
    assert "戻るまでボット（強い）がプレイ" in client.get(ann + "?lang=ja").get_data(as_text=True)
    line = "The host gave the seat of Bo to a bot (strong)."
    steps = client.get(f"/api{ann}/replay/1").get_json()["steps"]
    lines = [client.get(f"/api{ann}/replay/{n}").get_json()["line"] for n in range(1, steps + 1)]
    assert line in lines
    assert post_form(client, host, "/seats/1/keeper", keeper="in", level="strong").status_code == 409
    assert post_form(client, host, "/seats/1/keeper", keeper="out").status_code == 303
    table = rt.read_table(game_id)
    assert (table.seats[1].keeper, table.seats[1].bot_level) == (SeatKeeper.PLAYER, None)
    assert table.events[-1] == table.rules.event(SEAT_KEPT, seat=1, by_keeper=False)


def test_a_seat_keeper_event_without_a_level_reads_as_before(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    host = host_link(app, game_id)
    assert post_form(client, host, "/seats/1/keeper", keeper="in").status_code == 303
    table = rt.read_table(game_id)
    assert table.events[-1] != table.rules.event(SEAT_KEPT, seat=1, by_keeper=True)  # moves followed
    assert table.rules.event(SEAT_KEPT, seat=1, by_keeper=True) in table.events
    assert table.seats[1].bot_level is None


def test_bad_levels_are_refused_where_they_are_chosen(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    with pytest.raises(SetupRefused, match="There is no bot level grandmaster"):
        new_game(rt, "dualis", one_person_and_bots("grandmaster"))
    person_with_level = Player("Ann", ANN, level="strong")
    with pytest.raises(SetupRefused, match="Only a bot's seat has a bot level"):
        new_game(rt, "red_black", [person_with_level, people("Bo")[0]])
    page = client.get("/new/dualis").get_data(as_text=True)
    assert 'name="players-1-level"' in page and "Steady: a fair opponent" in page


def test_the_create_form_seats_bots_of_a_level(app: Flask, client: FlaskClient) -> None:
    page = client.get("/new/dualis").get_data(as_text=True)
    data = {"csrf_token": forms(page)[0].fields["csrf_token"], "host_name": "Hal", "host_email": HAL}
    data |= {"players-0-name": "Ann", "players-0-email": ANN}
    data |= {f"players-{n}-bot": "y" for n in (1, 2, 3)} | {f"players-{n}-level": "strong" for n in (1, 2)}
    host = confirmed(client, client.post("/new/dualis", data=data)).headers["Location"]
    host_page = client.get(host).get_data(as_text=True)
    assert host_page.count("bot, strong") == 2
    assert host_page.count('data-bot-level="strong"') == 2 and host_page.count('data-bot-level="keeper"') == 1
    refused = client.post("/new/dualis", data={**data, "players-1-level": "grandmaster"})
    assert refused.status_code == 422 and "Not a valid choice" in refused.get_data(as_text=True)


def test_pbem_new_seats_a_bot_of_a_level(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}", "SECRET_KEY": "cli"}
    env |= {"RUN_MIGRATIONS": "1"}
    env.pop("REDIS_URL", None)
    env.pop("SMTP_HOST", None)
    friends = ["--email", "ann@example.org", "--email", "bo@example.org", "--email", "cy@example.org"]
    service = [sys.executable, "-m", "service"]
    new = subprocess.run(
        [*service, "new", "dualis", *friends, "--bot", "1:steady"], env=env, capture_output=True, text=True
    )
    assert new.returncode == 0, new.stdout + new.stderr
    game_id = new.stdout.strip().splitlines()[-1]
    app = create_app({"DATABASE_URL": env["DATABASE_URL"], "SECRET_KEY": "cli"})
    seats = app.extensions["pbem"].read_table(game_id).seats
    assert [(s.keeper, s.bot_level) for s in seats][1] == (SeatKeeper.BOT, "steady")
    bad = subprocess.run(
        [*service, "new", "dualis", *friends, "--bot", "1:wizard"], env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "unknown bot level 'wizard'" in bad.stderr

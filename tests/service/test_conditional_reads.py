"""Conditional reads: a seat's page and JSON carry a weak ETag, an unchanged game answers a matching
If-None-Match with an empty 304, and every change the seat would be shown (by any writer: the
database's triggers note them), the minute turning, another language or a revoked link ends it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, text
from sqlmodel import Session

from service.channels.seats import add_channel
from service.eventlog import stamps
from service.eventlog.models import NotifyMode
from service.eventlog.stamps import FOLD_ABOVE, fold_picture_changes, picture_stamp
from service.mail.drafting import player_url
from service.play.hosting import keep_seat, revoke_link
from service.play.moves import submit_move
from service.play.seat_settings import SeatSettings, save_seat_language, save_seat_settings
from service.play.table_talk import say_at_table
from service.play.vacations import declare_vacation
from service.runtime import Runtime
from service.tasks.recovery import sweep
from tests.service.turns import MONDAY, new_game, people, stepping


@pytest.fixture
def table(app: Flask) -> tuple[Runtime, str, list[str]]:
    """A red and black duel between Ann and Bo on a stepping clock: (runtime, game, their /play paths)."""
    rt, _ = stepping(app, MONDAY)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=3)
    return rt, game_id, [seat_path(rt, game_id, seat) for seat in (0, 1)]


def seat_path(rt: Runtime, game_id: str, seat: int) -> str:
    return urlsplit(player_url(rt, rt.read_table(game_id), seat)).path


@pytest.mark.parametrize("api", ["/api", ""], ids=["json", "page"])
def test_an_unchanged_seat_answers_its_own_tag_with_an_empty_304(
    client: FlaskClient, table: tuple[Runtime, str, list[str]], api: str
) -> None:
    _, _, (ann, _) = table
    client.get(api + ann)  # a page sets the browser's session cookie, which its later tags cover
    first = client.get(api + ann)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    unchanged = client.get(api + ann, headers={"If-None-Match": first.headers["ETag"]})
    assert (unchanged.status_code, unchanged.data) == (304, b"")
    assert unchanged.headers["ETag"] == first.headers["ETag"]
    assert unchanged.headers["Cache-Control"] == "no-store"
    assert client.get(api + ann, headers={"If-None-Match": 'W/"another"'}).status_code == 200


def moved(rt: Runtime, game_id: str) -> None:
    table = rt.read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    action = table.rules.legal_actions(table.state, seat)[0]
    submit_move(rt, game_id, seat, table.version, action, table, None)


CHANGES: dict[str, Callable[[Runtime, str], object]] = {
    "a move": moved,
    "words at the table": lambda rt, game_id: say_at_table(rt, game_id, 1, "Good luck!"),
    "a note kept to oneself": lambda rt, game_id: say_at_table(rt, game_id, 0, "bluff later", private=True),
    "a vacation": lambda rt, game_id: declare_vacation(rt, game_id, 1, MONDAY.date() + timedelta(days=2), 2),
    "the seat's time zone": lambda rt, game_id: save_seat_settings(
        rt, game_id, 0, SeatSettings(NotifyMode.TURN, "Asia/Tokyo")
    ),
    "the seat's language": lambda rt, game_id: save_seat_language(rt, game_id, 0, 1, "ja"),
    "a channel of the table": lambda rt, game_id: add_channel(
        rt, game_id, None, "ntfy://ntfy.example.org/our-table"
    ),
    "another seat kept by the seat-keeper": lambda rt, game_id: keep_seat(rt, game_id, 1, by_keeper=True),
}


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_the_seat_is_shown_ends_its_304(
    client: FlaskClient, table: tuple[Runtime, str, list[str]], change: str
) -> None:
    rt, game_id, (ann, _) = table
    client.get(ann)  # the browser's session cookie
    tags = {api: client.get(api + ann).headers["ETag"] for api in ("/api", "")}
    CHANGES[change](rt, game_id)
    for api, tag in tags.items():
        answer = client.get(api + ann, headers={"If-None-Match": tag})
        assert answer.status_code == 200 and answer.headers["ETag"] != tag, (api, change)


def test_the_tag_holds_at_most_until_the_minute_turns(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    ann = seat_path(rt, game_id, 0)
    tag = client.get("/api" + ann).headers["ETag"]
    clock.advance(seconds=59)
    assert client.get("/api" + ann, headers={"If-None-Match": tag}).status_code == 304
    clock.advance(seconds=1)
    assert client.get("/api" + ann, headers={"If-None-Match": tag}).status_code == 200


def test_another_language_or_session_is_answered_in_full(
    client: FlaskClient, table: tuple[Runtime, str, list[str]]
) -> None:
    _, _, (ann, _) = table
    json_tag = client.get("/api" + ann).headers["ETag"]
    assert client.get("/api" + ann + "?lang=ja", headers={"If-None-Match": json_tag}).status_code == 200
    other = {"If-None-Match": json_tag, "Accept-Language": "ja"}
    assert client.get("/api" + ann, headers=other).status_code == 200
    client.get(ann)
    page = client.get(ann)
    assert client.get(ann, headers={"If-None-Match": page.headers["ETag"]}).status_code == 304
    client.set_cookie("session", "another browser's")
    assert client.get(ann, headers={"If-None-Match": page.headers["ETag"]}).status_code == 200


def test_a_page_asked_with_a_move_or_an_outcome_is_never_answered_304(
    client: FlaskClient, table: tuple[Runtime, str, list[str]]
) -> None:
    _, _, (ann, _) = table
    tag = client.get(ann).headers["ETag"]
    for asked in ("?cmd=1", '?choose={"card":1}'):
        answer = client.get(ann + asked, headers={"If-None-Match": tag})
        assert answer.status_code == 200 and "ETag" not in answer.headers


def test_a_revoked_or_forged_link_is_refused_whatever_tag_it_sends(
    client: FlaskClient, table: tuple[Runtime, str, list[str]]
) -> None:
    rt, game_id, (_, bo) = table
    client.get(bo)
    tags = {api: client.get(api + bo).headers["ETag"] for api in ("/api", "")}
    revoke_link(rt, game_id, 1)
    for api, tag in tags.items():
        for sent in (tag, "*"):
            assert client.get(api + bo, headers={"If-None-Match": sent}).status_code == 403
            assert client.get(api + bo + "x", headers={"If-None-Match": sent}).status_code == 403


def test_every_table_the_page_and_json_read_notes_its_changes(
    app: Flask, client: FlaskClient, table: tuple[Runtime, str, list[str]]
) -> None:
    """A table the seat's picture reads without a trigger would let a 304 hide its changes."""
    rt, _, (ann, _) = table
    read: set[str] = set()

    def note(conn: object, cursor: object, statement: str, *args: object) -> None:
        read.update(re.findall(r"\b(?:FROM|JOIN)\s+\"?(\w+)", statement))

    event.listen(rt.engine, "before_cursor_execute", note)
    try:
        for api in ("/api", ""):
            assert client.get(api + ann).status_code == 200
    finally:
        event.remove(rt.engine, "before_cursor_execute", note)
    read -= {"picture_changes", "snapshots"}  # the stamp itself; a disposable cache of the log
    read -= {"events"}  # append-only, and each append moves the game row's version on
    assert read >= {"games", "seats", "commands", "table_talk", "turn_clocks"}
    assert read <= watched_tables(rt)


def watched_tables(rt: Runtime) -> set[str]:
    """The tables whose changes the database notes for the stamp (its triggers, as it has them)."""
    with Session(rt.engine) as session:
        if rt.engine.dialect.name == "postgresql":
            rows = session.exec(
                text(
                    "SELECT event_object_table FROM information_schema.triggers"
                    " WHERE trigger_name LIKE 'picture_%'"
                )
            )
        else:
            rows = session.exec(text("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'"))
        return {row[0] for row in rows}


def test_the_sweep_folds_a_busy_games_noted_changes_and_keeps_its_stamp(
    table: tuple[Runtime, str, list[str]],
) -> None:
    rt, game_id, _ = table
    zones_changed(rt, game_id, FOLD_ABOVE)
    with Session(rt.engine) as session:
        before = picture_stamp(session, game_id)
    sweep(rt)
    with Session(rt.engine) as session:
        assert picture_stamp(session, game_id) == before
        assert session.exec(text("SELECT count(*) FROM picture_changes")).one()[0] == 1
        assert fold_picture_changes(session) == 0  # one row left: nothing to fold
    say_at_table(rt, game_id, 0, "one more change")
    with Session(rt.engine) as session:
        assert picture_stamp(session, game_id) > before


def test_a_slow_game_is_folded_when_next_noted_however_old_its_notes(
    app: Flask, table: tuple[Runtime, str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep looks for games among the newest notes only, and counts all of a game's notes."""
    rt, slow, _ = table
    monkeypatch.setattr(stamps, "FOLD_WINDOW", 8)
    zones_changed(rt, slow, FOLD_ABOVE + 1)
    zones_changed(rt, new_game(rt, "red_black", people("Cy", "Di")), 10)  # the slow game's fall out
    sweep(rt)
    with Session(rt.engine) as session:
        before = picture_stamp(session, slow)
        assert notes(session, slow) > FOLD_ABOVE
    say_at_table(rt, slow, 1, "my move tomorrow")
    sweep(rt)
    with Session(rt.engine) as session:
        assert notes(session, slow) == 1 and picture_stamp(session, slow) > before


def zones_changed(rt: Runtime, game_id: str, times: int) -> None:
    """Seat 0's time zone changed `times` times: as many noted changes at least."""
    for number in range(times):
        save_seat_settings(rt, game_id, 0, SeatSettings(NotifyMode.TURN, ("Asia/Tokyo", "")[number % 2]))


def notes(session: Session, game_id: str) -> int:
    count = text("SELECT count(*) FROM picture_changes WHERE game_id = :game_id")
    return int(session.exec(count, params={"game_id": game_id}).one()[0])

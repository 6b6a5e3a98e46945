"""A seat's channels follow its reader's own settings, not its mail's: a seat that turned turn mail
off, or whose address bounces, still hears of each move on the channel it added; a reader of the
daily digest is not pinged for a move its digest brings in time, but is for the game's end; each ping
says what the seat's mail says, in the seat's language and with its deadline in the seat's zone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, select

from service.eventlog.models import SeatRecord
from tests.helpers import mails
from tests.service.receiver import Receiver
from tests.service.test_channels import add, channel_app, play_out, seat_token
from tests.service.turns import new_game, people, play, stepping, to_act


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def app(clean_pg: str, tmp_path: Path) -> Iterator[Flask]:
    flask_app = channel_app(tmp_path, clean_pg)
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def set_seat(app: Flask, game_id: str, seat: int, **values: object) -> None:
    """A seat's stored settings changed as its pages (or a bounce) would leave them."""
    with Session(app.extensions["pbem"].engine) as session:
        record = session.exec(
            select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == seat)
        ).one()
        for name, value in values.items():
            setattr(record, name, value)
        session.add(record)
        session.commit()


def pings(receiver: Receiver, path: str) -> list[dict[str, str]]:
    return [json.loads(request.body) for request in receiver.on(path)]


def test_a_seat_that_turned_mail_off_still_hears_on_its_channel(app: Flask, receiver: Receiver) -> None:
    rt, _ = stepping(app)
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    ann = seat_token(rt, game_id, 0)
    assert client.post(f"/api/play/{ann}/settings", json={"notify": "none"}).status_code == 200
    add(client, ann, receiver.url("/ann"))
    play_out(rt, game_id)

    assert mails(app, to="ann@example.org", kind="your_turn") == []
    told = [ping["event"] for ping in pings(receiver, "/ann")]
    assert told.count("your_turn") > 3 and told[-1] == "game_over"
    assert told.count("game_over") == 1


def test_a_seat_whose_mail_bounces_still_hears_on_its_channel(app: Flask, receiver: Receiver) -> None:
    rt, clock = stepping(app)
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    add(client, seat_token(rt, game_id, 1), receiver.url("/bo"))
    set_seat(app, game_id, 1, unreachable_at=clock.now(), unreachable_reason="mailbox full")
    before = mails(app, to="bo@example.org")
    play_out(rt, game_id)

    assert mails(app, to="bo@example.org") == before  # nothing more to a dead mailbox
    told = [ping["event"] for ping in pings(receiver, "/bo")]
    assert told.count("your_turn") > 3 and told[-1:] == ["game_over"]


def test_a_digest_reader_is_pinged_for_the_end_only(app: Flask, receiver: Receiver) -> None:
    rt, _ = stepping(app)  # Monday 09:00 UTC: a day's move is due after Tuesday's 07:00 digest
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    assert client.post(f"/api/play/{token}/settings", json={"notify": "digest"}).status_code == 200
    add(client, token, receiver.url("/digest"))
    play_out(rt, game_id)

    assert [ping["event"] for ping in pings(receiver, "/digest")] == ["game_over"]


def test_a_seat_is_pinged_in_its_language_with_its_deadline_in_its_zone(
    app: Flask, receiver: Receiver
) -> None:
    rt, _ = stepping(app)
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    set_seat(app, game_id, 0, language="ja", timezone="Asia/Tokyo")
    add(client, seat_token(rt, game_id, 0), receiver.url("/ja"))
    while not pings(receiver, "/ja"):
        play(rt, game_id, min(to_act(rt, game_id)))

    (ping,) = pings(receiver, "/ja")
    mail = mails(app, to="ann@example.org", kind="your_turn")[-1]
    assert ping["language"] == "ja" and ping["text"].startswith("あなたの番")
    assert ping["text"] == mail.text_body.splitlines()[0] and ping["title"] == mail.subject

"""A seat's @mention in the table's group channel: set on the seat's page or by the API, it follows the
seat's name in the group channel's notices (whose move, the result); anything but one person's
mention (a mass mention, markup, other text, too long) is refused with words where it was entered,
in the reader's language, and changes nothing; a new player of the seat starts without one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from html import escape
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.play.hosting import Player, replace_player
from service.runtime import Runtime
from service.tasks.recovery import sweep as sweep_all
from tests.helpers import post_form
from tests.service.receiver import Receiver
from tests.service.test_channels import channel_app, seat_token
from tests.service.turns import new_game, people, play, stepping, to_act

DISCORD = "<@123456789012345678>"
MATRIX = "@bo:matrix.org"


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


def set_mention(client: FlaskClient, token: str, mention: str, language: str = "en") -> tuple[int, str]:
    answer = client.post(
        f"/api/play/{token}/mention", json={"mention": mention}, headers={"Accept-Language": language}
    )
    return answer.status_code, answer.get_json().get("mention") or answer.get_json().get("error", "")


def mention_of(rt: Runtime, game_id: str, seat: int) -> str:
    return rt.read_table(game_id).seats[seat].mention


def test_each_seat_is_named_with_its_mention_in_the_table_channel(app: Flask, receiver: Receiver) -> None:
    rt, clock = stepping(app, datetime.now(UTC))
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    assert set_mention(client, seat_token(rt, game_id, 0), f"  {DISCORD} ") == (200, DISCORD)
    ann_page = f"/play/{seat_token(rt, game_id, 0)}"
    assert escape(DISCORD) in client.get(ann_page).get_data(as_text=True)  # shown to its owner, to change
    page = post_form(
        client,
        f"/play/{seat_token(rt, game_id, 1)}",
        f"/play/{seat_token(rt, game_id, 1)}/mention",
        mention=MATRIX,
    )
    assert page.status_code == 303 and mention_of(rt, game_id, 1) == MATRIX
    host = rt.signer.host_token(game_id, 1)
    post_form(client, f"/host/{host}", f"/host/{host}/channels", url=receiver.url("/table"))

    while to_act(rt, game_id):
        play(rt, game_id, min(to_act(rt, game_id)))
        clock.advance(seconds=66)
        sweep_all(rt)
    said = [json.loads(request.body)["text"] for request in receiver.on("/table")]
    assert any(f"Ann {DISCORD}" in text for text in said)
    assert any(f"Bo {MATRIX}" in text for text in said)
    assert said[-1].startswith("Game over") and ("Ann <@" in said[-1] or "Bo @" in said[-1])


@pytest.mark.parametrize(
    ("mention", "words"),
    [
        ("@everyone", "not the whole room"),
        ("@here", "not the whole room"),
        ("@Channel", "not the whole room"),
        ("@room:matrix.org", "not the whole room"),
        ("<!channel>", "one person's mention"),
        ("<!here>", "one person's mention"),
        ("<@&123456789012>", "one person's mention"),  # a Discord role
        ("@bo @everyone", "one person's mention"),
        ("<@123456789> hi", "one person's mention"),
        ("[click](https://evil.example)", "one person's mention"),
        ("@bo\n@everyone", "one person's mention"),
        ("<b>bo</b>", "one person's mention"),
        ("@" + "b" * 70, "at most 64 characters"),
    ],
)
def test_anything_but_one_persons_mention_is_refused(app: Flask, mention: str, words: str) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    assert set_mention(client, token, "@ann") == (200, "@ann")
    status, said = set_mention(client, token, mention)
    assert status == 422 and words in said
    page = post_form(client, f"/play/{token}", f"/play/{token}/mention", mention=mention)
    assert page.status_code == 422 and words in page.get_data(as_text=True).replace("&#39;", "'")
    assert mention_of(rt, game_id, 0) == "@ann"  # nothing changed


def test_a_refusal_is_in_the_readers_language_and_empty_removes_the_mention(app: Flask) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    status, said = set_mention(client, token, "@everyone", language="ja")
    assert status == 422 and "ルーム全体" in said
    assert set_mention(client, token, "<@U024BE7LH>") == (200, "<@U024BE7LH>")  # a Slack user
    assert client.get(f"/api/play/{token}/channels").get_json()["mention"] == "<@U024BE7LH>"
    assert set_mention(client, token, "") == (200, "")
    assert mention_of(rt, game_id, 0) == ""


def test_a_new_player_of_the_seat_starts_without_a_mention(app: Flask) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    assert set_mention(client, seat_token(rt, game_id, 1), MATRIX)[0] == 200
    replace_player(rt, game_id, 1, Player("Cy", "cy@example.org"))
    assert mention_of(rt, game_id, 1) == ""

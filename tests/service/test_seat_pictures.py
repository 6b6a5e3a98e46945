"""Seat pictures kept in Redis: a plain read of a game nobody changed is answered from what an earlier
read built (one statement: the game's rows with their stamp), with the asking link and its browser's
CSRF token put back; never for another seat, another stamp, a revoked link or a session's flashed
messages; and with Redis away every read is built."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from flask import Flask
from itsdangerous import TimestampSigner
from sqlalchemy import event

from service import create_app
from service.mail.drafting import player_url
from service.play.hosting import revoke_link
from service.runtime import Runtime
from service.web.pictures import Pictures
from tests.conftest import app_config
from tests.service.test_conditional_reads import CHANGES, moved
from tests.service.turns import MONDAY, new_game, people, stepping

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def kept(redis_url: str) -> Iterator[redis.Redis]:
    pictures = redis.Redis.from_url(redis_url)
    pictures.flushdb()
    yield pictures
    pictures.flushdb()


@pytest.fixture
def picturing_app(tmp_path: Path, clean_pg: str, kept: redis.Redis, redis_url: str) -> Iterator[Flask]:
    """The app on PostgreSQL with its tasks in-process and its seat pictures in the test's Redis. Its
    requests run outside an app context of the test's (which they would share, `g` and all)."""
    app = create_app(app_config(tmp_path, clean_pg, PICTURE_CACHE_URL=redis_url))
    yield app
    app.extensions["pbem"].engine.dispose()


def duel(app: Flask) -> tuple[Runtime, str, list[str]]:
    """A red and black duel of Ann and Bo: (runtime, game, their /play paths)."""
    rt: Runtime = app.extensions["pbem"]
    with app.app_context():
        game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    return rt, game_id, [seat_path(app, game_id, seat) for seat in (0, 1)]


def seat_path(app: Flask, game_id: str, seat: int) -> str:
    rt: Runtime = app.extensions["pbem"]
    with app.app_context():
        return urlsplit(player_url(rt, rt.read_table(game_id), seat)).path


def moved_in(app: Flask, game_id: str) -> None:
    with app.app_context():
        moved(app.extensions["pbem"], game_id)


class Statements:
    """Counts the statements the app's engine runs."""

    def __init__(self, rt: Runtime) -> None:
        self.count = 0
        event.listen(rt.engine, "before_cursor_execute", self._ran)

    def _ran(self, *_: object) -> None:
        self.count += 1

    def of(self, read: object) -> int:
        before = self.count
        assert callable(read)
        read()
        return self.count - before


def token_of(path: str) -> str:
    return path.rsplit("/", 1)[1]


def csrf_of(html: str) -> str:
    (token,) = set(re.findall(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html))
    return token


def test_another_device_of_the_seat_gets_the_kept_page_with_its_own_link_and_csrf_token(
    picturing_app: Flask, kept: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt, game_id, (ann, _) = duel(picturing_app)
    statements = Statements(rt)
    phone, laptop = picturing_app.test_client(), picturing_app.test_client()
    first = phone.get(ann)
    assert first.status_code == 200 and len(kept.keys("pbem:picture:*")) == 1

    # The laptop opens another link to the same seat, signed later.
    later = int(time.time()) + 7
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda _: later)
    other_link = seat_path(picturing_app, game_id, 0)
    assert other_link != ann
    answers = []
    assert (
        statements.of(lambda: answers.append(laptop.get(other_link))) == 1
    )  # the game's rows and stamp, no more
    (served,) = answers
    assert served.status_code == 200 and served.headers["ETag"].startswith('W/"')
    page = served.get_data(as_text=True)
    assert token_of(other_link) in page and token_of(ann) not in page
    as_the_phone_was_given = page.replace(token_of(other_link), token_of(ann)).replace(
        csrf_of(page), csrf_of(first.get_data(as_text=True))
    )
    assert as_the_phone_was_given == first.get_data(as_text=True)
    # The laptop's token is its own session's: a form posted with it is taken.
    taken = laptop.post(f"{other_link}/settings", data={"csrf_token": csrf_of(page), "notify": "turn"})
    assert taken.status_code != 400, taken.get_data(as_text=True)[-600:]
    refused = phone.post(f"{ann}/settings", data={"csrf_token": csrf_of(page), "notify": "turn"})
    assert refused.status_code == 400


def test_a_kept_picture_is_never_another_seats_nor_a_changed_games(
    picturing_app: Flask, kept: redis.Redis
) -> None:
    rt, game_id, (ann, bo) = duel(picturing_app)
    statements = Statements(rt)
    client = picturing_app.test_client()
    anns = client.get("/api" + ann).get_json()
    assert statements.of(lambda: client.get("/api" + ann)) == 1
    assert statements.of(lambda: client.get("/api" + bo)) > 1
    bos = client.get("/api" + bo).get_json()
    assert (anns["seat"], bos["seat"]) == (0, 1) and anns["view"] != bos["view"]

    moved_in(picturing_app, game_id)
    assert statements.of(lambda: client.get("/api" + ann)) > 1
    assert client.get("/api" + ann).get_json()["seq"] == anns["seq"] + 1


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_the_seat_is_shown_ends_its_kept_picture(picturing_app: Flask, change: str) -> None:
    rt, _ = stepping(picturing_app, MONDAY)
    with picturing_app.app_context():
        game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=3)
    ann = seat_path(picturing_app, game_id, 0)
    statements = Statements(rt)
    client = picturing_app.test_client()
    for api in ("/api", ""):
        client.get(api + ann)
        assert statements.of(lambda: client.get(api + ann)) == 1, api  # kept  # noqa: B023
    with picturing_app.app_context():
        CHANGES[change](rt, game_id)
    for api in ("/api", ""):
        assert statements.of(lambda: client.get(api + ann)) > 1, (api, change)  # noqa: B023


def test_a_revoked_link_is_refused_though_its_seats_picture_was_kept(picturing_app: Flask) -> None:
    rt, game_id, (_, bo) = duel(picturing_app)
    client = picturing_app.test_client()
    for api in ("/api", ""):
        assert client.get(api + bo).status_code == 200
    with picturing_app.app_context():
        revoke_link(rt, game_id, 1)
    for api in ("/api", ""):
        assert client.get(api + bo).status_code == 403


def test_a_page_showing_a_flashed_message_is_not_kept(picturing_app: Flask, kept: redis.Redis) -> None:
    _, _, (ann, _) = duel(picturing_app)
    client = picturing_app.test_client()
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Your mention was saved.")]
    assert "Your mention was saved." in client.get(ann).get_data(as_text=True)
    assert kept.keys("pbem:picture:*") == []
    assert "Your mention was saved." not in client.get(ann).get_data(as_text=True)
    assert len(kept.keys("pbem:picture:*")) == 1


def test_with_redis_away_every_read_is_built(tmp_path: Path, clean_pg: str) -> None:
    app = create_app(app_config(tmp_path, clean_pg, PICTURE_CACHE_URL="redis://127.0.0.1:9/0"))
    rt, game_id, (ann, _) = duel(app)
    client = app.test_client()
    for api in ("/api", "", "/api", ""):
        assert client.get(api + ann).status_code == 200
    moved_in(app, game_id)
    with app.app_context():
        assert client.get("/api" + ann).get_json()["seq"] == rt.read_table(game_id).version
    app.extensions["pbem"].engine.dispose()


def test_pictures_are_kept_where_redis_is_unless_told_none(tmp_path: Path, redis_url: str) -> None:
    for folder in "abc":
        (tmp_path / folder).mkdir()
    kept_by_default = create_app(app_config(tmp_path / "a", None, REDIS_URL=redis_url))
    none = create_app(app_config(tmp_path / "b", None, REDIS_URL=redis_url, PICTURE_CACHE_URL="none"))
    embedded = create_app(app_config(tmp_path / "c", None))
    assert isinstance(kept_by_default.extensions.get("pictures"), Pictures)
    assert "pictures" not in none.extensions and "pictures" not in embedded.extensions


def test_a_read_that_finds_no_picture_costs_no_statement_more_than_one_kept_nowhere(
    picturing_app: Flask, kept: redis.Redis, tmp_path: Path, clean_pg: str
) -> None:
    _, _, (ann, _) = duel(picturing_app)
    unkept = create_app(app_config(tmp_path / "unkept", clean_pg, PICTURE_CACHE_URL="none"))
    costs = []
    for app in (picturing_app, unkept):
        client, statements = app.test_client(), Statements(app.extensions["pbem"])
        for api in ("/api", ""):
            client.get(api + ann)  # the fold cached, the session's cookie set
            kept.flushdb()
            costs.append(statements.of(lambda: client.get(api + ann)))  # noqa: B023
    unkept.extensions["pbem"].engine.dispose()
    assert costs[:2] == costs[2:]

"""A seat's channels against a real local receiver: a signed JSON webhook whose HMAC the receiver
checks, and chat apps by Apprise URL (ntfy, Mattermost), each pinged exactly once per move owed and
once at the game's end, in the reader's language, with the seat's link and no card; bad addresses
refused where they are entered; an endpoint that fails paused after N failures in a row, with a mail,
and resumed by a test ping; redirects not followed, big answers not read, hanging ones cut short,
private addresses refused when sent too; a channel's address never shown, logged or stored in the
clear; the table's group channel told whose move it is at most once a minute, with the watch link
only, and the result; and the calendar feed of the moves owed, parsed back event by event."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import logging
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from icalendar import Calendar
from sqlalchemy import text
from sqlmodel import Session, select

from service import create_app
from service.channels import notices
from service.channels.delivery import deliver_notices, deliver_row, deliver_rows
from service.eventlog.models import Channel, MailStatus, OutboxMail
from service.links import AddressLink, issued_at
from service.runtime import Runtime
from service.tasks.recovery import sweep as sweep_all
from tests.conftest import app_config
from tests.helpers import mails, post_form, same_link, without_links
from tests.service.receiver import Answer, Receiver
from tests.service.test_replay_leaks import CODES
from tests.service.turns import new_game, people, play, stepping, to_act

SECRET_PATH = "/hook/s3cr3t-w3bh00k-t0k3n"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    server.start()
    yield server
    server.stop()


def channel_app(tmp_path: Path, database_url: str | None, **extra: Any) -> Flask:
    settings = {"CHANNEL_ALLOW_LOOPBACK": True, "CHANNEL_TIMEOUT_SECONDS": 1.0, "CHANNEL_MAX_FAILURES": 3}
    return create_app(app_config(tmp_path, database_url, **{**settings, **extra}))


@pytest.fixture(params=["sqlite", "postgres"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    url = request.getfixturevalue("clean_pg") if request.param == "postgres" else None
    flask_app = channel_app(tmp_path, url)
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


@pytest.fixture
def pg_app(clean_pg: str, tmp_path: Path) -> Iterator[Flask]:
    flask_app = channel_app(tmp_path, clean_pg)
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def seat_token(rt: Runtime, game_id: str, seat: int) -> str:
    table = rt.read_table(game_id)
    return rt.signer.player_token(game_id, seat, table.seats[seat].key_version)


def add(client: FlaskClient, token: str, url: str) -> dict[str, Any]:
    answer = client.post(f"/api/play/{token}/channels", json={"url": url})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()


def play_out(rt: Runtime, game_id: str) -> None:
    """Play the game to its end, each seat its first legal move."""
    while to_act(rt, game_id):
        play(rt, game_id, min(to_act(rt, game_id)))


def signed_ok(key: str, request_body: bytes, header: str) -> bool:
    expected = "sha256=" + hmac.new(key.encode(), request_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)


def test_every_seat_pinged_once_per_move_owed_and_at_the_end(app: Flask, receiver: Receiver) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    players = people("Ann", "Bo")
    game_id = new_game(rt, "red_black", players)
    hook = add(client, seat_token(rt, game_id, 0), receiver.url(SECRET_PATH))
    ntfy = add(client, seat_token(rt, game_id, 1), f"ntfy://127.0.0.1:{receiver.port}/bo-topic")
    assert hook["kind"] == "webhook" and hook["label"] == "127.0.0.1" and hook["signing_key"]
    assert ntfy["kind"] == "chat" and ntfy["label"] == "ntfy" and ntfy["signing_key"] is None
    play_out(rt, game_id)

    pings = [json.loads(r.body) for r in receiver.on(SECRET_PATH)]
    for request in receiver.on(SECRET_PATH):
        assert signed_ok(hook["signing_key"], request.body, request.headers["X-Pbem-Signature-256"])
    ann_turns = mails(app, to="ann@example.org", kind="your_turn")
    assert [p["event"] for p in pings] == ["your_turn"] * len(ann_turns) + ["game_over"]
    assert len(ann_turns) > 3
    link = f"http://localhost/play/{seat_token(rt, game_id, 0)}"
    assert all(same_link(p["url"], link) for p in pings)
    assert set(pings[0]) == {"event", "game", "title", "text", "url", "language"}
    assert pings[0]["text"] == ann_turns[0].text_body.splitlines()[0]
    deliveries = [r.headers["X-Pbem-Delivery"] for r in receiver.on(SECRET_PATH)]
    assert len(set(deliveries)) == len(deliveries)  # each notice once

    bo_said = [json.loads(r.body)["message"] for r in receiver.on("/") if b"bo-topic" in r.body]
    bo_turns = mails(app, to="bo@example.org", kind="your_turn")
    assert len(bo_said) == len(bo_turns) + 1
    bo_link = f"http://localhost/play/{seat_token(rt, game_id, 1)}"
    assert all(same_link(said.split()[-1], bo_link) for said in bo_said)
    # No card in any notice (the leak check of the mails, on every channel's words).
    for said in [json.dumps(p, ensure_ascii=False) for p in pings] + bo_said:
        assert not CODES["red_black"].findall(without_links(said)), said
    # Nothing after the game's end: a last look at the outbox finds every notice sent.
    with Session(rt.engine) as session:
        notices = session.exec(select(OutboxMail).where(OutboxMail.channel != "mail")).all()
    assert {row.status for row in notices} == {MailStatus.SENT}
    assert len(notices) == len(pings) + len(bo_said)


def test_a_seat_in_japanese_is_pinged_in_japanese(pg_app: Flask, receiver: Receiver) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    assert client.post(f"/api/play/{token}/settings", json={"notify": "turn"}).status_code == 200
    with Session(rt.engine) as session:
        session.exec(text(f"UPDATE seats SET language = 'ja' WHERE game_id = '{game_id}' AND seat = 0"))
        session.commit()
    channel = add(client, token, receiver.url("/ja"))
    assert client.post(f"/api/play/{token}/channels/{channel['id']}/test").status_code == 202
    test_ping = json.loads(receiver.on("/ja")[-1].body)
    assert test_ping["event"] == "channel_test" and test_ping["language"] == "ja"
    assert "テスト" in test_ping["text"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("not a web address", "Give a full web address"),
        ("gopher://127.0.0.1/x", "Give a full web address"),
        ("http://10.0.0.7/hook", "private address"),
        ("http://169.254.169.254/latest/meta-data", "private address"),
        ("http://[::ffff:192.168.1.1]/hook", "private address"),
        ("ntfy://192.168.0.9/topic", "private address"),
        ("mailto://user:pass@example.org", "cannot go to"),
        ("https://no-such-host.invalid/hook", "cannot be reached"),
    ],
)
def test_bad_addresses_are_refused_where_entered(pg_app: Flask, url: str, words: str) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    answer = client.post(f"/api/play/{seat_token(rt, game_id, 0)}/channels", json={"url": url})
    assert answer.status_code == 422
    assert words in answer.get_json()["error"]
    with Session(rt.engine) as session:
        assert session.exec(select(Channel)).all() == []


def test_loopback_refused_unless_the_setting_allows_it(
    tmp_path: Path, clean_pg: str, receiver: Receiver
) -> None:
    app = channel_app(tmp_path, clean_pg, CHANNEL_ALLOW_LOOPBACK=False)
    with app.app_context():
        rt = app.extensions["pbem"]
        game_id = new_game(rt, "red_black", people("Ann", "Bo"))
        answer = app.test_client().post(
            f"/api/play/{seat_token(rt, game_id, 0)}/channels", json={"url": receiver.url("/x")}
        )
        assert answer.status_code == 422 and "private address" in answer.get_json()["error"]
    app.extensions["pbem"].engine.dispose()


def test_private_address_refused_again_when_sent(pg_app: Flask, receiver: Receiver) -> None:
    """Checked on the address connected to: a channel added while allowed is not sent once it is not."""
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    hook = add(client, token, receiver.url("/later-private"))
    chat = add(client, token, f"json://127.0.0.1:{receiver.port}/chat-later-private")
    rt.settings["CHANNEL_ALLOW_LOOPBACK"] = False
    for channel in (hook, chat):
        client.post(f"/api/play/{token}/channels/{channel['id']}/test")
    assert receiver.received == []
    failed = [row for row in mails(pg_app) if row.channel != "mail"]
    assert len(failed) == 2 and all(row.status == MailStatus.PENDING and row.attempts == 1 for row in failed)


def test_an_endpoint_failing_is_paused_with_a_mail_and_resumed_by_a_test_ping(
    pg_app: Flask, receiver: Receiver
) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    receiver.answers["/down"] = Answer(status=500)
    hook = add(client, token, receiver.url("/down"))
    client.post(f"/api/play/{token}/channels/{hook['id']}/test")
    row = next(row for row in mails(pg_app) if row.channel == "webhook")
    assert (
        row.id is not None and row.status == MailStatus.PENDING and "answered 500" in (row.last_error or "")
    )
    for _ in range(2):  # the retries the sweep would make
        assert deliver_row(rt, row.id) is False
    assert len(receiver.on("/down")) == 3
    paused_mails = mails(pg_app, to="ann@example.org", kind="channel_paused")
    assert len(paused_mails) == 1
    assert "127.0.0.1" in paused_mails[0].text_body and "3" in paused_mails[0].text_body
    assert deliver_row(rt, row.id) is False  # paused: not tried again, failed for good
    assert len(receiver.on("/down")) == 3
    assert next(r for r in mails(pg_app) if r.id == row.id).status == MailStatus.FAILED
    listed = client.get(f"/api/play/{token}/channels").get_json()["channels"]
    assert listed[0]["paused"] is True
    page = client.get(f"/play/{token}").get_data(as_text=True)
    assert "paused after failing" in page

    # The seat's moves meanwhile ping nobody; a test ping that works resumes the channel.
    play_out(rt, game_id)
    assert len(receiver.on("/down")) == 3
    receiver.answers["/down"] = Answer(status=204)
    post_form(client, f"/play/{token}", f"/channels/{hook['id']}/test")
    assert len(receiver.on("/down")) == 4
    assert client.get(f"/api/play/{token}/channels").get_json()["channels"][0]["paused"] is False
    assert len(mails(pg_app, to="ann@example.org", kind="channel_paused")) == 1


def test_redirects_big_answers_and_hanging_endpoints(pg_app: Flask, receiver: Receiver) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    receiver.answers["/moved"] = Answer(status=302, location="http://169.254.169.254/latest/meta-data")
    receiver.answers["/chat-moved"] = Answer(status=302, location=receiver.url("/followed"))
    receiver.answers["/big"] = Answer(body=b"x" * 10_000_000)
    receiver.answers["/slow"] = Answer(hang_seconds=5)
    for path in ("/moved", "/big", "/slow"):
        channel = add(client, token, receiver.url(path))
        started = time.monotonic()
        client.post(f"/api/play/{token}/channels/{channel['id']}/test")
        assert time.monotonic() - started < 3, path
    chat = add(client, token, f"json://127.0.0.1:{receiver.port}/chat-moved")
    client.post(f"/api/play/{token}/channels/{chat['id']}/test")
    assert receiver.on("/followed") == []
    rows = {row.channel_id: row for row in mails(pg_app) if row.channel != "mail"}
    outcomes = sorted((row.status, (row.last_error or "").split(": ", 1)[-1]) for row in rows.values())
    assert outcomes == [
        (MailStatus.PENDING, "JSON did not take the notice"),
        (MailStatus.PENDING, "no answer in time"),
        (MailStatus.PENDING, "the endpoint answered 302"),
        (MailStatus.SENT, ""),
    ]


def test_notices_to_one_host_share_a_kept_connection_which_a_long_answer_closes(
    pg_app: Flask, receiver: Receiver
) -> None:
    """A burst of notices to one webhook host pays one connection (on https, one TLS handshake), and
    an answer longer than what is read closes its connection rather than leave the rest on it."""
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    token = seat_token(rt, new_game(rt, "red_black", people("Ann", "Bo")), 0)
    receiver.answers["/long"] = Answer(body=b"x" * 100_000)
    kept, long = add(client, token, receiver.url("/kept")), add(client, token, receiver.url("/long"))
    for channel in (kept, kept, kept, long, kept):
        assert client.post(f"/api/play/{token}/channels/{channel['id']}/test").status_code == 202
    pings = receiver.on("/kept")
    assert len(pings) == 4 and len({ping.peer_port for ping in pings[:3]}) == 1
    (long_answered,) = receiver.on("/long")
    assert long_answered.peer_port == pings[0].peer_port  # the kept connection, taken from the pool
    assert pings[3].peer_port != long_answered.peer_port  # and closed after the long answer


def test_chat_notices_to_one_host_share_a_kept_connection_which_a_long_answer_closes(
    pg_app: Flask, receiver: Receiver
) -> None:
    """Apprise opens a new session for each notice; the guarded one sends on a kept connection, and
    an answer longer than what is read closes it rather than leave the rest on it."""
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    token = seat_token(rt, new_game(rt, "red_black", people("Ann", "Bo")), 0)
    receiver.answers["/long"] = Answer(body=b"x" * 10_000_000)
    kept = add(client, token, f"json://127.0.0.1:{receiver.port}/kept")
    long = add(client, token, f"json://127.0.0.1:{receiver.port}/long")
    for channel in (kept, kept, kept, long, kept):
        started = time.monotonic()
        assert client.post(f"/api/play/{token}/channels/{channel['id']}/test").status_code == 202
        assert time.monotonic() - started < 2
    pings = receiver.on("/kept")
    assert len(pings) == 4 and len({ping.peer_port for ping in pings[:3]}) == 1
    (long_answered,) = receiver.on("/long")
    assert long_answered.peer_port == pings[0].peer_port  # the kept connection, taken from the pool
    assert pings[3].peer_port != long_answered.peer_port  # and closed after the long answer
    statuses = sorted(row.status for row in mails(pg_app) if row.channel != "mail")
    assert statuses == [MailStatus.SENT] * 5  # Apprise takes a 200 as sent, whatever follows it


def test_chat_notices_take_no_proxy_from_the_environment(
    pg_app: Flask, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy would hide the address the guard checks (and reach what it refuses): a chat app's
    notice goes straight to its service, whatever the worker's environment says."""
    proxy = Receiver()
    proxy.start()
    try:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url(""))
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        rt = pg_app.extensions["pbem"]
        client = pg_app.test_client()
        token = seat_token(rt, new_game(rt, "red_black", people("Ann", "Bo")), 0)
        chat = add(client, token, f"ntfy://127.0.0.1:{receiver.port}/straight-topic")
        assert client.post(f"/api/play/{token}/channels/{chat['id']}/test").status_code == 202
        assert [request for request in receiver.on("/") if b"straight-topic" in request.body]
        assert proxy.received == []
    finally:
        proxy.stop()


def test_a_batch_of_notices_goes_channel_beside_channel_so_a_hanging_one_delays_no_other(
    clean_pg: str, tmp_path: Path, receiver: Receiver
) -> None:
    timeout = 3.0
    flask_app = channel_app(tmp_path, clean_pg, CHANNEL_TIMEOUT_SECONDS=timeout)
    with flask_app.app_context():
        rt = flask_app.extensions["pbem"]
        client = flask_app.test_client()
        game_id = new_game(rt, "red_black", people("Ann", "Bo"))
        token = seat_token(rt, game_id, 0)
        receiver.answers["/slow"] = receiver.answers["/slow-too"] = Answer(hang_seconds=2 * timeout)
        for path in ("/slow", "/slow-too", "/fast", "/also-fast"):  # their rows go in this order
            add(client, token, receiver.url(path))
        receiver.received.clear()  # the added channels' test pings
        for _ in range(20):  # until a step pings Ann: its notices are delivered in one batch
            started = time.monotonic()
            play(rt, game_id, max(to_act(rt, game_id)))
            took = time.monotonic() - started
            if receiver.received:
                break
        slow, slow_too, fast, also_fast = (
            receiver.on(path) for path in ("/slow", "/slow-too", "/fast", "/also-fast")
        )
        assert len(slow) == len(slow_too) == len(fast) == len(also_fast) == 1
        # One after another, the fast ones would have waited out the slow one's timeout.
        assert max(fast[0].at, also_fast[0].at) - slow[0].at < timeout / 2
        assert took < 2 * timeout  # the step waited out one timeout, not one per hanging channel
        statuses = {row.channel_id: row.status for row in mails(flask_app) if row.channel != "mail"}
        assert sorted(statuses.values()) == [MailStatus.PENDING] * 2 + [MailStatus.SENT] * 2
    flask_app.extensions["pbem"].engine.dispose()


def test_a_channel_address_is_never_shown_logged_or_stored_in_clear(
    pg_app: Flask, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    ann, bo = seat_token(rt, game_id, 0), seat_token(rt, game_id, 1)
    caplog.set_level(logging.DEBUG)
    receiver.answers[SECRET_PATH] = Answer(status=500)
    hook = add(client, ann, receiver.url(SECRET_PATH))
    add(client, ann, f"ntfy://127.0.0.1:{receiver.port}/s3cr3t-ntfy-t0pic")
    client.post(f"/api/play/{ann}/channels/{hook['id']}/test")
    play(rt, game_id, min(to_act(rt, game_id)))
    secrets = ("s3cr3t-w3bh00k-t0k3n", "s3cr3t-ntfy-t0pic")
    watch = rt.signer.watch_token(game_id, 1)
    paths = [f"/play/{ann}", f"/api/play/{ann}", f"/api/play/{ann}/channels", f"/play/{bo}"]
    paths += [f"/api/play/{bo}", f"/api/play/{bo}/channels", f"/watch/{watch}", f"/game/{game_id}"]
    shown = [client.get(path).get_data(as_text=True) for path in paths]
    with Session(rt.engine) as session:
        stored = [str(row) for row in session.exec(text("SELECT * FROM channels")).all()]
        stored += [str(row) for row in session.exec(text("SELECT * FROM outbox")).all()]
    for secret in secrets:
        assert not any(secret in page for page in shown)
        assert not any(secret in row for row in stored)
        assert secret not in caplog.text
    assert any(r.path == SECRET_PATH for r in receiver.received)  # it was used all the same


def test_a_removed_channel_is_told_nothing_more(pg_app: Flask, receiver: Receiver) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    hook = add(client, token, receiver.url("/gone"))
    assert client.delete(f"/api/play/{seat_token(rt, game_id, 1)}/channels/{hook['id']}").status_code == 404
    post_form(client, f"/play/{token}", f"/channels/{hook['id']}/remove")
    assert client.get(f"/api/play/{token}/channels").get_json()["channels"] == []
    assert client.delete(f"/api/play/{token}/channels/{hook['id']}").status_code == 404
    play_out(rt, game_id)
    assert receiver.on("/gone") == []
    with Session(rt.engine) as session:
        assert session.exec(select(Channel.sealed)).all() == [""]


def test_the_table_channel_hears_whose_move_at_most_once_a_minute_and_the_result(
    pg_app: Flask, receiver: Receiver
) -> None:
    rt, clock = stepping(pg_app, datetime.now(UTC))
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    host = rt.signer.host_token(game_id, 1)
    post_form(client, f"/host/{host}", f"/host/{host}/channels", url=receiver.url("/table"))
    assert "127.0.0.1" in client.get(f"/host/{host}").get_data(as_text=True)
    play(rt, game_id, min(to_act(rt, game_id)))
    assert len(receiver.on("/table")) == 1  # the first change goes at once
    for _ in range(3):  # quick changes within the minute wait, combined into one notice
        play(rt, game_id, min(to_act(rt, game_id)))
    assert len(receiver.on("/table")) == 1
    clock.advance(seconds=66)
    sweep_all(rt)
    said = [json.loads(r.body) for r in receiver.on("/table")]
    names = [rt.read_table(game_id).names[seat] for seat in sorted(to_act(rt, game_id))]
    assert len(said) == 2 and said[1]["text"] == f"Now to play: {' and '.join(names)}"
    play(rt, game_id, min(to_act(rt, game_id)))
    clock.advance(seconds=66)  # a minute after the last notice went, however long the sweep held its row
    sweep_all(rt)
    assert len(receiver.on("/table")) == 3
    while to_act(rt, game_id):
        play(rt, game_id, min(to_act(rt, game_id)))
        clock.advance(seconds=66)
        sweep_all(rt)
    said = [json.loads(r.body) for r in receiver.on("/table")]
    assert said[-1]["event"] == "game_over" and said[-1]["text"].startswith("Game over")
    assert [s["event"] for s in said].count("game_over") == 1
    assert all("/watch/" in s["url"] and "/play/" not in json.dumps(s) for s in said)
    with Session(rt.engine) as session:
        sent = session.exec(
            select(OutboxMail.sent_at).where(OutboxMail.channel_id.is_not(None)).order_by(OutboxMail.sent_at)
        ).all()
    assert len(sent) == len(said)
    assert all(later - earlier >= timedelta(minutes=1) for earlier, later in itertools.pairwise(sent))
    clock.advance(seconds=66)
    sweep_all(rt)
    assert len(receiver.on("/table")) == len(said)  # nothing after the end


def test_the_calendar_feed_lists_each_move_owed_with_its_deadline_and_an_alarm(pg_app: Flask) -> None:
    rt, clock = stepping(pg_app, datetime(2026, 6, 1, 9, 0, tzinfo=UTC))
    client = pg_app.test_client()
    first = new_game(rt, "red_black", people("Ann", "Bo"), move_days=1)
    second = new_game(rt, "red_black", people("Ann", "Cy"), seed=2, move_days=3)
    untimed = new_game(rt, "red_black", people("Ann", "Di"), seed=3, move_days=0)
    my_link = rt.signer.address_token(AddressLink("ann@example.org", issued_at(clock.now())))
    page = client.get(f"/my/{my_link}").get_data(as_text=True)
    feed_url = re.search(r'href="http://localhost(/calendar/[^"]+\.ics)" data-calendar', page)
    assert feed_url
    before = event_count_of(pg_app)
    answer = client.get(feed_url.group(1))
    assert answer.status_code == 200 and answer.mimetype == "text/calendar"
    assert event_count_of(pg_app) == before  # a GET changes nothing
    events = Calendar.from_ical(answer.data).walk("VEVENT")
    owed = {
        game_id: rt.read_table(game_id)
        for game_id in (first, second, untimed)
        if 0 in to_act(rt, game_id) and rt.read_table(game_id).record.move_days
    }
    assert len(events) == len(owed) > 0
    for event in events:
        game_id = str(event["uid"]).split("-")[0]
        assert game_id in owed
        due = clock.now() + timedelta(days=owed[game_id].record.move_days)
        assert event.decoded("dtend") == due and event.decoded("dtend") - event.decoded(
            "dtstart"
        ) == timedelta(minutes=30)
        assert same_link(str(event["url"]), f"http://localhost/play/{seat_token(rt, game_id, 0)}")
        assert str(event["summary"]).startswith("Your move: ")
        (alarm,) = event.walk("VALARM")
        assert alarm.decoded("trigger") == -timedelta(hours=2)
    assert client.get("/calendar/forged.ics").status_code == 403
    assert client.get(f"/calendar/{my_link}.ics").status_code == 403  # a "my games" token opens no feed
    assert client.get(f"/my/{feed_url.group(1).split('/')[-1][:-4]}").status_code == 403


def event_count_of(app: Flask) -> int:
    with Session(app.extensions["pbem"].engine) as session:
        return len(session.exec(text("SELECT seq FROM events")).all())


def test_a_batch_of_notices_is_marked_in_one_step_each_as_its_channel_answered(
    pg_app: Flask, receiver: Receiver
) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    receiver.answers["/down"] = Answer(status=500)
    paths = ("up", "down", "taken")
    added = [add(client, token, receiver.url(f"/{path}"))["id"] for path in paths]
    receiver.received.clear()  # the added channels' test pings
    table = rt.read_table(game_id)
    with Session(rt.engine, expire_on_commit=False) as session:
        stored = {channel.id: channel for channel in session.exec(select(Channel)).all()}
        channels = {path: stored[channel_id] for path, channel_id in zip(paths, added, strict=True)}
        payload = notices.test_payload(rt, table, 0)
        rows = {path: notices.notice_row(rt, channel, payload) for path, channel in channels.items()}
        session.add_all(rows.values())
        session.commit()
    by_id = {channel.id: channel for channel in channels.values() if channel.id is not None}

    # A notice whose lease went to another worker is neither sent nor marked by the first.
    assert deliver_notices(rt, [rows["taken"]], "a-lease-run-out", by_id) == []
    assert receiver.on("/taken") == []

    assert deliver_rows(rt, [rows["up"].id, rows["down"].id]) == 1  # type: ignore[list-item]
    assert len(receiver.on("/up")) == len(receiver.on("/down")) == 1
    after = {row.id: row for row in mails(pg_app)}
    up, down, taken = (after[rows[path].id] for path in paths)
    assert (up.status, up.attempts, up.claim_token) == (MailStatus.SENT, 1, None)
    assert (down.status, down.attempts, down.claim_token) == (MailStatus.PENDING, 1, None)
    assert "answered 500" in (down.last_error or "") and down.sent_at is None
    assert down.next_attempt_at > up.sent_at  # type: ignore[operator]  # after a backoff
    assert (taken.status, taken.attempts) == (MailStatus.PENDING, 0)

"""Mail by SMTP in the embedded mode: real delivery, threading headers, retries after an outage."""

from __future__ import annotations

import base64
import json
import random
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service import create_app
from service.eventlog.models import MailStatus
from service.mail.delivery import (
    MAX_QUEUED_SECONDS,
    QUEUED_SECONDS,
    deliver,
    due_mail_ids,
    queue_due_mails,
    queued_hold,
)
from service.play.hosting import Player, create_game
from service.runtime import Runtime
from service.tasks.celery_app import TASK_ROWS
from service.tasks.recovery import MAIL_QUEUE_FULL, sweep
from tests.conftest import app_config
from tests.helpers import SteppingClock, confirmed, mails
from tests.service.replay_games import finish_by_service
from tests.service.test_create_form import create
from tests.smtp_sink import SmtpSink, subject

EMAILS = ["ann@example.org", "bo@example.org"]


def new_game(rt: Runtime) -> str:
    return create_game(
        rt,
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=1,
    )


def smtp_app(tmp_path: Path, sink: SmtpSink) -> Flask:
    return create_app(app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=sink.port))


def test_invitations_are_delivered_as_text_and_html(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = smtp_app(tmp_path, smtp_sink)
    with app.app_context():
        new_game(app.extensions["pbem"])
    assert {m.status for m in mails(app)} == {MailStatus.SENT}
    (message,) = smtp_sink.collector.to(EMAILS[0])
    assert message.is_multipart()
    types = [part.get_content_type() for part in message.walk()]
    assert "text/plain" in types and "text/html" in types
    assert message["Message-ID"].startswith("<") and subject(message) == "Red and Black Duel — Ann, Bo"
    assert app.test_client().get("/outbox").status_code == 404  # mail is configured: no local outbox


def test_later_mails_thread_under_the_invitation(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = smtp_app(tmp_path, smtp_sink)
    with app.app_context():
        rt = app.extensions["pbem"]
        new_game(rt)
        client = app.test_client()
        links = [m.text_body.split("http://localhost")[1].split()[0] for m in mails(app, kind="invitation")]
        for link in links:
            state = client.get("/api" + link).get_json()
            client.post("/api" + link, json={"action": state["legal_actions"][0], "seq": state["seq"]})
    invitation = smtp_sink.collector.to(EMAILS[0])[0]
    follow_ups = smtp_sink.collector.to(EMAILS[0])[1:]
    assert follow_ups, "the camp reveal should have sent a your-move mail"
    for message in follow_ups:
        assert subject(message) == subject(invitation)  # Gmail threads equal subjects only
        assert message["In-Reply-To"] == invitation["Message-ID"]
        assert invitation["Message-ID"] in message["References"]


def test_mail_is_retried_until_the_server_is_back(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    smtp_sink.stop()
    app = smtp_app(tmp_path, smtp_sink)
    with app.app_context():
        rt = app.extensions["pbem"]
        new_game(rt)
        failed = mails(app)
        assert {m.status for m in failed} == {MailStatus.PENDING}
        assert all(m.attempts == 1 and "Connection" in (m.last_error or "") for m in failed)
        rt.clock = clock = SteppingClock()
        assert sweep(rt) == (0, 0)  # not due yet: the backoff holds them back
        clock.advance(seconds=6)
        assert sweep(rt) == (len(failed), 0)  # due, but the server is still down
        assert {m.attempts for m in mails(app)} == {2}
        smtp_sink.start()
        clock.advance(seconds=6)
        assert sweep(rt) == (0, 0)  # second backoff (10 s) not over yet
        clock.advance(seconds=6)
        assert sweep(rt) == (len(failed), 0)
        assert deliver(rt, failed[0].id) is None  # sent once, never twice
    assert {m.status for m in mails(app)} == {MailStatus.SENT}
    assert len(smtp_sink.collector.messages) == len(failed)


def queued_rows(broker: redis.Redis) -> list[list[int]]:
    """The outbox rows of each mail task waiting on the broker, oldest task first (kombu pushes on the
    left and takes from the right; a message's body is `[args, kwargs, embed]`)."""
    tasks = [json.loads(message) for message in reversed(broker.lrange("mail", 0, -1))]
    assert all(task["headers"]["task"] == "pbem.send_mails" for task in tasks)
    return [json.loads(base64.b64decode(task["body"]))[0][0] for task in tasks]


@pytest.mark.postgres
@pytest.mark.redis
def test_the_sweep_queues_due_mail_on_its_own_queue_once_per_lease_in_bounded_batches(
    tmp_path: Path, smtp_sink: SmtpSink, clean_pg: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    request.addfinalizer(broker.flushdb)  # no task of this test is left for a later test's worker
    settings = app_config(
        tmp_path, clean_pg, REDIS_URL=redis_url, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port
    )
    app = create_app(settings)
    with app.app_context():
        rt = app.extensions["pbem"]
        new_game(rt)  # its mails go to a queue no worker reads: their tasks are as good as lost
        unsent = [mail.id for mail in mails(app)]
        assert queued_rows(broker) == [unsent] and len(unsent) >= 3 and not broker.llen("moves")
        broker.delete("mail")
        rt.dispatch.send_mails(list(range(1, 2 * TASK_ROWS + 4)))  # a step's rows, a few to a task
        assert [len(rows) for rows in queued_rows(broker)] == [TASK_ROWS, TASK_ROWS, 3]
        broker.delete("mail")
        rt.clock = clock = SteppingClock()
        quiet = rt.settings["COMMAND_REQUEUE_SECONDS"] + 1  # how long a row never tried is left to its task
        clock.advance(seconds=quiet)
        assert queue_due_mails(rt, 2) == unsent[:2]  # a bounded batch, oldest first
        assert sweep(rt) == (len(unsent) - 2, 0)
        assert sweep(rt) == (0, 0)  # queued once, not again at every tick
        assert queued_rows(broker) == [unsent[2:]] and not broker.llen("moves")
        clock.advance(seconds=QUEUED_SECONDS + quiet)  # queued, yet never run: queued again
        broker.delete("mail")
        assert sweep(rt) == (len(unsent), 0)
        assert queued_hold(timedelta(hours=5)) == timedelta(seconds=MAX_QUEUED_SECONDS)
        clock.advance(seconds=QUEUED_SECONDS + 1)  # queued at an age of over 60 s: held as long again
        assert sweep(rt) == (0, 0)
        clock.advance(seconds=2 * QUEUED_SECONDS)
        assert sweep(rt) == (len(unsent), 0) and queued_rows(broker) == [unsent, unsent]
        for _ in range(MAIL_QUEUE_FULL - len(queued_rows(broker))):
            rt.dispatch.send_mails([0])  # tasks of no row, waiting as a backlog's would
        clock.advance(seconds=MAX_QUEUED_SECONDS)  # due again, but the queue still holds a backlog
        assert sweep(rt) == (0, 0) and due_mail_ids(rt) == unsent
    app.extensions["pbem"].engine.dispose()


def test_the_title_names_the_variant_and_every_mail_of_the_game_bears_it(app: Flask) -> None:
    game_id = create_game(
        app.extensions["pbem"],
        "dualis",
        [Player(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy")],
        Player("Host", "host@example.org"),
        options={"iso": True, "high_low": True, "short": True},
        seed=1,
    )
    title = "Duālis · Iso, High-Low, short — Ann, Bo, Cy"
    assert {m.subject for m in mails(app)} == {title}
    assert f"<h1>{title}</h1>" in app.test_client().get(f"/game/{game_id}").get_data(as_text=True)
    invitation = mails(app, to="bo@example.org", kind="invitation")[0]
    assert invitation.text_body.startswith("You are invited\n")  # what the mail says comes first


def test_a_host_who_does_not_play_gets_the_game_over_mail(app: Flask) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt)  # hosted by host@example.org, who does not play
    finish_by_service(rt, game_id, random.Random(1))
    (over,) = mails(app, to="host@example.org", kind="game_over")
    assert over.text_body.startswith("Game over\n") and "Winner" in over.text_body
    assert f"/game/{game_id}/history" in over.text_body and "/host/" in over.text_body
    assert "as the host of this game" in over.text_body and "/play/" not in over.text_body
    assert {m.to_email for m in mails(app, kind="game_over")} == {*EMAILS, "host@example.org"}


def test_a_host_who_plays_is_invited_as_the_host_and_told_the_end_once(app: Flask) -> None:
    rt = app.extensions["pbem"]
    ann = Player("Ann", EMAILS[0])
    game_id = create_game(rt, "red_black", [ann, Player("Bo", EMAILS[1])], Player("Ann", "Ann@Example.org"))
    hosts, guests = (mails(app, to=email, kind="invitation")[0].text_body for email in EMAILS)
    assert "You are hosting this game of Red and Black Duel by mail, with Bo." in hosts
    assert "invites you" not in hosts
    assert "Ann invites you to a game of Red and Black Duel by mail with Ann, Bo." in guests
    finish_by_service(rt, game_id, random.Random(2))
    assert [m.to_email for m in mails(app, kind="game_over")] == EMAILS


def pele_game(client: FlaskClient) -> TestResponse:
    """The create form sent with Pelé, whose address has a letter beyond ASCII before the @."""
    return create(client, "red_black", 1, **{"players-1-name": "Pelé", "players-1-email": "pelé@example.org"})


def test_an_address_beyond_ascii_gets_its_mail_by_smtputf8(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    """The To header could not be written: POST /confirm answered 500 after the game was committed,
    and the invitation was retried forever."""
    app = create_app(
        app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port, SMTP_UTF8="1")
    )
    client = app.test_client()
    assert confirmed(client, pele_game(client)).status_code == 303
    (invitation,) = [m for m in smtp_sink.collector.messages if "pel" in str(m["To"])]
    assert "pelé@example.org" in invitation.as_bytes().decode()
    assert {m.status for m in mails(app, to="pelé@example.org")} == {MailStatus.SENT}
    app.extensions["pbem"].engine.dispose()


def test_without_smtputf8_the_form_refuses_such_an_address_and_a_mail_to_one_fails_for_good(
    tmp_path: Path,
) -> None:
    sink = SmtpSink(utf8=False)
    sink.start()
    app = create_app(app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=sink.port))
    client = app.test_client()
    refused = pele_game(client)
    assert refused.status_code == 422
    assert "cannot send mail to an address with letters beyond A to Z" in refused.get_data(as_text=True)
    with app.app_context():  # the command line takes any address: the mail fails, once, saying why
        rt = app.extensions["pbem"]
        create_game(
            rt,
            "red_black",
            [Player("Ann", EMAILS[0]), Player("Pelé", "pelé@example.org")],
            Player("H", EMAILS[0]),
        )
        (failed,) = mails(app, to="pelé@example.org")
        assert failed.status == MailStatus.FAILED and "SMTPUTF8" in (failed.last_error or "")
        assert failed.id not in due_mail_ids(rt) and sink.collector.to(EMAILS[0])
    sink.stop()
    app.extensions["pbem"].engine.dispose()

"""A move's mails are written in its transaction without their bodies, and drafted after the commit
by the worker that sends them, from the game as it stood at the move: a task lost before drafting
leaves a row the sweep queues again, sent or kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import redis
from flask import Flask

from service import create_app
from service.channels.delivery import deliver_rows
from service.eventlog.models import MailStatus, OutboxMail
from service.eventlog.store import Table
from service.links import PlayerLink
from service.mail.kinds import MailKind
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, apply_command, submit_move
from service.reading import seat_moves
from service.runtime import Runtime
from service.tasks.recovery import sweep
from tests.conftest import app_config
from tests.helpers import SteppingClock, mails
from tests.smtp_sink import SmtpSink, body

PLAYERS = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org"), Player("Cy", "cy@example.org")]


def broker_app(
    tmp_path: Path, database: str, redis_url: str, request: pytest.FixtureRequest, **extra: object
) -> Flask:
    """An app whose tasks go to a broker no worker reads (each one as good as lost): the test runs
    the worker's functions itself."""
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    request.addfinalizer(broker.flushdb)
    return create_app(app_config(tmp_path, database, REDIS_URL=redis_url, **extra))


def move_as_the_worker(rt: Runtime, game_id: str) -> Table:
    """The first legal move of the first seat owing one, submitted and applied as the worker would;
    the table before it."""
    table = rt.read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    action = table.rules.legal_actions(table.state, seat)[0]
    outcome = submit_move(rt, game_id, seat, table.version, action)
    assert outcome.status == MoveStatus.PENDING and outcome.command_id is not None  # no worker runs
    assert apply_command(rt, outcome.command_id, game_id) == "accepted"
    return table


def your_move_mails(app: Flask, version: int) -> list[OutboxMail]:
    return [
        mail for mail in mails(app, kind=MailKind.YOUR_TURN) if (mail.draft or {}).get("version") == version
    ]


@pytest.mark.postgres
@pytest.mark.redis
def test_a_moves_mail_is_written_without_bodies_and_its_sender_drafts_it_as_the_game_stood(
    tmp_path: Path, smtp_sink: SmtpSink, clean_pg: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    app = broker_app(tmp_path, clean_pg, redis_url, request, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port)
    with app.app_context():
        rt = app.extensions["pbem"]
        game_id = create_game(rt, "double_side", PLAYERS, PLAYERS[0], seed=4)
        move_as_the_worker(rt, game_id)
        moved = rt.read_table(game_id)
        (written,) = your_move_mails(app, moved.version)
        assert written.text_body == written.html_body == ""  # the transaction held no drafting
        assert written.status == MailStatus.PENDING and written.subject and written.reply_to
        seat = written.seat
        assert seat is not None and seat in moved.rules.to_act(moved.state)
        offered = [move.label for group in seat_moves(moved, seat) for move in group.moves]

        while seat in rt.read_table(game_id).rules.to_act(rt.read_table(game_id).state):
            move_as_the_worker(rt, game_id)  # the game moves on before the mail's task runs
        assert seat_moves(rt.read_table(game_id), seat) != seat_moves(moved, seat)

        assert written.id is not None and deliver_rows(rt, [written.id]) == 1
        (drafted,) = [mail for mail in mails(app) if mail.id == written.id]
        assert drafted.draft is None and drafted.status == MailStatus.SENT
        assert all(label in drafted.text_body for label in offered)  # the moves it was written for
        # The link is read back, not compared as text: its signature carries the second it was made.
        (token,) = set(re.findall(r"/play/([\w.-]+)", drafted.text_body))
        assert rt.signer.read_player(token) == PlayerLink(game_id, seat, moved.seats[seat].key_version)
        (message,) = [
            m for m in smtp_sink.collector.to(PLAYERS[seat].email) if m["Message-ID"] == written.message_id
        ]
        assert offered[0] in body(message)
        assert deliver_rows(rt, [written.id]) == 0  # sent once, drafted once
    app.extensions["pbem"].engine.dispose()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_kept_mail_whose_task_was_lost_is_drafted_when_the_sweep_queues_it_again(
    tmp_path: Path, clean_pg: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    app = broker_app(tmp_path, clean_pg, redis_url, request)
    with app.app_context():
        rt = app.extensions["pbem"]
        game_id = create_game(rt, "double_side", PLAYERS, PLAYERS[0], seed=4)
        move_as_the_worker(rt, game_id)
        (kept,) = your_move_mails(app, rt.read_table(game_id).version)
        assert kept.status == MailStatus.KEPT and kept.text_body == ""
        assert "Being drafted" in app.test_client().get("/outbox").get_data(as_text=True)

        rt.clock = clock = SteppingClock()
        assert sweep(rt) == (0, 0)  # its own task may still draft it
        clock.advance(seconds=rt.settings["COMMAND_REQUEUE_SECONDS"] + 1)
        assert sweep(rt) == (1, 0)  # queued again: the task that drafts it
        assert kept.id is not None and deliver_rows(rt, [kept.id]) == 0  # kept mail is never sent
        (drafted,) = [mail for mail in mails(app) if mail.id == kept.id]
        assert drafted.draft is None and drafted.status == MailStatus.KEPT and "/play/" in drafted.text_body
        assert sweep(rt) == (0, 0)
        assert "Being drafted" not in app.test_client().get("/outbox").get_data(as_text=True)
    app.extensions["pbem"].engine.dispose()


def test_a_table_at_an_earlier_version_is_the_game_as_it_stood_then(tmp_path: Path) -> None:
    app = create_app(app_config(tmp_path, None))
    with app.app_context():
        rt = app.extensions["pbem"]
        game_id = create_game(rt, "dualis", [*PLAYERS, Player("Di", "di@example.org")], PLAYERS[0], seed=2)
        seen = []
        for _ in range(12):
            table = rt.read_table(game_id)
            seen.append(table)
            seat = min(table.rules.to_act(table.state))
            submit_move(rt, game_id, seat, table.version, table.rules.legal_actions(table.state, seat)[-1])
        now = rt.read_table(game_id)
        for then in seen:
            past = now.at(then.version)
            assert past.version == then.version and past.events == then.events
            for seat in range(4):
                assert past.rules.view(past.state, seat) == then.rules.view(then.state, seat)
                assert past.rules.legal_actions(past.state, seat) == then.rules.legal_actions(
                    then.state, seat
                )
        assert now.at(now.version) is now

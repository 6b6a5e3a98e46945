"""Clear answers under faults and races: a database away answers 503 with Retry-After and says what
is known, identical submissions at the same instant share one command, a seat's moves apply in the
order it made them and a pending move shows as pending, mail is leased to one sender, health checks,
and game ids that never look like command-line options."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
import redis
from flask import Flask
from sqlmodel import Session, select

from service import create_app
from service.cli import main
from service.eventlog.models import CommandRecord, CommandStatus, MailStatus, OutboxMail
from service.health import BEAT_KEY, check_health, record_beat
from service.mail.delivery import claim, deliver
from service.play.hosting import Player, create_game, new_game_id
from service.play.moves import apply_command, command_key
from tests.conftest import app_config
from tests.helpers import forms, mails, play_path
from tests.smtp_sink import SmtpSink, free_port

EMAILS = ["ann@example.org", "bo@example.org"]


def new_game(app: Flask, seed: int = 4) -> tuple[str, list[str]]:
    game_id = create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=seed,
    )
    return game_id, [play_path(mails(app, to=e, kind="invitation")[-1]) for e in EMAILS]


@pytest.fixture
def app_without_database(tmp_path: Path) -> Flask:
    """The app pointed at a PostgreSQL that does not answer (a closed port)."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere"
    return create_app(app_config(tmp_path, url, RUN_MIGRATIONS=False))


def test_a_database_away_answers_503_with_retry_after_and_a_page(app_without_database: Flask) -> None:
    client = app_without_database.test_client()
    page = client.get("/game/abc/history")
    assert page.status_code == 503 and page.headers["Retry-After"].isdigit()
    assert "text/html" in page.content_type and "Nothing was changed" in page.get_data(as_text=True)
    token = app_without_database.extensions["pbem"].signer.player_token("abc", 0, 1)
    api = client.post(f"/api/play/{token}", json={"action": {}, "seq": 1})
    assert api.status_code == 503 and api.headers["Retry-After"]
    body = api.get_json()
    assert body["status"] == 503 and "may not have been saved" in body["error"]
    assert "Nothing was changed" not in body["error"]  # a POST cannot know that


def test_health_fails_without_the_database(
    app_without_database: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    response = app_without_database.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["checks"]["database"].startswith("unreachable")
    monkeypatch.setenv("DATABASE_URL", app_without_database.config["PBEM"]["DATABASE_URL"])
    monkeypatch.setenv("SECRET_KEY", "health")
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")  # a deployment as its operator sets it up (no mail sent)
    monkeypatch.setenv("BASE_URL", "https://cards.example.org")
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["health"]) == 1


@pytest.mark.redis
def test_health_wants_the_broker_and_a_recent_beat(
    pg_app: Flask, redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    redis.Redis.from_url(redis_url).delete(BEAT_KEY)
    app = create_app(app_config(tmp_path, pg_app.config["PBEM"]["DATABASE_URL"], REDIS_URL=redis_url))
    rt = app.extensions["pbem"]
    with app.app_context():
        assert check_health(rt).checks == {
            "database": "ok",
            "broker": "ok",
            "beat": "no tick recorded lately",
        }
        assert app.test_client().get("/healthz").status_code == 503
        record_beat(rt)
        assert check_health(rt).ok
        assert app.test_client().get("/healthz").get_json() == {
            "ok": True,
            "checks": {"database": "ok", "broker": "ok", "beat": "ok"},
        }
    rt.engine.dispose()


def test_identical_submissions_at_the_same_instant_share_one_command(pg_app: Flask) -> None:
    rt = pg_app.extensions["pbem"]
    for seed in range(4):
        _, links = new_game(pg_app, seed)
        state = pg_app.test_client().get("/api" + links[0]).get_json()
        move = {"action": state["legal_actions"][0], "seq": state["seq"]}
        start = threading.Barrier(2)
        answers: list[dict] = []

        def submit(
            link: str = links[0], move: dict = move, start: threading.Barrier = start, answers: list = answers
        ) -> None:
            with pg_app.app_context():
                start.wait()
                answers.append(pg_app.test_client().post("/api" + link, json=move).get_json())

        threads = [threading.Thread(target=submit) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        ids = {answer["command"] for answer in answers}
        assert len(ids) == 1 and None not in ids, answers
        with Session(rt.engine) as session:
            (command,) = session.exec(select(CommandRecord).where(CommandRecord.id == ids.pop())).all()
        assert command.status == CommandStatus.ACCEPTED
        # The other learns the same command: played already, or still being played when it asked.
        assert sorted(a["status"] for a in answers) in (["accepted", "duplicate"], ["accepted", "pending"])


@pytest.fixture
def idle_broker_app(clean_pg: str, redis_url: str, tmp_path: Path) -> Flask:
    """Moves are stored and handed to a broker that no worker reads: they stay pending."""
    redis.Redis.from_url(redis_url).flushdb()
    app = create_app(app_config(tmp_path, clean_pg, REDIS_URL=redis_url))
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()


@pytest.mark.redis
def test_a_pending_move_shows_as_pending_and_is_not_overtaken(idle_broker_app: Flask) -> None:
    app = idle_broker_app
    client = app.test_client()
    game_id, links = new_game(app)
    state = client.get("/api" + links[0]).get_json()
    first, second = state["legal_actions"][:2]
    sent = client.post("/api" + links[0], json={"action": first, "seq": state["seq"]})
    assert sent.status_code == 202 and sent.get_json()["status"] == "pending"
    pending = sent.get_json()["command"]
    now = client.get("/api" + links[0]).get_json()
    assert now["pending_command"] == pending and now["legal_actions"] == []
    page = client.get(links[0]).get_data(as_text=True)
    assert 'data-outcome="pending"' in page
    assert not [form for form in forms(page) if form.action == links[0]]  # no move offered
    again = client.post("/api" + links[0], json={"action": second, "seq": state["seq"]})
    # Not stored, and said so: its own status and words, apart from a stored move's "pending".
    answer = again.get_json()
    assert again.status_code == 409 and answer["status"] == "earlier_pending"
    assert answer["command"] == pending and "was not taken" in answer["message"]
    token = next(form.fields["csrf_token"] for form in forms(page) if "csrf_token" in form.fields)
    form = client.post(
        links[0], data={"csrf_token": token, "seq": state["seq"], "action": json.dumps(second)}
    )
    assert form.status_code == 409 and 'data-outcome="earlier_pending"' in form.get_data(as_text=True)
    with Session(app.extensions["pbem"].engine) as session:
        assert len(session.exec(select(CommandRecord)).all()) == 1  # the second was not stored
    apply_command(app.extensions["pbem"], pending, game_id)
    assert client.get("/api" + links[0]).get_json()["pending_command"] is None


def test_commands_of_a_seat_apply_in_the_order_they_were_made(pg_app: Flask) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, _ = new_game(pg_app)
    table = rt.read_table(game_id)
    first, second = table.rules.legal_actions(table.state, 0)[:2]
    with Session(rt.engine, expire_on_commit=False) as session:  # two moves stored before either applied
        commands = [
            CommandRecord(
                game_id=game_id,
                seat=0,
                seq=table.version,
                action=action,
                key=command_key(0, table.version, action),
                created_at=rt.clock.now(),
            )
            for action in (first, second)
        ]
        session.add_all(commands)
        session.commit()
    apply_command(rt, commands[1].id, game_id)  # the later one's task arrives first
    with Session(rt.engine) as session:
        earlier, later = (session.get(CommandRecord, c.id) for c in commands)
    assert earlier.status == CommandStatus.ACCEPTED
    assert later.status == CommandStatus.REJECTED


def test_a_leased_mail_is_sent_by_one_worker_only(tmp_path: Path, smtp_sink: SmtpSink, clean_pg: str) -> None:
    smtp_sink.stop()  # the invitations wait in the outbox
    app = create_app(app_config(tmp_path, clean_pg, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    rt = app.extensions["pbem"]
    with app.app_context():
        new_game(app)
        smtp_sink.start()
        (first, *_) = mails(app)
        with Session(rt.engine) as session:  # due again now
            row = session.get(OutboxMail, first.id)
            row.next_attempt_at = rt.clock.now()
            session.add(row)
            session.commit()
        held = claim(rt, first.id)
        assert held is not None
        assert claim(rt, first.id) is None and deliver(rt, first.id) is None  # another holds the lease
        with Session(rt.engine) as session:  # the lease runs out: the next sender takes it over
            row = session.get(OutboxMail, first.id)
            row.claimed_until = rt.clock.now()
            session.add(row)
            session.commit()
        start = threading.Barrier(2)
        results: list[bool | None] = []

        def send() -> None:
            with app.app_context():
                start.wait()
                results.append(deliver(rt, first.id))

        threads = [threading.Thread(target=send) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results, key=str) == [None, True]
        assert [m.status for m in mails(app) if m.id == first.id] == [MailStatus.SENT]
    assert [m["Message-ID"] for m in smtp_sink.collector.messages].count(first.message_id) == 1
    rt.engine.dispose()


def test_game_ids_never_look_like_options() -> None:
    ids = {new_game_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9]{12}", game_id) for game_id in ids)

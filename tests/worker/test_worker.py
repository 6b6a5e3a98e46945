"""The real Celery worker on Redis: whole games, simultaneous moves, mail delivery and redelivery."""

from __future__ import annotations

import random
import threading
from pathlib import Path

from flask import Flask
from sqlmodel import Session, select

from service.eventlog.models import CommandRecord, CommandStatus, EventRecord, MailStatus
from service.play.hosting import Player, create_game
from service.play.moves import apply_command
from tests.helpers import mails, play_path, wait_until
from tests.service.play import play_by_api
from tests.smtp_sink import SmtpSink, addressee, headline
from tests.worker_process import beat_process

EMAILS = ["ann@example.org", "bo@example.org"]


def new_game(app: Flask, seed: int) -> tuple[str, list[str]]:
    game_id = create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=seed,
    )
    return game_id, [play_path(mails(app, to=e, kind="invitation")[0]) for e in EMAILS]


def test_worker_plays_a_whole_game_and_delivers_every_mail(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    game_id, links = new_game(worker_app, seed=21)
    play_by_api(worker_app.test_client(), links, random.Random(3))
    assert worker_app.extensions["pbem"].read_table(game_id).record.status == "finished"
    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(worker_app)))
    assert len(smtp_sink.collector.messages) == len(mails(worker_app))
    over = [m for m in smtp_sink.collector.messages if headline(m) == "Game over" and addressee(m) in EMAILS]
    assert sorted(addressee(m) for m in over) == EMAILS  # and the host's own


def test_simultaneous_camp_cards_both_apply_exactly_once(worker_app: Flask) -> None:
    game_id, links = new_game(worker_app, seed=4)
    clients = [worker_app.test_client() for _ in links]
    states = [c.get("/api" + link).get_json() for c, link in zip(clients, links, strict=True)]
    start = threading.Barrier(len(links))
    answers: list[int] = []

    def submit(index: int) -> None:
        start.wait()
        action = states[index]["legal_actions"][0]
        response = clients[index].post(
            "/api" + links[index], json={"action": action, "seq": states[index]["seq"]}
        )
        answers.append(response.status_code)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(links))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200]
    with Session(worker_app.extensions["pbem"].engine) as session:
        placed = session.exec(
            select(EventRecord).where(EventRecord.game_id == game_id, EventRecord.type == "CampCardPlaced")
        ).all()
        commands = session.exec(select(CommandRecord).where(CommandRecord.game_id == game_id)).all()
    assert sorted(e.seat for e in placed) == [0, 1]
    assert [c.status for c in commands] == [CommandStatus.ACCEPTED] * 2
    game = worker_app.extensions["pbem"].read_table(game_id)
    assert game.rules.view(game.state, None)["phase"] == "play"


def test_a_command_run_twice_at_once_applies_once(worker_app: Flask) -> None:
    game_id, _ = new_game(worker_app, seed=6)
    rt = worker_app.extensions["pbem"]
    game = rt.read_table(game_id)
    action = game.rules.legal_actions(game.state, 0)[0]
    with Session(rt.engine, expire_on_commit=False) as session:
        command = CommandRecord(
            game_id=game_id, seat=0, seq=game.version, action=action, key="twice", created_at=rt.clock.now()
        )
        session.add(command)
        session.commit()
    start = threading.Barrier(2)

    def run() -> None:
        with worker_app.app_context():
            start.wait()
            apply_command(rt, command.id, game_id)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert rt.read_table(game_id).version == game.version + 1


def test_mail_is_redelivered_after_the_smtp_server_was_down(
    worker_app: Flask, worker_settings: dict, smtp_sink: SmtpSink, tmp_path: Path
) -> None:
    smtp_sink.stop()
    new_game(worker_app, seed=8)
    wait_until(lambda: all(m.attempts >= 1 for m in mails(worker_app)))
    assert all(m.status == MailStatus.PENDING and m.last_error for m in mails(worker_app))
    smtp_sink.start()
    # A failed mail's next try is the beat's sweep's, once its backoff is over (the task's one try).
    with beat_process(worker_settings, tmp_path / "beat.log", tmp_path / "beat-schedule"):
        wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(worker_app)), timeout=60)
    assert len(smtp_sink.collector.messages) == len(mails(worker_app))

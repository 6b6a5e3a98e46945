"""Word of a decided command over Redis: the web waiting on a move hears it instead of polling."""

from __future__ import annotations

import threading
import time

from flask import Flask
from sqlalchemy import event

from service.play.hosting import Player, create_game
from service.play.moves import WORD_LOST_SECONDS
from service.tasks.decided_word import Decisions
from tests.helpers import mails, play_path


def test_word_of_a_decision_reaches_its_listener_and_no_other(redis_url: str) -> None:
    decisions = Decisions(redis_url)
    with decisions.listen(7) as listener, decisions.listen(8) as other:
        assert listener is not None and other is not None
        threading.Timer(0.1, decisions.decided, args=([7],)).start()
        began = time.monotonic()
        assert listener.wait(5)
        assert time.monotonic() - began < 2
        assert not other.wait(0.2)


def test_without_redis_there_is_no_word_and_telling_fails_quietly() -> None:
    decisions = Decisions("redis://127.0.0.1:1/0")  # nothing listens there
    with decisions.listen(7) as listener:
        assert listener is None
    decisions.decided([7])


def test_the_web_reads_a_move_being_decided_when_told_not_every_few_milliseconds(worker_app: Flask) -> None:
    emails = ["ann@example.org", "bo@example.org"]
    players = [Player("Ann", emails[0]), Player("Bo", emails[1])]
    create_game(worker_app.extensions["pbem"], "red_black", players, players[0], seed=5)
    links = [play_path(mails(worker_app, to=e, kind="invitation")[0]) for e in emails]
    client = worker_app.test_client()
    state = next(s for s in (client.get("/api" + link).get_json() for link in links) if s["legal_actions"])
    link = links[state["seat"]]
    reads = []

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("SELECT commands.") and "WHERE commands.id =" in statement:
            reads.append(statement)

    engine = worker_app.extensions["pbem"].engine
    event.listen(engine, "before_cursor_execute", count)
    began = time.monotonic()
    answer = client.post("/api" + link, json={"action": state["legal_actions"][0], "seq": state["seq"]})
    took = time.monotonic() - began
    event.remove(engine, "before_cursor_execute", count)
    assert answer.get_json()["status"] == "accepted"
    # One read when the word comes, plus one per fallback pause the wait lasted.
    assert len(reads) <= 1 + took / WORD_LOST_SECONDS

"""A word sent with a move is in the mails that move causes to the other seats, in every game, with
the real worker on Redis and PostgreSQL: the word is kept in the move's own transaction, at its
step, which the mails are drafted from (it used to be kept after, so they never carried it). The mails
are drafted by the worker that sends them, after the move's commit: the test waits for them."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from service.eventlog.models import OutboxMail, TableTalk
from service.play.hosting import Player, create_game
from tests.helpers import mails, play_path, wait_until

SEATS = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}


def links(app: Flask, emails: list[str]) -> list[str]:
    return [play_path(mails(app, to=email, kind="invitation")[0]) for email in emails]


def move_with_word(client: FlaskClient, link: str, word: str) -> None:
    """The seat's first legal move that is not a fold, through its JSON twin, with a word."""
    state = client.get("/api" + link).get_json()
    action = next(a for a in state["legal_actions"] if "fold" not in a)
    answer = client.post("/api" + link, json={"action": action, "seq": state["seq"], "message": word})
    assert answer.status_code == 200 and answer.get_json()["status"] == "accepted", answer.get_json()


def caused_mails(app: Flask, after_id: int, mover: int) -> list[OutboxMail]:
    """The mails to the other seats written after the row `after_id`, once drafted."""

    def caused() -> list[OutboxMail]:
        return [m for m in mails(app) if (m.id or 0) > after_id and m.seat not in (mover, None)]

    wait_until(lambda: all(m.draft is None for m in caused()))
    return caused()


@pytest.mark.parametrize("game", SEATS)
def test_a_word_sent_with_a_move_is_in_the_mails_it_causes(worker_app: Flask, game: str) -> None:
    rt = worker_app.extensions["pbem"]
    seats = SEATS[game]
    emails = [f"p{seat}@example.org" for seat in range(seats)]
    names = ["Ann", "Bo", "Cy", "Di"][:seats]
    players = [Player(name, email) for name, email in zip(names, emails, strict=True)]
    game_id = create_game(rt, game, players, Player("Host", "h@x.org"), seed=11)
    seat_links = links(worker_app, emails)
    client = worker_app.test_client()
    told = 0
    for number in range(12):
        table = rt.read_table(game_id)
        mover = min(table.rules.to_act(table.state))
        word = f"word {number} from {names[mover]}"
        last = mails(worker_app)[-1].id or 0
        move_with_word(client, seat_links[mover], word)
        caused = caused_mails(worker_app, last, mover)
        assert all(word in m.text_body and word in m.html_body for m in caused), [m.subject for m in caused]
        told += bool(caused)
        if told == 3:
            break
    assert told == 3, "the moves caused no mail to another seat"
    with rt.reading() as session:
        steps = [row.step for row in session.exec(select(TableTalk).order_by(col(TableTalk.id)))]
    assert steps == sorted(steps) and len(steps) == number + 1

"""Plays chosen ahead by replying to a mail, in every game: lines "<situation>: <play>" in the words
the page uses, sent over real SMTP to the reply listener, are stored as the seat's queue and
answered in the thread; a line whose play cannot be read, or a play the rules refuse, is refused and
nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.ahead import THEN
from service.eventlog.models import AheadStatus, InboundStatus
from service.i18n import say
from service.mail.drafting import draft_mail
from service.mail.kinds import MailKind
from service.play.moves import submit_move
from service.replies.move_reader import say_in
from tests.service.ahead_games import GAMES, AheadCase, email, game_with_case, rows
from tests.service.test_replies import inbound_row, latest_mail, reply
from tests.smtp_sink import reply_listening


@pytest.fixture
def listening(pg_app: Flask) -> Iterator[int]:
    """The reply listener on a free local port, for the app on PostgreSQL."""
    with reply_listening(pg_app) as port:
        yield port


def in_words(app: Flask, game_id: str, case: AheadCase) -> str:
    """The case's choice as its seat would write it: the situation and the play as the page says
    them."""
    table = app.extensions["pbem"].read_table(game_id)
    with app.test_request_context():
        situation = say(table.rules.ahead.situation_name(case.situation))
        choices = table.rules.ahead.choices(table.state, case.seat, case.situation)
        label = next(say(label) for action, label in choices if action == case.action)
    return f"{situation}: {label}"


@pytest.mark.parametrize("game", GAMES)
def test_a_reply_chooses_plays_ahead_in_the_pages_words(pg_app: Flask, listening: int, game: str) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, game)
    text = f"Thanks!\n{in_words(pg_app, game_id, case)}\n"
    message_id, _ = reply(listening, latest_mail(pg_app, email(case.seat)).reply_to, text, email(case.seat))
    assert inbound_row(pg_app, message_id).status == InboundStatus.AHEAD
    answer = latest_mail(pg_app, email(case.seat))
    assert answer.kind == "reply_outcome" and "Your plays chosen ahead are saved." in answer.text_body
    client: FlaskClient = pg_app.test_client()
    stored = client.get(f"/api{links[case.seat]}/ahead").get_json()["plays"]
    assert [(p["situation"], p["action"]) for p in stored] == [(case.situation, case.action)]
    for seat, action in case.coming:
        submit_move(rt, game_id, seat, rt.read_table(game_id).version, action)
    assert [row.status for row in rows(pg_app, game_id)] == [AheadStatus.PLAYED]


@pytest.mark.parametrize("game", GAMES)
def test_a_reply_choosing_a_play_that_cannot_be_read_is_refused_and_nothing_is_stored(
    pg_app: Flask, listening: int, game: str
) -> None:
    game_id, _, case = game_with_case(pg_app, game)
    situation = in_words(pg_app, game_id, case).rpartition(":")[0]
    text = f"{situation}: the joker\n"
    message_id, _ = reply(listening, latest_mail(pg_app, email(case.seat)).reply_to, text, email(case.seat))
    assert inbound_row(pg_app, message_id).status == InboundStatus.REFUSED
    answer = latest_mail(pg_app, email(case.seat))
    assert (
        "No play you may choose ahead was found in:" in answer.text_body and "the joker" in answer.text_body
    )
    assert rows(pg_app, game_id) == []


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_mail_says_how_to_choose_ahead_by_reply_and_its_example_is_read(
    pg_app: Flask, listening: int, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, game)
    table = rt.read_table(game_id)
    with pg_app.test_request_context():
        mail = draft_mail(rt, table, MailKind.REPORT, case.seat, {"link": links[case.seat]})
        situations = [
            say(table.rules.ahead.situation_name(s))
            for s in table.rules.ahead.situations(table.state, case.seat)
        ]
    assert mail is not None
    assert "Or choose your coming play ahead: reply with one line per situation, such as" in mail.text_body
    example = mail.text_body.split("such as\n", 1)[1].splitlines()[0].strip()
    assert example.startswith(f"{situations[0]}: ")
    assert f"You may choose for: {' · '.join(situations)}." in mail.text_body
    message_id, _ = reply(listening, mail.reply_to, f"{example}\n", email(case.seat))
    assert inbound_row(pg_app, message_id).status == InboundStatus.AHEAD
    stored = pg_app.test_client().get(f"/api{links[case.seat]}/ahead").get_json()["plays"]
    assert [play["situation"] for play in stored] == [table.rules.ahead.situations(table.state, case.seat)[0]]


def test_a_seat_that_owes_a_move_is_not_told_to_choose_ahead(pg_app: Flask) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, _ = game_with_case(pg_app, "dualis")
    table = rt.read_table(game_id)
    (owing, *_) = sorted(table.rules.to_act(table.state))
    with pg_app.test_request_context():
        mail = draft_mail(rt, table, MailKind.YOUR_TURN, owing, {"link": links[owing]})
    assert mail is not None and "choose your coming play ahead" not in mail.text_body


def test_a_reply_in_japanese_chooses_for_the_trick_after(pg_app: Flask, listening: int) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, "dualis")
    table = rt.read_table(game_id)
    rules = table.rules
    later = [s for s in rules.ahead.situations(table.state, case.seat) if s.startswith(THEN)]
    assert later, "the seat may choose for the trick after"
    action, label = rules.ahead.choices(table.state, case.seat, later[-1])[0]
    with pg_app.test_request_context():
        line = f"{say_in('ja', rules.ahead.situation_name(later[-1]))}: {say_in('ja', label)}"
    assert line.startswith("その次のトリックで")
    message_id, _ = reply(
        listening, latest_mail(pg_app, email(case.seat)).reply_to, f"{line}\n", email(case.seat)
    )
    assert inbound_row(pg_app, message_id).status == InboundStatus.AHEAD
    stored = pg_app.test_client().get(f"/api{links[case.seat]}/ahead").get_json()["plays"]
    assert [(play["situation"], play["action"]) for play in stored] == [(later[-1], action)]

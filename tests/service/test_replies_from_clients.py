"""Replies from every mail program we know the layout of, sent over real SMTP to the reply listener:
the move is applied once, the talk kept is exactly the writer's words (no quote, no signature, none
of the service's links), and the answer names the move and quotes the talk."""

from __future__ import annotations

import email
import re
import smtplib
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlmodel import Session, select

from service.eventlog.models import TableTalk
from tests.helpers import mails
from tests.service.reply_clients import CLIENTS, Client, Words
from tests.service.test_replies import ANN, camp_card, commands, inbound_row, latest_mail, new_duel
from tests.smtp_sink import reply_listening


@pytest.fixture
def listening(app: Flask) -> Iterator[int]:
    """The reply listener on a free local port, for the app under test."""
    with reply_listening(app) as port:
        yield port


def send_raw(port: int, to: str, raw: bytes) -> str:
    """Send a reply's bytes as they are over SMTP; its Message-ID."""
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.sendmail(ANN, [to], re.sub(rb"\r?\n", b"\r\n", raw))  # SMTP lines end in CRLF
    return str(email.message_from_bytes(raw)["Message-ID"])


def talk_kept(app: Flask) -> list[tuple[int, str, bool]]:
    with Session(app.extensions["pbem"].engine) as session:
        return [(row.seat, row.text, row.private) for row in session.exec(select(TableTalk)).all()]


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.name)
def test_a_reply_from_each_mail_program_moves_once_and_keeps_only_its_words(
    app: Flask, listening: int, client: Client
) -> None:
    game_id = new_duel(app)
    invitation = latest_mail(app, ANN)
    card = camp_card(app, game_id, 0)
    raw = client.build(invitation, Words(card, client.talk, greeting_first=True))
    message_id = send_raw(listening, invitation.reply_to, raw)
    assert inbound_row(app, message_id).status == "moved"
    assert [command.action for command in commands(app)] == [{"card": card}]
    assert talk_kept(app) == [(0, client.talk, False)]
    answer = [mail for mail in mails(app, to=ANN) if mail.kind == "reply_outcome"][-1]
    assert "Played: " in answer.text_body and f"({card})" in answer.text_body
    assert client.talk in answer.text_body, "the answer quotes the talk kept"

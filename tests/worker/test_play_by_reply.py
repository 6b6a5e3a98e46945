"""A whole Red and Black Duel played by replying to the mails only: the replies go over real SMTP to
the reply listener, the moves through a real Celery worker on Redis and PostgreSQL, and the next mails
over real SMTP to the players, whose Reply-To the next reply answers."""

from __future__ import annotations

import random
import smtplib
from email.message import EmailMessage, Message
from email.utils import make_msgid

from flask import Flask

from rules import card_name
from rules.messages import plain
from service.eventlog.models import MailStatus
from service.play.hosting import Player, create_game
from tests.helpers import mails, wait_until
from tests.smtp_sink import SmtpSink, reply_listening

EMAILS = ("ann@example.org", "bo@example.org")


def latest_with_reply_to(sink: SmtpSink, address: str) -> Message:
    return [message for message in sink.collector.to(address) if message["Reply-To"]][-1]


def send_reply(port: int, to_mail: Message, sender: str, text: str) -> None:
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = to_mail["Reply-To"]
    reply["Subject"] = f"Re: {to_mail['Subject']}"
    reply["Message-ID"] = make_msgid(domain="example.org")
    reply["In-Reply-To"] = to_mail["Message-ID"]
    reply.set_content(f"{text}\n\nOn Tuesday the card table wrote:\n> Your move\n")
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.send_message(reply)


def all_sent(app: Flask) -> bool:
    return all(mail.status == MailStatus.SENT for mail in mails(app))


def test_a_whole_duel_is_played_by_replies_only(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    rt = worker_app.extensions["pbem"]
    players = [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])]
    game_id = create_game(rt, "red_black", players, Player("Host", "host@example.org"), seed=5)
    rng = random.Random(2)
    with reply_listening(worker_app) as port:
        for _ in range(400):
            table = rt.read_table(game_id)
            if table.result is not None:
                break
            seat = min(table.rules.to_act(table.state))
            wait_until(lambda: all_sent(worker_app))  # the player reads the newest mail
            action = rng.choice(table.rules.legal_actions(table.state, seat))
            words = "fold" if action.get("fold") else plain(card_name("red_black", action["card"]))
            send_reply(port, latest_with_reply_to(smtp_sink, EMAILS[seat]), EMAILS[seat], words)
            wait_until(lambda version=table.version: rt.read_table(game_id).version > version)
    finished = rt.read_table(game_id)
    assert finished.result is not None, "the duel was played to its end by replies"
    answers = [m for m in smtp_sink.collector.messages if m["Subject"] and m["In-Reply-To"]]
    assert answers, "each reply was answered in its own thread"

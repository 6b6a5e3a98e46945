"""A whole Duālis match and a whole Double Side Play match, in English and in Japanese, played only by
sending the replies the mails' own `mailto:` links write: each player opens the newest mail with a
reply address, taps one of its moves' ✉ links, and sends what the mail program wrote (address,
subject, body) as it is. The replies go over real SMTP to the reply listener, the moves through a
real Celery worker on Redis and PostgreSQL, the next mails over real SMTP."""

from __future__ import annotations

import random
import re
import smtplib
from email.message import EmailMessage, Message
from email.utils import make_msgid
from html import unescape
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from flask import Flask

from service.eventlog.models import MailStatus
from service.play.hosting import Player, create_game
from tests.helpers import mails, wait_until
from tests.smtp_sink import SmtpSink, reply_listening, subject

NAMES = ("Ann", "Bo", "Cy")
EMAILS = tuple(f"{name.lower()}@example.org" for name in NAMES)
MAILTO = re.compile(r'data-mail-reply href="(mailto:[^"]+)"')
# Short matches: a seed whose random play ends soon, so that the test stays a few minutes long.
MATCHES = {
    "dualis": ({"short": True, "iso": True}, 0),
    "double_side": ({}, 0),
}


def html_part(message: Message) -> str:
    part = next(p for p in message.walk() if p.get_content_type() == "text/html")
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(part.get_content_charset() or "utf-8")


def newest_turn_mail(sink: SmtpSink, address: str) -> Message:
    """The newest mail to the address that offers moves by mailto: links."""
    return [m for m in sink.collector.to(address) if m["Reply-To"] and MAILTO.search(html_part(m))][-1]


def tap_and_send(port: int, mail: Message, sender: str, rng: random.Random) -> str:
    """Tap one of the mail's ✉ links and send what the mail program wrote; the body sent."""
    link = unescape(rng.choice(MAILTO.findall(html_part(mail))))
    parts = urlsplit(link)
    query = parse_qs(parts.query)
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = unquote(parts.path)
    reply["Subject"] = query["subject"][0]
    reply["Message-ID"] = make_msgid(domain="example.org")
    reply["In-Reply-To"] = mail["Message-ID"]
    reply.set_content(query["body"][0])
    assert reply["To"] == mail["Reply-To"], "the link writes to the mail's own reply address"
    assert reply["Subject"] == f"Re: {subject(mail)}", "the subject is a proper reply's"
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.send_message(reply)
    return query["body"][0]


def all_sent(app: Flask) -> bool:
    return all(mail.status == MailStatus.SENT for mail in mails(app))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_whole_match_is_played_by_the_mails_mailto_links_only(
    worker_app: Flask, smtp_sink: SmtpSink, game: str, language: str
) -> None:
    rt = worker_app.extensions["pbem"]
    # One player sends a whole match's replies within minutes, more than a person does in an hour.
    rt.settings["REPLIES_PER_SEAT_HOUR"] = 1000
    options, seed = MATCHES[game]
    players = [Player(name, email) for name, email in zip(NAMES, EMAILS, strict=True)]
    game_id = create_game(
        rt, game, players, Player("Host", "host@example.org"), options, seed, language=language
    )
    rng = random.Random(seed)
    sent: list[str] = []
    with reply_listening(worker_app) as port:
        for _ in range(400):
            table = rt.read_table(game_id)
            if table.result is not None:
                break
            seat = min(table.rules.to_act(table.state))
            wait_until(lambda: all_sent(worker_app))  # the player reads the newest mail
            sent.append(tap_and_send(port, newest_turn_mail(smtp_sink, EMAILS[seat]), EMAILS[seat], rng))
            wait_until(lambda version=table.version: rt.read_table(game_id).version > version)
    finished = rt.read_table(game_id)
    assert finished.result is not None, "the match was played to its end by the mails' links"
    assert len(sent) >= 20, "every move was a reply written by a mail's link"
    answers: list[Any] = [m for m in smtp_sink.collector.messages if m["In-Reply-To"]]
    assert answers, "each reply was answered in its own thread"
    if language == "ja":
        assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", body) for body in sent), "Japanese bodies"

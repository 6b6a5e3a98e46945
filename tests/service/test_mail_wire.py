"""Mail as it goes on the wire to a real aiosmtpd relay: DKIM signatures that dkimpy's verifier
accepts against the published record for every kind of mail in both languages, one connection for a
burst of mail (and a new one when the kept one died), 8-bit bodies as 8BITMIME or quoted-printable,
short encoded-words, and the headers of an automatic mail (RFC 3834, RFC 2919)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import dkim
import pytest
from flask import Flask
from sqlmodel import Session

from service import create_app
from service.eventlog.models import MailStatus, OutboxMail
from service.mail import relay
from service.mail.delivery import deliver
from service.mail.kinds import MailKind
from service.mail.signing import dns_record, new_key
from service.play.hosting import Player, create_game
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import mails
from tests.smtp_sink import SmtpSink

KEY = new_key()
RECORD = dns_record(KEY).encode()
SELECTOR, DOMAIN = "cards2026", "cards.example"
JAPANESE_SUBJECT = "レッド・アンド・ブラック・デュエル — 花子、太郎、次郎、三郎、四郎、五郎、六郎、七郎、八郎"
JAPANESE_BODY = "あなたの番です。\n" + "手札からカードを一枚選んでください。" * 6 + "\n"


def published(name: bytes, timeout: int = 5) -> bytes | None:
    """The DNS as dkimpy asks it (its `dnsfunc` hook): the one TXT record we published."""
    return RECORD if name == f"{SELECTOR}._domainkey.{DOMAIN}.".encode() else None


def wire_app(tmp_path: Path, sink: SmtpSink, database_url: str | None = None, **extra: str) -> Flask:
    return create_app(
        app_config(
            tmp_path,
            database_url,
            SMTP_HOST="127.0.0.1",
            SMTP_PORT=sink.port,
            MAIL_FROM=f"Card table <cards@{DOMAIN}>",
            DKIM_PRIVATE_KEY=KEY.decode(),
            DKIM_SELECTOR=SELECTOR,
            **extra,
        )
    )


@pytest.fixture(params=["sqlite", "postgres"])
def signing_app(request: pytest.FixtureRequest, tmp_path: Path, smtp_sink: SmtpSink) -> Iterator[Flask]:
    url = request.getfixturevalue("clean_pg") if request.param == "postgres" else None
    app = wire_app(tmp_path, smtp_sink, url)
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()


def row(app: Flask, kind: MailKind, language: str, seat: int | None) -> int:
    """An outbox row of this kind as drafting writes it (its reply address for a seat, its unsubscribe
    link unless it is about no game), in this language."""
    rt = app.extensions["pbem"]
    now = rt.clock.now()
    japanese = language == "ja"
    mail = OutboxMail(
        kind=kind,
        seat=seat,
        to_name="太郎" if japanese else "Bo",
        to_email="bo@example.org",
        subject=JAPANESE_SUBJECT if japanese else "Red and Black Duel — Ann, Bo",
        text_body=(JAPANESE_BODY if japanese else "Your move.\n") + "http://localhost/play/" + "x" * 120,
        html_body=f"<p>{JAPANESE_BODY if japanese else 'Your move.'}</p>",
        message_id=f"<{kind}.{language}.{seat}@{DOMAIN}>",
        thread_id=f"<thread.{seat}@{DOMAIN}>",
        unsubscribe_url="" if not kind.about_one_game else "http://localhost/unsubscribe/" + "t" * 90,
        language=language,
        reply_to=f"play+abc.def@{DOMAIN}" if seat is not None else "",
        status=MailStatus.PENDING,
        created_at=now,
        next_attempt_at=now,
    )
    with Session(rt.engine) as session:
        session.add(mail)
        session.commit()
        assert mail.id is not None
        return mail.id


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_kind_of_mail_is_signed_so_that_it_verifies(
    signing_app: Flask, smtp_sink: SmtpSink, language: str
) -> None:
    rt = signing_app.extensions["pbem"]
    for kind in MailKind:
        for seat in (None, 1):
            assert deliver(rt, row(signing_app, kind, language, seat)) is True
    assert len(smtp_sink.collector.received) == 2 * len(MailKind)
    for received in smtp_sink.collector.received:
        assert received.content.startswith(b"DKIM-Signature:")
        assert dkim.verify(received.content, dnsfunc=published), received.content[:400]
        signed = re.search(rb"h=([^;]+);", re.sub(rb"\r\n\s+", b" ", received.content)).group(1)  # type: ignore[union-attr]
        names = {name.strip().lower() for name in signed.split(b":")}
        assert {b"from", b"subject", b"date", b"message-id"} <= names
        if b"\r\nList-Unsubscribe:" in received.content:
            assert {b"list-unsubscribe", b"list-unsubscribe-post", b"list-id"} <= names
        if b"\r\nReply-To:" in received.content:
            assert b"reply-to" in names


def test_a_games_real_mails_verify_in_both_languages(signing_app: Flask, smtp_sink: SmtpSink) -> None:
    rt = signing_app.extensions["pbem"]
    for language in ("en", "ja"):
        people = [
            Player("花子" if language == "ja" else "Ann", "ann@example.org"),
            Player("Bo", "bo@example.org"),
        ]
        create_game(rt, "red_black", people, Player("Hosta", "host@example.org"), seed=1, language=language)
    assert len(smtp_sink.collector.received) == 6
    assert all(dkim.verify(r.content, dnsfunc=published) for r in smtp_sink.collector.received)
    tampered = smtp_sink.collector.received[0].content.replace(b"Subject: ", b"Subject: Fwd: ", 1)
    assert not dkim.verify(tampered, dnsfunc=published)


def a_game(rt: Runtime) -> None:
    """A game made, and its three mails sent: the two invitations and the host's."""
    create_game(rt, "red_black", [Player("Ann", "a@x.org"), Player("Bo", "b@x.org")], Player("H", "h@x.org"))


def sent_at_first_attempt(app: Flask) -> bool:
    """Whether every mail went out at its first attempt (none waited out a backoff)."""
    return all(m.status == MailStatus.SENT and m.attempts == 1 and not m.last_error for m in mails(app))


def test_a_burst_of_mail_costs_one_handshake_and_a_dead_connection_is_replaced(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    app = wire_app(tmp_path, smtp_sink)
    with app.app_context():
        rt = app.extensions["pbem"]
        for _ in range(3):
            a_game(rt)
        assert len(smtp_sink.collector.received) == 9
        assert {r.connection for r in smtp_sink.collector.received} == {1}
        smtp_sink.stop()  # the relay goes away (a restart, an idle timeout): the kept session is dead
        smtp_sink.start()
        a_game(rt)
    assert sent_at_first_attempt(app)  # the dead session cost no mail a retry later
    assert [r.connection for r in smtp_sink.collector.received[9:]] == [2, 2, 2]


def test_a_session_used_a_moment_ago_is_not_probed_and_an_idle_one_is(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    app = wire_app(tmp_path, smtp_sink)
    with app.app_context():
        rt = app.extensions["pbem"]
        a_game(rt)
        assert smtp_sink.collector.noops == 0  # a burst: no round trip but the mail's own
        time.sleep(relay.PROBE_AFTER_SECONDS + 0.2)
        a_game(rt)
        assert smtp_sink.collector.noops == 1  # the idle session was asked once, then the burst went on
    assert sent_at_first_attempt(app)
    assert {r.connection for r in smtp_sink.collector.received} == {1}


def test_a_session_the_relay_closed_while_idle_is_replaced_and_the_mail_sent_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        relay, "PROBE_AFTER_SECONDS", 60
    )  # no NOOP finds it closed: the mail's MAIL FROM does
    sink = SmtpSink(idle_timeout=0.5)
    sink.start()
    try:
        app = wire_app(tmp_path, sink)
        with app.app_context():
            rt = app.extensions["pbem"]
            a_game(rt)
            time.sleep(1)  # the relay closes the idle session
            a_game(rt)
    finally:
        sink.stop()
    assert sent_at_first_attempt(app)
    assert [r.connection for r in sink.collector.received] == [1, 1, 1, 2, 2, 2]
    assert sink.collector.noops == 0


def encoded_words(raw: bytes) -> list[bytes]:
    head = raw.split(b"\r\n\r\n", 1)[0]
    return re.findall(rb"=\?[^?]+\?[bBqQ]\?[^?]*\?=", head)


def body_lines(raw: bytes) -> list[bytes]:
    return raw.split(b"\r\n\r\n", 1)[1].split(b"\r\n")


def japanese_game(app: Flask) -> None:
    people = [Player("花子", "ann@example.org"), Player("太郎", "bo@example.org")]
    create_game(
        app.extensions["pbem"], "red_black", people, Player("Hosta", "host@example.org"), language="ja"
    )


def test_eight_bit_bodies_go_as_8bitmime_to_a_relay_that_offers_it(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    app = wire_app(tmp_path, smtp_sink)
    with app.app_context():
        japanese_game(app)
    for received in smtp_sink.collector.received:
        assert "BODY=8BITMIME" in received.mail_options
        assert b"Content-Transfer-Encoding: 8bit" in received.content
        assert all(len(word) <= 75 for word in encoded_words(received.content))
        assert encoded_words(received.content), "the Japanese subject goes RFC 2047-encoded"


def test_eight_bit_bodies_go_quoted_printable_to_a_seven_bit_relay(tmp_path: Path) -> None:
    sink = SmtpSink(eight_bit=False)
    sink.start()
    try:
        app = wire_app(tmp_path, sink)
        with app.app_context():
            japanese_game(app)
    finally:
        sink.stop()
    assert len(sink.collector.received) == 3
    for received in sink.collector.received:
        assert "BODY=8BITMIME" not in received.mail_options and received.content.isascii()
        assert b"Content-Transfer-Encoding: quoted-printable" in received.content
        assert all(len(line) <= 78 for line in body_lines(received.content))
        assert dkim.verify(received.content, dnsfunc=published)


def test_every_mail_is_marked_automatic_with_its_list_headers(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = wire_app(tmp_path, smtp_sink)
    with app.app_context():
        japanese_game(app)
    for message in smtp_sink.collector.messages:
        assert message["Auto-Submitted"] == "auto-generated"
        assert message["List-Unsubscribe"] and message["List-Id"].endswith(".pbem.localhost>")
        assert message["List-Unsubscribe"].startswith("<http://localhost/unsubscribe/")  # one unfolded URL

"""The reply listener's door and the trust of a reply, over the real aiosmtpd listener: what it
accepts is recorded and answered before its 250 (what it will not read is refused at SMTP with a
reason), a few mails are read at once, a stranger's address is never repeated, a From that the
receiving mail exchanger found forged is refused, old reply addresses expire, and control
characters never reach a query."""

from __future__ import annotations

import base64
import smtplib
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from flask import Flask
from sqlalchemy import text
from sqlmodel import Session, select

from service.config import secret_keys
from service.eventlog.models import InboundMail
from service.links import ReplyAddresses, ReplyLink
from service.mail.drafting import reply_address
from service.replies.answering import receive_reply
from service.replies.intake import MAX_MAIL_BYTES, from_forged
from service.replies.listener import reply_listener
from tests.helpers import SteppingClock, mails
from tests.service.test_replies import (
    ANN,
    camp_card,
    commands,
    inbound_row,
    latest_mail,
    new_duel,
    reply,
)
from tests.smtp_sink import free_port, reply_listening

TRUSTED = "mx.pbem.example"


@pytest.fixture
def listening(app: Flask) -> Iterator[int]:
    with reply_listening(app) as port:
        yield port


def row_now(app: Flask, message_id: str) -> InboundMail | None:
    """The mail's row as it is at this moment (no waiting)."""
    with Session(app.extensions["pbem"].engine) as session:
        return session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).first()


def answers(app: Flask) -> list[str]:
    return [m.text_body for m in mails(app, to=ANN) if m.kind == "reply_outcome"]


def raw_mail(to: str, body: str, sender: str = ANN, message_id: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: your move"
    message["Message-ID"] = message_id or make_msgid(domain="example.org")
    message.set_content(body)
    return message.as_bytes()


def test_a_mail_over_the_limit_is_refused_at_smtp_with_a_reason(app: Flask, listening: int) -> None:
    new_duel(app)
    message_id = make_msgid(domain="example.org")
    raw = raw_mail(latest_mail(app, ANN).reply_to, "x" * 70 + "\n" * 1, message_id=message_id)
    raw += (b"y" * 76 + b"\r\n") * (300 * 1024 // 78)  # 300 kB: over 256, under 512
    with smtplib.SMTP("127.0.0.1", listening) as client:
        client.ehlo()
        client.mail(ANN)  # no SIZE announced: the limit is met while the data comes
        client.rcpt(latest_mail(app, ANN).reply_to)
        code, said = client.data(raw)
    assert code == 552 and b"5.3.4" in said and b"256 kB" in said
    assert row_now(app, message_id) is None and commands(app) == []


def test_a_mail_that_comes_too_large_another_way_is_recorded_and_answered(app: Flask) -> None:
    game_id = new_duel(app)
    to, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    raw = raw_mail(to, card + "\n" + "filler line\n" * (MAX_MAIL_BYTES // 12))
    outcome = receive_reply(app.extensions["pbem"], raw, [to])  # as an IMAP mailbox hands it over
    assert outcome.status == "refused" and commands(app) == []
    assert "too large" in answers(app)[-1]


def test_a_mail_just_under_the_limit_is_read(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, card + "\n" + "z" * 240_000, ANN)
    assert inbound_row(app, message_id).status == "moved"


def nested(to: str, depth: int, message_id: str) -> bytes:
    """A mail of `depth` multiparts one inside the other, a move at the bottom."""
    head = f"From: {ANN}\r\nTo: {to}\r\nMessage-ID: {message_id}\r\nMIME-Version: 1.0\r\n".encode()
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nfold\r\n" + closing


def test_a_deeply_nested_mail_is_recorded_and_answered(app: Flask, listening: int) -> None:
    new_duel(app)
    to, message_id = latest_mail(app, ANN).reply_to, make_msgid(domain="example.org")
    with smtplib.SMTP("127.0.0.1", listening) as client:
        client.sendmail(ANN, [to], nested(to, 2000, message_id))
    assert inbound_row(app, message_id, timeout=5).status == "refused"
    assert "nested" in answers(app)[-1] and commands(app) == []


def test_an_accepted_mail_is_recorded_before_its_250(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, card, ANN)
    row = row_now(app, message_id)  # no waiting: the 250 came after the reading
    assert row is not None and row.status == "moved"


def test_mails_beyond_the_readers_are_told_to_try_later(pg_app: Flask) -> None:
    game_id = new_duel(pg_app)
    to, card = latest_mail(pg_app, ANN).reply_to, camp_card(pg_app, game_id, 0)
    port = free_port()
    listener = reply_listener(pg_app, "127.0.0.1", port, readers=1, waiting=0)
    listener.start()
    engine = pg_app.extensions["pbem"].engine
    first_id, results = make_msgid(domain="example.org"), {}

    def send_first() -> None:
        with smtplib.SMTP("127.0.0.1", port) as client:
            results["first"] = client.sendmail(ANN, [to], raw_mail(to, card, message_id=first_id))

    try:
        with engine.connect() as holder:  # the one reader waits on this lock
            holder.execute(text("LOCK TABLE inbound_mails IN EXCLUSIVE MODE"))
            sender = threading.Thread(target=send_first)
            sender.start()
            sender.join(2)
            assert sender.is_alive(), "the first mail waits for its reading, then gets its 250"
            with smtplib.SMTP("127.0.0.1", port) as client, pytest.raises(smtplib.SMTPDataError) as busy:
                client.sendmail(ANN, [to], raw_mail(to, "hello"))
            assert busy.value.smtp_code == 451 and b"4.3.2" in busy.value.smtp_error
            holder.rollback()
        sender.join(20)
        assert results["first"] == {} and row_now(pg_app, first_id) is not None
    finally:
        listener.stop()


def test_a_strangers_address_is_not_repeated_to_the_seat(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    stranger = '"Cheap pills at spam.example" <eve@spam.example>'
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0), stranger)
    assert inbound_row(app, message_id).status == "refused"
    (answer,) = answers(app)
    assert "another address" in answer and "spam" not in answer and "eve" not in answer


def test_a_from_found_forged_by_the_trusted_exchanger_is_refused(app: Flask, listening: int) -> None:
    app.extensions["pbem"].settings["INBOUND_AUTHSERV_ID"] = TRUSTED
    game_id = new_duel(app)
    to, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    verdicts = {
        f"{TRUSTED}; dmarc=fail (p=reject) header.from=example.org": "refused",
        f"{TRUSTED}; spf=fail smtp.mailfrom=ann@example.org; dmarc=none header.from=example.org": "refused",
        # Another authserv-id is the sender's own word: ignored.
        "mx.elsewhere.example; dmarc=fail header.from=example.org": "moved",
    }
    for header, status in verdicts.items():
        message_id, _ = reply(listening, to, card, ANN, Authentication_Results=header)
        assert inbound_row(app, message_id).status == status, header
    assert "sender checks" in answers(app)[0]


def test_without_dmarc_a_pass_of_the_from_domain_outweighs_a_failed_check() -> None:
    def forged(results: str) -> bool:
        raw = f"From: {ANN}\r\nAuthentication-Results: {TRUSTED}; {results}\r\n\r\nfold\r\n"
        return from_forged(raw.encode(), TRUSTED)

    assert forged("dkim=fail header.d=example.org")
    assert not forged("dkim=fail header.d=example.org; dkim=pass header.d=example.org")
    assert not forged("spf=fail smtp.mailfrom=bounce@lists.example.net")  # not the From's domain
    assert not forged("dmarc=pass header.from=example.org; spf=fail smtp.mailfrom=ann@example.org")


def undated_token(app: Flask, link: ReplyLink) -> str:
    """A reply token as made before tokens carried their day: `game.seat.key.seq`, base32, HMAC."""
    addresses = ReplyAddresses(secret_keys(app.extensions["pbem"].settings))
    fields = f"{link.game_id}.{link.seat}.{link.key_version}.{link.seq}".encode()
    body = base64.b32encode(fields).decode().rstrip("=").lower()
    return f"{body}.{addresses._mac(addresses._keys[0], body)}"


def test_an_old_reply_address_is_refused_and_a_new_one_works(app: Flask, listening: int) -> None:
    rt = app.extensions["pbem"]
    rt.clock = clock = SteppingClock()
    game_id = new_duel(app)
    old, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    clock.advance(days=61)
    message_id, _ = reply(listening, old, card, ANN)
    assert inbound_row(app, message_id).status == "refused" and commands(app) == []
    assert "too old" in answers(app)[-1] and "latest mail" in answers(app)[-1]
    fresh = reply_address(rt, rt.read_table(game_id), 0)
    message_id, _ = reply(listening, fresh, card, ANN)
    assert inbound_row(app, message_id).status == "moved"


def test_an_undated_reply_address_is_as_old_as_its_step(app: Flask, listening: int) -> None:
    rt = app.extensions["pbem"]
    rt.clock = clock = SteppingClock()
    game_id = new_duel(app)
    table = rt.read_table(game_id)
    link = ReplyLink(game_id, 0, table.seats[0].key_version, table.version)
    address = f"play+{undated_token(app, link)}@{rt.settings['MAIL_DOMAIN']}"
    clock.advance(days=59)
    message_id, _ = reply(listening, address, camp_card(app, game_id, 0), ANN)
    assert inbound_row(app, message_id).status == "moved"
    clock.advance(days=2)
    message_id, _ = reply(listening, address, "hello again", ANN)
    assert inbound_row(app, message_id).status == "refused" and "too old" in answers(app)[-1]


@pytest.mark.parametrize("where", ["message_id", "from", "recipient"])
def test_control_characters_in_a_mails_ids_never_reach_a_query(
    app: Flask, listening: int, where: str
) -> None:
    game_id = new_duel(app)
    to, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    message_id = make_msgid(domain="example.org")
    sender, recipient = ANN, to
    if where == "message_id":
        message_id = message_id.replace("@", "\x00\x01@")
    elif where == "from":
        sender = ANN.replace("@", "\x00@")
    else:
        recipient = to.replace("@", "\x00@")
    raw = f"From: {sender}\r\nTo: {recipient}\r\nMessage-ID: {message_id}\r\n\r\n{card}\r\n"
    with smtplib.SMTP("127.0.0.1", listening) as client:
        assert client.sendmail(ANN, [recipient], raw.encode()) == {}  # answered 250: read
    row = row_now(app, message_id.replace("\x00", "").replace("\x01", ""))
    expected = {"message_id": "moved", "from": "refused", "recipient": "ignored"}[where]
    assert row is not None and row.status == expected


def test_a_dated_reply_address_fits_a_local_part(app: Flask) -> None:
    rt = app.extensions["pbem"]
    table = rt.read_table(new_duel(app))
    local = reply_address(rt, table, 0).split("@")[0]
    assert len(local) <= 64 and rt.signer.read_reply(local.removeprefix("play+")).issued_day is not None

"""Bounces over the real listener: every mail goes out from a return path naming its outbox row, and
what each mail server sends back there (in its own format, over SMTP) marks a seat's address
unreachable (permanent) or not yet (temporary, until 72 hours of them); the host is mailed once,
every page says so in both languages, no more mail goes to the address, a corrected address brings
the seat back with a fresh link. Forged, old, replayed or foreign reports change nothing and nothing
sent to a return path is ever answered."""

from __future__ import annotations

import smtplib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.test import TestResponse

from service import create_app
from service.eventlog.models import (
    BounceRecord,
    GameRecord,
    InboundMail,
    MailStatus,
    OutboxMail,
    SeatKeeper,
    SeatRecord,
)
from service.mail.delivery import deliver
from service.mail.unreachable import Failure, record_failure
from service.play.hosting import Player, create_game
from service.replies.bounces import bounce_tokens
from service.replies.listener import Mailbox, poll_mailbox
from tests.conftest import app_config, unavailable
from tests.helpers import PLAY_LINK, SteppingClock, forms, mails
from tests.mail_store import PASSWORD, OwnDovecot
from tests.service.bounce_formats import PERMANENT, TEMPORARY, complaint
from tests.service.turns import beat, people, play, stepping
from tests.service.turns import new_game as timed_game
from tests.smtp_sink import SmtpSink, reply_listening

ANN, BO, HOST = "ann@example.org", "bo@example.org", "host@example.org"


@pytest.fixture(params=["sqlite", "postgres"])
def relay_app(request: pytest.FixtureRequest, tmp_path: Path, smtp_sink: SmtpSink) -> Iterator[Flask]:
    """The app sending by SMTP to a real aiosmtpd relay, on SQLite and on the real PostgreSQL."""
    url = request.getfixturevalue("clean_pg") if request.param == "postgres" else None
    app = create_app(app_config(tmp_path, url, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    app.extensions["pbem"].clock = SteppingClock()
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()


@pytest.fixture
def listening(relay_app: Flask) -> Iterator[int]:
    with reply_listening(relay_app) as port:
        yield port


def new_game(app: Flask) -> str:
    rt = app.extensions["pbem"]
    people = [Player("Ann", ANN), Player("Bo", BO)]
    return create_game(rt, "red_black", people, Player("Hosta", HOST), seed=1)


def move_everyone(app: Flask) -> None:
    """Each seat that may move makes its first legal move, by its latest link."""
    client = app.test_client()
    for address in (ANN, BO):
        sent = [m for m in mails(app, to=address) if PLAY_LINK.search(m.text_body)]
        if not sent:
            continue
        link = PLAY_LINK.search(sent[-1].text_body)
        assert link is not None
        state = client.get("/api" + link.group(1)).get_json()
        if state.get("legal_actions"):
            client.post(
                "/api" + link.group(1), json={"action": state["legal_actions"][0], "seq": state["seq"]}
            )


def turn_mail_to(app: Flask, address: str) -> OutboxMail:
    """The latest mail asking `address` for a move (its invitation if none came since)."""
    asked = [m for m in mails(app, to=address) if m.kind in ("your_turn", "invitation")]
    assert asked and asked[-1].status == MailStatus.SENT
    return asked[-1]


def original_headers(mail: OutboxMail) -> str:
    return (
        f"From: Card table <cards@localhost>\r\nTo: Bo <{mail.to_email}>\r\nSubject: {mail.subject}\r\n"
        f"Message-ID: {mail.message_id}\r\n"
    )


def return_path_of(sink: SmtpSink, mail: OutboxMail) -> str:
    return sink.collector.envelope_of(mail.message_id).mail_from


def deliver_report(port: int, return_path: str, report: bytes) -> None:
    """Hand a report to the listener as a mail server does: from the null sender <>."""
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.sendmail("<>", [return_path], report)


def seat(app: Flask, game_id: str, number: int) -> SeatRecord:
    with Session(app.extensions["pbem"].engine) as session:
        found = session.get(SeatRecord, (game_id, number))
        assert found is not None
        return found


def inbound_statuses(app: Flask) -> list[str]:
    with Session(app.extensions["pbem"].engine) as session:
        return [row.status for row in session.exec(select(InboundMail)).all()]


def bounced(app: Flask) -> list[BounceRecord]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(BounceRecord)).all())


def started(app: Flask) -> str:
    game_id = new_game(app)
    move_everyone(app)
    return game_id


def host_link(app: Flask) -> str:
    (setup,) = mails(app, to=HOST, kind="host")
    return setup.text_body.split("http://localhost")[1].split()[0]


def test_every_mail_goes_out_from_a_signed_return_path_naming_its_row(
    relay_app: Flask, smtp_sink: SmtpSink
) -> None:
    started(relay_app)
    sent = [m for m in mails(relay_app) if m.status == MailStatus.SENT]
    assert sent
    signer = relay_app.extensions["pbem"].signer
    for mail in sent:
        received = smtp_sink.collector.envelope_of(mail.message_id)
        (token,) = bounce_tokens([received.mail_from])
        local_part = received.mail_from.rpartition("@")[0]
        assert received.mail_from.endswith("@pbem.localhost") and len(local_part) <= 64
        assert local_part == local_part.lower()
        assert signer.read_bounce(token).mail_id == mail.id
        message = smtp_sink.collector.messages[smtp_sink.collector.received.index(received)]
        assert message["From"] == "Card table <cards@localhost>"  # the From stays as it is


@pytest.mark.parametrize("mta", sorted(PERMANENT))
def test_a_permanent_bounce_of_a_turn_mail_makes_the_seat_unreachable(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int, mta: str
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    report = PERMANENT[mta](return_path_of(smtp_sink, turn), BO, original_headers(turn), True)
    received_before = len(smtp_sink.collector.received)
    deliver_report(listening, return_path_of(smtp_sink, turn), report)

    bo = seat(relay_app, game_id, 1)
    assert bo.unreachable_at is not None and "5." in bo.unreachable_reason
    (told,) = mails(relay_app, to=HOST, kind="unreachable")
    assert told.text_body.startswith(
        "Mail to Bo is not arriving"
    )  # the host knows the address: the reason may name it
    assert len(smtp_sink.collector.received) == received_before + 1  # the host's mail; no answer to <>
    assert inbound_statuses(relay_app) == ["bounce"]

    # The same report again changes nothing, and the host is not mailed twice.
    deliver_report(listening, return_path_of(smtp_sink, turn), report)
    assert len(mails(relay_app, to=HOST, kind="unreachable")) == 1 and len(bounced(relay_app)) == 1


def test_an_unreachable_seat_shows_on_every_page_in_both_languages_and_gets_no_more_mail(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    deliver_report(
        listening,
        return_path_of(smtp_sink, turn),
        PERMANENT["postfix"](return_path_of(smtp_sink, turn), BO, original_headers(turn), True),
    )
    client = relay_app.test_client()
    host_page = client.get(host_link(relay_app)).get_data(as_text=True)
    assert "Mail to Bo is not arriving" in host_page and "Correct the address" in host_page
    ann_link = PLAY_LINK.search(mails(relay_app, to=ANN)[-1].text_body).group(1)  # type: ignore[union-attr]
    ann_page = client.get(ann_link).get_data(as_text=True)
    assert "Mail to Bo is not arriving." in ann_page and BO not in ann_page
    ann_ja = client.get(ann_link, headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "Boさんへのメールが届いていません。" in ann_ja
    bo_link = PLAY_LINK.search(turn.text_body).group(1)  # type: ignore[union-attr]
    bo_page = client.get(bo_link).get_data(as_text=True)
    assert "Mail to your address is not arriving" in bo_page and "/address" in bo_page

    to_bo = len(mails(relay_app, to=BO))
    for _ in range(3):
        move_everyone(relay_app)
    assert len(mails(relay_app, to=BO)) == to_bo, "no mail to a dead mailbox"


@pytest.mark.parametrize("mta", sorted(TEMPORARY))
def test_temporary_failures_make_a_seat_unreachable_only_after_72_hours(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int, mta: str
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    clock = relay_app.extensions["pbem"].clock
    for hours in (4, 20, 24):  # 4, 24 and 48 hours after the mail went
        clock.advance(hours=hours)
        deliver_report(listening, path, TEMPORARY[mta](path, BO, original_headers(turn), False))
        assert seat(relay_app, game_id, 1).unreachable_at is None
    assert mails(relay_app, to=HOST, kind="unreachable") == []
    clock.advance(hours=25)  # 73 hours after the mail went
    deliver_report(listening, path, TEMPORARY[mta](path, BO, original_headers(turn), False))
    assert seat(relay_app, game_id, 1).unreachable_at is not None
    assert len(mails(relay_app, to=HOST, kind="unreachable")) == 1


def test_a_corrected_address_brings_the_seat_back_with_a_fresh_link(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    deliver_report(listening, path, PERMANENT["gmail"](path, BO, original_headers(turn), True))
    client = relay_app.test_client()
    page = client.get(host_link(relay_app)).get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    answer = client.post(
        host_link(relay_app) + "/seats/1/address", data={"csrf_token": csrf, "email": "bo@example.net"}
    )
    assert answer.status_code == 303
    bo = seat(relay_app, game_id, 1)
    assert bo.unreachable_at is None and bo.email == "bo@example.net" and bo.key_version == 2
    (fresh,) = mails(relay_app, to="bo@example.net", kind="link_reissued")
    assert fresh.status == MailStatus.SENT
    old_link = PLAY_LINK.search(turn.text_body).group(1)  # type: ignore[union-attr]
    new_link = PLAY_LINK.search(fresh.text_body).group(1)  # type: ignore[union-attr]
    assert client.get(old_link).status_code != 200 and client.get(new_link).status_code == 200
    assert "not arriving" not in client.get(new_link).get_data(as_text=True)
    # A late report about the old address changes nothing now.
    deliver_report(listening, path, PERMANENT["exim"](path, BO, original_headers(turn), True))
    assert seat(relay_app, game_id, 1).unreachable_at is None


def test_the_player_gives_a_working_address_from_their_own_page(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    deliver_report(listening, path, PERMANENT["qmail"](path, BO, original_headers(turn), True))
    client = relay_app.test_client()
    link = PLAY_LINK.search(turn.text_body).group(1)  # type: ignore[union-attr]
    page = client.get(link).get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    assert (
        client.post(link + "/address", data={"csrf_token": csrf, "email": "bo@example.net"}).status_code
        == 303
    )
    assert seat(relay_app, game_id, 1).unreachable_at is None
    assert mails(relay_app, to="bo@example.net", kind="link_reissued")


def test_a_refusal_at_send_time_is_a_permanent_bounce(relay_app: Flask, smtp_sink: SmtpSink) -> None:
    smtp_sink.collector.refuse.add(BO)
    game_id = new_game(relay_app)
    (invitation,) = mails(relay_app, to=BO, kind="invitation")
    assert invitation.status == MailStatus.REFUSED and "5.1.1" in (invitation.last_error or "")
    assert seat(relay_app, game_id, 1).unreachable_at is not None
    assert len(mails(relay_app, to=HOST, kind="unreachable")) == 1
    assert smtp_sink.collector.to(ANN), "the other mails of the same connection still went"


def test_a_complaint_turns_the_seats_mail_off_and_tells_the_host(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    deliver_report(listening, path, complaint(path, BO, original_headers(turn)))
    assert seat(relay_app, game_id, 1).notify == "none"
    (told,) = mails(relay_app, to=HOST, kind="complaint")
    assert "Bo" in told.text_body


def nested(depth: int) -> bytes:
    """Headers opening `depth` multiparts one inside the other (a mail built to exhaust a parser)."""
    return b"".join(
        b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (i, i) for i in range(depth)
    )


def forged(path: str) -> str:
    local, _, domain = path.partition("@")
    body, _, mac = local.partition(".")
    return f"{body}.{'0' * len(mac)}@{domain}"


def test_bad_reports_are_dropped_counted_and_never_answered(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    headers = original_headers(turn)
    sent_before = len(smtp_sink.collector.received)
    bad = [
        (forged(path), PERMANENT["postfix"](forged(path), BO, headers, True)),  # forged token
        (path[:20] + "@pbem.localhost", PERMANENT["postfix"](path, BO, headers, True)),  # truncated
        (
            path,
            PERMANENT["postfix"](path, BO, headers.replace(turn.message_id, "<other@x>"), True),
        ),  # not ours
        (path, PERMANENT["postfix"](path, "cy@example.org", "", True)),  # about another address
        (
            path,
            PERMANENT["postfix"](path, BO, "Content-Type: multipart/report\r\nTo: " + path + "\r\n", True),
        ),
        (path, b"From: someone@example.org\r\nSubject: hello\r\n\r\nJust a note.\r\n"),  # no report at all
        (path, nested(2000) + PERMANENT["postfix"](path, BO, headers, True)),  # too deeply nested to read
    ]
    for address, report in bad:
        deliver_report(listening, address, report)
    with pytest.raises(smtplib.SMTPException):  # too large: refused at SMTP, before it is read
        deliver_report(listening, path, PERMANENT["postfix"](path, BO, headers, True) + b"x" * 300_000)
    assert seat(relay_app, game_id, 1).unreachable_at is None and bounced(relay_app) == []
    assert inbound_statuses(relay_app).count("dropped") == 7
    # Expired: a report about a mail sent 31 days ago.
    relay_app.extensions["pbem"].clock.advance(days=31)
    deliver_report(listening, path, PERMANENT["gmail"](path, BO, headers, True))
    assert seat(relay_app, game_id, 1).unreachable_at is None
    assert len(smtp_sink.collector.received) == sent_before, "no answer to anything at a return path"


def test_a_complaint_about_an_address_that_left_the_table_changes_nothing(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    game_id = started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    client = relay_app.test_client()
    page = client.get(host_link(relay_app)).get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    replaced = client.post(
        host_link(relay_app) + "/seats/1/replace",
        data={"csrf_token": csrf, "name": "Cy", "email": "cy@example.org"},
    )
    assert replaced.status_code == 303
    deliver_report(listening, path, complaint(path, BO, original_headers(turn)))
    deliver_report(listening, path, PERMANENT["yahoo"](path, BO, original_headers(turn), True))
    cy = seat(relay_app, game_id, 1)
    assert cy.notify == "turn" and cy.unreachable_at is None and bounced(relay_app) == []
    assert (
        mails(relay_app, to=HOST, kind="complaint") == [] and inbound_statuses(relay_app) == ["dropped"] * 2
    )


def test_an_unreachable_seat_out_of_time_is_for_the_host_to_decide(app: Flask) -> None:
    """The table's rule is the seat-keeper, but a player whose mail never arrived is not replaced
    by it: the host is asked first."""
    rt, clock = stepping(app)
    game_id = timed_game(rt, "red_black", people("Ann", "Bo"))
    (invitation,) = mails(app, to=BO, kind="invitation")
    assert invitation.id is not None
    assert (
        record_failure(rt, invitation.id, Failure.permanent("5.1.1", "550 5.1.1 User unknown")) == "recorded"
    )
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=24, minutes=1).timeouts == 1
    assert rt.read_table(game_id).seats[1].keeper == SeatKeeper.PLAYER
    (asked,) = mails(app, kind="host_asked")
    assert asked.seat is None and "Bo ran out of time" in asked.text_body
    assert mails(app, to=BO, kind="seat_keeper") == []


def test_a_mail_drafted_before_the_bounce_is_held_not_sent(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    started(relay_app)
    turn = turn_mail_to(relay_app, BO)
    smtp_sink.stop()  # the relay is away: the next mails wait in the outbox
    move_everyone(relay_app)
    waiting = [m for m in mails(relay_app, to=BO) if m.status == MailStatus.PENDING]
    assert waiting
    smtp_sink.start()
    path = return_path_of(smtp_sink, turn)
    deliver_report(listening, path, PERMANENT["ses"](path, BO, original_headers(turn), True))
    received = len(smtp_sink.collector.received)
    for mail in waiting:
        assert mail.id is not None and deliver(relay_app.extensions["pbem"], mail.id) is None
    assert {m.status for m in mails(relay_app, to=BO) if m.id in {w.id for w in waiting}} == {MailStatus.HELD}
    assert len(smtp_sink.collector.received) == received


def game_record(app: Flask, game_id: str) -> GameRecord:
    with Session(app.extensions["pbem"].engine) as session:
        found = session.get(GameRecord, game_id)
        assert found is not None
        return found


def test_a_bounce_of_the_hosts_mail_marks_the_host_unreachable_until_corrected(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    """The host's own mail (the host page's link) bounces: the host page says so in both languages
    with a way to give a working address, the host is mailed nothing more (not even about a seat's
    dead mailbox), and a corrected address gets a new host link, the old one stopping."""
    game_id = started(relay_app)
    (setup,) = mails(relay_app, to=HOST, kind="host")
    path = return_path_of(smtp_sink, setup)
    deliver_report(listening, path, PERMANENT["exchange"](path, HOST, original_headers(setup), True))
    game = game_record(relay_app, game_id)
    assert game.host_unreachable_at is not None and "5." in game.host_unreachable_reason

    client = relay_app.test_client()
    page = client.get(host_link(relay_app)).get_data(as_text=True)
    assert "Mail to your address is not arriving" in page and "data-correct-host-address" in page
    page_ja = client.get(host_link(relay_app), headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert "あなたのアドレスへのメールが届いていません" in page_ja
    ann_link = PLAY_LINK.search(mails(relay_app, to=ANN)[-1].text_body).group(1)  # type: ignore[union-attr]
    assert "not arriving" not in client.get(ann_link).get_data(as_text=True)  # the host's is their own

    turn = turn_mail_to(relay_app, BO)  # Bo's mail bounces too: the host would be told, by mail
    bo_path = return_path_of(smtp_sink, turn)
    deliver_report(listening, bo_path, PERMANENT["postfix"](bo_path, BO, original_headers(turn), True))
    assert seat(relay_app, game_id, 1).unreachable_at is not None
    assert mails(relay_app, to=HOST, kind="unreachable") == [], "no mail to a dead mailbox"

    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    answer = client.post(
        host_link(relay_app) + "/address", data={"csrf_token": csrf, "email": "hosta@example.net"}
    )
    assert answer.status_code == 303
    game = game_record(relay_app, game_id)
    assert game.host_unreachable_at is None and game.host_email == "hosta@example.net"
    (fresh,) = mails(relay_app, to="hosta@example.net", kind="host_link_reissued")
    assert fresh.status == MailStatus.SENT
    new_link = fresh.text_body.split("http://localhost")[1].split()[0]
    assert client.get(host_link(relay_app)).status_code == 403
    assert "data-host-unreachable" not in client.get(new_link).get_data(as_text=True)


def test_the_seat_json_says_whose_mail_is_not_arriving_by_name_only(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    started(relay_app)
    client = relay_app.test_client()
    ann_link = PLAY_LINK.search(mails(relay_app, to=ANN)[-1].text_body).group(1)  # type: ignore[union-attr]
    before = client.get("/api" + ann_link).get_json()
    assert before["my_mail"]["arriving"] is True and before["mail_not_arriving"] == []
    turn = turn_mail_to(relay_app, BO)
    path = return_path_of(smtp_sink, turn)
    deliver_report(listening, path, PERMANENT["sendmail"](path, BO, original_headers(turn), True))

    bo_link = PLAY_LINK.search(turn.text_body).group(1)  # type: ignore[union-attr]
    mine = client.get("/api" + bo_link).get_json()["my_mail"]
    assert mine["arriving"] is False and mine["since"] and "5." in mine["reason"]
    assert mine["message"].startswith("Mail to your address is not arriving")
    ann = client.get("/api" + ann_link).get_json()
    assert ann["my_mail"]["arriving"] is True
    (bo,) = ann["mail_not_arriving"]
    assert (bo["seat"], bo["name"], bo["message"]) == (1, "Bo", "Mail to Bo is not arriving.")
    assert BO not in str(ann) and "reason" not in bo
    ann_ja = client.get("/api" + ann_link, headers={"Accept-Language": "ja"}).get_json()
    assert ann_ja["mail_not_arriving"][0]["message"] == "Boさんへのメールが届いていません。"
    schema = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert any("mail_not_arriving" in (model.get("properties") or {}) for model in schema.values())


@pytest.fixture
def dovecot() -> Iterator[OwnDovecot]:
    try:
        server = OwnDovecot()
        server.start()
    except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as error:
        unavailable("Dovecot's IMAP server", error)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("mta", ["exim", "gmail"])
def test_reports_in_an_imap_mailbox_are_read_as_the_listener_reads_them(
    relay_app: Flask, smtp_sink: SmtpSink, dovecot: OwnDovecot, mta: str
) -> None:
    """A deployment that cannot receive mail has its provider deliver the return paths to a mailbox
    that `pbem inbound --imap` polls: a real Dovecot here, the reports put in by its own delivery
    agent. A permanent failure marks the seat unreachable and mails the host once, a complaint turns
    mail off, a forged report is dropped; each is read once, and none is answered."""
    game_id = started(relay_app)
    to_bo, to_ann = turn_mail_to(relay_app, BO), turn_mail_to(relay_app, ANN)
    bo_path, ann_path = return_path_of(smtp_sink, to_bo), return_path_of(smtp_sink, to_ann)
    dovecot.deliver(bo_path, PERMANENT[mta](bo_path, BO, original_headers(to_bo), True))
    dovecot.deliver(ann_path, complaint(ann_path, ANN, original_headers(to_ann)))
    dovecot.deliver(forged(bo_path), PERMANENT[mta](forged(bo_path), BO, original_headers(to_bo), True))
    sent_before = len(smtp_sink.collector.received)
    mailbox = Mailbox("127.0.0.1", "pbem", PASSWORD, port=dovecot.port, ssl=False)

    assert poll_mailbox(relay_app, mailbox) == 3
    bo = seat(relay_app, game_id, 1)
    assert bo.unreachable_at is not None and "5.1.1" in bo.unreachable_reason
    assert seat(relay_app, game_id, 0).notify == "none"
    assert len(mails(relay_app, to=HOST, kind="unreachable")) == 1
    assert len(mails(relay_app, to=HOST, kind="complaint")) == 1
    assert sorted(inbound_statuses(relay_app)) == ["bounce", "bounce", "dropped"]
    assert len(smtp_sink.collector.received) == sent_before + 2, "the host's two mails; no answer"
    assert poll_mailbox(relay_app, mailbox) == 0, "each report is read once"


def create_request(client: FlaskClient, host: str) -> TestResponse:
    """POST the Red and Black Duel create form with Ann and Bo, hosted by `host`."""
    page = client.get("/new/red_black").get_data(as_text=True)
    data = {"csrf_token": forms(page)[0].fields["csrf_token"], "host_name": "Hosta", "host_email": host}
    for number, (name, address) in enumerate((("Ann", ANN), ("Bo", BO))):
        data[f"players-{number}-name"], data[f"players-{number}-email"] = name, address
    return client.post("/new/red_black", data=data)


def test_a_bounced_confirmation_asks_for_the_hosts_address_again_and_sends_nothing(
    relay_app: Flask, smtp_sink: SmtpSink, listening: int
) -> None:
    """The mail asking a new host to confirm their game bounces: there is no game nor host page
    yet, so the create form, when they come back, says the address did not take mail and sends
    nothing more to it that week; another address goes through."""
    client = relay_app.test_client()
    assert create_request(client, "hosta@example.com").status_code == 303
    (asking,) = mails(relay_app, kind="confirm_game")
    path = return_path_of(smtp_sink, asking)
    report = PERMANENT["postfix"](path, "hosta@example.com", original_headers(asking), True)
    deliver_report(listening, path, report)

    again = create_request(client, "Hosta@example.com")
    assert again.status_code == 422
    assert "did not arrive when we asked it to confirm a game" in again.get_data(as_text=True)
    assert len(mails(relay_app, kind="confirm_game")) == 1, "nothing more to a dead mailbox"
    assert create_request(client, "hosta@example.net").status_code == 303
    relay_app.extensions["pbem"].clock.advance(days=8)  # a week on, the address may be tried again
    assert create_request(client, "hosta@example.com").status_code == 303

"""The club's mail end to end: the real Celery worker delivers a season's start and the weekly digest
over real SMTP, each in its reader's own language (English and Japanese) with their reply address to
the club's talk; a reply sent over SMTP to the real reply listener is said to the club and shows in
the next digest; the digest's one-click List-Unsubscribe stops it for that member only."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.utils import make_msgid

from flask import Flask

from service.clubs.digest import send_club_digest
from service.clubs.log import read_club
from service.clubs.members import confirm_member, found_club, invite_member
from service.clubs.seasons import SeasonPlan, plan_season
from service.clubs.settings import choose_settings
from service.links import ClubLink
from tests.helpers import SteppingClock, wait_until
from tests.smtp_sink import SmtpSink, body, reply_listening

ANN, BO = "ann@example.org", "bo@example.org"


def delivered(sink: SmtpSink, address: str, words: str) -> list[Message]:
    """The mails delivered to an address whose decoded subject holds `words`."""
    return [m for m in sink.collector.to(address) if words in str(make_header(decode_header(m["Subject"])))]


def answer(port: int, to_mail: Message, sender: str, text: str) -> None:
    """Reply to a delivered mail as a mail program would: the text above the quoted mail."""
    reply = EmailMessage()
    reply["From"], reply["To"] = sender, to_mail["Reply-To"].strip()
    reply["Subject"] = "Re: season"
    reply["Message-ID"] = make_msgid(domain="example.org")
    reply["In-Reply-To"] = to_mail["Message-ID"].strip()
    quoted = "\n".join(f"> {line}" for line in body(to_mail).splitlines())
    reply.set_content(f"{text}\n\n2026年11月23日(月) 10:00 トランプの卓 <cards@pbem.localhost>:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.send_message(reply)


def test_club_mail_by_the_worker_in_each_members_language_answered_by_reply(
    worker_app: Flask, smtp_sink: SmtpSink
) -> None:
    rt = worker_app.extensions["pbem"]
    rt.clock = clock = SteppingClock(datetime.now(UTC) - timedelta(days=15))  # two digests due by now
    club_id = found_club(rt, ANN, "Thursday cards", "Ann", "en")
    number = invite_member(rt, club_id, ANN, "Bo", BO)
    confirm_member(rt, ClubLink(club_id, number, read_club(rt, club_id).members[number].invited_seq))
    choose_settings(rt, club_id, BO, "ja", "on")
    plan_season(rt, club_id, ANN, SeasonPlan("red_black", (0, 1)))
    wait_until(lambda: delivered(smtp_sink, BO, "シーズン1が始まります"))
    wait_until(lambda: delivered(smtp_sink, ANN, "Season 1 of Thursday cards starts"))
    (bo_season,) = delivered(smtp_sink, BO, "シーズン1が始まります")
    assert bo_season["Reply-To"].strip().startswith("play+") and "クラブに話しかけられます" in body(bo_season)
    with reply_listening(worker_app) as port:
        answer(port, bo_season, BO, "木曜日、よろしく！")
        wait_until(lambda: read_club(rt, club_id).talk)
    assert [t.text for t in read_club(rt, club_id).talk] == ["木曜日、よろしく！"]
    clock.advance(days=8)
    assert send_club_digest(rt, club_id) == 2
    wait_until(lambda: delivered(smtp_sink, ANN, "The week at Thursday cards"))
    wait_until(lambda: delivered(smtp_sink, BO, "Thursday cardsの今週"))
    (ann_digest,) = delivered(smtp_sink, ANN, "The week at Thursday cards")
    assert "Bo: 木曜日、よろしく！" in body(ann_digest) and ann_digest["Reply-To"].strip().startswith("play+")
    assert ann_digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = ann_digest["List-Unsubscribe"].strip("<>").removeprefix("http://localhost")
    assert worker_app.test_client().post(one_click, data={"List-Unsubscribe": "One-Click"}).status_code == 200
    clock.advance(days=7)
    assert send_club_digest(rt, club_id) == 1
    wait_until(lambda: len(delivered(smtp_sink, BO, "Thursday cardsの今週")) == 2)
    assert len(delivered(smtp_sink, ANN, "The week at Thursday cards")) == 1, "Ann unsubscribed"

"""Club talk by reply, over the real reply listener (SMTP): a member's reply to a club mail goes to the
club's talk without its quote or signature, in either language; a forged or expired address, a
stranger, a member gone, a robot or a mail with no words changes nothing and is never answered."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from service import create_app
from service.clubs.log import read_club
from service.clubs.members import confirm_member, found_club, invite_member, leave_club
from service.clubs.seasons import SeasonPlan, plan_season
from service.links import ClubLink
from service.replies.club_replies import DROPPED
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import mails
from tests.service.test_replies import inbound_row, reply
from tests.service.turns import MONDAY, stepping
from tests.smtp_sink import reply_listening

ANN, BO, CY = "ann@example.org", "bo@example.org", "cy@example.org"


@pytest.fixture
def listening(pg_app: Flask) -> Iterator[int]:
    with reply_listening(pg_app) as port:
        yield port


def club_with_season(rt: Runtime) -> str:
    """Ann's club with Bo and Cy, and a season of Red and Black started: each has its mail."""
    club_id = found_club(rt, ANN, "Thursday cards", "Ann", "en")
    for name, email in (("Bo", BO), ("Cy", CY)):
        number = invite_member(rt, club_id, ANN, name, email)
        confirm_member(rt, ClubLink(club_id, number, read_club(rt, club_id).members[number].invited_seq))
    plan_season(rt, club_id, ANN, SeasonPlan("red_black", (0, 1, 2)))
    return club_id


def season_mail(app: Flask, email: str) -> str:
    """The reply address of the season's mail to this member."""
    (mail,) = mails(app, to=email, kind="season_started")
    assert mail.reply_to.startswith("play+") and len(mail.reply_to.split("@")[0]) <= 64
    return mail.reply_to


def talk(rt: Runtime, club_id: str) -> list[tuple[str, str]]:
    club = read_club(rt, club_id)
    return [(club.names()[t.member], t.text) for t in club.talk]


def test_a_reply_to_a_club_mail_is_said_to_the_club_without_its_quote(pg_app: Flask, listening: int) -> None:
    rt, _clock = stepping(pg_app, MONDAY)
    club_id = club_with_season(rt)
    bo_mail = mails(pg_app, to=BO, kind="season_started")[0]
    quoted = "\n".join(f"> {line}" for line in bo_mail.text_body.splitlines())
    signed = "Count me in, and good luck all!\n\n-- \nBo, from a phone"
    body = f"{signed}\n\nOn Monday the card table wrote:\n{quoted}"
    before = len(mails(pg_app))
    message_id, _ = reply(listening, season_mail(pg_app, BO), body, BO)
    assert inbound_row(pg_app, message_id).status == "talked"
    cy_mail = mails(pg_app, to=CY, kind="season_started")[0]
    unmarked = f"Me too!\n\n{cy_mail.text_body}"  # a quote without marks
    message_id, _ = reply(listening, season_mail(pg_app, CY), unmarked, CY)
    assert inbound_row(pg_app, message_id).status == "talked"
    assert talk(rt, club_id) == [("Bo", "Count me in, and good luck all!"), ("Cy", "Me too!")]
    assert len(mails(pg_app)) == before, "talk by reply is answered by nothing"


def test_a_japanese_reply_with_a_japanese_quote_header_is_said_to_the_club(
    pg_app: Flask, listening: int
) -> None:
    rt, _clock = stepping(pg_app, MONDAY)
    club_id = club_with_season(rt)
    header = "2026年11月23日(月) 10:00 トランプの卓 <cards@pbem.localhost>:"
    body = f"木曜日、よろしくお願いします。\n\n{header}\n> シーズン1が始まります"
    message_id, _ = reply(listening, season_mail(pg_app, BO), body, BO)
    assert inbound_row(pg_app, message_id).status == "talked"
    assert talk(rt, club_id) == [("Bo", "木曜日、よろしくお願いします。")]


def test_bad_club_replies_change_nothing_and_are_never_answered(pg_app: Flask, listening: int) -> None:
    rt, clock = stepping(pg_app, MONDAY)
    club_id = club_with_season(rt)
    bo_to, cy_to = season_mail(pg_app, BO), season_mail(pg_app, CY)
    local, domain = bo_to.split("@")
    forged = f"{local[:-4]}{'0000' if not local.endswith('0000') else '1111'}@{domain}"
    dropped = DROPPED.copy()
    before, log = len(mails(pg_app)), read_club(rt, club_id).version
    cases = [
        (forged, "Hi all", BO, {}),
        (bo_to, "Hi all, from a stranger", "eve@example.org", {}),
        (bo_to, "I am away", BO, {"Auto_Submitted": "auto-replied"}),
        (bo_to, "> On Monday the card table wrote:\n> Season 1 starts", BO, {}),
        (bo_to, "x" * 600, BO, {}),
    ]
    for to, text, sender, headers in cases:
        message_id, _ = reply(listening, to, text, sender, **headers)
        assert inbound_row(pg_app, message_id).status == "ignored", text[:20]
    assert len(mails(pg_app)) == before, "nothing answered"
    leave_club(rt, club_id, CY)  # her table goes to the seat-keeper, with its own mails
    before = len(mails(pg_app))
    message_id, _ = reply(listening, cy_to, "Still here?", CY)
    assert inbound_row(pg_app, message_id).status == "ignored"
    clock.advance(days=rt.settings["REPLY_ADDRESS_MAX_AGE_DAYS"] + 1)
    message_id, _ = reply(listening, bo_to, "An old mail's answer", BO)
    assert inbound_row(pg_app, message_id).status == "ignored"
    assert len(mails(pg_app)) == before, "nothing answered"
    assert talk(rt, club_id) == []
    assert read_club(rt, club_id).version == log + 1  # Cy's leaving only
    counted = DROPPED - dropped
    assert counted == {
        "from another address than the member's": 1,
        "sent by a robot": 1,
        "no words": 1,
        "refused: A message has at most %(most)s characters.": 1,
        "not a member of the club": 1,
        "expired": 1,
    }, counted


def test_the_outbox_reply_box_says_a_club_mails_reply_to_the_club(tmp_path: Path) -> None:
    local = create_app(app_config(tmp_path, None))
    with local.app_context():
        rt, _clock = stepping(local, MONDAY)
        club_id = club_with_season(rt)
        (mail,) = mails(local, to=BO, kind="season_started")
    client = local.test_client()
    page = client.get(f"/outbox/{mail.id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf
    form = {"text": "See you Thursday", "csrf_token": csrf[1]}
    answered = client.post(f"/outbox/{mail.id}/reply", data=form)
    assert answered.status_code == 303
    listed = client.get(answered.headers["Location"]).get_data(as_text=True)
    assert "Your reply was added to the club" in listed
    with local.app_context():
        assert talk(rt, club_id) == [("Bo", "See you Thursday")]

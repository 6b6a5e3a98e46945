"""Clubs: founded from an address's "my games" link, members invited by address and joining by the
signed link of their invitation mail (under the daily cap), the page and its JSON for members only
(names, never addresses), the host's actions, leaving, and club talk; every refusal changes nothing,
and the club is what its log folds to."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from service import create_app
from service.clubs.log import ClubEvent, fold, read_club
from service.eventlog.models import ClubEventRecord, MailStatus
from service.links import AddressLink, address_key, issued_at
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import forms, mails, post_form
from tests.service.test_page_contexts import addresses_given
from tests.service.turns import MONDAY, stepping

ANN, BO, CY = "ann@example.org", "Bo@Example.org", "cy@example.org"
JOIN_LINK = re.compile(r"http://localhost(/club/join/[A-Za-z0-9_.\-]+)")


def my_path(rt: Runtime, email: str) -> str:
    """The address's "my games" path, as its mail would carry it."""
    return "/my/" + rt.signer.address_token(AddressLink(address_key(email), issued_at(rt.clock.now())))


def found(client: FlaskClient, rt: Runtime, name: str = "Thursday cards") -> str:
    """Ann founds a club from her games page; the club page's path."""
    answer = post_form(client, my_path(rt, ANN), "/clubs", club=name, name="Ann")
    assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    return answer.headers["Location"]


def invite(client: FlaskClient, club: str, name: str, email: str) -> int:
    return post_form(client, club, "/invite", name=name, email=email).status_code


def join_path(app: Flask, email: str) -> str:
    match = JOIN_LINK.search(mails(app, to=email, kind="club_invitation")[-1].text_body)
    assert match, "no join link"
    return match.group(1)


def joined(client: FlaskClient, app: Flask, email: str) -> str:
    """The invited address opens its mail's link and presses the button; its club page's path."""
    path = join_path(app, email)
    answer = post_form(client, path, path)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    return answer.headers["Location"]


def forced(client: FlaskClient, page: str, path: str, **data: str) -> int:
    """A POST the page does not offer, made with the session's CSRF token from `page`: its status."""
    csrf = forms(client.get(page).get_data(as_text=True))[0].fields["csrf_token"]
    return client.post(path, data={"csrf_token": csrf, **data}).status_code


def stale(client: FlaskClient, page: str, join: str) -> bool:
    """Whether an invitation's link is refused, both opened and its button pressed."""
    return client.get(join).status_code == 422 and forced(client, page, join) == 422


def club_json(client: FlaskClient, club: str) -> dict:
    answer = client.get("/api" + club)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def log_length(app: Flask) -> int:
    with Session(app.extensions["pbem"].engine) as session:
        return len(session.exec(select(ClubEventRecord)).all())


def test_a_member_joins_by_the_invitation_mail_and_sees_names_only(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    assert invite(client, club, "Bo", BO) == 303
    invitation = mails(app, to=BO, kind="club_invitation")[-1]
    assert "Ann invites you to the club Thursday cards" in invitation.text_body
    path = join_path(app, BO)
    before = log_length(app)
    page = client.get(path)
    assert page.status_code == 200 and "Join the club" in page.get_data(as_text=True)
    assert log_length(app) == before  # opening the link (a scanner, a preview) joins nobody
    bo_page = joined(client, app, BO)
    assert bo_page.startswith("/my/") and bo_page.endswith(club.rsplit("/", 1)[1])
    shown = client.get(bo_page).get_data(as_text=True)
    assert "Ann" in shown and "Bo" in shown
    assert ANN not in shown and BO.lower() not in shown.lower()
    data = club_json(client, bo_page)
    assert [(m["name"], m["standing"], m["host"]) for m in data["members"]] == [
        ("Ann", "member", True),
        ("Bo", "member", False),
    ]
    assert "@" not in str(data)
    again = post_form(client, path, path)  # confirming twice changes nothing
    assert again.status_code == 303 and log_length(app) == before + 1
    assert "Thursday cards" in client.get(my_path(rt, BO)).get_data(as_text=True)


def test_the_club_is_for_its_members_links_only(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    club_id = club.rsplit("/", 1)[1]
    stranger = my_path(rt, CY) + "/club/" + club_id
    invited_only = my_path(rt, BO) + "/club/" + club_id  # invited, not yet confirmed
    for path in (stranger, invited_only, my_path(rt, ANN) + "/club/nosuchclub", "/my/forged/club/" + club_id):
        assert client.get(path).status_code == 403, path
        assert client.get("/api" + path).status_code == 403, path
    before = log_length(app)
    assert forced(client, club, stranger + "/talk", text="hi") == 403
    assert log_length(app) == before


def test_the_host_removes_hands_over_and_members_leave(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    invite(client, club, "Cy", CY)
    bo = joined(client, app, BO)
    old_cy_link = join_path(app, CY)
    assert post_form(client, club, "/remove", member="2").status_code == 303
    assert stale(client, club, old_cy_link)  # the removed invitation
    assert [m["name"] for m in club_json(client, club)["members"]] == ["Ann", "Bo"]
    invite(client, club, "Cy", CY)  # invited again: a new link, the old one still refused
    assert stale(client, club, old_cy_link)
    cy = joined(client, app, CY)
    before = log_length(app)
    assert forced(client, bo, bo + "/invite", name="Di", email="di@example.org") == 422  # not the host
    assert forced(client, bo, bo + "/remove", member="0") == 422
    assert forced(client, club, club + "/leave") == 422  # the host hands over first
    for member in ("x", "0", "9", "-1"):
        assert forced(client, club, club + "/hand-over", member=member) == 422, member
    assert log_length(app) == before
    assert post_form(client, club, "/hand-over", member="1").status_code == 303
    assert club_json(client, cy)["host"] == 1
    assert post_form(client, club, "/leave").status_code == 303
    assert client.get(club).status_code == 403  # Ann left: her link no longer opens it
    assert [m["name"] for m in club_json(client, bo)["members"]] == ["Bo", "Cy"]


def test_refused_invitations_change_nothing(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    before = log_length(app), len(mails(app))
    for name, email in (
        ("Bo", "bo2@example.org"),
        ("Bee", "bo@example.org"),
        ("", CY),
        ("Cy", "not an address"),
    ):
        assert invite(client, club, name, email) == 422, (name, email)
    assert (log_length(app), len(mails(app))) == before


def test_club_invitations_count_against_the_daily_cap(tmp_path: Path, clean_pg: str) -> None:
    app = create_app(app_config(tmp_path, clean_pg, MAILS_PER_ADDRESS_PER_DAY=2))
    client = app.test_client()
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    for _turn in range(3):
        invite(client, club, "Bo", BO)
        post_form(client, club, "/remove", member="1")
    statuses = [mail.status for mail in mails(app, to=BO, kind="club_invitation")]
    assert statuses == [MailStatus.KEPT, MailStatus.KEPT, MailStatus.CAPPED]


def test_club_talk_is_kept_in_the_log_and_refused_clearly(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    bo = joined(client, app, BO)
    assert post_form(client, bo, "/talk", text="Who is up for Dupli?").status_code == 303
    assert "Who is up for Dupli?" in client.get(club).get_data(as_text=True)
    before = log_length(app)
    for text in ("   ", "x" * 501, f"http://localhost{bo}"):
        assert post_form(client, bo, "/talk", text=text).status_code == 422, text
    assert log_length(app) == before
    assert post_form(client, bo, "/talk", text=f"my page: http://localhost{bo}").status_code == 303
    talk = [(t["name"], t["text"]) for t in club_json(client, club)["talk"]]
    assert talk[0] == ("Bo", "Who is up for Dupli?") and talk[1][1].startswith("my page: ")
    assert bo.split("/")[2] not in str(talk)  # the service's own link is cut, as from table talk


def test_the_club_is_its_log_folded(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    joined(client, app, BO)
    post_form(client, club, "/talk", text="Welcome!")
    club_id = club.rsplit("/", 1)[1]
    with Session(rt.engine) as session:
        rows = session.exec(
            select(ClubEventRecord)
            .where(col(ClubEventRecord.club_id) == club_id)
            .order_by(col(ClubEventRecord.seq))
        ).all()
    assert [row.seq for row in rows] == [1, 2, 3, 4]
    refolded = fold(club_id, [ClubEvent(row.type, row.data, row.created_at, row.email) for row in rows])
    assert refolded == read_club(rt, club_id)
    assert forms(client.get(club).get_data(as_text=True))  # the page still renders from it


def test_club_pages_are_given_names_never_addresses(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    path = join_path(app, BO)
    for url, template in ((path, "club/join.html"), (club, "club/page.html")):
        given = addresses_given(app, client, url)
        assert template in given and not any(given.values()), given

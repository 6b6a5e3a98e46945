"""Each member's own settings for the club's mail: its language (chosen on the club page, else that of
their games, else the club's) and the weekly digest (chosen on the club page, or stopped by the
digest's own unsubscribe link), each choice an event of the club's log; a bad choice is refused
clearly and changes nothing."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from service.clubs.digest import send_club_digest
from service.clubs.log import SETTINGS_CHOSEN, read_club
from service.clubs.seasons import SeasonPlan, plan_season
from service.eventlog.models import ClubEventRecord
from service.play.hosting import Player, create_game
from service.play.seat_settings import save_seat_language
from service.runtime import Runtime
from tests.helpers import mails, post_form
from tests.service.test_clubs import forced, found, invite, joined
from tests.service.turns import MONDAY, stepping

ANN, BO, CY = "ann@example.org", "bo@example.org", "cy@example.org"


def club_of_three(app: Flask, client: FlaskClient, rt: Runtime) -> tuple[str, str, str]:
    """Ann's club page, then Bo's and Cy's, all three confirmed."""
    club = found(client, rt)
    invite(client, club, "Bo", BO)
    invite(client, club, "Cy", CY)
    return club, joined(client, app, BO), joined(client, app, CY)


def settings_chosen(app: Flask) -> list[dict]:
    with Session(app.extensions["pbem"].engine) as session:
        rows = session.exec(
            select(ClubEventRecord)
            .where(col(ClubEventRecord.type) == SETTINGS_CHOSEN)
            .order_by(col(ClubEventRecord.seq))
        ).all()
    return [row.data for row in rows]


def test_club_mails_follow_each_members_own_language(pg_app: Flask) -> None:
    client = pg_app.test_client()
    rt, _clock = stepping(pg_app, MONDAY)
    di = Player("Di", "di@example.org")
    game_id = create_game(rt, "red_black", [Player("Cy", CY), di], di)
    assert save_seat_language(rt, game_id, 0, 1, "ja")  # Cy chose Japanese on her seat's page
    club, bo, _cy = club_of_three(pg_app, client, rt)
    (cy_invitation,) = mails(pg_app, to=CY, kind="club_invitation")
    assert cy_invitation.language == "ja" and "クラブ「Thursday cards」に招待" in cy_invitation.subject
    assert mails(pg_app, to=BO, kind="club_invitation")[0].language == "en"  # no games: the club's
    assert post_form(client, bo, "/settings", language="ja", digest="on").status_code == 303
    plan_season(rt, club.rsplit("/", 1)[1], ANN, SeasonPlan("red_black", (0, 1, 2)))
    started = {mail.to_email: mail for mail in mails(pg_app, kind="season_started")}
    assert {email: mail.language for email, mail in started.items()} == {ANN: "en", BO: "ja", CY: "ja"}
    seated = {
        mail.to_email: mail.language for mail in mails(pg_app, kind="invitation") if mail.game_id != game_id
    }
    assert seated == {BO: "ja", CY: "ja"}, "the season's first table speaks each member's language"
    assert (
        "シーズン1が始まります" in started[BO].subject
        and "Season 1 of Thursday cards" in started[ANN].subject
    )
    assert "クラブに話しかけられます" in started[BO].text_body
    assert "say something to the club" in started[ANN].text_body
    assert settings_chosen(pg_app) == [{"member": 1, "language": "ja", "digest": True}]
    assert client.get("/api" + bo).get_json()["settings"] == {"language": "ja", "digest": True}


def test_the_digest_follows_each_members_choice_and_its_unsubscribe_link(pg_app: Flask) -> None:
    client = pg_app.test_client()
    rt, clock = stepping(pg_app, MONDAY)
    club, bo, cy = club_of_three(pg_app, client, rt)
    club_id = club.rsplit("/", 1)[1]
    assert post_form(client, bo, "/settings", language="", digest="off").status_code == 303
    post_form(client, cy, "/talk", text="Who is up for Dupli?")
    clock.advance(days=7)
    assert send_club_digest(rt, club_id) == 2
    digests = {mail.to_email: mail for mail in mails(pg_app, kind="club_digest")}
    assert set(digests) == {ANN, CY}, "Bo turned the digest off"
    ann = digests[ANN]
    assert "Cy: Who is up for Dupli?" in ann.text_body
    assert ann.reply_to.startswith("play+") and ann.unsubscribe_url.startswith(
        "http://localhost/unsubscribe/"
    )
    path = ann.unsubscribe_url.removeprefix("http://localhost")
    page = client.get(path)
    assert page.status_code == 200 and "Stop the weekly digest of the club Thursday cards" in page.get_data(
        as_text=True
    )
    assert len(settings_chosen(pg_app)) == 1, "opening the link changes nothing"
    one_click = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200 and "no more weekly digests" in one_click.get_data(as_text=True)
    client.post(path, data={"List-Unsubscribe": "One-Click"})  # again: nothing more
    assert settings_chosen(pg_app)[1:] == [{"member": 0, "language": "", "digest": False}]
    clock.advance(days=7)
    assert send_club_digest(rt, club_id) == 1  # Cy's only
    assert post_form(client, club, "/settings", language="", digest="on").status_code == 303
    clock.advance(days=7)
    assert send_club_digest(rt, club_id) == 2
    assert read_club(rt, club_id).members[0].digest is True


def test_bad_settings_are_refused_clearly_and_change_nothing(pg_app: Flask) -> None:
    client = pg_app.test_client()
    rt, _clock = stepping(pg_app, MONDAY)
    club, bo, _cy = club_of_three(pg_app, client, rt)
    version = read_club(rt, club.rsplit("/", 1)[1]).version
    for language, digest in (("fr", "on"), ("ja", "maybe"), ("", "")):
        answer = post_form(client, bo, "/settings", language=language, digest=digest)
        assert answer.status_code == 422, (language, digest)
        assert "Choose" in answer.get_data(as_text=True)
    stranger = "/my/forged/club/" + club.rsplit("/", 1)[1] + "/settings"
    assert forced(client, bo, stranger, language="ja", digest="on") == 403
    assert read_club(rt, club.rsplit("/", 1)[1]).version == version
    assert settings_chosen(pg_app) == []

"""Vacations from the player's page: the clock stops while the player is away and the others are
told; the yearly allowance, overlaps and past dates are refused clearly; a vacation can be called off."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from service.eventlog.models import Vacation
from service.play.timeouts import ClockRun
from tests.helpers import mails, play_path, post_form
from tests.service.turns import beat, new_game, people, play, stepping

ANN, BO = "ann@example.org", "bo@example.org"


def links(app: Flask) -> tuple[str, str]:
    ann, bo = (play_path(mails(app, to=e, kind="invitation")[0]) for e in (ANN, BO))
    return ann, bo


def vacations(app: Flask) -> list[Vacation]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(Vacation)).all())


def game_of(app: Flask) -> str:
    (invitation,) = mails(app, to=ANN, kind="invitation")
    return invitation.game_id


def bo_due(client: FlaskClient, link: str) -> dict:
    (bo,) = [w for w in client.get("/api" + link).get_json()["waiting_on"] if w["seat"] == 1]
    return bo


def test_a_vacation_stops_the_clock_and_the_others_are_told(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)  # Monday 09:00 UTC
    new_game(rt, "red_black", people("Ann", "Bo"))
    ann, bo = links(app)
    play(rt, game_of(app), 0)
    clock.advance(hours=1)
    assert "14 of 14 days left this year" in client.get(bo).get_data(as_text=True)
    assert post_form(client, bo, "/vacations", start="2026-06-01", days="2").status_code == 303
    (told,) = mails(app, kind="vacation")
    assert told.to_email == ANN and told.text_body.startswith("Bo is away\n")
    # Two days from Monday: through Tuesday, the end date read as inclusive.
    assert "from Mon, Jun 1, 10:00\u202fAM (UTC) through Tue, Jun 2." in told.text_body
    # 1 h ran before the vacation (09:00 to 10:00), the other 23 h run from Wednesday 00:00.
    waiting = bo_due(client, ann)
    assert (waiting["due"], waiting["away_until"]) == (
        "2026-06-03T23:00:00+00:00",
        "2026-06-03T00:00:00+00:00",
    )
    assert "on vacation through Tue, Jun 2" in client.get(ann).get_data(as_text=True)
    bo_page = client.get(bo).get_data(as_text=True)
    assert "through Tue, Jun 2" in bo_page and "12 of 14 days left this year" in bo_page
    assert beat(rt, clock, hours=26) == ClockRun()  # Tuesday noon: Bo's clock stands still
    assert beat(rt, clock, hours=23, minutes=1) == ClockRun(reminders=1)  # Wednesday 11:01
    assert beat(rt, clock, hours=12).timeouts == 1  # Wednesday 23:01


def test_the_allowance_overlaps_and_past_days_are_refused_clearly(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)
    new_game(rt, "red_black", people("Ann", "Bo"), vacation_days=3)
    _, bo = links(app)
    assert post_form(client, bo, "/vacations", start="2026-06-02", days="2").status_code == 303
    refusals = {
        ("2026-06-10", "2"): "Vacation days left in 2026: 1.",
        ("2026-06-03", "1"): "This overlaps a vacation you already declared.",
        ("2026-05-31", "1"): "A vacation starts today or within the next year.",
        ("2026-06-20", "0"): "Number must be between 1 and 365.",
    }
    for (start, days), message in refusals.items():
        response = post_form(client, bo, "/vacations", start=start, days=days)
        assert response.status_code == 422 and message in response.get_data(as_text=True)
    assert client.post(bo + "/vacations", data={"start": "2026-06-20", "days": "1"}).status_code == 400
    assert len(vacations(app)) == 1
    # Each calendar year has its own allowance: one day left in 2026, three in 2027.
    assert post_form(client, bo, "/vacations", start="2026-12-31", days="3").status_code == 303
    assert [(v.start_date.isoformat(), v.days) for v in vacations(app)][-1] == ("2026-12-31", 3)


def test_a_vacation_can_be_called_off(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    new_game(rt, "red_black", people("Ann", "Bo"))
    ann, bo = links(app)
    play(rt, game_of(app), 0)
    assert post_form(client, bo, "/vacations", start="2026-06-05", days="2").status_code == 303
    assert post_form(client, bo, "/cancel").status_code == 303  # not begun: gone entirely
    assert vacations(app) == [] and "14 of 14 days left" in client.get(bo).get_data(as_text=True)

    assert post_form(client, bo, "/vacations", start="2026-06-01", days="3").status_code == 303
    clock.advance(hours=10)  # away from 09:00; back at 19:00 on the same day
    assert post_form(client, bo, "/cancel").status_code == 303
    (taken,) = vacations(app)
    assert taken.days == 1 and "13 of 14 days left" in client.get(bo).get_data(as_text=True)
    assert bo_due(client, ann)["due"] == "2026-06-02T19:00:00+00:00"  # 24 h after, less 10 h away
    back = mails(app, to=ANN, kind="vacation_ended")
    assert len(back) == 2 and "Bo called off their time away" in back[-1].text_body
    assert not mails(app, to=BO, kind="vacation_ended")
    response = post_form(client, bo, "/vacations", start="2026-06-01", days="1")
    assert response.status_code == 422  # today is already taken by the vacation called off

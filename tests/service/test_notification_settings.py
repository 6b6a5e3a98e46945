"""A player's mail settings: the form on their page and its JSON twin save a notification mode and a
time zone, refuse bad input without changing anything, and the mails follow the chosen mode (turn
nudges only in "turn" mode, mails about the game's life always)."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from service.mail.drafting import wants_mail
from service.mail.kinds import ESSENTIAL, NUDGES, PLAY_TO_COME, MailKind
from service.play.hosting import Player, cancel_game, create_game, resend_link, revoke_link
from tests.helpers import Form, forms, mails
from tests.service.play import play_by_api, seat_links

EMAILS = ["ann@example.org", "bo@example.org", "cy@example.org"]


def red_black(app: Flask) -> tuple[str, list[str]]:
    game_id = create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=3,
    )
    return game_id, seat_links(app, EMAILS[:2])


def settings_form(client: FlaskClient, link: str) -> Form:
    return next(f for f in forms(client.get(link).get_data(as_text=True)) if f.action.endswith("/settings"))


def settings_of(client: FlaskClient, link: str) -> dict[str, str]:
    return client.get("/api" + link).get_json()["settings"]


def test_the_settings_form_saves_the_mode_and_the_time_zone(app: Flask, client: FlaskClient) -> None:
    _, links = red_black(app)
    assert settings_of(client, links[0]) == {"notify": "turn", "timezone": ""}
    form = settings_form(client, links[0])
    response = client.post(form.action, data={**form.fields, "notify": "digest", "timezone": "Asia/Tokyo"})
    assert response.status_code == 303 and response.headers["Location"] == links[0]
    assert settings_of(client, links[0]) == {"notify": "digest", "timezone": "Asia/Tokyo"}
    assert settings_of(client, links[1]) == {"notify": "turn", "timezone": ""}  # the other seat's own
    page = client.get(links[0]).get_data(as_text=True)
    assert "Your mail settings were saved." in page
    assert 'value="digest" checked' in page and '<option value="Asia/Tokyo" selected>' in page


def test_the_settings_form_refuses_bad_input_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    _, links = red_black(app)
    form = settings_form(client, links[0])
    bad_zone = client.post(form.action, data={**form.fields, "notify": "digest", "timezone": "Mars/Olympus"})
    assert bad_zone.status_code == 422
    assert "Mars/Olympus is not a time zone we know" in bad_zone.get_data(as_text=True)
    bad_mode = client.post(form.action, data={**form.fields, "notify": "hourly", "timezone": "Europe/Paris"})
    assert bad_mode.status_code == 422 and "Choose how to hear of your turns" in bad_mode.get_data(
        as_text=True
    )
    no_mode = client.post(form.action, data={**form.fields, "timezone": "Europe/Paris"})
    assert no_mode.status_code == 422
    no_csrf = client.post(form.action, data={"notify": "none", "timezone": "Europe/Paris"})
    assert no_csrf.status_code == 400 and "did not come from this site" in no_csrf.get_data(as_text=True)
    forged = client.post(form.action.replace("/play/", "/play/x"), data={**form.fields, "notify": "none"})
    assert forged.status_code == 403
    for response in (bad_zone, bad_mode, no_csrf, forged):
        assert "Traceback" not in response.get_data(as_text=True)
    assert settings_of(client, links[0]) == {"notify": "turn", "timezone": ""}


def test_the_json_api_reads_and_changes_the_settings(app: Flask, client: FlaskClient) -> None:
    _, links = red_black(app)
    url = f"/api{links[0]}/settings"
    assert client.post(url, json={"timezone": "Europe/Paris"}).get_json() == {
        "settings": {"notify": "turn", "timezone": "Europe/Paris"}
    }
    assert client.post(url, json={"notify": "none"}).get_json()["settings"] == {
        "notify": "none",
        "timezone": "Europe/Paris",  # a key left out keeps its value
    }
    refusals = [
        client.post(url, json={"timezone": "Nowhere/Land"}),
        client.post(url, json={"notify": 3}),
        client.post(url, json={"notfy": "turn"}),
        client.post(url, json={}),
        client.post(url, data="notify=turn"),
        client.post(f"/api/play/forged{links[0][6:]}/settings", json={"notify": "turn"}),
    ]
    assert [r.status_code for r in refusals] == [422, 400, 400, 400, 400, 403]  # 3 is no mode's name
    assert all(r.get_json()["error"] for r in refusals)
    assert settings_of(client, links[0]) == {"notify": "none", "timezone": "Europe/Paris"}


def test_each_mode_is_honoured_through_a_whole_game(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(
        app.extensions["pbem"],
        "dupli",
        [Player(e.split("@")[0].title(), e) for e in EMAILS],
        Player("Host", "host@example.org"),
        seed=4,
    )
    links = seat_links(app, EMAILS)
    for link, mode in zip(links, ["turn", "digest", "none"], strict=True):
        assert client.post(f"/api{link}/settings", json={"notify": mode}).status_code == 200
    play_by_api(client, links, random.Random(4))
    assert not app.extensions["pbem"].read_table(game_id).active
    turn, digest, none = ({m.kind for m in mails(app, to=e)} for e in EMAILS)
    assert {"your_turn", "game_over"} <= turn
    assert digest == none == {"invitation", "game_over"}  # the game's life, never a nudge


def test_a_seat_without_mail_gets_only_what_it_must(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = red_black(app)
    for link in links:
        client.post(f"/api{link}/settings", json={"notify": "none"})
    resend_link(rt, game_id, 0)  # a resend is not a must: the player turned mail off
    revoke_link(rt, game_id, 1)  # a new link is: the old one no longer works
    cancel_game(rt, game_id)
    assert [m.kind for m in mails(app, to=EMAILS[0])] == ["invitation", "game_cancelled"]
    assert [m.kind for m in mails(app, to=EMAILS[1])] == ["invitation", "link_reissued", "game_cancelled"]
    table = rt.read_table(game_id)
    withheld = {kind for kind in MailKind if not wants_mail(table, 0, kind)}
    assert withheld == (set(MailKind) - ESSENTIAL) | PLAY_TO_COME  # the game is over: no play to come
    assert {"your_turn", "report", "reminder", "auto_played", "vacation", "vacation_ended"} == NUDGES
    assert {"game_over", "forfeit", "game_cancelled", "link_reissued", "replaced"} <= ESSENTIAL

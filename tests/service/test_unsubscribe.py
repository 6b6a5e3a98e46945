"""Unsubscribe links: in every mail's footer and in the List-Unsubscribe headers on the wire; a GET
shows a button and changes nothing, the one-click POST (no CSRF token, RFC 8058) stops the mails,
and a forged or replaced link is refused with a clear 4xx."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.eventlog.models import OutboxMail
from service.links import PlayerLink
from service.mail.digest import send_due_digests
from service.mail.drafting import wants_mail
from service.mail.kinds import MailKind
from service.play.hosting import Player, create_game, revoke_link
from tests.conftest import app_config
from tests.helpers import SteppingClock, forms, mails, play_path
from tests.smtp_sink import SmtpSink

EMAILS = ["ann@example.org", "bo@example.org"]
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


def new_game(app: Flask, seed: int = 1, rival: str = "Bo") -> str:
    return create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player(rival, f"{rival.lower()}@example.org")],
        Player("Host", "host@example.org"),
        seed=seed,
    )


def path(mail: OutboxMail) -> str:
    assert mail.unsubscribe_url.startswith("http://localhost/unsubscribe/")
    return mail.unsubscribe_url.removeprefix("http://localhost")


def notify_of(app: Flask, game_id: str, seat: int) -> str:
    return app.extensions["pbem"].read_table(game_id).seats[seat].notify


def test_every_mail_carries_its_readers_unsubscribe_link(app: Flask) -> None:
    new_game(app)
    written = mails(app)
    assert {m.kind for m in written} == {"invitation", "host"}
    for mail in written:
        assert mail.unsubscribe_url in mail.text_body and mail.unsubscribe_url in mail.html_body
    assert len({m.unsubscribe_url for m in written}) == 3  # one per seat, one for the host


def test_a_get_shows_a_button_and_changes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(app)
    link = path(mails(app, to=EMAILS[0], kind="invitation")[0])
    page = client.get(link)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Stop the mails to ann@example.org about turns in Red and Black Duel — Ann, Bo" in html
    (form,) = [f for f in forms(html) if f.action == link]
    assert "csrf_token" not in form.fields
    assert notify_of(app, game_id, 0) == "turn"


def test_the_one_click_post_stops_turn_mails_and_says_how_to_undo(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(app, seed=2)  # Ann leads the first play after the camp cards
    link = path(mails(app, to=EMAILS[0], kind="invitation")[0])
    done = client.post(link, data=ONE_CLICK)
    assert done.status_code == 200
    text = done.get_data(as_text=True)
    assert "ann@example.org gets no more mail about turns" in text and "Mail settings" in text
    assert notify_of(app, game_id, 0) == "none" and notify_of(app, game_id, 1) == "turn"
    assert client.post(link, data=ONE_CLICK).status_code == 200  # again: harmless
    for email in EMAILS:  # both camp cards: Ann would now be told it is her move
        player = play_path(mails(app, to=email, kind="invitation")[0])
        state = client.get("/api" + player).get_json()
        client.post("/api" + player, json={"action": state["legal_actions"][0], "seq": state["seq"]})
    assert client.get("/api" + player).get_json()["to_act"] == [0]
    assert not mails(app, to=EMAILS[0], kind="your_turn")
    page = client.get(link).get_data(as_text=True)
    assert "These mails are already off." in page


def test_forged_and_replaced_links_are_refused(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(app)
    link = path(mails(app, to=EMAILS[0], kind="invitation")[0])
    forged = link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB")
    player_token = play_path(mails(app, to=EMAILS[0], kind="invitation")[0]).removeprefix("/play/")
    for response in (
        client.get(forged),
        client.post(forged, data=ONE_CLICK),
        client.post(f"/unsubscribe/{player_token}", data=ONE_CLICK),  # a play link's token: another salt
        client.post("/unsubscribe/nonsense"),
    ):
        assert response.status_code == 403
        assert "This link is not valid" in response.get_data(as_text=True)
    nowhere = rt.signer.unsubscribe_token(PlayerLink("no-such-game", 0, 1))
    assert client.post(f"/unsubscribe/{nowhere}").status_code == 404
    revoke_link(rt, game_id, 0)
    replaced = client.post(link, data=ONE_CLICK)
    assert replaced.status_code == 403 and "replaced by a newer one" in replaced.get_data(as_text=True)
    assert notify_of(app, game_id, 0) == "turn"
    assert client.post(path(mails(app, to=EMAILS[0], kind="link_reissued")[0])).status_code == 200
    assert notify_of(app, game_id, 0) == "none"


def test_the_hosts_link_stops_host_notices_until_the_host_page_turns_them_on(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(app)
    host_mail = mails(app, kind="host")[0]
    done = client.post(path(host_mail), data=ONE_CLICK)
    assert done.status_code == 200 and "no more host notices" in done.get_data(as_text=True)
    table = rt.read_table(game_id)
    assert not table.record.host_notify
    assert not wants_mail(table, None, MailKind.REPORT) and wants_mail(table, None, MailKind.HOST)
    assert [s.notify for s in table.seats] == ["turn", "turn"]  # the players' own settings stay
    host_page = host_mail.text_body.split("http://localhost")[1].split()[0]
    page = client.get(host_page).get_data(as_text=True)
    (form,) = [f for f in forms(page) if f.action.endswith("/notices")]
    assert client.post(form.action, data={**form.fields, "host_notify": "maybe"}).status_code == 400
    assert client.post(form.action, data={"host_notify": "on"}).status_code == 400  # no CSRF token
    assert not rt.read_table(game_id).record.host_notify
    assert client.post(form.action, data={**form.fields, "host_notify": "on"}).status_code == 303
    assert rt.read_table(game_id).record.host_notify


def test_the_digests_link_stops_the_addresses_digests(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = SteppingClock()
    clock.advance(seconds=(datetime(2024, 5, 1, 7, tzinfo=UTC) - clock.now()).total_seconds())
    rt.clock = clock
    games = [new_game(app, seed=1), new_game(app, seed=2, rival="Cy")]
    for invitation in mails(app, to=EMAILS[0], kind="invitation"):
        client.post(f"/api{play_path(invitation)}/settings", json={"notify": "digest"})
    assert send_due_digests(rt) == 1
    digest = mails(app, kind="digest")[0]
    page = client.get(path(digest)).get_data(as_text=True)
    assert "Stop the daily digest to ann@example.org?" in page
    assert [notify_of(app, g, 0) for g in games] == ["digest", "digest"]
    assert client.post(path(digest), data=ONE_CLICK).status_code == 200
    assert [notify_of(app, g, 0) for g in games] == ["none", "none"]
    clock.advance(days=1)
    assert send_due_digests(rt) == 0


def test_list_unsubscribe_headers_on_the_wire(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = create_app(app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    with app.app_context():
        game_id = new_game(app)
    for address in (*EMAILS, "host@example.org"):
        (message,) = smtp_sink.collector.to(address)
        header = message["List-Unsubscribe"]
        assert header.startswith("<http://localhost/unsubscribe/") and header.endswith(">")
        assert "\n" not in header and "=?" not in header  # one plain URL, not folded or encoded
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        text = next(part for part in message.walk() if part.get_content_type() == "text/plain")
        assert header[1:-1] in text.get_payload(decode=True).decode()
    url = smtp_sink.collector.to(EMAILS[1])[0]["List-Unsubscribe"][1:-1]
    assert app.test_client().post(url.removeprefix("http://localhost"), data=ONE_CLICK).status_code == 200
    assert notify_of(app, game_id, 1) == "none"

"""Nobody can make the service mail strangers: a game made on the web mails its players only after
its host confirmed their own address (or the deployment lets the host skip that), the requests that
mail someone are rate limited with a clear 429, names are short and plain, and no address gets more
than MAILS_PER_ADDRESS_PER_DAY mails in a day, whatever path drafted them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session
from werkzeug.test import TestResponse

from service import create_app
from service.eventlog.models import GameRequest, MailStatus
from service.play.hosting import Player, create_game, resend_link
from service.play.moves import submit_move
from tests.conftest import app_config
from tests.helpers import SteppingClock, confirm_path, confirmed, forms, mails, post_form, without_links

PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org")]


def create(client: FlaskClient, host: str = "ann@example.org", **fields: str) -> TestResponse:
    """POST the Red and Black Duel create form with Ann and Bo, hosted by `host`."""
    page = client.get("/new/red_black").get_data(as_text=True)
    data = {"csrf_token": forms(page)[0].fields["csrf_token"], "host_name": "Ann", "host_email": host}
    for seat, (name, email) in enumerate(PLAYERS):
        data[f"players-{seat}-name"], data[f"players-{seat}-email"] = name, email
    return client.post("/new/red_black", data={**data, **fields})


def limited_app(tmp_path: Path, **settings: Any) -> Flask:
    """The embedded app with its rate limits on (the other tests' apps have them off)."""
    return create_app(app_config(tmp_path, None, **{"RATE_LIMITS": True, **settings}))


def test_nothing_reaches_the_players_before_the_host_confirms(app: Flask, client: FlaskClient) -> None:
    created = create(client)
    assert created.status_code == 303 and created.headers["Location"].endswith("/check-your-mail")
    assert "We sent a mail to ann@example.org" in client.get("/check-your-mail").get_data(as_text=True)
    (asking,) = mails(app)  # the host's request to confirm, and nothing else
    assert (asking.kind, asking.to_email, asking.game_id) == ("confirm_game", "ann@example.org", None)
    assert asking.subject == "Confirm your game of Red and Black Duel to send the invitations"
    told = without_links(asking.text_body)  # a link's random token may hold any two letters
    assert "Bo" not in told and "bo@example.org" not in asking.html_body  # no asker's words

    path = confirm_path(asking)
    for _ in range(2):  # a GET (a mail scanner, a link preview) shows the button and changes nothing
        page = client.get(path)
        assert page.status_code == 200 and "Confirm and send the invitations" in page.get_data(as_text=True)
    assert len(mails(app)) == 1
    with Session(app.extensions["pbem"].engine) as session:
        assert session.get(GameRequest, 1).game_id is None  # type: ignore[union-attr]

    host = confirmed(client, created)
    assert "/host/" in host.headers["Location"]
    assert sorted(m.to_email for m in mails(app, kind="invitation")) == ["ann@example.org", "bo@example.org"]
    assert len(mails(app, kind="host")) == 1

    again = post_form(client, path, path)  # a second press: the same host page, nothing sent again
    assert (
        again.status_code == 303
        and again.headers["Location"].split(".")[0] == (host.headers["Location"].split(".")[0])
    )
    assert len(mails(app)) == 4
    assert "confirmed already" in client.get(again.headers["Location"]).get_data(as_text=True)


def test_a_confirm_link_is_checked(app: Flask, client: FlaskClient) -> None:
    create(client)
    path = confirm_path(mails(app)[0])
    assert client.get(path[:-2] + "xx").status_code == 403
    assert client.post(path).status_code == 400  # no CSRF token: nothing created
    other = app.extensions["pbem"].signer.confirm_token(99)
    assert client.get(f"/confirm/{other}").status_code == 404
    play_token = app.extensions["pbem"].signer.player_token("g", 0, 1)  # another salt
    assert client.get(f"/confirm/{play_token}").status_code == 403
    assert not mails(app, kind="invitation")


def test_the_allow_list_and_the_invite_code_skip_the_confirmation(tmp_path: Path) -> None:
    app = limited_app(tmp_path, HOST_ALLOWLIST="boss@example.org, @club.example", INVITE_CODE="s3cret")
    client = app.test_client()
    assert "/host/" in create(client, host="someone@CLUB.example").headers["Location"]
    assert "/host/" in create(client, host="x@example.org", invite_code="s3cret").headers["Location"]
    wrong = create(client, host="y@example.org", invite_code="guess")
    assert wrong.status_code == 422 and "invite code is not right" in wrong.get_data(as_text=True)
    assert create(client, host="z@example.org").headers["Location"].endswith("/check-your-mail")
    assert len(mails(app, kind="invitation")) == 4 and len(mails(app, kind="confirm_game")) == 1
    assert not mails(app, to="y@example.org")
    app.extensions["pbem"].engine.dispose()


def test_the_command_line_creates_games_without_confirmation(app: Flask) -> None:
    create_game(
        app.extensions["pbem"], "red_black", [Player(n, e) for n, e in PLAYERS], Player("Op", "o@x.org")
    )
    assert len(mails(app, kind="invitation")) == 2 and not mails(app, kind="confirm_game")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("A" * 41, "at most 40 characters"),
        ("Buy now at cheap-pills.example", "web address"),
        ("www.spam", "web address"),
        ("http//x", "letters, digits"),
        ("ann@example", "letters, digits"),
        ("ann＠example", "letters, digits"),  # a full-width @
        ("Ann\u202eevil", "letters, digits"),  # a right-to-left override
        ("Ann\x07", "letters, digits"),
        ("Ann 🎉", "letters, digits"),
    ],
)
def test_names_are_short_and_plain(app: Flask, client: FlaskClient, name: str, why: str) -> None:
    refused = create(client, **{"players-1-name": name})
    assert refused.status_code == 422 and why in refused.get_data(as_text=True)
    refused = create(client, host_name=name)
    assert refused.status_code == 422 and why in refused.get_data(as_text=True)
    assert not mails(app)


def test_plain_names_of_any_script_pass(app: Flask, client: FlaskClient) -> None:
    for name in ("J.R.R. Tolkien", "Zoë O'Neil-Smith", "山田 太郎", "Ann (2)"):
        assert create(client, **{"players-1-name": name}).status_code == 303, name


def test_an_email_turned_name_is_checked_too(app: Flask, client: FlaskClient) -> None:
    # An empty name is the address's local part: it is checked like a typed one.
    refused = create(client, **{"players-1-name": "", "players-1-email": "visit.spam-shop@example.org"})
    assert refused.status_code == 422 and "web address" in refused.get_data(as_text=True)


def test_game_creation_is_limited_per_client_and_per_address(tmp_path: Path) -> None:
    app = limited_app(tmp_path, LIMIT_PER_CLIENT="3 per minute", LIMIT_PER_ADDRESS="2 per hour")
    client = app.test_client()
    assert create(client, host="a@example.org").status_code == 303
    assert create(client, host="a@example.org").status_code == 303
    limited = create(client, host="a@example.org")  # the address's third request this hour
    assert limited.status_code == 429 and "this address" in limited.get_data(as_text=True)
    assert int(limited.headers["Retry-After"]) > 0
    # A person reads when to try again, not the name of an HTTP header.
    said = limited.get_data(as_text=True)
    assert "Retry-After" not in said and re.search(r"You can try again in \d+ (minutes?|hours?)\.", said), (
        said
    )
    assert create(client, host="b@example.org").status_code == 429  # the client's fourth
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    assert create(other, host="b@example.org").status_code == 303
    page = create(other, host="a@example.org")
    assert page.status_code == 429 and "<h1>Too many requests</h1>" in page.get_data(as_text=True)
    assert len(mails(app, kind="confirm_game")) == 3
    app.extensions["pbem"].engine.dispose()


def test_link_resends_are_limited_and_say_so_in_json(tmp_path: Path) -> None:
    app = limited_app(tmp_path, LIMIT_PER_ADDRESS="2 per hour", HOST_ALLOWLIST="ann@example.org")
    client = app.test_client()
    host = create(client).headers["Location"].removeprefix("http://localhost")
    for _ in range(2):
        assert post_form(client, host, "/seats/1/resend").status_code == 303
    assert post_form(client, host, "/seats/1/resend").status_code == 429
    assert post_form(client, host, "/seats/0/resend").status_code == 303  # another seat's budget
    form = next(f for f in forms(client.get(host).get_data(as_text=True)) if f.action.endswith("1/revoke"))
    answer = client.post(form.action, data=form.fields, headers={"Accept": "application/json"})
    assert answer.status_code == 429
    assert answer.json == {"error": answer.json["error"], "status": 429}  # type: ignore[index]
    assert "this address" in answer.json["error"]  # type: ignore[index]
    assert len(mails(app, kind="link_resent")) == 3
    app.extensions["pbem"].engine.dispose()


def test_unsubscribing_is_limited_per_client_in_redis(tmp_path: Path, redis_url: str) -> None:
    app = limited_app(tmp_path, REDIS_URL=redis_url, LIMIT_UNSUBSCRIBE="2 per minute")
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    assert [client.get("/unsubscribe/forged").status_code for _ in range(3)] == [403, 403, 429]
    assert app.test_client().get("/unsubscribe/forged").status_code == 403  # another client
    assert "Too many unsubscribe requests" in client.post("/unsubscribe/forged").get_data(as_text=True)
    app.extensions["pbem"].engine.dispose()


def test_no_address_gets_more_than_the_daily_cap_whatever_the_path(tmp_path: Path) -> None:
    app = limited_app(tmp_path, MAILS_PER_ADDRESS_PER_DAY=4)
    rt = app.extensions["pbem"]
    rt.clock = clock = SteppingClock()
    with app.app_context():
        game_id = create_game(
            rt, "red_black", [Player(n, e) for n, e in PLAYERS], Player("Ann", "ANN@example.org")
        )
        for _ in range(3):
            resend_link(rt, game_id, 1)  # bo: the invitation and three resends make four
            resend_link(rt, game_id, 0)  # ann: the invitation, the host mail and two more make four
        bo = mails(app, to="bo@example.org")
        assert [m.status for m in bo] == [MailStatus.KEPT] * 4
        ann = mails(app, to="ann@example.org") + mails(app, to="ANN@example.org")
        assert [m.status for m in ann].count(MailStatus.CAPPED) == 1  # whatever the address's case
        resend_link(rt, game_id, 1)
        assert mails(app, to="bo@example.org")[-1].status == MailStatus.CAPPED
        clock.advance(days=1, minutes=1)  # a day later the address may be mailed again
        resend_link(rt, game_id, 1)
        assert mails(app, to="bo@example.org")[-1].status == MailStatus.KEPT
    app.extensions["pbem"].engine.dispose()


def test_the_daily_cap_counts_a_mailbox_whatever_its_tag(tmp_path: Path) -> None:
    """bo+a@, BO+b@ and bo@ reach one mailbox: plus-addressing does not multiply the cap."""
    app = limited_app(tmp_path, MAILS_PER_ADDRESS_PER_DAY=2)
    rt = app.extensions["pbem"]
    with app.app_context():
        for bo in ("bo+a@example.org", "BO+b@example.org", "bo@example.org", "bob@example.org"):
            players = [Player("Ann", f"ann+{len(bo)}@example.net"), Player("Bo", bo)]
            create_game(rt, "red_black", players, Player("Host", "host@example.com"))
        invited = {m.to_email: m.status for m in mails(app, kind="invitation") if "example.org" in m.to_email}
        assert [invited[a] for a in ("bo+a@example.org", "BO+b@example.org")] == [MailStatus.KEPT] * 2
        assert invited["bo@example.org"] == MailStatus.CAPPED
        assert invited["bob@example.org"] == MailStatus.KEPT  # another mailbox
    app.extensions["pbem"].engine.dispose()


def test_the_mails_of_a_game_its_reader_plays_are_never_capped(tmp_path: Path) -> None:
    app = limited_app(tmp_path, MAILS_PER_ADDRESS_PER_DAY=2)
    rt = app.extensions["pbem"]
    with app.app_context():
        game_id = create_game(rt, "red_black", [Player(n, e) for n, e in PLAYERS], Player("Host", "h@x.org"))
        for _ in range(12):  # far more "your move" mails than the cap
            table = rt.read_table(game_id)
            seat = min(table.rules.to_act(table.state))
            plays = [a for a in table.rules.legal_actions(table.state, seat) if "card" in a]
            submit_move(rt, game_id, seat, table.version, plays[0])
        turns = mails(app, kind="your_turn")
        assert len(turns) > 2 and all(m.status == MailStatus.KEPT for m in turns)
    app.extensions["pbem"].engine.dispose()


def test_the_deployed_mode_refuses_to_start_without_a_secret_key(tmp_path: Path, redis_url: str) -> None:
    for deployed in ({"DATABASE_URL": "postgresql://nobody@127.0.0.1/none"}, {"REDIS_URL": redis_url}):
        with pytest.raises(ValueError, match="SECRET_KEY must be set"):
            create_app({**app_config(tmp_path, None), "SECRET_KEY": None, **deployed})
    embedded = create_app({**app_config(tmp_path, None), "SECRET_KEY": None})  # its generated key
    assert embedded.config["SECRET_KEY"] == (Path(embedded.instance_path) / "secret_key").read_text().strip()
    assert not embedded.config["SESSION_COOKIE_SECURE"]
    embedded.extensions["pbem"].engine.dispose()


def deployment(tmp_path: Path, database_url: str, **settings: Any) -> dict[str, Any]:
    """The settings of a deployment on PostgreSQL as its operator wrote them: nothing allowed on purpose."""
    config = app_config(tmp_path, database_url, BASE_URL="https://cards.example.org")
    allowed = ("LOCAL_OUTBOX", "ALLOW_HTTP_BASE_URL")
    return {key: value for key, value in config.items() if key not in allowed} | settings


def test_a_deployment_without_smtp_refuses_to_start_rather_than_show_its_mail(
    tmp_path: Path, clean_pg: str
) -> None:
    with pytest.raises(ValueError, match=r"SMTP_HOST must be set.*LOCAL_OUTBOX=1"):
        create_app(deployment(tmp_path, clean_pg))
    chosen = create_app(deployment(tmp_path, clean_pg, LOCAL_OUTBOX="1"))  # development, on purpose
    assert chosen.test_client().get("/outbox").status_code == 200
    chosen.extensions["pbem"].engine.dispose()
    smtp = create_app(deployment(tmp_path, clean_pg, SMTP_HOST="127.0.0.1", LOCAL_OUTBOX="1"))
    assert smtp.test_client().get("/outbox").status_code == 404  # mail is sent: nothing is listed
    smtp.extensions["pbem"].engine.dispose()


def test_the_embedded_outbox_is_there_unless_turned_off(tmp_path: Path) -> None:
    embedded = create_app({**app_config(tmp_path, None), "LOCAL_OUTBOX": None})
    assert embedded.test_client().get("/outbox").status_code == 200
    embedded.extensions["pbem"].engine.dispose()
    off = create_app(app_config(tmp_path, None, LOCAL_OUTBOX=False))
    assert off.test_client().get("/outbox").status_code == 404
    assert "local outbox" not in off.test_client().get("/").get_data(as_text=True)
    off.extensions["pbem"].engine.dispose()


def test_a_deployment_refuses_an_http_base_url_unless_allowed(tmp_path: Path, clean_pg: str) -> None:
    plain = {"SMTP_HOST": "127.0.0.1", "BASE_URL": "http://cards.example.org"}
    with pytest.raises(ValueError, match=r"BASE_URL must be https.*ALLOW_HTTP_BASE_URL=1"):
        create_app({**deployment(tmp_path, clean_pg), **plain})
    lan = create_app({**deployment(tmp_path, clean_pg), **plain, "ALLOW_HTTP_BASE_URL": "1"})
    assert "Strict-Transport-Security" not in lan.test_client().get("/").headers
    lan.extensions["pbem"].engine.dispose()
    secure = create_app(deployment(tmp_path, clean_pg, SMTP_HOST="127.0.0.1"))
    assert secure.test_client().get("/").headers["Strict-Transport-Security"].startswith("max-age=")
    secure.extensions["pbem"].engine.dispose()


def test_invitations_are_limited_per_host_mailbox_whatever_its_tag_or_client(tmp_path: Path) -> None:
    app = limited_app(tmp_path, LIMIT_INVITATIONS_PER_HOST="6 per day", LIMIT_PER_ADDRESS="50 per hour")
    confirmations = []
    for n in range(3):  # each game asked for by "another" host address, from "another" client
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"192.0.2.{n + 1}"
        assert create(client, host=f"Eve+{n}@example.org").status_code == 303  # mailed to one mailbox
        confirmations.append(confirm_path(mails(app, kind="confirm_game")[-1]))
    answers = [post_form(app.test_client(), path, path).status_code for path in confirmations]
    assert answers == [303, 303, 303]  # two players a game: six invitations a day
    fourth = app.test_client()
    fourth.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    refused = create(fourth, host="EVE+4@example.org")
    assert refused.status_code == 429 and "invitations lately" in refused.get_data(as_text=True)
    assert len(mails(app, kind="invitation")) == 6
    app.extensions["pbem"].engine.dispose()


def test_confirming_is_limited_per_host_mailbox_too(tmp_path: Path) -> None:
    app = limited_app(tmp_path, LIMIT_INVITATIONS_PER_HOST="4 per day", LIMIT_PER_ADDRESS="50 per hour")
    paths = []
    for n in range(3):  # three asked while the budget was whole, confirmed after
        assert create(app.test_client(), host=f"eve+{n}@example.org").status_code == 303
        paths.append(confirm_path(mails(app, kind="confirm_game")[-1]))
    answers = [post_form(app.test_client(), path, path).status_code for path in paths]
    assert answers == [303, 303, 429]
    assert len(mails(app, kind="invitation")) == 4
    app.extensions["pbem"].engine.dispose()


def test_a_tag_or_a_case_does_not_make_a_new_address(tmp_path: Path) -> None:
    app = limited_app(tmp_path, LIMIT_PER_ADDRESS="2 per hour")
    client = app.test_client()
    hosts = ["ann+1@example.org", "ANN+2@Example.org", "ann@example.org"]
    assert [create(client, host=host).status_code for host in hosts] == [303, 303, 429]
    app.extensions["pbem"].engine.dispose()

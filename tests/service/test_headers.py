"""Every page of the app, reached with real tokens, carries the security headers: a
Content-Security-Policy without inline script that forbids framing, nosniff, and no Referer (many
URLs hold a signed token); HSTS once BASE_URL is https; the session cookie's flags."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import templates
from service import create_app
from service.clubs.members import found_club, invite_member
from service.mail.drafting import my_games_url
from service.play.address_games import calendar_url
from tests.conftest import app_config
from tests.helpers import confirm_path, confirmed, forms, mails, play_path
from tests.service.turns import stepping

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|javascript:", re.IGNORECASE)


def a_game(client: FlaskClient) -> str:
    """A Red and Black Duel made from the create page and confirmed; the host page's path."""
    page = client.get("/new/red_black").get_data(as_text=True)
    data = {"csrf_token": forms(page)[0].fields["csrf_token"], "host_name": "Ann", "host_email": "a@x.org"}
    data |= {"players-0-name": "Ann", "players-0-email": "a@x.org", "players-1-email": "b@x.org"}
    return confirmed(client, client.post("/new/red_black", data=data)).headers["Location"]


def real_arguments(app: Flask, client: FlaskClient) -> dict[str, dict[str, Any]]:
    """For each kind of path, the values its arguments take: a real game's tokens and ids."""
    host = a_game(client).removeprefix("http://localhost")
    rt = app.extensions["pbem"]
    invitation = mails(app, kind="invitation")[0]
    play = play_path(invitation).removeprefix("/play/")
    game_id = invitation.game_id
    moved = client.get(f"/api/play/{play}").json or {}
    command = client.post(
        f"/api/play/{play}", json={"action": moved["legal_actions"][0], "seq": moved["seq"]}
    ).json
    common = {
        "game": "red_black",
        "game_id": game_id,
        "step": 1,
        "mail_id": invitation.id,
        "filename": "style.css",
        "command_id": (command or {}).get("command"),
        "kind": "json",
        "club_id": found_club(rt, "a@x.org", "Thursday club", "Ann", "en"),
    }
    invite_member(rt, common["club_id"], "a@x.org", "Bo", "b@x.org")
    join = mails(app, kind="club_invitation")[0]
    return {
        "/play/": {**common, "token": play},
        "/api/play/": {**common, "token": play},
        "/host/": {**common, "token": host.removeprefix("/host/")},
        "/watch/": {**common, "token": rt.signer.watch_token(game_id, 1)},
        "/api/watch/": {**common, "token": rt.signer.watch_token(game_id, 1)},
        "/unsubscribe/": {**common, "token": invitation.unsubscribe_url.rsplit("/", 1)[1]},
        "/confirm/": {**common, "token": confirm_path(mails(app, kind="confirm_game")[0]).split("/")[-1]},
        "/my/": {**common, "token": my_games_url(rt, "a@x.org").rsplit("/", 1)[1]},
        "/api/my/": {**common, "token": my_games_url(rt, "a@x.org").rsplit("/", 1)[1]},
        "/club/join/": {**common, "token": re.findall(r"/club/join/([\w.-]+)", join.text_body)[0]},
        "/calendar/": {**common, "token": calendar_url(rt, "a@x.org").rsplit("/", 1)[1].removesuffix(".ics")},
        "": common,
    }


def every_page(app: Flask, client: FlaskClient) -> list[str]:
    """The path of every GET route of the app, filled in with real values."""
    arguments = real_arguments(app, client)
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        prefix = next(p for p in sorted(arguments, key=len, reverse=True) if rule.rule.startswith(p))
        values = {name: arguments[prefix][name] for name in rule.arguments}  # a new argument: add it above
        paths.append(rule.build(values, append_unknown=False)[1])  # type: ignore[index]
    return paths


def test_every_page_carries_the_security_headers(app: Flask, client: FlaskClient) -> None:
    pages = every_page(app, client)
    assert len(pages) >= 30
    for path in [*pages, "/no/such/page", "/play/forged"]:
        response = client.get(path)
        assert response.status_code < 500, path
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0], path
        assert response.headers.get("X-Content-Type-Options") == "nosniff", path
        assert response.headers.get("Referrer-Policy") == "no-referrer", path
        assert "Strict-Transport-Security" not in response.headers, path  # BASE_URL is http here
        if response.mimetype == "text/html":
            assert not INLINE_SCRIPT.search(response.get_data(as_text=True)), path


SECRET_IN_PAGE = re.compile(
    r'name="csrf_token"|/(play|host|watch|my|unsubscribe|confirm|club/join|calendar)/[\w.-]{20,}'
)


def test_no_page_or_json_with_a_token_is_stored_by_a_cache(app: Flask, client: FlaskClient) -> None:
    """Every page and JSON twin whose URL or body holds a link's token or a CSRF token, or which
    lists kept mails, says `no-store`: a shared computer's cache or a proxy would keep the secret."""
    stored = []
    checked = 0
    for path in [*every_page(app, client), "/play/forged", "/host/forged", "/api/play/forged"]:
        response = app.test_client().get(path)  # a fresh client: a token made for another page is not carried
        token_in_url = any(f"/{kind}/" in path for kind in ("play", "host", "watch", "my", "confirm"))
        secret = token_in_url or "unsubscribe/" in path or path.startswith("/outbox")
        secret = secret or bool(SECRET_IN_PAGE.search(response.get_data(as_text=True)))
        if secret:
            checked += 1
            if "no-store" not in response.headers.get("Cache-Control", ""):
                stored.append(path)
    assert checked >= 30 and stored == []
    host = a_game(client).removeprefix("http://localhost")
    play = play_path(mails(app, kind="invitation")[-1])
    for answer in (
        client.post(f"/api{play}", json={"action": {}, "seq": 0}),  # a JSON answer on a token
        client.post(f"{host}/notices", data={}),  # a refused form on the host's token
    ):
        assert answer.headers["Cache-Control"] == "no-store"


def test_no_template_holds_inline_script() -> None:
    for path in Path(templates.__file__).parent.rglob("*.html"):
        assert not INLINE_SCRIPT.search(path.read_text()), path


@pytest.mark.parametrize("base_url", ["https://cards.example.org"])
def test_https_adds_hsts_and_a_deployment_secure_cookies(
    tmp_path: Path, redis_url: str, base_url: str
) -> None:
    app = create_app(app_config(tmp_path, None, BASE_URL=base_url, REDIS_URL=redis_url))
    response = app.test_client().get("/new/red_black")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    cookie = response.headers["Set-Cookie"]
    assert all(flag in cookie for flag in ("Secure", "HttpOnly", "SameSite=Lax")), cookie
    app.extensions["pbem"].engine.dispose()


def test_an_open_page_polls_the_games_version_with_an_etag(app: Flask, client: FlaskClient) -> None:
    """The version an open player page polls (live.js): 304 with no body while the game has not
    moved, the new version once it has."""
    stepping(app)  # the tag holds within a minute: this one does not turn while the test runs
    a_game(client)
    path = play_path(mails(app, kind="invitation")[0])
    first = client.get(f"/api{path}/version")
    assert first.status_code == 200 and first.headers["ETag"] and first.json is not None
    seq = first.json["seq"]
    unchanged = client.get(f"/api{path}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.data == b""
    moved = client.get(f"/api{path}").json or {}
    client.post(f"/api{path}", json={"action": moved["legal_actions"][0], "seq": moved["seq"]})
    after = client.get(f"/api{path}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and after.json is not None and after.json["seq"] > seq
    page = client.get(path).get_data(as_text=True)
    assert f'data-live="/api{path}/version"' in page and "/static/live.js" in page

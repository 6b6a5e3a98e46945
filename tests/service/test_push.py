"""Web Push against a local push endpoint (a real HTTP server on 127.0.0.1): a seat's browser
subscription added by the API or the page's form, each push decrypted with the browser's keys
(http_ece, aes128gcm) and its VAPID JWT checked (signature, `aud`, `exp`, `sub`); one push per move
owed and one at the end, in the seat's language, with the seat's link and no card; a subscription the
push service answers 404 or 410 removed and its player told by mail, other failures tried again;
bad or private subscriptions refused where posted; the endpoint kept secret; the manifest, the
service worker and the page's button; and `pbem vapid-keys`."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import http_ece
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlmodel import Session, select

from service.channels.vapid import new_keys, public_key
from service.cli import main
from service.eventlog.models import Channel, MailStatus
from tests.helpers import mails, post_form, same_link, without_links
from tests.service.push_browser import Browser, vapid_claims
from tests.service.receiver import Answer, Receiver
from tests.service.test_channels import channel_app, play_out, seat_token
from tests.service.test_replay_leaks import CODES
from tests.service.turns import new_game, people

SECRET_PUSH = "/push/s3cr3t-subscr1pt10n"
SUBJECT = "mailto:cards@example.org"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def app(clean_pg: str, tmp_path: Path) -> Iterator[Flask]:
    flask_app = channel_app(
        tmp_path,
        clean_pg,
        VAPID_PRIVATE_KEY=new_keys().private,
        VAPID_SUBJECT=SUBJECT,
        CHANNEL_TIMEOUT_SECONDS=5.0,  # no push given up on a loaded machine: timeouts are not tested here
    )
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def subscribe(client: FlaskClient, token: str, subscription: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/play/{token}/channels/push", json=subscription)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()


def test_each_seat_is_pushed_once_per_move_owed_encrypted_for_its_browser_and_signed(
    app: Flask, receiver: Receiver
) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    with Session(rt.engine) as session:
        session.exec(text(f"UPDATE seats SET language = 'ja' WHERE game_id = '{game_id}' AND seat = 1"))
        session.commit()
    ann, bo = Browser(), Browser()
    ann_endpoint, bo_endpoint = receiver.url(SECRET_PUSH), receiver.url("/push/bo")
    channel = subscribe(client, seat_token(rt, game_id, 0), ann.subscription(ann_endpoint))
    assert channel["kind"] == "push" and channel["label"] == "Web Push (127.0.0.1)"
    again = client.post(
        f"/api/play/{seat_token(rt, game_id, 0)}/channels/push", json=ann.subscription(ann_endpoint)
    )
    assert again.status_code == 422 and "already" in again.get_json()["error"]  # the same device: once
    # Bo's browser subscribes as the page's button does: through the page's form, with its CSRF token.
    bo_page = f"/play/{seat_token(rt, game_id, 1)}"
    posted = post_form(
        client, bo_page, "/channels/push", subscription=json.dumps(bo.subscription(bo_endpoint))
    )
    assert posted.status_code == 303
    play_out(rt, game_id)

    server_key = public_key(rt.settings)
    for browser, path, seat, address in ((ann, SECRET_PUSH, 0, "ann"), (bo, "/push/bo", 1, "bo")):
        pushes = receiver.on(path)
        notices = [browser.opened(push) for push in pushes]
        turns = mails(app, to=f"{address}@example.org", kind="your_turn")
        assert [n["event"] for n in notices] == ["your_turn"] * len(turns) + ["game_over"]
        assert [n["text"] for n in notices[:-1]] == [m.text_body.splitlines()[0] for m in turns]
        link = f"http://localhost/play/{seat_token(rt, game_id, seat)}"
        assert all(same_link(n["url"], link) for n in notices)
        for push in pushes:
            assert vapid_claims(push, receiver.url(path), server_key)["sub"] == SUBJECT
            assert int(push.headers["TTL"]) > 0
        for notice in notices:  # no card in any push: the mail's headline only
            assert not CODES["red_black"].findall(without_links(json.dumps(notice, ensure_ascii=False)))
    assert {browser.opened(p)["language"] for p in receiver.on("/push/bo")} == {"ja"}
    assert "あなたの番" in bo.opened(receiver.on("/push/bo")[0])["text"]
    with pytest.raises(http_ece.ECEException):  # only the subscribed browser's keys open a push
        Browser(auth=ann.auth).opened(receiver.on(SECRET_PUSH)[0])

    # The endpoint is a secret: in no page, no JSON, no stored row.
    shown = [client.get(path).get_data(as_text=True) for path in (bo_page, f"/api{bo_page}/channels")]
    shown += [client.get(f"/play/{seat_token(rt, game_id, 0)}").get_data(as_text=True)]
    with Session(rt.engine) as session:
        stored = [str(row) for row in session.exec(text("SELECT * FROM channels")).all()]
        stored += [str(row) for row in session.exec(text("SELECT * FROM outbox")).all()]
    assert not any("s3cr3t-subscr1pt10n" in seen for seen in shown + stored)


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_ended_is_removed_and_its_player_told(
    app: Flask, receiver: Receiver, status: int
) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    receiver.answers["/push/ended"] = Answer(status=status)
    channel = subscribe(client, token, Browser().subscription(receiver.url("/push/ended")))
    assert client.post(f"/api/play/{token}/channels/{channel['id']}/test").status_code == 202

    (row,) = [row for row in mails(app) if row.channel == "push"]
    assert row.status == MailStatus.FAILED and f"answered {status}" in (row.last_error or "")
    assert client.get(f"/api/play/{token}/channels").get_json()["channels"] == []
    with Session(rt.engine) as session:
        assert session.exec(select(Channel.sealed)).all() == [""]
    (told,) = mails(app, to="ann@example.org", kind="channel_gone")
    assert "Web Push (127.0.0.1)" in told.text_body and "Notify me on this device" in told.text_body
    play_out(rt, game_id)
    assert len(receiver.on("/push/ended")) == 1  # nothing more goes to it
    assert len(mails(app, to="ann@example.org", kind="channel_gone")) == 1


def test_other_failures_of_the_push_service_are_tried_again(app: Flask, receiver: Receiver) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    receiver.answers["/push/busy"] = Answer(status=429)
    channel = subscribe(client, token, Browser().subscription(receiver.url("/push/busy")))
    client.post(f"/api/play/{token}/channels/{channel['id']}/test")
    (row,) = [row for row in mails(app) if row.channel == "push"]
    assert row.status == MailStatus.PENDING and row.attempts == 1
    assert row.next_attempt_at is not None and row.next_attempt_at > row.created_at  # the shared backoff
    assert [c["paused"] for c in client.get(f"/api/play/{token}/channels").get_json()["channels"]] == [False]
    assert mails(app, kind="channel_gone") == []


def test_bad_or_private_subscriptions_are_refused_where_posted(app: Flask, receiver: Receiver) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    good = Browser().subscription(receiver.url("/push/x"))
    cases = [
        ({**good, "endpoint": "http://10.1.2.3/push"}, "private address"),
        ({**good, "endpoint": "http://169.254.169.254/latest"}, "private address"),
        ({**good, "endpoint": "ftp://127.0.0.1/push"}, "Give a full web address"),
        ({**good, "keys": {"p256dh": "bm90IGEga2V5", "auth": good["keys"]["auth"]}}, "push subscription"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}}, "push subscription"),
    ]
    for subscription, words in cases:
        answer = client.post(f"/api/play/{token}/channels/push", json=subscription)
        assert answer.status_code == 422 and words in answer.get_json()["error"], subscription
    assert client.post(f"/api/play/{token}/channels/push", json={"endpoint": "x"}).status_code == 400
    page = post_form(client, f"/play/{token}", "/channels/push", subscription="not json")
    assert page.status_code == 422 and "This is not a browser&#39;s push subscription." in page.get_data(
        as_text=True
    )
    with Session(rt.engine) as session:
        assert session.exec(select(Channel)).all() == []

    # Added while loopback was allowed, refused when sent once it is not: checked on the address connected to.
    channel = subscribe(client, token, good)
    rt.settings["CHANNEL_ALLOW_LOOPBACK"] = False
    client.post(f"/api/play/{token}/channels/{channel['id']}/test")
    assert receiver.received == []
    (row,) = [row for row in mails(app) if row.channel == "push"]
    assert row.status == MailStatus.PENDING and row.attempts == 1


def test_without_vapid_keys_no_button_and_no_subscription(
    tmp_path: Path, clean_pg: str, receiver: Receiver
) -> None:
    app = channel_app(tmp_path, clean_pg)
    with app.app_context():
        rt = app.extensions["pbem"]
        client = app.test_client()
        game_id = new_game(rt, "red_black", people("Ann", "Bo"))
        token = seat_token(rt, game_id, 0)
        assert "data-push" not in client.get(f"/play/{token}").get_data(as_text=True)
        answer = client.post(
            f"/api/play/{token}/channels/push", json=Browser().subscription(receiver.url("/p"))
        )
        assert answer.status_code == 422 and "not set up" in answer.get_json()["error"]
    app.extensions["pbem"].engine.dispose()


def test_the_seat_page_offers_the_button_the_manifest_and_the_worker(app: Flask) -> None:
    rt = app.extensions["pbem"]
    client = app.test_client()
    game_id = new_game(rt, "red_black", people("Ann", "Bo"))
    token = seat_token(rt, game_id, 0)
    page = client.get(f"/play/{token}").get_data(as_text=True)
    button = re.search(
        r'<div data-push hidden data-key="([^"]+)" data-worker="/sw.js" data-scope="/play/"', page
    )
    assert button and button.group(1) == public_key(rt.settings)
    assert f'<link rel="manifest" href="/play/{token}/manifest.webmanifest">' in page

    manifest = client.get(f"/play/{token}/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    assert manifest.headers["Cache-Control"] == "no-store"  # its URL holds the seat's token
    app_json = manifest.get_json()
    assert app_json["start_url"] == app_json["scope"] == f"/play/{token}"
    assert app_json["display"] == "standalone" and app_json["name"].startswith("Red and Black Duel")
    assert client.get("/play/forged/manifest.webmanifest").status_code == 403

    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] in ("no-cache", "no-store")  # checked anew, never kept a year
    assert "script-src 'self'" in worker.headers["Content-Security-Policy"]
    assert b'addEventListener("push"' in worker.data


def test_vapid_keys_are_made_once_by_the_command_line() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["vapid-keys"]) == 0
    printed = out.getvalue()
    private = re.search(r"^VAPID_PRIVATE_KEY=(\S+)$", printed, re.M)
    public = re.search(r"public key browsers subscribe with: (\S+)$", printed, re.M)
    assert private and public
    assert public_key({"VAPID_PRIVATE_KEY": private.group(1)}) == public.group(1)
    assert "VAPID_SUBJECT=" in printed


def test_a_vapid_key_that_is_no_key_stops_the_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pbem vapid-keys"):
        channel_app(tmp_path, None, VAPID_PRIVATE_KEY="not-a-key")

"""The host's page (resend, revoke, cancel) and the command line."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.play.hosting import Player, create_game
from tests.helpers import event_count, forms, mails, play_path, post_form, same_link

EMAILS = ["ann@example.org", "bo@example.org"]
HOST_LINK = re.compile(r"http://localhost(/host/[\w.-]+)")


def host_page(app: Flask, client: FlaskClient) -> tuple[str, str]:
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt,
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Host", "host@example.org"),
        seed=2,
    )
    return game_id, "/host/" + rt.signer.host_token(game_id, 1)


def test_host_resends_a_link_unchanged(app: Flask, client: FlaskClient) -> None:
    _, page = host_page(app, client)
    assert post_form(client, page, "/seats/1/resend").status_code == 303
    (resent,) = mails(app, to=EMAILS[1], kind="link_resent")
    assert same_link(play_path(resent), play_path(mails(app, to=EMAILS[1], kind="invitation")[0]))


def test_host_revokes_a_leaked_link(app: Flask, client: FlaskClient) -> None:
    _, page = host_page(app, client)
    old = play_path(mails(app, to=EMAILS[0], kind="invitation")[0])
    assert post_form(client, page, "/seats/0/revoke").status_code == 303
    assert client.get(old).status_code == 403
    assert client.get(play_path(mails(app, to=EMAILS[0], kind="link_reissued")[0])).status_code == 200


def test_host_replaces_their_own_leaked_link(app: Flask, client: FlaskClient) -> None:
    game_id, page = host_page(app, client)
    old_unsubscribe = mails(app, kind="host")[0].unsubscribe_url.removeprefix("http://localhost")
    assert client.post(page + "/revoke").status_code == 400  # no CSRF token: nothing changes
    held = {f.action: f.fields for f in forms(client.get(page).get_data(as_text=True))}
    replaced = client.post(page + "/revoke", data=held[page + "/revoke"])
    assert replaced.status_code == 303 and replaced.headers["Location"] == "/check-your-mail"
    told = client.get("/check-your-mail").get_data(as_text=True)
    assert "mailed to host@example.org" in told
    refused = client.get(page)
    assert refused.status_code == 403 and "This host link was replaced" in refused.get_data(as_text=True)
    cancel = client.post(page + "/cancel", data={**held[page + "/cancel"], "confirmed": "yes"})
    assert cancel.status_code == 403  # the old link's forms, loaded before, do nothing either
    (mail,) = mails(app, kind="host_link_reissued")
    assert mail.to_email == "host@example.org" and "Your new host link" in mail.text_body
    new = HOST_LINK.search(mail.text_body)
    assert new and new.group(1) != page and client.get(new.group(1)).status_code == 200
    assert client.get(old_unsubscribe).status_code == 403  # the old link's unsubscribe goes with it
    assert app.extensions["pbem"].read_table(game_id).active


def test_host_cancels_only_when_confirmed(app: Flask, client: FlaskClient) -> None:
    game_id, page = host_page(app, client)
    post_form(client, page, "/cancel")
    assert app.extensions["pbem"].read_table(game_id).active
    post_form(client, page, "/cancel", confirmed="yes")
    assert app.extensions["pbem"].read_table(game_id).record.status == "cancelled"
    assert {m.to_email for m in mails(app, kind="game_cancelled")} == set(EMAILS)
    link = play_path(mails(app, to=EMAILS[0], kind="invitation")[0])
    before = event_count(app, game_id)
    state = client.get("/api" + link).get_json()
    assert state["legal_actions"] == [] and state["status"] == "cancelled"
    response = client.post("/api" + link, json={"action": {"card": "AS"}, "seq": state["seq"]})
    assert response.status_code == 409 and event_count(app, game_id) == before


def test_host_page_refuses_a_player_token(app: Flask, client: FlaskClient) -> None:
    _, _ = host_page(app, client)
    player_token = play_path(mails(app, to=EMAILS[0], kind="invitation")[0]).removeprefix("/play/")
    assert client.get(f"/host/{player_token}").status_code == 403


def test_cli_creates_a_game_and_prints_the_links(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "SECRET_KEY": "cli",
        "RUN_MIGRATIONS": "1",
        "BASE_URL": "http://cards.example",
    }
    env.pop("REDIS_URL", None)
    env.pop("SMTP_HOST", None)
    new = subprocess.run(
        [
            sys.executable,
            "-m",
            "service",
            "new",
            "red_black",
            "--email",
            EMAILS[0],
            "--email",
            EMAILS[1],
            "--seed",
            "4",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    game_id = new.stdout.strip().splitlines()[-1]
    links = (
        subprocess.run(
            [sys.executable, "-m", "service", "links", game_id],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .splitlines()
    )
    assert len(links) == 2
    assert links[0].startswith("0\tann <ann@example.org>\thttp://cards.example/play/")
    refused = subprocess.run(
        [sys.executable, "-m", "service", "new", "red_black", "--email", EMAILS[0]],
        env=env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "2 players" in refused.stdout


def test_cli_creates_a_timed_game_with_a_seat_keeper(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "SECRET_KEY": "cli",
        "RUN_MIGRATIONS": "1",
    }
    env.pop("REDIS_URL", None)
    env.pop("SMTP_HOST", None)
    friends = ["--email", "ann@example.org", "--email", "bo@example.org", "--email", "cy@example.org"]
    timing = ["--days", "1", "--weekend-pause", "--timezone", "Europe/Paris", "--timeout", "host"]
    service = [sys.executable, "-m", "service"]
    new = subprocess.run(
        [*service, "new", "dualis", *friends, "--bot", "1", *timing], env=env, capture_output=True, text=True
    )
    assert new.returncode == 0, new.stdout + new.stderr
    game_id = new.stdout.strip().splitlines()[-1]
    links = subprocess.run([*service, "links", game_id], env=env, capture_output=True, text=True, check=True)
    seats = links.stdout.strip().splitlines()
    assert [line.split("\t")[1] for line in seats] == [
        "ann <ann@example.org>",
        "Seat-keeper",
        "bo <bo@example.org>",
        "cy <cy@example.org>",
    ]
    app = create_app({"DATABASE_URL": env["DATABASE_URL"], "SECRET_KEY": "cli"})
    record = app.extensions["pbem"].read_table(game_id).record
    assert (record.move_days, record.weekend_pause, record.timezone, record.timeout) == (
        1,
        True,
        "Europe/Paris",
        "host",
    )
    app.extensions["pbem"].engine.dispose()
    refused = subprocess.run(
        [*service, "new", "dualis", *friends, "--days", "5"], env=env, capture_output=True, text=True
    )
    assert refused.returncode == 2 and "--days: invalid choice: 5" in refused.stderr
    two = subprocess.run(
        [*service, "new", "dualis", *friends[:4], "--days", "1"], env=env, capture_output=True, text=True
    )
    assert two.returncode == 2 and two.stdout.strip() == "error: Duālis is played by 3 or 4 players."


def test_cli_creates_a_table_its_host_does_not_play(tmp_path: Path) -> None:
    """The host's address was taken for their name, which no name may be: every such table failed."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}",
        "SECRET_KEY": "cli",
        "RUN_MIGRATIONS": "1",
    }
    env.pop("REDIS_URL", None)
    env.pop("SMTP_HOST", None)
    service = [sys.executable, "-m", "service", "new", "red_black", "--email", EMAILS[0], "--email"]
    derived = subprocess.run(
        [*service, "jo.lee+cards@example.org", "--host-email", "club.operator@example.org"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert derived.returncode == 0, derived.stdout + derived.stderr
    named = subprocess.run(
        [*service, EMAILS[1], "--host-email", "op@example.org", "--host-name", "Card Club"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert named.returncode == 0, named.stdout + named.stderr
    app = create_app({"DATABASE_URL": env["DATABASE_URL"], "SECRET_KEY": "cli"})
    rt = app.extensions["pbem"]
    first, second = (rt.read_table(run.stdout.strip().splitlines()[-1]) for run in (derived, named))
    assert (first.record.host_name, first.record.host_email) == ("club operator", "club.operator@example.org")
    assert [seat.name for seat in first.seats] == ["ann", "jo lee cards"]
    assert (second.record.host_name, second.record.host_email) == ("Card Club", "op@example.org")
    rt.engine.dispose()
    refused = subprocess.run(
        [*service, EMAILS[1], "--host-email", "op@example.org", "--host-name", "www.cards.example"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and refused.stdout.strip() == "error: A name cannot hold a web address."


def test_cli_serve_on_another_port_puts_that_port_in_the_mail_links(tmp_path: Path) -> None:
    """`pbem serve --port 8765` (`make serve PORT=8765`) in embedded mode: the host's confirmation mail
    links to port 8765 (the default BASE_URL named 5000, where nothing answered)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}", "SECRET_KEY": "cli"}
    for name in ("BASE_URL", "REDIS_URL", "SMTP_HOST"):
        env.pop(name, None)
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port), "--threads", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    try:
        form = wait_for_page(browser, f"{base}/new/red_black")
        fields = {
            "csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form).group(1),  # type: ignore[union-attr]
            "host_name": "Ann",
            "host_email": "ann@example.org",
            "host_plays": "y",
            "players-0-email": "bo@example.org",
        }
        browser.open(f"{base}/new/red_black", urllib.parse.urlencode(fields).encode(), timeout=30).read()
        outbox = browser.open(f"{base}/outbox", timeout=30).read().decode()
        mail = re.search(r'href="(/outbox/\d+)"', outbox).group(1)  # type: ignore[union-attr]
        body = browser.open(f"{base}{mail}", timeout=30).read().decode()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert f"{base}/confirm/" in body and ":5000" not in body


def wait_for_page(browser: urllib.request.OpenerDirector, url: str) -> str:
    """The page at `url` once the server answers (within 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return str(browser.open(url, timeout=5).read().decode())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)

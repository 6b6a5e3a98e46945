"""The web process as the Procfile starts it (a real gunicorn with the project's config): it listens
on the loopback interface only, its rate limits count the real client whatever X-Forwarded-For
claims when no proxy is configured, and its access log holds no link's token."""

from __future__ import annotations

import http.cookiejar
import logging
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from service import create_app
from service.mail.drafting import my_games_url
from service.play.hosting import Player, create_game
from tests.conftest import app_config
from tests.helpers import mails, play_path
from tests.smtp_sink import free_port

ROOT = Path(__file__).resolve().parents[2]
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def procfile_web() -> list[str]:
    """The Procfile's web command, without the restarting wrapper, run by this interpreter."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    words = shlex.split(line.removeprefix("web:"))
    words = words[1:] if words[0] == "bin/restarting" else words
    assert words[0] == "gunicorn"
    return [sys.executable, "-m", "gunicorn", *words[1:]]


@contextmanager
def web_process(tmp_path: Path, port: int, **settings: str) -> Iterator[Path]:
    """The Procfile's web process on `port` (nothing else said about where to bind), once it answers;
    its output's file."""
    env = {k: v for k, v in os.environ.items() if k not in ("PROXY_COUNT", "WEB_BIND", "GUNICORN_CMD_ARGS")}
    env |= {"PORT": str(port), "WEB_CONCURRENCY": "1", **settings}
    log = tmp_path / "web.log"
    with log.open("w") as output:
        process = subprocess.Popen(procfile_web(), cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield log
    finally:
        process.terminate()
        process.wait(timeout=20)


def answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=2)
    except urllib.error.HTTPError:
        return True  # an answer, even 503 (no broker in the embedded mode)
    except OSError:
        return False
    return True


def outward_address() -> str | None:
    """This machine's address on its network (not loopback), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def status(opener: urllib.request.OpenerDirector, request: urllib.request.Request) -> int:
    try:
        with opener.open(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def settings_for(tmp_path: Path) -> dict[str, str]:
    """The embedded app's settings as environment variables (the test's database, secret, links)."""
    config = app_config(tmp_path, None)
    return {
        key: str(value) for key, value in config.items() if value is not None and key != "MOVE_WAIT_SECONDS"
    }


def test_the_web_process_listens_on_loopback_and_counts_the_real_client(tmp_path: Path) -> None:
    port = free_port()
    limited = {"RATE_LIMITS": "1", "LIMIT_PER_CLIENT": "3 per minute"}
    with web_process(tmp_path, port, **(settings_for(tmp_path) | limited)) as log:
        assert f"Listening at: http://127.0.0.1:{port}" in log.read_text()
        outward = outward_address()
        if outward is not None:  # from the network, nobody reaches it
            with pytest.raises(OSError), socket.create_connection((outward, port), timeout=2):
                pass
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirects()
        )
        with opener.open(f"http://127.0.0.1:{port}/new/red_black", timeout=10) as page:
            match = CSRF.search(page.read().decode())
        assert match
        answers_ = []
        for n in range(5):  # each claims another client; with no proxy configured nobody believes it
            form = {
                "csrf_token": match.group(1),
                "host_name": "Ann",
                "host_email": f"host{n}@example.org",
                "players-0-name": "Ann",
                "players-0-email": f"host{n}@example.org",
                "players-1-name": "Bo",
                "players-1-email": "bo@example.org",
            }
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/new/red_black",
                data=urllib.parse.urlencode(form).encode(),
                headers={"X-Forwarded-For": f"203.0.113.{n + 1}"},
            )
            answers_.append(status(opener, request))
        assert answers_ == [303, 303, 303, 429, 429]


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_the_access_log_holds_no_token(tmp_path: Path) -> None:
    app = create_app(app_config(tmp_path, None))
    with app.app_context():
        rt = app.extensions["pbem"]
        players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
        game_id = create_game(rt, "red_black", players, players[0])
        play = play_path(mails(app, kind="invitation")[0])
        paths = [
            play,
            f"/api{play}",
            f"{play}/replay?step=1",
            "/host/" + rt.signer.host_token(game_id, 1),
            "/watch/" + rt.signer.watch_token(game_id, 1),
            mails(app, kind="invitation")[0].unsubscribe_url.removeprefix("http://localhost"),
            my_games_url(rt, "ann@example.org").removeprefix("http://localhost"),
            "/confirm/" + rt.signer.confirm_token(1),
        ]
    app.extensions["pbem"].engine.dispose()
    port = free_port()
    with web_process(tmp_path, port, **settings_for(tmp_path)) as log:
        for path in paths:
            answers(f"http://127.0.0.1:{port}{path}")
        time.sleep(0.5)  # the access log is written after the answer
        written = log.read_text()
    tokens = [re.split(r"[/?]", path.removeprefix("/api").split("/", 2)[2])[0] for path in paths]
    assert written.count('"GET /') >= len(paths), written
    assert [token for token in tokens if token in written] == []
    for kind in ("play", "api/play", "host", "watch", "unsubscribe", "my", "confirm"):
        assert f"GET /{kind}/[token]" in written, kind


def test_the_app_s_own_log_lines_hold_no_token(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(app_config(tmp_path, None))
    token = app.extensions["pbem"].signer.host_token("abc", 1)
    with caplog.at_level(logging.INFO):
        # the dev server's request line, and a warning of ours about a request's path
        logging.getLogger("werkzeug").info('127.0.0.1 - - "%s %s HTTP/1.1" 200 -', "GET", f"/host/{token}")
        logging.getLogger("service.web.errors").warning("%s %s: unavailable", "GET", f"/api/play/{token}")
        logging.getLogger("service.mail.delivery").warning("reply to play+%s@pbem.localhost", token)
    assert token not in caplog.text and token.split(".")[0] not in caplog.text
    assert "/host/[token]" in caplog.text and "/api/play/[token]" in caplog.text
    assert "play+[token]@pbem.localhost" in caplog.text
    app.extensions["pbem"].engine.dispose()

"""A live embedded server on 127.0.0.1 and Debian's chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask
from werkzeug.serving import make_server

from service import create_app
from tests.conftest import app_config, unavailable

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def live_server(tmp_path: Path, redis_url: str) -> Iterator[tuple[str, Flask]]:
    """The embedded service (SQLite, tasks in-process, local outbox) on a free local port, with its
    seat pictures kept in Redis as a deployment's are (every browser flow reads through them)."""
    redis.Redis.from_url(redis_url).flushdb()
    app = create_app(app_config(tmp_path, None, PICTURE_CACHE_URL=redis_url))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PBEM"]["BASE_URL"] = base
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base, app
    server.shutdown()


def confirm_by_mail(page, base: str) -> None:  # type: ignore[no-untyped-def]
    """After the create page, confirm the game as its host does: the host's mail on the outbox page,
    its link, then the confirm page's button."""
    from playwright.sync_api import expect

    expect(page.get_by_text("We sent a mail to")).to_be_visible()
    page.goto(f"{base}/outbox")
    page.get_by_role("link", name=re.compile("^Confirm your game of")).first.click()
    page.get_by_role("link", name="Confirm and send the invitations").click()
    page.get_by_role("button", name="Confirm and send the invitations").click()


@pytest.fixture
def page():  # type: ignore[no-untyped-def]
    """A fresh headless chromium page."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        unavailable("chromium", FileNotFoundError(CHROMIUM))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
        yield context.new_page()
        browser.close()

"""Web Push in a real browser (Debian's chromium): the seat page's "notify me on this device"
asks for the permission, registers the service worker (/sw.js, under the pages' Content Security
Policy), subscribes with the service's VAPID public key and posts the subscription through the page's
form; a test ping then reaches the local push endpoint encrypted for that browser, and the same push
delivered to the real service worker shows the notification.

Headless chromium has no push service to subscribe at (its subscribe() waits on Google's servers,
which this machine cannot reach), so `PushManager.subscribe` alone is stood in for by a script that
returns a subscription to the test's local push endpoint with keys the test holds, and records the
key the page subscribed with; everything else (the feature check, the permission, the worker's
registration and its push handler, the form and its CSRF token, the server's checks) is the real one."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from flask import Flask
from playwright.sync_api import Worker, expect

from service.channels.vapid import new_keys, public_key
from service.play.hosting import Player, create_game
from tests.service.push_browser import Browser
from tests.service.receiver import Receiver

pytestmark = pytest.mark.browser

STAND_IN = """
(() => {
  const subscription = %s;
  PushManager.prototype.getSubscription = async () => null;
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    sessionStorage.setItem("subscribedWith", btoa(String.fromCharCode(...key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, ""));
    return { toJSON: () => subscription };
  };
})();
"""


def open_channels(page) -> None:  # type: ignore[no-untyped-def]
    if not page.locator("details#channels").evaluate("panel => panel.open"):
        page.locator("#channels summary").click()


# Notes, inside the service worker, each notification it asks the browser to show. Headless Chromium
# may close a shown notification before a page's `getNotifications` finds it, so the test reads the
# worker's own request rather than the browser's list.
NOTE_SHOWN = """() => {
  self.shown = [];
  const show = self.registration.showNotification.bind(self.registration);
  self.registration.showNotification = (title, options) => {
    self.shown.push({title, body: options.body, tag: options.tag, url: options.data.url});
    return show(title, options);
  };
}"""


def shown_by(worker: Worker, within_ms: int = 10_000) -> list[dict[str, str]]:
    """The notifications the service worker has asked to show, once it asks (none after `within_ms`)."""
    for _ in range(within_ms // 100):
        shown: list[dict[str, str]] = worker.evaluate("self.shown")
        if shown:
            return shown
        time.sleep(0.1)
    return []


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    server.start()
    yield server
    server.stop()


def test_notify_me_on_this_device_subscribes_and_the_worker_shows_the_push(  # type: ignore[no-untyped-def]
    live_server: tuple[str, Flask], page, receiver: Receiver
) -> None:
    base, app = live_server
    rt = app.extensions["pbem"]
    rt.settings.update(VAPID_PRIVATE_KEY=new_keys().private, CHANNEL_ALLOW_LOOPBACK=True)
    with app.app_context():
        game_id = create_game(
            rt,
            "red_black",
            [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")],
            Player("Host", "host@example.org"),
            seed=1,
        )
        table = rt.read_table(game_id)
        token = rt.signer.player_token(game_id, 0, table.seats[0].key_version)
    browser = Browser()
    endpoint = receiver.url("/push/ann-phone")
    page.context.grant_permissions(["notifications"], origin=base)
    page.context.add_init_script(STAND_IN % json.dumps(browser.subscription(endpoint)))
    cdp = page.context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
    )
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if "Content Security" in message.text else None,
    )

    page.goto(f"{base}/play/{token}")
    open_channels(page)
    page.get_by_role("button", name="Notify me on this device").click()
    expect(page.get_by_text("This device will be notified")).to_be_visible()
    expect(page.locator("#channels")).to_contain_text("Notifications on a device: Web Push (127.0.0.1)")
    assert page.evaluate("sessionStorage.getItem('subscribedWith')") == public_key(rt.settings)
    worker = page.evaluate(
        "navigator.serviceWorker.getRegistration('/play/').then(r => r && r.active && r.active.scriptURL)"
    )
    assert worker == f"{base}/sw.js"
    assert violations == []

    open_channels(page)
    page.get_by_role("button", name="Send a test ping").click()
    expect(page.get_by_text("A test ping is on its way.")).to_be_visible()
    (push,) = receiver.on("/push/ann-phone")
    notice = browser.opened(push)
    assert notice["event"] == "channel_test" and notice["url"].startswith(f"{base}/play/")

    # The push as the browser would hand it to the worker, decrypted: the worker shows it.
    assert registrations
    (service_worker,) = page.context.service_workers
    service_worker.evaluate(NOTE_SHOWN)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registrations[-1], "data": json.dumps(notice)},
    )
    assert shown_by(service_worker) == [
        {"title": notice["title"], "body": notice["text"], "tag": game_id, "url": notice["url"]}
    ]

"""A whole game of Duālis where every seat is pinged by a different channel and the table has its
group channel, all at one real local receiver: a signed JSON webhook, Slack's and Matrix's webhooks
and ntfy by Apprise URL for the seats (the last seat reading Japanese), Discord's for the table.
Apprise's Discord and Slack notifiers post to those services' own hosts, so here they are pointed at
the receiver (their real code, their real payloads). Each seat hears exactly once of each move it
owes and once of the end, in its language; the table hears of each change of whose move it is, with
the seats' mentions and the watch link only; nothing comes after the end; and no notice, on any
channel, names a card (the leak check of the mails, on every channel's words)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from apprise.plugins.discord import NotifyDiscord
from apprise.plugins.slack import NotifySlack
from flask import Flask

from service.tasks.recovery import sweep as sweep_all
from tests.helpers import mails, post_form, same_link, without_links
from tests.service.receiver import Received, Receiver
from tests.service.test_channel_mentions import set_mention
from tests.service.test_channel_settings import set_seat
from tests.service.test_channels import add, channel_app, seat_token, signed_ok
from tests.service.test_replay_leaks import cards_in
from tests.service.turns import new_game, people, play, stepping, to_act

NAMES = ("Ann", "Bo", "Cy", "Di")
SLACK = "/services/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7"
DISCORD = (
    "/api/webhooks/417429632418316298/JHZ7lQml277CDHmQKMHI8qBe7bk2ZwO5UKjCiOAF7711o33MyqU344Qpgv7YTpadV_js"
)
MATRIX = "/api/v1/matrix/hook/cy-hook-token"


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    server = Receiver()
    server.start()
    monkeypatch.setattr(NotifyDiscord, "notify_url", server.url("/api/webhooks"))
    monkeypatch.setattr(NotifySlack, "webhook_url", server.url("/services"))
    yield server
    server.stop()


@pytest.fixture
def app(clean_pg: str, tmp_path: Path) -> Iterator[Flask]:
    flask_app = channel_app(tmp_path, clean_pg)
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def said(requests: list[Received]) -> list[str]:
    """What each request told, as text (the JSON bodies whole)."""
    return [request.body.decode() for request in requests]


def test_a_whole_game_pings_every_seat_on_its_channel_and_the_table_on_its_own(
    app: Flask, receiver: Receiver
) -> None:
    rt, clock = stepping(app, datetime.now(UTC))
    client = app.test_client()
    game_id = new_game(rt, "dualis", people(*NAMES), options={"short": True})
    set_seat(app, game_id, 3, language="ja")
    hook = add(client, seat_token(rt, game_id, 0), receiver.url("/own-hook"))
    add(client, seat_token(rt, game_id, 1), "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7")
    add(client, seat_token(rt, game_id, 2), f"matrix://cy-hook-token@127.0.0.1:{receiver.port}/?mode=matrix")
    add(client, seat_token(rt, game_id, 3), f"ntfy://127.0.0.1:{receiver.port}/di-topic")
    assert set_mention(client, seat_token(rt, game_id, 1), "<@80351110224678912>")[0] == 200
    host = rt.signer.host_token(game_id, 1)
    discord = DISCORD.removeprefix("/api/webhooks/")
    post_form(client, f"/host/{host}", f"/host/{host}/channels", url=f"discord://{discord}")

    changes = 0
    while to_act(rt, game_id):
        waiting = to_act(rt, game_id)
        play(rt, game_id, min(waiting))
        changes += to_act(rt, game_id) != waiting
        clock.advance(seconds=61)  # past the group channel's minute, each change its own notice
        sweep_all(rt)
    heard = len(receiver.received)
    clock.advance(hours=30)
    sweep_all(rt)
    assert len(receiver.received) == heard  # nothing after the end

    webhook = [json.loads(r.body) for r in receiver.on("/own-hook")]
    slack = [json.loads(r.body) for r in receiver.on(SLACK)]
    matrix = [json.loads(r.body) for r in receiver.on(MATRIX)]
    ntfy = [json.loads(r.body) for r in receiver.on("/") if b"di-topic" in r.body]
    table = [json.loads(r.body) for r in receiver.on(DISCORD)]
    # Each seat: once per move it owed (its mail's count: every seat reads its mail each turn), then
    # the end once, last.
    for seat, pings in enumerate((webhook, slack, matrix, ntfy)):
        owed = len(mails(app, to=f"{NAMES[seat].lower()}@example.org", kind="your_turn"))
        assert owed > 3 and len(pings) == owed + 1, (seat, len(pings), owed)
    assert [p["event"] for p in webhook] == ["your_turn"] * (len(webhook) - 1) + ["game_over"]
    deliveries = [r.headers["X-Pbem-Delivery"] for r in receiver.on("/own-hook")]
    assert len(set(deliveries)) == len(deliveries)
    assert all(
        signed_ok(hook["signing_key"], r.body, r.headers["X-Pbem-Signature-256"])
        for r in receiver.on("/own-hook")
    )
    assert all(same_link(p["url"], f"http://localhost/play/{seat_token(rt, game_id, 0)}") for p in webhook)
    # Each in its reader's language: the Japanese seat's ntfy, the others' in English.
    assert all("あなたの番" in p["title"] + p["message"] for p in ntfy[:-1]), ntfy[0]
    assert all(p["language"] == "en" and p["text"].startswith("Your move") for p in webhook[:-1])
    assert all("Your move" in json.dumps(p) for p in slack[:-1] + matrix[:-1])
    # The table: each change of whose move it is, with the mention, the watch link and no seat's.
    assert len(table) == changes
    contents = [p["content"] if "content" in p else json.dumps(p) for p in table]
    assert any("Bo <@80351110224678912>" in text for text in contents)
    assert "Game over" in json.dumps(table[-1])
    assert all("/watch/" in text and "/play/" not in text for text in said(receiver.on(DISCORD)))
    # No card on any channel, nor any other seat's link on a seat's channel.
    for text in said(receiver.received):
        assert not cards_in("dualis", without_links(json.loads(json.dumps(text)))), text
    for seat, requests in enumerate(
        (
            receiver.on("/own-hook"),
            receiver.on(SLACK),
            receiver.on(MATRIX),
            [r for r in receiver.on("/") if b"di-topic" in r.body],
        )
    ):
        others = [seat_token(rt, game_id, other) for other in range(4) if other != seat]
        assert not any(token in text for text in said(requests) for token in others)

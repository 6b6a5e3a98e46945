"""The beat's digest task in the real Celery worker: it drafts a due digest and the worker delivers
it by SMTP with its one-click unsubscribe headers (exactly-once is proven in tests/service)."""

from __future__ import annotations

import pytest
from flask import Flask

from service.eventlog.models import MailStatus
from service.play.hosting import Player, create_game
from service.tasks.jobs import send_digests
from tests.helpers import mails, play_path, wait_until
from tests.smtp_sink import SmtpSink

ANN = "ann@example.org"


@pytest.fixture
def worker_settings(worker_settings: dict) -> dict:
    """The worker keeps the real clock: with the digest hour at midnight a digest is due all day."""
    return {**worker_settings, "DIGEST_HOUR": 0}


def test_the_digest_task_sends_one_digest_through_the_worker(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    client = worker_app.test_client()
    for rival in ("Bo", "Cy"):
        create_game(
            worker_app.extensions["pbem"],
            "red_black",
            [Player("Ann", ANN), Player(rival, f"{rival.lower()}@example.org")],
            Player("Host", "host@example.org"),
            seed=1,
        )
        link = play_path(mails(worker_app, to=ANN, kind="invitation")[-1])
        assert client.post(f"/api{link}/settings", json={"notify": "digest"}).status_code == 200
    send_digests.delay()
    send_digests.delay()  # a second run (as after a beat restart) finds the day's digest written
    wait_until(lambda: [m.status for m in mails(worker_app, kind="digest")] == [MailStatus.SENT])
    (digest,) = [m for m in smtp_sink.collector.to(ANN) if "daily digest" in m["Subject"]]
    assert "2 games wait for your move" in digest["Subject"]
    assert digest["List-Unsubscribe"].startswith("<http://localhost/unsubscribe/")
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

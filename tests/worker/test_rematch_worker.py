"""A rematch on PostgreSQL with the real worker: the game played through the worker, the proposal
delivered by SMTP, the answer given from the mailed link, the next game's invitations delivered and
its first moves applied by the worker."""

from __future__ import annotations

import random

from flask import Flask

from service.eventlog.models import MailStatus
from tests.helpers import PLAY_LINK, mails
from tests.service.play import play_by_api
from tests.smtp_sink import SmtpSink, headline
from tests.worker.test_worker import EMAILS, new_game, wait_until


def text_of(message) -> str:  # type: ignore[no-untyped-def]
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode()


def test_a_rematch_through_the_worker_and_smtp(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    rt = worker_app.extensions["pbem"]
    client = worker_app.test_client()
    _, (ann, bo) = new_game(worker_app, seed=8)
    play_by_api(client, [ann, bo], random.Random(8))
    assert client.post(f"/api{ann}/rematch", json={"rotate": True}).get_json()["next_game"] is None

    wait_until(lambda: any("proposes a rematch" in headline(m) for m in smtp_sink.collector.to(EMAILS[1])))
    (proposal,) = [m for m in smtp_sink.collector.to(EMAILS[1]) if "proposes a rematch" in headline(m)]
    match = PLAY_LINK.search(text_of(proposal))
    assert match
    second = client.post(f"/api{match.group(1)}/rematch/answer", json={"accept": True}).get_json()[
        "next_game"
    ]
    assert second and rt.read_table(second).names == ["Bo", "Ann"]

    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(worker_app)))
    invited = [m for m in smtp_sink.collector.messages if "invited" in headline(m)]
    assert len(invited) == 4  # two games, two players each
    links = [
        PLAY_LINK.search(m.text_body) for m in mails(worker_app, kind="invitation") if m.game_id == second
    ]
    paths = [link.group(1) for link in links if link]
    assert client.get(f"/api{paths[0]}").get_json()["rematch"]["series"]["matches"] == 1
    state = client.get(f"/api{paths[0]}").get_json()
    moved = client.post(f"/api{paths[0]}", json={"action": state["legal_actions"][0], "seq": state["seq"]})
    assert moved.get_json()["status"] == "accepted"  # applied by the worker
    assert client.get(f"/api{ann}").get_json()["rematch"]["next"]

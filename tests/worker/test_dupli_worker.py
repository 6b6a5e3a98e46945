"""Dupli with the real Celery worker on Redis and PostgreSQL and a real SMTP sink: a 3-player and a
4-player game played through the links the delivered mails carry, all four wars, with the Charge
window, Benevolence aiming and a Patriotism answer scripted into the first war, then random legal play."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from rules.dupli import GAME
from service.eventlog.models import EventRecord, MailStatus
from service.play.hosting import Player, create_game
from tests.helpers import PLAY_LINK, mails, wait_until
from tests.service.play import play_by_api
from tests.service.test_dupli_game import ANN, ANNS_CHARGE, BO, EMAILS, NAMES, OPENING, deck
from tests.smtp_sink import SmtpSink, body


def delivered(sink: SmtpSink, email: str, headline: str = "") -> list[str]:
    """The plain-text bodies of the mails the sink received for this address, oldest first (those
    whose headline, their first line, starts so)."""
    return [text for m in sink.collector.to(email) if (text := body(m)).startswith(headline)]


def link_in(text: str) -> str:
    match = PLAY_LINK.search(text)
    assert match, "no player link in the mail"
    return match.group(1)


def act(client: FlaskClient, link: str, action: dict[str, Any]) -> None:
    """A move through the link's JSON twin; the worker must accept it."""
    seq = client.get("/api" + link).get_json()["seq"]
    response = client.post("/api" + link, json={"action": action, "seq": seq})
    assert response.status_code == 200 and response.get_json()["status"] == "accepted", response.get_json()


def recorded(app: Flask, game_id: str) -> list[EventRecord]:
    with Session(app.extensions["pbem"].engine) as session:
        query = select(EventRecord).where(EventRecord.game_id == game_id).order_by(col(EventRecord.seq))
        return list(session.exec(query).all())


@pytest.mark.parametrize("seats", [3, 4])
def test_whole_game_through_the_mailed_links(worker_app: Flask, smtp_sink: SmtpSink, seats: int) -> None:
    emails = EMAILS[:seats]
    game_id = create_game(
        worker_app.extensions["pbem"],
        "dupli",
        [Player(n, e) for n, e in zip(NAMES, emails, strict=False)],
        Player("Host", "host@example.org"),
        options={"deck": deck(OPENING[:seats], seed=seats)},
        seed=seats,
    )
    wait_until(lambda: all(delivered(smtp_sink, e, "You are invited") for e in emails))
    links = [link_in(delivered(smtp_sink, e, "You are invited")[0]) for e in emails]
    client = worker_app.test_client()

    # War 1, scripted: Ann's Charge opens the window, Bo aims at it, Ann spends her Patriotism.
    for seat in range(seats):
        act(client, links[seat], {"set": OPENING[seat]})
    for seat in range(1, seats):
        act(client, links[seat], {"set": OPENING[seat]})
    act(client, links[BO], {"target": ANNS_CHARGE})
    act(client, links[ANN], {"cancel": True})
    play_by_api(client, links, random.Random(seats))

    # The result is the one the rules give for the stored log, after four wars.
    game = worker_app.extensions["pbem"].read_table(game_id)
    assert game.record.status == "finished"
    final = GAME.view(GAME.fold(game.events), None)
    result = final["result"]
    assert result["winners"] == [s for s in range(seats) if result["vp"][s] == max(result["vp"])]
    assert sum(result["vp"]) + final["removed"] + len(final["centre_cards"]) == 8 * seats
    events = recorded(worker_app, game_id)
    types = [e.type for e in events]
    for kind in ("ChargeRevealed", "SwapAnswered", "BenevolenceAimed", "PatriotismAnswered"):
        assert kind in types, kind
    assert types.count("WarResolved") == 4 and types[-1] == "GameEnded"
    aimed = next(e for e in events if e.type == "BenevolenceAimed")
    assert aimed.data["target"] == ANNS_CHARGE and aimed.data["outcome"] == "asked"
    answered = next(e for e in events if e.type == "PatriotismAnswered")
    assert answered.seat == ANN and answered.data["cancel"] is True

    # Every mail was delivered by SMTP.
    ours = lambda: [m for m in mails(worker_app) if m.game_id == game_id]  # noqa: E731
    wait_until(lambda: all(m.status == MailStatus.SENT for m in ours()))
    assert len(smtp_sink.collector.messages) == len(ours())
    # A mail for each decision owed: the Charge answer (Bo, Cy, ...), Bo's aim, Ann's Patriotism answer.
    assert any("Charge revealed: Ann." in b for b in delivered(smtp_sink, EMAILS[BO], "Your move"))
    assert any(
        "Bo's Benevolence aims at Ann's Charge." in b for b in delivered(smtp_sink, EMAILS[ANN], "Your move")
    )
    your_move_before_aim = delivered(smtp_sink, EMAILS[BO], "Your move")
    assert any("Reveal: Ann Charge + Patriotism" in b for b in your_move_before_aim)
    # Each war's report reached every seat (wars 1-3 in the mail asking for the next set), then the
    # game-over mail reached every seat.
    for war in range(1, 5):
        for email in emails:
            assert any(f"War {war}: " in b for b in delivered(smtp_sink, email)), (war, email)
    winners = ", ".join(NAMES[w] for w in result["winners"])
    for email in emails:
        over = delivered(smtp_sink, email, "Game over")
        assert len(over) == 1 and winners in over[0] and re.search(r"/play/", over[0])

"""Test helpers: reading forms and links out of pages and mails, the way a browser would."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select
from werkzeug.test import TestResponse

from service.eventlog.models import EventRecord, OutboxMail
from service.runtime import Clock

PLAY_LINK = re.compile(r"http://localhost(/play/[A-Za-z0-9_.\-]+)")
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/confirm/[A-Za-z0-9_.\-]+)")


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (name, value) of submit buttons
    ticks: list[tuple[str, str]] = field(default_factory=list)  # (name, value) of checkboxes
    coin_cards: set[str] = field(default_factory=set)  # the cards whose buttons may take a coin

    def actions(self) -> list[dict[str, Any]]:
        """Every move the form can submit: each `action` button's, a card's with the coin box ticked
        (where its button says a coin can be taken), and a set button's with any two ticked cards."""
        moves: list[dict[str, Any]] = []
        for name, value in self.buttons:
            if name != "action":
                continue
            action = json.loads(value)
            if action == {"set": []}:
                moves += [{"set": pair} for pair in self.tickable_pairs()]
                continue
            moves.append(action)
            if action.get("card") in self.coin_cards:
                moves.append({**action, "coin": True})
        return [move for n, move in enumerate(moves) if move not in moves[:n]]

    def tickable_pairs(self) -> list[list[str]]:
        """Each sorted pair of the `set` boxes, as ticking two of them would send."""
        cards = [value for name, value in self.ticks if name == "set"]
        return [sorted((a, b)) for i, a in enumerate(cards) for b in cards[i + 1 :]]

    def data(self, action: dict[str, Any]) -> dict[str, Any]:
        """The fields a browser sends for `action` (hidden fields included): the button pressed, with
        the coin box or the `set` boxes ticked as the move needs."""
        values = [json.loads(value) for name, value in self.buttons if name == "action"]
        if action in values:
            return {**self.fields, "action": json.dumps(action)}
        if action.get("coin") and {"card": action["card"]} in values:
            return {**self.fields, "action": json.dumps({"card": action["card"]}), "coin": "yes"}
        if "set" in action and {"set": []} in values:
            return {**self.fields, "action": json.dumps({"set": []}), "set": list(action["set"])}
        raise AssertionError(f"the form offers no way to submit {action}")


class FormParser(HTMLParser):
    """Every <form> of a page with its hidden inputs, checkboxes and submit buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(a.get("action", "")))
        if tag == "form" or not self.forms:
            return
        form = self.forms[-1]
        if tag == "input" and a.get("type") == "hidden":
            form.fields[a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "checkbox":
            form.ticks.append((a["name"], a.get("value", "")))
        elif tag == "button" and a.get("name") and "disabled" not in a:
            form.buttons.append((a["name"], a.get("value", "")))
            if "data-coin" in a:
                form.coin_cards.add(json.loads(a["value"])["card"])


def forms(html: str) -> list[Form]:
    parser = FormParser()
    parser.feed(html)
    return parser.forms


def post_form(client: FlaskClient, page: str, action_suffix: str, **extra: str) -> TestResponse:
    """Submit the form of `page` whose action ends with `action_suffix`, as a browser would (with its
    hidden fields, CSRF token included), plus `extra` fields."""
    form = next(f for f in forms(client.get(page).get_data(as_text=True)) if f.action.endswith(action_suffix))
    return client.post(form.action, data={**form.fields, **extra})


def confirm_path(mail: OutboxMail) -> str:
    """The /confirm/<token> path of a host's mail asking to confirm a game."""
    match = CONFIRM_LINK.search(mail.text_body)
    assert match, f"no confirm link in mail {mail.subject!r}"
    return match.group(1)


def confirmed(client: FlaskClient, created: TestResponse) -> TestResponse:
    """The create page's answer followed as its host would: open the link of the mail asking to
    confirm the game and press the button. The confirmation's answer (303 to the host page)."""
    assert created.status_code == 303, created.get_data(as_text=True)[:3000]
    assert created.headers["Location"].endswith("/check-your-mail"), created.headers["Location"]
    mail = mails(client.application, kind="confirm_game")[-1]
    return post_form(client, confirm_path(mail), "/confirm/" + confirm_path(mail).split("/")[-1])


def move_form(html: str) -> Form | None:
    """The form holding the move buttons, if the page offers moves."""
    return next((f for f in forms(html) if f.actions()), None)


def mails(app: Flask, to: str | None = None, kind: str | None = None) -> list[OutboxMail]:
    """Outbox rows, oldest first, optionally for one address and kind."""
    with Session(app.extensions["pbem"].engine) as session:
        query = select(OutboxMail).order_by(col(OutboxMail.id))
        if to:
            query = query.where(OutboxMail.to_email == to)
        if kind:
            query = query.where(OutboxMail.kind == kind)
        return list(session.exec(query).all())


SIGNED_LINK = re.compile(r"(https?://\S+|mailto:[^\s\"'<>]+|/[a-z-]+/[A-Za-z0-9_.-]{24,})")


def without_links(body: str) -> str:
    """A mail or page body without its URLs (mailto: ones too) and signed paths, whose random tokens
    could contain a short card code by chance (a leak check looks at what a reader is told, not at
    link tokens; a mail's mailto: bodies are checked decoded, in test_mail_table_hidden.py)."""
    return SIGNED_LINK.sub(" ", body)


def play_path(mail: OutboxMail) -> str:
    """The /play/<token> path a mail links to."""
    match = PLAY_LINK.search(mail.text_body)
    assert match, f"no player link in mail {mail.subject!r}"
    return match.group(1)


def moves_by_origin(app: Flask, game_id: str) -> Counter[str]:
    """How many moves of a game were made by hand, by the seat-keeper and by auto-play (a seat's
    moves: not the decisions about the table, whose event has no seat)."""
    table = app.extensions["pbem"].read_table(game_id)
    return Counter(
        origin
        for i, origin in enumerate(table.origins)
        if table.starts_move(i) and table.actors[i] is not None
    )


def same_link(first: str, second: str) -> bool:
    """Whether two /play paths are the same seat's link (tokens differ only in their signing second)."""
    return first.split(".")[0] == second.split(".")[0]


def event_count(app: Flask, game_id: str) -> int:
    with Session(app.extensions["pbem"].engine) as session:
        return len(session.exec(select(EventRecord.id).where(EventRecord.game_id == game_id)).all())


class SteppingClock(Clock):
    """Wall time that moves only when a test says so (monotonic time and sleeping stay real)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> None:
        self._now += timedelta(**delta)


def wait_until(condition: Callable[[], object], timeout: float = 60.0) -> None:
    """Poll `condition` until it holds (a worker in another process is doing the work); fail after
    `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)

"""A page's template is given players' names, never their addresses: only the host's page, which
shows them to the host, is handed the seats' addresses."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlmodel import Session, select

from service.eventlog.models import SeatRecord
from service.mail.drafting import host_url, player_url, watch_url
from service.play.hosting import Player, create_game

ADDRESSES = ("ann@example.org", "bo@example.org", "cy@example.org")


def strings_in(value: Any, seen: set[int] | None = None) -> Iterator[str]:
    """Every string held anywhere in a template context's value."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key, seen)
            yield from strings_in(item, seen)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from strings_in(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings_in(getattr(value, field.name), seen)


def addresses_given(app: Flask, client: FlaskClient, url: str) -> dict[str, set[str]]:
    """The seats' addresses found in each template's context (in any string of it) while `url` renders."""
    found: dict[str, set[str]] = {}

    def record(_app: Flask, template: Any, context: dict[str, Any], **_extra: object) -> None:
        held = list(strings_in(context))
        found.setdefault(template.name, set()).update(a for a in ADDRESSES if any(a in text for text in held))

    with template_rendered.connected_to(record, app):
        assert client.get(urlsplit(url).path).status_code == 200
    return found


def test_only_the_host_page_is_given_the_seats_addresses(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    players = [Player(name, address) for name, address in zip(("Ann", "Bo", "Cy"), ADDRESSES, strict=True)]
    table = rt.read_table(create_game(rt, "dupli", players, players[0], seed=3))

    for url in (player_url(rt, table, 1), watch_url(rt, table)):
        given = addresses_given(app, client, url)
        assert given and not any(given.values()), given

    host_page = addresses_given(app, client, host_url(rt, table))
    assert host_page["host.html"] == set(ADDRESSES)


def test_a_mail_servers_words_naming_an_address_reach_only_its_seat_and_the_host(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    players = [Player(name, address) for name, address in zip(("Ann", "Bo", "Cy"), ADDRESSES, strict=True)]
    game_id = create_game(rt, "dupli", players, players[0], seed=3)
    with Session(rt.engine) as session:
        seat = session.exec(
            select(SeatRecord).where(SeatRecord.game_id == game_id, SeatRecord.seat == 2)
        ).one()
        seat.unreachable_at = rt.clock.now()
        seat.unreachable_reason = "550 5.1.1 <cy@example.org>: Recipient address rejected"
        session.add(seat)
        session.commit()
    table = rt.read_table(game_id)

    for url in (player_url(rt, table, 1), watch_url(rt, table)):
        given = addresses_given(app, client, url)
        assert not any(given.values()), given
    assert "Mail to Cy is not arriving" in client.get(urlsplit(player_url(rt, table, 1)).path).get_data(
        as_text=True
    )
    assert addresses_given(app, client, player_url(rt, table, 2))["play.html"] == {"cy@example.org"}
    assert "cy@example.org" in addresses_given(app, client, host_url(rt, table))["host.html"]

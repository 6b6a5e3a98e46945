"""The home page, the local outbox (paged and filtered) and static files (versioned, cached long)."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from rules import GAMES, get_game
from service.eventlog.models import OutboxMail
from service.play.hosting import Player, create_game
from service.web.assets import STATIC_MAX_AGE
from service.web.outbox import PAGE_SIZE
from tests.helpers import mails, move_form, play_path


def test_home_page_states_each_games_own_player_counts(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    stated = re.findall(r"<p class=\"muted\" data-seat-counts>([^<]*)</p>", html)
    expected = [" or ".join(map(str, get_game(name).seat_counts)) + " players" for name in GAMES]
    assert stated == expected
    assert stated.count("2 players") <= 1  # not "2 players" for every game


def add_mails(app: Flask, count: int, to: str, game_id: str | None = None) -> None:
    """`count` kept mails to one address (the outbox lists what is stored, whatever wrote it)."""
    rt = app.extensions["pbem"]
    with Session(rt.engine) as session:
        for n in range(count):
            session.add(
                OutboxMail(
                    game_id=game_id,
                    kind="digest",
                    to_email=to,
                    subject="A game",
                    text_body=f"Mail {n} to {to}\n",  # its headline: what the outbox links
                    html_body="",
                    message_id=f"<{to}.{n}@example.org>",
                    thread_id=f"<{to}@example.org>",
                    status="kept",
                    created_at=rt.clock.now(),
                    next_attempt_at=rt.clock.now(),
                )
            )
        session.commit()


def listed(client: FlaskClient, query: str) -> list[str]:
    html = client.get(f"/outbox{query}").get_data(as_text=True)
    return re.findall(r">(Mail \d+ to [^<]+)</a>", html)


def test_outbox_pages_through_every_mail_newest_first(app: Flask, client: FlaskClient) -> None:
    add_mails(app, PAGE_SIZE + 30, "ann@example.org")
    add_mails(app, 30, "bo@example.org")
    first, second, third = (listed(client, f"?page={n}") for n in (1, 2, 3))
    assert len(first) == len(second) == PAGE_SIZE and len(third) == 10
    assert first[0] == "Mail 29 to bo@example.org" and third[-1] == "Mail 0 to ann@example.org"
    assert len(set(first + second + third)) == PAGE_SIZE + 60  # every mail once
    assert 'href="/outbox?page=2"' in client.get("/outbox").get_data(as_text=True)


def test_outbox_filters_by_address_and_game(app: Flask, client: FlaskClient) -> None:
    add_mails(app, 3, "ann@example.org")
    add_mails(app, 2, "bo@example.org")
    assert listed(client, "?to=BO@example.org") == ["Mail 1 to bo@example.org", "Mail 0 to bo@example.org"]
    assert listed(client, "?game=nosuchgame") == []
    assert "No mail matches." in client.get("/outbox?to=cy@example.org").get_data(as_text=True)


def test_outbox_refuses_a_bad_page_number(client: FlaskClient) -> None:
    for page in ("0", "-1", "two", "9" * 30):
        assert client.get(f"/outbox?page={page}").status_code == 400


def test_static_files_have_versioned_urls_and_a_long_cache(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    style = re.search(r'href="(/static/style\.css\?v=[0-9a-f]{12})"', html)
    assert style is not None and re.search(r'rel="icon" href="/static/favicon\.svg\?v=[0-9a-f]{12}"', html)
    response = client.get(style.group(1))
    assert response.status_code == 200
    assert response.cache_control.max_age == STATIC_MAX_AGE


def test_the_create_form_offers_fewer_players_only_where_the_game_allows_it(client: FlaskClient) -> None:
    for game in GAMES:
        html = client.get(f"/new/{game}").get_data(as_text=True)
        fewer = "Leave the last rows empty for fewer players." in html
        assert fewer == (len(get_game(game).seat_counts) > 1), game


def test_the_tab_title_says_your_move_only_to_the_seat_that_owes_one(app: Flask, client: FlaskClient) -> None:
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    game_id = create_game(app.extensions["pbem"], "red_black", players, players[0], seed=3)
    table = app.extensions["pbem"].read_table(game_id)
    assert table.rules.to_act(table.state) == {0, 1}  # both choose a camp card at once
    titles = [
        re.search(r"<title>([^<]*)</title>", client.get(play_path(mail)).get_data(as_text=True)).group(1)
        for mail in mails(app, kind="invitation")
    ]
    assert all(title.startswith("Your move · ") for title in titles)
    first = mails(app, to="ann@example.org", kind="invitation")[0]
    form = move_form(client.get(play_path(first)).get_data(as_text=True))
    assert form is not None
    client.post(form.action, data={**form.fields, "action": json.dumps(form.actions()[0])})
    after = client.get(play_path(first)).get_data(as_text=True)
    assert "<title>Your move" not in after  # Ann waits for Bo now


def test_the_dupli_blurb_speaks_the_rulebooks_words(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    assert "Set two policy cards in secret each war; the strongest pair takes the field" in home
    assert "revolution" not in home.lower()  # the rulebook's card is Subversion

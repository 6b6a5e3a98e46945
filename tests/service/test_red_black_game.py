"""A whole Red and Black Duel through the service, from the create-game page to the game-over mail,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from service.play.hosting import Player, create_game
from tests.helpers import confirmed, forms, mails, without_links
from tests.service.play import play_by_api, play_by_pages, seat_links

EMAILS = ["ann@example.org", "bo@example.org"]


def create_from_page(client: FlaskClient) -> str:
    """Create a game the way a new user does; returns the host page path."""
    page = client.get("/new/red_black")
    assert page.status_code == 200
    token = forms(page.get_data(as_text=True))[0].fields["csrf_token"]
    created = client.post(
        "/new/red_black",
        data={
            "csrf_token": token,
            "host_name": "Ann",
            "host_email": EMAILS[0],
            "players-0-name": "Ann",
            "players-0-email": EMAILS[0],
            "players-1-name": "Bo",
            "players-1-email": EMAILS[1],
            "seed": "7",
        },
    )
    response = confirmed(client, created)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def test_create_page_sends_invitations_and_host_link(app: Flask, client: FlaskClient) -> None:
    host_path = create_from_page(client)
    assert client.get(host_path).status_code == 200
    assert [m.to_email for m in mails(app, kind="invitation")] == EMAILS
    host_mail = mails(app, kind="host")[0]
    assert host_path.split(".")[0] in host_mail.text_body  # the same link, maybe signed a second later
    assert "It is your move now." in mails(app, to=EMAILS[1], kind="invitation")[0].text_body


def test_whole_game_through_pages_ends_with_game_over_mail(app: Flask, client: FlaskClient) -> None:
    create_from_page(client)
    moves = play_by_pages(client, seat_links(app, EMAILS), random.Random(1))
    over = mails(app, kind="game_over")
    assert moves > 10
    assert sorted(m.to_email for m in over) == EMAILS
    game = app.extensions["pbem"].read_table(over[0].game_id)
    result = game.rules.result(game.state)
    assert result is not None and game.record.status == "finished"
    winners = ", ".join(game.names[w] for w in result["winners"])
    assert winners in over[0].text_body or "draw" in over[0].text_body
    final = client.get(seat_links(app, EMAILS)[0]).get_data(as_text=True)
    assert "Game over." in final and "Your choices" not in final


def test_whole_game_through_the_json_api(app: Flask, client: FlaskClient) -> None:
    game_id = create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])],
        Player("Ann", EMAILS[0]),
        seed=11,
    )
    play_by_api(client, seat_links(app, EMAILS), random.Random(2))
    assert {m.to_email for m in mails(app, kind="game_over")} == set(EMAILS)
    assert app.extensions["pbem"].read_table(game_id).record.status == "finished"


def test_your_turn_mail_tells_what_happened_without_hidden_cards(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt, "red_black", [Player("Ann", EMAILS[0]), Player("Bo", EMAILS[1])], Player("Ann", EMAILS[0]), seed=5
    )
    links = seat_links(app, EMAILS)
    for link in links:  # both camp cards
        state = client.get("/api" + link).get_json()
        client.post("/api" + link, json={"action": state["legal_actions"][0], "seq": state["seq"]})
    game = rt.read_table(game_id)
    leader = game.rules.view(game.state, None)["leader"]
    state = client.get("/api" + links[leader]).get_json()
    card = next(a for a in state["legal_actions"] if "card" in a)
    client.post("/api" + links[leader], json={"action": card, "seq": state["seq"]})
    other_mail = mails(app, to=EMAILS[1 - leader], kind="your_turn")[-1]
    assert "face down" in other_mail.text_body
    told = without_links(other_mail.text_body) + without_links(other_mail.html_body)
    assert card["card"] not in told
    assert "/play/" in other_mail.text_body

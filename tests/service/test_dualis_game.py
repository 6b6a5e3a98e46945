"""Duālis through the service, on SQLite and PostgreSQL: created from the create-game page, played
to the end by clicking the pages' buttons (confirming coin plays) and through the JSON API, with the
right result, the game-over mails, and no other seat's hidden cards on anybody's page."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.play.hosting import Player, create_game
from tests.helpers import confirmed, forms, mails, move_form, moves_by_origin
from tests.service.play import seat_links

NAMES = ["Ann", "Bo", "Cy", "Di"]
EMAILS = [f"{name.lower()}@example.org" for name in NAMES]
DATA_CARD = re.compile(r'data-card="([A-Z0-9]+)"')
BUTTON_CARD = re.compile(r'"card": "([A-Z0-9]+)"')


def create_from_page(client: FlaskClient, seats: int, options: dict[str, str]) -> str:
    """Create a Duālis game through /new/dualis; returns the host page path."""
    page = client.get("/new/dualis")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for key in ("short", "high_low", "iso", "open_history"):
        assert f'name="opt_{key}"' in html
    assert 'name="first_leader"' in html
    data = {
        "csrf_token": forms(html)[0].fields["csrf_token"],
        "host_name": "Ann",
        "host_email": EMAILS[0],
        "seed": "17",
        **options,
    }
    for i in range(seats):
        data[f"players-{i}-name"] = NAMES[i]
        data[f"players-{i}-email"] = EMAILS[i]
    response = confirmed(client, client.post("/new/dualis", data=data))
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return response.headers["Location"]


def the_game(app: Flask):  # type: ignore[no-untyped-def]
    """The one game in the database, loaded."""
    return app.extensions["pbem"].read_table(mails(app, kind="host")[0].game_id)


def check_page_secrets(app: Flask, html: str, seat: int) -> None:
    """The page shows no card of another seat's hand nor a set-aside card while the game runs."""
    game = the_game(app)
    state = game.state
    if state.winners is not None:
        return
    hidden = {c for other, hand in enumerate(state.hands) if other != seat for c in hand} | set(
        state.set_aside
    )
    shown = set(DATA_CARD.findall(html)) | set(BUTTON_CARD.findall(html))
    assert not shown & hidden, f"seat {seat} sees {shown & hidden}"


def play_by_pages(app: Flask, client: FlaskClient, links: list[str], rng: random.Random) -> tuple[int, int]:
    """Play to the end by clicking the acting seat's buttons, confirming coin plays; returns
    (moves, coin plays). Checks every page's buttons against the legal actions and its secrets."""
    moves = coins = 0
    while True:
        state = client.get("/api" + links[0]).get_json()
        if not state["to_act"]:
            assert state["result"] is not None
            return moves, coins
        seat = state["to_act"][0]
        html = client.get(links[seat]).get_data(as_text=True)
        form = move_form(html)
        assert form is not None
        if moves % 7 == 0:
            legal = client.get("/api" + links[seat]).get_json()["legal_actions"]
            assert sorted(map(json.dumps, form.actions())) == sorted(
                json.dumps(a, sort_keys=True) for a in legal
            )
            check_page_secrets(app, html, seat)
        action = rng.choice(form.actions())
        data = form.data(action)
        response = client.post(links[seat], data=data)
        if action.get("coin"):
            coins += 1
            assert response.status_code == 200 and b'name="confirmed"' in response.data
            assert "It becomes" in response.get_data(as_text=True)
            response = client.post(links[seat], data={**data, "confirmed": "yes"})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        moves += 1


def check_result(app: Flask, seats: int, iso: bool) -> dict[str, Any]:
    """The game is finished; each round is scored by the rulebook formula and the winners follow
    from it; every seat got a game-over mail naming the winners."""
    game = the_game(app)
    result = game.rules.result(game.state)
    assert result is not None and game.record.status == "finished"
    rounds = [e for e in game.events if e["type"] == "RoundScored"]
    sides = [(s,) for s in range(seats)] if iso else [(0, 2), (1, 3)]
    totals = [0] * len(sides)
    for scored in rounds:
        for i, side in enumerate(sides):
            tricks = sum(scored["seat_tricks"][s] for s in side)
            coins = sum(scored["seat_coins"][s] for s in side)
            assert scored["scores"][i] == (tricks if tricks == coins else -abs(tricks - coins))
            totals[i] += scored["scores"][i] if iso else int(i in scored["winners"])
    if iso:
        assert len(rounds) == 4 or max(totals) - min(totals) >= 7
        best = [i for i, t in enumerate(totals) if t == max(totals)]
    else:
        assert max(totals) == 2 and len(rounds) in (2, 3)
        best = [totals.index(2)]
    assert result["winners"] == sorted(s for i in best for s in sides[i])
    over = mails(app, kind="game_over")
    assert sorted(m.to_email for m in over) == sorted(EMAILS[:seats])
    winners = ", ".join(game.names[w] for w in result["winners"])
    assert all(winners in mail.text_body for mail in over)
    # The seats that did not play the last card are told how it ended (describe's lines).
    assert sum("Game over:" in mail.text_body for mail in over) >= seats - 1
    return result


def test_create_a_standard_game_from_the_page(app: Flask, client: FlaskClient) -> None:
    host = create_from_page(client, 4, {"first_leader": "2"})
    assert client.get(host).status_code == 200
    game = the_game(app)
    state = game.state
    assert (state.seats, state.iso, state.short, state.high_low, state.open_history) == (
        4,
        False,
        False,
        False,
        False,
    )
    assert state.leader == 2 and all(len(hand) == 13 for hand in state.hands)
    assert [m.to_email for m in mails(app, kind="invitation")] == EMAILS
    assert "It is your move now." in mails(app, to=EMAILS[2], kind="invitation")[0].text_body


def test_create_an_iso_high_low_short_game_from_the_page(app: Flask, client: FlaskClient) -> None:
    create_from_page(client, 3, {"opt_short": "y", "opt_high_low": "y", "opt_iso": "y"})
    state = the_game(app).state
    assert (state.seats, state.iso, state.short, state.high_low, state.open_history) == (
        3,
        True,
        True,
        True,
        False,
    )
    assert all(len(hand) == 9 for hand in state.hands) and len(state.set_aside) == 52 - 27
    assert state.centre == (5, 5)
    links = seat_links(app, EMAILS[:3])
    html = client.get(links[state.leader]).get_data(as_text=True)
    assert "High-Low:" in html and "Iso Play" in html and "5 Red ▲ / 5 Blue ▼" in html


def test_iso_without_iso_option_is_refused_for_three(app: Flask, client: FlaskClient) -> None:
    page = client.get("/new/dualis").get_data(as_text=True)
    data = {"csrf_token": forms(page)[0].fields["csrf_token"], "host_name": "Ann", "host_email": EMAILS[0]}
    for i in range(3):
        data[f"players-{i}-name"], data[f"players-{i}-email"] = NAMES[i], EMAILS[i]
    response = client.post("/new/dualis", data=data)
    assert response.status_code in (200, 400, 422)
    assert not mails(app, kind="invitation")


def test_standard_game_through_the_pages(app: Flask, client: FlaskClient) -> None:
    create_from_page(client, 4, {})
    links = seat_links(app, EMAILS)
    moves, coins = play_by_pages(app, client, links, random.Random(5))
    made = moves_by_origin(app, the_game(app).game_id)
    assert made["player"] == moves and coins > 0
    assert (moves + made["auto"]) % 52 == 0 and moves + made["auto"] >= 104  # forced moves auto-played
    check_result(app, 4, iso=False)
    final = client.get(links[1]).get_data(as_text=True)
    assert "Game over." in final and "Your choices" not in final and "Rounds played" in final
    overview = client.get(f"/game/{the_game(app).game_id}").get_data(as_text=True)
    assert "Rounds played" in overview


def test_iso_high_low_short_game_through_the_pages(app: Flask, client: FlaskClient) -> None:
    create_from_page(client, 3, {"opt_short": "y", "opt_high_low": "y", "opt_iso": "y"})
    links = seat_links(app, EMAILS[:3])
    moves, _ = play_by_pages(app, client, links, random.Random(8))
    assert (moves + moves_by_origin(app, the_game(app).game_id)["auto"]) % 27 == 0
    check_result(app, 3, iso=True)


def test_standard_game_through_the_json_api(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    players = [Player(n, e) for n, e in zip(NAMES, EMAILS, strict=True)]
    create_game(rt, "dualis", players, players[0], seed=23)
    play_by_api(client, seat_links(app, EMAILS), random.Random(1))
    check_result(app, 4, iso=False)


def test_iso_through_the_json_api(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    players = [Player(n, e) for n, e in zip(NAMES[:3], EMAILS[:3], strict=True)]
    options = {"iso": True, "high_low": True, "short": True}
    create_game(rt, "dualis", players, players[0], options=options, seed=29)
    play_by_api(client, seat_links(app, EMAILS[:3]), random.Random(2))
    check_result(app, 3, iso=True)


def play_by_api(client: FlaskClient, links: list[str], rng: random.Random) -> int:
    """Play to the end through the JSON API with a random legal player; moves made."""
    moves = 0
    while True:
        to_act = client.get("/api" + links[0]).get_json()["to_act"]
        if not to_act:
            return moves
        state = client.get("/api" + links[to_act[0]]).get_json()
        action = rng.choice(state["legal_actions"])
        response = client.post("/api" + links[to_act[0]], json={"action": action, "seq": state["seq"]})
        assert response.get_json()["status"] == "accepted", response.get_json()
        moves += 1


def play_tricks(client: FlaskClient, links: list[str], tricks: int, coin: bool = False) -> None:
    """Play whole tricks through the API, the first legal card (with a coin when asked and able)."""
    for _ in range(tricks * len(links)):
        state = client.get("/api" + links[0]).get_json()
        seat = state["to_act"][0]
        legal = client.get("/api" + links[seat]).get_json()["legal_actions"]
        action = next((a for a in legal if a.get("coin")), legal[0]) if coin else legal[0]
        response = client.post("/api" + links[seat], json={"action": action, "seq": state["seq"]})
        assert response.get_json()["status"] == "accepted"


def start_fixed(app: Flask, **options: Any) -> list[str]:
    """A 4-player game with the first leader fixed at seat 0; the seats' links."""
    players = [Player(n, e) for n, e in zip(NAMES, EMAILS, strict=True)]
    create_game(app.extensions["pbem"], "dualis", players, players[0], {"first_leader": 0, **options}, seed=3)
    return seat_links(app, EMAILS)


def test_play_page_hand_is_the_move_with_the_coin_box_and_centre(app: Flask, client: FlaskClient) -> None:
    links = start_fixed(app, high_low=True)
    html = client.get(links[0]).get_data(as_text=True)
    view = client.get("/api" + links[0]).get_json()["view"]
    for card in view["hand"]:  # the hand is the move: each card a button named in words
        assert f'data-card="{card}" data-legal-move' in html
    assert html.count('<span class="visually-hidden">Play </span><span class="face">') >= 2
    assert "7 Red ▲ / 7 Blue ▼" in html and "no trump (equal coins)" in html
    assert 'name="coin" value="yes"' in html  # the coin is one choice made before the card
    for choice in (c for c in view["choices"] if c["coin"]):
        after, colour = choice["centre_after"], "Red" if choice["effective_colour"] == "R" else "Blue"
        assert f"it counts {colour}; centre {after['R']} Red ▲ / {after['B']} Blue ▼" in html
    assert "Direction: low numbers are strong (Blue lead)." in html  # a red card led with a coin
    assert "data-legal-move" not in client.get(links[1]).get_data(as_text=True)
    overview = client.get(f"/game/{the_game(app).game_id}").get_data(as_text=True)
    assert "Your hand" not in overview and not DATA_CARD.findall(overview)


def test_trick_in_progress_and_last_trick_with_reason(app: Flask, client: FlaskClient) -> None:
    links = start_fixed(app, high_low=True)
    play_tricks(client, links, 1, coin=True)
    state = client.get("/api" + links[0]).get_json()
    last = state["view"]["last_trick"]
    html = client.get(links[1]).get_data(as_text=True)
    assert "Last trick (trick 1)" in html and "won it with" in html and "at the end:" in html
    assert html.count("● coin: now") == 8  # every card carried a coin: at a glance, and with its reason below
    assert all(f'data-card="{p["card"]}"' in html for p in last["plays"])
    leader = state["to_act"][0]
    play_tricks_partial(client, links, 1)
    html = client.get(links[leader]).get_data(as_text=True)
    assert "Trick 2" in html and "If the trick ended now" in html and "this trick, " in html
    # The "your move" mail of the next seat tells what happened since its last card.
    mail = mails(app, to=EMAILS[(leader + 1) % 4], kind="your_turn")[-1]
    assert "wins trick 1 with" in mail.text_body and "played" in mail.text_body and "/play/" in mail.text_body


def play_tricks_partial(client: FlaskClient, links: list[str], cards: int) -> None:
    """Play single cards through the API (the first legal action)."""
    for _ in range(cards):
        state = client.get("/api" + links[0]).get_json()
        seat = state["to_act"][0]
        legal = client.get("/api" + links[seat]).get_json()["legal_actions"]
        client.post("/api" + links[seat], json={"action": legal[0], "seq": state["seq"]})


def test_earlier_tricks_hidden_unless_open_history(app: Flask, client: FlaskClient) -> None:
    links = start_fixed(app)
    play_tricks(client, links, 3)
    first = the_game(app).state.completed[0]
    html = client.get(links[0]).get_data(as_text=True)
    assert "lie face down" in html
    assert not {p.card for p in first.plays} & set(DATA_CARD.findall(html))


def test_open_history_shows_earlier_tricks(app: Flask, client: FlaskClient) -> None:
    links = start_fixed(app, open_history=True)
    play_tricks(client, links, 3)
    first = the_game(app).state.completed[0]
    html = client.get(links[0]).get_data(as_text=True)
    assert "Earlier tricks this round" in html
    assert {p.card for p in first.plays} <= set(DATA_CARD.findall(html))

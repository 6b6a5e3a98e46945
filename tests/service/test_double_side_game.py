"""Double Side Play through the service, on SQLite and on PostgreSQL: whole games through the pages
(3 players with trump, confirming the trump choice) and the JSON API (4 players without trump), the
page content the issue asks for, hidden cards kept hidden, and the mails."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from rules.double_side import card_name
from rules.double_side.cards import BLACK, DECK
from rules.messages import plain
from service.play.hosting import Player, create_game
from tests.helpers import mails, move_form, without_links
from tests.service.play import play_by_api, seat_links

EMAILS = ["ann@example.org", "bo@example.org", "cy@example.org", "di@example.org"]
NAMES = ["Ann", "Bo", "Cy", "Di"]
CARD_WORD = re.compile(r"\b[RBGY](?:1[0-2]|[1-9])\b")
# Round 1 fixed: seat 0 (6+5) chooses trump, seat 1 (1+2) leads; seat 2 rolls 3+4.
DICE_3 = [[[6, 5], [1, 2], [3, 4]]]
DECK_1 = list(DECK)  # seat 0: R1-R12, seat 1: B1-B12, seat 2: G1-G12, Y set aside


def new_game(app: Flask, seats: int, seed: int, **options: Any) -> tuple[str, list[str]]:
    """A game created by the service; its id and each seat's link from the invitations."""
    game_id = create_game(
        app.extensions["pbem"],
        "double_side",
        [Player(NAMES[s], EMAILS[s]) for s in range(seats)],
        Player("Host", "host@example.org"),
        options=options,
        seed=seed,
    )
    return game_id, seat_links(app, EMAILS[:seats])


def text_of(html: str) -> str:
    """A page's visible words, roughly (tags dropped, spaces folded)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def assert_no_hidden_cards(app: Flask, game_id: str, seat: int, html: str) -> None:
    """The page of `seat` names no card of another hand nor any set-aside card (but for the round
    before's last trick while it is in view: a new round deals the same cards again)."""
    state = app.extensions["pbem"].read_table(game_id).state
    if state.phase == "over":
        return  # everything is open once the game is over
    hidden = set(state.set_aside)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand)
    if state.previous_trick and not state.completed:
        hidden -= {play.card for play in state.previous_trick.plays}
    shown = set(CARD_WORD.findall(html))
    assert not shown & hidden, f"seat {seat} sees {sorted(shown & hidden)}"


def play_through_pages(app: Flask, client: FlaskClient, game_id: str, links: list[str], seed: int) -> int:
    """Click a random offered button on the page of the seat to move (confirming where asked) until
    the game is over; every page is checked for other seats' cards. Returns the moves made."""
    rng = random.Random(seed)
    confirmations = 0
    for moves in range(2000):
        to_act = client.get("/api" + links[0]).get_json()["to_act"]
        if not to_act:
            return moves
        seat = to_act[0]
        html = client.get(links[seat]).get_data(as_text=True)
        assert_no_hidden_cards(app, game_id, seat, html)
        form = move_form(html)
        assert form is not None, text_of(html)
        data = form.data(rng.choice(form.actions()))
        response = client.post(links[seat], data=data)
        if response.status_code == 200 and b'name="confirmed"' in response.data:
            confirmations += 1
            assert "trump for round" in text_of(response.get_data(as_text=True))
            response = client.post(links[seat], data={**data, "confirmed": "yes"})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    raise AssertionError("the game did not end")


def assert_game_over_mails(app: Flask, game_id: str, seats: int) -> list[str]:
    """Every seat got one game-over mail naming the rules' winners; the winners' names."""
    game = app.extensions["pbem"].read_table(game_id)
    result = game.rules.result(game.state)
    assert result is not None and game.record.status == "finished"
    assert result["winners"] and all(result["points"][w] >= 2 for w in result["winners"])
    assert all(p < 2 for s, p in enumerate(result["points"]) if s not in result["winners"])
    winners = [NAMES[w] for w in result["winners"]]
    over = mails(app, kind="game_over")
    assert sorted(m.to_email for m in over) == sorted([*EMAILS[:seats], "host@example.org"])
    last_actor = game.actors[-1]
    for mail in over:
        assert all(name in mail.text_body for name in winners)
        # The host has no lines; the last card's own effects are not "since" its player's move.
        if mail.seat not in (None, last_actor):
            assert "wins the game" in mail.text_body or "share the win" in mail.text_body
    return winners


def test_three_players_with_trump_through_the_pages(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 3, seed=5, trump=True)
    moves = play_through_pages(app, client, game_id, links, seed=1)
    assert moves >= 37  # at least one round: a trump choice and 36 cards
    winners = assert_game_over_mails(app, game_id, 3)
    final = text_of(client.get(links[0]).get_data(as_text=True))
    assert "Game over." in final and "Your choices" not in final and "Score sheet" in final
    assert all(name in final for name in winners)
    game = app.extensions["pbem"].read_table(game_id)
    rounds = game.rules.result(game.state)["rounds"]
    assert len([e for e in game.events if e["type"] == "TrumpChosen"]) == rounds


def test_four_players_without_trump_through_the_api(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 4, seed=8)
    moves = play_by_api(client, links, random.Random(2))
    game = app.extensions["pbem"].read_table(game_id)
    played = sum(event["type"] == "CardPlayed" for event in game.events)
    assert played >= 48 and played % 48 == 0  # whole rounds of 12 tricks, no trump choices
    assert moves < played  # the rest were forced moves, auto-played
    assert_game_over_mails(app, game_id, 4)
    page = text_of(client.get(links[3]).get_data(as_text=True))
    assert "No trump in this game." in page and "Game over." in page


def test_trump_chooser_gets_a_choice_page_and_the_others_see_who_chooses(
    app: Flask, client: FlaskClient
) -> None:
    game_id, links = new_game(app, 3, seed=1, trump=True, dice=DICE_3, deck=[DECK_1])
    chooser = client.get(links[0]).get_data(as_text=True)
    assert "choose this round's trump colour" in text_of(chooser)
    assert move_form(chooser).actions() == [{"trump": c} for c in "RBGY"]
    for colour in ("Red", "Blue", "Green", "Yellow"):
        assert f"{colour} as trump" in text_of(chooser)  # read to a screen reader around the visible colour
    for link in links[1:]:
        other = client.get(link).get_data(as_text=True)
        assert "Ann is choosing trump for this round (highest dice)." in text_of(other)
        assert move_form(other) is None
    overview = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert "Ann is choosing trump for this round (highest dice)." in overview
    assert "Your hand" not in overview and not CARD_WORD.search(overview)
    assert "It is your move now." in mails(app, to=EMAILS[0], kind="invitation")[0].text_body
    # Choosing asks for confirmation, then names the trump for everyone.
    form = move_form(chooser)
    data = {**form.fields, "action": json.dumps({"trump": "G"})}
    confirm = client.post(links[0], data=data)
    assert confirm.status_code == 200
    assert "Make Green trump for round 1?" in text_of(confirm.get_data(as_text=True))
    assert client.post(links[0], data={**data, "confirmed": "yes"}).status_code == 303
    for link in links:
        assert "Trump: Green (chosen by Ann" in text_of(client.get(link).get_data(as_text=True))
    leader_mail = mails(app, to=EMAILS[1], kind="your_turn")[-1]
    assert "Ann chose Green as trump" in leader_mail.text_body


def test_dice_targets_sides_and_tricks_on_the_page(app: Flask, client: FlaskClient) -> None:
    _game_id, links = new_game(app, 3, seed=1, dice=DICE_3, deck=[DECK_1])
    page = text_of(client.get(links[1]).get_data(as_text=True))
    assert "6 + 5 target: 6 or 0 or 5" in page and "1 + 2 target: 1 or 2" in page and "3 or 4" in page
    assert "0 of 2" in page and "2 points needed to win" in page
    assert "Bo (you) to play" in page and "Black numbers (●) count in tricks 1–6" in page
    assert "0 ✓ on target" in page and "0 ✗ off target" in page  # Ann's 6 counts as 0 tricks
    hand = page.split("Lead a card")[1].split("The whole table")[0]
    assert "Blue ● 1 white 7" in hand and "Red" not in hand
    api = client.get("/api" + links[1]).get_json()
    assert api["view"]["players"][0]["on_target"] is True
    rng = random.Random(4)
    for _ in range(6 * 3):  # six tricks: the hands turn over
        state = next(
            s for s in (client.get("/api" + link).get_json() for link in links) if s["legal_actions"]
        )
        client.post(
            "/api" + links[state["seat"]],
            json={"action": rng.choice(state["legal_actions"]), "seq": state["seq"]},
        )
    view = client.get("/api" + links[0]).get_json()["view"]
    assert view["turned_over"] and view["trick_number"] == 7
    page = text_of(client.get(links[0]).get_data(as_text=True))
    assert "The hands have been turned over." in page and "white numbers (○) count" in page
    assert "Last trick (trick 6, black numbers)" in page
    first = view["hand"][0]  # Ann's cards now read their white number first
    assert f"Red ○ {first['white']} black {first['black']}" in page
    winner = view["last_trick"]["winner"]
    assert f"{NAMES[winner]} won it with" in page and "the colour led" in page
    tricks = [p["tricks"] for p in view["players"]]
    assert sum(tricks) == 6
    # A card led in trick 7 shows its white number to everyone, with the led colour in words.
    state = next(s for s in (client.get("/api" + link).get_json() for link in links) if s["legal_actions"])
    card = state["legal_actions"][0]["card"]
    client.post("/api" + links[state["seat"]], json={"action": {"card": card}, "seq": state["seq"]})
    other = text_of(client.get(links[(state["seat"] + 1) % 3]).get_data(as_text=True))
    assert "Trick 7 on the table" in other and f"led {('Red', 'Blue', 'Green')[state['seat']]}" in other
    assert f"Play a card: {('Red', 'Blue', 'Green')[state['seat']]} was led" in other


def named(card: str) -> str:
    """A card's name in a line before the hands are turned over: "Blue 1"."""
    return plain(card_name(card, BLACK))


def test_your_turn_mail_tells_what_happened_since_the_last_card(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 3, seed=1, dice=DICE_3, deck=[DECK_1])
    plays = []
    for seat in (1, 2, 0, 1):  # Bo leads trick 1; Bo wins it (only blue) and leads trick 2
        state = client.get("/api" + links[seat]).get_json()
        action = state["legal_actions"][0]
        plays.append(action["card"])
        assert (
            client.post("/api" + links[seat], json={"action": action, "seq": state["seq"]}).status_code == 200
        )
    mail = mails(app, to=EMAILS[2], kind="your_turn")[-1].text_body
    assert f"Ann played {named(plays[2])}\n" in mail and f"Bo played {named(plays[3])}\n" in mail
    assert plays[2].endswith("1") and "Bo wins trick 1 with Blue 1: highest Blue" in mail
    assert f"Cy played {named(plays[1])}\n" not in mail  # only what happened since Cy's own last card
    # No mail names a card still in someone's hand.
    game = app.extensions["pbem"].read_table(game_id)
    for seat, email in enumerate(EMAILS[:3]):
        hidden = set(game.state.set_aside).union(*(h for s, h in enumerate(game.state.hands) if s != seat))
        for m in mails(app, to=email):
            told = without_links(m.text_body + m.html_body)  # a link's random token is no card
            assert not set(CARD_WORD.findall(told)) & hidden
            assert not [card for card in hidden if re.search(re.escape(named(card)) + r"(?!\d)", m.text_body)]


def test_bad_trump_post_is_refused_cleanly(app: Flask, client: FlaskClient) -> None:
    _game_id, links = new_game(app, 3, seed=1, trump=True, dice=DICE_3, deck=[DECK_1])
    form = move_form(client.get(links[0]).get_data(as_text=True))
    for bad in ({"trump": "X"}, {"trump": ["R"]}):
        data = {**form.fields, "action": json.dumps(bad), "confirmed": "yes"}
        response = client.post(links[0], data=data)
        assert response.status_code == 422
        assert "Name one of the four colours" in response.get_data(as_text=True)
        unconfirmed = client.post(links[0], data={**form.fields, "action": json.dumps(bad)})
        assert unconfirmed.status_code == 422  # refused at once: no confirmation asked for a malformed action


def test_trump_chooser_whose_card_ended_the_round_is_told_the_new_deal(
    app: Flask, client: FlaskClient
) -> None:
    # Every seat holds one colour and Yellow trump is set aside: Ann leads and wins every trick,
    # Cy plays the last card of round 1 and, with the highest dice of round 2, chooses trump.
    dice = [[[1, 2], [3, 4], [6, 5]], [[1, 2], [3, 4], [6, 5]]]
    _game_id, links = new_game(app, 3, seed=1, trump=True, dice=dice, deck=[DECK_1, DECK_1])
    client.post("/api" + links[2], json={"action": {"trump": "Y"}, "seq": 2})

    def acting() -> dict[str, Any]:
        return next(s for s in (client.get("/api" + link).get_json() for link in links) if s["legal_actions"])

    while "card" in (state := acting())["legal_actions"][0]:  # Cy's forced last card is auto-played
        client.post(
            "/api" + links[state["seat"]], json={"action": state["legal_actions"][0], "seq": state["seq"]}
        )
    assert state["seat"] == 2 and state["legal_actions"] == [{"trump": c} for c in "RBGY"]
    mail = mails(app, to=EMAILS[2], kind="your_turn")[-1].text_body
    assert "Round 2 dealt" in mail and "Cy chooses trump" in mail

"""Double Side Play with the real Celery worker on Redis and PostgreSQL, mail through a real SMTP sink:
a 3-player game with trump played through the page links (trump confirmed on its page) and a
4-player game without trump through the JSON twin of the links, each to its end.

The fixed deal gives every seat a single colour, so whoever leads (or holds trump) takes every trick
and the winners follow from the dice: the games are short and their results known in advance."""

from __future__ import annotations

from email.message import Message

from flask import Flask
from flask.testing import FlaskClient

from rules.double_side.cards import DECK
from service.eventlog.models import MailStatus
from service.play.hosting import Player, create_game
from service.play.seat_settings import set_auto_play
from tests.helpers import mails, move_form, play_path, wait_until
from tests.smtp_sink import SmtpSink, addressee, body, headline

EMAILS = ["ann@example.org", "bo@example.org", "cy@example.org", "di@example.org"]
NAMES = ["Ann", "Bo", "Cy", "Di"]
ONE_COLOUR_EACH = list(DECK)  # Ann all Red, Bo all Blue, Cy all Green, Di all Yellow (or set aside)


def new_game(app: Flask, seats: int, **options: object) -> tuple[str, list[str]]:
    """A game whose players all turn auto-play off: every move of these known games is by hand."""
    rt = app.extensions["pbem"]
    game_id = create_game(
        rt,
        "double_side",
        [Player(NAMES[s], EMAILS[s]) for s in range(seats)],
        Player("Host", "host@example.org"),
        options=options,
        seed=17,
    )
    for seat in range(seats):
        set_auto_play(rt, game_id, seat, on=False)
    return game_id, [play_path(mails(app, to=e, kind="invitation")[0]) for e in EMAILS[:seats]]


def delivered(app: Flask, sink: SmtpSink) -> list[Message]:
    """Every outbox mail, once the worker has sent them all to the sink."""
    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(app)))
    assert len(sink.collector.messages) == len(mails(app))
    return list(sink.collector.messages)


def play_by_page_links(client: FlaskClient, links: list[str], trumps: list[str]) -> int:
    """Click through the pages of whoever is to move until the game ends: round n's trump chooser
    picks trumps[n-1] and confirms it; card players click their first card. Returns moves made."""
    for moves in range(500):
        state = client.get("/api" + links[0]).get_json()
        if not state["to_act"]:
            assert state["result"]
            return moves
        seat = state["to_act"][0]
        form = move_form(client.get(links[seat]).get_data(as_text=True))
        assert form is not None
        offered = form.actions()
        if "trump" in offered[0]:
            action = {"trump": trumps[state["view"]["round"] - 1]}
            assert action in offered
        else:
            action = offered[0]
        data = form.data(action)
        response = client.post(links[seat], data=data)
        if "trump" in action:
            assert response.status_code == 200 and b'name="confirmed"' in response.data
            response = client.post(links[seat], data={**data, "confirmed": "yes"})
        assert response.status_code == 303, response.get_data(as_text=True)[:1000]
        outcome = client.get(response.headers["Location"]).get_data(as_text=True)
        assert 'data-outcome="accepted"' in outcome, outcome[:2000]
    raise AssertionError("the game did not end")


def test_three_players_with_trump_through_the_links(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    # Ann (1+2) leads, Bo (6+5) chooses trump, Cy has 6+4; both rounds deal and roll the same.
    dice = [[1, 2], [6, 5], [6, 4]]
    game_id, links = new_game(worker_app, 3, trump=True, deck=[ONE_COLOUR_EACH] * 2, dice=[dice, dice])
    client = worker_app.test_client()
    # Round 1: Green trump, so Cy takes all 12 tricks and only Bo (0, his 6) scores.
    # Round 2: Yellow trump (set aside), so Ann, leading, takes all 12: Bo and Cy score. Bo has 2.
    moves = play_by_page_links(client, links, ["G", "Y"])
    assert moves == 2 * (1 + 36)
    game = worker_app.extensions["pbem"].read_table(game_id)
    result = game.rules.result(game.state)
    assert result["winners"] == [1] and result["points"] == [0, 2, 1]
    assert [r["tricks"] for r in result["history"]] == [[0, 0, 12], [12, 0, 0]]
    assert game.record.status == "finished"

    sent = delivered(worker_app, smtp_sink)
    over = [m for m in sent if headline(m) == "Game over" and addressee(m) in EMAILS]  # not the host's
    assert sorted(addressee(m) for m in over) == EMAILS[:3]
    assert all("Winner: Bo." in body(m) for m in over)
    assert all("Bo wins the game" in body(m) for m in over if addressee(m) != EMAILS[2])  # Cy's card ended it
    your_move = [m for m in sent if headline(m) == "Your move"]
    assert {addressee(m) for m in your_move} == set(EMAILS[:3])
    # The first leader is told the round's result, the new deal and the trump chosen.
    to_ann = [body(m) for m in your_move if addressee(m) == EMAILS[0]]
    assert any("Bo chose Green as trump" in text for text in to_ann)
    assert any(
        "Round 1: Bo scores; points Ann 0, Bo 1, Cy 0" in text
        and "Round 2 dealt; dice: Ann 1+2, Bo 6+5, Cy 6+4; Ann leads; Bo chooses trump" in text
        and "Bo chose Yellow as trump" in text
        for text in to_ann
    )
    assert any("Hands turned over" in body(m) for m in your_move)
    final = client.get(links[2]).get_data(as_text=True)
    assert "Game over." in final and "Winner: Bo" in final


def test_four_players_without_trump_through_the_links(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    # Ann (1+2) leads and takes all 12 tricks each round; Bo, Cy and Di each have a 6 (0 tricks).
    dice = [[1, 2], [6, 1], [6, 2], [3, 6]]
    game_id, links = new_game(worker_app, 4, deck=[ONE_COLOUR_EACH] * 2, dice=[dice, dice])
    client = worker_app.test_client()
    moves = 0
    while (state := client.get("/api" + links[0]).get_json())["to_act"]:
        assert moves < 500, "the game did not end"
        seat = state["to_act"][0]
        mine = client.get("/api" + links[seat]).get_json()
        response = client.post(
            "/api" + links[seat], json={"action": mine["legal_actions"][0], "seq": mine["seq"]}
        )
        assert response.status_code == 200 and response.get_json()["status"] == "accepted", (
            response.get_json()
        )
        moves += 1
    assert moves == 2 * 48
    game = worker_app.extensions["pbem"].read_table(game_id)
    result = game.rules.result(game.state)
    assert result["winners"] == [1, 2, 3] and result["points"] == [0, 2, 2, 2]

    sent = delivered(worker_app, smtp_sink)
    over = [m for m in sent if headline(m) == "Game over" and addressee(m) in EMAILS]  # not the host's
    assert sorted(addressee(m) for m in over) == sorted(EMAILS)
    assert all("Winners: Bo, Cy, Di." in body(m) for m in over)
    assert all("Bo, Cy and Di share the win" in body(m) for m in over if addressee(m) != EMAILS[3])
    your_move = [m for m in sent if headline(m) == "Your move"]
    assert {addressee(m) for m in your_move} == set(EMAILS)
    assert not any("trump" in body(m) for m in sent)
    page = client.get(links[0]).get_data(as_text=True)
    assert "Game over." in page and "No trump in this game." in page

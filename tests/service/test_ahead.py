"""Plays chosen ahead of the turn, through the service: chosen by the JSON API or the page, made in
the transaction that makes the seat owe them as the player's own move (before the seat-keeper),
dropped with the reason told in the seat's next mail, replaced by a move by hand, made once, still
made after a restart; nobody else can tell; bad input changes nothing."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from sqlmodel import Session, col, select

from service.eventlog.models import AheadPlay, AheadStatus, EventOrigin, SeatKeeper
from service.eventlog.store import FoldCache
from service.play.ahead import MAX_AHEAD
from service.play.hosting import create_game, keep_seat
from service.play.seat_settings import save_seat_language
from tests.helpers import mails, play_path, post_form, without_links
from tests.rules.test_double_side import SIDES_HANDS, deck_of
from tests.service.turns import HOST, people, play, stepping, to_act

NAMES = {"dualis": ("Ann", "Bo", "Cy", "Di"), "double_side": ("Ann", "Bo", "Cy"), "red_black": ("Ann", "Bo")}
NAMES["dupli"] = NAMES["dualis"]
# Duālis: Ann leads and holds Stars; Bo twelve Stars and M1R; Cy S7B and Moons; Di Moons.
DUALIS_DECK = [f"{s}{n}{c}" for s in "SM" for n in range(1, 14) for c in "RB"]
DUALIS_DECK[13], DUALIS_DECK[26] = DUALIS_DECK[26], DUALIS_DECK[13]
DUALIS = {"deck": DUALIS_DECK, "first_leader": 0}
# Dupli: Bo holds both Charges, so the Charge window opens.
DUPLI_HANDS = [
    ["drill"] * 5 + ["tyranny"] * 2 + ["patriotism"] * 2,
    ["charge"] * 2 + ["drill"] * 5 + ["tyranny"] * 2,
    ["benevolence"] * 5 + ["tyranny"] * 3 + ["patriotism"],
    ["benevolence"] * 4 + ["tyranny"] * 2 + ["subversion"] * 2 + ["patriotism"],
]
OPTIONS: dict[str, dict[str, Any]] = {
    "dualis": DUALIS,
    "double_side": {},
    "red_black": {},
    "dupli": {"deck": [card for hand in DUPLI_HANDS for card in hand]},
}


def new_game(app: Flask, game: str, seed: int = 3) -> tuple[str, list[str]]:
    rt = app.extensions["pbem"]
    names = NAMES[game]
    game_id = create_game(rt, game, people(*names), HOST, options=OPTIONS[game], seed=seed)
    emails = [f"{name.lower()}@example.org" for name in names]
    return game_id, [play_path(mails(app, to=email, kind="invitation")[-1]) for email in emails]


def rows(app: Flask, game_id: str) -> list[AheadPlay]:
    with Session(app.extensions["pbem"].engine) as session:
        query = select(AheadPlay).where(AheadPlay.game_id == game_id).order_by(col(AheadPlay.id))
        return list(session.exec(query).all())


def choose(client: FlaskClient, link: str, plays: list[dict[str, Any]]) -> Any:
    return client.post(f"/api{link}/ahead", json={"plays": plays})


def candidates(app: Flask, game_id: str, seat: int, situation: str) -> list[dict[str, Any]]:
    """Plays a seat might choose for a situation: its cards, its set pair, a Patriotism answer."""
    state = app.extensions["pbem"].read_table(game_id).state
    if situation == "charge":
        return [{"set": list(state.sets[seat])}]
    if situation == "patriotism":
        return [{"cancel": False}]
    return [{"card": card} for card in state.hands[seat]]


def choose_everything(app: Flask, client: FlaskClient, game_id: str, link: str) -> bool:
    """The seat chooses a play for every situation it is offered (the first that the rules accept);
    whether it was offered any."""
    offered = client.get(f"/api{link}/ahead").get_json()
    seat = client.get(f"/api{link}").get_json()["seat"]
    plays = []
    for situation in (s["situation"] for s in offered["situations"]):
        for action in candidates(app, game_id, seat, situation):
            if choose(client, link, [{"situation": situation, "action": action}]).status_code == 200:
                plays.append({"situation": situation, "action": action})
                break
    return choose(client, link, plays).status_code == 200 and bool(plays)


@pytest.mark.parametrize("game", ["dualis", "double_side", "red_black", "dupli"])
def test_chosen_plays_are_made_when_due_as_the_players_own_and_once(
    app: Flask, client: FlaskClient, game: str
) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, game)
    for _ in range(60):
        table = rt.read_table(game_id)
        if not table.active:
            break
        for seat, link in enumerate(links):
            if not any(row.seat == seat and row.status == AheadStatus.CHOSEN for row in rows(app, game_id)):
                choose_everything(app, client, game_id, link)
        waiting = to_act(rt, game_id)
        if waiting:
            play(rt, game_id, min(waiting))
    table = rt.read_table(game_id)
    played = [row for row in rows(app, game_id) if row.status == AheadStatus.PLAYED]
    assert played, "no chosen play was made"
    for row in played:
        assert row.seq is not None
        assert table.actors[row.seq - 1] == row.seat and table.origins[row.seq - 1] == EventOrigin.PLAYER
        assert table.actions[row.seq - 1] in (row.action, {"card": row.action.get("card")})
    assert len({row.seq for row in played}) == len(played)  # each made once, one move each


def test_a_chosen_card_is_made_and_told_only_to_its_seat(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    response = choose(
        client,
        links[1],
        [
            {"situation": "led:S", "action": {"card": "S8R", "coin": True}},
            {"situation": "led:M", "action": {"card": "M1R"}},
        ],
    )
    assert response.status_code == 200, response.get_json()
    assert [p["name"] for p in response.get_json()["plays"]] == ["if Stars are led", "if Moons are led"]
    play(rt, game_id, 0, {"card": "S1R"})
    table = rt.read_table(game_id)
    assert table.actions[-1] == {"card": "S8R", "coin": True} and table.origins[-1] == EventOrigin.PLAYER
    assert to_act(rt, game_id) == {2}
    (told,) = mails(app, to="bo@example.org", kind="report")
    assert "Your play chosen ahead was made: Bo played Star 8 Red" in told.text_body
    assert client.get(f"/api{links[1]}/ahead").get_json()["plays"] == []
    for other in ("ann", "cy", "di"):
        assert all("chosen ahead" not in mail.text_body for mail in mails(app, to=f"{other}@example.org"))


def test_a_play_that_does_not_fit_is_dropped_and_the_your_move_mail_says_why(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    # Cy chooses for a Moon lead only; Ann leads a Star.
    assert choose(client, links[2], [{"situation": "led:M", "action": {"card": "M2R"}}]).status_code == 200
    play(rt, game_id, 0, {"card": "S1R"})
    play(rt, game_id, 1, {"card": "S8R"})
    assert to_act(rt, game_id) == {2}
    body = mails(app, to="cy@example.org", kind="your_turn")[-1].text_body
    assert "Your play chosen ahead was not made: you chose no play for this case: if Stars are led." in body
    assert [row.status for row in rows(app, game_id)] == [AheadStatus.DROPPED]


def test_the_chosen_play_comes_before_the_seat_keeper(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "red_black")
    play(rt, game_id, 0, {"card": rt.read_table(game_id).state.hands[0][0]})
    play(rt, game_id, 1, {"card": rt.read_table(game_id).state.hands[1][0]})
    table = rt.read_table(game_id)
    follower = 1 - table.state.leader
    card = table.state.hands[follower][-1]
    assert (
        choose(client, links[follower], [{"situation": "card:1", "action": {"card": card}}]).status_code
        == 200
    )
    keep_seat(rt, game_id, follower, True)
    play(rt, game_id, table.state.leader, {"card": table.state.hands[table.state.leader][0]})
    after = rt.read_table(game_id)
    made = [
        i for i in range(table.version, after.version) if after.actors[i] == follower and after.starts_move(i)
    ]
    assert after.actions[made[0]] == {"card": card} and after.origins[made[0]] == EventOrigin.PLAYER
    # and, like a move by hand, it takes the seat back: the others see no difference
    assert after.seats[follower].keeper == SeatKeeper.PLAYER


def test_a_move_by_hand_replaces_the_queue(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "red_black")
    play(rt, game_id, 0, {"card": rt.read_table(game_id).state.hands[0][0]})
    assert choose(client, links[0], [{"situation": "card:1", "action": {"card": "XX"}}]).status_code == 422
    table = rt.read_table(game_id)
    card = table.state.hands[1][0]
    # A fold by hand (open to either player at any time) replaces the chosen card.
    play(rt, game_id, 1, {"card": card})
    leader = rt.read_table(game_id).state.leader
    follower = 1 - leader
    hand = rt.read_table(game_id).state.hands[follower]
    assert (
        choose(client, links[follower], [{"situation": "card:1", "action": {"card": hand[0]}}]).status_code
        == 200
    )
    assert play(rt, game_id, follower, {"fold": True}).status == "accepted"
    assert rows(app, game_id)[-1].status == AheadStatus.DROPPED


def normalised(text: str, game_id: str) -> str:
    """A page, JSON or mail without what differs between two games alike: links, ids, times, tokens."""
    text = without_links(text).replace(game_id, "GAME")
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.+]+Z?|\b\d{1,2}:\d\d\b( [AP]M)?", "TIME", text)
    text = re.sub(
        r"\bey[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+|\b[0-9a-f]{64}\b", "SIGNED", text
    )  # tokens, seed hash
    return re.sub(r'name="csrf_token" value="[^"]*"|"csrf_token": "[^"]*"', "CSRF", text)


def seen_by(app: Flask, client: FlaskClient, game_id: str, link: str, email: str) -> list[str]:
    """All a seat is shown: its page, JSON, replay's JSON and mails, normalised."""
    replay = client.get(f"/api{link}/replay/1").get_data(as_text=True)
    shown = [
        client.get(link).get_data(as_text=True),
        client.get(f"/api{link}").get_data(as_text=True),
        replay,
    ]
    shown += [mail.text_body + mail.html_body for mail in mails(app, to=email) if mail.game_id == game_id]
    return [normalised(part, game_id) for part in shown]


def test_other_seats_see_the_same_with_and_without_a_queue(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app)  # a clock that stands still: both games' moves wait alike (the pace lines)
    plain_id, plain_links = new_game(app, "dualis")
    play(rt, plain_id, 0, {"card": "S1R"})
    play(rt, plain_id, 1, {"card": "S8R"})
    without = {
        e: seen_by(app, client, plain_id, link, e)
        for e, link in (("ann@example.org", plain_links[0]), ("cy@example.org", plain_links[2]))
    }
    queued_id, queued_links = new_game(app, "dualis")
    assert (
        choose(client, queued_links[1], [{"situation": "led:S", "action": {"card": "S8R"}}]).status_code
        == 200
    )
    play(rt, queued_id, 0, {"card": "S1R"})
    assert rt.read_table(queued_id).events == rt.read_table(plain_id).events
    for email, link in (("ann@example.org", queued_links[0]), ("cy@example.org", queued_links[2])):
        seen = seen_by(app, client, queued_id, link, email)
        assert seen == without[email]  # page, JSON, replay and every mail


def test_bad_queues_are_refused_and_nothing_is_stored(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, "dualis")
    refused = [
        ([{"situation": "led:S", "action": {"card": "S1R"}}], 422, "You do not hold Star 1 Red"),  # Ann's
        ([{"situation": "lead", "action": {"card": "S8R"}}], 422, "cannot arise"),
        ([{"situation": "led:M", "action": {"card": "S8R"}}], 422, "follow suit"),
        ([{"situation": "led:S", "action": {"fold": True}}], 422, ""),
        ([{"situation": "led:S", "action": {"card": "S8R"}}] * (MAX_AHEAD + 1), 400, ""),
        ([{"situation": "led:S", "action": {"card": "S8R"}}] * 2, 422, "one play per situation"),
    ]
    for plays, status, message in refused:
        response = choose(client, links[1], plays)
        assert response.status_code == status, (plays, response.get_json())
        assert message in response.get_json()["error"]
    assert client.post(f"/api{links[1]}/ahead", json={"plays": "S8R"}).status_code == 400
    assert (
        choose(client, links[0], [{"situation": "led:S", "action": {"card": "S1R"}}]).status_code == 422
    )  # due now
    forged = links[1][:-3] + ("abc" if not links[1].endswith("abc") else "xyz")
    assert choose(client, forged, [{"situation": "led:S", "action": {"card": "S8R"}}]).status_code == 403
    assert rows(app, game_id) == []


def test_the_same_card_for_the_coming_trick_and_the_trick_after_is_refused_up_front(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    play(rt, game_id, 0, {"card": "S1R"})  # Cy's coming card follows the Star: led:S only
    queue = [
        {"situation": "led:S", "action": {"card": "S7B"}},
        {"situation": "then:lead", "action": {"card": "S7B"}},
    ]
    refused = choose(client, links[2], queue)
    assert refused.status_code == 422
    message = "Star 7 Blue is your coming card: choose another card for the trick after."
    assert refused.get_json()["error"] == message
    assert rows(app, game_id) == []
    assert choose(client, links[2], queue[:1]).status_code == 200


@pytest.mark.parametrize(
    ("language", "told"),
    [("en", "was not made: You do not hold Star 7 Blue.\n"), ("ja", "持っていません。\n")],
)
def test_a_dropped_play_is_told_with_one_full_stop(
    app: Flask, client: FlaskClient, language: str, told: str
) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    # Cy's only Star goes in the coming trick by hand; the one chosen for the trick after is gone then.
    chosen = [{"situation": "then:led:S", "action": {"card": "S7B"}}]
    assert choose(client, links[2], chosen).status_code == 200
    assert save_seat_language(rt, game_id, 2, rt.read_table(game_id).seats[2].key_version, language)
    play(rt, game_id, 0, {"card": "S1R"})
    play(rt, game_id, 1, {"card": "S8R"})
    play(rt, game_id, 2, {"card": "S7B"})
    play(rt, game_id, 3)  # Bo's Star 8 wins and leads the next trick
    play(rt, game_id, 1, {"card": "S9R"})
    body = mails(app, to="cy@example.org", kind="your_turn")[-1].text_body
    assert told in body and ".." not in body and "。。" not in body
    assert [row.status for row in rows(app, game_id)] == [AheadStatus.DROPPED]


def test_a_chosen_play_survives_a_restart(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    assert choose(client, links[1], [{"situation": "led:S", "action": {"card": "S9B"}}]).status_code == 200
    # A new process: nothing of the queue is kept in memory.
    restarted = replace(rt, cache=FoldCache(), replays=FoldCache(64))
    play(restarted, game_id, 0, {"card": "S1R"})
    assert restarted.read_table(game_id).actions[-1] == {"card": "S9B"}


def test_the_page_chooses_ahead_like_the_api(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    by_page, page_links = new_game(app, "dualis")
    by_api, api_links = new_game(app, "dualis")
    page = client.get(page_links[1]).get_data(as_text=True)
    assert "Choose ahead" in page and 'name="ahead-led:S"' in page and "Star 8 Red, taking a coin" in page
    chosen = json.dumps({"card": "S8R", "coin": True}, sort_keys=True)
    assert post_form(client, page_links[1], "/ahead", **{"ahead-led:S": chosen}).status_code == 303
    assert (
        choose(
            client, api_links[1], [{"situation": "led:S", "action": {"card": "S8R", "coin": True}}]
        ).status_code
        == 200
    )
    assert (
        client.get(f"/api{page_links[1]}/ahead").get_json()
        == client.get(f"/api{api_links[1]}/ahead").get_json()
    )
    assert f'value="{escape(chosen)}" selected' in client.get(page_links[1]).get_data(as_text=True)
    refused = post_form(client, page_links[1], "/ahead", **{"ahead-lead": chosen})
    assert refused.status_code == 422 and "cannot arise" in refused.get_data(as_text=True)
    assert post_form(client, page_links[1], "/ahead", **{"ahead-led:S": "{damaged"}).status_code == 400
    for game_id in (by_page, by_api):
        play(rt, game_id, 0, {"card": "S1R"})
    assert rt.read_table(by_page).events == rt.read_table(by_api).events
    assert post_form(client, page_links[3], "/ahead", cancel="yes").status_code == 303


def test_plays_chosen_for_the_trick_after_wait_for_it_and_are_made_there(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    queue = [
        {"situation": "led:S", "action": {"card": "S8R"}},
        {"situation": "then:lead", "action": {"card": "S9R"}},
        {"situation": "then:led:S", "action": {"card": "S9B"}},
        {"situation": "then:led:M", "action": {"card": "M1R"}},
    ]
    response = choose(client, links[1], queue)
    assert response.status_code == 200, response.get_json()
    assert "in the trick after, if I lead" in [p["name"] for p in response.get_json()["plays"]]
    play(rt, game_id, 0, {"card": "S1R"})  # Bo's S8R follows at once
    assert [row.status for row in rows(app, game_id)] == [AheadStatus.PLAYED] + [AheadStatus.CHOSEN] * 3
    shown = client.get(f"/api{links[1]}/ahead").get_json()["plays"]
    assert [p["situation"] for p in shown] == ["lead", "led:S", "led:M"]  # now the coming trick's
    play(rt, game_id, 2, {"card": "S7B"})
    play(rt, game_id, 3)  # Di's Moon: Bo's Star 8 wins trick 1 and leads trick 2
    table = rt.read_table(game_id)
    assert table.actions[-1] == {"card": "S9R"} and table.actors[-1] == 1
    assert table.origins[-1] == EventOrigin.PLAYER
    assert [row.status for row in rows(app, game_id)] == [AheadStatus.PLAYED] * 2 + [AheadStatus.DROPPED] * 2
    assert client.get(f"/api{links[1]}/ahead").get_json()["plays"] == []


def test_a_move_by_hand_keeps_the_plays_chosen_for_the_trick_after(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id, links = new_game(app, "dualis")
    later = [{"situation": "then:lead", "action": {"card": "S9R"}}]
    assert choose(client, links[1], later).status_code == 200
    play(rt, game_id, 0, {"card": "S1R"})
    assert to_act(rt, game_id) == {1}  # nothing chosen for this trick: Bo plays by hand
    assert play(rt, game_id, 1, {"card": "S13B"}).status == "accepted"
    assert [row.status for row in rows(app, game_id)] == [AheadStatus.CHOSEN]
    play(rt, game_id, 2, {"card": "S7B"})
    play(rt, game_id, 3)
    table = rt.read_table(game_id)
    assert table.actions[-1] == {"card": "S9R"} and table.origins[-1] == EventOrigin.PLAYER
    assert rows(app, game_id)[0].status == AheadStatus.PLAYED


def test_a_forced_move_is_made_by_auto_play_not_by_the_play_chosen_for_it(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    # Double Side Play: Ann leads (lowest dice), Bo holds one Green, G1.
    options = {"deck": deck_of(*SIDES_HANDS), "dice": [[[1, 2], [6, 5], [6, 3]]]}
    game_id = create_game(rt, "double_side", people(*NAMES["double_side"]), HOST, options=options, seed=3)
    bo = play_path(mails(app, to="bo@example.org", kind="invitation")[-1])
    assert choose(client, bo, [{"situation": "led:G", "action": {"card": "G1"}}]).status_code == 200
    play(rt, game_id, 0, {"card": "G7"})
    table = rt.read_table(game_id)
    # Bo's only Green, played as every forced move is: as the player's own it would tell the others
    assert table.actions[-1] == {"card": "G1"} and table.origins[-1] == EventOrigin.AUTO
    (row,) = rows(app, game_id)
    assert row.status == AheadStatus.DROPPED and row.told and row.reason is None

"""Rematch: once a game is over any player proposes the next match with the same table (seats rotated
or as they were); the others accept or decline from their own page or the JSON API, in their own time;
when all have accepted (the seat-keeper at once) the new game starts with its invitations and both
games link to each other, with the series score on both. A decline ends the proposal, and an
unanswered one lapses after 7 days, by the service's clock."""

from __future__ import annotations

import random

from flask import Flask
from flask.testing import FlaskClient

from service.play.hosting import Player, create_game
from service.play.rematch import LAPSE_DAYS
from service.play.time_control import TimeControl
from service.runtime import Runtime
from tests.helpers import mails, play_path, post_form, same_link
from tests.service.replay_games import add_moves
from tests.service.turns import MONDAY, people, stepping

HOST = Player("Host", "host@example.org")
ANN, BO = "ann@example.org", "bo@example.org"


def finished_game(rt: Runtime, players: list[Player], seed: int = 1, game: str = "red_black") -> str:
    """A game played to its end (2 days per move with the weekend pause), its invitations mailed."""
    control = TimeControl(move_days=2, weekend_pause=True)
    game_id = create_game(rt, game, players, HOST, seed=seed, control=control)
    add_moves(rt, game_id, random.Random(seed))
    return game_id


def link(app: Flask, email: str, game_id: str) -> str:
    """The seat's own /play path in a game, from its invitation."""
    (invitation,) = [m for m in mails(app, to=email, kind="invitation") if m.game_id == game_id]
    return play_path(invitation)


def state(client: FlaskClient, path: str) -> dict:
    return client.get("/api" + path).get_json()


def winner(rt: Runtime, game_id: str) -> str:
    table = rt.read_table(game_id)
    assert table.result is not None
    (seat,) = table.result["winners"]
    return table.names[seat]


def test_a_rematch_proposed_and_accepted_starts_the_next_game_seats_rotated(
    app: Flask, client: FlaskClient
) -> None:
    rt, clock = stepping(app, MONDAY)
    first = finished_game(rt, people("Ann", "Bo"))
    ann, bo = link(app, ANN, first), link(app, BO, first)
    assert state(client, ann)["rematch"]["can_propose"] is True
    assert post_form(client, ann, "/rematch", seats="rotate").status_code == 303
    (asked,) = mails(app, to=BO, kind="rematch_proposed")
    assert asked.text_body.startswith("Ann proposes a rematch\n") and same_link(play_path(asked), bo)
    assert not mails(app, to=ANN, kind="rematch_proposed")
    page = client.get(bo).get_data(as_text=True)
    assert "Ann proposes the next match, each player moving one seat on." in page
    clock.advance(days=3)  # no need to be online together
    assert post_form(client, bo, "/rematch/answer", answer="accept").status_code == 303

    after = state(client, ann)["rematch"]
    second = str(mails(app, to=ANN, kind="invitation")[-1].game_id)
    assert second != first and same_link(
        after["next"].removeprefix("http://localhost"), link(app, ANN, second)
    )
    new = rt.read_table(second)
    old = rt.read_table(first)
    assert new.names == ["Bo", "Ann"]  # rotated: the first player moves on
    assert (new.record.game, new.record.options, new.record.move_days, new.record.weekend_pause) == (
        old.record.game,
        old.record.options,
        2,
        True,
    )
    assert new.record.seed_salt != old.record.seed_salt and new.events[0] != old.events[0]  # a fresh deal
    assert {m.to_email for m in mails(app, kind="host") if m.game_id == second} == {HOST.email}
    back = state(client, link(app, ANN, second))["rematch"]
    assert same_link(back["previous"].removeprefix("http://localhost"), ann) and back["can_propose"] is False
    series = {"matches": 1, "wins": [{"name": n, "won": int(n == winner(rt, first))} for n in ("Bo", "Ann")]}
    assert back["series"] == {**series, "draws": 0}
    assert state(client, ann)["rematch"]["series"]["matches"] == 1
    assert "data-series" in client.get(link(app, BO, second)).get_data(as_text=True)
    # the proposal is decided: a second one, or another answer, is refused
    assert client.post(f"/api{ann}/rematch", json={"rotate": True}).status_code == 409
    assert client.post(f"/api{bo}/rematch/answer", json={"accept": True}).status_code == 409


def test_a_declined_rematch_ends_and_may_be_proposed_again(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app, MONDAY)
    first = finished_game(rt, people("Ann", "Bo", "Cy", "Di"), game="dupli")
    ann, bo, cy = (link(app, f"{n}@example.org", first) for n in ("ann", "bo", "cy"))
    response = client.post(f"/api{bo}/rematch", json={"rotate": False})
    assert response.status_code == 200 and response.get_json()["next_game"] is None
    assert client.post(f"/api{ann}/rematch/answer", json={"accept": True}).status_code == 200
    assert client.post(f"/api{cy}/rematch/answer", json={"accept": False}).status_code == 200
    assert {m.to_email for m in mails(app, kind="rematch_declined")} == {ANN, BO, "di@example.org"}
    assert "Cy declined" in mails(app, to=ANN, kind="rematch_declined")[0].text_body.splitlines()[0]
    assert client.post(f"/api{ann}/rematch/answer", json={"accept": True}).status_code == 409
    view = state(client, ann)["rematch"]
    assert view["ended"] == "declined" and view["can_propose"] and view["proposal"] is None
    assert len({m.game_id for m in mails(app, kind="invitation")}) == 1  # no new game
    # proposed again, everyone in the same seat this time
    assert client.post(f"/api{cy}/rematch", json={"rotate": False}).status_code == 200
    for path in (ann, bo):
        assert (
            client.post(f"/api{path}/rematch/answer", json={"accept": True}).get_json()["next_game"] is None
        )
    started = client.post(f"/api{link(app, 'di@example.org', first)}/rematch/answer", json={"accept": True})
    second = started.get_json()["next_game"]
    assert rt.read_table(second).names == ["Ann", "Bo", "Cy", "Di"]


def test_an_unanswered_rematch_lapses_after_seven_days(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    first = finished_game(rt, people("Ann", "Bo"))
    ann, bo = link(app, ANN, first), link(app, BO, first)
    client.post(f"/api{ann}/rematch", json={"rotate": True})
    clock.advance(days=LAPSE_DAYS, seconds=-1)
    assert state(client, bo)["rematch"]["proposal"]["proposer"] == "Ann"
    clock.advance(seconds=1)
    view = state(client, bo)["rematch"]
    assert view["proposal"] is None and view["ended"] == "lapsed" and view["can_propose"]
    assert client.post(f"/api{bo}/rematch/answer", json={"accept": True}).status_code == 409
    again = post_form(client, ann, "/rematch", seats="rotate")  # the page offers to propose again
    assert again.status_code == 303
    assert client.post(f"/api{bo}/rematch/answer", json={"accept": True}).get_json()["next_game"]


def test_the_seat_keeper_accepts_at_once(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app, MONDAY)
    first = finished_game(rt, [Player("Ann", ANN), Player("Keeper", "", bot=True)])
    answer = client.post(f"/api{link(app, ANN, first)}/rematch", json={"rotate": True}).get_json()
    assert answer["next_game"] and rt.read_table(answer["next_game"]).names == ["Keeper", "Ann"]
    assert not mails(app, kind="rematch_proposed")


def test_the_series_score_counts_every_match_of_the_chain(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app, MONDAY)
    games = [finished_game(rt, people("Ann", "Bo"))]
    for round_ in range(2):
        ann = link(app, ANN, games[-1])
        client.post(f"/api{ann}/rematch", json={"rotate": True})
        started = client.post(f"/api{link(app, BO, games[-1])}/rematch/answer", json={"accept": True})
        games.append(started.get_json()["next_game"])
        add_moves(rt, games[-1], random.Random(round_))
    wins = {name: sum(winner(rt, g) == name for g in games) for name in ("Ann", "Bo")}
    for game_id in games:  # the same score on every game of the series, in its own seat order
        series = state(client, link(app, ANN, game_id))["rematch"]["series"]
        assert series["matches"] == 3 and dict((w["name"], w["won"]) for w in series["wins"]) == wins
    middle = state(client, link(app, ANN, games[1]))["rematch"]
    assert same_link(middle["previous"].removeprefix("http://localhost"), link(app, ANN, games[0]))
    assert same_link(middle["next"].removeprefix("http://localhost"), link(app, ANN, games[2]))


def test_bad_rematch_requests_are_refused_and_change_nothing(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app, MONDAY)
    running = create_game(rt, "red_black", people("Ann", "Bo"), HOST, seed=1)
    ann = link(app, ANN, running)
    refused = client.post(f"/api{ann}/rematch", json={"rotate": True})
    assert refused.status_code == 409 and "once the game is over" in refused.get_json()["error"]
    assert state(client, ann)["rematch"]["can_propose"] is False
    assert "data-series" not in client.get(ann).get_data(as_text=True)
    first = finished_game(rt, people("Cy", "Di"), seed=2)
    cy = link(app, "cy@example.org", first)
    assert client.post(f"/api{cy}/rematch/answer", json={"accept": True}).status_code == 409  # none open
    bodies: list[object] = [{}, {"rotate": "yes"}, {"rotate": True, "x": 1}, []]
    for body in bodies:
        assert client.post(f"/api{cy}/rematch", json=body).status_code == 400
    assert client.post(f"{cy}/rematch", data={"seats": "rotate"}).status_code == 400  # no CSRF token
    assert post_form(client, cy, "/rematch", seats="sideways").status_code == 400
    assert client.post("/api/play/forged/rematch", json={"rotate": True}).status_code == 403
    assert client.get(cy).status_code == 200 and state(client, cy)["rematch"]["proposal"] is None
    client.post(f"/api{cy}/rematch", json={"rotate": True})
    twice = post_form(client, link(app, "di@example.org", first), "/rematch/answer", answer="maybe")
    assert twice.status_code == 400
    again = client.post(f"/api{cy}/rematch", json={"rotate": False})
    assert again.status_code == 409 and "proposed already" in again.get_json()["error"]
    assert len(mails(app, kind="rematch_proposed")) == 1

"""The table's pace, from the log alone: each seat's median wait for a move and the match's
estimated end, on the player page, the history page and their JSON twins."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient

from service.mail.drafting import player_url
from service.reading import replay_version
from service.replay.pace import table_pace, typical_moves
from service.replay.steps import replay_of
from service.runtime import Runtime
from tests.helpers import SteppingClock
from tests.service.turns import new_game, people, play, stepping, to_act

# Hours each seat of a four-seat Duālis takes over its moves in these tests.
HOURS = {0: 1, 1: 3, 2: 6, 3: 10}


def played_slowly(rt: Runtime, clock: SteppingClock, game_id: str, moves: int) -> None:
    """Play `moves` moves of a game where one seat owes at a time, each seat taking its HOURS."""
    for _ in range(moves):
        (seat,) = to_act(rt, game_id)
        clock.advance(hours=HOURS[seat])
        play(rt, game_id, seat)


def test_each_seat_waited_as_long_as_it_took_and_the_end_follows_the_rate(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=0)
    played_slowly(rt, clock, game_id, 24)
    table = rt.read_table(game_id)
    pace = table_pace(table, replay_of(rt.replays, table), clock.now())
    assert [seat.median_wait for seat in pace.seats] == [timedelta(hours=h) for h in HOURS.values()]
    assert [seat.moves for seat in pace.seats] == [6, 6, 6, 6]
    assert pace.moves == 24
    assert pace.typical_moves == typical_moves("dualis", 4, ())
    elapsed = clock.now() - table.times[0]
    assert pace.estimated_end == clock.now() + elapsed / 24 * (pace.typical_moves - 24)


def test_moves_not_made_by_hand_wait_for_nobody(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=0)
    played_slowly(rt, clock, game_id, 8)
    table = rt.read_table(game_id)
    by_hand = [
        sum(
            1
            for actor, origin, action in zip(table.actors, table.origins, table.actions, strict=True)
            if actor == seat and origin == "player" and action is not None
        )
        for seat in range(4)
    ]
    pace = table_pace(table, replay_of(rt.replays, table), clock.now())
    assert [seat.moves for seat in pace.seats] == by_hand == [2, 2, 2, 2]


def test_too_early_or_a_finished_match_has_no_estimated_end(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    table = rt.read_table(game_id)
    assert table_pace(table, replay_of(rt.replays, table), clock.now()).estimated_end is None
    while table.active:
        for seat in sorted(to_act(rt, game_id)):
            clock.advance(hours=2)
            play(rt, game_id, seat)
        table = rt.read_table(game_id)
    pace = table_pace(table, replay_of(rt.replays, table), clock.now())
    assert pace.estimated_end is None
    assert all(seat.median_wait is not None for seat in pace.seats)


def test_the_player_page_and_the_history_show_the_pace_in_words(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=0)
    played_slowly(rt, clock, game_id, 24)
    table = rt.read_table(game_id)
    link = player_url(rt, table, 0).removeprefix(rt.settings["BASE_URL"])
    page = client.get(link).get_data(as_text=True)
    assert "Ann: a move waited 1 hour (median of 6 moves)" in page
    assert "Di: a move waited 10 hours (median of 6 moves)" in page
    assert "At this pace the match ends around" in page
    history = client.get(f"{link}/history").get_data(as_text=True)
    assert "Cy: a move waited 6 hours (median of 6 moves)" in history
    assert "At this pace the match ends around" in history
    answer = client.get(f"/api{link}/history").get_json()["pace"]
    assert [seat["median_wait_seconds"] for seat in answer["seats"]] == [3600, 10800, 21600, 36000]
    assert answer["moves"] == 24 and answer["estimated_end"]
    assert client.get(f"/api{link}").get_json()["pace"] == answer
    assert replay_version(rt, table) == table.version


def test_the_pace_is_in_the_readers_language(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=0)
    played_slowly(rt, clock, game_id, 24)
    link = player_url(rt, rt.read_table(game_id), 1).removeprefix(rt.settings["BASE_URL"])
    page = client.get(f"{link}?lang=ja").get_data(as_text=True)
    assert "Bo: 1手の待ち時間 3 時間（6手の中央値）" in page

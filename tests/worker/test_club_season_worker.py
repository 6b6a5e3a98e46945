"""A season of each game for five participants (four members and a bot) on the real Celery worker:
every move goes through the worker, each table's end reaches the worker's task that starts the
season's next tables, and once every table is over the standings, the ratings and a recompute from
scratch agree."""

from __future__ import annotations

import subprocess
import time

import pytest
from flask import Flask

from service.clubs.log import read_club
from service.clubs.members import confirm_member, found_club, invite_member
from service.clubs.ratings import club_ratings, rating_lines
from service.clubs.recompute import recomputed
from service.clubs.seasons import SeasonPlan, plan_season
from service.clubs.standings import season_views
from service.eventlog.models import SeatKeeper
from service.links import ClubLink
from service.runtime import Runtime
from tests.helpers import wait_until
from tests.service.turns import play

PEOPLE = (("Bo", "bo@example.org"), ("Cy", "cy@example.org"), ("Di", "di@example.org"))
SEASON_SECONDS = 600


def club_of_four(rt: Runtime) -> str:
    club_id = found_club(rt, "ann@example.org", "Thursday cards", "Ann", "en")
    for name, email in PEOPLE:
        number = invite_member(rt, club_id, "ann@example.org", name, email)
        confirm_member(rt, ClubLink(club_id, number, read_club(rt, club_id).members[number].invited_seq))
    return club_id


def moves_owed(rt: Runtime, club_id: str) -> list[tuple[str, int]]:
    """(game, seat) of each person's move owed now at the season's running tables."""
    owed = []
    for game_id in read_club(rt, club_id).seasons[0].started.values():
        table = rt.read_table(game_id)
        if table.active:
            owed += [
                (game_id, seat)
                for seat in sorted(table.rules.to_act(table.state))
                if table.seats[seat].keeper == SeatKeeper.PLAYER
            ]
    return owed


def season_over(rt: Runtime, club_id: str) -> bool:
    season = read_club(rt, club_id).seasons[0]
    return len(season.started) == len(season.tables) and not any(
        rt.read_table(game_id).active for game_id in season.started.values()
    )


@pytest.mark.parametrize("game", ["red_black", "dualis", "dupli", "double_side"])
def test_a_season_of_each_game_runs_on_the_worker(
    worker_app: Flask, celery_worker: subprocess.Popen, game: str
) -> None:
    rt = worker_app.extensions["pbem"]
    club_id = club_of_four(rt)
    plan_season(rt, club_id, "ann@example.org", SeasonPlan(game, (0, 1, 2, 3), ("keeper",), at_once=5))
    season = read_club(rt, club_id).seasons[0]
    assert len(season.players) == 5
    deadline = time.monotonic() + SEASON_SECONDS
    while not season_over(rt, club_id):
        assert time.monotonic() < deadline, "the season did not end in time"
        owed = moves_owed(rt, club_id)
        for game_id, seat in owed:
            play(rt, game_id, seat)  # waits for the worker's decision
        if not owed:
            time.sleep(0.2)  # the worker is starting the next tables
    club = read_club(rt, club_id)
    lines = season_views(rt, club, 0)[0].standings
    tables = len(club.seasons[0].tables)
    seats = len(club.seasons[0].tables[0])
    assert sum(line.played for line in lines) == tables * seats
    wait_until(lambda: recomputed(rt, club_id)["standings"] == [[line.as_json() for line in lines]])
    again = recomputed(rt, club_id)
    assert again["ratings"] == [line.as_json() for line in rating_lines(club, club_ratings(rt, club))]
    rated = {line["name"]: line for line in again["ratings"] if line["game"] == game}
    assert len(rated) == 5 and all(line["tables"] == tables * seats // 5 for line in rated.values())

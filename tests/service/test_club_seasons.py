"""Club seasons: the host plans one (game, members, a bot, K, what becomes of a leaver's tables), its
tables start in waves of at most K per participant and the next ones as tables end (through the
move path the pages use), the standings are read from the tables' logs, and a leaving member's
tables are forfeited or given to the seat-keeper as the host chose. Bad plans change nothing."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.clubs.digest import send_club_digests
from service.clubs.log import read_club
from service.clubs.seasons import SeasonPlan, plan_season
from service.eventlog.models import GameStatus, SeatKeeper
from service.play.address_games import save_address_settings
from service.play.seat_settings import SeatSettings, save_seat_settings
from service.runtime import Runtime
from tests.helpers import forms, mails, post_form, without_links
from tests.service.test_clubs import BO, CY, club_json, found, invite, joined, log_length, my_path
from tests.service.turns import MONDAY, play, stepping

DI = "di@example.org"


def four_members(client: FlaskClient, app: Flask, rt: Runtime) -> tuple[str, str]:
    """Ann's club with Bo, Cy and Di confirmed; Ann's club page and the club's id."""
    club = found(client, rt)
    for name, email in (("Bo", BO), ("Cy", CY), ("Di", DI)):
        invite(client, club, name, email)
        joined(client, app, email)
    return club, club.rsplit("/", 1)[1]


def plan(client: FlaskClient, club: str, **fields: str | list[str]) -> int:
    """Submit the host's season form with these fields (every member by default); the status."""
    form = next(f for f in forms(client.get(club).get_data(as_text=True)) if f.action.endswith("/season"))
    data = {
        **form.fields,
        "move_days": "0",
        "at_once": "1",
        "on_leave": "bot",
        "member": ["0", "1", "2", "3"],
    }
    return client.post(form.action, data={**data, **fields}).status_code


def running(rt: Runtime, club_id: str, season: int = 0) -> dict[int, str]:
    """The season's tables running now: table index -> game id."""
    started = read_club(rt, club_id).seasons[season].started
    return {i: g for i, g in started.items() if rt.read_table(g).active}


def play_out(rt: Runtime, club_id: str, most: int, season: int = 0) -> int:
    """Play every running table of the season by its people's first legal moves until none runs,
    checking that nobody ever sits at more than `most` running tables; how many tables ran."""
    club = read_club(rt, club_id)
    plan = club.seasons[season]
    while tables := running(rt, club_id, season):
        busy = Counter(p for i in tables for p in plan.tables[i])
        assert max(busy.values()) <= most, busy
        for game_id in tables.values():
            table = rt.read_table(game_id)
            for seat in table.rules.to_act(table.state):
                if table.seats[seat].keeper == SeatKeeper.PLAYER:
                    play(rt, game_id, seat)
                    break
    return len(read_club(rt, club_id).seasons[season].started)


def test_a_season_runs_in_waves_to_its_standings(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club, club_id = four_members(client, app, rt)
    assert plan(client, club, game="red_black", bot="keeper") == 303
    season = read_club(rt, club_id).seasons[0]
    assert len(season.players) == 5 and len(season.tables) == 10  # every pair of five once
    assert len(season.started) == 2  # K = 1: two tables of two, the fifth waits
    assert len(mails(app, to=BO.lower(), kind="invitation")) == sum(
        1 for i in season.started if 1 in season.tables[i]
    )
    started_mail = mails(app, to=BO.lower(), kind="season_started")
    assert len(started_mail) == 1 and "Season 1 of Thursday cards starts" in started_mail[0].subject
    bo_tables = [i for i in season.started if 1 in season.tables[i]]
    assert started_mail[0].text_body.count("/play/") == len(bo_tables)
    assert started_mail[0].thread_id == mails(app, to=BO, kind="club_invitation")[0].thread_id  # one thread
    assert "@" not in started_mail[0].text_body.split("-- ")[0].replace(BO.lower(), "")
    running_record = client.get(club + "/record.json").get_json()
    assert "seed" not in str(running_record) and "events" not in str(running_record)  # no running log
    assert play_out(rt, club_id, most=1) == 10
    kept = client.get(club + "/record.json")
    assert kept.status_code == 200 and "attachment" in kept.headers["Content-Disposition"]
    record = kept.get_json()
    assert record["format"] == "pbem-club-record" and "@" not in str(record)  # names, never addresses
    assert [table["record"]["format"] for table in record["seasons"][0]["tables"]] == ["pbem-record"] * 10
    assert record["seasons"][0]["standings"] == club_json(client, club)["seasons"][0]["standings"]
    assert client.get(my_path(rt, "eve@example.org") + "/club/" + club_id + "/record.json").status_code == 403
    data = club_json(client, club)["seasons"][0]
    assert all(table["status"] == "finished" for table in data["tables"])
    lines = data["standings"]
    assert [line["played"] for line in lines] == [4] * 5
    assert sum(line["wins"] + line["shared"] / 2 for line in lines) == 10
    points = [line["points"] for line in lines]
    assert points == sorted(points, reverse=True)
    assert {line["name"] for line in lines} == {"Ann", "Bo", "Cy", "Di", "Seat-keeper"}
    page = client.get(club).get_data(as_text=True)
    assert "Standings" in page and "a win 3" in page


def test_a_bad_plan_changes_nothing(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club, club_id = four_members(client, app, rt)
    bo = joined(client, app, BO)
    before = log_length(app), len(mails(app))
    for fields in (
        {"game": "chess"},
        {"game": "dualis", "member": "0"},  # one player
        {"game": "dualis", "member": ["0", "1"]},  # two: Duālis needs three
        {"game": "red_black", "at_once": "0"},
        {"game": "red_black", "at_once": "x"},
        {"game": "red_black", "move_days": "5"},
        {"game": "red_black", "bot": "grandmaster"},
        {"game": "red_black", "on_leave": "nothing"},
        {"game": "red_black", "member": "9"},
        {"game": "red_black", "member": []},
    ):
        assert plan(client, club, **fields) == 422, fields
    csrf = forms(client.get(bo).get_data(as_text=True))[0].fields["csrf_token"]
    asked = {"csrf_token": csrf, "game": "red_black", "move_days": "0", "at_once": "1", "member": "1"}
    assert client.post(bo + "/season", data=asked).status_code == 422  # Bo is not the host
    assert (log_length(app), len(mails(app))) == before
    assert not read_club(rt, club_id).seasons


def test_a_leaving_members_tables_go_as_the_host_chose(app: Flask, client: FlaskClient) -> None:
    rt, _clock = stepping(app, MONDAY)
    club, club_id = four_members(client, app, rt)
    host = read_club(rt, club_id).members[0].email
    plan_season(rt, club_id, host, SeasonPlan("red_black", (0, 1, 2, 3), at_once=1, on_leave="forfeit"))
    plan_season(rt, club_id, host, SeasonPlan("red_black", (0, 1, 2, 3), at_once=1, on_leave="bot"))
    cy = 2  # Cy's place among the participants: members in order, then bots
    forfeits, kept = dict(running(rt, club_id, 0)), dict(running(rt, club_id, 1))
    assert post_form(client, club, "/remove", member="2").status_code == 303
    club_now = read_club(rt, club_id)
    for index, game_id in forfeits.items():
        table = rt.read_table(game_id)
        seated = club_now.seasons[0].tables[index]
        if cy in seated:
            assert table.status == GameStatus.FINISHED and table.result["forfeit"] == seated.index(cy)
    for index, game_id in kept.items():
        table = rt.read_table(game_id)
        seated = club_now.seasons[1].tables[index]
        if cy in seated:
            assert table.active and table.seats[seated.index(cy)].keeper == SeatKeeper.STAND_IN
    play_out(rt, club_id, most=1, season=0)
    play_out(rt, club_id, most=1, season=1)
    seasons = {season["season"]: season for season in club_json(client, club)["seasons"]}
    forfeited = [table["status"] for table in seasons[1]["tables"]]
    assert forfeited.count("dropped") == 2 and forfeited.count("finished") == 4  # Cy's three: one forfeited
    assert [table["status"] for table in seasons[2]["tables"]] == ["finished"] * 6  # the seat-keeper played
    cy_line = next(line for line in seasons[1]["standings"] if line["name"] == "Cy")
    assert cy_line["played"] == 1 and cy_line["losses"] == 1


def test_ratings_follow_the_tables_and_a_recompute_agrees(
    pg_app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The season's deals pinned: the standings' order and the ratings agree only roughly, and a
    # random deal now and then has the best player's rating under the worst's.
    monkeypatch.setattr("service.play.hosting.secrets.randbits", random.Random(11).getrandbits)
    client = pg_app.test_client()
    rt, _clock = stepping(pg_app, MONDAY)
    club, club_id = four_members(client, pg_app, rt)
    assert plan(client, club, game="red_black", bot="keeper", at_once="2") == 303
    play_out(rt, club_id, most=2)
    data = club_json(client, club)
    ratings = {line["name"]: line for line in data["ratings"]}
    assert set(ratings) == {"Ann", "Bo", "Cy", "Di", "Seat-keeper (keeper)"}
    assert all(line["tables"] == 4 and len(line["history"]) == 4 for line in ratings.values())
    assert all(line["sigma"] < 25 / 3 for line in ratings.values())  # each table made them surer
    people = [line for line in data["seasons"][0]["standings"] if line["name"] in ratings]
    best, worst = people[0], people[-1]
    assert ratings[best["name"]]["mu"] > ratings[worst["name"]]["mu"]  # the standings' order, roughly
    url = pg_app.config["PBEM"]["DATABASE_URL"]
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": "cli",
        "LOCAL_OUTBOX": "1",
        "ALLOW_HTTP_BASE_URL": "1",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "service", "club", "recompute", club_id],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    again = json.loads(done.stdout.strip().splitlines()[-1])
    assert again["ratings"] == data["ratings"]
    assert again["standings"] == [season["standings"] for season in data["seasons"]]
    assert "Ratings" in client.get(club).get_data(as_text=True)


def test_the_weekly_digest_tells_the_standings_and_who_owes_moves(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    club, club_id = four_members(client, app, rt)
    assert plan(client, club, game="dupli", member=["0", "1", "2"], at_once="1") == 303
    save_address_settings(rt, DI, SeatSettings("none", ""))  # Di has no seat: still mailed
    cy_game = next(iter(read_club(rt, club_id).seasons[0].started.values()))
    save_seat_settings(rt, cy_game, 2, SeatSettings("none", ""))  # Cy turned mail off
    clock.advance(days=6)
    assert send_club_digests(rt) == 0  # not a week yet
    clock.advance(days=1)
    assert send_club_digests(rt) == 3  # Ann, Bo and Di; not Cy
    assert send_club_digests(rt) == 0  # once a week, however often the beat runs
    digest = mails(app, to=BO.lower(), kind="club_digest")[-1]
    assert digest.subject == "The week at Thursday cards"
    table = rt.read_table(cy_game)
    waiting = ", ".join(table.names[seat] for seat in sorted(table.rules.to_act(table.state)))
    assert f"waiting for {waiting}" in digest.text_body and "0 points" in digest.text_body
    assert mails(app, to=CY, kind="club_digest") == []
    hands = {card["card"] for seat in range(3) for card in table.rules.view(table.state, seat)["hand"]}
    told = without_links(digest.text_body)
    assert hands and not any(re.search(rf"\b{re.escape(card)}\b", told, re.IGNORECASE) for card in hands)
    clock.advance(days=7)
    assert send_club_digests(rt) == 3

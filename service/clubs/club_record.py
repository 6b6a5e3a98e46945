"""A club's record to keep: its log (names only: every address left out), its seasons with their
standings, each finished table's own game record (the format of service/replay/game_record.py), and the
ratings. A table still running is listed by its players and status only: its record (and its seed)
comes once it is over."""

from __future__ import annotations

from typing import Any

from service.clubs.log import Club, ClubEvent
from service.clubs.ratings import club_ratings, rating_lines
from service.clubs.seasons import player_name
from service.clubs.standings import loaded_tables, standings
from service.eventlog.models import GameStatus
from service.localtime import as_utc
from service.replay.game_record import record_json
from service.runtime import Runtime

FORMAT = "pbem-club-record"
VERSION = 1


def club_record(rt: Runtime, club: Club, log: list[ClubEvent]) -> dict[str, Any]:
    """The club's record from the club as folded and its log."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": club.name,
        "members": [m.name for m in club.members],
        "log": [_logged(seq, event) for seq, event in enumerate(log, start=1)],
        "seasons": [_season(rt, club, number) for number in range(len(club.seasons))],
        "ratings": [line.as_json() for line in rating_lines(club, club_ratings(rt, club))],
    }


def _logged(seq: int, event: ClubEvent) -> dict[str, Any]:
    """An event of the club's log without the address it may carry."""
    data = {key: value for key, value in event.data.items() if key != "email"}
    return {"seq": seq, "type": event.type, "time": as_utc(event.at).isoformat(), "data": data}


def _season(rt: Runtime, club: Club, number: int) -> dict[str, Any]:
    season = club.seasons[number]
    tables = loaded_tables(rt, season)
    return {
        "season": number + 1,
        "game": season.game,
        "options": season.options,
        "players": [player_name(club, season, player) for player in season.players],
        "tables": [
            _table(index, tables[index]) if index in tables else {"table": index, "status": "waiting"}
            for index in range(len(season.tables))
        ],
        "standings": [line.as_json() for line in standings(club, season, tables)],
    }


def _table(index: int, table: Any) -> dict[str, Any]:
    if table.status != GameStatus.FINISHED:
        return {"table": index, "status": str(table.status), "players": table.names}
    return {"table": index, "status": "finished", "record": record_json(table)}

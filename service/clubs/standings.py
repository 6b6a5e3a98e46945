"""A season's standings and tables, read from its tables' logs: each table's result as the rules give
it. Points: a win 3, a shared win 1 (winners tied, or a draw), a loss 0; partners who win together
each win. Ties are broken by outright wins, then by fewer tables lost, then by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.clubs.log import Club, Season
from service.clubs.seasons import playable, player_name
from service.eventlog.models import GameStatus
from service.eventlog.store import Table
from service.mail.drafting import player_url
from service.runtime import Runtime

WIN, SHARED, LOSS = 3, 1, 0


@dataclass(frozen=True)
class Line:
    """A participant's line of the standings."""

    name: str
    member: int | None
    played: int = 0
    wins: int = 0
    shared: int = 0
    losses: int = 0

    @property
    def points(self) -> int:
        return WIN * self.wins + SHARED * self.shared + LOSS * self.losses

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "wins": self.wins,
            "shared": self.shared,
            "losses": self.losses,
            "points": self.points,
        }


@dataclass(frozen=True)
class SeasonTable:
    """A table of the season as a member's page lists it: who sits there (names), where it stands,
    and the reader's own link when they sit there."""

    index: int
    names: tuple[str, ...]
    status: str  # "waiting" (not started), "active", "finished", "cancelled", "dropped"
    winners: tuple[str, ...] = ()
    link: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.index,
            "names": list(self.names),
            "status": self.status,
            "winners": list(self.winners),
        }


def outcome(result: dict[str, Any], seat: int) -> str:
    """ "win", "shared" or "loss" for a seat of a finished table, from the rules' result."""
    winners = set(result["winners"])
    if seat not in winners:
        return "loss"
    sides = [set(side) for side in result.get("sides", ())]
    alone = len(winners) == 1 or winners in sides
    return "win" if alone and not result.get("draw") else "shared"


def standings(club: Club, season: Season, tables: dict[int, Table]) -> list[Line]:
    """The season's standings from its finished tables (`tables`: each started table, loaded)."""
    lines = {
        p: Line(player_name(club, season, player), player.member) for p, player in enumerate(season.players)
    }
    for index, table in tables.items():
        result = table.result
        if table.status != GameStatus.FINISHED or result is None:
            continue
        for seat, p in enumerate(season.tables[index]):
            line, said = lines[p], outcome(result, seat)
            lines[p] = Line(
                line.name,
                line.member,
                line.played + 1,
                line.wins + (said == "win"),
                line.shared + (said == "shared"),
                line.losses + (said == "loss"),
            )
    return sorted(
        lines.values(), key=lambda line: (-line.points, -line.wins, line.losses, line.name.casefold())
    )


def season_tables(
    rt: Runtime, club: Club, season: Season, tables: dict[int, Table], reader: int
) -> list[SeasonTable]:
    """Every table of the season, in schedule order, with the reader's own link where they sit."""
    listed = []
    for index, seated in enumerate(season.tables):
        names = tuple(player_name(club, season, season.players[p]) for p in seated)
        table = tables.get(index)
        if table is None:
            listed.append(
                SeasonTable(index, names, "waiting" if playable(club, season, seated) else "dropped")
            )
            continue
        result = table.result or {"winners": []}
        mine = [seat for seat, p in enumerate(seated) if season.players[p].member == reader]
        link = player_url(rt, table, mine[0]) if mine and table.seats[mine[0]].email else ""
        winners = tuple(names[w] for w in result["winners"]) if table.status == GameStatus.FINISHED else ()
        listed.append(SeasonTable(index, names, str(table.status), winners, link))
    return listed


def loaded_tables(rt: Runtime, season: Season) -> dict[int, Table]:
    """The season's started tables, loaded."""
    return {index: rt.read_table(game_id) for index, game_id in season.started.items()}


@dataclass(frozen=True)
class SeasonView:
    """A season as a member's page shows it."""

    number: int
    game: str
    move_days: int
    at_once: int
    on_leave: str
    standings: list[Line]
    tables: list[SeasonTable]

    def as_json(self) -> dict[str, Any]:
        return {
            "season": self.number + 1,
            "game": self.game,
            "move_days": self.move_days,
            "at_once": self.at_once,
            "on_leave": self.on_leave,
            "standings": [line.as_json() for line in self.standings],
            "tables": [table.as_json() for table in self.tables],
        }


def season_views(rt: Runtime, club: Club, reader: int) -> list[SeasonView]:
    """Every season of the club, newest first, as the member `reader` sees it."""
    views = []
    for season in reversed(club.seasons):
        tables = loaded_tables(rt, season)
        views.append(
            SeasonView(
                season.number,
                season.game,
                season.move_days,
                season.at_once,
                season.on_leave,
                standings(club, season, tables),
                season_tables(rt, club, season, tables, reader),
            )
        )
    return views

"""Club ratings, derived from the tables' logs and the club's log only: Weng-Lin ratings (openskill's
Plackett-Luce model) per player and per game, updated by every finished table, club season or not,
whose people are all confirmed members of the club, in the order the tables ended. Partners are a
team (Duālis), a many-player table is a ranking (by its scores where the rules give them, as Dupli's
victory points, else winners before the rest), and each bot level has a rating of its own. Nothing is
stored: every read folds them anew, so a recompute from scratch gives the same numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlmodel import Session, col, func, select

from rules.table import KEEPER
from service.clubs.log import Club, Standing
from service.eventlog.models import GameRecord, GameStatus, SeatKeeper, SeatRecord
from service.eventlog.store import Table, load_table
from service.localtime import as_utc
from service.play.names import BOT_NAME
from service.runtime import Runtime

MODEL = PlackettLuce()
SCORES = ("vp", "points")  # per-seat scores a result may give, the higher the better


@dataclass(frozen=True)
class Rated:
    """A player of the ratings: a member by number, or a bot by level."""

    member: int | None
    level: str | None = None


@dataclass(frozen=True)
class Rating:
    """A rating after a table: its mean and uncertainty (sigma), and the table it came from."""

    mu: float
    sigma: float
    game_id: str
    at: datetime

    @property
    def shown(self) -> float:
        """The conservative figure a ladder sorts by: the mean less three uncertainties."""
        return self.mu - 3 * self.sigma

    def as_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 6),
            "sigma": round(self.sigma, 6),
            "shown": round(self.shown, 6),
            "table": self.game_id,
            "at": as_utc(self.at).isoformat(),
        }


# Each game's ratings: every player's history, oldest first (the last is the current rating).
Ratings = dict[str, dict[Rated, list[Rating]]]


def club_ratings(rt: Runtime, club: Club, fresh: bool = False) -> Ratings:
    """The club's ratings from every rated table; `fresh`: every table folded anew from its log
    (no cached fold), as the recompute does."""
    by_game: Ratings = {}
    for table in rated_tables(rt, club, fresh):
        rate_table(by_game.setdefault(table.record.game, {}), club, table)
    return by_game


def rated_tables(rt: Runtime, club: Club, fresh: bool) -> list[Table]:
    """The finished tables whose people all are the club's confirmed members, in the order they
    ended (then by id)."""
    members = {m.email for m in club.members if m.standing == Standing.MEMBER}
    if not members:
        return []
    with Session(rt.engine) as session:
        people = func.lower(func.trim(SeatRecord.email))
        outsiders = (
            select(SeatRecord.game_id)
            .where(col(SeatRecord.keeper) != SeatKeeper.BOT, people.not_in(members))
            .distinct()
        )
        query = (
            select(GameRecord.id)
            .where(GameRecord.status == GameStatus.FINISHED, col(GameRecord.id).not_in(outsiders))
            .order_by(col(GameRecord.finished_at), col(GameRecord.id))
        )
        ids = list(session.exec(query).all())
        tables = [load_table(session, game_id) for game_id in ids] if fresh else []
    if not fresh:
        tables = [rt.read_table(game_id) for game_id in ids]
    return sorted(
        (t for t in tables if any(s.keeper != SeatKeeper.BOT for s in t.seats)),
        key=lambda t: (as_utc(t.finished_at or t.record.created_at), t.game_id),
    )


def rate_table(ratings: dict[Rated, list[Rating]], club: Club, table: Table) -> None:
    """Update one game's ratings with a finished table: its teams ranked as the result says."""
    result = table.result
    if result is None:
        return
    players = [_rated(club, seat) for seat in table.seats]
    teams = _teams(result, len(players))
    current = [[_current(ratings, players[seat], str(players[seat])) for seat in team] for team in teams]
    ranks = _ranks(result, teams)
    updated = MODEL.rate(current, ranks=ranks)
    at = table.finished_at or table.record.created_at
    for team, rated in zip(teams, updated, strict=True):
        for seat, rating in zip(team, rated, strict=True):
            ratings.setdefault(players[seat], []).append(Rating(rating.mu, rating.sigma, table.game_id, at))


def _rated(club: Club, seat: SeatRecord) -> Rated:
    if seat.keeper == SeatKeeper.BOT:
        return Rated(None, seat.bot_level or KEEPER)
    member = club.member_of(seat.email.strip().lower())
    assert member is not None, "a rated table's people are members"
    return Rated(member.number)


def _current(ratings: dict[Rated, list[Rating]], player: Rated, name: str) -> Any:
    history = ratings.get(player)
    if not history:
        return MODEL.rating(name=name)
    return MODEL.rating(mu=history[-1].mu, sigma=history[-1].sigma, name=name)


def _teams(result: dict[str, Any], seats: int) -> list[list[int]]:
    """The table's teams: the rules' sides where it has partnerships, else each seat alone."""
    sides = [list(side) for side in result.get("sides", ())]
    if sides and sorted(seat for side in sides for seat in side) == list(range(seats)):
        return sides
    return [[seat] for seat in range(seats)]


def _ranks(result: dict[str, Any], teams: Sequence[Sequence[int]]) -> list[float]:
    """Each team's place (1 first; equal places tie): by the result's scores where they agree with
    its winners, else winners first and the rest after."""
    winners = set(result["winners"])
    scores = next((result[key] for key in SCORES if _scores_fit(result.get(key), winners, len(teams))), None)
    if scores is not None and all(len(team) == 1 for team in teams):
        order = sorted({scores[team[0]] for team in teams}, reverse=True)
        return [float(order.index(scores[team[0]]) + 1) for team in teams]
    return [1.0 if set(team) & winners else 2.0 for team in teams]


def _scores_fit(scores: Any, winners: set[int], seats: int) -> bool:
    """Whether `scores` is one number per seat whose best are exactly the winners (no forfeit)."""
    if (
        not isinstance(scores, list)
        or len(scores) != seats
        or not all(isinstance(s, int | float) for s in scores)
    ):
        return False
    best = max(scores)
    return {seat for seat, score in enumerate(scores) if score == best} == winners


@dataclass(frozen=True)
class RatingLine:
    """A player's rating in one game as the club page shows it: the name (a bot's by its level),
    the current rating and its history."""

    game: str
    name: str
    member: int | None
    level: str | None
    history: tuple[Rating, ...]

    @property
    def current(self) -> Rating:
        return self.history[-1]

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "name": self.name,
            "level": self.level,
            **{
                key: value for key, value in self.current.as_json().items() if key in ("mu", "sigma", "shown")
            },
            "tables": len(self.history),
            "history": [rating.as_json() for rating in self.history],
        }


def rating_lines(club: Club, ratings: Ratings) -> list[RatingLine]:
    """Every rating of the club, by game, best first (by the conservative figure), then by name."""
    lines = [
        RatingLine(game, _name(club, player), player.member, player.level, tuple(history))
        for game, players in sorted(ratings.items())
        for player, history in players.items()
    ]
    return sorted(lines, key=lambda line: (line.game, -line.current.shown, line.name.casefold()))


def _name(club: Club, player: Rated) -> str:
    return club.members[player.member].name if player.member is not None else f"{BOT_NAME} ({player.level})"

"""Seasons: the host picks a game (its options and days per move), the members taking part (and bots
of chosen levels) and K; the schedule (`schedule.py`) makes the tables, and they start in waves, each
participant at no more than K tables at once, the next ones as tables end (`table_ended`, from the
worker). A member who leaves or is removed mid-season: their running tables are forfeited, or given
to the seat-keeper, as the host chose; under "forfeit" their tables not yet started are not played,
under "bot" they start with the seat-keeper in their seat. Every table started is an event of the
club's log, with its game's id."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from rules import GAMES, get_game
from rules.messages import N_
from rules.table import BOT_LEVELS, KEEPER
from service.clubs.log import (
    SEASON_PLANNED,
    TABLE_STARTED,
    Club,
    ClubEvent,
    ClubRefused,
    Player,
    Season,
    Standing,
    fold_on,
    host_of,
    in_club,
    read_club,
)
from service.clubs.readers import club_mail, member_language
from service.clubs.schedule import next_tables, season_tables
from service.eventlog.models import ClubEventRecord, GameRecord, GameStatus, OutboxMail
from service.eventlog.store import load_table
from service.localtime import format_time
from service.mail.drafting import my_games_url, player_url
from service.mail.kinds import MailKind
from service.play.clocks import dues
from service.play.hosting import GameSetup, SetupRefused, declare_forfeit, keep_seat, start_game
from service.play.hosting import Player as Seat
from service.play.names import BOT_NAME
from service.play.time_control import MOVE_DAYS, NO_LIMIT, TimeControl
from service.runtime import Runtime, search_bot_owed

ON_LEAVE = ("forfeit", "bot")
MAX_AT_ONCE = 5
MAX_PLAYERS = {2: 12, 3: 8, 4: 8}  # by seats: a season of at most 66, 56 or 70 tables


@dataclass(frozen=True)
class SeasonPlan:
    """What the host chose: the game, its options, days per move, the members taking part (by
    number), the bots' levels (one participant each), K, and what becomes of a leaver's tables."""

    game: str
    members: tuple[int, ...]
    bots: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    move_days: int = NO_LIMIT
    at_once: int = 1
    on_leave: str = "bot"


Planned = tuple[int, list[str]]  # a season's number and its first tables' games


def plan_season(rt: Runtime, club_id: str, host_email: str, plan: SeasonPlan) -> int:
    """The host plans a season and its first wave of tables starts; the season's number.
    ClubRefused, with nothing changed, for a plan that does not fit the game or the club."""

    def decide(
        session: Session, club: Club
    ) -> tuple[tuple[int, list[str]], list[ClubEvent], list[OutboxMail]]:
        host_of(club, host_email)
        players = _checked_players(club, plan)
        seats = _seats(plan, len(players))
        tables = season_tables(len(players), seats, _partnerships(plan.game, seats, plan.options))
        data = {
            "game": plan.game,
            "options": plan.options,
            "move_days": plan.move_days,
            "players": [p.as_data() for p in players],
            "tables": [list(table) for table in tables],
            "at_once": plan.at_once,
            "on_leave": plan.on_leave,
        }
        planned = ClubEvent(SEASON_PLANNED, data, rt.clock.now())
        games, events, mails = _due_tables(rt, session, fold_on(club, [planned]))
        started = fold_on(club, [planned, *events])
        return (len(club.seasons), games), [planned, *events], mails + season_mails(rt, session, started)

    number, games = in_club(rt, club_id, decide)
    _play_bots(rt, games)
    return number


def _checked_players(club: Club, plan: SeasonPlan) -> list[Player]:
    """The season's participants: confirmed members, then bots; ClubRefused for a bad plan."""
    if plan.game not in GAMES:
        raise ClubRefused(N_("Choose one of the service's games."))
    if plan.move_days not in (NO_LIMIT, *MOVE_DAYS):
        raise ClubRefused(N_("Choose the days per move from the list."))
    if not 1 <= plan.at_once <= MAX_AT_ONCE:
        raise ClubRefused(N_("Tables at once per member: from 1 to %(most)s."), most=MAX_AT_ONCE)
    if plan.on_leave not in ON_LEAVE:
        raise ClubRefused(N_("Choose what becomes of a leaving member's tables."))
    if any(level not in BOT_LEVELS for level in plan.bots):
        raise ClubRefused(N_("There is no such bot level."))
    members = sorted(set(plan.members))
    if any(not 0 <= m < len(club.members) or club.members[m].standing != Standing.MEMBER for m in members):
        raise ClubRefused(N_("Only confirmed members of the club can take part in a season."))
    if not members:
        raise ClubRefused(N_("Choose the members taking part."))
    return [Player(m) for m in members] + [Player(None, level) for level in plan.bots]


def _seats(plan: SeasonPlan, players: int) -> int:
    """The seats at each table: the most the game has for this many players; ClubRefused when
    there are too few or too many players, or the options do not fit."""
    rules = get_game(plan.game)
    fitting = [n for n in rules.seat_counts if n <= players]
    if not fitting:
        raise ClubRefused(
            N_("Too few players for this game: it needs %(least)s or more."), least=min(rules.seat_counts)
        )
    seats = max(fitting)
    if players > MAX_PLAYERS[seats]:
        raise ClubRefused(
            N_("Too many players for one season of this game: it takes %(most)s at most."),
            most=MAX_PLAYERS[seats],
        )
    unknown = set(plan.options) - set(rules.default_options)
    try:
        if unknown:
            raise ValueError(", ".join(sorted(unknown)))
        rules.start(0, seats, plan.options)
    except ValueError as refusal:
        raise ClubRefused(N_("These options do not fit the game: %(reason)s"), reason=str(refusal)) from None
    return seats


def _partnerships(game: str, seats: int, options: dict[str, Any]) -> bool:
    """Whether the game, so seated, is played in partnerships (the rules' sides say so)."""
    rules = get_game(game)
    sides = getattr(rules, "sides", None)
    return sides is not None and any(
        len(side) > 1 for side in sides(rules.fold(rules.start(0, seats, options)))
    )


def _due_tables(
    rt: Runtime, session: Session, club: Club
) -> tuple[list[str], list[ClubEvent], list[OutboxMail]]:
    """In the session: the tables of every season that may start now, started; their games, the
    club's events and the invitations."""
    games: list[str] = []
    events: list[ClubEvent] = []
    mails: list[OutboxMail] = []
    for number, season in enumerate(club.seasons):
        dropped = {i for i, table in enumerate(season.tables) if not playable(club, season, table)}
        running = Counter(p for i in running_tables(session, season) for p in season.tables[i])
        for index in next_tables(season.tables, set(season.started) | dropped, running, season.at_once):
            try:
                game_id, invitations = start_game(rt, session, _setup(session, club, season, index))
            except SetupRefused as refusal:
                raise ClubRefused(refusal.msgid, **refusal.params) from None
            data = {"season": number, "table": index, "game": game_id}
            games.append(game_id)
            events.append(ClubEvent(TABLE_STARTED, data, rt.clock.now(), game_id=game_id))
            mails += invitations
    return games, events, mails


def playable(club: Club, season: Season, table: tuple[int, ...]) -> bool:
    """Whether a table not started yet is still to be played: under "forfeit", not once one of its
    members is gone."""
    return season.on_leave == "bot" or all(_present(club, season.players[p]) for p in table)


def _present(club: Club, player: Player) -> bool:
    return player.member is None or club.members[player.member].standing == Standing.MEMBER


def running_tables(session: Session, season: Season) -> list[int]:
    """The season's tables started and not over."""
    if not season.started:
        return []
    active = set(
        session.exec(
            select(GameRecord.id).where(
                col(GameRecord.id).in_(list(season.started.values())),
                col(GameRecord.status) == GameStatus.ACTIVE,
            )
        ).all()
    )
    return [i for i, game_id in season.started.items() if game_id in active]


def player_name(club: Club, season: Season, player: Player) -> str:
    """A participant's name: the member's, or the bot's as its tables name it."""
    if player.member is not None:
        return club.members[player.member].name
    bots = [p for p in season.players if p.member is None]
    return BOT_NAME if len(bots) == 1 else f"{BOT_NAME} {bots.index(player) + 1}"


def _setup(session: Session, club: Club, season: Season, index: int) -> GameSetup:
    """The game of a season's table: its members by name and address, each reading it in their own
    language (the seat-keeper for one gone), the bots, the club's host as its host, in the club's
    language."""
    host = club.members[club.host]
    seats = []
    for p in season.tables[index]:
        player = season.players[p]
        if player.member is not None and _present(club, player):
            member = club.members[player.member]
            seats.append(Seat(member.name, member.email, language=member_language(session, club, member)))
        elif player.member is not None:
            seats.append(Seat(f"{club.members[player.member].name} ({BOT_NAME})", "", bot=True))
        else:
            seats.append(Seat(player_name(club, season, player), "", bot=True, level=player.level or KEEPER))
    return GameSetup(
        season.game,
        tuple(seats),
        Seat(host.name, host.email),
        dict(season.options),
        control=TimeControl(move_days=season.move_days),
        language=club.language,
    )


def start_due_tables(rt: Runtime, club_id: str) -> list[str]:
    """Start every table of the club's seasons that may start now (none: nothing changes); their
    games."""

    def decide(session: Session, club: Club) -> tuple[list[str], list[ClubEvent], list[OutboxMail]]:
        return _due_tables(rt, session, club)

    games = in_club(rt, club_id, decide)
    _play_bots(rt, games)
    return games


def table_ended(rt: Runtime, game_id: str) -> list[str]:
    """A game ended: if it is a club's table, the club's next tables start; their games."""
    with Session(rt.engine) as session:
        club_id = session.exec(
            select(ClubEventRecord.club_id).where(col(ClubEventRecord.game_id) == game_id)
        ).first()
    return [] if club_id is None else start_due_tables(rt, club_id)


def member_gone(rt: Runtime, club_id: str, member: int) -> None:
    """A member left or was removed: each season's running table of theirs is forfeited by their
    seat or given to the seat-keeper, as the season's host chose; then the tables now due start."""
    club = read_club(rt, club_id)
    with Session(rt.engine) as session:
        running = [(season, i) for season in club.seasons for i in running_tables(session, season)]
    for season, index in running:
        for seat, p in enumerate(season.tables[index]):
            if season.players[p].member == member:
                _leave_seat(rt, season, season.started[index], seat)
    start_due_tables(rt, club_id)


def _leave_seat(rt: Runtime, season: Season, game_id: str, seat: int) -> None:
    if season.on_leave == "forfeit":
        declare_forfeit(rt, game_id, seat)
    else:
        keep_seat(rt, game_id, seat, True)


def _play_bots(rt: Runtime, games: list[str]) -> None:
    """Hand the worker each new game that waits on a search bot's move."""
    with Session(rt.engine) as session:
        owed = [game_id for game_id in games if search_bot_owed(session, game_id)]
    for game_id in owed:
        rt.dispatch.play_bots(game_id)


def season_mails(rt: Runtime, session: Session, club: Club) -> list[OutboxMail]:
    """The mail telling each member taking part in the club's newest season that it starts: their
    tables started now, each with their seat's link and first deadline, and the club page's link;
    in the member's language, with their reply address to the club's talk, in the club's thread."""
    season = club.seasons[-1]
    mails = []
    for p, player in enumerate(season.players):
        if player.member is None:
            continue
        member = club.members[player.member]
        tables = [
            _first_move(rt, session, club, season, i, p)
            for i in sorted(season.started)
            if p in season.tables[i]
        ]
        values = {
            "club": club.name,
            "season": len(club.seasons),
            "tables": tables,
            "link": f"{my_games_url(rt, member.email)}/club/{club.club_id}",
        }
        language = member_language(session, club, member)
        to = (member.name, member.email)
        mails.append(club_mail(rt, club, MailKind.SEASON_STARTED, values, to, language, member))
    return mails


def _first_move(
    rt: Runtime, session: Session, club: Club, season: Season, index: int, p: int
) -> dict[str, Any]:
    """A member's table as the season's first mail lists it: the names, their seat's link, and the
    deadline of their first move if they owe one now."""
    table = load_table(session, season.started[index])
    seat = season.tables[index].index(p)
    due = dues(session, table.game_id).get(seat)
    names = [player_name(club, season, season.players[q]) for q in season.tables[index]]
    return {
        "names": " · ".join(names),
        "link": player_url(rt, table, seat),
        "due": format_time(due, table.record.timezone) if due else None,
    }

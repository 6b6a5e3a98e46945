"""My games, without accounts: anyone may ask for the games of an email address, and the service
mails that address a link signed for it; the link opens the list of every game with a seat of that
address (whatever its case) and the reader's mail settings for all of them at once.

The request never tells whether the address has games: it is answered and mailed the same way for
any address (the request does not even look at the seats). It is rate limited per address (by the
hour and by the day) and per client, counted in `address_requests`. A request revokes nothing: anyone
who knows an address may ask, and must not stop the links its owner holds. The owner revokes, from a
link they hold: every link of the address signed before that stops working (the footer links of
earlier mails too) and a fresh one is mailed. Links expire after MY_GAMES_LINK_DAYS, by the
service's clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, func
from sqlmodel import Session, col, select

from service.db import reaches_mailbox
from service.eventlog.models import AddressRequest, GameRecord, GameStatus, OutboxMail, SeatKeeper, SeatRecord
from service.eventlog.store import Table
from service.i18n import say
from service.links import AddressLink, LinkError, address_key, issued_at, mailbox
from service.localtime import as_utc
from service.mail.drafting import my_games_url, new_message_id, outbox_row, player_url
from service.mail.kinds import MailKind
from service.play.clocks import waiting_on
from service.play.rematch import series_of
from service.play.seat_settings import SeatSettings, save_seat_settings
from service.reading import game_title
from service.runtime import Runtime

ADDRESS_LIMIT = 3  # requests per address in LIMIT_WINDOW
ADDRESS_DAILY_LIMIT = 6  # requests per address in a day: a stranger's three an hour add up
CLIENT_LIMIT = 10  # requests per client (its IP address) in LIMIT_WINDOW
LIMIT_WINDOW = timedelta(hours=1)
DAY = timedelta(days=1)


class TooManyRequests(Exception):
    """The address or the client asked too often lately."""


@dataclass(frozen=True)
class MyGame:
    """One game of the address as its list shows it (plain values: no table, no state)."""

    game_id: str
    game: str
    title: str
    link: str  # the seat's own link
    status: GameStatus
    your_move: bool  # the game waits on this seat
    due: datetime | None  # the seat's deadline, when it owes a move against the clock
    zone: str  # the reader's zone in this game
    started: datetime
    finished: datetime | None
    winners: tuple[str, ...]
    # What tells apart games of one title and table: where play stands ("Round 2", "War 3", in the
    # reader's language), since when the game waits on this seat or on whom, and the rematch series.
    stage: str = ""
    since: datetime | None = None  # the game has waited on this seat since then
    waiting: tuple[tuple[str, datetime | None], ...] = ()  # the others it waits on, and since when
    match: int = 1  # this game's place in its series of rematches
    matches: int = 1  # how many games the series has

    def as_json(self) -> dict[str, object]:
        return {
            "game_id": self.game_id,
            "game": self.game,
            "title": self.title,
            "link": self.link,
            "status": self.status,
            "your_move": self.your_move,
            "due": self.due.isoformat() if self.due else None,
            "started": self.started.isoformat(),
            "finished": self.finished.isoformat() if self.finished else None,
            "winners": list(self.winners),
            "stage": self.stage,
            "since": self.since.isoformat() if self.since else None,
            "waiting": [
                {"name": name, "since": since.isoformat() if since else None} for name, since in self.waiting
            ],
            "series": {"match": self.match, "matches": self.matches},
        }


@dataclass(frozen=True)
class MyGames:
    """An address's games, in the order shown, and its mail settings (its newest seat's)."""

    email: str
    games: list[MyGame]
    settings: SeatSettings
    default_zone: str

    def as_json(self) -> dict[str, object]:
        return {
            "email": self.email,
            "games": [game.as_json() for game in self.games],
            "settings": self.settings.as_json(),
        }


def request_link(rt: Runtime, email: str, client: str) -> None:
    """Mail `email` a fresh link to its games (the earlier ones keep working); TooManyRequests when
    the address asked too often in the last hour or day, or the client in the last hour. The same
    for any address."""
    _mail_link(rt, email, client, revokes=False)


def revoke_links(rt: Runtime, email: str, client: str) -> None:
    """The owner's act, from a link they hold: stop every link of the address signed so far and mail
    it a fresh one (TooManyRequests as for a request: it mails the address too)."""
    _mail_link(rt, email, client, revokes=True)


def _mail_link(rt: Runtime, email: str, client: str, revokes: bool) -> None:
    key = address_key(email)
    now = rt.clock.now()
    with Session(rt.engine, expire_on_commit=False) as session:
        if _too_many(session, key, client, now):
            raise TooManyRequests
        session.add(AddressRequest(email=key, client=client[:64], created_at=now, revokes=revokes))
        mail = _link_mail(rt, email.strip())
        session.add(mail)
        session.commit()
        assert mail.id is not None
    rt.dispatch.send_mails([mail.id])


def _too_many(session: Session, key: str, client: str, now: datetime) -> bool:
    """Whether the address's mailbox (any "+tag" of it) asked too often in the last hour or day, or
    the client in the last hour."""
    address = reaches_mailbox(col(AddressRequest.email), mailbox(key))
    return (
        _requests(session, address, now - LIMIT_WINDOW) >= ADDRESS_LIMIT
        or _requests(session, address, now - DAY) >= ADDRESS_DAILY_LIMIT
        or _requests(session, col(AddressRequest.client) == client, now - LIMIT_WINDOW) >= CLIENT_LIMIT
    )


def _requests(session: Session, who: ColumnElement[bool], since: datetime) -> int:
    """How many requests matching `who` were made since then."""
    after = col(AddressRequest.created_at) > since
    return session.exec(select(func.count()).select_from(AddressRequest).where(who, after)).one()


def _link_mail(rt: Runtime, email: str) -> OutboxMail:
    """The mail with the address's new link (about no game: it has no unsubscribe link)."""
    message_id = new_message_id(rt, "games")
    return outbox_row(
        rt,
        MailKind.MY_GAMES,
        {"link": my_games_url(rt, email), "days": rt.settings["MY_GAMES_LINK_DAYS"]},
        game_id=None,
        seat=None,
        to_name="",
        to_email=email,
        subject=MailKind.MY_GAMES.headline({}),
        message_id=message_id,
        thread_id=message_id,
        unsubscribe_url="",
    )


def address_of(rt: Runtime, token: str) -> str:
    """The address a "my games" token opens; LinkError (forged, expired or revoked) otherwise."""
    link = rt.signer.read_address(token)
    now = rt.clock.now()
    if issued_at(now - timedelta(days=rt.settings["MY_GAMES_LINK_DAYS"])) > link.issued:
        raise LinkError("expired")
    return unrevoked(rt, link)


def calendar_address(rt: Runtime, token: str) -> str:
    """The address a calendar feed's token opens (a calendar subscribes for good: no expiry but the
    links' own, and "stop every link" stops it too); LinkError otherwise."""
    return unrevoked(rt, rt.signer.read_calendar(token))


def calendar_url(rt: Runtime, email: str) -> str:
    """The secret URL of an address's calendar feed, signed now, absolute."""
    link = AddressLink(address_key(email), issued_at(rt.clock.now()))
    return rt.link(f"/calendar/{rt.signer.calendar_token(link)}.ics")


def unrevoked(rt: Runtime, link: AddressLink) -> str:
    """The link's address, unless its links were all stopped since it was signed (LinkError)."""
    with Session(rt.engine) as session:
        latest = session.exec(
            select(func.max(AddressRequest.created_at)).where(
                col(AddressRequest.email) == link.email, col(AddressRequest.revokes)
            )
        ).one()
    if latest is not None and issued_at(as_utc(latest)) > link.issued:
        raise LinkError("revoked")
    return link.email


def _seats_of(rt: Runtime, email: str) -> list[tuple[str, int]]:
    """(game id, seat) of every seat of the address, newest game first."""
    with Session(rt.engine) as session:
        rows = session.exec(
            select(SeatRecord.game_id, SeatRecord.seat)
            .join(GameRecord, col(GameRecord.id) == col(SeatRecord.game_id))
            .where(func.lower(func.trim(SeatRecord.email)) == email, col(SeatRecord.keeper) != SeatKeeper.BOT)
            .order_by(col(GameRecord.created_at).desc(), col(GameRecord.id), col(SeatRecord.seat))
        ).all()
    return [(game_id, seat) for game_id, seat in rows]


def my_games(rt: Runtime, email: str) -> MyGames:
    """The games of an address: running first (those waiting on it on top, soonest deadline first,
    then the longest waiting), then finished and cancelled ones (latest first)."""
    seats = _seats_of(rt, email)
    games = [_my_game(rt, rt.read_table(game_id), seat) for game_id, seat in seats]
    running = sorted(
        (g for g in games if g.status == GameStatus.ACTIVE),
        key=lambda g: (
            not g.your_move,
            g.due is None,
            g.due.timestamp() if g.due else 0.0,
            g.since.timestamp() if g.since else float("inf"),
        ),
    )
    over = sorted(
        (g for g in games if g.status != GameStatus.ACTIVE),
        key=lambda g: g.finished or g.started,
        reverse=True,
    )
    if seats:
        newest = rt.read_table(seats[0][0])
        settings, zone = SeatSettings.of(newest.seats[seats[0][1]]), newest.record.timezone
    else:
        settings, zone = SeatSettings("turn", ""), "UTC"
    return MyGames(email, running + over, settings, zone)


def _my_game(rt: Runtime, table: Table, seat: int) -> MyGame:
    with Session(rt.engine) as session:
        waiting = {w.seat: w for w in waiting_on(session, table, rt.clock.now())}
        series = series_of(session, table.game_id)
    result = table.result
    since = waiting[seat].since if seat in waiting else None
    return MyGame(
        game_id=table.game_id,
        game=table.record.game,
        title=game_title(table),
        link=player_url(rt, table, seat),
        status=table.status,
        your_move=seat in waiting,
        due=as_utc(due) if seat in waiting and (due := waiting[seat].due) else None,
        zone=table.seats[seat].timezone or table.record.timezone,
        started=as_utc(table.record.created_at),
        finished=as_utc(table.finished_at) if table.finished_at else None,
        winners=tuple(table.names[w] for w in result["winners"]) if result else (),
        stage=_stage(table),
        since=as_utc(since) if since else None,
        waiting=tuple(
            (w.name, as_utc(w.since) if w.since else None) for s, w in sorted(waiting.items()) if s != seat
        ),
        match=series.index(table.game_id) + 1,
        matches=len(series),
    )


def _stage(table: Table) -> str:
    """Where play stands, as the replay heads its latest step ("Round 2", "War 3")."""
    if not table.events:
        return ""
    return say(table.rules.heading(table.state, table.events[-1]).title)


def save_address_settings(rt: Runtime, email: str, settings: SeatSettings) -> int:
    """Give every seat of the address these mail settings (each game in its own unit of work);
    how many seats."""
    seats = _seats_of(rt, email)
    for game_id, seat in seats:
        save_seat_settings(rt, game_id, seat, settings)
    return len(seats)

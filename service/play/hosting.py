"""Creating and managing games: the host's side (invite, resend or revoke a link, cancel)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from rules import get_game
from service.eventlog.models import (
    EventOrigin,
    GameRecord,
    GameStatus,
    OutboxMail,
    SeatKeeper,
    SeatRecord,
    TimeoutPolicy,
)
from service.eventlog.store import append_events, load_table, lock_game
from service.mail.drafting import draft_mail, invitation_mails, mailed_seats, player_url
from service.play.clocks import sync_clocks
from service.play.settle import settle
from service.runtime import Runtime
from service.zones import is_zone

MOVE_DAYS = (0, 1, 2, 3, 7)
TIMEOUT_POLICIES = (TimeoutPolicy.BOT, TimeoutPolicy.FORFEIT, TimeoutPolicy.HOST)
MAX_VACATION_DAYS = 60


@dataclass(frozen=True)
class Player:
    name: str
    email: str
    bot: bool = False  # a seat the seat-keeper plays from the start (no email)


BOT_NAME = "Seat-keeper"


def seat_keeper(name: str, number: int, of: int) -> Player:
    """A seat the seat-keeper plays: its given name, else "Seat-keeper" (numbered 1.. when `of`,
    the game's number of such seats, is more than one)."""
    return Player(name or (f"{BOT_NAME} {number}" if of > 1 else BOT_NAME), "", bot=True)


@dataclass(frozen=True)
class TurnSettings:
    """How a game runs against the clock, chosen at creation (see service/deadlines.py)."""

    move_days: int = 0  # days per move; 0: no time limit
    weekend_pause: bool = False
    timezone: str = "UTC"
    remind_hours: int | None = None  # None: 24 h before, or half the time for 1-day games; 0: none
    timeout: str = TimeoutPolicy.BOT
    vacation_days: int = 14  # per seat and calendar year

    def check(self) -> None:
        """ValueError naming the first setting that is not allowed."""
        if self.move_days not in MOVE_DAYS:
            raise ValueError(f"days per move must be one of {', '.join(map(str, MOVE_DAYS))}")
        if not is_zone(self.timezone):
            raise ValueError(f"unknown time zone {self.timezone!r}; use a name like Europe/Paris")
        if self.remind_hours is not None and self.remind_hours < 0:
            raise ValueError("the reminder cannot come after the deadline")
        if self.timeout not in TIMEOUT_POLICIES:
            raise ValueError(f"the timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}")
        if not 0 <= self.vacation_days <= MAX_VACATION_DAYS:
            raise ValueError(f"the vacation allowance must be 0 to {MAX_VACATION_DAYS} days")


def create_game(
    rt: Runtime,
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    turns: TurnSettings | None = None,
) -> str:
    """A new game with its opening events, clocks and invitations (and the bot seats' moves, if they
    begin); ValueError for bad options, seats or turn settings."""
    rules = get_game(game)
    turns = turns or TurnSettings()
    turns.check()
    if all(player.bot for player in players):
        raise ValueError("at least one seat must be a person's")
    seed = secrets.randbits(62) if seed is None else seed
    opening = rules.start(seed, len(players), options or {})
    game_id = secrets.token_urlsafe(9)
    now = rt.clock.now()
    with Session(rt.engine, expire_on_commit=False) as session:
        record = GameRecord(
            id=game_id,
            game=game,
            options=dict(options or {}),
            host_name=host.name,
            host_email=host.email,
            seed_salt=secrets.token_hex(16),
            created_at=now,
            move_days=turns.move_days,
            weekend_pause=turns.weekend_pause,
            timezone=turns.timezone,
            remind_hours=turns.remind_hours,
            timeout=turns.timeout,
            vacation_days=turns.vacation_days,
        )
        session.add(record)
        seats = [
            SeatRecord(
                game_id=game_id,
                seat=n,
                name=p.name,
                email="" if p.bot else p.email,
                keeper=SeatKeeper.BOT if p.bot else SeatKeeper.PLAYER,
            )
            for n, p in enumerate(players)
        ]
        session.add_all(seats)
        session.flush()
        append_events(session, game_id, 0, opening, None, origin=EventOrigin.GAME, now=now)
        table = settle(session, load_table(session, game_id), now)
        mails = invitation_mails(rt, table)
        session.add_all(mails)
        session.commit()
        mail_ids = [m.id for m in mails if m.id is not None]
    rt.dispatch.send_mails(mail_ids)
    return game_id


def resend_link(rt: Runtime, game_id: str, seat: int) -> None:
    """Mail a seat its current link again."""
    _mail_link(rt, game_id, seat, revoke=False)


def revoke_link(rt: Runtime, game_id: str, seat: int) -> None:
    """Revoke every link of a seat so far and mail the seat a new one."""
    _mail_link(rt, game_id, seat, revoke=True)


def _mail_link(rt: Runtime, game_id: str, seat: int, revoke: bool) -> None:
    with Session(rt.engine, expire_on_commit=False) as session:
        table = load_table(session, game_id, rt.cache)
        record = session.get(SeatRecord, (game_id, seat))
        if record is None:
            raise LookupError(f"game {game_id} has no seat {seat}")
        if record.keeper == SeatKeeper.BOT:
            raise LookupError(f"seat {seat} of game {game_id} is the seat-keeper's: it has no link to mail")
        if revoke:
            record.key_version += 1
            session.add(record)
            session.flush()
            table = load_table(session, game_id, rt.cache)
        kind = "link_reissued" if revoke else "link_resent"
        mail = draft_mail(rt, table, kind, seat, {"link": player_url(rt, table, seat)})
        session.add(mail)
        session.commit()
        mail_id = mail.id
    rt.dispatch.send_mails([mail_id] if mail_id else [])


def cancel_game(rt: Runtime, game_id: str) -> bool:
    """Stop a running game and tell its players; False if it was not running."""
    with Session(rt.engine, expire_on_commit=False) as session:
        lock_game(session, game_id)
        table = load_table(session, game_id, rt.cache)
        if not table.active:
            return False
        table.record.status = GameStatus.CANCELLED
        table.record.finished_at = rt.clock.now()
        session.add(table.record)
        sync_clocks(session, table, rt.clock.now())
        mails: list[OutboxMail] = [
            draft_mail(rt, table, "game_cancelled", seat.seat, {}) for seat in mailed_seats(table)
        ]
        session.add_all(mails)
        session.commit()
        mail_ids = [m.id for m in mails if m.id is not None]
    rt.dispatch.send_mails(mail_ids)
    return True


def set_public_replay(rt: Runtime, game_id: str, allowed: bool) -> None:
    """Open (or close) the finished game's replay to anyone with its public link."""
    _set_host_choice(rt, game_id, public_replay=allowed)


def set_host_notify(rt: Runtime, game_id: str, on: bool) -> None:
    """Turn the host's notices about a game on or off."""
    _set_host_choice(rt, game_id, host_notify=on)


def _set_host_choice(rt: Runtime, game_id: str, **choice: bool) -> None:
    """Store one of the host's choices on the game's record (its settings, never its play)."""
    with Session(rt.engine) as session:
        record = session.get(GameRecord, game_id)
        if record is None:
            raise LookupError(f"no game {game_id}")
        for field, value in choice.items():
            setattr(record, field, value)
        session.add(record)
        session.commit()


def revoke_watch_link(rt: Runtime, game_id: str) -> None:
    """Stop the spectator link shared so far (a new one is shown to the host)."""
    with Session(rt.engine) as session:
        record = session.get(GameRecord, game_id)
        if record is None:
            raise LookupError(f"no game {game_id}")
        record.watch_key_version += 1
        session.add(record)
        session.commit()

"""Creating and managing games: the host's side (invite, resend or revoke a link, cancel)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from rules import get_game
from service.models import EventOrigin, GameRecord, GameStatus, OutboxMail, SeatRecord, utcnow
from service.notify import draft_mail, invitation_mails, player_url
from service.runtime import Runtime
from service.store import Table, append_events, load_table


@dataclass(frozen=True)
class Player:
    name: str
    email: str


def create_game(
    rt: Runtime,
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
) -> str:
    """A new game with its opening events and invitations; ValueError for bad options or seats."""
    rules = get_game(game)
    seed = secrets.randbits(62) if seed is None else seed
    opening = rules.start(seed, len(players), options or {})
    game_id = secrets.token_urlsafe(9)
    with Session(rt.engine, expire_on_commit=False) as session:
        record = GameRecord(
            id=game_id,
            game=game,
            options=dict(options or {}),
            host_name=host.name,
            host_email=host.email,
            seed_salt=secrets.token_hex(16),
            created_at=rt.clock.now(),
        )
        session.add(record)
        seats = [
            SeatRecord(game_id=game_id, seat=n, name=p.name, email=p.email) for n, p in enumerate(players)
        ]
        session.add_all(seats)
        session.flush()
        append_events(session, game_id, 0, opening, None, origin=EventOrigin.GAME, now=rt.clock.now())
        table = load_table(session, game_id)
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
        table = load_table(session, game_id, rt.cache)
        if not table.active:
            return False
        table.record.status = GameStatus.CANCELLED
        table.record.finished_at = utcnow()
        session.add(table.record)
        mails: list[OutboxMail] = [
            draft_mail(rt, table, "game_cancelled", seat.seat, {}) for seat in table.seats
        ]
        session.add_all(mails)
        session.commit()
        mail_ids = [m.id for m in mails if m.id is not None]
    rt.dispatch.send_mails(mail_ids)
    return True


def set_public_replay(rt: Runtime, game_id: str, allowed: bool) -> None:
    """Open (or close) the finished game's replay to anyone with its public link."""
    with Session(rt.engine) as session:
        record = session.get(GameRecord, game_id)
        if record is None:
            raise LookupError(f"no game {game_id}")
        record.public_replay = allowed
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


def load(rt: Runtime, game_id: str) -> Table:
    """A game's table, read only."""
    with Session(rt.engine, expire_on_commit=False) as session:
        return load_table(session, game_id, rt.cache)

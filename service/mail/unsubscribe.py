"""Unsubscribing by the link in a mail: what a link stops, and stopping it (idempotent).

A seat's link sets that seat's notify mode to "none"; a host's link turns off the host's notices
about that game; a digest's link sets every seat of the digest's address in "digest" mode to
"none". Mails about a game's life still go (see notify.wants_mail).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, func
from sqlmodel import Session, col, select, update

from service.eventlog.models import DigestRecord, NotifyMode, OutboxMail, SeatRecord
from service.eventlog.store import Table
from service.links import ClubReader, DigestLink, GameLink, LinkError, MailReader
from service.reading import game_title
from service.runtime import Runtime


@dataclass(frozen=True)
class Subscription:
    """The mails an unsubscribe link is about, as its page tells them."""

    reader: MailReader | ClubReader
    email: str
    title: str  # the game's title, or the club's name; "" for the daily digest
    on: bool  # whether those mails still go

    @property
    def kind(self) -> str:
        """What the page tells about: "seat", "host", "digest" or "club" (its weekly digest, stopped
        by `service/clubs/settings.py`)."""
        if isinstance(self.reader, ClubReader):
            return "club"
        if isinstance(self.reader, DigestLink):
            return "digest"
        return "host" if isinstance(self.reader, GameLink) else "seat"


def subscription(rt: Runtime, reader: MailReader) -> Subscription:
    """What `reader`'s link stops; LinkError for a seat or host link replaced since, or a digest
    that is not on record (GameNotFound if the game is gone)."""
    if isinstance(reader, DigestLink):
        email = _digest_address(rt, reader)
        with Session(rt.engine) as session:
            seats = session.exec(select(SeatRecord.seat).where(*_digest_seats_of(email))).all()
        return Subscription(reader, email, "", bool(seats))
    table = rt.read_table(reader.game_id)
    if isinstance(reader, GameLink):
        if table.record.host_key_version != reader.key_version:
            raise LinkError("revoked")
        return Subscription(reader, table.record.host_email, game_title(table), table.record.host_notify)
    if not 0 <= reader.seat < len(table.seats):
        raise LinkError("forged")
    seat = table.seats[reader.seat]
    if seat.key_version != reader.key_version:
        raise LinkError("revoked")
    return Subscription(reader, seat.email, game_title(table), seat.notify != NotifyMode.NONE)


def unsubscribe(rt: Runtime, reader: MailReader) -> None:
    """Stop the mails `reader`'s link is about (again is harmless)."""
    if isinstance(reader, DigestLink):
        # One address's seats across every game: no single game's unit of work, and nothing of
        # play changes, so a plain update.
        with Session(rt.engine) as session:
            session.exec(
                update(SeatRecord)
                .where(*_digest_seats_of(_digest_address(rt, reader)))
                .values(notify=NotifyMode.NONE)
            )
            session.commit()
        return

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        if isinstance(reader, GameLink):
            table.record.host_notify = False
            session.add(table.record)
        else:
            table.seats[reader.seat].notify = NotifyMode.NONE
            session.add(table.seats[reader.seat])
        return None, []

    rt.in_game(reader.game_id, change)


def _digest_address(rt: Runtime, reader: DigestLink) -> str:
    """The address a digest went to."""
    with Session(rt.engine) as session:
        record = session.get(DigestRecord, reader.digest_id)
    if record is None:
        raise LinkError("forged")
    return record.email


def _digest_seats_of(email: str) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """The conditions selecting an address's seats in digest mode, whatever the address's case."""
    return (func.lower(SeatRecord.email) == email.lower(), col(SeatRecord.notify) == NotifyMode.DIGEST)

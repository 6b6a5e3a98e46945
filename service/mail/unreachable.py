"""What the table does with a delivery report about one of its mails: the report is recorded, and a
seat whose address does not take mail (a permanent failure, or temporary ones over 72 hours) is
marked unreachable, with the date and the server's reason, in the game's unit of work; its host is
mailed once. A complaint (the reader marked the mail as spam) turns the seat's nudges off, as its
unsubscribe link would, and tells the host. The host's own address is judged by the same rule from
the reports about the host's mails; the host page says so (there is nobody to mail). Nothing here
guesses: the state is derived from the bounce records and the outbox rows they name."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from service.eventlog.models import BounceKind, BounceRecord, NotifyMode, OutboxMail, SeatRecord
from service.eventlog.store import GameNotFound, Table
from service.localtime import as_utc
from service.mail.drafting import draft_mail, drafted, host_url
from service.mail.kinds import MailKind
from service.runtime import Runtime

log = logging.getLogger(__name__)
TEMPORARY_LIMIT = timedelta(hours=72)  # temporary failures this long make an address unreachable


@dataclass(frozen=True)
class Failure:
    """What a delivery report says about the mail's address."""

    kind: BounceKind
    status: str = ""  # RFC 3463, e.g. 5.1.1
    reason: str = ""  # the receiving server's words

    @classmethod
    def permanent(cls, status: str, reason: str) -> Failure:
        return cls(BounceKind.PERMANENT, status, reason)


@dataclass(frozen=True)
class Unreachable:
    since: datetime
    reason: str


class Outcome:
    """What became of a report: recorded (and maybe acted on), or dropped with the reason."""

    RECORDED = "recorded"
    NOT_SENT = "not sent"  # a report about a mail that never went out
    LEFT = "left"  # the address is no longer the seat's (replaced, corrected): nothing to change


def record_failure(rt: Runtime, mail_id: int, failure: Failure) -> str:
    """Record a report about the outbox row `mail_id` and act on it in its game; what became of it."""
    with Session(rt.engine, expire_on_commit=False) as session:
        mail = session.get(OutboxMail, mail_id)
    if mail is None or (mail.sent_at is None and failure.kind != BounceKind.PERMANENT):
        return Outcome.NOT_SENT
    if mail.game_id is None:  # a digest or "my games": about no seat, kept for the record
        with Session(rt.engine) as session:
            session.add(_record(rt, mail, 0, failure))
            session.commit()
        return Outcome.RECORDED
    try:
        return rt.in_game(mail.game_id, lambda session, table: _act(rt, session, table, mail, failure))
    except GameNotFound:
        return Outcome.NOT_SENT


def _record(rt: Runtime, mail: OutboxMail, key_version: int, failure: Failure) -> BounceRecord:
    assert mail.id is not None
    return BounceRecord(
        mail_id=mail.id,
        game_id=mail.game_id,
        seat=mail.seat,
        key_version=key_version,
        email=mail.to_email.strip().lower(),
        kind=failure.kind,
        status=failure.status[:16],
        reason=" ".join(failure.reason.split())[:500],
        received_at=rt.clock.now(),
    )


def _act(
    rt: Runtime, session: Session, table: Table, mail: OutboxMail, failure: Failure
) -> tuple[str, list[OutboxMail]]:
    """In the game's unit of work: the record, and what follows for the seat (or the host) the mail
    went to."""
    if mail.seat is None:
        return _act_for_host(rt, session, table, mail, failure)
    seat = table.seats[mail.seat] if mail.seat < len(table.seats) else None
    if seat is None or not _same(seat.email, mail.to_email):
        log.info("report about mail %s to an address seat %s no longer has: ignored", mail.id, mail.seat)
        return Outcome.LEFT, []
    session.add(_record(rt, mail, seat.key_version, failure))
    session.flush()
    if failure.kind == BounceKind.COMPLAINT:
        return Outcome.RECORDED, _complained(rt, session, table, seat)
    return Outcome.RECORDED, _maybe_unreachable(rt, session, table, seat)


def _act_for_host(
    rt: Runtime, session: Session, table: Table, mail: OutboxMail, failure: Failure
) -> tuple[str, list[OutboxMail]]:
    """A report about a mail to the host: a complaint turns the host's notices off; an address that
    does not take mail is marked so, for the host page to say (there is nobody else to mail)."""
    game = table.record
    if not _same(game.host_email, mail.to_email):
        return Outcome.LEFT, []
    session.add(_record(rt, mail, game.host_key_version, failure))
    session.flush()
    if failure.kind == BounceKind.COMPLAINT:
        game.host_notify = False
    elif game.host_unreachable_at is None:
        found = unreachable(_host_records(session, table), _sent_times(session, table, None))
        if found is not None:
            game.host_unreachable_at, game.host_unreachable_reason = found.since, found.reason
    session.add(game)
    return Outcome.RECORDED, []


def _same(address: str, other: str) -> bool:
    return address.strip().lower() == other.strip().lower()


def _complained(rt: Runtime, session: Session, table: Table, seat: SeatRecord) -> list[OutboxMail]:
    """The seat's nudges off, as its unsubscribe link would; the host told once."""
    if seat.notify == NotifyMode.NONE:
        return []
    seat.notify = NotifyMode.NONE
    session.add(seat)
    return _tell_host(rt, table, MailKind.COMPLAINT, seat, "")


def _maybe_unreachable(rt: Runtime, session: Session, table: Table, seat: SeatRecord) -> list[OutboxMail]:
    """Mark the seat unreachable when its records now say so; the host is mailed at that moment only."""
    if seat.unreachable_at is not None:
        return []
    found = unreachable(_seat_records(session, table.game_id, seat), _sent_times(session, table, seat))
    if found is None:
        return []
    seat.unreachable_at, seat.unreachable_reason = found.since, found.reason
    session.add(seat)
    return _tell_host(rt, table, MailKind.UNREACHABLE, seat, found.reason)


def _tell_host(rt: Runtime, table: Table, kind: MailKind, seat: SeatRecord, reason: str) -> list[OutboxMail]:
    if not table.active:
        return []
    context = {"link": host_url(rt, table), "name": seat.name, "reason": reason}
    return drafted(draft_mail(rt, table, kind, None, context))


def _seat_records(session: Session, game_id: str, seat: SeatRecord) -> Sequence[BounceRecord]:
    """The seat's reports about its current address and link version (a corrected one starts anew)."""
    return session.exec(
        select(BounceRecord)
        .where(
            col(BounceRecord.game_id) == game_id,
            col(BounceRecord.seat) == seat.seat,
            col(BounceRecord.email) == seat.email.strip().lower(),
            col(BounceRecord.key_version) == seat.key_version,
        )
        .order_by(col(BounceRecord.id))
    ).all()


def _host_records(session: Session, table: Table) -> Sequence[BounceRecord]:
    """The reports about the host's mails to their current address and link version."""
    return session.exec(
        select(BounceRecord)
        .where(
            col(BounceRecord.game_id) == table.game_id,
            col(BounceRecord.seat).is_(None),
            col(BounceRecord.email) == table.record.host_email.strip().lower(),
            col(BounceRecord.key_version) == table.record.host_key_version,
        )
        .order_by(col(BounceRecord.id))
    ).all()


def _sent_times(session: Session, table: Table, seat: SeatRecord | None) -> dict[int, datetime]:
    """When each of the seat's (or the host's) mails that a report is about went out, by row id."""
    about = col(BounceRecord.seat).is_(None) if seat is None else col(BounceRecord.seat) == seat.seat
    ids = select(BounceRecord.mail_id).where(col(BounceRecord.game_id) == table.game_id, about)
    rows = session.exec(select(OutboxMail.id, OutboxMail.sent_at).where(col(OutboxMail.id).in_(ids))).all()
    return {row_id: as_utc(sent) for row_id, sent in rows if row_id is not None and sent is not None}


def unreachable(records: Sequence[BounceRecord], sent: dict[int, datetime]) -> Unreachable | None:
    """Whether these reports about one address say it does not take mail: a permanent failure, or
    temporary ones still coming over 72 hours after the first such mail went out."""
    for record in records:
        if record.kind == BounceKind.PERMANENT:
            return Unreachable(as_utc(record.received_at), record.reason or record.status)
    delayed = [record for record in records if record.kind == BounceKind.TEMPORARY]
    if not delayed:
        return None
    first = min(sent.get(record.mail_id, as_utc(record.received_at)) for record in delayed)
    last = delayed[-1]
    if as_utc(last.received_at) - first >= TEMPORARY_LIMIT:
        return Unreachable(as_utc(last.received_at), last.reason or last.status)
    return None

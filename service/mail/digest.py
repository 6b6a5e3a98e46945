"""The daily digest: one mail a day per address, at DIGEST_HOUR in the reader's time zone, listing
every running game that waits on a seat of that address in "digest" mode, with what happened since
the seat's last move and its link.

Exactly once: each digest is a row unique per (address, local day), written in the same transaction
as its mail, so an overlapping or repeated run fails on the constraint and drafts nothing. After
downtime the first run catches up with one digest for the current day, not one per missed day. A day
on which nothing waits still gets its row (without a mail): the digest keeps to its hour rather than
following the first move after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from flask_babel import force_locale, ngettext
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from service.eventlog.models import DigestRecord, GameRecord, GameStatus, NotifyMode, OutboxMail, SeatRecord
from service.eventlog.store import Table, load_table
from service.i18n import DEFAULT_LANGUAGE
from service.links import DigestLink
from service.mail.drafting import (
    new_message_id,
    outbox_row,
    player_url,
    reply_address,
    unsubscribe_url,
)
from service.mail.kinds import MailKind
from service.mail.table import MailTable, mail_table
from service.reading import game_title, reader_language, since_lines
from service.runtime import Runtime


@dataclass(frozen=True)
class DueDigest:
    """An address whose digest for `day` (its local day) has not been written yet."""

    email: str  # lower-cased
    day: date
    seats: tuple[tuple[str, int], ...]  # (game id, seat) in digest mode, newest game first


@dataclass(frozen=True)
class DigestGame:
    """One waiting game as the digest lists it: with the seat's table and its moves, one tap each
    (their mailto: links reply to that game's own reply address)."""

    title: str
    link: str
    lines: list[str]
    table: MailTable | None = None


def address_zone(seats: list[tuple[SeatRecord, str]]) -> ZoneInfo:
    """An address's time zone: the one its player chose on their newest game that has one, else the
    newest game's own zone (seats newest first, each with its game's zone)."""
    chosen = next((seat.timezone for seat, _ in seats if seat.timezone), "")
    return ZoneInfo(chosen or seats[0][1])


def digest_seats() -> Select[SeatRecord, str]:
    """The seats in digest mode in running games, newest game first, each with its game's zone (read
    through the partial index ix_seats_digest, not every seat)."""
    return (
        select(SeatRecord, GameRecord.timezone)
        .join(GameRecord, col(GameRecord.id) == col(SeatRecord.game_id))
        .where(col(SeatRecord.notify) == NotifyMode.DIGEST, col(GameRecord.status) == GameStatus.ACTIVE)
        .order_by(col(GameRecord.created_at).desc(), col(GameRecord.id), col(SeatRecord.seat))
    )


def due_digests(rt: Runtime) -> list[DueDigest]:
    """Addresses with a seat in digest mode in a running game, past DIGEST_HOUR of their local day,
    whose digest for that day (or a later one, after a change of zone) is not written yet."""
    now = rt.clock.now()
    with Session(rt.engine) as session:
        seats = session.exec(digest_seats()).all()
        by_address: dict[str, list[tuple[SeatRecord, str]]] = {}
        for seat, game_zone in seats:
            by_address.setdefault(seat.email.strip().lower(), []).append((seat, game_zone))
        today: dict[str, date] = {}
        for email, address_seats in by_address.items():
            local = now.astimezone(address_zone(address_seats))
            if local.hour >= rt.settings["DIGEST_HOUR"]:
                today[email] = local.date()
        if not today:
            return []
        latest = dict(
            session.exec(
                select(DigestRecord.email, func.max(DigestRecord.day))
                .where(col(DigestRecord.email).in_(today))
                .group_by(col(DigestRecord.email))
            ).all()
        )
    return [
        DueDigest(email, day, tuple((seat.game_id, seat.seat) for seat, _ in by_address[email]))
        for email, day in today.items()
        if email not in latest or latest[email] < day
    ]


def draft_digest(rt: Runtime, due: DueDigest) -> int | None:
    """Write an address's digest row for its day and, if a game waits, its mail, in one transaction.
    The mail's id; None when nothing waits or that day's digest was written already."""
    with Session(rt.engine, expire_on_commit=False) as session:
        record = DigestRecord(email=due.email, day=due.day, created_at=rt.clock.now())
        session.add(record)
        try:
            session.flush()
        except IntegrityError:  # another run wrote this day's digest first
            session.rollback()
            return None
        tables = {game_id: load_table(session, game_id, rt.cache) for game_id, _ in due.seats}
        waiting = [
            (tables[game_id], seat) for game_id, seat in due.seats if _waits(tables[game_id], seat, due)
        ]
        assert record.id is not None
        mail = digest_mail(rt, due, record.id, waiting) if waiting else None
        if mail is not None:
            session.add(mail)
            session.flush()
            record.mail_id = mail.id
            session.add(record)
        session.commit()
        return mail.id if mail else None


def _waits(table: Table, seat: int, due: DueDigest) -> bool:
    """Whether the game waits on this seat, still of this address and in digest mode."""
    record = table.seats[seat]
    return (
        table.active
        and record.notify == NotifyMode.DIGEST
        and record.email.strip().lower() == due.email
        and seat in table.rules.to_act(table.state)
    )


def digest_mail(rt: Runtime, due: DueDigest, digest_id: int, waiting: list[tuple[Table, int]]) -> OutboxMail:
    """The digest mail listing the waiting games (newest first), addressed as the newest seat is and
    in its language."""
    newest, seat = waiting[0]
    language = reader_language(newest, seat) or DEFAULT_LANGUAGE
    with force_locale(language):
        return _digest_in_language(rt, due, digest_id, waiting, language)


def _digest_in_language(
    rt: Runtime, due: DueDigest, digest_id: int, waiting: list[tuple[Table, int]], language: str
) -> OutboxMail:
    games = [digest_game(rt, table, seat) for table, seat in waiting]
    first = waiting[0][0].seats[waiting[0][1]]
    waiting_line = ngettext(
        "%(num)d game waits for your move", "%(num)d games wait for your move", len(games)
    )
    message_id = new_message_id(rt, f"digest.{due.day.isoformat()}")
    return outbox_row(
        rt,
        MailKind.DIGEST,
        {"games": games, "waiting": waiting_line},
        game_id=None,
        seat=None,
        to_name=first.name,
        to_email=first.email,
        subject=MailKind.DIGEST.headline({"waiting": waiting_line}),
        message_id=message_id,
        thread_id=message_id,
        unsubscribe_url=unsubscribe_url(rt, DigestLink(digest_id)),
        language=language,
    )


def digest_game(rt: Runtime, table: Table, seat: int) -> DigestGame:
    """A waiting game as the digest lists it for the seat: its title, link, what happened since the
    seat's last move, and the seat's table with its moves (as the seat's turn mail draws them)."""
    title, link = game_title(table), player_url(rt, table, seat)
    seat_table = mail_table(rt, table, seat, link, reply_address(rt, table, seat), title)
    return DigestGame(title, link, since_lines(rt, table, seat), seat_table)


def first_digest(rt: Runtime, session: Session, table: Table, seat: int, was: str) -> OutboxMail | None:
    """The mail for a seat that switched to the digest after its address's digest of today was
    written: what waits on the address now, at once, so that the switch does not leave the player
    without a word until tomorrow's digest (a switch before the hour, or before today's digest was
    written, waits for that one). None when nothing waits or no such switch happened."""
    record = table.seats[seat]
    if not table.active or was == NotifyMode.DIGEST or record.notify != NotifyMode.DIGEST:
        return None
    email = record.email.strip().lower()
    seats = _digest_seats(session, email)
    if not seats:
        return None
    local = rt.clock.now().astimezone(address_zone(seats))
    if local.hour < rt.settings["DIGEST_HOUR"]:
        return None
    written = session.exec(
        select(DigestRecord).where(col(DigestRecord.email) == email, col(DigestRecord.day) == local.date())
    ).first()
    if written is None or written.id is None:
        return None
    due = DueDigest(email, local.date(), tuple((s.game_id, s.seat) for s, _ in seats))
    tables = {
        game_id: table if game_id == table.game_id else load_table(session, game_id, rt.cache)
        for game_id, _ in due.seats
    }
    waiting = [(tables[game_id], s) for game_id, s in due.seats if _waits(tables[game_id], s, due)]
    return digest_mail(rt, due, written.id, waiting) if waiting else None


def _digest_seats(session: Session, email: str) -> list[tuple[SeatRecord, str]]:
    """The address's seats in digest mode in running games, newest game first, each with its game's
    zone."""
    rows = session.exec(digest_seats().where(func.lower(func.trim(SeatRecord.email)) == email)).all()
    return [(seat, zone) for seat, zone in rows]


def send_due_digests(rt: Runtime) -> int:
    """Draft every digest now due and hand the mails to delivery; how many mails were drafted."""
    mail_ids = [mail_id for due in due_digests(rt) if (mail_id := draft_digest(rt, due)) is not None]
    rt.dispatch.send_mails(mail_ids)
    return len(mail_ids)

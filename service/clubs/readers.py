"""How each member reads the club's mail: in their own language (the one they chose for the club,
else the one they chose last for a seat of theirs, else the club's), the weekly digest as they chose
it (until they choose, not when every seat of theirs turned mail off), with their own reply address
to the club's talk and their own unsubscribe link; every club mail in the club's one thread."""

from __future__ import annotations

from typing import Any

from flask_babel import force_locale
from sqlmodel import Session, col, func, select

from service.clubs.log import Club, Member
from service.eventlog.models import GameRecord, NotifyMode, OutboxMail, SeatRecord
from service.links import ClubReader, ClubReplyLink, day_number
from service.mail.drafting import new_message_id, outbox_row, unsubscribe_url
from service.mail.kinds import MailKind
from service.runtime import Runtime


def address_language(session: Session, club: Club, email: str) -> str:
    """The language of club mail to an address that chose none in the club: the one it chose last
    for a seat of its own (on the seat's page), else the club's (the founder's; a table's language
    is likewise its host's choice, not the reader's)."""
    chosen = session.exec(
        select(SeatRecord.language)
        .join(GameRecord, col(GameRecord.id) == col(SeatRecord.game_id))
        .where(func.lower(func.trim(SeatRecord.email)) == email, col(SeatRecord.language) != "")
        .order_by(col(GameRecord.created_at).desc(), col(GameRecord.id))
    ).first()
    return chosen or club.language


def member_language(session: Session, club: Club, member: Member) -> str:
    """The language of the club's mail to a member: their choice for the club, else for their seats."""
    return member.language or address_language(session, club, member.email)


def wants_digest(session: Session, member: Member) -> bool:
    """Whether the member gets the weekly digest: as they chose on the club page (or by its
    unsubscribe link); until then, unless every seat of their address turned mail off."""
    if member.digest is not None:
        return member.digest
    modes = set(
        session.exec(
            select(SeatRecord.notify).where(func.lower(func.trim(SeatRecord.email)) == member.email)
        ).all()
    )
    return modes != {NotifyMode.NONE}


def club_reply_address(rt: Runtime, club: Club, member: Member) -> str:
    """The member's signed address for replies to the club's mail: what they write goes to the
    club's talk (read by `service/replies/club_replies.py`)."""
    link = ClubReplyLink(club.club_id, member.number, day_number(rt.clock.now()))
    return f"play+{rt.signer.club_reply_token(link)}@{rt.settings['MAIL_DOMAIN']}"


def club_mail(
    rt: Runtime,
    club: Club,
    kind: MailKind,
    values: dict[str, Any],
    to: tuple[str, str],
    language: str,
    member: Member | None = None,
) -> OutboxMail:
    """A mail of the club's to `to` (name, address) in `language`, in the club's thread; to a
    `member`, with their reply address to the club's talk and, for the digest, their unsubscribe
    link."""
    reply_to = club_reply_address(rt, club, member) if member is not None else ""
    unsubscribe = ""
    if member is not None and kind == MailKind.CLUB_DIGEST:
        unsubscribe = unsubscribe_url(rt, ClubReader(club.club_id, member.number))
    with force_locale(language):
        return outbox_row(
            rt,
            kind,
            {**values, "club_reply": bool(reply_to)},
            game_id=None,
            seat=None,
            to_name=to[0],
            to_email=to[1],
            subject=kind.headline(values),
            message_id=new_message_id(rt, f"club.{club.club_id}"),
            thread_id=f"<club.{club.club_id}@{rt.settings['MAIL_DOMAIN']}>",
            unsubscribe_url=unsubscribe,
            language=language,
            reply_to=reply_to,
        )

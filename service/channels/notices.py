"""The notices a step of a game writes to its seats' channels, next to its mails and from them: a
seat's channel is told what its mail says (the headline, never the table: no card at all) with the
seat's own link, so the reader's settings (quiet, digest), language and "nothing once the game is
over" apply to every channel as they do to mail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlmodel import Session, col, select

from service.channels.kinds import Payload
from service.eventlog.models import Channel, MailStatus, OutboxMail
from service.eventlog.store import Table
from service.mail.drafting import mail_language, player_url
from service.mail.kinds import MailKind
from service.reading import game_title
from service.runtime import Runtime

# The mails a seat's channels repeat: a move owed, and the game's end.
PINGED = frozenset({MailKind.YOUR_TURN, MailKind.GAME_OVER})


def notices_after(
    rt: Runtime, session: Session, table: Table, mails: Sequence[OutboxMail]
) -> list[OutboxMail]:
    """The notices to the seats' channels that the step's `mails` (to the table as it now stands)
    cause: one per channel of each seat mailed a move owed or the game's end."""
    told = {mail.seat: mail for mail in mails if mail.seat is not None and mail.kind in PINGED}
    if not told:
        return []
    return [
        notice_row(rt, channel, seat_payload(rt, table, told[channel.seat]))
        for channel in live_channels(session, table, set(told))
        if channel.seat is not None
    ]


def live_channels(session: Session, table: Table, seats: set[int | None]) -> list[Channel]:
    """The unpaused channels of these seats' current players."""
    rows = session.exec(
        select(Channel).where(
            Channel.game_id == table.game_id,
            col(Channel.seat).in_(seats),
            col(Channel.paused_at).is_(None),
        )
    ).all()
    return [row for row in rows if row.seat is None or row.key_version == table.seats[row.seat].key_version]


def headline(mail: OutboxMail) -> str:
    """What a mail says in one line: its bodies' first line."""
    return mail.text_body.strip().splitlines()[0] if mail.text_body.strip() else mail.subject


def seat_payload(rt: Runtime, table: Table, mail: OutboxMail) -> Payload:
    """A seat's notice of what its mail says, with the seat's own link."""
    assert mail.seat is not None
    return {
        "event": str(mail.kind),
        "game": table.game_id,
        "title": mail.subject,
        "text": headline(mail),
        "url": player_url(rt, table, mail.seat),
        "language": mail.language,
    }


def test_payload(rt: Runtime, table: Table, seat: int) -> Payload:
    """The test ping of a seat's channel, in the seat's language."""
    language = mail_language(table, seat)
    with force_locale(language):
        text = _("A test ping: this channel works, and you will hear here when it is your move.")
        title = game_title(table)
    return {
        "event": str(MailKind.CHANNEL_TEST),
        "game": table.game_id,
        "title": title,
        "text": text,
        "url": player_url(rt, table, seat),
        "language": language,
    }


def notice_row(rt: Runtime, channel: Channel, payload: dict[str, Any]) -> OutboxMail:
    """The outbox row of one notice to a channel, due now."""
    now = rt.clock.now()
    return OutboxMail(
        game_id=channel.game_id,
        kind=payload["event"],
        seat=channel.seat,
        to_email="",
        subject=payload["title"][:300],
        text_body=f"{payload['text']}\n{payload['url']}",
        html_body="",
        message_id="",
        thread_id="",
        language=payload["language"],
        status=MailStatus.PENDING,
        created_at=now,
        next_attempt_at=now,
        channel=channel.kind,
        channel_id=channel.id,
        payload=payload,
    )

"""The notices a step of a game writes to its channels, next to its mails. A seat's channel is told
what the seat's mail of a move owed or of the game's end says (the headline, never the table: no card
at all) with the seat's own link, in the seat's language and time zone; the reader's digest setting
and "nothing once the game is over" apply to it as to mail, but not whether mail is on: a channel is
a way of hearing of one's turns of its own. The table's group channel is told, in the table's language, whose
move it is now whenever that changes, and the result once the game ends, with the watch link and
public words only (names); its notices are at least a minute apart, and a change while one waits
(or is being retried) rewrites the waiting one instead of adding another."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import ColumnElement, bindparam, func, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from rules.messages import together
from service.channels.kinds import Payload
from service.channels.mentions import named
from service.eventlog.models import Channel, MailStatus, NotifyMode, OutboxMail, SeatKeeper
from service.eventlog.store import Table
from service.i18n import say
from service.localtime import as_utc, format_time, zone_name
from service.mail.drafting import (
    due_before_digest,
    mail_language,
    mailed_seats,
    player_url,
    public_replay_url,
    watch_url,
)
from service.mail.kinds import MailKind
from service.mail.move_mails import newly_owing
from service.reading import game_title
from service.runtime import Runtime

TEST_PING = "channel_test"  # the events of notices that are no mail's
TURN = "turn"
GROUP_SPACING = timedelta(minutes=1)  # a table's channel gets at most one notice a minute


def notices_after(
    rt: Runtime, session: Session, before: Table, after: Table, dues: Mapping[int, datetime]
) -> list[OutboxMail]:
    """The notices that the step from `before` to `after` causes: one per channel of each seat now
    owing a move (with its deadline in a timed game: `dues`, by seat), or of every seat once the game
    is over, as its reader's settings want it; and the table's when whose move it is changed."""
    told = pinged(after, newly_owing(before, after))
    turn = turn_changed(before, after)
    if not told and not turn:
        return []
    channels = live_channels(session, after, {*told, None} if turn else set(told))
    payloads = {
        seat: seat_payload(rt, after, seat, kind, dues.get(seat))
        for seat, kind in told.items()
        if wants_ping(rt, after, seat, kind, dues.get(seat))
    }
    notices = [
        notice_row(rt, channel, payloads[channel.seat]) for channel in channels if channel.seat in payloads
    ]
    table_channel = next((channel for channel in channels if channel.seat is None), None)
    if table_channel is not None:
        notices += table_notice(rt, session, table_channel, table_payload(rt, after))
    return notices


def pinged(table: Table, owing: set[int]) -> dict[int, MailKind]:
    """What each seat played by a person is told: the game's end to every one once it is over, else
    "your move" to those of `owing` that play their seat themselves (not the seat-keeper)."""
    people = mailed_seats(table)
    if table.result is not None:
        return {seat.seat: MailKind.GAME_OVER for seat in people}
    return {
        seat.seat: MailKind.YOUR_TURN
        for seat in people
        if seat.seat in owing and seat.keeper == SeatKeeper.PLAYER
    }


def wants_ping(rt: Runtime, table: Table, seat: int, kind: MailKind, due: datetime | None) -> bool:
    """Whether a seat's channels are told of this kind: as its mail would be, but whether its mail is
    on or arrives is mail's own business (a seat that turned mail off, or whose address bounces, and
    added a channel wants its pings there). A reader of the daily digest is pinged only for what the
    digest could bring too late (a move due before it), and nothing about play to come once the game
    is over."""
    if kind.about_play and not table.active:
        return False
    if kind.nudge and table.seats[seat].notify == NotifyMode.DIGEST:
        return due_before_digest(rt, table, seat, due)
    return True


def turn_changed(before: Table, after: Table) -> bool:
    """Whether whose move it is changed from `before` to `after` (the game's end included)."""
    if after.result is not None:
        return before.result is None
    return set(before.rules.to_act(before.state)) != set(after.rules.to_act(after.state))


def table_notice(rt: Runtime, session: Session, channel: Channel, payload: Payload) -> list[OutboxMail]:
    """The table channel's notice of `payload`: the one still waiting rewritten if there is one (no
    new row), else a new one due a minute after the one sent before at the soonest."""
    now = rt.clock.now()
    waiting = session.exec(
        update(OutboxMail)
        .where(col(OutboxMail.channel_id) == channel.id, col(OutboxMail.status) == MailStatus.PENDING)
        .where(col(OutboxMail.claimed_until).is_(None) | (col(OutboxMail.claimed_until) < now))
        .values(payload=payload, subject=payload["title"][:300], text_body=notice_text(payload))
    )
    if waiting.rowcount:
        return []
    # Spaced from the last notice sent, or from now while one is being sent (a due time says nothing:
    # the sweep moves it on as it queues a row).
    last = session.exec(
        select(func.max(func.coalesce(OutboxMail.sent_at, now))).where(
            col(OutboxMail.channel_id) == channel.id,
            col(OutboxMail.status).in_([MailStatus.SENT, MailStatus.PENDING]),
        )
    ).one()
    row = notice_row(rt, channel, payload)
    if last is not None:
        row.next_attempt_at = max(now, as_utc(last) + GROUP_SPACING)
    return [row]


def _live_where(owners: ColumnElement[bool]) -> SelectOfScalar[Channel]:
    return select(Channel).where(
        col(Channel.game_id) == bindparam("game_id"), owners, col(Channel.paused_at).is_(None)
    )


# Built once: every move asks which channels to tell.
_NUMBERED = col(Channel.seat).in_(bindparam("seats", expanding=True))
_LIVE_CHANNELS = _live_where(_NUMBERED)
_LIVE_CHANNELS_AND_TABLES = _live_where(_NUMBERED | col(Channel.seat).is_(None))


def live_channels(session: Session, table: Table, seats: set[int | None]) -> list[Channel]:
    """The unpaused channels of these seats' current players (None: the table's, the host's)."""
    query = _LIVE_CHANNELS_AND_TABLES if None in seats else _LIVE_CHANNELS
    numbered = [seat for seat in seats if seat is not None]
    rows = session.exec(query, params={"game_id": table.game_id, "seats": numbered}).all()
    return [row for row in rows if row.key_version == owner_version(table, row.seat)]


def owner_version(table: Table, seat: int | None) -> int:
    """The link version of a channel's owner now: the seat's, or the host's for the table's."""
    return table.record.host_key_version if seat is None else table.seats[seat].key_version


def seat_payload(rt: Runtime, table: Table, seat: int, kind: MailKind, due: datetime | None) -> Payload:
    """A seat's notice of what its mail of this kind says in its headline (never the table: no card at
    all), in the seat's language and time zone, with the seat's own link."""
    language = mail_language(table, seat)
    with force_locale(language):
        title = game_title(table)
        text = kind.headline({"due": format_time(due, zone_name(table, seat)) if due else None})
    return {
        "event": str(kind),
        "game": table.game_id,
        "title": title,
        "text": text,
        "url": player_url(rt, table, seat),
        "language": language,
    }


def table_payload(rt: Runtime, table: Table) -> Payload:
    """The table channel's notice of the game as it stands, in the table's language: whose move it
    is, or the result, each seat named with its mention; with the watch link (the public replay's
    once over, if the host opened it)."""
    language = mail_language(table, None)
    with force_locale(language):
        title = game_title(table)
        if table.result is None:
            names = [named(table, seat) for seat in sorted(table.rules.to_act(table.state))]
            text = _("Now to play: %(names)s", names=names_text(names))
        else:
            winners = [named(table, seat) for seat in table.result["winners"]]
            text = _("Game over: %(names)s won.", names=names_text(winners)) if winners else _("Game over.")
    over = table.result is not None
    return {
        "event": str(MailKind.GAME_OVER) if over else TURN,
        "game": table.game_id,
        "title": title,
        "text": text,
        "url": public_replay_url(rt, table) if over and table.record.public_replay else watch_url(rt, table),
        "language": language,
    }


def names_text(names: list[str]) -> str:
    """Names as one list in words ("A, B and C") in the language in force."""
    joined = together(names)
    return joined if isinstance(joined, str) else say(joined)


def test_payload(rt: Runtime, table: Table, seat: int | None) -> Payload:
    """The test ping of a seat's channel in the seat's language (the table's: in the table's, with
    the watch link)."""
    if seat is None:
        return {
            **table_payload(rt, table),
            "event": TEST_PING,
            "text": test_words(table, None),
        }
    language = mail_language(table, seat)
    with force_locale(language):
        title = game_title(table)
    return {
        "event": TEST_PING,
        "game": table.game_id,
        "title": title,
        "text": test_words(table, seat),
        "url": player_url(rt, table, seat),
        "language": language,
    }


def test_words(table: Table, seat: int | None) -> str:
    """What a test ping says, in its reader's language."""
    with force_locale(mail_language(table, seat)):
        if seat is None:
            return _("A test ping: this channel works, and the table will hear here whose move it is.")
        return _("A test ping: this channel works, and you will hear here when it is your move.")


def notice_text(payload: Payload) -> str:
    """A notice as the outbox page lists it."""
    return f"{payload['text']}\n{payload['url']}"


def notice_row(rt: Runtime, channel: Channel, payload: dict[str, Any]) -> OutboxMail:
    """The outbox row of one notice to a channel, due now."""
    now = rt.clock.now()
    return OutboxMail(
        game_id=channel.game_id,
        kind=payload["event"],
        seat=channel.seat,
        to_email="",
        subject=payload["title"][:300],
        text_body=notice_text(payload),
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

"""Delivering a channel's notice: the outbox row goes through service/mail/delivery.py (the same
lease, marking, retries and backoff as a mail) with the sender here, which also keeps the channel's
count of failures in a row: at CHANNEL_MAX_FAILURES the channel is paused and its owner told by mail,
once, in the transaction that pauses it. A channel whose far end is gone for good (a push
subscription answered 404 or 410) is removed at once, and its owner told likewise."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from sqlalchemy import update
from sqlmodel import Session, col

from service.channels.kinds import ChannelGone, DeliveryFailed
from service.channels.registry import KINDS
from service.channels.sealing import Unsealable, erased, unseal
from service.eventlog.models import Channel, MailStatus, OutboxMail
from service.mail.delivery import Undeliverable, deliver
from service.mail.drafting import draft_mail, player_url
from service.mail.kinds import MailKind
from service.runtime import Runtime

log = logging.getLogger(__name__)


def deliver_row(rt: Runtime, row_id: int) -> bool | None:
    """Deliver one outbox row, a mail or a channel's notice (see service/mail/delivery.deliver); then
    keep the channel's count of failures, once the row's own transaction is over (SQLite has one
    writer at a time)."""
    after: list[Callable[[], None]] = []
    sent = deliver(rt, row_id, {name: partial(send_notice, after=after) for name in KINDS})
    for step in after:
        step()
    return sent


def send_notice(rt: Runtime, row: OutboxMail, after: list[Callable[[], None]]) -> None:
    """Send one notice by its channel, leaving in `after` what its outcome does to the channel;
    Undeliverable if the channel is paused or gone."""
    with Session(rt.engine) as session:
        channel = session.get(Channel, row.channel_id)
    if channel is None or channel.paused_at is not None or not channel.sealed:
        raise Undeliverable("the channel was paused or removed")
    try:
        secret = unseal(rt.settings, channel.sealed)
        KINDS[channel.kind].send(rt.settings, secret, {**(row.payload or {}), "delivery": row.id})
    except Unsealable as error:
        raise Undeliverable(str(error)) from None
    except ChannelGone as error:
        after.append(partial(_gone, rt, channel))
        raise Undeliverable(f"{error}: the channel was removed") from None
    except DeliveryFailed:
        after.append(partial(_failed, rt, channel))
        raise
    if channel.failures or channel.seat is None:  # a table's channel keeps when it last spoke
        after.append(partial(_succeeded, rt, channel))


def _succeeded(rt: Runtime, channel: Channel) -> None:
    with Session(rt.engine) as session:
        session.exec(
            update(Channel)
            .where(col(Channel.id) == channel.id)
            .values(failures=0, last_sent_at=rt.clock.now())
        )
        session.commit()


def _failed(rt: Runtime, channel: Channel) -> None:
    """One more failure in a row; the channel paused, and its owner told, at the limit."""
    limit = rt.settings["CHANNEL_MAX_FAILURES"]
    with Session(rt.engine, expire_on_commit=False) as session:
        session.exec(
            update(Channel).where(col(Channel.id) == channel.id).values(failures=col(Channel.failures) + 1)
        )
        paused = session.exec(
            update(Channel)
            .where(col(Channel.id) == channel.id, col(Channel.failures) >= limit)
            .where(col(Channel.paused_at).is_(None))
            .values(paused_at=rt.clock.now())
        )
        told = _told(rt, channel, MailKind.CHANNEL_PAUSED, failures=limit) if paused.rowcount == 1 else None
        if told is not None:
            session.add(told)
        session.commit()
    if paused.rowcount == 1:
        log.warning("channel %s of game %s paused after %s failures", channel.id, channel.game_id, limit)
    _send(rt, told)


def _gone(rt: Runtime, channel: Channel) -> None:
    """A channel whose end is gone removed (its address erased, its notices not yet sent going
    nowhere), and its owner told, once: by whichever delivery removed it."""
    with Session(rt.engine, expire_on_commit=False) as session:
        removed = session.exec(erased(channel.id, rt.clock.now()).where(col(Channel.sealed) != ""))
        told = _told(rt, channel, MailKind.CHANNEL_GONE) if removed.rowcount == 1 else None
        if told is not None:
            session.add(told)
        session.commit()
    if removed.rowcount == 1:
        log.warning("channel %s of game %s removed: its end is gone", channel.id, channel.game_id)
    _send(rt, told)


def _told(rt: Runtime, channel: Channel, kind: MailKind, **context: object) -> OutboxMail | None:
    """The mail telling a seat what became of its channel (a table's channel: the host sees it on
    the host page)."""
    if channel.seat is None:
        return None
    table = rt.read_table(channel.game_id)
    link = player_url(rt, table, channel.seat)
    return draft_mail(rt, table, kind, channel.seat, {"name": channel.label, "link": link, **context})


def _send(rt: Runtime, told: OutboxMail | None) -> None:
    if told is not None and told.status == MailStatus.PENDING:
        assert told.id is not None
        rt.dispatch.send_mails([told.id])

"""Delivering a channel's notice: the outbox row goes through service/mail/delivery.py (the same
lease, marking, retries and backoff as a mail) with the sender here, which also keeps the channel's
count of failures in a row: at CHANNEL_MAX_FAILURES the channel is paused and its owner told by mail,
once, in the transaction that pauses it. A channel whose far end is gone for good (a push
subscription answered 404 or 410) is removed at once, and its owner told likewise."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from flask import Flask, current_app
from sqlalchemy import bindparam, update
from sqlmodel import Session, col, select

from service.channels.kinds import ChannelGone, DeliveryFailed
from service.channels.registry import KINDS
from service.channels.sealing import Unsealable, erased, unseal
from service.db import retry_on_disconnect
from service.eventlog.models import MAIL, Channel, MailStatus, OutboxMail
from service.mail.delivery import Sender, Undeliverable, deliver_claimed, leased
from service.mail.drafting import draft_mail, player_url
from service.mail.kinds import MailKind
from service.mail.move_mails import drafted_rows
from service.runtime import Runtime

log = logging.getLogger(__name__)


# Each channel's notices of a batch go in order, and the channels side by side: a hanging endpoint
# delays no other channel (nor the batch's mails, sent meanwhile on the task's own thread). Not on
# SQLite (the embedded default), where they would only queue for its one writer.
NOTICE_THREADS = 8
_notice_pool = ThreadPoolExecutor(NOTICE_THREADS, thread_name_prefix="notices")


def deliver_rows(rt: Runtime, row_ids: list[int]) -> int:
    """Deliver a batch of outbox rows, mails and channels' notices (as `deliver_row`), leased in one
    statement, their channels read in the same transaction; how many were sent. A row that fails is
    logged and left to its own retry; it stops no other."""
    claimed, channels = retry_on_disconnect(lambda: _claimed(rt, row_ids))
    groups: dict[int | None, list[tuple[OutboxMail, str]]] = defaultdict(list)  # the mails under None
    for mail, token in claimed:
        groups[None if mail.channel == MAIL else mail.channel_id].append((mail, token))
    mails = groups.pop(None, [])
    if rt.engine.dialect.name == "sqlite":  # one writer at a time, and a send holds its row's write
        return sum(_deliver_in_order(rt, rows, channels) for rows in [mails, *groups.values()])
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's own object
    runs = [
        _notice_pool.submit(_in_app, app, partial(_deliver_in_order, rt, rows, channels))
        for rows in groups.values()
    ]
    sent = _deliver_in_order(rt, mails, channels)
    return sent + sum(run.result() for run in runs)


def _in_app(app: Flask, work: Callable[[], int]) -> int:
    with app.app_context():
        return work()


def _deliver_in_order(
    rt: Runtime, rows: list[tuple[OutboxMail, str]], channels: Mapping[int, Channel]
) -> int:
    """Deliver leased rows one after another; how many were sent."""
    sent = 0
    for mail, token in rows:
        try:
            sent += _deliver_leased(rt, mail, token, channels) is True
        except Exception:  # the row keeps its lease or its due time: the sweep takes it up again
            log.exception("outbox row %s could not be delivered now", mail.id)
    return sent


def deliver_row(rt: Runtime, row_id: int) -> bool | None:
    """Deliver one outbox row, a mail or a channel's notice (see service/mail/delivery.deliver)."""
    claimed, channels = retry_on_disconnect(lambda: _claimed(rt, [row_id]))
    if not claimed:
        return None
    return _deliver_leased(rt, *claimed[0], channels)


def _deliver_leased(
    rt: Runtime, mail: OutboxMail, token: str, channels: Mapping[int, Channel]
) -> bool | None:
    """Deliver a leased row; then keep its channel's count of failures, once the row's own
    transaction is over (SQLite has one writer at a time)."""
    after: list[Callable[[], None]] = []
    sent = deliver_claimed(rt, mail, token, _senders(channels, after))
    for step in after:
        step()
    return sent


def _senders(channels: Mapping[int, Channel], after: list[Callable[[], None]]) -> dict[str, Sender]:
    return {name: partial(send_notice, channels=channels, after=after) for name in KINDS}


_CHANNELS = select(Channel).where(col(Channel.id).in_(bindparam("ids", expanding=True)))  # built once


def _claimed(rt: Runtime, row_ids: list[int]) -> tuple[list[tuple[OutboxMail, str]], dict[int, Channel]]:
    """The rows leased (as service/mail/delivery.claim_rows: the mails among them drafted first, if
    they wait for their bodies), and the channels of those that are notices, read in the lease's
    transaction."""
    drafts = drafted_rows(rt, row_ids)
    with Session(rt.engine, expire_on_commit=False) as session:
        claimed = leased(rt, session, row_ids, drafts)
        wanted = {mail.channel_id for mail, _ in claimed if mail.channel != MAIL}
        found = list(session.execute(_CHANNELS, {"ids": list(wanted)}).scalars()) if wanted else []
        session.commit()
    return claimed, {channel.id: channel for channel in found if channel.id is not None}


def send_notice(
    rt: Runtime, row: OutboxMail, channels: Mapping[int, Channel], after: list[Callable[[], None]]
) -> None:
    """Send one notice by its channel (read with the row's batch), leaving in `after` what its outcome
    does to the channel; Undeliverable if the channel is paused or gone."""
    channel = channels.get(row.channel_id) if row.channel_id is not None else None
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

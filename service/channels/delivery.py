"""Delivering a batch of outbox rows: its mails through service/mail/delivery.py, and its channels'
notices here, with the same lease, retries and backoff as a mail, and the same bound on doubles: a
notice is marked sent before it is sent, in a transaction committed once the channel has answered, so
only a fault between the answer and the commit can send it again. One transaction marks all of a
batch's notices (not one each): they are sent side by side, so a fault in that window doubles each
at most once, as one transaction each would.

After that commit, each channel's count of failures in a row is kept; at CHANNEL_MAX_FAILURES the
channel is paused and its owner told by mail, once, in the transaction that pauses it. A channel
whose far end is gone for good (a push subscription answered 404 or 410) is removed at once, and its
owner told likewise."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

from sqlalchemy import bindparam, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from service.channels.kinds import ChannelGone, DeliveryFailed
from service.channels.registry import KINDS
from service.channels.sealing import Unsealable, erased, unseal
from service.db import database_unavailable, retry_on_disconnect
from service.eventlog.models import MAIL, Channel, MailStatus, OutboxMail
from service.mail.delivery import (
    MARK_SENT,
    Undeliverable,
    backoff,
    deliver_claimed,
    failure_words,
    leased,
)
from service.mail.drafting import draft_mail, player_url
from service.mail.kinds import MailKind
from service.mail.move_mails import drafted_rows
from service.runtime import Runtime

log = logging.getLogger(__name__)


# Each channel's notices of a batch go in order, and the channels side by side: a hanging endpoint
# delays no other channel (nor the batch's mails, sent meanwhile on the task's own thread). Not on
# SQLite (the embedded default), where the notices' transaction would hold its one writer.
NOTICE_THREADS = 8
_notice_pool = ThreadPoolExecutor(NOTICE_THREADS, thread_name_prefix="notices")


@dataclass
class Outcome:
    """What became of one notice: sent (no error), to be tried again (DeliveryFailed, OSError, or
    any error of a sender), or never (Undeliverable); and what it does to its channel afterwards."""

    row: OutboxMail
    error: Exception | None = None
    after: list[Callable[[], None]] = field(default_factory=list)

    @property
    def for_good(self) -> bool:
        return isinstance(self.error, Undeliverable)


def deliver_rows(rt: Runtime, row_ids: list[int]) -> int:
    """Deliver a batch of outbox rows, mails and channels' notices, leased in one statement, their
    channels read in the same transaction; how many were sent. A row that fails is logged and left
    to its own retry; it stops no other."""
    claimed, channels = retry_on_disconnect(lambda: _claimed(rt, row_ids))
    mails = [(row, token) for row, token in claimed if row.channel == MAIL]
    notices = [row for row, _ in claimed if row.channel != MAIL]
    if not notices:
        return _deliver_mails(rt, mails)
    token = claimed[0][1]  # one lease for the whole batch
    if rt.engine.dialect.name == "sqlite":  # one writer at a time: the mails' first
        sent = _deliver_mails(rt, mails)
        return sent + _count(deliver_notices(rt, notices, token, channels, parallel=False))
    mailed: list[int] = []  # the mails go on this thread while the notices are out

    def send_mails() -> None:
        mailed.append(_deliver_mails(rt, mails))

    outcomes = deliver_notices(rt, notices, token, channels, meanwhile=send_mails)
    return sum(mailed) + _count(outcomes)


def _count(outcomes: Iterable[Outcome]) -> int:
    return sum(outcome.error is None for outcome in outcomes)


def _deliver_mails(rt: Runtime, rows: list[tuple[OutboxMail, str]]) -> int:
    """Deliver leased mails one after another; how many were sent."""
    sent = 0
    for mail, token in rows:
        try:
            sent += deliver_claimed(rt, mail, token) is True
        except Exception:  # the row keeps its lease or its due time: the sweep takes it up again
            log.exception("outbox row %s could not be delivered now", mail.id)
    return sent


def deliver_row(rt: Runtime, row_id: int) -> bool | None:
    """Deliver one outbox row, a mail or a channel's notice: True when sent, False when it failed (its
    next attempt is scheduled, or none is), None when there was nothing to do (already sent, or
    another worker has it)."""
    claimed, channels = retry_on_disconnect(lambda: _claimed(rt, [row_id]))
    if not claimed:
        return None
    row, token = claimed[0]
    if row.channel == MAIL:
        return deliver_claimed(rt, row, token)
    outcomes = deliver_notices(rt, [row], token, channels, parallel=False)
    return outcomes[0].error is None if outcomes else None


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


def deliver_notices(
    rt: Runtime,
    rows: Sequence[OutboxMail],
    token: str,
    channels: Mapping[int, Channel],
    parallel: bool = True,
    meanwhile: Callable[[], object] = lambda: None,
) -> list[Outcome]:
    """Send leased notices, each channel's in order and the channels side by side (`parallel`),
    with `meanwhile` run on this thread as they go: marked sent together before they are sent, in a
    transaction committed once every channel has answered, with the next attempt of those that
    failed; then what each outcome does to its channel. What became of each notice whose lease this
    worker still held (one whose lease ran out belongs to the worker that took it since)."""
    with Session(rt.engine) as session:
        try:
            ours = _mark_sent(rt, session, rows, token)
        except DBAPIError:  # nothing was sent: the notices wait for the sweep, the mails go now
            meanwhile()
            raise
        outcomes = _sent(rt, [row for row in rows if row.id in ours], channels, parallel, meanwhile)
        try:
            _record_failures(rt, session, outcomes)
            session.commit()
            settled = True
        except DBAPIError as error:
            if not database_unavailable(error):
                raise
            log.warning("notices %s were sent but not yet marked so: %s", sorted(ours), error)
            settled = False
    if not settled:
        retry_on_disconnect(partial(_settle_now, rt, token, outcomes))
    for outcome in outcomes:
        for step in outcome.after:
            step()
    return outcomes


def _sent(
    rt: Runtime,
    rows: list[OutboxMail],
    channels: Mapping[int, Channel],
    parallel: bool,
    meanwhile: Callable[[], object],
) -> list[Outcome]:
    """Each row sent by its channel, a channel's rows in order (its channels side by side when
    `parallel`), `meanwhile` run on this thread; what became of each."""
    by_channel: dict[int | None, list[OutboxMail]] = defaultdict(list)
    for row in rows:
        by_channel[row.channel_id].append(row)
    in_order = partial(_sent_in_order, rt, channels=channels)
    if not parallel:
        outcomes = [outcome for group in by_channel.values() for outcome in in_order(group)]
        meanwhile()
        return outcomes
    groups = by_channel.values()
    runs: list[Future[list[Outcome]]] = [_notice_pool.submit(in_order, group) for group in groups]
    meanwhile()
    return [outcome for run in runs for outcome in run.result()]


def _sent_in_order(rt: Runtime, rows: list[OutboxMail], channels: Mapping[int, Channel]) -> list[Outcome]:
    outcomes = []
    for row in rows:
        outcome = Outcome(row)
        try:
            send_notice(rt, row, channels, outcome.after)
        except Exception as error:  # whatever it was, the notice is tried again (Undeliverable: never)
            outcome.error = error
        outcomes.append(outcome)
    return outcomes


# Built once: a batch's failed notices are marked by it as compiled, without the ORM's work.
_outbox = OutboxMail.__table__.c  # type: ignore[attr-defined]  # SQLModel's table, not in its types
_NOT_SENT = (
    update(OutboxMail.__table__)  # type: ignore[attr-defined]
    .where(_outbox.id == bindparam("row_id"))
    .values(
        status=bindparam("status"),
        sent_at=None,
        attempts=bindparam("attempts"),
        last_error=bindparam("error"),
        next_attempt_at=bindparam("next_attempt"),
    )
)


def _mark_sent(rt: Runtime, session: Session, rows: Iterable[OutboxMail], token: str) -> set[int]:
    """In `session`'s transaction: the rows this lease still holds marked sent (each one attempt
    more); their ids."""
    params = {"row_ids": [row.id for row in rows], "token": token, "now": rt.clock.now()}
    marked = session.connection().execute(MARK_SENT, params)
    return {row_id for (row_id,) in marked}


def _record_failures(rt: Runtime, session: Session, outcomes: Iterable[Outcome]) -> None:
    """In the transaction that marked them sent: the notices that failed marked unsent, with their
    next attempt after a backoff (or none, if no attempt can ever send them) and why."""
    now = rt.clock.now()
    cap = rt.settings["MAIL_MAX_BACKOFF_SECONDS"]
    failed = []
    for outcome in outcomes:
        if outcome.error is None:
            continue
        row, error = outcome.row, outcome.error
        attempts = row.attempts + 1
        if outcome.for_good:
            log.warning("notice %s cannot be sent: %s", row.id, error)
        elif isinstance(error, OSError):  # DeliveryFailed among them: its words never name the address
            log.warning("notice %s failed: %s", row.id, error)
        else:
            log.error("notice %s failed", row.id, exc_info=error)
        failed.append(
            {
                "row_id": row.id,
                "status": MailStatus.FAILED if outcome.for_good else MailStatus.PENDING,
                "attempts": attempts,
                "error": failure_words(error),
                "next_attempt": now + backoff(attempts, cap),
            }
        )
    if failed:
        session.connection().execute(_NOT_SENT, failed)


def _settle_now(rt: Runtime, token: str, outcomes: list[Outcome]) -> None:
    """The notices marked as their sending went, in a transaction of their own (the one that marked
    them was lost with the database): only those still leased to this worker."""
    with Session(rt.engine) as session:
        ours = _mark_sent(rt, session, [outcome.row for outcome in outcomes], token)
        _record_failures(rt, session, [outcome for outcome in outcomes if outcome.row.id in ours])
        session.commit()


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

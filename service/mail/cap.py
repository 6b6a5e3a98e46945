"""The daily cap: at most MAILS_PER_ADDRESS_PER_DAY unasked mails (invitations, links,
confirmations, "my games", proposals: `MailKind.unasked`) to one address in any 24 hours. The mails
of a game its reader plays in (their turns, what happened, game over) are never held back: they
follow moves, not requests, and a player must not lose a "your move".

Enforced where every mail is queued, whatever drafted it: when a session flushes new outbox rows
(or service/mail/outbox.py writes them), each unasked one past its address's cap is stored as
CAPPED, which is never sent (the outbox page lists it). So no path, present or future, can send an
address more than the cap in a day.

An address is counted as the mailbox it reaches (`links.mailbox`): ann+1@x.org and ANN+2@x.org are
ann@x.org, so plus-addressing does not multiply the cap.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import timedelta
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, event, func
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import col, select

from service.db import reaches_mailbox
from service.eventlog.models import MAIL, MailStatus, OutboxMail
from service.links import mailbox
from service.mail.kinds import UNASKED, MailKind

log = logging.getLogger(__name__)
DAY = timedelta(days=1)
_CAPS: WeakKeyDictionary[Engine, int] = WeakKeyDictionary()


def cap_daily_mail(engine: Engine, per_day: int) -> None:
    """Cap the mails per address and day written through sessions on `engine`."""
    _CAPS[engine] = per_day


def sent_in_a_day(session: OrmSession, box: str, before: OutboxMail) -> int:
    """How many mails to the mailbox `box` (any case, any "+tag") count against the cap of `before`:
    those written in the 24 hours before it and not capped themselves."""
    query = (
        select(func.count())
        .select_from(OutboxMail)
        .where(
            reaches_mailbox(col(OutboxMail.to_email), box),
            col(OutboxMail.created_at) > before.created_at - DAY,
            col(OutboxMail.status) != MailStatus.CAPPED,
            col(OutboxMail.kind).in_([kind.value for kind in UNASKED]),
        )
    )
    return session.execute(query).scalar_one()


@event.listens_for(OrmSession, "before_flush")
def _cap_new_mails(session: OrmSession, _context: Any, _instances: Any) -> None:
    cap_new_mails(session, [row for row in session.new if isinstance(row, OutboxMail)])


def cap_new_mails(session: OrmSession, rows: list[OutboxMail]) -> None:
    """Store as CAPPED each unasked mail of `rows` (about to be written in `session`) past its
    address's cap, counting what the database holds and the rows before it."""
    bind = session.get_bind()
    per_day = _CAPS.get(bind) if isinstance(bind, Engine) else None
    new = [
        row
        for row in rows
        if row.channel == MAIL  # a channel's notice goes where its owner asked: no mailbox to spare
        and row.status != MailStatus.CAPPED
        and MailKind(row.kind).unasked
    ]
    if per_day is None or not new:
        return
    by_address: defaultdict[str, list[OutboxMail]] = defaultdict(list)
    for mail in new:
        by_address[mailbox(mail.to_email)].append(mail)
    with session.no_autoflush:
        for address, mails in by_address.items():
            mails.sort(key=lambda mail: mail.created_at)
            counted = sent_in_a_day(session, address, mails[0])
            for mail in mails:
                if counted >= per_day:
                    mail.status = MailStatus.CAPPED
                    mail.last_error = f"over the cap of {per_day} mails a day to this address"
                    log.warning("mail %r to %s capped: %s a day", mail.subject, mail.to_email, per_day)
                else:
                    counted += 1

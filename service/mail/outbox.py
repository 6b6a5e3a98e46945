"""The outbox's rows written in the writer's transaction by one Core statement (an executemany with
RETURNING), not by the ORM's unit of work, which cost a move about as much again as the statement;
the daily cap (service/mail/cap.py) applied to them first, as a flush applies it to the ORM's."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Table, insert
from sqlmodel import Session

from service.eventlog.models import OutboxMail
from service.mail.cap import cap_new_mails

_outbox: Table = OutboxMail.__table__  # type: ignore[attr-defined]
_COLUMNS = tuple(column.name for column in _outbox.columns if column.name != "id")
_INSERT = insert(_outbox).returning(_outbox.c.id, sort_by_parameter_order=True)


def write_outbox(session: Session, mails: Sequence[OutboxMail]) -> None:
    """Insert the rows of `mails` not written yet (no id, and not the session's own to flush) in
    `session`'s transaction; each gets its id."""
    new = [mail for mail in mails if mail.id is None and mail not in session]
    if not new:
        return
    cap_new_mails(session, new)
    rows = [{name: getattr(mail, name) for name in _COLUMNS} for mail in new]
    for mail, mail_id in zip(new, session.execute(_INSERT, rows).scalars(), strict=True):
        mail.id = mail_id

"""Delivering outbox rows by SMTP, each at least once, with backoff between failed attempts.

An address with letters beyond ASCII (`pelé@example.org`) goes out with SMTPUTF8 (RFC 6531) when the
relay offers it; when it does not, the mail can never be sent that way, so it is marked failed with
the reason instead of being retried forever. The forms take such addresses only when SMTP_UTF8 says
the relay supports them (`service/web/forms.py`)."""

from __future__ import annotations

import logging
import secrets
import smtplib
import ssl
from datetime import timedelta
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime, formataddr
from functools import partial

from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select, update

from service.db import database_unavailable, retry_on_disconnect
from service.eventlog.models import MailStatus, OutboxMail
from service.runtime import Runtime

log = logging.getLogger(__name__)
CLAIM_SECONDS = 120
# Headers fold at RFC 5322's hard line limit rather than the usual 78 characters: a signed
# unsubscribe URL is one long word, which a 78-column fold would turn into unusable encoded-words.
MAIL_POLICY = default_policy.clone(max_line_length=998)
# A mail to an address beyond ASCII: its headers in UTF-8 as they are (RFC 6532), sent with SMTPUTF8.
UTF8_POLICY = MAIL_POLICY.clone(utf8=True)


class Undeliverable(Exception):
    """A mail that no later attempt can send: why, kept as the row's last error."""


def international(address: str) -> bool:
    """Whether an address needs SMTPUTF8: letters beyond ASCII, before or after the @."""
    return not address.isascii()


def build_message(rt: Runtime, mail: OutboxMail) -> EmailMessage:
    """The MIME message of an outbox row: text and HTML, threaded with the game's other mails, with
    the one-click unsubscribe headers of RFC 8058 (the link's POST needs no CSRF token)."""
    utf8 = international(mail.to_email)
    message = EmailMessage(policy=UTF8_POLICY if utf8 else MAIL_POLICY)
    message["From"] = rt.settings["MAIL_FROM"]
    message["To"] = (
        to_header(mail.to_name, mail.to_email) if utf8 else formataddr((mail.to_name, mail.to_email))
    )
    message["Subject"] = mail.subject  # non-ASCII words go out RFC 2047-encoded, names in To too
    message["Message-ID"] = mail.message_id
    message["Date"] = format_datetime(mail.created_at)
    if mail.message_id != mail.thread_id:
        message["In-Reply-To"] = mail.thread_id
        message["References"] = mail.thread_id
    if mail.reply_to:
        message["Reply-To"] = mail.reply_to
    if mail.unsubscribe_url:
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(mail.text_body)
    message.add_alternative(mail.html_body, subtype="html")
    message["Content-Language"] = mail.language  # after the body: setting content clears Content-*
    return message


def to_header(name: str, email: str) -> Address:
    """The To of a mail to an address beyond ASCII: formataddr refuses one and the header registry's
    parser flags its local part, so it is given in parts (a ValueError for one without an @)."""
    local, at, domain = email.rpartition("@")
    if not at or not local:
        raise ValueError(f"{email!r} is not an address")
    return Address(name, local, domain)


def smtp_send(rt: Runtime, message: EmailMessage) -> None:
    """Hand one message to the configured SMTP server."""
    settings = rt.settings
    host, port, timeout = settings["SMTP_HOST"], settings["SMTP_PORT"], settings["SMTP_TIMEOUT"]
    security = settings["SMTP_SECURITY"]
    if security == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        client = smtplib.SMTP(host, port, timeout=timeout)
    with client:
        if security == "starttls":
            client.starttls(context=ssl.create_default_context())
        if settings["SMTP_USER"]:
            client.login(settings["SMTP_USER"], settings["SMTP_PASSWORD"] or "")
        client.send_message(message, mail_options=_utf8_options(client, message))


def _utf8_options(client: smtplib.SMTP, message: EmailMessage) -> list[str]:
    """SMTPUTF8 for a mail to an address beyond ASCII when the relay offers it; Undeliverable when
    it does not (no later attempt would go better)."""
    if not international(str(message["To"])):
        return []
    client.ehlo_or_helo_if_needed()
    if not client.has_extn("smtputf8"):
        raise Undeliverable("the mail relay does not take addresses beyond ASCII (no SMTPUTF8)")
    return ["SMTPUTF8"]


def lease_seconds(rt: Runtime) -> float:
    """How long a claim on a row lasts: longer than the slowest SMTP transaction (each of its steps
    may wait SMTP_TIMEOUT), so that a lease never runs out while its holder is still sending."""
    return max(CLAIM_SECONDS, 6 * rt.settings["SMTP_TIMEOUT"])


def claim(rt: Runtime, mail_id: int) -> tuple[OutboxMail, str] | None:
    """Lease a due, unsent row for sending, so a re-queued duplicate task or another worker does not
    send it too: the row and the lease's token, or None if it is sent or someone else holds it."""
    now = rt.clock.now()
    token = secrets.token_hex(16)
    with Session(rt.engine, expire_on_commit=False) as session:
        taken = session.exec(
            update(OutboxMail)
            .where(
                col(OutboxMail.id) == mail_id,
                col(OutboxMail.status) == MailStatus.PENDING,
                (col(OutboxMail.claimed_until).is_(None)) | (col(OutboxMail.claimed_until) < now),
            )
            .values(claimed_until=now + timedelta(seconds=lease_seconds(rt)), claim_token=token)
        )
        session.commit()
        if taken.rowcount != 1:
            return None
        mail = session.get(OutboxMail, mail_id)
        assert mail is not None
        return mail, token


def deliver(rt: Runtime, mail_id: int) -> bool | None:
    """Send one outbox row: True when sent, False when it failed (its next attempt is scheduled),
    None when there was nothing to do (already sent, or another worker has it).

    The row is marked sent before the SMTP transaction, in a database transaction committed as soon
    as the server has taken the message (and held locked meanwhile): only a fault between the
    server's answer and that commit, which is tried again once, can send the mail a second time."""
    claimed = retry_on_disconnect(lambda: claim(rt, mail_id))
    if claimed is None:
        return None
    mail, token = claimed
    try:
        message = build_message(rt, mail)
    except ValueError as error:  # an address no header can hold: no attempt ever will
        retry_on_disconnect(partial(_record_undeliverable, rt, mail, error))
        return False
    with Session(rt.engine) as session:
        if not _mark_sent(rt, session, mail_id, token):
            session.rollback()  # the lease ran out before this worker got here: another one has it
            return None
        try:
            smtp_send(rt, message)
        except Undeliverable as error:
            session.rollback()
            retry_on_disconnect(partial(_record_undeliverable, rt, mail, error))
            return False
        except (OSError, smtplib.SMTPException) as error:
            session.rollback()
            retry_on_disconnect(partial(_record_failure, rt, mail, error))
            return False
        try:
            session.commit()
            return True
        except DBAPIError as error:
            if not database_unavailable(error):
                raise
            log.warning("mail %s was sent but not yet marked so: %s", mail_id, error)
    retry_on_disconnect(lambda: _mark_sent_now(rt, mail_id, token))
    return True


def _mark_sent(rt: Runtime, session: Session, mail_id: int, token: str) -> bool:
    """In `session`'s transaction: the leased row marked sent, if this lease still holds it."""
    marked = session.exec(
        update(OutboxMail)
        .where(
            col(OutboxMail.id) == mail_id,
            col(OutboxMail.status) == MailStatus.PENDING,
            col(OutboxMail.claim_token) == token,
        )
        .values(
            status=MailStatus.SENT,
            sent_at=rt.clock.now(),
            attempts=col(OutboxMail.attempts) + 1,
            claimed_until=None,
            claim_token=None,
        )
    )
    return bool(marked.rowcount == 1)


def _mark_sent_now(rt: Runtime, mail_id: int, token: str) -> None:
    with Session(rt.engine) as session:
        _mark_sent(rt, session, mail_id, token)
        session.commit()


def backoff(attempts: int, cap: int) -> timedelta:
    """Wait before the next attempt: 5 s, 10 s, 20 s... up to `cap` seconds."""
    return timedelta(seconds=min(cap, 5 * 2 ** max(0, attempts - 1)))


def _record_failure(rt: Runtime, mail: OutboxMail, error: Exception) -> None:
    log.warning("mail %s to %s failed: %s", mail.id, mail.to_email, error)
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail.id)
        assert row is not None
        row.attempts += 1
        row.last_error = f"{type(error).__name__}: {error}"[:500]
        row.next_attempt_at = rt.clock.now() + backoff(row.attempts, rt.settings["MAIL_MAX_BACKOFF_SECONDS"])
        row.claimed_until = row.claim_token = None
        session.add(row)
        session.commit()


def _record_undeliverable(rt: Runtime, mail: OutboxMail, error: Exception) -> None:
    """The row marked failed for good, with why: the sweep never takes it up again."""
    log.warning("mail %s to %s cannot be sent: %s", mail.id, mail.to_email, error)
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail.id)
        assert row is not None
        row.attempts += 1
        row.status = MailStatus.FAILED
        row.last_error = f"{type(error).__name__}: {error}"[:500]
        row.claimed_until = row.claim_token = None
        session.add(row)
        session.commit()


def due_mail_ids(rt: Runtime, limit: int = 500) -> list[int]:
    """Unsent rows whose next attempt is due and which nobody is sending now; a row never tried yet
    only once its own task had COMMAND_REQUEUE_SECONDS to send it."""
    now = rt.clock.now()
    quiet = now - timedelta(seconds=rt.settings["COMMAND_REQUEUE_SECONDS"])
    with Session(rt.engine) as session:
        return [
            row_id
            for row_id in session.exec(
                select(OutboxMail.id)
                .where(
                    OutboxMail.status == MailStatus.PENDING,
                    OutboxMail.next_attempt_at <= now,
                    (col(OutboxMail.attempts) > 0) | (OutboxMail.next_attempt_at <= quiet),
                    (col(OutboxMail.claimed_until).is_(None)) | (col(OutboxMail.claimed_until) < now),
                )
                .order_by(col(OutboxMail.id))
                .limit(limit)
            ).all()
            if row_id is not None
        ]

"""Delivering outbox rows by SMTP, each at least once, with backoff between failed attempts."""

from __future__ import annotations

import logging
import smtplib
import ssl
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime, formataddr

from sqlmodel import Session, col, select, update

from service.eventlog.models import MailStatus, OutboxMail
from service.runtime import Runtime

log = logging.getLogger(__name__)
CLAIM_SECONDS = 120
# Headers fold at RFC 5322's hard line limit rather than the usual 78 characters: a signed
# unsubscribe URL is one long word, which a 78-column fold would turn into unusable encoded-words.
MAIL_POLICY = default_policy.clone(max_line_length=998)


def build_message(rt: Runtime, mail: OutboxMail) -> EmailMessage:
    """The MIME message of an outbox row: text and HTML, threaded with the game's other mails, with
    the one-click unsubscribe headers of RFC 8058 (the link's POST needs no CSRF token)."""
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = rt.settings["MAIL_FROM"]
    message["To"] = formataddr((mail.to_name, mail.to_email))
    message["Subject"] = mail.subject  # non-ASCII words go out RFC 2047-encoded, names in To too
    message["Message-ID"] = mail.message_id
    message["Date"] = format_datetime(mail.created_at)
    if mail.message_id != mail.thread_id:
        message["In-Reply-To"] = mail.thread_id
        message["References"] = mail.thread_id
    if mail.unsubscribe_url:
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(mail.text_body)
    message.add_alternative(mail.html_body, subtype="html")
    message["Content-Language"] = mail.language  # after the body: setting content clears Content-*
    return message


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
        client.send_message(message)


def claim(rt: Runtime, mail_id: int) -> OutboxMail | None:
    """Take a due, unsent row for sending, so a re-queued duplicate task does not send it too."""
    now = rt.clock.now()
    with Session(rt.engine, expire_on_commit=False) as session:
        taken = session.exec(
            update(OutboxMail)
            .where(
                col(OutboxMail.id) == mail_id,
                col(OutboxMail.status) == MailStatus.PENDING,
                (col(OutboxMail.claimed_until).is_(None)) | (col(OutboxMail.claimed_until) < now),
            )
            .values(claimed_until=now + timedelta(seconds=CLAIM_SECONDS))
        )
        session.commit()
        if taken.rowcount != 1:
            return None
        return session.get(OutboxMail, mail_id)


def deliver(rt: Runtime, mail_id: int) -> bool | None:
    """Send one outbox row: True when sent, False when it failed (its next attempt is scheduled),
    None when there was nothing to do (already sent, or another worker has it)."""
    mail = claim(rt, mail_id)
    if mail is None:
        return None
    try:
        smtp_send(rt, build_message(rt, mail))
    except (OSError, smtplib.SMTPException) as error:
        _record_failure(rt, mail, error)
        return False
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail_id)
        assert row is not None
        row.status, row.sent_at, row.attempts = MailStatus.SENT, rt.clock.now(), row.attempts + 1
        row.claimed_until = None
        session.add(row)
        session.commit()
    return True


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
        row.claimed_until = None
        session.add(row)
        session.commit()


def due_mail_ids(rt: Runtime, limit: int = 500) -> list[int]:
    """Unsent rows whose next attempt is due and which nobody is sending now."""
    now = rt.clock.now()
    with Session(rt.engine) as session:
        return [
            row_id
            for row_id in session.exec(
                select(OutboxMail.id)
                .where(
                    OutboxMail.status == MailStatus.PENDING,
                    OutboxMail.next_attempt_at <= now,
                    (col(OutboxMail.claimed_until).is_(None)) | (col(OutboxMail.claimed_until) < now),
                )
                .order_by(col(OutboxMail.id))
                .limit(limit)
            ).all()
            if row_id is not None
        ]

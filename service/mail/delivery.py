"""Delivering outbox rows by SMTP, each at least once, with backoff between failed attempts, on a
connection each worker keeps (service/mail/relay.py), from a return path that names the row (so a
bounce is known for what it is about), DKIM-signed when a key is set.

An address with letters beyond ASCII (`pelé@example.org`) goes out with SMTPUTF8 (RFC 6531) when the
relay offers it; when it does not, the mail can never be sent that way, so it is marked failed with
the reason instead of being retried forever. The forms take such addresses only when SMTP_UTF8 says
the relay supports them (`service/web/forms.py`)."""

from __future__ import annotations

import logging
import secrets
import smtplib
from collections.abc import Sequence
from contextlib import suppress
from datetime import timedelta
from email import quoprimime
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.policy import EmailPolicy, Policy
from email.utils import format_datetime, formataddr
from functools import cache, lru_cache, partial
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select, update
from sqlmodel.sql.expression import SelectOfScalar

from service.db import database_unavailable, retry_on_disconnect
from service.eventlog.models import GameRecord, MailStatus, OutboxMail, SeatRecord
from service.links import BounceLink, day_number
from service.localtime import as_utc
from service.mail.move_mails import drafted_rows, store_drafts
from service.mail.relay import Relay, kept_relay
from service.mail.signing import DkimKey, sign
from service.mail.unreachable import Failure, record_failure
from service.runtime import Runtime

log = logging.getLogger(__name__)
CLAIM_SECONDS = 120
QUEUED_SECONDS = 30  # a row the sweep queued is not queued again sooner (its task may still be waiting)
MAX_QUEUED_SECONDS = 3600  # ...nor held longer than this, however old it is
BOUNCE_PREFIX = "bounce+"
# Headers holding one long URL each: never folded (a fold would turn a signed URL into encoded-words
# no client could use); they stay far under RFC 5322's 998 characters.
UNFOLDED = frozenset({"list-unsubscribe"})
MAX_BODY_LINE = 998  # RFC 5322: a 7-bit or 8-bit body's lines; longer ones go quoted-printable


class MailPolicy(EmailPolicy):
    """Folds headers at 76 columns, so that every RFC 2047 encoded-word (a Japanese subject, a name)
    stays within the 75 characters RFC 2047 allows, but leaves URL headers whole.

    A value that goes out exactly as given (ASCII, on one line that fits) is kept as that text, and
    written as that text: the header registry's parse and re-fold of it (most of a message's
    headers) would only give it back, and cost most of the time it takes to build a message."""

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if isinstance(value, str) and _as_given(name, value, self.max_line_length):
            return name, value
        return super().header_store_parse(name, value)

    def header_max_count(self, name: str) -> int | None:
        """No limit checked: `build_message` sets each header once, and the check (a scan of the
        headers already set, for each one set) was a tenth of a message's building."""
        return None

    def fold(self, name: str, value: Any) -> str:
        if name.lower() in UNFOLDED or _fits(name, str(value), self.max_line_length):
            return f"{name}: {value}{self.linesep}"
        folded: str = super().fold(name, value)
        return folded

    def fold_binary(self, name: str, value: Any) -> bytes:
        if name.lower() in UNFOLDED or _fits(name, str(value), self.max_line_length):
            return self.fold(name, value).encode("ascii")
        return super().fold_binary(name, value)


def _fits(name: str, value: str, width: int | None) -> bool:
    """Whether a header's value goes out as it is: ASCII, one line, within `width`."""
    return value.isascii() and value.isprintable() and len(name) + 2 + len(value) <= (width or 998)


def _as_given(name: str, value: str, width: int | None) -> bool:
    """Whether a header's value can be kept as the text given: it fits (`_fits`), and it is not
    one the `email` package reads back while building (Content-*: kept parsed, else it would
    parse it again at each reading)."""
    return _fits(name, value, width) and not name.lower().startswith("content-")


class HeaderClasses(HeaderRegistry):
    """The header registry, making each header's class once (the standard one makes a new class for
    every header it parses), and each header parsed from a text once: a message's MIME headers are
    the same in every message, and a header object is never changed."""

    @cache  # noqa: B019 - one registry for the life of the process
    def __getitem__(self, name: str) -> type[BaseHeader]:
        return super().__getitem__(name)

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if isinstance(value, str):
            return self._parsed(name, value)
        return super().__call__(name, value)

    @lru_cache(maxsize=256)  # noqa: B019 - one registry for the life of the process
    def _parsed(self, name: str, value: str) -> BaseHeader:
        return super().__call__(name, value)


MAIL_POLICY = MailPolicy(max_line_length=76, linesep="\r\n", header_factory=HeaderClasses())
# A mail to an address beyond ASCII: its headers in UTF-8 as they are (RFC 6532), sent with SMTPUTF8.
UTF8_POLICY = MAIL_POLICY.clone(utf8=True)


class Undeliverable(Exception):
    """A mail that no later attempt can send: why, kept as the row's last error."""


def international(address: str) -> bool:
    """Whether an address needs SMTPUTF8: letters beyond ASCII, before or after the @."""
    return not address.isascii()


def build_message(rt: Runtime, mail: OutboxMail, eight_bit: bool = True) -> EmailMessage:
    """The MIME message of an outbox row: text and HTML, threaded with the game's other mails, marked
    automatic (RFC 3834, so that vacation responders stay quiet), with the one-click unsubscribe
    headers of RFC 8058 (the link's POST needs no CSRF token) and the List-Id they go with. Bodies
    with 8-bit text go out as 8 bits when the relay takes them (`eight_bit`), else quoted-printable."""
    utf8 = international(mail.to_email)
    message = EmailMessage(policy=UTF8_POLICY if utf8 else MAIL_POLICY)
    message["From"] = rt.settings["MAIL_FROM"]
    message["To"] = to_field(mail)
    message["Subject"] = mail.subject  # non-ASCII words go out RFC 2047-encoded, names in To too
    message["Message-ID"] = mail.message_id
    message["Date"] = format_datetime(mail.created_at)
    message["Auto-Submitted"] = "auto-generated"
    if mail.message_id != mail.thread_id:
        message["In-Reply-To"] = mail.thread_id
        message["References"] = mail.thread_id
    if mail.reply_to:
        message["Reply-To"] = mail.reply_to
    if mail.unsubscribe_url:
        message["List-Id"] = list_id(rt, mail)
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["MIME-Version"] = "1.0"
    message["Content-Type"] = f'multipart/alternative; boundary="{new_boundary()}"'
    message["Content-Language"] = mail.language
    message.attach(text_part(message.policy, mail.text_body, "plain", eight_bit))
    message.attach(text_part(message.policy, mail.html_body, "html", eight_bit))
    return message


def new_boundary() -> str:
    """A multipart boundary no body can hold: random, and with "=_", which quoted-printable never
    writes. (The `email` package would otherwise search each message's text for a free one.) 96
    bits, so that its Content-Type fits on one line: a folded one goes through the header registry's
    folder, a fifth of the time it takes to build a message."""
    return f"=_{secrets.token_hex(12)}"


def text_part(policy: Policy, body: str, subtype: str, eight_bit: bool) -> EmailMessage:
    """A UTF-8 text part, its Content-Type and Content-Transfer-Encoding given once (as
    `set_content` would write them, which parses each again at every step)."""
    part = EmailMessage(policy=policy)
    cte = body_encoding(body, eight_bit)
    part["Content-Type"] = f'text/{subtype}; charset="utf-8"'
    part["Content-Transfer-Encoding"] = cte
    lines = b"\n".join(body.encode().splitlines()) + b"\n"
    if cte == "quoted-printable":
        part.set_payload(quoprimime.body_encode(lines.decode("latin-1"), policy.max_line_length or 76))
    else:  # 7bit or 8bit: the UTF-8 bytes as they are
        part.set_payload(lines.decode("ascii", "surrogateescape"))
    return part


def to_field(mail: OutboxMail) -> str | Address:
    """The To of a row's mail (a ValueError for an address no header can hold)."""
    if international(mail.to_email):
        return to_header(mail.to_name, mail.to_email)
    return formataddr((mail.to_name, mail.to_email))


def list_id(rt: Runtime, mail: OutboxMail) -> str:
    """The List-Id (RFC 2919) of a mail that has an unsubscribe link: one "list" per game, or the
    daily digest's."""
    label = f"game-{mail.game_id.lower()}" if mail.game_id else "digest"
    return f"<{label}.{rt.settings['MAIL_DOMAIN']}>"


def body_encoding(body: str, eight_bit: bool) -> str:
    """A body's Content-Transfer-Encoding: 7bit for short-lined ASCII, 8bit for other short-lined
    text to a relay that takes it (RFC 6152), else quoted-printable (lines of at most 76)."""
    if max((len(line.encode()) for line in body.splitlines()), default=0) > MAX_BODY_LINE:
        return "quoted-printable"
    if body.isascii():
        return "7bit"
    return "8bit" if eight_bit else "quoted-printable"


def return_path(rt: Runtime, mail: OutboxMail) -> str:
    """The envelope sender of a mail: `bounce+<token>@MAIL_DOMAIN`, the token naming its row."""
    assert mail.id is not None
    token = rt.signer.bounce_token(BounceLink(mail.id, day_number(rt.clock.now())))
    return f"{BOUNCE_PREFIX}{token}@{rt.settings['MAIL_DOMAIN']}"


def encoded(rt: Runtime, mail: OutboxMail, eight_bit: bool) -> tuple[bytes, list[str]]:
    """The message's bytes as they go on the wire (DKIM-signed when a key is set) and the MAIL FROM
    options they need (8BITMIME for 8-bit content)."""
    data = build_message(rt, mail, eight_bit).as_bytes()
    key = DkimKey.of(rt.settings)
    if key is not None:
        data = sign(data, key)
    return data, ["BODY=8BITMIME"] if eight_bit and not data.isascii() else []


def to_header(name: str, email: str) -> Address:
    """The To of a mail to an address beyond ASCII: formataddr refuses one and the header registry's
    parser flags its local part, so it is given in parts (a ValueError for one without an @)."""
    local, at, domain = email.rpartition("@")
    if not at or not local:
        raise ValueError(f"{email!r} is not an address")
    return Address(name, local, domain)


def hand_over(rt: Runtime, relay: Relay, mail: OutboxMail) -> None:
    """Hand one row's message to the relay on the kept connection."""
    relay.send(return_path(rt, mail), mail.to_email, partial(_wire_form, rt, mail))


def _wire_form(rt: Runtime, mail: OutboxMail, session: smtplib.SMTP) -> tuple[bytes, list[str]]:
    """A row's message as it goes to this SMTP session, and the MAIL FROM options it needs."""
    data, options = encoded(rt, mail, bool(session.has_extn("8bitmime")))
    return data, [*options, *_utf8_options(session, mail)]


def smtp_send(rt: Runtime, mail: OutboxMail) -> None:
    """Hand one row's message to the configured SMTP server, on this thread's kept connection."""
    hand_over(rt, kept_relay(rt.settings), mail)


def _utf8_options(session: smtplib.SMTP, mail: OutboxMail) -> list[str]:
    """SMTPUTF8 for a mail to an address beyond ASCII when the relay offers it; Undeliverable when
    it does not (no later attempt would go better)."""
    if not international(mail.to_email):
        return []
    if not session.has_extn("smtputf8"):
        raise Undeliverable("the mail relay does not take addresses beyond ASCII (no SMTPUTF8)")
    return ["SMTPUTF8"]


def lease_seconds(rt: Runtime) -> float:
    """How long a claim on a row lasts: longer than the slowest SMTP transaction (each of its steps
    may wait SMTP_TIMEOUT), so that a lease never runs out while its holder is still sending."""
    return max(CLAIM_SECONDS, 6 * float(rt.settings["SMTP_TIMEOUT"]))


def claim(rt: Runtime, mail_id: int) -> tuple[OutboxMail, str] | None:
    """Lease a due, unsent row for sending, so a re-queued duplicate task or another worker does not
    send it too: the row and the lease's token, or None if it is sent or someone else holds it."""
    claimed = claim_rows(rt, [mail_id])
    return claimed[0] if claimed else None


def claim_rows(rt: Runtime, mail_ids: list[int]) -> list[tuple[OutboxMail, str]]:
    """Lease these rows (as `claim`) in one statement: those that were unsent and free, in id order,
    each with the lease's token."""
    drafts = drafted_rows(rt, mail_ids)
    with Session(rt.engine, expire_on_commit=False) as session:
        claimed = leased(rt, session, mail_ids, drafts)
        session.commit()
    return claimed


def leased(
    rt: Runtime, session: Session, mail_ids: list[int], drafts: Sequence[dict[str, Any]] = ()
) -> list[tuple[OutboxMail, str]]:
    """`claim_rows` in `session`'s transaction, which the caller commits, with the bodies of those
    rows drafted since they were written (`move_mails.drafted_rows`) stored first."""
    store_drafts(session, drafts)
    now = rt.clock.now()
    token = secrets.token_hex(16)
    until = now + timedelta(seconds=lease_seconds(rt))
    taken = session.execute(_CLAIM, {"mail_ids": mail_ids, "now": now, "until": until, "token": token})
    return [(mail, token) for mail in sorted(taken.scalars(), key=lambda mail: mail.id or 0)]


def deliver(rt: Runtime, mail_id: int) -> bool | None:
    """Send one mail by SMTP (service/channels/delivery.py sends the channels' notices): True
    when sent, False when it failed (its next attempt is scheduled), None when there was nothing to
    do (already sent, or another worker has it)."""
    claimed = retry_on_disconnect(lambda: claim(rt, mail_id))
    if claimed is None:
        return None
    return deliver_claimed(rt, *claimed)


def deliver_claimed(rt: Runtime, mail: OutboxMail, token: str) -> bool | None:
    """Send a row this worker leased (as `deliver`)."""
    try:
        return _deliver_claimed(rt, mail, token)
    except DBAPIError as error:
        if not database_unavailable(error):
            raise
        # Nothing was sent: give the row back now, so the sweep's next tick sends it, rather than
        # leaving it to wait out a lease that no sender holds any more.
        assert mail.id is not None
        with suppress(DBAPIError):
            retry_on_disconnect(partial(_release_lease, rt, mail.id, token))
        raise


def _deliver_claimed(rt: Runtime, mail: OutboxMail, token: str) -> bool | None:
    if retry_on_disconnect(lambda: _held(rt, mail)):  # drafted before its seat's address was found dead
        return None
    try:
        to_field(mail)
    except ValueError as error:  # an address no header can hold: no attempt ever will
        retry_on_disconnect(partial(_record_undeliverable, rt, mail, error))
        return False
    return send_once(rt, mail, token)


def send_once(rt: Runtime, mail: OutboxMail, token: str) -> bool | None:
    """Send a leased mail (OSError or SMTPException: a failure to try again later;
    Undeliverable: never to be tried again).

    The row is marked sent before it is sent, in a database transaction committed as soon as the
    server has taken it (and held locked meanwhile): only a fault between the server's answer and
    that commit, which is tried again once, can send it a second time."""
    mail_id = mail.id
    assert mail_id is not None
    with Session(rt.engine) as session:
        if not _mark_sent(rt, session, mail_id, token):
            session.rollback()  # the lease ran out before this worker got here: another one has it
            return None
        try:
            smtp_send(rt, mail)
        except smtplib.SMTPRecipientsRefused as refusal:
            session.rollback()
            return _refused(rt, mail, refusal)
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


def _held(rt: Runtime, mail: OutboxMail) -> bool:
    """Whether the row goes to an address (a seat's, or the host's) found unreachable since it was
    drafted: then it is stored as held (never sent) in the same step, and its lease released."""
    if mail.game_id is None:
        return False
    reason = rt.read_riding_out(partial(_dead_address, mail=mail))  # the task's connection for reads
    if reason is None:
        return False
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail.id)
        assert row is not None
        row.status, row.claimed_until, row.claim_token = MailStatus.HELD, None, None
        row.last_error = f"held: the address is unreachable ({reason})"[:500]
        session.add(row)
        session.commit()
    return True


def _dead_address(session: Session, mail: OutboxMail) -> str | None:
    """Why the row's address is known not to take mail (the server's words), or None if it is not."""
    if mail.seat is None:
        game = session.get(GameRecord, mail.game_id)
        if game is None or game.host_unreachable_at is None:
            return None
        address, reason = game.host_email, game.host_unreachable_reason
    else:
        seat = session.get(SeatRecord, (mail.game_id, mail.seat))
        if seat is None or seat.unreachable_at is None:
            return None
        address, reason = seat.email, seat.unreachable_reason
    return reason if address.strip().lower() == mail.to_email.strip().lower() else None


def _refused(rt: Runtime, mail: OutboxMail, refusal: smtplib.SMTPRecipientsRefused) -> bool:
    """The server refused the address: a 5xx is a permanent bounce (the row is never sent, and the
    table hears of it as of any bounce), a 4xx a failure to try again later."""
    code, said = next(iter(refusal.recipients.values()), (0, b""))
    if not 500 <= code < 600:
        retry_on_disconnect(partial(_record_failure, rt, mail, refusal))
        return False
    reason = f"{code} {said.decode('utf-8', 'replace')}"
    log.warning("mail %s to %s refused: %s", mail.id, mail.to_email, reason)
    retry_on_disconnect(partial(_mark_refused, rt, mail, reason))
    assert mail.id is not None
    record_failure(rt, mail.id, Failure.permanent(status_of(reason), reason))
    return False


def status_of(reason: str) -> str:
    """The enhanced status code (RFC 3463) in a server's answer, or 5.0.0."""
    for word in reason.split():
        parts = word.split(".")
        if len(parts) == 3 and all(part.isdigit() for part in parts):
            return word
    return "5.0.0"


def _mark_refused(rt: Runtime, mail: OutboxMail, reason: str) -> None:
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail.id)
        assert row is not None
        row.status, row.last_error = MailStatus.REFUSED, reason[:500]
        row.attempts += 1
        row.claimed_until = row.claim_token = None
        session.add(row)
        session.commit()


# Built once: rows marked sent run it as compiled, without the ORM's work for an update; it gives the
# ids of those the lease `token` still held (service/channels/delivery.py marks a batch's notices).
_outbox = OutboxMail.__table__.c  # type: ignore[attr-defined]  # SQLModel's table, not in its types
MARK_SENT = (
    update(OutboxMail.__table__)  # type: ignore[attr-defined]
    .where(
        _outbox.id.in_(bindparam("row_ids", expanding=True)),
        _outbox.status == MailStatus.PENDING,
        _outbox.claim_token == bindparam("token"),
    )
    .values(
        status=MailStatus.SENT,
        sent_at=bindparam("now"),
        attempts=_outbox.attempts + 1,
        claimed_until=None,
        claim_token=None,
    )
    .returning(_outbox.id)
)


# Built once, as `MARK_SENT` (building a statement cost more than running it); the ORM loads the
# leased rows from the statement itself (no second query), and has no session's state to bring up to
# date (a new session holds none).
_CLAIM = (
    update(OutboxMail)
    .where(
        col(OutboxMail.id).in_(bindparam("mail_ids", expanding=True)),
        col(OutboxMail.status) == MailStatus.PENDING,
        col(OutboxMail.claimed_until).is_(None) | (col(OutboxMail.claimed_until) < bindparam("now")),
    )
    .values(claimed_until=bindparam("until"), claim_token=bindparam("token"))
    .returning(OutboxMail)
    .execution_options(synchronize_session=False)
)


def _mark_sent(rt: Runtime, session: Session, mail_id: int, token: str) -> bool:
    """In `session`'s transaction: the leased row marked sent, if this lease still holds it."""
    marked = session.connection().execute(
        MARK_SENT, {"row_ids": [mail_id], "token": token, "now": rt.clock.now()}
    )
    return marked.first() is not None


def _release_lease(rt: Runtime, mail_id: int, token: str) -> None:
    with Session(rt.engine) as session:
        session.exec(
            update(OutboxMail)
            .where(col(OutboxMail.id) == mail_id, col(OutboxMail.claim_token) == token)
            .values(claimed_until=None, claim_token=None)
        )
        session.commit()


def _mark_sent_now(rt: Runtime, mail_id: int, token: str) -> None:
    with Session(rt.engine) as session:
        _mark_sent(rt, session, mail_id, token)
        session.commit()


def failure_words(error: Exception) -> str:
    """What a row keeps of why its attempt failed (its last error)."""
    return f"{type(error).__name__}: {error}"[:500]


def backoff(attempts: int, cap: int) -> timedelta:
    """Wait before the next attempt: 5 s, 10 s, 20 s... up to `cap` seconds."""
    return timedelta(seconds=min(cap, 5 * 2 ** max(0, attempts - 1)))


def _record_failure(rt: Runtime, mail: OutboxMail, error: Exception) -> None:
    log.warning("mail %s to %s failed: %s", mail.id, mail.to_email, error)
    with Session(rt.engine) as session:
        row = session.get(OutboxMail, mail.id)
        assert row is not None
        row.attempts += 1
        row.last_error = failure_words(error)
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
        row.last_error = failure_words(error)
        row.claimed_until = row.claim_token = None
        session.add(row)
        session.commit()


def due_mail_ids(rt: Runtime, limit: int = 500) -> list[int]:
    """Unsent rows whose next attempt is due and which nobody is sending now; a row never tried yet
    only once its own task had COMMAND_REQUEUE_SECONDS to send it."""
    with Session(rt.engine) as session:
        return [row_id for row_id in session.exec(_due(rt).limit(limit)).all() if row_id is not None]


def queue_due_mails(rt: Runtime, limit: int) -> list[int]:
    """Up to `limit` due rows (as `due_mail_ids`), each marked queued by moving its next attempt on:
    the task that sends it sets a failure's own backoff, and a task lost with the broker is re-queued
    once the hold is up. The hold grows with the row's age (QUEUED_SECONDS at least, MAX_QUEUED_SECONDS
    at most), so a row whose task waits behind a long queue is queued again a few times, not every
    sweep. Rows another sweep is queuing are skipped."""
    now = rt.clock.now()
    with Session(rt.engine) as session:
        due = select(OutboxMail.id, OutboxMail.created_at).where(
            col(OutboxMail.id).in_(_due(rt).limit(limit))
        )
        rows = session.exec(due.with_for_update(skip_locked=True)).all()
        for row_id, created_at in rows:
            session.exec(
                update(OutboxMail)
                .where(col(OutboxMail.id) == row_id)
                .values(next_attempt_at=now + queued_hold(now - as_utc(created_at)))
            )
        session.commit()
    return sorted(row_id for row_id, _ in rows if row_id is not None)


def queued_hold(age: timedelta) -> timedelta:
    """How long a row just queued is left to its task: as long as it has already waited, within bounds."""
    return max(timedelta(seconds=QUEUED_SECONDS), min(age, timedelta(seconds=MAX_QUEUED_SECONDS)))


def _due(rt: Runtime) -> SelectOfScalar[int | None]:
    """The ids of the rows due for an attempt, oldest first: unsent ones, and kept ones whose bodies
    wait to be drafted (their task was lost)."""
    now = rt.clock.now()
    quiet = now - timedelta(seconds=rt.settings["COMMAND_REQUEUE_SECONDS"])
    return (
        select(col(OutboxMail.id))
        .where(
            (col(OutboxMail.status) == MailStatus.PENDING)
            | ((col(OutboxMail.status) == MailStatus.KEPT) & col(OutboxMail.draft).is_not(None)),
            OutboxMail.next_attempt_at <= now,
            (col(OutboxMail.attempts) > 0) | (OutboxMail.next_attempt_at <= quiet),
            (col(OutboxMail.claimed_until).is_(None)) | (col(OutboxMail.claimed_until) < now),
        )
        .order_by(col(OutboxMail.id))
    )

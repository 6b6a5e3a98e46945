"""Reading what comes back to a return path (`bounce+<token>@MAIL_DOMAIN`): a delivery report in any
of the formats mail servers write (RFC 3464 DSNs read with the standard `email` package; Postfix,
Exim, qmail, Exchange, Yahoo and the rest with Mailman's detectors in `flufl.bounce`), or a complaint
(an ARF feedback report, RFC 5965). A report is trusted only when its token verifies, is recent, and
names a mail we sent to the address it reports on; anything else is logged, counted (an inbound row
with the status "dropped") and changes nothing. Nothing that arrives here is ever answered, so no
mail loop can start."""

from __future__ import annotations

import email
import email.policy
import hashlib
import logging
import re
from collections import Counter
from dataclasses import dataclass
from email.message import Message

from flufl.bounce import all_failures
from sqlmodel import Session, col, select

from service.eventlog.models import BounceKind, BounceRecord, InboundMail, InboundStatus, OutboxMail
from service.links import BounceLink, LinkError, day_number
from service.mail.unreachable import Failure, Outcome, record_failure
from service.replies.intake import claimed, query_safe, released, settled, unreadable
from service.runtime import Runtime

log = logging.getLogger(__name__)
BOUNCE_PREFIX = "bounce+"
BOUNCE_MAX_AGE_DAYS = 30  # reports come within days (a server gives up after 5); older ones are replays
STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
# Reports dropped by this process, by reason (each is also kept as an inbound row "dropped", except
# the same report delivered again, which has its row already).
DROPPED: Counter[str] = Counter()
FAILED_ACTIONS = {"failed": BounceKind.PERMANENT, "delayed": BounceKind.TEMPORARY}


@dataclass(frozen=True)
class Report:
    """A delivery report or complaint, as read: what it says and which addresses it names."""

    failure: Failure
    recipients: frozenset[str]  # the failed addresses it names, lower-cased (may be none)
    original_id: str  # the Message-ID of the mail it returns, when it returns one
    of_a_report: bool  # the mail it returns is itself a report: a bounce of a bounce


def bounce_tokens(addresses: list[str]) -> list[str]:
    """The tokens of the return paths among `addresses` (`bounce+<token>@…`)."""
    local_parts = (address.strip().strip("<>").lower().rpartition("@")[0] for address in addresses)
    return [part.removeprefix(BOUNCE_PREFIX) for part in local_parts if part.startswith(BOUNCE_PREFIX)]


def read_report(raw: bytes) -> Report | None:
    """What a mail at a return path reports, or None when it is no report at all."""
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    if _report_type(message) == "feedback-report":
        return Report(
            Failure(BounceKind.COMPLAINT, "", _feedback_type(message)), frozenset(), *_original(message)
        )
    found = _dsn(message) or _detected(message)
    if found is None:
        return None
    failure, recipients = found
    return Report(failure, recipients, *_original(message))


def _report_type(message: Message) -> str:
    if message.get_content_type() != "multipart/report":
        return ""
    return str(message.get_param("report-type", "")).lower()


def _feedback_type(message: Message) -> str:
    """The ARF Feedback-Type (abuse, fraud...): the complaint's reason."""
    for part in message.walk():
        if part.get_content_type() == "message/feedback-report":
            fields = email.message_from_string(_text(part))
            return f"feedback: {fields.get('Feedback-Type', 'abuse')}"
    return "feedback: abuse"


def _dsn(message: Message) -> tuple[Failure, frozenset[str]] | None:
    """An RFC 3464 report's failed recipients: Action, Status and Diagnostic-Code of each."""
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            return None
        failures = [_recipient_failure(block) for block in blocks[1:] if isinstance(block, Message)]
        found = [item for item in failures if item is not None]
        if not found:
            return None
        permanent = [item for item in found if item[0].kind == BounceKind.PERMANENT]
        failure = (permanent or found)[0][0]
        return failure, frozenset(address for _, address in found if address)
    return None


def _recipient_failure(block: Message) -> tuple[Failure, str] | None:
    """One per-recipient block of a DSN, if it tells of a failure (or a delay)."""
    kind = FAILED_ACTIONS.get(str(block.get("Action", "")).strip().lower())
    if kind is None:
        return None
    status = STATUS.search(str(block.get("Status", "")))
    code = status.group(0) if status else ("5.0.0" if kind == BounceKind.PERMANENT else "4.0.0")
    diagnostic = str(block.get("Diagnostic-Code", "")).partition(";")[2] or str(
        block.get("Diagnostic-Code", "")
    )
    recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "").partition(";")[2]
    return Failure(kind, code, " ".join(diagnostic.split()) or code), recipient.strip().strip("<>").lower()


def _detected(message: Message) -> tuple[Failure, frozenset[str]] | None:
    """A report in one of the servers' own formats, by flufl.bounce's detectors; the status and the
    server's words from the first line of the body that carries a status code."""
    try:
        temporary, permanent = all_failures(message)
    except Exception:  # a detector that cannot read this mail: no report found
        log.exception("the bounce detectors could not read a mail")
        return None
    if not temporary and not permanent:
        return None
    kind = BounceKind.PERMANENT if permanent else BounceKind.TEMPORARY
    status, reason = _status_line(message, kind)
    addresses = {address.decode("ascii", "replace").lower() for address in (*temporary, *permanent)}
    return Failure(kind, status, reason), frozenset(addresses)


def _status_line(message: Message, kind: BounceKind) -> tuple[str, str]:
    """The first status code (RFC 3463) in the report's text and the line that says it."""
    wanted = "5" if kind == BounceKind.PERMANENT else "4"
    for part in message.walk():
        if part.get_content_maintype() != "text":
            continue
        for line in _text(part).splitlines():
            found = STATUS.search(line)
            if found and found.group(1) == wanted:
                return found.group(0), line.strip()
    return ("5.0.0" if kind == BounceKind.PERMANENT else "4.0.0"), ""


def _original(message: Message) -> tuple[str, bool]:
    """The Message-ID of the mail a report returns (whole or its headers), and whether that mail is
    itself a report."""
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "message/rfc822":
            enclosed = part.get_payload()
            inner = enclosed[0] if isinstance(enclosed, list) and enclosed else None
            if isinstance(inner, Message):
                return str(inner.get("Message-ID", "")).strip(), _is_report(inner)
        if kind in ("text/rfc822-headers", "text/rfc822-header"):
            headers = email.message_from_string(_text(part))
            return str(headers.get("Message-ID", "")).strip(), _is_report(headers)
    return "", False


def _is_report(message: Message) -> bool:
    return message.get_content_type() == "multipart/report" or bool(
        bounce_tokens([str(message.get("To", ""))])
    )


def _text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        return payload.decode(part.get_content_charset() or "utf-8", "replace")
    return str(part.get_payload())


# ------------------------------------------------------------------------------ receiving


@dataclass(frozen=True)
class BounceOutcome:
    status: InboundStatus
    why: str  # recorded, or why it was dropped


def receive_bounce(rt: Runtime, raw: bytes, recipients: list[str]) -> BounceOutcome:
    """Read one mail at a return path: recorded and acted on once, or dropped with the reason."""
    message_id = _message_id(raw)
    row_id = _claim(rt, message_id)
    if row_id is None:
        return _dropped(message_id, "the same report again")
    try:
        outcome = _read(rt, raw, recipients)
    except BaseException:
        released(rt.engine, row_id)
        raise
    settled(rt.engine, row_id, outcome.status)
    if outcome.status == InboundStatus.DROPPED:
        _dropped(message_id, outcome.why)
    return outcome


def _read(rt: Runtime, raw: bytes, recipients: list[str]) -> BounceOutcome:
    link = _verified(rt, bounce_tokens(recipients))
    if isinstance(link, str):
        return BounceOutcome(InboundStatus.DROPPED, link)
    if unreadable(raw) is not None:
        return BounceOutcome(InboundStatus.DROPPED, "too large or too deeply nested to read")
    report = read_report(raw)
    if report is None:
        return BounceOutcome(InboundStatus.DROPPED, "no delivery report or complaint in it")
    mail = _sent_mail(rt, link.mail_id)
    problem = _mismatch(rt, report, mail)
    if problem:
        return BounceOutcome(InboundStatus.DROPPED, problem)
    done = record_failure(rt, link.mail_id, report.failure)
    if done != Outcome.RECORDED:
        return BounceOutcome(InboundStatus.DROPPED, done)
    return BounceOutcome(InboundStatus.BOUNCE, done)


def _verified(rt: Runtime, tokens: list[str]) -> BounceLink | str:
    """The first return path that verifies and is recent, or why none does."""
    if not tokens:
        return "not a return path"
    why = "forged"
    for token in tokens:
        try:
            link = rt.signer.read_bounce(token)
        except LinkError:
            continue
        if day_number(rt.clock.now()) - link.sent_day > BOUNCE_MAX_AGE_DAYS:
            why = "expired"
            continue
        return link
    return why


def _sent_mail(rt: Runtime, mail_id: int) -> OutboxMail | None:
    with Session(rt.engine, expire_on_commit=False) as session:
        return session.get(OutboxMail, mail_id)


def _mismatch(rt: Runtime, report: Report, mail: OutboxMail | None) -> str:
    """Why a report cannot be about the mail its token names ("" if it can)."""
    if mail is None or mail.sent_at is None:
        return "about a mail that was never sent"
    if report.of_a_report:
        return "a bounce of a report"
    if report.original_id and report.original_id != mail.message_id:
        return "about a message we never sent"
    if report.recipients and mail.to_email.strip().lower() not in report.recipients:
        return "about another address than the mail's"
    if report.failure.kind != BounceKind.TEMPORARY and _told_before(rt, mail, report.failure.kind):
        return "the same report again"
    return ""


def _told_before(rt: Runtime, mail: OutboxMail, kind: BounceKind) -> bool:
    """Whether a permanent failure or complaint was recorded for this mail already (a replay)."""
    with Session(rt.engine) as session:
        query = select(BounceRecord.id).where(
            col(BounceRecord.mail_id) == mail.id, col(BounceRecord.kind) == kind
        )
        return session.exec(query).first() is not None


def _message_id(raw: bytes) -> str:
    headers = email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0][:65536], policy=email.policy.compat32)
    found = query_safe(str(headers.get("Message-ID", "")))
    return found or f"<{hashlib.sha256(raw).hexdigest()}@bounce>"


def _claim(rt: Runtime, message_id: str) -> int | None:
    """Keep the report's Message-ID (a report delivered twice is read once); None if seen before."""
    row = InboundMail(message_id=message_id, received_at=rt.clock.now(), status=InboundStatus.RECEIVED)
    return claimed(rt.engine, row)


def _dropped(message_id: str, why: str) -> BounceOutcome:
    DROPPED[why] += 1
    log.warning("report %s dropped: %s", message_id, why)
    return BounceOutcome(InboundStatus.DROPPED, why)


def dropped_count(rt: Runtime) -> int:
    """How many mails at return paths were dropped (forged, expired, replayed, not ours...)."""
    with Session(rt.engine) as session:
        rows = session.exec(select(InboundMail.id).where(col(InboundMail.status) == InboundStatus.DROPPED))
        return len(rows.all())

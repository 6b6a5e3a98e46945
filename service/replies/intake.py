"""What a received mail must pass before its text is read: a bounded size and MIME nesting (the
listener refuses at SMTP what the reply path would not read, and what it accepts is read and
answered), header values that can go into a query, and the receiving mail exchanger's verdict on
its From (RFC 8601 Authentication-Results, from the one authserv-id configured as trusted)."""

from __future__ import annotations

import email.policy
import re
import unicodedata
from contextlib import suppress
from email.parser import BytesHeaderParser
from email.utils import parseaddr

import authres
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from rules.messages import N_, Message
from service.eventlog.models import InboundMail, InboundStatus

MAX_MAIL_BYTES = 256 * 1024  # the one limit: the listener refuses larger mail, the reply path reads the rest
# Containers (multipart or message/* parts) a mail may have: a reply has one or two. Python's parser
# recurses once per level, so a mail nested some thousand deep would raise RecursionError.
MAX_MIME_CONTAINERS = 50
# Words every container's header has ("boundary" of a multipart, "message/" of an enclosed mail),
# counted in the raw bytes before parsing: their count bounds the nesting's depth from above.
CONTAINER_MARK = re.compile(rb"(?i)boundary|message/")
HEADER_END = re.compile(rb"\r?\n\r?\n")
MAX_ID_LENGTH = 300  # inbound_mails.message_id
# Results of the From domain's own checks that say it was forged (RFC 8601 2.7.1, 2.7.2).
FAILED = frozenset({"fail"})
PASSED = frozenset({"pass"})


def unreadable(raw: bytes) -> Message | None:
    """Why a mail's content will not be read (too large, too deeply nested), or None."""
    if len(raw) > MAX_MAIL_BYTES:
        return N_("Your reply was too large to read (at most %(size)s kB). Reply with a short text."), {
            "size": MAX_MAIL_BYTES // 1024
        }
    if len(CONTAINER_MARK.findall(raw)) > MAX_MIME_CONTAINERS:
        return N_("Your reply had too many nested parts to read. Reply with a short plain text."), {}
    return None


def headers_only(raw: bytes) -> bytes:
    """The mail's header block alone (with an empty body), for a mail whose content is not read."""
    end = HEADER_END.search(raw)
    return raw if end is None else raw[: end.end()]


def query_safe(value: str, limit: int = MAX_ID_LENGTH) -> str:
    """A header value as it may be stored: control characters (NUL among them, which PostgreSQL
    refuses in text) dropped, at most `limit` characters."""
    kept = "".join(ch for ch in value if unicodedata.category(ch) not in ("Cc", "Cf"))
    return kept.strip()[:limit]


def from_forged(raw: bytes, authserv_id: str) -> bool:
    """Whether the receiving mail exchanger (`authserv_id`) found the From forged: DMARC failed, or
    without a DMARC verdict, a check of the From domain (SPF, DKIM) failed and none passed. Results
    under any other authserv-id are ignored: a sender can write those headers itself."""
    if not authserv_id:
        return False
    headers = BytesHeaderParser(policy=email.policy.compat32).parsebytes(headers_only(raw))
    domain = parseaddr(str(headers.get("From", "")))[1].rpartition("@")[2].strip().lower()
    results = trusted_results(headers.get_all("Authentication-Results", []), authserv_id)
    dmarc = {result for method, result, _ in results if method == "dmarc"}
    if dmarc & FAILED or dmarc & PASSED:
        return bool(dmarc & FAILED)
    own = {result for method, result, checked in results if method in ("spf", "dkim") and checked == domain}
    return bool(own & FAILED) and not own & PASSED


def trusted_results(values: list[str], authserv_id: str) -> list[tuple[str, str, str]]:
    """(method, result, domain checked) of each result in the headers of `authserv_id`; a header
    that does not parse tells nothing."""
    found = []
    for value in values:
        try:
            header = authres.AuthenticationResultsHeader.parse_value(" ".join(str(value).split()))
        except authres.AuthResError:
            continue
        if str(header.authserv_id).lower() != authserv_id.lower():
            continue
        found += [(r.method.lower(), r.result.lower(), checked_domain(r)) for r in header.results]
    return found


def checked_domain(result: authres.AuthenticationResult) -> str:
    """The domain a result is about: DKIM's signing domain, SPF's MAIL FROM (or HELO) domain."""
    for prop in result.properties:
        if (prop.type, prop.name) in (("header", "d"), ("smtp", "mailfrom"), ("smtp", "helo")):
            return str(prop.value).rpartition("@")[2].strip().lower()
    return ""


def claimed(engine: Engine, row: InboundMail) -> int | None:
    """Keep a received mail's row, once per Message-ID (the unique key is the judge, also between
    listeners reading at once); its id, or None when that mail was received before."""
    with Session(engine, expire_on_commit=False) as session:
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            return None
    return row.id


def settled(engine: Engine, row_id: int, status: InboundStatus, command_id: int | None = None) -> None:
    """A received mail's row marked with what became of it (and the command it stored, if any)."""
    with Session(engine) as session:
        row = session.get(InboundMail, row_id)
        assert row is not None
        row.status = status
        if command_id is not None:
            row.command_id = command_id
        session.add(row)
        session.commit()


def released(engine: Engine, row_id: int) -> None:
    """Forget a mail whose reading failed midway (its effects are idempotent), so that it is read
    again when delivered again."""
    with suppress(Exception), Session(engine) as session:  # the database may be what failed
        row = session.get(InboundMail, row_id)
        if row is not None and row.status == InboundStatus.RECEIVED:
            session.delete(row)
            session.commit()

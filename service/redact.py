"""Tokens never reach a log: the token part of a link's path (`/play/<token>` → `/play/[token]`) and
of a reply address (`play+<token>@…`) is cut out of every log record this process makes.

Access logs (gunicorn's, werkzeug's dev server's) and the app's own warnings hold request paths, and a
path's token is the credential of a seat, a host or an address: whoever reads the log could play,
manage or unsubscribe. The redaction is done where records are made (a log record factory), so it
holds for every logger and handler, whoever configures them, gunicorn's access log included.
"""

from __future__ import annotations

import logging
import re
from typing import Any

# The kinds of path whose next segment is a signed token (pages and their JSON twins).
TOKEN_IN_PATH = re.compile(r"(/(?:api/)?(?:play|host|watch|unsubscribe|confirm|my|calendar)/)[^/?#\s\"'<>]+")
TOKEN_IN_REPLY_ADDRESS = re.compile(r"(play\+)[^@\s\"'<>]+(@)")
REDACTED = "[token]"


def redact(text: str) -> str:
    """`text` with every link token and reply-address token replaced by "[token]"."""
    text = TOKEN_IN_PATH.sub(rf"\1{REDACTED}", text)
    return TOKEN_IN_REPLY_ADDRESS.sub(rf"\1{REDACTED}\2", text)


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """The record with its message redacted (formatted now: its arguments may hold a path)."""
    try:
        message = record.getMessage()
    except Exception:  # a malformed call: logging itself reports it later; leave it as it is
        return record
    redacted = redact(message)
    if redacted != message:
        record.msg, record.args = redacted, None
    return record


def redact_logs() -> None:
    """Make every log record of this process redacted (once, whoever calls it first)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "redacts", False):
        return

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact_record(factory(*args, **kwargs))

    make.redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(make)

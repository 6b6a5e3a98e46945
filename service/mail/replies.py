"""A mail received at a reply address, read: who sent it, to which reply address, whether a robot
sent it, and its new text only (quoted history, signatures and our own footer dropped). Nothing of
its HTML is ever rendered: an HTML-only mail is reduced to its text here."""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from mailparser_reply import EmailReplyParser

REPLY_PREFIX = "play+"
MAX_TEXT = 2000  # characters of new text read; a move and a short message fit well within
# Our mails' own lines, which a reply may quote without the usual "> " marks.
FOOTER_MARKS = (
    "This link is yours alone",
    "このリンクはあなた専用です",
    "Fewer mails?",
    "メールを減らしたい",
    "You can also make your move by replying",
    "このメールに返信して",
)


@dataclass(frozen=True)
class ReplyMail:
    message_id: str
    sender: str  # the From address, lower-cased
    tokens: tuple[str, ...]  # the reply-address tokens it was sent to
    automatic: bool  # an auto-reply, bounce or list mail: never answered
    text: str  # the new text only


def read_reply_mail(raw: bytes, recipients: list[str] | None = None) -> ReplyMail:
    """A received mail as the reply path reads it; `recipients` are the SMTP envelope's (they name
    the reply address even when the headers do not)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    addressed = [
        address for _, address in getaddresses(message.get_all("To", []) + message.get_all("Cc", []))
    ]
    return ReplyMail(
        message_id=str(message.get("Message-ID", "")).strip()[:300],
        sender=parseaddr(str(message.get("From", "")))[1].strip().lower(),
        tokens=tuple(dict.fromkeys(reply_tokens([*(recipients or []), *addressed]))),
        automatic=is_automatic(message),
        text=new_text(message),
    )


def reply_tokens(addresses: list[str]) -> list[str]:
    """The tokens of the reply addresses among `addresses` (`play+<token>@…`)."""
    local_parts = (address.strip().lower().rpartition("@")[0] for address in addresses)
    return [part.removeprefix(REPLY_PREFIX) for part in local_parts if part.startswith(REPLY_PREFIX)]


def is_automatic(message: EmailMessage) -> bool:
    """Whether a robot sent it (RFC 3834 Auto-Submitted, bulk or list precedence, an empty return
    path, a delivery report, a list's headers): answering it could start a mail loop."""
    auto_submitted = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    return (
        auto_submitted != "no"
        or precedence in ("bulk", "list", "junk", "auto_reply")
        or str(message.get("Return-Path", "")).strip() == "<>"
        or message.get_content_type() == "multipart/report"
        or any(
            message.get(header) for header in ("List-Id", "List-Unsubscribe", "X-Autoreply", "X-Autorespond")
        )
    )


def new_text(message: EmailMessage) -> str:
    """The text the sender wrote this time: the plain part (or the HTML part reduced to text),
    without quoted history, signature or our footer."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    assert isinstance(part, EmailMessage)
    try:
        content = part.get_content()
    except (LookupError, UnicodeDecodeError):
        return ""
    if not isinstance(content, str):
        return ""
    if part.get_content_type() == "text/html":
        content = html_to_text(content)
    reply = EmailReplyParser(languages=["en", "ja"]).parse_reply(text=content[: MAX_TEXT * 10])
    kept = []
    for line in reply.splitlines():
        if line.strip() == "--" or any(mark in line for mark in FOOTER_MARKS):
            break
        if not line.lstrip().startswith(">"):
            kept.append(line)
    return "\n".join(kept).strip()[:MAX_TEXT]


def html_to_text(markup: str) -> str:
    """The text of an HTML mail: quoted blocks, scripts and styles dropped, tags removed."""
    markup = re.sub(r"(?is)<(script|style|blockquote)\b.*?</\1\s*>", " ", markup)
    markup = re.sub(r"(?i)<br\s*/?>|</p\s*>|</div\s*>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))

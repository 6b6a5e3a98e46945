"""A mail received at a reply address, read: who sent it, to which reply address, whether a robot
sent it, and its new text only (quoted history, signatures and our own footer dropped). Nothing of
its HTML is ever rendered: an HTML-only mail is reduced to its text here."""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

from service.mail.html_text import html_to_text
from service.replies.quotes import new_lines

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
    out_of_office: bool = False  # an auto-responder's wording, without its robot headers


def read_reply_mail(raw: bytes, recipients: list[str] | None = None) -> ReplyMail:
    """A received mail as the reply path reads it; `recipients` are the SMTP envelope's (they name
    the reply address even when the headers do not)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    addressed = [
        address for _, address in getaddresses(message.get_all("To", []) + message.get_all("Cc", []))
    ]
    text = new_text(message)
    return ReplyMail(
        message_id=str(message.get("Message-ID", "")).strip()[:300],
        sender=parseaddr(str(message.get("From", "")))[1].strip().lower(),
        tokens=tuple(dict.fromkeys(reply_tokens([*(recipients or []), *addressed]))),
        automatic=is_automatic(message),
        text=text,
        out_of_office=is_out_of_office(str(message.get("Subject", "")), text),
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


# How auto-responders word their mail, in English, Japanese, German and French: in a subject they
# prefix, in a text they open with. Only wording a person rarely writes to a card table ("I will be
# back on Monday" is talk).
OUT_OF_OFFICE_SUBJECT = re.compile(
    r"^\s*(?:automatic reply|auto(?:matic)?[- ]?reply|autoreply|out of (?:the )?office|自動応答|自動返信|不在"
    r"|abwesend|automatische antwort|abwesenheitsnotiz|réponse automatique|absence|absent)\b",
    re.IGNORECASE,
)
OUT_OF_OFFICE_TEXT = re.compile(
    r"\b(?:out of (?:the )?office|automatic reply|auto-?reply|on (?:annual |parental )?leave until"
    r"|away from (?:the|my) (?:office|desk)|limited access to (?:my )?e-?mail"
    r"|nicht im büro|abwesend|abwesenheit|außer haus"
    r"|absent(?:e)? du bureau|réponse automatique|je suis absente?)\b"
    r"|不在にしております|不在です|休暇を(?:いただいて|取って)|自動(?:応答|返信)|外出しております",
    re.IGNORECASE,
)


def is_out_of_office(subject: str, text: str) -> bool:
    """Whether a mail reads as an auto-responder's (some send none of the robot headers)."""
    return bool(OUT_OF_OFFICE_SUBJECT.match(subject) or OUT_OF_OFFICE_TEXT.search(text[:600]))


def new_text(message: EmailMessage) -> str:
    """The text the sender wrote this time: the plain part (or the HTML part reduced to text),
    without quoted history, signature or our footer, wherever the sender wrote above, below or
    between the quote's parts."""
    part = message.get_body(preferencelist=("plain", "html"))
    if not isinstance(part, EmailMessage):
        return ""
    content = decoded_text(part)
    if part.get_content_type() == "text/html":
        content = html_to_text(content)
    kept = []
    for line in new_lines(content[: MAX_TEXT * 10]):
        if any(mark in line for mark in FOOTER_MARKS):
            break  # our own mail, quoted without marks: the rest is its text
        kept.append(line)
    return "\n".join(kept).strip()[:MAX_TEXT]


def decoded_text(part: EmailMessage) -> str:
    """A text part's characters. Japanese mail labelled ISO-2022-JP or Shift_JIS is often written by
    Windows in its supersets (CP50220, CP932), whose circled digits and other NEC signs the strict
    codecs turn into U+FFFD; they are read here as Windows reads them."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = (part.get_content_charset() or "us-ascii").lower()
    if charset.startswith("iso-2022-jp") or charset in ("cp50220", "cp50221", "cp50222"):
        return jis_as_cp932(payload)
    if charset in ("shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "windows-31j", "cp932", "ms932"):
        charset = "cp932"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know: its ASCII at least
        return payload.decode("utf-8", errors="replace")


JIS_ESCAPES = {b"\x1b(B": 1, b"\x1b(J": 1, b"\x1b$@": 2, b"\x1b$B": 2, b"\x1b(I": 3}


def jis_as_cp932(data: bytes) -> str:
    """ISO-2022-JP (CP50220 included) read through CP932: each JIS X 0208 pair moved to its
    Shift_JIS bytes, half-width katakana to theirs, then decoded as Windows does."""
    out, mode, index = bytearray(), 1, 0
    while index < len(data):
        escape = data[index : index + 3]
        if escape in JIS_ESCAPES:
            mode, index = JIS_ESCAPES[escape], index + 3
        elif data[index] in (0x0E, 0x0F):  # SO/SI: half-width katakana in and out (CP50222)
            mode, index = (3 if data[index] == 0x0E else 1), index + 1
        elif mode == 2 and index + 1 < len(data) and data[index] > 0x20 and data[index] != 0x7F:
            out += jis_pair_to_sjis(data[index], data[index + 1])
            index += 2
        elif mode == 3 and 0x21 <= data[index] <= 0x5F:
            out.append(data[index] + 0x80)
            index += 1
        else:
            out.append(data[index])
            index += 1
    return bytes(out).decode("cp932", errors="replace")


def jis_pair_to_sjis(first: int, second: int) -> bytes:
    """One JIS X 0208 character's Shift_JIS bytes."""
    lead = ((first - 0x21) >> 1) + 0x81
    lead += 0x40 if lead > 0x9F else 0
    trail = second + 0x1F + (second >= 0x60) if first % 2 else second + 0x7E
    return bytes((lead, trail))

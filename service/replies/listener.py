"""Where replies and delivery reports come in: an SMTP or LMTP listener that a mail exchanger or a
mail provider forwards the reply addresses and return paths to (`pbem inbound`), or a mailbox polled
over IMAP for deployments that cannot receive mail directly (`pbem inbound --imap`). Both hand each
message to `receive_mail`: a report at a return path is read (and never answered), a reply is read
and answered."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, AnyStr

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from flask import Flask
from imap_tools import AND, MailBox, MailMessageFlags

from service.replies.answering import receive_reply
from service.replies.bounces import bounce_tokens, receive_bounce
from service.replies.club_replies import club_reply_link, receive_club_reply
from service.replies.intake import MAX_MAIL_BYTES
from service.replies.reply_text import reply_tokens
from service.runtime import Runtime

log = logging.getLogger(__name__)
READERS = 4  # mails read at once, each in a thread of its own with its own database connection
WAITING = 4  # mails that may wait for a reader; past them the sender is told to try again later
TOO_LARGE = f"552 5.3.4 A reply may be at most {MAX_MAIL_BYTES // 1024} kB: write a short text"
BUSY = "451 4.3.2 Too many replies at once, try again later"
FAILED = "451 4.3.0 The reply could not be read now, try again later"
# aiosmtpd's own words for a mail over the size limit, which say nothing of what to do.
AIOSMTPD_TOO_LARGE = ("552 Error: Too much mail data", "552 Error: message size exceeds fixed maximum")


class ReplyHandler:
    """aiosmtpd handler: accept mail only for reply addresses, and answer 250 only once the mail is
    read (recorded, and its move or answer stored): the sender's server keeps it until then, so an
    accepted mail is never lost. A few readers at once; when they are all taken, 451 (try later)."""

    def __init__(self, app: Flask, readers: int = READERS, waiting: int = WAITING) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(readers, thread_name_prefix="reply")
        self.capacity = readers + waiting
        self.taken = 0  # read only in the event loop's thread: no lock needed

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if not reply_tokens([address]) and not bounce_tokens([address]):
            return "550 5.1.1 Not a reply address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.taken >= self.capacity:
            return BUSY
        self.taken += 1
        try:
            content = envelope.original_content or b""
            loop = asyncio.get_running_loop()
            read = await loop.run_in_executor(self.pool, self.receive, content, list(envelope.rcpt_tos))
        finally:
            self.taken -= 1
        return "250 OK" if read else FAILED

    def receive(self, content: bytes, recipients: list[str]) -> bool:
        """Read one mail; False if it could not be (the database down: the sender retries later)."""
        with self.app.app_context():
            try:
                receive_mail(self.app.extensions["pbem"], content, recipients)
            except Exception:  # a reply that cannot be read must not stop the listener
                log.exception("could not read a reply")
                return False
        return True


def receive_mail(rt: Runtime, raw: bytes, recipients: list[str]) -> None:
    """Hand a received mail to its reader: a mail at a return path to the report reader, which never
    answers (so nothing sent to a `bounce+` address can start a loop), one at a member's reply
    address to their club to the club's talk (never answered either), any other to the reply path."""
    if bounce_tokens(recipients):
        receive_bounce(rt, raw, recipients)
    elif club_reply_link(rt, recipients) is not None:
        receive_club_reply(rt, raw, recipients)
    else:
        receive_reply(rt, raw, recipients)


class ClearRefusals(SMTP):
    """Says why a mail over the size limit is refused, and what to do, in place of aiosmtpd's words."""

    async def push(self, status: AnyStr) -> None:
        if isinstance(status, str) and status.startswith(AIOSMTPD_TOO_LARGE):
            status = TOO_LARGE
        await super().push(status)


class ReplySMTP(ClearRefusals):
    pass


class ReplyLMTP(ClearRefusals, LMTP):
    pass


class ReplyController(Controller):
    def __init__(self, handler: ReplyHandler, lmtp: bool, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.lmtp = lmtp

    def factory(self) -> SMTP:
        return (ReplyLMTP if self.lmtp else ReplySMTP)(self.handler, **self.SMTP_kwargs)

    def stop(self, no_assert: bool = False) -> None:
        super().stop(no_assert)
        self.handler.pool.shutdown(wait=True)


def reply_listener(app: Flask, host: str, port: int, lmtp: bool = False, **handler: int) -> Controller:
    """The listener for reply addresses, not yet started; it refuses at SMTP any mail larger than
    the reply path reads (`handler`: its readers and waiting places)."""
    return ReplyController(
        ReplyHandler(app, **handler), lmtp, hostname=host, port=port, data_size_limit=MAX_MAIL_BYTES
    )


@dataclass(frozen=True)
class Mailbox:
    host: str
    user: str
    password: str
    folder: str = "INBOX"
    port: int = 993
    ssl: bool = True


def poll_mailbox(app: Flask, mailbox: Mailbox) -> int:
    """Read every unseen message of the mailbox once (marked seen once read, so that a mail whose
    reading failed is read at the next poll); how many."""
    from imap_tools import MailBoxUnencrypted

    kind: Any = MailBox if mailbox.ssl else MailBoxUnencrypted
    read = 0
    with kind(mailbox.host, port=mailbox.port).login(mailbox.user, mailbox.password, mailbox.folder) as box:
        for message in box.fetch(AND(seen=False), mark_seen=False, bulk=True):
            recipients = [*message.to, *message.cc, *message.obj.get_all("Delivered-To", [])]
            with app.app_context():
                receive_mail(app.extensions["pbem"], message.obj.as_bytes(), recipients)
            if message.uid:
                box.flag(message.uid, MailMessageFlags.SEEN, True)
            read += 1
    return read

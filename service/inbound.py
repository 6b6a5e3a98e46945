"""Where replies come in: an SMTP or LMTP listener that a mail exchanger or a mail provider forwards
the reply addresses to (`pbem inbound`), or a mailbox polled over IMAP for deployments that cannot
receive mail directly (`pbem inbound --imap`). Both hand each message to `receive_reply`."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from flask import Flask
from imap_tools import AND, MailBox

from service.mail.replies import reply_tokens
from service.play.inbound import receive_reply

log = logging.getLogger(__name__)
MAX_SMTP_BYTES = 512 * 1024  # larger mails are refused at the door; the reply path reads at most half


class ReplyHandler:
    """aiosmtpd handler: accept mail only for reply addresses, read each message after the
    transaction (the sender's server gets its 250 at once; a failure is logged, never bounced)."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if not reply_tokens([address]):
            return "550 5.1.1 Not a reply address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        recipients = list(envelope.rcpt_tos)
        threading.Thread(target=self.receive, args=(content, recipients), daemon=True).start()
        return "250 OK"

    def receive(self, content: bytes, recipients: list[str]) -> None:
        with self.app.app_context():
            try:
                receive_reply(self.app.extensions["pbem"], content, recipients)
            except Exception:  # a reply that cannot be read must not stop the listener
                log.exception("could not read a reply")


class LmtpController(Controller):
    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


def reply_listener(app: Flask, host: str, port: int, lmtp: bool = False) -> Controller:
    """The listener for reply addresses, not yet started."""
    kind = LmtpController if lmtp else Controller
    return kind(ReplyHandler(app), hostname=host, port=port, data_size_limit=MAX_SMTP_BYTES)


@dataclass(frozen=True)
class Mailbox:
    host: str
    user: str
    password: str
    folder: str = "INBOX"
    port: int = 993
    ssl: bool = True


def poll_mailbox(app: Flask, mailbox: Mailbox) -> int:
    """Read every unseen message of the mailbox once (marked seen as it is fetched); how many."""
    from imap_tools import MailBoxUnencrypted

    kind: Any = MailBox if mailbox.ssl else MailBoxUnencrypted
    read = 0
    with kind(mailbox.host, port=mailbox.port).login(mailbox.user, mailbox.password, mailbox.folder) as box:
        for message in box.fetch(AND(seen=False), mark_seen=True, bulk=True):
            recipients = [*message.to, *message.cc, *message.obj.get_all("Delivered-To", [])]
            with app.app_context():
                receive_reply(app.extensions["pbem"], message.obj.as_bytes(), recipients)
            read += 1
    return read

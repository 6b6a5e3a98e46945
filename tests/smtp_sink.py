"""A real SMTP server (aiosmtpd) in-process, collecting what it receives."""

from __future__ import annotations

import email
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.header import decode_header, make_header
from email.message import Message

from aiosmtpd.controller import Controller
from flask import Flask

from service.replies.listener import reply_listener


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def reply_listening(app: Flask) -> Iterator[int]:
    """The app's reply listener on a free local port (yielded) for the length of the block."""
    port = free_port()
    listener = reply_listener(app, "127.0.0.1", port)
    listener.start()
    try:
        yield port
    finally:
        listener.stop()


def body(message: Message) -> str:
    """The plain-text part of a delivered mail."""
    part = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")


def addressee(message: Message) -> str:
    """The address a delivered mail was sent to."""
    return message["To"].split("<")[1].rstrip(">")


def headline(message: Message) -> str:
    """What a delivered mail says in one line: the first line of its text."""
    return body(message).splitlines()[0]


def subject(message: Message) -> str:
    """A delivered mail's subject, decoded and unfolded."""
    return str(make_header(decode_header(message["Subject"]))).replace("\r\n", "")


@dataclass(frozen=True)
class Received:
    """One message as the server took it: its envelope, its bytes, and on which connection."""

    mail_from: str
    rcpt_tos: list[str]
    mail_options: list[str]
    content: bytes
    connection: int  # the n-th connection the server accepted


class Collector:
    """aiosmtpd handler keeping every message it accepts (and its envelope); addresses in `refuse`
    are refused at RCPT TO with a 550, as a real server refuses an unknown user."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.received: list[Received] = []
        self.refuse: set[str] = set()
        self.lock = threading.Lock()
        self.connections = 0
        self.noops = 0  # NOOPs received: the probes of a kept session before its reuse

    async def handle_EHLO(self, server, session, envelope, hostname, responses):  # type: ignore[no-untyped-def]
        if session.host_name is None:  # the first greeting of a connection (STARTTLS greets again)
            with self.lock:
                self.connections += 1
        session.host_name = hostname
        return responses

    async def handle_NOOP(self, server, session, envelope, arg) -> str:  # type: ignore[no-untyped-def]
        with self.lock:
            self.noops += 1
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, options) -> str:  # type: ignore[no-untyped-def]
        if address.lower() in self.refuse:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:  # type: ignore[no-untyped-def]
        raw = envelope.original_content or envelope.content  # bytes as sent, also when decoding
        with self.lock:
            self.messages.append(email.message_from_bytes(raw))
            self.received.append(
                Received(
                    envelope.mail_from,
                    list(envelope.rcpt_tos),
                    list(envelope.mail_options),
                    raw,
                    self.connections,
                )
            )
        return "250 OK"

    def envelope_of(self, message_id: str) -> Received:
        """The message with this Message-ID as it was received."""
        with self.lock:
            return next(r for r in self.received if message_id.encode() in r.content)

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if address in m["To"]]


class SmtpSink:
    """Start, stop and restart a real SMTP server on a fixed local port; one that does not offer
    8BITMIME (`eight_bit=False`) is an older relay that takes 7-bit bodies only; `idle_timeout`
    closes a session idle that many seconds, as a relay does (Postfix: 300 s)."""

    def __init__(self, utf8: bool = True, eight_bit: bool = True, idle_timeout: float = 300) -> None:
        self.port = free_port()
        self.collector = Collector()
        self.utf8 = utf8  # whether it offers SMTPUTF8 (addresses beyond ASCII), as aiosmtpd does by default
        self.eight_bit = eight_bit
        self.idle_timeout = idle_timeout
        self._controller: Controller | None = None

    def start(self) -> None:
        # aiosmtpd offers 8BITMIME unless it decodes the data as text (and then never SMTPUTF8).
        self._controller = Controller(
            self.collector,
            hostname="127.0.0.1",
            port=self.port,
            decode_data=not self.eight_bit,
            enable_SMTPUTF8=self.utf8 and self.eight_bit,
            timeout=self.idle_timeout,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller:
            self._controller.stop()
            self._controller = None

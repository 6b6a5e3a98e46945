"""A real SMTP server (aiosmtpd) in-process, collecting what it receives."""

from __future__ import annotations

import email
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.header import decode_header, make_header
from email.message import Message

from aiosmtpd.controller import Controller
from flask import Flask

from service.inbound import reply_listener


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


class Collector:
    """aiosmtpd handler keeping every message it accepts."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope) -> str:  # type: ignore[no-untyped-def]
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if address in m["To"]]


class SmtpSink:
    """Start, stop and restart a real SMTP server on a fixed local port."""

    def __init__(self, utf8: bool = True) -> None:
        self.port = free_port()
        self.collector = Collector()
        self.utf8 = utf8  # whether it offers SMTPUTF8 (addresses beyond ASCII), as aiosmtpd does by default
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(
            self.collector, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=self.utf8
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller:
            self._controller.stop()
            self._controller = None

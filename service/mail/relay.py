"""The SMTP connection a worker keeps open across messages: a burst of turn mail costs one handshake
(TCP, EHLO, STARTTLS, AUTH) per worker thread, not one per message. A session idle for a while is
checked with a NOOP before reuse; one used a moment ago is not (the probe would be a round trip per
message of a burst). Either way, a kept session found dead at the message's MAIL FROM, before the
server has been handed anything, is replaced and the message sent on the new one."""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)
# What gives a message's bytes and its MAIL FROM options for an SMTP session (what it offers).
Message = Callable[[smtplib.SMTP], tuple[bytes, Sequence[str]]]
PROBE_AFTER_SECONDS = 1.0  # a session idle longer than this is probed with a NOOP before reuse


@dataclass(frozen=True)
class RelaySettings:
    """Where and how to hand mail over; a change of any of them opens a new connection."""

    host: str
    port: int
    security: str  # none | starttls | ssl
    user: str | None
    password: str | None
    timeout: float

    @classmethod
    def of(cls, settings: dict[str, Any]) -> RelaySettings:
        return cls(
            settings["SMTP_HOST"],
            settings["SMTP_PORT"],
            settings["SMTP_SECURITY"],
            settings["SMTP_USER"],
            settings["SMTP_PASSWORD"],
            settings["SMTP_TIMEOUT"],
        )


def open_connection(relay: RelaySettings) -> smtplib.SMTP:
    """A new SMTP session with the relay, greeted (EHLO), secured and logged in as configured."""
    if relay.security == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            relay.host, relay.port, timeout=relay.timeout, context=ssl.create_default_context()
        )
    else:
        client = smtplib.SMTP(relay.host, relay.port, timeout=relay.timeout)
    try:
        client.ehlo()
        if relay.security == "starttls":
            client.starttls(context=ssl.create_default_context())
            client.ehlo()
        if relay.user:
            client.login(relay.user, relay.password or "")
    except BaseException:
        close_quietly(client)
        raise
    return client


def close_quietly(client: smtplib.SMTP) -> None:
    """Close a session whatever state it is in (QUIT if it still answers)."""
    try:
        client.quit()
    except (OSError, smtplib.SMTPException):
        client.close()


class Relay:
    """One thread's connection to the relay, opened on first use and kept."""

    def __init__(self, settings: RelaySettings) -> None:
        self.settings = settings
        self._client: smtplib.SMTP | None = None
        self._used_at = 0.0  # time.monotonic() when the kept session last answered
        self.handshakes = 0  # connections opened: what the kept connection saves

    def connection(self) -> tuple[smtplib.SMTP, bool]:
        """The session to send on, and whether it is a kept one: kept if it was used a moment ago
        or answers a NOOP now, else a new one."""
        if self._client is not None:
            if time.monotonic() - self._used_at <= PROBE_AFTER_SECONDS or _answers(self._client):
                return self._client, True
            self.close()
        self._client = open_connection(self.settings)
        self.handshakes += 1
        return self._client, False

    def send(self, sender: str, recipient: str, message: Message) -> None:
        """Hand one message over, checked once: `message` gives its bytes and MAIL FROM options for
        what the session offers (8BITMIME, SMTPUTF8). A kept session that turns out gone at MAIL
        FROM (the server closed it since) is replaced, and the message sent on the new one: nothing
        had been handed over. Any other failure closes the session: after an error midway its
        state is unknown, so the next message starts afresh."""
        client, kept = self.connection()
        try:
            data = self._begin(client, sender, message)
        except OSError as error:  # smtplib's errors are OSErrors too
            if not (kept and _session_gone(error)):
                raise
            log.info("the kept SMTP session had closed (%s): sending on a new one", error)
            client, _ = self.connection()
            data = self._begin(client, sender, message)
        try:
            _recipient_and_data(client, recipient, data)
        except smtplib.SMTPRecipientsRefused:
            self._reset(client)  # the session itself is fine: only this address was refused
            raise
        except OSError:
            self.close()
            raise
        self._used_at = time.monotonic()

    def _begin(self, client: smtplib.SMTP, sender: str, message: Message) -> bytes:
        """A transaction opened (MAIL FROM) on `client` for the message as `message` gives it for
        this session: its bytes. A failure closes the session."""
        data, options = message(client)
        if client.has_extn("size"):  # as smtplib's sendmail: a server refuses one too large before DATA
            options = [*options, f"SIZE={len(data)}"]
        try:
            code, said = client.mail(sender, list(options))
            if code != 250:
                raise smtplib.SMTPSenderRefused(code, said, sender)
        except OSError:
            self.close()
            raise
        return data

    def _reset(self, client: smtplib.SMTP) -> None:
        """The session made ready for the next message (RSET), or closed if it does not answer."""
        try:
            client.rset()
        except OSError:
            self.close()
            return
        self._used_at = time.monotonic()

    def close(self) -> None:
        if self._client is not None:
            close_quietly(self._client)
            self._client = None


def _answers(client: smtplib.SMTP) -> bool:
    """Whether a session still answers (a NOOP)."""
    try:
        return client.noop()[0] == 250
    except OSError:
        return False


def _recipient_and_data(client: smtplib.SMTP, recipient: str, data: bytes) -> None:
    """An opened transaction's recipient (RCPT TO) and message (DATA)."""
    code, said = client.rcpt(recipient)
    if code not in (250, 251):
        raise smtplib.SMTPRecipientsRefused({recipient: (code, said)})
    code, said = client.data(data)
    if code != 250:
        raise smtplib.SMTPDataError(code, said)


def _session_gone(error: OSError) -> bool:
    """Whether a MAIL FROM failed because the session is gone (the server closed it, or answered
    that it is closing it with a 421), not because the server refused the sender."""
    if isinstance(error, smtplib.SMTPSenderRefused):
        return error.smtp_code == 421
    return isinstance(error, smtplib.SMTPServerDisconnected)


_kept = threading.local()


def kept_relay(settings: dict[str, Any]) -> Relay:
    """This thread's relay for these settings (a Celery worker process or thread keeps one)."""
    wanted = RelaySettings.of(settings)
    relay: Relay | None = getattr(_kept, "relay", None)
    if relay is None or relay.settings != wanted:
        if relay is not None:
            relay.close()
        relay = Relay(wanted)
        _kept.relay = relay
    return relay

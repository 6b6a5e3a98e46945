"""The SMTP connection a worker keeps open across messages: a burst of turn mail costs one handshake
(TCP, EHLO, STARTTLS, AUTH) per worker thread, not one per message. Before each reuse a NOOP checks
the connection; one that the server closed meanwhile (an idle timeout) is opened anew."""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


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
        self.handshakes = 0  # connections opened: what the kept connection saves

    def connection(self) -> smtplib.SMTP:
        """The kept session if it still answers a NOOP, else a new one."""
        if self._client is not None:
            try:
                if self._client.noop()[0] == 250:
                    return self._client
            except (OSError, smtplib.SMTPException):
                pass
            self.close()
        self._client = open_connection(self.settings)
        self.handshakes += 1
        return self._client

    def send(
        self,
        sender: str,
        recipients: Sequence[str],
        message: Callable[[smtplib.SMTP], tuple[bytes, Sequence[str]]],
    ) -> None:
        """Hand one message over on the kept session, checked once: `message` gives its bytes and
        MAIL FROM options for what this session offers (8BITMIME, SMTPUTF8). A failure closes the
        session: after an error midway its state is unknown, so the next message starts afresh."""
        client = self.connection()
        data, options = message(client)
        try:
            client.sendmail(sender, list(recipients), data, mail_options=list(options))
        except smtplib.SMTPRecipientsRefused:
            client.rset()  # the session itself is fine: only this address was refused
            raise
        except (OSError, smtplib.SMTPException):
            self.close()
            raise

    def close(self) -> None:
        if self._client is not None:
            close_quietly(self._client)
            self._client = None


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

"""Mail handed to a local aiosmtpd relay (in a process of its own), messages per second with one
connection per message (as before the kept connection: TCP, greeting, EHLO, and with STARTTLS the
TLS handshake, a second EHLO and AUTH, then QUIT, for each) and with the worker's kept connection
(a NOOP only before reusing a session idle for a while, so none within a burst), side by side in one
run: the SMTP transaction alone (the message's bytes made beforehand: what the connection changes),
the hand-over (the message built and sent, as the worker does), and the whole `deliver` (lease, mark
sent, SMTP, commit on SQLite, whose two commits per message stay as they are).
Twice: a plain relay, and one that asks for STARTTLS and AUTH as a deployment's relay does
(SMTP_SECURITY=starttls, SMTP_USER).

    .venv/bin/python bench/mail.py [--messages 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import logging
import multiprocessing
import multiprocessing.synchronize
import os
import ssl
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from harness import free_port
from sqlmodel import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service import create_app
from service.eventlog.models import MailStatus, OutboxMail
from service.mail.delivery import deliver, encoded, hand_over, return_path
from service.mail.relay import Relay, RelaySettings, kept_relay
from service.runtime import Runtime

ROWS = (
    "transaction, one connection per message",
    "transaction, kept connection",
    "hand-over, one connection per message",
    "hand-over, kept connection",
    "deliver, one connection per message",
    "deliver, kept connection",
)


class Sink:
    """Takes every message and keeps nothing but the count."""

    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        self.count += 1
        return "250 OK"


def pending_rows(rt: Runtime, count: int) -> list[int]:
    """`count` turn mails waiting in the outbox, as drafting writes them."""
    now = rt.clock.now()
    rows = [
        OutboxMail(
            kind="your_turn",
            seat=0,
            to_name="Ann",
            to_email=f"ann{n}@example.org",
            subject="Red and Black Duel — Ann, Bo",
            text_body="Your move.\n\nhttp://localhost/play/" + "x" * 120 + "\n",
            html_body="<p>Your move.</p>",
            message_id=f"<bench.{n}.{time.monotonic_ns()}@pbem.localhost>",
            thread_id="<bench@pbem.localhost>",
            unsubscribe_url="http://localhost/unsubscribe/" + "t" * 90,
            reply_to="play+abc.def@pbem.localhost",
            status=MailStatus.PENDING,
            created_at=now,
            next_attempt_at=now,
        )
        for n in range(count)
    ]
    with Session(rt.engine, expire_on_commit=False) as session:
        session.add_all(rows)
        session.commit()
        return [row.id for row in rows if row.id is not None]


def rate(rt: Runtime, ids: list[int], after_each: Callable[[], None]) -> float:
    """Messages per second delivered from these rows (the whole `deliver`)."""
    started = time.perf_counter()
    for mail_id in ids:
        assert deliver(rt, mail_id) is True
        after_each()
    return len(ids) / (time.perf_counter() - started)


def hand_over_rate(rt: Runtime, mails: list[OutboxMail], kept: bool, bytes_ready: bool) -> tuple[float, int]:
    """Messages per second handed to the relay, and the connections it took: built as the worker
    builds them, or with `bytes_ready` made beforehand (the SMTP transaction alone)."""
    ready = {mail.id: encoded(rt, mail, True) for mail in mails} if bytes_ready else {}
    relay = Relay(RelaySettings.of(rt.settings))
    started = time.perf_counter()
    for mail in mails:
        if bytes_ready:
            made = ready[mail.id]
            relay.send(return_path(rt, mail), mail.to_email, lambda _session, made=made: made)
        else:
            hand_over(rt, relay, mail)
        if not kept:
            relay.close()
    elapsed = time.perf_counter() - started
    relay.close()
    return len(mails) / elapsed, relay.handshakes


def loaded(rt: Runtime, ids: list[int]) -> list[OutboxMail]:
    with Session(rt.engine, expire_on_commit=False) as session:
        return [mail for mail_id in ids if (mail := session.get(OutboxMail, mail_id)) is not None]


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, which the client is told to trust (SSL_CERT_FILE)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "relay.pem", folder / "relay.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_file, key_file


def accept_anyone(*_: object) -> AuthResult:
    return AuthResult(success=True)


def serve_relay(port: int, tls: tuple[Path, Path] | None, ready: multiprocessing.synchronize.Event) -> None:
    """The relay's process: aiosmtpd, plain or with STARTTLS and AUTH required, until killed."""
    logging.getLogger("mail.log").setLevel(logging.ERROR)  # aiosmtpd logs its own deprecation at each AUTH
    options: dict[str, object] = {}
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*tls)
        options = {"tls_context": context, "require_starttls": True, "authenticator": accept_anyone}
    Controller(Sink(), hostname="127.0.0.1", port=port, **options).start()
    ready.set()
    while True:
        time.sleep(3600)


def measure(
    port: int, settings: dict[str, object], messages: int, rounds: int
) -> dict[str, tuple[list[float], int]]:
    """Each way's speeds over the rounds, and the connections it took."""
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        app = create_app(
            {
                "DATABASE_URL": database,
                "SECRET_KEY": "bench",
                "SMTP_HOST": "127.0.0.1",
                "SMTP_PORT": port,
                **settings,
            }
        )
        with app.app_context():
            rt: Runtime = app.extensions["pbem"]
            mails = loaded(rt, pending_rows(rt, messages))
            results: dict[str, list[float]] = {name: [] for name in ROWS}
            connections: dict[str, int] = {ROWS[4]: messages}
            for _ in range(rounds):  # alternated, so that a drifting machine drifts for both
                for kept in (False, True):
                    for row, bytes_ready in ((ROWS[kept], True), (ROWS[2 + kept], False)):
                        speed, connections[row] = hand_over_rate(rt, mails, kept, bytes_ready)
                        results[row].append(speed)
                relay = kept_relay(rt.settings)
                results[ROWS[4]].append(rate(rt, pending_rows(rt, messages), relay.close))
                relay.close()
                before = relay.handshakes
                results[ROWS[5]].append(rate(rt, pending_rows(rt, messages), lambda: None))
                connections[ROWS[5]] = relay.handshakes - before
                relay.close()
    return {name: (speeds, connections[name]) for name, speeds in results.items()}


def report(title: str, results: dict[str, tuple[list[float], int]]) -> None:
    print(title)
    print(f"{'':<38}{'msg/s (best)':>14}{'msg/s (median)':>16}{'connections':>13}")
    for name, (speeds, connections) in results.items():
        print(f"{name:<38}{max(speeds):>14.0f}{statistics.median(speeds):>16.0f}{connections:>13}")
    best = {name: max(speeds) for name, (speeds, _) in results.items()}
    transaction, handed, whole = (best[ROWS[n + 1]] / best[ROWS[n]] for n in (0, 2, 4))
    print(f"speed-up of the kept connection: transaction {transaction:.1f}x,", end=" ")
    print(f"hand-over {handed:.1f}x, whole deliver {whole:.1f}x\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tls = self_signed(Path(folder))
        os.environ["SSL_CERT_FILE"] = str(tls[0])  # the client trusts the relay's own certificate
        for title, relay_tls, settings in (
            ("plain SMTP", None, {}),
            (
                "STARTTLS and AUTH",
                tls,
                {"SMTP_SECURITY": "starttls", "SMTP_USER": "worker", "SMTP_PASSWORD": "pw"},
            ),
        ):
            port, ready = free_port(), multiprocessing.Event()
            relay = multiprocessing.Process(target=serve_relay, args=(port, relay_tls, ready), daemon=True)
            relay.start()
            ready.wait(30)
            try:
                results = measure(port, settings, args.messages, args.rounds)
            finally:
                relay.kill()
            report(
                f"{title} to a local aiosmtpd relay: {args.messages} messages x {args.rounds} rounds", results
            )


if __name__ == "__main__":
    main()

"""DKIM signatures (RFC 6376, dkimpy) on every outgoing message when a key and selector are set, and
the key and DNS record `pbem dkim-key` makes."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

# The headers a signature covers: those a forger would change to pass a mail off as ours, and the
# unsubscribe headers a mailbox provider acts on (RFC 8058 asks for them to be signed).
SIGNED_HEADERS = (
    b"From",
    b"To",
    b"Subject",
    b"Date",
    b"Message-ID",
    b"Reply-To",
    b"In-Reply-To",
    b"References",
    b"List-Id",
    b"List-Unsubscribe",
    b"List-Unsubscribe-Post",
    b"Auto-Submitted",
    b"Content-Type",
    b"MIME-Version",
)
KEY_BITS = 2048


@dataclass(frozen=True)
class DkimKey:
    selector: str
    domain: str
    private_key: bytes  # PEM

    @classmethod
    def of(cls, settings: dict[str, Any]) -> DkimKey | None:
        """The configured key (DKIM_PRIVATE_KEY: a PEM file's path or the PEM itself) for
        DKIM_DOMAIN, else for the domain of MAIL_FROM; or None."""
        key, selector = settings.get("DKIM_PRIVATE_KEY"), settings.get("DKIM_SELECTOR")
        if not key or not selector:
            return None
        pem = key.encode() if "-----BEGIN" in key else Path(key).read_bytes()
        domain = settings.get("DKIM_DOMAIN") or parseaddr(settings["MAIL_FROM"])[1].rpartition("@")[2]
        return cls(selector, domain, pem)


def sign(message: bytes, key: DkimKey) -> bytes:
    """The message with its DKIM-Signature header first (relaxed/relaxed canonicalisation, which
    survives the re-folding and whitespace changes of relays on the way)."""
    signature: bytes = dkim.sign(
        message,
        key.selector.encode(),
        key.domain.encode(),
        key.private_key,
        canonicalize=(b"relaxed", b"relaxed"),
        include_headers=[name for name in SIGNED_HEADERS if _has_header(message, name)],
    )
    return signature + message


def _has_header(message: bytes, name: bytes) -> bool:
    """Whether the message has this header: a signed header that is absent would make adding it
    later break the signature, which is the point, but only the ones present are listed."""
    head = message.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return any(line.lower().startswith(name.lower() + b":") for line in head.splitlines())


def new_key() -> bytes:
    """A new RSA private key for signing, PEM (PKCS#1, as dkimpy reads it)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )


def dns_record(private_key: bytes) -> str:
    """The TXT record's value to publish at `<selector>._domainkey.<domain>` for this key."""
    key = serialization.load_pem_private_key(private_key, password=None)
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return f"v=DKIM1; k=rsa; p={base64.b64encode(public).decode()}"

"""Web Push's VAPID keys (RFC 8292): one P-256 key pair for the service, made once by
`pbem vapid-keys` (py_vapid). Its private half is the setting VAPID_PRIVATE_KEY (the raw key,
base64url); the public half, which browsers subscribe with, follows from it, so the two cannot
disagree. Each push carries a JWT signed with it, naming the push service's origin (`aud`), an
expiry (`exp`) and whom the push service may contact (`sub`: VAPID_SUBJECT, else MAIL_FROM's address)."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from email.utils import parseaddr
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid, Vapid02

JWT_LIFETIME_SECONDS = 12 * 3600  # RFC 8292 allows at most 24 hours


@dataclass(frozen=True)
class VapidKeys:
    """A key pair as the settings and a browser's `applicationServerKey` take it (base64url)."""

    private: str
    public: str


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def keys_of(key: Vapid02) -> VapidKeys:
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    return VapidKeys(
        base64url(raw), base64url(key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    )


def new_keys() -> VapidKeys:
    """A fresh key pair."""
    key = Vapid()
    key.generate_keys()
    return keys_of(key)


@cache
def _loaded(private: str) -> Vapid02:
    try:
        return Vapid.from_string(private)
    except (ValueError, TypeError) as error:  # bad base64, or not a P-256 key
        raise ValueError("VAPID_PRIVATE_KEY is not a key made by `pbem vapid-keys`") from error


def signer(settings: dict[str, Any]) -> Vapid02 | None:
    """The service's VAPID key, or None when Web Push is not set up (no VAPID_PRIVATE_KEY)."""
    private = str(settings["VAPID_PRIVATE_KEY"]).strip()
    return _loaded(private) if private else None


def check_key(settings: dict[str, Any]) -> None:
    """ValueError at start for a VAPID_PRIVATE_KEY that is no key, rather than on the first seat page."""
    signer(settings)


def public_key(settings: dict[str, Any]) -> str:
    """The public key browsers subscribe with ("" when Web Push is not set up)."""
    key = signer(settings)
    return keys_of(key).public if key is not None else ""


def subject(settings: dict[str, Any]) -> str:
    """Whom a push service may contact about our pushes: VAPID_SUBJECT, else MAIL_FROM as a mailto."""
    return str(settings["VAPID_SUBJECT"]) or "mailto:" + parseaddr(settings["MAIL_FROM"])[1]


def vapid_headers(key: Vapid02, settings: dict[str, Any], endpoint: str) -> dict[str, str]:
    """The Authorization header of one push to `endpoint`: a JWT for the endpoint's origin."""
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + JWT_LIFETIME_SECONDS,  # the push service's real clock judges it
        "sub": subject(settings),
    }
    return key.sign(claims)

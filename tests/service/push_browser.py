"""What a browser holds for Web Push, and what a push service checks, for the tests' local push
endpoint (tests/service/receiver.py on 127.0.0.1): the browser's own P-256 key pair and 16-byte
secret, the subscription it would post, the decryption of a push with those keys (http_ece,
aes128gcm, RFC 8291), and the check of its VAPID JWT (RFC 8292: ES256 under the key named in the
header, `aud` the endpoint's origin, `exp` within a day, `sub` the service's contact)."""

from __future__ import annotations

import base64
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.service.receiver import Received


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's push keys, as `PushManager.subscribe()` makes them."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """The subscription as the browser's `toJSON()` gives it."""
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def opened(self, push: Received) -> dict[str, Any]:
        """The notice a push carries, decrypted as the browser does (only these keys can)."""
        assert push.headers["Content-Encoding"] == "aes128gcm"
        plain = http_ece.decrypt(push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        notice: dict[str, Any] = json.loads(plain)
        return notice


def vapid_claims(push: Received, endpoint: str, public_key: str) -> dict[str, Any]:
    """The VAPID JWT's claims once its ES256 signature is checked against the service's public key;
    AssertionError if the header, the key, the signature, `aud` or `exp` is wrong."""
    scheme, _, params = push.headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # InvalidSignature if forged
    payload: dict[str, Any] = json.loads(unb64url(claims))
    origin = urlsplit(endpoint)
    assert payload["aud"] == f"{origin.scheme}://{origin.netloc}"
    assert time.time() < payload["exp"] <= time.time() + 24 * 3600
    return payload

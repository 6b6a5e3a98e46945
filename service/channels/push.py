"""Web Push to a phone's or desktop's browser. The seat's page subscribes the browser (its service
worker, /sw.js) with the service's VAPID public key and posts the subscription: the push service's
endpoint, which is a secret like any channel's URL, and the browser's keys. Each notice is the
webhook's JSON, encrypted for those keys by pywebpush (aes128gcm, RFC 8291), signed with a VAPID JWT
(RFC 8292) and POSTed through the channels' one bounded request (http.py: a few seconds' timeouts, no
redirect followed, a few KiB of the answer read, public addresses only), which pywebpush's own
sending would not keep to. A push service answering 404 or 410 has ended the subscription for good:
ChannelGone, and the channel is removed; any other failure is tried again later."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from pywebpush import WebPusher

from rules.messages import N_
from service.channels.http import checked_url, post, taken
from service.channels.kinds import ChannelGone, ChannelRefused, DeliveryFailed, Payload, Secret
from service.channels.vapid import signer, vapid_headers
from service.channels.webhook import body_of

GONE = frozenset({404, 410})  # RFC 8030: the subscription expired or was ended
TTL_SECONDS = 24 * 3600  # a device offline longer hears of its move by mail
AUTH_SECRET_BYTES = 16


class Push:
    name = "push"

    def checked(self, settings: dict[str, Any], address: str) -> tuple[Secret, str]:
        """`address` is the browser's subscription as its `toJSON()` gives it."""
        if signer(settings) is None:
            raise ChannelRefused(N_("Notifications to a browser are not set up on this service."))
        subscription = parsed(address)
        host = checked_url(settings, subscription["endpoint"])
        return subscription, f"Web Push ({host})"

    def send(self, settings: dict[str, Any], secret: Secret, payload: Payload) -> None:
        key = signer(settings)
        if key is None:
            raise DeliveryFailed("Web Push is no longer set up (no VAPID_PRIVATE_KEY)")
        endpoint = secret["endpoint"]
        headers = {
            **vapid_headers(key, settings, endpoint),
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
            "TTL": str(TTL_SECONDS),
        }
        body = WebPusher(secret).encode(body_of(payload), "aes128gcm")["body"]
        status = post(settings, endpoint, body, headers)
        if status in GONE:
            raise ChannelGone(f"the push service answered {status}")
        taken(status)


def parsed(address: str) -> Secret:
    """The parts of a subscription kept: its endpoint and the browser's two keys (a P-256 public key
    and a 16-byte secret). ChannelRefused for anything else."""
    try:
        given = json.loads(address)
        endpoint, keys = given["endpoint"], given["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
        if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
            raise TypeError("not text")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), from_base64url(p256dh))
        if len(from_base64url(auth)) != AUTH_SECRET_BYTES:
            raise ValueError("not a 16-byte secret")
    except (ValueError, TypeError, KeyError, binascii.Error):
        raise ChannelRefused(N_("This is not a browser's push subscription.")) from None
    return {"endpoint": endpoint.strip(), "keys": {"p256dh": p256dh, "auth": auth}}


def from_base64url(text: str) -> bytes:
    """Base64url without its padding, as browsers give a subscription's keys."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

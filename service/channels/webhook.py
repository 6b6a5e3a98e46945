"""The generic JSON webhook, for people who build their own: each notice is POSTed as JSON, signed
like GitHub's webhooks with HMAC-SHA256 of the body under the channel's own key, in the header
`X-Pbem-Signature-256: sha256=<hex>`; `X-Pbem-Delivery` names the notice (the same on a retry)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from service.channels.http import checked_url, post, taken
from service.channels.kinds import Payload, Secret

SIGNATURE_HEADER = "X-Pbem-Signature-256"


def signature(key: str, body: bytes) -> str:
    """The signature header's value for a body signed with a channel's key."""
    return "sha256=" + hmac.new(key.encode(), body, hashlib.sha256).hexdigest()


def body_of(payload: Payload) -> bytes:
    """A notice's JSON as sent (the fields of the payload; the delivery id goes in a header)."""
    return json.dumps({k: v for k, v in payload.items() if k != "delivery"}, ensure_ascii=False).encode()


class Webhook:
    name = "webhook"

    def checked(self, settings: dict[str, Any], address: str) -> tuple[Secret, str]:
        host = checked_url(settings, address)
        return {"url": address.strip(), "key": secrets.token_hex(24)}, host

    def send(self, settings: dict[str, Any], secret: Secret, payload: Payload) -> None:
        body = body_of(payload)
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": "pbem-cards",
            "X-Pbem-Event": str(payload["event"]),
            "X-Pbem-Delivery": str(payload.get("delivery", "")),
            SIGNATURE_HEADER: signature(secret["key"], body),
        }
        taken(post(settings, secret["url"], body, headers))

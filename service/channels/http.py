"""One bounded HTTP POST for the channels that speak HTTP themselves (the webhook, Web Push): a few
seconds' timeouts, no redirect followed, at most a few KiB of the answer read, public addresses only."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import requests

from rules.messages import N_
from service.channels.guard import AddressRefused, guarded, public_addresses
from service.channels.kinds import ChannelRefused, DeliveryFailed

MAX_ANSWER_BYTES = 4096


def checked_url(settings: dict[str, Any], url: str) -> str:
    """An http(s) URL whose host resolves to a public address (checked again when sent); its host
    for the owner's label. ChannelRefused otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ChannelRefused(N_("Give a full web address, starting with https://."))
    try:
        public_addresses(parts.hostname, parts.port or 443, bool(settings["CHANNEL_ALLOW_LOOPBACK"]))
    except AddressRefused:
        raise ChannelRefused(
            N_("%(host)s cannot be reached or is a private address: give a public one."), host=parts.hostname
        ) from None
    except ValueError:  # a port out of range
        raise ChannelRefused(N_("Give a full web address, starting with https://.")) from None
    return parts.hostname


def post(settings: dict[str, Any], url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST `body` to `url`; the answer's status. DeliveryFailed if no answer came (the words name
    the failure, never the URL)."""
    timeout = settings["CHANNEL_TIMEOUT_SECONDS"]
    try:
        with guarded(settings):
            response = requests.post(
                url, data=body, headers=headers, timeout=timeout, allow_redirects=False, stream=True
            )
            try:
                response.raw.read(MAX_ANSWER_BYTES)
            finally:
                response.close()
    except AddressRefused:
        raise DeliveryFailed("the address is private or cannot be found") from None
    except requests.Timeout:
        raise DeliveryFailed("no answer in time") from None
    except (requests.RequestException, OSError) as error:
        raise DeliveryFailed(f"no connection ({type(error).__name__})") from None
    return response.status_code


def taken(status: int) -> None:
    """DeliveryFailed unless the answer's status says the notice was taken (2xx)."""
    if not 200 <= status < 300:
        raise DeliveryFailed(f"the endpoint answered {status}")

"""One bounded HTTP POST for the channels that speak HTTP themselves (the webhook, Web Push): a few
seconds' timeouts, no redirect followed, at most a few KiB of the answer read, public addresses only.

Connections are kept between notices (one pool per host, shared by the process's threads), so a
burst of notices to one push service or webhook host pays one TCP and TLS handshake, not one each. A
kept connection is one the address guard let open; proxies from the environment are not used (the
guard checks the address actually connected to, which a proxy would hide). An answer longer than
what is read closes its connection instead of returning it to the pool."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import urllib3
from urllib3.exceptions import HTTPError, TimeoutError

from rules.messages import N_
from service.channels.guard import AddressRefused, guarded, public_addresses
from service.channels.kinds import ChannelRefused, DeliveryFailed

MAX_ANSWER_BYTES = 4096
KEPT_HOSTS = 64  # hosts whose idle connections a process keeps (the least recently used go first)
KEPT_PER_HOST = 8  # as many as the threads that deliver notices side by side

_pool = urllib3.PoolManager(num_pools=KEPT_HOSTS, maxsize=KEPT_PER_HOST, retries=False)


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
    seconds = settings["CHANNEL_TIMEOUT_SECONDS"]
    try:
        with guarded(settings):
            response = _pool.request(
                "POST",
                url,
                body=body,
                headers=headers,
                timeout=urllib3.Timeout(connect=seconds, read=seconds),
                redirect=False,
                preload_content=False,
            )
            try:
                response.read(MAX_ANSWER_BYTES)  # a whole short answer gives its connection back
            finally:
                response.close()  # a longer one's connection is closed, its rest never read
    except TimeoutError:
        raise DeliveryFailed("no answer in time") from None
    except (HTTPError, OSError, ValueError) as error:
        if _refused(error):
            raise DeliveryFailed("the address is private or cannot be found") from None
        raise DeliveryFailed(f"no connection ({type(error).__name__})") from None
    return response.status


def _refused(error: BaseException | None) -> bool:
    """Whether the address guard refused the connection (urllib3 wraps its error in its own)."""
    while error is not None:
        if isinstance(error, AddressRefused):
            return True
        error = error.__cause__ or error.__context__
    return False


def taken(status: int) -> None:
    """DeliveryFailed unless the answer's status says the notice was taken (2xx)."""
    if not 200 <= status < 300:
        raise DeliveryFailed(f"the endpoint answered {status}")

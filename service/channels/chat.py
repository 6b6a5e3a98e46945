"""A chat or phone app by URL: Discord, Slack, Matrix, Telegram, ntfy, Mattermost... any service
Apprise knows that speaks HTTP (one URL field, Apprise's own syntax or the service's webhook URL).
Services that would open other sockets (mail, XMPP, syslog, desktop notifications) are refused:
only HTTP goes through the address guard.

Apprise's plugins post with `requests.post`, which opens a new session for every call. Inside
`guarded()` that session is `_GuardedSession`: it takes neither proxies nor credentials from the
environment (a proxy would hide the address the guard checks, and let a notice reach what the guard
refuses), sends on connections kept between notices, one pool per host for the process, and reads
at most 64 KiB of an answer, as service/channels/http.py does for the webhook and Web Push. Each
address's notifier is made once and kept (Apprise parses the URL anew each time it makes one)."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import apprise
import requests
from requests import PreparedRequest, Response
from requests.adapters import HTTPAdapter

from rules.messages import N_
from service.channels.guard import AddressRefused, HostNotFound, guarded, guarding, public_addresses
from service.channels.http import KEPT_HOSTS, KEPT_PER_HOST
from service.channels.kinds import ChannelRefused, DeliveryFailed, Payload, Secret

# Apprise's own lines may quote a service's URL with its token: only its errors are kept, without them.
logging.getLogger("apprise").setLevel(logging.CRITICAL)

HTTP_SCHEMES = frozenset(
    {
        "discord", "slack", "matrix", "matrixs", "tgram", "ntfy", "ntfys", "mmost", "mmosts", "msteams",
        "workflow", "workflows", "gotify", "gotifys", "pover", "rocket", "rockets", "zulip", "gchat",
        "guilded", "ryver", "signal", "signals", "pbul", "mastodon", "mastodons", "misskey", "misskeys",
        "nctalk", "nctalks", "revolt", "lametric", "lametrics", "ifttt", "join", "json", "jsons",
    }
)  # fmt: skip


KEPT_NOTIFIERS = 256  # addresses whose notifiers a process keeps (the least recently used go first)
# A service's JSON answer (a Matrix login, a Telegram update) may be longer than the webhook's 4 KiB.
MAX_CHAT_ANSWER_BYTES = 64 * 1024


class _KeptAdapter(HTTPAdapter):
    """Connections kept for the process's later notices (a session's end does not close them), and
    at most MAX_CHAT_ANSWER_BYTES of an answer read: a longer one's connection is closed instead of
    returned to the pool, its rest never read."""

    def send(self, request: PreparedRequest, *args: Any, **kwargs: Any) -> Response:
        response = super().send(request, *args, **{**kwargs, "stream": True})
        try:
            response._content = response.raw.read(MAX_CHAT_ANSWER_BYTES)  # what requests then reads
        finally:
            response.raw.close()
        return response

    def close(self) -> None:
        pass


_kept = _KeptAdapter(pool_connections=KEPT_HOSTS, pool_maxsize=KEPT_PER_HOST, max_retries=0)


class _GuardedSession(requests.Session):
    def __init__(self) -> None:
        super().__init__()
        if guarding():
            self.trust_env = False
            self.mount("https://", _kept)
            self.mount("http://", _kept)


requests.sessions.Session = _GuardedSession  # type: ignore[misc]  # what requests.post opens


def plugin_of(address: str) -> Any:
    """Apprise's notifier for an address, or None if it is not one Apprise knows."""
    return _notifier(address.strip())


@lru_cache(maxsize=KEPT_NOTIFIERS)
def _notifier(address: str) -> Any:
    notifier = apprise.Apprise.instantiate(address)
    if notifier is not None:
        # Apprise spaces one notifier's requests by sleeping (5.5 s by default); it never did here,
        # with a new notifier for each notice, and a channel's notices are spaced by the game.
        notifier.request_rate_per_sec = 0
    return notifier


def is_chat(address: str) -> bool:
    """Whether Apprise knows the address as a service's (a plain https:// URL is the webhook's)."""
    return plugin_of(address) is not None


class Chat:
    name = "chat"

    def checked(self, settings: dict[str, Any], address: str) -> tuple[Secret, str]:
        plugin = plugin_of(address)
        if plugin is None:
            raise ChannelRefused(N_("This address is not one of a chat or phone app that is known here."))
        if plugin.secure_protocol not in HTTP_SCHEMES and plugin.protocol not in HTTP_SCHEMES:
            raise ChannelRefused(
                N_("Notices cannot go to %(service)s from here."), service=plugin.service_name
            )
        host = urlsplit(address.strip()).hostname
        if host and _resolves_private(settings, host):
            raise ChannelRefused(N_("%(host)s is a private address: give a public one."), host=host)
        return {"url": address.strip()}, str(plugin.service_name)

    def send(self, settings: dict[str, Any], secret: Secret, payload: Payload) -> None:
        plugin = plugin_of(secret["url"])
        if plugin is None:
            raise DeliveryFailed("the address is no longer understood")
        timeout = settings["CHANNEL_TIMEOUT_SECONDS"]
        plugin.socket_connect_timeout = plugin.socket_read_timeout = timeout
        plugin.redirects = False
        with guarded(settings):
            sent = plugin.notify(title=payload["title"], body=f"{payload['text']}\n{payload['url']}")
        if not sent:
            raise DeliveryFailed(f"{plugin.service_name} did not take the notice")


def _resolves_private(settings: dict[str, Any], host: str) -> bool:
    """Whether a host that resolves names only addresses a channel may not reach (a host that does
    not resolve, like Discord's webhook id in `discord://id/token`, is the service's own)."""
    try:
        public_addresses(host, 443, bool(settings["CHANNEL_ALLOW_LOOPBACK"]))
    except HostNotFound:
        return False
    except AddressRefused:
        return True
    return False

"""A chat or phone app by URL: Discord, Slack, Matrix, Telegram, ntfy, Mattermost... any service
Apprise knows that speaks HTTP (one URL field, Apprise's own syntax or the service's webhook URL).
Services that would open other sockets (mail, XMPP, syslog, desktop notifications) are refused:
only HTTP goes through the address guard."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import apprise

from rules.messages import N_
from service.channels.guard import AddressRefused, HostNotFound, guarded, public_addresses
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


def plugin_of(address: str) -> Any:
    """Apprise's notifier for an address, or None if it is not one Apprise knows."""
    return apprise.Apprise.instantiate(address.strip())


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

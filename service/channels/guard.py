"""No server-side request forgery: a channel's HTTP request may only connect to a public address.
Every channel sends through urllib3 (Apprise by way of `requests`, our webhook and Web Push
directly), whose connections all open in its `create_connection`; inside `guarded()`, that function
resolves the host itself, refuses loopback, private, link-local (the cloud metadata address),
reserved and multicast addresses, and connects to the address it checked. So the check holds for the
address actually connected to, for a redirect's target too, and a name that resolves to another
address a moment later gains nothing; a connection kept for later notices is one it let open.
CHANNEL_ALLOW_LOOPBACK lets loopback through (the tests' local receivers), nothing else."""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import urllib3.util.connection as urllib3_connection

_state = threading.local()
# urllib3's debug lines name each request's path, which may hold a channel's token: never logged.
logging.getLogger("urllib3.connectionpool").setLevel(logging.INFO)
_original = urllib3_connection.create_connection
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(OSError):
    """A channel's host resolves to no address it may connect to."""


class HostNotFound(AddressRefused):
    """A channel's host resolves to no address at all."""


def refused(address: IPAddress, allow_loopback: bool) -> bool:
    """Whether a channel may not connect to this address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return not allow_loopback
    return not address.is_global or address.is_multicast


def public_addresses(host: str, port: int, allow_loopback: bool) -> list[tuple[str, int]]:
    """The addresses of `host` a channel may connect to; AddressRefused if there are none."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise HostNotFound(f"{host!r} cannot be found") from error
    allowed = [
        (str(info[4][0]), port)
        for info in found
        if not refused(ipaddress.ip_address(str(info[4][0]).split("%")[0]), allow_loopback)
    ]
    if not allowed:
        raise AddressRefused(f"{host!r} is a private or local address")
    return allowed


def _create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
    allow_loopback = getattr(_state, "allow_loopback", None)
    if allow_loopback is None:  # not a channel's request
        return _original(address, *args, **kwargs)
    host, port = address
    last: OSError | None = None
    for checked in public_addresses(host, port, allow_loopback):
        try:
            return _original(checked, *args, **kwargs)
        except OSError as error:
            last = error
    assert last is not None
    raise last


urllib3_connection.create_connection = _create_connection


def guarding() -> bool:
    """Whether this thread is inside `guarded()`: sending a channel's notice."""
    return getattr(_state, "allow_loopback", None) is not None


@contextmanager
def guarded(settings: dict[str, Any]) -> Iterator[None]:
    """Within it, this thread's HTTP requests connect to public addresses only."""
    _state.allow_loopback = bool(settings["CHANNEL_ALLOW_LOOPBACK"])
    try:
        yield
    finally:
        _state.allow_loopback = None

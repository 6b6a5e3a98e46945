"""The one small interface every channel kind implements, and the errors it answers with."""

from __future__ import annotations

from typing import Any, Protocol

from rules.messages import Message

Secret = dict[str, Any]  # a channel's address and keys, sealed in the database
Payload = dict[str, Any]  # what one notice says, drafted in its reader's language


class ChannelRefused(ValueError):
    """An address that cannot be a channel; `message` says why, for whoever entered it."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid)
        self.message: Message = (msgid, dict(params))


class DeliveryFailed(OSError):
    """A notice the channel did not take this time (a timeout, an error answer): tried again later.
    Its words never carry the channel's address."""


class ChannelGone(Exception):
    """The channel's far end says it no longer exists (a push subscription answered 404 or 410)."""


class ChannelKind(Protocol):
    """A kind of channel: how an address entered for it is checked, and how a notice goes out."""

    name: str

    def checked(self, settings: dict[str, Any], address: str) -> tuple[Secret, str]:
        """The secret to store for an address entered by its owner, and the label its owner sees;
        ChannelRefused if it cannot be one."""
        ...

    def send(self, settings: dict[str, Any], secret: Secret, payload: Payload) -> None:
        """Deliver one notice; DeliveryFailed to try again later, ChannelGone for an end that is no more."""
        ...

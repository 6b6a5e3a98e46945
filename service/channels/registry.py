"""The channel kinds by name, and which kind an address entered in the URL field is (a browser's
push subscription comes from its own button, never from that field)."""

from __future__ import annotations

from service.channels.chat import Chat, is_chat
from service.channels.kinds import ChannelKind
from service.channels.push import Push
from service.channels.webhook import Webhook

KINDS: dict[str, ChannelKind] = {kind.name: kind for kind in (Chat(), Webhook(), Push())}


def kind_for(address: str) -> ChannelKind:
    """A chat or phone app's address (Apprise knows it) is a chat channel; any other is a webhook."""
    return KINDS["chat"] if is_chat(address) else KINDS["webhook"]

"""A channel's address sealed for the database: encrypted (Fernet: AES with an HMAC) with a key
derived from SECRET_KEY, so that a dump of the database alone does not reveal it."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import datetime
from functools import lru_cache
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy import Update, update
from sqlmodel import col

from service.eventlog.models import Channel

PURPOSE = b"pbem channel addresses"


class Unsealable(Exception):
    """A sealed address this SECRET_KEY cannot open (the key changed since it was stored)."""


def _fernet(settings: dict[str, Any]) -> Fernet:
    return _fernet_of(settings["SECRET_KEY"])


@lru_cache(maxsize=4)  # a process knows one SECRET_KEY (tests a few): the key derived once
def _fernet_of(secret_key: str) -> Fernet:
    key = hashlib.sha256(PURPOSE + b"\0" + secret_key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(settings: dict[str, Any], secret: dict[str, Any]) -> str:
    """The channel's secret (its URL, signing key, subscription) as stored."""
    return _fernet(settings).encrypt(json.dumps(secret, sort_keys=True).encode()).decode()


def unseal(settings: dict[str, Any], sealed: str) -> dict[str, Any]:
    """The channel's secret from its stored form."""
    try:
        opened: dict[str, Any] = json.loads(_fernet(settings).decrypt(sealed.encode()))
    except InvalidToken as error:
        raise Unsealable("the channel was stored under another SECRET_KEY") from error
    return opened


def erased(channel_id: int | None, now: datetime) -> Update:
    """The statement removing a channel: its address erased (a removed channel keeps no secret), the
    row kept for the notices that name it."""
    return update(Channel).where(col(Channel.id) == channel_id).values(sealed="", paused_at=now)

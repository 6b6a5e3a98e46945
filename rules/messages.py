"""Messages of the rules: gettext msgids with parameters, which the service translates, and the
IllegalAction that carries one."""

from __future__ import annotations

from typing import Any

Message = tuple[str, dict[str, Any]]


def N_(msgid: str) -> str:
    """Marks a message for translation without translating it (rules never import Flask-Babel)."""
    return msgid


class IllegalAction(ValueError):
    """An action the rules refuse. `msgid` and `params` let the service translate the message."""

    def __init__(self, msgid: str, **params: Any) -> None:
        self.msgid = msgid
        self.params = params
        super().__init__(msgid % params if params else msgid)


def require(condition: object, msgid: str, **params: Any) -> None:
    """Raise IllegalAction(msgid) unless the condition holds."""
    if not condition:
        raise IllegalAction(msgid, **params)

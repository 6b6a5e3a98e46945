"""Messages of the rules: gettext msgids with parameters, which the service translates, and the
IllegalAction that carries one."""

from __future__ import annotations

from collections.abc import Sequence
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
        super().__init__(plain((msgid, params)))


def require(condition: object, msgid: str, **params: Any) -> None:
    """Raise IllegalAction(msgid) unless the condition holds."""
    if not condition:
        raise IllegalAction(msgid, **params)


def is_message(value: object) -> bool:
    """Whether a message parameter is itself a message (a card's name, a colour...) to translate."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], dict)
    )


def plain(message: Message) -> str:
    """A message in its msgid's language (English), nested messages filled in: for logs and tests;
    readers get it through the service's translation."""
    msgid, params = message
    if not params:
        return msgid
    return msgid % {key: plain(value) if is_message(value) else value for key, value in params.items()}


def word(msgid: str) -> Message:
    """A message without parameters (a suit's or colour's name)."""
    return msgid, {}


def listing(items: Sequence[Message]) -> Message:
    """Several messages (at least one) as one list in words: "A, B, C" (the separator translated too)."""
    joined, *rest = items
    for item in rest:
        joined = (N_("%(list)s, %(item)s"), {"list": joined, "item": item})
    return joined


def together(names: Sequence[str]) -> str | Message:
    """Names (at least one) as one list in words: "A", "A and B", "A, B and C" (the words translated)."""
    *head, last = names
    if not head:
        return last
    joined: str | Message = head[0]
    for name in head[1:]:
        joined = (N_("%(list)s, %(item)s"), {"list": joined, "item": name})
    return N_("%(list)s and %(item)s"), {"list": joined, "item": last}


def stored_message(value: Any) -> Message:
    """A rules message as stored in JSON (its nested messages became lists) made a message again."""
    msgid, params = value
    return msgid, {key: _param(param) for key, param in params.items()}


def _param(value: Any) -> Any:
    is_pair = isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
    return stored_message(value) if is_pair and isinstance(value[1], dict) else value

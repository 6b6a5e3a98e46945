"""Languages: the reader's browser languages among the translations we ship, and rules messages in the
reader's language."""

from __future__ import annotations

from flask import has_request_context, request
from flask_babel import get_babel, gettext

from rules.base import Message


def available_locales() -> list[str]:
    """English plus every language with a compiled translation."""
    return [
        "en",
        *(str(locale) for locale in get_babel().instance.list_translations() if str(locale) != "en"),
    ]


def select_locale() -> str | None:
    """The best match for Accept-Language; outside a request (worker, CLI) the default language."""
    if not has_request_context():
        return None
    return request.accept_languages.best_match(available_locales()) or "en"


def say(message: Message) -> str:
    """A rules message (msgid and parameters) in the reader's language."""
    msgid, params = message
    return gettext(msgid, **params)

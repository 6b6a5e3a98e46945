"""Languages: the reader's browser languages among the translations we ship, and rules messages in the
reader's language."""

from __future__ import annotations

from flask import has_request_context, request
from flask_babel import get_babel, gettext

from rules import card_name
from rules.base import Message, is_message


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
    """A rules message (msgid and parameters) in the reader's language, with any parameter that is
    itself a message (a card's name, a colour) translated too."""
    msgid, params = message
    return gettext(
        msgid, **{key: say(value) if is_message(value) else value for key, value in params.items()}
    )


def card_words(game: str, card: str, *how: str | None) -> str:
    """A card of a game in the reader's language (templates call it as `card_name`): the rules'
    naming, so pages, mails and lines name a card alike."""
    return say(card_name(game, card, *how))

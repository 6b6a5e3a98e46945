"""Languages: each reader's language (a seat's own, else the table's, else the browser's), the rules'
messages in it, and the gettext catalogues compiled from their sources when the app starts."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations
from flask import current_app, g, has_request_context, request
from flask_babel import get_locale, get_translations
from jinja2 import Environment, pass_eval_context
from jinja2.nodes import EvalContext
from markupsafe import Markup

from rules import card_name
from rules.messages import Message, is_message

# The languages the service speaks, each named in itself (the language switch shows these).
LANGUAGES = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"


def known_language(value: object) -> str | None:
    """`value` if it names a language we speak, else None."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def select_locale() -> str:
    """The language of this request: an explicit `?lang=`, else the reader's own (a seat's or the
    table's, set by the link that opened the page), else the switch's cookie, else Accept-Language.
    Outside a request (worker, CLI) English, unless a mail is being drafted in its reader's language."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    return (
        known_language(request.args.get("lang"))
        or known_language(g.get("reader_language"))
        or known_language(request.cookies.get(LANGUAGE_COOKIE))
        or browser_language()
    )


def reader_language() -> str:
    """The language this request's pages are shown in (what the reader chose with the switch, else
    their browser's): a host creating a table means this one for it."""
    return str(get_locale() or DEFAULT_LANGUAGE) if has_request_context() else DEFAULT_LANGUAGE


def browser_language() -> str:
    """The best of our languages for the request's Accept-Language."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


def catalogue() -> NullTranslations:
    """The catalogue of the reader's language. Flask-Babel looks it up anew for every string (7 µs,
    and a page or a mail says some hundreds), so each app keeps the one it found for each language;
    the language itself is read each time, as `force_locale` changes it while a mail is drafted."""
    language = get_locale()
    if language is None:  # outside an app: Flask-Babel's own answer (no translation)
        return get_translations()
    kept: dict[str, NullTranslations] = current_app.extensions.setdefault("catalogues", {})
    found = kept.get(str(language))
    if found is None:
        found = kept[str(language)] = get_translations()
    return found


def install_catalogues(environment: Environment) -> None:
    """Templates translate through `catalogue`, as Jinja's new-style gettext does (the text marked
    safe under autoescape, then formatted with the call's variables), but called directly: Jinja's
    own wrappers go through the template context twice for each of a page's some hundred strings."""
    environment.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        gettext=template_gettext, ngettext=template_ngettext, newstyle=True
    )
    environment.globals.update(gettext=template_gettext, ngettext=template_ngettext, _=template_gettext)


@pass_eval_context
def template_gettext(eval_context: EvalContext, text: str, /, **variables: Any) -> str:
    return _formatted(eval_context, catalogue().ugettext(text), variables)


@pass_eval_context
def template_ngettext(
    eval_context: EvalContext, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    variables.setdefault("num", num)
    return _formatted(eval_context, catalogue().ungettext(singular, plural, num), variables)


def _formatted(eval_context: EvalContext, text: str, variables: dict[str, Any]) -> str:
    """`text % variables`, escaping the variables under autoescape; a text without a `%` is already
    its own result (Jinja formats even without variables, so that `%%` always means `%`)."""
    said = Markup(text) if eval_context.autoescape else text
    return said % variables if "%" in text else said


def say(message: Message) -> str:
    """A rules message (msgid and parameters) in the reader's language, with any parameter that is
    itself a message (a card's name, a colour) translated too."""
    return _said(message, catalogue())


def _said(message: Message, words: NullTranslations) -> str:
    msgid, params = message
    text = words.ugettext(msgid)
    if not params:
        return text
    return text % {key: _said(value, words) if is_message(value) else value for key, value in params.items()}


def card_words(game: str, card: str, *how: str | None) -> str:
    """A card of a game in the reader's language (templates call it as `card_name`): the rules'
    naming, so pages, mails and lines name a card alike."""
    return say(card_name(game, card, *how))


def compiled_catalogues(sources: Path, cache: Path) -> Path:
    """A folder under `cache` holding each language's catalogue under `sources`
    (`<lang>/LC_MESSAGES/messages.po`) compiled, afresh when the source is newer: the tree keeps only
    the sources. Each source folder compiles into its own folder."""
    target = cache / hashlib.sha256(str(sources.resolve()).encode()).hexdigest()[:16]
    for source in sources.glob("*/LC_MESSAGES/messages.po"):
        compiled = target / source.relative_to(sources).with_suffix(".mo")
        if compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime:
            continue
        compiled.parent.mkdir(parents=True, exist_ok=True)
        with source.open("rb") as po:
            catalogue = read_po(po, locale=source.parts[-3])
        partial = compiled.with_suffix(f".{id(catalogue)}.tmp")  # apps starting at once each write theirs
        with partial.open("wb") as mo:
            write_mo(mo, catalogue)
        partial.replace(compiled)
    return target

"""What a player's or host's name may be. Names go into every mail's subject line, so they are short
and plain: letters, digits, spaces and a little punctuation; no web addresses, no control or
invisible characters, nothing that reads as an email address.

Nor may a name pass for another: one that reads as another seat's ("Аnn" with a Cyrillic А next to
Ann), or as the page's own labels ("Ann (you)", "Seat-keeper", "host", in any language the service
speaks). Two names are compared by their skeleton: NFKC, case-folded, each character taken to the
one it is confusable with (Unicode's confusables, by `confusable_homoglyphs`), spaces and hyphens
dropped."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs import confusables
from flask import has_app_context
from flask_babel import force_locale, get_translations

from rules.messages import N_, Message
from service.i18n import LANGUAGES

MAX_NAME = 40
# Besides letters, marks, digits and plain spaces: the punctuation of people's names.
NAME_PUNCTUATION = frozenset("'’-.,()&")
# "www." or a dot joining two words ("shop.example"): a web address (a scheme's ":" is refused anyway).
WEB_ADDRESS = re.compile(r"www\.|\w\.\w\w", re.IGNORECASE)
BOT_NAME = "Seat-keeper"  # a seat the seat-keeper plays from the start, unless its host names it
# What the pages write next to names: "(you)" after the reader's own, and the names of roles. Each
# is taken in every language from the catalogue, so that a new translation is guarded as well.
SELF_LABEL = N_("you")
ROLE_LABELS = (N_("Seat-keeper"), N_("Seat-keeper bot"), N_("host"), BOT_NAME)


def name_refusal(name: str) -> Message | None:
    """Why a name is refused (a message for the host), or None when it is fine."""
    if len(name) > MAX_NAME:
        return N_("A name has at most %(most)s characters."), {"most": MAX_NAME}
    if any(not _allowed(char) for char in name):
        return N_("A name holds letters, digits, spaces and ' - . , ( ) & only."), {}
    if WEB_ADDRESS.search(name):
        return N_("A name cannot hold a web address."), {}
    return None


def _allowed(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LMN" or char == " " or char in NAME_PUNCTUATION


def name_from_address(email: str) -> str:
    """A name for someone known only by their address: its local part, with what a name may not hold
    (dots, plus signs, digits' neighbours alike) made spaces ("ann.lee+cards" -> "ann lee cards")."""
    local = email.partition("@")[0]
    kept = "".join(char if char != "." and _allowed(char) else " " for char in local)
    return " ".join(kept.split())[:MAX_NAME].strip()


@cache
def _look_alikes() -> dict[str, str]:
    """Each character of Unicode's confusables table mapped to one of its class (an ASCII one where
    the class has one), so that look-alikes map to the same character."""
    classes: dict[str, set[str]] = {}
    for char, entries in confusables.confusables_data.items():
        members = {char, *(entry["c"] for entry in entries)}
        for member in list(members):
            members |= classes.get(member, set())
        for member in members:
            classes[member] = members
    return {
        char: min(members, key=lambda m: (not m.isascii(), len(m), m)) for char, members in classes.items()
    }


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, case-folded, confusable characters taken to one of their class,
    spaces, hyphens and dots dropped (parentheses kept: "(you)" is a label's shape)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    look_alikes = _look_alikes()
    mapped = "".join(look_alikes.get(char, char) for char in folded)
    return "".join(char for char in mapped.casefold() if char.isalnum() or char in "()")


def page_labels() -> tuple[set[str], set[str]]:
    """The skeletons of the page's labels in every language the service speaks: "(you)" and the
    roles."""
    words = {SELF_LABEL: {SELF_LABEL}, **{label: {label} for label in ROLE_LABELS}}
    if has_app_context():
        for language in LANGUAGES:
            with force_locale(language):
                for word, spelled in words.items():
                    spelled.add(get_translations().gettext(word))
    selves = {skeleton(f"({you})") for you in words[SELF_LABEL]}
    roles = {skeleton(role) for label in ROLE_LABELS for role in words[label]}
    return selves, roles


def label_refusal(name: str) -> Message | None:
    """Why a person's name is refused for reading as a label of the page, or None."""
    shape = skeleton(name)
    selves, roles = page_labels()
    if any(you in shape for you in selves) or shape in roles or any(f"({role})" in shape for role in roles):
        return N_("A name cannot read as a label of the page, like “(you)”, “host” or “Seat-keeper”."), {}
    return None


def look_alike_refusal(name: str, others: Iterable[str]) -> Message | None:
    """Why a name is refused for reading as one of `others` (the table's other seats), or None."""
    shape = skeleton(name)
    twin = next((other for other in others if skeleton(other) == shape), None)
    if twin is not None:
        return N_(
            "“%(name)s” reads too much like “%(other)s”, who sits at the table: choose another name."
        ), {
            "name": name,
            "other": twin,
        }
    return None

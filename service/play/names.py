"""What a player's or host's name may be. Names go into every mail's subject line, so they are short
and plain: letters, digits, spaces and a little punctuation; no web addresses, no control or
invisible characters, nothing that reads as an email address."""

from __future__ import annotations

import re
import unicodedata

from rules.base import N_, Message

MAX_NAME = 40
# Besides letters, marks, digits and plain spaces: the punctuation of people's names.
NAME_PUNCTUATION = frozenset("'’-.,()&")
# "www." or a dot joining two words ("shop.example"): a web address (a scheme's ":" is refused anyway).
WEB_ADDRESS = re.compile(r"www\.|\w\.\w\w", re.IGNORECASE)


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

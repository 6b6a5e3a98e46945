"""The service's own secrets found in a text, so that none is ever kept where others read it (table
talk): whatever a reply's parser missed, a quoted mail's links and addresses stop here.

The service signs, in `service/links.py`: player, host, watch, "my games", unsubscribe and confirm
links (itsdangerous tokens, `payload.timestamp.signature` in URL-safe base64, under the paths
`/play/`, `/host/`, `/watch/`, `/my/`, `/unsubscribe/`, `/confirm/`), and reply addresses
(`play+<base32>.<hex MAC>@MAIL_DOMAIN`). They are recognised by their shape, not by verifying them:
a token signed with a retired key, cut short or wrapped by a mail program is as private as a live one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

TOKEN_PATHS = ("play", "host", "watch", "my", "unsubscribe", "confirm")
B64 = r"[A-Za-z0-9_\-]"
# An itsdangerous timed token: payload (a leading "." when compressed), timestamp, signature.
SIGNED_TOKEN = re.compile(rf"\.?{B64}{{2,}}\.{B64}{{4,12}}\.{B64}{{16,}}")
REPLY_TOKEN = re.compile(r"[A-Za-z2-7]{4,}\.[0-9A-Fa-f]{16,}")
REPLY_ADDRESS = re.compile(r"play\+[^\s<>\"'@]*(?:@[\w.\-]+)?", re.IGNORECASE)
TOKEN_PATH = re.compile(rf"/(?:{'|'.join(TOKEN_PATHS)})/{B64}[^\s<>\"')\]]*", re.IGNORECASE)
# What is left of a token a mail program wrapped or cut: a long run of its alphabet with letters
# and digits mixed, or base64 of a JSON object ("eyJ" is `{"`). Cut, and what is left is kept
# private to its writer: it may hold the rest.
FRAGMENT = re.compile(rf"(?<!{B64})(?=[A-Za-z_\-]*\d)(?=\d*[A-Za-z])(?:eyJ{B64}{{6,}}|{B64}{{20,}})")
CANDIDATE = re.compile(r"[A-Za-z0-9_.+\-]{12,}")  # a word the signer is asked about
CUT = "[…]"


@dataclass(frozen=True)
class Guarded:
    """A text with every secret of the service cut out (`found`: how many), and whether something
    in what is left might still be part of one (then it is shown to its writer only)."""

    text: str
    found: int
    doubtful: bool


def without_secrets(text: str, base_url: str, signs: Callable[[str], bool] | None = None) -> Guarded:
    """The text with the service's links (any URL under its BASE_URL, any signed path on any host),
    reply addresses and token-shaped strings cut; then, with `signs` (the signer's check), any word
    left that the service signed all the same (a shape no pattern foresaw)."""
    found = 0
    for pattern in (*_own_urls(base_url), REPLY_ADDRESS, TOKEN_PATH, SIGNED_TOKEN, REPLY_TOKEN):
        text, count = pattern.subn(CUT, text)
        found += count
    decoded = unquote(text)  # a link wrapped by a scanner ("safelinks"): its token percent-encoded
    if decoded != text and without_secrets(decoded, base_url).found:
        return Guarded(without_secrets(decoded, base_url).text, found + 1, doubtful=True)
    text, fragments = FRAGMENT.subn(CUT, text)
    signed = [word for word in set(CANDIDATE.findall(text)) if signs and signs(word)]
    for word in signed:
        text = text.replace(word, CUT)
    return Guarded(text, found + len(signed), doubtful=fragments > 0 or bool(signed))


def _own_urls(base_url: str) -> list[re.Pattern[str]]:
    """Any URL on the service's host, with or without its scheme."""
    host = urlsplit(base_url if "//" in base_url else f"//{base_url}").netloc
    if not host:
        return []
    host = re.escape(host)
    return [re.compile(rf"[a-z][a-z0-9+.\-]*://{host}(?:/[^\s<>\"]*)?|{host}/[^\s<>\"]*", re.IGNORECASE)]

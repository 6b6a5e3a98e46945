"""The language switch on every page: a POST (a GET changes nothing) that keeps the choice for the
link it was made on (a player's seat: pages and mails) and, in a cookie, for this browser's other pages."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.i18n import LANGUAGE_COOKIE, known_language
from service.links import LinkError
from service.play.seat_settings import save_seat_language
from service.runtime import runtime

blueprint = Blueprint("language", __name__)
COOKIE_SECONDS = 400 * 86400


# What browsers drop from a URL before reading it (WHATWG URL): "/\t/evil.example" is "//evil.example".
IGNORED_IN_URLS = str.maketrans("", "", "\t\n\r")
C0_AND_SPACE = "".join(map(chr, range(0x21)))  # stripped from both ends of a URL by browsers


def same_site_path(target: str) -> str:
    """`target` if it is a path of this site as a browser would read it, else "/": no scheme, no
    host, not protocol-relative (browsers read a backslash as a slash and skip tabs and newlines)."""
    read = target.translate(IGNORED_IN_URLS).replace("\\", "/").strip(C0_AND_SPACE)
    parts = urlsplit(read)
    if not read.startswith("/") or read.startswith("//") or parts.scheme or parts.netloc:
        return "/"
    return read


@blueprint.post("/language")
def switch() -> Response:
    language = known_language(request.form.get("lang"))
    if language is None:
        abort(400, _("Choose one of the languages offered."))
    back = same_site_path(request.form.get("next", "/"))
    token = request.form.get("token", "")
    if token:
        rt = runtime()
        try:
            link = rt.signer.read_player(token)
        except LinkError:
            link = None  # a host's or spectator's link: the cookie alone keeps the choice
        if link is not None:
            save_seat_language(rt, link.game_id, link.seat, link.key_version, language)
    response = redirect(back, 303)
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True)
    return response

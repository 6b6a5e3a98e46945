"""The language switch on every page: a POST (a GET changes nothing) that keeps the choice for the
link it was made on (a player's seat: pages and mails) and, in a cookie, for this browser's other pages."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.i18n import LANGUAGE_COOKIE, known_language
from service.links import LinkError
from service.play.seat_settings import save_seat_language
from service.runtime import runtime

blueprint = Blueprint("language", __name__)
COOKIE_SECONDS = 400 * 86400


@blueprint.post("/language")
def switch() -> Response:
    language = known_language(request.form.get("lang"))
    if language is None:
        abort(400, _("Choose one of the languages offered."))
    back = request.form.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):  # only back to a page of this site
        back = "/"
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

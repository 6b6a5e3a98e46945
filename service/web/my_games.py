"""My games: the request form's answer (the same for any address), the list of an address's games on
its signed link with the mail settings for all of them, and the JSON twins."""

from __future__ import annotations

from typing import Any

from email_validator import EmailNotValidError, validate_email
from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.clubs.members import clubs_of
from service.links import LinkError
from service.play.address_games import (
    TooManyRequests,
    address_of,
    calendar_url,
    my_games,
    request_link,
    revoke_links,
    save_address_settings,
)
from service.play.seat_settings import SettingsRefused, checked_settings
from service.runtime import runtime
from service.web.access import link_refusal
from service.zones import zone_choices

blueprint = Blueprint("my_games", __name__)
api = Blueprint("my_games_api", __name__, url_prefix="/api")


def checked_address(value: Any) -> str:
    """An email address from untrusted input; 422 unless it looks like one."""
    if not isinstance(value, str) or len(value) > 254:
        abort(422, _("Give an email address like ann@example.org."))
    try:
        validate_email(value.strip(), check_deliverability=False)
    except EmailNotValidError:
        abort(422, _("Give an email address like ann@example.org."))
    return value.strip()


def ask(email: str) -> None:
    """Mail the address its link (429 if asked too often): the same for every address."""
    try:
        request_link(runtime(), email, request.remote_addr or "")
    except TooManyRequests:
        abort(429, too_often())


def too_often() -> str:
    return _("This address or this connection asked too often. Try again in an hour, or tomorrow.")


def revoke(token: str) -> None:
    """The owner stops every link of their address so far and is mailed a new one (429 if the
    address was mailed too often lately)."""
    try:
        revoke_links(runtime(), reader(token), request.remote_addr or "")
    except TooManyRequests:
        abort(429, too_often())


def revoked_message() -> str:
    return _(
        "Every earlier link to this page, this one too, no longer works. "
        "A new one is on its way to the address."
    )


def sent_message() -> str:
    return _(
        "A link to the games of this address is on its way to it. It works for %(num)d days; "
        "the page it opens can stop every earlier link.",
        num=runtime().settings["MY_GAMES_LINK_DAYS"],
    )


def reader(token: str) -> str:
    """The address a "my games" token opens; 403 with a clear message otherwise."""
    try:
        return address_of(runtime(), token)
    except LinkError as error:
        if error.reason == "forged":
            abort(403, link_refusal("forged"))
        abort(
            403,
            _("This link has expired or was replaced by a newer one. Ask for a new one on the home page."),
        )


@blueprint.post("/my-games")
def request_games() -> ResponseReturnValue:
    ask(checked_address(request.form.get("email")))
    return render_template("my_games_asked.html", title=_("My games"), message=sent_message())


@blueprint.get("/my/<token>")
def page(token: str) -> str:
    email = reader(token)
    games = my_games(runtime(), email)
    return render_template(
        "my_games.html",
        calendar=calendar_url(runtime(), email),
        title=_("My games"),
        games=games,
        clubs=clubs_of(runtime(), games.email),
        token=token,
        settings=games.settings,
        zones=zone_choices(games.settings.timezone),
        default_zone=_("each game's"),
        digest_hour=runtime().settings["DIGEST_HOUR"],
        settings_action=url_for("my_games.save_settings", token=token),
        settings_error=None,
    )


@blueprint.post("/my/<token>/settings")
def save_settings(token: str) -> Response:
    email = reader(token)
    try:
        chosen = checked_settings(request.form.get("notify"), request.form.get("timezone", ""))
    except SettingsRefused as refusal:
        abort(422, str(refusal))
    save_address_settings(runtime(), email, chosen)
    flash(_("Your mail settings were saved for all your games."))
    return redirect(url_for("my_games.page", token=token), 303)


@blueprint.post("/my/<token>/revoke")
def revoke_page(token: str) -> ResponseReturnValue:
    revoke(token)
    return render_template("my_games_asked.html", title=_("My games"), message=revoked_message())


@api.post("/my-games")
def request_games_json() -> ResponseReturnValue:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or set(body) != {"email"}:
        abort(400, _('Send a JSON object like {"email": "ann@example.org"}.'))
    ask(checked_address(body["email"]))
    return jsonify({"status": "sent", "message": sent_message()}), 202


@api.get("/my/<token>")
def games_json(token: str) -> ResponseReturnValue:
    return jsonify(my_games(runtime(), reader(token)).as_json())


@api.post("/my/<token>/revoke")
def revoke_json(token: str) -> ResponseReturnValue:
    revoke(token)
    return jsonify({"status": "revoked", "message": revoked_message()}), 202


@api.post("/my/<token>/settings")
def settings_json(token: str) -> ResponseReturnValue:
    """Give every game of the address these settings; keys left out keep the newest game's value."""
    email = reader(token)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not body or set(body) - {"notify", "timezone"}:
        abort(400, _('Send a JSON object like {"notify": "digest", "timezone": "Europe/Paris"}.'))
    current = my_games(runtime(), email).settings
    try:
        chosen = checked_settings(body.get("notify", current.notify), body.get("timezone", current.timezone))
    except SettingsRefused as refusal:
        abort(422, str(refusal))
    seats = save_address_settings(runtime(), email, chosen)
    return jsonify({"settings": chosen.as_json(), "seats": seats})

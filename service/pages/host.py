"""The host's page: the game's players and links, resend or revoke a link, cancel the game, and the
host's notices by mail on or off."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.access import host_access, seat_summary
from service.catalog import entry
from service.fairness import game_commitment
from service.games import cancel_game, resend_link, revoke_link, revoke_watch_link, set_public_replay
from service.notify import game_title, public_replay_url, watch_url
from service.runtime import runtime
from service.seat_settings import set_host_notify

blueprint = Blueprint("host", __name__)


@blueprint.get("/host/<token>")
def page(token: str) -> str:
    table = host_access(runtime(), token)
    return render_template(
        "host.html",
        table=table,
        title=game_title(table),
        entry=entry(table.record.game),
        page=seat_summary(table, None),
        token=token,
        watch=watch_url(runtime(), table),
        public_replay=public_replay_url(runtime(), table),
        commitment=game_commitment(table),
    )


def _game_with_seat(token: str, seat: int) -> str:
    """The id of the host's game, after checking it has that seat."""
    table = host_access(runtime(), token)
    if not 0 <= seat < len(table.seats):
        abort(404, _("This game has no such seat."))
    return table.game_id


@blueprint.post("/host/<token>/seats/<int:seat>/resend")
def resend(token: str, seat: int) -> Response:
    resend_link(runtime(), _game_with_seat(token, seat), seat)
    flash(_("The link was sent again."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/seats/<int:seat>/revoke")
def revoke(token: str, seat: int) -> Response:
    revoke_link(runtime(), _game_with_seat(token, seat), seat)
    flash(_("The old link no longer works; a new one was sent."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/cancel")
def cancel(token: str) -> Response:
    table = host_access(runtime(), token)
    if request.form.get("confirmed") != "yes":
        flash(_("Tick the box to confirm that the game should be cancelled."))
    elif cancel_game(runtime(), table.game_id):
        flash(_("The game was cancelled and the players were told."))
    else:
        flash(_("This game was no longer running."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/notices")
def notices(token: str) -> Response:
    table = host_access(runtime(), token)
    choice = request.form.get("host_notify")
    if choice not in ("on", "off"):
        abort(400, _("Choose whether host notices should come by mail."))
    set_host_notify(runtime(), table.game_id, choice == "on")
    flash(_("Host notices will come by mail.") if choice == "on" else _("Host notices are off."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/public-replay")
def public_replay(token: str) -> Response:
    table = host_access(runtime(), token)
    allowed = request.form.get("public") == "yes"
    set_public_replay(runtime(), table.game_id, allowed)
    if allowed:
        flash(_("Anyone with the public replay link can step through the game once it is over."))
    else:
        flash(_("The public replay link is closed; the players still have their own replay."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/watch/revoke")
def revoke_watch(token: str) -> Response:
    table = host_access(runtime(), token)
    revoke_watch_link(runtime(), table.game_id)
    flash(_("The old spectator link no longer works; share the new one below."))
    return redirect(url_for("host.page", token=token), 303)

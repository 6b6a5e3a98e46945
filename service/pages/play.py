"""The player's page: their view of the game and the legal moves as buttons (GET changes nothing)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.access import SeatAccess, player_access, seat_summary
from service.catalog import entry
from service.fairness import game_commitment
from service.moves import MoveOutcome, MoveStatus, command_outcome, submit_move
from service.notify import game_title, say
from service.runtime import runtime
from service.seat_settings import SeatSettings, SettingsRefused, checked_settings, save_seat_settings
from service.zones import DEFAULT_ZONE, zone_choices

blueprint = Blueprint("play", __name__)

STATUS_CODES = {
    MoveStatus.ACCEPTED: 200,
    MoveStatus.PENDING: 202,
    MoveStatus.REJECTED: 422,
    MoveStatus.STALE: 409,
    MoveStatus.DUPLICATE: 409,
    MoveStatus.CLOSED: 409,
}


def render_seat_page(  # type: ignore[no-untyped-def]
    access: SeatAccess,
    outcome: MoveOutcome | None = None,
    status: int = 200,
    settings_error: str | None = None,
):
    """The player page for a seat, with the outcome of their last submission if any and their mail
    settings (with why the last change was refused, if it was)."""
    table = access.table
    settings = SeatSettings.of(table.seats[access.seat])
    return (
        render_template(
            "play.html",
            page=seat_summary(table, access.seat),
            table=table,
            entry=entry(table.record.game),
            title=game_title(table),
            token=access.token,
            outcome=outcome,
            outcome_text=say(outcome.message) if outcome and outcome.message else None,
            settings=settings,
            zones=zone_choices(settings.timezone),
            default_zone=DEFAULT_ZONE,
            digest_hour=runtime().settings["DIGEST_HOUR"],
            settings_error=settings_error,
            commitment=game_commitment(table),
        ),
        status,
    )


@blueprint.get("/play/<token>")
def page(token: str):  # type: ignore[no-untyped-def]
    rt = runtime()
    access = player_access(rt, token)
    outcome = None
    if request.args.get("cmd", "").isdigit():
        outcome = command_outcome(rt, access.table.game_id, access.seat, int(request.args["cmd"]))
    return render_seat_page(access, outcome)


def parse_move_form(form: Any) -> tuple[int, dict[str, Any]]:
    """The seq and action a move form carries; 400 for anything malformed."""
    try:
        seq = int(form.get("seq", ""))
        action = json.loads(form.get("action", ""))
    except (TypeError, ValueError):
        abort(400, _("This form is incomplete or damaged. Reload the page and choose again."))
    if not isinstance(action, dict):
        abort(400, _("This form is incomplete or damaged. Reload the page and choose again."))
    return seq, action


@blueprint.post("/play/<token>")
def move(token: str) -> Response | tuple[str, int]:
    rt = runtime()
    access = player_access(rt, token)
    seq, action = parse_move_form(request.form)
    game_entry = entry(access.table.record.game)
    if game_entry.needs_confirmation(action) and request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html",
            title=game_title(access.table),
            token=token,
            seq=seq,
            action=action,
            action_json=json.dumps(action),
            page=seat_summary(access.table, access.seat),
            table=access.table,
            entry=game_entry,
        ), 200
    outcome = submit_move(rt, access.table.game_id, access.seat, seq, action)
    if outcome.status in (MoveStatus.ACCEPTED, MoveStatus.PENDING) and outcome.command_id:
        return redirect(url_for("play.page", token=token, cmd=outcome.command_id), 303)
    fresh = player_access(rt, token)
    return render_seat_page(fresh, outcome, STATUS_CODES[outcome.status])


@blueprint.post("/play/<token>/settings")
def save_settings(token: str) -> Response | tuple[str, int]:
    rt = runtime()
    access = player_access(rt, token)
    try:
        chosen = checked_settings(request.form.get("notify"), request.form.get("timezone", ""))
    except SettingsRefused as refusal:
        return render_seat_page(access, status=422, settings_error=str(refusal))
    save_seat_settings(rt, access.table.game_id, access.seat, chosen)
    flash(_("Your mail settings were saved."))
    return redirect(url_for("play.page", token=token), 303)

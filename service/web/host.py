"""The host's page: the game's players and links, resend or revoke a link, cancel the game, decide
for a player out of time (when the game asks the host), sharing the replay, and the host's notices."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from service.catalog import entry
from service.eventlog.models import SeatKeeper
from service.mail.drafting import game_title, player_url, public_replay_url, watch_url
from service.play.hosting import (
    cancel_game,
    resend_link,
    revoke_link,
    revoke_watch_link,
    set_host_notify,
    set_public_replay,
)
from service.play.time_control import MOVE_DAYS
from service.play.timeouts import HostDecision, decide_timeout
from service.play.turn_view import turn_view
from service.reading import table_reading
from service.replay.fairness import game_commitment
from service.runtime import runtime
from service.web.access import host_access, seat_summary
from service.web.forms import HostDecisionForm, HostNoticesForm, PublicReplayForm

blueprint = Blueprint("host", __name__)
DECIDED = {
    HostDecision.KEEPER: _l("The seat-keeper played that move."),
    HostDecision.FORFEIT: _l("The player forfeited; the game is over and everyone was told."),
    HostDecision.MORE_TIME: _l("The player has more time and was told."),
}


@blueprint.get("/host/<token>")
def page(token: str) -> str:
    rt = runtime()
    table = host_access(rt, token)
    return render_template(
        "host.html",
        table=table_reading(table),
        title=game_title(table),
        entry=entry(table.record.game),
        page=seat_summary(table, None),
        turns=turn_view(rt, table, None, host=True),
        grantable_days=MOVE_DAYS,
        token=token,
        watch=watch_url(rt, table),
        seat_links={
            seat.seat: player_url(rt, table, seat.seat)
            for seat in table.seats
            if seat.keeper != SeatKeeper.BOT
        },
        public_replay=public_replay_url(rt, table),
        commitment=game_commitment(table),
    )


def _game_with_seat(token: str, seat: int) -> str:
    """The id of the host's game, after checking it has that seat and the seat has a player."""
    table = host_access(runtime(), token)
    if not 0 <= seat < len(table.seats):
        abort(404, _("This game has no such seat."))
    if table.seats[seat].keeper == SeatKeeper.BOT:
        abort(400, _("This seat is played by the seat-keeper: it has no link."))
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
    form = HostNoticesForm()
    if not form.validate():
        abort(400, form.refusal())
    choice = form.host_notify.data
    set_host_notify(runtime(), table.game_id, choice == "on")
    flash(_("Host notices will come by mail.") if choice == "on" else _("Host notices are off."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/public-replay")
def public_replay(token: str) -> Response:
    table = host_access(runtime(), token)
    form = PublicReplayForm()
    if not form.validate():
        abort(400, form.refusal())
    allowed = form.public.data == "yes"
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


@blueprint.post("/host/<token>/clocks/<int:clock_id>")
def decide(token: str, clock_id: int) -> Response:
    rt = runtime()
    table = host_access(rt, token)
    form = HostDecisionForm()
    if not form.validate():
        abort(400, form.refusal())
    decision = HostDecision(form.decision.data)
    if decide_timeout(rt, table.game_id, clock_id, decision, form.granted_days()):
        flash(str(DECIDED[decision]))
    else:
        flash(_("That player no longer waits for a decision: they moved, or the game ended."))
    return redirect(url_for("host.page", token=token), 303)

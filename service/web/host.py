"""The host's page: the game's players and links, resend or revoke a link, cancel the game, decide
for a player out of time (when the game asks the host), the takeovers (a seat given to a new player,
the seat-keeper in or out, more time, a draw or a forfeit), sharing the replay, and the host's
notices."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response

from rules import IllegalAction
from rules.table import BOT_LEVELS, KEEPER
from service.channels.seats import seat_channels
from service.eventlog.models import SeatKeeper
from service.eventlog.store import Table
from service.i18n import say
from service.links import LinkError
from service.localtime import as_utc
from service.mail.drafting import player_url, public_replay_url, watch_url
from service.mail.unreachable import Unreachable
from service.play.addresses import correct_address, correct_host_address
from service.play.hosting import (
    cancel_game,
    declare_draw,
    declare_forfeit,
    give_more_time,
    keep_seat,
    replace_player,
    resend_link,
    revoke_host_link,
    revoke_link,
    revoke_watch_link,
    set_host_notify,
    set_public_replay,
)
from service.play.table_talk import hide_talk
from service.play.time_control import MOVE_DAYS
from service.play.timeouts import HostDecision, decide_timeout
from service.play.turn_view import turn_view
from service.reading import onlooker_context, seat_talk, unreachable_reason
from service.replay.fairness import game_commitment
from service.runtime import runtime
from service.web.access import host_access
from service.web.forms import (
    LEVEL_CHOICES,
    AddressForm,
    HostDecisionForm,
    HostNoticesForm,
    PublicReplayForm,
    ReplacePlayerForm,
)
from service.web.limits import form_field, mail_request_limits

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
        **onlooker_context(table),
        turns=turn_view(rt, table, None, host=True),
        grantable_days=MOVE_DAYS,
        token=token,
        host_email=table.record.host_email,
        # Only the host's page shows addresses: the reading every page shares has names alone.
        addresses={seat.seat: seat.email for seat in table.seats},
        unreachable_reasons={seat.seat: unreachable_reason(table, seat.seat) for seat in table.seats},
        host_unreachable=host_unreachable(table),
        watch=watch_url(rt, table),
        seat_links={
            seat.seat: player_url(rt, table, seat.seat)
            for seat in table.seats
            if seat.keeper != SeatKeeper.BOT
        },
        public_replay=public_replay_url(rt, table),
        commitment=game_commitment(table),
        replace_form=ReplacePlayerForm(formdata=None),
        level_choices=LEVEL_CHOICES,
        talk=seat_talk(rt, table, None, limit=None),
        channels=seat_channels(rt, table, None),
    )


def host_unreachable(table: Table) -> Unreachable | None:
    """Since when mail to the host's address does not arrive, and the server's words (which may
    name the address: the host's page alone is given them)."""
    since = table.record.host_unreachable_at
    return Unreachable(as_utc(since), table.record.host_unreachable_reason) if since else None


def _game_with_seat(token: str, seat: int) -> str:
    """The id of the host's game, after checking it has that seat and the seat has a player."""
    table = host_access(runtime(), token)
    if not 0 <= seat < len(table.seats):
        abort(404, _("This game has no such seat."))
    if table.seats[seat].keeper == SeatKeeper.BOT:
        abort(400, _("This seat is played by the seat-keeper: it has no link."))
    return table.game_id


def _game_of_link() -> str:
    """The game a host link names, whichever of its host links (a new one after a revocation is the
    same game: its budget goes on); "" for a forged link (refused, so it counts nothing)."""
    try:
        return runtime().signer.read_host(str((request.view_args or {}).get("token", ""))).game_id
    except LinkError:
        return ""


def _seat_of_link() -> str:
    """The seat a resend or revoke would mail: the game and the seat."""
    return f"seat:{_game_of_link()}:{(request.view_args or {}).get('seat')}"


def _game_mailed() -> str:
    """What a host's decision about the whole table mails: every seat of the game (and the host)."""
    return f"game:{_game_of_link()}"


@blueprint.post("/host/<token>/seats/<int:seat>/resend")
@mail_request_limits(_seat_of_link)
def resend(token: str, seat: int) -> Response:
    if resend_link(runtime(), _game_with_seat(token, seat), seat):
        flash(_("The link was sent again."))
    else:
        flash(_("This player turned mail off, so the link was not sent. Give it to them another way."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/seats/<int:seat>/revoke")
@mail_request_limits(_seat_of_link)
def revoke(token: str, seat: int) -> Response:
    revoke_link(runtime(), _game_with_seat(token, seat), seat)
    flash(_("The old link no longer works; a new one was sent."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/revoke")
@mail_request_limits(_game_mailed)
def revoke_host(token: str) -> Response:
    """Replace the host's link: every copy of the old one stops working, the new one goes by mail
    to the host's address (not on the page: whoever holds the old link must not get the new)."""
    table = host_access(runtime(), token)
    revoke_host_link(runtime(), table.game_id)
    flash(
        _(
            "A new link to the host page was mailed to %(email)s. This one no longer works.",
            email=table.record.host_email,
        )
    )
    return redirect(url_for("public.check_mail"), 303)


@blueprint.post("/host/<token>/address")
@mail_request_limits(form_field("email"))
def host_address(token: str) -> Response:
    """The host gives a working address (mail to theirs did not arrive): a new link to the host page
    goes there, and this one stops working (as when the host replaces their link)."""
    rt = runtime()
    table = host_access(rt, token)
    form = AddressForm()
    if not form.validate():
        abort(400, _("Give a valid email address."))
    correct_host_address(rt, table.game_id, form.address())
    flash(
        _(
            "Your address was changed; a new link to the host page was mailed to it. "
            "This link no longer works."
        )
    )
    return redirect(url_for("public.check_mail"), 303)


@blueprint.post("/host/<token>/talk/<int:talk_id>/hide")
def hide_message(token: str, talk_id: int) -> Response:
    """Hide an abusive message from the table talk (it leaves its trace: "hidden by the host")."""
    rt = runtime()
    table = host_access(rt, token)
    if not hide_talk(rt, table.game_id, talk_id):
        abort(404, _("This game has no such message."))
    flash(_("The message is hidden; its place in the talk says so."))
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/cancel")
@mail_request_limits(_game_mailed)  # each mails every seat of the game
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
@mail_request_limits(_game_mailed)  # each mails every seat of the game
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


# ------------------------------------------------------------------------------ takeovers


def _running_seat(token: str, seat: int) -> str:
    """The id of the host's game, after checking it has that seat; 409 once the game is over."""
    table = host_access(runtime(), token)
    if not 0 <= seat < len(table.seats):
        abort(404, _("This game has no such seat."))
    if not table.active:
        abort(409, _("This game is over: its seats no longer change."))
    return table.game_id


def _confirmed() -> None:
    """400 unless the host ticked the box confirming a decision that ends the game."""
    if request.form.get("confirmed") != "yes":
        abort(400, _("Tick the box to confirm: this ends the game for everyone."))


def _decide(token: str, done: str, decision: Callable[[], None]) -> Response:
    """Carry out a takeover and go back to the host page; 409 with the reason if the game refuses."""
    try:
        decision()
    except IllegalAction as refusal:
        abort(409, say((refusal.msgid, refusal.params)))
    flash(done)
    return redirect(url_for("host.page", token=token), 303)


@blueprint.post("/host/<token>/seats/<int:seat>/replace")
# It mails a new address, the seat's old player and every other seat: each is a budget.
@mail_request_limits(form_field("email"), _seat_of_link, _game_mailed)
def replace(token: str, seat: int) -> Response:
    game_id = _running_seat(token, seat)
    form = ReplacePlayerForm()
    if not form.validate():
        abort(400, _("Give the new player's name and a valid email address."))
    player = form.player()
    done = _("%(name)s has the seat now and was invited; the old link no longer works.", name=player.name)
    return _decide(token, done, lambda: replace_player(runtime(), game_id, seat, player))


@blueprint.post("/host/<token>/seats/<int:seat>/address")
@mail_request_limits(form_field("email"), _seat_of_link)
def address(token: str, seat: int) -> Response:
    """Correct a seat's address (mail to it did not arrive): the player keeps the seat, a new link
    goes to the new address."""
    game_id = _running_seat(token, seat)
    form = AddressForm()
    if not form.validate():
        abort(400, _("Give a valid email address."))
    done = _("The address was corrected and a new link was sent to it.")
    return _decide(token, done, lambda: correct_address(runtime(), game_id, seat, form.address()))


@blueprint.post("/host/<token>/seats/<int:seat>/keeper")
@mail_request_limits(_game_mailed)  # each mails every seat of the game
def keeper(token: str, seat: int) -> Response:
    game_id = _running_seat(token, seat)
    choice, level = request.form.get("keeper"), request.form.get("level", KEEPER)
    if choice not in ("in", "out"):
        abort(400, _("This form is incomplete or damaged. Reload the page and choose again."))
    if level not in BOT_LEVELS:
        abort(
            400,
            _(
                "There is no bot level %(level)s: choose %(levels)s.",
                level=level,
                levels=", ".join(BOT_LEVELS),
            ),
        )
    done = _("The player has the seat back.")
    if choice == "in":
        done = (
            _("The seat-keeper plays this seat now.") if level == KEEPER else _("A bot plays this seat now.")
        )
    return _decide(token, done, lambda: keep_seat(runtime(), game_id, seat, choice == "in", level))


@blueprint.post("/host/<token>/seats/<int:seat>/more-time")
@mail_request_limits(_game_mailed)  # each mails every seat of the game
def more_time(token: str, seat: int) -> Response:
    game_id = _running_seat(token, seat)
    days = request.form.get("days", "")
    if not days.isdigit() or int(days) not in MOVE_DAYS:
        abort(400, _("Choose how many more days to give."))
    done = _("The player has a fresh clock for this move and was told.")
    return _decide(token, done, lambda: give_more_time(runtime(), game_id, seat, int(days)))


@blueprint.post("/host/<token>/seats/<int:seat>/forfeit")
@mail_request_limits(_game_mailed)  # each mails every seat of the game
def forfeit(token: str, seat: int) -> Response:
    game_id = _running_seat(token, seat)
    _confirmed()
    done = _("The player forfeited; the game is over and everyone was told.")
    return _decide(token, done, lambda: declare_forfeit(runtime(), game_id, seat))


@blueprint.post("/host/<token>/draw")
@mail_request_limits(_game_mailed)  # each mails every seat of the game
def draw(token: str) -> Response:
    table = host_access(runtime(), token)
    _confirmed()
    done = _("The game ended as a draw and everyone was told.")
    return _decide(token, done, lambda: declare_draw(runtime(), table.game_id))

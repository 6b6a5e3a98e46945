"""Public pages: the games, the create-game form, the host's confirmation of a game asked for, and a
game's overview (public information only)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from rules.table import BOT_LEVELS
from service.catalog import CATALOG
from service.eventlog.models import GameRequest
from service.eventlog.store import GameNotFound
from service.links import LinkError, mailbox
from service.mail.drafting import host_url, mailed_seats
from service.play.confirmation import ask_for_game, confirm_game, game_request, skips_confirmation
from service.play.hosting import SetupRefused, open_game
from service.play.turn_view import turn_view
from service.reading import onlooker_context
from service.runtime import Runtime, runtime
from service.web.access import link_refusal
from service.web.forms import new_game_form, refusal_text
from service.web.limits import form_field, invitation_limits, mail_request_limits

blueprint = Blueprint("public", __name__)


@blueprint.get("/")
def home() -> str:
    return render_template("home.html", games=CATALOG.values(), title=_("Card games by mail"))


def _host_in_form() -> str:
    return mailbox(request.form.get("host_email", ""))


def _invited_in_form() -> int:
    """How many players the create form would invite (the seats given an address)."""
    return sum(1 for key, value in request.form.items() if key.endswith("-email") and value.strip())


def _host_page_opened(response: Response) -> bool:
    """Whether the game was created and its invitations sent (the answer opens the host page)."""
    return response.status_code == 303 and "/host/" in (response.location or "")


@blueprint.route("/new/<game>", methods=["GET", "POST"])
@mail_request_limits(form_field("host_email"))
@invitation_limits(_host_in_form, _invited_in_form, _host_page_opened)
def new_game(game: str) -> Response | str | tuple[str, int]:
    if game not in CATALOG:
        abort(404, _("There is no such game."))
    game_entry = CATALOG[game]
    rt = runtime()
    form = new_game_form(
        game_entry, request.form if request.method == "POST" else None, bool(rt.settings["INVITE_CODE"])
    )
    error = None
    missing = form.missing() if request.method == "POST" else []
    if request.method == "POST" and form.validate() and not missing:
        setup = form.chosen_setup(game_entry)
        try:
            if skips_confirmation(rt.settings, setup.host.email, form.invite_code_given()):
                return _created(rt, open_game(rt, setup))
            ask_for_game(rt, setup)
        except SetupRefused as refusal:
            error = refusal_text(refusal)
        else:
            flash(
                _(
                    "We sent a mail to %(email)s. Open its link to confirm that the address is yours: "
                    "the invitations go out then.",
                    email=setup.host.email,
                )
            )
            return redirect(url_for("public.check_mail"), 303)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_game.html", form=form, entry=game_entry, error=error, missing=missing, title=game_entry.title
    ), status


@blueprint.get("/check-your-mail")
def check_mail() -> str:
    """Where the create page sends a host who is to confirm their address (the message is flashed)."""
    return render_template("check_mail.html", title=_("Check your mail"))


@blueprint.get("/confirm/<token>")
def confirm_page(token: str) -> str:
    """What the host is about to confirm, and the button (a GET changes nothing)."""
    asked = _game_request(token)
    return render_template(
        "confirm_game.html",
        asked=asked,
        entry=CATALOG[asked.game],
        token=token,
        bot_levels=BOT_LEVELS,
        title=_("Confirm your game"),
    )


def _asked() -> GameRequest | None:
    """The game request this request's confirm token names, if it is a good one."""
    rt = runtime()
    try:
        return game_request(rt, rt.signer.read_confirm(str((request.view_args or {}).get("token", ""))))
    except (LinkError, LookupError):
        return None


def _host_asking() -> str:
    asked = _asked()
    return mailbox(asked.host_email) if asked else ""


def _invited_when_confirmed() -> int:
    asked = _asked()
    return sum(1 for player in asked.players if not player.get("bot")) if asked else 0


@blueprint.post("/confirm/<token>")
@mail_request_limits()  # per client: whoever presses confirm buttons of many hosts
@invitation_limits(_host_asking, _invited_when_confirmed, _host_page_opened)
def confirm(token: str) -> Response:
    """Create the game and send its invitations; pressing again sends nothing more."""
    asked = _game_request(token)
    rt = runtime()
    try:
        game_id, created = confirm_game(rt, asked.id or 0)
    except SetupRefused as refusal:
        abort(409, refusal_text(refusal))
    table = rt.read_table(game_id)
    if created:
        flash(_invited_text(len(mailed_seats(table))))
    else:
        flash(_("This game was confirmed already; nothing was sent again."))
    return redirect(host_url(rt, table), 303)


def _game_request(token: str) -> GameRequest:
    """The game request a confirm token names; 403/404 with a clear message otherwise."""
    rt = runtime()
    try:
        return game_request(rt, rt.signer.read_confirm(token))
    except LinkError as error:
        if error.reason == "expired":
            abort(403, _("This link has expired: a game must be confirmed within a week. Set it up again."))
        abort(403, link_refusal(error.reason))
    except LookupError:
        abort(404, _("There is no such game request."))


def _created(rt: Runtime, game_id: str) -> Response:
    """The answer to a game created at once: its host page, saying who was invited."""
    table = rt.read_table(game_id)
    flash(_invited_text(len(mailed_seats(table))))
    return redirect(host_url(rt, table), 303)


def _invited_text(invited: int) -> str:
    return ngettext(
        "The game is set up and its invitation went out to %(num)s player.",
        "The game is set up and its invitations went out to %(num)s players.",
        invited,
    )


@blueprint.get("/rules/<game>")
def rules(game: str) -> str:
    """A game's rules; linked from a table (`table=1` and its options switched on, each `=1`), with
    that table's options."""
    if game not in CATALOG:
        abort(404, _("There is no such game."))
    entry = CATALOG[game]
    if any(value not in ("0", "1") for key, value in request.args.items() if key != "lang"):
        abort(400, _("Each option of the rules page is 1 (on) or 0 (off)."))
    options = None
    if request.args.get("table") == "1":
        options = {key: request.args.get(key) == "1" for key in entry.option_labels}
    return render_template(
        "rules.html", entry=entry, options=options, title=_("How to play %(game)s", game=entry.title)
    )


@blueprint.get("/game/<game_id>")
def overview(game_id: str) -> str:
    try:
        table = runtime().read_table(game_id)
    except GameNotFound:
        abort(404, _("There is no such game."))
    return render_template(
        "overview.html", **onlooker_context(table), turns=turn_view(runtime(), table, None)
    )

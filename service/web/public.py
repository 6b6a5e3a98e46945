"""Public pages: the games, the create-game form and a game's overview (public information only)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from service.catalog import CATALOG
from service.eventlog.store import GameNotFound
from service.mail.drafting import game_title, host_url
from service.play.hosting import Player, SetupRefused, create_game
from service.play.turn_view import turn_view
from service.reading import table_reading
from service.runtime import runtime
from service.web.access import seat_summary
from service.web.forms import NewGameForm, new_game_form, refusal_text

blueprint = Blueprint("public", __name__)


@blueprint.get("/")
def home() -> str:
    return render_template("home.html", games=CATALOG.values(), title=_("Card games by mail"))


@blueprint.route("/new/<game>", methods=["GET", "POST"])
def new_game(game: str) -> Response | str | tuple[str, int]:
    if game not in CATALOG:
        abort(404, _("There is no such game."))
    game_entry = CATALOG[game]
    form = new_game_form(game_entry, request.form if request.method == "POST" else None)
    error = None
    missing = form.missing() if request.method == "POST" else []
    if request.method == "POST" and form.validate() and not missing:
        players = form.chosen_players()
        try:
            game_id = create_game(
                runtime(),
                game,
                players,
                host=_host(form),
                options=form.chosen_options(game_entry),
                seed=form.seed.data,
                control=form.chosen_control(),
                language=form.language.data,
            )
        except SetupRefused as refusal:
            error = refusal_text(refusal)
        else:
            rt = runtime()
            invited = sum(1 for player in players if not player.bot)
            flash(
                ngettext(
                    "The game is set up and its invitation went out to %(num)s player.",
                    "The game is set up and its invitations went out to %(num)s players.",
                    invited,
                )
            )
            return redirect(host_url(rt, rt.read_table(game_id)), 303)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_game.html", form=form, entry=game_entry, error=error, missing=missing, title=game_entry.title
    ), status


@blueprint.get("/rules/<game>")
def rules(game: str) -> str:
    """A game's rules; linked from a table (`table=1` and its options switched on, each `=1`), with
    that table's options."""
    if game not in CATALOG:
        abort(404, _("There is no such game."))
    entry = CATALOG[game]
    if any(value not in ("0", "1") for value in request.args.values()):
        abort(400, _("Each option of the rules page is 1 (on) or 0 (off)."))
    options = None
    if request.args.get("table") == "1":
        options = {key: request.args.get(key) == "1" for key in entry.option_labels}
    return render_template(
        "rules.html", entry=entry, options=options, title=_("How to play %(game)s", game=entry.title)
    )


def _host(form: NewGameForm) -> Player:
    return Player(form.host_name.data.strip(), form.host_email.data.strip())


@blueprint.get("/game/<game_id>")
def overview(game_id: str) -> str:
    try:
        table = runtime().read_table(game_id)
    except GameNotFound:
        abort(404, _("There is no such game."))
    return render_template(
        "overview.html",
        table=table_reading(table),
        title=game_title(table),
        entry=CATALOG[table.record.game],
        page=seat_summary(table, None),
        turns=turn_view(runtime(), table, None),
    )

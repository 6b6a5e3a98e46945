"""The player's page: their view of the game and the legal moves as buttons (GET changes nothing),
and their turn settings: taking the seat back from the seat-keeper, auto-play, vacations."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from rules import IllegalAction
from rules.messages import N_
from service.catalog import entry
from service.channels.seats import seat_channels
from service.channels.vapid import public_key
from service.i18n import say
from service.move_words import move_label
from service.play.addresses import correct_address
from service.play.ahead import AheadRefused, ahead_panel, set_queue
from service.play.moves import MoveOutcome, MoveStatus, command_outcome, submit_move
from service.play.rematch import RematchRefused, answer_rematch, propose_rematch, rematch_view
from service.play.seat_settings import (
    SeatSettings,
    SettingsRefused,
    checked_settings,
    save_seat_settings,
    set_auto_play,
    take_seat_back,
)
from service.play.table_talk import TalkRefused, Word, cleaned, say_at_table
from service.play.turn_view import turn_view
from service.play.vacations import VacationRefused, cancel_vacation, declare_vacation, local_today
from service.reading import game_context, move_group_name, seat_page_context, seat_summary
from service.runtime import Runtime, runtime
from service.web.access import SeatAccess, player_access, player_summary
from service.web.conditional import conditional_read
from service.web.forms import DAMAGED, AddressForm, AutoPlayForm, VacationForm
from service.web.inputs import sql_int
from service.web.limits import mail_request_limits, players_game
from service.zones import zone_choices

blueprint = Blueprint("play", __name__)
# Dupli's set button with other than two cards ticked: said as the form asks it, not as the API's shape.
TICK_TWO = N_("Tick exactly two cards to set: you ticked %(num)s.")

STATUS_CODES = {
    MoveStatus.ACCEPTED: 200,
    MoveStatus.PENDING: 202,
    MoveStatus.EARLIER_PENDING: 409,
    MoveStatus.REJECTED: 422,
    MoveStatus.STALE: 409,
    MoveStatus.DUPLICATE: 409,
    MoveStatus.CLOSED: 409,
}


def render_seat_page(
    access: SeatAccess,
    outcome: MoveOutcome | None = None,
    status: int = 200,
    settings_error: str | None = None,
    vacation_form: VacationForm | None = None,
    refusal: str | None = None,
    ahead_refusal: str | None = None,
    ticked: list[str] | None = None,
    channel_error: str | None = None,
) -> tuple[str, int]:
    """The player page for a seat, with the outcome of their last submission if any, their mail
    settings (with why the last change was refused, if it was) and their turn settings (or why a
    turn settings form was refused)."""
    rt = runtime()
    table = access.table
    settings = SeatSettings.of(table.seats[access.seat])
    page = player_summary(rt, access)
    if page["pending_command"] is not None and (
        outcome is None or outcome.status not in (MoveStatus.PENDING, MoveStatus.EARLIER_PENDING)
    ):
        outcome = command_outcome(rt, table.game_id, access.seat, page["pending_command"])
    if vacation_form is None:
        vacation_form = VacationForm(formdata=None, start=local_today(table, rt.clock.now()))
    return (
        render_template(
            "play.html",
            **seat_page_context(rt, table, access.seat, page),
            turns=turn_view(rt, table, access.seat),
            token=access.token,
            outcome=outcome,
            outcome_text=say(outcome.message) if outcome and outcome.message else None,
            settings=settings,
            zones=zone_choices(settings.timezone),
            default_zone=table.record.timezone,
            digest_hour=rt.settings["DIGEST_HOUR"],
            settings_error=settings_error,
            vacation_form=vacation_form,
            refusal=refusal,
            rematch=rematch_view(rt, table, access.seat),
            ahead=ahead_panel(rt, table, access.seat) if table.active else [],
            ahead_refusal=ahead_refusal,
            ticks=tick_marks(page["view"], ticked),
            channels=seat_channels(rt, table, access.seat),
            channel_error=channel_error,
            mention=table.seats[access.seat].mention,
            push_key=public_key(rt.settings),
        ),
        status,
    )


def tick_marks(view: dict[str, Any], ticked: list[str] | None) -> list[bool] | None:
    """Which of a Dupli hand's boxes (in the Charge window the set's, then the hand's, in the view's
    order) stay ticked after a refused move, as the player left them: each ticked name marks one box
    of that card (a hand may hold a card twice). None when no move was refused: the page's defaults."""
    if ticked is None:
        return None
    left = list(ticked)
    swapping = view.get("phase") == "charge"
    boxes = [*(view.get("my_set") or [] if swapping else []), *(h["card"] for h in view.get("hand") or [])]
    marks = []
    for card in boxes:
        marks.append(card in left)
        if card in left:
            left.remove(card)
    return marks


@blueprint.get("/play/<token>")
def page(token: str) -> ResponseReturnValue:
    """The seat's page, with a weak ETag when it is asked for plainly (see service/web/conditional.py):
    its CSRF token and flashed messages belong to the browser's session, so the tag covers its cookie."""
    rt = runtime()
    session_cookie = request.cookies.get(current_app.config["SESSION_COOKIE_NAME"], "")
    return conditional_read(
        rt, token, "page", lambda access: make_response(seat_page(rt, access)), session_cookie
    )


def seat_page(rt: Runtime, access: SeatAccess) -> ResponseReturnValue:
    """The seat's page as the request asks it: a move chosen in a mail, a submission's outcome, or
    the page as it stands."""
    if "choose" in request.args:
        return chosen_from_mail(access, request.args["choose"])
    command_id = sql_int(request.args.get("cmd"))
    outcome = (
        None if command_id is None else command_outcome(rt, access.table.game_id, access.seat, command_id)
    )
    return render_seat_page(access, outcome)


def chosen_from_mail(access: SeatAccess, chosen: str) -> ResponseReturnValue:
    """A move chosen in a mail (`?choose=<the action as JSON>`): the confirmation page with that move
    ready, one tap from being made; a GET changes nothing (mail scanners open links). A move that is
    not legal now (the table moved on, or a damaged link) shows the page as it stands, saying so."""
    summary = seat_summary(access.table, access.seat)
    try:
        action = current_app.json.loads(chosen)
    except ValueError:
        action = None
    if action not in summary["legal_actions"]:
        return render_seat_page(
            access,
            refusal=_("The move chosen in your mail cannot be made now: here is your table as it stands."),
        )
    return confirm_page(access, summary, summary["seq"], action, "")


def confirm_page(access: SeatAccess, summary: dict[str, Any], seq: int, action: Any, message: str) -> str:
    """The page asking once more before a move: the move drawn by its game's partial and named in
    the words its mails and replies use (its kind, then the move: "Aim your Benevolence: aim Cy 2")."""
    return render_template(
        "confirm.html",
        **game_context(access.table),
        page=summary,
        token=access.token,
        seq=seq,
        action=action,
        action_json=json.dumps(action),
        message=message,
        move_kind=move_group_name(action),
        move_words=move_label(access.table, access.seat, action),
    )


def parse_move_form(form: Any) -> tuple[int, Any]:
    """The seq and the JSON value of the action a move form carries; 400 for anything malformed."""
    try:
        action = form_action(form)
    except (TypeError, ValueError):
        abort(400, str(DAMAGED))
    seq = sql_int(form.get("seq"))
    if seq is None:
        abort(400, str(DAMAGED))
    return seq, action


def is_ticked_pair(form: Any) -> bool:
    """Whether the button pressed sets the ticked cards (Dupli's "Set these two face down")."""
    try:
        return bool(current_app.json.loads(form.get("action", "")) == {"set": []})
    except ValueError:
        return False


def form_action(form: Any) -> object:
    """The action a move form submits: the pressed button's JSON `action`, completed by the form's
    choices made before the button: "coin": true when the coin box is ticked (Duālis: a coin is taken
    with the card), the ticked hand cards for a button that sets an empty pair (Dupli: `set`, one field
    per card). The rules judge the result."""
    action = current_app.json.loads(form.get("action", ""))
    if not isinstance(action, dict):
        return action
    if "card" in action and form.get("coin") == "yes":
        return {**action, "coin": True}
    if action.get("set") == []:
        return {"set": sorted(form.getlist("set"))}
    return action


@blueprint.post("/play/<token>")
def move(token: str) -> Response | tuple[str, int]:
    rt = runtime()
    access = player_access(rt, token)
    seq, raw = parse_move_form(request.form)
    ticked = request.form.getlist("set") if is_ticked_pair(request.form) else None
    if ticked is not None and len(ticked) != 2:  # the form's own question, before the rules' shapes
        outcome = MoveOutcome(MoveStatus.REJECTED, (TICK_TWO, {"num": len(ticked)}))
        return render_seat_page(access, outcome, STATUS_CODES[outcome.status], ticked=ticked)
    try:
        action = access.table.rules.check_action(raw)
    except IllegalAction as refusal:
        outcome = MoveOutcome(MoveStatus.REJECTED, (refusal.msgid, refusal.params))
        return render_seat_page(access, outcome, STATUS_CODES[outcome.status], ticked=ticked)
    written = request.form.get("message", "")
    try:
        message = cleaned(written) if written.strip() else None
    except TalkRefused as refusal:
        return render_seat_page(access, status=422, refusal=say(refusal.message))
    summary = seat_summary(access.table, access.seat)
    if (
        entry(access.table.record.game).needs_confirmation(action, summary["legal_actions"])
        and request.form.get("confirmed") != "yes"
    ):
        return confirm_page(access, summary, seq, action, message or ""), 200
    word = Word(message) if message else None
    outcome = submit_move(rt, access.table.game_id, access.seat, seq, action, access.table, word)
    if outcome.status in (MoveStatus.ACCEPTED, MoveStatus.PENDING) and outcome.command_id:
        return redirect(url_for("play.page", token=token, cmd=outcome.command_id), 303)
    fresh = player_access(rt, token)
    return render_seat_page(fresh, outcome, STATUS_CODES[outcome.status], ticked=ticked)


@blueprint.post("/play/<token>/talk")
def talk(token: str) -> Response | tuple[str, int]:
    """Say something to the table without moving, or keep a note to oneself."""
    rt = runtime()
    access = player_access(rt, token)
    private = request.form.get("private") == "yes"
    try:
        say_at_table(rt, access.table.game_id, access.seat, request.form.get("text", ""), private)
    except TalkRefused as refusal:
        return render_seat_page(access, status=422, refusal=say(refusal.message))
    return redirect(url_for("play.page", token=token) + "#talk", 303)


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


@blueprint.post("/play/<token>/address")
def address(token: str) -> Response:
    """The player gives a working address (mail to theirs did not arrive): a new link goes there,
    and the old ones stop working."""
    rt = runtime()
    access = player_access(rt, token)
    form = AddressForm()
    if not form.validate():
        abort(400, _("Give a valid email address."))
    try:
        correct_address(rt, access.table.game_id, access.seat, form.address())
    except IllegalAction as refusal:
        abort(409, say((refusal.msgid, refusal.params)))
    flash(_("Your address was changed; your new link was mailed to it. This link no longer works."))
    return redirect(url_for("play.page", token=token), 303)


@blueprint.post("/play/<token>/seat")
def take_back(token: str) -> Response:
    rt = runtime()
    access = player_access(rt, token)
    if take_seat_back(rt, access.table.game_id, access.seat):
        flash(_("Welcome back: you have your seat again, and your moves are yours to make."))
    else:
        flash(_("Your seat was already yours."))
    return redirect(url_for("play.page", token=token), 303)


@blueprint.post("/play/<token>/auto-play")
def auto_play(token: str) -> Response:
    rt = runtime()
    access = player_access(rt, token)
    form = AutoPlayForm()
    if not form.validate():
        abort(400, form.refusal())
    set_auto_play(rt, access.table.game_id, access.seat, form.auto_play.data == "on")
    if form.auto_play.data == "on":
        flash(_("Auto-play is on: when you have only one legal move, it is played for you."))
    else:
        flash(_("Auto-play is off: you make every move yourself."))
    return redirect(url_for("play.page", token=token), 303)


@blueprint.post("/play/<token>/ahead")
def choose_ahead(token: str) -> ResponseReturnValue:
    """The "choose ahead" form: per situation offered, a play (its JSON) or "" for none; "cancel"
    drops them all. 422 with the page and the rules' reason if refused (nothing stored)."""
    rt = runtime()
    access = player_access(rt, token)
    plays = [] if request.form.get("cancel") else ahead_form_plays(request.form)
    try:
        set_queue(rt, access.table.game_id, access.seat, plays)
    except AheadRefused as refusal:
        return render_seat_page(access, status=422, ahead_refusal=say(refusal.message))
    flash(_("Your plays chosen ahead are saved.") if plays else _("No play is chosen ahead."))
    return redirect(url_for("play.page", token=token), 303)


def ahead_form_plays(form: Any) -> list[dict[str, Any]]:
    """The plays a "choose ahead" form carries (fields `ahead-<situation>`); 400 if one is damaged."""
    plays = []
    for field, value in form.items(multi=True):
        if not field.startswith("ahead-") or not value:
            continue
        try:
            action = json.loads(value)
        except ValueError:
            abort(400, str(DAMAGED))
        plays.append({"situation": field.removeprefix("ahead-")[:32], "action": action})
    return plays


@blueprint.post("/play/<token>/vacations")
@mail_request_limits(players_game)  # it mails the other seats
def vacation(token: str) -> ResponseReturnValue:
    rt = runtime()
    access = player_access(rt, token)
    form = VacationForm()
    if not form.validate():
        return render_seat_page(access, status=422, vacation_form=form)
    try:
        declare_vacation(rt, access.table.game_id, access.seat, form.start.data, form.days.data)
    except VacationRefused as refusal:
        return render_seat_page(
            access, status=422, vacation_form=form, refusal=say((refusal.msgid, refusal.params))
        )
    flash(_("Your vacation is noted: your clock stops while you are away, and the others were told."))
    return redirect(url_for("play.page", token=token), 303)


@blueprint.post("/play/<token>/vacations/<int:vacation_id>/cancel")
def cancel(token: str, vacation_id: int) -> ResponseReturnValue:
    rt = runtime()
    access = player_access(rt, token)
    try:
        cancel_vacation(rt, access.table.game_id, access.seat, vacation_id)
    except VacationRefused as refusal:
        return render_seat_page(access, status=422, refusal=say((refusal.msgid, refusal.params)))
    flash(_("Your vacation was called off."))
    return redirect(url_for("play.page", token=token), 303)


@blueprint.post("/play/<token>/rematch")
@mail_request_limits(players_game)  # it mails the other seats
def rematch_propose(token: str) -> ResponseReturnValue:
    return _rematch_step(
        token,
        ("seats", "rotate", "same"),
        lambda rt, game_id, seat, rotate: propose_rematch(rt, game_id, seat, rotate=rotate),
        (_("The next match has started."), _("Your proposal went out to the other players.")),
    )


@blueprint.post("/play/<token>/rematch/answer")
def rematch_answer(token: str) -> ResponseReturnValue:
    return _rematch_step(
        token,
        ("answer", "accept", "decline"),
        lambda rt, game_id, seat, accept: answer_rematch(rt, game_id, seat, accept=accept),
        (_("Everyone accepted: the next match has started."), _("Your answer is noted.")),
    )


def _rematch_step(
    token: str,
    choice: tuple[str, str, str],
    act: Callable[[Runtime, str, int, bool], object],
    told: tuple[str, str],
) -> ResponseReturnValue:
    """A seat's two-way rematch form (`choice`: the field, its yes and its no; 400 if damaged),
    acted on (409 with the reason if refused); `told` when the next match started, or not."""
    rt = runtime()
    access = player_access(rt, token)
    field, yes, no = choice
    picked = request.form.get(field)
    if picked not in (yes, no):
        abort(400, str(DAMAGED))
    try:
        started = act(rt, access.table.game_id, access.seat, picked == yes)
    except RematchRefused as refusal:
        return render_seat_page(access, status=409, refusal=str(refusal))
    flash(told[0] if started else told[1])
    return redirect(url_for("play.page", token=token), 303)

"""Club pages: founded from "my games", opened by a member's "my games" link (403 for anyone else),
the host's actions, leaving, talk, the invitation's confirmation, and the JSON twin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlmodel import Session
from werkzeug.wrappers import Response

from rules.table import BOT_LEVELS
from service.catalog import CATALOG
from service.clubs.club_record import club_record
from service.clubs.club_talk import say_to_club
from service.clubs.log import Club, ClubNotFound, ClubRefused, Member, Standing, fold, load_log, read_club
from service.clubs.members import (
    confirm_member,
    found_club,
    hand_over,
    invitation,
    invite_member,
    leave_club,
    remove_member,
)
from service.clubs.ratings import club_ratings, rating_lines
from service.clubs.readers import wants_digest
from service.clubs.seasons import MAX_AT_ONCE, SeasonPlan, plan_season
from service.clubs.settings import choose_settings
from service.clubs.standings import season_views
from service.clubs.view import ClubView, club_view
from service.i18n import LANGUAGES, say
from service.links import AddressLink, ClubLink, LinkError, address_key, issued_at
from service.play.time_control import MOVE_DAYS
from service.runtime import runtime
from service.web.access import link_refusal
from service.web.my_games import checked_address, reader

blueprint = Blueprint("clubs", __name__)
api = Blueprint("clubs_api", __name__, url_prefix="/api")


def membership(token: str, club_id: str) -> tuple[Club, Member]:
    """The club and the member the holder of this "my games" link is in it; 403 unless they are a
    member (the same answer whether or not the club exists)."""
    email = reader(token)
    try:
        club = read_club(runtime(), club_id)
    except ClubNotFound:
        abort(403, not_yours())
    member = club.member_of(email)
    if member is None:
        abort(403, not_yours())
    return club, member


def member_email(token: str, club_id: str) -> str:
    """The address of the member the link opens the club for (403 unless a member)."""
    return membership(token, club_id)[1].email


def member_view(token: str, club_id: str) -> ClubView:
    """The club as the holder of this "my games" link sees it, seasons and ratings too."""
    club, member = membership(token, club_id)
    rt = runtime()
    ratings = tuple(rating_lines(club, club_ratings(rt, club)))
    with Session(rt.engine) as session:
        digest = wants_digest(session, member)
    return club_view(club, member, digest, tuple(season_views(rt, club, member.number)), ratings)


def not_yours() -> str:
    return _("This club's page is for its members only, each by their own link.")


def refused(act: Callable[[], Any]) -> Any:
    """What `act` returns; 422 with the reason when the club refuses it (nothing changed)."""
    try:
        return act()
    except ClubRefused as refusal:
        abort(422, say(refusal.message))


def member_number(value: Any) -> int:
    """A member's number from a form; 422 unless it is one."""
    if not isinstance(value, str) or not value.isdigit() or len(value) > 6:
        abort(422, _("Choose a member of the club."))
    return int(value)


def back_to(token: str, club_id: str, message: str) -> Response:
    flash(message)
    return redirect(url_for("clubs.page", token=token, club_id=club_id), 303)


@blueprint.post("/my/<token>/clubs")
def found(token: str) -> Response:
    email = reader(token)
    club_id = refused(
        lambda: found_club(
            runtime(), email, request.form.get("club"), request.form.get("name"), str(get_locale() or "")
        )
    )
    return back_to(token, club_id, _("Your club was founded. Invite its members below."))


@blueprint.get("/my/<token>/club/<club_id>")
def page(token: str, club_id: str) -> str:
    club = member_view(token, club_id)
    return render_template(
        "club/page.html",
        title=club.name,
        club=club,
        token=token,
        catalog=CATALOG,
        move_days=MOVE_DAYS,
        bot_levels=BOT_LEVELS,
        at_once=range(1, MAX_AT_ONCE + 1),
        languages=LANGUAGES,
    )


@blueprint.post("/my/<token>/club/<club_id>/season")
def season(token: str, club_id: str) -> Response:
    email = member_email(token, club_id)
    plan = season_plan(request.form)
    refused(lambda: plan_season(runtime(), club_id, email, plan))
    return back_to(token, club_id, _("The season was planned and its first tables started."))


def season_plan(form: Any) -> SeasonPlan:
    """A season plan from the host's form; 422 for values that are not numbers where numbers go."""
    game = str(form.get("game", ""))
    numbers = [form.get("move_days", ""), form.get("at_once", ""), *form.getlist("member")]
    if not all(isinstance(n, str) and n.isdigit() and len(n) < 7 for n in numbers):
        abort(422, _("Choose the season's settings from the form."))
    chosen = {str(value) for value in form.getlist("option")}
    options = (
        {key: True for key in CATALOG[game].options if f"{game}:{key}" in chosen} if game in CATALOG else {}
    )
    bot = str(form.get("bot", ""))
    return SeasonPlan(
        game,
        tuple(int(m) for m in form.getlist("member")),
        (bot,) if bot else (),
        options,
        int(form["move_days"]),
        int(form["at_once"]),
        str(form.get("on_leave", "")),
    )


@blueprint.post("/my/<token>/club/<club_id>/invite")
def invite(token: str, club_id: str) -> Response:
    host = member_email(token, club_id)
    email = checked_address(request.form.get("email"))
    refused(lambda: invite_member(runtime(), club_id, host, request.form.get("name"), email))
    return back_to(token, club_id, _("The invitation is on its way."))


@blueprint.post("/my/<token>/club/<club_id>/remove")
def remove(token: str, club_id: str) -> Response:
    number = member_number(request.form.get("member"))
    email = member_email(token, club_id)
    refused(lambda: remove_member(runtime(), club_id, email, number))
    return back_to(token, club_id, _("The member was removed from the club."))


@blueprint.post("/my/<token>/club/<club_id>/hand-over")
def hand(token: str, club_id: str) -> Response:
    number = member_number(request.form.get("member"))
    email = member_email(token, club_id)
    refused(lambda: hand_over(runtime(), club_id, email, number))
    return back_to(token, club_id, _("The club has a new host."))


@blueprint.post("/my/<token>/club/<club_id>/leave")
def leave(token: str, club_id: str) -> Response:
    email = member_email(token, club_id)
    refused(lambda: leave_club(runtime(), club_id, email))
    flash(_("You left the club."))
    return redirect(url_for("my_games.page", token=token), 303)


@blueprint.post("/my/<token>/club/<club_id>/talk")
def talk(token: str, club_id: str) -> Response:
    text = request.form.get("text")
    email = member_email(token, club_id)
    refused(lambda: say_to_club(runtime(), club_id, email, text))
    return back_to(token, club_id, _("Your message was added to the club's talk."))


@blueprint.post("/my/<token>/club/<club_id>/settings")
def settings(token: str, club_id: str) -> Response:
    email = member_email(token, club_id)
    language, digest = request.form.get("language"), request.form.get("digest")
    refused(lambda: choose_settings(runtime(), club_id, email, language, digest))
    return back_to(token, club_id, _("Your settings for the club's mail are saved."))


def invited(token: str) -> ClubLink:
    """The invitation a club link names; 403 with a clear message for a bad link."""
    try:
        return runtime().signer.read_club(token)
    except LinkError as error:
        abort(403, link_refusal(error.reason))


@blueprint.get("/club/join/<token>")
def join_page(token: str) -> str:
    club, member = refused(lambda: invitation(runtime(), invited(token)))
    return render_template(
        "club/join.html",
        title=club.name,
        club=club.name,
        host=club.members[club.host].name,
        name=member.name,
        joined=member.standing == Standing.MEMBER,
        token=token,
    )


@blueprint.post("/club/join/<token>")
def join(token: str) -> Response:
    email = refused(lambda: confirm_member(runtime(), invited(token)))
    rt = runtime()
    key = rt.signer.address_token(AddressLink(address_key(email), issued_at(rt.clock.now())))
    flash(_("Welcome to the club. This page's link is your own: keep it to yourself."))
    return redirect(url_for("clubs.page", token=key, club_id=invited(token).club_id), 303)


@blueprint.get("/my/<token>/club/<club_id>/record.json")
def record(token: str, club_id: str) -> ResponseReturnValue:
    """The club's record to keep, for its members: its log without addresses, its seasons with each
    finished table's game record, the standings and the ratings."""
    membership(token, club_id)
    rt = runtime()
    with Session(rt.engine) as session:
        log = load_log(session, club_id)
    response = jsonify(club_record(rt, fold(club_id, log), log))
    response.headers["Content-Disposition"] = f'attachment; filename="club-{club_id}.json"'
    return response


@api.get("/my/<token>/club/<club_id>")
def club_json(token: str, club_id: str) -> ResponseReturnValue:
    return jsonify(member_view(token, club_id).as_json())

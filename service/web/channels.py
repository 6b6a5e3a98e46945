"""A seat's channels, on its page and in its JSON twin, and the table's group channel on the host's
page: listed, added, removed and tried with a test ping, by the owner's own link only (a channel's
address is never shown, not even to its owner)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from spectree import Response as Answers
from werkzeug.wrappers import Response

from service.channels.kinds import ChannelRefused
from service.channels.mentions import save_mention
from service.channels.registry import KINDS
from service.channels.seats import add_channel, remove_channel, seat_channels, test_channel
from service.i18n import say
from service.runtime import runtime
from service.web.access import SeatAccess, host_access, link_refusal, player_access
from service.web.openapi import (
    LINK_ERRORS,
    ChannelAnswer,
    ChannelRequest,
    ChannelsAnswer,
    MentionAnswer,
    MentionRequest,
    PushRequest,
    errors,
    spec,
)
from service.web.play import render_seat_page

blueprint = Blueprint("channels", __name__)
api = Blueprint("channels_api", __name__, url_prefix="/api")


@blueprint.post("/play/<token>/channels")
def seat_add(token: str) -> ResponseReturnValue:
    rt = runtime()
    access = player_access(rt, token)
    try:
        view = add_channel(rt, access.table.game_id, access.seat, request.form.get("url", ""))
    except ChannelRefused as refusal:
        return render_seat_page(access, status=422, channel_error=say(refusal.message))
    flash(_("%(channel)s was added: send it a test ping to see it work.", channel=view.label))
    return _to_channels("play.page", token)


@blueprint.post("/play/<token>/channels/push")
def seat_push(token: str) -> ResponseReturnValue:
    """This browser's push subscription, posted by the page's "notify me on this device"."""
    rt = runtime()
    access = player_access(rt, token)
    subscription = request.form.get("subscription", "")
    try:
        add_channel(rt, access.table.game_id, access.seat, subscription, KINDS["push"])
    except ChannelRefused as refusal:
        return render_seat_page(access, status=422, channel_error=say(refusal.message))
    flash(_("This device will be notified: send it a test ping to see it work."))
    return _to_channels("play.page", token)


@blueprint.post("/play/<token>/channels/<int:channel_id>/remove")
def seat_remove(token: str, channel_id: int) -> Response:
    rt = runtime()
    access = player_access(rt, token)
    if not remove_channel(rt, access.table.game_id, access.seat, channel_id):
        abort(404, _("This seat has no such channel."))
    flash(_("The channel was removed."))
    return _to_channels("play.page", token)


@blueprint.post("/play/<token>/channels/<int:channel_id>/test")
def seat_test(token: str, channel_id: int) -> Response:
    rt = runtime()
    access = player_access(rt, token)
    if not test_channel(rt, access.table.game_id, access.seat, channel_id):
        abort(404, _("This seat has no such channel."))
    flash(_("A test ping is on its way."))
    return _to_channels("play.page", token)


@blueprint.post("/play/<token>/mention")
def seat_mention(token: str) -> ResponseReturnValue:
    """The seat's @mention in the table's group channel."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        saved = mentioned(access, request.form.get("mention", ""))
    except ChannelRefused as refusal:
        return render_seat_page(access, status=422, channel_error=say(refusal.message))
    if saved is None:
        abort(403, link_refusal("revoked"))
    flash(_("Your mention was saved."))
    return _to_channels("play.page", token)


@blueprint.post("/host/<token>/channels")
def host_add(token: str) -> ResponseReturnValue:
    """The host gives the table its group channel."""
    rt = runtime()
    table = host_access(rt, token)
    try:
        view = add_channel(rt, table.game_id, None, request.form.get("url", ""))
    except ChannelRefused as refusal:
        abort(422, say(refusal.message))
    flash(_("%(channel)s was added: send it a test ping to see it work.", channel=view.label))
    return _to_channels("host.page", token)


@blueprint.post("/host/<token>/channels/<int:channel_id>/remove")
def host_remove(token: str, channel_id: int) -> Response:
    rt = runtime()
    table = host_access(rt, token)
    if not remove_channel(rt, table.game_id, None, channel_id):
        abort(404, _("This table has no such channel."))
    flash(_("The channel was removed."))
    return _to_channels("host.page", token)


@blueprint.post("/host/<token>/channels/<int:channel_id>/test")
def host_test(token: str, channel_id: int) -> Response:
    rt = runtime()
    table = host_access(rt, token)
    if not test_channel(rt, table.game_id, None, channel_id):
        abort(404, _("This table has no such channel."))
    flash(_("A test ping is on its way."))
    return _to_channels("host.page", token)


@api.get("/play/<token>/channels")
@spec.validate(resp=Answers(HTTP_200=ChannelsAnswer, **LINK_ERRORS))
def listed(token: str) -> Response:
    """The seat's channels (never their addresses), and its mention in the table's group channel."""
    rt = runtime()
    access = player_access(rt, token)
    views = seat_channels(rt, access.table, access.seat)
    return jsonify(
        {"channels": [view.as_json() for view in views], "mention": access.table.seats[access.seat].mention}
    )


@api.post("/play/<token>/channels")
@spec.validate(json=ChannelRequest, resp=Answers(HTTP_201=ChannelAnswer, **errors(400, 422), **LINK_ERRORS))
def added(token: str, json: ChannelRequest) -> tuple[Response, int]:
    """Add a channel to the seat (see ChannelRequest for the webhook's payload and signature)."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        view = add_channel(rt, access.table.game_id, access.seat, json.url)
    except ChannelRefused as refusal:
        abort(422, say(refusal.message))
    return jsonify(view.as_json()), 201


@api.post("/play/<token>/channels/push")
@spec.validate(json=PushRequest, resp=Answers(HTTP_201=ChannelAnswer, **errors(400, 422), **LINK_ERRORS))
def pushed(token: str, json: PushRequest) -> tuple[Response, int]:
    """Add a browser's push subscription to the seat (see PushRequest)."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        view = add_channel(rt, access.table.game_id, access.seat, json.model_dump_json(), KINDS["push"])
    except ChannelRefused as refusal:
        abort(422, say(refusal.message))
    return jsonify(view.as_json()), 201


@api.delete("/play/<token>/channels/<int:channel_id>")
@spec.validate(resp=Answers(HTTP_204=None, **LINK_ERRORS))
def removed(token: str, channel_id: int) -> tuple[str, int]:
    """Remove one of the seat's channels."""
    rt = runtime()
    access = player_access(rt, token)
    if not remove_channel(rt, access.table.game_id, access.seat, channel_id):
        abort(404, _("This seat has no such channel."))
    return "", 204


@api.post("/play/<token>/channels/<int:channel_id>/test")
@spec.validate(resp=Answers(HTTP_202=None, **LINK_ERRORS))
def tested(token: str, channel_id: int) -> tuple[str, int]:
    """Send a test ping to one of the seat's channels (resuming it if it was paused)."""
    rt = runtime()
    access = player_access(rt, token)
    if not test_channel(rt, access.table.game_id, access.seat, channel_id):
        abort(404, _("This seat has no such channel."))
    return "", 202


@api.post("/play/<token>/mention")
@spec.validate(json=MentionRequest, resp=Answers(HTTP_200=MentionAnswer, **errors(400, 422), **LINK_ERRORS))
def mention_saved(token: str, json: MentionRequest) -> Response:
    """Set the seat's @mention in the table's group channel ("" for none)."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        saved = mentioned(access, json.mention)
    except ChannelRefused as refusal:
        abort(422, say(refusal.message))
    if saved is None:
        abort(403, link_refusal("revoked"))
    return jsonify({"mention": saved})


def mentioned(access: SeatAccess, text: str) -> str | None:
    """The seat's mention saved from what its player entered (see save_mention)."""
    key_version = access.table.seats[access.seat].key_version
    return save_mention(runtime(), access.table.game_id, access.seat, key_version, text)


def _to_channels(page: str, token: str) -> Response:
    """After a channel POST: back to the page's channels (303, so a reload posts nothing)."""
    return redirect(url_for(page, token=token) + "#channels", 303)

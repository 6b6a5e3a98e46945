"""The JSON twin of the player page, on the same token (CSRF-exempt: the token is the credential)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from spectree import Response as Answers
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.wrappers import Response

from rules import IllegalAction
from service.db import database_unavailable
from service.eventlog.store import Table
from service.i18n import say
from service.play.ahead import AheadRefused, queue_of, set_queue
from service.play.moves import MoveOutcome, MoveStatus, command_outcome, submit_move
from service.play.rematch import RematchRefused, answer_rematch, propose_rematch, rematch_view
from service.play.seat_settings import SeatSettings, SettingsRefused, checked_settings, save_seat_settings
from service.play.table_talk import TalkRefused, Word, cleaned, say_at_table
from service.play.turn_view import turn_json, turn_view
from service.reading import seat_json, seat_talk_json
from service.runtime import Runtime, runtime
from service.web.access import SeatAccess, player_access, player_summary
from service.web.conditional import conditional_read
from service.web.limits import mail_request_limits, players_game
from service.web.openapi import (
    LINK_ERRORS,
    MOVE_ANSWERS,
    AheadAnswer,
    AheadRequest,
    MoveAnswer,
    MoveRequest,
    SeatState,
    SeatVersion,
    SettingsAnswer,
    SettingsRequest,
    TalkAnswer,
    TalkRequest,
    errors,
    spec,
)
from service.web.play import STATUS_CODES

blueprint = Blueprint("api", __name__, url_prefix="/api")


def outcome_json(outcome: MoveOutcome, seq: int) -> dict[str, Any]:
    return {
        "status": outcome.status,
        "message": say(outcome.message) if outcome.message else None,
        "command": outcome.command_id,
        "seq": seq,
    }


@blueprint.get("/openapi.json")
def openapi() -> Response:
    """This API described as OpenAPI, generated from its routes and models."""
    return jsonify(spec.spec)


@blueprint.get("/play/<token>")
@spec.validate(resp=Answers(HTTP_200=SeatState, HTTP_304=None, **LINK_ERRORS))
def state(token: str) -> Response:
    """The seat's view, moves, turns, settings and rematch, with a weak ETag: a request whose
    If-None-Match holds it gets an empty 304 (nothing it shows changed, the minute has not turned)."""
    rt = runtime()
    return conditional_read(rt, token, "json", lambda access: seat_state(rt, access))


def seat_state(rt: Runtime, access: SeatAccess) -> Response:
    settings = SeatSettings.of(access.table.seats[access.seat])
    turns = turn_json(turn_view(rt, access.table, access.seat))
    rematch = rematch_view(rt, access.table, access.seat).as_json()
    return jsonify(
        {
            **seat_json(rt, access.table, access.seat, player_summary(rt, access)),
            **turns,
            "settings": settings.as_json(),
            "rematch": rematch,
        }
    )


@blueprint.get("/play/<token>/version")
@spec.validate(resp=Answers(HTTP_200=SeatVersion, HTTP_304=None, **LINK_ERRORS))
def version(token: str) -> Response:
    """The game's version for the seat's open page, which reloads when it changes: tagged as the
    seat's JSON is, so that a poll whose If-None-Match still holds gets an empty 304 without the
    table being loaded."""
    rt = runtime()
    return conditional_read(rt, token, "version", seat_version)


def seat_version(access: SeatAccess) -> Response:
    table = access.table
    your_move = table.active and access.seat in table.rules.to_act(table.state)
    return jsonify({"seq": table.version, "your_move": your_move})


@blueprint.post("/play/<token>")
@spec.validate(json=MoveRequest, resp=MOVE_ANSWERS)
def move(token: str, json: MoveRequest) -> tuple[Response, int]:
    """Submit a move; a malformed action is refused (422) before anything is stored."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        action = access.table.rules.check_action(json.action)
    except IllegalAction as refusal:
        outcome = MoveOutcome(MoveStatus.REJECTED, (refusal.msgid, refusal.params))
        return jsonify(outcome_json(outcome, access.table.version)), STATUS_CODES[outcome.status]
    try:
        word = Word(cleaned(json.message)) if json.message and json.message.strip() else None
    except TalkRefused as refusal:
        abort(422, say(refusal.message))
    outcome = submit_move(rt, access.table.game_id, access.seat, json.seq, action, access.table, word)
    return jsonify(outcome_json(outcome, version_after(rt, access.table))), STATUS_CODES[outcome.status]


def version_after(rt: Runtime, table: Table) -> int:
    """The game's version after a submission (it may have moved on meanwhile), or the one the request
    read should the database not tell now: a stored move is answered with what is known, never 503."""
    try:
        return rt.read_version(table.game_id)
    except (DBAPIError, PoolTimeout) as error:
        if not database_unavailable(error):
            raise
        return table.version


@blueprint.post("/play/<token>/talk")
@spec.validate(json=TalkRequest, resp=Answers(HTTP_201=TalkAnswer, **errors(400, 422), **LINK_ERRORS))
def talk(token: str, json: TalkRequest) -> tuple[Response, int]:
    """Say something to the table without moving (or keep a note to oneself)."""
    rt = runtime()
    access = player_access(rt, token)
    try:
        say_at_table(rt, access.table.game_id, access.seat, json.text, json.private)
    except TalkRefused as refusal:
        abort(422, say(refusal.message))
    fresh = player_access(rt, token)
    return jsonify({"talk": seat_talk_json(rt, fresh.table, fresh.seat)}), 201


@blueprint.get("/play/<token>/commands/<int:command_id>")
@spec.validate(resp=Answers(HTTP_200=MoveAnswer, HTTP_202=MoveAnswer, HTTP_409=MoveAnswer, **LINK_ERRORS))
def command(token: str, command_id: int) -> Response:
    rt = runtime()
    access = player_access(rt, token)
    outcome = command_outcome(rt, access.table.game_id, access.seat, command_id)
    if outcome is None:
        abort(404, _("There is no such move of yours."))
    return jsonify(outcome_json(outcome, access.table.version))


@blueprint.post("/play/<token>/settings")
@spec.validate(json=SettingsRequest, resp=Answers(HTTP_200=SettingsAnswer, **errors(400, 422), **LINK_ERRORS))
def settings(token: str, json: SettingsRequest) -> Response:
    """Change the seat's mail settings; the keys left out keep their value."""
    rt = runtime()
    access = player_access(rt, token)
    if json.notify is None and json.timezone is None:
        abort(400, _('Send a JSON object like {"notify": "digest", "timezone": "Europe/Paris"}.'))
    current = SeatSettings.of(access.table.seats[access.seat])
    try:
        chosen = checked_settings(
            current.notify if json.notify is None else json.notify,
            current.timezone if json.timezone is None else json.timezone,
        )
    except SettingsRefused as refusal:
        abort(422, str(refusal))
    save_seat_settings(rt, access.table.game_id, access.seat, chosen)
    return jsonify({"settings": chosen.as_json()})


def ahead_json(access: SeatAccess) -> dict[str, Any]:
    """The seat's own plays chosen ahead, and the situations it may choose one for now, in words."""
    rt, table, seat = runtime(), access.table, access.seat
    rules = table.rules
    return {
        "plays": [
            {
                "situation": play.situation,
                "name": say(rules.ahead.situation_name(play.situation)),
                "action": play.action,
            }
            for play in queue_of(rt, table, seat)
        ],
        "situations": [
            {"situation": situation, "name": say(rules.ahead.situation_name(situation))}
            for situation in rules.ahead.situations(table.state, seat)
        ],
    }


@blueprint.get("/play/<token>/ahead")
@spec.validate(resp=Answers(HTTP_200=AheadAnswer, **LINK_ERRORS))
def ahead(token: str) -> Response:
    """The seat's plays chosen ahead of its turn (only this seat's link sees them)."""
    return jsonify(ahead_json(player_access(runtime(), token)))


@blueprint.post("/play/<token>/ahead")
@spec.validate(json=AheadRequest, resp=Answers(HTTP_200=AheadAnswer, **errors(400, 422), **LINK_ERRORS))
def choose_ahead(token: str, json: AheadRequest) -> Response:
    """Replace the seat's plays chosen ahead (an empty list cancels them); 422 naming what the rules
    refuse, and nothing stored."""
    rt = runtime()
    access = player_access(rt, token)
    plays = [{"situation": play.situation, "action": play.action} for play in json.plays]
    try:
        set_queue(rt, access.table.game_id, access.seat, plays)
    except AheadRefused as refusal:
        abort(422, say(refusal.message))
    return jsonify(ahead_json(player_access(rt, token)))


@blueprint.delete("/play/<token>/ahead")
@spec.validate(resp=Answers(HTTP_200=AheadAnswer, **LINK_ERRORS))
def cancel_ahead(token: str) -> Response:
    """Cancel the seat's plays chosen ahead."""
    rt = runtime()
    access = player_access(rt, token)
    set_queue(rt, access.table.game_id, access.seat, [])
    return jsonify(ahead_json(player_access(rt, token)))


@blueprint.post("/play/<token>/rematch")
@mail_request_limits(players_game)  # it mails the other seats
def rematch(token: str) -> ResponseReturnValue:
    """Propose the next match: {"rotate": true} moves each player one seat on, false keeps the seats."""
    rt = runtime()
    access = player_access(rt, token)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or set(body) != {"rotate"} or not isinstance(body["rotate"], bool):
        abort(400, _('Send a JSON object like {"rotate": true}.'))
    return _rematch_outcome(
        lambda: propose_rematch(rt, access.table.game_id, access.seat, body["rotate"]), token
    )


@blueprint.post("/play/<token>/rematch/answer")
def rematch_answer(token: str) -> ResponseReturnValue:
    """Accept or decline the open proposal: {"accept": true | false}."""
    rt = runtime()
    access = player_access(rt, token)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or set(body) != {"accept"} or not isinstance(body["accept"], bool):
        abort(400, _('Send a JSON object like {"accept": true}.'))
    return _rematch_outcome(
        lambda: answer_rematch(rt, access.table.game_id, access.seat, body["accept"]), token
    )


def _rematch_outcome(act: Callable[[], str | None], token: str) -> ResponseReturnValue:
    """Do it and answer with the seat's rematch panel and the new game, if it started; 409 if refused."""
    try:
        started = act()
    except RematchRefused as refusal:
        abort(409, str(refusal))
    access = player_access(runtime(), token)
    return jsonify(
        {"next_game": started, "rematch": rematch_view(runtime(), access.table, access.seat).as_json()}
    )

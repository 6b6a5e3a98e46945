"""Replay and history pages, and their JSON twins, for every way into a game: a player's link, the
spectator link the host may share, and the public replay link (a finished game, if the host allows).

Each route only finds out who is looking (`Opened`); one function per page does the rest. Whoever may
see the finished game face up may also download its record (JSON and text, service/replay/game_record.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, url_for
from flask_babel import gettext as _
from spectree import Response
from werkzeug.wrappers import Response as WebResponse

from service.eventlog.store import GameNotFound, Table
from service.reading import (
    game_title,
    history_context,
    history_reading_json,
    replay_step_context,
    replay_step_json,
    replay_version,
)
from service.replay.game_record import record_json, text_record
from service.replay.steps import FACE_UP, SPECTATOR, Viewer, player_viewer, public_refusal, replay_of
from service.runtime import runtime
from service.web.access import player_access, watch_access
from service.web.openapi import LINK_ERRORS, HistoryAnswer, StepAnswer, spec

blueprint = Blueprint("replay", __name__)
api = Blueprint("replay_api", __name__, url_prefix="/api")
STEP_ANSWERS = Response(HTTP_200=StepAnswer, **LINK_ERRORS)
HISTORY_ANSWERS = Response(HTTP_200=HistoryAnswer, **LINK_ERRORS)


@dataclass(frozen=True)
class Opened:
    """A game opened for its replay: who looks, and the pages' endpoints for this way in (the
    step endpoint is None when this way in shows the history but not the replay)."""

    table: Table
    viewer: Viewer
    args: dict[str, str]
    step_endpoint: str | None
    history_endpoint: str
    you: int | None = None  # the seat whose player link this is
    json: bool = False  # answer with the JSON twin


def by_player(token: str, json: bool = False) -> Opened:
    access = player_access(runtime(), token)
    viewer = player_viewer(access.table, access.seat)
    prefix = "replay_api" if json else "replay"
    args = {"token": token}
    endpoints = f"{prefix}.player_step", f"{prefix}.player_history"
    return Opened(access.table, viewer, args, *endpoints, you=access.seat, json=json)


def by_watcher(token: str, json: bool = False) -> Opened:
    table = watch_access(runtime(), token)
    prefix = "replay_api" if json else "replay"
    return Opened(
        table, SPECTATOR, {"token": token}, f"{prefix}.watch_step", f"{prefix}.watch_history", json=json
    )


def by_public(game_id: str, json: bool = False, replay_required: bool = True) -> Opened:
    """The public way in: the history always (public information), the replay only once the game
    is over and if the host opened it."""
    try:
        table = runtime().read_table(game_id)
    except GameNotFound:
        abort(404, _("There is no such game."))
    refusal = public_refusal(table)
    if refusal and replay_required:
        abort(403, refusal)
    prefix = "replay_api" if json else "replay"
    step = None if refusal else f"{prefix}.public_step"
    return Opened(table, FACE_UP, {"game_id": game_id}, step, f"{prefix}.public_history", json=json)


def at_opening_step(opened: Opened) -> tuple[Opened, int]:
    """Where the spectator link opens: a running game at its current step (what a spectator comes
    to see), a finished one at its start (to be stepped through)."""
    return opened, opened.table.version if opened.table.active else 1


# ------------------------------------------------------------------------------ the two pages


@dataclass(frozen=True)
class WayIn:
    """What the pages need of how the game was opened: the link's arguments, the history endpoint,
    the reader's own seat (never the table itself) and the record's endpoint (None: not offered)."""

    args: dict[str, str]
    history_endpoint: str
    you: int | None
    record_endpoint: str | None = None


def way_in(opened: Opened) -> WayIn:
    return WayIn(opened.args, opened.history_endpoint, opened.you, record_endpoint(opened))


def record_endpoint(opened: Opened) -> str | None:
    """Where this way in downloads the game's record: only for who sees the finished game face up
    (a player once it is over, the public replay once the host opened it), never a spectator."""
    if not opened.viewer.face_up or opened.step_endpoint is None or opened.table.active:
        return None
    return "replay.public_record" if "game_id" in opened.args else "replay.player_record"


def neighbours(step: int, last: int) -> dict[str, int | None]:
    """The steps the first / previous / next / last controls lead to (None: no such move)."""
    return {
        "first": 1 if step > 1 else None,
        "previous": step - 1 if step > 1 else None,
        "next": step + 1 if step < last else None,
        "last": last if step < last else None,
    }


def step_url(opened: Opened, step: int | None) -> str | None:
    """The URL of a step for this way in (None for no step)."""
    if step is None or opened.step_endpoint is None:
        return None
    values: dict[str, Any] = {"step": step, **opened.args}
    return url_for(opened.step_endpoint, **values)


def show_step(opened: Opened, step: int) -> str | WebResponse:
    """The replay at one step, as a page or JSON."""
    rt = runtime()
    table = opened.table
    last = replay_version(rt, table)
    if not 1 <= step <= last:
        abort(404, _("This replay has steps 1 to %(last)s; there is no step %(step)s.", last=last, step=step))
    links = {key: step_url(opened, n) for key, n in neighbours(step, last).items()}
    if opened.json:
        return jsonify({**replay_step_json(rt, table, opened.viewer, step), "links": links})
    return render_template(
        "replay.html",
        **replay_step_context(rt, table, opened.viewer, step, opened.you),
        way_in=way_in(opened),
        links=links,
        # Step URLs differ only in their last part: built once, not once per link of the step list.
        step_prefix=(step_url(opened, 1) or "").removesuffix("1"),
    )


def show_history(opened: Opened) -> str | WebResponse:
    """The game's history (score sheet, players, dates, chapters), as a page or JSON."""
    rt = runtime()
    if opened.json:
        return jsonify({**history_reading_json(rt, opened.table), "replay": step_url(opened, 1)})
    return render_template(
        "history.html",
        **history_context(rt, opened.table, opened.you),
        way_in=way_in(opened),
        step_url=lambda n: step_url(opened, n),
    )


def show_record(opened: Opened, kind: str) -> WebResponse:
    """The finished game's record as a download: the JSON log with seed and salt, or the text."""
    table = opened.table
    if record_endpoint(opened) is None:
        abort(403, _("The record can be downloaded by whoever may see the finished game face up."))
    name = f"{table.record.game}-{table.game_id}"
    if kind == "json":
        body, mimetype = json.dumps(record_json(table), ensure_ascii=False, indent=1), "application/json"
    else:
        replay = replay_of(runtime().replays, table)
        body, mimetype = text_record(table, replay, game_title(table)), "text/plain"
    disposition = f'attachment; filename="{name}.{kind}"'
    return WebResponse(body, mimetype=mimetype, headers={"Content-Disposition": disposition})


# ---------------------------------------------------------------------------------- routes


@blueprint.get("/play/<token>/replay", defaults={"step": 1}, endpoint="player_start")
@blueprint.get("/play/<token>/replay/<int:step>")
def player_step(token: str, step: int) -> str | WebResponse:
    return show_step(by_player(token), step)


@blueprint.get("/play/<token>/history")
def player_history(token: str) -> str | WebResponse:
    return show_history(by_player(token))


@blueprint.get("/play/<token>/record.<any(json, txt):kind>")
def player_record(token: str, kind: str) -> WebResponse:
    return show_record(by_player(token), kind)


@blueprint.get("/watch/<token>")
def watch_start(token: str) -> str | WebResponse:
    return show_step(*at_opening_step(by_watcher(token)))


@blueprint.get("/watch/<token>/<int:step>")
def watch_step(token: str, step: int) -> str | WebResponse:
    return show_step(by_watcher(token), step)


@blueprint.get("/watch/<token>/history")
def watch_history(token: str) -> str | WebResponse:
    return show_history(by_watcher(token))


@blueprint.get("/game/<game_id>/replay", defaults={"step": 1}, endpoint="public_start")
@blueprint.get("/game/<game_id>/replay/<int:step>")
def public_step(game_id: str, step: int) -> str | WebResponse:
    return show_step(by_public(game_id), step)


@blueprint.get("/game/<game_id>/history")
def public_history(game_id: str) -> str | WebResponse:
    return show_history(by_public(game_id, replay_required=False))


@blueprint.get("/game/<game_id>/record.<any(json, txt):kind>")
def public_record(game_id: str, kind: str) -> WebResponse:
    return show_record(by_public(game_id), kind)


@api.get("/play/<token>/replay", defaults={"step": 1}, endpoint="player_start")
@api.get("/play/<token>/replay/<int:step>", endpoint="player_step")
@spec.validate(resp=STEP_ANSWERS)
def player_step_json(token: str, step: int) -> str | WebResponse:
    return show_step(by_player(token, json=True), step)


@api.get("/play/<token>/history", endpoint="player_history")
@spec.validate(resp=HISTORY_ANSWERS)
def player_history_json(token: str) -> str | WebResponse:
    return show_history(by_player(token, json=True))


@api.get("/watch/<token>", endpoint="watch_start")
@spec.validate(resp=STEP_ANSWERS)
def watch_start_json(token: str) -> str | WebResponse:
    return show_step(*at_opening_step(by_watcher(token, json=True)))


@api.get("/watch/<token>/<int:step>", endpoint="watch_step")
@spec.validate(resp=STEP_ANSWERS)
def watch_step_json(token: str, step: int) -> str | WebResponse:
    return show_step(by_watcher(token, json=True), step)


@api.get("/watch/<token>/history", endpoint="watch_history")
@spec.validate(resp=HISTORY_ANSWERS)
def watch_history_json(token: str) -> str | WebResponse:
    return show_history(by_watcher(token, json=True))


@api.get("/game/<game_id>/replay", defaults={"step": 1}, endpoint="public_start")
@api.get("/game/<game_id>/replay/<int:step>", endpoint="public_step")
@spec.validate(resp=STEP_ANSWERS)
def public_step_json(game_id: str, step: int) -> str | WebResponse:
    return show_step(by_public(game_id, json=True), step)


@api.get("/game/<game_id>/history", endpoint="public_history")
@spec.validate(resp=HISTORY_ANSWERS)
def public_history_json(game_id: str) -> str | WebResponse:
    return show_history(by_public(game_id, json=True, replay_required=False))

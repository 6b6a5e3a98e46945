"""From a signed link to a game and seat, with a clear refusal for every bad link."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from flask import abort, g
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import refresh

from service.eventlog.models import SeatKeeper
from service.eventlog.store import GameNotFound, GameRows, Table
from service.links import GameLink, LinkError, PlayerLink
from service.play.moves import pending_command
from service.reading import reader_language, seat_summary
from service.runtime import Runtime


@dataclass(frozen=True)
class SeatAccess:
    """A verified player link: the game's table as loaded and the seat it belongs to."""

    table: Table
    seat: int
    token: str


def link_refusal(reason: str) -> str:
    """What a player is told about a link that does not work."""
    return {
        "forged": _("This link is not valid. Check that it was copied whole from your mail."),
        "expired": _("This link has expired. Ask the game's host to send you a new one."),
        "revoked": _("This link was replaced by a newer one. Use the latest mail, or ask the host."),
    }[reason]


HOST_LINK_REPLACED = _l(
    "This host link was replaced by a newer one and no longer works. "
    "The new one was mailed to the host's address: use the latest mail."
)


def player_link(rt: Runtime, token: str) -> PlayerLink:
    """The seat a player token names (403 with the reason for a forged or expired one); whether it is
    still the seat's current link is checked where the table is loaded (`player_access`)."""
    try:
        return rt.signer.read_player(token)
    except LinkError as error:
        abort(403, link_refusal(error.reason))


def player_access(rt: Runtime, token: str) -> SeatAccess:
    """The seat a player token opens; aborts with 403/404 and a clear message otherwise."""
    return seat_access(rt, player_link(rt, token), token)


def seat_access(rt: Runtime, link: PlayerLink, token: str, known: GameRows | None = None) -> SeatAccess:
    """The seat a checked player token (`link`) opens, if it is still the seat's current link and the
    seat is played by a person; aborts with 403/404 and a clear message otherwise. `known`: the
    game's rows, if the request has just read them."""
    table = _table(rt, link.game_id, known)
    if not 0 <= link.seat < len(table.seats):
        abort(403, link_refusal("forged"))
    if table.seats[link.seat].key_version != link.key_version:
        abort(403, link_refusal("revoked"))
    if table.seats[link.seat].keeper == SeatKeeper.BOT:
        abort(403, _("This seat is played by the seat-keeper; nobody plays it by a link."))
    speak_as_reader(table, link.seat)
    return SeatAccess(table, link.seat, token)


def speak_as_reader(table: Table, seat: int | None) -> None:
    """This request's pages in the language the reader chose (a seat's, or the table's for the host),
    unless the request asks for another with `?lang=`."""
    g.reader_language = reader_language(table, seat)
    refresh()  # a language read before the link was checked is not kept


def host_access(rt: Runtime, token: str) -> Table:
    """The game a host token manages; aborts with 403/404 otherwise."""
    try:
        link = rt.signer.read_host(token)
    except LinkError as error:
        abort(403, link_refusal(error.reason))
    table = _table(rt, link.game_id)
    if table.record.host_key_version != link.key_version:
        abort(403, HOST_LINK_REPLACED)
    speak_as_reader(table, None)
    return table


def watch_access(rt: Runtime, token: str) -> Table:
    """The game a spectator token shows (public information only); aborts with 403/404 otherwise."""
    return _game_link_access(rt, token, rt.signer.read_watch, lambda table: table.record.watch_key_version)


def _game_link_access(
    rt: Runtime, token: str, read: Callable[[str], GameLink], key_version: Callable[[Table], int]
) -> Table:
    """The game a host or spectator token names, checked against the game's current key version."""
    try:
        link = read(token)
    except LinkError as error:
        abort(403, link_refusal(error.reason))
    table = _table(rt, link.game_id)
    if key_version(table) != link.key_version:
        abort(403, link_refusal("revoked"))
    return table


def _table(rt: Runtime, game_id: str, known: GameRows | None = None) -> Table:
    try:
        return rt.read_table(game_id, known)
    except GameNotFound:
        no_such_game()


def game_rows(rt: Runtime, game_id: str) -> GameRows:
    """A game's row, seats and picture stamp; aborts with 404 if there is no such game."""
    try:
        return rt.read_game_rows(game_id)
    except GameNotFound:
        no_such_game()


def no_such_game() -> NoReturn:
    abort(404, _("There is no such game."))


def player_summary(rt: Runtime, access: SeatAccess) -> dict[str, Any]:
    """The seat's summary for its own page and JSON twin, with the move it made that is still being
    played (`pending_command`): while there is one the seat is offered no other move."""
    summary = seat_summary(access.table, access.seat)
    pending = pending_command(rt, access.table.game_id, access.seat)
    if pending is not None:
        summary["legal_actions"] = []
    return {**summary, "pending_command": pending}

"""Conditional reads of a seat's page and its JSON twin: each answer carries a weak ETag, and a
request whose `If-None-Match` still holds gets an empty 304 after one indexed sum, without the table
being loaded or the picture built. A client polling an unchanged game costs a link check and a lookup.

The tag is keyed by the secret (a client cannot make one for a state it was never shown) and covers:
- the game's picture stamp (service/eventlog/stamps.py), read before the picture: every committed
  change to the rows the page shows, a revoked link or a seat handed to a bot among them, so such a
  link never gets a 304 for what it used to see;
- the seat, the link's key version and what chooses the page's language (`?lang=`, the switch's
  cookie, Accept-Language);
- the current minute, for what changes with time alone (a vacation ending, a rematch lapsing, the
  estimated end, another game's link in the rematch panel): a 304 is at most a minute behind them,
  as the clocks' own beat is;
- for the page, the session cookie (its CSRF token and flashed messages belong to one browser).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from flask import current_app, make_response, request
from werkzeug.wrappers import Response

from service.eventlog.stamps import picture_stamp
from service.eventlog.store import GameRows
from service.i18n import LANGUAGE_COOKIE
from service.links import PlayerLink
from service.runtime import Runtime
from service.web.access import SeatAccess, game_rows, player_access, player_link, seat_access
from service.web.pictures import Pictures

# Requests that may be answered 304: a plain read, with at most the language chosen in the URL.
PLAIN_ARGS = frozenset({"lang"})


def seat_tag(rt: Runtime, link: PlayerLink, stamp: int, kind: str, *extra: str) -> str:
    """The ETag of what a seat's `kind` of read ("page", "json", "version") shows at `stamp`, now."""
    minute = rt.clock.now().strftime("%Y%m%d%H%M")
    parts = (
        kind,
        link.game_id,
        str(link.seat),
        str(link.key_version),
        str(stamp),
        minute,
        request.args.get("lang", ""),
        request.cookies.get(LANGUAGE_COOKIE, ""),
        request.headers.get("Accept-Language", ""),
        *extra,
    )
    key = str(rt.settings["SECRET_KEY"]).encode()
    return hmac.new(key, "\x1f".join(parts).encode(), hashlib.sha256).hexdigest()[:32]


def picture_key(rt: Runtime, link: PlayerLink, stamp: int, kind: str) -> str:
    """Where a seat's picture is kept: its tag without the browser's session (the request's link and
    CSRF token are cut out of the body kept, service/web/pictures.py)."""
    return seat_tag(rt, link, stamp, kind)


def conditional_read(
    rt: Runtime, token: str, kind: str, build: Callable[[SeatAccess], Response], *extra: str
) -> Response:
    """`build`'s answer for the token's seat, tagged with the seat's ETag, or an empty 304 when the
    request's `If-None-Match` holds that tag already, or the seat's picture as someone was given it
    at this stamp (service/web/pictures.py). A request that sends a tag reads the stamp alone first; a
    plain one, where pictures are kept, reads the game's rows with their stamp, which serve the build
    too when no picture is found; the others take the stamp from the table's row, read before the rest
    of the picture."""
    if set(request.args) - PLAIN_ARGS:
        return build(player_access(rt, token))
    link = player_link(rt, token)
    asked = request.if_none_match
    pictures: Pictures | None = current_app.extensions.get("pictures")
    known: GameRows | None = None
    stamp: int | None = None
    # `*` matches any tag: answered in full, so that it never stands for a tag the link was not given.
    if asked and not asked.star_tag:
        stamp = rt.read_riding_out(lambda session: picture_stamp(session, link.game_id))
        tag = seat_tag(rt, link, stamp, kind, *extra)
        if asked.contains_weak(tag):
            unchanged = make_response("", 304)
            unchanged.set_etag(tag, weak=True)
            return unchanged
    elif pictures is not None:
        known = game_rows(rt, link.game_id)
        stamp = known.stamp
    if pictures is not None and stamp is not None:
        kept = pictures.served(picture_key(rt, link, stamp, kind), token)
        if kept is not None:
            kept.set_etag(seat_tag(rt, link, stamp, kind, *extra), weak=True)
            return kept
    keepable = pictures is not None and pictures.may_keep()
    access = seat_access(rt, link, token, known)
    response = build(access)
    if response.status_code == 200:
        response.set_etag(seat_tag(rt, link, access.table.stamp, kind, *extra), weak=True)
        if pictures is not None and keepable:
            pictures.keep(picture_key(rt, link, access.table.stamp, kind), token, response)
    return response

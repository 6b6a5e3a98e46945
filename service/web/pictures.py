"""A seat's picture kept in Redis, shared by every web process: the body of its page or JSON twin as
built at one picture stamp for one seat, link key version, language and minute (the key is the read's
ETag without the browser's session: service/web/conditional.py). A plain read of a game that did not
change since someone built that picture costs the link's check, one statement (the game's rows with
their stamp) and one GET instead of loading the table and rendering: a second device, a reload
without the tab's tag, a client that keeps no tags.

What belongs to one request is cut out before the body is kept and put back when it is served: the
link the page was opened by (another link to the same seat, signed at another time, keeps its own)
and the session's CSRF token. A page built while its session held flashed messages is not kept: they
are that browser's. An entry lives 61 seconds: the minute in its key makes it unreachable by then
anyway. Bodies are kept as they are (compressing a page cost more than a third of what keeping it
does). Redis bounds them by evicting the least recently used: `volatile-lru` where it is
also the Celery broker (the broker's keys carry no expiry and are never evicted), `allkeys-lru` on a
Redis of their own (`PICTURE_CACHE_URL`). Redis away costs the build, never an answer."""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import cast

import redis
from flask import Response, session
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response as BuiltResponse

from service.web.security import request_csrf

log = logging.getLogger(__name__)

PICTURE_SECONDS = 61
CONNECT_TIMEOUT_SECONDS = 0.25
READ_TIMEOUT_SECONDS = 0.5


class Pictures:
    """Seat pictures in one Redis database."""

    def __init__(self, url: str, secret: str) -> None:
        self._redis = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT_SECONDS, socket_timeout=READ_TIMEOUT_SECONDS
        )
        # Keyed by the secret: no text a player writes at the table can stand for a hole.
        hole = hmac.new(secret.encode(), b"picture holes", hashlib.sha256).hexdigest()[:24]
        self._link_hole = f"link-{hole}"
        self._csrf_hole = f"csrf-{hole}"

    def served(self, key: str, token: str) -> Response | None:
        """The picture kept under `key`, answered for the link `token` and this request's session;
        None when there is none (or Redis does not answer)."""
        try:
            kept = cast(bytes | None, self._redis.get(_redis_key(key)))  # redis types it loosely
        except redis.RedisError as error:
            log.warning("seat pictures unreadable, building: %s", error)
            return None
        if kept is None:
            return None
        content_type, _, body = kept.decode().partition("\n")
        body = body.replace(self._link_hole, token)
        if self._csrf_hole in body:
            body = body.replace(self._csrf_hole, generate_csrf())
        return Response(body, content_type=content_type)

    @staticmethod
    def may_keep() -> bool:
        """Whether what this request builds may be kept (asked before it is built: building a page
        takes the session's flashed messages)."""
        return not session.get("_flashes")

    def keep(self, key: str, token: str, response: BuiltResponse) -> None:
        """Keep a plain read's answer under `key`, with the request's own link and CSRF token cut out."""
        body = response.get_data(as_text=True).replace(token, self._link_hole)
        csrf = request_csrf()
        if csrf:
            body = body.replace(csrf, self._csrf_hole)
        packed = f"{response.content_type}\n{body}".encode()
        try:
            self._redis.set(_redis_key(key), packed, ex=PICTURE_SECONDS)
        except redis.RedisError as error:
            log.warning("seat picture not kept: %s", error)


def _redis_key(key: str) -> str:
    return f"pbem:picture:{key}"

"""Error pages: every failure a clear page (or JSON under /api) with its status, never a trace."""

from __future__ import annotations

import logging
from datetime import timedelta

import redis
from flask import Flask, Response, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from service.db import database_unavailable
from service.web.limits import retry_seconds

log = logging.getLogger(__name__)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
RETRY_AFTER_SECONDS = 5


def error_response(status: int, message: str, title: str | None = None) -> ResponseReturnValue:
    """A JSON error under /api or to a client that asks for JSON, an HTML page elsewhere."""
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify({"error": message, "status": status}), status
    try:
        page = render_template("error.html", title=title or _("Something went wrong"), message=message)
    except Exception:  # the error page itself failed: still answer plainly, never with a trace
        log.exception("error page failed")
        page = f"{status}: {message}"
    return page, status


def status_title(status: int) -> str:
    """An HTTP status in the reader's words (Werkzeug names them in English only)."""
    titles = {
        400: _("Bad request"),
        403: _("Not allowed"),
        404: _("Not found"),
        405: _("Not allowed here"),
        409: _("Conflict"),
        410: _("Gone"),
    }
    return titles.get(status, _("Something went wrong"))


def http_description(error: HTTPException) -> str:
    """What the service said about an HTTP error or, where it said nothing (Werkzeug's own English
    text is left), a plain sentence in the reader's words."""
    if error.description and error.description != type(error).description:
        return error.description
    if error.code == 404:
        return _("There is no page at this address.")
    if error.code == 405:
        return _("This address does not take that kind of request.")
    return _("Something went wrong")


def register_error_pages(app: Flask) -> None:
    """Plain pages for HTTP errors, CSRF failures, a database or broker away (503) and unexpected
    exceptions."""

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> ResponseReturnValue:
        return error_response(
            400, _("This form has expired or did not come from this site. Reload the page and try again.")
        )

    @app.errorhandler(429)
    def too_many(error: HTTPException) -> ResponseReturnValue:
        """A rate limit (service/web/limits.py) says why, and when to try again as a person reads
        it ("in 59 minutes"; Flask-Limiter adds the same as Retry-After for programs)."""
        return error_response(429, retry_text(error.description or ""), _("Too many requests"))

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
        limit = (app.config["MAX_CONTENT_LENGTH"] or 0) // 2**20
        return error_response(
            413, _("This is more than the service takes at once (%(limit)s MB).", limit=limit)
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        status = error.code or 500
        return error_response(status, http_description(error), status_title(status))

    @app.errorhandler(DBAPIError)
    @app.errorhandler(PoolTimeout)
    @app.errorhandler(redis.RedisError)
    @app.errorhandler(BrokerError)
    def service_away(error: Exception) -> ResponseReturnValue:
        if isinstance(error, DBAPIError) and not database_unavailable(error):
            return unexpected(error)
        log.warning("%s %s: a service is unavailable: %s", request.method, request.path, error)
        return unavailable()

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> ResponseReturnValue:
        log.exception("unhandled error on %s", request.path)
        if request.method in SAFE_METHODS:
            return error_response(
                500, _("The server hit an unexpected problem. Nothing was changed; try again.")
            )
        return error_response(
            500,
            _(
                "The server hit an unexpected problem, so what you sent may or may not have been saved. "
                "Reload the page to see before you try again."
            ),
        )


def retry_text(why: str) -> str:
    """Why a request was limited, and in how long it may be made again."""
    seconds = retry_seconds()
    if seconds is None:
        return why
    wait = format_timedelta(timedelta(seconds=seconds), granularity="minute", threshold=1.0)
    return f"{why} {_('You can try again in %(wait)s.', wait=wait)}"


def unavailable() -> Response:
    """503 with Retry-After while the database or the broker is away, saying what is known."""
    if request.method in SAFE_METHODS:
        message = _("The service is briefly unavailable. Nothing was changed; try again in a few seconds.")
    else:
        message = _(
            "The service is briefly unavailable, so what you sent may not have been saved. Reload the page "
            "in a few seconds to see; sending a move again is safe, as a move is never played twice."
        )
    response = make_response(error_response(503, message, _("Back in a moment")))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response

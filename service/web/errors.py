"""Error pages: every failure a clear page (or JSON under /api) with its status, never a trace."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

log = logging.getLogger(__name__)


def error_response(status: int, message: str, title: str | None = None) -> ResponseReturnValue:
    """A JSON error under /api, an HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return jsonify({"error": message, "status": status}), status
    try:
        page = render_template("error.html", title=title or _("Something went wrong"), message=message)
    except Exception:  # the error page itself failed: still answer plainly, never with a trace
        log.exception("error page failed")
        page = f"{status}: {message}"
    return page, status


def register_error_pages(app: Flask) -> None:
    """Plain pages for HTTP errors, CSRF failures and unexpected exceptions."""

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> ResponseReturnValue:
        return error_response(
            400, _("This form has expired or did not come from this site. Reload the page and try again.")
        )

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
        limit = (app.config["MAX_CONTENT_LENGTH"] or 0) // 2**20
        return error_response(
            413, _("This is more than the service takes at once (%(limit)s MB).", limit=limit)
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        return error_response(error.code or 500, error.description or error.name, error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> ResponseReturnValue:
        log.exception("unhandled error on %s", request.path)
        return error_response(500, _("The server hit an unexpected problem. Nothing was changed; try again."))

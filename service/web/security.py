"""Response headers of every page, and the session cookie's flags.

No page runs inline script (scripts are static files), no page may be framed, and no page sends a
Referer: many URLs hold a signed token that must not leave in one. HSTS once the service is served
over https. In a deployment the session cookie is Secure as well as HttpOnly and SameSite=Lax.
A response that carries a secret (a link's token, a CSRF token, the outbox's mails) is never stored
by a browser or a proxy cache (`Cache-Control: no-store`): a shared computer's history or a proxy
would hand it to the next person.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from service.config import deployed

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        # Style attributes stay allowed: the card tints and the mail bodies shown in the outbox use them.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HSTS = "max-age=31536000"


def security_headers(settings: dict[str, Any]) -> dict[str, str]:
    """The headers every response carries under these settings."""
    headers = {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    }
    if settings["BASE_URL"].startswith("https://"):
        headers["Strict-Transport-Security"] = HSTS
    return headers


def init_security(app: Flask, settings: dict[str, Any]) -> None:
    """Add the headers to every response, set the cookie flags, and trust PROXY_COUNT proxies."""
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=deployed(settings),
    )
    if settings["PROXY_COUNT"]:
        count = settings["PROXY_COUNT"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in security_headers(app.config["PBEM"]).items():
            response.headers.setdefault(name, value)
        if carries_secret():
            response.headers["Cache-Control"] = "no-store"
        return response


def carries_secret() -> bool:
    """Whether this request's answer may hold a secret: its URL holds a token (the page, its JSON
    twin, an error about it), a CSRF token was made for it (a form), or it lists kept mails. A
    static file never does (and keeps its long cache)."""
    if request.endpoint == "static":
        return False
    return "token" in (request.view_args or {}) or request_csrf() is not None or request.blueprint == "outbox"


def request_csrf() -> str | None:
    """The CSRF token made for this request's forms, if any (Flask-WTF keeps it on `g` under its
    field name)."""
    token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    return str(token) if token else None

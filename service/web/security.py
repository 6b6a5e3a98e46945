"""Response headers of every page, and the session cookie's flags.

No page runs inline script (scripts are static files), no page may be framed, and no page sends a
Referer: many URLs hold a signed token that must not leave in one. HSTS once the service is served
over https. In a deployment the session cookie is Secure as well as HttpOnly and SameSite=Lax.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
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
        return response

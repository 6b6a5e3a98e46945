"""Rate limits (Flask-Limiter): on the requests that make the service mail someone, per client and
per address, and on unsubscribing, per client. Counted in Redis when REDIS_URL is set (shared by
every web process), in memory in the embedded mode. A limited request gets 429 with a page (or JSON)
saying why and when to try again (`Retry-After`).

`mail_request_limits(address)` is the limit of any route that mails an address: a decorator for the
view, with a function giving the address the request would mail (say, a form field).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

F = TypeVar("F", bound=Callable[..., Any])

limiter = Limiter(key_func=get_remote_address, headers_enabled=True)


def init_limits(app: Flask, settings: dict[str, Any]) -> None:
    """Count in Redis (REDIS_URL) or in memory; RATE_LIMITS=0 turns the limits off."""
    app.config.update(
        RATELIMIT_ENABLED=settings["RATE_LIMITS"],
        RATELIMIT_STORAGE_URI=settings["REDIS_URL"] or "memory://",
        RATELIMIT_KEY_PREFIX="pbem-limits",
    )
    limiter.init_app(app)


def _setting(name: str) -> Callable[[], str]:
    return lambda: current_app.config["PBEM"][name]


def _succeeded(response: Response) -> bool:
    return response.status_code < 400


def form_field(name: str) -> Callable[[], str]:
    """The address the request would mail, from a form field (lower-cased)."""
    return lambda: "address:" + request.form.get(name, "").strip().lower()


def too_many_from_you() -> str:
    return _(
        "Too many requests that send mail came from your connection. "
        "Wait a little (the Retry-After time) and try again."
    )


def too_many_for_address() -> str:
    return _(
        "Too many mails were asked for this address lately. "
        "To protect it from unwanted mail, wait a while (the Retry-After time) and try again."
    )


def mail_request_limits(address: Callable[[], str]) -> Callable[[F], F]:
    """Limit a POST that mails `address()`: LIMIT_PER_CLIENT per client (every attempt counts) and
    LIMIT_PER_ADDRESS per address (the requests that went through count). Shared by every route
    so decorated: they are one budget."""
    per_client = limiter.shared_limit(
        _setting("LIMIT_PER_CLIENT"),
        scope="mail-requests-client",
        methods=["POST"],
        error_message=too_many_from_you,
    )
    per_address = limiter.shared_limit(
        _setting("LIMIT_PER_ADDRESS"),
        scope="mail-requests-address",
        key_func=address,
        methods=["POST"],
        deduct_when=_succeeded,
        error_message=too_many_for_address,
    )

    def decorate(view: F) -> F:
        return per_client(per_address(view))  # type: ignore[return-value]

    return decorate


def too_many_unsubscribes() -> str:
    return _("Too many unsubscribe requests came from your connection. Wait a minute and try again.")


unsubscribe_limit = limiter.shared_limit(
    _setting("LIMIT_UNSUBSCRIBE"), scope="unsubscribe", error_message=too_many_unsubscribes
)

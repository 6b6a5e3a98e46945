"""Rate limits (Flask-Limiter): on the requests that make the service mail someone, per client and
per address, and on unsubscribing, per client. Counted in Redis when REDIS_URL is set (shared by
every web process), in memory in the embedded mode. A limited request gets 429 with a page (or JSON)
saying why and when to try again (`Retry-After`).

`mail_request_limits(*addresses)` is the limit of any route that mails someone: a decorator for the
view, with functions giving what the request would mail (say, a form field's address, a seat, a
game's seats). `invitation_limits` counts the invitations a host's mailbox sends (a game's players),
whatever client asks. An address is counted as its mailbox (`service.links.mailbox`: whatever its
case or "+tag").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

from service.links import LinkError, mailbox
from service.runtime import runtime

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
    """The mailbox the request would mail, from a form field (any case, any "+tag")."""
    return lambda: "address:" + mailbox(request.form.get(name, ""))


def players_game() -> str:
    """What a seat's request (a rematch, a vacation) mails: the other seats of its game, named by
    the player link in the URL ("" for a forged link, which is refused and counts nothing)."""
    try:
        return "game:" + runtime().signer.read_player(str((request.view_args or {}).get("token", ""))).game_id
    except LinkError:
        return ""


def retry_seconds() -> int | None:
    """How long until the limit this request broke lets it through again (None: no limit broke)."""
    broken = limiter.current_limit
    if broken is None or not broken.breached:
        return None
    return max(1, int(broken.reset_at - time.time()))


def too_many_from_you() -> str:
    return _("Too many requests that send mail came from your connection. Wait a little and try again.")


def too_many_for_address() -> str:
    return _(
        "Too many mails were asked for this address lately. "
        "To protect it from unwanted mail, wait a while and try again."
    )


def mail_request_limits(*addresses: Callable[[], str]) -> Callable[[F], F]:
    """Limit a POST that mails someone: LIMIT_PER_CLIENT per client (every attempt counts) and
    LIMIT_PER_ADDRESS per each of `addresses()` (the requests that went through count). Shared by
    every route so decorated: they are one budget."""
    per_client = limiter.shared_limit(
        _setting("LIMIT_PER_CLIENT"),
        scope="mail-requests-client",
        methods=["POST"],
        error_message=too_many_from_you,
    )
    per_address = [
        limiter.shared_limit(
            _setting("LIMIT_PER_ADDRESS"),
            scope="mail-requests-address",
            key_func=address,
            methods=["POST"],
            deduct_when=_succeeded,
            error_message=too_many_for_address,
        )
        for address in addresses
    ]

    def decorate(view: F) -> F:
        limited: Callable[..., Any] = view
        for limit in per_address:
            limited = limit(limited)
        return per_client(limited)  # type: ignore[return-value]

    return decorate


def too_many_invitations() -> str:
    return _(
        "This host's address sent many invitations lately. To protect the people invited from unwanted "
        "mail, wait a while before inviting more."
    )


def invitation_limits(
    host: Callable[[], str], invited: Callable[[], int], sent: Callable[[Response], bool]
) -> Callable[[F], F]:
    """Limit the invitations a host's mailbox (`host()`) sends: LIMIT_INVITATIONS_PER_HOST players
    invited, whichever client asks; a request that would invite `invited()` costs that many, and
    counts once `sent(response)` says its invitations went out."""
    return limiter.shared_limit(  # type: ignore[return-value]
        _setting("LIMIT_INVITATIONS_PER_HOST"),
        scope="invitations-host",
        key_func=lambda: "host:" + host(),
        methods=["POST"],
        deduct_when=sent,
        cost=lambda: max(1, invited()),
        error_message=too_many_invitations,
    )


def too_many_unsubscribes() -> str:
    return _("Too many unsubscribe requests came from your connection. Wait a minute and try again.")


unsubscribe_limit = limiter.shared_limit(
    _setting("LIMIT_UNSUBSCRIBE"), scope="unsubscribe", error_message=too_many_unsubscribes
)

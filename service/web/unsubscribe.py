"""Unsubscribe links: GET shows what would stop and a button (it changes nothing); POST stops it.

The POST is CSRF-exempt, authenticated by the signed token alone, so that a mail client's one-click
unsubscribe (RFC 8058: a POST with `List-Unsubscribe=One-Click` and no cookies) works.
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

from service.clubs.log import ClubNotFound
from service.clubs.settings import club_subscription, stop_digest
from service.eventlog.store import GameNotFound
from service.links import ClubReader, LinkError
from service.mail.unsubscribe import Subscription, subscription, unsubscribe
from service.runtime import runtime
from service.web.access import link_refusal
from service.web.limits import unsubscribe_limit

blueprint = Blueprint("unsubscribe", __name__)


def _subscription(token: str) -> Subscription:
    """What the token's link is about; 403/404 with a clear message for a bad link."""
    rt = runtime()
    try:
        reader = rt.signer.read_unsubscribe(token)
        if isinstance(reader, ClubReader):
            return club_subscription(rt, reader)
        return subscription(rt, reader)
    except LinkError as error:
        abort(403, link_refusal(error.reason))
    except GameNotFound:
        abort(404, _("There is no such game."))
    except ClubNotFound:
        abort(404, _("There is no such club."))


@blueprint.get("/unsubscribe/<token>")
@unsubscribe_limit
def confirm(token: str) -> str:
    found = _subscription(token)
    return render_template("unsubscribe.html", sub=found, token=token, done=False, title=_("Unsubscribe"))


@blueprint.post("/unsubscribe/<token>")
@unsubscribe_limit
def stop(token: str) -> str:
    found = _subscription(token)
    if isinstance(found.reader, ClubReader):
        stop_digest(runtime(), found.reader)
    else:
        unsubscribe(runtime(), found.reader)
    return render_template("unsubscribe.html", sub=found, token=token, done=True, title=_("Unsubscribed"))

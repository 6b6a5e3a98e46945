"""The table on a phone's home screen, and its notifications: a web app manifest per seat (the
installed app opens that seat's page, titled with its game, in the reader's language) and the
service worker, served from the site's root so that it may control the seat pages (`/play/`) and
receive their Web Push notices. The worker is a static file like every script (the pages' Content
Security Policy allows scripts and workers from the site only); it is revalidated on each check for
an update rather than kept for a year as versioned static files are."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, jsonify, send_from_directory, url_for
from flask_babel import get_locale
from werkzeug.wrappers import Response

from service.catalog import entry
from service.reading import game_title
from service.runtime import runtime
from service.web.access import player_access

blueprint = Blueprint("home_screen", __name__)
WORKER = "push-worker.js"
WORKER_SCOPE = "/play/"  # the seat pages, the only ones that subscribe


@blueprint.get("/sw.js")
def service_worker() -> Response:
    folder = Path(current_app.static_folder or "")
    answer = send_from_directory(folder, WORKER, mimetype="text/javascript", max_age=0)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@blueprint.get("/play/<token>/manifest.webmanifest")
def manifest(token: str) -> Response:
    """The seat's page as an app: opened from the home screen, it is the seat's own page."""
    table = player_access(runtime(), token).table
    page = url_for("play.page", token=token)
    answer = jsonify(
        {
            "id": page,
            "name": game_title(table),
            "short_name": str(entry(table.record.game).title),
            "lang": str(get_locale()),
            "start_url": page,
            "scope": page,
            "display": "standalone",
            "background_color": "#fafaf7",
            "theme_color": "#1f5fbf",
            "icons": [
                {"src": url_for("static", filename="favicon.svg"), "sizes": "any", "type": "image/svg+xml"}
            ],
        }
    )
    answer.mimetype = "application/manifest+json"
    return answer

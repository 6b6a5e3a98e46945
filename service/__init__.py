"""The Flask app: app factory, settings, event store, signed links, pages and JSON API."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

from flask import Flask, g
from flask_babel import Babel, format_timedelta, get_locale
from flask_wtf.csrf import CSRFProtect

import templates
from service.config import load_settings, secret_keys
from service.db import make_engine, migrate
from service.links import LinkSigner
from service.localtime import format_time, last_day, local_day, time_tag
from service.mail.cap import cap_daily_mail
from service.redact import redact_logs
from service.runtime import Runtime

csrf = CSRFProtect()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app, configured from the environment and then `config` (embedded default if neither)."""
    from service.channels.vapid import check_key
    from service.i18n import (
        LANGUAGES,
        card_words,
        compiled_catalogues,
        install_catalogues,
        say,
        select_locale,
    )
    from service.replay.game_record import MAX_RECORD_BYTES
    from service.tasks.celery_app import CeleryDispatcher, init_celery
    from service.web import (
        api,
        calendar,
        channels,
        clubs,
        health,
        home_screen,
        host,
        import_page,
        language,
        my_games,
        outbox,
        play,
        public,
        replay,
        unsubscribe,
    )
    from service.web.assets import init_assets
    from service.web.errors import register_error_pages
    from service.web.inputs import init_inputs
    from service.web.limits import init_limits
    from service.web.pictures import Pictures
    from service.web.security import init_security

    redact_logs()  # before anything logs a path: no token in werkzeug's, gunicorn's or our logs
    app = Flask(__name__, template_folder=str(Path(templates.__file__).parent))
    init_inputs(app)  # before the routes: their integers are SQL integers
    settings = load_settings(app.instance_path, config)
    check_key(settings)
    app.config.update(
        SECRET_KEY=settings["SECRET_KEY"],
        PBEM=settings,
        WTF_CSRF_TIME_LIMIT=None,  # a page may stay open for days between moves
        MAX_CONTENT_LENGTH=MAX_RECORD_BYTES + 2**16,  # the largest body: an uploaded game record
        BABEL_TRANSLATION_DIRECTORIES=str(
            compiled_catalogues(Path(settings["TRANSLATIONS_DIR"]), Path(app.instance_path) / "translations")
        ),
        TESTING=bool(settings.get("TESTING")),
    )
    if settings["RUN_MIGRATIONS"]:
        migrate(settings["DATABASE_URL"])
    engine = make_engine(settings["DATABASE_URL"])
    cap_daily_mail(engine, settings["MAILS_PER_ADDRESS_PER_DAY"])
    signer = LinkSigner(secret_keys(settings), settings["LINK_MAX_AGE_DAYS"] * 86400)
    app.extensions["pbem"] = Runtime(settings, engine, signer, CeleryDispatcher(app))
    pictures_url = settings["PICTURE_CACHE_URL"] or settings["REDIS_URL"]
    if pictures_url and pictures_url != "none":  # seat pictures shared by the web's processes
        app.extensions["pictures"] = Pictures(pictures_url, settings["SECRET_KEY"])
    app.before_request_funcs.setdefault(None, []).insert(0, open_shared_reads)
    app.teardown_request(close_shared_reads)
    init_celery(app)
    # Each app its own Babel: its translations cache is keyed by language only, not by directory.
    Babel(app, locale_selector=select_locale)
    install_catalogues(app.jinja_env)
    csrf.init_app(app)
    csrf.exempt(api.blueprint)
    csrf.exempt(my_games.api)
    csrf.exempt(channels.api)
    csrf.exempt(unsubscribe.blueprint)  # the signed token is the credential (RFC 8058 one-click)
    modules = (
        public,
        play,
        host,
        outbox,
        api,
        replay,
        import_page,
        unsubscribe,
        language,
        health,
        my_games,
        clubs,
    )
    for module in modules:
        app.register_blueprint(module.blueprint)
    app.register_blueprint(replay.api)
    app.register_blueprint(my_games.api)
    app.register_blueprint(calendar.blueprint)
    app.register_blueprint(channels.blueprint)
    app.register_blueprint(channels.api)
    app.register_blueprint(home_screen.blueprint)
    app.register_blueprint(clubs.api)
    register_error_pages(app)
    init_security(app, settings)
    init_limits(app, settings)
    init_assets(app)
    app.jinja_env.filters["extract"] = lambda index, sequence: sequence[index]
    app.jinja_env.filters["local_time"] = time_tag
    app.jinja_env.filters["time_text"] = format_time
    app.jinja_env.filters["last_day"] = last_day
    app.jinja_env.filters["local_day"] = local_day
    app.jinja_env.filters["duration"] = format_timedelta
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["card_name"] = card_words
    app.jinja_env.globals["say"] = say
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True
    return app


def open_shared_reads() -> None:
    """The request's reads share one connection (Runtime.shared_reads) until its teardown."""
    scope = ExitStack()
    scope.enter_context(Runtime.shared_reads())
    g.shared_reads = scope


def close_shared_reads(_error: BaseException | None = None) -> None:
    scope: ExitStack | None = g.pop("shared_reads", None)
    if scope is not None:
        scope.close()

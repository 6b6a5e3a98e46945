"""Settings: defaults, then environment variables, then the `config` dict given to create_app.

With nothing set the embedded default runs: a SQLite file in the instance folder, Celery tasks run
in-process, mail kept in the outbox (listed on /outbox). Every setting is documented in README.md.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

# name -> (default, parser); the environment variable has the same name.
SETTINGS: dict[str, tuple[Any, Any]] = {
    "DATABASE_URL": (None, str),
    "REDIS_URL": (None, str),
    # Where seat pictures are kept (service/web/pictures.py): unset, REDIS_URL; `none`, nowhere.
    "PICTURE_CACHE_URL": (None, str),
    "SECRET_KEY": (None, str),
    "OLD_SECRET_KEYS": ("", str),
    "BASE_URL": ("http://127.0.0.1:5000", str),
    "SMTP_HOST": (None, str),
    "SMTP_PORT": (25, int),
    "SMTP_USER": (None, str),
    "SMTP_PASSWORD": (None, str),
    "SMTP_SECURITY": ("none", str),  # none | starttls | ssl
    "SMTP_TIMEOUT": (10.0, float),
    # The relay takes addresses with letters beyond ASCII (SMTPUTF8, RFC 6531): only then do the
    # forms take such an address (with no SMTP_HOST, mail is kept and any address is taken).
    "SMTP_UTF8": (False, lambda v: v.lower() in ("1", "true", "yes")),
    "MAIL_FROM": ("Card table <cards@localhost>", str),
    "MAIL_DOMAIN": ("pbem.localhost", str),
    # DKIM (RFC 6376): every message signed when both are set (`pbem dkim-key` makes a key and its
    # DNS record). The key is a PEM file's path or the PEM itself; the domain is MAIL_FROM's unless set.
    "DKIM_PRIVATE_KEY": ("", str),
    "DKIM_SELECTOR": ("", str),
    "DKIM_DOMAIN": ("", str),
    "LINK_MAX_AGE_DAYS": (400, int),
    "MY_GAMES_LINK_DAYS": (30, int),  # a "my games" link expires after this
    "REPLIES_PER_SEAT_HOUR": (20, int),  # replies read per seat an hour: a person answers a few times
    "REPLY_ADDRESS_MAX_AGE_DAYS": (60, int),  # a reply to an older mail is refused (a move may take weeks)
    # The authserv-id whose Authentication-Results (RFC 8601) the reply path trusts: the receiving
    # mail exchanger's own; unset, a reply's From is checked against the seat's address only.
    "INBOUND_AUTHSERV_ID": ("", str),
    "MOVE_WAIT_SECONDS": (3.0, float),
    "SWEEP_INTERVAL_SECONDS": (5.0, float),
    "CLOCK_INTERVAL_SECONDS": (60.0, float),
    "MAIL_MAX_BACKOFF_SECONDS": (3600, int),
    "COMMAND_REQUEUE_SECONDS": (5, int),  # a move or mail silent this long is queued again
    "POLL_SECONDS": (20, int),  # how often an open player page asks whether the game moved on
    "DIGEST_HOUR": (7, int),  # local hour (0-23) from which each reader's daily digest is sent
    "RUN_MIGRATIONS": (None, lambda v: v.lower() in ("1", "true", "yes")),
    "TRANSLATIONS_DIR": (str(Path(__file__).parent / "translations"), str),
    # Who may create games on the web without first confirming their address by mail.
    "HOST_ALLOWLIST": ("", str),  # comma-separated addresses and @domains
    "INVITE_CODE": ("", str),  # a shared code typed on the create page
    "MAILS_PER_ADDRESS_PER_DAY": (60, int),  # further mails to an address within 24 h are not sent
    "RATE_LIMITS": (True, lambda v: v.lower() in ("1", "true", "yes")),
    "LIMIT_PER_CLIENT": ("10 per minute; 60 per day", str),  # requests that mail someone, per client
    "LIMIT_PER_ADDRESS": ("5 per hour; 20 per day", str),  # ... per address (or seat) they mail
    # players invited per host mailbox (a host's address, whatever its case or "+tag")
    "LIMIT_INVITATIONS_PER_HOST": ("12 per hour; 30 per day", str),
    "LIMIT_UNSUBSCRIBE": ("30 per minute; 300 per day", str),  # unsubscribe requests per client
    "PROXY_COUNT": (0, int),  # reverse proxies in front whose X-Forwarded-For/-Proto to trust
    # Mail kept and listed at /outbox instead of sent: the embedded default; a deployment only when
    # asked (development), never because SMTP_HOST was forgotten (the page shows every player's link).
    "LOCAL_OUTBOX": (None, lambda v: v.lower() in ("1", "true", "yes")),
    # A deployment's links are https (unsubscribe links, HSTS); http only when asked (a LAN).
    "ALLOW_HTTP_BASE_URL": (False, lambda v: v.lower() in ("1", "true", "yes")),
    # Channels (service/channels): each request's connect and read timeouts, the failures in a row
    # that pause a channel, and loopback addresses allowed (a local test receiver; never private ones).
    "CHANNEL_TIMEOUT_SECONDS": (5.0, float),
    "CHANNEL_MAX_FAILURES": (5, int),
    "CHANNEL_ALLOW_LOOPBACK": (False, lambda v: v.lower() in ("1", "true", "yes")),
    # Web Push (service/channels/push.py): the VAPID private key printed by `pbem vapid-keys` (the
    # public key follows from it; unset, the page offers no "notify me on this device"), and whom the
    # push services may contact (a mailto: or https: URL; unset, MAIL_FROM's address).
    "VAPID_PRIVATE_KEY": ("", str),
    "VAPID_SUBJECT": ("", str),
}


def load_settings(instance_path: str, overrides: dict[str, Any] | None) -> dict[str, Any]:
    """Settings from defaults, the environment and `overrides`, with the embedded defaults filled in."""
    values = {name: default for name, (default, _) in SETTINGS.items()}
    for name, (_, parse) in SETTINGS.items():
        if os.environ.get(name):
            values[name] = parse(os.environ[name])
    values.update(overrides or {})
    if not 0 <= values["DIGEST_HOUR"] <= 23:
        raise ValueError(f"DIGEST_HOUR is an hour of the day, 0 to 23, not {values['DIGEST_HOUR']}")
    if deployed(values) and not values["SECRET_KEY"]:
        raise ValueError(
            "SECRET_KEY must be set when DATABASE_URL (PostgreSQL) or REDIS_URL is: every process of a "
            "deployment signs and checks links with the same key."
        )
    if deployed(values):
        _check_deployment(values)
    values["LOCAL_OUTBOX"] = local_outbox(values)
    if not values["DATABASE_URL"]:
        Path(instance_path).mkdir(parents=True, exist_ok=True)
        values["DATABASE_URL"] = f"sqlite:///{Path(instance_path) / 'pbem.sqlite3'}"
    if values["RUN_MIGRATIONS"] is None:
        values["RUN_MIGRATIONS"] = values["DATABASE_URL"].startswith("sqlite")
    if not values["SECRET_KEY"]:
        values["SECRET_KEY"] = _instance_secret(instance_path)
    return values


def deployed(settings: dict[str, Any]) -> bool:
    """Whether these are the settings of a deployment (PostgreSQL or a Redis broker), not the
    embedded default (SQLite, tasks in-process)."""
    database = settings["DATABASE_URL"] or ""
    return bool(settings["REDIS_URL"]) or bool(database and not database.startswith("sqlite"))


def _check_deployment(settings: dict[str, Any]) -> None:
    """ValueError, saying what to set, for a deployment that would expose its links: one with no way
    to send mail but the outbox page, or one whose links in mail are plain http."""
    if not settings["SMTP_HOST"] and not settings["LOCAL_OUTBOX"]:
        raise ValueError(
            "SMTP_HOST must be set in a deployment (DATABASE_URL is PostgreSQL or REDIS_URL is set): "
            "without it every mail, with every player's and host's link, would be kept on the /outbox "
            "page. For development only, LOCAL_OUTBOX=1 keeps mail there on purpose."
        )
    if not settings["BASE_URL"].startswith("https://") and not settings["ALLOW_HTTP_BASE_URL"]:
        raise ValueError(
            f"BASE_URL must be https in a deployment, not {settings['BASE_URL']!r}: its links (unsubscribe "
            "links too) would travel in clear and browsers would get no HSTS. On a private network, "
            "ALLOW_HTTP_BASE_URL=1 allows http."
        )


def local_outbox(settings: dict[str, Any]) -> bool:
    """Whether mail is kept and listed at /outbox: never once SMTP_HOST is set; else as LOCAL_OUTBOX
    says, and by default only in the embedded mode."""
    if settings["SMTP_HOST"]:
        return False
    if settings["LOCAL_OUTBOX"] is None:
        return not deployed(settings)
    return bool(settings["LOCAL_OUTBOX"])


def _instance_secret(instance_path: str) -> str:
    """A secret kept in the instance folder, so embedded-mode links survive a restart."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def secret_keys(settings: dict[str, Any]) -> list[str]:
    """Keys for signing links, oldest first: itsdangerous signs with the last, verifies with all."""
    old = [k.strip() for k in str(settings["OLD_SECRET_KEYS"]).split(",") if k.strip()]
    return [*old, settings["SECRET_KEY"]]

"""The command line: `pbem serve | new | links | migrate | rebuild | health | import | inbound |
dkim-key | vapid-keys` (also `python -m service`)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from flask import Flask

from rules import GAMES
from rules.table import BOT_LEVELS, KEEPER
from service import create_app
from service.channels.vapid import new_keys
from service.clubs.digest import send_club_digests
from service.clubs.log import club_ids
from service.clubs.recompute import recomputed
from service.config import SETTINGS, deployed
from service.db import migrate
from service.eventlog.models import SeatKeeper, TimeoutPolicy
from service.health import check_health
from service.i18n import DEFAULT_LANGUAGE, LANGUAGES
from service.mail.digest import send_due_digests
from service.mail.drafting import player_url
from service.mail.signing import dns_record, new_key
from service.play.hosting import Player, SetupRefused, create_game, seat_keeper
from service.play.names import name_from_address
from service.play.rebuild import rebuild_games
from service.play.record_import import import_record
from service.play.time_control import DEFAULT_VACATION_DAYS, MOVE_DAYS, NO_LIMIT, TimeControl
from service.play.timeouts import run_due_clocks
from service.replay.game_record import MAX_RECORD_BYTES, RecordRefused
from service.replies.listener import Mailbox, poll_mailbox, reply_listener
from service.runtime import Runtime
from service.tasks.recovery import sweep
from service.web.forms import refusal_text

log = logging.getLogger(__name__)


def parse_option(text: str) -> tuple[str, Any]:
    """`k=v` with v read as JSON when it can be (true, 3, [..]), else as a string."""
    key, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"options are key=value, not {text!r}")
    try:
        return key, json.loads(raw)
    except ValueError:
        return key, raw


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="Card games by mail.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web service (embedded mode unless configured)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8)
    new = commands.add_parser("new", help="create a game and send the invitations; prints its id last")
    new.add_argument("game", choices=GAMES)
    new.add_argument("--email", action="append", required=True, help="a player's email, in seat order")
    new.add_argument("--name", action="append", default=[], help="a player's name, in seat order")
    new.add_argument("--option", action="append", default=[], type=parse_option, help="key=value")
    new.add_argument("--seed", type=int)
    new.add_argument("--host-email", help="the host's email (default: the first player's)")
    new.add_argument(
        "--host-name",
        help="the host's name (default: the player's name with the host's email, else the address's "
        "part before the @)",
    )
    new.add_argument(
        "--bot",
        action="append",
        default=[],
        type=bot_seat,
        metavar="SEAT[:LEVEL]",
        help="seat SEAT (from 0) is played by a bot of LEVEL (keeper, steady or strong; the seat-keeper "
        "when none is given); the emails fill the other seats",
    )
    new.add_argument(
        "--days",
        type=int,
        default=NO_LIMIT,
        choices=(NO_LIMIT, *MOVE_DAYS),
        help=f"days per move (default {NO_LIMIT}: no limit)",
    )
    new.add_argument("--weekend-pause", action="store_true", help="the clocks stop on weekends")
    new.add_argument("--timezone", default="UTC", help="the game's IANA time zone (default UTC)")
    new.add_argument("--lang", choices=LANGUAGES, default=DEFAULT_LANGUAGE, help="the table's language")
    new.add_argument("--remind-hours", type=int, help="hours before a deadline for the reminder (0: none)")
    new.add_argument(
        "--timeout",
        default=TimeoutPolicy.BOT,
        choices=tuple(TimeoutPolicy),
        type=TimeoutPolicy,
        help="when a player runs out of time (default: the seat-keeper plays for them)",
    )
    new.add_argument(
        "--vacation-days", type=int, default=DEFAULT_VACATION_DAYS, help="each player's vacation days a year"
    )
    inbound = commands.add_parser(
        "inbound",
        help="receive replies to the mails (moves by reply): an SMTP/LMTP listener, or IMAP polling",
    )
    inbound.add_argument("--host", default="127.0.0.1")
    inbound.add_argument("--port", type=int, default=2525)
    inbound.add_argument("--lmtp", action="store_true", help="speak LMTP (behind a local mail server)")
    inbound.add_argument(
        "--imap", metavar="HOST", help="poll this IMAP server's mailbox instead of listening"
    )
    inbound.add_argument("--imap-port", type=int, default=993)
    inbound.add_argument("--imap-plain", action="store_true", help="IMAP without TLS (a local server only)")
    inbound.add_argument("--imap-user", default=os.environ.get("IMAP_USER", ""))
    inbound.add_argument("--imap-password", default=os.environ.get("IMAP_PASSWORD", ""))
    inbound.add_argument("--imap-folder", default="INBOX")
    inbound.add_argument("--interval", type=float, default=30, help="seconds between two IMAP polls")
    links = commands.add_parser("links", help="print each seat's current link")
    links.add_argument("game_id")
    commands.add_parser("migrate", help="bring the database schema up to date")
    commands.add_parser(
        "health", help="check the database, the broker and the beat's last tick; exits 1 if one fails"
    )
    rebuild = commands.add_parser(
        "rebuild", help="rebuild the games' rows (status) and turn clocks from their logs; prints each repair"
    )
    rebuild.add_argument("game_id", nargs="*", help="the games to rebuild (default: every game)")
    load = commands.add_parser(
        "import", help="load a finished game's record (JSON) once it verifies; prints the new game's id last"
    )
    load.add_argument("file", type=argparse.FileType("rb"))
    club = commands.add_parser("club", help="clubs: `club recompute` derives standings and ratings anew")
    club_commands = club.add_subparsers(dest="club_command", required=True)
    recompute = club_commands.add_parser(
        "recompute", help="fold every club's standings and ratings from the logs anew and print them"
    )
    recompute.add_argument("club_id", nargs="*", help="the clubs to recompute (default: every club)")
    dkim = commands.add_parser(
        "dkim-key", help="write a new DKIM private key (PEM) and print the DNS TXT record to publish"
    )
    dkim.add_argument("file", help="where to write the private key (DKIM_PRIVATE_KEY names it)")
    dkim.add_argument("--selector", default="pbem", help="DKIM_SELECTOR (default: pbem)")
    dkim.add_argument("--domain", default="", help="the signing domain (default: MAIL_FROM's)")
    commands.add_parser(
        "vapid-keys", help="make the VAPID key pair of Web Push and print the settings to set, once"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "migrate":
        migrate(create_app().config["PBEM"]["DATABASE_URL"])
        return 0
    if args.command == "dkim-key":
        return dkim_key(Path(args.file), args.selector, args.domain)
    if args.command == "vapid-keys":
        return vapid_keys()
    app = create_app(serve_settings(args, os.environ) if args.command == "serve" else None)
    with app.app_context():
        if args.command == "new":
            return new_game(app, args)
        if args.command == "inbound":
            return receive_replies(app, args)
        if args.command == "links":
            return print_links(app, args.game_id)
        if args.command == "rebuild":
            return rebuild(app, args.game_id)
        if args.command == "health":
            return health(app)
        if args.command == "import":
            return load_record(app, args.file.read(MAX_RECORD_BYTES + 1))
        if args.command == "club":
            return recompute_clubs(app, args.club_id)
    return serve(app, args.host, args.port, args.threads)


def recompute_clubs(app: Flask, chosen: list[str]) -> int:
    """Print each club's standings and ratings, derived anew from the logs, one JSON line a club
    (nothing is stored: this is what every page shows)."""
    rt = app.extensions["pbem"]
    for club_id in chosen or club_ids(rt):
        print(json.dumps(recomputed(rt, club_id), ensure_ascii=False, sort_keys=True))
    return 0


def bot_seat(value: str) -> tuple[int, str]:
    """A --bot value: SEAT or SEAT:LEVEL (argparse's error for anything else)."""
    seat, _, level = value.partition(":")
    if not seat.isdigit():
        raise argparse.ArgumentTypeError(f"{value!r} is not SEAT or SEAT:LEVEL (a seat number from 0)")
    if level and level not in BOT_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {level!r}; the levels are {', '.join(BOT_LEVELS)}"
        )
    return int(seat), level or KEEPER


def dkim_key(path: Path, selector: str, domain: str) -> int:
    """Write a new signing key (readable by its owner only) and print the record to publish."""
    domain = (
        domain or parseaddr(os.environ.get("MAIL_FROM") or SETTINGS["MAIL_FROM"][0])[1].rpartition("@")[2]
    )
    key = new_key()
    path.touch(mode=0o600, exist_ok=False)
    path.write_bytes(key)
    print(f"Wrote {path}. Set DKIM_PRIVATE_KEY={path} and DKIM_SELECTOR={selector}; publish this TXT record:")
    print(f'{selector}._domainkey.{domain}. IN TXT "{dns_record(key)}"')
    return 0


def vapid_keys() -> int:
    """Print a new VAPID key pair as the settings that turn Web Push on. Made once: a new pair ends
    every browser's subscription made with the old one."""
    keys = new_keys()
    print("Set these (keep VAPID_PRIVATE_KEY secret; its public key follows from it):")
    print(f"VAPID_PRIVATE_KEY={keys.private}")
    print("VAPID_SUBJECT=mailto:you@example.org   # whom the push services may contact; default MAIL_FROM's")
    print(f"# the public key browsers subscribe with: {keys.public}")
    return 0


def new_game(app: Flask, args: argparse.Namespace) -> int:
    names = args.name + [name_from_address(email) for email in args.email[len(args.name) :]]
    people = iter(Player(name, email) for name, email in zip(names, args.email, strict=True))
    levels = dict(args.bot)
    bots = sorted(levels)
    seats = len(args.email) + len(bots)
    if any(not 0 <= seat < seats for seat in bots):
        print(f"error: a --bot seat must be from 0 to {seats - 1}")
        return 2
    players = [
        seat_keeper("", bots.index(seat) + 1, len(bots), levels[seat]) if seat in bots else next(people)
        for seat in range(seats)
    ]
    host_email = args.host_email or args.email[0]
    playing = next((p.name for p in players if p.email == host_email), None)
    host = Player(args.host_name or playing or name_from_address(host_email), host_email)
    control = TimeControl(
        args.days, args.weekend_pause, args.timezone, args.remind_hours, args.timeout, args.vacation_days
    )
    try:
        game_id = create_game(
            app.extensions["pbem"], args.game, players, host, dict(args.option), args.seed, control, args.lang
        )
    except SetupRefused as refusal:
        print(f"error: {refusal_text(refusal)}")
        return 2
    print(game_id)
    return 0


def rebuild(app: Flask, game_ids: list[str]) -> int:
    """Rebuild rows from logs and print one line per repaired game, then a count."""
    repairs = rebuild_games(app.extensions["pbem"], game_ids)
    for repair in repairs:
        print(f"{repair.game_id}: {repair.was} -> {repair.now}")
    print(f"{len(repairs)} game(s) repaired")
    return 0


def health(app: Flask) -> int:
    """Print each check's answer; 0 when all pass, 1 otherwise (for a supervisor's health check)."""
    result = check_health(app.extensions["pbem"])
    for name, answer in result.checks.items():
        print(f"{name}\t{answer}")
    return 0 if result.ok else 1


def load_record(app: Flask, raw: bytes) -> int:
    """Import a record: its public history's address, then the new game's id; or why it was refused."""
    rt = app.extensions["pbem"]
    try:
        game_id = import_record(rt, raw)
    except RecordRefused as refusal:
        print(f"error: {refusal}")
        return 1
    print(rt.link(f"/game/{game_id}/history"))
    print(game_id)
    return 0


def receive_replies(app: Flask, args: argparse.Namespace) -> int:
    """Listen for replies (SMTP, or LMTP) until stopped, or poll an IMAP mailbox every interval."""
    if args.imap:
        mailbox = Mailbox(
            args.imap,
            args.imap_user,
            args.imap_password,
            args.imap_folder,
            args.imap_port,
            not args.imap_plain,
        )
        while True:
            try:
                poll_mailbox(app, mailbox)
            except Exception:  # a mailbox that is away for a while: try again at the next poll
                log.exception("could not poll the mailbox")
            time.sleep(args.interval)
    listener = reply_listener(app, args.host, args.port, args.lmtp)
    listener.start()
    print(f"Receiving replies on {args.host}:{args.port} ({'LMTP' if args.lmtp else 'SMTP'})")
    try:
        threading.Event().wait()
    finally:
        listener.stop()
    return 0


def print_links(app: Flask, game_id: str) -> int:
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    for seat in table.seats:
        if seat.keeper == SeatKeeper.BOT:
            print(f"{seat.seat}\t{seat.name}\t(seat-keeper bot: no link)")
        else:
            print(f"{seat.seat}\t{seat.name} <{seat.email}>\t{player_url(rt, table, seat.seat)}")
    return 0


def serve_settings(args: argparse.Namespace, environ: Mapping[str, str]) -> dict[str, Any]:
    """`pbem serve --port P` in embedded mode: mail links point at that port (BASE_URL's default names
    port 5000, so links from a server on another port led nowhere). A BASE_URL set in the environment,
    or a deployment (PostgreSQL, Redis), keeps its own."""
    stores = {name: environ.get(name) for name in ("DATABASE_URL", "REDIS_URL")}
    if environ.get("BASE_URL") or deployed(stores):
        return {}
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host  # a link needs a reachable host
    return {"BASE_URL": f"http://{host}:{args.port}"}


def serve(app: Flask, host: str, port: int, threads: int) -> int:
    """Serve with gunicorn (one process, threads; tasks in-process unless REDIS_URL is set)."""
    from gunicorn.app.base import BaseApplication

    from service.gunicorn_conf import RedactingLogger

    rt = app.extensions["pbem"]
    if not rt.settings["REDIS_URL"]:  # no Celery beat: the periodic work runs in threads here
        _every(app, "pbem-sweep", rt.settings["SWEEP_INTERVAL_SECONDS"], sweep)
        _every(app, "pbem-digests", rt.settings["CLOCK_INTERVAL_SECONDS"], send_due_digests)
        _every(app, "pbem-clocks", rt.settings["CLOCK_INTERVAL_SECONDS"], run_due_clocks)
        _every(app, "pbem-club-digests", rt.settings["CLOCK_INTERVAL_SECONDS"], send_club_digests)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", 1)
            self.cfg.set("threads", threads)
            self.cfg.set("accesslog", "-")
            self.cfg.set("logger_class", RedactingLogger)  # no token in the access log

        def load(self) -> Flask:
            return app

    outbox = f"  (outbox: http://{host}:{port}/outbox)" if rt.settings["LOCAL_OUTBOX"] else ""
    print(f"Serving on http://{host}:{port}/{outbox}")
    Server().run()
    return 0


def _every(app: Flask, name: str, interval: float, work: Callable[[Runtime], object]) -> None:
    """Without Celery beat, run `work` every `interval` seconds from a background thread."""

    def loop() -> None:
        while True:
            time.sleep(interval)
            with app.app_context():
                try:
                    work(app.extensions["pbem"])
                except Exception:  # keep the thread alive: the next round tries again
                    log.exception("%s failed", name)

    threading.Thread(target=loop, name=name, daemon=True).start()


if __name__ == "__main__":
    raise SystemExit(main())

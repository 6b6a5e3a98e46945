"""Creating and managing games: the host's side (invite, resend or revoke a link, cancel)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from rules import get_game
from rules.base import N_, cancel_decision
from service.eventlog.models import (
    EventOrigin,
    GameRecord,
    OutboxMail,
    SeatKeeper,
    SeatRecord,
)
from service.eventlog.store import Table, append_events, append_move, load_table
from service.mail.drafting import draft_mail, drafted, invitation_mails, mailed_seats, player_url
from service.mail.kinds import MailKind
from service.play.settle import settle
from service.play.time_control import TimeControl
from service.runtime import Runtime


@dataclass(frozen=True)
class Player:
    name: str
    email: str
    bot: bool = False  # a seat the seat-keeper plays from the start (no email)


BOT_NAME = "Seat-keeper"


def seat_keeper(name: str, number: int, of: int) -> Player:
    """A seat the seat-keeper plays: its given name, else "Seat-keeper" (numbered 1.. when `of`,
    the game's number of such seats, is more than one)."""
    return Player(name or (f"{BOT_NAME} {number}" if of > 1 else BOT_NAME), "", bot=True)


class SetupRefused(ValueError):
    """A game that cannot be created as asked: `msgid` and `params` for the host, where `%(title)s`
    stands for the game's title (the edge names `game` as players know it) and a tuple of numbers
    for alternatives ("3 or 4")."""

    def __init__(self, game: str, msgid: str, **params: Any) -> None:
        spelled = {key: " or ".join(map(str, v)) if isinstance(v, tuple) else v for key, v in params.items()}
        super().__init__(msgid % {"title": game, **spelled})
        self.game, self.msgid, self.params = game, msgid, params


def check_setup(game: str, players: list[Player], options: dict[str, Any], control: TimeControl) -> None:
    """SetupRefused unless the seats, the options and the time control fit the game (before the
    rules are asked to start it)."""
    rules = get_game(game)
    refusal = control.refusal()
    if refusal is not None:
        raise SetupRefused(game, refusal[0], **refusal[1])
    if all(player.bot for player in players):
        raise SetupRefused(game, N_("At least one seat must be a person's, not the seat-keeper's."))
    if len(players) not in rules.seat_counts:
        raise SetupRefused(game, N_("%(title)s is played by %(counts)s players."), counts=rules.seat_counts)
    unknown = sorted(set(options) - set(rules.default_options))
    if unknown:
        raise SetupRefused(game, N_("%(title)s has no option %(names)s."), names=", ".join(unknown))


def opening_events(game: str, seed: int, seats: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The rules' opening events; SetupRefused when the rules refuse these options for this many
    seats (naming the seat counts that would do, when there are some)."""
    rules = get_game(game)
    try:
        return rules.start(seed, seats, options)
    except ValueError as refusal:
        # Which seat counts a variant allows is the rules' to say (Duālis needs four players
        # unless it is played Iso), so ask them rather than repeat the rule here.
        fitting = tuple(n for n in rules.seat_counts if n != seats and _starts(game, seed, n, options))
        if fitting:
            raise SetupRefused(
                game, N_("%(title)s is played by %(counts)s players with these options."), counts=fitting
            ) from refusal
        raise SetupRefused(
            game, N_("%(title)s cannot start with these options: %(reason)s"), reason=str(refusal)
        ) from refusal


def _starts(game: str, seed: int, seats: int, options: dict[str, Any]) -> bool:
    """Whether the rules start the game with this many seats and these options."""
    try:
        get_game(game).start(seed, seats, options)
    except ValueError:
        return False
    return True


def create_game(
    rt: Runtime,
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    control: TimeControl | None = None,
) -> str:
    """A new game with its opening events, clocks and invitations (and the bot seats' moves, if they
    begin); SetupRefused for seats, options or a time control that do not fit."""
    with Session(rt.engine, expire_on_commit=False) as session:
        game_id, mails = open_game(rt, session, game, players, host, options, seed, control)
        session.add_all(mails)
        session.commit()
        mail_ids = [m.id for m in mails if m.id is not None]
    rt.dispatch.send_mails(mail_ids)
    return game_id


def open_game(
    rt: Runtime,
    session: Session,
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    control: TimeControl | None = None,
) -> tuple[str, list[OutboxMail]]:
    """`create_game` inside the caller's transaction: the new game's id and its invitations, to be
    written in that transaction (a rematch starts its game in its proposal's)."""
    options = dict(options or {})
    control = control or TimeControl()
    check_setup(game, players, options, control)
    seed = secrets.randbits(62) if seed is None else seed
    opening = opening_events(game, seed, len(players), options)
    game_id = secrets.token_urlsafe(9)
    now = rt.clock.now()
    record = GameRecord(
        id=game_id,
        game=game,
        options=options,
        host_name=host.name,
        host_email=host.email,
        seed_salt=secrets.token_hex(16),
        created_at=now,
        **control.columns(),
    )
    session.add(record)
    seats = [
        SeatRecord(
            game_id=game_id,
            seat=n,
            name=p.name,
            email="" if p.bot else p.email,
            keeper=SeatKeeper.BOT if p.bot else SeatKeeper.PLAYER,
        )
        for n, p in enumerate(players)
    ]
    session.add_all(seats)
    session.flush()
    append_events(session, game_id, 0, opening, None, origin=EventOrigin.GAME, now=now)
    table = settle(session, load_table(session, game_id), now)
    return game_id, invitation_mails(rt, table)


def resend_link(rt: Runtime, game_id: str, seat: int) -> None:
    """Mail a seat its current link again."""
    _mail_link(rt, game_id, seat, revoke=False)


def revoke_link(rt: Runtime, game_id: str, seat: int) -> None:
    """Revoke every link of a seat so far and mail the seat a new one."""
    _mail_link(rt, game_id, seat, revoke=True)


def _mail_link(rt: Runtime, game_id: str, seat: int, revoke: bool) -> None:
    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats):
            raise LookupError(f"game {game_id} has no seat {seat}")
        record = table.seats[seat]
        if record.keeper == SeatKeeper.BOT:
            raise LookupError(f"seat {seat} of game {game_id} is the seat-keeper's: it has no link to mail")
        if revoke:
            record.key_version += 1  # the table's seat row itself: its links are signed anew
            session.add(record)
        kind = MailKind.LINK_REISSUED if revoke else MailKind.LINK_RESENT
        return None, drafted(draft_mail(rt, table, kind, seat, {"link": player_url(rt, table, seat)}))

    rt.in_game(game_id, change)


def cancel_game(rt: Runtime, game_id: str) -> bool:
    """The host stops a running game: the cancellation is appended to its log and the players are
    told. False if it was not running."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        if not table.active:
            return False, []
        now = rt.clock.now()
        decision = cancel_decision("host")
        events = table.rules.decide(table.state, decision, len(table.seats))
        cancelled = append_move(session, table, None, decision, events, EventOrigin.HOST, now)
        table = settle(session, cancelled, now)
        told = (draft_mail(rt, table, MailKind.GAME_CANCELLED, seat.seat, {}) for seat in mailed_seats(table))
        return True, drafted(*told)

    return rt.in_game(game_id, change)


def set_public_replay(rt: Runtime, game_id: str, allowed: bool) -> None:
    """Open (or close) the finished game's replay to anyone with its public link."""
    _set_host_choice(rt, game_id, public_replay=allowed)


def set_host_notify(rt: Runtime, game_id: str, on: bool) -> None:
    """Turn the host's notices about a game on or off."""
    _set_host_choice(rt, game_id, host_notify=on)


def _set_host_choice(rt: Runtime, game_id: str, **choice: bool) -> None:
    """Store one of the host's choices on the game's record (its settings, never its play)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        for field, value in choice.items():
            setattr(table.record, field, value)
        session.add(table.record)
        return None, []

    rt.in_game(game_id, change)


def revoke_watch_link(rt: Runtime, game_id: str) -> None:
    """Stop the spectator link shared so far (a new one is shown to the host)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        table.record.watch_key_version += 1
        session.add(table.record)
        return None, []

    rt.in_game(game_id, change)

"""Creating and managing games: the host's side (invite, resend or revoke a link, cancel) and the
host's takeovers, each an event of the log told to every player: a seat given to a new player, the
seat-keeper put in a seat or taken out, more time for a move, the game ended as a draw or by a
forfeit."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from rules import IllegalAction, get_game
from rules.messages import N_
from rules.table import BOT_LEVELS, KEEPER, cancel_decision, draw_decision, keep_decision, replace_decision
from service.eventlog.models import (
    EventOrigin,
    GameRecord,
    NotifyMode,
    OutboxMail,
    SeatKeeper,
    SeatRecord,
)
from service.eventlog.store import Table, append_events, load_table
from service.mail.drafting import (
    draft_mail,
    drafted,
    host_url,
    invitation_mails,
    mailed_seats,
    player_url,
    replay_url,
    rules_url,
)
from service.mail.kinds import MailKind
from service.mail.move_mails import mails_after_move
from service.mail.outbox import write_outbox
from service.play.clocks import dues
from service.play.decisions_told import extend_deadline, forfeit, host_decision_mails
from service.play.master import Master, new_game_master, step
from service.play.names import BOT_NAME, label_refusal, look_alike_refusal, name_refusal
from service.play.time_control import TimeControl
from service.reading import since_lines
from service.replay.fairness import game_commitment
from service.runtime import Runtime

GAME_ID_ALPHABET = string.ascii_letters + string.digits
GAME_ID_LENGTH = 12
SEED_MAX = 2**63 - 1  # a game asked for keeps its seed in an SQL BIGINT until it is confirmed


@dataclass(frozen=True)
class Player:
    name: str
    email: str
    bot: bool = False  # a seat the seat-keeper plays from the start (no email)
    level: str = KEEPER  # the bot's level (rules.table.BOT_LEVELS) in such a seat
    language: str = ""  # the player's own language for their pages and mails ("": the table's)


def seat_keeper(name: str, number: int, of: int, level: str = KEEPER) -> Player:
    """A seat a bot of `level` plays: its given name, else "Seat-keeper" (numbered 1.. when `of`,
    the game's number of such seats, is more than one)."""
    return Player(name or (f"{BOT_NAME} {number}" if of > 1 else BOT_NAME), "", bot=True, level=level)


class SetupRefused(ValueError):
    """A game that cannot be created as asked: `msgid` and `params` for the host, where `%(title)s`
    stands for the game's title (the edge names `game` as players know it) and a tuple of numbers
    for alternatives ("3 or 4")."""

    def __init__(self, game: str, msgid: str, **params: Any) -> None:
        spelled = {key: " or ".join(map(str, v)) if isinstance(v, tuple) else v for key, v in params.items()}
        super().__init__(msgid % {"title": game, **spelled})
        self.game, self.msgid, self.params = game, msgid, params


def check_setup(
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any],
    control: TimeControl,
    seed: int | None = None,
) -> None:
    """SetupRefused unless the seed, the names, the seats, the options and the time control fit the
    game (before the rules are asked to start it)."""
    rules = get_game(game)
    refusal = control.refusal()
    if refusal is not None:
        raise SetupRefused(game, refusal[0], **refusal[1])
    if seed is not None and not 0 <= seed <= SEED_MAX:
        raise SetupRefused(game, N_("A seed is a whole number from 0 to %(most)s."), most=SEED_MAX)
    for name in (host.name, *(player.name for player in players)):
        refusal = name_refusal(name)
        if refusal is not None:
            raise SetupRefused(game, refusal[0], **refusal[1])
    for n, player in enumerate(players):  # the host is the host: only seats' names could mislead
        refusal = (None if player.bot else label_refusal(player.name)) or look_alike_refusal(
            player.name, (other.name for other in players[:n])
        )
        if refusal is not None:
            raise SetupRefused(game, refusal[0], **refusal[1])
    for player in players:
        refusal = level_refusal(player)
        if refusal is not None:
            raise SetupRefused(game, refusal[0], **refusal[1])
    if all(player.bot for player in players):
        raise SetupRefused(game, N_("At least one seat must be a person's, not the seat-keeper's."))
    if len(players) not in rules.seat_counts:
        raise SetupRefused(game, N_("%(title)s is played by %(counts)s players."), counts=rules.seat_counts)
    unknown = sorted(set(options) - set(rules.default_options))
    if unknown:
        raise SetupRefused(game, N_("%(title)s has no option %(names)s."), names=", ".join(unknown))


def level_refusal(player: Player) -> tuple[str, dict[str, Any]] | None:
    """Why a seat's bot level cannot be (an unknown level, or a level for a person's seat); None
    when it fits."""
    if player.level not in BOT_LEVELS:
        return N_("There is no bot level %(level)s: choose %(levels)s."), {
            "level": player.level,
            "levels": ", ".join(BOT_LEVELS),
        }
    if player.level != KEEPER and not player.bot:
        return N_("Only a bot's seat has a bot level: %(name)s is a person's seat."), {"name": player.name}
    return None


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


def new_game_id() -> str:
    """A random game id of letters and digits (about 71 bits): never looks like a command-line option,
    nor needs escaping in a URL."""
    return "".join(secrets.choice(GAME_ID_ALPHABET) for _ in range(GAME_ID_LENGTH))


@dataclass(frozen=True)
class GameSetup:
    """What a new game is made of, as its host chose it."""

    game: str
    players: tuple[Player, ...]
    host: Player
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None  # None: drawn when the game starts
    control: TimeControl = field(default_factory=TimeControl)
    language: str = ""  # the table's language ("": none chosen)

    def check(self) -> None:
        """SetupRefused unless the game can start as set up (the rules are asked too)."""
        check_setup(self.game, list(self.players), self.host, self.options, self.control, self.seed)
        opening_events(self.game, self.seed or 0, len(self.players), self.options)


def create_game(
    rt: Runtime,
    game: str,
    players: list[Player],
    host: Player,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    control: TimeControl | None = None,
    language: str = "",
) -> str:
    """A new game with its opening events, clocks and invitations (and the bot seats' moves, if they
    begin), in the table's `language` (each reader's own once they choose one); SetupRefused for
    seats, options or a time control that do not fit."""
    setup = GameSetup(
        game, tuple(players), host, dict(options or {}), seed, control or TimeControl(), language
    )
    return open_game(rt, setup)


def open_game(rt: Runtime, setup: GameSetup) -> str:
    """`create_game` of a setup: the new game's id."""
    with Session(rt.engine, expire_on_commit=False) as session:
        game_id, mails = start_game(rt, session, setup)
        rt.commit_and_send(session, game_id, mails)
    return game_id


def start_game(rt: Runtime, session: Session, setup: GameSetup) -> tuple[str, list[OutboxMail]]:
    """In `session` (the caller commits): a new game with its opening events, clocks and
    invitations; its id and the mails. SetupRefused when the setup does not fit."""
    players, host, options = list(setup.players), setup.host, setup.options
    check_setup(setup.game, players, host, options, setup.control, setup.seed)
    seed = secrets.randbits(62) if setup.seed is None else setup.seed
    opening = opening_events(setup.game, seed, len(players), options)
    game_id = new_game_id()
    now = rt.clock.now()
    record = GameRecord(
        id=game_id,
        game=setup.game,
        options=options,
        host_name=host.name,
        host_email=host.email,
        seed_salt=secrets.token_hex(16),
        created_at=now,
        language=setup.language,
        **setup.control.columns(),
    )
    session.add(record)
    seats = [
        SeatRecord(
            game_id=game_id,
            seat=n,
            name=p.name,
            email="" if p.bot else p.email,
            keeper=SeatKeeper.BOT if p.bot else SeatKeeper.PLAYER,
            bot_level=p.level if p.bot and p.level != KEEPER else None,
            language=p.language,
        )
        for n, p in enumerate(players)
    ]
    session.add_all(seats)
    session.flush()
    append_events(session, game_id, 0, opening, None, origin=EventOrigin.GAME, now=now)
    table = new_game_master(rt, session, load_table(session, game_id)).settle()
    mails = invitation_mails(rt, table, dues(session, game_id))
    write_outbox(session, mails)
    return game_id, mails


def resend_link(rt: Runtime, game_id: str, seat: int) -> bool:
    """Mail a seat its current link again; False when the seat turned such mail off (nothing sent)."""
    return _mail_link(rt, game_id, seat, revoke=False)


def revoke_link(rt: Runtime, game_id: str, seat: int) -> bool:
    """Revoke every link of a seat so far and mail the seat a new one (always mailed)."""
    return _mail_link(rt, game_id, seat, revoke=True)


def _mail_link(rt: Runtime, game_id: str, seat: int, revoke: bool) -> bool:
    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats):
            raise LookupError(f"game {game_id} has no seat {seat}")
        record = table.seats[seat]
        if record.keeper == SeatKeeper.BOT:
            raise LookupError(f"seat {seat} of game {game_id} is the seat-keeper's: it has no link to mail")
        if revoke:
            record.key_version += 1  # the table's seat row itself: its links are signed anew
            session.add(record)
        kind = MailKind.LINK_REISSUED if revoke else MailKind.LINK_RESENT
        mails = drafted(draft_mail(rt, table, kind, seat, {"link": player_url(rt, table, seat)}))
        return bool(mails), mails

    return rt.in_game(game_id, change)


def revoke_host_link(rt: Runtime, game_id: str) -> None:
    """Revoke every host link of the game so far (and the host's unsubscribe links with them) and
    mail the host's address the new one: as `revoke_link` does for a seat."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        table.record.host_key_version += 1  # the table's game row: its host links are signed anew
        session.add(table.record)
        mail = draft_mail(rt, table, MailKind.HOST_LINK_REISSUED, None, {"link": host_url(rt, table)})
        return None, drafted(mail)

    rt.in_game(game_id, change)


def cancel_game(rt: Runtime, game_id: str) -> bool:
    """The host stops a running game: the cancellation is appended to its log and the players are
    told. False if it was not running."""

    def work(master: Master) -> bool:
        if not master.table.active:
            return False
        master.decide(cancel_decision("host"), EventOrigin.HOST)
        table = master.settle()
        told = (draft_mail(rt, table, MailKind.GAME_CANCELLED, seat.seat, {}) for seat in mailed_seats(table))
        master.tell(drafted(*told))
        return True

    return step(rt, game_id, work)


def set_public_replay(rt: Runtime, game_id: str, allowed: bool) -> None:
    """Open (or close) the finished game's replay to anyone with its public link."""
    _set_host_choice(rt, game_id, public_replay=allowed)


def set_host_notify(rt: Runtime, game_id: str, on: bool) -> None:
    """Turn the host's notices about a game on or off."""
    _set_host_choice(rt, game_id, host_notify=on)


def _set_host_choice(rt: Runtime, game_id: str, **choice: bool) -> None:
    """Store one of the host's choices on the game's record (its settings, never its play)."""

    def change(session: Session, table: Table) -> tuple[None, list[OutboxMail]]:
        for column, value in choice.items():
            setattr(table.record, column, value)
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


# ------------------------------------------------------------------------------ takeovers


def _seat(table: Table, seat: int) -> SeatRecord:
    """The seat's row; IllegalAction if the game has no such seat."""
    if not 0 <= seat < len(table.seats):
        raise IllegalAction(N_("This game has no such seat."))
    return table.seats[seat]


def replace_player(rt: Runtime, game_id: str, seat: int, player: Player) -> None:
    """Give a seat of the running game to a new player: the decision is logged (the name, never the
    address), the seat's old links stop working (its key version moves on), the player who leaves
    is told, the new one invited with what happened so far, the others told."""

    def work(master: Master) -> None:
        record = _seat(master.table, seat)
        names = [other.name for other in master.table.seats if other.seat != seat]
        refusal = (
            name_refusal(player.name) or label_refusal(player.name) or look_alike_refusal(player.name, names)
        )
        if refusal is not None:
            raise IllegalAction(refusal[0], **refusal[1])
        leaving = record.keeper != SeatKeeper.BOT
        after = master.decide(replace_decision(seat, player.name, record.name), EventOrigin.HOST)
        told = draft_mail(rt, after, MailKind.REPLACED, seat, {"name": player.name}) if leaving else None
        replaced = record.name
        record.name, record.email = player.name, player.email
        record.key_version += 1  # every link of the seat so far is revoked
        record.notify, record.timezone, record.auto_play = NotifyMode.TURN, "", True  # the new player's
        record.language, record.mention = "", ""  # the table's, no mention, until the new player chooses
        master.session.add(record)
        settled = master.settle()
        invited = draft_mail(rt, settled, MailKind.TAKEN_OVER, seat, _taken_over(rt, settled, seat, replaced))
        others = host_decision_mails(rt, after, skip=frozenset({seat}))
        moved_on = mails_after_move(rt, after, settled, dues(master.session, game_id))
        master.tell([*drafted(told, invited), *others, *moved_on])

    step(rt, game_id, work)


def _taken_over(rt: Runtime, table: Table, seat: int, replaced: str) -> dict[str, Any]:
    """What the new player of a seat is sent: their link, the replay so far, the latest lines."""
    return {
        "replaced": replaced,
        "link": player_url(rt, table, seat),
        "replay": replay_url(rt, table, seat),
        "your_move": seat in table.rules.to_act(table.state),
        "lines": since_lines(rt, table, seat),
        "commitment": game_commitment(table),
        "rules": rules_url(rt, table),
    }


def keep_seat(rt: Runtime, game_id: str, seat: int, by_keeper: bool, level: str = KEEPER) -> None:
    """Put a bot of `level` in a player's seat until the host takes it out (or the player takes the
    seat back), or take it out; or change the level of a bot's seat. Logged and told to every
    player. IllegalAction if the seat is already so, the level unknown, or the seat has no player
    to give it back to (a bot's seat from the start: replace it instead)."""

    def work(master: Master) -> None:
        record = _seat(master.table, seat)
        if level not in BOT_LEVELS:
            raise IllegalAction(N_("There is no such bot level."))
        if record.keeper == SeatKeeper.BOT and not by_keeper:
            raise IllegalAction(N_("This seat has no player: give it to a new player instead."))
        now_kept = record.keeper != SeatKeeper.PLAYER
        if now_kept == by_keeper and (not by_keeper or (record.bot_level or KEEPER) == level):
            raise IllegalAction(N_("The seat is already played that way."))
        after = master.decide(keep_decision(seat, by_keeper, level), EventOrigin.HOST)
        master.tell(host_decision_mails(rt, after))
        master.follow()

    step(rt, game_id, work)


def give_more_time(rt: Runtime, game_id: str, seat: int, days: int) -> None:
    """A fresh clock of `days` days for the move the seat owes (IllegalAction if it owes none, or
    the game has no time limit)."""

    def work(master: Master) -> None:
        _seat(master.table, seat)
        if not TimeControl.of(master.table.record).timed:
            raise IllegalAction(N_("This game has no time limit."))
        extend_deadline(master, seat, days)

    step(rt, game_id, work)


def declare_forfeit(rt: Runtime, game_id: str, seat: int) -> None:
    """The host ends the running game by the seat's forfeit: the other side wins, everyone is told."""

    def work(master: Master) -> None:
        _seat(master.table, seat)
        forfeit(master, seat, EventOrigin.HOST)

    step(rt, game_id, work)


def declare_draw(rt: Runtime, game_id: str) -> None:
    """The host ends the running game as a draw: every seat is among the winners, everyone is told."""

    def work(master: Master) -> None:
        before = master.table
        master.decide(draw_decision("host"), EventOrigin.HOST)
        master.follow(before)

    step(rt, game_id, work)

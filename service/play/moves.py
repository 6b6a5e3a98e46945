"""Moves: a seat's action submitted (web side) and decided (worker side).

`submit_move` checks what can be checked at once (link seat, staleness, the rules' verdict on the
current log), stores a pending command and asks the worker to apply it. `apply_command` is the one
place a player's move changes a game: a step of the master (service/play/master.py: lock, load,
decide with the rules, append with the expected version, then the automatic moves, projections and
outbox rows that follow, all in one transaction), retried on a version conflict. The same command
never applies twice.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement, bindparam
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session, and_, col, or_, select
from sqlmodel.sql.expression import SelectOfScalar

from rules import IllegalAction
from rules.messages import N_, Message
from service.db import database_unavailable, retry_on_disconnect
from service.eventlog.models import CommandRecord, CommandStatus
from service.eventlog.store import Table, VersionConflict, load_table
from service.play.master import Master, step
from service.play.table_talk import Word
from service.runtime import Listener, Runtime

CONFLICT_RETRIES = 20
POLL_SECONDS = 0.05  # without word of decisions: the longest pause between two reads of a command
# With word of decisions (Redis pub/sub), the pause between two reads should the word be lost: under
# load a move waits hundreds of milliseconds for a worker, and reading every 50 ms cost the web a
# tenth of its CPU (py-spy) for answers that the word gives anyway.
WORD_LOST_SECONDS = 0.5
EARLIER_PENDING = N_(
    "This move was not taken: your previous move is still being played. Make it again once that one is done."
)


class MoveStatus(StrEnum):
    """What became of a submitted move (the JSON API's `status`)."""

    ACCEPTED = "accepted"
    PENDING = "pending"
    EARLIER_PENDING = "earlier_pending"  # not stored: the seat's earlier move is still being played
    REJECTED = "rejected"
    STALE = "stale"
    DUPLICATE = "duplicate"
    CLOSED = "closed"


@dataclass(frozen=True)
class MoveOutcome:
    """What became of a submitted move, with a message for the player."""

    status: MoveStatus
    message: Message | None = None
    command_id: int | None = None


def command_key(seat: int, seq: int, action: dict[str, Any]) -> str:
    """The identity of a submission: the same seat, version and action is the same move."""
    text = json.dumps({"seat": seat, "seq": seq, "action": action}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def is_stale(table: Table, seat: int, seq: int) -> bool:
    """Whether a move rendered at `seq` was made on a picture that has since changed for this seat.

    A move is stale when the game moved on and this seat's legal actions changed meanwhile. Another
    seat's hidden simultaneous choice advances the log but leaves this seat's choice intact.
    """
    if seq == table.version:
        return False
    rules = table.rules
    return rules.legal_actions(table.state_at(seq), seat) != rules.legal_actions(table.state, seat)


def decide(table: Table, seat: int, seq: int, action: dict[str, Any]) -> list[dict[str, Any]] | MoveOutcome:
    """The events a move causes on this table, or the outcome that refuses it."""
    if not table.active:
        return MoveOutcome(MoveStatus.CLOSED, (N_("This game is no longer running."), {}))
    if not 1 <= seq <= table.version:
        return MoveOutcome(MoveStatus.REJECTED, (N_("That move names a version this game never had."), {}))
    if is_stale(table, seat, seq):
        return MoveOutcome(MoveStatus.STALE, (N_("The game moved on: here is the fresh page."), {}))
    try:
        return table.rules.act(table.state, seat, action)
    except IllegalAction as refusal:
        return MoveOutcome(MoveStatus.REJECTED, (refusal.msgid, refusal.params))


def submit_move(
    rt: Runtime,
    game_id: str,
    seat: int,
    seq: int,
    action: dict[str, Any],
    table: Table | None = None,
    word: Word | None = None,
) -> MoveOutcome:
    """The one way a seat's move comes in (its page, the JSON twin, a reply by mail): check it
    against the current log, store it as a pending command with the words sent with it and dispatch
    it. A resend of a stored move (same seat, version and action) answers with the stored command's
    outcome. `table`: the game as the request has just read it (else it is read here); the check is
    only a first answer, as the worker decides again under the game's lock."""
    key = command_key(seat, seq, action)
    stored = retry_on_disconnect(lambda: _store_command(rt, game_id, seat, seq, action, key, table, word))
    if isinstance(stored, MoveOutcome):
        return stored
    try:
        with rt.dispatch.listen(stored) as listener:  # listening before the worker can decide
            rt.dispatch.apply_move(stored, game_id)
            return wait_for_command(rt, stored, listener)
    except DBAPIError as error:
        if not database_unavailable(error):
            raise
        # Stored, but its outcome cannot be read now: say what is known.
        return MoveOutcome(MoveStatus.PENDING, (N_("Your move was received and will be played."), {}), stored)


def _store_command(
    rt: Runtime,
    game_id: str,
    seat: int,
    seq: int,
    action: dict[str, Any],
    key: str,
    table: Table | None,
    word: Word | None,
) -> int | MoveOutcome:
    """The id of the new pending command, or the outcome that answers the submission instead: the
    stored outcome of the same move sent before, the seat's earlier move still being played, or the
    refusal."""
    with Session(rt.engine, expire_on_commit=False) as session:
        earlier, waiting = _sent_before(session, game_id, seat, key)
        if earlier is not None:
            return _outcome_of(earlier, replayed=True)
        if waiting is not None:  # a seat's moves apply in the order it made them, one at a time
            return MoveOutcome(MoveStatus.EARLIER_PENDING, (EARLIER_PENDING, {}), waiting.id)
        if table is None:
            table = load_table(session, game_id, rt.cache)
        verdict = decide(table, seat, seq, action)
        if isinstance(verdict, MoveOutcome):
            return verdict
        command = CommandRecord(
            game_id=game_id,
            seat=seat,
            seq=seq,
            action=action,
            key=key,
            talk=word.text if word else None,
            talk_private=word.private if word else False,
            created_at=rt.clock.now(),
        )
        session.add(command)
        try:
            session.commit()
        except IntegrityError:  # the same move submitted twice at the same instant: the other won
            session.rollback()
            earlier = _command_by_key(session, game_id, key)
            if earlier is None:
                raise
            return _outcome_of(earlier, replayed=True)
        assert command.id is not None
        return command.id


def _sent_before(
    session: Session, game_id: str, seat: int, key: str
) -> tuple[CommandRecord | None, CommandRecord | None]:
    """In one read: the same move sent before, if any, and the seat's oldest command still waiting
    to be played, if any."""
    rows = session.exec(_SENT_BEFORE, params={"game_id": game_id, "key": key, "seat": seat}).all()
    earlier = next((row for row in rows if row.key == key), None)
    waiting = next((row for row in rows if row.seat == seat and row.status == CommandStatus.PENDING), None)
    return earlier, waiting


def _command_by_key(session: Session, game_id: str, key: str) -> CommandRecord | None:
    return session.exec(
        select(CommandRecord).where(CommandRecord.game_id == game_id, CommandRecord.key == key)
    ).first()


def _pending_of_seat(session: Session, game_id: str, seat: int) -> CommandRecord | None:
    """The seat's oldest command still waiting to be played, if any."""
    return session.exec(_PENDING_OF_SEAT, params={"game_id": game_id, "seat": seat}).first()


def _game_commands(*where: ColumnElement[bool]) -> SelectOfScalar[CommandRecord]:
    """The game's commands (`:game_id`) that `where` picks, oldest first."""
    return (
        select(CommandRecord)
        .where(col(CommandRecord.game_id) == bindparam("game_id"), *where)
        .order_by(col(CommandRecord.id))
    )


# Built once: every page and JSON read asks for the seat's pending move, every move for these.
_PENDING = col(CommandRecord.status) == CommandStatus.PENDING
_PENDING_OF_SEAT = _game_commands(col(CommandRecord.seat) == bindparam("seat"), _PENDING)
_SENT_BEFORE = _game_commands(
    or_(
        col(CommandRecord.key) == bindparam("key"),
        and_(col(CommandRecord.seat) == bindparam("seat"), _PENDING),
    )
)
_PENDING_UP_TO = _game_commands(_PENDING, col(CommandRecord.id) <= bindparam("command_id"))


def pending_command(rt: Runtime, game_id: str, seat: int) -> int | None:
    """The id of the seat's move still being played, if there is one: its page shows it as pending
    and offers no other move meanwhile."""
    with rt.reading() as session:
        waiting = _pending_of_seat(session, game_id, seat)
        return waiting.id if waiting is not None else None


def wait_for_command(rt: Runtime, command_id: int, listener: Listener | None = None) -> MoveOutcome:
    """The command's outcome, waiting briefly for a worker (at once when tasks run in-process). With
    a listener (subscribed before the command was dispatched) the database is read when word of the
    decision comes, or every WORD_LOST_SECONDS should the word be lost; without, after short
    pauses, as a worker usually decides within milliseconds."""
    deadline = rt.clock.monotonic() + rt.settings["MOVE_WAIT_SECONDS"]
    pause = WORD_LOST_SECONDS if listener else 0.002
    while True:
        if listener is not None:
            listener.wait(min(pause, max(deadline - rt.clock.monotonic(), 0)))
        with rt.reading() as session:
            command = session.get(CommandRecord, command_id)
            assert command is not None
            if command.status != CommandStatus.PENDING or rt.clock.monotonic() >= deadline:
                return _outcome_of(command, replayed=False)
        if listener is None:
            rt.clock.sleep(pause)
            pause = min(pause * 2, POLL_SECONDS)


def command_outcome(rt: Runtime, game_id: str, seat: int, command_id: int) -> MoveOutcome | None:
    """The outcome of one of this seat's commands, or None if it is not theirs."""
    with rt.reading() as session:
        command = session.get(CommandRecord, command_id)
        if command is None or command.game_id != game_id or command.seat != seat:
            return None
        return _outcome_of(command, replayed=False)


def _outcome_of(command: CommandRecord, replayed: bool) -> MoveOutcome:
    if command.status == CommandStatus.PENDING:
        message: Message = (N_("Your move is being played; the page will refresh."), {})
        return MoveOutcome(MoveStatus.PENDING, message, command.id)
    if command.status == CommandStatus.REJECTED:
        reason = json.loads(command.reason or "{}")
        message = (reason.get("msgid", N_("The move was refused.")), reason.get("params", {}))
        return MoveOutcome(MoveStatus(reason.get("status", MoveStatus.REJECTED)), message, command.id)
    if replayed:
        return MoveOutcome(MoveStatus.DUPLICATE, (N_("This move was already played."), {}), command.id)
    return MoveOutcome(MoveStatus.ACCEPTED, (N_("Your move was played."), {}), command.id)


def apply_command(rt: Runtime, command_id: int, game_id: str) -> str:
    """Decide a pending command of the game and, if legal, append its events, the automatic moves
    that follow and the mails they cause in one unit of work, retried on a version conflict and once
    on a dropped database connection. The game's pending commands submitted before it are decided
    first, in submission order. Idempotent: a decided command is left alone. Returns the command's
    status. (The task carries the game, so the worker reads the command only under the lock.)"""

    def decide_in_order() -> tuple[str, list[int]]:
        for _ in range(CONFLICT_RETRIES):
            try:
                return step(rt, game_id, lambda master: _apply_up_to(master, command_id))
            except VersionConflict:
                continue
        raise RuntimeError(f"command {command_id}: still conflicting after {CONFLICT_RETRIES} tries")

    status, decided = retry_on_disconnect(decide_in_order)
    rt.dispatch.decided(decided)
    return status


def _apply_up_to(master: Master, command_id: int) -> tuple[CommandStatus, list[int]]:
    """Under the game's lock: the game's pending commands up to `command_id` decided in the order they
    were submitted (read again: another worker may have decided some while this one waited). The
    command's status and the ids decided."""
    pending = master.session.exec(
        _PENDING_UP_TO, params={"game_id": master.table.game_id, "command_id": command_id}
    ).all()
    for command in pending:
        _apply_one(master, command)
    decided = master.session.get(CommandRecord, command_id)
    assert decided is not None and decided.game_id == master.table.game_id, "a task names its command's game"
    return CommandStatus(decided.status), [c.id for c in pending if c.id is not None]


def _apply_one(master: Master, command: CommandRecord) -> None:
    """One pending command decided and, if legal, its events and what follows them appended."""
    verdict = decide(master.table, command.seat, command.seq, command.action)
    command.decided_at = master.now
    master.session.add(command)
    if isinstance(verdict, MoveOutcome):
        command.status = CommandStatus.REJECTED
        msgid, params = verdict.message or (N_("The move was refused."), {})
        command.reason = json.dumps({"status": verdict.status, "msgid": msgid, "params": params})
        return
    # Marked before the append flushes, so the command's row is written once (a version conflict
    # rolls the whole transaction back, this mark with it).
    command.status = CommandStatus.ACCEPTED
    before = master.table
    word = Word(command.talk, command.talk_private) if command.talk is not None else None
    master.move(command.seat, command.action, verdict, word)
    master.follow(before)

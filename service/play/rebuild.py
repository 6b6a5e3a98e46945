"""Rebuilding every row that repeats a game's log (the game row's status, finished_at and version,
who plays each seat, the turn clocks) from each game's log alone, e.g. after a row was damaged or a
migration: the log is the truth, the rows follow it (service/play/projections.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlmodel import Session, col, select

from service.eventlog.models import GameRecord, GameStatus, OutboxMail
from service.eventlog.store import Table, keep_snapshot, load_table
from service.play.projections import rebuild
from service.runtime import Runtime


@dataclass(frozen=True)
class Repair:
    """A game whose row disagreed with its log: what the row said and what the log says."""

    game_id: str
    was: GameStatus
    now: GameStatus


def rebuild_games(rt: Runtime, game_ids: Iterable[str] = ()) -> list[Repair]:
    """Bring the rows and clocks of the given games (all games if none given) in line with their
    logs, each in its own unit of work; the games whose row had to change."""
    ids = list(game_ids)
    if not ids:
        with Session(rt.engine) as session:
            ids = list(session.exec(select(GameRecord.id).order_by(col(GameRecord.created_at))).all())
    repairs = []
    for game_id in ids:
        repair = rt.in_game(game_id, lambda session, table: _rebuild(rt, session, table))
        if repair is not None:
            repairs.append(repair)
    return repairs


def _rebuild(rt: Runtime, session: Session, cached: Table) -> tuple[Repair | None, list[OutboxMail]]:
    # The whole log: neither the row's version nor the snapshot is trusted, and the snapshot is
    # written again from it.
    table = keep_snapshot(session, load_table(session, cached.game_id, snapshots=False))
    was = GameStatus(table.record.status)
    changed = rebuild(session, table, rt.clock.now())
    return (Repair(table.game_id, was, table.status) if changed else None), []

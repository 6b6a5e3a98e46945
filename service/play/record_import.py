"""Loading a kept record (service/replay/game_record.py) as a finished game: verified first, then its row,
seats and whole log written in one transaction, so an import never leaves a partial game. The
imported game has no players' addresses and sends no mail; its replay is open to the public."""

from __future__ import annotations

import secrets

from sqlmodel import Session

from service.eventlog.models import GameRecord, SeatKeeper, SeatRecord
from service.eventlog.store import append_events, keep_snapshot, load_table
from service.play.projections import rebuild
from service.replay.game_record import read_record
from service.runtime import Runtime


def import_record(rt: Runtime, raw: bytes) -> str:
    """The id of a new finished game loaded from the record in `raw`; RecordRefused (nothing
    written) if it is malformed or does not verify."""
    log = read_record(raw)
    game_id = secrets.token_urlsafe(9)
    with Session(rt.engine, expire_on_commit=False) as session:
        session.add(
            GameRecord(
                id=game_id,
                game=log.game,
                options=log.options,
                host_email="",
                seed_salt=log.salt,
                created_at=log.times[0],
                public_replay=True,
            )
        )
        session.add_all(
            SeatRecord(game_id=game_id, seat=n, name=name, email="", keeper=SeatKeeper.PLAYER)
            for n, name in enumerate(log.players)
        )
        session.flush()
        for index, event in enumerate(log.events):
            actor, action, origin = log.actors[index], log.actions[index], log.origins[index]
            append_events(session, game_id, index, [event], actor, action, origin, now=log.times[index])
        rebuild(session, keep_snapshot(session, load_table(session, game_id)), rt.clock.now())
        session.commit()
    return game_id

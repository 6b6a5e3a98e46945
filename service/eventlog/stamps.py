"""A game's picture stamp: a number that grows with every committed change to the rows a seat's page
and JSON are built from (the database's triggers note each one in `picture_changes`, migration 0028).
Equal stamps at two reads mean nothing a seat is shown changed in between, but for what time alone
changes, which the ETag's minute covers (service/web/conditional.py).

Read the stamp before the picture: a change committed between the two then shows in the picture
under the older stamp, so the next read sees a newer stamp and answers in full. The other way round
a change could hide behind an unchanged stamp."""

from __future__ import annotations

from sqlalchemy import bindparam, delete, func, insert
from sqlmodel import Session, col, select

from service.eventlog.models import PictureChange

# A game with more noted changes than this has them folded into one row by the sweep (a game left
# alone keeps at most this many: about five are noted a move).
FOLD_ABOVE = 32
# Games folded per sweep at most (the busiest first).
FOLD_BATCH = 500
# The newest notes a sweep looks through for games to fold: only a game noted lately can have grown,
# and the sweep's cost stays bounded however many games the database holds.
FOLD_WINDOW = 50_000

# The stamp of the game bound as `game_id`: run alone on the session's connection (no ORM between: a
# 304 costs it all), or as a column of the statement that reads the game's row (`STAMP_COLUMN`).
_STAMP = select(func.coalesce(func.sum(PictureChange.weight), 0)).where(
    col(PictureChange.game_id) == bindparam("game_id")
)
STAMP_COLUMN = _STAMP.scalar_subquery()


def picture_stamp(session: Session, game_id: str) -> int:
    """The sum of a game's noted changes (0 for a game without any, or none at all)."""
    return int(session.connection().execute(_STAMP, {"game_id": game_id}).scalar_one())


def fold_picture_changes(session: Session) -> int:
    """Fold each busy game noted lately: its noted changes into one row of their summed weight, in
    this transaction (whose commit swaps them at once: a reader sees the same sum before and after);
    games folded."""
    newest = select(func.max(PictureChange.id)).scalar_subquery()
    lately = select(PictureChange.game_id).where(col(PictureChange.id) > newest - FOLD_WINDOW).distinct()
    busy = session.exec(
        select(PictureChange.game_id)
        .where(col(PictureChange.game_id).in_(lately))
        .group_by(col(PictureChange.game_id))
        .having(func.count() > FOLD_ABOVE)
        .order_by(func.count().desc())
        .limit(FOLD_BATCH)
    ).all()
    for game_id in busy:
        # The rows deleted are summed, not the rows read before: a change committed meanwhile with a
        # lower id is either deleted and counted or left, never dropped from the sum.
        weights = session.exec(
            delete(PictureChange)
            .where(col(PictureChange.game_id) == game_id)
            .returning(col(PictureChange.weight))
        ).scalars()
        session.exec(insert(PictureChange).values(game_id=game_id, weight=sum(weights)))
    return len(busy)

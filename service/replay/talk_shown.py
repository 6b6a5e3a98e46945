"""Table talk as a reader is shown it: the messages they may see (every public one, and their own
notes), each with its place in the game, read from the step it was written at."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from rules.messages import Message
from service.eventlog.models import TableTalk
from service.eventlog.store import Table
from service.replay.steps import Replay


@dataclass(frozen=True)
class TalkLine:
    """A message as a reader is shown it: who, at which step, and what (None once hidden)."""

    id: int
    seat: int
    name: str
    step: int
    where: Message  # the step's place in the game ("Trick 5"), from the replay's heading
    text: str | None
    private: bool


_TALK = select(TableTalk).where(
    col(TableTalk.game_id) == bindparam("game_id"), col(TableTalk.step) > bindparam("after")
)
# Built once, as a page, a JSON read and a move's mails each read them.
_TALK_AFTER = _TALK.order_by(col(TableTalk.id))
_TALK_AT = _TALK.where(col(TableTalk.step) == bindparam("at_step")).order_by(col(TableTalk.id))


def talk_lines(
    session: Session,
    table: Table,
    replay: Replay,
    reader: int | None,
    after_step: int = 0,
    at_step: int | None = None,
    others_only: bool = False,
) -> list[TalkLine]:
    """The messages a reader may see (public ones, and their own notes), oldest first: those written
    after `after_step`, or only at `at_step`; with `others_only`, not the reader's own."""
    query, params = (_TALK_AFTER, {}) if at_step is None else (_TALK_AT, {"at_step": at_step})
    lines = []
    for row in session.exec(query, params={"game_id": table.game_id, "after": after_step, **params}).all():
        if (row.private and row.seat != reader) or (others_only and row.seat == reader):
            continue
        assert row.id is not None
        heading = replay.steps[min(row.step, replay.version) - 1].heading
        where = heading.part_title if heading.part_title is not None else heading.title
        text = None if row.hidden_at else row.text
        lines.append(TalkLine(row.id, row.seat, table.names[row.seat], row.step, where, text, row.private))
    return lines


def since_last_move(table: Table, seat: int) -> int:
    """The step of the seat's last move by hand (0 before its first): what its mails tell after."""
    return max(
        (i + 1 for i, actor in enumerate(table.actors) if actor == seat and table.actions[i]), default=0
    )


def talk_json(lines: list[TalkLine], say: Callable[[Message], str]) -> list[dict[str, Any]]:
    """Messages for the JSON twins (a hidden one without its text)."""
    return [
        {
            "id": line.id,
            "seat": line.seat,
            "name": line.name,
            "step": line.step,
            "where": say(line.where),
            "text": line.text,
            "hidden": line.text is None,
            "private": line.private,
        }
        for line in lines
    ]

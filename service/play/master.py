"""The master of a step (as boardgame.io's master), whoever makes it: a seat's move, a decision
about the table by the host, the clock or a player, the automatic moves a game waits on. In one unit
of work: lock → load (`step`, through `Runtime.locked_game`) → decide → append (`Master.move`,
`Master.decide`) → what follows (`automatic.follow`, pure, as a list of steps) → projections
(service/play/projections.py, after each step) → outbox (each step handed to the mail policy,
`mails_after_move`) → commit (as the unit ends). Writers of rows that make no step (settings,
links) use `Runtime.in_game`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from sqlmodel import Session

from rules.shapes import Action
from rules.table import keep_decision
from service.channels.notices import notices_after
from service.eventlog.models import EventOrigin, OutboxMail, SeatKeeper
from service.eventlog.store import Table, append_move
from service.mail.move_mails import mails_after_move
from service.mail.outbox import write_outbox
from service.play.ahead import Queued, chosen_rows, drop_replaced, note, settle_queue, untold
from service.play.automatic import Step, follow
from service.play.projections import project, project_seats
from service.play.table_talk import Word, keep_word
from service.runtime import Runtime, searching_now

T = TypeVar("T")


@dataclass
class Master:
    """One unit of work's steps: the table as they leave it so far (`table`) and the mails they
    wrote (`mails`, committed with the unit)."""

    rt: Runtime
    session: Session
    table: Table
    now: datetime
    mails: list[OutboxMail] = field(default_factory=list)

    # --- decide and append ----------------------------------------------------------------

    def move(
        self, seat: int, action: Action, events: list[dict[str, Any]], word: Word | None = None
    ) -> Table:
        """A seat's own move, decided by the rules (`events`), appended: the seat taken back first
        from a bot standing in, the words sent with it kept at its step, the plays it chose ahead
        for this play dropped. The table after (what follows comes with `follow`)."""
        self.player_back(seat)
        self.append(seat, action, events, EventOrigin.PLAYER)
        if word is not None:
            keep_word(self.session, self.table, seat, word, self.rt)
        drop_replaced(self.session, self.table, seat, self.now)
        return self.table

    def append(self, seat: int | None, action: Action, events: list[dict[str, Any]], origin: str) -> Table:
        """Events appended to the log with the expected version (VersionConflict otherwise), the
        seat rows following each decision about the table; the table after."""
        after = append_move(self.session, self.table, seat, action, events, origin, self.now)
        if seat is None:
            project_seats(self.session, after, self.table.version)
        self.table = after
        return after

    def decide(self, decision: Action, origin: str) -> Table:
        """A decision about the table made by the rules and appended (IllegalAction if they refuse
        it now); the table after. The game row and clocks follow at the step's end."""
        events = self.table.rules.table.decide(self.table.state, decision, len(self.table.seats))
        return self.append(None, decision, events, origin)

    def player_back(self, seat: int) -> Table:
        """The player takes their seat back from the bot that stood in for them (by "take my seat
        back", or by a move of their own): a SeatKept of the player's origin, when one stands in."""
        if self.table.seats[seat].keeper == SeatKeeper.STAND_IN:
            self.decide(keep_decision(seat, False), EventOrigin.PLAYER)
        return self.table

    def stand_in(self, seat: int) -> Table:
        """The seat-keeper plays for a player who ran out of time, until they return: a SeatKept
        of the game's origin."""
        return self.decide(keep_decision(seat, True), EventOrigin.GAME)

    # --- what follows, projections, outbox ------------------------------------------------

    def follow(self, before: Table | None = None) -> Table:
        """After what this step appended since `before` (the table as loaded, if not given): append
        what follows it (`automatic.follow`) step by step, bring the projections in line after each
        step and write the mails each step causes (the mail policy's). The table after all.

        A play chosen ahead begins a step of its own: the mails of the moves before it are written
        as the game stood then, to every seat but its own, as they would be before a quick move by
        hand, so that no other seat can tell the play was chosen ahead."""
        before = self.table if before is None else before
        for step in self._steps():
            after = self._append_step(step)
            due = project(self.session, after, self.now)
            self.mails += self._step_mails(before, after, due, skip=step.chosen_next)
            before = after
        return self.table

    def settle(self) -> Table:
        """`follow` whose mails are the caller's own (a new game's invitations, a decision told in
        words of its own): the steps appended and the projections brought in line, no mail."""
        return self.settled_with_dues()[0]

    def settled_with_dues(self) -> tuple[Table, dict[int, datetime]]:
        """`settle`, with the deadline of each move owed afterwards by seat (from the clocks just
        written, not read back)."""
        for step in self._steps():
            self._append_step(step)
        return self.table, project(self.session, self.table, self.now)

    def project(self) -> dict[int, datetime]:
        """The projections brought in line with the table, nothing appended; the deadline of each
        owed move by seat."""
        return project(self.session, self.table, self.now)

    def tell(self, mails: Iterable[OutboxMail]) -> None:
        """Mails of the step's own (a decision told in words), written with the unit."""
        self.mails += mails

    def _steps(self) -> list[Step]:
        """What follows the table now, from its plays chosen ahead still waiting."""
        queue = [Queued.of(row) for row in chosen_rows(self.session, self.table.game_id)]
        return follow(self.table, queue, self.now, searching_now())

    def _append_step(self, step: Step) -> Table:
        """A step's moves appended and what became of its plays chosen ahead written; the table
        after."""
        for move in step.moves:
            self.append(move.seat, move.action, move.events, move.origin)
        settle_queue(self.session, self.table.game_id, step.settled, self.now)
        return self.table

    def _step_mails(
        self, before: Table, after: Table, due: dict[int, datetime], skip: int | None
    ) -> list[OutboxMail]:
        """The mails the moves from `before` to `after` cause (none to the seat `skip`), each seat
        told what became of its plays chosen ahead meanwhile; written in the step's transaction (a
        later step of the unit sees them: the table channel's waiting notice is rewritten)."""
        notes = {seat: rows for seat, rows in untold(self.session, after).items() if seat != skip}
        told = {seat: [note(after, row) for row in rows] for seat, rows in notes.items()}
        mails = mails_after_move(self.rt, before, after, due, told)
        if skip is not None:  # (the host's mails have no seat)
            mails = [mail for mail in mails if mail.seat != skip]
        mails += notices_after(self.rt, self.session, before, after, due)
        write_outbox(self.session, mails)
        mailed = {mail.seat for mail in mails}
        for seat, rows in notes.items():
            if seat in mailed or after.result is not None:
                for row in rows:
                    row.told = True
                    self.session.add(row)
        return mails


def step(rt: Runtime, game_id: str, work: Callable[[Master], T]) -> T:
    """A step's unit of work: lock the game and load its table, let `work` decide and append through
    the master (and `follow`), commit with the mails written and hand them to the task queue. What
    `work` returned."""
    done = _unit(rt, game_id, work, wait=True)
    assert done is not None
    return done[0]


def step_if_free(rt: Runtime, game_id: str, work: Callable[[Master], T]) -> tuple[T] | None:
    """`step`, unless another writer holds the game now: then None at once (the beat looks at the
    game again on its next run)."""
    return _unit(rt, game_id, work, wait=False)


def _unit(rt: Runtime, game_id: str, work: Callable[[Master], T], wait: bool) -> tuple[T] | None:
    with rt.locked_game(game_id, wait) as unit:
        if unit is None:
            return None
        return (work(Master(rt, unit.session, unit.table, rt.clock.now(), unit.mails)),)


def new_game_master(rt: Runtime, session: Session, table: Table) -> Master:
    """The master of a new game's opening step, in the caller's transaction (the game is created in
    it, so there is nothing to lock yet)."""
    return Master(rt, session, table, rt.clock.now())

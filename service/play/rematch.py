"""Rematch: when a game is over, any player may propose the next match with the same table (the same
game, options, time control and host; the seats as they were, or each player one seat on, so that the
first leader or dealer changes). The other players accept or decline from their own page, each in
their own time; the seat-keeper's seats accept at once. When every seat has accepted, the new game
starts in the same transaction (a fresh seed, invitations mailed) and both games link to each other.
A decline ends the proposal (the others are mailed); a proposal not answered in LAPSE_DAYS lapses,
by the service's clock, read when it is next looked at (and marked so when the next one is made).

Every write goes through the finished game's unit of work, so two answers never race. The series
score counts the matches won by each player (by address) along the chain of rematches.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import bindparam
from sqlmodel import Session, col, or_, select

from rules.table import KEEPER
from service.eventlog.models import (
    GameStatus,
    OutboxMail,
    RematchProposal,
    RematchStatus,
    SeatKeeper,
    SeatRecord,
)
from service.eventlog.store import Table
from service.links import address_key
from service.localtime import as_utc, format_time, zone_name
from service.mail.drafting import mails_to_others, player_url
from service.mail.kinds import MailKind
from service.play.hosting import GameSetup, Player, start_game
from service.play.time_control import TimeControl
from service.runtime import Runtime

LAPSE_DAYS = 7


class RematchRefused(ValueError):
    """A proposal or an answer that cannot be taken now; the message says why, for the player."""


def lapses_at(proposal: RematchProposal) -> datetime:
    return as_utc(proposal.created_at) + timedelta(days=LAPSE_DAYS)


def is_open(proposal: RematchProposal, now: datetime) -> bool:
    """Whether the proposal still waits for answers (not decided, not lapsed)."""
    return proposal.status == RematchStatus.OPEN and now < lapses_at(proposal)


def next_seat(proposal: RematchProposal, seat: int, seats: int) -> int:
    """Where the player of `seat` sits in the game the proposal started."""
    return (seat - 1) % seats if proposal.rotate else seat


def previous_seat(proposal: RematchProposal, seat: int, seats: int) -> int:
    """Where the player of the new game's `seat` sat in the game the proposal was made in."""
    return (seat + 1) % seats if proposal.rotate else seat


def latest_proposal(session: Session, game_id: str) -> RematchProposal | None:
    return session.exec(
        select(RematchProposal)
        .where(col(RematchProposal.game_id) == game_id)
        .order_by(col(RematchProposal.id).desc())
    ).first()


def proposal_before(session: Session, game_id: str) -> RematchProposal | None:
    """The accepted proposal that started this game, if it is a rematch."""
    return session.exec(select(RematchProposal).where(col(RematchProposal.next_game_id) == game_id)).first()


_OWN_PROPOSALS = (  # built once: every page and JSON read of a seat asks
    select(RematchProposal)
    .where(
        or_(
            col(RematchProposal.game_id) == bindparam("game_id"),
            col(RematchProposal.next_game_id) == bindparam("game_id"),
        )
    )
    .order_by(col(RematchProposal.id).desc())
)


def own_proposals(session: Session, game_id: str) -> tuple[RematchProposal | None, RematchProposal | None]:
    """`latest_proposal` and `proposal_before` of a game, in one round trip."""
    rows = session.exec(_OWN_PROPOSALS, params={"game_id": game_id}).all()
    latest = next((row for row in rows if row.game_id == game_id), None)
    before = next((row for row in rows if row.next_game_id == game_id), None)
    return latest, before


def propose_rematch(rt: Runtime, game_id: str, seat: int, rotate: bool) -> str | None:
    """The seat proposes the next match (accepting it itself); RematchRefused unless the game is over
    and has no open or accepted proposal. The new game's id if nobody else had to answer."""

    def change(session: Session, table: Table) -> tuple[str | None, list[OutboxMail]]:
        now = rt.clock.now()
        if table.status != GameStatus.FINISHED:
            raise RematchRefused(_("A rematch can be proposed once the game is over."))
        latest = latest_proposal(session, table.game_id)
        if latest is not None and latest.status == RematchStatus.ACCEPTED:
            raise RematchRefused(_("The rematch has started already."))
        if latest is not None and is_open(latest, now):
            raise RematchRefused(_("A rematch is proposed already: accept or decline it."))
        if latest is not None and latest.status == RematchStatus.OPEN:
            latest.status, latest.decided_at = RematchStatus.LAPSED, lapses_at(latest)
            session.add(latest)
        answers = {str(s.seat): True for s in table.seats if s.keeper == SeatKeeper.BOT or s.seat == seat}
        proposal = RematchProposal(
            game_id=table.game_id, proposer=seat, rotate=rotate, answers=answers, created_at=now
        )
        session.add(proposal)
        if len(answers) == len(table.seats):
            return _start(rt, session, table, proposal, now)
        until = format_time(lapses_at(proposal), zone_name(table, seat))
        return None, mails_to_others(rt, table, seat, MailKind.REMATCH_PROPOSED, rotate=rotate, until=until)

    return rt.in_game(game_id, change)


def answer_rematch(rt: Runtime, game_id: str, seat: int, accept: bool) -> str | None:
    """The seat accepts or declines the open proposal; RematchRefused if none is open. The new
    game's id once every seat has accepted."""

    def change(session: Session, table: Table) -> tuple[str | None, list[OutboxMail]]:
        now = rt.clock.now()
        proposal = latest_proposal(session, table.game_id)
        if proposal is None or not is_open(proposal, now):
            raise RematchRefused(_("No rematch waits for an answer: it was decided, or it lapsed."))
        proposal.answers = {**proposal.answers, str(seat): accept}
        session.add(proposal)
        if not accept:
            proposal.status, proposal.decided_at = RematchStatus.DECLINED, now
            return None, mails_to_others(rt, table, seat, MailKind.REMATCH_DECLINED)
        if all(proposal.answers.get(str(s.seat)) for s in table.seats):
            return _start(rt, session, table, proposal, now)
        return None, []

    return rt.in_game(game_id, change)


def _start(
    rt: Runtime, session: Session, table: Table, proposal: RematchProposal, now: datetime
) -> tuple[str, list[OutboxMail]]:
    """Start the accepted proposal's game in this transaction: its id and its invitations."""
    players = [
        Player(s.name, s.email, bot=s.keeper == SeatKeeper.BOT, level=s.bot_level or KEEPER)
        for s in table.seats
    ]
    if proposal.rotate:
        players = players[1:] + players[:1]
    record = table.record
    host = Player(record.host_name, record.host_email)
    setup = GameSetup(
        record.game, tuple(players), host, dict(record.options), None, TimeControl.of(record), record.language
    )
    game_id, mails = start_game(rt, session, setup)
    proposal.status, proposal.decided_at, proposal.next_game_id = RematchStatus.ACCEPTED, now, game_id
    session.add(proposal)
    return game_id, mails


@dataclass(frozen=True)
class SeriesScore:
    """Matches won by each player along a chain of rematches (plain values for pages)."""

    matches: int  # finished matches counted
    wins: list[tuple[str, int]]  # (name, matches won), in this game's seat order
    draws: int


@dataclass(frozen=True)
class RematchView:
    """What a seat's page shows of rematches: the proposal, the linked games and the series."""

    can_propose: bool
    proposer: str | None  # the open proposal's proposer
    rotate: bool
    lapses: datetime | None
    answers: list[tuple[str, bool | None]]  # each seat's answer so far (None: not yet)
    my_answer: bool | None
    ended: str | None  # "declined" or "lapsed": the latest proposal's end, if it did not start a game
    previous_link: str | None  # the seat's own link in the game this one is a rematch of
    next_link: str | None  # the seat's own link in this game's rematch
    series: SeriesScore | None  # None unless this game is part of a chain

    def as_json(self) -> dict[str, object]:
        return {
            "can_propose": self.can_propose,
            "proposal": None
            if self.proposer is None
            else {
                "proposer": self.proposer,
                "rotate": self.rotate,
                "lapses": self.lapses.isoformat() if self.lapses else None,
                "answers": [{"name": name, "accepted": answer} for name, answer in self.answers],
            },
            "ended": self.ended,
            "previous": self.previous_link,
            "next": self.next_link,
            "series": None
            if self.series is None
            else {
                "matches": self.series.matches,
                "wins": [{"name": name, "won": won} for name, won in self.series.wins],
                "draws": self.series.draws,
            },
        }


def rematch_view(rt: Runtime, table: Table, seat: int) -> RematchView:
    """The rematch panel of a seat's page (reads only: a lapsed proposal is shown lapsed)."""
    now = rt.clock.now()
    with rt.reading() as session:
        latest, before = own_proposals(session, table.game_id)
        chain = _chain(session, table.game_id, before, latest)
    open_now = latest is not None and is_open(latest, now)
    started = latest is not None and latest.status == RematchStatus.ACCEPTED
    ended = None
    if latest is not None and not open_now and not started:
        ended = RematchStatus.DECLINED if latest.status == RematchStatus.DECLINED else RematchStatus.LAPSED
    previous_link = next_link = None
    if before is not None:
        previous_link = _link_in(
            rt, before.game_id, previous_seat(before, seat, len(table.seats)), table, seat
        )
    if started and latest is not None and latest.next_game_id:
        next_link = _link_in(rt, latest.next_game_id, next_seat(latest, seat, len(table.seats)), table, seat)
    return RematchView(
        can_propose=table.status == GameStatus.FINISHED and not open_now and not started,
        proposer=table.names[latest.proposer] if open_now and latest else None,
        rotate=bool(latest and latest.rotate),
        lapses=lapses_at(latest) if open_now and latest else None,
        answers=[(s.name, latest.answers.get(str(s.seat))) for s in table.seats]
        if open_now and latest
        else [],
        my_answer=latest.answers.get(str(seat)) if open_now and latest else None,
        ended=ended,
        previous_link=previous_link,
        next_link=next_link,
        series=series_score(rt, chain, table) if len(chain) > 1 else None,
    )


def _link_in(rt: Runtime, game_id: str, seat: int, table: Table, reader: int) -> str:
    """The reader's own link in a linked game when the seat there is still theirs, else that game's
    public overview."""
    other = rt.read_table(game_id)
    if _player_key(other.seats[seat]) == _player_key(table.seats[reader]):
        return player_url(rt, other, seat)
    return rt.link(f"/game/{game_id}")


def series_of(session: Session, game_id: str) -> list[str]:
    """The games of this game's series (its rematch chain), first to last; itself alone if none."""
    latest, before = own_proposals(session, game_id)
    return _chain(session, game_id, before, latest)


def _chain(
    session: Session, game_id: str, before: RematchProposal | None, latest: RematchProposal | None
) -> list[str]:
    """The games of this game's series, first to last (`before` and `latest`: this game's own
    proposals, already read)."""
    games = [game_id]
    while before is not None:
        games.insert(0, before.game_id)
        before = proposal_before(session, games[0])
    while latest is not None and latest.next_game_id:
        games.append(latest.next_game_id)
        latest = latest_proposal(session, games[-1])
    return games


def _player_key(seat: SeatRecord) -> str:
    """Who a seat's player is across games: their address (a seat-keeper seat: its name)."""
    return address_key(seat.email) if seat.email else f"keeper:{seat.name}"


def series_score(rt: Runtime, chain: list[str], table: Table) -> SeriesScore:
    """Matches won by each of this table's players over the finished games of the chain."""
    won: dict[str, int] = {}
    matches = draws = 0
    for game_id in chain:
        game = table if game_id == table.game_id else rt.read_table(game_id)
        result = game.result
        if game.status != GameStatus.FINISHED or result is None:
            continue
        matches += 1
        winners = set(result["winners"])
        if not winners or len(winners) == len(game.seats):
            draws += 1
            continue
        for seat in winners:
            key = _player_key(game.seats[seat])
            won[key] = won.get(key, 0) + 1
    wins = [(s.name, won.get(_player_key(s), 0)) for s in table.seats]
    return SeriesScore(matches, wins, draws)

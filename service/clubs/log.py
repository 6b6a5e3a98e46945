"""A club's log: its events, the pure fold of them into the club as it stands, and the one unit of
work that loads a club, decides, and appends with the expected version (a concurrent append
conflicts on `(club_id, seq)` and is decided again)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from rules.messages import N_, Message
from service.eventlog.models import ClubEventRecord, ClubRecord, OutboxMail
from service.mail.outbox import write_outbox
from service.runtime import Runtime

FOUNDED = "ClubFounded"
INVITED = "MemberInvited"
CONFIRMED = "MemberConfirmed"
LEFT = "MemberLeft"
REMOVED = "MemberRemoved"
HANDED_OVER = "HostHandedOver"
TALKED = "ClubTalk"
SEASON_PLANNED = "SeasonPlanned"
TABLE_STARTED = "TableStarted"
DIGEST_SENT = "ClubDigestSent"
SETTINGS_CHOSEN = "MemberSettingsChosen"
EVENT_VERSION = 1
APPEND_TRIES = 3


class Standing(StrEnum):
    """Where a member of the club stands."""

    INVITED = "invited"  # mailed an invitation, not yet confirmed
    MEMBER = "member"
    LEFT = "left"
    REMOVED = "removed"


@dataclass(frozen=True)
class Member:
    """A member as the log knows them: their number in the club, the name they are shown by, and
    their address (lower-cased; shown to nobody else), with the seq of their latest invitation (the
    one their confirmation link names), and the settings they chose for the club's mail: its
    language ("" for that of their games) and the weekly digest (None until they choose)."""

    number: int
    name: str
    email: str
    standing: Standing
    invited_seq: int
    language: str = ""
    digest: bool | None = None


@dataclass(frozen=True)
class Talk:
    """A member's message to the club."""

    member: int
    text: str
    at: datetime


@dataclass(frozen=True)
class Player:
    """A season's participant: a member by number, or a bot of a level (rules.table.BOT_LEVELS)."""

    member: int | None
    level: str | None = None

    @staticmethod
    def of(data: dict[str, Any]) -> Player:
        return Player(data.get("member"), data.get("level"))

    def as_data(self) -> dict[str, Any]:
        return {"member": self.member} if self.member is not None else {"level": self.level}


@dataclass(frozen=True)
class Season:
    """A season as planned: its game, options and days per move, who plays (`players`), its tables
    (participants by index, in seat order), at most `at_once` tables per participant at a time, what
    becomes of a leaving member's tables ("forfeit" or "bot"), and the game of each table started."""

    number: int
    game: str
    options: dict[str, Any]
    move_days: int
    players: tuple[Player, ...]
    tables: tuple[tuple[int, ...], ...]
    at_once: int
    on_leave: str
    started: dict[int, str]


@dataclass(frozen=True)
class Club:
    """A club folded from its log: its name, language, host and members, its seasons, the talk, and
    its version."""

    club_id: str
    name: str
    language: str
    host: int
    members: tuple[Member, ...]
    talk: tuple[Talk, ...]
    version: int
    seasons: tuple[Season, ...] = ()
    founded: datetime | None = None
    digested: datetime | None = None  # when the latest weekly digest went out
    talk_digested: int = 0  # how many of the talk's messages went out in a digest already

    def member_of(self, email: str) -> Member | None:
        """The confirmed member with this address, if any."""
        return next((m for m in self.members if m.email == email and m.standing == Standing.MEMBER), None)

    def numbered(self, email: str) -> Member | None:
        """Whoever the log has with this address, in any standing."""
        return next((m for m in self.members if m.email == email), None)

    def names(self) -> dict[int, str]:
        return {m.number: m.name for m in self.members}


@dataclass(frozen=True)
class ClubEvent:
    """An event as the log keeps it: its type, data, the address it is about, and when."""

    type: str
    data: dict[str, Any]
    at: datetime
    email: str | None = None
    game_id: str | None = None


class ClubRefused(ValueError):
    """A club action that cannot be done; `message` says why, for the one who asked."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid)
        self.message: Message = (msgid, dict(params))


class ClubNotFound(LookupError):
    """No club with that id."""


def host_of(club: Club, email: str) -> Member:
    """The club's host, who must be the one asking; ClubRefused otherwise."""
    member = club.member_of(email)
    if member is None or member.number != club.host:
        raise ClubRefused(N_("Only the club's host may do this."))
    return member


def fold(club_id: str, events: Sequence[ClubEvent]) -> Club:
    """The club after its events, in order (the first is its founding)."""
    return fold_on(Club(club_id, "", "", 0, (), (), 0), events)


def fold_on(club: Club, events: Sequence[ClubEvent]) -> Club:
    """The club after these events, folded on from `club`."""
    for event in events:
        club = replace(_applied(club, event), version=club.version + 1)
    return club


def _applied(club: Club, event: ClubEvent) -> Club:
    data = event.data
    if event.type == FOUNDED:
        founder = Member(0, data["name"], data["email"], Standing.MEMBER, 1)
        return replace(
            club, name=data["club"], language=data["language"], members=(founder,), founded=event.at
        )
    if event.type == INVITED:
        invited = Member(data["member"], data["name"], data["email"], Standing.INVITED, club.version + 1)
        return _with_member(club, invited)
    if event.type == HANDED_OVER:
        return replace(club, host=data["member"])
    if event.type == TALKED:
        return replace(club, talk=(*club.talk, Talk(data["member"], data["text"], event.at)))
    if event.type == DIGEST_SENT:
        return replace(club, digested=event.at, talk_digested=len(club.talk))
    if event.type == SETTINGS_CHOSEN:
        chosen = replace(club.members[data["member"]], language=data["language"], digest=data["digest"])
        return _with_member(club, chosen)
    if event.type == SEASON_PLANNED:
        return replace(club, seasons=(*club.seasons, _season(len(club.seasons), data)))
    if event.type == TABLE_STARTED:
        season = club.seasons[data["season"]]
        started = replace(season, started={**season.started, data["table"]: data["game"]})
        return replace(club, seasons=tuple(started if s is season else s for s in club.seasons))
    standing = {CONFIRMED: Standing.MEMBER, LEFT: Standing.LEFT, REMOVED: Standing.REMOVED}[event.type]
    return _with_member(club, replace(club.members[data["member"]], standing=standing))


def _season(number: int, data: dict[str, Any]) -> Season:
    return Season(
        number,
        data["game"],
        dict(data["options"]),
        data["move_days"],
        tuple(Player.of(p) for p in data["players"]),
        tuple(tuple(table) for table in data["tables"]),
        data["at_once"],
        data["on_leave"],
        {},
    )


def _with_member(club: Club, member: Member) -> Club:
    """The club with this member new (the next number) or in their new standing."""
    members = list(club.members)
    if member.number == len(members):
        members.append(member)
    else:
        members[member.number] = member
    return replace(club, members=tuple(members))


def load(session: Session, club_id: str) -> Club:
    """A club as its log stands in this session (ClubNotFound if there is none)."""
    return fold(club_id, load_log(session, club_id))


def load_log(session: Session, club_id: str) -> list[ClubEvent]:
    """A club's log, in order (ClubNotFound if there is no such club)."""
    if session.get(ClubRecord, club_id) is None:
        raise ClubNotFound(club_id)
    rows = session.exec(
        select(ClubEventRecord)
        .where(col(ClubEventRecord.club_id) == club_id)
        .order_by(col(ClubEventRecord.seq))
    ).all()
    return [ClubEvent(row.type, row.data, row.created_at, row.email, row.game_id) for row in rows]


def club_ids(rt: Runtime) -> list[str]:
    """Every club's id, oldest first."""
    with Session(rt.engine) as session:
        query = select(ClubRecord.id).order_by(col(ClubRecord.created_at), col(ClubRecord.id))
        return list(session.exec(query).all())


def read_club(rt: Runtime, club_id: str) -> Club:
    """A club as it stands now (ClubNotFound if there is none)."""
    with Session(rt.engine) as session:
        return load(session, club_id)


T = TypeVar("T")
# A decision on the club as it stands, in the unit of work's session (where a season's tables
# start): a result, the events it causes and the mails they send.
Decision = Callable[[Session, Club], tuple[T, list[ClubEvent], list[OutboxMail]]]


def in_club(rt: Runtime, club_id: str, decide: Decision[T], tries: int = APPEND_TRIES) -> T:
    """Load the club, decide, append the events after the version decided on and queue the mails, in
    one transaction; decided again on a concurrent append. ClubRefused from `decide` changes nothing."""
    try:
        result, mails = _unit_of_work(rt, club_id, decide)
    except IntegrityError:
        if tries == 1:
            raise
        return in_club(rt, club_id, decide, tries - 1)
    rt.dispatch.send_mails([mail.id for mail in mails if mail.id is not None])
    return result


def _unit_of_work(rt: Runtime, club_id: str, decide: Decision[T]) -> tuple[T, list[OutboxMail]]:
    """One try of `in_club`: its result and the mails committed (IntegrityError on a conflict)."""
    with Session(rt.engine, expire_on_commit=False) as session:
        query = select(ClubRecord).where(col(ClubRecord.id) == club_id).with_for_update()
        record = session.exec(query).first()
        if record is None:
            raise ClubNotFound(club_id)
        club = load(session, club_id)
        result, events, mails = decide(session, club)
        append(session, record, club.version, events)
        write_outbox(session, mails)
        session.commit()
    return result, mails


def append(session: Session, record: ClubRecord, version: int, events: Sequence[ClubEvent]) -> None:
    """Add the events after `version` to the club's log and its row's version, in the session."""
    for seq, event in enumerate(events, start=version + 1):
        session.add(
            ClubEventRecord(
                club_id=record.id,
                seq=seq,
                type=event.type,
                v=EVENT_VERSION,
                data=event.data,
                email=event.email,
                game_id=event.game_id,
                created_at=event.at,
            )
        )
    record.version = version + len(events)
    session.add(record)

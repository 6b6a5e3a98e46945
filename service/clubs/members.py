"""A club's members: founded by a member who holds their "my games" link, invited by address by the
host (each invitation a mail under the daily cap, confirmed by its signed link as a game is), gone
by leaving or removal, the host's place handed to another member. Names only are ever shown to
other members; the address is the member's key (their "my games" link opens the club)."""

from __future__ import annotations

import secrets

from sqlmodel import Session, col, select

from rules.messages import N_
from service.clubs.log import (
    CONFIRMED,
    FOUNDED,
    HANDED_OVER,
    INVITED,
    LEFT,
    REMOVED,
    Club,
    ClubEvent,
    ClubRefused,
    Member,
    Standing,
    append,
    host_of,
    in_club,
    load,
    read_club,
)
from service.clubs.readers import address_language, club_mail
from service.clubs.seasons import member_gone
from service.eventlog.models import ClubEventRecord, ClubRecord, OutboxMail
from service.i18n import DEFAULT_LANGUAGE, LANGUAGES
from service.links import ClubLink, address_key
from service.mail.kinds import MailKind
from service.play.names import label_refusal, look_alike_refusal, name_refusal
from service.runtime import Runtime

CLUB_ID_LENGTH = 12
MAX_CLUB_NAME = 80
MAX_MEMBERS = 40  # a group of friends, not a mailing list
ACTIVE = (Standing.INVITED, Standing.MEMBER)  # who counts as in the club (names, the limit)


def checked_club_name(value: object) -> str:
    """A club's name from untrusted input; ClubRefused unless it is a short line of text."""
    if not isinstance(value, str) or not value.strip():
        raise ClubRefused(N_("Give the club a name."))
    name = " ".join(value.split())
    if len(name) > MAX_CLUB_NAME:
        raise ClubRefused(N_("A club's name has at most %(most)s characters."), most=MAX_CLUB_NAME)
    return name


def member_name(value: object, club: Club | None = None) -> str:
    """A member's name from untrusted input; ClubRefused for a bad one, one that reads as a label of
    the page, or one that reads as another member's."""
    if not isinstance(value, str) or not value.strip():
        raise ClubRefused(N_("Give a name."))
    name = " ".join(value.split())
    others = [m.name for m in club.members if m.standing in ACTIVE] if club is not None else []
    refusal = name_refusal(name) or label_refusal(name) or look_alike_refusal(name, others)
    if refusal is not None:
        raise ClubRefused(refusal[0], **refusal[1])
    return name


def found_club(rt: Runtime, email: str, club_name: object, your_name: object, language: str) -> str:
    """Found a club with the holder of an address's link as its host and first member; its id."""
    name, founder = checked_club_name(club_name), member_name(your_name)
    now = rt.clock.now()
    club_id = secrets.token_hex(CLUB_ID_LENGTH // 2)
    founded = ClubEvent(
        FOUNDED,
        {"club": name, "name": founder, "email": address_key(email), "language": _language(language)},
        now,
        address_key(email),
    )
    with Session(rt.engine) as session:
        record = ClubRecord(id=club_id, created_at=now)
        session.add(record)
        session.flush()
        append(session, record, 0, [founded])
        session.commit()
    return club_id


def _language(value: str) -> str:
    return value if value in LANGUAGES else DEFAULT_LANGUAGE


def invite_member(rt: Runtime, club_id: str, host_email: str, name: object, email: str) -> int:
    """The host invites an address by name: a mail with the link that confirms it (under the daily
    cap of unasked mail). The member's number."""
    key = address_key(email)

    def decide(session: Session, club: Club) -> tuple[int, list[ClubEvent], list[OutboxMail]]:
        host = host_of(club, host_email)
        known = club.numbered(key)
        if known is not None and known.standing in ACTIVE:
            raise ClubRefused(N_("%(name)s is in the club already, or invited."), name=known.name)
        if sum(m.standing in ACTIVE for m in club.members) >= MAX_MEMBERS:
            raise ClubRefused(N_("A club has at most %(most)s members."), most=MAX_MEMBERS)
        invited_name = member_name(name, club)
        number = known.number if known is not None else len(club.members)
        event = ClubEvent(
            INVITED, {"member": number, "name": invited_name, "email": key}, rt.clock.now(), key
        )
        link = ClubLink(club.club_id, number, club.version + 1)
        language = address_language(session, club, key)
        mail = invitation_mail(rt, club, host.name, (invited_name, email.strip()), link, language)
        return number, [event], [mail]

    return in_club(rt, club_id, decide)


def invitation_mail(
    rt: Runtime, club: Club, host: str, to: tuple[str, str], link: ClubLink, language: str
) -> OutboxMail:
    """The mail inviting an address (name, address) to the club, with its confirming link, in
    `language` (the address's own when it plays here, else the club's)."""
    values = {"name": host, "club": club.name, "link": rt.link(f"/club/join/{rt.signer.club_token(link)}")}
    return club_mail(rt, club, MailKind.CLUB_INVITATION, values, to, language)


def invitation(rt: Runtime, link: ClubLink) -> tuple[Club, Member]:
    """The club and the member an invitation link names, while it stands (the member invited by it
    and not since removed or invited again); ClubRefused otherwise."""
    club = read_club(rt, link.club_id)
    return club, _standing_invitation(club, link)


def _standing_invitation(club: Club, link: ClubLink) -> Member:
    if link.member >= len(club.members) or club.members[link.member].invited_seq != link.invited_seq:
        raise ClubRefused(N_("This invitation no longer stands. Ask the club's host for a new one."))
    member = club.members[link.member]
    if member.standing not in ACTIVE:
        raise ClubRefused(N_("This invitation no longer stands. Ask the club's host for a new one."))
    return member


def confirm_member(rt: Runtime, link: ClubLink) -> str:
    """The invited address confirms its place (once: confirming again changes nothing); the
    member's address."""

    def decide(_session: Session, club: Club) -> tuple[str, list[ClubEvent], list[OutboxMail]]:
        member = _standing_invitation(club, link)
        if member.standing == Standing.MEMBER:
            return member.email, [], []
        return member.email, [ClubEvent(CONFIRMED, {"member": member.number}, rt.clock.now())], []

    return in_club(rt, link.club_id, decide)


def leave_club(rt: Runtime, club_id: str, email: str) -> None:
    """A member leaves (their season tables go as the season's host chose); the host must hand the
    club over first."""

    def decide(_session: Session, club: Club) -> tuple[int, list[ClubEvent], list[OutboxMail]]:
        member = _member(club, email)
        if member.number == club.host:
            raise ClubRefused(N_("Hand the club to another member before you leave it."))
        return member.number, [ClubEvent(LEFT, {"member": member.number}, rt.clock.now())], []

    member_gone(rt, club_id, in_club(rt, club_id, decide))


def remove_member(rt: Runtime, club_id: str, host_email: str, number: int) -> None:
    """The host removes a member or an invitation (never themselves); the member's season tables go
    as the season's host chose."""

    def decide(_session: Session, club: Club) -> tuple[int, list[ClubEvent], list[OutboxMail]]:
        host = host_of(club, host_email)
        member = _other(club, number, host, ACTIVE)
        return member.number, [ClubEvent(REMOVED, {"member": member.number}, rt.clock.now())], []

    member_gone(rt, club_id, in_club(rt, club_id, decide))


def hand_over(rt: Runtime, club_id: str, host_email: str, number: int) -> None:
    """The host hands the club to another confirmed member."""

    def decide(_session: Session, club: Club) -> tuple[None, list[ClubEvent], list[OutboxMail]]:
        host = host_of(club, host_email)
        member = _other(club, number, host, (Standing.MEMBER,))
        return None, [ClubEvent(HANDED_OVER, {"member": member.number}, rt.clock.now())], []

    in_club(rt, club_id, decide)


def _member(club: Club, email: str) -> Member:
    member = club.member_of(email)
    if member is None:
        raise ClubRefused(N_("You are not a member of this club."))
    return member


def _other(club: Club, number: int, host: Member, standings: tuple[Standing, ...]) -> Member:
    """Another member of the club in one of these standings; ClubRefused otherwise."""
    if number == host.number or not 0 <= number < len(club.members):
        raise ClubRefused(N_("Choose another member of the club."))
    member = club.members[number]
    if member.standing not in standings:
        raise ClubRefused(N_("%(name)s is not a member of the club now."), name=member.name)
    return member


def clubs_of(rt: Runtime, email: str) -> list[Club]:
    """The clubs an address is a confirmed member of, by name."""
    key = address_key(email)
    with Session(rt.engine) as session:
        ids = session.exec(
            select(ClubEventRecord.club_id).where(col(ClubEventRecord.email) == key).distinct()
        ).all()
        clubs = [load(session, club_id) for club_id in ids]
    return sorted((c for c in clubs if c.member_of(key)), key=lambda c: c.name.casefold())

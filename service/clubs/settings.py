"""A member's own settings for the club's mail, chosen on the club page or by the digest's unsubscribe
link: the language of the club's mails to them ("" for that of their games) and whether the weekly
digest comes. Each choice is an event of the club's log, like everything else of the club."""

from __future__ import annotations

from sqlmodel import Session

from rules.messages import N_
from service.clubs.log import SETTINGS_CHOSEN, Club, ClubEvent, ClubRefused, in_club, read_club
from service.clubs.readers import wants_digest
from service.eventlog.models import OutboxMail
from service.i18n import LANGUAGES
from service.links import ClubReader, LinkError
from service.mail.unsubscribe import Subscription
from service.runtime import Runtime

DIGEST_CHOICES = {"on": True, "off": False}


def choose_settings(rt: Runtime, club_id: str, email: str, language: object, digest: object) -> None:
    """The member with this address chooses their settings for the club's mail; ClubRefused for a
    language not offered or a digest choice that is neither on nor off (nothing changes)."""
    if language != "" and language not in LANGUAGES:
        raise ClubRefused(N_("Choose one of the languages offered."))
    if not isinstance(digest, str) or digest not in DIGEST_CHOICES:
        raise ClubRefused(N_("Choose whether the club's weekly digest comes to you."))

    def decide(_session: Session, club: Club) -> tuple[None, list[ClubEvent], list[OutboxMail]]:
        member = club.member_of(email)
        if member is None:
            raise ClubRefused(N_("You are not a member of this club."))
        return None, _chosen(rt, club, member.number, str(language), DIGEST_CHOICES[digest]), []

    in_club(rt, club_id, decide)


def club_subscription(rt: Runtime, reader: ClubReader) -> Subscription:
    """What a club digest's unsubscribe link stops; LinkError once its reader is no member (ClubNotFound
    for no such club)."""
    club = read_club(rt, reader.club_id)
    member = club.members[reader.member] if reader.member < len(club.members) else None
    if member is None or club.member_of(member.email) is None:
        raise LinkError("revoked")
    with Session(rt.engine) as session:
        on = wants_digest(session, member)
    return Subscription(reader, member.email, club.name, on)


def stop_digest(rt: Runtime, reader: ClubReader) -> None:
    """Stop the member's weekly digest of the club (again is harmless), their language kept."""

    def decide(_session: Session, club: Club) -> tuple[None, list[ClubEvent], list[OutboxMail]]:
        member = club.members[reader.member]
        return None, _chosen(rt, club, member.number, member.language, False), []

    in_club(rt, reader.club_id, decide)


def _chosen(rt: Runtime, club: Club, number: int, language: str, digest: bool) -> list[ClubEvent]:
    """The event of a member's choice, or none when it changes nothing."""
    member = club.members[number]
    if (member.language, member.digest) == (language, digest):
        return []
    data = {"member": number, "language": language, "digest": digest}
    return [ClubEvent(SETTINGS_CHOSEN, data, rt.clock.now())]

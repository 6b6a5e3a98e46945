"""Club talk: a member's short messages to the club, kept in the club's log, cleaned and guarded as
table talk is (no control characters, none of the service's own links or reply addresses), at most
MAX_TALK_PER_HOUR per member."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from rules.messages import N_
from service.clubs.log import TALKED, Club, ClubEvent, ClubRefused, in_club
from service.eventlog.models import OutboxMail
from service.localtime import as_utc
from service.play.table_talk import MAX_TALK_PER_HOUR, TalkRefused, cleaned, guarded
from service.runtime import Runtime


def say_to_club(rt: Runtime, club_id: str, email: str, text: object) -> None:
    """A member says something to the club; ClubRefused for a bad message, one from someone who is
    not a member, or one over the member's hourly rate."""
    now = rt.clock.now()
    try:
        kept, private = guarded(rt, cleaned(text), False)
    except TalkRefused as refusal:
        raise ClubRefused(refusal.message[0], **refusal.message[1]) from None
    if private:  # club talk has no private notes: a doubtful message is not kept at all
        raise ClubRefused(N_("A message may not hold your game's private links or reply addresses."))

    def decide(_session: Session, club: Club) -> tuple[None, list[ClubEvent], list[OutboxMail]]:
        member = club.member_of(email)
        if member is None:
            raise ClubRefused(N_("You are not a member of this club."))
        recent = [
            t for t in club.talk if t.member == member.number and as_utc(t.at) > now - timedelta(hours=1)
        ]
        if len(recent) >= MAX_TALK_PER_HOUR:
            raise ClubRefused(N_("That is many messages for an hour; wait a while before the next."))
        return None, [ClubEvent(TALKED, {"member": member.number, "text": kept}, now)], []

    in_club(rt, club_id, decide)

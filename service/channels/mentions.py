"""A seat's @mention in the table's group channel: how the group's chat app calls the seat's player
(`<@123456789012345678>` on Discord, `<@U024BE7LH>` on Slack, `@bo` or `@bo:matrix.org` on Matrix,
Mattermost, Telegram...), added after the seat's name in the notices that name it. It is the one text
a player puts into the group channel, so only a single person's mention is taken: no mass mention
(`@everyone`, `@here`, `<!channel>`, a Discord role), no markup, no spaces, no other text."""

from __future__ import annotations

import re

from sqlmodel import Session

from rules.messages import N_
from service.channels.kinds import ChannelRefused
from service.eventlog.models import OutboxMail
from service.eventlog.store import Table
from service.runtime import Runtime

MAX_MENTION = 64
# One person: a Discord user id, a Slack user id, or a handle (with a Matrix server, if any).
ONE_PERSON = re.compile(
    r"<@!?[0-9]{5,20}>"
    r"|<@[UW][A-Z0-9]{2,20}>"
    r"|@[A-Za-z0-9][A-Za-z0-9._=-]{0,39}(:[A-Za-z0-9.-]{1,60}(:[0-9]{1,5})?)?"
)
# The handles that call a whole room in one chat app or another.
EVERYONE = frozenset({"everyone", "here", "channel", "all", "room", "group", "team", "online"})


def checked_mention(text: str) -> str:
    """A mention from untrusted input, "" for none; ChannelRefused (saying why) for anything that is
    not one person's mention."""
    mention = text.strip()
    if not mention:
        return ""
    if len(mention) > MAX_MENTION:
        raise ChannelRefused(N_("A mention has at most %(num)s characters."), num=MAX_MENTION)
    if not ONE_PERSON.fullmatch(mention):
        raise ChannelRefused(
            N_("Give one person's mention as your chat app writes it, like <@123456789> or @name.")
        )
    handle = mention.lstrip("@").split(":")[0].lower()
    if handle in EVERYONE:
        raise ChannelRefused(N_("A mention calls you alone, not the whole room."))
    return mention


def save_mention(rt: Runtime, game_id: str, seat: int, key_version: int, text: str) -> str | None:
    """Store the seat's mention, checked (ChannelRefused: nothing stored); the mention stored, or None
    (nothing stored) for a link replaced meanwhile."""
    mention = checked_mention(text)

    def change(session: Session, table: Table) -> tuple[str | None, list[OutboxMail]]:
        if not 0 <= seat < len(table.seats) or table.seats[seat].key_version != key_version:
            return None, []
        record = table.seats[seat]
        record.mention = mention
        session.add(record)
        return mention, []

    return rt.in_game(game_id, change)


def named(table: Table, seat: int) -> str:
    """How the table's channel names a seat: its name, and its player's mention if they gave one."""
    mention = table.seats[seat].mention
    return f"{table.names[seat]} {mention}" if mention else table.names[seat]

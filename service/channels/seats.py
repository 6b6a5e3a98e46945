"""A seat's own channels, and the table's group channel (seat None, the host's): added, listed,
removed and tried ("send a test ping") by their owner only, on the seat's or host's page or by the
API. A channel belongs to its owner as they were when it was added (the seat's or host's link
version): a seat given to someone else, or a host link replaced, starts without them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, bindparam, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from rules.messages import N_
from service.channels.kinds import ChannelKind, ChannelRefused
from service.channels.notices import notice_row, owner_version, test_payload
from service.channels.registry import kind_for
from service.channels.sealing import erased, seal, unseal
from service.eventlog.models import Channel, OutboxMail
from service.eventlog.store import Table
from service.runtime import Runtime

MAX_CHANNELS_PER_SEAT = 5


@dataclass(frozen=True)
class ChannelView:
    """What the owner sees of one channel: never its address; a webhook's signing key, which only
    the owner needs."""

    id: int
    kind: str
    label: str
    paused: bool
    signing_key: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "paused": self.paused,
            "signing_key": self.signing_key,
        }


def _owned_where(owner: ColumnElement[bool]) -> SelectOfScalar[Channel]:
    return (
        select(Channel)
        .where(
            col(Channel.game_id) == bindparam("game_id"),
            owner,
            col(Channel.key_version) == bindparam("key_version"),
            col(Channel.sealed) != "",
        )
        .order_by(col(Channel.id))
    )


# Built once: every seat page reads its channels.
_TABLES_CHANNELS = _owned_where(col(Channel.seat).is_(None))
_SEATS_CHANNELS = _owned_where(col(Channel.seat) == bindparam("seat"))


def owned(session: Session, table: Table, seat: int | None) -> list[Channel]:
    """The channels of the seat's current player (the table's with seat None), oldest first."""
    query = _TABLES_CHANNELS if seat is None else _SEATS_CHANNELS
    params = {"game_id": table.game_id, "seat": seat, "key_version": owner_version(table, seat)}
    return list(session.exec(query, params=params).all())


def seat_channels(rt: Runtime, table: Table, seat: int | None) -> list[ChannelView]:
    """The seat's channels as its owner sees them."""
    with rt.reading() as session:
        return [view_of(rt, channel) for channel in owned(session, table, seat)]


def view_of(rt: Runtime, channel: Channel) -> ChannelView:
    assert channel.id is not None
    key = unseal(rt.settings, channel.sealed).get("key") if channel.kind == "webhook" else None
    return ChannelView(channel.id, channel.kind, channel.label, channel.paused_at is not None, key)


def add_channel(
    rt: Runtime, game_id: str, seat: int | None, address: str, kind: ChannelKind | None = None
) -> ChannelView:
    """Add a channel to the seat (the table's with seat None) from the address its owner entered
    (of the kind it reads as, unless `kind` is given: a browser's push subscription); ChannelRefused
    (nothing stored) for an address that cannot be one, or past MAX_CHANNELS_PER_SEAT (one for the
    table)."""
    kind = kind or kind_for(address)
    secret, label = kind.checked(rt.settings, address)

    def change(session: Session, table: Table) -> tuple[ChannelView, list[OutboxMail]]:
        if seat is None and owned(session, table, None):
            raise ChannelRefused(N_("The table has its channel already: remove it to give another."))
        if any(end_of(unseal(rt.settings, c.sealed)) == end_of(secret) for c in owned(session, table, seat)):
            raise ChannelRefused(N_("This seat has this channel already."))
        if len(owned(session, table, seat)) >= MAX_CHANNELS_PER_SEAT:
            raise ChannelRefused(N_("A seat may have at most %(num)s channels."), num=MAX_CHANNELS_PER_SEAT)
        channel = Channel(
            game_id=game_id,
            seat=seat,
            key_version=owner_version(table, seat),
            kind=kind.name,
            sealed=seal(rt.settings, secret),
            label=label[:200],
            created_at=rt.clock.now(),
        )
        session.add(channel)
        session.flush()
        return view_of(rt, channel), []

    return rt.in_game(game_id, change)


def end_of(secret: dict[str, Any]) -> str:
    """Where a channel's notices go (its URL, a push subscription's endpoint): a seat's two channels
    to one end would tell it everything twice (a device subscribed again, say)."""
    return str(secret.get("url") or secret.get("endpoint"))


def remove_channel(rt: Runtime, game_id: str, seat: int | None, channel_id: int) -> bool:
    """Remove one of the seat's channels (its address erased, its unsent notices going nowhere);
    False if it has no such one."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        if channel_id not in {channel.id for channel in owned(session, table, seat)}:
            return False, []
        session.exec(erased(channel_id, rt.clock.now()))
        return True, []

    return rt.in_game(game_id, change)


def test_channel(rt: Runtime, game_id: str, seat: int | None, channel_id: int) -> bool:
    """Send a test ping to one of the seat's channels, resuming it if it was paused; False if the
    seat has no such channel."""

    def change(session: Session, table: Table) -> tuple[bool, list[OutboxMail]]:
        channel = next((c for c in owned(session, table, seat) if c.id == channel_id), None)
        if channel is None:
            return False, []
        session.exec(update(Channel).where(col(Channel.id) == channel_id).values(paused_at=None, failures=0))
        return True, [notice_row(rt, channel, test_payload(rt, table, seat))]

    return rt.in_game(game_id, change)

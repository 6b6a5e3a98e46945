"""Mail drafts written to the outbox in the same transaction as the events that cause them.

A mail's game part comes only from `service/reading.py` (the reader's lines, which the replay writes
with `describe(event, seat)`), never from a state or another seat's view, so a mail cannot carry a
card its reader may not see.

Which mails a reader gets is decided in one place, `wants_mail`, by the kind's class (`kinds.py`):
nudges about play follow the reader's choice, mails about the game's life stop once the reader
turned mail off, and what the reader must get always goes. Every mail carries its reader's unsubscribe
link (in the footer and, at delivery, in the List-Unsubscribe header).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from flask import render_template
from flask_babel import force_locale

from service.catalog import entry
from service.eventlog.models import (
    GameRequest,
    MailStatus,
    NotifyMode,
    OutboxMail,
    SeatKeeper,
    SeatRecord,
)
from service.eventlog.store import Table
from service.i18n import DEFAULT_LANGUAGE, say
from service.links import (
    AddressLink,
    ClubReader,
    GameLink,
    MailReader,
    PlayerLink,
    ReplyLink,
    address_key,
    day_number,
    issued_at,
)
from service.localtime import as_utc, format_time, next_local_hour, zone_name
from service.mail.kinds import MailKind
from service.mail.table import ahead_links, mail_table
from service.reading import game_title, mail_context, reader_language
from service.replay.fairness import game_commitment
from service.runtime import Runtime


def wants_mail(table: Table, seat: int | None, kind: MailKind, urgent: bool = False) -> bool:
    """Whether a seat (or the host when seat is None) is sent a mail of this kind: the one place the
    readers' settings are applied (by `draft_mail`), as `MailKind` sorts the kinds: essential ones
    always go, the rest not to a reader who turned mail off, nudges as the seat's mode says. A
    reader of the daily digest still gets the warnings the digest could bring too late: the
    reminder, and a mail asking for a move due before their next digest (`urgent`). A seat whose
    address is unreachable gets nothing, essential or not, until it is corrected: no mail storm to a
    dead mailbox (the host's address alike); and nothing about play still to come goes once the
    game is over."""
    if unreachable_reader(table, seat):
        return False
    if kind.about_play and not table.active:  # a seat-keeper's last move may have ended the game
        return False
    if kind.essential:
        return True
    if seat is None:
        return table.record.host_notify
    notify = table.seats[seat].notify
    if notify == NotifyMode.NONE:  # mail turned off (an unsubscribe): only what it must get
        return False
    if not kind.nudge:
        return True
    if notify == NotifyMode.DIGEST:
        return kind == MailKind.REMINDER or urgent
    return notify == NotifyMode.TURN


def unreachable_reader(table: Table, seat: int | None) -> bool:
    """Whether mail to a seat's address (or the host's, when seat is None) is known not to arrive."""
    if seat is None:
        return table.record.host_unreachable_at is not None
    return table.seats[seat].unreachable_at is not None


def due_before_digest(rt: Runtime, table: Table, seat: int | None, due: datetime | None) -> bool:
    """Whether a move is due before the reader's next daily digest (at DIGEST_HOUR in their zone)."""
    if due is None:
        return False
    return as_utc(due) <= next_local_hour(rt.clock.now(), zone_name(table, seat), rt.settings["DIGEST_HOUR"])


def player_url(rt: Runtime, table: Table, seat: int) -> str:
    """A seat's current personal link, absolute."""
    record = table.seats[seat]
    return rt.link(f"/play/{rt.signer.player_token(table.game_id, seat, record.key_version)}")


def replay_url(rt: Runtime, table: Table, seat: int) -> str:
    """A seat's replay of the game (every card face up once the game is over), absolute."""
    return player_url(rt, table, seat) + "/replay"


def watch_url(rt: Runtime, table: Table) -> str:
    """The game's spectator link (public information only), which the host may share, absolute."""
    return rt.link(f"/watch/{rt.signer.watch_token(table.game_id, table.record.watch_key_version)}")


def public_replay_url(rt: Runtime, table: Table) -> str:
    """The finished game's public replay (open only if the host allows it), absolute."""
    return rt.link(f"/game/{table.game_id}/replay")


def rules_url(rt: Runtime, table: Table) -> str:
    """The game's rules page with this table's options, absolute."""
    query = urlencode(entry(table.record.game).rules_query(table.record.options))
    return rt.link(f"/rules/{table.record.game}?{query}")


def host_url(rt: Runtime, table: Table) -> str:
    """The host's management link, absolute."""
    return rt.link(f"/host/{rt.signer.host_token(table.game_id, table.record.host_key_version)}")


def my_games_url(rt: Runtime, email: str) -> str:
    """The "my games" link of an address, signed for it now, absolute."""
    link = AddressLink(address_key(email), issued_at(rt.clock.now()))
    return rt.link(f"/my/{rt.signer.address_token(link)}")


def unsubscribe_url(rt: Runtime, reader: MailReader | ClubReader) -> str:
    """The absolute unsubscribe link of a mail to `reader`."""
    return rt.link(f"/unsubscribe/{rt.signer.unsubscribe_token(reader)}")


def reply_address(rt: Runtime, table: Table, seat: int) -> str:
    """The seat's signed reply address for a mail about the game as it stands: the reply is a move
    made at this version (and stops working when the seat's link is replaced, or when it is older
    than REPLY_ADDRESS_MAX_AGE_DAYS)."""
    today = day_number(rt.clock.now())
    link = ReplyLink(table.game_id, seat, table.seats[seat].key_version, table.version, today)
    return f"play+{rt.signer.reply_token(link)}@{rt.settings['MAIL_DOMAIN']}"


def reader_of(table: Table, seat: int | None) -> MailReader:
    """Who a mail about this game is for: a seat with its current key, or the game's host."""
    if seat is None:
        return GameLink(table.game_id, table.record.host_key_version)
    return PlayerLink(table.game_id, seat, table.seats[seat].key_version)


def mailed_seats(table: Table) -> list[SeatRecord]:
    """The seats that belong to people (a bot seat has nobody to mail)."""
    return [seat for seat in table.seats if seat.keeper != SeatKeeper.BOT]


def hosts(table: Table, seat: int) -> bool:
    """Whether the seat's player is also the game's host (the same address, in any case)."""
    return table.seats[seat].email.strip().lower() == table.record.host_email.strip().lower()


def draft_mail(
    rt: Runtime,
    table: Table,
    kind: MailKind,
    seat: int | None,
    context: dict[str, Any],
    due: datetime | None = None,
) -> OutboxMail | None:
    """An outbox row for one reader (a seat, or the host when seat is None), drafted now in the
    reader's language: with `due`, the deadline of the reader's move if it has one, the seat's "since
    your last move" lines and the reader's time zone (templates write times with `time_text(zone)`);
    None when the reader's setting turns this kind off."""
    if not wants_mail(table, seat, kind, due_before_digest(rt, table, seat, due)):
        return None
    language = mail_language(table, seat)
    with force_locale(language):
        return _drafted_in_language(rt, table, kind, seat, context, due, language)


def mail_language(table: Table, seat: int | None) -> str:
    """The language mails to a seat (or the host) are drafted in."""
    return reader_language(table, seat) or DEFAULT_LANGUAGE


def _drafted_in_language(
    rt: Runtime,
    table: Table,
    kind: MailKind,
    seat: int | None,
    context: dict[str, Any],
    due: datetime | None,
    language: str,
) -> OutboxMail:
    mail = undrafted_mail(rt, table, kind, seat, language)
    mail.text_body, mail.html_body = drafted_bodies(rt, table, mail, context, due)
    return mail


def undrafted_mail(rt: Runtime, table: Table, kind: MailKind, seat: int | None, language: str) -> OutboxMail:
    """A mail's row about this game for a seat (or the host, seat None): its headers as the game
    stands (the subject in the reader's language, spoken now), its bodies not drafted yet."""
    if seat is None:
        to_name, to_email, who = table.record.host_name, table.record.host_email, "host"
    else:
        assert table.seats[seat].keeper != SeatKeeper.BOT, "a bot seat has nobody to mail"
        to_name, to_email, who = table.seats[seat].name, table.seats[seat].email, f"seat{seat}"
    thread_id = f"<{table.game_id}.{who}@{rt.settings['MAIL_DOMAIN']}>"
    now = rt.clock.now()
    return OutboxMail(
        game_id=table.game_id,
        seat=seat,
        kind=kind,
        to_name=to_name,
        to_email=to_email,
        subject=game_title(table),
        message_id=thread_id if kind.starts_thread else new_message_id(rt, table.game_id),
        thread_id=thread_id,
        unsubscribe_url=unsubscribe_url(rt, reader_of(table, seat)),
        language=language,
        reply_to=reply_address(rt, table, seat) if seat is not None and kind.answerable else "",
        text_body="",
        html_body="",
        status=MailStatus.PENDING if rt.mail_configured else MailStatus.KEPT,
        created_at=now,
        next_attempt_at=now,
    )


def drafted_bodies(
    rt: Runtime, table: Table, mail: OutboxMail, context: dict[str, Any], due: datetime | None
) -> tuple[str, str]:
    """The text and HTML bodies of a mail about the game as `table` stands, for the reader and with
    the headers its row holds (in the reader's language, spoken now): with `due`, the deadline of
    the reader's move if it has one, the seat's "since your last move" lines and the reader's time
    zone (templates write times with `time_text(zone)`)."""
    kind, seat, reply_to = MailKind(mail.kind), mail.seat, mail.reply_to
    values = {
        **mail_context(rt, table, seat),
        "overview": rt.link(f"/game/{table.game_id}"),
        "due": format_time(due, zone_name(table, seat)) if due else None,
        "zone": zone_name(table, seat),
        "can_reply": seat is not None and kind.answerable,
        **context,
        "ahead": [say(message) for message in context.get("ahead", ())],
    }
    if seat is not None and kind.carries_table and table.active:
        link = values.get("link") or player_url(rt, table, seat)
        values["seat_table"] = mail_table(rt, table, seat, link, reply_to, values["title"])
    if seat is not None and values.get("ahead_by_reply") and table.active:
        values["ahead_links"] = ahead_links(values["ahead_by_reply"].plays, reply_to, values["title"])
    return rendered_bodies(rt, kind, values, mail.to_name, mail.to_email, mail.unsubscribe_url)


def mails_to_others(rt: Runtime, table: Table, seat: int, kind: MailKind, **values: Any) -> list[OutboxMail]:
    """A mail of this kind to every other player of the game, naming the seat's player ("name") and
    with each reader's own link, and these values; those their readers' settings turned off left out."""
    return drafted(
        *(
            draft_mail(
                rt,
                table,
                kind,
                other.seat,
                {"link": player_url(rt, table, other.seat), "name": table.names[seat], **values},
            )
            for other in mailed_seats(table)
            if other.seat != seat
        )
    )


def drafted(*mails: OutboxMail | None) -> list[OutboxMail]:
    """The mails drafted, without the ones their readers' settings turned off."""
    return [mail for mail in mails if mail is not None]


def new_message_id(rt: Runtime, prefix: str) -> str:
    """A fresh Message-ID under MAIL_DOMAIN."""
    return f"<{prefix}.{uuid.uuid4().hex}@{rt.settings['MAIL_DOMAIN']}>"


def outbox_row(rt: Runtime, kind: MailKind, values: dict[str, Any], **headers: Any) -> OutboxMail:
    """An outbox row of this kind with these headers and its text and HTML bodies rendered from the
    kind's templates, written and due now, ready to store."""
    text_body, html_body = rendered_bodies(
        rt, kind, values, headers["to_name"], headers["to_email"], headers["unsubscribe_url"]
    )
    now = rt.clock.now()
    return OutboxMail(
        **headers,
        kind=kind,
        text_body=text_body,
        html_body=html_body,
        status=MailStatus.PENDING if rt.mail_configured else MailStatus.KEPT,
        created_at=now,
        next_attempt_at=now,
    )


def rendered_bodies(
    rt: Runtime, kind: MailKind, values: dict[str, Any], to_name: str, to_email: str, unsubscribe: str
) -> tuple[str, str]:
    """A mail's text and HTML bodies rendered from its kind's templates with `values`, for its reader
    (`to_name` at `to_email`, whose "my games" link it carries) with its unsubscribe link."""
    values = {
        "to_name": to_name,
        "unsubscribe": unsubscribe,
        "headline": kind.headline(values),
        "my_games": my_games_url(rt, to_email),
        **values,
    }
    text, html = kind.templates
    return render_template(text, **values), render_template(html, **values)


def confirm_url(rt: Runtime, request: GameRequest) -> str:
    """The link with which the host confirms a game they asked for, absolute."""
    assert request.id is not None
    return rt.link(f"/confirm/{rt.signer.confirm_token(request.id)}")


def confirmation_mail(rt: Runtime, request: GameRequest) -> OutboxMail:
    """The one mail of a game asked for on the web before its host confirms: to the host (the name
    they gave, at their address), the link to confirm it. It names no player: those names are the
    asker's, and the address may not be."""
    with force_locale(request.language or DEFAULT_LANGUAGE):
        return _confirmation_in_language(rt, request)


def _confirmation_in_language(rt: Runtime, request: GameRequest) -> OutboxMail:
    kind = MailKind.CONFIRM_GAME
    values = {"game_name": entry(request.game).title, "players": len(request.players)}
    message_id = new_message_id(rt, f"confirm.{request.id}")
    return outbox_row(
        rt,
        kind,
        {**values, "link": confirm_url(rt, request)},
        game_id=None,
        seat=None,
        to_name=request.host_name,  # the name the asker gave for themselves
        to_email=request.host_email,
        subject=kind.headline(values),
        message_id=message_id,
        thread_id=message_id,
        unsubscribe_url="",
        language=request.language or DEFAULT_LANGUAGE,
    )


def invitation_mails(rt: Runtime, table: Table, dues: Mapping[int, datetime]) -> list[OutboxMail]:
    """Each player's invitation with their link (and the deadline of their first move, if it is
    theirs in a timed game: `dues`, by seat), and the host's management link."""
    to_act = table.rules.to_act(table.state)
    return drafted(
        *(
            draft_mail(
                rt,
                table,
                MailKind.INVITATION,
                seat.seat,
                {
                    "link": player_url(rt, table, seat.seat),
                    "your_move": seat.seat in to_act,
                    "hosting": hosts(table, seat.seat),
                    "others": [name for other, name in enumerate(table.names) if other != seat.seat],
                    "commitment": game_commitment(table),
                    "rules": rules_url(rt, table),
                },
                dues.get(seat.seat),
            )
            for seat in mailed_seats(table)
        ),
        draft_mail(rt, table, MailKind.HOST, None, {"link": host_url(rt, table)}),
    )

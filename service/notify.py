"""Mail drafts written to the outbox in the same transaction as the events that cause them.

Mail bodies come only from `describe(event, seat)` and links: never from a state or another seat's
view, so a mail cannot carry a card its reader may not see.

Which mails a reader gets is decided in one place, `wants_mail`: nudges about play follow the
reader's choice, mails about the game's life always go. Every mail carries its reader's unsubscribe
link (in the footer and, at delivery, in the List-Unsubscribe header).
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import render_template
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from rules.base import Message
from service.catalog import entry
from service.fairness import game_commitment
from service.links import GameLink, MailReader, PlayerLink
from service.models import MailStatus, NotifyMode, OutboxMail
from service.runtime import Runtime
from service.store import Table

SUBJECTS = {
    "invitation": _l("%(title)s: you are invited"),
    "host": _l("%(title)s: your game is set up"),
    "your_turn": _l("%(title)s: your move"),
    "report": _l("%(title)s: what happened"),
    "game_over": _l("%(title)s: game over"),
    "link_resent": _l("%(title)s: your link"),
    "link_reissued": _l("%(title)s: your new link"),
    "game_cancelled": _l("%(title)s: game cancelled"),
}
MAX_LINES = 60
# Nudges about play: a seat gets them only in the "turn" mode (in "digest" mode the daily digest
# tells the same), the host only while its notices are on. Every other kind is about the game's life
# (invitation, setup, game over, a link resent or reissued, cancellation) and always goes.
TURN_NUDGES = frozenset({"your_turn", "report"})


def wants_mail(table: Table, seat: int | None, kind: str) -> bool:
    """Whether a seat (or the host when seat is None) is sent a mail of this kind."""
    if kind not in TURN_NUDGES:
        return True
    if seat is None:
        return table.record.host_notify
    return table.seats[seat].notify == NotifyMode.TURN


def say(message: Message) -> str:
    """A rules message in the reader's language."""
    msgid, params = message
    return gettext(msgid, **params)


def game_title(table: Table) -> str:
    """How mails and pages name a game: the game and its players."""
    return f"{entry(table.record.game).title} · {', '.join(table.names)}"


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


def host_url(rt: Runtime, table: Table) -> str:
    """The host's management link, absolute."""
    return rt.link(f"/host/{rt.signer.host_token(table.game_id, table.record.host_key_version)}")


def unsubscribe_url(rt: Runtime, reader: MailReader) -> str:
    """The absolute unsubscribe link of a mail to `reader`."""
    return rt.link(f"/unsubscribe/{rt.signer.unsubscribe_token(reader)}")


def reader_of(table: Table, seat: int | None) -> MailReader:
    """Who a mail about this game is for: a seat with its current key, or the game's host."""
    if seat is None:
        return GameLink(table.game_id, table.record.host_key_version)
    return PlayerLink(table.game_id, seat, table.seats[seat].key_version)


def lines_since_last_move(table: Table, seat: int) -> list[str]:
    """What this seat may know of everything after its own last move, in words: the move itself
    is left out, what it caused (a trick won, a new deal) is told."""
    start = 0
    for index in range(len(table.actors) - 1, -1, -1):
        if table.actors[index] == seat and (index == 0 or table.actors[index - 1] != seat):
            start = index + 1  # just after the first event of this seat's last move
            break
    rules = table.rules
    lines = [rules.describe(event, seat, table.names) for event in table.events[start:]]
    return [say(line) for line in lines if line is not None][-MAX_LINES:]


def draft_mail(rt: Runtime, table: Table, kind: str, seat: int | None, context: dict[str, Any]) -> OutboxMail:
    """An outbox row for one reader (a seat, or the host when seat is None), bodies rendered now."""
    if seat is None:
        to_name, to_email, who = table.record.host_name, table.record.host_email, "host"
    else:
        to_name, to_email, who = table.seats[seat].name, table.seats[seat].email, f"seat{seat}"
    domain = rt.settings["MAIL_DOMAIN"]
    thread_id = f"<{table.game_id}.{who}@{domain}>"
    message_id = thread_id if kind in ("invitation", "host") else new_message_id(rt, table.game_id)
    title = game_title(table)
    values = {
        "title": title,
        "game_name": entry(table.record.game).title,
        "table": table,
        "names": table.names,
        "seat": seat,
        "overview": rt.link(f"/game/{table.game_id}"),
        **context,
    }
    return outbox_row(
        rt,
        OutboxMail(
            game_id=table.game_id,
            kind=kind,
            seat=seat,
            to_name=to_name,
            to_email=to_email,
            subject=str(SUBJECTS[kind]) % {"title": title},
            message_id=message_id,
            thread_id=thread_id,
            unsubscribe_url=unsubscribe_url(rt, reader_of(table, seat)),
        ),
        values,
    )


def new_message_id(rt: Runtime, prefix: str) -> str:
    """A fresh Message-ID under MAIL_DOMAIN."""
    return f"<{prefix}.{uuid.uuid4().hex}@{rt.settings['MAIL_DOMAIN']}>"


def outbox_row(rt: Runtime, mail: OutboxMail, values: dict[str, Any]) -> OutboxMail:
    """`mail` (headers set) with its text and HTML bodies rendered from `mail/<kind>.*`, ready to store."""
    values = {"to_name": mail.to_name, "unsubscribe": mail.unsubscribe_url, **values}
    mail.text_body = render_template(f"mail/{mail.kind}.txt", **values)
    mail.html_body = render_template(f"mail/{mail.kind}.html", **values)
    mail.status = MailStatus.PENDING if rt.mail_configured else MailStatus.KEPT
    return mail


def invitation_mails(rt: Runtime, table: Table) -> list[OutboxMail]:
    """Each player's invitation with their link, and the host's management link."""
    to_act = table.rules.to_act(table.state)
    mails = [
        draft_mail(
            rt,
            table,
            "invitation",
            seat.seat,
            {
                "link": player_url(rt, table, seat.seat),
                "your_move": seat.seat in to_act,
                "lines": lines_since_last_move(table, seat.seat),
                "commitment": game_commitment(table),
            },
        )
        for seat in table.seats
    ]
    mails.append(draft_mail(rt, table, "host", None, {"link": host_url(rt, table)}))
    return mails


def mails_after_move(rt: Runtime, before: Table, after: Table, actor: int) -> list[OutboxMail]:
    """The mails a move causes: game over to everyone, else "your move" to each seat that now owes
    a move and did not already (or that just moved and must move again), and a report to the others
    after a move every seat should hear of; nudges only to the seats that want them."""
    rules = after.rules
    result = rules.result(after.state)
    if result is not None:
        winners = [after.names[w] for w in result["winners"]]
        return [
            draft_mail(
                rt,
                after,
                "game_over",
                seat.seat,
                {
                    "link": player_url(rt, after, seat.seat),
                    "replay": replay_url(rt, after, seat.seat),
                    "lines": lines_since_last_move(after, seat.seat),
                    "winners": winners,
                },
            )
            for seat in after.seats
        ]
    waiting_before = rules.to_act(before.state)
    owing = [s for s in sorted(rules.to_act(after.state)) if s not in waiting_before or s == actor]
    new_types = {event["type"] for event in after.events[before.version :]}
    reported = bool(new_types & entry(after.record.game).report_events)
    kinds = {seat: "your_turn" if seat in owing else "report" for seat in range(len(after.seats))}
    return [
        draft_mail(
            rt,
            after,
            kind,
            seat,
            {"link": player_url(rt, after, seat), "lines": lines_since_last_move(after, seat)},
        )
        for seat, kind in kinds.items()
        if (seat in owing or reported) and wants_mail(after, seat, kind)
    ]

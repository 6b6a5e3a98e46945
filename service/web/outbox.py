"""The local outbox (embedded mode without SMTP, or LOCAL_OUTBOX=1 for development): every mail the
service wrote, links clickable, newest first, a page at a time, filtered by address or game. Anywhere
else it answers 404: it shows every player's and host's link."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlmodel import Session, col, func, select
from werkzeug.wrappers import Response

from service.eventlog.models import InboundStatus, OutboxMail
from service.replies.answering import receive_reply
from service.replies.club_replies import club_reply_link, receive_club_reply
from service.replies.reply_text import MAX_TEXT
from service.runtime import runtime
from service.web.inputs import sql_int

blueprint = Blueprint("outbox", __name__)
PAGE_SIZE = 50
MAX_FILTER = 254  # the longest address a mail is sent to
MAX_PAGE = 10**6  # its offset stays an SQL integer


@dataclass(frozen=True)
class OutboxQuery:
    """Which mails the outbox lists: a page (from 1) of those to an address and/or of a game."""

    page: int = 1
    to: str = ""
    game: str = ""


def _require_local_outbox() -> None:
    if not runtime().settings["LOCAL_OUTBOX"]:
        abort(404, _("Mail is delivered by SMTP here; there is no local outbox."))


def outbox_query() -> OutboxQuery:
    """The request's page and filters; 400 for a page that is not a positive number."""
    page = sql_int(request.args.get("page", "1"))
    to = request.args.get("to", "").strip()
    game = request.args.get("game", "").strip()
    if page is None or not 1 <= page <= MAX_PAGE:
        abort(400, _("The page number must be a whole number from 1."))
    if len(to) > MAX_FILTER or len(game) > MAX_FILTER:
        abort(400, _("That filter is too long."))
    return OutboxQuery(page, to, game)


def listed_mails(session: Session, query: OutboxQuery) -> tuple[list[OutboxMail], int]:
    """One page of the mails the query selects, newest first, and how many it selects in all."""
    selected = select(OutboxMail)
    counted = select(func.count()).select_from(OutboxMail)
    if query.to:
        condition = func.lower(OutboxMail.to_email) == query.to.lower()
        selected, counted = selected.where(condition), counted.where(condition)
    if query.game:
        selected, counted = (
            selected.where(OutboxMail.game_id == query.game),
            counted.where(OutboxMail.game_id == query.game),
        )
    page = selected.order_by(col(OutboxMail.id).desc()).offset((query.page - 1) * PAGE_SIZE).limit(PAGE_SIZE)
    return list(session.exec(page).all()), session.exec(counted).one()


@blueprint.get("/outbox")
def index() -> str:
    _require_local_outbox()
    query = outbox_query()
    with Session(runtime().engine) as session:
        mails, total = listed_mails(session, query)
    pages = max(1, -(-total // PAGE_SIZE))
    return render_template(
        "outbox.html", mails=mails, total=total, query=query, pages=pages, title=_("Outbox")
    )


@blueprint.get("/outbox/<int:mail_id>")
def show(mail_id: int) -> str:
    _require_local_outbox()
    with Session(runtime().engine) as session:
        mail = session.get(OutboxMail, mail_id)
    if mail is None:
        abort(404, _("There is no such mail."))
    return render_template("outbox_mail.html", mail=mail, title=mail.subject)


@blueprint.post("/outbox/<int:mail_id>/reply")
def reply(mail_id: int) -> Response:
    """Answer a kept mail as its reader would from their mail program: the text goes through the same
    reading as a real reply (so a newcomer can try moves by reply in the embedded mode)."""
    _require_local_outbox()
    text = request.form.get("text", "")
    if not text.strip() or len(text) > MAX_TEXT:
        abort(400, _("Write your reply (at most %(most)s characters).", most=MAX_TEXT))
    with Session(runtime().engine) as session:
        mail = session.get(OutboxMail, mail_id)
    if mail is None or not mail.reply_to:
        abort(404, _("There is no such mail to reply to."))
    rt, raw = runtime(), reply_message(mail, text).as_bytes()
    if club_reply_link(rt, [mail.reply_to]) is not None:  # a club mail: the reply is club talk
        flash(str(CLUB_REPLY_OUTCOMES[receive_club_reply(rt, raw, [mail.reply_to]).status]))
    else:
        flash(str(REPLY_OUTCOMES[receive_reply(rt, raw, [mail.reply_to]).status]))
    return redirect(url_for("outbox.index", to=mail.to_email), 303)


def reply_message(mail: OutboxMail, text: str) -> EmailMessage:
    """A reply to `mail` from its reader, as their mail program would send it."""
    message = EmailMessage()
    message["From"] = formataddr((mail.to_name, mail.to_email))
    message["To"] = mail.reply_to
    message["Subject"] = f"Re: {mail.subject}"
    message["Message-ID"] = make_msgid(domain="outbox.localhost")
    message["In-Reply-To"] = mail.message_id
    message.set_content(text)
    return message


REPLY_OUTCOMES = {
    InboundStatus.MOVED: _l("Your reply was read and its move submitted; the answer is in the outbox."),
    InboundStatus.REFUSED: _l("Your reply was read but not played; the answer in the outbox says why."),
    InboundStatus.IGNORED: _l(
        "That reply was not read (the same mail twice, or an address no longer valid)."
    ),
    InboundStatus.LIMITED: _l("Too many replies from this seat in the last hour; this one was not read."),
    InboundStatus.TALKED: _l("Your reply was added to the table talk; the answer is in the outbox."),
}
# A reply to a club mail is never answered (service/replies/club_replies.py): said here instead.
CLUB_REPLY_OUTCOMES = {
    InboundStatus.TALKED: _l("Your reply was added to the club's talk."),
    InboundStatus.IGNORED: _l("That reply was not read, so nothing was said to the club."),
}

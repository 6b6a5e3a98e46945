"""The local outbox (embedded mode without SMTP): every mail the service wrote, links clickable."""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _
from sqlmodel import Session, col, select

from service.eventlog.models import OutboxMail
from service.runtime import runtime

blueprint = Blueprint("outbox", __name__)


def _require_local_outbox() -> None:
    if runtime().mail_configured:
        abort(404, _("Mail is delivered by SMTP here; there is no local outbox."))


@blueprint.get("/outbox")
def index() -> str:
    _require_local_outbox()
    with Session(runtime().engine) as session:
        mails = session.exec(select(OutboxMail).order_by(col(OutboxMail.id).desc()).limit(200)).all()
    return render_template("outbox.html", mails=mails, title=_("Outbox"))


@blueprint.get("/outbox/<int:mail_id>")
def show(mail_id: int) -> str:
    _require_local_outbox()
    with Session(runtime().engine) as session:
        mail = session.get(OutboxMail, mail_id)
    if mail is None:
        abort(404, _("There is no such mail."))
    return render_template("outbox_mail.html", mail=mail, title=mail.subject)

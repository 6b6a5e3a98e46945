"""The page that loads a kept record (a finished game's JSON log) as a game here, once it verifies."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from service.i18n import say
from service.play.record_import import import_record
from service.replay.game_record import MAX_RECORD_BYTES, RecordRefused
from service.runtime import runtime

blueprint = Blueprint("records", __name__)


@blueprint.get("/import")
def upload_page() -> str:
    return render_template("import.html", title=_("Load a game record"), limit=MAX_RECORD_BYTES // 2**20)


@blueprint.post("/import")
def upload() -> Response:
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        abort(400, _("Choose a record file (JSON) to load."))
    try:
        game_id = import_record(runtime(), upload.read(MAX_RECORD_BYTES + 1))
    except RecordRefused as refusal:
        abort(422, say((refusal.msgid, refusal.params)))
    return redirect(url_for("replay.public_history", game_id=game_id), 303)

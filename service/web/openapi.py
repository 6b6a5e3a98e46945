"""The JSON API described as OpenAPI (served at /api/openapi.json), generated from the routes and these
models by spectree, which also checks each request body against its model before the view runs.

A move's `action` is documented as the union of every game's action shapes, taken from the rules
(`Game.action_schema`); which game applies is known only from the token, so the view checks the
action against its game's shapes (a 422 naming what is wrong).
"""

from __future__ import annotations

from typing import Annotated, Any

from flask import abort
from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictInt, StrictStr, WithJsonSchema
from spectree import Response, SpecTree

from rules import GAMES, get_game
from service.links import SQL_INT_MAX
from service.play.ahead import MAX_AHEAD
from service.play.moves import MoveStatus

ACTION_SCHEMA = {"anyOf": [shape for game in GAMES for shape in get_game(game).action_schema()["anyOf"]]}


class MoveRequest(BaseModel):
    """A move: the action and the version of the game it was chosen at."""

    model_config = ConfigDict(extra="forbid")
    action: Annotated[JsonValue, WithJsonSchema(ACTION_SCHEMA)]
    seq: Annotated[StrictInt, Field(ge=1, le=SQL_INT_MAX)]
    message: StrictStr | None = Field(None, max_length=2000, description="a word to the table with the move")


class TalkRequest(BaseModel):
    """A message to the table without a move, or a private note to oneself."""

    model_config = ConfigDict(extra="forbid")
    text: StrictStr = Field(max_length=2000)
    private: StrictBool = False


class SettingsRequest(BaseModel):
    """A seat's mail settings to change (a key left out keeps its value)."""

    model_config = ConfigDict(extra="forbid")
    notify: StrictStr | None = Field(None, max_length=16, description="turn, digest or none")
    timezone: StrictStr | None = Field(None, max_length=64, description="an IANA zone, or empty")


class AheadChoice(BaseModel):
    """One play chosen ahead: the situation of the coming play (or the one after) it answers, and the
    action."""

    model_config = ConfigDict(extra="forbid")
    situation: StrictStr = Field(
        max_length=32,
        description='a situation the seat was offered, e.g. "led:S", or "then:led:S" for the trick after',
    )
    action: Annotated[JsonValue, WithJsonSchema(ACTION_SCHEMA)]


class AheadRequest(BaseModel):
    """The seat's whole queue of plays chosen ahead (it replaces the one before; empty: none)."""

    model_config = ConfigDict(extra="forbid")
    plays: list[AheadChoice] = Field(max_length=MAX_AHEAD)


class AheadAnswer(BaseModel):
    """The seat's plays chosen ahead and the situations it may choose one for now, in words."""

    plays: list[dict[str, Any]]
    situations: list[dict[str, str]]


class MoveAnswer(BaseModel):
    status: MoveStatus
    message: str | None
    command: int | None
    seq: int


class ErrorAnswer(BaseModel):
    error: str
    status: int


class MyMail(BaseModel):
    """Whether mail to the seat's own address arrives; when not, since when (ISO, UTC), the
    receiving server's words and what the page says about it."""

    arriving: bool
    since: str | None
    reason: str
    message: str | None


class NotArriving(BaseModel):
    """Another seat whose mail does not arrive: named, never its address."""

    seat: int
    name: str
    since: str
    message: str


class SeatState(BaseModel):
    """The JSON twin of the player page (README, "JSON twin of every player page")."""

    model_config = ConfigDict(extra="allow")
    seat: int
    seq: int
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    to_act: list[int]
    status: str
    settings: dict[str, str]
    my_mail: MyMail
    mail_not_arriving: list[NotArriving]


class SeatVersion(BaseModel):
    """What an open player page polls: the game's version and whether it waits on this seat."""

    seq: int
    your_move: bool


class TalkAnswer(BaseModel):
    talk: list[dict[str, Any]]


class SettingsAnswer(BaseModel):
    settings: dict[str, str]


class StepAnswer(BaseModel):
    """One replay step (its view, line, chapter, fairness) with the links to its neighbours."""

    model_config = ConfigDict(extra="allow")
    step: int
    steps: int
    view: dict[str, Any]
    links: dict[str, str | None]


class HistoryAnswer(BaseModel):
    """A game's history: score sheet, players, dates, chapters, and where its replay starts."""

    model_config = ConfigDict(extra="allow")
    replay: str | None


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def refuse_malformed(
    request: Any, response: Any, error: Exception | None, instance: Any, adapter: Any
) -> None:
    """A request body that does not fit its model: 400 naming the first field that is wrong, or
    saying that the body is not JSON at all."""
    if request.method == "POST" and request.mimetype in FORM_TYPES:
        # spectree reads a form body as no body at all and calls the view with `json=None`: every
        # POST of this API takes a JSON object, so a form is refused here.
        abort(400, _("Send a JSON object, with the header Content-Type: application/json."))
    if error is None:
        return
    if request.get_data() and request.get_json(silent=True) is None:
        # broken JSON reads as {} to spectree, whose complaint would be a missing field
        abort(400, _("The body is not JSON this service reads (broken, or holding a NUL character)."))
    problems = adapter.validation_errors(error)
    where = ".".join(str(part) for part in problems[0].get("loc", ())) if problems else ""
    if where:
        abort(400, _('"%(field)s" is missing, of the wrong type or out of range.', field=where[:64]))
    abort(400, _("Send a JSON object with the fields this request takes."))


spec = SpecTree(
    "flask",
    mode="strict",  # the routes decorated with `spec.validate`: the JSON API
    path="openapi",  # spectree leaves out routes under its own path; the document is served by the API
    page_templates={},  # the document only; no pages that load scripts from elsewhere
    title="Card games by mail",
    version="1",
    validation_error_status=400,
    before=refuse_malformed,
)


def errors(*codes: int) -> dict[str, type[ErrorAnswer]]:
    """The error answers a route may give, for its `Response`."""
    return {f"HTTP_{code}": ErrorAnswer for code in codes}


LINK_ERRORS = errors(403, 404)  # a forged, expired or replaced token; a game that is gone
MOVE_ANSWERS = Response(
    HTTP_200=MoveAnswer,
    HTTP_202=MoveAnswer,
    HTTP_409=MoveAnswer,
    HTTP_422=MoveAnswer,
    **errors(400),
    **LINK_ERRORS,
)


class ChannelRequest(BaseModel):
    """A channel to add to the seat: a chat or phone app's URL as Apprise reads it (`discord://...`,
    `ntfy://host/topic`, a Slack or Discord webhook URL...), or any other https URL, which becomes a
    generic JSON webhook. The webhook gets one POST per notice with a JSON body
    `{"event", "game", "title", "text", "url", "language"}` (`event`: `your_turn`, `game_over`,
    `channel_test`; `url`: the seat's own link), signed like GitHub's: the header
    `X-Pbem-Signature-256: sha256=<hex HMAC-SHA256 of the body under the channel's signing_key>`;
    `X-Pbem-Delivery` names the notice (the same on a retry) and `X-Pbem-Event` repeats `event`."""

    model_config = ConfigDict(extra="forbid")
    url: StrictStr = Field(max_length=2000)


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: StrictStr = Field(max_length=200, description="the browser's P-256 public key, base64url")
    auth: StrictStr = Field(max_length=100, description="the browser's 16-byte secret, base64url")


class PushRequest(BaseModel):
    """A browser's Web Push subscription, as `PushSubscription.toJSON()` gives it, subscribed with
    the service's VAPID public key (the seat page's "notify me on this device" does it all). Each
    notice then arrives encrypted (aes128gcm) as the webhook's JSON, with the seat's own link as `url`.
    Its endpoint is kept as a secret; a push service answering 404 or 410 ends the channel."""

    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr = Field(max_length=2000)
    expirationTime: float | None = None  # the browser's own name for it
    keys: PushKeys


class ChannelAnswer(BaseModel):
    """One of the seat's channels as its owner sees it: never its address; a webhook's signing key."""

    id: int
    kind: str
    label: str
    paused: bool
    signing_key: str | None


class ChannelsAnswer(BaseModel):
    """The seat's channels, and its mention in the table's group channel ("" for none)."""

    channels: list[ChannelAnswer]
    mention: str


class MentionRequest(BaseModel):
    """How the table's group chat calls the seat's player, added after their name in its notices:
    one person's mention as the chat app writes it (`<@123456789012345678>` on Discord, `<@U024BE7LH>`
    on Slack, `@bo` or `@bo:matrix.org`); "" for none. Mass mentions (`@everyone`, `@here`,
    `<!channel>`, a role) and any other text are refused with 422."""

    model_config = ConfigDict(extra="forbid")
    mention: StrictStr = Field(max_length=200)


class MentionAnswer(BaseModel):
    mention: str

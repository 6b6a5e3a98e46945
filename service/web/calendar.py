"""An address's calendar feed (`.ics`, RFC 5545): every move it owes against the clock across its
games, one event ending at each deadline with an alarm before it, at a secret URL shown on the "my
games" page. A read-only view of "my games": a GET changes nothing."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, Response, abort
from flask_babel import gettext as _
from icalendar import Alarm, Calendar, Event

from service.links import LinkError
from service.play.address_games import MyGame, calendar_address, my_games
from service.runtime import Runtime, runtime
from service.web.access import link_refusal

blueprint = Blueprint("calendar", __name__)
EVENT_LENGTH = timedelta(minutes=30)  # the block before a deadline a calendar shows
ALARM_BEFORE = timedelta(hours=2)


@blueprint.get("/calendar/<token>.ics")
def feed(token: str) -> Response:
    rt = runtime()
    try:
        email = calendar_address(rt, token)
    except LinkError as error:
        abort(
            403, link_refusal("forged") if error.reason == "forged" else _("This calendar link was stopped.")
        )
    body = owed_calendar(rt, my_games(rt, email).games).to_ical()
    return Response(body, mimetype="text/calendar", headers={"Cache-Control": "private, max-age=300"})


def owed_calendar(rt: Runtime, games: list[MyGame]) -> Calendar:
    """The calendar of the moves owed against the clock among these games."""
    calendar = Calendar()
    calendar.add("prodid", "-//pbem-cards//moves owed//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", _("My moves owed"))
    for game in games:
        if game.your_move and game.due is not None:
            calendar.add_component(owed_event(rt, game))
    return calendar


def owed_event(rt: Runtime, game: MyGame) -> Event:
    """One move owed: the half hour up to its deadline, with the seat's link and an alarm."""
    assert game.due is not None and game.since is not None
    event = Event()
    event.add("uid", f"{game.game_id}-{int(game.since.timestamp())}@{rt.settings['MAIL_DOMAIN']}")
    event.add("dtstamp", rt.clock.now())
    event.add("dtstart", game.due - EVENT_LENGTH)
    event.add("dtend", game.due)
    event.add("summary", _("Your move: %(game)s", game=game.title))
    event.add("description", game.link)
    event.add("url", game.link)
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", _("Your move is due soon: %(game)s", game=game.title))
    alarm.add("trigger", -ALARM_BEFORE, parameters={"RELATED": "END"})
    event.add_component(alarm)
    return event

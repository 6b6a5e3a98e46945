"""One list of days per move: the create form, `pbem new --days` and the host's "more time" choices
all offer what `MOVE_DAYS` says; and the time control chosen is the one stored and read back."""

from __future__ import annotations

import argparse
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from service.cli import build_parser
from service.eventlog.models import TimeoutPolicy
from service.play.time_control import MOVE_DAYS, NO_LIMIT, TimeControl
from service.play.timeouts import timed_out_clocks
from tests.service.turns import beat, new_game, people, play, stepping


def select_values(html: str, name: str) -> list[str]:
    """The option values of the page's <select name=...>."""
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no <select name={name!r}> on the page"
    return re.findall(r'<option[^>]*value="([^"]*)"', select.group(1))


def new_command() -> argparse.ArgumentParser:
    """The parser of `pbem new`."""
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["new"]


def test_the_create_form_offers_the_days_per_move_of_the_one_list(client: FlaskClient) -> None:
    html = client.get("/new/red_black").get_data(as_text=True)
    assert select_values(html, "move_days") == [str(NO_LIMIT), *map(str, MOVE_DAYS)]
    assert "7 days per move" in html and "1 day per move" in html


def test_pbem_new_takes_the_days_per_move_of_the_one_list() -> None:
    parser = new_command()
    days = next(action for action in parser._actions if "--days" in action.option_strings)
    assert tuple(days.choices or ()) == (NO_LIMIT, *MOVE_DAYS)
    assert "--days {" + ",".join(map(str, (NO_LIMIT, *MOVE_DAYS))) + "}" in parser.format_help()


def test_the_host_gives_more_days_from_the_one_list(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timeout=TimeoutPolicy.HOST)
    play(rt, game_id, 0)
    assert beat(rt, clock, hours=25).timeouts == 1
    with Session(rt.engine) as session:
        assert timed_out_clocks(session, game_id)
    host = client.get("/host/" + rt.signer.host_token(game_id, 1)).get_data(as_text=True)
    assert select_values(host, "days") == list(map(str, MOVE_DAYS))


def test_the_time_control_chosen_is_the_one_read_back(app: Flask) -> None:
    rt, _ = stepping(app)
    chosen = TimeControl(MOVE_DAYS[-1], True, "Europe/Paris", 6, TimeoutPolicy.FORFEIT, 21)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), **chosen.columns())
    assert TimeControl.of(rt.read_table(game_id).record) == chosen

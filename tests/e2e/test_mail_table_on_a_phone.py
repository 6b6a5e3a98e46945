"""The table in a turn mail, read on a phone: every kind of mail that asks a seat for a move, in each
game, drawn by Chromium at 390 px wide shows the hand and the first move's link within the first
844 px (a phone's first screen), and fits the width."""

from __future__ import annotations

import random

import pytest
from flask import Flask

from service.mail.kinds import TABLE_MAILS
from service.play.hosting import give_more_time
from service.play.moves import submit_move
from service.play.timeouts import run_due_clocks
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import mails
from tests.service import turns
from tests.service.replay_games import add_moves, new_game

GAMES = [("dualis", 4, {}), ("double_side", 3, {}), ("dupli", 3, {}), ("red_black", 2, {})]


def turn_mails(app: Flask, game: str, seats: int, options: dict) -> list:
    """The mails asking a seat for a move: the invitations, then a "your move" after a few moves."""
    rt = app.extensions["pbem"]
    with app.app_context():
        game_id = new_game(rt, game, seats, options, seed=7)
        add_moves(rt, game_id, random.Random(7), 5)
        for _ in range(12):  # moves by hand until a seat is asked for its move by a "your move"
            table = rt.read_table(game_id)
            seat = min(table.rules.to_act(table.state))
            action = table.rules.legal_actions(table.state, seat)[0]
            submit_move(rt, game_id, seat, table.version, action, table)
            if any(m.kind == "your_turn" and "data-mail-move" in m.html_body for m in mails(app)):
                break
    return [
        m
        for m in mails(app)
        if m.game_id == game_id and m.kind in TABLE_MAILS and "data-mail-move" in m.html_body
    ]


def timed_mails(app: Flask, game: str, seats: int) -> list:
    """The mails a timed game sends a seat that is slow to move: a reminder, then the host's "more
    time" (the deadline extended)."""
    rt, clock = turns.stepping(app)
    with app.app_context():
        game_id = turns.new_game(rt, game, turns.people(*"ABCD"[:seats]), seed=7)
        clock.advance(hours=20)  # the reminder comes some hours before the deadline
        run_due_clocks(rt)
        table = rt.read_table(game_id)
        give_more_time(rt, game_id, min(table.rules.to_act(table.state)), 2)
    return [m for m in mails(app) if m.game_id == game_id and m.kind in ("reminder", "deadline_extended")]


def assert_on_the_first_screen(page, mail, name: str) -> None:  # type: ignore[no-untyped-def]
    """The mail drawn at 390 px: its hand and first move link within 844 px, nothing wider."""
    page.set_content(mail.html_body)
    hand = page.locator("[data-mail-hand]").bounding_box()
    move = page.locator("[data-mail-move]").first.bounding_box()
    assert hand is not None and move is not None
    assert hand["y"] + min(hand["height"], 120) <= 844, (mail.kind, hand)
    assert move["y"] + move["height"] <= 844, (mail.kind, move)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, mail.kind
    page.screenshot(path=str(ARTIFACTS / f"mail_table_{name}_{mail.kind}.png"))


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_the_hand_and_the_first_move_are_on_a_phones_first_screen(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
    game: str,
    seats: int,
    options: dict,
) -> None:
    _base, app = live_server
    kept = turn_mails(app, game, seats, options)
    assert {m.kind for m in kept} >= {"invitation", "your_turn"}, "both kinds of turn mail offer moves"
    ARTIFACTS.mkdir(exist_ok=True)
    for mail in kept:
        assert_on_the_first_screen(page, mail, game)


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_a_reminder_and_more_time_show_the_table_on_a_phones_first_screen(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
    game: str,
    seats: int,
    options: dict,
) -> None:
    _base, app = live_server
    kept = timed_mails(app, game, seats)
    assert {m.kind for m in kept} == {"reminder", "deadline_extended"}
    assert all("data-mail-move" in m.html_body for m in kept)
    ARTIFACTS.mkdir(exist_ok=True)
    for mail in kept:
        assert_on_the_first_screen(page, mail, f"{game}_timed")

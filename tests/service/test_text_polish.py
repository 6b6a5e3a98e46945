"""Text polish of the table: a playing card says its suit once (the symbol, its name for screen
readers only), a seat's name never runs into its card, and every count printed to people goes
through ngettext."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest
from flask import Flask

from service.mail.drafting import player_url
from tests.service.replay_games import NAMES, add_moves, new_game

ROOT = Path(__file__).resolve().parents[2]
SEATS = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}
MOVES = {"dualis": 6, "double_side": 5, "dupli": 3, "red_black": 5}
HIDDEN = re.compile(r'<span class="visually-hidden">[^<]*</span>')
# A gettext call (not ngettext) whose text puts a number before a countable noun: "%(pot)s chips".
COUNTABLE = (
    "cards?|chips?|tricks?|coins?|points?|players?|wars?|rounds?|days?|moves?|lines?|mails?|games?|steps?"
)
NOT_NUMBERS = "colour|best|printed|coin|trump|suit|name|card|game|title"
COUNT_BY_GETTEXT = re.compile(
    r"(?<![n\w])(?:_|gettext|N_)\(\s*([\"'])((?:(?!\1).)*%\((?!(?:"
    + NOT_NUMBERS
    + r")\))\w+\)s (?:"
    + COUNTABLE
    + r")\b(?:(?!\1).)*)\1"
)
BLOCKS = "p|div|li|ul|ol|td|th|tr|table|br|h[1-6]|section|details|summary|form|fieldset|legend|header|main"
# Numbers that are a choice, not a count: "3 or 4 players", "1, 2, 3, 5, 7 or 14 days".
CHOICES = ("%(counts)s players", "%(days)s days, or no time limit")


def table_page(app: Flask, game: str) -> str:
    """Seat 0's page of a game a few moves in."""
    rt = app.extensions["pbem"]
    game_id = new_game(rt, game, SEATS[game], {"short": True} if game == "dualis" else {}, seed=9)
    add_moves(rt, game_id, random.Random(2), MOVES[game])
    path = player_url(rt, rt.read_table(game_id), 0).removeprefix(rt.settings["BASE_URL"])
    return app.test_client().get(path).get_data(as_text=True)


def text_without_styles(page: str) -> str:
    """The page's text as read without its style sheet (a screen reader's or a copy's linear text):
    a line for each block, inline tags dropped with nothing in their place."""
    body = re.sub(r"<(script|style|head)\b.*?</\1>", "", page, flags=re.S)
    body = re.sub(rf"</?(?:{BLOCKS})\b[^>]*>", "\n", body)
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def test_a_red_black_card_shows_its_suit_once_and_names_it_for_screen_readers(sqlite_app: Flask) -> None:
    page = table_page(sqlite_app, "red_black")
    card = r'<span class="card (?:red|black)[^"]*"[^>]*data-card="(\w+)">(.*?)</span></span>'
    faces = re.findall(card, page)
    assert faces
    words = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for code, face in faces:
        assert face == f'{code[:-1]}{symbols[code[-1]]}<span class="visually-hidden"> {words[code[-1]]}'
    shown = text_without_styles(HIDDEN.sub("", page))
    assert not re.search(r"[♠♥♦♣]\s*(spades|hearts|diamonds|clubs)", shown)
    css = (ROOT / "service/static/style.css").read_text()
    assert re.search(r"\.visually-hidden \{[^}]*clip: rect\(0 0 0 0\)", css)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_seats_name_never_runs_into_its_card(sqlite_app: Flask, game: str) -> None:
    text = text_without_styles(table_page(sqlite_app, game))
    names = "|".join(NAMES[: SEATS[game]])
    runs = re.findall(rf"\b(?:{names})(?=[A-Z0-9★☾♠♥♦♣●○?…])|[a-z0-9](?:{names})\b", text)
    assert not runs, runs
    assert not re.search(r"(?:Red|Blue|Green|Yellow)[●○]|[0-9](?:white|black) [0-9]", text)


def test_every_count_printed_to_people_goes_through_ngettext() -> None:
    sources = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("templates/**/*.txt")]
    sources += ROOT.glob("service/**/*.py")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(2)}"
        for path in sources
        for match in COUNT_BY_GETTEXT.finditer(path.read_text())
    ]
    counts = [f for f in found if not any(choice in f for choice in CHOICES)]
    assert not counts, counts

"""Cards in words: for random games of every game and variant, no card code (S9B, G3, AS, drill) is
printed where a person reads it: every player page, the spectator's page, replay steps and histories,
the confirm page, every mail in the outbox and every describe and replay line. Codes stay only in
HTML attributes (data-card, button values) and in the JSON."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules import dualis
from rules.dualis import ahead as dualis_ahead
from rules.dualis import play as dualis_play
from rules.dualis import words as dualis_words
from rules.messages import Message, plain
from service import create_app
from service.eventlog.store import Table
from service.mail.drafting import player_url, watch_url
from service.play.moves import MoveStatus, submit_move
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import forms, mails, without_links
from tests.service.replay_games import add_moves, finish_by_service, new_game, random_move
from tests.service.test_replay_leaks import CODES, VARIANTS

HIDDEN = re.compile(r"<(script|style)\b.*?</\1>|<[^>]*>", re.S)
READ_ALOUD = re.compile(r"""\s(?:aria-label|title|alt)=(?:"([^"]*)"|'([^']*)')""")


def shown(page: str) -> str:
    """What a person reads of a page or mail: its text and the attributes read to them (aria-label,
    title, alt), without other attributes (data-card, values), scripts, styles or link addresses (a
    signed token may hold a code-like run of letters by chance)."""
    read = " ".join(a or b for a, b in READ_ALOUD.findall(page))
    return without_links(html.unescape(f"{HIDDEN.sub(' ', page)} {read}"))


def codes_in(game: str, text: str) -> set[str]:
    """The card codes a text prints."""
    return set(CODES[game].findall(text))


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One embedded app (SQLite, tasks in-process, mail kept) for the module's many games."""
    flask_app = create_app(app_config(tmp_path_factory.mktemp("words"), None))
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


@pytest.fixture
def client(embedded: Flask) -> FlaskClient:
    return embedded.test_client()


def move_by_service(rt: Runtime, game_id: str, rng: random.Random) -> None:
    """One random legal move through the service (its mails written)."""
    table = rt.read_table(game_id)
    seat, action = random_move(table.rules, table.state, rng)
    outcome = submit_move(rt, game_id, seat, table.version, action)
    assert outcome.status == MoveStatus.ACCEPTED, outcome


def lines(table: Table) -> Iterator[Message]:
    """Every describe and replay line for every reader, each step's headings and the score sheet."""
    rules, names = table.rules, [seat.name for seat in table.seats]
    state = rules.fold(table.events[:1])
    for event in table.events:
        state = state if event is table.events[0] else rules.apply(state, event)
        for reader in (None, *range(len(table.seats))):
            for line in (
                rules.describe(event, reader, names),
                rules.describe(event, reader, names, as_of=table.state),
            ):
                if line:
                    yield line
        heading = rules.heading(state, event)
        yield from (title for title in (heading.title, heading.part_title) if title)
    sheet = rules.score_sheet(table.state)
    yield from (cell for row in sheet.rows for cell in row.cells)
    yield from sheet.standing


def page_paths(rt: Runtime, table: Table) -> Iterator[str]:
    """Every page a person may open on this game: each seat's page, replay steps and history, the
    spectator's, the public overview and history."""
    base = rt.settings["BASE_URL"]
    steps = range(1, table.version + 1, max(1, table.version // 12))
    for seat in range(len(table.seats)):
        mine = player_url(rt, table, seat).removeprefix(base)
        yield from (mine, f"{mine}/history", f"{mine}/replay/{table.version}")
        yield from (f"{mine}/replay/{step}" for step in steps if seat == 0)
    watch = watch_url(rt, table).removeprefix(base)
    yield from (watch, f"{watch}/history", *(f"{watch}/{step}" for step in steps))
    yield from (f"/game/{table.game_id}", f"/game/{table.game_id}/history")


def confirm_pages(client: FlaskClient, rt: Runtime, table: Table) -> Iterator[str]:
    """The confirm page of every move that asks for one, for every seat that may move now."""
    base = rt.settings["BASE_URL"]
    for seat in range(len(table.seats)):
        page = client.get(player_url(rt, table, seat).removeprefix(base)).get_data(as_text=True)
        for form in forms(page):
            for name, value in form.buttons:
                if name == "action":
                    answer = client.post(form.action, data={**form.fields, "action": value})
                    if answer.status_code == 200:
                        yield answer.get_data(as_text=True)


def printed_codes(app: Flask, client: FlaskClient, game_id: str) -> dict[str, set[str]]:
    """Where the game's card codes are printed for people: a label per place, with the codes."""
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    game = table.record.game
    found: dict[str, set[str]] = {}

    def scan(label: str, text: str) -> None:
        if codes := codes_in(game, text):
            found[label] = codes

    for line in lines(table):
        scan(f"line {line[0]!r}", plain(line))
    for path in page_paths(rt, table):
        response = client.get(path)
        assert response.status_code == 200, path
        scan(path, shown(response.get_data(as_text=True)))
    for number, page in enumerate(confirm_pages(client, rt, table)):
        scan(f"confirm page {number}", shown(page))
    for mail in mails(app):
        if mail.game_id == game_id:
            scan(f"mail {mail.kind} to {mail.to_email}", f"{mail.subject}\n{shown(mail.text_body)}")
            scan(f"html mail {mail.kind} to {mail.to_email}", shown(mail.html_body))
    return found


@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS, ids=lambda v: str(v).replace(" ", ""))
def test_no_card_code_is_printed_for_people(
    embedded: Flask, client: FlaskClient, game: str, seats: int, options: dict[str, Any]
) -> None:
    """A game cut at a random point after some moves through the service (every third one played to
    the end): its pages, mails and lines name cards in words only."""
    index = VARIANTS.index((game, seats, options))
    rng = random.Random(f"words {index}")
    rt = embedded.extensions["pbem"]
    game_id = new_game(rt, game, seats, options, seed=index)
    add_moves(rt, game_id, rng, rng.randint(1, {"dupli": 12, "red_black": 30}.get(game, 40)))
    for _ in range(2 * seats):
        if rt.read_table(game_id).rules.result(rt.read_table(game_id).state) is None:
            move_by_service(rt, game_id, rng)
    if index % 3 == 0 and rt.read_table(game_id).record.status == "active":
        finish_by_service(rt, game_id, rng)
    assert printed_codes(embedded, client, game_id) == {}


def test_the_scan_finds_a_printed_code(
    embedded: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scan is not blind: with Duālis naming its cards by their codes again, it finds them in
    the lines, on the pages (the recent moves, a card's label) and in the mails."""
    for module in (dualis, dualis_words, dualis_ahead, dualis_play):  # each names cards by `card_name`
        monkeypatch.setattr(module, "card_name", lambda card, colour=None: ("%(code)s", {"code": card}))
    rt = embedded.extensions["pbem"]
    game_id = new_game(rt, "dualis", 4, {"short": True}, seed=5)
    rng = random.Random(5)
    add_moves(rt, game_id, rng, 6)
    for _ in range(4):
        move_by_service(rt, game_id, rng)
    found = printed_codes(embedded, client, game_id)
    kinds = {label.split(" ")[0] for label in found}
    assert {"line", "mail", "html"} <= kinds and any(label.startswith("/play/") for label in found)
    assert codes_in("dualis", shown('<span data-card="S9B" aria-label="Star 9 Blue">9★</span>')) == set()
    assert codes_in("dualis", shown('<button value="S9B" aria-label="Play S9B">9★</button>')) == {"S9B"}

"""Nothing shown too early: for random games of every game and variant, cut at random points or
played to the end, at every step and for every seat, the spectator and (finished games) the face-up
replay, the replay's JSON and pages carry no card that viewer could not have known at that step:
only cards of the rules' view for that seat then, less the collected tricks that lie face down now
(RULINGS.md §1), so nothing of later events either; and never the seed before the game is over.

The reference is computed here from the log, independently of service/replay.py: a fold of the
events up to the step, the rules' `view` (or `open_view`), and the face-down tricks read from the
CardPlayed / TrickWon events."""

from __future__ import annotations

import html
import itertools
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.eventlog.store import Table
from service.mail.drafting import player_url, watch_url
from service.play.hosting import set_public_replay
from service.replay.steps import FACE_UP, SPECTATOR, Viewer, fairness, replay_of, step_json, step_page
from tests.conftest import app_config
from tests.service.replay_games import add_moves, new_game

TRICK_GAMES = ("dualis", "double_side")
CODES: dict[str, re.Pattern[str]] = {
    "dualis": re.compile(r"\b[SM](?:1[0-3]|[1-9])[RB]\b"),
    "double_side": re.compile(r"\b[RBGY](?:1[0-2]|[1-9])\b"),
    "red_black": re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b"),
    # Dupli's cards are not unique: a name only says that kind was seen (pages write them in words).
    "dupli": re.compile(r"\b(?:drill|tyranny|benevolence|charge|patriotism|subversion)\b"),
}
# Cards a page writes in words (aria-labels, "won it with Star 9 Blue"), turned back into codes.
WORDS: dict[str, tuple[re.Pattern[str], Any]] = {
    "dualis": (re.compile(r"\b(Star|Moon) (1[0-3]|[1-9]) (Red|Blue)\b"), lambda m: m[1][0] + m[2] + m[3][0]),
    "red_black": (
        re.compile(r"\b(Ace|King|Queen|Jack|10|[2-9]) of (spades|hearts|diamonds|clubs)\b"),
        lambda m: m[1][0] + m[2][0].upper() if m[1] != "10" else "10" + m[2][0].upper(),
    ),
    "double_side": (
        re.compile(r"\b(Red|Blue|Green|Yellow) (1[0-2]|[1-9])( \(white side\))?"),
        lambda m: m[1][0] + str(int(m[2]) + (0 if not m[3] else -6 if int(m[2]) > 6 else 6)),
    ),
}


def variants() -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Every game with every option combination and seat count."""
    for short, high_low, iso, open_history in itertools.product((False, True), repeat=4):
        flags = {"short": short, "high_low": high_low, "iso": iso, "open_history": open_history}
        for seats in (3, 4) if iso else (4,):
            yield "dualis", seats, flags
    for trump, open_history, seats in itertools.product((False, True), (False, True), (3, 4)):
        yield "double_side", seats, {"trump": trump, "open_history": open_history}
    for seats in (3, 4):
        yield "dupli", seats, {}
    yield "red_black", 2, {}


VARIANTS = list(variants())


@pytest.fixture(scope="module")
def sqlite_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One embedded app for the module's many games (each test makes its own games)."""
    flask_app = create_app(app_config(tmp_path_factory.mktemp("replay"), None))
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


# ------------------------------------------------------------------------------ the reference


def cards_in(game: str, text: str, words: bool = True) -> set[str]:
    """The card codes a text names, as codes or (pages) in words."""
    found = set(CODES[game].findall(text))
    if words and game in WORDS:
        pattern, code = WORDS[game]
        found |= {code(m) for m in pattern.finditer(text)}
    return found


def face_down_now(game: str, table: Table) -> set[tuple[int, int]]:
    """The (round, trick) of every trick that lies face down now: all but the trick on the table and
    the last one completed in the current round (before one is, the round before's last trick),
    unless the history is open or the game over."""
    options = table.events[0]["options"]
    if game not in TRICK_GAMES or options.get("open_history") or table.record.status == "finished":
        return set()
    played = {(e["round"], e["trick"]) for e in table.events if e["type"] == "CardPlayed"}
    now = max(e["round"] for e in table.events if e["type"] == "RoundDealt")
    won = [e["trick"] for e in table.events if e["type"] == "TrickWon" and e["round"] == now]
    before = {max((r, t) for r, t in played if r == now - 1)} if now > 1 else set()
    visible = {(now, max(won))} if won else before
    visible |= {(r, t) for r, t in played if r == now and t > max(won, default=0)}
    return played - visible


def references(table: Table) -> Iterator[tuple[int, Any, set[str]]]:
    """Per step: its number, the state folded here from the log, and the cards played so far this
    round in tricks that lie face down now (a new round deals the same cards again)."""
    rules, game = table.rules, table.record.game
    hidden_tricks = face_down_now(game, table)
    state, hidden = None, set()
    for number, event in enumerate(table.events, start=1):
        state = rules.apply(state, event)
        if event["type"] == "RoundDealt":
            hidden = set()
        if (
            hidden_tricks
            and event["type"] == "CardPlayed"
            and (event["round"], event["trick"]) in hidden_tricks
        ):
            hidden = hidden | {event["card"]}
        yield number, state, hidden


def viewers(table: Table) -> list[Viewer]:
    """Every viewer of the game: each seat and the spectator, and face up once it is over."""
    seats = [Viewer(seat) for seat in range(len(table.seats))]
    return [*seats, SPECTATOR, *([FACE_UP] if table.record.status == "finished" else [])]


def allowed(table: Table, state: Any, viewer: Viewer, hidden: set[str]) -> tuple[set[str], dict[str, Any]]:
    """The cards `viewer` may meet at this state, and the rules' own view they come from."""
    rules = table.rules
    reference = rules.open_view(state) if viewer.face_up else rules.view(state, viewer.seat)
    return cards_in(table.record.game, json.dumps(reference), words=False) - hidden, reference


def without_previous_round(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A view without the round before (trick games, until a trick of the new round is won), and it."""
    rest = dict(view)
    return rest, rest.pop("previous_round", None)


def check_previous_round(
    shown: dict[str, Any] | None,
    reference: dict[str, Any] | None,
    face_down: set[tuple[int, int]],
    state: Any,
) -> None:
    """The round before as a step shows it: its last trick face down if that trick is face down now,
    else as the rules' view has it."""
    if reference is None:
        assert shown is None
        return
    assert shown is not None and shown["result"] == reference["result"]
    trick = reference["last_trick"]
    if (state.round - 1, trick["number"]) not in face_down:
        assert shown == reference
        return
    assert (
        shown["last_trick"]["number"] == trick["number"] and shown["last_trick"]["winner"] == trick["winner"]
    )
    assert [p["card"] for p in shown["last_trick"]["plays"]] == [None] * len(trick["plays"])


def check_json_steps(app: Flask, game_id: str) -> int:
    """Every step's JSON for every viewer against the reference; returns the checks made."""
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    game, finished = table.record.game, table.record.status == "finished"
    replay = replay_of(rt.replays, table)
    fair = fairness(table, replay)
    seed = str(table.events[0]["seed"])
    checks = 0
    for number, state, hidden in references(table):
        for viewer in viewers(table):
            payload = step_json(table, step_page(table, replay, viewer, number), replay, fair)
            text = json.dumps(payload, ensure_ascii=False)
            cards, reference = allowed(table, state, viewer, hidden)
            leaked = cards_in(game, text, words=False) - cards
            assert not leaked, f"{game} step {number} {viewer}: {leaked} in {payload['line']!r}"
            shown, before = without_previous_round(payload["view"])
            expected, expected_before = without_previous_round(json.loads(json.dumps(reference)))
            if not hidden or viewer.face_up:
                assert shown == expected, (game, number, viewer)
            check_previous_round(before, expected_before, face_down_now(game, table), state)
            assert finished or seed not in text, f"the seed shows at step {number} of a running game"
            assert payload["steps"] == table.version
            checks += 1
    return checks


@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS, ids=lambda v: str(v).replace(" ", ""))
def test_replay_json_shows_each_viewer_only_what_it_knew(
    sqlite_app: Flask, game: str, seats: int, options: dict[str, Any]
) -> None:
    """One game per variant, cut at a random point (every fourth one played to the end)."""
    index = VARIANTS.index((game, seats, options))
    rng = random.Random(f"{game}{seats}{sorted(options.items())}")
    rt = sqlite_app.extensions["pbem"]
    game_id = new_game(rt, game, seats, options)
    moves = None if index % 4 == 0 else rng.randint(1, {"dupli": 20, "red_black": 50}.get(game, 70))
    add_moves(rt, game_id, rng, moves)
    assert check_json_steps(sqlite_app, game_id) >= seats + 1


# ------------------------------------------------------------------------------------ pages


def page_text(page: str) -> str:
    """A page's text and labels as a reader (or a scraper) gets them: links' addresses left out."""
    page = re.sub(r'\s(?:href|src)="[^"]*"', "", page)
    return html.unescape(page)


def ways_in(app: Flask, table: Table) -> list[tuple[Viewer, str]]:
    """Each way into the game's replay and the viewer it makes: the players' links (once the game
    is over all alike, face up: one is enough), the spectator link, and the public link of a
    finished game."""
    rt = app.extensions["pbem"]
    base = rt.settings["BASE_URL"]
    finished = table.record.status == "finished"
    players = [
        (FACE_UP if finished else Viewer(seat), player_url(rt, table, seat).removeprefix(base) + "/replay")
        for seat in range(1 if finished else len(table.seats))
    ]
    public = [(FACE_UP, f"/game/{table.game_id}/replay")] if finished else []
    return [*players, (SPECTATOR, watch_url(rt, table).removeprefix(base)), *public]


def check_pages(app: Flask, client: FlaskClient, game_id: str) -> None:
    """Every step's page through every way in, against the reference."""
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    game, finished = table.record.game, table.record.status == "finished"
    seed = str(table.events[0]["seed"])
    paths = ways_in(app, table)
    for number, state, hidden in references(table):
        for viewer, path in paths:
            response = client.get(f"{path}/{number}")
            assert response.status_code == 200, (path, number)
            text = page_text(response.get_data(as_text=True))
            assert f'data-viewer="{viewer.kind}"' in text
            assert finished or seed not in text
            if game == "dupli":
                continue  # card names are words of the rules text; the JSON check covers Dupli
            cards, _ = allowed(table, state, viewer, hidden)
            leaked = cards_in(game, text) - cards
            assert not leaked, f"{game} step {number} via {path}: {leaked}"


@pytest.mark.parametrize("game", ["dualis", "double_side", "dupli", "red_black"])
def test_replay_pages_of_a_running_game_show_nothing_hidden(sqlite_app: Flask, game: str) -> None:
    rt = sqlite_app.extensions["pbem"]
    seats = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}[game]
    options = {"short": True} if game == "dualis" else {}
    game_id = new_game(rt, game, seats, options)
    add_moves(rt, game_id, random.Random(game), {"dualis": 22, "double_side": 20, "dupli": 8}.get(game, 16))
    assert rt.read_table(game_id).record.status == "active"
    check_pages(sqlite_app, sqlite_app.test_client(), game_id)


def test_replay_pages_of_a_finished_game_show_every_card(sqlite_app: Flask) -> None:
    rt = sqlite_app.extensions["pbem"]
    game_id = new_game(rt, "red_black", 2)
    add_moves(rt, game_id, random.Random(3))
    set_public_replay(rt, game_id, True)
    check_pages(sqlite_app, sqlite_app.test_client(), game_id)


@pytest.mark.postgres
def test_replay_shows_a_seat_only_its_knowledge_on_postgres(pg_app: Flask) -> None:
    """A spot check on the real PostgreSQL: a running Duālis game through the JSON API and pages."""
    rt = pg_app.extensions["pbem"]
    game_id = new_game(rt, "dualis", 4)
    add_moves(rt, game_id, random.Random(7), 30)
    assert check_json_steps(pg_app, game_id) > 100
    client = pg_app.test_client()
    table = rt.read_table(game_id)
    path = player_url(rt, table, 2).removeprefix(rt.settings["BASE_URL"])
    for number, state, hidden in references(table):
        if number % 6:
            continue
        payload = client.get(f"/api{path}/replay/{number}").get_json()
        cards, _ = allowed(table, state, Viewer(2), hidden)
        assert cards_in("dualis", json.dumps(payload), words=False) <= cards
        assert payload["viewer"] == {"kind": "seat", "seat": 2}

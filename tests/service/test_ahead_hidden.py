"""A play chosen ahead is its seat's secret, in every variant of every game: two games alike from
one seed and one opening, one in which a seat chooses plays ahead and one in which it makes the same
moves by hand; after the same moves, every other seat's page, JSON, replay step, history and mails
are the same, byte for byte once times, links and tokens are masked."""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules import IllegalAction
from rules.ahead import THEN
from rules.shapes import Action
from service import create_app
from service.eventlog.models import EventOrigin
from service.play.ahead import set_queue
from service.play.moves import MoveStatus, submit_move
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import SteppingClock, mails, play_path
from tests.service.play import choose
from tests.service.replay_games import EMAILS, add_moves, new_game
from tests.service.test_ahead import normalised
from tests.service.test_replay_leaks import VARIANTS
from tests.service.turns import MONDAY

MOVES_AFTER = 6  # moves played through the service once the queue is set


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One embedded app (SQLite, tasks in-process, mail kept) for the module's many games, on a clock
    that stands still: the twins' moves then wait alike (the pace lines), as a move's time is no
    secret anyway."""
    settings = app_config(tmp_path_factory.mktemp("hidden"), None, MAILS_PER_ADDRESS_PER_DAY=100_000)
    flask_app = create_app(settings)
    flask_app.extensions["pbem"].clock = SteppingClock(MONDAY)
    with flask_app.app_context():
        yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def twin_games(rt: Runtime, game: str, seats: int, options: dict[str, Any], seed: int) -> tuple[str, str]:
    """Two games from one seed with the same random opening (appended: its mails are not compared)."""
    twins = []
    for _ in range(2):
        game_id = new_game(rt, game, seats, options, seed)
        add_moves(rt, game_id, random.Random(seed), random.Random(seed).randint(0, 12))
        twins.append(game_id)
    return twins[0], twins[1]


def choose_ahead(rt: Runtime, game_id: str, rng: random.Random) -> int | None:
    """A random seat offered situations chooses a random play for each; the seat, or None."""
    table = rt.read_table(game_id)
    rules, state = table.rules, table.state
    offered = [seat for seat in range(len(table.seats)) if rules.ahead.situations(state, seat)]
    if not offered or table.result is not None:
        return None
    seat = rng.choice(offered)
    plays = []
    for situation in rules.ahead.situations(state, seat):
        choices = rules.ahead.choices(state, seat, situation)
        if choices:
            plays.append({"situation": situation, "action": rng.choice(choices)[0]})
    try:
        rules.ahead.check_queue(state, seat, {play["situation"]: play["action"] for play in plays})
    except IllegalAction:  # the coming card again for the trick after: a person is told to choose again
        plays = [play for play in plays if not play["situation"].startswith(THEN)]
    set_queue(rt, game_id, seat, plays)
    return seat if plays else None


def moves_since(rt: Runtime, game_id: str, version: int) -> list[tuple[int, Action]]:
    """The players' own moves since `version` (a chosen play among them); auto-play's forced moves
    are left out, as the service makes them again."""
    table = rt.read_table(game_id)
    return [
        (table.actors[i], table.actions[i])
        for i in range(version, table.version)
        if table.starts_move(i) and table.origins[i] == EventOrigin.PLAYER
    ]


def play_random(rt: Runtime, game_id: str, rng: random.Random, moves: int) -> None:
    """Random legal moves through the service (the chosen plays among them made by the service)."""
    for _ in range(moves):
        table = rt.read_table(game_id)
        if not table.active or not table.rules.to_act(table.state):
            return
        seat = rng.choice(sorted(table.rules.to_act(table.state)))
        outcome = submit_move(
            rt, game_id, seat, table.version, choose(rng, table.rules.legal_actions(table.state, seat))
        )
        assert outcome.status == MoveStatus.ACCEPTED, outcome


def play_again(rt: Runtime, game_id: str, moves: list[tuple[int, Action]]) -> None:
    """The same moves, each made by hand."""
    for seat, action in moves:
        outcome = submit_move(rt, game_id, seat, rt.read_table(game_id).version, action)
        assert outcome.status == MoveStatus.ACCEPTED, outcome


def seen_by(app: Flask, client: FlaskClient, game_id: str, seat: int) -> list[str]:
    """Everything a seat is shown of a game: its page, JSON, latest replay step (page and JSON),
    history (page and JSON) and every mail, normalised."""
    (invitation,) = [m for m in mails(app, to=EMAILS[seat], kind="invitation") if m.game_id == game_id]
    link = play_path(invitation)
    version = app.extensions["pbem"].read_table(game_id).version
    paths = [
        link,
        f"/api{link}",
        f"{link}/replay/{version}",
        f"/api{link}/replay/{version}",
        f"{link}/history",
        f"/api{link}/history",
    ]
    shown = [client.get(path).get_data(as_text=True) for path in paths]
    shown += [
        f"{mail.kind}\n{mail.subject}\n{mail.text_body}\n{mail.html_body}"
        for mail in mails(app, to=EMAILS[seat])
        if mail.game_id == game_id
    ]
    return [normalised(part, game_id) for part in shown]


def differences(first: list[str], second: list[str]) -> str:
    """Where two lists of pages and mails differ, line by line (for a readable failure)."""
    lines = [f"{len(first)} against {len(second)} pages and mails"]
    for one, other in zip(first, second, strict=False):
        lines += list(difflib.unified_diff(one.splitlines(), other.splitlines(), lineterm="", n=1))[:40]
    return "\n".join(lines)


@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS, ids=lambda v: str(v).replace(" ", ""))
def test_other_seats_see_the_same_whether_or_not_a_play_was_chosen_ahead(
    embedded: Flask, game: str, seats: int, options: dict[str, Any]
) -> None:
    rt, client = embedded.extensions["pbem"], embedded.test_client()
    seed = VARIANTS.index((game, seats, options)) * 7 + 1
    rng = random.Random(seed)
    queued, plain = twin_games(rt, game, seats, options, seed)
    branch = rt.read_table(queued).version
    seat = choose_ahead(rt, queued, rng)
    while seat is None and rt.read_table(queued).active:  # no seat is offered a situation: on, for both
        play_random(rt, queued, rng, 1)
        play_again(rt, plain, moves_since(rt, queued, branch))
        branch = rt.read_table(queued).version
        seat = choose_ahead(rt, queued, rng)
    assert seat is not None, "a seat is offered a situation"
    play_random(rt, queued, rng, MOVES_AFTER)
    play_again(rt, plain, moves_since(rt, queued, branch))
    assert rt.read_table(queued).events == rt.read_table(plain).events
    for other in range(seats):
        if other != seat:
            with_queue, without = (
                seen_by(embedded, client, queued, other),
                seen_by(embedded, client, plain, other),
            )
            assert with_queue == without, differences(with_queue, without)

"""A play chosen ahead survives the worker: the queue is set, the worker process is killed, the move
that makes the seat owe its play is submitted while no worker runs, and a new worker process makes
the chosen play, once, as the player's own move."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from rules.shapes import Action
from service import create_app
from service.eventlog.models import AheadStatus, EventOrigin
from service.play.moves import MoveStatus, submit_move
from tests.service.ahead_games import GAMES, chosen, game_with_case, moves_of, rows
from tests.worker_process import worker_process


@pytest.fixture
def web_app(worker_settings: dict) -> Iterator[Flask]:
    """The web side only: it stores commands and hands them to Redis, waiting briefly for a worker."""
    app = create_app({**worker_settings, "MOVE_WAIT_SECONDS": 0.5})
    with app.app_context():
        yield app
    app.extensions["pbem"].engine.dispose()


def wait_for_version(app: Flask, game_id: str, version: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while app.extensions["pbem"].read_table(game_id).version < version:
        assert time.monotonic() < deadline, "the worker did not apply the move"
        time.sleep(0.2)


def play_through_worker(app: Flask, game_id: str, moves: list[tuple[int, Action]]) -> None:
    """Each move submitted and waited for until the worker has applied it."""
    rt = app.extensions["pbem"]
    for seat, action in moves:
        table = rt.read_table(game_id)
        outcome = submit_move(rt, game_id, seat, table.version, action)
        assert outcome.status in (MoveStatus.ACCEPTED, MoveStatus.PENDING), outcome
        wait_for_version(app, game_id, table.version + 1)


@pytest.mark.parametrize("game", GAMES)
def test_a_chosen_play_is_made_once_by_a_worker_started_after_a_kill(
    web_app: Flask, worker_settings: dict, tmp_path: Path, game: str
) -> None:
    rt = web_app.extensions["pbem"]
    client = web_app.test_client()
    game_id, links, case = game_with_case(web_app, game)
    *before, (mover, last) = case.coming
    with worker_process(worker_settings, tmp_path / "first.log") as first:
        play_through_worker(web_app, game_id, before)
        assert client.post(f"/api{links[case.seat]}/ahead", json={"plays": chosen(case)}).status_code == 200
        first.kill()  # no goodbye: whatever it held in memory is gone
        first.wait(10)
    table = rt.read_table(game_id)
    outcome = submit_move(rt, game_id, mover, table.version, last)
    assert outcome.status == MoveStatus.PENDING  # stored; no worker to play it yet
    due_at = table.version + len(table.rules.act(table.state, mover, last))
    with worker_process(worker_settings, tmp_path / "second.log"):
        wait_for_version(web_app, game_id, due_at + 1)
        time.sleep(0.5)  # a second delivery of the task, if any, would have been applied by now
    after = rt.read_table(game_id)
    ((index, action, origin),) = moves_of(after, case.seat, table.version)
    assert action == case.made and origin == EventOrigin.PLAYER
    (row,) = rows(web_app, game_id)
    assert row.status == AheadStatus.PLAYED and row.seq == index + 1

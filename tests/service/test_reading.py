"""Templates and mails never receive a Table, Replay, rules state or event list: the guard every test
runs under (tests/reading_guard.py) catches each of them, and pages and mails render from readings."""

from __future__ import annotations

import ast
from pathlib import Path

from flask import Flask, render_template

from service.play.hosting import Player, create_game
from service.reading import table_reading
from service.replay.steps import replay_of
from tests.conftest import READING_GUARD
from tests.reading_guard import forbidden_in


def test_the_guard_finds_a_table_a_replay_a_state_or_an_event_anywhere_in_a_context(app: Flask) -> None:
    rt = app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    table = rt.read_table(create_game(rt, "red_black", players, players[0], seed=1))
    replay = replay_of(rt.replays, table)
    assert forbidden_in(table, "t") == "t (Table)"
    assert forbidden_in({"deep": [replay]}, "c") == "c['deep'][0] (Replay)"
    assert forbidden_in((1, table.state), "x") == "x[1] (State)"
    assert forbidden_in({"log": list(table.events)}, "c") == "c['log'][0] (dict)"
    assert forbidden_in(table_reading(table), "reading") is None
    with app.test_request_context("/"):
        render_template("error.html", title="t", message="m", table=table)
    assert READING_GUARD.violations == ["error.html: table (Table)"]
    READING_GUARD.violations.clear()  # this test's own violation, made on purpose


# What the replay reads off the log for a reader: only service/reading.py hands it on to pages, JSON
# answers, mails and the digest.
REPLAY_READERS = {
    "history",
    "history_json",
    "lines_since_last_move",
    "recent_lines",
    "step_json",
    "step_page",
    "talk_json",
    "talk_lines",
}
SERVICE = Path(__file__).resolve().parents[2] / "service"


def replay_readers_imported(path: Path) -> set[str]:
    """The replay's reader functions a module imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("service.replay"):
            names |= {alias.name for alias in node.names} & REPLAY_READERS
    return names


def test_one_module_builds_what_a_reader_is_given_from_the_replay() -> None:
    builders = {
        str(path.relative_to(SERVICE)): replay_readers_imported(path)
        for path in SERVICE.rglob("*.py")
        if path.parent.name != "replay"
    }
    assert builders["reading.py"]  # the check looks at the right names
    assert {path: names for path, names in builders.items() if names and path != "reading.py"} == {}

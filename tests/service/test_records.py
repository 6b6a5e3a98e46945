"""Records to keep: a finished game's record downloaded (JSON log with seed and salt, and the text in
words) by whoever sees it face up, and loaded back (upload page or `pbem import`) only once it
verifies, as one transaction; a tampered or malformed record is refused with a clear reason."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from rules import get_game
from service.cli import load_record
from service.eventlog.models import GameRecord
from service.play import record_import
from service.play.hosting import cancel_game, set_public_replay
from service.replay.fairness import commitment
from service.replay.game_record import MAX_RECORD_BYTES, RecordRefused, read_record
from tests.helpers import forms, mails, play_path
from tests.service.replay_games import EMAILS, add_moves, new_game

VARIANTS = [
    ("dualis", 4, {}),
    ("dualis", 4, {"high_low": True, "open_history": True}),
    ("dualis", 3, {"iso": True, "short": True}),
    ("double_side", 3, {}),
    ("double_side", 4, {"trump": True}),
    ("dupli", 3, {}),
    ("dupli", 4, {}),
    ("red_black", 2, {}),
]


def finished_game(app: Flask, game: str, seats: int, options: dict[str, Any], seed: int) -> tuple[str, str]:
    """A random game played to its end: its id and the first player's link."""
    rt = app.extensions["pbem"]
    game_id = new_game(rt, game, seats, options, seed=seed)
    add_moves(rt, game_id, random.Random(seed))
    return game_id, play_path(mails(app, to=EMAILS[0], kind="invitation")[-1])


def upload(client: FlaskClient, raw: bytes, name: str = "record.json") -> Any:
    csrf = forms(client.get("/import").get_data(as_text=True))[0].fields["csrf_token"]
    data = {"csrf_token": csrf, "record": (io.BytesIO(raw), name)}
    return client.post("/import", data=data, content_type="multipart/form-data")


def game_count(app: Flask) -> int:
    with Session(app.extensions["pbem"].engine) as session:
        return len(session.exec(select(GameRecord.id)).all())


@pytest.mark.parametrize(("game", "seats", "options"), VARIANTS)
def test_export_then_import_gives_the_same_game(
    app: Flask, client: FlaskClient, game: str, seats: int, options: dict[str, Any]
) -> None:
    game_id, link = finished_game(app, game, seats, options, seed=len(game) * seats)
    original = app.extensions["pbem"].read_table(game_id)
    response = client.get(f"{link}/record.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    record = response.get_json()
    assert record["format"] == "pbem-record" and record["version"] == 1
    assert not any(email in response.get_data(as_text=True) for email in EMAILS)  # names only

    text = client.get(f"{link}/record.txt").get_data(as_text=True)
    assert "Score sheet" in text and original.names[0] in text
    last_line = client.get(f"/api{link}/replay/{original.version}").get_json()["line"]
    assert f"{original.version}. {last_line}" in text  # every step in words, the replay's lines

    imported = upload(client, response.get_data())
    assert imported.status_code == 303
    new_id = imported.headers["Location"].split("/")[-2]
    copy = app.extensions["pbem"].read_table(new_id)
    assert copy.events == original.events and copy.actions == original.actions
    assert copy.actors == original.actors and copy.origins == original.origins
    assert copy.names == original.names and copy.result == original.result
    assert copy.record.status == "finished" and copy.record.seed_salt == original.record.seed_salt
    history = client.get(f"/api/game/{new_id}/history").get_json()
    assert history["fairness"]["rerun_ok"] and history["fairness"]["hash_ok"]
    assert client.get(f"/game/{new_id}/replay/{copy.version}").status_code == 200  # open to all


def tampered_action(record: dict[str, Any]) -> int:
    """Change one move's action to another legal action there; the step where that move begins."""
    rules = get_game(record["game"])
    state = None
    for entry in record["events"]:
        action, seat = entry["action"], entry["seat"]
        if action is not None and seat is not None:
            others = [a for a in rules.legal_actions(state, seat) if a != action]
            if others:
                entry["action"] = others[0]
                return int(entry["seq"])
        state = rules.apply(state, entry["event"])
    raise AssertionError("no move with a choice")


def test_a_tampered_record_is_refused_with_its_step(app: Flask, client: FlaskClient) -> None:
    _, link = finished_game(app, "red_black", 2, {}, seed=7)
    record = client.get(f"{link}/record.json").get_json()
    before = game_count(app)

    changed = json.loads(json.dumps(record))
    step = tampered_action(changed)
    response = upload(client, json.dumps(changed).encode())
    assert response.status_code == 422
    assert f"step {step} differs from what the rules give from its seed" in response.get_data(as_text=True)

    dealt = json.loads(json.dumps(record))
    dealt["events"][1]["event"] = {**dealt["events"][1]["event"], "tampered": True}
    with pytest.raises(RecordRefused) as refused:
        read_record(json.dumps(dealt).encode())
    assert refused.value.step == 2

    other_seed = json.loads(json.dumps(record))  # a seed changed with a matching commitment
    other_seed["seed"] += 1
    other_seed["events"][0]["event"]["seed"] += 1
    other_seed["commitment"] = commitment(other_seed["salt"], other_seed["seed"])
    with pytest.raises(RecordRefused, match="step 2 differs"):
        read_record(json.dumps(other_seed).encode())

    wrong_salt = {**record, "salt": "00" * 16}
    with pytest.raises(RecordRefused, match="do not give its commitment"):
        read_record(json.dumps(wrong_salt).encode())
    assert game_count(app) == before


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\xff\xfe not json", "not JSON"),
        (b"[1, 2]", "format is not pbem-record"),
        (b'{"format": "pbem-record", "version": 9}', "format version"),
        (b'{"format": "pbem-record", "version": 1, "game": "chess"}', "does not know"),
    ],
)
def test_malformed_files_get_a_clear_error(app: Flask, client: FlaskClient, raw: bytes, reason: str) -> None:
    before = game_count(app)
    response = upload(client, raw)
    assert response.status_code == 422 and reason in response.get_data(as_text=True)
    assert game_count(app) == before


def test_damaged_steps_and_unfinished_games_are_refused(app: Flask, client: FlaskClient) -> None:
    _, link = finished_game(app, "dupli", 3, {}, seed=2)
    record = client.get(f"{link}/record.json").get_json()
    damaged = json.loads(json.dumps(record))
    damaged["events"][3]["seat"] = 9
    with pytest.raises(RecordRefused, match="Step 4 of this record is damaged"):
        read_record(json.dumps(damaged).encode())
    last_move = max(n for n, entry in enumerate(record["events"]) if entry["action"] is not None)
    cut = {**record, "events": record["events"][:last_move]}  # the game before its last move
    with pytest.raises(RecordRefused, match="not of a finished game"):
        read_record(json.dumps(cut).encode())
    assert upload(client, b"").status_code == 422
    csrf = forms(client.get("/import").get_data(as_text=True))[0].fields["csrf_token"]
    assert client.post("/import", data={"csrf_token": csrf}).status_code == 400  # no file
    assert (
        client.post("/import", data={"record": (io.BytesIO(b"{}"), "r.json")}).status_code == 400
    )  # no CSRF
    huge = b" " * (MAX_RECORD_BYTES + 2**17)
    assert (
        client.post("/import", data={"csrf_token": csrf, "record": (io.BytesIO(huge), "r.json")}).status_code
        == 413
    )


def test_an_import_that_fails_midway_writes_nothing(pg_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    client = pg_app.test_client()
    _, link = finished_game(pg_app, "red_black", 2, {}, seed=4)
    raw = client.get(f"{link}/record.json").get_data()
    before = game_count(pg_app)
    appended = record_import.append_events

    def failing(*args: Any, **kwargs: Any) -> None:
        if args[2] == 5:  # the sixth event
            raise RuntimeError("the database went away")
        appended(*args, **kwargs)

    monkeypatch.setattr(record_import, "append_events", failing)
    with pytest.raises(RuntimeError):
        record_import.import_record(pg_app.extensions["pbem"], raw)
    assert game_count(pg_app) == before


def test_the_command_line_imports_or_names_the_step(
    app: Flask, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    _, link = finished_game(app, "double_side", 3, {}, seed=5)
    record = client.get(f"{link}/record.json").get_json()
    assert load_record(app, json.dumps(record).encode()) == 0
    new_id = capsys.readouterr().out.splitlines()[-1]
    assert app.extensions["pbem"].read_table(new_id).record.status == "finished"
    step = tampered_action(record)
    assert load_record(app, json.dumps(record).encode()) == 1
    assert f"step {step} differs" in capsys.readouterr().out


def test_only_who_sees_the_game_face_up_downloads_it(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    running = new_game(rt, "red_black", 2, seed=3)
    running_link = play_path(mails(app, to=EMAILS[0], kind="invitation")[-1])
    assert client.get(f"{running_link}/record.json").status_code == 403  # not over yet
    assert client.get(f"/game/{running}/record.json").status_code == 403
    cancel_game(rt, running)
    assert client.get(f"{running_link}/record.txt").status_code == 403  # cancelled: cards stay hidden

    game_id, link = finished_game(app, "red_black", 2, {}, seed=6)
    assert client.get(f"/game/{game_id}/record.json").status_code == 403  # the host has not opened it
    assert "record in words" in client.get(f"{link}/history").get_data(as_text=True)
    set_public_replay(rt, game_id, True)
    assert client.get(f"/game/{game_id}/record.txt").status_code == 200
    assert "record in words" in client.get(f"/game/{game_id}/history").get_data(as_text=True)
    watch = "/watch/" + rt.signer.watch_token(game_id, 1)
    assert "record in words" not in client.get(f"{watch}/history").get_data(as_text=True)
    forged = "/play/" + rt.signer.host_token(game_id, 1)  # a host token on a player's way in
    assert client.get(f"{forged}/record.json").status_code == 403
    assert client.get(f"{link}x/record.json").status_code == 403

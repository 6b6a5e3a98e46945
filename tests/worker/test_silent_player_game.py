"""A game with 1-day moves from creation to its end with one player silent: the reminder at half time,
the seat-keeper at the deadline and its moves from then on, each mail on time and exactly once, and
the returning player taking the seat back. First through the service functions and the beat task's
function under a stepping clock on PostgreSQL, then with the beat task on the real Celery worker."""

from __future__ import annotations

import random
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import Flask

from service.eventlog.models import EventOrigin, MailStatus, SeatKeeper
from service.runtime import Clock
from service.tasks.jobs import run_clocks
from tests.helpers import SteppingClock, mails, play_path, post_form
from tests.service.play import play_by_api
from tests.service.turns import assert_bot_moves_legal, beat, new_game, people, play, stepping, to_act
from tests.smtp_sink import SmtpSink, headline
from tests.worker.test_worker import wait_until

CY = "cy@example.org"
NAMES = ("ann", "bo")


def test_a_one_day_game_runs_to_its_end_with_one_player_silent(pg_app: Flask) -> None:
    rt, clock = stepping(pg_app)
    game_id = new_game(rt, "dupli", people("Ann", "Bo", "Cy"), seed=11)
    cy_link = play_path(mails(pg_app, to=CY, kind="invitation")[0])
    rng = random.Random(3)
    reminded, taken_over, returned = [], [], None
    for hour in range(1, 24 * 20):
        run = beat(rt, clock, hours=1)  # the beat runs hourly; Ann and Bo answer within the hour
        reminded += [hour] * run.reminders
        taken_over += [hour] * run.timeouts
        game = rt.read_table(game_id)
        if not game.active:
            break
        if returned is None and game.rules.view(game.state, 2)["war"] == 3:
            assert game.seats[2].keeper == SeatKeeper.STAND_IN
            assert post_form(pg_app.test_client(), cy_link, "/seat").status_code == 303
            returned = len(game.events)
        for seat in sorted(to_act(rt, game_id)):
            if seat != 2 or returned is not None:
                game = rt.read_table(game_id)
                play(rt, game_id, seat, rng.choice(game.rules.legal_actions(game.state, seat)))
    game = rt.read_table(game_id)
    assert game.record.status == "finished" and returned is not None
    assert reminded == [12] and taken_over == [24]  # on time, and once each
    assert [m.to_email for m in mails(pg_app, kind="reminder")] == [CY]
    assert [m.to_email for m in mails(pg_app, kind="seat_keeper")] == [CY]

    cy_moves = [i for i, actor in enumerate(game.actors) if actor == 2 and game.starts_move(i)]
    before, after = [i for i in cy_moves if i < returned], [i for i in cy_moves if i >= returned]
    assert before and after
    assert all(game.origins[i] == EventOrigin.BOT for i in before)
    assert all(game.origins[i] in (EventOrigin.PLAYER, EventOrigin.AUTO) for i in after)
    assert game.times[before[0]] == game.times[0] + timedelta(hours=24)  # the seat-keeper played at once
    assert assert_bot_moves_legal(game, 2) == len(before)
    assert len(mails(pg_app, kind="game_over")) == 4  # the players and the host
    told = [m.text_body for m in mails(pg_app, to="ann@example.org", kind="your_turn")]
    assert any("(played by the seat-keeper)" in text for text in told)


def test_the_beat_task_on_the_real_worker_hands_a_silent_seat_to_the_seat_keeper(
    worker_app: Flask, smtp_sink: SmtpSink, celery_worker: subprocess.Popen, tmp_path: Path
) -> None:
    rt = worker_app.extensions["pbem"]
    rt.clock = SteppingClock(datetime.now(UTC) - timedelta(days=2))  # the game began two days ago
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), seed=3)
    rt.clock = Clock()
    ann, bo = (
        play_path(mails(worker_app, to=f"{n}@example.org", kind="invitation")[0]) for n in ("ann", "bo")
    )
    client = worker_app.test_client()
    state = client.get("/api" + bo).get_json()
    client.post("/api" + bo, json={"action": state["legal_actions"][0], "seq": state["seq"]})

    for _ in range(3):  # three beats at once on the worker's threads: the timeout happens once
        run_clocks.delay()
    log = tmp_path / "worker.log"
    wait_until(lambda: _clock_runs_done(log) == 3)
    assert rt.read_table(game_id).seats[0].keeper == SeatKeeper.STAND_IN
    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(worker_app)))
    assert len(smtp_sink.collector.to("ann@example.org")) == 2  # the invitation, and the seat-keeper
    headlines = [(m["To"], headline(m)) for m in smtp_sink.collector.messages]
    assert [to for to, text in headlines if text == "The seat-keeper is playing for you"] == [
        "Ann <ann@example.org>"
    ]
    assert not [text for _, text in headlines if text.startswith("Reminder")]  # too late for a reminder

    assert post_form(client, ann, "/seat").status_code == 303
    play_by_api(client, [ann, bo], random.Random(5))
    game = rt.read_table(game_id)
    assert game.record.status == "finished"
    ann_moves = [game.origins[i] for i, a in enumerate(game.actors) if a == 0 and game.starts_move(i)]
    assert ann_moves[0] == EventOrigin.BOT and EventOrigin.PLAYER in ann_moves
    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(worker_app)))
    assert len(smtp_sink.collector.messages) == len(mails(worker_app))


def _clock_runs_done(log: Path) -> int:
    """How many run_clocks tasks the worker reports as finished."""
    return sum("run_clocks" in line and "succeeded" in line for line in log.read_text().splitlines())

"""Reminders from the beat task: once per owed move, at the right time in the reader's zone, caught up
after downtime (only while the deadline is ahead), and exactly once when two runs race."""

from __future__ import annotations

import threading

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from service.eventlog.models import SeatKeeper, SeatRecord
from service.play.timeouts import ClockRun, run_due_clocks
from tests.helpers import mails, play_path, same_link
from tests.service.turns import beat, new_game, people, play, stepping


def test_a_reminder_goes_out_once_when_half_the_day_is_left(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app)  # Monday 09:00 UTC, 11:00 in Paris
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timezone="Europe/Paris")
    play(rt, game_id, 0)  # Ann places her camp card at once; Bo is slow
    assert beat(rt, clock, hours=11, minutes=59).reminders == 0
    assert beat(rt, clock, minutes=2).reminders == 1
    assert beat(rt, clock, minutes=30) == ClockRun()  # once per owed move, however often the beat runs
    (reminder,) = mails(app, kind="reminder")
    assert reminder.to_email == "bo@example.org"
    assert reminder.subject == "Red and Black Duel — Ann, Bo"  # every mail of the game: one thread
    due = "Tue, Jun 2, 11:00\u202fAM (Europe/Paris)"
    assert reminder.text_body.startswith(f"Reminder: your move is due {due}\n")
    assert same_link(play_path(reminder), play_path(mails(app, to="bo@example.org", kind="invitation")[0]))

    ann = play_path(mails(app, to="ann@example.org", kind="invitation")[0])
    waiting = client.get("/api" + ann).get_json()["waiting_on"]
    assert waiting == [
        {
            "seat": 1,
            "name": "Bo",
            "since": "2026-06-01T09:00:00+00:00",
            "due": "2026-06-02T09:00:00+00:00",
            "kept_by": SeatKeeper.PLAYER,
            "away_until": None,
            "timed_out": False,
        }
    ]
    page = client.get(ann).get_data(as_text=True)
    assert f'<time datetime="2026-06-02T09:00:00+00:00" data-localise>{due}</time>' in page


def test_a_reminder_speaks_the_players_own_time_zone(app: Flask) -> None:
    rt, clock = stepping(app)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timezone="Europe/Paris")
    with Session(rt.engine) as session:  # Bo chose his zone in his settings
        seat = session.get(SeatRecord, (game_id, 1))
        assert seat is not None
        seat.timezone = "America/New_York"
        session.add(seat)
        session.commit()
    play(rt, game_id, 0)
    beat(rt, clock, hours=13)
    (reminder,) = mails(app, kind="reminder")
    assert "due Tue, Jun 2, 5:00\u202fAM (America/New_York)\n" in reminder.text_body


def test_after_a_long_downtime_the_beat_catches_up_once(app: Flask) -> None:
    rt, clock = stepping(app)
    slow = new_game(rt, "red_black", people("Ann", "Bo"), move_days=3)  # reminded at 48 h, due at 72 h
    late = new_game(rt, "red_black", people("Cy", "Di"), seed=2)  # reminded at 12 h, due at 24 h
    play(rt, slow, 0)
    play(rt, late, 0)
    run = beat(rt, clock, hours=50)  # the beat was down for two days
    assert (run.reminders, run.timeouts) == (1, 1)
    assert [m.to_email for m in mails(app, kind="reminder")] == ["bo@example.org"]
    # Di's deadline has passed: no reminder for it any more, straight to the timeout (seat-keeper).
    assert [m.to_email for m in mails(app, kind="seat_keeper")] == ["di@example.org"]
    assert rt.read_table(late).seats[1].keeper == SeatKeeper.STAND_IN
    assert beat(rt, clock, minutes=1) == ClockRun()


def test_two_beat_runs_at_once_remind_each_player_exactly_once(pg_app: Flask) -> None:
    rt, clock = stepping(pg_app)
    games = [new_game(rt, "red_black", people(f"Ann{n}", f"Bo{n}"), seed=n) for n in range(6)]
    for game_id in games:
        play(rt, game_id, 0)
    clock.advance(hours=13)
    start = threading.Barrier(3)
    runs: list[ClockRun] = []

    def run() -> None:
        with pg_app.app_context():
            start.wait()
            runs.append(run_due_clocks(rt))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.reminders for r in runs) == 6
    assert sorted(m.to_email for m in mails(pg_app, kind="reminder")) == sorted(
        f"bo{n}@example.org" for n in range(6)
    )

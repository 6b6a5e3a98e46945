"""The time limit in mail: a timed game's invitation and "your move" mails say when the move is due,
in the reader's zone; a reader of the daily digest still hears in time (the reminder always goes,
and a move due before their next digest is mailed at once)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask

from service.play.seat_settings import SeatSettings, save_seat_settings
from tests.helpers import mails, play_path, without_links
from tests.service.turns import beat, new_game, people, play, stepping, to_act

PARIS = "Europe/Paris"


def test_the_invitation_and_each_your_move_mail_state_the_deadline(app: Flask) -> None:
    rt, clock = stepping(app)  # Monday 09:00 UTC, 11:00 in Paris
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timezone=PARIS)
    due = "Tue, Jun 2, 11:00\u202fAM (Europe/Paris)"
    for invitation in mails(app, kind="invitation"):  # both owe their camp card at once
        assert invitation.text_body.startswith(f"You are invited, and it is your move: due {due}\n")
        assert f"It is your move now. It is due {due}." in invitation.text_body
        assert "1 day per move." in invitation.text_body and due in invitation.html_body
    for seat in (0, 1):  # each reads times in their own zone from now on
        save_seat_settings(rt, game_id, seat, SeatSettings("turn", "America/New_York"))
    clock.advance(hours=2)
    play(rt, game_id, 0)
    play(rt, game_id, 1)
    (leader,) = to_act(rt, game_id)
    (your_move,) = mails(app, to=f"{('ann', 'bo')[leader]}@example.org", kind="your_turn")
    due = "Tue, Jun 2, 7:00\u202fAM (America/New_York)"  # a day from the camp reveal, 11:00 UTC
    assert your_move.subject == "Red and Black Duel — Ann, Bo"
    assert your_move.text_body.startswith(f"Your move: due {due}\n")
    assert f"Your move is due {due}; if you cannot play by then" in your_move.text_body
    assert due in your_move.html_body


def test_without_a_time_limit_no_mail_names_a_deadline(app: Flask) -> None:
    rt, _ = stepping(app)
    new_game(rt, "red_black", people("Ann", "Bo"), move_days=0)
    for invitation in mails(app, kind="invitation"):
        assert invitation.text_body.startswith("You are invited\n")
        told = without_links(invitation.text_body)  # a link's random token may hold any three letters
        assert "due" not in told and "per move" not in told


def test_a_player_not_first_to_move_is_told_the_time_per_move(app: Flask) -> None:
    rt, _ = stepping(app)
    new_game(rt, "dualis", people("Ann", "Bo", "Cy", "Di"), move_days=2, weekend_pause=True, timezone=PARIS)
    waiting = [m for m in mails(app, kind="invitation") if m.text_body.startswith("You are invited\n")]
    assert len(waiting) == 3  # one of the four leads
    assert all("2 days per move · clocks stop on weekends (Europe/Paris)." in m.text_body for m in waiting)


def test_a_digest_reader_still_gets_the_reminder_but_not_a_reader_of_no_mail(app: Flask) -> None:
    rt, clock = stepping(app)
    digest = new_game(rt, "red_black", people("Ann", "Bo"))
    silent = new_game(rt, "red_black", people("Cy", "Di"), seed=2)
    save_seat_settings(rt, digest, 1, SeatSettings("digest", ""))
    save_seat_settings(rt, silent, 1, SeatSettings("none", ""))
    play(rt, digest, 0)
    play(rt, silent, 0)
    assert beat(rt, clock, hours=13).reminders == 2
    assert [m.to_email for m in mails(app, kind="reminder")] == ["bo@example.org"]
    bo = play_path(mails(app, to="bo@example.org", kind="invitation")[0])
    settings = app.test_client().get(bo).get_data(as_text=True)
    assert "With the daily digest, a deadline's reminder still comes in its own mail" in settings


def your_move_mails_to_digest_readers(app: Flask, start: datetime) -> int:
    """How many "your move" mails the readers of a daily digest get after the camp cards of a 1-day
    game in Paris, played at `start`."""
    rt, _ = stepping(app, start)
    game_id = new_game(rt, "red_black", people("Ann", "Bo"), timezone=PARIS)
    for seat in (0, 1):
        save_seat_settings(rt, game_id, seat, SeatSettings("digest", ""))
    play(rt, game_id, 0)
    play(rt, game_id, 1)
    assert len(to_act(rt, game_id)) == 1
    return len(mails(app, kind="your_turn"))


def test_a_digest_reader_is_mailed_a_move_due_before_their_next_digest(app: Flask) -> None:
    # The night the clocks go back in Paris (Sunday 25 October 2026), the next 07:00 comes 25 hours
    # after Saturday's: a 1-day move owed from Saturday 07:30 is due at 06:30, before that digest.
    assert your_move_mails_to_digest_readers(app, datetime(2026, 10, 24, 5, 30, tzinfo=UTC)) == 1


def test_a_digest_reader_hears_of_a_move_due_after_their_next_digest_in_it(app: Flask) -> None:
    assert your_move_mails_to_digest_readers(app, datetime(2026, 10, 17, 5, 30, tzinfo=UTC)) == 0

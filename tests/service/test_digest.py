"""The daily digest, on a controllable clock: one mail per address and local day at DIGEST_HOUR,
listing every running game that waits on a seat of that address in digest mode (with what happened
and the seat's own link); exactly once however often or late the task runs."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlmodel import Session, col, select

from rules.messages import plain
from rules.red_black import card_name
from service.eventlog.models import DigestRecord
from service.mail.digest import digest_seats, draft_digest, due_digests, send_due_digests
from service.play.hosting import Player, create_game
from service.runtime import Runtime
from tests.helpers import SteppingClock, mails, play_path, same_link

ANN = "ann@example.org"
DIGEST_LINK = re.compile(r"http://localhost(/play/[A-Za-z0-9_.\-]+)(?![A-Za-z0-9_.\-?])")  # not a choose link


def clock_at(rt: Runtime, when: datetime) -> SteppingClock:
    clock = SteppingClock()
    clock.advance(seconds=(when - clock.now()).total_seconds())
    rt.clock = clock
    return clock


def game_with_ann(app: Flask, client: FlaskClient, rival: str, ann_email: str = ANN) -> str:
    """A Red and Black Duel of Ann (seat 0) against `rival`, waiting on both; Ann's link."""
    create_game(
        app.extensions["pbem"],
        "red_black",
        [Player("Ann", ann_email), Player(rival, f"{rival.lower()}@example.org")],
        Player("Host", "host@example.org"),
        seed=len(rival),
    )
    return play_path(mails(app, to=ann_email, kind="invitation")[-1])


def choose(client: FlaskClient, link: str, **settings: str) -> None:
    assert client.post(f"/api{link}/settings", json=settings).status_code == 200


def play_first_card(client: FlaskClient, link: str) -> None:
    state = client.get("/api" + link).get_json()
    client.post("/api" + link, json={"action": state["legal_actions"][0], "seq": state["seq"]})


def digests(app: Flask) -> list[DigestRecord]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(DigestRecord).order_by(col(DigestRecord.id))).all())


def test_the_digest_lists_every_game_waiting_on_the_address(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = clock_at(rt, datetime(2024, 5, 1, 6, 0, tzinfo=UTC))
    bo = game_with_ann(app, client, "Bo")
    clock.advance(minutes=1)
    cy = game_with_ann(app, client, "Cy", ann_email="Ann@Example.org")  # the same reader
    clock.advance(minutes=1)
    di = game_with_ann(app, client, "Di")
    clock.advance(minutes=1)
    game_with_ann(app, client, "Eve")
    for link in (bo, cy, di):
        choose(client, link, notify="digest")
    play_first_card(client, di)  # that game now waits on Di only; Eve's is in "turn" mode
    assert send_due_digests(rt) == 0  # 06:03: before the digest hour

    clock.advance(hours=1)
    assert send_due_digests(rt) == 1
    (digest,) = mails(app, kind="digest")
    assert digest.to_email == "Ann@Example.org" and digest.game_id is None  # newest game's spelling
    assert digest.subject == "Your daily digest: 2 games wait for your move"
    text = digest.text_body
    assert "Red and Black Duel — Ann, Cy" in text and "Red and Black Duel — Ann, Bo" in text
    assert "Ann, Di" not in text and "Ann, Eve" not in text
    assert text.index("Ann, Cy") < text.index("Ann, Bo")  # newest game first
    assert DIGEST_LINK.findall(digest.html_body)[::2] == DIGEST_LINK.findall(text)  # button and text link
    for link, rival in zip(DIGEST_LINK.findall(text), ["Cy", "Bo"], strict=True):
        state = client.get("/api" + link).get_json()  # each link opens Ann's own seat in that game
        assert state["seat"] == 0 and state["players"] == ["Ann", rival]
        hand = ", ".join(plain(card_name(card)) for card in state["view"]["hand"])
        assert f"Your hand: {hand}." in text  # what happened since Ann's last move, her own cards
    assert "/unsubscribe/" in digest.unsubscribe_url and digest.unsubscribe_url in text


def test_one_digest_a_day_however_often_the_task_runs(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = clock_at(rt, datetime(2024, 5, 1, 7, 0, tzinfo=UTC))
    choose(client, game_with_ann(app, client, "Bo"), notify="digest")
    stale = due_digests(rt)  # what a run that started at the same moment found due
    assert send_due_digests(rt) == 1
    assert send_due_digests(rt) == 0
    assert draft_digest(rt, stale[0]) is None  # the overlapping run loses on the unique row
    clock.advance(hours=16, minutes=59)  # 23:59 the same day
    assert send_due_digests(rt) == 0
    clock.advance(minutes=1)  # midnight: the new day's digest waits for its hour
    assert send_due_digests(rt) == 0
    clock.advance(hours=7)
    assert send_due_digests(rt) == 1
    assert len(mails(app, kind="digest")) == 2
    assert [d.day.isoformat() for d in digests(app)] == ["2024-05-01", "2024-05-02"]


def test_after_downtime_one_digest_catches_up(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = clock_at(rt, datetime(2024, 5, 1, 7, 5, tzinfo=UTC))
    choose(client, game_with_ann(app, client, "Bo"), notify="digest")
    assert send_due_digests(rt) == 1
    clock.advance(days=3, hours=4)  # the beat was down for three digest hours
    assert send_due_digests(rt) == 1
    assert send_due_digests(rt) == 0
    assert [d.day.isoformat() for d in digests(app)] == ["2024-05-01", "2024-05-04"]


def test_the_digest_keeps_the_readers_hour_in_their_time_zone(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    rt.settings["DIGEST_HOUR"] = 8
    clock = clock_at(rt, datetime(2024, 5, 1, 22, 59, tzinfo=UTC))  # 07:59 on 2 May in Tokyo
    older = game_with_ann(app, client, "Bo")
    clock.advance(seconds=1)
    newer = game_with_ann(app, client, "Cy")
    choose(client, older, notify="digest", timezone="Asia/Tokyo")
    choose(client, newer, notify="digest")  # no zone of its own: the address keeps Tokyo
    assert send_due_digests(rt) == 0
    clock.advance(minutes=1)
    assert send_due_digests(rt) == 1
    assert [d.day.isoformat() for d in digests(app)] == ["2024-05-02"]
    assert "2 games wait" in mails(app, kind="digest")[0].subject
    choose(client, newer, timezone="America/Los_Angeles")  # now 16:00 on 1 May there: no second one
    assert send_due_digests(rt) == 0


def test_no_digest_when_nothing_waits(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = clock_at(rt, datetime(2024, 5, 1, 7, 0, tzinfo=UTC))
    link = game_with_ann(app, client, "Bo")
    choose(client, link, notify="digest")
    play_first_card(client, link)  # now the game waits on Bo only
    assert send_due_digests(rt) == 0
    assert [(d.day.isoformat(), d.mail_id) for d in digests(app)] == [("2024-05-01", None)]
    play_first_card(client, play_path(mails(app, to="bo@example.org", kind="invitation")[0]))
    clock.advance(hours=3)  # the day's digest hour is past: the next one comes tomorrow
    assert send_due_digests(rt) == 0
    assert client.get("/api" + link).get_json()["to_act"] == [0]  # Ann leads the first play
    clock.advance(hours=21)
    assert send_due_digests(rt) == 1
    assert not mails(app, to=ANN, kind="your_turn") and not mails(app, to=ANN, kind="report")


def test_overlapping_runs_on_postgres_draft_one_digest(pg_app: Flask) -> None:
    rt = pg_app.extensions["pbem"]
    client = pg_app.test_client()
    clock_at(rt, datetime(2024, 5, 1, 7, 0, tzinfo=UTC))
    for rival in ("Bo", "Cy"):
        choose(client, game_with_ann(pg_app, client, rival), notify="digest")
    start = threading.Barrier(4)
    counts: list[int] = []

    def run() -> None:
        with pg_app.app_context():
            start.wait()
            counts.append(send_due_digests(rt))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(counts) == [0, 0, 0, 1]
    assert len(mails(pg_app, kind="digest")) == 1 and len(digests(pg_app)) == 1


def test_a_switch_to_the_digest_after_todays_brings_one_at_once(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    clock = clock_at(rt, datetime(2024, 5, 1, 6, 0, tzinfo=UTC))
    earlier = game_with_ann(app, client, "Cy")
    choose(client, earlier, notify="digest")
    play_first_card(client, earlier)  # nothing waits on Ann at 07:00: today's digest is written empty
    clock.advance(hours=1, minutes=5)
    assert send_due_digests(rt) == 0 and [d.mail_id for d in digests(app)] == [None]
    clock.advance(hours=3)
    link = game_with_ann(app, client, "Bo")  # at 10:05 a game waits on Ann; she switches to the digest
    choose(client, link, notify="digest")
    (first,) = mails(app, to=ANN, kind="digest")
    assert same_link(DIGEST_LINK.search(first.text_body).group(1), link)  # type: ignore[union-attr]
    choose(client, link, notify="digest")  # saving the same setting again mails nothing
    clock.advance(minutes=5)
    assert send_due_digests(rt) == 0 and len(mails(app, to=ANN, kind="digest")) == 1
    clock.advance(hours=21)
    assert send_due_digests(rt) == 1  # then at the hour each day


def test_the_settings_say_when_the_first_digest_comes(app: Flask, client: FlaskClient) -> None:
    link = game_with_ann(app, client, "Bo")
    page = client.get(link).get_data(as_text=True)
    assert "chosen after 07:00, a first digest comes at once" in page


def test_the_digest_reads_the_seats_in_digest_mode_through_their_index(pg_app: Flask) -> None:
    """Among 12,000 seats of which a dozen are in digest mode, the digest's query reads those alone
    (a scan of every seat each minute was 165 ms at 100,000 games)."""
    engine = pg_app.extensions["pbem"].engine
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, game, options, status, host_name, host_email, host_key_version,"
                " created_at, seed_salt, public_replay, watch_key_version, host_notify, move_days,"
                " weekend_pause, timezone, timeout, vacation_days, language, replies_from_any,"
                " host_unreachable_reason, version)"
                " SELECT 'g' || n, 'red_black', '{}', 'active', 'Host', 'host@example.org', 1, now(), '',"
                " false, 1, true, 0, false, 'UTC', 'bot', 14, '', false, '', 2"
                " FROM generate_series(1, 3000) AS n"
            )
        )
        conn.execute(
            text(
                "INSERT INTO seats (game_id, seat, name, email, key_version, auto_play, notify, timezone,"
                " language, keeper, unreachable_reason)"
                " SELECT 'g' || n, s, 'P', 'p' || n || '@example.org', 1, true,"
                " CASE WHEN n % 250 = 0 THEN 'digest' ELSE 'turn' END, '', '', 'player', ''"
                " FROM generate_series(1, 3000) AS n, generate_series(0, 3) AS s"
            )
        )
        conn.execute(text("ANALYZE games"))
        conn.execute(text("ANALYZE seats"))
    query = digest_seats().compile(engine, compile_kwargs={"literal_binds": True})
    with engine.connect() as conn:
        plan = "\n".join(row[0] for row in conn.execute(text(f"EXPLAIN {query}")))
        found = conn.execute(digest_seats()).all()
    assert "ix_seats_digest" in plan, plan
    assert len(found) == 12 * 4

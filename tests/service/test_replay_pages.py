"""Replay and history pages through each way in: who may see what, the controls and step URLs, the
marks on moves not made by hand, the game-over mail's replay link, the host's sharing, and the seed
commitment from the invitation to the revealed, verified seed."""

from __future__ import annotations

import hashlib
import random
import re

from flask import Flask
from flask.testing import FlaskClient

from service.eventlog.models import EventOrigin
from service.mail.drafting import player_url
from service.play.hosting import cancel_game
from service.replay.steps import replay_of
from tests.helpers import event_count, forms, mails
from tests.service.replay_games import EMAILS, add_moves, finish_by_service, new_game

REPLAY_LINK = re.compile(r"http://localhost(/play/[A-Za-z0-9_.\-]+/replay)")
COMMITMENT = re.compile(r"\b[0-9a-f]{64}\b")


def path_of(app: Flask, game_id: str, seat: int) -> str:
    """A seat's /play path."""
    rt = app.extensions["pbem"]
    return player_url(rt, rt.read_table(game_id), seat).removeprefix(rt.settings["BASE_URL"])


def host_path(app: Flask, game_id: str) -> str:
    rt = app.extensions["pbem"]
    return "/host/" + rt.signer.host_token(game_id, rt.read_table(game_id).record.host_key_version)


def post_host_form(client: FlaskClient, page: str, action_suffix: str):  # type: ignore[no-untyped-def]
    """Submit one of the host page's forms as a browser would (with its CSRF token)."""
    form = next(f for f in forms(client.get(page).get_data(as_text=True)) if f.action.endswith(action_suffix))
    return client.post(form.action, data=form.fields)


def watch_link(client: FlaskClient, page: str) -> str:
    """The spectator link shown on the host page."""
    match = re.search(
        r'href="http://localhost(/watch/[^"]+)" data-watch-link', client.get(page).get_data(as_text=True)
    )
    assert match
    return match.group(1)


def test_a_player_replays_a_running_game_up_to_now_as_their_seat(app: Flask, client: FlaskClient) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt, "dualis", 4, {"short": True})
    add_moves(rt, game_id, random.Random(2), 15)
    version = rt.read_table(game_id).version
    path = path_of(app, game_id, 1)

    page = client.get(path + "/replay").get_data(as_text=True)
    assert 'data-viewer="seat"' in page and "Your replay as Bo" in page
    assert f'rel="next" data-key="ArrowRight" href="{path}/replay/2#step"' in page
    assert f'rel="last" data-key="End" href="{path}/replay/{version}#step"' in page
    assert "replay.js" in page
    last = client.get(f"{path}/replay/{version}").get_data(as_text=True)
    assert 'rel="next"' not in last and f"Step {version} of {version}" in last

    data = client.get(f"/api{path}/replay/{version}").get_json()
    assert data["viewer"] == {"kind": "seat", "seat": 1} and data["steps"] == version
    assert data["links"]["next"] is None and data["links"]["previous"] == f"/api{path}/replay/{version - 1}"
    beyond = client.get(f"{path}/replay/{version + 1}")
    assert beyond.status_code == 404 and f"steps 1 to {version}" in beyond.get_data(as_text=True)
    assert client.get(f"/api{path}/replay/{version + 1}").get_json()["status"] == 404
    assert client.get("/play/forged-token/replay").status_code == 403
    assert event_count(app, game_id) == version  # reading a replay changes nothing


def test_the_game_over_mail_links_to_a_face_up_replay_with_the_seed_checked(
    app: Flask, client: FlaskClient
) -> None:
    rt = app.extensions["pbem"]
    game_id = new_game(rt, "red_black", 2)
    finish_by_service(rt, game_id, random.Random(5))
    (mail,) = mails(app, to=EMAILS[0], kind="game_over")
    link = REPLAY_LINK.search(mail.text_body)
    assert link and link.group(0) in mail.html_body
    page = client.get(link.group(1)).get_data(as_text=True)
    assert 'data-viewer="face_up"' in page
    table = rt.read_table(game_id)
    seed = table.events[0]["seed"]
    assert f"Seed: {seed}" in page
    assert 'data-check="hash" data-ok="true"' in page and 'data-check="rerun" data-ok="true"' in page
    salt = table.record.seed_salt
    commitment = hashlib.sha256(f"pbem-seed-v1:{salt}:{seed}".encode()).hexdigest()
    (invitation,) = mails(app, to=EMAILS[0], kind="invitation")
    assert commitment in invitation.text_body and commitment in page


def test_the_public_replay_opens_only_once_over_and_if_the_host_allows(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "dupli", 3)
    host = host_path(sqlite_app, game_id)
    running = client.get(f"/game/{game_id}/replay")
    assert running.status_code == 403 and "still being played" in running.get_data(as_text=True)
    assert post_host_form(client, host, "/public-replay").status_code == 303  # opened in advance
    assert client.get(f"/game/{game_id}/replay/2").status_code == 403
    assert client.get(f"/game/{game_id}/history").status_code == 200  # public information, always

    add_moves(rt, game_id, random.Random(1))
    public = client.get(f"/game/{game_id}/replay")
    assert public.status_code == 200 and 'data-viewer="face_up"' in public.get_data(as_text=True)
    assert client.get(f"/api/game/{game_id}/replay/3").get_json()["viewer"]["kind"] == "face_up"
    assert "Replay, every card face up" in client.get(f"/game/{game_id}").get_data(as_text=True)

    form = next(
        f for f in forms(client.get(host).get_data(as_text=True)) if f.action.endswith("/public-replay")
    )
    damaged = client.post(form.action, data={**form.fields, "public": "maybe"})
    assert damaged.status_code == 400 and rt.read_table(game_id).record.public_replay  # nothing changed
    assert post_host_form(client, host, "/public-replay").status_code == 303  # closed again
    closed = client.get(f"/game/{game_id}/replay")
    assert closed.status_code == 403 and "has not opened" in closed.get_data(as_text=True)
    assert client.get(f"/api/game/{game_id}/replay").get_json()["status"] == 403
    assert client.get("/game/no-such-game/replay").status_code == 404
    assert client.get(path_of(sqlite_app, game_id, 0) + "/replay").status_code == 200  # players still can


def test_the_spectator_link_shows_public_information_and_the_host_can_revoke_it(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "red_black", 2)
    add_moves(rt, game_id, random.Random(3), 6)
    host = host_path(sqlite_app, game_id)
    watch = watch_link(client, host)
    page = client.get(watch).get_data(as_text=True)
    assert 'data-viewer="spectator"' in page and "Your hand" not in page
    assert client.get(f"/api{watch}/2").get_json()["viewer"] == {"kind": "spectator", "seat": None}
    assert client.get(f"{watch}/history").status_code == 200

    assert post_host_form(client, host, "/watch/revoke").status_code == 303
    revoked = client.get(watch)
    assert revoked.status_code == 403 and "replaced by a newer one" in revoked.get_data(as_text=True)
    assert client.get(watch_link(client, host)).status_code == 200
    assert client.get("/watch/not-a-token").status_code == 403


def test_moves_not_made_by_hand_are_marked_without_telling_others_of_a_forced_move(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "dualis", 4, {"first_leader": 0})
    add_moves(rt, game_id, random.Random(4), 3, origins={0: EventOrigin.BOT, 1: EventOrigin.AUTO})
    # Step 3 is Ann's move (by the seat-keeper), step 4 Bo's (played for him: his only move).
    for seat in range(4):
        path = path_of(sqlite_app, game_id, seat)
        assert "played by the seat-keeper" in client.get(f"{path}/replay/3").get_data(as_text=True)
        forced = "played for you: it was your only legal move" in client.get(f"{path}/replay/4").get_data(
            as_text=True
        )
        assert forced == (seat == 1)
        assert "played for you" not in client.get(f"{path}/replay/5").get_data(as_text=True)


def test_the_history_page_has_the_score_sheet_and_links_to_each_round(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "dualis", 4, {"short": True})
    add_moves(rt, game_id, random.Random(6))
    table = rt.read_table(game_id)
    path = path_of(sqlite_app, game_id, 0)
    rounds = [n for n, e in enumerate(table.events, start=1) if e["type"] == "RoundDealt"]
    scored = [e for e in table.events if e["type"] == "RoundScored"]

    page = client.get(path + "/history").get_data(as_text=True)
    for number, start in enumerate(rounds, start=1):
        assert f'<a href="{path}/replay/{start}">Round {number}</a>' in page
    assert page.count('<tr data-chapter="') == len(scored)
    assert "Ann &amp; Cy" in page and "Winner" in page

    data = client.get(f"/api{path}/history").get_json()
    assert [row["first_step"] for row in data["rows"]] == rounds[: len(scored)]
    assert [row["winners"] for row in data["rows"]] == [e["winners"] for e in scored]
    assert data["fairness"]["revealed"] and data["fairness"]["rerun_ok"]
    assert data["replay"] == f"/api{path}/replay/1"


def test_the_seed_stays_secret_while_the_game_runs(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "double_side", 3)
    add_moves(rt, game_id, random.Random(8), 10)
    table = rt.read_table(game_id)
    seed = str(table.events[0]["seed"])
    path = path_of(sqlite_app, game_id, 2)
    (invitation,) = mails(sqlite_app, to=EMAILS[2], kind="invitation")
    (commitment,) = set(COMMITMENT.findall(invitation.text_body))
    pages = [path, f"{path}/replay/{table.version}", f"{path}/history", host_path(sqlite_app, game_id)]
    for page in pages:
        text = client.get(page).get_data(as_text=True)
        assert commitment in text and seed not in text, page
    data = client.get(f"/api{path}/history").get_json()
    assert data["fairness"] == {"scheme": "sha256", "commitment": commitment, "revealed": False}
    assert "data-replay" in client.get(path).get_data(as_text=True)


def test_a_cancelled_game_keeps_its_cards_hidden(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "red_black", 2)
    add_moves(rt, game_id, random.Random(2), 4)
    assert cancel_game(rt, game_id)
    public = client.get(f"/game/{game_id}/replay")
    assert public.status_code == 403 and "cancelled" in public.get_data(as_text=True)
    path = path_of(sqlite_app, game_id, 0)
    assert 'data-viewer="seat"' in client.get(path + "/replay").get_data(as_text=True)
    assert not client.get(f"/api{path}/history").get_json()["fairness"]["revealed"]


def test_the_kept_states_are_folded_once_and_carried_on_as_the_game_moves(sqlite_app: Flask) -> None:
    rt = sqlite_app.extensions["pbem"]
    game_id = new_game(rt, "double_side", 4, {"trump": True})
    add_moves(rt, game_id, random.Random(5), 10)
    before = replay_of(rt.replays, rt.read_table(game_id))
    assert replay_of(rt.replays, rt.read_table(game_id)) is before  # cached for this version
    add_moves(rt, game_id, random.Random(6), 10)
    table = rt.read_table(game_id)
    after = replay_of(rt.replays, table)
    assert after.version == table.version > before.version
    assert after.states[: before.version] == before.states  # the kept states, not folded again
    assert all(a is b for a, b in zip(after.states, before.states, strict=False))
    rules = table.rules
    for number in (1, before.version, before.version + 1, table.version):
        assert after.states[number - 1] == rules.fold(table.events[:number])
    assert sorted(after.actions) == [s.number for s in after.steps if s.starts_move]


def test_replay_and_history_times_follow_the_readers_time_zone(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(app.extensions["pbem"], "red_black", 2)
    ann = path_of(app, game_id, 0)
    assert client.post(f"/api{ann}/settings", json={"timezone": "Asia/Tokyo"}).status_code == 200
    for page in (f"{ann}/replay/1", f"{ann}/history"):
        html = client.get(page).get_data(as_text=True)
        assert re.search(r'<time datetime="[^"]+\+00:00">[^<]+\(Asia/Tokyo\)</time>', html), page
    public = client.get(f"/game/{game_id}/history").get_data(as_text=True)  # the game's own zone
    assert re.search(r"<time datetime=\"[^\"]+\" data-localise>[^<]+\(UTC\)</time>", public)
    step = client.get(f"/api{ann}/replay/1").get_json()
    assert step["time"].endswith("+00:00")  # the JSON twin: ISO 8601 in UTC


def test_the_spectator_link_opens_a_running_game_at_its_current_step(sqlite_app: Flask) -> None:
    rt, client = sqlite_app.extensions["pbem"], sqlite_app.test_client()
    game_id = new_game(rt, "red_black", 2)
    add_moves(rt, game_id, random.Random(5), 6)
    version = rt.read_table(game_id).version
    watch = watch_link(client, host_path(sqlite_app, game_id))
    assert f"Step {version} of {version}" in client.get(watch).get_data(as_text=True)
    assert client.get(f"/api{watch}").get_json()["step"] == version

"""Plays chosen ahead in every game, on PostgreSQL: each game's case is found by its rules
(tests/service/ahead_games.py), then played through the service. A chosen play is made when due as
the player's own move; one that no longer fits is dropped and the "your move" mail says why; a move
by hand or a newer queue racing it leaves exactly one move; the page and the API store the same
queue; bad input is refused with a 4xx and stores nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from rules.shapes import Action
from service.eventlog.models import AheadStatus, EventOrigin
from service.eventlog.store import Table
from service.i18n import say
from service.play.ahead import MAX_AHEAD, as_json
from service.play.hosting import revoke_link
from service.play.moves import MoveOutcome, MoveStatus, submit_move
from tests.helpers import mails, post_form
from tests.service.ahead_games import GAMES, AheadCase, chosen, email, game_with_case, moves_of, rows

# Dupli's answers always fit when they are due (the rules leave nothing to refuse), so only the
# other games can drop a chosen play that no longer fits.
MISFITTING = ("dualis", "double_side", "red_black")


@pytest.fixture
def client(pg_app: Flask) -> FlaskClient:
    return pg_app.test_client()


def choose(client: FlaskClient, link: str, plays: list[dict[str, Any]]) -> Any:
    return client.post(f"/api{link}/ahead", json={"plays": plays})


def case_chosen_by_api(app: Flask, client: FlaskClient, game: str) -> tuple[str, AheadCase]:
    """A game with a case whose seat has chosen the case's plays ahead through the API."""
    game_id, links, case = game_with_case(app, game)
    assert choose(client, links[case.seat], chosen(case)).status_code == 200
    return game_id, case


def submit(app: Flask, game_id: str, seat: int, action: Action) -> MoveOutcome:
    rt = app.extensions["pbem"]
    return submit_move(rt, game_id, seat, rt.read_table(game_id).version, action)


def play_coming(app: Flask, game_id: str, moves: list[tuple[int, Action]]) -> None:
    for seat, action in moves:
        assert submit(app, game_id, seat, action).status == MoveStatus.ACCEPTED


@pytest.mark.parametrize("game", GAMES)
def test_a_chosen_play_is_made_when_due_as_the_players_own_move(
    pg_app: Flask, client: FlaskClient, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, case = case_chosen_by_api(pg_app, client, game)
    asked_before = len(mails(pg_app, to=email(case.seat), kind="your_turn"))
    since = rt.read_table(game_id).version
    play_coming(pg_app, game_id, case.coming)
    table = rt.read_table(game_id)
    ((index, action, origin),) = moves_of(table, case.seat, since)
    assert action == case.made and origin == EventOrigin.PLAYER
    (row,) = rows(pg_app, game_id)
    assert row.status == AheadStatus.PLAYED and row.seq == index + 1
    assert len(mails(pg_app, to=email(case.seat), kind="your_turn")) == asked_before  # never asked
    told = [mail.text_body for mail in mails(pg_app, to=email(case.seat)) if "chosen ahead" in mail.text_body]
    assert told and "Your play chosen ahead was made:" in told[-1]


@pytest.mark.parametrize("game", MISFITTING)
def test_a_chosen_play_that_no_longer_fits_is_dropped_and_the_your_move_mail_says_why(
    pg_app: Flask, client: FlaskClient, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, game, fits=False)
    assert choose(client, links[case.seat], chosen(case)).status_code == 200
    since = rt.read_table(game_id).version
    play_coming(pg_app, game_id, case.coming)
    table = rt.read_table(game_id)
    assert moves_of(table, case.seat, since) == [] and case.seat in table.rules.to_act(table.state)
    assert [row.status for row in rows(pg_app, game_id)] == [AheadStatus.DROPPED]
    assert case.refusal is not None
    with pg_app.test_request_context():
        why = f"Your play chosen ahead was not made: {say(case.refusal)}."
    asked = mails(pg_app, to=email(case.seat), kind="your_turn")[-1]
    assert why in asked.text_body
    # Told once: the seat's next mail says nothing more of it.
    assert submit(pg_app, game_id, case.seat, case.by_hand).status == MoveStatus.ACCEPTED
    assert all(why not in mail.text_body for mail in mails(pg_app, to=email(case.seat))[-3:] if mail != asked)


def race(app: Flask, *moves: Callable[[], Any]) -> list[Any]:
    """Run the moves in threads released at the same instant; their answers."""
    start = threading.Barrier(len(moves))
    answers: list[Any] = [None] * len(moves)

    def run(index: int) -> None:
        with app.app_context():
            start.wait()
            answers[index] = moves[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(moves))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def by_hand_when_due(app: Flask, game_id: str, seat: int, seq: int, action: Action) -> MoveOutcome:
    """The seat's move by hand, made on the page it would see once due (version `seq`): sent again
    while that version does not exist yet, as a player reloading would."""
    rt = app.extensions["pbem"]
    for _ in range(2000):
        outcome = submit_move(rt, game_id, seat, seq, action)
        if outcome.status != MoveStatus.REJECTED or rt.read_table(game_id).version >= seq:
            return outcome
    return outcome


@pytest.mark.parametrize("game", GAMES)
def test_a_move_by_hand_racing_the_chosen_play_leaves_exactly_one_move(
    pg_app: Flask, client: FlaskClient, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, case = case_chosen_by_api(pg_app, client, game)
    *before, (mover, last) = case.coming
    play_coming(pg_app, game_id, before)
    table = rt.read_table(game_id)
    due_at = table.version + len(table.rules.act(table.state, mover, last))
    answers = race(
        pg_app,
        lambda: submit_move(rt, game_id, mover, table.version, last),
        lambda: by_hand_when_due(pg_app, game_id, case.seat, due_at, case.by_hand),
    )
    assert answers[0].status == MoveStatus.ACCEPTED
    after = rt.read_table(game_id)
    ((_, action, origin),) = moves_of(after, case.seat, table.version)
    (row,) = rows(pg_app, game_id)
    if row.status == AheadStatus.PLAYED:
        assert action == case.made and answers[1].status in (MoveStatus.STALE, MoveStatus.REJECTED)
    else:
        assert row.status == AheadStatus.DROPPED and action == case.by_hand
        assert answers[1].status == MoveStatus.ACCEPTED
    assert origin == EventOrigin.PLAYER


@pytest.mark.parametrize("game", GAMES)
def test_a_newer_queue_racing_the_move_that_makes_it_due_is_made_or_refused_never_both(
    pg_app: Flask, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, game)
    newer = next(
        (
            action
            for action, _ in rt.read_table(game_id).rules.ahead.choices(
                rt.read_table(game_id).state, case.seat, case.situation
            )
            if action != case.action
        ),
        case.action,
    )
    client = pg_app.test_client()
    assert choose(client, links[case.seat], chosen(case)).status_code == 200
    *before, (mover, last) = case.coming
    play_coming(pg_app, game_id, before)
    since = rt.read_table(game_id).version
    answers = race(
        pg_app,
        lambda: submit(pg_app, game_id, mover, last),
        lambda: pg_app.test_client().post(
            f"/api{links[case.seat]}/ahead", json={"plays": chosen(case, newer)}
        ),
    )
    assert answers[0].status == MoveStatus.ACCEPTED
    ((index, action, _),) = moves_of(rt.read_table(game_id), case.seat, since)
    played = [row for row in rows(pg_app, game_id) if row.status == AheadStatus.PLAYED]
    waiting = [row for row in rows(pg_app, game_id) if row.status == AheadStatus.CHOSEN]
    assert len(played) == 1 and played[0].seq == index + 1
    if answers[1].status_code == 422:  # the seat was due already: the newer queue was refused
        assert len(rows(pg_app, game_id)) == 1 and action == case.made and waiting == []
    elif played[0].action == newer:  # the newer queue came first and was made
        assert len(rows(pg_app, game_id)) == 2 and waiting == []
    else:  # it came once the older queue's play was made: it waits for the seat's next such play
        assert answers[1].status_code == 200 and action == case.made
        assert [row.action for row in waiting] == [newer]


@pytest.mark.parametrize("game", GAMES)
def test_the_page_and_the_api_store_the_same_queue(pg_app: Flask, client: FlaskClient, game: str) -> None:
    rt = pg_app.extensions["pbem"]
    by_page, page_links, case = game_with_case(pg_app, game)
    by_api, api_links, _ = game_with_case(pg_app, game)
    page = client.get(page_links[case.seat]).get_data(as_text=True)
    field = f"ahead-{case.situation}"
    assert f'name="{field}"' in page
    response = post_form(client, page_links[case.seat], "/ahead", **{field: as_json(case.action)})
    assert response.status_code == 303
    assert choose(client, api_links[case.seat], chosen(case)).status_code == 200
    stored = [client.get(f"/api{links[case.seat]}/ahead").get_json() for links in (page_links, api_links)]
    assert stored[0] == stored[1] and stored[0]["plays"][0]["action"] == case.action
    for game_id in (by_page, by_api):
        play_coming(pg_app, game_id, case.coming)
    assert rt.read_table(by_page).events == rt.read_table(by_api).events


def not_held(table: Table, seat: int) -> Action:
    """A play of a card the seat does not hold (another seat's), in its game's shape."""
    state = table.state
    if table.record.game == "dupli":
        return {"set": ["charge", "charge"]}
    other = next(hand for s, hand in enumerate(state.hands) if s != seat and hand)
    return {"card": next(card for card in other if card not in state.hands[seat])}


@pytest.mark.parametrize("game", GAMES)
def test_bad_queues_are_refused_with_a_4xx_and_nothing_is_stored(
    pg_app: Flask, client: FlaskClient, game: str
) -> None:
    rt = pg_app.extensions["pbem"]
    game_id, links, case = game_with_case(pg_app, game)
    link = links[case.seat]
    table = rt.read_table(game_id)
    impossible = next(s for s in ("lead", "led:S", "led:R", "charge", "card") if s != case.situation)
    for plays in (
        chosen(case, not_held(table, case.seat)),
        [{"situation": impossible, "action": case.action}],
        [{"situation": "nonesuch", "action": case.action}],
        chosen(case) * 2,
    ):
        response = choose(client, link, plays)
        assert response.status_code == 422, (plays, response.get_json())
        assert response.get_json()["error"]
    oversized = [{"situation": f"s{n}", "action": case.action} for n in range(MAX_AHEAD + 1)]
    assert choose(client, link, oversized).status_code == 400
    form = {f"ahead-s{n}": as_json(case.action) for n in range(MAX_AHEAD + 1)}
    assert post_form(client, link, "/ahead", **form).status_code == 422
    assert (
        post_form(client, link, "/ahead", **{f"ahead-{impossible}": as_json(case.action)}).status_code == 422
    )
    forged = link[:-4] + ("abcd" if not link.endswith("abcd") else "wxyz")
    assert choose(client, forged, chosen(case)).status_code == 403
    revoke_link(rt, game_id, case.seat)
    assert choose(client, link, chosen(case)).status_code in (403, 410)
    assert client.post(
        f"{link}/ahead", data={f"ahead-{case.situation}": as_json(case.action)}
    ).status_code in (
        400,
        403,
        410,
    )
    assert rows(pg_app, game_id) == []

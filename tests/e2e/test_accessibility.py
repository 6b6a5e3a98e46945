"""Every kind of page passes axe-core with no serious or critical violation: the home page, the
create form, each game's rules, each game's table mid-round, a replay step, the history, the host
page, the spectator's page and a mail on the outbox."""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe
from flask import Flask

from rules import get_game
from service.mail.drafting import host_url, player_url, watch_url
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from tests.helpers import mails

SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}
NAMES = ("Ann", "Bo", "Cy", "Di")
SERIOUS = {"serious", "critical"}


def serious_violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    """axe-core's serious and critical violations on the page, each with where it happened."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


def mid_round_game(app: Flask, game: str, moves: int = 6) -> str:
    """A game of `game` played by random legal moves into its first round; its id."""
    rt = app.extensions["pbem"]
    rules = get_game(game)
    rng = random.Random(1)
    players = [Player(name, f"{name.lower()}@example.org") for name in NAMES[: SEATS[game]]]
    with app.app_context():
        game_id = create_game(rt, game, players, players[0], {}, seed=11)
        for _ in range(moves):
            table = rt.read_table(game_id)
            seat = min(rules.to_act(table.state))
            outcome = submit_move(
                rt, game_id, seat, table.version, rng.choice(rules.legal_actions(table.state, seat))
            )
            assert outcome.status == MoveStatus.ACCEPTED
    return game_id


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_table_replay_history_host_and_spectator_pages_are_accessible(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
    game: str,
) -> None:
    _, app = live_server
    game_id = mid_round_game(app, game)
    rt = app.extensions["pbem"]
    with app.app_context():
        table = rt.read_table(game_id)
        seat = min(table.rules.to_act(table.state))
        player = player_url(rt, table, seat)
        pages = {
            "table": player,
            "replay": f"{player}/replay/3",
            "history": f"{player}/history",
            "host": host_url(rt, table),
            "spectator": watch_url(rt, table),
        }
    found = {}
    for name, url in pages.items():
        page.goto(url)
        found[name] = serious_violations(page)
    assert found == {name: [] for name in pages}


def test_the_home_create_rules_outbox_and_mail_pages_are_accessible(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    base, app = live_server
    mid_round_game(app, "red_black", moves=0)
    invitation = mails(app, kind="invitation")[0]
    found = {}
    for name, url in {
        "home": f"{base}/",
        "create": f"{base}/new/dualis",
        **{f"rules of {game}": f"{base}/rules/{game}?table=1" for game in SEATS},
        "outbox": f"{base}/outbox",
        "mail": f"{base}/outbox/{invitation.id}",
    }.items():
        page.goto(url)
        found[name] = serious_violations(page)
    assert found == {name: [] for name in found}

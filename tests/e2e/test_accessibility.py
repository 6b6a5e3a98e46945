"""Every kind of page passes axe-core with no serious or critical violation, in the light and the dark
theme (the browser's `prefers-color-scheme`): the home page, the create form, each game's rules, each
game's table mid-round, a replay step, the history, the host page, the spectator's page and a mail on
the outbox. Two rules axe leaves out by default are run too: a button's name must contain its visible
text (`label-content-name-mismatch`, for speech input), and no table header may be empty."""

from __future__ import annotations

import random
import re

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
THEMES = ("light", "dark")
# Rules axe runs only when asked (experimental or best practice), and whose findings count whatever
# their impact.
ALSO_RUN = {"label-content-name-mismatch", "empty-table-header"}


def serious_violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    """axe-core's serious and critical violations on the page (and any of ALSO_RUN), in each theme,
    each with the theme and where it happened."""
    found = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        results = Axe().run(page, options={"rules": {rule: {"enabled": True} for rule in ALSO_RUN}})
        found += [
            f"{theme}: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in SERIOUS or v["id"] in ALSO_RUN
        ]
    return found


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


def test_the_pages_follow_the_browsers_dark_theme(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    base, _ = live_server
    levels = {}
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        page.goto(f"{base}/new/dualis")
        colours = page.evaluate(
            "['body', 'header', '#host_name'].map(s => getComputedStyle(document.querySelector(s))"
            ".backgroundColor)"
        )
        levels[theme] = [sum(int(n) for n in re.findall(r"\d+", colour)[:3]) / 3 for colour in colours]
    light, dark = levels["light"], levels["dark"]
    assert all(level > 200 for level in light) and all(level < 60 for level in dark), levels

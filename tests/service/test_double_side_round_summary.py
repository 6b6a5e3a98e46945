"""Double Side Play: the round summary at the top of the page says in words who scored the round
(the ✓ beside a player's tricks was all it had)."""

from __future__ import annotations

import random
import re

import pytest
from flask import Flask

from service.play.moves import submit_move
from tests.helpers import mails, play_path
from tests.service.replay_games import new_game, random_move


@pytest.mark.parametrize("seed", [1, 2, 3])  # nobody scored the first round, one player, two players
def test_the_round_summary_names_who_scored(sqlite_app: Flask, seed: int) -> None:
    rt = sqlite_app.extensions["pbem"]
    rng = random.Random(2)
    with sqlite_app.app_context():
        game_id = new_game(rt, "double_side", 3, {}, seed=seed)
        table = rt.read_table(game_id)
        while not any(event["type"] == "RoundScored" for event in table.events):
            seat, action = random_move(table.rules, table.state, rng)
            submit_move(rt, game_id, seat, table.version, action)
            table = rt.read_table(game_id)
    scored = next(event for event in table.events if event["type"] == "RoundScored")
    names = [table.names[seat] for seat in scored["scorers"]]
    invitation = next(m for m in mails(sqlite_app, kind="invitation") if m.game_id == game_id and m.seat == 0)
    html = sqlite_app.test_client().get(play_path(invitation)).get_data(as_text=True)
    summary = " ".join(
        re.sub(r"<[^>]+>", " ", html.split("data-previous-round")[1].split("</div>")[0]).split()
    )
    assert len(names) == [1, 2, 3].index(seed), "each seed gives its case"
    assert said_of(names) in summary, summary


def said_of(names: list[str]) -> str:
    """What the summary says of the round's scorers."""
    if not names:
        return "Nobody scored this round."
    if len(names) == 1:
        return f"{names[0]} scored a point."
    return f"{', '.join(names)} each scored a point."

"""A new round (Duālis, Double Side Play, Red and Black) or war (Dupli) opens with the round before
in view: its result and its last trick, war or comparison, from the rules' view, on the player's
first screen; a replay seen later keeps that trick face down once it is no longer in view."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from flask import Flask

from rules import get_game
from service.mail.drafting import player_url
from tests.service.replay_games import NAMES, add_moves, new_game

View = dict[str, Any]
SECTION = re.compile(r"<(?:div|ul) [^>]*data-(previous-round|last-war-cards)>(.*?)</(?:div|ul)>", re.S)
DATA_CARD = re.compile(r'data-card="([^"]+)"')


def play_until(
    app: Flask, game: str, seats: int, options: dict[str, Any], ready: Callable[[View], bool]
) -> str:
    """A game played by random legal moves, one at a time, until the public view is `ready`."""
    rt = app.extensions["pbem"]
    game_id = new_game(rt, game, seats, options, seed=7)
    rng = random.Random(3)
    for _ in range(2000):
        view = get_game(game).view(rt.read_table(game_id).state, None)
        if ready(view):
            return game_id
        assert add_moves(rt, game_id, rng, 1) == 1
    raise AssertionError("never ready")


def first_screen(app: Flask, game_id: str, seat: int = 0) -> tuple[View, str]:
    """A seat's view (JSON twin) and the glance part of its page, which ends before the hand."""
    rt, client = app.extensions["pbem"], app.test_client()
    path = player_url(rt, rt.read_table(game_id), seat).removeprefix(rt.settings["BASE_URL"])
    html = client.get(path).get_data(as_text=True)
    glance = html[html.index('class="panel glance"') :]
    return client.get("/api" + path).get_json()["view"], glance[: glance.index("</section>")]


def previous_section(glance: str) -> str:
    """The part of the glance showing the round (or war) before."""
    match = SECTION.search(glance)
    assert match, glance
    return match.group(2)


def test_dualis_new_round_shows_the_round_before(sqlite_app: Flask) -> None:
    game_id = play_until(sqlite_app, "dualis", 4, {"short": True}, lambda v: v["previous_round"] is not None)
    view, glance = first_screen(sqlite_app, game_id)
    before = view["previous_round"]
    assert view["round"] == 2 and view["last_trick"] is None and before["result"] == view["rounds"][-1]
    part = previous_section(glance)
    assert "Round 1:" in part and "★ won" in part
    assert f"Trick {before['last_trick']['number']}: {NAMES[before['last_trick']['winner']]} won with" in part
    assert DATA_CARD.findall(part) == [p["card"] for p in before["last_trick"]["plays"]]


def test_dualis_round_before_leaves_once_a_trick_is_won(sqlite_app: Flask) -> None:
    game_id = play_until(
        sqlite_app, "dualis", 4, {"short": True}, lambda v: v["round"] == 2 and v["last_trick"] is not None
    )
    view, glance = first_screen(sqlite_app, game_id)
    assert view["previous_round"] is None and "data-previous-round" not in glance


def test_dualis_replay_keeps_the_round_before_face_down_later(sqlite_app: Flask) -> None:
    game_id = play_until(
        sqlite_app, "dualis", 4, {"short": True}, lambda v: v["round"] == 2 and v["last_trick"] is not None
    )
    rules = get_game("dualis")
    table = sqlite_app.extensions["pbem"].read_table(game_id)
    deal = next(i for i, e in enumerate(table.events) if e["type"] == "RoundDealt" and e["round"] == 2)
    opening = rules.fold(table.events[: deal + 1])  # round 2 dealt, the round before still in view
    then = rules.view(opening, 0, as_of=table.state)["previous_round"]
    assert then is not None and all(p["card"] is None for p in then["last_trick"]["plays"])
    live = rules.view(opening, 0)["previous_round"]
    assert rules.view(opening, 0, as_of=opening)["previous_round"] == live


def test_double_side_new_round_shows_the_round_before(sqlite_app: Flask) -> None:
    game_id = play_until(sqlite_app, "double_side", 3, {}, lambda v: v["previous_round"] is not None)
    view, glance = first_screen(sqlite_app, game_id, 1)
    before = view["previous_round"]
    assert view["round"] == 2 and view["last_trick"] is None and before["result"] == view["history"][-1]
    part = previous_section(glance)
    assert "Round 1:" in part and "dice " in part
    assert f"Trick 12: {NAMES[before['last_trick']['winner']]} won with" in part
    assert DATA_CARD.findall(part) == [p["card"] for p in before["last_trick"]["plays"]]


def test_dupli_new_war_shows_the_war_before(sqlite_app: Flask) -> None:
    game_id = play_until(
        sqlite_app, "dupli", 3, {}, lambda v: v["phase"] == "set" and v["last_war"] is not None
    )
    view, glance = first_screen(sqlite_app, game_id)
    war = view["last_war"]
    assert "War 1:" in glance
    part = previous_section(glance)
    assert part.count("<li>") == 3
    for player in war["players"]:
        assert f"{NAMES[player['seat']]}: " in part
        shown = [c for c in player["cards"] if not (c["banked"] or c["zeroed"] or c["cancelled"])]
        assert all(f"({c['strength']})" in part for c in shown)


def test_red_black_new_round_shows_the_round_before(sqlite_app: Flask) -> None:
    game_id = play_until(
        sqlite_app,
        "red_black",
        2,
        {},
        lambda v: v["previous_play"] is not None,
    )
    view, glance = first_screen(sqlite_app, game_id)
    last = view["previous_play"]
    assert "Last round:" in glance
    part = previous_section(glance)
    assert f"{NAMES[last['winner']]} won the last comparison with" in part
    assert DATA_CARD.findall(part) == [last["cards"][last["leader"]], last["cards"][1 - last["leader"]]]
    assert view["last_play"] is None and view["round"] == view["last_round"]["round"] + 1

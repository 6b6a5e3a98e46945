"""A step's walk through the code: master → follow → rules and back, each state of the table asked
of the rules once (what the game waits on) and each automatic move made by the rules once, no
detour through other modules that ask the rules again."""

from __future__ import annotations

from flask import Flask

from tests.service.step_walk import one_move

MASTER, FOLLOW = "service.play.master", "service.play.automatic"


def test_a_moves_step_goes_master_follow_rules_and_back(sqlite_app: Flask) -> None:
    walk, moves = one_move(sqlite_app)
    assert moves >= 3  # the seat-keepers answered the move
    assert walk.stays[0] == walk.stays[-1] == MASTER
    assert set(walk.stays) <= {MASTER, "service.play.ahead", FOLLOW, "rules", "bots"}
    for before, place, after in zip(walk.stays, walk.stays[1:], walk.stays[2:], strict=False):
        if place in ("rules", "bots"):
            assert before == after == FOLLOW, walk.stays
    follows = [n for n, place in enumerate(walk.stays) if place == FOLLOW]
    assert walk.stays[follows[0] : follows[-1] + 1].count(MASTER) == 0  # follow is entered once


def test_the_rules_are_asked_once_per_state_and_once_per_move(sqlite_app: Flask) -> None:
    walk, moves = one_move(sqlite_app)
    # What the game waits on, before each move and after the last; each move's events.
    assert walk.stays.count("rules") == 2 * moves + 1

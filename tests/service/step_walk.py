"""A walk of one move's step through the code: the modules of the service's play, the bots and the
rules that the step's "what follows" passes through, in the order it passes through them, recorded
by `sys.setprofile` from the moment a function (the master's `follow`) is entered until it returns.
A stay is a run of calls and returns inside one module; a return is a stay in a module the walk had
already left. The mail policy, the event store and the projections are where a step's results go,
not where what follows is decided: their modules are not part of the walk.

    .venv/bin/python -m tests.service.step_walk [module:qualname]
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from flask import Flask

from service.play.hosting import Player, create_game
from service.play.moves import submit_move

# The modules of a step's "what follows", each a stay of its own; the rules and the bots are each
# one stay however many of their modules they pass through inside.
WALKED = "service.play."
WHOLE = ("rules", "bots")
# Where a step's results go, not where what follows is decided: not part of the walk.
NOT_WALKED = ("service.play.projections", "service.play.clocks", "service.play.deadlines")
STEP = "service.play.master:Master.follow"


@dataclass
class Walk:
    """The modules (the rules and the bots as one each) a walk stayed in, one entry per stay."""

    stays: list[str] = field(default_factory=list)

    def enter(self, module: str) -> None:
        if not self.stays or self.stays[-1] != module:
            self.stays.append(module)

    @property
    def modules(self) -> int:
        return len(set(self.stays))

    @property
    def returns(self) -> int:
        """Stays in a module the walk had already left."""
        return len(self.stays) - self.modules

    def summary(self) -> str:
        stays, returns = len(self.stays), self.returns
        return f"{self.modules} modules, {stays} stays, {returns} returns to a module already left"


def _place(module: str) -> str | None:
    """Where in the walk a function of `module` runs: its module, the rules or the bots as a
    whole, "" for the service's other modules (opaque: nothing inside them is walked), None for
    libraries (transparent)."""
    top = module.split(".")[0]
    if top in WHOLE:
        return top
    if module.startswith(WALKED) and not module.startswith(NOT_WALKED):
        return module
    return "" if top == "service" else None


@contextmanager
def walking(target: str) -> Iterator[Walk]:
    """Record the walk of every call of `target` ("module:qualname") inside the block."""
    walk = Walk()
    module_name, qualname = target.split(":")
    inside: list[FrameType] = []  # the target's frame while it runs
    opaque: list[FrameType] = []  # the frame of the rules, the bots or another module entered

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        module = str(frame.f_globals.get("__name__", ""))
        if event == "call" and not inside:
            if module == module_name and frame.f_code.co_qualname == qualname:
                inside.append(frame)
                walk.enter(module)
            return
        if not inside or event not in ("call", "return"):
            return
        if event == "call" and not opaque:
            place = _place(module)
            if place:
                walk.enter(place)
            if place is not None and place not in (module, ""):
                opaque.append(frame)  # the rules or the bots: one stay, whatever runs inside
            elif place == "":
                opaque.append(frame)
        elif event == "return":
            if opaque and opaque[0] is frame:
                opaque.clear()
            if opaque:
                return
            if frame is inside[0]:
                inside.clear()
                return
            caller = _place(str(frame.f_back.f_globals.get("__name__", ""))) if frame.f_back else None
            if _place(module) is not None and caller:
                walk.enter(caller)

    sys.setprofile(profile)
    try:
        yield walk
    finally:
        sys.setprofile(None)


def one_move(app: Flask, target: str = STEP) -> tuple[Walk, int]:
    """Duālis, a person and three seat-keepers: the person's first move and the walk of its step,
    with the number of moves the seat-keepers made in it."""
    rt = app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), *(Player(f"Keeper {n}", "", bot=True) for n in (1, 2, 3))]
    game_id = create_game(rt, "dualis", players, players[0], seed=0)
    table = rt.read_table(game_id)
    (seat,) = table.rules.to_act(table.state)
    action = table.rules.legal_actions(table.state, seat)[0]
    with walking(target) as walk:
        outcome = submit_move(rt, game_id, seat, table.version, action)
    assert outcome.status == "accepted", outcome
    after = rt.read_table(game_id)
    made = zip(after.actions[table.version :], after.origins[table.version :], strict=True)
    return walk, sum(1 for action, origin in made if action is not None and origin == "bot")


def main(argv: list[str], embedded: Callable[[Path, str | None], Any]) -> None:
    target = argv[0] if argv else STEP
    with embedded(Path(tempfile.mkdtemp()), None) as app:
        walk, moves = one_move(app, target)
    print(f"{walk.summary()} ({moves} moves of the seat-keepers)")
    print(" > ".join(walk.stays))


if __name__ == "__main__":
    from tests.conftest import embedded_app

    main(sys.argv[1:], embedded_app)

"""The seat-keeper: plays a sensible legal move for an absent player or a seat a host gave to a bot.
It is the weakest bot level ("keeper") and the rollouts' fallback of the search bots (`bots.search`).

It sees exactly what that seat sees, through the rules contract: `game.view(state, seat)` and
`game.legal_actions(state, seat)`. It never receives the state, so it cannot look at other hands or
try moves on the real game. One module per game decides; `bots.tricks` holds what the two
trick-taking games share.

    from bots import choose_action
    action = choose_action(game, game.view(state, seat), game.legal_actions(state, seat), seat)

Deterministic: the same view and legal list always give the same action (no global randomness).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bots import double_side, dualis, dupli, red_black
from rules.game import Game
from rules.shapes import Action

View = Mapping[str, Any]
Chooser = Callable[[View, Sequence[Action], int], Action]

CHOOSERS: dict[str, Chooser] = {
    "dualis": dualis.choose,
    "double_side": double_side.choose,
    "dupli": dupli.choose,
    "red_black": red_black.choose,
}


def choose_action(game: Game[Any], view: View, legal: Sequence[Action], seat: int) -> Action:
    """The seat-keeper's move for `seat`: always one of `legal` (the very object), chosen from the
    seat's own view. Only for a seat the game is waiting on: ValueError otherwise, because the one
    action left to an off-turn seat (folding in Red and Black Duel) is never a keeper's to take."""
    if view.get("seat") != seat:
        raise ValueError(f"this view belongs to seat {view.get('seat')!r}, not seat {seat}")
    if seat not in view.get("to_act", ()) or not legal:
        raise ValueError(f"the game is not waiting on seat {seat}")
    if len(legal) == 1:
        return legal[0]
    chooser = CHOOSERS.get(game.name)
    if chooser is None:
        raise ValueError(f"no seat-keeper for the game {game.name!r}")
    chosen = chooser(view, legal, seat)
    # Hand back the caller's own object: the games' choosers build nothing, but make it certain.
    for action in legal:
        if action == chosen:
            return action
    raise AssertionError(f"the {game.name} seat-keeper chose {chosen!r}, which is not legal")

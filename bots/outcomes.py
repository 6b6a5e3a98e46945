"""How the search bots value where a rollout stopped, per game: the one game-specific part of the
search (`bots.search`). A rollout plays to the end of the chapter it started in (a Duālis or Double
Side Play round, a Red and Black round, the whole of a Dupli game, which is only four wars), and the
value is for the seat's side, mostly whether it won the chapter, a little by how much.

The states valued are dealt from the seat's view (`Game.determinize`) and played on by the rules: a
bot never holds the real state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.dualis import cards as dualis_cards
from rules.dualis import state as dualis
from rules.red_black import cards as red_black_cards
from rules.red_black import state as red_black

MARGIN = 0.05  # how much the size of a win counts beside winning it


@dataclass(frozen=True)
class Outcome:
    """A game's chapter (settled: the rollout may stop), the value of its end for a seat, and how its
    rollouts play: by the seat-keeper, each move counting `keeper_cost` random moves of a level's
    budget (about what it costs beside one), or at random (0) where the keeper is too dear for
    enough worlds."""

    settled: Callable[[Any, Any], bool]
    value: Callable[[Any, Any, int], float]
    keeper_cost: int = 0


def _share(winners: tuple[int, ...] | list[int] | None, seat: int) -> float:
    """A seat's share of a win: 1 alone, 1/k shared with k − 1 others, 0 lost."""
    return 1.0 / len(winners) if winners and seat in winners else 0.0


# --- Duālis: a round's result for the seat's side ---------------------------------------------


def _dualis_settled(start: dualis.State, now: dualis.State) -> bool:
    return now.winners is not None or len(now.results) > len(start.results)


def _dualis_value(start: dualis.State, now: dualis.State, seat: int) -> float:
    if len(now.results) == len(start.results):
        return 0.0
    result = now.results[-1]
    side = seat if now.iso else seat % 2
    others = max(score for i, score in enumerate(result.scores) if i != side)
    return _share(result.winners, side) + MARGIN * (result.scores[side] - others) / dualis_cards.HAND_SIZE


# --- Double Side Play: on target this round, and the others not -----------------------------------


def _double_side_settled(start: Any, now: Any) -> bool:
    return now.phase == "over" or len(now.history) > len(start.history)


def _double_side_value(start: Any, now: Any, seat: int) -> float:
    if len(now.history) == len(start.history):
        return 0.0
    scorers = now.history[-1].scorers
    others: float = sum(s in scorers for s in range(now.seats) if s != seat) / max(now.seats - 1, 1)
    won = _share(now.winners, seat) if now.phase == "over" else 0.0
    return float(seat in scorers) + float(won) - 0.3 * others


# --- Dupli: the game's result (four wars are short) -----------------------------------------------


def _dupli_settled(start: Any, now: Any) -> bool:
    return now.phase in ("end", "over")


def _dupli_value(start: Any, now: Any, seat: int) -> float:
    vp = [len(pile) for pile in now.vp]
    best = max(vp)
    winners = [s for s, points in enumerate(vp) if points == best]
    others = max(points for s, points in enumerate(vp) if s != seat)
    return _share(winners, seat) + MARGIN * (vp[seat] - others) / 9


# --- Red and Black Duel: the chips a round wins or loses ------------------------------------------


def _red_black_settled(start: red_black.State, now: red_black.State) -> bool:
    return now.end is not None or len(now.outcomes) > len(start.outcomes)


def _red_black_value(start: red_black.State, now: red_black.State, seat: int) -> float:
    return 0.5 + (now.chips[seat] - start.chips[seat]) / (2 * red_black_cards.TARGET)


OUTCOMES: dict[str, Outcome] = {
    "dualis": Outcome(_dualis_settled, _dualis_value),
    "double_side": Outcome(_double_side_settled, _double_side_value, keeper_cost=10),
    "dupli": Outcome(_dupli_settled, _dupli_value, keeper_cost=25),
    "red_black": Outcome(_red_black_settled, _red_black_value, keeper_cost=10),
}

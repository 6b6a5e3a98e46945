"""Search bots: perfect-information Monte Carlo from the seat's view alone, shared by every game.

For a decision the bot deals the seat's view again into complete states (`Game.determinize`: the
other hands, face-down cards and the draw pile as they might be, never as they are), tries each legal
action in each of them and plays the game on to the end of the chapter (a round, or the game) with a
rollout policy, then keeps the action whose outcomes are best on average for its side. Within one
world every action's rollout draws the same random numbers, so that two actions are compared on the
same luck. What belongs to each game is how an outcome is valued and how its rollouts play
(`bots.outcomes`): by the seat-keeper, which makes the search a step of policy improvement over the
keeper (every seat plays on as the keeper would, so an action is judged by what follows it in
earnest), or at random where the keeper is too dear to play thousands of moves a decision.

Levels differ in their budget, counted in dealt worlds and rollouts so that a decision is the same
on every machine: the search's randomness comes from a seed the caller derives from the game and the
step (`search_seed`), never from the real deal. A CPU-time guard stops a search that runs long; the
seat-keeper's move is then made instead, as when the search raises: a table never stalls on a bot.
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots.keeper import choose_action as keeper
from bots.outcomes import OUTCOMES, Outcome
from rules.game import Game
from rules.rng import SeededRandom
from rules.shapes import Action
from rules.table import KEEPER

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Budget:
    """How hard a level searches, in counts (so that a decision is the same on every machine): the
    moves its rollouts may make in all, counted as random moves (a keeper's move counts as the
    game's `Outcome.keeper_cost` of them), within at least `min_worlds` and at most `max_worlds`
    worlds; the bonus the seat-keeper's own choice gets when rollouts play at random (a search
    deviates from it only for a clear gain, since a few noisy random rollouts are no better judge
    than the keeper's rules of thumb; where rollouts play as the keeper, none); how sure it must be,
    in standard errors of the difference, that another action beats the keeper's choice before it
    leaves it (`margin`: a steady player plays the keeper's move unless its few worlds clearly say
    otherwise); and the CPU seconds after which the seat-keeper decides instead."""

    moves: int
    min_worlds: int
    max_worlds: int
    keeper_bonus: float
    margin: float
    cpu_seconds: float


LEVELS: dict[str, Budget | None] = {
    KEEPER: None,
    "steady": Budget(moves=2000, min_worlds=2, max_worlds=40, keeper_bonus=0.15, margin=1.0, cpu_seconds=2.0),
    "strong": Budget(
        moves=12000, min_worlds=4, max_worlds=200, keeper_bonus=0.08, margin=0.0, cpu_seconds=6.0
    ),
}
MAX_ROLLOUT = 200  # moves: no chapter of any game is longer
TOLERANCE = 1e-9  # a gain no larger is rounding, not a gain (tied worlds must not read as ahead)


class OverBudget(RuntimeError):
    """The search ran past its CPU-time guard."""


@dataclass(frozen=True)
class Decision:
    """A bot's move, with why the seat-keeper made it instead of the search (None: it did not)."""

    action: Action
    fallback: str | None = None


def check_level(level: str) -> str:
    """The level if it is one; ValueError naming the levels otherwise."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
    return level


def search_seed(game_seed: int, step: int, seat: int) -> int:
    """The search's seed for one decision: from the game's seed and the step, hashed, so that a
    re-run agrees and the number tells nothing of the seed (which would tell the deal)."""
    digest = hashlib.sha256(f"pbem-bot-v1:{game_seed}:{step}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def decide(
    game: Game[Any], view: Mapping[str, Any], legal: Sequence[Action], seat: int, level: str, seed: int
) -> Decision:
    """The move of a bot of `level` for `seat`, from the seat's view and legal actions only."""
    budget = LEVELS[check_level(level)]
    fallback_move = keeper(game, view, legal, seat)
    if budget is None or len(legal) == 1:
        return Decision(fallback_move)
    try:
        return Decision(Search(game, seat, budget, seed, view).best(legal, fallback_move))
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"
        log.warning(
            "the %s bot fell back to the seat-keeper for seat %s of %s: %s", level, seat, game.name, reason
        )
        return Decision(fallback_move, reason)


def clearly_better(values: Sequence[float], others: Sequence[float], margin: float) -> bool:
    """Whether `values` beat `others`, world by world (the same worlds and luck, so the differences
    are paired), by more than `margin` standard errors of their mean difference."""
    differences = [value - other for value, other in zip(values, others, strict=True)]
    if len(differences) < 2:
        return False
    mean = statistics.fmean(differences)
    return mean - margin * statistics.stdev(differences) / math.sqrt(len(differences)) > TOLERANCE


class Search:
    """One decision's search over worlds dealt from the seat's view."""

    def __init__(
        self, game: Game[Any], seat: int, budget: Budget, seed: int, view: Mapping[str, Any]
    ) -> None:
        self.game, self.seat, self.budget, self.view = game, seat, budget, view
        self.outcome: Outcome = OUTCOMES[game.name]
        self.seed = seed
        self.deadline = time.process_time() + budget.cpu_seconds
        self.moves = 0

    def best(self, legal: Sequence[Action], preferred: Action) -> Action:
        """The action of highest mean value over the worlds, the keeper's choice counted with its
        bonus; on a tie the keeper's, then the first listed, so that the choice is deterministic.
        The keeper's choice stays unless the chosen action beats it by the level's margin."""
        return self.choose(legal, preferred, self.values(legal, preferred))

    def choose(self, legal: Sequence[Action], preferred: Action, values: Sequence[Sequence[float]]) -> Action:
        """`best`'s choice from each action's values in the worlds searched (an action dropped
        before the last world, see `values`, is not chosen)."""
        worlds = max(len(found) for found in values)
        keeper_bonus = 0.0 if self.outcome.keeper_cost else self.budget.keeper_bonus
        bonus = [keeper_bonus * worlds * (action == preferred) for action in legal]
        scores = [round(sum(found) + extra, 9) for found, extra in zip(values, bonus, strict=True)]
        searched = [i for i, found in enumerate(values) if len(found) == worlds]
        order = sorted(searched, key=lambda i: (-scores[i], legal[i] != preferred, i))
        chosen, kept = order[0], legal.index(preferred)
        margin = self.budget.margin
        if margin and not clearly_better(values[chosen], values[kept], margin):
            return preferred
        return legal[chosen]

    def values(self, legal: Sequence[Action], preferred: Action) -> list[list[float]]:
        """Each action's value in each world the budget buys (by action, one value a world); the
        first world's cost tells how many. Where the budget buys only two and a margin of a
        standard error or more applies, another action can be clearly better only by beating the
        keeper's choice (`preferred`) in both worlds, so the second world plays only those that
        beat it in the first (often none: the keeper's choice then stands on one world)."""
        values: list[list[float]] = [[] for _ in legal]
        playing = list(range(len(legal)))
        worlds, world = self.budget.min_worlds, 0
        while world < worlds and playing:
            state = self.game.determinize(self.view, SeededRandom(self.seed, "world", world))
            for index in playing:
                luck = random.Random(f"{self.seed}:{world}")  # private and seeded; the same for each action
                values[index].append(self.value_of(state, legal[index], luck))
            world += 1
            if world == 1:
                worlds = max(worlds, min(self.budget.max_worlds, self.budget.moves // max(self.moves, 1)))
                if worlds == 2 and self.budget.margin >= 1:
                    playing = self.contenders(values, legal.index(preferred))
        return values

    @staticmethod
    def contenders(values: Sequence[Sequence[float]], kept: int) -> list[int]:
        """The actions that beat the keeper's choice in the first world, and that choice; none
        (no world more to play) if no action beat it."""
        ahead = [i for i, found in enumerate(values) if found[0] > values[kept][0]]
        return sorted([*ahead, kept]) if ahead else []

    def value_of(self, state: Any, action: Action, luck: random.Random) -> float:
        """The value for the seat's side of `action` in one world, played on to the chapter's end."""
        start = state
        state = self.play(state, self.seat, action)
        for _ in range(MAX_ROLLOUT):
            if self.outcome.settled(start, state):
                break
            state = self.rollout_move(state, luck)
        if time.process_time() > self.deadline:
            raise OverBudget(f"the search ran past {self.budget.cpu_seconds} s of CPU")
        return self.outcome.value(start, state, self.seat)

    def rollout_move(self, state: Any, luck: random.Random) -> Any:
        """One move of the rollout policy: the first seat waited on plays the seat-keeper's move from
        its own view of this world, or a random legal action, as the game's rollouts play (never a
        fold, which only ends a chapter early)."""
        mover = min(self.game.to_act(state))
        legal = [a for a in self.game.legal_actions(state, mover) if not a.get("fold")]
        if not self.outcome.keeper_cost:
            return self.play(state, mover, luck.choice(legal))
        action = keeper(self.game, self.game.view(state, mover), legal, mover)
        return self.play(state, mover, action, cost=self.outcome.keeper_cost)

    def play(self, state: Any, seat: int, action: Action, cost: int = 1) -> Any:
        """The state after a seat's action, by the rules (counted in the moves the search made)."""
        self.moves += cost
        for event in self.game.act(state, seat, action):
            state = self.game.apply(state, event)
        return state

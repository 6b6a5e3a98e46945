"""Trick-taking judgement shared by the Duālis and Double Side Play keepers.

Both games score a side on hitting a trick count (Duālis: tricks equal to coins; Double Side Play:
tricks equal to a die), so both keepers judge a move by the *forecast* of their final trick count it
leaves: tricks already won, the chance of taking the trick in progress, and what the cards still in
hand are likely to take. Who wins a trick is never decided here: each keeper asks its game's own
rules (`rules.dualis.trick_outcome` and `trick_rank`, `rules.double_side.trick_winner`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.shapes import Action

T = TypeVar("T")

# An opponent holding a card that beats ours does not always spend it on this trick.
USES_A_BEATER = 0.7
SURE = 1e-6  # a spread this small means the count is known


@dataclass(frozen=True)
class Forecast:
    """A side's final trick count for the round, as a mean and a standard deviation."""

    mean: float
    sd: float

    def above(self, level: float) -> float:
        """The expected shortfall of `level` below the count: E[max(0, count − level)]."""
        return positive_part(self.mean - level, self.sd)

    def below(self, level: float) -> float:
        """The expected excess of `level` over the count: E[max(0, level − count)]."""
        return positive_part(level - self.mean, self.sd)

    def exactly(self, count: int) -> float:
        """The chance that the count ends at exactly `count` (the normal curve, rounded)."""
        if self.sd < SURE:
            return 1.0 if round(self.mean) == count else 0.0
        high = normal_cdf((count + 0.5 - self.mean) / self.sd)
        return high - normal_cdf((count - 0.5 - self.mean) / self.sd)


@dataclass(frozen=True)
class Candidate:
    """One legal action judged for the trick in progress."""

    action: Action
    card: str
    wins_now: bool  # our side takes the trick as things stand after this play
    take: float  # the chance our side ends up taking it
    later: tuple[float, ...]  # the chances of the cards left in hand to take a later trick


def normal_cdf(z: float) -> float:
    """Φ(z), the standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def positive_part(mean: float, sd: float) -> float:
    """E[max(0, X)] for X normal with this mean and standard deviation."""
    if sd < SURE:
        return max(0.0, mean)
    z = mean / sd
    density = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return mean * normal_cdf(z) + sd * density


def card_chance(strength: float, top: float, opponents: int) -> float:
    """The chance a card of `strength` (1 weakest .. `top` strongest) takes a trick from
    `opponents` cards drawn at random: every one of them must be weaker."""
    if top <= 1:
        return 0.0
    return max(0.0, min(1.0, (strength - 1) / (top - 1))) ** max(opponents, 1)


def hold_chance(beaters: int, unseen: int, hands: Sequence[int]) -> float:
    """The chance the card winning now still wins once the players in `hands` (their card counts)
    have played: each might hold one of the `beaters` among the `unseen` cards and use it."""
    if not hands or beaters <= 0 or unseen <= 0:
        return 1.0
    share = min(1.0, beaters / unseen)
    chance = 1.0
    for size in hands:
        holds = 1.0 - (1.0 - share) ** max(size, 0)
        chance *= 1.0 - USES_A_BEATER * holds
    return chance


def forecast(
    tricks: int, take: float, later: Iterable[float], extra_mean: float = 0.0, extra_var: float = 0.0
) -> Forecast:
    """The final trick count: `tricks` won, this trick with chance `take`, one more for each chance
    in `later` (each card a coin flip of its own chance) and a partner's share (`extra_*`)."""
    mean = tricks + take + extra_mean
    var = take * (1.0 - take) + extra_var
    for chance in later:
        mean += chance
        var += chance * (1.0 - chance)
    return Forecast(mean, math.sqrt(var))


def without_one(chances: Sequence[float], index: int) -> tuple[float, ...]:
    """The chances of a hand with the card at `index` played."""
    return (*chances[:index], *chances[index + 1 :])


def best(items: Iterable[T], value: Callable[[T], float]) -> T:
    """The item of highest value; the first one on a tie, so the choice is deterministic."""
    chosen: T | None = None
    top = -math.inf
    for item in items:
        score = value(item)
        if score > top + 1e-9:
            chosen, top = item, score
    if chosen is None:
        raise ValueError("nothing to choose from")
    return chosen

"""Verifiable deals: a commitment to the game's seed from the start, the seed revealed at the end.

The commitment is the SHA-256 (hex) of "pbem-seed-v1:<salt>:<seed>". Shown to the players from the
invitation on, it fixes the seed without telling it (the random per-game salt keeps anyone from
finding the seed by trying likely ones). Once the game is over the seed and salt are revealed and
two things can be checked: hashing them gives the commitment, and re-running the rules from the
seed gives the logged game: `start(seed, seats, options)` gives the opening events, and each move's
`act` on the state before it gives exactly the events logged for that move, so every deal, shuffle,
die and draw came from the committed seed. A host who typed a seed when creating the game knew it
beforehand (the service does not record whether one was typed); the commitment then proves only
that the seed did not change during the game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import Game
from service.eventlog.store import Table

SCHEME = "pbem-seed-v1"


def preimage(salt: str, seed: int) -> str:
    """The text whose SHA-256 is the commitment (anyone can hash it again: `sha256sum`)."""
    return f"{SCHEME}:{salt}:{seed}"


def commitment(salt: str, seed: int) -> str:
    """The commitment to a seed under a salt."""
    return hashlib.sha256(preimage(salt, seed).encode()).hexdigest()


def seed_of(events: Sequence[Mapping[str, Any]]) -> int:
    """The seed a game's log starts with (GameStarted records it)."""
    return int(events[0]["seed"])


def game_commitment(table: Table) -> str:
    """The commitment shown from the start (invitation mail, player and host pages)."""
    return commitment(table.record.seed_salt, seed_of(table.events))


@dataclass(frozen=True)
class Rerun:
    """The log checked against the rules re-run from its seed: moves re-played and the first step
    whose logged events differ from what the rules give (None: every step agrees)."""

    moves: int
    difference: int | None

    @property
    def ok(self) -> bool:
        return self.difference is None


def _plain(events: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Events as they come back from JSON storage (tuples become lists), for comparing."""
    plain: list[Any] = json.loads(json.dumps(list(events)))
    return plain


def _first_difference(logged: Sequence[Any], produced: Sequence[Any], offset: int) -> int | None:
    """The step number (offset + 1 for the first) where two runs of events first differ."""
    for i in range(max(len(logged), len(produced))):
        if i >= len(logged) or i >= len(produced) or logged[i] != produced[i]:
            return offset + i + 1
    return None


def rerun(
    rules: Game[Any],
    options: Mapping[str, Any],
    seats: int,
    events: Sequence[Mapping[str, Any]],
    actors: Sequence[int | None],
    actions: Mapping[int, dict[str, Any]],
    states: Sequence[Any],
) -> Rerun:
    """The log re-run from its seed. `actions` maps the step (sequence number) where each move
    begins to the action that made it, `actors` and `states` run parallel to `events` (the state
    after each event), so no prefix is folded twice."""
    starts = sorted(actions)
    opening = starts[0] - 1 if starts else len(events)
    produced = _plain(rules.start(seed_of(events), seats, dict(options)))
    difference = _first_difference(_plain(events[:opening]), produced, 0)
    if difference is not None:
        return Rerun(0, difference)
    for n, start in enumerate(starts):
        end = starts[n + 1] - 1 if n + 1 < len(starts) else len(events)
        action = actions[start]
        try:
            if "decision" in action:  # a forfeit or a cancellation: the game's or the host's, no seat's
                produced = _plain(rules.table.decide(states[start - 2], action, seats))
            elif (actor := actors[start - 1]) is not None:
                produced = _plain(rules.act(states[start - 2], actor, action))
            else:  # a move logged as nobody's that is not a decision
                return Rerun(n, start)
        except ValueError:  # IllegalAction too: the logged move is not one the rules allow there
            return Rerun(n, start)
        difference = _first_difference(_plain(events[start - 1 : end]), produced, start - 1)
        if difference is not None:
            return Rerun(n, difference)
    return Rerun(len(starts), None)

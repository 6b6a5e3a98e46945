"""Who owes a move, as the fold of a game's log tells it (its turn clocks follow from it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Owes:
    """A seat owes a move since the event numbered `since_seq`, without a break (its turn clock runs
    from there), with the host's latest more time for that move: `granted_days` from the event
    numbered `granted_seq`."""

    since_seq: int
    granted_seq: int | None = None
    granted_days: int = 0


# Who owes a move: each seat the game waits on.
Owing = Mapping[int, Owes]

"""Deterministic randomness from a game's seed.

Rules may not use the `random` module (global state, and its algorithms are free to change between
Python versions). Every shuffle, roll and tie-break draw comes from `SeededRandom(seed, *labels)`:
SHA-256 in counter mode over the seed and a label naming the draw (e.g. "deal", round 3), so each
draw is reproducible on its own and independent of the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class SeededRandom:
    """A reproducible stream of random integers for one labelled draw of one game."""

    def __init__(self, seed: int, *labels: object) -> None:
        self._key = ":".join(str(x) for x in (seed, *labels)).encode()
        self._counter = 0
        self._pool = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = hashlib.sha256(self._key + b"#" + str(self._counter).encode()).digest()
            self._pool += block
            self._counter += 1
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") >> (nbytes * 8 - bits)
            if value < n:
                return value

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One of the items."""
        return items[self.below(len(items))]

    def die(self) -> int:
        """A six-sided die roll."""
        return self.below(6) + 1

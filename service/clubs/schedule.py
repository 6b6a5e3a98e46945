"""A season's schedule, as pure functions: which participants sit at which table, in which seats,
and which tables start next.

Two-seat games are a round robin (the circle method). Games of three or four seats take every group
of that many participants once, so every pair meets equally often; in a four-seat partnership game
(Duālis), each table's partnership is chosen so that every pair is partners as evenly as possible
(and so opponents too). Each table is then turned round so that who sits first is spread evenly."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

Table = tuple[int, ...]  # participants by index, in seat order
# The three ways four seats split into two partnerships (seats 0+2 against 1+3, as Duālis seats
# partners across the table), written as the order of the four participants.
PAIRINGS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))
SEARCH_STEPS = 200_000  # the local search's bound: far more than the largest season needs


def round_robin(players: int) -> list[Table]:
    """Every pair of `players` once, by the circle method (a bye when odd), round after round."""
    tables: list[Table] = []
    ring = list(range(players)) + ([-1] if players % 2 else [])
    size = len(ring)
    for _round in range(size - 1):
        for k in range(size // 2):
            first, second = ring[k], ring[size - 1 - k]
            if -1 in (first, second):
                continue
            tables.append((first, second))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tables


def groups(players: int, seats: int) -> list[Table]:
    """Every group of `seats` of the players once."""
    return list(combinations(range(players), seats))


def first_seats_spread(tables: Sequence[Table]) -> list[Table]:
    """The tables, each turned round (its seats rotated, which keeps partners across the table) so
    that each sits first at the tables shared out evenly, rounded down or up: a matching of tables
    to first players grown by augmenting paths (Kuhn's), first up to the share rounded down each
    (so nobody is left below it), then up to it rounded up (a path never takes a table from
    anybody without giving them another)."""
    players = {p for table in tables for p in table}
    share, extra = divmod(len(tables), max(len(players), 1))
    firsts: dict[int, int] = {}  # table -> who sits first at it

    def assign(index: int, places: int, seen: set[int]) -> bool:
        for p in tables[index]:
            if p in seen:
                continue
            seen.add(p)
            theirs = [i for i, q in firsts.items() if q == p]
            if len(theirs) < places or any(assign(other, places, seen) for other in theirs):
                firsts[index] = p
                return True
        return False

    for places in (share, share + bool(extra)):
        for index in range(len(tables)):
            if index not in firsts:
                assign(index, places, set())
    return [_turned(table, firsts.get(i, table[0])) for i, table in enumerate(tables)]


def _turned(table: Table, first: int) -> Table:
    shift = table.index(first)
    return table[shift:] + table[:shift]


def partnered(tables: Sequence[Table]) -> list[Table]:
    """Four-seat tables with their partnerships (seats 0+2 and 1+3) chosen to keep every pair's
    times as partners as even as possible (within one of each other): a local search from the
    tables as given, one table's split changed at a time whenever that does not make the sum of
    squared partner counts worse (sideways steps let it leave a plateau), until the counts are
    even. Seeded, so a schedule is the same each time it is made."""
    chosen = list(tables)
    if not chosen:
        return chosen
    partners = Counter(pair for table in chosen for pair in _partners(table))
    pairs = {frozenset(pair) for table in chosen for pair in combinations(table, 2)}
    steps = random.Random(len(chosen))
    for _step in range(SEARCH_STEPS):
        if max(partners[p] for p in pairs) - min(partners[p] for p in pairs) <= 1:
            break
        index = steps.randrange(len(chosen))
        table = chosen[index]
        partners.subtract(_partners(table))
        split = steps.choice(_splits(table))
        if _cost(partners, split) <= _cost(partners, table):
            table = split
        partners.update(_partners(table))
        chosen[index] = table
    return chosen


def _splits(table: Table) -> list[Table]:
    """The three ways of seating a table's four as two partnerships (its first seat kept first)."""
    return [tuple(table[i] for i in order) for order in PAIRINGS]


def _partners(table: Table) -> tuple[frozenset[int], frozenset[int]]:
    return frozenset((table[0], table[2])), frozenset((table[1], table[3]))


def _cost(partners: Counter[frozenset[int]], table: Table) -> int:
    """The squares of the partner counts the table's partnerships would make, summed."""
    return sum((partners[pair] + 1) ** 2 for pair in _partners(table))


def season_tables(players: int, seats: int, partnerships: bool) -> list[Table]:
    """The season's tables for `players` participants at tables of `seats`."""
    if seats == 2:
        return first_seats_spread(round_robin(players))
    tables = groups(players, seats)
    return first_seats_spread(partnered(tables) if partnerships and seats == 4 else tables)


def next_tables(tables: Sequence[Table], started: set[int], running: Counter[int], most: int) -> list[int]:
    """The tables to start now, in schedule order: each not started yet whose participants all have
    fewer than `most` tables running (counting the ones started here)."""
    busy = Counter(running)
    chosen = []
    for index, table in enumerate(tables):
        if index in started or any(busy[p] >= most for p in table):
            continue
        chosen.append(index)
        busy.update(table)
    return chosen


def pair_counts(tables: Sequence[Table], players: int) -> dict[frozenset[int], tuple[int, int]]:
    """How often each pair of players meets: as partners and as opponents (seats 0+2 and 1+3 are
    partners at four-seat partnership tables; `partners` is 0 elsewhere)."""
    counts = {frozenset(pair): [0, 0] for pair in combinations(range(players), 2)}
    for table in tables:
        mates = set(_partners(table)) if len(table) == 4 else set()
        for pair in combinations(table, 2):
            counts[frozenset(pair)][0 if frozenset(pair) in mates else 1] += 1
    return {pair: (partners, opponents) for pair, (partners, opponents) in counts.items()}

"""A season's schedule: every pair of participants meets as evenly as the seat count allows (a round
robin for two seats, every group once for three or four), partners and opponents within one of each
other for every pair at Duālis's partnership tables, and the waves keep each participant at no more
than K tables at once."""

from __future__ import annotations

from collections import Counter

import pytest

from service.clubs.schedule import next_tables, pair_counts, season_tables

SIZES = [
    (players, seats, partnerships)
    for players in range(2, 9)
    for seats, partnerships in ((2, False), (3, False), (4, False), (4, True))
    if players >= seats
]


def spread(values: list[int]) -> int:
    return max(values) - min(values)


@pytest.mark.parametrize(("players", "seats", "partnerships"), SIZES)
def test_every_pair_meets_as_evenly_as_the_seats_allow(players: int, seats: int, partnerships: bool) -> None:
    tables = season_tables(players, seats, partnerships)
    assert all(len(table) == seats == len(set(table)) for table in tables)
    assert len(set(map(frozenset, tables))) == len(tables)  # no group of players twice
    counts = pair_counts(tables, players)
    assert spread([partners + opponents for partners, opponents in counts.values()]) == 0
    if partnerships:
        assert spread([partners for partners, _ in counts.values()]) <= 1, counts
        assert spread([opponents for _, opponents in counts.values()]) <= 1, counts
    first = Counter(table[0] for table in tables)
    assert spread([first[p] for p in range(players)]) <= 1, first  # who sits first, spread too


def test_the_schedule_is_the_same_each_time() -> None:
    assert season_tables(7, 4, True) == season_tables(7, 4, True)


def test_waves_keep_each_participant_under_k_tables() -> None:
    tables = season_tables(5, 2, False)
    started: set[int] = set()
    running: Counter[int] = Counter()
    waves = []
    while len(started) < len(tables):
        wave = next_tables(tables, started, running, 2)
        assert wave, "the season stalled"
        waves.append(wave)
        for index in wave:
            running.update(tables[index])
        assert max(running.values()) <= 2
        started.update(wave)
        running = Counter()  # the wave's tables end before the next
    assert len(waves) >= len(tables) * 2 // (5 * 2)
    assert next_tables(tables, set(), Counter({0: 2}), 2) == [
        i for i in next_tables(tables, set(), Counter({0: 2}), 2) if 0 not in tables[i]
    ]

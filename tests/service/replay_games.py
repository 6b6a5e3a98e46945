"""Games for the replay tests, built fast: created by the service (invitations and all), then random
legal moves appended to the log the way the worker appends them (action, seat, origin), without a
mail per move. The last move can go through the real service path, for its game-over mail."""

from __future__ import annotations

import random
from typing import Any

from sqlmodel import Session

from service.eventlog.models import EventOrigin, GameStatus
from service.eventlog.store import append_events, load_table
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from service.runtime import Runtime
from tests.service.play import choose

NAMES = ["Ann", "Bo", "Cy", "Di"]
EMAILS = [f"{name.lower()}@example.org" for name in NAMES]


def new_game(
    rt: Runtime, game: str, seats: int, options: dict[str, Any] | None = None, seed: int | None = None
) -> str:
    """A game created through the service, its invitations written."""
    players = [Player(NAMES[i], EMAILS[i]) for i in range(seats)]
    return create_game(rt, game, players, Player("Host", "host@example.org"), options or {}, seed)


def random_move(rules: Any, state: Any, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random seat the game waits on and one of its legal actions (rarely a fold)."""
    seat = rng.choice(sorted(rules.to_act(state)))
    return seat, choose(rng, rules.legal_actions(state, seat))


def add_moves(
    rt: Runtime,
    game_id: str,
    rng: random.Random,
    moves: int | None = None,
    origins: dict[int, str] | None = None,
) -> int:
    """Append `moves` random legal moves (None: to the end); `origins` marks some moves (by their
    index) as not made by hand. Returns the moves made; the game is marked finished if it ended."""
    with Session(rt.engine, expire_on_commit=False) as session:
        table = load_table(session, game_id)
        rules = table.rules
        state, version, made = table.state, table.version, 0
        while rules.result(state) is None and (moves is None or made < moves):
            seat, action = random_move(rules, state, rng)
            events = rules.act(state, seat, action)
            origin = (origins or {}).get(made, EventOrigin.PLAYER)
            append_events(session, game_id, version, events, seat, action, origin, now=rt.clock.now())
            for event in events:
                state = rules.apply(state, event)
            version += len(events)
            made += 1
        if rules.result(state) is not None:
            table.record.status = GameStatus.FINISHED
            session.add(table.record)
        session.commit()
    return made


def finish_by_service(rt: Runtime, game_id: str, rng: random.Random) -> None:
    """Play random moves to the end, the very last one through `submit_move` (as a player's POST),
    so that the game-over mails are written."""
    while True:
        table = rt.read_table(game_id)
        rules = table.rules
        seat, action = random_move(rules, table.state, rng)
        events = rules.act(table.state, seat, action)
        after = table.state
        for event in events:
            after = rules.apply(after, event)
        if rules.result(after) is not None:
            outcome = submit_move(rt, game_id, seat, table.version, action)
            assert outcome.status == MoveStatus.ACCEPTED, outcome
            return
        with Session(rt.engine) as session:
            append_events(session, game_id, table.version, events, seat, action, now=rt.clock.now())
            session.commit()

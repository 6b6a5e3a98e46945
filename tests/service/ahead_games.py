"""Games in which a play chosen ahead will be due, found by the rules alone: random legal moves from
a game's opening until a seat that owes no move is offered a situation, and the moves of the others
that make it owe its play; then whether a choice made there fits when it is due, or why not.

A test replays the found moves through the service (the opening appended as the worker appends it,
the last moves submitted), so every game gets the same tests without hand-built deals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlmodel import Session, col, select

from rules.game import Game
from rules.messages import Message, is_message
from rules.shapes import Action
from service.eventlog.models import AheadPlay, EventOrigin
from service.eventlog.store import Table, append_events, load_table
from service.play.hosting import create_game
from service.runtime import Runtime
from tests.helpers import mails, play_path
from tests.service.play import choose
from tests.service.turns import HOST, people

GAMES = {"dualis": 4, "double_side": 3, "dupli": 4, "red_black": 2}
NAMES = ("Ann", "Bo", "Cy", "Di")
MAX_MOVES = 400  # moves tried from the opening before giving up on a seed
MAX_WAIT = 8  # moves of the others a chosen play may wait for


@dataclass(frozen=True)
class AheadCase:
    """A seat's play chosen ahead at version `chosen_at` (after the moves of `opening`), the others'
    moves in `coming` that make the seat owe its play, and what the rules make of it then: the move
    made (`made`) or why it does not fit (`refusal`)."""

    seat: int
    situation: str
    action: Action
    opening: list[tuple[int, Action]]
    coming: list[tuple[int, Action]]
    made: Action | None
    refusal: Message | None
    by_hand: Action  # another legal play of the seat when its play is due


def after(rules: Game, state: Any, seat: int, action: Action) -> Any:
    """The state after one move."""
    for event in rules.act(state, seat, action):
        state = rules.apply(state, event)
    return state


def cases_from(rules: Game, state: Any, seat: int, rng: random.Random) -> Iterator[AheadCase]:
    """Every play the seat may choose now whose due moment comes within MAX_WAIT random moves of the
    others (found on one random path), fitting or not, with an empty opening."""
    offered = [
        (situation, rules.ahead.target(state, seat, situation), action)
        for situation in rules.ahead.situations(state, seat)
        for action, _ in rules.ahead.choices(state, seat, situation)
    ]
    if not offered:
        return
    coming: list[tuple[int, Action]] = []
    for _ in range(MAX_WAIT):
        movers = sorted(rules.to_act(state) - {seat})
        if not movers or rules.result(state) is not None:
            return
        mover = rng.choice(movers)
        move = choose(rng, [a for a in rules.legal_actions(state, mover) if "fold" not in a] or [{}])
        if not move:
            return
        coming.append((mover, move))
        state = after(rules, state, mover, move)
        if rules.result(state) is not None:
            return
        owed = rules.ahead.owed(state, seat)
        if seat in rules.to_act(state):
            if owed is None:
                return
            yield from due_cases(rules, state, seat, owed, offered, coming)
            return


def due_cases(
    rules: Game,
    state: Any,
    seat: int,
    owed: str,
    offered: list[tuple[str, tuple[str, int | None], Action]],
    coming: list[tuple[int, Action]],
) -> Iterator[AheadCase]:
    """The offered plays that the seat's owed play in situation `owed` uses up, each judged (those
    for the trick after wait for a later play)."""
    legal = rules.legal_actions(state, seat)
    for situation, (as_owed, number), action in offered:
        if not rules.ahead.answers_owed(state, seat, as_owed, number):
            continue
        made = rules.ahead.play(state, seat, {as_owed: action})
        fits = not is_message(made)
        others = [a for a in legal if a != made and "fold" not in a]
        if not others:
            continue
        yield AheadCase(
            seat,
            situation,
            action,
            [],
            list(coming),
            made if fits else None,  # type: ignore[arg-type]
            None if fits else made,  # type: ignore[arg-type]
            others[0],
        )


def find_case(rules: Game, state: Any, seats: int, seed: int, fits: bool) -> AheadCase:
    """A case whose chosen play fits (or not), on a random path from `state` of a game of `seats`."""
    rng = random.Random(seed)
    opening: list[tuple[int, Action]] = []
    for _ in range(MAX_MOVES):
        if rules.result(state) is not None:
            break
        waiting = rules.to_act(state)
        for seat in sorted(set(range(seats)) - waiting):
            for case in cases_from(rules, state, seat, random.Random(rng.random())):
                if (case.made is not None) == fits:
                    return AheadCase(**{**case.__dict__, "opening": list(opening)})
        mover = rng.choice(sorted(waiting))
        move = choose(rng, rules.legal_actions(state, mover))
        opening.append((mover, move))
        state = after(rules, state, mover, move)
    raise LookupError(f"no case found for {rules.name} from seed {seed}")


def append_opening(rt: Runtime, game_id: str, opening: list[tuple[int, Action]]) -> None:
    """The opening moves appended as the worker appends them (no mails: they are not tested)."""
    with Session(rt.engine) as session:
        table = load_table(session, game_id)
        state, version = table.state, table.version
        for seat, action in opening:
            events = table.rules.act(state, seat, action)
            append_events(
                session, game_id, version, events, seat, action, EventOrigin.PLAYER, now=rt.clock.now()
            )
            for event in events:
                state = table.rules.apply(state, event)
            version += len(events)
        session.commit()


def email(seat: int) -> str:
    return f"{NAMES[seat].lower()}@example.org"


def game_with_case(app: Flask, game: str, fits: bool = True) -> tuple[str, list[str], AheadCase]:
    """A new game (the first seed that has a case), its seats' links and the case."""
    rt = app.extensions["pbem"]
    seats = GAMES[game]
    for seed in range(1, 30):
        game_id = create_game(rt, game, people(*NAMES[:seats]), HOST, options={}, seed=seed)
        table = rt.read_table(game_id)
        try:
            case = find_case(table.rules, table.state, seats, seed, fits)
        except LookupError:
            continue
        links = [play_path(mails(app, to=email(seat), kind="invitation")[-1]) for seat in range(seats)]
        append_opening(rt, game_id, case.opening)
        return game_id, links, case
    raise AssertionError(f"no {game} game has a case")


def chosen(case: AheadCase, action: Action | None = None) -> list[dict[str, Any]]:
    return [{"situation": case.situation, "action": action or case.action}]


def rows(app: Flask, game_id: str) -> list[AheadPlay]:
    with Session(app.extensions["pbem"].engine) as session:
        query = select(AheadPlay).where(AheadPlay.game_id == game_id).order_by(col(AheadPlay.id))
        return list(session.exec(query).all())


def moves_of(table: Table, seat: int, since: int) -> list[tuple[int, Action, str]]:
    """The seat's moves after version `since`: (index, action, origin)."""
    return [
        (i, table.actions[i], table.origins[i])
        for i in range(since, table.version)
        if table.starts_move(i) and table.actors[i] == seat
    ]

"""Double Side Play as each seat sees it: the view (built for a replay's step by the window it is
seen through), everything face up, and a seat's view dealt again for the search bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from rules.determinize import TrickTable, deal_trick_round, new_seed
from rules.double_side.cards import (
    BLACK,
    COLOUR_NAMES,
    DECK,
    MUST_FOLLOW_COLOUR,
    NAME,
    POINTS_TO_WIN,
    TRICKS_PER_ROUND,
    TURN_OVER_AFTER,
    ZERO_DIE,
    card_info,
    colour,
    side_of_trick,
    sort_key,
    targets,
)
from rules.double_side.state import RoundRecord, State, led_colour, playable_cards, record_json
from rules.rng import SeededRandom
from rules.tricks.play import CompletedTrick, Play, shown_tricks
from rules.tricks.replay import TrickWindow, face_down_play

if TYPE_CHECKING:
    from rules.double_side.play import DoubleSide


class DoubleSideView(TypedDict):
    """The shape of every Double Side Play view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    to_act: list[Any]
    phase: str
    round: int
    trick_number: int | None
    side: str
    turned_over: bool
    turn: int | None
    options: dict[str, Any]
    trump: str | None
    trump_chooser: int | None
    trump_chooser_reason: str | None
    choosing_trump: int | None
    leader: int
    leader_reason: str
    players: list[Any]
    points: list[Any]
    points_to_win: int
    hand: list[Any]
    hands: list[Any] | None
    current_trick: dict[str, Any] | None
    last_trick: dict[str, Any] | None
    previous_round: dict[str, Any] | None  # until a trick of the new round is won: the round before
    tricks: list[Any]
    set_aside_count: int
    set_aside: list[Any] | None
    history: list[Any]
    winners: list[Any] | None
    colour_names: dict[str, Any]
    goal: dict[str, Any]  # points to win, tricks per round, the trick after which hands turn over, the 0 die
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


def view(game: DoubleSide, state: State, seat: int | None, as_of: State) -> dict[str, Any]:
    """What `seat` may see (None: a spectator): own hand, public dice, tricks and scores, each
    trick's cards only where the window seen from `as_of` shows them (a replay's step hides the tricks face
    down since)."""
    window = game.window(as_of)
    if seat is not None and not (type(seat) is int and 0 <= seat < state.seats):
        raise ValueError(f"there is no seat {seat!r}")
    over = state.phase == "over"
    side = state.side
    on_table = window.shows(state.round, state.trick_number) or not state.trick
    return {
        "game": NAME,
        "seat": seat,
        "to_act": sorted(game.to_act(state)),
        "phase": state.phase,
        "round": state.round,
        "trick_number": state.trick_number if state.trick_number <= TRICKS_PER_ROUND else None,
        "side": side,
        "turned_over": state.turned,
        "turn": state.turn if state.phase == "play" else None,
        "options": {"trump": state.trump_option, "open_history": state.open_history},
        "trump": state.trump,
        "trump_chooser": state.chooser,
        "trump_chooser_reason": state.chooser_reason,
        "choosing_trump": state.chooser if state.phase == "trump" else None,
        "leader": state.leader,
        "leader_reason": state.leader_reason,
        "players": [player_view(state, s) for s in range(state.seats)],
        "points": list(state.points),
        "points_to_win": POINTS_TO_WIN,
        "goal": {
            "points_to_win": POINTS_TO_WIN,
            "tricks_per_round": TRICKS_PER_ROUND,
            "turn_over_after": TURN_OVER_AFTER,
            "zero_die": ZERO_DIE,
        },
        # Which cards may follow would tell a face-down led colour.
        "hand": hand_view(game, state, seat, on_table) if seat is not None else [],
        "hands": [sorted(h, key=sort_key(side)) for h in state.hands] if over else None,
        "current_trick": current_trick_view(state, on_table),
        "last_trick": trick_view(state.completed[-1], state.trump, state.round, window)
        if state.completed
        else None,
        "previous_round": previous_round(state, window),
        "tricks": [
            trick_view(t, state.trump, state.round, window)
            for t in shown_tricks(state.completed, state.open_history, over)
        ],
        "set_aside_count": len(state.set_aside),
        "set_aside": sorted(state.set_aside, key=sort_key(BLACK)) if over else None,
        "history": [record_json(r, over) for r in state.history],
        "winners": list(state.winners) if state.winners is not None else None,
        "colour_names": dict(COLOUR_NAMES),
    }


def player_view(state: State, seat: int) -> dict[str, Any]:
    """One seat's public line: dice (and re-rolls), targets, tricks, on target, points, cards left."""
    dice = list(state.dice[seat]) if state.dice else []
    tricks = state.tricks_won[seat] if state.tricks_won else 0
    return {
        "seat": seat,
        "dice": dice,
        "rolls": [list(r) for r in state.rolls[seat]] if state.rolls else [],
        "targets": targets(dice),
        "tricks": tricks,
        "on_target": bool(dice) and tricks in targets(dice),
        "points": state.points[seat],
        "cards": len(state.hands[seat]) if state.hands else 0,
    }


def hand_view(game: DoubleSide, state: State, seat: int, on_table: bool) -> list[dict[str, Any]]:
    """The seat's own cards in hand order, each with both numbers, whether it may be played and, on
    the seat's turn, why not; unmarked while the trick on the table is face down."""
    side = state.side
    may = set(playable_cards(state, seat)) if seat in game.to_act(state) and state.phase == "play" else set()
    hand = sorted(state.hands[seat], key=sort_key(side)) if state.hands else []
    why_not = MUST_FOLLOW_COLOUR if may else None
    if not on_table:
        return [{**card_info(card, side), "playable": None, "why_not": None} for card in hand]
    return [
        {**card_info(card, side), "playable": card in may, "why_not": None if card in may else why_not}
        for card in hand
    ]


def current_trick_view(state: State, shown: bool) -> dict[str, Any] | None:
    """The trick on the table: number, leader, led colour and the plays so far (face down unless
    `shown`); None between rounds."""
    if state.trick_number > TRICKS_PER_ROUND or state.phase not in ("trump", "play"):
        return None
    leader = state.trick[0].seat if state.trick else state.turn
    side = state.side
    return {
        "number": state.trick_number,
        "leader": leader,
        "led": led_colour(state) if shown else None,
        "side": side,
        "plays": [
            {"seat": p.seat, **card_info(p.card, side)} if shown else face_down_play(p.seat)
            for p in state.trick
        ],
    }


def previous_round(state: State, window: TrickWindow) -> dict[str, Any] | None:
    """The round before, its score-sheet line and last trick, while the new round has no trick
    won yet."""
    if state.completed or state.previous_trick is None or state.phase == "over":
        return None
    record = state.history[-1]
    return {
        "result": record_json(record, False),
        "last_trick": trick_view(state.previous_trick, record.trump, state.round - 1, window),
    }


def trick_view(
    trick: CompletedTrick[Play], trump: str | None, round_: int, window: TrickWindow
) -> dict[str, Any]:
    """A completed trick with its winner and why: the side, the led colour and any trump; where
    `window` hides it face down, its number, leader, winner and the round's trump, no card and
    nothing the cards decided."""
    side = side_of_trick(trick.number)
    win = next(p.card for p in trick.plays if p.seat == trick.winner)
    shown = {
        "number": trick.number,
        "leader": trick.plays[0].seat,
        "side": side,
        "led": colour(trick.plays[0].card),
        "trump": trump,
        "by_trump": colour(win) == trump,
        "winner": trick.winner,
        "winning_card": card_info(win, side),
        "plays": [{"seat": p.seat, **card_info(p.card, side)} for p in trick.plays],
    }
    if window.shows(round_, trick.number):
        return shown
    plays = [face_down_play(p.seat) for p in trick.plays]
    return {**shown, "led": None, "by_trump": None, "winning_card": None, "plays": plays}


def open_view(game: DoubleSide, state: State) -> dict[str, Any]:
    """The public view with every hand, the set-aside cards and every trick of the round."""
    view = game.view(state, None)
    view["tricks"] = [trick_view(t, state.trump, state.round, TrickWindow(True)) for t in state.completed]
    view["hands"] = [sorted(h, key=sort_key(state.side)) for h in state.hands]
    view["set_aside"] = sorted(state.set_aside, key=sort_key(BLACK))
    return view


def dealt_again(view: Mapping[str, Any], rng: SeededRandom) -> State:
    """The view's round with the unseen cards dealt again over the other hands, the set-aside
    cards and the tricks lying face down; dice, trump and scores as the view shows them."""
    players, current = view["players"], view["current_trick"]
    seats = len(players)
    shown = [trick_from_json(t) for t in view["tricks"]]
    trick = tuple(Play(seat=p["seat"], card=p["card"]) for p in current["plays"])
    face_down = current["number"] - 1 - len(shown)
    table = TrickTable(
        deck=DECK,
        seat=view["seat"],
        hand=[c["card"] for c in view["hand"]],
        hand_counts=[p["cards"] for p in players],
        set_aside=view["set_aside_count"],
        shown=[[(p.seat, p.card) for p in t.plays] for t in shown] + [[(p.seat, p.card) for p in trick]],
        face_down=face_down,
        hidden_wins=[p["tricks"] - sum(t.winner == p["seat"] for t in shown) for p in players],
    )
    deal = deal_trick_round(table, colour, rng)
    hidden = tuple(
        CompletedTrick(n, tuple(Play(seat=s, card=c) for s, c in enumerate(cards)), winner)
        for n, (cards, winner) in enumerate(zip(deal.face_down, deal.winners, strict=True), start=1)
    )
    previous = view["previous_round"]
    return State(
        seed=new_seed(rng),
        seats=seats,
        trump_option=view["options"]["trump"],
        open_history=view["options"]["open_history"],
        decks=(),
        fixed_dice=(),
        round=view["round"],
        phase=view["phase"],
        hands=deal.hands,
        set_aside=deal.set_aside,
        rolls=tuple(tuple((a, b) for a, b in p["rolls"]) for p in players),
        dice=tuple((p["dice"][0], p["dice"][1]) for p in players),
        leader=view["leader"],
        leader_reason=view["leader_reason"],
        chooser=view["trump_chooser"],
        chooser_reason=view["trump_chooser_reason"],
        trump=view["trump"],
        turned=view["turned_over"],
        turn=view["turn"] if view["phase"] == "play" else current["leader"],
        trick_number=current["number"],
        trick=trick,
        completed=(*hidden, *shown),
        previous_trick=trick_from_json(previous["last_trick"]) if previous else None,
        tricks_won=tuple(p["tricks"] for p in players),
        points=tuple(view["points"]),
        history=tuple(record_from_json(r) for r in view["history"]),
    )


def trick_from_json(trick: Mapping[str, Any]) -> CompletedTrick[Play]:
    """A completed trick from its JSON (`_trick_view`)."""
    plays = tuple(Play(seat=p["seat"], card=p["card"]) for p in trick["plays"])
    return CompletedTrick(trick["number"], plays, trick["winner"])


def record_from_json(record: Mapping[str, Any]) -> RoundRecord:
    """A score-sheet line from its JSON (`_record_view`) while the game runs: the cards set aside
    then are not shown, and nothing ahead depends on them."""
    return RoundRecord(
        number=record["round"],
        dice=tuple((a, b) for a, b in record["dice"]),
        tricks=tuple(record["tricks"]),
        scorers=tuple(record["scorers"]),
        points=tuple(record["points"]),
        trump=record["trump"],
        set_aside=(),
    )

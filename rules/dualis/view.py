"""Duālis as each seat sees it: the view (built for a replay's step by the window it is seen
through), everything face up, and a seat's view dealt again for the search bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from rules.determinize import TrickTable, deal_trick_round, new_seed
from rules.dualis.cards import (
    BOOL_OPTIONS,
    CARD_INFO,
    CARDS,
    COINS,
    HAND_SIZE,
    ISO_GAP,
    ISO_ROUNDS,
    MUST_FOLLOW,
    NAME,
    OPPOSITE,
    SHORT_COINS,
    SHORT_HAND_SIZE,
    SUITS,
    WINS_NEEDED,
    PlayedCard,
    SettledTrick,
    score_round,
    sort_cards,
    suit_of,
    trick_outcome,
    trump_colour,
)
from rules.dualis.state import (
    RoundResult,
    State,
    as_tuple,
    coin_left,
    face_down_trick,
    led_suit,
    match_scores,
    play_json,
    playable_cards,
    played_from_json,
    round_json,
    scoring_sides,
    settled_from_json,
    settled_json,
    side_of,
)
from rules.rng import SeededRandom
from rules.tricks.play import seat_order, shown_tricks
from rules.tricks.replay import TrickWindow, face_down_play

if TYPE_CHECKING:
    from rules.dualis.play import Dualis


class DualisView(TypedDict):
    """The shape of every Duālis view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    seats: int
    to_act: list[Any]
    phase: str
    round: int
    mode: str
    options: dict[str, Any]
    tricks_per_round: int
    coins_per_colour: int
    centre: dict[str, Any]
    trump_now: str | None
    leader: int
    trick: dict[str, Any]
    last_trick: dict[str, Any] | None
    previous_round: dict[str, Any] | None  # until a trick of the new round is won: the round before
    history: list[Any]
    players: list[Any]
    sides: list[Any]
    scores: list[Any]
    rounds: list[Any]
    hand: list[Any] | None
    hand_by_suit: list[Any] | None
    choices: list[Any]
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]
    set_aside: NotRequired[list[Any]]
    goal: dict[str, Any]  # rounds to win (partnerships); Iso Play's end: rounds and the gap between totals
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


def view(game: Dualis, state: State, seat: int | None, as_of: State) -> dict[str, Any]:
    """What `seat` may see: public table information plus its own hand and choices, each trick's
    cards only where the window seen from `as_of` shows them (a replay's step hides the tricks face
    down since)."""
    window = game.window(as_of)
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.seats):
        raise ValueError(f"no seat {seat!r} in this game")
    over = state.winners is not None
    on_table = window.shows(state.round, len(state.completed) + 1) or not state.trick
    view: dict[str, Any] = {
        "game": NAME,
        "seat": seat,
        "seats": state.seats,
        "to_act": sorted(game.to_act(state)),
        "phase": "over" if over else "play" if state.round else "start",
        "round": state.round,
        "mode": "iso" if state.iso else "partnership",
        "options": {key: getattr(state, key) for key in BOOL_OPTIONS},
        "tricks_per_round": SHORT_HAND_SIZE if state.short else HAND_SIZE,
        "goal": {"rounds_to_win": WINS_NEEDED, "iso_rounds": ISO_ROUNDS, "iso_gap": ISO_GAP},
        "coins_per_colour": SHORT_COINS if state.short else COINS,
        "centre": {"R": state.centre[0], "B": state.centre[1]},
        "trump_now": trump_colour(state.centre),
        "leader": state.leader,
        "trick": trick_view(state, on_table),
        "last_trick": settled_view(state.completed[-1], state.round, window) if state.completed else None,
        "previous_round": previous_round(state, window),
        "history": [
            settled_view(t, state.round, window)
            for t in shown_tricks(state.completed, state.open_history, over)
        ],
        "players": players_view(state),
        "sides": sides_view(state),
        "scores": match_scores(state),
        "rounds": [round_json(r) for r in state.results],
        "hand": None,
        "hand_by_suit": None,
        "choices": [],
        "result": game.result(state),
    }
    if seat is not None:
        view["hand"] = list(state.hands[seat])
        # What may be played, and what would win, would tell of a face-down trick's cards.
        view["hand_by_suit"] = hand_view(state, seat, on_table)
        view["choices"] = choices(game, state, seat) if on_table else []
    if over:
        view["hands"] = [list(h) for h in state.hands]
        view["set_aside"] = list(state.set_aside)
    return view


def settled_view(trick: SettledTrick, round_: int, window: TrickWindow) -> dict[str, Any]:
    """A settled trick as a page shows it: face up, or where `window` hides it face down (its number,
    winner and the centre it ended with, public; no card and nothing the cards decided)."""
    if window.shows(round_, trick.number):
        return settled_json(trick)
    hidden = {"card": None, "led_suit": None, "direction": None, "reason": None}
    return {**settled_json(trick), **hidden, "plays": [face_down_play(p.seat) for p in trick.plays]}


def previous_round(state: State, window: TrickWindow) -> dict[str, Any] | None:
    """The round before, its score and last trick, while the new round has no trick won yet."""
    if state.completed or state.previous_trick is None or state.winners is not None:
        return None
    last = settled_view(state.previous_trick, state.round - 1, window)
    return {"result": round_json(state.results[-1]), "last_trick": last}


def trick_view(state: State, shown: bool) -> dict[str, Any]:
    """The trick in progress in playing order, who is still to play and who leads it now; unless
    `shown`, its cards face down and nothing they decide."""
    winning = trick_outcome(state.trick, state.centre, state.high_low) if state.trick and shown else None
    played = len(state.trick)
    return {
        "number": len(state.completed) + 1,
        "leader": state.leader,
        "led_suit": led_suit(state) if shown else None,
        "direction": winning.direction if winning else None,
        "plays": [play_json(p) if shown else face_down_play(p.seat) for p in state.trick],
        "to_play": [] if state.winners is not None else seat_order(state.leader, state.seats)[played:],
        "winning_now": {"seat": winning.winner, "card": winning.card} if winning else None,
    }


def players_view(state: State) -> list[dict[str, Any]]:
    """Per seat: its side, tricks won, coins taken (by colour) and cards left in hand."""
    return [
        {
            "seat": seat,
            "side": side_of(state, seat),
            "tricks": state.won[seat],
            "coins": sum(state.coins[seat]),
            "coins_by_colour": {"R": state.coins[seat][0], "B": state.coins[seat][1]},
            "hand_count": len(state.hands[seat]),
        }
        for seat in range(state.seats)
    ]


def sides_view(state: State) -> list[dict[str, Any]]:
    """Per side: seats, tricks, coins, the score if the round ended now and the match score."""
    seat_coins = [sum(c) for c in state.coins]
    scoring = scoring_sides(state)
    tricks, coins, scores, _ = score_round(scoring, state.won, seat_coins, state.iso)
    match = match_scores(state)
    return [
        {
            "side": i,
            "seats": list(side),
            "tricks": tricks[i],
            "coins": coins[i],
            "score_now": scores[i],
            "round_wins": None if state.iso else match[i],
            "total": match[i] if state.iso else None,
        }
        for i, side in enumerate(scoring)
    ]


def hand_view(state: State, seat: int, on_table: bool) -> list[dict[str, Any]]:
    """The seat's hand grouped by suit (Stars, then Moons), marking the playable cards and, on the
    seat's turn, why a card may not be played; unmarked while the trick on the table is face down."""
    legal = set(playable_cards(state, seat))
    led = led_suit(state)
    why_not = MUST_FOLLOW[led] if legal and led else None
    groups = []
    for suit in SUITS:
        cards = [
            {
                "card": card,
                "suit": suit,
                "number": CARD_INFO[card][1],
                "colour": CARD_INFO[card][2],
                "playable": card in legal if on_table else None,
                "coin_possible": card in legal and coin_left(state, card) if on_table else None,
                "why_not": (None if card in legal else why_not) if on_table else None,
            }
            for card in state.hands[seat]
            if suit_of(card) == suit
        ]
        groups.append({"suit": suit, "cards": cards})
    return groups


def choices(game: Dualis, state: State, seat: int) -> list[dict[str, Any]]:
    """Each legal action of the seat with what it would do: the card's colour, the centre
    after it, the trump that centre makes, the trick's direction and whether it would win if
    the trick ended now."""
    out = []
    for action in game.legal_actions(state, seat):
        card, coin = action["card"], action.get("coin", False)
        colour = OPPOSITE[CARD_INFO[card][2]] if coin else CARD_INFO[card][2]
        red, blue = state.centre
        if coin:
            red, blue = (red - 1, blue) if colour == "R" else (red, blue - 1)
        play = PlayedCard(seat=seat, card=card, coin=coin, colour=colour)
        outcome = trick_outcome((*state.trick, play), (red, blue), state.high_low)
        out.append(
            {
                "card": card,
                "coin": coin,
                "suit": CARD_INFO[card][0],
                "number": CARD_INFO[card][1],
                "printed_colour": CARD_INFO[card][2],
                "effective_colour": colour,
                "centre_after": {"R": red, "B": blue},
                "trump_now": outcome.trump,
                "direction": outcome.direction,
                "wins_now": outcome.winner == seat,
            }
        )
    return out


def open_view(game: Dualis, state: State) -> dict[str, Any]:
    """The public view with every hand, the set-aside cards and every trick of the round."""
    view = game.view(state, None)
    view["history"] = [settled_json(t) for t in state.completed]
    view["hands"] = [list(h) for h in state.hands]
    view["set_aside"] = list(state.set_aside)
    return view


def dealt_again(view: Mapping[str, Any], rng: SeededRandom) -> State:
    """The view's round with the unseen cards dealt again over the other hands, the set-aside
    cards and the tricks lying face down; the public table as the view shows it."""
    seats, options, players = view["seats"], view["options"], view["players"]
    shown = [settled_from_json(t) for t in view["history"]]
    trick = tuple(played_from_json(p) for p in view["trick"]["plays"])
    face_down = view["trick"]["number"] - 1 - len(shown)
    table = TrickTable(
        deck=CARDS,
        seat=view["seat"],
        hand=view["hand"],
        hand_counts=[p["hand_count"] for p in players],
        set_aside=len(CARDS) - seats * view["tricks_per_round"],
        shown=[[(p.seat, p.card) for p in t.plays] for t in shown] + [[(p.seat, p.card) for p in trick]],
        face_down=face_down,
        hidden_wins=[p["tricks"] - sum(t.winner == p["seat"] for t in shown) for p in players],
    )
    deal = deal_trick_round(table, suit_of, rng)
    hidden = tuple(
        face_down_trick(number, cards, winner)
        for number, (cards, winner) in enumerate(zip(deal.face_down, deal.winners, strict=True), start=1)
    )
    previous = view["previous_round"]
    return State(
        seed=new_seed(rng),
        seats=seats,
        short=options["short"],
        high_low=options["high_low"],
        iso=options["iso"],
        open_history=options["open_history"],
        decks=(),
        round=view["round"],
        hands=tuple(tuple(sort_cards(h)) for h in deal.hands),
        set_aside=tuple(sort_cards(deal.set_aside)),
        centre=(view["centre"]["R"], view["centre"]["B"]),
        coins=tuple((p["coins_by_colour"]["R"], p["coins_by_colour"]["B"]) for p in players),
        won=tuple(p["tricks"] for p in players),
        leader=view["leader"],
        trick=trick,
        completed=(*hidden, *shown),
        previous_trick=settled_from_json(previous["last_trick"]) if previous else None,
        results=tuple(RoundResult(**{k: as_tuple(v) for k, v in r.items()}) for r in view["rounds"]),
    )

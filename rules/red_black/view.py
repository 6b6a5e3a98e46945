"""Red and Black Duel as each seat sees it: chips, its own hand and camp card, the comparisons so
far, everything face up once over; and a seat's view dealt again for the search bots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from rules.determinize import Place, deal_hidden, new_seed, unseen
from rules.red_black.cards import BANKRUPT, DECK, SEATS, SUITS, TARGET, TO_WIN, by_strength, colour_of
from rules.red_black.state import Comparison, Outcome, State, put
from rules.rng import SeededRandom

if TYPE_CHECKING:
    from rules.red_black.play import RedBlackDuel


class RedBlackDuelView(TypedDict):
    """The shape of every Red and Black Duel view (`view`, `open_view`), which the table templates and
    the JSON API read: one declared shape. Nested parts are plain JSON."""

    seat: int | None
    phase: str
    round: int
    to_act: list[Any]
    chips: list[Any]
    pot: int
    hand: list[Any] | None
    hand_counts: list[Any]
    camp_cards: list[Any]
    camps: list[Any]
    placed: list[Any]
    face_down: str | None
    leader: int | None
    plays: list[Any]
    last_play: dict[str, Any] | None
    stack: list[Any]
    counts: dict[str, Any]
    deck_number: int
    deck_left: int
    discards: int
    last_round: dict[str, Any] | None
    previous_play: dict[str, Any] | None  # until a comparison of the new round: the round before's last
    rounds: list[Any]
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]  # open_view only
    table_cards: NotRequired[list[Any]]  # open_view only
    # chips that win, chips that bankrupt, winners of one colour that end a round, suits strongest first
    goal: dict[str, Any]
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


def view(game: RedBlackDuel, state: State, seat: int | None, as_of: State | None = None) -> dict[str, Any]:
    """Everything this seat may know, as plain JSON (seat None: public information only); the same
    seen from any later state `as_of`: Red and Black Duel never hides again what it once showed."""
    me = seat if seat in SEATS else None
    revealed = state.camps[0] is not None
    over = state.phase == "over"
    camp_cards = [c if revealed or s == me or over else None for s, c in enumerate(state.camp_cards)]
    waiting = state.camp_cards if state.phase == "camp" else state.table
    face_down = None if me is None else waiting[me]
    plays = [_play_json(c) for c in state.plays]
    return {
        "seat": me,
        "phase": state.phase,
        "round": state.round,
        "to_act": sorted(game.to_act(state)),
        "chips": list(state.chips),
        "pot": state.pot,
        "hand": None if me is None else by_strength(state.hands[me]),
        "hand_counts": [len(h) for h in state.hands],
        "camp_cards": camp_cards,
        "camps": list(state.camps),
        "placed": [c is not None for c in waiting],
        "face_down": face_down,
        "leader": state.leader if state.phase == "play" else None,
        "plays": plays,
        "last_play": plays[-1] if plays else None,
        "stack": state.stack(),
        "counts": state.counts(),
        "deck_number": state.deck_number,
        "goal": {
            "chips_to_win": TARGET,
            "bankrupt_at": BANKRUPT,
            "colours_to_win": TO_WIN,
            "suit_order": list(reversed(SUITS)),
        },
        "deck_left": len(state.pile),
        "discards": len(state.discards),
        "last_round": _outcome_json(state.outcomes[-1]) if state.outcomes else None,
        "previous_play": _previous_play(state),
        "rounds": [_outcome_json(o) for o in state.outcomes],
        "result": game.result(state),
    }


def open_view(game: RedBlackDuel, state: State) -> dict[str, Any]:
    """The public view with both hands, both camp cards and both face-down cards on the table."""
    view = game.view(state, None)
    view["hands"] = [by_strength(hand) for hand in state.hands]
    view["camp_cards"] = list(state.camp_cards)
    view["table_cards"] = list(state.table)
    return view


def dealt_again(view: Mapping[str, Any], rng: SeededRandom) -> State:
    """The view's round with the unseen cards dealt again over the other hand, its face-down
    card, the draw pile and the discards (the last comparison of the round before lies among
    the discards unless a shuffle since took every card back)."""
    me, phase = view["seat"], view["phase"]
    other = 1 - me
    camp = view["camp_cards"]
    plays = tuple(comparison_from_json(p) for p in view["plays"])
    mine_down = view["face_down"] if phase == "play" else None
    previous = view["previous_play"]
    known_discards = list(previous["cards"]) if previous and view["discards"] else []
    seen = [*(c for c in camp if c), *(c for p in plays for c in p.cards), *known_discards]
    cards = unseen(DECK, view["hand"], [mine_down] if mine_down else [], seen)
    other_down = view["placed"][other] and (phase == "play" or camp[other] is None)
    places = [
        Place("hand", view["hand_counts"][other]),
        Place("down", int(other_down)),
        Place("pile", view["deck_left"]),
        Place("discards", view["discards"] - len(known_discards)),
    ]
    dealt = deal_hidden(cards, places, lambda card: "card", rng)
    hands = put(((), ()), me, tuple(view["hand"]))
    hands = put(hands, other, tuple(dealt["hand"]))
    down = dealt["down"][0] if dealt["down"] else None
    table = put(put((None, None), me, mine_down), other, down if phase == "play" else None)
    camp_cards = put(
        put(tuple(camp), other, camp[other] or (down if phase == "camp" else None)), me, camp[me]
    )
    return State(
        seed=new_seed(rng),
        decks=(),
        deck_number=view["deck_number"],
        pile=tuple(dealt["pile"]),
        discards=(*known_discards, *dealt["discards"]),
        round=view["round"],
        phase=phase,
        chips=(view["chips"][0], view["chips"][1]),
        pot=view["pot"],
        hands=hands,
        camp_cards=camp_cards,
        camps=(view["camps"][0], view["camps"][1]),
        leader=view["leader"],
        table=table,
        plays=plays,
        outcomes=outcomes_from_json(view["rounds"], previous),
    )


def _play_json(play: Comparison) -> dict[str, Any]:
    """A settled comparison for a page."""
    win = play.winning_card()
    return {
        "number": play.number,
        "leader": play.leader,
        "cards": list(play.cards),
        "winner": play.winner,
        "winning_card": win,
        "losing_card": play.cards[1 - play.winner],
        "reason": play.reason,
        "colour": colour_of(win),
    }


def comparison_from_json(play: Mapping[str, Any]) -> Comparison:
    """A settled comparison from its JSON (`_play_json`)."""
    first, second = play["cards"]
    return Comparison(play["number"], play["leader"], (first, second), play["winner"], play["reason"])


def outcomes_from_json(
    rounds: Sequence[Mapping[str, Any]], previous: Mapping[str, Any] | None
) -> tuple[Outcome, ...]:
    """The finished rounds from their JSON (`_outcome_json`); the last one's last comparison when the
    view shows it (earlier ones no view shows, and nothing ahead depends on them)."""
    outcomes = [
        Outcome(r["round"], r["winner"], r["how"], r["colour"], r["folder"], r["pot"], None) for r in rounds
    ]
    if outcomes and previous:
        outcomes[-1] = replace(outcomes[-1], last_play=comparison_from_json(previous))
    return tuple(outcomes)


def _previous_play(state: State) -> dict[str, Any] | None:
    """The last comparison of the round before (face up when made), until one of this round is
    settled; None once the game is over."""
    if state.plays or not state.outcomes or state.phase == "over":
        return None
    last = state.outcomes[-1].last_play
    return _play_json(last) if last else None


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    """A finished round for a page."""
    return {
        "round": outcome.round,
        "winner": outcome.winner,
        "how": outcome.how,
        "colour": outcome.colour,
        "folder": outcome.folder,
        "pot": outcome.pot,
    }

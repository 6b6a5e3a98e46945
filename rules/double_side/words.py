"""Double Side Play in words: each event told to the players (deals show dice and leaders only,
never a hand or a set-aside card), and the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.double_side.cards import COLOUR_NAMES, POINTS_TO_WIN, card_name
from rules.double_side.state import State
from rules.game import Event, ScoreRow, ScoreSheet, Teller
from rules.messages import N_, Message, word
from rules.table import name_of


def _join(parts: Sequence[str]) -> str:
    """Items joined with commas."""
    return ", ".join(parts)


def _named_list(names: Sequence[str], seats: Sequence[int], one: str, two: str, many: str) -> Message:
    """A message naming one, two or more players (each count its own msgid for translators)."""
    who = [name_of(names, s) for s in seats]
    if len(who) == 1:
        return one, {"player": who[0]}
    if len(who) == 2:
        return two, {"first": who[0], "second": who[1]}
    return many, {"players": _join(who[:-1]), "last": who[-1]}


def tell_game_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The game's opening line."""
    params = {"count": e["seats"], "points": POINTS_TO_WIN}
    if e["options"]["trump"]:
        return N_(
            "Double Side Play with trump for %(count)s players: first to %(points)s points wins"
        ), params
    return N_("Double Side Play for %(count)s players: first to %(points)s points wins"), params


def tell_round_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal as everyone sees it: the dice, the first leader and any trump chooser."""
    dice = _join([f"{name_of(names, s)} {a}+{b}" for s, (a, b) in enumerate(e["dice"])])
    params = {"round": e["round"], "dice": dice, "leader": name_of(names, e["leader"])}
    if e["trump_chooser"] is None:
        return N_("Round %(round)s dealt; dice: %(dice)s; %(leader)s leads"), params
    params["chooser"] = name_of(names, e["trump_chooser"])
    return N_("Round %(round)s dealt; dice: %(dice)s; %(leader)s leads; %(chooser)s chooses trump"), params


def tell_trump_chosen(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The trump choice."""
    return N_("%(player)s chose %(colour)s as trump"), {
        "player": name_of(names, e["seat"]),
        "colour": word(COLOUR_NAMES[e["trump"]]),
    }


def tell_card_played(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A card played, named by the face in force."""
    return N_("%(player)s played %(card)s"), {
        "player": name_of(names, e["seat"]),
        "card": card_name(e["card"], e["side"]),
    }


def tell_trick_won(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The trick's winner and why: highest of the led colour, or highest trump."""
    params = {
        "player": name_of(names, e["winner"]),
        "trick": e["trick"],
        "card": card_name(e["card"], e["side"]),
        "colour": word(COLOUR_NAMES[e["colour"]]),
    }
    if e["by_trump"]:
        return N_("%(player)s wins trick %(trick)s with %(card)s: highest trump (%(colour)s)"), params
    return N_("%(player)s wins trick %(trick)s with %(card)s: highest %(colour)s"), params


def tell_hands_turned_over(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The hands turned over."""
    return N_("Hands turned over: white numbers from now on"), {}


def tell_round_scored(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Who scored this round, and everyone's points."""
    points = _join([f"{name_of(names, s)} {p}" for s, p in enumerate(e["points"])])
    if not e["scorers"]:
        return N_("Round %(round)s: nobody scores; points %(points)s"), {
            "round": e["round"],
            "points": points,
        }
    msgid, params = _named_list(
        names,
        e["scorers"],
        N_("Round %(round)s: %(player)s scores; points %(points)s"),
        N_("Round %(round)s: %(first)s and %(second)s score; points %(points)s"),
        N_("Round %(round)s: %(players)s and %(last)s score; points %(points)s"),
    )
    return msgid, {**params, "round": e["round"], "points": points}


def tell_game_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The winner(s)."""
    return _named_list(
        names,
        e["winners"],
        N_("%(player)s wins the game"),
        N_("%(first)s and %(second)s share the win"),
        N_("%(players)s and %(last)s share the win"),
    )


TELLERS: Mapping[str, Teller] = {
    "GameStarted": tell_game_started,
    "RoundDealt": tell_round_dealt,
    "TrumpChosen": tell_trump_chosen,
    "CardPlayed": tell_card_played,
    "TrickWon": tell_trick_won,
    "HandsTurnedOver": tell_hands_turned_over,
    "RoundScored": tell_round_scored,
    "GameEnded": tell_game_ended,
}


def score_sheet(state: State) -> ScoreSheet:
    """Per player and round: the dice, the tricks and whether they scored; the points."""
    rows = tuple(
        ScoreRow(
            r.number,
            tuple(
                (
                    N_("dice %(dice)s, tricks %(tricks)s: scores")
                    if seat in r.scorers
                    else N_("dice %(dice)s, tricks %(tricks)s"),
                    {"dice": f"{a}+{b}", "tricks": r.tricks[seat]},
                )
                for seat, (a, b) in enumerate(r.dice)
            ),
            r.scorers,
        )
        for r in state.history
    )
    standing = tuple((N_("points: %(points)s"), {"points": p}) for p in state.points)
    return ScoreSheet(tuple((s,) for s in range(state.seats)), rows, standing)

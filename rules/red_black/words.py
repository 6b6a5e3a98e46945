"""Red and Black Duel in words: each event told to the players (a face-down card only as "played
a card"), the replay's headings and the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.game import START, Event, Heading, ScoreRow, ScoreSheet, Teller
from rules.messages import N_, Message, listing
from rules.red_black.cards import SEATS, START_CHIPS, by_strength, card_name
from rules.red_black.state import Outcome, State
from rules.table import name_of


def tell_game_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The players and their starting chips."""
    return N_("Game started: %(first)s and %(second)s have %(chips)s chips each."), {
        "first": name_of(names, 0),
        "second": name_of(names, 1),
        "chips": START_CHIPS,
    }


def tell_deck_shuffled(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A shuffle, never its order."""
    if e["number"] == 1:
        return N_("The deck is shuffled."), {}
    return N_("New deck shuffled: only 4 cards were left, so all 52 cards are shuffled (deck %(number)s)."), {
        "number": e["number"]
    }


def tell_round_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal; a player also reads their own new hand."""
    if seat in SEATS:
        return N_("Round %(round)s dealt, 6 cards each. Your hand: %(hand)s."), {
            "round": e["round"],
            "hand": listing([card_name(card) for card in by_strength(e["hands"][seat])]),
        }
    return N_("Round %(round)s dealt, 6 cards each."), {"round": e["round"]}


def tell_camp_card_placed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A camp card placed; its face only to its owner."""
    player = name_of(names, e["seat"])
    if seat == e["seat"]:
        return N_("%(player)s placed camp card %(card)s face down."), {
            "player": player,
            "card": card_name(e["card"]),
        }
    return N_("%(player)s placed a camp card face down."), {"player": player}


def tell_camps_revealed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Both camp cards, each camp and who plays first."""
    red = e["camps"].index("red")
    return N_(
        "Camps: %(red)s Red (%(red_card)s), %(black)s Black (%(black_card)s); %(leader)s plays first."
    ), {
        "red": name_of(names, red),
        "red_card": card_name(e["cards"][red]),
        "black": name_of(names, 1 - red),
        "black_card": card_name(e["cards"][1 - red]),
        "leader": name_of(names, e["leader"]),
    }


def tell_pot_set(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The bank's chips in the pot."""
    return N_("The bank puts %(amount)s chips in the pot."), {"amount": e["amount"]}


def tell_card_played(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A card put face down with its fee; its face only to its owner (the reveal follows in PlayWon)."""
    player = name_of(names, e["seat"])
    if seat == e["seat"]:
        return N_("%(player)s put %(card)s face down and paid 1 chip (pot %(pot)s)."), {
            "player": player,
            "card": card_name(e["card"]),
            "pot": e["pot"],
        }
    return N_("%(player)s put a card face down and paid 1 chip (pot %(pot)s)."), {
        "player": player,
        "pot": e["pot"],
    }


def tell_play_won(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Both cards revealed, the winner and why, and the colour count on the stack."""
    lead = e["leader"]
    params = {
        "first": name_of(names, lead),
        "first_card": card_name(e["cards"][lead]),
        "second": name_of(names, 1 - lead),
        "second_card": card_name(e["cards"][1 - lead]),
        "winner": name_of(names, e["winner"]),
        "card": card_name(e["winning_card"]),
        "red": e["counts"]["red"],
        "black": e["counts"]["black"],
    }
    if e["reason"] == "suit":
        return N_(
            "%(first)s played %(first_card)s, %(second)s played %(second_card)s: %(winner)s wins the play "
            "(%(card)s, same rank, stronger suit). Red %(red)s, Black %(black)s."
        ), params
    return N_(
        "%(first)s played %(first_card)s, %(second)s played %(second_card)s: %(winner)s wins the play "
        "(%(card)s is stronger). Red %(red)s, Black %(black)s."
    ), params


def tell_round_won(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Who took the pot, by colour or by the other's fold."""
    params = {"winner": name_of(names, e["winner"]), "pot": e["pot"]}
    if e["how"] == "fold":
        return N_("%(folder)s folded: %(winner)s takes the pot of %(pot)s."), {
            **params,
            "folder": name_of(names, e["folder"]),
        }
    if e["colour"] == "red":
        return N_("Red wins the round with three red cards: %(winner)s takes the pot of %(pot)s."), params
    return N_("Black wins the round with three black cards: %(winner)s takes the pot of %(pot)s."), params


def tell_game_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The final chips and the winner (or the draw)."""
    chips = e["chips"]
    if e["draw"]:
        return N_("Game over: a draw, both players have %(chips)s chips."), {"chips": chips[0]}
    win = e["winners"][0]
    params = {
        "winner": name_of(names, win),
        "loser": name_of(names, 1 - win),
        "winner_chips": chips[win],
        "loser_chips": chips[1 - win],
    }
    if e["bankrupt"]:
        return N_(
            "Game over: %(loser)s is bankrupt with %(loser_chips)s chips; %(winner)s wins with "
            "%(winner_chips)s chips."
        ), params
    return N_("Game over: %(winner)s wins with %(winner_chips)s chips to %(loser_chips)s."), params


TELLERS: Mapping[str, Teller] = {
    "GameStarted": tell_game_started,
    "DeckShuffled": tell_deck_shuffled,
    "RoundDealt": tell_round_dealt,
    "CampCardPlaced": tell_camp_card_placed,
    "CampsRevealed": tell_camps_revealed,
    "PotSet": tell_pot_set,
    "CardPlayed": tell_card_played,
    "PlayWon": tell_play_won,
    "RoundWon": tell_round_won,
    "GameEnded": tell_game_ended,
}


def heading(state: State, event: Event) -> Heading:
    """Start, then each round (from its shuffle or deal) and, inside it, each comparison."""
    kind = event["type"]
    if kind == "GameStarted":
        return START
    round_ = state.round + 1 if kind == "DeckShuffled" else state.round
    title: Message = (N_("Round %(round)s"), {"round": round_})
    if kind == "CardPlayed":
        number = len(state.plays) + 1
    elif kind == "PlayWon":
        number = event["number"]
    else:
        return Heading(round_, title)
    return Heading(round_, title, number, (N_("Comparison %(number)s"), {"number": number}))


def score_sheet(state: State) -> ScoreSheet:
    """Per player and round: who took the pot and how, or folded; the chips now."""
    rows = tuple(
        ScoreRow(o.round, tuple(_outcome_cell(o, seat) for seat in SEATS), (o.winner,))
        for o in state.outcomes
    )
    standing = tuple((N_("%(chips)s chips"), {"chips": chips}) for chips in state.chips)
    return ScoreSheet(tuple((s,) for s in SEATS), rows, standing)


def _outcome_cell(outcome: Outcome, seat: int) -> Message:
    """One seat's score-sheet cell for a finished round."""
    pot = {"pot": outcome.pot}
    if seat != outcome.winner:
        return (N_("folded"), {}) if outcome.how == "fold" else (N_("lost the round"), {})
    if outcome.how == "fold":
        return N_("took the pot of %(pot)s: the other folded"), pot
    if outcome.colour == "red":
        return N_("took the pot of %(pot)s: three red"), pot
    return N_("took the pot of %(pot)s: three black"), pot

"""Duālis in words: each event told to the players (every one is public: deals name only the
leader), and the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.dualis.cards import PARTNERSHIPS, card_name
from rules.dualis.state import State, match_scores, scoring_sides
from rules.game import Event, ScoreRow, ScoreSheet, Teller
from rules.messages import N_, Message, together
from rules.table import name_of


def tell_game_started(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The game begins, naming the partnerships or the players."""
    seats = event["seats"]
    if event["options"].get("iso"):
        players = ", ".join(name_of(names, s) for s in range(seats))
        return N_("A game of Duālis (Iso Play) begins for %(players)s."), {"players": players}
    return N_("A game of Duālis begins: %(team_a)s against %(team_b)s."), {
        "team_a": team_name(names, PARTNERSHIPS[0]),
        "team_b": team_name(names, PARTNERSHIPS[1]),
    }


def tell_round_dealt(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A round is dealt (hands are private, so only the leader is named)."""
    return N_("Round %(round)s is dealt; %(leader)s leads."), {
        "round": event["round"],
        "leader": name_of(names, event["leader"]),
    }


def tell_card_played(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A card played, with its coin and new colour if one was taken."""
    params = {"player": name_of(names, event["seat"]), "card": card_name(event["card"])}
    if not event["coin"]:
        return N_("%(player)s played %(card)s."), params
    if event["colour"] == "R":
        return N_("%(player)s played %(card)s with a coin (now Red)."), params
    return N_("%(player)s played %(card)s with a coin (now Blue)."), params


def tell_trick_won(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Who won the trick, and why: the centre, the trump and the strongest card's kind."""
    params = {
        "player": name_of(names, event["winner"]),
        "trick": event["trick"],
        "card": winning_card_name(event),
        "red": event["centre"]["R"],
        "blue": event["centre"]["B"],
    }
    return TRICK_WON_LINES[(event["trump"], event["reason"], event["direction"])], params


def tell_round_scored(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The round's scores and who won it."""
    sides, scores = event["sides"], event["scores"]
    labels = [team_name(names, side) for side in sides]
    winners = together([labels[i] for i in event["winners"]])
    if event["mode"] == "partnership":
        return N_(
            "Round %(round)s: %(team_a)s %(score_a)s, %(team_b)s %(score_b)s; %(winner)s win the round."
        ), {
            "round": event["round"],
            "team_a": labels[0],
            "score_a": signed(scores[0]),
            "team_b": labels[1],
            "score_b": signed(scores[1]),
            "winner": winners,
        }
    params = {
        "round": event["round"],
        "scores": ", ".join(f"{label} {signed(s)}" for label, s in zip(labels, scores, strict=True)),
        "winner": winners,
    }
    if len(event["winners"]) == 1:
        return N_("Round %(round)s: %(scores)s; %(winner)s wins the round."), params
    return N_("Round %(round)s: %(scores)s; %(winner)s share the round."), params


def tell_game_ended(event: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The final result: the winning partnership's rounds, or the winners' total in Iso Play."""
    sides, match, best = event["sides"], event["match"], event["winning_sides"]
    labels = [team_name(names, side) for side in sides]
    winner = together([labels[i] for i in best])
    if event["mode"] == "partnership":
        loser = 1 - best[0]
        return N_("Game over: %(winner)s win %(wins)s rounds to %(losses)s."), {
            "winner": winner,
            "wins": match[best[0]],
            "losses": match[loser],
        }
    params = {
        "winner": winner,
        "total": match[best[0]],
        "totals": ", ".join(f"{label} {signed(total)}" for label, total in zip(labels, match, strict=True)),
    }
    if len(best) == 1:
        return N_("Game over: %(winner)s wins with %(total)s points (%(totals)s)."), params
    return N_("Game over: %(winner)s share the win with %(total)s points (%(totals)s)."), params


TELLERS: Mapping[str, Teller] = {
    "GameStarted": tell_game_started,
    "RoundDealt": tell_round_dealt,
    "CardPlayed": tell_card_played,
    "TrickWon": tell_trick_won,
    "RoundScored": tell_round_scored,
    "GameEnded": tell_game_ended,
}


def score_sheet(state: State) -> ScoreSheet:
    """Per side and round: the score with its tricks and coins; the rounds won or the total."""
    rows = tuple(
        ScoreRow(
            r.round,
            tuple(
                (
                    N_("%(score)s (tricks %(tricks)s, coins %(coins)s)"),
                    {"score": signed(s), "tricks": t, "coins": c},
                )
                for s, t, c in zip(r.scores, r.tricks, r.coins, strict=True)
            ),
            r.winners,
        )
        for r in state.results
    )
    match = match_scores(state)
    standing: tuple[Message, ...]
    if state.iso:
        standing = tuple((N_("total %(total)s"), {"total": signed(t)}) for t in match)
    else:
        standing = tuple((N_("rounds won: %(wins)s"), {"wins": w}) for w in match)
    return ScoreSheet(scoring_sides(state), rows, standing)


def winning_card_name(won: Event) -> Message:
    """The name of a TrickWon event's winning card, in the colour a coin on it made it."""
    play = next(p for p in won["plays"] if p["seat"] == won["winner"])
    return card_name(play["card"], play["colour"] if play["coin"] else None)


def team_name(names: Sequence[str], side: Sequence[int]) -> str:
    """A side's name: its players joined with "&"."""
    return " & ".join(name_of(names, s) for s in side)


def signed(score: int) -> str:
    """A score with its sign: +5, −1, 0."""
    return f"+{score}" if score > 0 else f"−{-score}" if score < 0 else "0"


# One line per way a trick can be won: (trump, reason, direction).
TRICK_WON_LINES: dict[tuple[str | None, str, str], str] = {
    (None, "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, no trump, "
        "highest of the led suit."
    ),
    (None, "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, no trump, "
        "lowest of the led suit."
    ),
    ("R", "trump", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump, "
        "highest Red."
    ),
    ("R", "trump", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump, "
        "lowest Red."
    ),
    ("B", "trump", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump, "
        "highest Blue."
    ),
    ("B", "trump", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump, "
        "lowest Blue."
    ),
    ("R", "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump "
        "but no Red card was played, highest of the led suit."
    ),
    ("R", "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Red is trump "
        "but no Red card was played, lowest of the led suit."
    ),
    ("B", "suit", "high"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump "
        "but no Blue card was played, highest of the led suit."
    ),
    ("B", "suit", "low"): N_(
        "%(player)s wins trick %(trick)s with %(card)s: centre %(red)s Red / %(blue)s Blue, Blue is trump "
        "but no Blue card was played, lowest of the led suit."
    ),
}

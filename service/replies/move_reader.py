"""A move read from the words of a reply: each legal action of the seat is matched against the text
in the ways a person writes it, in English or Japanese ("9 star blue coin", "星9青 コイン", "play AS",
"fold", "set drill tyranny", "aim Bo 1", "cancel yes") or by its card codes. Exactly one legal
action must match; otherwise the reply is refused with the legal moves in the words it accepts.

The words are the rules' own: each game's card names and action words (said in each language by the
catalogue), so a reply reads the same words the pages show.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from rules.double_side.cards import COLOUR_NAMES
from rules.messages import word
from service.eventlog.store import Table
from service.i18n import LANGUAGES
from service.move_words import (
    AIM,
    COIN,
    DECKS,
    FOLD,
    KEEP,
    NOTHING,
    PHRASINGS,
    SPEND,
    TRUMP,
    Phrase,
    card_phrases,
    example,
    move_in_words,
    normalised,
    said_everywhere,
    say_in,
    score,
    speaking_language,
)

__all__ = ["move_in_words", "say_in"]  # kept here for the reply reader's callers


@dataclass(frozen=True)
class MoveReading:
    """What a reply's text says: the action it names (None when it names none or several), the legal
    moves as the reply could write them, and how many actions matched."""

    action: dict[str, Any] | None
    choices: list[str] = field(default_factory=list)
    matches: int = 0


def read_move(table: Table, seat: int, text: str) -> MoveReading:
    """The one legal action of the seat that the text names, if exactly one does."""
    return pick(table, seat, table.rules.legal_actions(table.state, seat), text)


def pick(table: Table, seat: int, legal: list[dict[str, Any]], text: str) -> MoveReading:
    """The one action among `legal` that the text names, if exactly one does."""
    phrasing = PHRASINGS[table.record.game]
    folded, coded = normalised(text).lower(), normalised(text)
    scored = []
    for action in legal:
        best = max((score(phrase, folded, coded) for phrase in phrasing(table, seat, action)), default=0)
        if best:
            scored.append((best, action))
    top = max((points for points, _ in scored), default=0)
    chosen = [action for points, action in scored if points == top]
    language = speaking_language()
    choices = [example(phrasing(table, seat, action), language) for action in legal]
    return MoveReading(chosen[0] if top and len(chosen) == 1 else None, choices, len(chosen) if top else 0)


@dataclass(frozen=True)
class ReplyReading:
    """A reply's text read line by line: the one legal action its lines name (None when none or
    several do), how many they name, and the rest of its lines, its words to the table."""

    action: dict[str, Any] | None
    matches: int
    talk: str


SENTENCE_ENDS = re.compile(r"[,;.!?。、！？；，]")


def read_reply(table: Table, seat: int, text: str) -> ReplyReading:
    """The move a reply names: each line is read on its own (a greeting may come first), so that
    numbers in other sentences never combine with the move's words; a line read as the move is
    never talk. Several lines naming different moves, or one naming several, name no move."""
    legal = table.rules.legal_actions(table.state, seat)
    lines = text.strip().splitlines()
    named: dict[int, MoveReading] = {}
    for index, line in enumerate(lines):
        reading = read_line(table, seat, legal, line)
        if reading.matches:
            named[index] = reading
    talk = "\n".join(line for index, line in enumerate(lines) if index not in named)
    talk = re.sub(r"\n\s*\n(\s*\n)+", "\n\n", talk).strip()
    actions = [reading.action for reading in named.values()]
    distinct = [action for n, action in enumerate(actions) if action not in actions[:n]]
    if len(distinct) == 1 and distinct[0] is not None:
        return ReplyReading(distinct[0], 1, talk)
    several = len(distinct) + sum(reading.matches - 1 for reading in named.values() if reading.action is None)
    return ReplyReading(None, several, talk)


def read_line(table: Table, seat: int, legal: list[dict[str, Any]], line: str) -> MoveReading:
    """The move one line names; if it names several, the one its only move-naming phrase names
    ("8 star blue coin, I had 3 good cards")."""
    reading = pick(table, seat, legal, line)
    if reading.matches <= 1:
        return reading
    phrases = [pick(table, seat, legal, phrase) for phrase in SENTENCE_ENDS.split(line)]
    naming = [phrase for phrase in phrases if phrase.matches]
    if len(naming) == 1 and naming[0].action is not None:
        return naming[0]
    return reading


def reads_as_own_move(table: Table, seat: int, text: str) -> bool:
    """Whether a text reads as a move of this seat, legal now or not: it names a card the seat holds
    or played, or a line of it is only move words ("fold", "spend", "trump green"). Such a text is
    never shown to the table: a repeated reply, say, would show a card played face down."""
    folded, coded = normalised(text).lower(), normalised(text)
    phrasing = PHRASINGS[table.record.game]
    phrases = [phrase for card in seat_cards(table, seat) for phrase in own_card_phrases(table, seat, card)]
    legal = table.rules.legal_actions(table.state, seat)
    phrases += [phrase for action in legal for phrase in phrasing(table, seat, action)]
    if any(score(phrase, folded, coded) for phrase in phrases):
        return True
    return any(only_move_words(table, line) for line in text.splitlines())


def seat_cards(table: Table, seat: int) -> set[str]:
    """The cards a seat holds now or played: its hand, and the cards of its moves in the log."""
    deck = set(DECKS[table.record.game])
    view = table.rules.view(table.state, seat)
    played = [action for action, actor in zip(table.actions, table.actors, strict=True) if actor == seat]
    return strings_in([view.get("hand"), view.get("camp_cards"), played]) & deck


def strings_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return {string for item in value for string in strings_in(item)}
    return set()


def own_card_phrases(table: Table, seat: int, card: str) -> list[Phrase]:
    """A card of the seat written as a move would write it (its code, or its name in any language)."""
    game = table.record.game
    if game == "double_side":
        return card_phrases(game, [card], table.rules.view(table.state, seat)["side"])
    return card_phrases(game, [card])


def only_move_words(table: Table, line: str) -> bool:
    """Whether a line holds move words and nothing else ("fold", "aim Bo 1", "trump green")."""
    words = normalised(line).lower().split()
    names = {name.lower() for name in table.names}
    allowed = move_words() | names
    named_move = any(w in allowed - names for w in words)
    return named_move and all(w in allowed or w.isdigit() for w in words)


def move_words() -> set[str]:
    """The words of moves that name no card, in every language."""
    said = {"play", "set", "my", "move", "please"}
    for message in (COIN, FOLD, TRUMP, AIM, NOTHING, SPEND, KEEP):
        said |= {w.lower() for w in said_everywhere(message)}
    for colour in COLOUR_NAMES.values():
        said |= {w.lower() for w in said_everywhere(word(colour))}
    return said


@dataclass(frozen=True)
class AheadReading:
    """The plays a reply chooses ahead, one per line "<situation in words>: <play>", and the lines
    naming a situation whose play could not be read."""

    plays: list[dict[str, Any]]
    unread: list[str]


def read_ahead(table: Table, seat: int, text: str) -> AheadReading:
    """The plays chosen ahead that the text names, in the words the page uses (the situation's name
    in any language, then the play as a move by reply is written); none while the seat owes a move."""
    rules, state = table.rules, table.state
    names = situation_names(table, seat)
    plays, unread = [], []
    for line in folded(text).splitlines():
        named = situation_named(names, line)
        if named is None:
            continue
        situation, rest = named
        choices = [action for action, _ in rules.ahead.choices(state, seat, situation)]
        chosen = pick(table, seat, choices, rest).action
        if chosen is None:
            unread.append(line.strip())
        else:
            plays.append({"situation": situation, "action": chosen})
    return AheadReading(plays, unread)


def situation_named(names: dict[str, str], line: str) -> tuple[str, str] | None:
    """The situation a line begins with ("<its name>:", a name may hold a colon itself) and the rest
    of the line, or None."""
    lowered = line.strip().lower()
    for name in sorted(names, key=len, reverse=True):
        rest = lowered.removeprefix(name).lstrip()
        if lowered.startswith(name) and rest.startswith(":"):
            return names[name], line.strip()[len(line.strip()) - len(rest) + 1 :]
    return None


def situation_names(table: Table, seat: int) -> dict[str, str]:
    """The situations the seat may choose a play for now, by their name in each language, folded as
    a reply's text is (NFKC: a Japanese name's full-width colon is the reply's plain one)."""
    names = {}
    for situation in table.rules.ahead.situations(table.state, seat):
        for language in LANGUAGES:
            name = say_in(language, table.rules.ahead.situation_name(situation))
            names[folded(name).lower()] = situation
    return names


def folded(text: str) -> str:
    """A reply's text, and the situation names it is matched against, folded alike (NFKC: full-width
    letters, digits and colons as plain ones)."""
    return unicodedata.normalize("NFKC", text)

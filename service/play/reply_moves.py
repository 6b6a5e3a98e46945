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
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import force_locale, get_locale

from rules import card_name, double_side, dualis, dupli, red_black
from rules.base import N_, Message, is_message, word
from service.eventlog.store import Table
from service.i18n import DEFAULT_LANGUAGE, LANGUAGES, say

# A way to write one action: words that must all appear (a word twice: twice), words that must not.
Words = tuple[str, ...]


@dataclass(frozen=True)
class Phrase:
    words: Words
    absent: Words = ()
    codes: Words = ()  # card codes, matched in their own case (a code like "AS" is also a word)
    language: str | None = None  # the language of its words (None: codes only)
    text: str = ""  # the words as the pages write them ("8 of hearts"), for a refusal's list


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
    language = str(get_locale() or DEFAULT_LANGUAGE)
    choices = [example(phrasing(table, seat, action), language) for action in legal]
    return MoveReading(chosen[0] if top and len(chosen) == 1 else None, choices, len(chosen) if top else 0)


def move_in_words(table: Table, seat: int, action: dict[str, Any]) -> str:
    """A move as the reader's language writes it, with its codes: "Moon 3 Blue coin (M3B)"."""
    language = str(get_locale() or DEFAULT_LANGUAGE)
    return example(PHRASINGS[table.record.game](table, seat, action), language)


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
        said |= {w.lower() for w in _said_everywhere(message)}
    for colour in double_side.COLOUR_NAMES.values():
        said |= {w.lower() for w in _said_everywhere(word(colour))}
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
    for line in unicodedata.normalize("NFKC", text).splitlines():
        named = situation_named(names, line)
        if named is None:
            continue
        situation, rest = named
        choices = [action for action, _ in rules.ahead_choices(state, seat, situation)]
        chosen = pick(table, seat, choices, rest).action
        if chosen is None:
            unread.append(line.strip())
        else:
            plays.append({"situation": situation, "action": chosen})
    return AheadReading(plays, unread)


def situation_named(names: dict[str, str], line: str) -> tuple[str, str] | None:
    """The situation a line begins with ("<its name>:", a name may hold a colon itself) and the rest
    of the line, or None."""
    folded = line.strip().lower()
    for name in sorted(names, key=len, reverse=True):
        rest = folded.removeprefix(name).lstrip()
        if folded.startswith(name) and rest.startswith(":"):
            return names[name], line.strip()[len(line.strip()) - len(rest) + 1 :]
    return None


def situation_names(table: Table, seat: int) -> dict[str, str]:
    """The situations the seat may choose a play for now, by their name in each language."""
    names = {}
    for situation in table.rules.ahead_situations(table.state, seat):
        for language in LANGUAGES:
            names[say_in(language, table.rules.situation_name(situation)).lower()] = situation
    return names


def normalised(text: str) -> str:
    """Full-width letters and digits as ASCII (NFKC), punctuation as spaces."""
    return re.sub(r"[^\w\s]", " ", unicodedata.normalize("NFKC", text))


def score(phrase: Phrase, folded: str, coded: str) -> int:
    """How many words of the phrase the text holds (0 unless it holds all, and none of the absent)."""
    needed = Counter(word.lower() for word in phrase.words)
    if any(count_of(word, folded) < times for word, times in needed.items()):
        return 0
    if any(count_of(word.lower(), folded) for word in phrase.absent):
        return 0
    if any(count_of(code, coded) < times for code, times in Counter(phrase.codes).items()):
        return 0  # a pair of the same card is written with its code twice
    return sum(needed.values()) + len(phrase.codes)


def count_of(word: str, text: str) -> int:
    """How often a word stands in the text: a whole word for Latin letters and digits, anywhere for
    Japanese (written without spaces)."""
    if word.isascii():
        return len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", text))
    return text.count(word)


def example(phrases: Iterable[Phrase], language: str) -> str:
    """An action as a refusal lists it: its words in the reader's language, and its codes."""
    ways = list(phrases)
    words = next((p.text or " ".join(p.words) for p in ways if p.language == language and p.words), "")
    codes = next((" ".join(p.codes) for p in ways if p.codes), "")
    return f"{words} ({codes})" if words and codes else words or codes


def in_each_language(*messages: Message, absent: Message | None = None) -> list[Phrase]:
    """Messages said in each language: the words a person writes for an action (a card's name says
    its parameters: "Star", "9", "Blue"), none of `absent`'s words in the text."""
    said = []
    never = tuple(_said_everywhere(absent)) if absent else ()
    for language in LANGUAGES:
        with force_locale(language):
            words = tuple(word for message in messages for word in words_of(message))
            text = " ".join(say(message) for message in messages)
            said.append(Phrase(words, never, language=language, text=text))
    return said


def _said_everywhere(message: Message) -> list[str]:
    said = []
    for language in LANGUAGES:
        with force_locale(language):
            said.extend(words_of(message))
    return said


def words_of(message: Message) -> list[str]:
    _, params = message
    if not params:
        return [say(message)]
    said = (words_of(value) if is_message(value) else [str(value)] for value in params.values())
    return [word for words in said for word in words]


def card_phrases(
    game: str, cards: list[str], *how: str | None, extra: Message | None = None, absent: Message | None = None
) -> list[Phrase]:
    """A card play (or a pair) written by its codes or its names, with an extra word (a coin)."""
    names = [card_name(game, card, *how) for card in cards]
    extras = (extra,) if extra else ()
    # A bare code is the play without the extra (a coin is written out: "S9B coin").
    ways = [[say_in(language, extra)] for language in LANGUAGES] if extra else [[]]
    by_code = [
        Phrase(tuple(words), tuple(_said_everywhere(absent)) if absent else (), codes=tuple(cards))
        for words in ways
    ]
    return [*in_each_language(*names, *extras, absent=absent), *by_code]


def say_in(language: str, message: Message) -> str:
    with force_locale(language):
        return say(message)


# --- each game's ways of writing its actions ------------------------------------------------------------

COIN = word(N_("coin"))
FOLD = word(N_("fold"))
TRUMP = word(N_("trump"))
AIM = word(N_("aim"))
NOTHING = word(N_("nothing"))
SPEND = word(N_("spend"))
KEEP = word(N_("keep"))


def dualis_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if action.get("coin"):
        return card_phrases("dualis", [action["card"]], extra=COIN)
    return card_phrases("dualis", [action["card"]], absent=COIN)


def double_side_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if "trump" in action:
        return in_each_language(TRUMP, word(double_side.COLOUR_NAMES[action["trump"]]))
    side = table.rules.view(table.state, seat)["side"]
    return card_phrases("double_side", [action["card"]], side)


def dupli_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if "set" in action:
        return card_phrases("dupli", list(action["set"]))
    if "target" in action:
        target = action["target"]
        if target is None:
            return in_each_language(AIM, NOTHING)
        owner = table.names[target["seat"]]
        return in_each_language(AIM, word(owner), word(str(target["slot"] + 1)))
    return in_each_language(SPEND if action["cancel"] else KEEP)


def red_black_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if action.get("fold"):
        return in_each_language(FOLD)
    return card_phrases("red_black", [action["card"]])


DECKS: dict[str, Iterable[str]] = {
    "dualis": dualis.CARDS,
    "double_side": double_side.DECK,
    "dupli": dupli.CARD_NAMES,
    "red_black": red_black.DECK,
}

PHRASINGS: dict[str, Callable[[Table, int, dict[str, Any]], list[Phrase]]] = {
    "dualis": dualis_phrases,
    "double_side": double_side_phrases,
    "dupli": dupli_phrases,
    "red_black": red_black_phrases,
}
